/**
 * LLC arithmetic of the grid (chip §6.1.1 item 6, §6.3.3, §4.6, §4.7): log-domain products, log->lin with optional
 * mapping correction (GX `llc_dsbl_mapping_corr`), sum with the accumulator, normalisation to MNS 5.1.13 (AA) and the
 * split sum AA + WBA -> MNS 5.1.18 (chip §6.3.4.1).
 *
 * Arithmetic definition (the spec leaves the adder-tree precision open, docs/spec-notes.md "adder tree"): every
 * product is exact (`llcProduct` of @pyxis/formats: I.F sums, 1.M10 from the §4.7 map, nominal exponent
 * I_a + I_b - 16); the products of one LLC-cycle and the accumulator value are summed EXACTLY and the exact sum is
 * rounded ONCE to MNS 5.1.13, nearest-even on the two's complement mantissa (`mnsRoundWith`). The exact sum is
 * computed as an integer part H (sum of the terms rounded to integers, |H| < 2^53) plus a fraction part L (sum of the
 * remainders, multiples of 2^-26 in [-0.5, 0.5] each), both exact in doubles, and TwoSum(H, L) gives the double and its residual.
 *
 * Operands are held in a grid-internal form of LnsI5F10 (`toOp`): magnitude 0..0x7fff, ZERO_OP for zero, NAN_OP for the
 * NaN code, plus SIGN_OP; the product of operands a and b is PT[(a + b) & PX], a Float32 table (products are at most
 * 12 significant bits and 2^-26 .. 2^48: exact in float32). (a + b) & PX = ((a + b) & IDX_MASK) | ((a ^ b) & SIGN_OP):
 * the sentinel-or-magnitude parts sum to at most 0x30000 (no carry into bit 18), so bit 18 of the sum is the XOR of
 * the signs and the carry of two signs (bit 19) is masked off.
 */
import { log2linFraction, mnsGrid, mnsRoundWith, pow2 } from '@pyxis/formats';

export const ZERO_OP = 0x10000;
export const NAN_OP = 0x18000;
export const SIGN_OP = 0x40000;
const IDX_MASK = 0x3ffff;
/** Product-table index mask: (a + b) & PX indexes PT (see the module doc). */
const PX = SIGN_OP | IDX_MASK;

function buildTable(corr: boolean): Float32Array {
  const t = new Float32Array(SIGN_OP + IDX_MASK + 1);
  const g = new Uint16Array(1024);
  for (let k = 0; k < 1024; k++) g[k] = log2linFraction(k, corr);
  for (let i = 0; i <= IDX_MASK; i++) {
    let v: number;
    if (i <= 0xfffe) v = (1024 + g[i & 1023]!) * pow2((i >>> 10) - 16 - 10);
    else if (i < 0x18000 || i === 0x20000) v = 0; // zero x real, zero x zero
    else if (i < 0x20000 || i === 0x28000 || i === 0x30000) v = NaN; // NaN x real, NaN x zero, NaN x NaN
    else v = 0; // unreachable sums
    t[i] = v;
    t[SIGN_OP + i] = v === 0 ? 0 : -v;
  }
  return t;
}
let tables: [Float32Array, Float32Array] | undefined;
/** Product tables [mapping correction enabled, disabled]. Built on first use (~2 x 1.5 MB). */
export function productTables(): [Float32Array, Float32Array] {
  return (tables ??= [buildTable(true), buildTable(false)]);
}

/** LnsI5F10 code -> grid-internal operand. */
export function toOp(code: number): number {
  const mag = code & 0x7fff;
  if (mag === 0) return code & 0x8000 ? NAN_OP : ZERO_OP;
  return code & 0x8000 ? mag | SIGN_OP : mag;
}

