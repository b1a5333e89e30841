/**
 * The numbers of the NeuronCore-v2 model, written once (docs/neuroncore.md "Numbers"):
 *
 * - Element formats are the ones the guide names (Tensor Engine "Data Types": BF16, FP16, TF32,
 *   cFP8, FP32), with their bit definitions from @pyxis/formats (docs/spec-notes.md formats
 *   entries: FP8 E4M3/E5M2 IEEE-style, TF32 = FP32 container with 13 low zero bits, casts
 *   round-to-nearest-even through FP32).
 * - Vector/Scalar/GpSimd compute in FP32 with the casts on the way in and out ("All internal
 *   computation is performed in FP32, with automatic zero-overhead input and output casting"):
 *   every operation's result is rounded to FP32 (Math.fround) before the next one.
 * - Transcendental functions are the double-precision function rounded once to FP32.
 *
 * Decoding uses tables built once (no per-element allocation); encoding uses the formats'
 * `encodeWith` (round-to-nearest-even, overflow to infinity), FP32 through Float32Array.
 */
import { BF16, FP8_E4M3, FP8_E5M2, IEEE_FP16, TF32, type FormatDescriptor } from '@pyxis/formats';

export type DType = 'bf16' | 'fp16' | 'tf32' | 'fp8_e4m3' | 'fp8_e5m2' | 'fp32' | 'int32';
export const DTYPES: readonly DType[] = ['bf16', 'fp16', 'tf32', 'fp8_e4m3', 'fp8_e5m2', 'fp32', 'int32'];

export function dtypeBytes(t: DType): number {
  return t === 'fp8_e4m3' || t === 'fp8_e5m2' ? 1 : t === 'bf16' || t === 'fp16' ? 2 : 4;
}

const FORMAT: Partial<Record<DType, FormatDescriptor>> = { bf16: BF16, fp16: IEEE_FP16, tf32: TF32, fp8_e4m3: FP8_E4M3, fp8_e5m2: FP8_E5M2 };

let tables: { bf16: Float32Array; fp16: Float32Array; e4m3: Float32Array; e5m2: Float32Array } | undefined;

/** Decode tables (built on first use): code -> value, exact in FP32 for every format here. */
export function decodeTables(): NonNullable<typeof tables> {
  if (tables) return tables;
  const bf16 = new Float32Array(65536);
  const u = new Uint32Array(bf16.buffer);
  for (let i = 0; i < 65536; i++) u[i] = i << 16; // BF16 is the top half of an FP32
  const fp16 = new Float32Array(65536);
  for (let i = 0; i < 65536; i++) fp16[i] = IEEE_FP16.decode(i);
  const e4m3 = new Float32Array(256);
  const e5m2 = new Float32Array(256);
  for (let i = 0; i < 256; i++) {
    e4m3[i] = FP8_E4M3.decode(i);
    e5m2[i] = FP8_E5M2.decode(i);
  }
  tables = { bf16, fp16, e4m3, e5m2 };
  return tables;
}

/** Encodes one value (already FP32) into a code of `t`. TF32 keeps the FP32 container. */
export function encodeValue(t: DType, x: number): number {
  switch (t) {
    case 'int32':
      return toInt32(x);
    case 'fp32':
      return x;
    default:
      return FORMAT[t]!.encodeWith(x, 0, false, false);
  }
}

/** FP32 -> int32: round to nearest even, saturate, NaN -> 0 (docs/spec-notes.md "neuroncore: int32 casts"). */
export function toInt32(x: number): number {
  if (x !== x) return 0;
  if (x >= 2147483647) return 2147483647;
  if (x <= -2147483648) return -2147483648;
  const f = Math.floor(x);
  const d = x - f;
  return d > 0.5 || (d === 0.5 && f % 2 !== 0) ? f + 1 : f;
}

// ------------------------------------------------------------------ ALU ops (FP32)

export const ALU_OPS = ['add', 'subtract', 'mult', 'divide', 'max', 'min', 'bypass', 'pow', 'is_equal', 'not_equal', 'is_ge', 'is_gt', 'is_le', 'is_lt', 'abs_max'] as const;
export type AluOp = (typeof ALU_OPS)[number];
export const REDUCE_OPS = ['add', 'max', 'min', 'mult'] as const;

