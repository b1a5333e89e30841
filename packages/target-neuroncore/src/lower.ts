/**
 * Lowering of one instruction statement of the NeuronCore dialect to ISA instructions (grammars/neuroncore/
 * instructions.json): operand binding, `tensor.matmul` / `tensor.transpose` into LoadStationary + MultiplyMoving
 * (guide "Tensor Engine"), `dma.copy` into transfers over the 16 DMA queues (guide "Data movement between HBM and SBUF
 * using DMAs"; docs/spec-notes.md "the default DMA split"), semaphore instructions, and the per-instruction checks
 * (rules.ts; attributes, matmul shapes, PSUM accumulation groups).
 */
import { didYouMean, error } from '@pyxis/diagnostics';
import { streamOf, type AsmState } from './asmState.js';
import { DMA0, freeSize, type AP, type AttrValue, type Insn } from './ir.js';
import { SPEC } from './isa.js';
import { dtypeBytes } from './numerics.js';
import type { Operand, Stmt } from './parse.js';
import { S_PSUM, checkInsn, type RuleCtx } from './rules.js';
import { valueToAttr } from './tensors.js';

/** PSUM accumulation groups (guide "PSUM"): NC0209 when a matmul accumulates into a bank holding another group. */
function trackGroup(s: AsmState, out: AP | undefined, attrs: Record<string, AttrValue>, line: number, ctx: RuleCtx): void {
  if (!out || out.mem !== 'psum') return;
  const bank = Math.floor(out.offset / s.machine.psumBankBytes);
  const region = String(out.offset); // the group's first byte in the partition (its partitions may grow or shrink)
  const acc = typeof attrs['accumulate'] === 'number' && attrs['accumulate'] !== 0;
  if (!acc) {
    s.bankGroup.set(bank, region);
    s.groupLine.set(region, line);
    return;
  }
  const open = s.bankGroup.get(bank);
  if (open === undefined || open === region) return;
  const own = s.groupLine.get(region);
  s.diags.push(
    error(
      'NC0209',
      `PSUM bank ${bank} holds one accumulation group at a time: this matmul accumulates into ${own === undefined ? 'a region where no group was started' : `the group started at line ${own}`}, but line ${s.groupLine.get(open)} started another group in the same bank (up to eight outstanding groups, one per bank)`,
      { span: ctx.span(ctx.colOf(out)), spec: S_PSUM },
    ),
  );
}

/** Appends an ISA instruction after the guide's rules for its engine (rules.ts). */
function emit(s: AsmState, insn: Insn, engine: string, ctx: RuleCtx, col: number): void {
  checkInsn(insn, engine, ctx, col);
  s.pending.push(insn);
}

/**
 * An instruction statement: binds its operands (positional in the ISA's operand order, then key=value), resolves them,
 * and appends the ISA instructions it lowers to (`s.pending`), checked against the guide's rules (rules.ts).
 */
