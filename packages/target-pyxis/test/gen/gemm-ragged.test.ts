/**
 * pyxis-gen gemm at any legal size (seq §1.2 rule 3: K a multiple of 8 FP8 / 4 FP16; seq §1.3 rule 4: M a multiple
 * of 8; N any): partial tiles padded (docs/generators.md "GEMM", "HBM layouts for any size"). Each kernel is
 * assembled, linked (0 diagnostics) and simulated bit-exact; C is checked against a float64 product computed here
 * from the natural-layout inputs (NAME_ref_a.npy [M, K], NAME_ref_b.npy [K, N]); the stored C is read back from its
 * HBM layout, written out here: c_hbm [batch * ceil(N/128), M, 128], column block b holding columns 128 b .., the last
 * block's columns past N mod 128 pad. Bound per element (docs/generators.md "Error bounds"): |c - ref| <=
 * g * (sum_k |a_k b_k| + |bias| + |R|) + 2^(EB + 1) (C's flush to zero, chip §4.2), g = 0.06 FP8 / 0.01 FP16.
 * FC_RUNS=N runs each flow's property test N times (default 2).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { gemm, type GemmParams } from '../../src/gen/index.js';
import { erf, input, matmul64, runKernel } from './gen.harness.js';

const RUNS = Number(process.env['FC_RUNS'] ?? 2);

/** Runs p; returns the kernel, the run and the worst |c - ref| / allowed (<= 1 passes). */
function check(p: GemmParams) {
  const k = gemm(p);
  const r = runKernel(k);
  expect(r.report.stop).toBe('done');
  expect(r.warnings.map((d) => `${d.code} ${d.message}`)).toEqual([]);
  const { m: M, k: K, n: N } = p;
  const BT = p.batch ?? 1;
  const NB = Math.ceil(N / 128);
  const fp16 = p.dtype === 'fp16';
  const epi = p.epilogue ?? 'none';
  const a = input(k, `${k.name}_ref_a.npy`);
  const b = input(k, `${k.name}_ref_b.npy`);
  const bias = epi.startsWith('bias') ? input(k, `${k.name}_bias.npy`) : undefined;
  const rr = p.residual ? input(k, `${k.name}_ref_r.npy`) : undefined;
  const c = r.tensor('c_hbm');
  // exactly M rows per column block (the pad rows of the last row block were discarded, not stored)
  expect(c.length).toBe(BT * NB * M * 128);
  const flush = 2 ** ((epi === 'none' ? -8 : -15) + 1);
  const g = fp16 ? 0.01 : 0.06;
  let worst = 0;
  let padNonZero = 0;
  for (let z = 0; z < BT; z++) {
    const ref = matmul64(a.subarray(z * M * K, (z + 1) * M * K), b.subarray(z * K * N, (z + 1) * K * N), M, K, N);
    for (let i = 0; i < M; i++)
      for (let j = 0; j < NB * 128; j++) {
        const got = c[((z * NB + Math.floor(j / 128)) * M + i) * 128 + (j % 128)]!;
        if (j >= N) {
          if (got !== 0 && !epi.endsWith('gelu')) padNonZero++;
          continue;
        }
        const e = i * N + j;
        const bi = bias ? bias[j]! : 0;
        let x = ref.c[e]! + bi;
        if (epi.endsWith('relu')) x = Math.max(0, x);
        let allowed = g * (ref.abs[e]! + Math.abs(bi)) + flush;
        if (epi.endsWith('gelu')) {
          x = 0.5 * x * (1 + erf(x / Math.SQRT2));
          allowed = 1.13 * allowed + 0.0034 + 3 * 2 ** -11 * Math.abs(x);
        }
        const rv = rr ? rr[z * M * N + e]! : 0;
        allowed += rr ? 2 ** -11 * Math.abs(x + rv) : 0;
        expect(Number.isFinite(got)).toBe(true);
        worst = Math.max(worst, Math.abs(got - (x + rv)) / allowed);
      }
  }
  // the pad columns are the grid's products with B's zero pad columns: exact zeros (GELU: the LUT's value at 0)
  expect(padNonZero).toBe(0);
  return { k, r, worst };
}


