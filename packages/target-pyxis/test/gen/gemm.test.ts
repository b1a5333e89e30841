/**
 * pyxis-gen gemm (packages/target-pyxis/src/gen/gemm.ts): generated kernels assembled, linked without warnings and
 * simulated bit-exact; C against a float64 product of the same inputs computed here. Bounds (docs/generators.md
 * "Error bounds", the samples' bounds of docs/spec-notes.md): normwise max |c - ref| / sum|a b| <= 0.06 (FP8, the
 * horizontal operand in LnsI5F3), 0.01 (FP16, LnsI5F10); the FP16 output rounding adds <= 2^-11 relative.
 */
import { describe, expect, it } from 'vitest';
import { gemm, GenError, type GemmParams } from '../../src/gen/index.js';
import { erf, errors, fromColumnBlocks, input, matmul64, runKernel } from './gen.harness.js';

const BOUND = { fp8: { max: 0.06, rms: 0.04 }, fp16: { max: 0.01, rms: 0.005 } };

function check(p: GemmParams) {
  const k = gemm(p);
  const r = runKernel(k);
  expect(r.report.stop).toBe('done');
  expect(r.warnings.map((d) => `${d.code} ${d.message}`)).toEqual([]);
  const a = input(k, `${k.name}_ref_a.npy`);
  const b = input(k, `${k.name}_ref_b.npy`);
  const { c, abs } = matmul64(a, b, p.m, p.k, p.n);
  const c64 = fromColumnBlocks(r.tensor('c_hbm'), p.m, p.n);
  return { k, r, c64, c, abs };
}

describe('pyxis-gen gemm: tiled over UIEs and clusters, operands streamed from HBM (double-buffered)', () => {
  it('FP8 row-shifted 256 x 256 x 256 on 2 UIEs: C within the FP8 bound; every tile computed; HBM traffic', () => {
    const { k, r, c64, c, abs } = check({ m: 256, k: 256, n: 256, uies: 2 });
    const e = errors(c64, c, abs);
    expect(e.bad).toBe(0);
    expect(e.max).toBeLessThanOrEqual(BOUND.fp8.max);
    expect(e.rms).toBeLessThanOrEqual(BOUND.fp8.rms);
    // each UIE ran 2 tiles of K = 256 Exec_Valid cycles (chip §6.1.3: one 8-wide dot product per LLC per cycle)
    for (const u of [0, 1]) {
      const cs = r.report.engines.find((x) => x.name === `c0.uie${u}`)?.uie?.['compute'] as { exec_valid: number; macs: number };
      expect(cs.exec_valid).toBe(2 * 256);
      expect(cs.macs).toBe(2 * 128 * 128 * 256);
    }
    expect(k.meta.flops).toBe(2 * 256 ** 3);
  });
});