export function lowerInsn(s: AsmState, st: Extract<Stmt, { k: 'insn' }>): void {
  const mn = `${st.engine}.${st.op}`;
  s.apCols.clear();
  s.colLen.clear();
  const ctx: RuleCtx = { diags: s.diags, span: (c, l) => s.span(st.line, c, l ?? s.colLen.get(c) ?? 1), colOf: (ap) => s.apCols.get(ap) ?? st.col, attrCol: (k) => st.operands.find((o) => o.key === k)?.col, tensors: s.tensors };
  const isSem = st.op === 'sem_signal' || st.op === 'sem_wait';
  const def = isSem ? { operands: [], attrs: ['sem', 'value', 'queue'], spec: '' } : s.isa.instructions[mn];
  if (!def || (!(st.engine in streamOf) && st.engine !== 'dma')) {
    s.diags.push(error('NC0040', `unknown instruction \`${mn}\``, { span: s.span(st.line, st.col, st.opEnd - st.col), notes: s.hint(mn, [...Object.keys(s.isa.instructions)]) }));
    return;
  }
  // Bind operands: positional in the ISA's operand order, then key=value.
  const bound = new Map<string, Operand>();
  let pos = 0;
  const names = isSem ? ['sem', 'value'] : def.operands;
  for (const o of st.operands) {
    const key = o.key ?? names[pos++];
    if (!key) {
      s.diags.push(error('NC0041', `\`${mn}\` takes ${names.length} positional operand${names.length === 1 ? '' : 's'} (${names.join(', ') || 'none'})`, { span: s.span(st.line, o.col) }));
      return;
    }
    if (!names.includes(key) && !def.attrs.includes(key)) {
      s.diags.push(error('NC0042', `\`${mn}\` has no operand \`${key}\` (operands: ${[...names, ...def.attrs].join(', ')})`, { span: s.span(st.line, o.col, key.length), notes: s.hint(key, [...names, ...def.attrs]) }));
      return;
    }
    bound.set(key, o);
  }
  for (const n of names)
    if (!bound.has(n)) {
      s.diags.push(error('NC0043', `\`${mn}\` needs operand \`${n}\``, { span: s.span(st.line, st.col, st.opEnd - st.col) }));
      return;
    }
  const attrs: Record<string, AttrValue> = {};
  const aps: Record<string, AP> = {};
  for (const [k, o] of bound) {
    const v = valueToAttr(s, o.value, st.line);
    if (def.operands.includes(k)) {
      if (typeof v !== 'object' || Array.isArray(v)) {
        // a bare name that is no tensor (a typo of one): say so, with the nearest declared tensor
        const what = typeof v === 'string' ? `: \`${v}\` is not a declared tensor` : '';
        s.diags.push(error('NC0044', `operand \`${k}\` of \`${mn}\` must be a tensor access like \`t[0:128, 0:512]\`${what}`, { span: s.span(st.line, o.col), notes: typeof v === 'string' ? didYouMean(v, s.tensorByName.keys()) : [] }));
        return;
      }
      aps[k] = v;
    } else attrs[k] = v;
  }
  const base = { file: s.loc?.file ?? s.file, line: s.loc?.line ?? st.line, col: s.loc?.col ?? st.col, waits: [] as Array<[number, number]> };
  if (isSem) {
    const sem = attrs['sem'];
    const si = typeof sem === 'string' ? s.semByName.get(sem) : undefined;
    if (si === undefined) {
      s.diags.push(error('NC0050', `unknown semaphore \`${String(sem)}\` (declare it with \`.semaphore NAME\`)`, { span: s.span(st.line, bound.get('sem')!.col), notes: s.hint(String(sem), [...s.semByName.keys()]) }));
      return;
    }
    const value = attrs['value'];
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
      s.diags.push(error('NC0051', 'a semaphore value is a non-negative integer', { span: s.span(st.line, bound.get('value')!.col) }));
      return;
    }
    const q = attrs['queue'];
    const stream = st.engine === 'dma' ? DMA0 + (typeof q === 'number' && q >= 0 && q < 16 ? q : 0) : streamOf[st.engine]!;
    const insn: Insn = { op: mn, stream, ins: [], attrs: {}, ...base };
    if (st.op === 'sem_wait') insn.waits.push([si, value]);
    else insn.signal = [si, value];
    s.pending.push(insn);
    return;
  }
  const mk = (op: string, stream: number, out: AP | undefined, ins: AP[], a: Record<string, AttrValue>): Insn => ({ op, stream, ...(out ? { out } : {}), ins, attrs: a, ...base, waits: [] });
  switch (mn) {
    case 'tensor.matmul':
    case 'tensor.transpose': {
      const stat = mn === 'tensor.matmul' ? aps['stationary']! : aps['in']!;
      emit(s, mk('tensor.load_stationary', 0, undefined, [stat], {}), 'tensor', ctx, st.col);
      if (mn === 'tensor.matmul') {
        emit(s, mk('tensor.multiply_moving', 0, aps['out'], [aps['moving']!], attrs), 'tensor', ctx, st.col);
        checkPair(stat, aps['moving']!, aps['out']!, ctx);
        trackGroup(s, aps['out'], attrs, st.line, ctx);
      } else {
        // Transpose = matmul(in, identity[P, P]): out[F, P] (Tensor Engine, Alternative Use Case).
        const out = aps['out']!;
        emit(s, mk('tensor.multiply_moving', 0, out, [], { identity: stat.np }), 'tensor', ctx, st.col);
        if (out.np !== freeSize(stat) || freeSize(out) !== stat.np)
          s.diags.push(error('NC0208', `transposing [${stat.np}, ${freeSize(stat)}] gives [${freeSize(stat)}, ${stat.np}]; the output is [${out.np}, ${freeSize(out)}]`, { span: ctx.span(ctx.colOf(out)), spec: `${SPEC} §Tensor Engine (Alternative Use Case)` }));
      }
      s.lastStationary = stat;
      return;
    }
    case 'tensor.load_stationary':
      s.lastStationary = aps['stationary'];
      emit(s, mk(mn, 0, undefined, [aps['stationary']!], attrs), 'tensor', ctx, st.col);
      return;
    case 'tensor.multiply_moving':
      if (!s.lastStationary) {
        s.diags.push(error('NC0206', 'MultiplyMoving needs a stationary matrix loaded by an earlier `tensor.load_stationary`', { span: s.span(st.line, st.col, st.opEnd - st.col), spec: `${SPEC} §Tensor Engine` }));
        return;
      }
      emit(s, mk(mn, 0, aps['out'], [aps['moving']!], attrs), 'tensor', ctx, st.col);
      checkPair(s.lastStationary, aps['moving']!, aps['out']!, ctx);
      trackGroup(s, aps['out'], attrs, st.line, ctx);
      return;
    case 'dma.copy': {
      const out = aps['out']!;
      const inp = aps['in']!;
      const q = attrs['queue'];
      const qn = attrs['queues'];
      const qr = attrs['qrange'];
      let qlo = 0;
      let qhi = 15;
      if (qr !== undefined) {
        if (!Array.isArray(qr) || qr.length !== 2 || !(qr[0]! >= 0 && qr[0]! <= qr[1]! && qr[1]! <= 15 && Number.isInteger(qr[0]) && Number.isInteger(qr[1]))) {
          s.diags.push(error('NC0404', '`qrange` is [first, last] with 0 <= first <= last <= 15', { span: s.span(st.line, bound.get('qrange')!.col), spec: `${SPEC} §Data movement between HBM and SBUF using DMAs` }));
          return;
        }
        qlo = qr[0]!;
        qhi = qr[1]!;
      }
      const width = qhi - qlo + 1;
      // Default split: one transfer per DMA engine of the range, rows spread evenly (the guide's example: a
      // 128x512 FP32 load is 16 transfers of 8 DMA buffers; docs/spec-notes.md "the default DMA split").
      let nq = typeof q === 'number' ? 1 : typeof qn === 'number' ? qn : width;
      if (typeof q === 'number' && (!Number.isInteger(q) || q < 0 || q > 15)) {
        s.diags.push(error('NC0404', `DMA queue ${q} does not exist (0..15)`, { span: s.span(st.line, bound.get('queue')!.col), spec: `${SPEC} §Data movement between HBM and SBUF using DMAs: 16 parallel DMA engines` }));
        return;
      }
      if (!Number.isInteger(nq) || nq < 1 || nq > 16) {
        s.diags.push(error('NC0404', `queues=${nq}: there are 16 DMA queues`, { span: s.span(st.line, bound.get('queues')!.col), spec: `${SPEC} §Data movement between HBM and SBUF using DMAs` }));
        return;
      }
      checkInsn(mk(mn, DMA0, out, [inp], {}), 'dma', ctx, st.col);
      if (out.np !== inp.np) return;
      nq = Math.min(nq, out.np);
      // Split the rows (partitions) over the queues, as the compiler spreads a load over the DMA engines.
      for (let k = 0; k < nq; k++) {
        const r0 = Math.floor((k * out.np) / nq);
        const r1 = Math.floor(((k + 1) * out.np) / nq);
        const cur = s.dmaNext.get(qlo * 16 + qhi) ?? 0;
        const qi = typeof q === 'number' ? q : qlo + ((cur + k) % width);
        s.pending.push(mk(mn, DMA0 + qi, rows(out, r0, r1), [rows(inp, r0, r1)], {}));
      }
      if (typeof q !== 'number') s.dmaNext.set(qlo * 16 + qhi, ((s.dmaNext.get(qlo * 16 + qhi) ?? 0) + nq) % width);
      return;
    }
    default: {
      const engine = st.engine;
      const stream = streamOf[engine]!;
      const ins = def.operands.filter((n) => n !== 'out').map((n) => aps[n]!);
      emit(s, mk(mn, stream, aps['out'], ins, attrs), engine, ctx, st.col);
      checkAttrs(s, mn, attrs, st, ctx, bound);
    }
  }
}

