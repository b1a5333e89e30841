/**
 * Disassembler: object -> assemblable `.pasm`. Loops are recovered from the
 * is_eol/sol_pc pairs; the recovered structure is re-assembled and used only
 * if it reproduces the control words bit for bit, otherwise the program is
 * printed in the raw `ctrl { ... }` form (which always round-trips).
 */
import { decode, encode, type CompiledTable, type DecodedValues } from '@pyxis/codec';
import { SourceMap, type Diagnostic } from '@pyxis/diagnostics';
import type { Container } from '@pyxis/container';
import { compileSources } from './assemble.js';
import { encodeProgram } from './encode.js';
import { isIterIdField, isPerIterField, isIterMaskField, iterField, vpuCountField, type Isa, type SequencerInfo } from './isa.js';
import { joinLines, concatChunks } from '@pyxis/asm';
import { decodeProgram, decodeVpuProgram, programEntries, vpuProgramEntries, type DecodedProgram, type DecodedVpuProgram, type ProgramEntry, type VpuProgramEntry } from './object.js';

function fmt(v: number | bigint): string {
  return v >= 256 ? `0x${v.toString(16)}` : v.toString();
}

function maskList(m: number, iterators: number): string {
  const out: string[] = [];
  for (let i = 0; i < iterators; i++) if (m & (1 << i)) out.push(`i${i}`);
  return `[${out.join(', ')}]`;
}

/** The decoded all-defaults word of a table (`extra` set), computed once per table and `extra`. */
const defaultsCache = new WeakMap<CompiledTable, Map<string, DecodedValues>>();
function defaults(t: CompiledTable, extra: Record<string, number> = {}): DecodedValues {
  let m = defaultsCache.get(t);
  if (!m) defaultsCache.set(t, (m = new Map()));
  const key = JSON.stringify(extra);
  let d = m.get(key);
  if (!d) m.set(key, (d = decode(t, encode(t, extra))));
  return d;
}

/** `Mnemonic field=value ...` with only non-default fields. */
export function formatOp(seq: Pick<SequencerInfo, 'op' | 'opcode'>, d: DecodedValues, isa: Isa, refs?: Map<string, string>): string {
  const t = seq.op;
  const def = defaults(t);
  const parts: string[] = [];
  let mnemonic = 'op';
  const oc = seq.opcode;
  if (oc && typeof d[oc.name] === 'number' && oc.enumNames?.has(d[oc.name] as number)) mnemonic = oc.enumNames.get(d[oc.name] as number)!;
  for (const f of t.fields) {
    if (f.reserved) continue;
    if (oc && f.name === oc.name && mnemonic !== 'op') continue;
    const v = d[f.name];
    const dv = def[f.name];
    if (v === undefined) continue;
    if (Array.isArray(v)) {
      const dd = dv as Array<number | bigint>;
      v.forEach((e, i) => {
        if (e !== dd[i]) parts.push(`${f.name}[${isPerIterField(f) ? `i${i}` : i}]=${fmt(e)}`);
      });
      continue;
    }
    const ref = refs?.get(f.name);
    if (ref !== undefined) {
      parts.push(`${f.name}=${ref}`);
      continue;
    }
    // the count of a referenced VPU program is always explicit (omitted, the assembler would use the program's length)
    if (v === dv && !(refs && [...refs.keys()].some((k) => vpuCountField(t, k) === f))) continue;
    if (f.enumNames && typeof v === 'number' && f.enumNames.has(v)) parts.push(`${f.name}=${f.enumNames.get(v)}`);
    else if (isIterMaskField(f)) parts.push(`${f.name}=${maskList(Number(v), isa.iterators)}`);
    else if (isIterIdField(f) && Number(v) < isa.iterators) parts.push(`${f.name}=i${fmt(v)}`);
    else parts.push(`${f.name}=${fmt(v)}`);
  }
  return [mnemonic, ...parts].join(' ');
}

interface RLoop {
  iter: number;
  start: number;
  end: number;
  count: number;
  final?: number;
  mask: number;
  pf: boolean;
  children: RLoop[];
}

function recoverLoops(ctrl: DecodedValues[], t: CompiledTable, isa: Isa): RLoop[] | undefined {
  const loops: RLoop[] = [];
  ctrl.forEach((c, pc) => {
    for (let i = 0; i < isa.iterators; i++) {
      if (Number(c[iterField(i, 'is_eol')] ?? 0) !== 1) continue;
      const mask = Number(c[iterField(i, 'final_iter_mask')] ?? 0);
      const l: RLoop = { iter: i, start: Number(c[iterField(i, 'sol_pc')]), end: pc, count: Number(c[iterField(i, 'numloops')]), mask, pf: Number(c[iterField(i, 'post_final_enbl')] ?? 0) === 1, children: [] };
      if (mask) l.final = Number(c[iterField(i, 'numloops_final')]);
      loops.push(l);
    }
  });
  void t;
  if (loops.some((l) => l.start > l.end)) return undefined;
  loops.sort((a, b) => a.start - b.start || b.end - a.end || a.iter - b.iter);
  const roots: RLoop[] = [];
  const stack: RLoop[] = [];
  for (const l of loops) {
    while (stack.length && stack[stack.length - 1]!.end < l.start) stack.pop();
    const top = stack[stack.length - 1];
    if (top) {
      if (!(l.end <= top.end && l.iter > top.iter)) return undefined;
      top.children.push(l);
    } else roots.push(l);
    stack.push(l);
  }
  return roots;
}

function refsAt(p: DecodedProgram, pc: number): Map<string, string> | undefined {
  const rs = p.refs.filter((r) => r.pc === pc);
  return rs.length ? new Map(rs.map((r) => [r.field, r.symbol.replace(/^vpu\./, '')])) : undefined;
}

