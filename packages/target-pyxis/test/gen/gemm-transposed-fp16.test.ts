/**
 * pyxis-gen gemm --dtype fp16 --transposed (gen/gemmTransposed.ts; samples/pyxis/matmul_transposed_fp16.pasm): A stored
 * as A^T and transposed by the weights path (seq §9.4.2 Figure 9-4, Table 9-9, §10.1.4 Figure 10-3). Generated kernels
 * are assembled, linked with 0 diagnostics and simulated bit-exact; C is checked against a float64 product computed
 * here straight from the linked HBM layouts (at_hbm [BT*M/128, K, 128], b_hbm [BT*N/128, K, 128], c_hbm
 * [BT*N/128, M, 128]), not through the generator's reference copies.
 *
 * Bound (docs/generators.md "Error bounds"): per element |c - ref| <= 0.01 sum|a b| + 2^(EB_C + 1): the FP16 grid bound
 * (both operands LnsI5F10; one product's worst relative error is 0.85%, measured over all 2^20 mantissa pairs) plus
 * C's flush to zero below its smallest normal (RFP16 has no subnormals, chip §4.2; EB_C -8 without, -15 with a VPU
 * epilogue), which only small K makes visible; RMS relative error <= 0.005.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { gemm, GenError, type GemmParams } from '../../src/gen/index.js';
import { erf, input, runKernel } from './gen.harness.js';

const MAX = 0.01;
const RMS = 0.005;

/** float64 C and sum|a b| in the c_hbm layout [BT*N/128, M, 128] from at_hbm and b_hbm as linked. */
function reference(at: Float64Array, b: Float64Array, BT: number, M: number, K: number, N: number) {
  const c = new Float64Array(BT * M * N);
  const abs = new Float64Array(BT * M * N);
  for (let z = 0; z < BT; z++)
    for (let nb = 0; nb < N / 128; nb++)
      for (let mb = 0; mb < M / 128; mb++)
        for (let k = 0; k < K; k++) {
          const arow = ((z * M) / 128 + mb) * K * 128 + k * 128;
          const brow = ((z * N) / 128 + nb) * K * 128 + k * 128;
          for (let i = 0; i < 128; i++) {
            const x = at[arow + i]!;
            const o = ((z * N) / 128 + nb) * M * 128 + (mb * 128 + i) * 128;
            for (let j = 0; j < 128; j++) {
              const pr = x * b[brow + j]!;
              c[o + j]! += pr;
              abs[o + j]! += Math.abs(pr);
            }
          }
        }
  return { c, abs };
}

function run(p: GemmParams) {
  const k = gemm({ dtype: 'fp16', transposed: true, ...p });
  const r = runKernel(k);
  expect(r.report.stop).toBe('done');
  expect(r.warnings.map((d) => `${d.code} ${d.message}`)).toEqual([]);
  const BT = p.batch ?? 1;
  const ref = reference(input(k, `${k.name}_at.npy`), input(k, `${k.name}_b.npy`), BT, p.m, p.k, p.n);
  return { k, r, ...ref, got: r.tensor('c_hbm') };
}

/** Worst |c - ref| / (MAX * scale + flush) (<= 1 passes) and the RMS relative error. */
function worst(got: ArrayLike<number>, ref: Float64Array, scale: Float64Array, flush: number) {
  let w = 0;
  let num = 0;
  let den = 0;
  for (let i = 0; i < ref.length; i++) {
    const d = got[i]! - ref[i]!;
    w = Math.max(w, Math.abs(d) / (MAX * scale[i]! + flush));
    num += d * d;
    den += ref[i]! * ref[i]!;
  }
  return { w, rms: Math.sqrt(num / den) };
}

const execValid = (r: ReturnType<typeof runKernel>, name: string) => (r.report.engines.find((x) => x.name === name)?.uie?.['compute'] as { exec_valid: number }).exec_valid;