/** Rows r0..r1 of an access pattern (partitions for SBUF, outer rows for HBM). */
function rows(ap: AP, r0: number, r1: number): AP {
  if (ap.mem === 'hbm') return { ...ap, np: r1 - r0, offset: ap.offset + r0 * ap.pstride * dtypeBytes(ap.dtype) };
  return { ...ap, start: ap.start + r0, np: r1 - r0 };
}

/** The operand shapes of a matmul (Tensor Engine tile size): NC0205, NC0207. */
function checkPair(stat: AP, mov: AP, out: AP, ctx: RuleCtx): void {
  const S = `${SPEC} §Tensor Engine (Tile Size)`;
  if (stat.np !== mov.np) ctx.diags.push(error('NC0205', `stationary and moving must share the contraction (partition) dimension: ${stat.np} vs ${mov.np}`, { span: ctx.span(ctx.colOf(mov)), spec: S }));
  if (out.np !== freeSize(stat)) ctx.diags.push(error('NC0207', `the output has ${out.np} partitions; the stationary free size (${freeSize(stat)}) becomes the output partition dimension`, { span: ctx.span(ctx.colOf(out)), spec: S }));
}

/** The attributes of a compute instruction: enumerations (NC0045, NC0046), numbers (NC0047), patterns (NC0048). */
function checkAttrs(s: AsmState, mn: string, attrs: Record<string, AttrValue>, st: Extract<Stmt, { k: 'insn' }>, ctx: RuleCtx, bound: Map<string, Operand>): void {
  const isa = s.isa;
  const en = (k: string, list: string[], dflt?: string): void => {
    const v = attrs[k] ?? dflt;
    if (v === undefined) {
      ctx.diags.push(error('NC0045', `\`${mn}\` needs \`${k}=\``, { span: s.span(st.line, st.col) }));
      return;
    }
    if (typeof v !== 'string' || !list.includes(v))
      ctx.diags.push(error('NC0046', `\`${k}\` must be one of ${list.join(', ')}`, { span: s.span(st.line, bound.get(k)?.col ?? st.col), notes: typeof v === 'string' ? didYouMean(v, list) : [] }));
  };
  const num = (k: string): void => {
    const v = attrs[k];
    if (v !== undefined && typeof v !== 'number' && !(typeof v === 'object' && !Array.isArray(v)))
      ctx.diags.push(error('NC0047', `\`${k}\` must be a number${mn.endsWith('tensor_scalar') || k === 'scale' ? ' or a per-partition [P, 1] tensor access' : ''}`, { span: s.span(st.line, bound.get(k)?.col ?? st.col) }));
  };
  if (mn.endsWith('tensor_tensor')) en('op', isa.alu_ops);
  if (mn.endsWith('tensor_scalar')) {
    en('op0', isa.alu_ops);
    num('operand0');
    if (attrs['op1'] !== undefined) en('op1', isa.alu_ops);
    num('operand1');
    if (attrs['operand0'] === undefined) ctx.diags.push(error('NC0045', `\`${mn}\` needs \`operand0=\``, { span: s.span(st.line, st.col) }));
  }
  if (mn === 'vector.tensor_reduce') en('op', isa.reduce_ops);
  if (mn === 'scalar.activation') {
    en('func', isa.activation_functions);
    num('scale');
    const b = attrs['bias'];
    if (b !== undefined && (typeof b !== 'object' || Array.isArray(b)))
      ctx.diags.push(error('NC0316', 'the activation bias is a per-partition [P, 1] tensor (only the scale may be a constant)', { span: s.span(st.line, bound.get('bias')!.col), spec: `${SPEC} §Scalar Engine (Pipelined Multiply-Add)` }));
  }
  if (mn === 'gpsimd.affine_select') en('cmp', isa.cmp_ops);
  if (mn.endsWith('memset')) num('value');
  const pat = attrs['pattern'];
  if (pat !== undefined && (!Array.isArray(pat) || pat.length % 2 !== 0 || pat.length > 8))
    ctx.diags.push(error('NC0048', '`pattern` is a list of up to 4 [step, count] pairs', { span: s.span(st.line, bound.get('pattern')!.col) }));
}
