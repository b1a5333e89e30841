/**
 * The AMEM footprint of a UIE trip's `read` / `write` tensor computed from its AMEM Read / AMEM Write program
 * (seq §2.1.4 loop traversal; seq §5.2.1 / §6.1 direct address calculation): every Read_SRAM / Write / RMW_Add step
 * touches the partitions from `base + amem_addr_offset + sum(iter[i].cnt * iter_stride[i])` (16-byte units). LD0832
 * when that footprint leaves the slice the script names (a warning) or the tensor's storage (an error). Programs the
 * walker cannot analyse (indirection, relocated op words, loops past the step budget) give `undefined`: callers keep
 * the declared slice. The same walk counts the rows a program moves at the grid side, pad rows included, for the 3x3
 * size rules of seq §1.2-1.3 (`gridRows`, checks.ts).
 */
import { decode, enumName, loadTable, type DecodedValues } from '@pyxis/codec';
import { error, warning, type DiagnosticBag, type SourceSpan } from '@pyxis/diagnostics';
import type { TensorDef, TripDef } from './linkTypes.js';
import type { ProgramDef } from './microcode.js';
import { rowIntervals } from './tensors.js';
import { loadMemoryMap } from '../common/memoryMap.js';
import { viewAddress, type TensorView } from './slices.js';

const SEQ = 'pyxis-uie-sequencers-fspec.md';
const PARTITION = 16;
const ITERATORS = 6;
/** Walker step budget: larger programs are not analysed (keeps the link linear). */
const MAX_STEPS = 1 << 20;

type Iv = Array<[number, number]>;

const num = (c: DecodedValues, f: string): number => Number(c[f] ?? 0);

/**
 * Walks `prog` (a program of sequencer `seq`) through the loop traversal of seq §2.1.4 Figure 2-7 and calls `visit`
 * with every executed op word (not Nop), the iterator counts it executes with, and whether the sequencer's decoder
 * turns it into padding: a post-final instruction (§2.1.2: AMEM Read Read* -> Read_Const(0), AMEM Write Write /
 * RMW_Add -> Discard) or an AMEM Read padded row (§5.1 start_row_pad / end_row_pad). False when the program cannot be analysed (relocated op words, unknown
 * sequencer, past the step budget, or `visit` returned false).
 */
export function walkProgram(prog: ProgramDef, seq: string, visit: (op: DecodedValues, padded: boolean, count: readonly number[]) => boolean | void): boolean {
  if (prog.relocs.some((r) => r.mem === 'op')) return false;
  // the sequencer's control and op tables (grammars/pyxis/isa.json via the memory map)
  const s = loadMemoryMap().byName.get(seq);
  if (!s) return false;
  const ctab = loadTable('pyxis', s.ctrl.table);
  const otab = loadTable('pyxis', s.op.table);
  const n = prog.words;
  if (!n) return true;
  const cs = prog.ctrl.length / n;
  const os = prog.op.length / n;
  const ctrl: DecodedValues[] = [];
  const ops: DecodedValues[] = [];
  for (let k = 0; k < n; k++) {
    ctrl.push(decode(ctab, prog.ctrl, k * cs));
    ops.push(decode(otab, prog.op, k * os));
  }
  const g = (c: DecodedValues, i: number, f: string) => num(c, `iter${i}_${f}`);
  const count = new Array<number>(ITERATORS).fill(0);
  let pc = 0;
  for (let step = 0; step < MAX_STEPS; step++) {
    const c = ctrl[pc];
    const o = ops[pc];
    if (!c || !o) return false;
    // find_ending_loop_counts (seq §2.1.4 Figure 2-7), with the post-final flag of §2.1.2
    const eqEff: boolean[] = [];
    const eqIgn: boolean[] = [];
    eqEff[0] = eqIgn[0] = count[0] === g(c, 0, 'numloops') - 1;
    let postFinal = false;
    for (let i = 1; i < ITERATORS; i++) {
      const mask = g(c, i, 'final_iter_mask');
      let fo = mask !== 0;
      for (let k = 0; k < i; k++) if (mask & (1 << k) && !eqIgn[k]) fo = false;
      const nl = g(c, i, 'numloops');
      const nf = g(c, i, 'numloops_final');
      const pf = g(c, i, 'post_final_enbl') === 1;
      eqIgn[i] = count[i] === nl - 1 || (fo && count[i] === nf - 1);
      eqEff[i] = count[i] === nl - 1 || (fo && count[i] === nf - 1 && !pf);
      if (fo && pf && count[i]! > nf - 1) postFinal = true;
    }
    if (num(o, 'opcd') !== 0 && visit(o, postFinal || padRow(o, ctrl, pc, count), count) === false) return false;
    // eval_iterator (Figure 2-7), inner to outer
    let i = ITERATORS - 1;
    let done = false;
    for (;;) {
      const eol = g(c, i, 'is_eol') === 1;
      if (eol && !eqEff[i]) {
        count[i]!++;
        pc = g(c, i, 'sol_pc');
        break;
      }
      if (eol) count[i] = 0;
      if (i === 0) {
        pc++;
        done = num(c, 'eopgm') === 1;
        break;
      }
      i--;
    }
    if (done) return true;
  }
  return false;
}

