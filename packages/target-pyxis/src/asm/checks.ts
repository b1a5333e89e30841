/**
 * Static microcode rules (errors with the spec section cited). Each rule is
 * keyed on the spec's own field names and applies to whichever op table has
 * those fields, so the rules follow the tables rather than sequencer names.
 */
import { lookupField, type CompiledTable, type FieldValues } from '@pyxis/codec';
import { effectiveValue } from './fastcodec.js';
import { error, type Diagnostic, type SourceSpan } from '@pyxis/diagnostics';
import type { EncodedProgram, Program } from './program.js';
import { iterField, SEQ_SPEC } from './isa.js';

/** Effective values of one instruction's op fields, computed on demand (the checks read a handful of fields). */
class Op {
  constructor(
    readonly t: CompiledTable,
    readonly values: FieldValues,
  ) {}
  num(field: string): number {
    const v = effectiveValue(this.t, this.values, field);
    return typeof v === 'number' ? v : 0;
  }
  list(field: string): number[] {
    const v = effectiveValue(this.t, this.values, field);
    return Array.isArray(v) ? v : [];
  }
  enumName(field: string): string | undefined {
    const f = this.t.byName.get(field);
    return f?.enumNames ? f.enumNames.get(this.num(field)) : undefined;
  }
}

/** Op is a memory access (not Nop / Read_Const / Discard). */
function accessesMemory(d: Op): boolean {
  const name = d.enumName('opcd');
  if (name === undefined) return true;
  return !/nop|const|discard/i.test(name);
}

function is16bit(d: Op): boolean {
  if (d.t.byName.has('is_16bit')) return d.num('is_16bit') === 1;
  const dt = d.enumName('data_type');
  return dt !== undefined && /16/.test(dt);
}

const loopFieldCache = new WeakMap<CompiledTable, Array<[string, string]>>();

/** `[iter<i>_is_eol, iter<i>_sol_pc]` for every iterator of a control table. */
function eolSolFields(ct: CompiledTable): Array<[string, string]> {
  let r = loopFieldCache.get(ct);
  if (!r) {
    r = [];
    for (let i = 0; ct.byName.has(iterField(i, 'is_eol')); i++) r.push([iterField(i, 'is_eol'), iterField(i, 'sol_pc')]);
    loopFieldCache.set(ct, r);
  }
  return r;
}

