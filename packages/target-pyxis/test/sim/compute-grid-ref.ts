/**
 * Independent reference for the LLC grid tests (not the grid code): products from @pyxis/formats `llcProduct`, exact
 * sums in BigInt, one rounding through `MNS13` / `MNS18.encode` (round-to-odd to 53 bits first, so the double handed to
 * encode rounds exactly like the exact sum).
 */
import { llcProduct, MNS13, MNS18, type MnsFormat } from '@pyxis/formats';

const SCALE = 100n; // terms are dyadic: products are multiples of 2^-26, MNS values of 2^-18, test residuals of 2^-70
const SCALE_F = 2 ** 100;

/** Exact dyadic double -> BigInt in units of 2^-100. */
function big(x: number): bigint {
  return BigInt(x * SCALE_F);
}

/** BigInt n * 2^-40 -> double rounded to odd at 53 bits (exact when it fits). */
function oddDouble(n: bigint): number {
  const neg = n < 0n;
  let a = neg ? -n : n;
  const bits = a.toString(2).length;
  let shift = 0;
  if (bits > 53) {
    shift = bits - 53;
    const rem = a & ((1n << BigInt(shift)) - 1n);
    a >>= BigInt(shift);
    if (rem !== 0n) a |= 1n;
  }
  const v = Number(a) * 2 ** (shift - Number(SCALE));
  return neg ? -v : v;
}

/** MNS code -> the grid's value convention (±Infinity for sticky, NaN). */
export function codeValue(fmt: MnsFormat, code: number): number {
  if (code === fmt.nanCode) return NaN;
  if (code === fmt.maxCode) return Infinity;
  if (code === fmt.minCode) return -Infinity;
  return fmt.decode(code, 0);
}

/** acc (value) + sum(terms), exact, rounded once to fmt; sticky / NaN rules of chip §4.6. Returns the value. */
export function accumulate(fmt: MnsFormat, acc: number, terms: readonly number[]): number {
  if (acc !== acc || terms.some((t) => t !== t)) return NaN;
  if (acc === Infinity || acc === -Infinity) return acc;
  let s = big(acc);
  for (const t of terms) s += big(t);
  return codeValue(fmt, fmt.encode(oddDouble(s)));
}

/** One LLC computation: sum of llcProduct(h[k], v[k]) plus acc, to MNS 5.1.13. Codes are LnsI5F10. */
export function llcRef(acc: number, h: readonly number[], v: readonly number[], corr: boolean): number {
  const p: number[] = [];
  for (let k = 0; k < h.length; k++) p.push(llcProduct(h[k]!, v[k]!, corr));
  return accumulate(MNS13, acc, p);
}

/** Split: AA + WBA -> MNS 5.1.18 (mnsAdd rules for sticky values). */
export function splitRef(aa: number, wba: number): number {
  if (aa !== aa || wba !== wba) return NaN;
  const sa = !Number.isFinite(aa);
  const sw = !Number.isFinite(wba);
  if (sa && sw) return aa === wba ? aa : NaN;
  if (sa) return aa;
  if (sw) return wba;
  return accumulate(MNS18, aa, [wba]);
}
