/**
 * Microcode: programs loaded from objects, sequencer-memory placement with overlay
 * phases (chip §11.1, §12.6), VPU program placement (seq §12), relocation, micro patches.
 */
import { error, type DiagnosticBag, type SourceSpan } from '@pyxis/diagnostics';
import { loadTable } from '@pyxis/codec';
import { alignUp } from '@pyxis/container';
import { encodePatchBlob } from '../common/patchBlob.js';
import { applyFieldRelocation } from '../common/relocation.js';
import type { MemoryMap, SeqMemory } from './image.js';
import type { TripDef } from './linkTypes.js';
import type { LinkInputObject } from './context.js';

export interface ProgramDef {
  name: string;
  seq: string;
  file: string;
  ctrl: Uint8Array;
  op: Uint8Array;
  words: number;
  /**
   * Relocations on the program's control (`ctrl`) or op (`op`) words, kind
   * `<table>.<field>` (packages/asm/src/object.ts): field = addend + the placed
   * address of `symbol` (the program's own start PC for `sol_pc`, the VPU
   * instruction-memory address for `vi_op.vpv_pgm_start_addr`).
   */
  relocs: ProgramReloc[];
  /** Fixed placement requested by the assembler (`.program p seq at N`, metadata start_pc). */
  fixedPc?: number;
}

export interface ProgramReloc {
  mem: 'ctrl' | 'op';
  word: number;
  kind: string;
  symbol: string;
  addend: number;
}

/** A VPU program (`vpu.<name>.imem` section, `label` symbol `vpu.<name>`). */
export interface VpuProgramDef {
  /** Symbol name (`vpu.<name>`), the name relocations use. */
  name: string;
  file: string;
  words: number;
  /** `words` instruction words of the memory-map stride. */
  data: Uint8Array;
  /** `.vpu p at N` (metadata start_addr). */
  fixedAddr?: number;
}

/** One relocation applied to placed microcode (reported in the map). */
export interface AppliedRelocation {
  cluster: number;
  uie: number;
  phase: number;
  seq: string;
  program: string;
  mem: 'ctrl' | 'op';
  /** Sequencer PC of the patched word. */
  pc: number;
  kind: string;
  symbol: string;
  value: number;
}

export interface MicrocodePlacement {
  cluster: number;
  uie: number;
  seq: string;
  program: string;
  pc: number;
  words: number;
  /** 0 = preloaded; k > 0 = loaded by overlay patch k. */
  phase: number;
}

export { countPatches } from '../common/patchBlob.js';

/** One micro_patch_t writing `data` (whole words of `stride` bytes) at engine address `target` (common/patchBlob.ts). */
export function microPatch(target: number, stride: number, data: Uint8Array): Uint8Array {
  const repeat = data.length / stride;
  const padded = alignUp(stride, 8);
  const elems = new Uint8Array(repeat * padded);
  for (let i = 0; i < repeat; i++) elems.set(data.subarray(i * stride, (i + 1) * stride), i * padded);
  return encodePatchBlob([{ target_address: target, reg_size: stride, reg_repeat: repeat, data: elems }]);
}

/**
 * Reads programs from a .pobj: sections `<seq>.<program>.ctrl|op` (spaces
 * `uie.<seq>.ctrl|op`) with `program` symbols and their relocations, and VPU
 * programs (`vpu.<name>.imem`, space `vpu.imem`, `label` symbols).
 */