describe('pyxis-gen gemm: operands streamed through double buffers (an AMEM budget too small to keep them resident)', () => {
  it('FP8 384 x 256 x 384 on 1 UIE, 192 KiB: 9 A and 3 B loads into 2 + 2 buffers, each after the tiles of the load two back only', () => {
    // budget = 2 x (A tile + B tile + C tile) = 2 x (32 + 32 + 32) KiB: the double buffers fit, 3 resident blocks do not
    const p: GemmParams = { m: 384, k: 256, n: 384, amemBudget: 2 * 3 * 32768 };
    const { k, r, c64, c, abs } = check(p);
    const e = errors(c64, c, abs);
    expect(e.bad).toBe(0);
    expect(e.max).toBeLessThanOrEqual(BOUND.fp8.max);
    expect(e.rms).toBeLessThanOrEqual(BOUND.fp8.rms);
    expect(k.ld).not.toMatch(/tensor (acl|bcl)/);
    for (const t of ['a0_0', 'a0_1', 'b0_0', 'b0_1', 'c0_0', 'c0_1']) expect(k.ld).toMatch(new RegExp(`tensor ${t} \\{`));
    // tiles in column-block-major order t = 3 ni + mi: A changes every tile (loads 0..8), B every 3 tiles (0, 3, 6)
    const deps = new Map([...k.ld.matchAll(/^(ld[ab]0_\d+) after (.*);$/gm)].map((m) => [m[1]!, m[2]!.split(', ')]));
    const loadsA = [...k.ld.matchAll(/trip (lda0_\d+) \{ src = a_hbm\[(\d+):/g)].map((m) => [m[1]!, Number(m[2]) / 128] as const);
    const loadsB = [...k.ld.matchAll(/trip (ldb0_\d+) \{ src = b_hbm\[(\d+)\]/g)].map((m) => [m[1]!, Number(m[2])] as const);
    expect(loadsA).toEqual([0, 1, 2, 0, 1, 2, 0, 1, 2].map((mi, t) => [`lda0_${t}`, mi]));
    expect(loadsB).toEqual([0, 1, 2].map((ni) => [`ldb0_${3 * ni}`, ni]));
    // load q writes buffer q mod 2 once every tile that read load q - 2 has run, and waits for nothing else: load q + 1
    // is free to run while the tiles of load q compute
    for (let t = 0; t < 9; t++) expect(deps.get(`lda0_${t}`)).toEqual(t < 2 ? undefined : [`mm0_${t - 2}`]);
    expect(deps.get('ldb0_0')).toBeUndefined();
    expect(deps.get('ldb0_3')).toBeUndefined();
    expect(deps.get('ldb0_6')).toEqual(['mm0_0', 'mm0_1', 'mm0_2']);
    const h2a = r.report.engines.find((x) => x.name === 'c0.h2a');
    expect(h2a?.trips).toBe(12);
  });
});

describe('pyxis-gen gemm: flows and epilogues', () => {
  const cases: Array<[string, GemmParams, 'fp8' | 'fp16']> = [
    ['FP16 row-shifted 128 x 128 x 128, 2 clusters', { m: 128, k: 128, n: 256, dtype: 'fp16', clusters: [0, 1] }, 'fp16'],
    ['FP8 transposed A 256 x 136 x 128', { m: 256, k: 136, n: 128, transposed: true, uies: 2 }, 'fp8'],
    ['FP8 residual add (RMW_Add)', { m: 128, k: 128, n: 256, residual: true }, 'fp8'],
  ];
  for (const [title, p, dt] of cases)
    it(title, () => {
      const { k, c64, c, abs } = check(p);
      if (p.residual) {
        const rr = input(k, `${k.name}_ref_r.npy`);
        for (let i = 0; i < c.length; i++) c[i]! += rr[i]!;
      }
      const e = errors(c64, c, abs);
      expect(e.bad).toBe(0);
      expect(e.max).toBeLessThanOrEqual(BOUND[dt].max);
      expect(e.rms).toBeLessThanOrEqual(BOUND[dt].rms);
    });

  const epis: Array<[GemmParams['epilogue'], (x: number, bias: number) => number]> = [
    ['bias_relu', (x, b) => Math.max(0, x + b)],
    ['relu', (x) => Math.max(0, x)],
    ['bias', (x, b) => x + b],
  ];
  for (const [epi, f] of epis)
    it(`VPU epilogue ${epi} (FP16 at EB -15)`, () => {
      const p: GemmParams = { m: 128, k: 128, n: 256, epilogue: epi };
      const { k, c64, c, abs } = check(p);
      const bias = epi!.startsWith('bias') ? input(k, `${k.name}_bias.npy`) : new Float64Array(p.n);
      for (let i = 0; i < c.length; i++) c[i] = f(c[i]!, bias[i % p.n]!);
      // bias / ReLU are exact on the VPU up to the FP16 rounding of the sum (2^-11 relative of |x + bias|)
      const scale = abs.map((s, i) => s + Math.abs(bias[i % p.n]!));
      const e = errors(c64, c, scale);
      expect(e.bad).toBe(0);
      expect(e.max).toBeLessThanOrEqual(BOUND.fp8.max);
    });
});

describe('pyxis-gen gemm: FP16 with a VPU epilogue and the residual add', () => {
  it('FP16 128 x 128 x 256, bias_relu + R: within the FP16 bound', () => {
    const p: GemmParams = { m: 128, k: 128, n: 256, dtype: 'fp16', epilogue: 'bias_relu', residual: true };
    const { k, c64, c, abs } = check(p);
    const bias = input(k, `${k.name}_bias.npy`);
    const rr = input(k, `${k.name}_ref_r.npy`);
    for (let i = 0; i < c.length; i++) c[i] = Math.max(0, c[i]! + bias[i % p.n]!) + rr[i]!;
    // the grid's FP16 bound on sum |a b|; the VPU's FP16 rounding of x + bias and the RMW_Add's FP16 rounding of the
    // sum (2^-11 relative each) on |bias| and |R|
    const scale = abs.map((s, i) => s + Math.abs(bias[i % p.n]!) + Math.abs(rr[i]!));
    const e = errors(c64, c, scale);
    expect(e.bad).toBe(0);
    expect(e.max).toBeLessThanOrEqual(BOUND.fp16.max);
    expect(e.rms).toBeLessThanOrEqual(BOUND.fp16.rms);
  });
});

describe('pyxis-gen gemm: parameters the hardware cannot run are errors naming the parameter and the limit', () => {
  const bad: Array<[GemmParams, string, RegExp]> = [
    [{ m: 100, k: 128, n: 128 }, 'GEN0003', /^GEN0003: m: must be a multiple of 8 \(got 100\): seq §1.3 rule 4/],
    [{ m: 128, k: 100, n: 128 }, 'GEN0003', /k: must be a multiple of 8 .*seq §1.2 rule 3: the inner dimension of a MatMul with an FP8 horizontal operand/],
    [{ m: 128, k: 98, n: 128, dtype: 'fp16' }, 'GEN0003', /k: must be a multiple of 4 .*seq §1.2 rule 3/],
    [{ m: 128, k: 132, n: 128, transposed: true }, 'GEN0003', /k: must be a multiple of 8 .*seq §1.2 rule 3/],
    [{ m: 128, k: 66, n: 128, dtype: 'fp16', transposed: true }, 'GEN0003', /k: must be a multiple of 4 .*seq §1.2 rule 3: .*FP16/],
    [{ m: 128, k: 128, n: 128, uies: 13 }, 'GEN0004', /uies: must be 1..12/],
    [{ m: 128, k: 128, n: 128, clusters: [4] }, 'GEN0004', /cluster 4 does not exist/],
    [{ m: 128, k: 65536, n: 128 }, 'GEN0002', /k: must be in 8..32768/],
    [{ m: 1536, k: 32768, n: 128, uies: 12 }, 'GEN0008', /k: double-buffered tiles need 202113024 bytes of AMEM in cluster 0 \(limit 66060288/],
  ];
  for (const [p, code, re] of bad)
    it(`${code}: ${JSON.stringify(p)}`, () => {
      let err: unknown;
      try {
        gemm(p);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(GenError);
      expect((err as GenError).code).toBe(code);
      expect((err as GenError).message).toMatch(re);
    });
});


describe('pyxis-gen gemm: GELU epilogue through the VPU LUT (scripts/make-vpu-lut.mjs --fn gelu)', () => {
  for (const epi of ['gelu', 'bias_gelu'] as const)
    it(epi, () => {
      const p: GemmParams = { m: 128, k: 128, n: 128, epilogue: epi };
      const { k, c64, c, abs } = check(p);
      const bias = epi === 'bias_gelu' ? input(k, `${k.name}_bias.npy`) : new Float64Array(p.n);
      // Bound: |GELU'| <= 1.13, so the grid's normwise error (<= 0.06 sum|ab|) passes through scaled by 1.13; the LUT's
      // interpolation error <= 0.0034 and the FP16 roundings (2^-11 of base, slope and result) as in samples-vpu.test.ts
      let worst = 0;
      let nonzero = 0;
      for (let i = 0; i < c.length; i++) {
        const x = c[i]! + bias[i % p.n]!;
        const g = 0.5 * x * (1 + erf(x / Math.SQRT2));
        const allowed = 1.13 * 0.06 * (abs[i]! + Math.abs(bias[i % p.n]!)) + 0.0034 + 3 * 2 ** -11 * Math.abs(g);
        worst = Math.max(worst, Math.abs(c64[i]! - g) / allowed);
        if (c64[i] !== 0) nonzero++;
      }
      expect(worst).toBeLessThanOrEqual(1);
      expect(nonzero).toBeGreaterThan(c.length / 3);
    });
});

describe('pyxis-gen gemm --batch: independent GEMMs of one shape (attention heads)', () => {
  it('3 x (128 x 128 x 256) on 2 UIEs of 2 clusters, with the residual add', () => {
    const p: GemmParams = { m: 128, k: 128, n: 256, batch: 3, uies: 2, clusters: [0, 1], residual: true };
    const k = gemm(p);
    const r = runKernel(k);
    expect(r.report.stop).toBe('done');
    expect(r.warnings).toEqual([]);
    const a = input(k, `${k.name}_ref_a.npy`);
    const b = input(k, `${k.name}_ref_b.npy`);
    const rr = input(k, `${k.name}_ref_r.npy`);
    const cAll = r.tensor('c_hbm');
    const MN = 128 * 256;
    for (let z = 0; z < 3; z++) {
      const { c, abs } = matmul64(a.subarray(z * 128 * 128), b.subarray(z * 128 * 256), 128, 128, 256);
      for (let i = 0; i < MN; i++) c[i]! += rr[z * MN + i]!;
      const e = errors(fromColumnBlocks(cAll.subarray(z * MN, (z + 1) * MN), 128, 256), c, abs);
      expect(e.bad).toBe(0);
      expect(e.max).toBeLessThanOrEqual(BOUND.fp8.max);
    }
  });
});
