/** Exact decision boundaries of the Pyxis LNS encoders (PyxisLns in formats.ts; docs/spec-notes.md). */

export interface LnsBoundaries {
  /** Decision boundaries in [1, 2]: mid[j] for nearest (2^((j-1/2)/2^F)), cpt[j] for truncation (2^(j/2^F)), j = 1..2^F. */
  mid: Float64Array;
  cpt: Float64Array;
  /** Per mantissa bucket: number of boundaries <= the bucket's lower edge. */
  midStart: Uint16Array;
  cptStart: Uint16Array;
}

const BP = 256n;
const BTWO = 2n << BP;
const ULP1 = 2 ** -52;

/** Whether b^(2^k) >= 2^t, for b in [1, 2] (a double): repeated squaring in 256-bit fixed point, normalised each step. */
export function powAtLeast(b: number, k: number, t: number): boolean {
  let x = BigInt(b * 2 ** 52) << (BP - 52n);
  let e = 0;
  if (x >= BTWO) {
    x >>= 1n;
    e = 1;
  }
  for (let i = 0; i < k; i++) {
    x = (x * x) >> BP;
    e *= 2;
    if (x >= BTWO) {
      x >>= 1n;
      e++;
    }
  }
  return e >= t;
}

/**
 * The smallest double >= 2^(t / 2^k) (an irrational number unless it is 2): then for any double m,
 * `m >= boundary` holds exactly when m >= 2^(t/2^k). Math.pow rounds to nearest, half the time below.
 */
export function boundaryAtLeast(k: number, t: number): number {
  let b = Math.pow(2, t / 2 ** k);
  if (b >= 2) return 2;
  if (powAtLeast(b, k, t)) while (b > 1 && powAtLeast(b - ULP1, k, t)) b -= ULP1;
  else do b += ULP1; while (!powAtLeast(b, k, t));
  return b;
}

/**
 * Exact LNS decision boundaries (docs/spec-notes.md): the nearest code in the log domain switches from j-1 to j
 * where log2 m = (j - 1/2)/2^F, i.e. m^(2^(F+1)) = 2^(2j-1); truncation where m^(2^F) = 2^j. Built once per
 * format on its first encode (a few ms for the 1,024 boundaries of LnsI5F10).
 */
export function lnsBoundaries(fbits: number, buckets: number): LnsBoundaries {
  const one = 2 ** fbits;
  const mid = new Float64Array(one + 2);
  const cpt = new Float64Array(one + 2);
  for (let j = 1; j <= one; j++) {
    mid[j] = boundaryAtLeast(fbits + 1, 2 * j - 1);
    cpt[j] = j === one ? 2 : boundaryAtLeast(fbits, j);
  }
  mid[one + 1] = Infinity;
  cpt[one + 1] = Infinity;
  const midStart = new Uint16Array(buckets + 1);
  const cptStart = new Uint16Array(buckets + 1);
  for (const [b, st] of [[mid, midStart], [cpt, cptStart]] as const) {
    let q = 0;
    for (let k = 0; k <= buckets; k++) {
      const lo = 1 + k / buckets;
      while (q < one && b[q + 1]! <= lo) q++;
      st[k] = q;
    }
  }
  return { mid, cpt, midStart, cptStart };
}
