/**
 * Object layout (.pobj) shared with the linker (docs/assembler.md):
 * per (sequencer, program) two `code` sections `<seq>.<program>.ctrl` and
 * `<seq>.<program>.op` in spaces `uie.<seq>.ctrl` / `uie.<seq>.op`, address 0,
 * relocatable; a global `program` symbol at offset 0 of the ctrl section
 * (size = instruction count); one relocation per `sol_pc` of an is_eol
 * iterator, kind `<control table>.iter<i>_sol_pc`, addend = program-relative PC.
 */
import { decode, readField, type DecodedValues } from '@pyxis/codec';
import { error, DiagnosticError, type Diagnostic } from '@pyxis/diagnostics';
import { FORMAT_VERSION, SectionFlags, type Container, type Relocation, type Section, type SymbolEntry } from '@pyxis/container';
import { iterField, wordStride, type Isa, type SequencerInfo } from './isa.js';
import { vpuSymbol, type EncodedProgram, type EncodedVpuProgram } from './program.js';

export const PRODUCER = 'pyxis-as 0.1.0';

/** Symbol name of a program: `<program>`, or `<seq>.<program>` when the name is used by several sequencers. */
export function programSymbolNames(progs: readonly { name: string; seq: { name: string } }[]): string[] {
  const count = new Map<string, number>();
  for (const p of progs) count.set(p.name, (count.get(p.name) ?? 0) + 1);
  return progs.map((p) => ((count.get(p.name) ?? 0) > 1 ? `${p.seq.name}.${p.name}` : p.name));
}

/** Relocation kind for iterator i's sol_pc in a sequencer's control table, e.g. `seq_control_pf.iter1_sol_pc`. */
export function solPcRelocKind(seq: SequencerInfo, i: number): string {
  return `${seq.control.name}.${iterField(i, 'sol_pc')}`;
}

/** Relocation kind for an op field holding a VPU program address, e.g. `vi_op.vpv_pgm_start_addr`. */
export function opRelocKind(seq: SequencerInfo, field: string): string {
  return `${seq.op.name}.${field}`;
}

export function buildObject(progs: EncodedProgram[], isa: Isa, metadata: Record<string, unknown> = {}, vpuProgs: EncodedVpuProgram[] = []): Container {
  const sections: Section[] = [];
  const symbols: SymbolEntry[] = [];
  const relocations: Relocation[] = [];
  const names = programSymbolNames(progs);
  const programsMeta: Record<string, unknown>[] = [];
  progs.forEach((p, k) => {
    const ci = sections.length;
    const flags = SectionFlags.relocatable;
    sections.push({ name: `${p.seq.name}.${p.name}.ctrl`, kind: 'code', space: `uie.${p.seq.name}.ctrl`, address: 0, size: p.ctrl.length, align: 8, flags, data: p.ctrl });
    sections.push({ name: `${p.seq.name}.${p.name}.op`, kind: 'code', space: `uie.${p.seq.name}.op`, address: 0, size: p.op.length, align: 8, flags, data: p.op });
    symbols.push({ name: names[k]!, kind: 'program', section: ci, offset: 0, size: p.count, global: true });
    for (let pc = 0; pc < p.count; pc++) {
      for (let i = 0; i < isa.iterators; i++) {
        const eol = iterField(i, 'is_eol');
        if (!p.seq.control.byName.has(eol)) continue;
        if (Number(readField(p.seq.control, p.ctrl, eol, 0, pc * p.ctrlStride)) !== 1) continue;
        const sol = Number(readField(p.seq.control, p.ctrl, iterField(i, 'sol_pc'), 0, pc * p.ctrlStride));
        relocations.push({ section: ci, offset: pc * p.ctrlStride, kind: solPcRelocKind(p.seq, i), symbol: names[k]!, addend: sol, info: i });
      }
    }
    for (const r of p.refs) relocations.push({ section: ci + 1, offset: r.pc * p.opStride, kind: opRelocKind(p.seq, r.field), symbol: r.symbol, addend: 0 });
    programsMeta.push({ name: p.name, sequencer: p.seq.name, symbol: names[k], words: p.count, ...(p.startPc !== undefined ? { start_pc: p.startPc } : {}) });
  });
  const vpuMeta: Record<string, unknown>[] = [];
  for (const v of vpuProgs) {
    const si = sections.length;
    sections.push({ name: `vpu.${v.name}.imem`, kind: 'code', space: 'vpu.imem', address: 0, size: v.words.length, align: 8, flags: SectionFlags.relocatable, data: v.words });
    // kind `label`, not `program`: `program` symbols are sequencer programs (ctrl+op pairs) to the linker.
    symbols.push({ name: vpuSymbol(v.name), kind: 'label', section: si, offset: 0, size: v.count, global: true });
    vpuMeta.push({ name: v.name, symbol: vpuSymbol(v.name), words: v.count, ...(v.startAddr !== undefined ? { start_addr: v.startAddr } : {}) });
  }
  return {
    kind: 'pobj',
    version: FORMAT_VERSION,
    target: 'pyxis',
    sections,
    symbols,
    relocations,
    metadata: { producer: PRODUCER, ...metadata, programs: programsMeta, ...(vpuMeta.length ? { vpu_programs: vpuMeta } : {}) },
  };
}