export function loadPrograms(o: LinkInputObject, programs: Map<string, ProgramDef>, vpuPrograms: Map<string, VpuProgramDef>, memoryMap: () => MemoryMap, bag: DiagnosticBag): void {
  const c = o.container;
  const at = { span: { file: o.file, offset: 0 } };
  if (c.target !== 'pyxis') {
    bag.add(error('LD0211', `${o.file}: object is for target \`${c.target}\`, not pyxis`, at));
    return;
  }
  const vpuMeta = Array.isArray(c.metadata?.['vpu_programs']) ? (c.metadata['vpu_programs'] as Array<Record<string, unknown>>) : [];
  for (const s of c.symbols) {
    const sec = c.sections[s.section];
    if (!sec || !/^vpu\..+\.imem$/.test(sec.name) || (s.kind !== 'label' && s.kind !== 'program')) continue;
    const imem = memoryMap().regions.get('vpu.imem');
    if (!imem) {
      bag.add(error('LD0213', `${o.file}: VPU program \`${s.name}\` but grammars/pyxis/memory_map.json has no \`vpu.imem\` region`, at));
      continue;
    }
    if (sec.kind === 'zero' || sec.data.length !== sec.size) {
      bag.add(error('LD0214', `${o.file}: VPU program \`${s.name}\`: section \`${sec.name}\` is a zero-filled section with no instruction words stored`, at));
      continue;
    }
    const words = s.size;
    const objStride = words > 0 ? Math.floor((sec.size - s.offset) / words) : 0;
    const t = imem.table ? loadTable('pyxis', imem.table) : undefined;
    if (words <= 0 || objStride < (t?.bytes ?? 1) || objStride > imem.stride) {
      bag.add(error('LD0214', `${o.file}: VPU program \`${s.name}\`: section \`${sec.name}\` (${sec.size} bytes) does not hold ${words} VPU instruction words`, at));
      continue;
    }
    if (vpuPrograms.has(s.name)) {
      bag.add(error('LD0215', `VPU program \`${s.name}\` is defined in ${vpuPrograms.get(s.name)!.file} and ${o.file}`, at));
      continue;
    }
    const data = new Uint8Array(words * imem.stride);
    for (let k = 0; k < words; k++) data.set(sec.data.subarray(s.offset + k * objStride, s.offset + (k + 1) * objStride), k * imem.stride);
    const fixed = vpuMeta.find((m) => m['symbol'] === s.name)?.['start_addr'];
    vpuPrograms.set(s.name, { name: s.name, file: o.file, words, data, ...(typeof fixed === 'number' ? { fixedAddr: fixed } : {}) });
  }
  for (const s of c.symbols) {
    if (s.kind !== 'program') continue;
    const sec = c.sections[s.section];
    if (sec && /^vpu\..+\.imem$/.test(sec.name)) continue;
    const m = sec ? /^uie\.([a-z0-9_]+)\.ctrl$/.exec(sec.space) : null;
    if (!sec || !m) {
      bag.add(error('LD0212', `${o.file}: program \`${s.name}\` is not in a sequencer control section (space uie.<seq>.ctrl)`, at));
      continue;
    }
    const seq = m[1]!;
    const sm = memoryMap().byName.get(seq);
    if (!sm) {
      bag.add(error('LD0213', `${o.file}: program \`${s.name}\` is for unknown sequencer \`${seq}\``, at));
      continue;
    }
    const opName = sec.name.replace(/\.ctrl$/, '.op');
    const opIndex = c.sections.findIndex((x) => x.name === opName && x.space === `uie.${seq}.op`);
    const opSec = c.sections[opIndex];
    const stored = [sec, opSec].find((x) => x && (x.kind === 'zero' || x.data.length !== x.size));
    if (stored) {
      bag.add(error('LD0214', `${o.file}: program \`${s.name}\`: section \`${stored.name}\` is a zero-filled section with no instruction words stored`, at));
      continue;
    }
    const cstride = sm.ctrl.stride;
    const ostride = sm.op.stride;
    const start = Math.floor(s.offset / cstride);
    // The assembler records the instruction count as the symbol size (packages/asm/src/object.ts).
    const words = s.size > 0 ? s.size : Math.floor(sec.size / cstride) - start;
    if (!opSec || sec.size % cstride || opSec.size % ostride || words <= 0 || (start + words) * ostride > opSec.size) {
      bag.add(error('LD0214', `${o.file}: program \`${s.name}\`: control/op sections do not hold ${words} whole ${seq} words (strides ${cstride}/${ostride} bytes)`, at));
      continue;
    }
    if (programs.has(s.name)) {
      bag.add(error('LD0215', `program \`${s.name}\` is defined in ${programs.get(s.name)!.file} and ${o.file}`, at));
      continue;
    }
    const relocs: ProgramReloc[] = [];
    for (const r of c.relocations) {
      const mem = r.section === s.section ? 'ctrl' : r.section === opIndex ? 'op' : undefined;
      if (!mem) continue;
      const word = Math.floor(r.offset / (mem === 'ctrl' ? cstride : ostride)) - start;
      if (word < 0 || word >= words) continue;
      relocs.push({ mem, word, kind: r.kind, symbol: r.symbol, addend: r.addend });
    }
    const metaProgs = Array.isArray(c.metadata?.['programs']) ? (c.metadata['programs'] as Array<Record<string, unknown>>) : [];
    const fixed = metaProgs.find((m) => m['symbol'] === s.name)?.['start_pc'];
    programs.set(s.name, {
      name: s.name, seq, file: o.file, words, relocs,
      ...(typeof fixed === 'number' ? { fixedPc: fixed } : {}),
      ctrl: sec.data.subarray(start * cstride, (start + words) * cstride),
      op: opSec.data.subarray(start * ostride, (start + words) * ostride),
    });
  }
}

