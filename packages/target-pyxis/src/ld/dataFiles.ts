/**
 * Files a link script names: raw bytes, `.npy` / `.safetensors` tensors
 * (relative to the script's directory), float views of float tensors.
 * Read errors become diagnostics at the naming attribute.
 */
import { extname, isAbsolute, relative, resolve } from 'node:path';
import { DiagnosticError, didYouMean, type SourceSpan } from '@pyxis/diagnostics';
import { readNpy, readSafetensors, type Tensor } from '@pyxis/container';
import type { ScriptValue } from '@pyxis/ld';
import type { LinkContext } from './context.js';

/** The bytes of a file named by the script (LD0201 when it cannot be read). */
export function loadData(ctx: LinkContext, path: string, span: SourceSpan): Uint8Array | undefined {
  const full = resolve(ctx.baseDir, path);
  try {
    return ctx.readFile(full);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    ctx.r.err('LD0201', code === 'ENOENT' ? `no such file: ${path}` : `cannot read ${path}: ${(e as Error).message}`, span);
    return undefined;
  }
}

/** Reads a `.npy` / `.safetensors` tensor named by `v` (`key` picks one of several); errors go to the bag. */
export function readTensorFile(ctx: LinkContext, v: ScriptValue, keyV: ScriptValue | undefined, what: string, otherTypes: string): { path: string; tensor: Tensor } | undefined {
  const { err, ident } = ctx.r;
  const p = ident(v, what);
  const bytes = p !== undefined ? loadData(ctx, p, v.span) : undefined;
  if (p === undefined || !bytes) return undefined;
  let tensor: Tensor | undefined;
  try {
    // Byte-offset diagnostics name the file as the user can open it (relative to the working directory), not as the script wrote it.
    const shown = displayPath(resolve(ctx.baseDir, p));
    if (extname(p) === '.npy') tensor = readNpy(bytes, shown);
    else if (extname(p) === '.safetensors') {
      const all = readSafetensors(bytes, shown);
      const key = ident(keyV, '`key`');
      if (key === undefined && all.size !== 1) err('LD0203', `${p} holds ${all.size} tensors; name one with \`key = "..."\``, v.span, { notes: [`note: tensors: ${[...all.keys()].slice(0, 10).join(', ')}`] });
      else {
        tensor = key === undefined ? [...all.values()][0] : all.get(key);
        if (!tensor) err('LD0203', `${p} has no tensor \`${key}\``, keyV!.span, { notes: didYouMean(key!, all.keys()) });
      }
    } else err('LD0204', `unknown data file type \`${extname(p)}\` (use .npy or .safetensors${otherTypes})`, v.span);
  } catch (e) {
    if (e instanceof DiagnosticError) ctx.bag.addAll(e.diagnostics.map((d) => ({ ...d, secondary: [...(d.secondary ?? []), { span: v.span, label: 'loaded from here' }] })));
    else err('LD0205', `cannot read ${p}: ${(e as Error).message}`, v.span);
  }
  return tensor ? { path: p, tensor } : undefined;
}

/** A float tensor file as floats (weights); LD0208 for integer dtypes. */
export function loadFloats(ctx: LinkContext, v: ScriptValue, keyV: ScriptValue | undefined, what: string): { shape: number[]; data: Float32Array | Float64Array } | undefined {
  const got = readTensorFile(ctx, v, keyV, what, '');
  if (!got) return undefined;
  const { path: p, tensor } = got;
  if (!['float16', 'bfloat16', 'float32', 'float64'].includes(tensor.dtype)) {
    ctx.r.err('LD0208', `${p}: weights must be floats (float16/bfloat16/float32/float64), got ${tensor.dtype}`, v.span);
    return undefined;
  }
  return { shape: tensor.shape, data: toFloats(tensor) };
}

/** `full` relative to the working directory when it lies below it, else absolute. */
function displayPath(full: string): string {
  const rel = relative(process.cwd(), full);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : full;
}

/** Float values of a float tensor; float16 / bfloat16 arrive as raw bits (Uint16Array). */
export function toFloats(t: Tensor): Float32Array | Float64Array {
  if (t.data instanceof Float32Array || t.data instanceof Float64Array) return t.data;
  const bits = t.data as Uint16Array;
  const out = new Float32Array(bits.length);
  if (t.dtype === 'bfloat16') {
    const u = new Uint32Array(out.buffer);
    for (let i = 0; i < bits.length; i++) u[i] = bits[i]! << 16;
    return out;
  }
  for (let i = 0; i < bits.length; i++) {
    const h = bits[i]!;
    const sign = h & 0x8000 ? -1 : 1;
    const e = (h >> 10) & 0x1f;
    const m = h & 0x3ff;
    out[i] = e === 0 ? sign * m * 2 ** -24 : e === 31 ? (m ? NaN : sign * Infinity) : sign * (1 + m / 1024) * 2 ** (e - 15);
  }
  return out;
}