describe('pyxis-gen gemm FP16 transposed: sizes legal for 16-bit data (seq §1.2 rule 3: K a multiple of 4)', () => {
  it('the smallest: 128 x 4 x 128 (one Hbuf block of 4 rows of A^T, 8 Exec_Valid cycles)', () => {
    const { r, got, c, abs } = run({ m: 128, k: 4, n: 128 });
    const e = worst(got, c, abs, 2 ** -7);
    expect(e.w).toBeLessThanOrEqual(1);
    expect(e.rms).toBeLessThanOrEqual(RMS);
    expect(execValid(r, 'c0.uie0')).toBe(2 * 4);
  });

  it('K = 260 (not a multiple of 8), 256 x 260 x 256 on 2 UIEs of 2 clusters: 2K Exec_Valid cycles per tile', () => {
    const { k, r, got, c, abs } = run({ m: 256, k: 260, n: 256, clusters: [0, 1], uies: 2 });
    const e = worst(got, c, abs, 2 ** -7);
    expect(e.w).toBeLessThanOrEqual(1);
    expect(e.rms).toBeLessThanOrEqual(RMS);
    // 4 tiles over 4 UIEs, one each: K/4 groups x 8 VGRs (chip §6.1.3, FP16 at half the FP8 rate)
    for (const u of ['c0.uie0', 'c0.uie1', 'c1.uie0', 'c1.uie1']) expect(execValid(r, u)).toBe(2 * 260);
    expect(k.meta.flops).toBe(2 * 256 * 260 * 256);
    // HBM bytes: each cluster loads its 2 A^T blocks [260, 128] and its 1 B block [260, 128] once (FP16: 260 x 256 B,
    // no partition padding), and stores 2 C tiles [128, 128] RFP16
    expect(k.meta.hbmBytes).toBe(2 * (2 + 1) * 260 * 256 + 4 * 128 * 256);
    expect(k.pasm).toMatch(/LD_1ROW_16B_TRANS log2_ptns_per_hlane=1/);
    expect(k.pasm).toMatch(/RD_TRANS_1X1_MATMUL_FP16/);
    // --timing-only (no Hbuf bytes, the tbuf rules and port checks kept): the same cycles, C not computed
    const t = runKernel(k, { timingOnly: true });
    expect(t.report.stop).toBe('done');
    expect(t.report.cycles).toBe(r.report.cycles);
    for (const u of ['c0.uie0', 'c1.uie1']) expect(execValid(t, u)).toBe(2 * 260);
  });

  it('bit-identical to the row-shifted FP16 flow on the same inputs (K = 64): the Table 9-9 layout hands GX the same k-groups', () => {
    const p: GemmParams = { m: 128, k: 64, n: 128, dtype: 'fp16', seed: 7 };
    const rs = runKernel(gemm(p)).tensor('c_hbm');
    const tr = runKernel(gemm({ ...p, transposed: true })).tensor('c_hbm');
    expect(tr.length).toBe(rs.length);
    let diff = 0;
    for (let i = 0; i < rs.length; i++) if (rs[i] !== tr[i]) diff++;
    expect(diff).toBe(0);
    expect(rs.some((v) => v !== 0)).toBe(true);
  });
});

describe('pyxis-gen gemm FP16 transposed: property over legal K (runs: FC_RUNS, default 4)', () => {
  it('any K = 4j (4..512), M and N one or two tiles, any seed: within the bound, 2K Exec_Valid cycles per tile', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 128 }), fc.integer({ min: 1, max: 2 }), fc.integer({ min: 1, max: 2 }), fc.integer({ min: 1, max: 1000 }), (j, mt, nt, seed) => {
        const p: GemmParams = { m: 128 * mt, k: 4 * j, n: 128 * nt, seed };
        const { r, got, c, abs } = run(p);
        const e = worst(got, c, abs, 2 ** -7);
        expect(e.w).toBeLessThanOrEqual(1);
        expect(e.rms).toBeLessThanOrEqual(RMS);
        expect(execValid(r, 'c0.uie0')).toBe(mt * nt * 2 * p.k);
      }),
      { numRuns: Number(process.env['FC_RUNS'] ?? 4), seed: 20261129 },
    );
  });
});

