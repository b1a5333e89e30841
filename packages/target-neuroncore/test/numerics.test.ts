/**
 * Numbers against independent references written here: matmul with FP32 accumulation in PSUM
 * (exact sequence of roundings), casts on the way out (RNE by bits / by enumeration of the
 * format's values), Vector/Scalar FP32 arithmetic, activation functions, bn_stats/bn_aggr.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { prng, bf16Rne, bf16Trunc, run, smallFloatGrid, roundToGrid } from './harness.js';

const rnd = (n: number, seed: number, scale = 1, round: (x: number) => number = bf16Trunc) => {
  const r = prng(seed);
  return Float32Array.from({ length: n }, () => round((r() * 2 - 1) * scale));
};

/** Reference matmul: out[m][n] = fl32(...fl32(fl32(0 + s[0][m]*v[0][n]) + s[1][m]*v[1][n])...). */
function refMatmul(st: Float32Array, mv: Float32Array, K: number, M: number, N: number, init?: Float32Array): Float32Array {
  const out = new Float32Array(M * N);
  for (let m = 0; m < M; m++)
    for (let n = 0; n < N; n++) {
      let acc = init ? init[m * N + n]! : 0;
      for (let k = 0; k < K; k++) acc = Math.fround(acc + st[k * M + m]! * mv[k * N + n]!);
      out[m * N + n] = acc;
    }
  return out;
}

describe('TensorE matmul into PSUM', () => {
  for (const dt of ['bf16', 'fp16', 'fp8_e4m3', 'fp32'] as const) {
    it(`${dt}: K = 256 accumulated over two matmuls equals the FP32 sequence bit for bit`, () => {
      const K = 256;
      const M = 96;
      const N = 80;
      const grid = dt === 'fp16' ? smallFloatGrid(5, 10) : dt === 'fp8_e4m3' ? smallFloatGrid(4, 3) : undefined;
      const round = dt === 'bf16' ? bf16Trunc : dt === 'fp32' ? Math.fround : (x: number) => roundToGrid(grid!, x);
      const st = rnd(K * M, 1, dt === 'fp8_e4m3' ? 8 : 1, round);
      const mv = rnd(K * N, 2, dt === 'fp8_e4m3' ? 8 : 1, round);
      const src = `
.tensor S hbm ${dt} [${K}, ${M}]
.tensor V hbm ${dt} [${K}, ${N}]
.tensor O hbm fp32 [${M}, ${N}]
.tensor s sbuf ${dt} [128, 2, ${M}]
.tensor v sbuf ${dt} [128, 2, ${N}]
.tensor o sbuf fp32 [${M}, ${N}]
.tensor ps psum fp32 [${M}, ${N}]
loop k 2 {
  dma.copy s[:, k, :], S[k*128:k*128+128, :]
  dma.copy v[:, k, :], V[k*128:k*128+128, :]
  tensor.matmul ps, s[:, k, :], v[:, k, :], accumulate=k
}
vector.tensor_copy o, ps
dma.copy O, o`;
      const r = run(src, { S: { shape: [K, M], data: st }, V: { shape: [K, N], data: mv } });
      expect(Array.from(r.out('O'))).toEqual(Array.from(refMatmul(st, mv, K, M, N)));
      expect(r.run.report.matmul.flops).toBe(2 * K * M * N);
    });
  }

  it('accumulate=0 overwrites the bank; accumulate adds onto what is there', () => {
    const st = rnd(128 * 8, 3);
    const mv = rnd(128 * 16, 4);
    const src = `
.tensor S hbm bf16 [128, 8]
.tensor V hbm bf16 [128, 16]
.tensor O hbm fp32 [8, 16]
.tensor s sbuf bf16 [128, 8]
.tensor v sbuf bf16 [128, 16]
.tensor o sbuf fp32 [8, 16]
.tensor ps psum fp32 [8, 16]
dma.copy s, S
dma.copy v, V
tensor.matmul ps, s, v, accumulate=0
tensor.matmul ps, s, v, accumulate=0
tensor.matmul ps, s, v, accumulate=1
vector.tensor_copy o, ps
dma.copy O, o`;
    const once = refMatmul(st, mv, 128, 8, 16);
    const twice = refMatmul(st, mv, 128, 8, 16, once);
    expect(Array.from(run(src, { S: { shape: [128, 8], data: st }, V: { shape: [128, 16], data: mv } }).out('O'))).toEqual(Array.from(twice));
  });

  it('transpose through the identity is exact', () => {
    const x = rnd(64 * 32, 5, 100, Math.fround);
    const src = `
.tensor X hbm fp32 [64, 32]
.tensor Y hbm fp32 [32, 64]
.tensor x sbuf fp32 [64, 32]
.tensor y sbuf fp32 [32, 64]
.tensor ps psum fp32 [32, 64]
dma.copy x, X
tensor.transpose ps, x
vector.tensor_copy y, ps
dma.copy Y, y`;
    const y = run(src, { X: { shape: [64, 32], data: x } }).out('Y');
    for (let i = 0; i < 32; i++) for (let j = 0; j < 64; j++) expect(y[i * 64 + j]).toBe(x[j * 32 + i]);
  });
});

