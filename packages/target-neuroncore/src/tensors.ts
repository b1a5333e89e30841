/**
 * Tensors of the NeuronCore dialect: `tensor` declarations (SBUF/PSUM allocation, guide "Data Movement") and the
 * access patterns of operands (guide "Accessing SBUF/PSUM tensors using compute engines": a start partition, a
 * partition count and up to four free [size, stride] dimensions), from slices or raw fields (source.ts).
 */
import { error } from '@pyxis/diagnostics';
import { Stop, type AsmState } from './asmState.js';
import { evalExpr, evalInt } from './expr.js';
import type { AP, AttrValue, Mem, TensorDecl } from './ir.js';
import { SPEC } from './isa.js';
import { DTYPES, dtypeBytes, type DType } from './numerics.js';
import type { Slice, Stmt, Value } from './parse.js';
import { checkDecl, type RuleCtx } from './rules.js';
import { resolveRawAp } from './source.js';

/** A `tensor` statement: declares the tensor, allocating SBUF/PSUM bytes when no offset is given. */
export function declareTensor(s: AsmState, st: Extract<Stmt, { k: 'tensor' }>): void {
  if (s.tensorByName.has(st.name)) {
    s.diags.push(error('NC0020', `tensor \`${st.name}\` is declared twice`, { span: s.span(st.line, st.col, st.name.length) }));
    return;
  }
  if (st.mem !== 'hbm' && st.mem !== 'sbuf' && st.mem !== 'psum') {
    s.diags.push(error('NC0021', `unknown memory \`${st.mem}\` (hbm, sbuf, psum)`, { span: s.span(st.line, st.memCol, st.mem.length), spec: `${SPEC} §Data Movement` }));
    return;
  }
  if (!(DTYPES as readonly string[]).includes(st.dtype)) {
    s.diags.push(error('NC0022', `unknown dtype \`${st.dtype}\``, { span: s.span(st.line, st.dtypeCol, st.dtype.length), notes: [`known: ${DTYPES.join(', ')}`, ...s.hint(st.dtype, [...DTYPES])] }));
    return;
  }
  const dtype = st.dtype as DType;
  const shape = st.shape.map((e) => evalInt(s, e, st.line, 'a dimension'));
  if (shape.some((d) => d < 1)) {
    s.diags.push(error('NC0023', `dimensions must be positive: [${shape.join(', ')}]`, { span: s.span(st.line, st.col) }));
    return;
  }
  const mem = st.mem as Mem;
  let partition = 0;
  let offset: number | undefined;
  for (const a of st.attrs) {
    const v = a.value.k === 'expr' ? evalInt(s, a.value.e, st.line, `\`${a.key}\``) : NaN;
    if (a.key === 'partition' && mem !== 'hbm') partition = v;
    else if (a.key === 'offset' && mem !== 'hbm') offset = v;
    else if (a.key === 'bank' && mem === 'psum') offset = v * s.machine.psumBankBytes;
    else s.diags.push(error('NC0024', `unknown tensor attribute \`${a.key ?? '?'}\` for ${mem.toUpperCase()} (${mem === 'hbm' ? 'none' : mem === 'psum' ? 'partition, offset, bank' : 'partition, offset'})`, { span: s.span(st.line, a.col) }));
  }
  const elems = shape.reduce((a, b) => a * b, 1);
  const bytes = mem === 'hbm' ? elems * dtypeBytes(dtype) : (elems / shape[0]!) * dtypeBytes(dtype);
  if (mem !== 'hbm' && offset === undefined) {
    // Bump allocation; PSUM tensors start on a bank so a tile never straddles two banks.
    const align = mem === 'psum' ? s.machine.psumBankBytes : 64;
    offset = Math.ceil(s.alloc[mem] / align) * align;
  }
  if (mem !== 'hbm') s.alloc[mem as 'sbuf' | 'psum'] = Math.max(s.alloc[mem as 'sbuf' | 'psum'], offset! + bytes);
  const t: TensorDecl = { name: st.name, mem, dtype, shape, partition, offset: offset ?? 0, bytes, line: s.loc?.line ?? st.line };
  const ctx: RuleCtx = { diags: s.diags, span: (c) => s.span(st.line, c), colOf: () => st.col, tensors: s.tensors };
  checkDecl(t, ctx, st.col);
  s.tensorByName.set(st.name, s.tensors.length);
  s.tensors.push(t);
  s.hbmBases.push(s.hbmBase);
  if (mem === 'hbm') s.hbmBase += Math.ceil(bytes / 64) * 64 + 64;
  s.env.delete(st.name);
}