export function checkProgram(p: Program, e: EncodedProgram, diags: Diagnostic[]): void {
  const t = p.seq.op;
  const vals: Op[] = [];
  for (let pc = 0; pc < e.count; pc++) vals.push(new Op(t, p.insns[pc]!.op));
  /** The span of element `i` of array field `field` as written (list item or `field[iN] = v`), else the field's. */
  const whereElem = (pc: number, field: string, i: number): { span?: SourceSpan } => {
    for (const a of p.insns[pc]?.operands ?? []) {
      if (!a || lookupField(t, a.name)?.name !== field) continue;
      if (a.value?.kind === 'list' && !a.index) {
        const it = a.value.items[i];
        if (it?.span) return { span: it.span };
      } else if (a.index) {
        const x = a.index;
        const idx = x.kind === 'num' ? Number(x.value) : x.kind === 'name' && /^i\d+$/.test(x.name) ? Number(x.name.slice(1)) : -1;
        if (idx === i && a.value?.span) return { span: a.value.span };
      }
    }
    return where(pc, field);
  };
  const where = (pc: number, field?: string): { span?: SourceSpan } => {
    const s = (field && p.insns[pc]?.fieldSpans?.[field]) || p.insns[pc]?.span || p.span;
    return s ? { span: s } : {};
  };
  const hasAddr = t.byName.has('amem_addr_offset');
  vals.forEach((d, pc) => {
    if (hasAddr && accessesMemory(d)) {
      const addr = d.num('amem_addr_offset');
      const strides = d.list('iter_stride');
      const compressed = t.byName.has('wdc_type') && d.num('wdc_type') !== 0;
      if (compressed) {
        // §1.1 rule 2 / §7.1: compressed weights, codebooks and scale factors: 128-byte aligned (8 partitions).
        if (addr % 8 !== 0)
          diags.push(error('AS0410', `compressed-weights read (wdc_type=${d.enumName('wdc_type') ?? d.num('wdc_type')}) needs amem_addr_offset a multiple of 8 partitions (128 bytes), got ${addr}`, { ...where(pc, 'amem_addr_offset'), spec: `${SEQ_SPEC} §1.1, §7.1` }));
        strides.forEach((s, i) => {
          if (s % 8 !== 0) diags.push(error('AS0411', `compressed-weights read: iter_stride[${i}] = ${s} breaks 128-byte alignment (must be a multiple of 8 partitions)`, { ...whereElem(pc, 'iter_stride', i), spec: `${SEQ_SPEC} §1.1` }));
        });
      } else if (is16bit(d)) {
        // §1.1 rule 1: 16-bit data types on even partitions (32 bytes).
        if (addr % 2 !== 0) diags.push(error('AS0412', `16-bit data needs an even amem_addr_offset (32-byte aligned), got ${addr}`, { ...where(pc, 'amem_addr_offset'), spec: `${SEQ_SPEC} §1.1` }));
        strides.forEach((s, i) => {
          if (s % 2 !== 0) diags.push(error('AS0413', `16-bit data needs even strides: iter_stride[${i}] = ${s}`, { ...whereElem(pc, 'iter_stride', i), spec: `${SEQ_SPEC} §1.1` }));
        });
      }
    }
    // §6.1: logical_col_offset + num_logical_cols <= 128
    if (t.byName.has('logical_col_offset') && t.byName.has('num_logical_cols')) {
      const off = d.num('logical_col_offset');
      const n = d.num('num_logical_cols');
      if (off + n > 128) diags.push(error('AS0414', `logical_col_offset + num_logical_cols = ${off} + ${n} exceeds 128`, { ...where(pc, 'num_logical_cols'), spec: `${SEQ_SPEC} §6.1` }));
    }
    // Table 9-3: legal hbuf_wr_control x log2_ptns_per_hlane
    if (t.byName.has('hbuf_wr_control') && t.byName.has('log2_ptns_per_hlane') && accessesMemory(d)) {
      const wc = d.enumName('hbuf_wr_control') ?? '';
      const l2 = d.num('log2_ptns_per_hlane');
      const need = /^LD_1ROW_16B_TRANS$/.test(wc) ? 1 : /^LD_2ROWS_8B_TRANS$/.test(wc) ? 0 : undefined;
      if (need !== undefined && l2 !== need)
        diags.push(error('AS0415', `hbuf_wr_control=${wc} supports only log2_ptns_per_hlane=${need}, got ${l2}`, { ...where(pc, 'log2_ptns_per_hlane'), spec: `${SEQ_SPEC} §9.1.2 Table 9-3` }));
    }
  });
  // §2.1, Table 2-1 / §2.1.4: sol_pc is the start of the loop ending at its is_eol instruction, so it cannot follow it
  // (the structured form guarantees this; raw `ctrl { }` clauses and IR input may break it).
  const loopFields = eolSolFields(p.seq.control);
  p.insns.forEach((insn, pc) => {
    for (let i = 0; i < loopFields.length; i++) {
      const [eolName, solName] = loopFields[i]!;
      const eol = insn.ctrl[eolName];
      const sol = insn.ctrl[solName];
      if (eol === undefined || sol === undefined || typeof eol === 'string' || typeof sol === 'string' || Array.isArray(eol) || Array.isArray(sol)) continue;
      if (Number(eol) !== 1 || Number(sol) <= pc) continue;
      diags.push(
        error('AS0319', `\`${p.name}\` pc ${pc}: iter${i}.sol_pc = ${sol} is after this is_eol instruction; a loop's start-of-loop PC must not follow its end`, {
          ...where(pc, `ctrl.${iterField(i, 'sol_pc')}`),
          notes: ['sol_pc values are program-relative'],
          spec: `${SEQ_SPEC} §2.1 Table 2-1, §2.1.4`,
        }),
      );
    }
  });
  // §10.2/§10.3: conv3x3_mode constant within a trip's program.
  if (t.byName.has('conv3x3_mode') && vals.length) {
    const first = vals[0]!.num('conv3x3_mode');
    vals.forEach((d, pc) => {
      if (d.num('conv3x3_mode') !== first)
        diags.push(error('AS0416', `conv3x3_mode changes within program \`${p.name}\` (${first} at pc 0, ${d.num('conv3x3_mode')} at pc ${pc}); all instructions of a trip must have the same mode`, { ...where(pc, 'conv3x3_mode'), spec: `${SEQ_SPEC} §10.2, §10.3` }));
    });
  }
  // §11.1: the last non-NOP instruction of each tile sets wb_done_iter_mask, and only one instruction may.
  if (t.byName.has('wb_done_iter_mask')) {
    const setters = vals.map((d, pc) => (d.num('wb_done_iter_mask') !== 0 ? pc : -1)).filter((pc) => pc >= 0);
    let lastReal = -1;
    vals.forEach((d, pc) => {
      if (accessesMemory(d)) lastReal = pc;
    });
    if (lastReal >= 0) {
      if (setters.length === 0)
        diags.push(error('AS0417', `program \`${p.name}\` never sets wb_done_iter_mask; the last non-NOP instruction of each tile must set it`, { ...where(lastReal), spec: `${SEQ_SPEC} §11.1` }));
      else if (setters.length > 1)
        diags.push(error('AS0418', `wb_done_iter_mask is set on ${setters.length} instructions (pc ${setters.join(', ')}); only one instruction may set it`, { ...where(setters[1]!, 'wb_done_iter_mask'), spec: `${SEQ_SPEC} §11.1` }));
      else if (setters[0] !== lastReal)
        diags.push(error('AS0419', `wb_done_iter_mask must be set on the last non-NOP instruction (pc ${lastReal}), not pc ${setters[0]}`, { ...where(setters[0]!, 'wb_done_iter_mask'), spec: `${SEQ_SPEC} §11.1` }));
    }
  }
}
