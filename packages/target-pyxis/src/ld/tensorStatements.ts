/**
 * `tensor` statements: element format, shape and strides (chip §7.2, §7.3),
 * region and alignment, initial data from .npy / .safetensors / raw files.
 */
import { DiagnosticError, didYouMean, warning } from '@pyxis/diagnostics';
import { AMEM_BYTES, AMEM_PARTITION_BYTES } from '../common/amem.js';
import { CHIP, SEQ, type LinkContext } from './context.js';
import { loadData, readTensorFile, toFloats } from './dataFiles.js';
import type { TensorDef } from './linkTypes.js';
import type { Placed } from './placement.js';
import { defaultRegion, hbmBytes, regionRef } from './regions.js';
import { quantisationProblems, tensorQuantisation } from './quantReport.js';
import { ELEMENT_FORMATS, PARTITION, codesFromBytes, encodeFloats, packTensor, tensorLayout, type ElementFormat } from './tensors.js';

export function declareTensors(ctx: LinkContext): void {
  const { err, attrsOf, num, ident, bool, named } = ctx.r;
  const { bag, tensors, placements } = ctx;
  for (const b of ctx.blocks('tensor')) {
    const name = named(b, '`tensor`');
    if (!name) continue;
    const a = attrsOf(b, ['format', 'shape', 'eb', 'region', 'address', 'align', 'strides', 'row_stride', 'chan_stride', 'data', 'key', 'raw', 'zero', 'saturate', 'role'], `tensor \`${name}\``);
    if (tensors.has(name)) err('LD0109', `tensor \`${name}\` is declared twice`, b.nameSpan);
    const fmtV = a.get('format')?.value;
    const fmtName = ident(fmtV, '`format`');
    const fmt = fmtName ? ELEMENT_FORMATS[fmtName] : undefined;
    if (!fmtV) err('LD0110', `tensor \`${name}\` needs a \`format\``, b.nameSpan);
    else if (fmtName && !fmt) err('LD0111', `unknown element format \`${fmtName}\``, fmtV.span, { notes: didYouMean(fmtName, Object.keys(ELEMENT_FORMATS)) });
    const shapeV = a.get('shape')?.value;
    let shape: number[] = [];
    if (!shapeV) err('LD0110', `tensor \`${name}\` needs a \`shape\``, b.nameSpan);
    else if (shapeV.kind !== 'list' || shapeV.items.length === 0) err('LD0103', '`shape` must be a list like [C, H, W]', shapeV.span);
    else shape = shapeV.items.map((it) => num(it, 'a dimension', 1, 1 << 24) ?? 1);
    const eb = num(a.get('eb')?.value, '`eb`', -63, 63) ?? 0;
    if (eb !== 0 && fmt && /^(OCP_|IEEE_)/.test(fmt.name))
      bag.add(warning('LD0117', `tensor \`${name}\`: ${fmt.name} has the standard exponent bias; \`eb = ${eb}\` does not change the stored values (it is only recorded in the symbol table). The import to RFP16 adjusts the EB at run time`, { span: a.get('eb')!.value.span, spec: `${CHIP} §4.9, §4.10` }));
    let chanS: number | undefined;
    let rowS: number | undefined;
    const sv = a.get('strides')?.value;
    if (sv) {
      if (sv.kind !== 'list' || sv.items.length !== 2) err('LD0103', '`strides` must be [chan_stride, row_stride] in partitions', sv.span);
      else {
        chanS = num(sv.items[0], 'channel stride', 0, AMEM_BYTES / AMEM_PARTITION_BYTES);
        rowS = num(sv.items[1], 'row stride', 0, AMEM_BYTES / AMEM_PARTITION_BYTES);
      }
    }
    rowS = num(a.get('row_stride')?.value, '`row_stride`', 0, AMEM_BYTES / AMEM_PARTITION_BYTES) ?? rowS;
    chanS = num(a.get('chan_stride')?.value, '`chan_stride`', 0, AMEM_BYTES / AMEM_PARTITION_BYTES) ?? chanS;
    if (!fmt) continue;
    const layout = tensorLayout(shape, fmt.bytes, { ...(chanS !== undefined ? { chan: chanS } : {}), ...(rowS !== undefined ? { row: rowS } : {}) });
    const minRow = Math.ceil(layout.rowBytes / PARTITION);
    if (layout.rowStride < minRow && layout.H > 1)
      err('LD0112', `tensor \`${name}\`: row stride ${layout.rowStride} partitions is smaller than a row (${minRow} partitions)`, (a.get('row_stride') ?? a.get('strides'))!.value.span, { spec: `${CHIP} §7.2` });
    if (fmt.bytes === 2 && (layout.rowStride % 2 || layout.chanStride % 2))
      err('LD0113', `tensor \`${name}\`: 16-bit tensors need even row/channel strides (even partitions)`, (a.get('strides') ?? a.get('row_stride') ?? a.get('chan_stride'))!.value.span, { spec: `${CHIP} §7.3; ${SEQ} §1.1` });
    const region = a.has('region') ? regionRef(ctx, a.get('region')!.value, '`region`') : defaultRegion(ctx, 0);
    const role = ident(a.get('role')?.value, '`role`') ?? 'data';
    if (!['data', 'indirection', 'compressed'].includes(role)) err('LD0114', `unknown tensor role \`${role}\``, a.get('role')!.value.span, { notes: didYouMean(role, ['data', 'indirection', 'compressed']) });
    const minAlign = region?.space === 'hbm' ? 1024 : role !== 'data' ? 128 : fmt.bytes === 2 ? 32 : 16;
    const align = num(a.get('align')?.value, '`align`', 1, 1 << 30) ?? minAlign;
    if (align & (align - 1)) err('LD0115', `\`align\` must be a power of two, got ${align}`, a.get('align')!.value.span);
    const fixed = num(a.get('address')?.value, '`address`', 0, hbmBytes());
    if (!region) continue;
    const placed: Placed = { name, what: 'tensor', region, size: layout.size, align: Math.max(align, minAlign), address: 0, span: b.nameSpan!, ...(fixed !== undefined ? { fixed } : {}) };
    const t: TensorDef = { name, span: b.nameSpan!, format: fmt.name, elemBytes: fmt.bytes, eb, shape, layout, role, placed, ...(fmt.int ? { int: true as const } : {}) };
    // data
    const count = shape.reduce((x, y) => x * y, 1);
    const saturate = bool(a.get('saturate')?.value, '`saturate`') ?? true;
    const dataV = a.get('data')?.value;
    const rawV = a.get('raw')?.value;
    const zero = bool(a.get('zero')?.value, '`zero`');
    if ([dataV, rawV, zero ? a.get('zero') : undefined].filter(Boolean).length > 1) err('LD0116', `tensor \`${name}\`: give only one of \`data\`, \`raw\`, \`zero\``, b.nameSpan);
    if (rawV) {
      const p = ident(rawV, '`raw`');
      const bytes = p ? loadData(ctx, p, rawV.span) : undefined;
      if (bytes) {
        if (bytes.length !== count * fmt.bytes)
          err('LD0202', `raw file ${p} has ${bytes.length} bytes; tensor \`${name}\` ${JSON.stringify(shape)} of ${fmt.name} needs ${count * fmt.bytes}`, rawV.span);
        else t.bytes = packTensor(layout, codesFromBytes(bytes, fmt.bytes));
      }
    } else if (dataV) {
      const got = readTensorFile(ctx, dataV, a.get('key')?.value, '`data`', ', or `raw = "file"` for pre-encoded codes');
      if (got) {
        const { path: p, tensor } = got;
        const n = tensor.data.length;
        const sameShape = tensor.shape.length === shape.length ? tensor.shape.every((d, i) => d === shape[i]) : n === count;
        if (!sameShape || n !== count)
          err('LD0206', `${p}: shape ${JSON.stringify(tensor.shape)} does not match tensor \`${name}\` shape ${JSON.stringify(shape)}`, dataV.span);
        else if (fmt.int) {
          const r = integerCodes(fmt, tensor.data as ArrayLike<number>, tensor.dtype);
          if (r.error) err(r.code, `${p}: ${r.error}`, dataV.span, { spec: `${CHIP} §7.6; ${SEQ} §8.1` });
          else t.bytes = packTensor(layout, r.codes!);
        } else if (tensor.dtype === 'float32' || tensor.dtype === 'float64' || tensor.dtype === 'float16' || tensor.dtype === 'bfloat16') {
          const vals = toFloats(tensor);
          try {
            const r = encodeFloats(fmt.name, vals, eb, saturate);
            if (r.error) err('LD0207', `tensor \`${name}\`: ${r.error}`, dataV.span);
            else {
              t.bytes = packTensor(layout, r.codes);
              const q = (t.quant = tensorQuantisation(name, fmt.name, vals, r.codes, eb));
              const problems = quantisationProblems(q);
              if (problems.length)
                bag.add(
                  warning(
                    'RPT0001',
                    `tensor \`${name}\`: the float data lose precision in ${fmt.name} at EB ${eb}: ${problems.join(', ')}; max relative error ${(100 * q.max_rel_error).toFixed(2)}% (${q.saturated ? 'raise' : q.flushed_to_zero ? 'lower' : 'check'} \`eb\`)`,
                    { span: (a.get('eb') ?? a.get('data'))!.value.span, spec: `${CHIP} §4` },
                  ),
                );
            }
          } catch (e) {
            if (e instanceof DiagnosticError) bag.addAll(e.diagnostics.map((d) => ({ ...d, span: dataV.span })));
            else err('LD0207', `tensor \`${name}\`: cannot convert to ${fmt.name}: ${(e as Error).message}`, dataV.span);
          }
        } else if ((fmt.bytes === 1 && (tensor.dtype === 'uint8' || tensor.dtype === 'int8')) || (fmt.bytes === 2 && (tensor.dtype === 'uint16' || tensor.dtype === 'int16'))) {
          // integer arrays of the element width are taken as codes (Int16 values are their own codes)
          t.bytes = packTensor(layout, tensor.data as ArrayLike<number>);
        } else err('LD0208', `${p}: dtype ${tensor.dtype} cannot initialise a ${fmt.name} tensor (give floats, or ${fmt.bytes === 1 ? 'uint8/int8' : 'uint16/int16'} codes)`, dataV.span);
      }
    }
    tensors.set(name, t);
    placements.push(placed);
  }
}

