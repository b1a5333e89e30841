import type { SourceMap } from '@pyxis/diagnostics';
import { concatChunks, joinLines } from '@pyxis/asm';
import { readField } from '@pyxis/codec';
import { iterField } from './isa.js';
import { relocateControlWords } from './patch.js';
import type { EncodedProgram, EncodedVpuProgram } from './program.js';

function hexWord(buf: Uint8Array, off: number, bytes: number): string {
  let s = '';
  for (let i = bytes - 1; i >= 0; i--) s += buf[off + i]!.toString(16).padStart(2, '0');
  return s;
}

/**
 * GNU-as-style listing: for each program, one line per instruction with the
 * PC, the control and op words in hex (most significant byte first) and the
 * source line. A program placed with `at PC` is listed as it will sit in the
 * sequencer memory (absolute PCs, `sol_pc` relocated, as in the patch blob);
 * a relocatable program with program-relative PCs and `sol_pc` values, and
 * `r` after every word that carries a relocation the linker will apply
 * (`sol_pc` of a loop end; an op field naming a VPU program).
 */
export function makeListing(progs: EncodedProgram[], sources?: SourceMap, vpu: EncodedVpuProgram[] = [], iterators = 6): string {
  return concatChunks(listingChunks(progs, sources, vpu, iterators));
}

/** The listing of `makeListing` in chunks of about 64 KiB, produced as they are read (the driver streams them to the file). */
export function listingChunks(progs: EncodedProgram[], sources?: SourceMap, vpu: EncodedVpuProgram[] = [], iterators = 6): Iterable<string> {
  return joinLines(listingLines(progs, sources, vpu, iterators));
}

/** The listing's lines (without their newlines), one at a time. */
export function* listingLines(progs: Iterable<EncodedProgram>, sources?: SourceMap, vpu: Iterable<EncodedVpuProgram> = [], iterators = 6): Generator<string> {
  for (const p of progs) {
    const placed = p.startPc !== undefined;
    const ctrl = placed ? relocateControlWords(p.seq, p.ctrl, p.count, p.startPc!, iterators) : p.ctrl;
    const t = p.seq.control;
    const eols: string[] = [];
    for (let i = 0; i < iterators; i++) if (t.byName.has(iterField(i, 'is_eol')) && t.byName.has(iterField(i, 'sol_pc'))) eols.push(iterField(i, 'is_eol'));
    const refPcs = new Set(p.refs.map((r) => r.pc));
    yield (
      `; program ${p.name} (${p.seq.name})${placed ? ` at ${p.startPc}` : ''}: ${p.count} instruction${p.count === 1 ? '' : 's'}` +
        (placed ? '; PCs absolute, sol_pc relocated' : '; relocatable: PCs and sol_pc program-relative, r = relocated by the linker')
    );
    yield `;  PC  ${'control'.padEnd(t.bytes * 2)}   ${'op'.padEnd(p.seq.op.bytes * 2)}   source`;
    for (let pc = 0; pc < p.count; pc++) {
      const sp = p.spans[pc];
      const line = sp && sources ? (sources.line(sp.file, sp.line) ?? '') : '';
      const where = sp ? `${sp.file}:${sp.line}` : '';
      const abs = (p.startPc ?? 0) + pc;
      const ctrlRel = !placed && eols.some((f) => readField(t, p.ctrl, f, 0, pc * p.ctrlStride) !== 0);
      const opRel = refPcs.has(pc);
      const head = `  ${String(abs).padStart(3)}  ${hexWord(ctrl, pc * p.ctrlStride, t.bytes)}${ctrlRel ? 'r' : ' '}  ${hexWord(p.op, pc * p.opStride, p.seq.op.bytes)}${opRel ? 'r' : ' '}  `;
      yield `${head}${where.padEnd(18)} ${line.trim()}`;
      // an instruction continued with `\`: its further source lines, under the first
      let more = line;
      for (let n = sp?.line ?? 0; sp && sources && /\\\s*$/.test(more); ) {
        n++;
        more = sources.line(sp.file, n) ?? '';
        yield `${' '.repeat(head.length)}${`${sp.file}:${n}`.padEnd(18)} ${more.trim()}`;
      }
    }
    yield '';
  }
  for (const v of vpu) {
    yield `; vpu program ${v.name}${v.startAddr !== undefined ? ` at ${v.startAddr}` : ''}: ${v.count} instruction${v.count === 1 ? '' : 's'}`;
    for (let k = 0; k < v.count; k++) {
      const sp = v.spans[k];
      const line = sp && sources ? (sources.line(sp.file, sp.line) ?? '') : '';
      const where = sp ? `${sp.file}:${sp.line}` : '';
      yield `  ${String((v.startAddr ?? 0) + k).padStart(4)}  ${hexWord(v.words, k * v.stride, v.vpu.op.bytes)}  ${where.padEnd(18)} ${line.trim()}`;
    }
    yield '';
  }
}
