/**
 * Large sources with bounded memory (issue 15): the piecewise assembly path gives exactly the whole-file result
 * (or declines), the streamed listing equals a listing built here from the object's records and the source lines,
 * and the streamed disassembly round-trips.
 */
import { describe, expect, test } from 'vitest';
import { DiagnosticError } from '@pyxis/diagnostics';
import { writeContainer, type Container } from '@pyxis/container';
import { CHUNK_CHARS, topLevelPieces } from '@pyxis/asm';
import { assemble, assemblePiecewise, disassemble, disassembleChunks, type AssembleResult } from '@pyxis/target-pyxis/asm';
import { generatePasm } from '../../../../scripts/gen-pasm.mjs';
import { isa } from './helpers.js';

const FILE = 'gen.pasm';
const { text: SOURCE, lines: LINES } = generatePasm(3000);

/** Whole-file and piecewise (tiny pieces, no size threshold) results of the same source. */
function both(text: string): { whole: AssembleResult; piecewise: AssembleResult | undefined } {
  const whole = assemble({ file: FILE, text }, { isa });
  const piecewise = assemblePiecewise([{ file: FILE, text }], { isa }, 2000, 0);
  return { whole, piecewise };
}

function hex(b: Uint8Array, off: number, n: number): string {
  let s = '';
  for (let i = n - 1; i >= 0; i--) s += b[off + i]!.toString(16).padStart(2, '0');
  return s;
}

/**
 * The listing of docs/assembler.md rebuilt from the object alone (sections, relocations, symbol sizes) and
 * the source lines: PC, control and op words most significant byte first, `r` after a word with a relocation,
 * `file:line` padded to 18, the trimmed source line and its `\`-continued lines under it.
 */
function referenceListing(obj: Container, r: AssembleResult, lines: string[]): string {
  const out: string[] = [];
  const relocated = new Set(obj.relocations.map((x) => `${x.section}:${x.offset}`));
  for (const p of r.programs) {
    const ci = obj.sections.findIndex((s) => s.name === `${p.seq.name}.${p.name}.ctrl`);
    const oi = ci + 1;
    const cb = p.seq.control.bytes;
    const ob = p.seq.op.bytes;
    const cs = obj.sections[ci]!.data.length / p.count;
    const os = obj.sections[oi]!.data.length / p.count;
    out.push(`; program ${p.name} (${p.seq.name}): ${p.count} instruction${p.count === 1 ? '' : 's'}; relocatable: PCs and sol_pc program-relative, r = relocated by the linker`);
    out.push(`;  PC  ${'control'.padEnd(cb * 2)}   ${'op'.padEnd(ob * 2)}   source`);
    for (let pc = 0; pc < p.count; pc++) {
      const sp = p.spans[pc]!;
      const head = `  ${String(pc).padStart(3)}  ${hex(obj.sections[ci]!.data, pc * cs, cb)}${relocated.has(`${ci}:${pc * cs}`) ? 'r' : ' '}  ${hex(obj.sections[oi]!.data, pc * os, ob)}${relocated.has(`${oi}:${pc * os}`) ? 'r' : ' '}  `;
      let n = sp.line;
      out.push(`${head}${`${FILE}:${n}`.padEnd(18)} ${lines[n - 1]!.trim()}`);
      while (/\\\s*$/.test(lines[n - 1]!)) {
        n++;
        out.push(`${' '.repeat(head.length)}${`${FILE}:${n}`.padEnd(18)} ${lines[n - 1]!.trim()}`);
      }
    }
    out.push('');
  }
  for (const v of r.vpuPrograms) {
    const sec = obj.sections.find((s) => s.name === `vpu.${v.name}.imem`)!;
    out.push(`; vpu program ${v.name}: ${v.count} instruction${v.count === 1 ? '' : 's'}`);
    for (let k = 0; k < v.count; k++) out.push(`  ${String(k).padStart(4)}  ${hex(sec.data, k * v.stride, v.vpu.op.bytes)}  ${`${FILE}:${v.spans[k]!.line}`.padEnd(18)} ${lines[v.spans[k]!.line - 1]!.trim()}`);
    out.push('');
  }
  return out.join('\n');
}

