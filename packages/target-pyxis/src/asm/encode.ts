import { CodecError, type CompiledTable, type FieldValues } from '@pyxis/codec';
import { encodeFast } from './fastcodec.js';
import { error, type Diagnostic, type SourceSpan } from '@pyxis/diagnostics';
import { wordStride } from './isa.js';
import type { EncodedProgram, EncodedVpuProgram, Program, VpuProgram } from './program.js';

/** Encodes one word; a codec error becomes AS0402 diagnostics at `span`. */
function encodeWord(t: CompiledTable, vals: FieldValues, buf: Uint8Array, offset: number, diags: Diagnostic[], name: string, what: string, pc: number, span: SourceSpan | undefined): void {
  try {
    encodeFast(t, vals, buf, offset);
  } catch (e) {
    if (!(e instanceof CodecError)) throw e;
    for (const iss of e.issues) diags.push(error('AS0402', `${name} ${what} ${pc}: ${iss.message}`, { ...(span ? { span } : {}) }));
  }
}

/** Encodes every instruction through the sequencer's control and op tables (little-endian words, 8-byte stride). */
export function encodeProgram(p: Program, diags: Diagnostic[]): EncodedProgram {
  const ct = p.seq.control;
  const ot = p.seq.op;
  const cs = wordStride(ct);
  const os = wordStride(ot);
  const n = p.insns.length;
  const ctrl = new Uint8Array(n * cs);
  const op = new Uint8Array(n * os);
  const spans: (SourceSpan | undefined)[] = new Array(n);
  const refs: EncodedProgram['refs'] = [];
  for (let pc = 0; pc < n; pc++) {
    const insn = p.insns[pc]!;
    spans[pc] = insn.span;
    encodeWord(ct, insn.ctrl, ctrl, pc * cs, diags, p.name, 'pc', pc, insn.span);
    encodeWord(ot, insn.op, op, pc * os, diags, p.name, 'pc', pc, insn.span);
    if (insn.refs) for (const r of insn.refs) refs.push({ pc, field: r.field, symbol: r.symbol });
  }
  return { name: p.name, seq: p.seq, ...(p.startPc !== undefined ? { startPc: p.startPc } : {}), count: n, ctrl, op, ctrlStride: cs, opStride: os, spans, refs };
}

/** Encodes a VPU program through the VPU instruction table. */
export function encodeVpuProgram(p: VpuProgram, diags: Diagnostic[]): EncodedVpuProgram {
  const t = p.vpu.op;
  const stride = wordStride(t);
  const words = new Uint8Array(p.insns.length * stride);
  p.insns.forEach((insn, pc) => encodeWord(t, insn.op, words, pc * stride, diags, p.name, 'word', pc, insn.span));
  return { name: p.name, vpu: p.vpu, ...(p.startAddr !== undefined ? { startAddr: p.startAddr } : {}), count: p.insns.length, words, stride, spans: p.insns.map((i) => i.span) };
}
