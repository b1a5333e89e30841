/**
 * An independent IEEE 754 binary32 reference for the tests: exact BigInt
 * rationals (value = N * 2^E) and rounding by binary search over the ordered
 * positive bit patterns — no host float arithmetic, no code shared with
 * src/fp32.ts. NaN results are HardFloat's canonical 0x7FC00000.
 */
export const RMODES = { near_even: 0, minMag: 1, min: 2, max: 3, near_maxMag: 4, odd: 6 } as const;
export const NAN = 0x7fc00000;

type Val = { kind: 'nan' } | { kind: 'inf'; neg: boolean } | { kind: 'num'; n: bigint; e: number; negZero: boolean };

export function refDecode(bits: number): Val {
  const e = (bits >>> 23) & 0xff;
  const f = bits & 0x7fffff;
  const neg = bits >>> 31 === 1;
  if (e === 255) return f ? { kind: 'nan' } : { kind: 'inf', neg };
  const mag = BigInt(e ? f + 0x800000 : f);
  return { kind: 'num', n: neg ? -mag : mag, e: (e || 1) - 150, negZero: neg && mag === 0n };
}

/** |pattern value| compared with |n| * 2^e: -1, 0, 1. */
function cmpPattern(p: number, n: bigint, e: number): number {
  const v = refDecode(p) as { n: bigint; e: number };
  let a = v.n;
  let b = n;
  if (v.e > e) a <<= BigInt(v.e - e);
  else b <<= BigInt(e - v.e);
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Rounds the exact value sign * m * 2^e (m > 0) to binary32 bits. */
export function refRound(neg: boolean, m: bigint, e: number, rm: number): number {
  // Largest positive finite pattern whose value is <= m * 2^e.
  let lo = 0;
  let hi = 0x7f7fffff;
  if (cmpPattern(hi, m, e) <= 0) lo = hi;
  else {
    while (hi - lo > 1) {
      const mid = lo + Math.floor((hi - lo) / 2);
      if (cmpPattern(mid, m, e) <= 0) lo = mid;
      else hi = mid;
    }
  }
  const exact = cmpPattern(lo, m, e) === 0;
  const s = neg ? 0x80000000 : 0;
  if (exact) return (s | lo) >>> 0;
  const up = lo + 1; // 0x7f800000 = infinity
  // The midpoint between lo and up (up = infinity counts as 2^128): compare 2*|v| with lo + up.
  const loV = refDecode(lo) as { n: bigint; e: number };
  const upV = up === 0x7f800000 ? { n: 1n, e: 128 } : (refDecode(up) as { n: bigint; e: number });
  const E = Math.min(loV.e, upV.e, e + 1);
  const sum = (loV.n << BigInt(loV.e - E)) + (upV.n << BigInt(upV.e - E));
  const twice = m << BigInt(e + 1 - E);
  const side = twice < sum ? -1 : twice > sum ? 1 : 0;
  let pick: number;
  switch (rm) {
    case RMODES.near_even:
      pick = side < 0 ? lo : side > 0 ? up : lo % 2 === 0 ? lo : up;
      break;
    case RMODES.near_maxMag:
      pick = side < 0 ? lo : up;
      break;
    case RMODES.minMag:
      pick = lo;
      break;
    case RMODES.min:
      pick = neg ? up : lo;
      break;
    case RMODES.max:
      pick = neg ? lo : up;
      break;
    default:
      pick = lo % 2 === 1 ? lo : up;
  }
  return (s | pick) >>> 0;
}

function fromExact(n: bigint, e: number, rm: number, zeroNegBoth: boolean): number {
  if (n === 0n) return zeroNegBoth ? 0x80000000 : rm === RMODES.min ? 0x80000000 : 0;
  return refRound(n < 0n, n < 0n ? -n : n, e, rm);
}

export function refAdd(a: number, b: number, rm: number): number {
  const x = refDecode(a);
  const y = refDecode(b);
  if (x.kind === 'nan' || y.kind === 'nan') return NAN;
  if (x.kind === 'inf' && y.kind === 'inf') return x.neg === y.neg ? a >>> 0 : NAN;
  if (x.kind === 'inf') return a >>> 0;
  if (y.kind === 'inf') return b >>> 0;
  const e = Math.min(x.e, y.e);
  const n = (x.n << BigInt(x.e - e)) + (y.n << BigInt(y.e - e));
  const bothNegZero = x.n === 0n && y.n === 0n && x.negZero && y.negZero;
  if (n === 0n && x.n === 0n && y.n === 0n) return bothNegZero ? 0x80000000 : x.negZero !== y.negZero ? (rm === RMODES.min ? 0x80000000 : 0) : 0;
  return fromExact(n, e, rm, false);
}

export function refSub(a: number, b: number, rm: number): number {
  return refAdd(a, (b ^ 0x80000000) >>> 0, rm);
}

export function refMul(a: number, b: number, rm: number): number {
  const x = refDecode(a);
  const y = refDecode(b);
  if (x.kind === 'nan' || y.kind === 'nan') return NAN;
  const neg = (a ^ b) >>> 31 === 1;
  const isZero = (v: Val) => v.kind === 'num' && v.n === 0n;
  if (x.kind === 'inf' || y.kind === 'inf') return isZero(x) || isZero(y) ? NAN : neg ? 0xff800000 : 0x7f800000;
  const n = (x as { n: bigint }).n * (y as { n: bigint }).n;
  if (n === 0n) return neg ? 0x80000000 : 0;
  return refRound(neg, n < 0n ? -n : n, (x as { e: number }).e + (y as { e: number }).e, rm);
}

/**
 * The IEEE 754-2019 §7.5 underflow and §7.6 inexact flags of a finite non-zero exact result (sign, m * 2^e):
 * underflow = tiny and inexact, tiny before rounding = |v| < 2^-126, tiny after rounding = |v| rounded to
 * 24 significant bits with an unbounded exponent is < 2^-126.
 */
export function refFlags(neg: boolean, m: bigint, e: number, rm: number, tininessAfter: boolean): { inexact: boolean; underflow: boolean } {
  const bits = refRound(neg, m, e, rm);
  const r = refDecode(bits);
  let inexact = true;
  if (r.kind === 'num') {
    const rn = r.n < 0n ? -r.n : r.n;
    const E = Math.min(r.e, e);
    inexact = rn << BigInt(r.e - E) !== m << BigInt(e - E);
  }
  const below = (n: bigint, x: number) => (x >= -126 ? false : n < 1n << BigInt(-126 - x)); // n * 2^x < 2^-126
  let tiny: boolean;
  if (!tininessAfter) tiny = below(m, e);
  else {
    const L = m.toString(2).length;
    let q = m;
    let x = e;
    if (L > 24) {
      const sh = BigInt(L - 24);
      q = m >> sh;
      const rem = m - (q << sh);
      const half = 1n << (sh - 1n);
      x = e + L - 24;
      if (rem !== 0n) {
        if (rm === RMODES.odd) q |= 1n;
        else if (
          (rm === RMODES.near_even && (rem > half || (rem === half && (q & 1n) === 1n))) ||
          (rm === RMODES.near_maxMag && rem >= half) ||
          (rm === RMODES.max && !neg) ||
          (rm === RMODES.min && neg)
        )
          q += 1n;
      }
    }
    tiny = below(q, x);
  }
  return { inexact, underflow: tiny && inexact };
}

/** The exact product of two finite non-zero operands as (neg, m, e); undefined otherwise. */
export function exactMul(a: number, b: number): { neg: boolean; m: bigint; e: number } | undefined {
  const x = refDecode(a);
  const y = refDecode(b);
  if (x.kind !== 'num' || y.kind !== 'num' || x.n === 0n || y.n === 0n) return undefined;
  const n = x.n * y.n;
  return { neg: n < 0n, m: n < 0n ? -n : n, e: x.e + y.e };
}

/** The exact sum of two finite operands as (neg, m, e); undefined when zero or not finite. */
export function exactAdd(a: number, b: number): { neg: boolean; m: bigint; e: number } | undefined {
  const x = refDecode(a);
  const y = refDecode(b);
  if (x.kind !== 'num' || y.kind !== 'num') return undefined;
  const e = Math.min(x.e, y.e);
  const n = (x.n << BigInt(x.e - e)) + (y.n << BigInt(y.e - e));
  if (n === 0n) return undefined;
  return { neg: n < 0n, m: n < 0n ? -n : n, e };
}