/** Op codes for the hot loops (index in ALU_OPS). */
export function aluCode(op: string): number {
  return (ALU_OPS as readonly string[]).indexOf(op);
}

/** One FP32 ALU operation: the result rounded to FP32. IEEE max/min with NaN propagation. */
export function alu(code: number, a: number, b: number): number {
  switch (code) {
    case 0: return Math.fround(a + b);
    case 1: return Math.fround(a - b);
    case 2: return Math.fround(a * b);
    case 3: return Math.fround(a / b);
    case 4: return a !== a || b !== b ? NaN : a > b ? a : b;
    case 5: return a !== a || b !== b ? NaN : a < b ? a : b;
    case 6: return a;
    case 7: return Math.fround(Math.pow(a, b));
    case 8: return a === b ? 1 : 0;
    case 9: return a !== b ? 1 : 0;
    case 10: return a >= b ? 1 : 0;
    case 11: return a > b ? 1 : 0;
    case 12: return a <= b ? 1 : 0;
    case 13: return a < b ? 1 : 0;
    case 14: {
      const x = Math.abs(a);
      const y = Math.abs(b);
      return x !== x || y !== y ? NaN : x > y ? x : y;
    }
  }
  return NaN;
}

// ------------------------------------------------------------------ activation functions (ScalarE)

export const ACTIVATIONS = ['identity', 'copy', 'relu', 'gelu', 'gelu_apprx_tanh', 'sigmoid', 'tanh', 'exp', 'log', 'sqrt', 'rsqrt', 'reciprocal', 'square', 'silu'] as const;
export type Activation = (typeof ACTIVATIONS)[number];

/**
 * erfc(x) for x >= 0 in double precision: 1 - (Taylor series of erf) below 3, where the
 * cancellation costs at most ~5 of 16 digits; the continued fraction of erfc from 3 on (no
 * cancellation in the tail, so gelu of large negative inputs keeps its relative accuracy).
 * Relative error far below FP32's 6e-8: `fround(gelu(x))` is the correctly rounded FP32 value
 * except within a hair of a rounding tie (docs/spec-notes.md "neuroncore: transcendentals").
 */
export function erfc(x: number): number {
  if (x !== x) return NaN;
  if (x < 3) {
    // erf(x) = 2/sqrt(pi) * sum_n (-1)^n x^(2n+1) / (n! (2n+1))
    let term = x;
    let sum = x;
    const x2 = x * x;
    for (let n = 1; n < 200; n++) {
      term *= -x2 / n;
      const t = term / (2 * n + 1);
      sum += t;
      if (Math.abs(t) <= 1e-17 * Math.abs(sum)) break;
    }
    return 1 - (2 / Math.sqrt(Math.PI)) * sum;
  }
  if (x > 27) return 0;
  // erfc(x) = exp(-x^2)/sqrt(pi) / (x + (1/2)/(x + 1/(x + (3/2)/(x + ...)))), evaluated backwards.
  let f = x;
  for (let k = 80; k >= 1; k--) f = x + k / 2 / f;
  return Math.exp(-x * x) / Math.sqrt(Math.PI) / f;
}

export function erf(x: number): number {
  return x < 0 ? erfc(-x) - 1 : 1 - erfc(x);
}

/** func(t) in double precision; the caller rounds to FP32. Codes are indices in ACTIVATIONS. */
export function activate(code: number, t: number): number {
  switch (code) {
    case 0:
    case 1: return t;
    case 2: return t > 0 ? t : t !== t ? NaN : 0;
    case 3: return t < 0 ? 0.5 * t * erfc(-t / Math.SQRT2) : 0.5 * t * (1 + erf(t / Math.SQRT2));
    case 4: return 0.5 * t * (1 + Math.tanh(Math.sqrt(2 / Math.PI) * (t + 0.044715 * t * t * t)));
    case 5: return 1 / (1 + Math.exp(-t));
    case 6: return Math.tanh(t);
    case 7: return Math.exp(t);
    case 8: return Math.log(t);
    case 9: return Math.sqrt(t);
    case 10: return 1 / Math.sqrt(t);
    case 11: return 1 / t;
    case 12: return t * t;
    case 13: return t / (1 + Math.exp(-t));
  }
  return NaN;
}

export function activationCode(name: string): number {
  return (ACTIVATIONS as readonly string[]).indexOf(name);
}
