import { CodecError } from '@pyxis/codec';
import { encodeFast } from './fastcodec.js';
import { error, type Diagnostic } from '@pyxis/diagnostics';
import { wordStride } from './isa.js';
import type { EncodedProgram, EncodedVpuProgram, Program, VpuProgram } from './program.js';

/** Encodes every instruction through the sequencer's control and op tables (little-endian words, 8-byte stride). */
export function encodeProgram(p: Program, diags: Diagnostic[]): EncodedProgram {
  const ct = p.seq.control;
  const ot = p.seq.op;
  const cs = wordStride(ct);
  const os = wordStride(ot);
  const n = p.insns.length;
  const ctrl = new Uint8Array(n * cs);
  const op = new Uint8Array(n * os);
  const spans = p.insns.map((i) => i.span);
  p.insns.forEach((insn, pc) => {
    const one = (t: typeof ct, vals: typeof insn.ctrl, buf: Uint8Array, stride: number) => {
      try {
        encodeFast(t, vals, buf, pc * stride);
      } catch (e) {
        if (!(e instanceof CodecError)) throw e;
        for (const iss of e.issues)
          diags.push(error('AS0402', `${p.name} pc ${pc}: ${iss.message}`, { ...(insn.span ? { span: insn.span } : {}) }));
      }
    };
    one(ct, insn.ctrl, ctrl, cs);
    one(ot, insn.op, op, os);
  });
  const refs = p.insns.flatMap((insn, pc) => (insn.refs ?? []).map((r) => ({ pc, field: r.field, symbol: r.symbol })));
  return { name: p.name, seq: p.seq, ...(p.startPc !== undefined ? { startPc: p.startPc } : {}), count: n, ctrl, op, ctrlStride: cs, opStride: os, spans, refs };
}

/** Encodes a VPU program through the VPU instruction table. */
export function encodeVpuProgram(p: VpuProgram, diags: Diagnostic[]): EncodedVpuProgram {
  const t = p.vpu.op;
  const stride = wordStride(t);
  const words = new Uint8Array(p.insns.length * stride);
  p.insns.forEach((insn, pc) => {
    try {
      encodeFast(t, insn.op, words, pc * stride);
    } catch (e) {
      if (!(e instanceof CodecError)) throw e;
      for (const iss of e.issues) diags.push(error('AS0402', `${p.name} word ${pc}: ${iss.message}`, { ...(insn.span ? { span: insn.span } : {}) }));
    }
  });
  return { name: p.name, vpu: p.vpu, ...(p.startAddr !== undefined ? { startAddr: p.startAddr } : {}), count: p.insns.length, words, stride, spans: p.insns.map((i) => i.span) };
}