function structuredText(p: DecodedProgram, roots: RLoop[], isa: Isa, header: string): string {
  const lines: string[] = [header];
  const emit = (pc: number, depth: number) => lines.push(`${'  '.repeat(depth)}${formatOp(p.seq, p.op[pc]!, isa, refsAt(p, pc))}`);
  const walk = (from: number, to: number, loops: RLoop[], depth: number) => {
    let pc = from;
    for (const l of loops) {
      while (pc < l.start) emit(pc++, depth);
      let head = `loop i${l.iter} ${l.count}`;
      if (l.final !== undefined) head += ` final ${l.final} when ${maskList(l.mask, isa.iterators)}`;
      if (l.pf) head += ' post_final';
      lines.push(`${'  '.repeat(depth)}${head} {`);
      walk(l.start, l.end, l.children, depth + 1);
      lines.push(`${'  '.repeat(depth)}}`);
      pc = l.end + 1;
    }
    while (pc <= to) emit(pc++, depth);
  };
  walk(0, p.ctrl.length - 1, roots, 1);
  lines.push('}');
  return lines.join('\n');
}

function rawText(p: DecodedProgram, isa: Isa, header: string): string {
  const t = p.seq.control;
  const lines: string[] = [header];
  const n = p.ctrl.length;
  p.ctrl.forEach((c, pc) => {
    const base = defaults(t, pc === n - 1 && t.byName.has('eopgm') ? { eopgm: 1 } : {});
    const parts: string[] = [];
    for (const f of t.fields) {
      if (f.reserved || c[f.name] === base[f.name]) continue;
      const m = /^iter(\d+)_(.*)$/.exec(f.name);
      parts.push(`${m ? `iter${m[1]}.${m[2]}` : f.name}=${fmt(c[f.name] as number)}`);
    }
    // always a ctrl clause (even empty): it marks the instruction as hand-controlled, so masks are not checked against loops
    const ctl = `ctrl { ${parts.length ? parts.join(' ') + ' ' : ''}} `;
    lines.push(`  ${ctl}${formatOp(p.seq, p.op[pc]!, isa, refsAt(p, pc))}`);
  });
  lines.push('}');
  return lines.join('\n');
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Re-assembles one program's text and checks its control words match. */
function reproduces(text: string, p: DecodedProgram, isa: Isa): boolean {
  try {
    const diags: Diagnostic[] = [];
    const stubs = [...new Set(p.refs.map((r) => r.symbol.replace(/^vpu\./, '')))].map((n) => `.vpu ${n} { op }`).join('\n');
    const r = compileSources([{ file: '<disasm>', text: text + '\n' + stubs + '\n' }], { isa, sources: new SourceMap() });
    if (r.diagnostics.some((d) => d.severity === 'error') || r.programs.length !== 1) return false;
    const e = encodeProgram(r.programs[0]!, diags);
    return !diags.some((d) => d.severity === 'error') && sameBytes(e.ctrl, p.ctrlBytes) && sameBytes(e.op, p.opBytes);
  } catch {
    return false;
  }
}

/** One program's text (structured when the recovered loops reproduce its words, else raw `ctrl { }` form). */
function programText(p: DecodedProgram, isa: Isa): string {
  const header = `.program ${p.name} ${p.seq.name}${p.startPc !== undefined ? ` at ${p.startPc}` : ''} {`;
  const roots = recoverLoops(p.ctrl, p.seq.control, isa);
  if (roots) {
    const s = structuredText(p, roots, isa, header);
    if (reproduces(s, p, isa)) return s;
  }
  return rawText(p, isa, header);
}

function vpuText(v: DecodedVpuProgram, isa: Isa): string {
  const lines = [`.vpu ${v.name}${v.startAddr !== undefined ? ` at ${v.startAddr}` : ''} {`];
  for (const d of v.op) lines.push(`  ${formatOp(isa.vpu!, d, isa)}`);
  lines.push('}');
  return lines.join('\n');
}

/**
 * The disassembly as blocks of text (joined with `\n`, as `disassemblePrograms` joins them): each program is
 * decoded, printed and dropped in turn, so memory stays bounded by one program whatever the object's size.
 * Entries may be decoded programs or undecoded `programEntries`.
 */
export function* disassemblyBlocks(progs: Iterable<DecodedProgram | ProgramEntry>, isa: Isa, vpuProgs: Iterable<DecodedVpuProgram | VpuProgramEntry> = []): Generator<string> {
  yield '# disassembled by pyxis-as';
  yield '';
  for (const v of vpuProgs) {
    yield vpuText('op' in v ? v : decodeVpuProgram(v, isa), isa);
    yield '';
  }
  for (const p of progs) {
    yield programText('ctrl' in p ? p : decodeProgram(p), isa);
    yield '';
  }
}

export function disassemblePrograms(progs: DecodedProgram[], isa: Isa, vpuProgs: DecodedVpuProgram[] = []): string {
  return concatChunks(joinLines(disassemblyBlocks(progs, isa, vpuProgs)));
}

/**
 * Disassembles every program of a `.pobj` container into `.pasm` text, in chunks of about 64 KiB (the
 * container is checked first, so a bad object fails before any text is produced).
 */
export function disassembleChunks(c: Container, opts: { isa: Isa; file?: string }): Iterable<string> {
  const isa = opts.isa;
  const progs = programEntries(c, isa, opts.file);
  const vpu = vpuProgramEntries(c, isa);
  return joinLines(disassemblyBlocks(progs, isa, vpu));
}

/** Disassembles every program of a `.pobj` container into `.pasm` text. */
export function disassemble(c: Container, opts: { isa: Isa; file?: string }): string {
  return concatChunks(disassembleChunks(c, opts));
}