/** LnsI5F3 (9-bit Hbuf byte) -> grid-internal operand (LnsI5F10 with 7 zero fraction bits appended). */
export const I5F3_OP = new Int32Array(512);
for (let c = 0; c < 512; c++) {
  const mag = c & 0xff;
  I5F3_OP[c] = mag === 0 ? (c & 0x100 ? NAN_OP : ZERO_OP) : (((mag >>> 3) << 10) | ((mag & 7) << 7)) | (c & 0x100 ? SIGN_OP : 0);
}

/** 1.5 * 2^52: (t + RI) - RI rounds |t| < 2^51 to an integer exactly (the integer/fraction split of the exact sum). */
const RI = 6755399441055744;
const G13 = mnsGrid(13);
const RC13 = G13.rc;
const MAX13 = G13.max;
const G18 = mnsGrid(18);
const RC18 = G18.rc;
const MAX18 = G18.max;

/**
 * Rounds acc + (H + L) where H, L are the exact integer/fraction partial sums of the products; `a` is the
 * accumulator value read (0 when zeroed). Returns the MNS 5.1.13 value (±Infinity sticky, NaN).
 */
function finish(a: number, H: number, L: number): number {
  if (a - a !== 0) {
    // sticky accumulator (±Infinity) or NaN: NaN products give NaN, otherwise the sticky value stays (chip §4.6)
    if (a !== a) return a;
    return H + L !== H + L ? NaN : a;
  }
  const fa = a + RI - RI;
  H += fa;
  L += a - fa;
  const s = H + L;
  const bv = s - H;
  const av = s - bv;
  const err = H - av + (L - bv);
  return mnsRoundWith(s, err, RC13, MAX13);
}

/** Like `finish` for a products sum S that is already exact (fast path). */
function finishS(a: number, S: number): number {
  if (a - a !== 0) {
    if (a !== a) return a;
    return S !== S ? NaN : a;
  }
  const s = S + a;
  const bv = s - S;
  const av = s - bv;
  return mnsRoundWith(s, S - av + (a - bv), RC13, MAX13);
}

/**
 * Largest exponent difference between the real (non-zero, non-NaN) operands x[b], x[b + st] .. (n of them), or 0.
 * Fast-path rule: when span(h) + span(v) <= SPAN_EXACT every product of an LLC-cycle is a multiple of
 * 2^(min I_h + min I_v - 26) and their partial sums stay below 2^(max I_h + max I_v - 10) (at most 9 products of
 * at most 2^(I_h + I_v - 14) each), so a plain double sum of the products is exact (53 bits).
 */
export function opSpan(x: Int32Array, b: number, n: number, st: number): number {
  let lo = 99;
  let hi = -1;
  for (let i = 0; i < n; i++) {
    const o = x[b + i * st]!;
    if ((o & 0x18000) !== 0) continue; // zero / NaN sentinel
    const e = (o >>> 10) & 31;
    if (e < lo) lo = e;
    if (e > hi) hi = e;
  }
  return hi < 0 ? 0 : hi - lo;
}
export const SPAN_EXACT = 37;

/**
 * One Exec_Valid of a 1x1 / MatMul grid-row: `nh` (8 or 4) h operands at h[hb..] times v front entries
 * voff .. voff + nh - 1 of every enabled column (v[c * 8 + k]), accumulated into acc[ab + c].
 */
