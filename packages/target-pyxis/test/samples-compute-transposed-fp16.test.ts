/**
 * samples/pyxis/matmul_transposed_fp16: C = A x B with A stored as A^T (RFP16 [K = 260, 128]) and transposed by the
 * weights path (chip §6.1.3.1, §6.2.4.2; seq §9.4.2 Figure 9-4, Table 9-9, §10.1.4 Figure 10-3), end to end
 * (assemble + link + simulate), against a float64 product computed here.
 *   seq §1.2 rule 3: K a multiple of 4 with FP16 horizontal data (260 is not a multiple of 8);
 *   chip §6.1.3, §1: FP16 takes 2 Exec_Valid cycles per 4 k-values: 2K cycles (K/4 groups x 8 VGRs);
 *   seq §9.4.2: one Hbuf block = 4 rows of A^T = 8 AMEM words before the first product (the fill);
 *   seq §11 / chip §6.2.2: 128 writeback flits, 2 AMEM write cycles per FP16 row; ~100 cycles of write commit.
 * Error bound: FP16 x FP16 (both LnsI5F10), docs/spec-notes.md "error figures and bounds".
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { assemble, loadPyxisIsa } from '@pyxis/target-pyxis/asm';
import { SAMPLES, ensureInputs, npy, runSample } from './samples-compute.harness.js';
import { linkErr } from './ld/helpers.js';

const K = 260;
const MAX_ERR_FP16 = 0.01;
const RMS_ERR_FP16 = 0.005;
const WB_FLITS = 128;
const FILL = 8;
const COMMIT = 100;
const SLACK = 64;

/** float64 C = (A^T)^T B and sum |a||b| per element, from A^T [K, 128] and B [K, 128] (independent of the code under test). */
function reference(at: Float64Array, b: Float64Array): { c: Float64Array; abs: Float64Array } {
  const c = new Float64Array(128 * 128);
  const abs = new Float64Array(128 * 128);
  for (let k = 0; k < K; k++)
    for (let m = 0; m < 128; m++) {
      const x = at[k * 128 + m]!;
      for (let n = 0; n < 128; n++) {
        c[m * 128 + n]! += x * b[k * 128 + n]!;
        abs[m * 128 + n]! += Math.abs(x * b[k * 128 + n]!);
      }
    }
  return { c, abs };
}

describe('samples/pyxis/matmul_transposed_fp16: FP16 A^T transposed on the fly (seq §9.4.2, §10.1.4)', () => {
  ensureInputs(['mm_tr16_at.npy', 'mm_tr16_b.npy']);

  it('C = (A^T)^T x B within the FP16 bound; 2K Exec_Valid cycles + an 8-word fill + FP16 writeback', () => {
    const r = runSample('matmul_transposed_fp16.pasm', 'matmul_transposed_fp16.ld');
    expect(r.report.stop).toBe('done');
    const { c, abs } = reference(npy('mm_tr16_at.npy').data, npy('mm_tr16_b.npy').data);
    const got = r.tensor('c');
    let max = 0;
    let num = 0;
    let den = 0;
    for (let i = 0; i < c.length; i++) {
      max = Math.max(max, Math.abs(got[i]! - c[i]!) / abs[i]!);
      num += (got[i]! - c[i]!) ** 2;
      den += c[i]! ** 2;
    }
    expect(max).toBeLessThanOrEqual(MAX_ERR_FP16);
    expect(Math.sqrt(num / den)).toBeLessThanOrEqual(RMS_ERR_FP16);
    const t = r.compute().trips[0]!;
    expect(t.exec_valid).toBe(2 * K);
    expect(t.macs).toBe(128 * 128 * K);
    const derived = 2 * K + FILL + 2 * WB_FLITS + COMMIT;
    expect(t.cycles).toBeGreaterThanOrEqual(derived);
    expect(t.cycles).toBeLessThanOrEqual(derived + SLACK);
  });

  it('a wrong Table 9-9 layout would show: reading the Hbuf in the FP8 VGR order (Figure 10-2) breaks the product', () => {
    // GH with the loops of Figure 10-2 (VGR = 2w + q) instead of Figure 10-3 (VGR = 4q + w): 6 of 8 VGRs get another
    // row's values, so the test above can fail
    const swap = (t: string, f: string) => (f.endsWith('.pasm') ? t.replace('hbuf_stride_iter_id_dim1=i1 hbuf_stride_iter_id_dim2=i2', 'hbuf_stride_iter_id_dim1=i2 hbuf_stride_iter_id_dim2=i1').replace('loop i1 2 {\n      loop i2 4 {\n        HBUF', 'loop i1 4 {\n      loop i2 2 {\n        HBUF') : t);
    const r = runSample('matmul_transposed_fp16.pasm', 'matmul_transposed_fp16.ld', { edit: swap });
    const { c, abs } = reference(npy('mm_tr16_at.npy').data, npy('mm_tr16_b.npy').data);
    const got = r.tensor('c');
    let max = 0;
    for (let i = 0; i < c.length; i++) max = Math.max(max, Math.abs(got[i]! - c[i]!) / abs[i]!);
    expect(max).toBeGreaterThan(0.1);
  });

  it('the linker reads A^T as [inner, rows] (LD0820, seq §1.2 rule 3): K = 262 is refused, naming the inner dimension', () => {
    const isa = loadPyxisIsa();
    const text = readFileSync(SAMPLES + 'matmul_transposed_fp16.pasm', 'utf8');
    const obj = { file: 'mmt16.pobj', container: assemble([{ file: 'mmt16.pasm', text }], { isa, listing: false }).object };
    const script = readFileSync(SAMPLES + 'matmul_transposed_fp16.ld', 'utf8').replace(/\[260, 128\]/g, '[262, 128]').replace(/data = "mm_tr16_\w+\.npy"; /g, 'zero = true; ');
    const d = linkErr({ script, scriptFile: join(SAMPLES, 'matmul_transposed_fp16.ld'), objects: [obj] });
    expect(d.map((x) => x.code)).toEqual(['LD0820']);
    expect(d[0]!.message).toMatch(/inner dimension 262 \(stored transposed: `at` is A\^T\)/);
  });
});
