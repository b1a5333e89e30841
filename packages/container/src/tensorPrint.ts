/**
 * Printing a tensor's values the way NumPy's `repr` does (docs/tensor-files.md, "Printing values"): nested
 * brackets, one common element width, a summary with `...` on every axis longer than 2·edgeitems once the
 * tensor has more than `threshold` elements, floats in the shortest form that reads back as the same value in
 * the tensor's own precision (at most 8 fractional digits), scientific notation when the magnitudes call for it.
 */
import type { Tensor } from './tensor.js';

export interface TensorPrintOptions {
  /** Summarise tensors with more elements than this (NumPy's default: 1000). */
  threshold?: number;
  /** Items kept at each end of a summarised axis (NumPy's default: 3). */
  edgeItems?: number;
  /** Print every element whatever the size. */
  full?: boolean;
  /** Wrap rows at this many characters (NumPy's default: 75). */
  lineWidth?: number;
}

export const PRINT_THRESHOLD = 1000;
export const PRINT_EDGE_ITEMS = 3;
const LINE_WIDTH = 75;
/** NumPy's default print precision: fractional digits at most. */
const PRECISION = 8;

/** IEEE binary16 bits to a number. */
function halfToNumber(h: number): number {
  const s = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 0x1f;
  const f = h & 0x3ff;
  if (e === 0) return s * f * 2 ** -24;
  if (e === 31) return f ? NaN : s * Infinity;
  return s * (1 + f / 1024) * 2 ** (e - 15);
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
function bf16ToNumber(h: number): number {
  u32[0] = h << 16;
  return f32[0]!;
}

/** The value of element i as a JavaScript number (16-bit floats decoded from their bits). */
export function tensorElement(t: Tensor, i: number): number {
  const v = t.data[i]!;
  return t.dtype === 'float16' ? halfToNumber(v) : t.dtype === 'bfloat16' ? bf16ToNumber(v) : v;
}

const isFloat = (t: Tensor) => t.dtype.startsWith('float') || t.dtype === 'bfloat16';

/** Rounds a number to the tensor's precision: a printed form is exact when it reads back as the same element. */
function roundTrip(t: Tensor): (x: number) => number {
  if (t.dtype === 'float32') return Math.fround;
  if (t.dtype === 'float16' || t.dtype === 'bfloat16') {
    // The nearest element: float16 (10 fraction bits) or bfloat16 (7) rounded to nearest even from the double.
    const bits = t.dtype === 'float16' ? 10 : 7;
    return (x: number) => {
      if (!Number.isFinite(x) || x === 0) return x;
      const e = Math.max(Math.floor(Math.log2(Math.abs(x))), t.dtype === 'float16' ? -14 : -126);
      const q = 2 ** (e - bits);
      const r = x / q;
      const fl = Math.floor(r);
      const n = r - fl > 0.5 || (r - fl === 0.5 && fl % 2 !== 0) ? fl + 1 : fl;
      return n * q;
    };
  }
  return (x: number) => x;
}

/** Summary statistics over the whole tensor: NaNs counted, the rest give min/max/mean. */
export interface TensorStats {
  count: number;
  min: number;
  max: number;
  mean: number;
  nan: number;
}

export function tensorStats(t: Tensor): TensorStats {
  let min = Infinity;
  let max = -Infinity;
  let sum = 0;
  let nan = 0;
  const n = t.data.length;
  for (let i = 0; i < n; i++) {
    const v = tensorElement(t, i);
    if (Number.isNaN(v)) {
      nan++;
      continue;
    }
    if (v < min) min = v;
    if (v > max) max = v;
    sum += v;
  }
  const m = n - nan;
  return { count: n, min: m ? min : NaN, max: m ? max : NaN, mean: m ? sum / m : NaN, nan };
}

/** The element indices per axis that are shown: all, or the first and last `edge` (-1 marks the `...`). */
function shownIndices(dim: number, summarise: boolean, edge: number): number[] {
  if (!summarise || dim <= 2 * edge) return Array.from({ length: dim }, (_, i) => i);
  return [...Array.from({ length: edge }, (_, i) => i), -1, ...Array.from({ length: edge }, (_, i) => dim - edge + i)];
}

/** Flat indices of every element shown (in order). */
function shownElements(t: Tensor, summarise: boolean, edge: number): number[] {
  const out: number[] = [];
  const walk = (axis: number, base: number) => {
    if (axis === t.shape.length) {
      out.push(base);
      return;
    }
    const stride = t.shape.slice(axis + 1).reduce((a, b) => a * b, 1);
    for (const i of shownIndices(t.shape[axis]!, summarise, edge)) if (i >= 0) walk(axis + 1, base + i * stride);
  };
  walk(0, 0);
  return out;
}

/** The element formatter: one style for every shown element (NumPy: FloatingFormat / IntegerFormat). */
function elementFormatter(t: Tensor, shown: number[]): (v: number) => string {
  const values = shown.map((i) => tensorElement(t, i));
  if (!isFloat(t)) {
    const w = Math.max(0, ...values.map((v) => String(v).length));
    return (v) => String(v).padStart(w);
  }
  const rt = roundTrip(t);
  const finite = values.filter((v) => Number.isFinite(v));
  const abs = finite.map(Math.abs).filter((v) => v !== 0);
  const maxAbs = abs.length ? Math.max(...abs) : 0;
  const minAbs = abs.length ? Math.min(...abs) : 0;
  const special = (v: number) => (Number.isNaN(v) ? 'nan' : v > 0 ? 'inf' : '-inf');
  // NumPy: scientific when the largest is >= 1e8, the smallest non-zero < 1e-4, or they differ by more than 1e3.
  const sci = abs.length > 0 && (maxAbs >= 1e8 || minAbs < 1e-4 || maxAbs / minAbs > 1e3);
  let body: (v: number) => [string, string];
  if (sci) {
    // shortest mantissa that reads back, then every mantissa padded with zeros to the longest
    const digits = Math.max(...finite.map((v) => mantissaDigits(v, rt)));
    body = (v) => {
      const [m, e] = v.toExponential(digits).split('e') as [string, string];
      const exp = `e${e[0]}${e.slice(1).padStart(2, '0')}`;
      const [ip, fp = ''] = m.split('.');
      return [ip!, `.${fp}${exp}`];
    };
  } else {
    const digits = Math.max(0, ...finite.map((v) => fixedDigits(v, rt)));
    // NumPy pads the shorter fractions with spaces on the right so the points line up
    body = (v) => {
      const s = v.toFixed(fixedDigits(v, rt));
      const [ip, fp = ''] = s.split('.');
      return [ip!, `.${fp}`.padEnd(digits + 1)];
    };
  }
  // NumPy: integer parts right-aligned, fractions left-aligned; nan/inf right-aligned in the whole width
  const parts = finite.map(body);
  const wi = Math.max(0, ...parts.map((p) => p[0].length));
  const wf = Math.max(0, ...parts.map((p) => p[1].length));
  const width = Math.max(wi + wf, ...values.filter((v) => !Number.isFinite(v)).map((v) => special(v).length));
  return (v) => {
    if (!Number.isFinite(v)) return special(v).padStart(width);
    const [ip, fp] = body(v);
    return (ip.padStart(wi) + fp.padEnd(wf)).padStart(width);
  };
}

function fixedDigits(v: number, rt: (x: number) => number): number {
  for (let d = 0; d < PRECISION; d++) if (rt(Number(v.toFixed(d))) === v) return d;
  return PRECISION;
}

function mantissaDigits(v: number, rt: (x: number) => number): number {
  for (let d = 0; d < PRECISION; d++) if (rt(Number(v.toExponential(d))) === v) return d;
  return PRECISION;
}

/** True when the tensor is printed in summary form. */
export function isSummarised(t: Tensor, opts: TensorPrintOptions = {}): boolean {
  return !opts.full && t.data.length > (opts.threshold ?? PRINT_THRESHOLD);
}

/** NumPy-repr style text of the values (no `array(...)` wrapper), ending without a newline. */
export function formatTensorValues(t: Tensor, opts: TensorPrintOptions = {}): string {
  const summarise = isSummarised(t, opts);
  const edge = opts.edgeItems ?? PRINT_EDGE_ITEMS;
  const width = opts.lineWidth ?? LINE_WIDTH;
  if (t.data.length === 0) return `[]`;
  const fmt = elementFormatter(t, shownElements(t, summarise, edge));
  const rank = t.shape.length;
  if (rank === 0) return fmt(tensorElement(t, 0)).trim();
  const render = (axis: number, base: number, indent: string): string => {
    const stride = t.shape.slice(axis + 1).reduce((a, b) => a * b, 1);
    const idx = shownIndices(t.shape[axis]!, summarise, edge);
    if (axis === rank - 1) {
      // one row, wrapped at the line width like NumPy (continuation lines indented past the brackets)
      const lines: string[] = [];
      let line = '[';
      idx.forEach((i, k) => {
        const item = (i < 0 ? '...' : fmt(tensorElement(t, base + i))) + (k < idx.length - 1 ? ',' : ']');
        if (line.length + 1 + item.length > width - indent.length && line !== '[') {
          lines.push(line);
          line = ' ' + item;
        } else line += (line === '[' ? '' : ' ') + item;
      });
      lines.push(line);
      return lines.join('\n' + indent);
    }
    const gap = '\n'.repeat(rank - axis - 1);
    const rows = idx.map((i) => (i < 0 ? '...' : render(axis + 1, base + i * stride, indent + ' ')));
    return '[' + rows.join(',' + gap + indent + ' ') + ']';
  };
  return render(0, 0, '');
}

/** Number or the JSON spelling of a non-finite value. */
function jsonNumber(v: number): number | string {
  return Number.isFinite(v) ? v : Number.isNaN(v) ? 'NaN' : v > 0 ? 'Infinity' : '-Infinity';
}

/**
 * JSON values: nested arrays (outermost axis first; NaN and infinities as the strings `"NaN"`, `"Infinity"`,
 * `"-Infinity"`). Summarised axes hold the first and last `edgeItems` entries with the string `"..."` between.
 */
export function tensorJsonValues(t: Tensor, opts: TensorPrintOptions = {}): unknown {
  const summarise = isSummarised(t, opts);
  const edge = opts.edgeItems ?? PRINT_EDGE_ITEMS;
  if (t.shape.length === 0) return jsonNumber(tensorElement(t, 0));
  const build = (axis: number, base: number): unknown[] => {
    const stride = t.shape.slice(axis + 1).reduce((a, b) => a * b, 1);
    return shownIndices(t.shape[axis]!, summarise, edge).map((i) =>
      i < 0 ? '...' : axis === t.shape.length - 1 ? jsonNumber(tensorElement(t, base + i)) : build(axis + 1, base + i * stride),
    );
  };
  return build(0, 0);
}

/** `min -1.5, max 3.25, mean 0.125, NaN 0 (of 4096 elements)`: the line under a summarised tensor. */
export function formatTensorStats(s: TensorStats): string {
  const n = (v: number) => (Number.isNaN(v) ? 'nan' : String(Number(v.toPrecision(8))));
  return `min ${n(s.min)}, max ${n(s.max)}, mean ${n(s.mean)}, NaN ${s.nan} (of ${s.count} elements)`;
}