describe('pyxis-gen gemm FP16 transposed: streaming, epilogues, residual, batch', () => {
  it('streamed through double buffers (--amem-budget): 384 x 132 x 256, 6 A^T loads into 2 buffers, each after the tiles of the load two back', () => {
    // A^T tile 132 x 256 B = 33 KiB, B 33 KiB, C 32 KiB: 2 x 98 KiB of double buffers fit in 210,000 B, the 3 resident A^T blocks do not
    const { k, got, c, abs } = run({ m: 384, k: 132, n: 256, amemBudget: 210000 });
    const e = worst(got, c, abs, 2 ** -7);
    expect(e.w).toBeLessThanOrEqual(1);
    expect(e.rms).toBeLessThanOrEqual(RMS);
    expect(k.ld).not.toMatch(/tensor acl/);
    const loadsA = [...k.ld.matchAll(/trip (lda0_\d+) \{ src = at_hbm\[(\d+)\]/g)].map((m) => [m[1]!, Number(m[2])] as const);
    expect(loadsA).toEqual([0, 1, 2, 0, 1, 2].map((mi, t) => [`lda0_${t}`, mi]));
    const deps = new Map([...k.ld.matchAll(/^(lda0_\d+) after (.*);$/gm)].map((m) => [m[1]!, m[2]!.split(', ')]));
    for (let t = 0; t < 6; t++) expect(deps.get(`lda0_${t}`)).toEqual(t < 2 ? undefined : [`mm0_${t - 2}`]);
  });

  it('bias_gelu on the VPU + residual (InMemAdd), batch 2 on 2 UIEs', () => {
    const p: GemmParams = { m: 128, k: 68, n: 256, batch: 2, uies: 2, epilogue: 'bias_gelu', residual: true };
    const { k, got, c } = run(p);
    const bias = input(k, `${k.name}_bias.npy`);
    const rr = input(k, `${k.name}_r.npy`); // [BT*N/128, M, 128], the c_hbm layout
    const { abs } = reference(input(k, `${k.name}_at.npy`), input(k, `${k.name}_b.npy`), 2, 128, 68, 256);
    // GELU: |GELU'| <= 1.13 passes the grid error (0.01 sum|ab|, + the C flush at EB -15) through; the LUT's
    // interpolation error <= 0.0034; FP16 roundings (2^-11) of the VPU result and of the RMW_Add sum
    let w = 0;
    for (let i = 0; i < c.length; i++) {
      const n = Math.floor(i / (128 * 128)) % 2; // column block within a batch
      const bi = bias[n * 128 + (i % 128)]!;
      const x = c[i]! + bi;
      const g = 0.5 * x * (1 + erf(x / Math.SQRT2));
      const want = g + rr[i]!;
      const allowed = 1.13 * (MAX * (abs[i]! + Math.abs(bi)) + 2 ** -14) + 0.0034 + 3 * 2 ** -11 * (Math.abs(g) + Math.abs(rr[i]!));
      w = Math.max(w, Math.abs(got[i]! - want) / allowed);
    }
    expect(w).toBeLessThanOrEqual(1);
  });
});

describe('pyxis-gen gemm FP16 transposed: illegal sizes name the parameter and the rule', () => {
  const bad: Array<[GemmParams, string, RegExp]> = [
    [{ m: 128, k: 66, n: 128 }, 'GEN0003', /^GEN0003: k: must be a multiple of 4 \(got 66\): seq §1.2 rule 3: the inner dimension of a MatMul with an FP16 horizontal operand/],
    [{ m: 128, k: 16388, n: 128 }, 'GEN0002', /k: must be in 4..16384/],
    [{ m: 132, k: 64, n: 128 }, 'GEN0003', /m: must be a multiple of 8 \(got 132\): seq §1.3 rule 4/],
    [{ m: 1536, k: 16384, n: 128, uies: 12 }, 'GEN0008', /double-buffered tiles need \d+ bytes of AMEM/],
  ];
  for (const [p, code, re] of bad)
    it(`${code}: ${JSON.stringify(p)}`, () => {
      let err: unknown;
      try {
        gemm({ dtype: 'fp16', transposed: true, ...p });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(GenError);
      expect((err as GenError).code).toBe(code);
      expect((err as GenError).message).toMatch(re);
    });
});