const vecSrc = (op: string, outDt = 'fp32') => `
.tensor X hbm fp32 [128, 64]
.tensor Z hbm fp32 [128, 64]
.tensor B hbm fp32 [128, 1]
.tensor Y hbm ${outDt} [128, 64]
.tensor x sbuf fp32 [128, 64]
.tensor z sbuf fp32 [128, 64]
.tensor b sbuf fp32 [128, 1]
.tensor y sbuf ${outDt} [128, 64]
dma.copy x, X
dma.copy z, Z
dma.copy b, B
${op}
dma.copy Y, y`;

describe('Vector/Scalar engines compute in FP32 and cast on the way out', () => {
  const x = rnd(128 * 64, 11, 10, Math.fround);
  const z = rnd(128 * 64, 12, 10, Math.fround);
  const b = rnd(128, 13, 2, Math.fround);
  const ins = { X: { shape: [128, 64], data: x }, Z: { shape: [128, 64], data: z }, B: { shape: [128, 1], data: b } };

  it('tensor_tensor add/mult/max/divide are the FP32 operations', () => {
    const cases: Array<[string, (a: number, c: number) => number]> = [
      ['add', (a, c) => Math.fround(a + c)],
      ['mult', (a, c) => Math.fround(a * c)],
      ['max', (a, c) => Math.max(a, c)],
      ['divide', (a, c) => Math.fround(a / c)],
      ['subtract', (a, c) => Math.fround(a - c)],
    ];
    for (const [op, f] of cases) {
      const y = run(vecSrc(`vector.tensor_tensor y, x, z, op=${op}`), ins).out('Y');
      for (let i = 0; i < y.length; i++) expect(y[i]).toBe(f(x[i]!, z[i]!));
    }
  });

  it('tensor_scalar with a per-partition operand and a constant', () => {
    const y = run(vecSrc('vector.tensor_scalar y, x, op0=subtract, operand0=b, op1=mult, operand1=0.1'), ins).out('Y');
    const k = Math.fround(0.1);
    for (let p = 0; p < 128; p++) for (let i = 0; i < 64; i++) expect(y[p * 64 + i]).toBe(Math.fround(Math.fround(x[p * 64 + i]! - b[p]!) * k));
  });

  it('casts to BF16 round to nearest even (bit reference)', () => {
    const y = run(vecSrc('vector.tensor_copy y, x', 'bf16'), ins).out('Y');
    for (let i = 0; i < y.length; i++) expect(y[i]).toBe(bf16Rne(x[i]!));
  });

  it('casts to FP16 and FP8 E4M3/E5M2 round to nearest even (enumerated grids)', () => {
    for (const [dt, grid] of [['fp16', smallFloatGrid(5, 10)], ['fp8_e4m3', smallFloatGrid(4, 3)], ['fp8_e5m2', smallFloatGrid(5, 2)]] as const) {
      const y = run(vecSrc('vector.tensor_copy y, x', dt), ins).out('Y');
      for (let i = 0; i < y.length; i++) expect([dt, x[i], y[i]]).toEqual([dt, x[i], roundToGrid(grid, x[i]!)]);
    }
  });

  it('tensor_reduce adds in order with FP32 rounding; negate', () => {
    const src = vecSrc('vector.tensor_reduce y[:, 0], x, op=add, negate=1').replace('.tensor Y hbm fp32 [128, 64]', '.tensor Y hbm fp32 [128, 64]');
    const y = run(src.replace('dma.copy Y, y', 'dma.copy Y[:, 0], y[:, 0]'), ins).out('Y');
    for (let p = 0; p < 128; p++) {
      let s = x[p * 64]!;
      for (let i = 1; i < 64; i++) s = Math.fround(s + x[p * 64 + i]!);
      expect(y[p * 64]).toBe(-s);
    }
  });

  it('activation = fround(func(fround(fround(x*scale) + bias)))', () => {
    const fns: Record<string, (t: number) => number> = {
      exp: Math.exp,
      tanh: Math.tanh,
      relu: (t) => (t > 0 ? t : 0),
      sigmoid: (t) => 1 / (1 + Math.exp(-t)),
      silu: (t) => t / (1 + Math.exp(-t)),
      square: (t) => t * t,
      reciprocal: (t) => 1 / t,
      rsqrt: (t) => 1 / Math.sqrt(t),
      sqrt: Math.sqrt,
      log: Math.log,
      identity: (t) => t,
      gelu_apprx_tanh: (t) => 0.5 * t * (1 + Math.tanh(0.7978845608028654 * (t + 0.044715 * t * t * t))),
    };
    const sc = Math.fround(0.37);
    for (const [fn, f] of Object.entries(fns)) {
      const y = run(vecSrc(`scalar.activation y, x, func=${fn}, scale=0.37, bias=b`), ins).out('Y');
      for (let p = 0; p < 128; p += 7)
        for (let i = 0; i < 64; i += 5) {
          const t = Math.fround(Math.fround(x[p * 64 + i]! * sc) + b[p]!);
          const want = Math.fround(f(t));
          expect([fn, t, y[p * 64 + i]]).toEqual([fn, t, want]);
        }
    }
  });

  it('gelu (erf form) within one FP32 ulp of a numerically integrated reference', () => {
    // erfc by composite Simpson integration of 2/sqrt(pi) e^{-u^2} over [v, v + 12]
    // (independent of the series/continued fraction in numerics.ts).
    const erfcRef = (v: number) => {
      const n = 4000;
      const h = 12 / n;
      let s = Math.exp(-v * v) + Math.exp(-(v + 12) * (v + 12));
      for (let i = 1; i < n; i++) s += (i % 2 ? 4 : 2) * Math.exp(-(v + i * h) * (v + i * h));
      return ((2 / Math.sqrt(Math.PI)) * s * h) / 3;
    };
    const geluRef = (t: number) => (t < 0 ? 0.5 * t * erfcRef(-t / Math.SQRT2) : 0.5 * t * (2 - erfcRef(t / Math.SQRT2)));
    const y = run(vecSrc('scalar.activation y, x, func=gelu'), ins).out('Y');
    for (let i = 0; i < 128 * 64; i += 37) {
      const t = x[i]!;
      const want = geluRef(t);
      expect([t, Math.abs(y[i]! - want)]).toEqual([t, expect.any(Number)]);
      expect(Math.abs(y[i]! - want)).toBeLessThanOrEqual(Math.abs(want) * 2 ** -23 + 1e-44);
    }
  });

  it('bn_stats + bn_aggr: mean and variance of the row', () => {
    const src = `
.tensor X hbm fp32 [128, 64]
.tensor Y hbm fp32 [128, 2]
.tensor x sbuf fp32 [128, 64]
.tensor st sbuf fp32 [128, 6]
.tensor y sbuf fp32 [128, 2]
dma.copy x, X
vector.bn_stats st, x
vector.bn_aggr y, st
dma.copy Y, y`;
    const y = run(src, { X: { shape: [128, 64], data: x } }).out('Y');
    for (let p = 0; p < 128; p++) {
      const row = Array.from(x.subarray(p * 64, p * 64 + 64));
      const mean = row.reduce((a, c) => a + c, 0) / 64;
      const v = row.reduce((a, c) => a + (c - mean) ** 2, 0) / 64;
      expect(Math.abs(y[p * 2]! - mean)).toBeLessThan(1e-5 * 10);
      expect(Math.abs(y[p * 2 + 1]! - v) / v).toBeLessThan(1e-5);
    }
  });

  it('property: tensor_tensor mult of random FP32 pairs, cast to BF16, equals the bit reference', () => {
    fc.assert(
      fc.property(fc.array(fc.float({ noNaN: true, noDefaultInfinity: true, min: Math.fround(-1e18), max: Math.fround(1e18) }), { minLength: 16, maxLength: 16 }), fc.array(fc.float({ noNaN: true, noDefaultInfinity: true, min: Math.fround(-1e18), max: Math.fround(1e18) }), { minLength: 16, maxLength: 16 }), (a, c) => {
        const src = `
.tensor A hbm fp32 [1, 16]
.tensor C hbm fp32 [1, 16]
.tensor Y hbm bf16 [1, 16]
.tensor a sbuf fp32 [1, 16]
.tensor c sbuf fp32 [1, 16]
.tensor y sbuf bf16 [1, 16]
dma.copy a, A
dma.copy c, C
vector.tensor_tensor y, a, c, op=mult
dma.copy Y, y`;
        const y = run(src, { A: { shape: [1, 16], data: Float32Array.from(a) }, C: { shape: [1, 16], data: Float32Array.from(c) } }).out('Y');
        for (let i = 0; i < 16; i++) expect(Object.is(y[i], bf16Rne(Math.fround(Math.fround(a[i]!) * Math.fround(c[i]!))))).toBe(true);
      }),
      { numRuns: 25 },
    );
  });
});

describe('never-written memory', () => {
  it('reads as NaN and is reported with --warn-uninit', () => {
    const src = `
.tensor Y hbm fp32 [4, 8]
.tensor x sbuf fp32 [4, 8]
.tensor y sbuf fp32 [4, 8]
vector.tensor_copy y, x
dma.copy Y, y`;
    const r = run(src, {}, { warnUninit: true });
    expect(Number.isNaN(r.out('Y')[0])).toBe(true);
    expect(r.run.warnings.map((d) => [d.code, (d.span as { line: number }).line])).toEqual([['NC0601', 5]]);
  });
});
