/**
 * Quantisation of float tensors converted by the linker (docs/linker.md "Quantisation of float tensors"): max and RMS
 * relative error, saturated and flushed counts in the map (text and JSON) and RPT0001 above the threshold. Expected
 * figures come from an independent RFP8 quantiser written here from chip §4.1 (S E4 F3, value 1.F x 2^(E+EB),
 * code 0 = zero, all-ones magnitude = the saturating maximum), on values whose nearest code is unambiguous.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { writeNpy } from '@pyxis/container';
import { assemble, loadPyxisIsa } from '@pyxis/target-pyxis/asm';
import { link, mapJson, mapText } from '@pyxis/target-pyxis/ld';
import { vfs } from './helpers.js';

const samples = fileURLToPath(new URL('../../../../samples/pyxis/', import.meta.url));
const isa = loadPyxisIsa();
// one row: the tensors are [1, 128] (the program's footprint stays inside them, LD0832)
const copyObj = () => assemble([{ file: 'copy.pasm', text: readFileSync(samples + 'copy.pasm', 'utf8').replace(/loop i0 8/g, 'loop i0 1') }], { isa, listing: false }).object;

/** Every RFP8 magnitude at `eb` (chip §4.1): 0, and 1.F x 2^(E+EB) for (E, F) != (0, 0). */
function rfp8Magnitudes(eb: number): number[] {
  const out = [0];
  for (let e = 0; e < 16; e++) for (let f = 0; f < 8; f++) if (e || f) out.push((1 + f / 8) * 2 ** (e + eb));
  return out;
}
function nearest(x: number, mags: number[]): number {
  const a = Math.abs(x);
  let best = 0;
  for (const m of mags) if (Math.abs(m - a) < Math.abs(best - a)) best = m;
  return Math.sign(x) * best;
}

const script = (eb: number) => `
memory amem0 { space = amem; cluster = 0; origin = 0; length = 32M; }
tensor src { format = RFP8; shape = [1, 128]; eb = ${eb}; region = amem0; data = "x.npy"; }
tensor dst { format = RFP8; shape = [1, 128]; region = amem0; zero = true; }
queue uie0 { trip copy { amem_read = copy_rd; amem_write = copy_wr; read = src; write = dst; } }
`;

function run(values: number[], eb: number) {
  const data = new Float32Array(128);
  data.set(values);
  return link({ script: script(eb), scriptFile: '/v/q.ld', objects: [{ file: 'copy.pobj', container: copyObj() }], readFile: vfs({ 'x.npy': writeNpy({ dtype: 'float32', shape: [1, 128], data }) }) });
}

describe('quantisation of float tensors (pyxis-ld)', () => {
  it('exact data: zero error, no warning, SNR Infinity (JSON string)', () => {
    const mags = rfp8Magnitudes(-3).slice(1, 100);
    const r = run(mags, -3);
    expect(r.diagnostics.filter((d) => d.code === 'RPT0001')).toEqual([]);
    const q = r.map.quantisation.find((x) => x.name === 'src')!;
    expect(q).toMatchObject({ format: 'RFP8', eb: -3, elements: 128, zeros: 29, max_rel_error: 0, rms_rel_error: 0, saturated: 0, flushed_to_zero: 0 });
    expect(JSON.parse(mapJson(r.map)).quantisation[0].snr_db).toBe('Infinity');
  });

  it('rounded, saturated and flushed values: figures of the reference quantiser, RPT0001 at the eb attribute', () => {
    const eb = 0;
    const mags = rfp8Magnitudes(eb);
    const top = Math.max(...mags); // 1.875 x 2^15
    // rounded (nearest unambiguous), exact top (not saturated: unchanged), beyond top (saturated), tiny (flushed)
    const values = [8.3, -8.3, 19.5, 100.2, top, -top, 2 * top, -5 * top, 1e-6, -1e-5, 3, 1.25];
    const r = run(values, eb);
    const q = r.map.quantisation.find((x) => x.name === 'src')!;
    let maxRel = 0;
    let sr2 = 0;
    let n = 0;
    let sat = 0;
    let flushed = 0;
    for (const x of values) {
      const y = nearest(x, mags);
      const rel = Math.abs((y - x) / x);
      maxRel = Math.max(maxRel, rel);
      sr2 += rel * rel;
      n++;
      if (y === 0) flushed++;
      if (Math.abs(x) > top) sat++;
    }
    expect(q.saturated).toBe(sat);
    expect(sat).toBe(2);
    expect(q.flushed_to_zero).toBe(flushed);
    expect(flushed).toBe(2);
    expect(q.zeros).toBe(128 - values.length);
    expect(q.max_rel_error).toBeCloseTo(maxRel, 6);
    expect(q.rms_rel_error).toBeCloseTo(Math.sqrt(sr2 / n), 6);
    const w = r.diagnostics.filter((d) => d.code === 'RPT0001');
    expect(w).toHaveLength(1);
    expect(w[0]).toMatchObject({ severity: 'warning', span: { file: '/v/q.ld', line: 3, column: 52 } });
    expect(w[0]!.message).toMatch(/2 of 128 values saturated, 2 of 12 non-zero values flushed to zero, RMS relative error [\d.]+% \(over 5%\)/);
    const text = mapText(r.map);
    expect(text).toMatch(/Float tensors converted/);
    expect(text).toMatch(/src\s+RFP8\s+0\s+128\s+max_rel_err=1\.000e\+0 rms_rel_err=[\d.e+-]+ snr=[\d.]+ dB saturated=2 flushed_to_zero=2/);
  });

  it('one flushed value in 128 is no flush warning (<= 1 %), but its 100 % error lifts the RMS over 5 %', () => {
    // 127 exact non-zero values and one flushed: 1 / 128 < 1 %... of 128 non-zero values: 0.78 %
    const mags = rfp8Magnitudes(0).slice(1, 128);
    const r = run([...mags, 1e-9], 0);
    const q = r.map.quantisation[0]!;
    expect(q.flushed_to_zero).toBe(1);
    expect(q.rms_rel_error).toBeCloseTo(Math.sqrt(1 / 128), 9);
    expect(r.diagnostics.filter((d) => d.code === 'RPT0001').map((d) => d.message)).toEqual([expect.stringMatching(/RMS relative error 8\.84%/)]);
  });
});