/** The access pattern of `name[slices]` (Accessing SBUF/PSUM tensors); records its column for carets. */
export function resolveAp(s: AsmState, name: string, slices: Slice[] | undefined, line: number, col: number, len = name.length): AP {
  const ti = s.tensorByName.get(name);
  if (ti === undefined) {
    s.diags.push(error('NC0030', `unknown tensor \`${name}\``, { span: s.span(line, col, name.length), notes: s.hint(name, [...s.tensorByName.keys()]) }));
    throw new Stop();
  }
  const t = s.tensors[ti]!;
  const shape = t.shape;
  const sl = slices ?? [];
  if (sl.length > shape.length) {
    s.diags.push(error('NC0031', `\`${name}\` has ${shape.length} dimensions; ${sl.length} indices given`, { span: s.span(line, col, name.length) }));
    throw new Stop();
  }
  const strides = (s.tensorStrides[ti] ??= shape.map((_, i) => shape.slice(i + 1).reduce((a, b) => a * b, 1)));
  const eb = dtypeBytes(t.dtype);
  const dims: Array<[number, number]> = [];
  let offsetEl = 0;
  let np = 1;
  let pstride = 0;
  let p0 = 0;
  for (let i = 0; i < shape.length; i++) {
    const slice = sl[i];
    let lo = 0;
    let hi = shape[i]!;
    let step = 1;
    if (slice) {
      if (slice.lo) lo = evalInt(s, slice.lo, line, 'a slice bound');
      if (slice.single) hi = lo + 1;
      else if (slice.hi) hi = evalInt(s, slice.hi, line, 'a slice bound');
      if (slice.step) step = evalInt(s, slice.step, line, 'a slice step');
      if (step < 1 || lo < 0 || hi > shape[i]! || lo >= hi) {
        s.diags.push(error('NC0032', `slice ${lo}:${hi}${step !== 1 ? `:${step}` : ''} is outside dimension ${i} of \`${name}\` (size ${shape[i]})${step < 1 ? '; steps are positive' : ''}`, { span: s.span(line, slice.col, slice.end - slice.col), spec: `${SPEC} §Accessing SBUF/PSUM tensors using compute engines` }));
        throw new Stop();
      }
    }
    const size = Math.ceil((hi - lo) / step);
    if (i === 0 && t.mem !== 'hbm') {
      if (step !== 1) {
        s.diags.push(error('NC0108', 'partition striding is not allowed: a tensor occupies a continuous range of partitions', { span: s.span(line, slice!.col, slice!.end - slice!.col), spec: `${SPEC} §Accessing SBUF/PSUM tensors using compute engines` }));
        throw new Stop();
      }
      p0 = lo;
      np = size;
      continue;
    }
    if (i === 0 && shape.length > 1) {
      np = size;
      pstride = strides[0]! * step;
      offsetEl += lo * strides[0]!;
      continue;
    }
    offsetEl += lo * strides[i]!;
    if (size > 1) dims.push([size, strides[i]! * step]);
  }
  if (!dims.length) dims.push([1, 1]);
  const ap: AP = { tensor: ti, mem: t.mem, dtype: t.dtype, start: t.partition + p0, np, pstride, offset: t.mem === 'hbm' ? offsetEl * eb : t.offset + offsetEl * eb, dims };
  s.apCols.set(ap, col);
  s.colLen.set(col, len);
  return ap;
}

/** An access pattern in its ISA form `t{start, np, pstride, offset, [size, stride]...}` (source.ts resolveRawAp). */
export function resolveRaw(s: AsmState, v: Extract<Value, { k: 'raw' }>, line: number): AP {
  const ti = s.tensorByName.get(v.name);
  if (ti === undefined) {
    s.diags.push(error('NC0030', `unknown tensor \`${v.name}\``, { span: s.span(line, v.col, v.name.length), notes: s.hint(v.name, [...s.tensorByName.keys()]) }));
    throw new Stop();
  }
  const fields = v.fields.map((e) => evalInt(s, e, line, 'an access-pattern field'));
  const ap = resolveRawAp(s.tensors[ti]!, ti, fields, v.dims.map(([a, b]) => [evalInt(s, a, line, 'a size'), evalInt(s, b, line, 'a stride')]));
  if (typeof ap === 'string') {
    s.diags.push(error('NC0033', `access pattern of \`${v.name}\` is outside the tensor: ${ap}`, { span: s.span(line, v.col, v.end - v.col), spec: `${SPEC} §Accessing SBUF/PSUM tensors using compute engines` }));
    throw new Stop();
  }
  s.apCols.set(ap, v.col);
  s.colLen.set(v.col, v.end - v.col);
  return ap;
}

/** An operand or attribute value: an access pattern, a list, a number, or a bare name (an enum value). */
export function valueToAttr(s: AsmState, v: Value, line: number): AttrValue {
  if (v.k === 'ap') return resolveAp(s, v.name, v.slices, line, v.col, v.end - v.col);
  if (v.k === 'raw') return resolveRaw(s, v, line);
  if (v.k === 'list') return v.items.flatMap((x) => { const r = valueToAttr(s, x, line); return Array.isArray(r) ? r : [r as number]; }) as number[];
  if (v.e.k === 'name' && !s.env.has(v.e.name)) {
    if (s.tensorByName.has(v.e.name)) return resolveAp(s, v.e.name, undefined, line, v.col);
    return v.e.name;
  }
  return evalExpr(s, v.e, line);
}