describe('piecewise assembly of large sources', () => {
  test(`a generated ${LINES}-line source: the same object, programs and listing as the whole-file path`, () => {
    const { whole, piecewise } = both(SOURCE);
    expect(piecewise).toBeDefined();
    // Buffer.equals: element-wise toEqual on a large Uint8Array is slow
    expect(Buffer.from(writeContainer(piecewise!.object)).equals(Buffer.from(writeContainer(whole.object)))).toBe(true);
    expect(piecewise!.diagnostics).toEqual(whole.diagnostics);
    expect(piecewise!.listing).toBe(whole.listing);
  });

  test('the streamed listing is the listing rebuilt from the object records and the source lines', () => {
    const r = assemblePiecewise([{ file: FILE, text: SOURCE }], { isa, listing: false }, 4000, 0)!;
    expect(r.listing).toBe('');
    const chunks = [...r.listingChunks()];
    expect(chunks.length).toBeGreaterThan(3);
    for (const c of chunks.slice(0, -1)) expect(c.length).toBeGreaterThanOrEqual(CHUNK_CHARS);
    expect(chunks.join('')).toBe(referenceListing(r.object, r, SOURCE.split('\n')));
  });

  test('declines (the whole-file path runs) where the two could differ or errors are to be reported', () => {
    const head = SOURCE.slice(0, 20_000);
    const cut = head.lastIndexOf('\n.program');
    const base = head.slice(0, cut + 1);
    // a constant after a program; a syntax error; a VPU program named before it is defined; a duplicate program
    const late = base + '.const LATE = 3\n';
    const syntax = base + '.program bad amem_read {\n  Read_SRAM iter_stride[i0 = 1\n}\n';
    const forward = base + '.program fwd vi {\n  Generate_VPU_Program vpv_pgm_start_addr=later\n}\n.vpu later {\n  RELU rd=r1\n}\n';
    const twice = base + base.slice(base.indexOf('.program'));
    for (const t of [late, syntax, forward, twice]) expect(assemblePiecewise([{ file: FILE, text: t }], { isa }, 2000, 0)).toBeUndefined();
    // and `assemble` still gives the whole-file answer for them
    expect(() => assemble({ file: FILE, text: syntax }, { isa })).toThrow(DiagnosticError);
    expect(assemble({ file: FILE, text: forward }, { isa }).programs.some((p) => p.name === 'fwd')).toBe(true);
  });

  test('pieces start at top-level `.program` / `.vpu` lines only (not in braces, comments, strings or continuations)', () => {
    const t = [
      '.const A = 1',
      '.program a amem_read { # { not a brace',
      '  Read_SRAM // }',
      '}',
      '.include "x{.inc"',
      '.program b amem_read {',
      '  loop i0 2 {',
      '.program x',
      '  }',
      '}',
      'Nop \\',
      '.vpu y',
      '.vpu v {',
      '  RELU',
      '}',
      '.programs z',
      '',
    ].join('\n');
    const starts = topLevelPieces(t, 1);
    expect(starts.map((s) => t.slice(s).split('\n')[0])).toEqual(['.const A = 1', '.program a amem_read { # { not a brace', '.program b amem_read {', '.vpu v {']);
    expect(topLevelPieces(t, 1_000)).toEqual([0]);
  });
});

describe('streamed disassembly', () => {
  test('a generated source round-trips through the chunked disassembly', () => {
    const obj = assemble({ file: FILE, text: SOURCE }, { isa }).object;
    const chunks = [...disassembleChunks(obj, { isa })];
    expect(chunks.length).toBeGreaterThan(1);
    const text = chunks.join('');
    expect(text).toBe(disassemble(obj, { isa }));
    const again = assemble({ file: 'dis.pasm', text }, { isa }).object;
    // the same programs, words and relocations (VPU programs are printed first, so compare by name)
    const byName = (c: Container) => new Map(c.sections.map((s) => [s.name, Buffer.from(s.data).toString('hex')]));
    expect(byName(again)).toEqual(byName(obj));
    const relocs = (c: Container) => c.relocations.map((r) => `${c.sections[r.section]!.name}@${r.offset} ${r.kind} ${r.symbol}+${r.addend}`).sort();
    expect(relocs(again)).toEqual(relocs(obj));
  });
});
