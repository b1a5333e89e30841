/**
 * Seeded float inputs of the generated kernels (the scheme of samples/pyxis/make-compute-inputs.mjs): every value is
 * exactly representable in the tensor's storage format at the EB of the generated link script, so the linker's
 * float -> code conversion is exact and a float64 reference computed from the .npy files is the product of exactly
 * what the hardware multiplies.
 */

/** mulberry32: a small deterministic PRNG (same as the samples' input scripts). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** n values ±(1 + F/2^fbits) * 2^e, e in [emin, emax]: exact in RFP8 (fbits 3) / RFP16 (fbits 10) at a fitting EB. */
export function floatValues(n: number, seed: number, fbits = 3, emin = -3, emax = 1): Float32Array {
  const r = rng(seed);
  const v = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const s = r() < 0.5 ? -1 : 1;
    const e = emin + Math.floor(r() * (emax - emin + 1));
    const f = Math.floor(r() * (1 << fbits));
    v[i] = s * (1 + f / (1 << fbits)) * 2 ** e;
  }
  return v;
}

/** ±2^(e + f/8), e in [emin, emax]: exact in LnsI4F3 at a fitting EB; the largest magnitude is a power of two (no LD0706). */
export function lnsValues(n: number, seed: number, emin = -3, emax = 1): Float32Array {
  const r = rng(seed);
  const v = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const s = r() < 0.5 ? -1 : 1;
    const e = emin + Math.floor(r() * (emax - emin + 1));
    v[i] = s * 2 ** (e + Math.floor(r() * 8) / 8);
  }
  if (n > 0) v[0] = 2 ** (emax + 1);
  return v;
}

/** [rows, cols] row-major -> tile-major [cols / w, rows, w] (column blocks of width w made contiguous). */
export function columnBlocks(src: Float32Array, rows: number, cols: number, w: number): Float32Array {
  const out = new Float32Array(rows * cols);
  let o = 0;
  for (let b = 0; b < cols / w; b++) for (let r = 0; r < rows; r++) for (let c = 0; c < w; c++) out[o++] = src[r * cols + b * w + c]!;
  return out;
}
