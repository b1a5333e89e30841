import { CodecError } from '@pyxis/codec';
import { encodeFast } from './fastcodec.js';
import { error, type Diagnostic } from '@pyxis/diagnostics';
import { wordStride } from './isa.js';
import type { EncodedProgram, Program } from './program.js';

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
    for (const [t, vals, buf, stride] of [
      [ct, insn.ctrl, ctrl, cs],
      [ot, insn.op, op, os],
    ] as const) {
      try {
        encodeFast(t, vals, buf, pc * stride);
      } catch (e) {
        if (!(e instanceof CodecError)) throw e;
        for (const iss of e.issues)
          diags.push(error('AS0402', `${p.name} pc ${pc}: ${iss.message}`, { ...(insn.span ? { span: insn.span } : {}) }));
      }
    }
  });
  return { name: p.name, seq: p.seq, ...(p.startPc !== undefined ? { startPc: p.startPc } : {}), count: n, ctrl, op, ctrlStride: cs, opStride: os, spans };
}