/** One program of a container, located and checked but not decoded (`decodeProgram` decodes it). */
export interface ProgramEntry {
  name: string;
  symbol: string;
  seq: SequencerInfo;
  startPc?: number;
  ctrlBytes: Uint8Array;
  opBytes: Uint8Array;
  /** Op fields relocated against VPU programs (from the object's relocations). */
  refs: { pc: number; field: string; symbol: string }[];
}

/** One program read back from a container (values decoded through the tables). */
export interface DecodedProgram extends ProgramEntry {
  ctrl: DecodedValues[];
  op: DecodedValues[];
}

/** A VPU program of a container, located but not decoded (`decodeVpuProgram` decodes it). */
export interface VpuProgramEntry {
  name: string;
  symbol: string;
  startAddr?: number;
  words: Uint8Array;
}

export interface DecodedVpuProgram extends VpuProgramEntry {
  op: DecodedValues[];
}

/** The first entry of each key (as `Array.find` would pick it), built in one pass: lookups per program stay O(1). */
function firstBy<T>(items: readonly T[], key: (x: T) => unknown): Map<unknown, T> {
  const m = new Map<unknown, T>();
  for (const x of items) {
    const k = key(x);
    if (!m.has(k)) m.set(k, x);
  }
  return m;
}

/** The metadata entries (`programs` / `vpu_programs`) of a container by their `symbol`. */
function metaBySymbol(c: Container, key: string): Map<unknown, Record<string, unknown>> {
  const list = Array.isArray(c.metadata?.[key]) ? (c.metadata[key] as unknown[]) : [];
  return firstBy(
    list.filter((x): x is Record<string, unknown> => typeof x === 'object' && x !== null),
    (x) => x['symbol'],
  );
}

/** The VPU programs of a container (`vpu.<name>.imem` sections), not yet decoded. */
export function vpuProgramEntries(c: Container, isa: Isa): VpuProgramEntry[] {
  const out: VpuProgramEntry[] = [];
  if (!isa.vpu) return out;
  const meta = metaBySymbol(c, 'vpu_programs');
  const stride = wordStride(isa.vpu.op);
  for (const sym of c.symbols) {
    const sec = c.sections[sym.section];
    const m = sec && (sym.kind === 'label' || sym.kind === 'program') ? /^vpu\.(.+)\.imem$/.exec(sec.name) : null;
    if (!sec || !m) continue;
    const n = sym.size;
    if (sec.data.length < n * stride) throw new DiagnosticError(error('AS0504', `VPU program \`${sym.name}\`: section too short for ${n} words`));
    const md = meta.get(sym.name);
    const startAddr = typeof md?.['start_addr'] === 'number' ? (md['start_addr'] as number) : undefined;
    out.push({ name: m[1]!, symbol: sym.name, ...(startAddr !== undefined ? { startAddr } : {}), words: sec.data.subarray(0, n * stride) });
  }
  return out;
}

/** Decodes a VPU program's words. */
export function decodeVpuProgram(e: VpuProgramEntry, isa: Isa): DecodedVpuProgram {
  const t = isa.vpu!.op;
  const stride = wordStride(t);
  const op: DecodedValues[] = [];
  for (let k = 0; k < e.words.length / stride; k++) op.push(decode(t, e.words, k * stride));
  return { ...e, op };
}

/** The VPU programs of a container (`vpu.<name>.imem` sections), decoded. */
export function vpuProgramsFromContainer(c: Container, isa: Isa): DecodedVpuProgram[] {
  return vpuProgramEntries(c, isa).map((e) => decodeVpuProgram(e, isa));
}

