/** float64 references of the CLI's `--run` check (the tests carry their own, independent ones). */

/** C[m,n] = A[m,k] x B[k,n] and sum_k |a||b| per element. */
export function matmul64(a: ArrayLike<number>, b: ArrayLike<number>, m: number, k: number, n: number): { c: Float64Array; abs: Float64Array } {
  const c = new Float64Array(m * n);
  const abs = new Float64Array(m * n);
  const rowC = new Float64Array(n);
  const rowA = new Float64Array(n);
  for (let i = 0; i < m; i++) {
    rowC.fill(0);
    rowA.fill(0);
    for (let p = 0; p < k; p++) {
      const x = a[i * k + p]!;
      const ax = Math.abs(x);
      const o = p * n;
      for (let j = 0; j < n; j++) {
        const y = b[o + j]!;
        rowC[j]! += x * y;
        rowA[j]! += ax * Math.abs(y);
      }
    }
    c.set(rowC, i * n);
    abs.set(rowA, i * n);
  }
  return { c, abs };
}

/** [nb, rows, w] column blocks -> [rows, nb * w]. */
export function fromColumnBlocks(t: ArrayLike<number>, rows: number, cols: number, w = 128): Float64Array {
  const out = new Float64Array(rows * cols);
  for (let b = 0; b < cols / w; b++) for (let r = 0; r < rows; r++) for (let c = 0; c < w; c++) out[r * cols + b * w + c] = t[(b * rows + r) * w + c]!;
  return out;
}

/** max |got - ref| / scale and the RMS relative error ||got - ref|| / ||ref||. */
export function errorOf(got: ArrayLike<number>, ref: ArrayLike<number>, scale: ArrayLike<number>): { max: number; rms: number } {
  let max = 0;
  let num = 0;
  let den = 0;
  for (let i = 0; i < ref.length; i++) {
    const d = Number.isFinite(got[i]!) ? Math.abs(got[i]! - ref[i]!) : Infinity;
    max = Math.max(max, d / (scale[i]! > 0 ? scale[i]! : 1));
    num += d * d;
    den += ref[i]! * ref[i]!;
  }
  return { max, rms: Math.sqrt(num / (den || 1)) };
}

export function gelu64(x: number): number {
  return 0.5 * x * (1 + erf(x / Math.SQRT2));
}

function erf(x: number): number {
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
