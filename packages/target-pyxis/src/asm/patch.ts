/**
 * MPE patch blobs (chip-fspec §12.6.1): a blob is the concatenation of
 * micro_patch_t = { u32 target_address, u16 reg_size (N-1), u16 reg_repeat (N-1) }
 * headers (table grammars/pyxis/patch_micro_patch_t.json) each followed by
 * reg_repeat data elements of reg_size bytes padded to a multiple of 8
 * bytes; every patch is a multiple of 8 bytes and the blob is 8-byte aligned.
 * Also the relocation helpers the linker uses to place programs.
 */
import { decode, encode, readField, type CompiledTable } from '@pyxis/codec';
import { applyFieldRelocation } from '../common/relocation.js';
import { PatchBlobError, decodePatchBlob as decodeBlob, encodePatchBlob as encodeBlob, type MicroPatch, type PatchBlobIssue } from '../common/patchBlob.js';
import { DiagnosticError, error, type Diagnostic } from '@pyxis/diagnostics';
import type { Relocation } from '@pyxis/container';
import { iterField, wordStride, type Isa, type SequencerInfo } from './isa.js';
import { vpuSymbol, type EncodedProgram, type EncodedVpuProgram } from './program.js';

export type { MicroPatch };

/** The assembler's diagnostic code for each kind of patch-blob problem (the codec work is common/patchBlob.ts). */
const PATCH_CODES: Record<PatchBlobIssue['kind'], string> = { misaligned: 'AS0601', length: 'AS0602', empty: 'AS0603', range: 'AS0604', truncated: 'AS0605', overrun: 'AS0606' };

function asDiagnostics(e: unknown, file?: string): never {
  if (!(e instanceof PatchBlobError)) throw e;
  throw new DiagnosticError(e.issues.map((i) => error(PATCH_CODES[i.kind], i.message, { spec: i.spec, ...(file !== undefined ? { span: { file, offset: i.offset ?? 0 } } : {}) })));
}

/** Serializes patches into one blob (throws DiagnosticError on malformed patches). */
export function encodePatchBlob(patches: MicroPatch[]): Uint8Array {
  try {
    return encodeBlob(patches);
  } catch (e) {
    return asDiagnostics(e);
  }
}

/** Parses a blob back into patches (for tools and tests); problems are diagnostics at their byte offset in `file`. */
export function decodePatchBlob(blob: Uint8Array, file = '<blob>'): MicroPatch[] {
  try {
    return decodeBlob(blob);
  } catch (e) {
    return asDiagnostics(e, file);
  }
}

/**
 * Applies one `<table>.<field>` relocation in place: field = addend + value
 * (value = the placed start PC of the relocation's symbol). The work is
 * common/relocation.ts (shared with the linker); problems become AS0607/AS0608.
 */
export function applyRelocation(data: Uint8Array, r: Relocation, value: number): void {
  const problem = applyFieldRelocation(data, r.offset, r.kind, r.symbol, r.addend, value);
  if (problem) throw new DiagnosticError(error(problem.startsWith('unknown') ? 'AS0607' : 'AS0608', problem));
}

/** A copy of a program's control words with every is_eol sol_pc moved by startPc. */
export function relocateControlWords(seq: SequencerInfo, ctrl: Uint8Array, count: number, startPc: number, iterators: number): Uint8Array {
  const t = seq.control;
  const stride = wordStride(t);
  const out = ctrl.slice();
  for (let pc = 0; pc < count; pc++) {
    let vals: ReturnType<typeof decode> | undefined;
    for (let i = 0; i < iterators; i++) {
      const eol = iterField(i, 'is_eol');
      if (!t.byName.has(eol) || Number(readField(t, out, eol, 0, pc * stride)) !== 1) continue;
      vals ??= decode(t, out, pc * stride);
      vals[iterField(i, 'sol_pc')] = Number(vals[iterField(i, 'sol_pc')]) + startPc;
    }
    if (vals) encode(t, vals as never, out, pc * stride);
  }
  return out;
}

/** The two patches (control memory, op memory) that load a program at startPc. */
export function programPatches(p: Pick<EncodedProgram, 'seq' | 'count' | 'ctrl' | 'op' | 'name'>, startPc: number, isa: Isa): MicroPatch[] {
  const s = p.seq;
  if (!s.ctrlMem || !s.opMem) throw new DiagnosticError(error('AS0609', `memory_map.json gives no control/op memory address for sequencer ${s.name}`));
  const ctrl = relocateControlWords(s, p.ctrl, p.count, startPc, isa.iterators);
  const cs = s.ctrlMem.stride ?? wordStride(s.control);
  const os = s.opMem.stride ?? wordStride(s.op);
  return [
    { target_address: s.ctrlMem.address + startPc * cs, reg_size: s.control.bytes, reg_repeat: p.count, data: ctrl.subarray(0, p.count * wordStride(s.control)) },
    { target_address: s.opMem.address + startPc * os, reg_size: s.op.bytes, reg_repeat: p.count, data: p.op.subarray(0, p.count * wordStride(s.op)) },
  ];
}

