/**
 * `config REGION { …; data = "table.npy"; }`: configuration-table entries from a tensor file, one row per entry and
 * one column per field of the region's table (its non-reserved scalar fields, in table order). Float data are
 * encoded with the table's declared value format (`meta.value_format`, e.g. the VPU lookup tables: FP16 at the VPU's
 * EB, grammars/pyxis/vpu_lut_entry.json); integer data are raw field values. So a table computed elsewhere (the
 * breakpoints of a function for a VPU LUT: scripts/make-vpu-lut.mjs) is loaded without 256 `entry` blocks.
 */
import { encode, type CompiledTable, type FieldValues } from '@pyxis/codec';
import { warning } from '@pyxis/diagnostics';
import { getFormat } from '@pyxis/formats';
import type { ScriptValue } from '@pyxis/ld';
import type { LinkContext } from './context.js';
import { readTensorFile, toFloats } from './dataFiles.js';

interface ValueFormat {
  format: string;
  eb?: number;
}

/** The entries (each `stride` bytes) a `data` attribute gives for `table`, or undefined after a diagnostic. */
export function configDataEntries(ctx: LinkContext, v: ScriptValue, table: CompiledTable, stride: number, meta: Record<string, unknown> | undefined): Uint8Array[] | undefined {
  const { err } = ctx.r;
  const got = readTensorFile(ctx, v, undefined, '`data`', '');
  if (!got) return undefined;
  const { path, tensor } = got;
  const fields = table.fields.filter((f) => !f.reserved && f.count === 1);
  const cols = tensor.shape.length === 1 ? 1 : tensor.shape[tensor.shape.length - 1]!;
  const rows = tensor.shape.length === 1 ? tensor.shape[0]! : tensor.shape.slice(0, -1).reduce((a, b) => a * b, 1);
  if (cols !== fields.length) {
    err('LD0160', `${path}: shape [${tensor.shape.join(', ')}] needs ${fields.length} column(s), one per field of ${table.name} (${fields.map((f) => f.name).join(', ')})`, v.span);
    return undefined;
  }
  const isFloat = ['float16', 'bfloat16', 'float32', 'float64'].includes(tensor.dtype);
  const vf = meta?.['value_format'] as ValueFormat | undefined;
  if (isFloat && !vf) {
    err('LD0160', `${path}: ${table.name} declares no value format for float data; give integer field values`, v.span);
    return undefined;
  }
  const fmt = vf ? getFormat(vf.format) : undefined;
  const data = isFloat ? toFloats(tensor) : (tensor.data as ArrayLike<number | bigint>);
  const out: Uint8Array[] = [];
  let saturated = 0;
  for (let r = 0; r < rows; r++) {
    const values: FieldValues = {};
    for (let c = 0; c < cols; c++) {
      const x = data[r * cols + c]!;
      if (isFloat && fmt) {
        const code = fmt.encode(Number(x), { eb: vf!.eb ?? 0 });
        // saturation: the magnitude exceeds the format's largest (the code decodes to less than the input)
        const back = fmt.decode(code, vf!.eb ?? 0);
        if (Math.abs(Number(x)) > Math.abs(back) * (1 + 2 ** -8) && Math.abs(back) >= fmt.decode(fmt.maxCode, vf!.eb ?? 0) / 2) saturated++;
        values[fields[c]!.name] = code;
      } else values[fields[c]!.name] = Number(x);
    }
    const e = new Uint8Array(stride);
    try {
      encode(table, values, e, 0);
    } catch (ex) {
      err('LD0160', `${path}: row ${r}: ${(ex as Error).message}`, v.span);
      return undefined;
    }
    out.push(e);
  }
  if (saturated) ctx.bag.add(warning('LD0161', `${path}: ${saturated} value(s) saturated in ${vf!.format} (eb ${vf!.eb ?? 0})`, { span: v.span }));
  return out;
}
