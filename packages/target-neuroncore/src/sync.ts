/**
 * Automatic synchronisation (`.sync auto`, the default), as the Neuron compiler does it
 * ("If the synchronization is not explicitly specified, the Neuron Compiler will insert the
 * required synchronizations ... based on data dependencies", NeuronCore-v2 Compute Engines).
 *
 * The program's text order is its meaning. Every engine stream owns a semaphore
 * `auto.<stream>` counting its completed instructions (retired in order); an instruction that
 * reads what another stream wrote (RAW), or writes what another stream read or wrote
 * (WAR/WAW), waits until that stream's semaphore reaches the count of the conflicting
 * instruction. Accesses are compared as boxes (memory, partition range, byte range inside
 * the partition; HBM tensors as byte ranges), which is conservative for strided patterns.
 */
import type { AP, Insn } from './ir.js';
import { dtypeBytes } from './numerics.js';

interface Rec {
  stream: number;
  /** 1-based position of the instruction in its stream. */
  count: number;
  p0: number;
  p1: number;
  lo: number;
  hi: number;
  write: boolean;
  /** Global instruction index (to tell the same-stream predecessor). */
  index: number;
}

const MEMS = { hbm: 0, sbuf: 1, psum: 2 } as const;

/** The box an access pattern touches. HBM: partitions collapse into one byte range. */
export function apBox(ap: AP, hbmBase: number): { mem: number; p0: number; p1: number; lo: number; hi: number } {
  const eb = dtypeBytes(ap.dtype);
  let lo = 0;
  let hi = 0;
  for (const [size, stride] of ap.dims) {
    if (size <= 1) continue;
    const span = (size - 1) * stride;
    if (span < 0) lo += span;
    else hi += span;
  }
  if (ap.mem === 'hbm') {
    const pspan = (ap.np - 1) * ap.pstride;
    if (pspan < 0) lo += pspan;
    else hi += pspan;
    return { mem: 0, p0: 0, p1: 1, lo: hbmBase + ap.offset + lo * eb, hi: hbmBase + ap.offset + (hi + 1) * eb };
  }
  return { mem: MEMS[ap.mem], p0: ap.start, p1: ap.start + ap.np, lo: ap.offset + lo * eb, hi: ap.offset + (hi + 1) * eb };
}

/** One access of the instruction being added (reused buffers: no allocation per access). */
interface Box {
  tensor: number;
  p0: number;
  p1: number;
  lo: number;
  hi: number;
  write: boolean;
}

export class AutoSync {
  /**
   * Records per declared tensor (distinct tensors only meet through `aliases`), reads and
   * writes apart: a read only conflicts with writes, so it never scans the (long, read-only
   * stretches of) read records - that scan was quadratic in the reads between two writes.
   */
  private readonly reads: Rec[][];
  private readonly writes: Rec[][];
  private readonly counts: number[];
  /** Per consumer stream, per producer stream: the highest count already waited for. */
  private readonly waited: number[][];
  private lastIndex: number[];
  private readonly need: number[];
  private readonly boxes: Box[] = [];

  constructor(
    private readonly streams: number,
    private readonly autoBase: number,
    /** HBM tensor index -> a distinct base so different tensors never overlap. */
    private readonly hbmBase: (tensor: number) => number,
    /** Tensor index -> the tensors whose memory overlaps it (itself included). */
    private readonly aliases: number[][],
  ) {
    this.reads = aliases.map(() => []);
    this.writes = aliases.map(() => []);
    this.counts = new Array<number>(streams).fill(0);
    this.waited = Array.from({ length: streams }, () => new Array<number>(streams).fill(0));
    this.lastIndex = new Array<number>(streams).fill(-1);
    this.need = new Array<number>(streams).fill(0);
  }