/**
 * Chooses start PCs for a standalone blob: programs with `at PC` keep it;
 * the others are packed, in source order, into the lowest free PCs of
 * their sequencer's memory. Overlaps and overflow are errors.
 */
export function placePrograms(progs: Pick<EncodedProgram, 'seq' | 'count' | 'name' | 'startPc'>[], isa: Isa): number[] {
  const diags: Diagnostic[] = [];
  const used = new Map<string, (string | undefined)[]>();
  const mem = (s: string) => {
    let m = used.get(s);
    if (!m) used.set(s, (m = new Array<string | undefined>(isa.programWords).fill(undefined)));
    return m;
  };
  const starts = progs.map(() => -1);
  progs.forEach((p, k) => {
    if (p.startPc === undefined) return;
    const m = mem(p.seq.name);
    for (let pc = p.startPc; pc < p.startPc + p.count; pc++) {
      if (pc >= isa.programWords) {
        diags.push(error('AS0610', `program \`${p.name}\` at ${p.startPc} runs past the ${isa.programWords}-word ${p.seq.name} memory`));
        return;
      }
      if (m[pc] !== undefined) {
        diags.push(error('AS0611', `programs \`${m[pc]}\` and \`${p.name}\` overlap at ${p.seq.name} PC ${pc}`));
        return;
      }
      m[pc] = p.name;
    }
    starts[k] = p.startPc;
  });
  progs.forEach((p, k) => {
    if (p.startPc !== undefined) return;
    const m = mem(p.seq.name);
    for (let s = 0; s + p.count <= isa.programWords; s++) {
      let free = true;
      for (let pc = s; pc < s + p.count && free; pc++) if (m[pc] !== undefined) free = false;
      if (free) {
        for (let pc = s; pc < s + p.count; pc++) m[pc] = p.name;
        starts[k] = s;
        return;
      }
    }
    diags.push(error('AS0612', `no room for program \`${p.name}\` (${p.count} words) in the ${isa.programWords}-word ${p.seq.name} memory`));
  });
  if (diags.length) throw new DiagnosticError(diags);
  return starts;
}

/** Start addresses of VPU programs in the VPU instruction memory: `at` kept, the others packed in order. */
export function placeVpuPrograms(progs: Pick<EncodedVpuProgram, 'name' | 'count' | 'startAddr'>[], isa: Isa): number[] {
  const words = isa.vpu?.words ?? 0;
  const used = new Array<string | undefined>(words).fill(undefined);
  const diags: Diagnostic[] = [];
  const starts = progs.map(() => -1);
  const claim = (k: number, s: number): boolean => {
    const p = progs[k]!;
    for (let a = s; a < s + p.count; a++) if (a >= words || used[a] !== undefined) return false;
    for (let a = s; a < s + p.count; a++) used[a] = p.name;
    starts[k] = s;
    return true;
  };
  progs.forEach((p, k) => {
    if (p.startAddr !== undefined && !claim(k, p.startAddr)) diags.push(error('AS0611', `VPU program \`${p.name}\` at ${p.startAddr} overlaps another program or runs past the ${words}-word VPU memory`));
  });
  progs.forEach((p, k) => {
    if (p.startAddr !== undefined) return;
    for (let s = 0; s + p.count <= words; s++) if (claim(k, s)) return;
    diags.push(error('AS0612', `no room for VPU program \`${p.name}\` (${p.count} words) in the ${words}-word VPU memory`));
  });
  if (diags.length) throw new DiagnosticError(diags);
  return starts;
}

/**
 * A patch blob loading every program (placed by `placePrograms` /
 * `placeVpuPrograms`), with sol_pc and VPU-program references resolved.
 */
export function programsPatchBlob(
  progs: EncodedProgram[],
  isa: Isa,
  vpuProgs: EncodedVpuProgram[] = [],
): { blob: Uint8Array; patches: MicroPatch[]; starts: number[]; vpuStarts: number[] } {
  const starts = placePrograms(progs, isa);
  const vpuStarts = placeVpuPrograms(vpuProgs, isa);
  const vpuAt = new Map(vpuProgs.map((v, k) => [vpuSymbol(v.name), vpuStarts[k]!]));
  const patches = progs.flatMap((p, k) => {
    let op = p.op;
    if (p.refs.length) {
      op = p.op.slice();
      for (const r of p.refs) applyRelocation(op, { section: 0, offset: r.pc * p.opStride, kind: `${p.seq.op.name}.${r.field}`, symbol: r.symbol, addend: 0 }, vpuAt.get(r.symbol) ?? 0);
    }
    return programPatches({ ...p, op }, starts[k]!, isa);
  });
  vpuProgs.forEach((v, k) => {
    const mem = v.vpu.mem;
    if (!mem) throw new DiagnosticError(error('AS0609', 'memory_map.json gives no address for the VPU instruction memory (vpu.imem)'));
    patches.push({ target_address: mem.address + vpuStarts[k]! * (mem.stride ?? v.stride), reg_size: v.vpu.op.bytes, reg_repeat: v.count, data: v.words.subarray(0, v.count * v.stride) });
  });
  return { blob: encodePatchBlob(patches), patches, starts, vpuStarts };
}