/**
 * Places the VPU programs referenced by the op relocations of one UIE's
 * programs in its VPU instruction memory (`vpu.imem` of memory_map.json, 1K
 * words, seq §12): `.vpu p at N` kept, the others first-fit in order of first
 * use. No overlays: everything must fit at once (LD0602 names the trip).
 */
export function placeVpu(list: TripDef[], vpuPrograms: Map<string, VpuProgramDef>, capacity: number, fail: (code: string, msg: string, span: SourceSpan) => void): Map<string, number> {
  const used: Array<{ start: number; end: number; name: string }> = [];
  const at = new Map<string, number>();
  const wanted: Array<{ v: VpuProgramDef; t: TripDef; span: SourceSpan }> = [];
  for (const t of list)
    for (const { prog, span } of t.programs.values())
      for (const r of prog.relocs) {
        if (r.symbol === prog.name || wanted.some((w) => w.v.name === r.symbol)) continue;
        const v = vpuPrograms.get(r.symbol);
        if (v) wanted.push({ v, t, span });
      }
  const fits = (s: number, n: number) => s + n <= capacity && !used.some((u) => s < u.end && u.start < s + n);
  const claim = (w: (typeof wanted)[number], s: number) => {
    used.push({ start: s, end: s + w.v.words, name: w.v.name });
    at.set(w.v.name, s);
  };
  const report = (w: (typeof wanted)[number], why: string) =>
    fail('LD0602', `trip \`${w.t.name}\`: VPU program \`${w.v.name}\` (${w.v.words} words, from ${w.v.file}) ${why}; the VPU instruction memory of ${w.t.queue.name} (cluster ${w.t.cluster}) holds ${capacity} words${used.length ? ` and already holds ${used.map((u) => `${u.name} [${u.start}, ${u.end})`).join(', ')}` : ''}`, w.span);
  for (const w of wanted) if (w.v.fixedAddr !== undefined) {
    if (fits(w.v.fixedAddr, w.v.words)) claim(w, w.v.fixedAddr);
    else report(w, `at ${w.v.fixedAddr} overlaps another program or runs past the end`);
  }
  for (const w of wanted) if (w.v.fixedAddr === undefined) {
    used.sort((a, b) => a.start - b.start);
    let s = 0;
    for (const u of used) if (s + w.v.words > u.start && u.end > s) s = u.end;
    if (fits(s, w.v.words)) claim(w, s);
    else report(w, 'does not fit');
  }
  return at;
}

/**
 * A program's control and op words with every relocation applied for this
 * placement (common/relocation.ts: field = addend + address of the
 * symbol). `addressOf` gives the placed address of a symbol (undefined: not
 * placed for this UIE); `done` reports each applied relocation or its error.
 */
export function relocate(
  p: ProgramDef,
  pc: number,
  sm: SeqMemory,
  addressOf: (symbol: string) => number | undefined,
  done: (r: ProgramReloc, value: number | undefined, error?: string) => void,
): { ctrl: Uint8Array; op: Uint8Array } {
  const ctrl = new Uint8Array(p.ctrl);
  const op = new Uint8Array(p.op);
  for (const r of p.relocs) {
    const value = addressOf(r.symbol);
    if (value === undefined) {
      done(r, undefined, `\`${r.symbol}\` is neither this program nor a placed VPU program`);
      continue;
    }
    const stride = r.mem === 'ctrl' ? sm.ctrl.stride : sm.op.stride;
    const problem = applyFieldRelocation(r.mem === 'ctrl' ? ctrl : op, r.word * stride, r.kind, r.symbol, r.addend, value);
    if (problem === undefined) done(r, r.addend + value);
    else done(r, value, problem);
  }
  return { ctrl, op };
}

export interface McPhase {
  index: number;
  bySeq: Map<string, Array<{ prog: ProgramDef; pc: number }>>;
  first: TripDef;
  /** Last earlier trip of this UIE whose microcode words the phase's patch overwrites (undefined: none). */
  prevLast?: TripDef;
}

/**
 * Places the programs of one UIE's trips. All distinct programs of each
 * sequencer are preloaded when they fit in its 32 words; otherwise the trip
 * sequence is cut into phases whose programs fit, phase k > 0 being loaded by
 * an MPE patch trip before the first trip of phase k (chip §11.1, §12.6). A
 * new phase first avoids the words of the trip just before it, so the patch
 * only has to wait for the last earlier trip whose words it overwrites and can
 * run while that trip executes (UIE trips complete in queue order).
 */