/**
 * Partition-offset intervals (bytes, relative to the descriptor base) that `prog` accesses; `width` bytes per
 * access (the row width the tensor's layout gives, at most 8 partitions of 8-bit / 16 of 16-bit data, seq §5.2).
 * Only Read_SRAM / Read_SRAM_with_ReLU / Write / RMW_Add words the decoder does not turn into padding access AMEM.
 */
export function programFootprint(prog: ProgramDef, seq: string, width: (op: DecodedValues) => number): Iv | undefined {
  const raw: Iv = [];
  const ok = walkProgram(prog, seq, (o, padded, count) => {
    // opcd codepoints >= 2: Read_SRAM / Read_SRAM_with_ReLU, Write / RMW_Add (grammars/pyxis/amem_*_op.json)
    if (num(o, 'opcd') < 2 || padded) return;
    if (num(o, 'indir_vld') === 1) return false;
    const a = address(o, count);
    raw.push([a * PARTITION, a * PARTITION + width(o)]);
  });
  return ok ? merge(raw) : undefined;
}

/**
 * Grid-side row accesses of an AMEM Read / AMEM Write program: `data` accesses touch AMEM at `distinct` different
 * addresses; `pad` accesses are made in microcode.
 */
export interface GridRows {
  data: number;
  distinct: number;
  pad: number;
}

/** The switchbox FIFO field and the padding opcode of the two AMEM sequencers (grammars/pyxis/amem_*_op.json). */
const GRID_SIDE: Record<string, { fifo: string; pad: string }> = {
  amem_read: { fifo: 'tgt_fifo', pad: 'Read_Const' },
  amem_write: { fifo: 'src_fifo', pad: 'Discard' },
};

const rowCache = new WeakMap<ProgramDef, GridRows | null>();

/**
 * Row accesses an AMEM Read program sends to the Grid (`seq` = amem_read) or an AMEM Write program takes from it
 * (amem_write), split into AMEM data accesses and pad rows made in microcode (seq §1.2, §1.3): Read_Const / Discard
 * words, padded rows (§5.1 start_row_pad / end_row_pad) and post-final words (§2.1.2, §5.3, §6.3). Undefined when
 * the program cannot be walked (or reads through indirection: its addresses are data).
 */
export function gridRows(prog: ProgramDef, seq: 'amem_read' | 'amem_write'): GridRows | undefined {
  const hit = rowCache.get(prog);
  if (hit !== undefined) return hit ?? undefined;
  const side = GRID_SIDE[seq]!;
  const otab = loadTable('pyxis', loadMemoryMap().byName.get(seq)!.op.table);
  const r: GridRows = { data: 0, distinct: 0, pad: 0 };
  const seen = new Set<number>();
  const ok = walkProgram(prog, seq, (o, padded, count) => {
    if (enumName(otab, side.fifo, o[side.fifo]!) !== 'Grid') return;
    if (padded || enumName(otab, 'opcd', o['opcd']!) === side.pad) return void r.pad++;
    if (num(o, 'indir_vld') === 1) return false;
    r.data++;
    seen.add(address(o, count));
  });
  r.distinct = seen.size;
  rowCache.set(prog, ok ? r : null);
  return ok ? r : undefined;
}

/** The partition address of a direct access (seq §5.2.1, §6.1), relative to the descriptor base. */
function address(o: DecodedValues, count: readonly number[]): number {
  const strides = o['iter_stride'] as number[];
  let a = num(o, 'amem_addr_offset');
  for (let i = 0; i < ITERATORS; i++) a += (count[i]! & 0xfff) * (strides[i] ?? 0);
  return a;
}

/**
 * A padded row of the AMEM Read sequencer (seq §5.1 start_row_pad / end_row_pad): all zeros like Read_Const, no
 * AMEM access, when every iterator of pad_row_iter_mask is zero (start) or at its ending value (end).
 */
function padRow(o: DecodedValues, ctrl: DecodedValues[], pc: number, count: number[]): boolean {
  const mask = num(o, 'pad_row_iter_mask');
  if (!mask) return false;
  let zero = true;
  let end = true;
  for (let i = 0; i < ITERATORS; i++) {
    if (!(mask & (1 << i))) continue;
    if (count[i] !== 0) zero = false;
    // the iterator's loop count: from the word that ends its loop (is_eol) at or after this PC
    let e = pc;
    while (e < ctrl.length - 1 && num(ctrl[e]!, `iter${i}_is_eol`) !== 1) e++;
    if (count[i] !== num(ctrl[e]!, `iter${i}_numloops`) - 1) end = false;
  }
  return (num(o, 'start_row_pad') === 1 && zero) || (num(o, 'end_row_pad') === 1 && end);
}

