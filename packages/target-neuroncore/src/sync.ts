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

export class AutoSync {
  private readonly recs: Rec[][] = [[], [], []];
  private readonly counts: number[];
  /** Per consumer stream, per producer stream: the highest count already waited for. */
  private readonly waited: number[][];
  private lastIndex: number[];

  constructor(
    private readonly streams: number,
    private readonly autoBase: number,
    /** HBM tensor index -> a distinct base so different tensors never overlap. */
    private readonly hbmBase: (tensor: number) => number,
  ) {
    this.counts = new Array<number>(streams).fill(0);
    this.waited = Array.from({ length: streams }, () => new Array<number>(streams).fill(0));
    this.lastIndex = new Array<number>(streams).fill(-1);
  }

  /** Adds the waits `insn` needs and records its accesses. `index` = its global index. */
  add(insn: Insn, index: number, explicitOnly: boolean): void {
    const s = insn.stream;
    const need = new Array<number>(this.streams).fill(0);
    const accesses: Array<{ ap: AP; write: boolean }> = [];
    for (const ap of insn.ins) accesses.push({ ap, write: false });
    for (const v of Object.values(insn.attrs)) if (v && typeof v === 'object' && !Array.isArray(v)) accesses.push({ ap: v, write: false });
    // Accumulating matmuls read the PSUM bank they write (near-memory accumulation).
    if (insn.out) accesses.push({ ap: insn.out, write: true });
    const prevIndex = this.lastIndex[s]!;
    let depPrev = false;
    const boxes = accesses.map((a) => ({ ...apBox(a.ap, a.ap.mem === 'hbm' ? this.hbmBase(a.ap.tensor) : 0), write: a.write }));
    for (const b of boxes) {
      const list = this.recs[b.mem]!;
      for (let i = 0; i < list.length; i++) {
        const r = list[i]!;
        if (!b.write && !r.write) continue;
        if (r.p1 <= b.p0 || b.p1 <= r.p0 || r.hi <= b.lo || b.hi <= r.lo) continue;
        if (r.stream === s) {
          if (r.index === prevIndex && !b.write && r.write) depPrev = true;
          continue;
        }
        if (r.count > need[r.stream]!) need[r.stream] = r.count;
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
    for (const b of boxes) {
      const list = this.recs[b.mem]!;
      // A newer access covering an older one supersedes it: a write supersedes anything (whoever
      // conflicts with the old access conflicts with the write, which waited for the old one or
      // follows it in order); a read supersedes older reads of its own stream (higher count).
      let w = 0;
      for (let i = 0; i < list.length; i++) {
        const r = list[i]!;
        const covered = r.p0 >= b.p0 && r.p1 <= b.p1 && r.lo >= b.lo && r.hi <= b.hi && (b.write || (!r.write && r.stream === s));
        if (!covered) list[w++] = r;
      }
      list.length = w;
      list.push({ stream: s, count, p0: b.p0, p1: b.p1, lo: b.lo, hi: b.hi, write: b.write, index });
    }
  }
}