export function planMicrocode(list: TripDef[], mm: MemoryMap): { phases: McPhase[]; startPc: Map<TripDef, Map<string, number>> } | string {
  const cap = (seq: string) => mm.byName.get(seq)!.ctrl.words;
  const phases: McPhase[] = [];
  const startPc = new Map<TripDef, Map<string, number>>();
  let cur: McPhase | undefined;
  let occ = new Map<string, Uint8Array>(); // per sequencer: 0 free, 1 used in this phase, 2 reserved (in use by the previous trip)
  let prevTrip: TripDef | undefined;
  const occOf = (seq: string) => {
    let o = occ.get(seq);
    if (!o) occ.set(seq, (o = new Uint8Array(cap(seq))));
    return o;
  };
  const free = (o: Uint8Array, at: number, n: number) => {
    if (at < 0 || at + n > o.length) return false;
    for (let k = at; k < at + n; k++) if (o[k]) return false;
    return true;
  };
  /** Tentative PCs for the trip's programs not yet in the phase, or undefined if they do not fit. */
  const tryPlace = (t: TripDef): Map<string, number> | undefined => {
    const out = new Map<string, number>();
    for (const [seq, { prog }] of t.programs) {
      if (cur?.bySeq.get(seq)?.some((x) => x.prog === prog)) continue;
      const o = occOf(seq);
      let pc = -1;
      if (prog.fixedPc !== undefined) pc = free(o, prog.fixedPc, prog.words) ? prog.fixedPc : -1;
      else for (let a = 0; a + prog.words <= o.length && pc < 0; a++) if (free(o, a, prog.words)) pc = a;
      if (pc < 0) return undefined;
      out.set(seq, pc);
    }
    return out;
  };
  const unreserve = () => {
    for (const o of occ.values()) for (let k = 0; k < o.length; k++) if (o[k] === 2) o[k] = 0;
  };
  for (const t of list) {
    for (const [seq, { prog }] of t.programs) {
      if (prog.words > cap(seq)) return `program \`${prog.name}\` has ${prog.words} words; the ${seq} sequencer memory holds ${cap(seq)} even with overlays`;
      if (prog.fixedPc !== undefined && prog.fixedPc + prog.words > cap(seq)) return `program \`${prog.name}\` is fixed at PC ${prog.fixedPc} but has ${prog.words} words; the ${seq} sequencer memory holds ${cap(seq)}`;
    }
    let pcs = cur ? tryPlace(t) : undefined;
    if (cur && !pcs) {
      unreserve();
      pcs = tryPlace(t);
    }
    if (!cur || !pcs) {
      cur = { index: phases.length, bySeq: new Map(), first: t };
      phases.push(cur);
      occ = new Map();
      if (prevTrip)
        for (const [seq, { prog }] of prevTrip.programs) {
          const pc = startPc.get(prevTrip)!.get(seq)!;
          occOf(seq).fill(2, pc, pc + prog.words);
        }
      pcs = tryPlace(t);
      if (!pcs) {
        unreserve();
        pcs = tryPlace(t);
      }
      if (!pcs) return `the programs of trip \`${t.name}\` do not fit the sequencer memories even alone`;
    }
    for (const [seq, pc] of pcs) {
      const { prog } = t.programs.get(seq)!;
      let arr = cur.bySeq.get(seq);
      if (!arr) cur.bySeq.set(seq, (arr = []));
      arr.push({ prog, pc });
      occOf(seq).fill(1, pc, pc + prog.words);
    }
    const m = new Map<string, number>();
    for (const [seq, { prog }] of t.programs) m.set(seq, cur.bySeq.get(seq)!.find((x) => x.prog === prog)!.pc);
    startPc.set(t, m);
    prevTrip = t;
  }
  // The trip each patch must wait for: the last earlier trip using any word the patch writes.
  const pos = new Map(list.map((t, k) => [t, k]));
  for (const ph of phases) {
    if (ph.index === 0) continue;
    const writes = new Map<string, Uint8Array>();
    for (const [seq, arr] of ph.bySeq) {
      const w = new Uint8Array(cap(seq));
      for (const { prog, pc } of arr) w.fill(1, pc, pc + prog.words);
      writes.set(seq, w);
    }
    for (let k = pos.get(ph.first)! - 1; k >= 0 && !ph.prevLast; k--) {
      const t = list[k]!;
      for (const [seq, { prog }] of t.programs) {
        const w = writes.get(seq);
        const pc = startPc.get(t)!.get(seq)!;
        if (w && w.subarray(pc, pc + prog.words).some((x) => x === 1)) ph.prevLast = t;
      }
    }
  }
  return { phases, startPc };
}