function merge(iv: Iv): Iv {
  iv.sort((a, b) => a[0] - b[0]);
  const out: Iv = [];
  for (const [s, e] of iv) {
    const last = out[out.length - 1];
    if (last && s <= last[1]) last[1] = Math.max(last[1], e);
    else out.push([s, e]);
  }
  return out;
}

/** Parts of `a` not covered by `b` (both sorted, merged). */
function outside(a: Iv, b: Iv): Iv {
  const out: Iv = [];
  for (const [s0, e] of a) {
    let s = s0;
    for (const [bs, be] of b) {
      if (be <= s || bs >= e) continue;
      if (bs > s) out.push([s, bs]);
      s = Math.max(s, be);
      if (s >= e) break;
    }
    if (s < e) out.push([s, e]);
  }
  return out;
}

const cache = new WeakMap<ProgramDef, Map<number, Iv | undefined>>();

const KEYS = [
  ['read', 'amem_read', '§5.2.1'],
  ['write', 'amem_write', '§6.1'],
] as const;

/**
 * Absolute footprints of a UIE trip's `read` / `write` tensors, by key, where the program can be analysed;
 * reports LD0832 for footprints that leave the slice or the tensor.
 */
export function tripFootprints(t: TripDef, bag: DiagnosticBag): Map<string, Iv> {
  const out = new Map<string, Iv>();
  if (t.queue.kind !== 'uie') return out;
  for (const [key, seq, sec] of KEYS) {
    const x = t.tensors.get(key);
    const p = t.programs.get(seq)?.prog;
    if (!x || !p || x.t.placed.region.space !== 'amem') continue;
    const layout = x.view?.layout ?? x.t.layout;
    const rowLen = Math.ceil(layout.rowBytes / PARTITION) * PARTITION;
    // one access: num_logical_ptns logical partitions of 16 columns (16 or 32 bytes each, seq §5.2), at most the row
    // trips that share a program and a row length share the (base-relative) footprint: walk it once
    let byRow = cache.get(p);
    if (!byRow) cache.set(p, (byRow = new Map()));
    let fp = byRow.get(rowLen);
    if (!byRow.has(rowLen)) {
      fp = programFootprint(p, seq, (o) => Math.min(rowLen, (num(o, 'num_logical_ptns') || 8) * (num(o, 'data_type') >= 4 ? 32 : 16)));
      byRow.set(rowLen, fp);
    }
    if (!fp || !fp.length) continue;
    const base = viewAddress(x);
    const abs = fp.map(([a, b]) => [base + a, base + b] as [number, number]);
    out.set(key, abs);
    report(t, key, x, abs, `${SEQ} ${sec}, §2.1.4`, bag);
  }
  return out;
}

function report(t: TripDef, key: string, x: { t: TensorDef; span: SourceSpan; view?: TensorView }, abs: Iv, spec: string, bag: DiagnosticBag): void {
  const tbase = x.t.placed.address;
  const storage: Iv = rowIntervals(x.t.layout).map(([a, b]) => [tbase + a, tbase + b]);
  const declared: Iv = x.view ? rowIntervals(x.view.layout).map(([a, b]) => [viewAddress(x) + a, viewAddress(x) + b]) : storage;
  const hex = (iv: Iv) => iv.slice(0, 4).map(([a, b]) => `0x${a.toString(16)}..0x${b.toString(16)}`).join(', ') + (iv.length > 4 ? `, ... (${iv.length} ranges)` : '');
  const beyond = outside(abs, storage);
  const what = x.view ? `the slice of \`${x.t.name}\`` : `\`${x.t.name}\``;
  const verb = key === 'write' ? 'writes' : 'reads';
  if (beyond.length) {
    bag.add(error('LD0832', `trip \`${t.name}\`: its ${key === 'write' ? 'AMEM Write' : 'AMEM Read'} program ${verb} bytes ${hex(beyond)} outside the storage of \`${x.t.name}\` (0x${tbase.toString(16)}..0x${(tbase + x.t.layout.size).toString(16)})`, {
      span: x.span, spec, notes: ['help: fix the program\'s loop counts / iter_stride / amem_addr_offset, or declare a larger tensor'],
    }));
    return;
  }
  const off = outside(abs, declared);
  if (off.length)
    bag.add(warning('LD0832', `trip \`${t.name}\`: its ${key === 'write' ? 'AMEM Write' : 'AMEM Read'} program ${verb} bytes ${hex(off)} outside ${what} (${hex(declared)})`, {
      span: x.span, spec, notes: ['help: widen the slice to what the program touches, or shorten the program\'s loops'],
    }));
}
