/**
 * The toy target's linker back end: the link-script language comes from
 * @pyxis/ld; the toy gives two block kinds a meaning:
 *
 *   code NAME { at = PC; }                 place program NAME at instruction address PC
 *   data NAME { at = ADDR; words = [..]; } initialise data words from ADDR
 *
 * The image holds one `imem` section per program (JNZ targets relocated) and
 * one `dmem` section per data block.
 */
import { DiagnosticError, error, type Diagnostic, type SourceSpan } from '@pyxis/diagnostics';
import { parseLinkScript, type ScriptBlock } from '@pyxis/ld';
import { decode, encode, type CompiledTable } from '@pyxis/codec';
import { SectionFlags, type Container, type Section, type SymbolEntry } from '@pyxis/container';
import type { LinkOutput, LinkRequest } from '@pyxis/target';
import { RELOC_PC } from './asm.js';

/** Instruction and data memories, in words. */
export const IMEM_WORDS = 256;
export const DMEM_WORDS = 256;

interface Placed {
  name: string;
  space: 'imem' | 'dmem';
  at: number;
  words: number;
}

export function linkToy(req: LinkRequest, insn: CompiledTable): LinkOutput {
  const script = parseLinkScript(req.script, req.scriptFile);
  const diags: Diagnostic[] = [];
  const err = (code: string, message: string, span: SourceSpan) => diags.push(error(code, message, { span }));
  const programs = new Map<string, { file: string; section: Section; object: Container; index: number }>();
  for (const o of [...req.objects, ...script.inputs.map((i) => ({ file: i.path, container: req.readObject(i.path) }))])
    for (const s of o.container.symbols)
      if (s.kind === 'program') programs.set(s.name, { file: o.file, section: o.container.sections[s.section]!, object: o.container, index: s.section });
  const sections: Section[] = [];
  const symbols: SymbolEntry[] = [];
  const placed: Placed[] = [];
  const intAttr = (b: ScriptBlock, key: string): number | undefined => {
    const a = b.attrs.find((x) => x.key === key);
    if (!a) return err('TLD0002', `${b.kind} \`${b.name}\` needs \`${key} = N;\``, b.nameSpan ?? b.kindSpan), undefined;
    if (a.value.kind !== 'number' || !Number.isInteger(a.value.value) || a.value.value < 0) return err('TLD0003', `\`${key}\` must be a non-negative integer`, a.value.span), undefined;
    return a.value.value;
  };
  for (const b of script.blocks) {
    if (!b.name) {
      err('TLD0001', `\`${b.kind}\` needs a name`, b.kindSpan);
      continue;
    }
    if (b.kind === 'code') {
      const p = programs.get(b.name);
      const at = intAttr(b, 'at');
      if (!p) {
        err('TLD0004', `no object defines program \`${b.name}\``, b.nameSpan!);
        continue;
      }
      if (at === undefined) continue;
      const data = new Uint8Array(p.section.data);
      // JNZ targets are program-relative in the object: add the base.
      for (const r of p.object.relocations)
        if (r.section === p.index && r.kind === RELOC_PC) {
          const v = decode(insn, data, r.offset);
          encode(insn, { ...v, arg: Number(v['arg']) + at + r.addend }, data, r.offset);
        }
      placed.push({ name: b.name, space: 'imem', at, words: data.length / insn.bytes });
      symbols.push({ name: b.name, kind: 'program', section: sections.length, offset: 0, size: data.length, global: true });
      sections.push({ name: b.name, kind: 'code', space: 'imem', address: at, size: data.length, align: insn.bytes, flags: 0, data });
    } else if (b.kind === 'data') {
      const at = intAttr(b, 'at');
      const w = b.attrs.find((x) => x.key === 'words');
      if (!w || w.value.kind !== 'list' || w.value.items.some((i) => i.kind !== 'number' || !Number.isInteger(i.value) || i.value < 0 || i.value > 0xffff)) {
        err('TLD0005', `data \`${b.name}\` needs \`words = [N, ...];\` of 16-bit unsigned integers`, w?.value.span ?? b.nameSpan!);
        continue;
      }
      if (at === undefined) continue;
      const data = new Uint8Array(w.value.items.length * 2);
      w.value.items.forEach((i, k) => new DataView(data.buffer).setUint16(k * 2, (i as { value: number }).value, true));
      placed.push({ name: b.name, space: 'dmem', at, words: w.value.items.length });
      symbols.push({ name: b.name, kind: 'data', section: sections.length, offset: 0, size: data.length, global: true });
      // target0 is the toy's own section flag (named `scratch` by its inspect hook): data the program may overwrite
      sections.push({ name: b.name, kind: 'data', space: 'dmem', address: at * 2, size: data.length, align: 2, flags: SectionFlags.target0, data });
    } else err('TLD0006', `unknown block \`${b.kind}\`; the toy linker knows \`code\` and \`data\``, b.kindSpan);
  }
  for (const p of placed) {
    const limit = p.space === 'imem' ? IMEM_WORDS : DMEM_WORDS;
    const b = script.blocks.find((x) => x.name === p.name)!;
    if (p.at + p.words > limit) err('TLD0007', `\`${p.name}\` (${p.words} words at ${p.at}) does not fit ${p.space} (${limit} words)`, b.nameSpan!);
    for (const q of placed)
      if (q !== p && q.space === p.space && placed.indexOf(q) < placed.indexOf(p) && p.at < q.at + q.words && q.at < p.at + p.words)
        err('TLD0008', `\`${p.name}\` overlaps \`${q.name}\` in ${p.space}`, b.nameSpan!);
  }
  if (!placed.some((p) => p.space === 'imem')) err('TLD0009', 'the script places no program (`code NAME { at = PC; }`)', { file: req.scriptFile, line: 1, column: 1, length: 1 });
  if (diags.length) throw new DiagnosticError(diags);
  const image: Container = { kind: 'pimg', version: 1, target: 'toy', sections, symbols, relocations: [], metadata: { producer: 'toy-ld', entry: placed.find((p) => p.space === 'imem')!.at } };
  const mapLines = placed.map((p) => `${p.space}  ${String(p.at).padStart(4)}  ${String(p.words).padStart(4)}  ${p.name}`);
  return {
    image,
    diagnostics: [],
    mapText: () => ['space  at  words  name', ...mapLines].join('\n') + '\n',
    mapJson: () => JSON.stringify({ placed }, null, 2) + '\n',
  };
}