/**
 * Finds every program (symbol kind `program` on a `<seq>.<prog>.ctrl` section) and checks its sections, without
 * decoding (linear in the container: sections, metadata and relocations are indexed once, not searched per program).
 */
export function programEntries(c: Container, isa: Isa, file = '<object>'): ProgramEntry[] {
  // A linked image places programs at sequencer memory addresses (`.ucode.*` sections): it is not an object.
  if (c.kind !== 'pobj') {
    throw new DiagnosticError(
      error('AS0500', `${file} is a linked .${c.kind} image, not a .pobj object; disassemble the object pyxis-as produced (or list the image with \`pyxis-ld inspect\`)`, { span: { file, offset: 0 } }),
    );
  }
  const out: ProgramEntry[] = [];
  const diags: Diagnostic[] = [];
  const metaProgs = metaBySymbol(c, 'programs');
  const sectionIndex = new Map<string, number>();
  c.sections.forEach((s, i) => {
    if (!sectionIndex.has(s.name)) sectionIndex.set(s.name, i);
  });
  const relocsBySection = new Map<number, Relocation[]>();
  for (const r of c.relocations) {
    const l = relocsBySection.get(r.section);
    if (l) l.push(r);
    else relocsBySection.set(r.section, [r]);
  }
  for (const sym of c.symbols) {
    if (sym.kind !== 'program') continue;
    const sec = c.sections[sym.section];
    if (sec && /\.imem$/.test(sec.name)) continue;
    const m = sec ? /^([A-Za-z0-9_]+)\.(.+)\.ctrl$/.exec(sec.name) : null;
    if (!sec || !m) {
      diags.push(error('AS0501', `program symbol \`${sym.name}\` does not point at a \`<seq>.<program>.ctrl\` section`, { span: { file, offset: 0 } }));
      continue;
    }
    const seq = isa.sequencers.get(m[1]!);
    if (!seq) {
      diags.push(error('AS0502', `section \`${sec.name}\`: unknown sequencer \`${m[1]}\``, { span: { file, offset: 0 } }));
      continue;
    }
    const opIndex = sectionIndex.get(`${m[1]}.${m[2]}.op`) ?? -1;
    const opSec = c.sections[opIndex];
    if (!opSec) {
      diags.push(error('AS0503', `program \`${sym.name}\` has no op section \`${m[1]}.${m[2]}.op\``, { span: { file, offset: 0 } }));
      continue;
    }
    const cs = wordStride(seq.control);
    const os = wordStride(seq.op);
    const n = sym.size;
    if (sec.data.length < sym.offset + n * cs || opSec.data.length < n * os) {
      diags.push(error('AS0504', `program \`${sym.name}\`: sections too short for ${n} instructions`, { span: { file, offset: 0 } }));
      continue;
    }
    const meta = metaProgs.get(sym.name);
    const startPc = typeof meta?.['start_pc'] === 'number' ? (meta['start_pc'] as number) : undefined;
    const refs = (relocsBySection.get(opIndex) ?? [])
      .filter((r) => r.kind.startsWith(`${seq.op.name}.`))
      .map((r) => ({ pc: Math.floor(r.offset / os), field: r.kind.slice(seq.op.name.length + 1), symbol: r.symbol }));
    const ctrlBytes = sec.data.subarray(sym.offset, sym.offset + n * cs);
    const opBytes = opSec.data.subarray(0, n * os);
    out.push({ name: m[2]!, symbol: sym.name, seq, ...(startPc !== undefined ? { startPc } : {}), ctrlBytes, opBytes, refs });
  }
  if (diags.length) throw new DiagnosticError(diags);
  return out;
}

/** Decodes a program's control and op words through its sequencer's tables. */
export function decodeProgram(e: ProgramEntry): DecodedProgram {
  const cs = wordStride(e.seq.control);
  const os = wordStride(e.seq.op);
  const n = e.ctrlBytes.length / cs;
  const ctrl: DecodedValues[] = [];
  const op: DecodedValues[] = [];
  for (let pc = 0; pc < n; pc++) {
    ctrl.push(decode(e.seq.control, e.ctrlBytes, pc * cs));
    op.push(decode(e.seq.op, e.opBytes, pc * os));
  }
  return { ...e, ctrl, op };
}

/** Finds every program (symbol kind `program` on a `<seq>.<prog>.ctrl` section) and decodes it. */
export function programsFromContainer(c: Container, isa: Isa, file = '<object>'): DecodedProgram[] {
  return programEntries(c, isa, file).map(decodeProgram);
}
