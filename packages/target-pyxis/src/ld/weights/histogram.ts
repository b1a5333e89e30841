/**
 * The histogram of the weights compressor (compress.ts): 64 bins per octave read from float32 bits, and the
 * 2^(k/8) table of the LnsI4F3 code grid (chip §4.3, §14). Typed arrays only: the passes call these per weight.
 */
// Histogram geometry: 64 bins per octave from float32 bits, exponents 110..128 (|x| in [2^-17, 2^2)).
export const SUB_SHIFT = 17;
export const EXP_LO = 110;
export const NB = (129 - EXP_LO) * 64;
export const BIN_BASE = EXP_LO * 64;

export const POW8 = new Float64Array(512); // 2^((k-256)/8)
for (let k = 0; k < 512; k++) POW8[k] = Math.pow(2, (k - 256) / 8);

/** 2^(k/8) for integer k in -256..255. */
export function p8(k: number): number {
  return POW8[k + 256]!;
}


// Scratch for float32 bit access (histogram bins).
export const F32 = new Float32Array(1);
export const U32 = new Uint32Array(F32.buffer);

/** Histogram bin of x: 1/64 octave from its float32 bits, clamped to [0, NB), negative values in [NB, 2 NB). */
export function binOf(x: number): number {
  F32[0] = x;
  const bits = U32[0]!;
  let b = ((bits & 0x7fffffff) >>> SUB_SHIFT) - BIN_BASE;
  if (b < 0) b = 0; else if (b >= NB) b = NB - 1;
  return b + (bits >>> 31) * NB;
}

/** Adds x to the histogram (count, sum, sum of squares) of its bin. */
export function addToHistogram(x: number, hn: Float64Array, hs: Float64Array, hss: Float64Array): void {
  const b = binOf(x);
  hn[b]!++;
  hs[b] += x;
  hss[b] += x * x;
}
