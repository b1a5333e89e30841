import type { SourceMap } from '@pyxis/diagnostics';
import type { EncodedProgram, EncodedVpuProgram } from './program.js';

function hexWord(buf: Uint8Array, off: number, bytes: number): string {
  let s = '';
  for (let i = bytes - 1; i >= 0; i--) s += buf[off + i]!.toString(16).padStart(2, '0');
  return s;
}

/**
 * GNU-as-style listing: for each program, one line per instruction with the
 * PC (program-relative; absolute when placed with `at`), the control and op
 * words in hex (most significant byte first) and the source line.
 */
export function makeListing(progs: EncodedProgram[], sources?: SourceMap, vpu: EncodedVpuProgram[] = []): string {
  const out: string[] = [];
  for (const p of progs) {
    out.push(`; program ${p.name} (${p.seq.name})${p.startPc !== undefined ? ` at ${p.startPc}` : ''}: ${p.count} instruction${p.count === 1 ? '' : 's'}`);
    out.push(`;  PC  ${'control'.padEnd(p.seq.control.bytes * 2)}  ${'op'.padEnd(p.seq.op.bytes * 2)}  source`);
    for (let pc = 0; pc < p.count; pc++) {
      const sp = p.spans[pc];
      const line = sp && sources ? (sources.line(sp.file, sp.line) ?? '') : '';
      const where = sp ? `${sp.file}:${sp.line}` : '';
      const abs = (p.startPc ?? 0) + pc;
      out.push(`  ${String(abs).padStart(3)}  ${hexWord(p.ctrl, pc * p.ctrlStride, p.seq.control.bytes)}  ${hexWord(p.op, pc * p.opStride, p.seq.op.bytes)}  ${where.padEnd(18)} ${line.trim()}`);
    }
    out.push('');
  }
  for (const v of vpu) {
    out.push(`; vpu program ${v.name}${v.startAddr !== undefined ? ` at ${v.startAddr}` : ''}: ${v.count} instruction${v.count === 1 ? '' : 's'}`);
    for (let k = 0; k < v.count; k++) {
      const sp = v.spans[k];
      const line = sp && sources ? (sources.line(sp.file, sp.line) ?? '') : '';
      const where = sp ? `${sp.file}:${sp.line}` : '';
      out.push(`  ${String((v.startAddr ?? 0) + k).padStart(4)}  ${hexWord(v.words, k * v.stride, v.vpu.op.bytes)}  ${where.padEnd(18)} ${line.trim()}`);
    }
    out.push('');
  }
  return out.join('\n');
}