const INT_DTYPES = ['uint8', 'int8', 'uint16', 'int16', 'int32', 'uint32'];

/**
 * Codes of an int32 / uint32 tensor (index tables, chip §7.6) from integer file data: the values themselves
 * (two's complement for Int32). Floats are refused (LD0208): an index is an integer; values outside the format's
 * range are LD0207 (a negative index has no meaning for UInt32, seq §5.2.2 x_fifo_entry[31:0] is unsigned).
 */
export function integerCodes(fmt: ElementFormat, data: ArrayLike<number>, dtype: string): { codes?: Uint32Array; code: string; error?: string } {
  if (!INT_DTYPES.includes(dtype)) return { code: 'LD0208', error: `dtype ${dtype} cannot initialise a ${fmt.name} tensor (give integers: int32 or uint32, or a narrower integer dtype)` };
  const signed = fmt.name === 'Int32';
  const lo = signed ? -(2 ** 31) : 0;
  const hi = signed ? 2 ** 31 - 1 : 2 ** 32 - 1;
  const codes = new Uint32Array(data.length);
  for (let i = 0; i < data.length; i++) {
    const v = data[i]!;
    if (v < lo || v > hi) return { code: 'LD0207', error: `element ${i} is ${v}, outside the ${fmt.name} range ${lo}..${hi}${signed ? '' : ' (use `format = int32` for signed values)'}` };
    codes[i] = v >>> 0;
  }
  return { codes, code: '' };
}