export function llcRow1x1(
  T: Float32Array, h: Int32Array, hb: number, nh: number, voff: number, v: Int32Array, vSpan: Uint8Array,
  acc: Float64Array, ab: number, zero: boolean, c0: number, c1: number, step: number,
): void {
  const lim = SPAN_EXACT - opSpan(h, hb, nh, 1);
  if (nh === 8) {
    const h0 = h[hb]!, h1 = h[hb + 1]!, h2 = h[hb + 2]!, h3 = h[hb + 3]!;
    const h4 = h[hb + 4]!, h5 = h[hb + 5]!, h6 = h[hb + 6]!, h7 = h[hb + 7]!;
    for (let c = c0; c < c1; c += step) {
      const vb = c << 3;
      let x = v[vb]!;
      if (vSpan[c]! <= lim) {
        // exact plain sum (see opSpan)
        let S = T[(h0 + x) & PX]!;
        x = v[vb + 1]!; S += T[(h1 + x) & PX]!;
        x = v[vb + 2]!; S += T[(h2 + x) & PX]!;
        x = v[vb + 3]!; S += T[(h3 + x) & PX]!;
        x = v[vb + 4]!; S += T[(h4 + x) & PX]!;
        x = v[vb + 5]!; S += T[(h5 + x) & PX]!;
        x = v[vb + 6]!; S += T[(h6 + x) & PX]!;
        x = v[vb + 7]!; S += T[(h7 + x) & PX]!;
        acc[ab + c] = finishS(zero ? 0 : acc[ab + c]!, S);
        continue;
      }
      let t = T[(h0 + x) & PX]!;
      let f = t + RI - RI;
      let H = f;
      let L = t - f;
      x = v[vb + 1]!; t = T[(h1 + x) & PX]!; f = t + RI - RI; H += f; L += t - f;
      x = v[vb + 2]!; t = T[(h2 + x) & PX]!; f = t + RI - RI; H += f; L += t - f;
      x = v[vb + 3]!; t = T[(h3 + x) & PX]!; f = t + RI - RI; H += f; L += t - f;
      x = v[vb + 4]!; t = T[(h4 + x) & PX]!; f = t + RI - RI; H += f; L += t - f;
      x = v[vb + 5]!; t = T[(h5 + x) & PX]!; f = t + RI - RI; H += f; L += t - f;
      x = v[vb + 6]!; t = T[(h6 + x) & PX]!; f = t + RI - RI; H += f; L += t - f;
      x = v[vb + 7]!; t = T[(h7 + x) & PX]!; f = t + RI - RI; H += f; L += t - f;
      acc[ab + c] = finish(zero ? 0 : acc[ab + c]!, H, L);
    }
    return;
  }
  const h0 = h[hb]!, h1 = h[hb + 1]!, h2 = h[hb + 2]!, h3 = h[hb + 3]!;
  for (let c = c0; c < c1; c += step) {
    const vb = (c << 3) + voff;
    let x = v[vb]!;
    if (vSpan[c]! <= lim) {
      let S = T[(h0 + x) & PX]!;
      x = v[vb + 1]!; S += T[(h1 + x) & PX]!;
      x = v[vb + 2]!; S += T[(h2 + x) & PX]!;
      x = v[vb + 3]!; S += T[(h3 + x) & PX]!;
      acc[ab + c] = finishS(zero ? 0 : acc[ab + c]!, S);
      continue;
    }
    let t = T[(h0 + x) & PX]!;
    let f = t + RI - RI;
    let H = f;
    let L = t - f;
    x = v[vb + 1]!; t = T[(h1 + x) & PX]!; f = t + RI - RI; H += f; L += t - f;
    x = v[vb + 2]!; t = T[(h2 + x) & PX]!; f = t + RI - RI; H += f; L += t - f;
    x = v[vb + 3]!; t = T[(h3 + x) & PX]!; f = t + RI - RI; H += f; L += t - f;
    acc[ab + c] = finish(zero ? 0 : acc[ab + c]!, H, L);
  }
}

/** Padded 3x3 window: 3 data-rows (N, C, S) x 8 partitions x 18 entries (west pad, 16 columns, east pad). */
export const WIN_PTN = 18;
export const WIN_ROW = 8 * WIN_PTN;

/**
 * One Exec_Valid of a 3x3 grid-row: for partition p (active when ptnMask bit p), kernel k[kb + p * 9 + t] (taps
 * NW, NC, NE, CW, CC, CE, SW, SC, SE, table 15-1) over the padded window w, columns 16p + j for j = j0, j0 + step ...
 */
