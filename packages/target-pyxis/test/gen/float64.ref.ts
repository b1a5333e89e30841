/**
 * float64 references shared by the generator tests (test/gen/*.test.ts; re-exported by gen.harness.ts) and the
 * samples' tests (test/samples-compute.harness.ts re-exports matmul64, transpose, errors): products, layouts, error
 * figures, softmax / norm / attention / erf. Independent of the code under test: this module imports nothing
 * (transformer.ref.ts and conv.ref.ts hold the layer and convolution references).
 */

/** float64 C[m,n] = A[m,k] x B[k,n] and sum_k |a||b| per element (the normwise scale of a dot product). */
export function matmul64(a: ArrayLike<number>, b: ArrayLike<number>, m: number, k: number, n: number): { c: Float64Array; abs: Float64Array } {
  const c = new Float64Array(m * n);
  const abs = new Float64Array(m * n);
  for (let i = 0; i < m; i++)
    for (let p = 0; p < k; p++) {
      const x = a[i * k + p]!;
      const ax = Math.abs(x);
      for (let j = 0; j < n; j++) {
        const y = b[p * n + j]!;
        c[i * n + j]! += x * y;
        abs[i * n + j]! += ax * Math.abs(y);
      }
    }
  return { c, abs };
}

/** [rows, cols] row-major -> its transpose [cols, rows]. */
export function transpose(a: ArrayLike<number>, rows: number, cols: number): Float64Array {
  return Float64Array.from({ length: rows * cols }, (_, i) => a[(i % rows) * cols + Math.floor(i / rows)]!);
}

/** [nb, rows, w] column blocks -> [rows, nb * w] row-major. */
export function fromColumnBlocks(t: ArrayLike<number>, rows: number, cols: number, w = 128): Float64Array {
  const out = new Float64Array(rows * cols);
  for (let b = 0; b < cols / w; b++) for (let r = 0; r < rows; r++) for (let c = 0; c < w; c++) out[r * cols + b * w + c] = t[(b * rows + r) * w + c]!;
  return out;
}

/**
 * Error of `got` against the float64 reference (docs/spec-notes.md "error figures", docs/generators.md "Error bounds"):
 * max over elements of |got - ref| / scale (scale: sum_k |a_k b_k|, the normwise relative error of each dot product,
 * finite where ref cancels to ~0; 1 where 0), the RMS relative error ||got - ref||_2 / ||ref||_2, non-finite count.
 */
export function errors(got: ArrayLike<number>, ref: Float64Array, scale: Float64Array): { max: number; rms: number; bad: number } {
  let max = 0;
  let num = 0;
  let den = 0;
  let bad = 0;
  for (let i = 0; i < ref.length; i++) {
    const g = got[i]!;
    if (!Number.isFinite(g)) bad++;
    const d = Math.abs(g - ref[i]!);
    max = Math.max(max, d / (scale[i]! > 0 ? scale[i]! : 1));
    num += d * d;
    den += ref[i]! * ref[i]!;
  }
  return { max, rms: Math.sqrt(num / (den || 1)), bad };
}

/** FP16 unit roundoff. */
export const U = 2 ** -11;

/** softmax: worst |p - ref| / bound (rows.test.ts header gives the bound). */
export function softmaxWorst(x: Float32Array, p: Float32Array): number {
  let worst = 0;
  for (let r = 0; r < x.length / 128; r++) {
    const row = x.subarray(r * 128, (r + 1) * 128);
    let m = -Infinity;
    for (const v of row) m = Math.max(m, v);
    let s = 0;
    for (const v of row) s += Math.exp(v - m);
    const ref = Array.from(row, (v) => Math.exp(v - m) / s);
    const e = Array.from(row, (v) => U * (m - v) + (((m - v) / 16) ** 2 / 8) * Math.exp((m - v) / 16) + 4 * U);
    const S = U + ref.reduce((a, q, c) => a + q * e[c]!, 0);
    for (let c = 0; c < 128; c++) worst = Math.max(worst, Math.abs(p[r * 128 + c]! - ref[c]!) / (ref[c]! * (e[c]! + S + 4.5 * U) + 2 ** -15));
  }
  return worst;
}

/** float64 RMSNorm / LayerNorm of 128-value rows, eps 2^-14; prm = gamma (, beta). */
export function normRef(op: 'softmax' | 'rmsnorm' | 'layernorm', x: Float32Array, prm: Float32Array): Float64Array {
  const out = new Float64Array(x.length);
  for (let r = 0; r < x.length / 128; r++) {
    let mean = 0;
    if (op === 'layernorm') for (let c = 0; c < 128; c++) mean += x[r * 128 + c]! / 128;
    let v = 0;
    for (let c = 0; c < 128; c++) v += (x[r * 128 + c]! - mean) ** 2 / 128;
    for (let c = 0; c < 128; c++) out[r * 128 + c] = ((x[r * 128 + c]! - mean) / Math.sqrt(v + 2 ** -14)) * prm[c]! + (op === 'layernorm' ? prm[128 + c]! : 0);
  }
  return out;
}

/** erf to ~1e-12 (series below 2.5, continued fraction above), for the float64 GELU reference. */
export function erf(x: number): number {
  const a = Math.abs(x);
  let r: number;
  if (a < 2.5) {
    let term = a;
    let sum = a;
    for (let n = 1; n < 80; n++) {
      term *= (-a * a) / n;
      sum += term / (2 * n + 1);
      if (Math.abs(term) < 1e-17) break;
    }
    r = (2 / Math.sqrt(Math.PI)) * sum;
  } else {
    let f = 0;
    for (let n = 60; n >= 1; n--) f = n / 2 / (a + f);
    r = 1 - Math.exp(-a * a) / Math.sqrt(Math.PI) / (a + f);
  }
  return x < 0 ? -r : r;
}

/** Causal attention per tile in float64 (T valid queries), O^T layout ([c][i]) as the attention generator stores it; w = sum_j p_j |v_j| (the error bound's weight). */
export function causalAttentionRef(qt: Float64Array, kt: Float64Array, v: Float64Array, nt: number, dk: number, T: number, scale: number) {
  const o = new Float64Array(nt * 128 * 128);
  const w = new Float64Array(o.length);
  for (let t = 0; t < nt; t++)
    for (let i = 0; i < T; i++) {
      const s: number[] = [];
      for (let j = 0; j <= i; j++) {
        let d = 0;
        for (let k = 0; k < dk; k++) d += qt[(t * dk + k) * 128 + i]! * kt[(t * dk + k) * 128 + j]!;
        s.push(d * scale);
      }
      const m = Math.max(...s);
      const z = s.reduce((a, x) => a + Math.exp(x - m), 0);
      s.forEach((x, j) => {
        const p = Math.exp(x - m) / z;
        for (let c = 0; c < 128; c++) {
          o[(t * 128 + c) * 128 + i]! += p * v[(t * 128 + j) * 128 + c]!;
          w[(t * 128 + c) * 128 + i]! += p * Math.abs(v[(t * 128 + j) * 128 + c]!);
        }
      });
    }
  return { o, w };
}
