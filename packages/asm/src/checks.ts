/**
 * Static microcode rules (errors with the spec section cited). Each rule is
 * keyed on the spec's own field names and applies to whichever op table has
 * those fields, so the rules follow the tables rather than sequencer names.
 */
import type { CompiledTable } from '@pyxis/codec';
import { effectiveValues } from './fastcodec.js';

type DecodedValues = Record<string, number | number[]>;
import { error, type Diagnostic, type SourceSpan } from '@pyxis/diagnostics';
import type { EncodedProgram, Program } from './program.js';
import { SEQ_SPEC } from './sema.js';

function enumNameOf(t: CompiledTable, field: string, v: DecodedValues[string] | undefined): string | undefined {
  const f = t.byName.get(field);
  if (!f?.enumNames || typeof v !== 'number') return undefined;
  return f.enumNames.get(v);
}

function num(v: DecodedValues[string] | undefined): number {
  return typeof v === 'number' ? v : 0;
}

/** Op is a memory access (not Nop / Read_Const / Discard). */
function accessesMemory(t: CompiledTable, d: DecodedValues): boolean {
  const name = enumNameOf(t, 'opcd', d['opcd']);
  if (name === undefined) return true;
  return !/nop|const|discard/i.test(name);
}

function is16bit(t: CompiledTable, d: DecodedValues): boolean {
  if (t.byName.has('is_16bit')) return num(d['is_16bit']) === 1;
  const dt = enumNameOf(t, 'data_type', d['data_type']);
  return dt !== undefined && /16/.test(dt);
}

export function checkProgram(p: Program, e: EncodedProgram, diags: Diagnostic[]): void {
  const t = p.seq.op;
  const vals: DecodedValues[] = [];
  for (let pc = 0; pc < e.count; pc++) vals.push(effectiveValues(t, p.insns[pc]!.op));
  const where = (pc: number, field?: string): { span?: SourceSpan } => {
    const s = (field && p.insns[pc]?.fieldSpans?.[field]) || p.insns[pc]?.span;
    return s ? { span: s } : {};
  };
  const hasAddr = t.byName.has('amem_addr_offset');
  const strideF = t.byName.get('iter_stride');
  vals.forEach((d, pc) => {
    if (hasAddr && accessesMemory(t, d)) {
      const addr = num(d['amem_addr_offset']);
      const strides = Array.isArray(d['iter_stride']) ? d['iter_stride'] : [];
      const compressed = t.byName.has('wdc_type') && num(d['wdc_type']) !== 0;
      if (compressed) {
        // §1.1 rule 2 / §7.1: compressed weights, codebooks and scale factors: 128-byte aligned (8 partitions).
        if (addr % 8 !== 0)
          diags.push(error('AS0410', `compressed-weights read (wdc_type=${enumNameOf(t, 'wdc_type', d['wdc_type']) ?? num(d['wdc_type'])}) needs amem_addr_offset a multiple of 8 partitions (128 bytes), got ${addr}`, { ...where(pc, 'amem_addr_offset'), spec: `${SEQ_SPEC} §1.1, §7.1` }));
        strides.forEach((s, i) => {
          if (s % 8 !== 0) diags.push(error('AS0411', `compressed-weights read: iter_stride[${i}] = ${s} breaks 128-byte alignment (must be a multiple of 8 partitions)`, { ...where(pc, 'iter_stride'), spec: `${SEQ_SPEC} §1.1` }));
        });
      } else if (is16bit(t, d)) {
        // §1.1 rule 1: 16-bit data types on even partitions (32 bytes).
        if (addr % 2 !== 0) diags.push(error('AS0412', `16-bit data needs an even amem_addr_offset (32-byte aligned), got ${addr}`, { ...where(pc, 'amem_addr_offset'), spec: `${SEQ_SPEC} §1.1` }));
        strides.forEach((s, i) => {
          if (s % 2 !== 0) diags.push(error('AS0413', `16-bit data needs even strides: iter_stride[${i}] = ${s}`, { ...where(pc, 'iter_stride'), spec: `${SEQ_SPEC} §1.1` }));
        });
      }
      void strideF;
    }
    // §6.1: logical_col_offset + num_logical_cols <= 128
    if (t.byName.has('logical_col_offset') && t.byName.has('num_logical_cols')) {
      const off = num(d['logical_col_offset']);
      const n = num(d['num_logical_cols']);
      if (off + n > 128) diags.push(error('AS0414', `logical_col_offset + num_logical_cols = ${off} + ${n} exceeds 128`, { ...where(pc, 'num_logical_cols'), spec: `${SEQ_SPEC} §6.1` }));
    }
    // Table 9-3: legal hbuf_wr_control x log2_ptns_per_hlane
    if (t.byName.has('hbuf_wr_control') && t.byName.has('log2_ptns_per_hlane') && accessesMemory(t, d)) {
      const wc = enumNameOf(t, 'hbuf_wr_control', d['hbuf_wr_control']) ?? '';
      const l2 = num(d['log2_ptns_per_hlane']);
      const need = /^LD_1ROW_16B_TRANS$/.test(wc) ? 1 : /^LD_2ROWS_8B_TRANS$/.test(wc) ? 0 : undefined;
      if (need !== undefined && l2 !== need)
        diags.push(error('AS0415', `hbuf_wr_control=${wc} supports only log2_ptns_per_hlane=${need}, got ${l2}`, { ...where(pc, 'log2_ptns_per_hlane'), spec: `${SEQ_SPEC} §9.1.2 Table 9-3` }));
    }
  });
  // §10.2/§10.3: conv3x3_mode constant within a trip's program.
  if (t.byName.has('conv3x3_mode') && vals.length) {
    const first = num(vals[0]!['conv3x3_mode']);
    vals.forEach((d, pc) => {
      if (num(d['conv3x3_mode']) !== first)
        diags.push(error('AS0416', `conv3x3_mode changes within program \`${p.name}\` (${first} at pc 0, ${num(d['conv3x3_mode'])} at pc ${pc}); all instructions of a trip must have the same mode`, { ...where(pc, 'conv3x3_mode'), spec: `${SEQ_SPEC} §10.2, §10.3` }));
    });
  }
  // §11.1: the last non-NOP instruction of each tile sets wb_done_iter_mask, and only one instruction may.
  if (t.byName.has('wb_done_iter_mask')) {
    const setters = vals.map((d, pc) => (num(d['wb_done_iter_mask']) !== 0 ? pc : -1)).filter((pc) => pc >= 0);
    let lastReal = -1;
    vals.forEach((d, pc) => {
      if (accessesMemory(t, d)) lastReal = pc;
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
