/** Test harness: assemble a source, link it with in-memory .npy inputs, run, read HBM tensors back. */
import { writeNpy, type Tensor } from '@pyxis/container';
import type { Diagnostic } from '@pyxis/diagnostics';
import { assembleNc, dumpTensor, linkNc, runImage, type NcRun } from '../src/index.js';

export interface Ran {
  run: NcRun;
  out(name: string): Float32Array;
  diagnostics: Diagnostic[];
}

export function assemble(src: string, file = 't.ncasm') {
  return assembleNc([{ file, text: src }]);
}

export function errors(src: string): Diagnostic[] {
  return assemble(src).diagnostics.filter((d) => d.severity === 'error');
}

/** Inputs: tensor name -> {shape, values}. Other HBM tensors are zero-filled. */
export function run(src: string, inputs: Record<string, { shape: number[]; data: Float32Array | Int32Array }>, opts: { timingOnly?: boolean; warnUninit?: boolean; zero?: boolean; maxTicks?: number } = {}): Ran {
  const a = assemble(src);
  const errs = a.diagnostics.filter((d) => d.severity === 'error');
  if (errs.length) throw new Error(errs.map((d) => `${JSON.stringify(d.span)} ${d.code} ${d.message}`).join('\n'));
  const files = new Map<string, Uint8Array>();
  const lines: string[] = [];
  for (const t of a.program.tensors) {
    if (t.mem !== 'hbm') continue;
    const i = inputs[t.name];
    if (i) {
      const tensor: Tensor = i.data instanceof Int32Array ? { dtype: 'int32', shape: i.shape, data: i.data } : { dtype: 'float32', shape: i.shape, data: i.data };
      files.set(`/mem/${t.name}.npy`, writeNpy(tensor));
      lines.push(`tensor ${t.name} { data = "${t.name}.npy"; }`);
    } else if (opts.zero !== false) lines.push(`tensor ${t.name} { zero = true; }`);
  }
  const l = linkNc(lines.join('\n'), '/mem/t.ld', [{ file: 't.pobj', container: a.object }], () => {
    throw new Error('no objects');
  }, (p) => files.get(p)!);
  const r = runImage(l.image, 't.pimg', opts);
  return { run: r, out: (name) => dumpTensor(r, name).data as Float32Array, diagnostics: a.diagnostics };
}

/** Deterministic PRNG (xorshift32). */
export function prng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 4294967296;
  };
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
/** Reference: BF16 round-to-nearest-even of an FP32 value, by bits (independent of @pyxis/formats). */
export function bf16Rne(x: number): number {
  f32[0] = x;
  const u = u32[0]!;
  if ((u & 0x7f800000) === 0x7f800000 && (u & 0x7fffff) !== 0) return NaN;
  const lsb = (u >>> 16) & 1;
  u32[0] = ((u + 0x7fff + lsb) >>> 0) & 0xffff0000;
  return f32[0];
}
export function bf16Trunc(x: number): number {
  f32[0] = x;
  u32[0] = u32[0]! & 0xffff0000;
  return f32[0];
}

/**
 * Reference: nearest value of a small float format by enumeration (ties to the even code),
 * IEEE-style (all-ones exponent = inf/NaN): ebits, mbits, bias. Overflow beyond max + half ulp -> inf.
 */
export function smallFloatGrid(ebits: number, mbits: number): Float64Array {
  const bias = 2 ** (ebits - 1) - 1;
  const vals: number[] = [];
  for (let e = 0; e < 2 ** ebits - 1; e++)
    for (let m = 0; m < 2 ** mbits; m++) vals.push(e === 0 ? (m / 2 ** mbits) * 2 ** (1 - bias) : (1 + m / 2 ** mbits) * 2 ** (e - bias));
  return Float64Array.from(vals);
}
export function roundToGrid(grid: Float64Array, x: number): number {
  if (x !== x) return NaN;
  const a = Math.abs(x);
  const max = grid[grid.length - 1]!;
  const ulp = max - grid[grid.length - 2]!;
  if (a >= max + ulp / 2) return x < 0 ? -Infinity : Infinity;
  let lo = 0;
  let hi = grid.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (grid[mid]! <= a) lo = mid;
    else hi = mid;
  }
  let r: number;
  if (a >= max) r = max;
  else {
    const dl = a - grid[lo]!;
    const dh = grid[hi]! - a;
    r = dl < dh ? grid[lo]! : dh < dl ? grid[hi]! : lo % 2 === 0 ? grid[lo]! : grid[hi]!;
  }
  return x < 0 || Object.is(x, -0) ? -r : r;
}