const cycles = (r: ReturnType<typeof runKernel>, u: string) => r.report.engines.find((x) => x.name === u)?.uie?.['compute'] as { exec_valid: number; macs: number };

describe('pyxis-gen gemm: any legal M x K x N (partial tiles padded)', () => {
  it('FP8 row-shifted 200 x 72 x 96: 2 tiles, the grid runs exactly K/8 groups of the padded Hbuf block; exact HBM bytes', () => {
    const { k, r, worst } = check({ m: 200, k: 72, n: 96 });
    expect(worst).toBeLessThanOrEqual(1);
    // Exec_Valid = K/8 groups x 8 VGRs = K cycles per tile (the pad k of the 128-byte Hbuf block not computed)
    expect(cycles(r, 'c0.uie0').exec_valid).toBe(2 * 72);
    // A [200, 128] (rows padded to one Hbuf block, resident: one load of 200 rows), B [1, 72, 128] once,
    // C 128 + 72 rows of 256 B
    expect(k.meta.hbmBytes).toBe(200 * 128 + 72 * 128 + 200 * 256);
    expect(r.report.memory.hbm_bytes_read + r.report.memory.hbm_bytes_written).toBe(k.meta.hbmBytes);
    expect(k.meta.flops).toBe(2 * 200 * 72 * 96);
    expect(k.ld).toMatch(/tensor a_hbm \{ format = RFP8; shape = \[200, 128\]/);
    expect(k.ld).toMatch(/tensor c_hbm \{ format = RFP16; shape = \[1, 200, 128\]/);
    expect(k.pasm).toMatch(/loop i1 16 final 9 when \[i0\]/);
    expect(k.pasm).toMatch(/loop i1 128 final 72 when \[i0\] post_final/);
  });

  it('the smallest: FP8 8 x 8 x 8 (one tile, 8 valid rows and columns)', () => {
    const { r, worst } = check({ m: 8, k: 8, n: 8 });
    expect(worst).toBeLessThanOrEqual(1);
    expect(cycles(r, 'c0.uie0').exec_valid).toBe(8);
  });

  it('FP16 row-shifted 1000 x 4 x 130 on 2 UIEs of 2 clusters (16 tiles of one 4-value k-group)', () => {
    const { r, worst } = check({ m: 1000, k: 4, n: 130, dtype: 'fp16', clusters: [0, 1] });
    expect(worst).toBeLessThanOrEqual(1);
    expect(cycles(r, 'c0.uie0').exec_valid + cycles(r, 'c1.uie0').exec_valid).toBe(16 * 8);
  });

  it('FP8 transposed 136 x 24 x 200, bias_relu, on 2 UIEs', () => {
    const { worst } = check({ m: 136, k: 24, n: 200, transposed: true, uies: 2, epilogue: 'bias_relu' });
    expect(worst).toBeLessThanOrEqual(1);
  });

  it('FP16 transposed 72 x 12 x 40, bias + residual (RMW_Add of the short tile)', () => {
    const { worst } = check({ m: 72, k: 12, n: 40, dtype: 'fp16', transposed: true, epilogue: 'bias', residual: true });
    expect(worst).toBeLessThanOrEqual(1);
  });

  it('FP8 GELU epilogue 24 x 136 x 20', () => {
    const { worst } = check({ m: 24, k: 136, n: 20, epilogue: 'gelu' });
    expect(worst).toBeLessThanOrEqual(1);
  });

  it('streamed (AMEM budget), batch 2 with the residual: 136 x 136 x 136 per GEMM, short blocks reloaded per tile', () => {
    const p: GemmParams = { m: 136, k: 136, n: 136, batch: 2, residual: true, amemBudget: 2 * (128 * 256 + 136 * 128 + 128 * 256) };
    const { k, r, worst } = check(p);
    expect(worst).toBeLessThanOrEqual(1);
    expect(k.ld).not.toMatch(/tensor (acl|bcl)/);
    // per GEMM 4 tiles (column blocks 0, 1 x row blocks 0, 1), each loading its A block (128 or 8 rows of 136 -> 256
    // bytes) and its B block [136, 128] when they change, R in and C out (rows x 256 B): A reloads on every tile
    // (the row block changes), B once per column block
    const aRows = 2 * (128 + 8) * 2;
    expect(k.meta.hbmBytes).toBe(aRows * 256 + 2 * 2 * 136 * 128 + 2 * 2 * (128 + 8) * 256 * 2);
    expect(r.report.memory.hbm_bytes_read + r.report.memory.hbm_bytes_written).toBe(k.meta.hbmBytes);
    // batch z's row blocks start at z * 136: a short block loads its 8 rows into the head of a 128-row buffer
    expect(k.ld).toMatch(/src = a_hbm\[264:272\]; dst = a0_\d\[0:8\]/);
  });

  it('resident A with short blocks: a run of row blocks ends after each batch\'s short last block', () => {
    const k = gemm({ m: 136, k: 64, n: 128, batch: 2, dtype: 'fp16' });
    expect([...k.ld.matchAll(/trip (lda_c0_\d+) \{ src = a_hbm\[(\d+):(\d+)\]; dst = (\S+);/g)].map((m) => [m[2], m[3], m[4]])).toEqual([
      ['0', '136', 'acl0_0[0:136]'],
      ['136', '272', 'acl0_1[0:136]'],
    ]);
  });

  // the property, per flow: random legal sizes of one or two blocks each way, epilogue, residual, batch, 1-2 UIEs,
  // operands resident in AMEM or streamed through double buffers
  const flows: Array<[string, GemmParams['dtype'], boolean]> = [
    ['FP8 row-shifted', 'fp8', false],
    ['FP16 row-shifted', 'fp16', false],
    ['FP8 transposed', 'fp8', true],
    ['FP16 transposed', 'fp16', true],
  ];
  for (const [title, dtype, tr] of flows)
    it(`${title}: any legal (M, K, N), epilogue, residual, batch, UIEs: within the bound, K/${dtype === 'fp16' ? 4 : 8} groups x 8 Exec_Valid per tile, HBM bytes as simulated`, () => {
      const g = dtype === 'fp16' ? 4 : 8;
      fc.assert(
        fc.property(
          fc.record({
            m8: fc.integer({ min: 1, max: 20 }),
            kq: fc.integer({ min: 1, max: 24 }),
            n: fc.integer({ min: 1, max: 200 }),
            epilogue: fc.constantFrom('none', 'bias', 'relu', 'bias_relu', 'gelu', 'bias_gelu'),
            residual: fc.boolean(),
            batch: fc.integer({ min: 1, max: 2 }),
            uies: fc.integer({ min: 1, max: 2 }),
            streamed: fc.boolean(),
            seed: fc.integer({ min: 1, max: 1000 }),
          }),
          ({ m8, kq, n, epilogue, residual, batch, uies, streamed, seed }) => {
            const K = g * kq;
            const eb = dtype === 'fp16' ? 2 : 1;
            // streamed: an AMEM budget of just the double buffers (A [128, K rounded to 128 bytes] or A^T [K, 128], B [K, 128], C [128, 128] FP16) and the bias row
            const aBytes = tr ? K * 128 * eb : 128 * Math.ceil((K * eb) / 128) * 128;
            const budget = uies * 2 * (aBytes + K * 128 * eb + 128 * 256) + Math.ceil((2 * n) / 32) * 32;
            const p: GemmParams = { m: 8 * m8, k: K, n, dtype, transposed: tr, epilogue, residual, batch, uies, seed, ...(streamed ? { amemBudget: budget } : {}) };
            const { k, r, worst } = check(p);
            expect(worst).toBeLessThanOrEqual(1);
            const tiles = batch * Math.ceil(p.m / 128) * Math.ceil(n / 128);
            let ev = 0;
            for (let u = 0; u < uies; u++) ev += cycles(r, `c0.uie${u}`)?.exec_valid ?? 0;
            expect(ev).toBe((tiles * 8 * p.k) / g);
            expect(r.report.memory.hbm_bytes_read + r.report.memory.hbm_bytes_written).toBe(k.meta.hbmBytes);
          },
        ),
        { numRuns: RUNS },
      );
    });

  it('--timing-only gives the bit-exact run\'s cycles on a ragged kernel (200 x 72 x 96)', () => {
    const k = gemm({ m: 200, k: 72, n: 96 });
    expect(runKernel(k, { timingOnly: true }).report.cycles).toBe(runKernel(k).report.cycles);
  });
});