export function llcRow3x3(
  T: Float32Array, k: Int32Array, kb: number, w: Int32Array, wSpan: Uint8Array, acc: Float64Array, ab: number, zero: boolean,
  ptns: number, j0: number, step: number,
): void {
  for (let p = 0; p < ptns; p++) {
    const q = kb + p * 9;
    const fast = opSpan(k, q, 9, 1) + wSpan[p]! <= SPAN_EXACT;
    const k0 = k[q]!, k1 = k[q + 1]!, k2 = k[q + 2]!, k3 = k[q + 3]!, k4 = k[q + 4]!;
    const k5 = k[q + 5]!, k6 = k[q + 6]!, k7 = k[q + 7]!, k8 = k[q + 8]!;
    const wb = p * WIN_PTN;
    for (let j = j0; j < 16; j += step) {
      const n = wb + j; // west neighbour of column j in the N row
      const cc = n + WIN_ROW;
      const s = cc + WIN_ROW;
      let x = w[n]!;
      if (fast) {
        let S = T[(k0 + x) & PX]!;
        x = w[n + 1]!; S += T[(k1 + x) & PX]!;
        x = w[n + 2]!; S += T[(k2 + x) & PX]!;
        x = w[cc]!; S += T[(k3 + x) & PX]!;
        x = w[cc + 1]!; S += T[(k4 + x) & PX]!;
        x = w[cc + 2]!; S += T[(k5 + x) & PX]!;
        x = w[s]!; S += T[(k6 + x) & PX]!;
        x = w[s + 1]!; S += T[(k7 + x) & PX]!;
        x = w[s + 2]!; S += T[(k8 + x) & PX]!;
        acc[ab + p * 16 + j] = finishS(zero ? 0 : acc[ab + p * 16 + j]!, S);
        continue;
      }
      let t = T[(k0 + x) & PX]!;
      let f = t + RI - RI;
      let H = f;
      let L = t - f;
      x = w[n + 1]!; t = T[(k1 + x) & PX]!; f = t + RI - RI; H += f; L += t - f;
      x = w[n + 2]!; t = T[(k2 + x) & PX]!; f = t + RI - RI; H += f; L += t - f;
      x = w[cc]!; t = T[(k3 + x) & PX]!; f = t + RI - RI; H += f; L += t - f;
      x = w[cc + 1]!; t = T[(k4 + x) & PX]!; f = t + RI - RI; H += f; L += t - f;
      x = w[cc + 2]!; t = T[(k5 + x) & PX]!; f = t + RI - RI; H += f; L += t - f;
      x = w[s]!; t = T[(k6 + x) & PX]!; f = t + RI - RI; H += f; L += t - f;
      x = w[s + 1]!; t = T[(k7 + x) & PX]!; f = t + RI - RI; H += f; L += t - f;
      x = w[s + 2]!; t = T[(k8 + x) & PX]!; f = t + RI - RI; H += f; L += t - f;
      const c = p * 16 + j;
      acc[ab + c] = finish(zero ? 0 : acc[ab + c]!, H, L);
    }
  }
}

/**
 * Split accumulation of one value (chip §6.3.4.1, seq §10.3.1): AA (MNS 5.1.13 value) + WBA (MNS 5.1.18 value, 0 on
 * the first split after a writeback) exactly, rounded once to MNS 5.1.18. NaN is sticky; +max + -max = NaN; one
 * sticky operand gives that sticky value (the `mnsAdd` rules of @pyxis/formats).
 */
export function splitSum(aa: number, wba: number): number {
  const s = aa + wba;
  if (s - s !== 0) {
    if (aa !== aa || wba !== wba) return NaN;
    if (aa - aa !== 0 && wba - wba !== 0) return aa === wba ? aa : NaN;
    return aa - aa !== 0 ? aa : wba - wba !== 0 ? wba : s; // s infinite from finite operands cannot happen (< 2^33)
  }
  const bv = s - aa;
  const av = s - bv;
  return mnsRoundWith(s, aa - av + (wba - bv), RC18, MAX18);
}
