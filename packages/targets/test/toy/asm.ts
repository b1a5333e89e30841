/**
 * The toy target's assembler back end. Everything target-neutral comes from
 * @pyxis/asm (lexing, parsing, includes, `.const`, expressions); this file
 * only gives the flat instruction stream its meaning: a mnemonic is a value of
 * the `opcode` enum of grammars/toy/toy_insn.json, an operand is a field of
 * that table (or one of its aliases), one 16-bit word per instruction.
 */
import { error, type Diagnostic } from '@pyxis/diagnostics';
import { readSources, evalExpr, sortDiagnostics, type Stmt } from '@pyxis/asm';
import { decode, encode, enumCode, enumName, legalRange, lookupField, resolveScalar, type CompiledTable } from '@pyxis/codec';
import { SectionFlags, type Container, type Section, type SymbolEntry, type Relocation } from '@pyxis/container';
import type { AssembleOutput, AssembleRequest } from '@pyxis/target';

/** The only execution unit a `.program` may name. */
export const TOY_UNIT = 'acc';
/** Relocation kind of a JNZ target: the linker adds the program's base PC. */
export const RELOC_PC = 'toy.pc';

export function assembleToy(req: AssembleRequest, insn: CompiledTable): AssembleOutput {
  const set = readSources(req.inputs, { includeDirs: req.includeDirs, sources: req.services.sources });
  const diags: Diagnostic[] = [...set.diagnostics];
  const opcode = insn.byName.get('opcode')!;
  const sections: Section[] = [];
  const symbols: SymbolEntry[] = [];
  const relocations: Relocation[] = [];
  const listing: string[] = [];
  for (const p of set.programs) {
    if (p.seq !== TOY_UNIT) diags.push(error('TOY0001', `unknown unit \`${p.seq}\`; the toy machine has one unit, \`${TOY_UNIT}\``, { span: p.seqSpan }));
    const words: Uint8Array[] = [];
    const visit = (stmts: Stmt[]) => {
      for (const s of stmts) {
        if (s.kind === 'loop') {
          diags.push(error('TOY0002', 'the toy machine has no hardware loops; use JNZ', { span: s.span }));
          continue;
        }
        const code = enumCode(opcode, s.mnemonic);
        if (code === undefined) {
          diags.push(error('TOY0003', `unknown mnemonic \`${s.mnemonic}\``, { span: s.mnemonicSpan, notes: [`expected ${legalRange(opcode)}`] }));
          continue;
        }
        const values: Record<string, bigint | number> = { opcode: code };
        let relocate = false;
        for (const a of s.operands) {
          const f = lookupField(insn, a.name);
          if (!f || f.name === 'opcode') {
            diags.push(error('TOY0004', `unknown operand \`${a.name}\``, { span: a.nameSpan, notes: ['the toy instruction has one operand, `arg` (also spelled imm, addr, target)'] }));
            continue;
          }
          if (a.value.kind !== 'expr') {
            diags.push(error('TOY0005', `\`${a.name}\` takes one value, not a list`, { span: a.value.span }));
            continue;
          }
          const v = evalExpr(a.value.expr, { consts: set.consts, diags });
          if (v === undefined) continue;
          const r = resolveScalar(f, v);
          if (typeof r === 'string') diags.push(error('TOY0006', r, { span: a.value.span }));
          else values[f.name] = r;
          relocate = s.mnemonic === 'JNZ';
        }
        if (relocate) relocations.push({ section: sections.length, offset: words.length * insn.bytes, kind: RELOC_PC, symbol: p.name, addend: 0 });
        words.push(encode(insn, values));
        listing.push(`${String(words.length - 1).padStart(4)}  ${hex(words[words.length - 1]!)}${relocate ? 'r' : ' '}  ${s.file}:${s.line} ${s.mnemonic}`);
      }
    };
    visit(p.body);
    const data = concat(words);
    symbols.push({ name: p.name, kind: 'program', section: sections.length, offset: 0, size: data.length, global: true });
    sections.push({ name: p.name, kind: 'code', space: 'imem', address: 0, size: data.length, align: insn.bytes, flags: SectionFlags.relocatable, data });
  }
  const object: Container = { kind: 'pobj', version: 1, target: 'toy', sections, symbols, relocations, metadata: { producer: 'toy-as' } };
  return { diagnostics: sortDiagnostics(diags), object, ...(req.listing ? { listing: listing.join('\n') + '\n' } : {}) };
}

/** One line per instruction: `PC  MNEMONIC arg=N` (the disassembler and the inspect hook). */
export function disassembleWords(insn: CompiledTable, data: Uint8Array): string[] {
  const out: string[] = [];
  for (let off = 0; off + insn.bytes <= data.length; off += insn.bytes) {
    const v = decode(insn, data, off);
    const name = enumName(insn, 'opcode', v['opcode']!);
    out.push(`${name}${name === 'HALT' ? '' : ` arg=${String(v['arg'])}`}`);
  }
  return out;
}

function hex(b: Uint8Array): string {
  return [...b].reverse().map((x) => x.toString(16).padStart(2, '0')).join('');
}

export function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}