  private box(k: number, ap: AP, write: boolean): void {
    const b = apBox(ap, ap.mem === 'hbm' ? this.hbmBase(ap.tensor) : 0);
    let x = this.boxes[k];
    if (!x) x = this.boxes[k] = { tensor: 0, p0: 0, p1: 0, lo: 0, hi: 0, write: false };
    x.tensor = ap.tensor;
    x.p0 = b.p0;
    x.p1 = b.p1;
    x.lo = b.lo;
    x.hi = b.hi;
    x.write = write;
  }

  /** Adds the waits `insn` needs and records its accesses. `index` = its global index. */
  add(insn: Insn, index: number, explicitOnly: boolean): void {
    const s = insn.stream;
    const need = this.need;
    need.fill(0);
    let nb = 0;
    for (const ap of insn.ins) this.box(nb++, ap, false);
    for (const k in insn.attrs) {
      const v = insn.attrs[k];
      if (v && typeof v === 'object' && !Array.isArray(v)) this.box(nb++, v, false);
    }
    // Accumulating matmuls read the PSUM bank they write (near-memory accumulation).
    if (insn.out) this.box(nb++, insn.out, true);
    const prevIndex = this.lastIndex[s]!;
    let depPrev = false;
    const scan = (list: Rec[], b: Box): void => {
      for (let i = 0; i < list.length; i++) {
        const r = list[i]!;
        if (r.p1 <= b.p0 || b.p1 <= r.p0 || r.hi <= b.lo || b.hi <= r.lo) continue;
        if (r.stream === s) {
          if (r.index === prevIndex && !b.write && r.write) depPrev = true;
          continue;
        }
        if (r.count > need[r.stream]!) need[r.stream] = r.count;
      }
    };
    for (let k = 0; k < nb; k++) {
      const b = this.boxes[k]!;
      for (const t of this.aliases[b.tensor]!) {
        scan(this.writes[t]!, b);
        if (b.write) scan(this.reads[t]!, b);
      }
    }
    if (!explicitOnly) {
      for (let p = 0; p < this.streams; p++) {
        const c = need[p]!;
        if (c > this.waited[s]![p]!) {
          insn.waits.push([this.autoBase + p, c]);
          this.waited[s]![p] = c;
        }
      }
    }
    if (depPrev) insn.depPrev = true;
    const count = ++this.counts[s]!;
    this.lastIndex[s] = index;
    for (let k = 0; k < nb; k++) {
      const b = this.boxes[k]!;
      const rec: Rec = { stream: s, count, p0: b.p0, p1: b.p1, lo: b.lo, hi: b.hi, write: b.write, index };
      if (!b.write) {
        // Reads prune nothing; a read by the same stream of the same box as the last read
        // supersedes it (a later completion count answers every question the old one did).
        const list = this.reads[b.tensor]!;
        const last = list[list.length - 1];
        if (last && last.stream === s && last.p0 === b.p0 && last.p1 === b.p1 && last.lo === b.lo && last.hi === b.hi) list[list.length - 1] = rec;
        else list.push(rec);
        continue;
      }
      // A newer write covering an older access supersedes it: whoever conflicts with the old
      // access conflicts with the write, which waited for the old one or follows it in order.
      // When the new access covers the old one's bytes on only some of its partitions, the old
      // record keeps the partitions outside (at most two pieces).
      prune(this.reads[b.tensor]!, b);
      prune(this.writes[b.tensor]!, b);
      this.writes[b.tensor]!.push(rec);
    }
  }
}

function prune(list: Rec[], b: Box): void {
  let w = 0;
  const n = list.length;
  for (let i = 0; i < n; i++) {
    const r = list[i]!;
    const supersedes = r.lo >= b.lo && r.hi <= b.hi && r.p0 < b.p1 && b.p0 < r.p1;
    if (!supersedes) {
      list[w++] = r;
      continue;
    }
    if (r.p0 < b.p0) list.push({ ...r, p1: b.p0 });
    if (r.p1 > b.p1) list.push({ ...r, p0: b.p1 });
  }
  list.copyWithin(w, n);
  list.length = w + (list.length - n);
}
