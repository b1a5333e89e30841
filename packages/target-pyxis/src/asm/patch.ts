/**
 * MPE patch blobs (chip-fspec §12.6.1): a blob is the concatenation of
 * micro_patch_t = { u32 target_address, u16 reg_size (N-1), u16 reg_repeat (N-1) }
 * headers (table grammars/pyxis/patch_micro_patch_t.json) each followed by
 * reg_repeat data elements of reg_size bytes padded to a multiple of 8
 * bytes; every patch is a multiple of 8 bytes and the blob is 8-byte aligned.
 * Also the relocation helpers the linker uses to place programs.
 */
import { decode, encode, readField, type CompiledTable } from '@pyxis/codec';
import { DiagnosticError, error, type Diagnostic } from '@pyxis/diagnostics';
import type { Relocation } from '@pyxis/container';
import { iterField, wordStride, type Isa, type SequencerInfo } from './isa.js';
import { vpuSymbol, type EncodedProgram, type EncodedVpuProgram } from './program.js';

export interface MicroPatch {
  /** Byte address in the 32-bit MPE view (8-byte aligned). */
  target_address: number;
  /** Bytes per register element (1..65536). */
  reg_size: number;
  /** Number of elements (1..65536). */
  reg_repeat: number;
  /** reg_repeat elements, each padded to a multiple of 8 bytes. */
  data: Uint8Array;
}

const pad8 = (n: number) => Math.ceil(n / 8) * 8;

/** Serializes patches into one blob (throws DiagnosticError on malformed patches). */
export function encodePatchBlob(patches: MicroPatch[], isa: Isa): Uint8Array {
  const ht = isa.patchHeader;
  const diags: Diagnostic[] = [];
  let size = 0;
  patches.forEach((p, k) => {
    const need = p.reg_repeat * pad8(p.reg_size);
    if (p.target_address % 8 !== 0) diags.push(error('AS0601', `patch ${k}: target_address 0x${p.target_address.toString(16)} is not 8-byte aligned`, { spec: 'pyxis-chip-fspec.md §12.6.1.2' }));
    if (p.data.length !== need) diags.push(error('AS0602', `patch ${k}: data is ${p.data.length} bytes, reg_repeat * pad8(reg_size) = ${need}`, { spec: 'pyxis-chip-fspec.md §12.6.1.2' }));
    size += ht.bytes + pad8(p.data.length);
  });
  if (patches.length === 0) diags.push(error('AS0603', 'a patch blob needs at least one patch (num_patches is N-1 encoded)', { spec: 'pyxis-chip-fspec.md §12.6.1.1' }));
  if (diags.length) throw new DiagnosticError(diags);
  const blob = new Uint8Array(pad8(size));
  let off = 0;
  for (const p of patches) {
    try {
      encode(ht, { target_address: p.target_address, reg_size: p.reg_size, reg_repeat: p.reg_repeat }, blob, off);
    } catch (e) {
      throw new DiagnosticError(error('AS0604', `patch header out of range: ${(e as Error).message}`, { spec: 'pyxis-chip-fspec.md §12.6.1.2' }));
    }
    off += ht.bytes;
    blob.set(p.data, off);
    off += pad8(p.data.length);
  }
  return blob;
}

/** Parses a blob back into patches (for tools and tests). */
export function decodePatchBlob(blob: Uint8Array, isa: Isa, file = '<blob>'): MicroPatch[] {
  const ht = isa.patchHeader;
  const out: MicroPatch[] = [];
  let off = 0;
  while (off < blob.length) {
    if (off + ht.bytes > blob.length) throw new DiagnosticError(error('AS0605', 'truncated micro_patch_t header', { span: { file, offset: off } }));
    const h = decode(ht, blob, off);
    const reg_size = Number(h['reg_size']);
    const reg_repeat = Number(h['reg_repeat']);
    const n = reg_repeat * pad8(reg_size);
    if (off + ht.bytes + n > blob.length) throw new DiagnosticError(error('AS0606', `patch data runs past the end of the blob (${n} bytes)`, { span: { file, offset: off } }));
    out.push({ target_address: Number(h['target_address']), reg_size, reg_repeat, data: blob.slice(off + ht.bytes, off + ht.bytes + n) });
    off += ht.bytes + n;
  }
  return out;
}

/** Finds a control or op table by name (for relocation kinds `table.field`). */
function relocTable(isa: Isa, name: string): CompiledTable | undefined {
  for (const s of isa.sequencers.values()) {
    if (s.control.name === name) return s.control;
    if (s.op.name === name) return s.op;
  }
  return isa.vpu?.op.name === name ? isa.vpu.op : undefined;
}

/**
 * Applies one `<table>.<field>` relocation in place: field = addend + value
 * (value = the placed start PC of the relocation's symbol).
 */
export function applyRelocation(data: Uint8Array, r: Relocation, value: number, isa: Isa): void {
  const dot = r.kind.indexOf('.');
  const t = dot > 0 ? relocTable(isa, r.kind.slice(0, dot)) : undefined;
  const fname = r.kind.slice(dot + 1);
  const f = t?.byName.get(fname);
  if (!t || !f) throw new DiagnosticError(error('AS0607', `unknown relocation kind \`${r.kind}\``));
  const vals = decode(t, data, r.offset, { includeReserved: false });
  const v = r.addend + value;
  if (v < Number(f.min) || v > Number(f.max)) throw new DiagnosticError(error('AS0608', `relocation ${r.kind} for \`${r.symbol}\`: value ${v} does not fit ${f.width} bits`));
  vals[fname] = v;
  encode(t, vals as never, data, r.offset);
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
      for (const r of p.refs) applyRelocation(op, { section: 0, offset: r.pc * p.opStride, kind: `${p.seq.op.name}.${r.field}`, symbol: r.symbol, addend: 0 }, vpuAt.get(r.symbol) ?? 0, isa);
    }
    return programPatches({ ...p, op }, starts[k]!, isa);
  });
  vpuProgs.forEach((v, k) => {
    const mem = v.vpu.mem;
    if (!mem) throw new DiagnosticError(error('AS0609', 'memory_map.json gives no address for the VPU instruction memory (vpu.imem)'));
    patches.push({ target_address: mem.address + vpuStarts[k]! * (mem.stride ?? v.stride), reg_size: v.vpu.op.bytes, reg_repeat: v.count, data: v.words.subarray(0, v.count * v.stride) });
  });
  return { blob: encodePatchBlob(patches, isa), patches, starts, vpuStarts };
}
