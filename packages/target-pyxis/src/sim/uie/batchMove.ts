/**
 * The AMEM side of a steady-state batch (uie/steadyBatch.ts `runBatch`; docs/uie-model.md "Performance"): the
 * physical addresses of the next K AMEM Read / Write whole-word accesses, computed in runs, and the K cycles of data
 * movement AMEM -> switchbox -> AMEM. Same effects as K `tick`s (AMEM bytes and statistics, switchbox entries of the
 * last cycles, the write-commit ring, decoder FIFO and core state are the caller's); checked against `tick` by
 * uie-fastpath.test.ts and uie-batchmove.test.ts.
 */
import * as amemGeometry from '../../common/amem.js';
import { SCHED_MAX } from '../amem/banks.js';
import * as addressGen from './addressGen.js';
import * as records from './records.js';
import { NUM_ITERS } from './sequencerCore.js';
import * as switchbox from './switchbox.js';
import type { Fifo } from '@pyxis/sim';
import type { Amem } from '../amem/amem.js';
import type { BankSchedules } from '../amem/schedules.js';
import type { SeqState } from './records.js';
import type { Uie } from './uie.js';

// Hot-path bindings as module-local constants (V8 checks every read of an imported binding for TDZ; see steadyBatch.ts).
const { AMEM_BLOCK_BYTES, AMEM_BYTES, AMEM_VIEW_BIT, AMEM_WORD_BYTES, amemPhysical } = amemGeometry;
const { stridedAddr } = addressGen;
const { A_NZ, A_STRIDE, AUX_WORDS, PTN_MASK, R_ADDR, REC_WORDS } = records;
const { SB_META } = switchbox;

/** Longest batch `moveBatch` takes (cycles): the bank schedules' length. */
export const MOVE_MAX = SCHED_MAX;

/** Batches moved directly / through the switchbox (diagnostics for tests and benchmarks; not a statistic of the model). */
export const moveCounts = { direct: 0, staged: 0 };

/**
 * Physical byte addresses (chip §7.5 hash of the view applied) of the next `k` whole-word accesses of sequencer `s`
 * (AMEM Read or Write in a repeatable strided loop, `SequencerCore.repeatable`) into dst[off + step * j]: its decoder
 * FIFO's queued records, then the odometer's addresses (`stridedAddr` of `cnt`, a copy of the core's counts that is
 * left advanced past the last of them, as `advance` would; dst undefined: only that). Runs: while the innermost end-of-loop iterator (the one
 * `advance` steps) does not carry, the address moves by its stride (0: one address for the whole run); a run stops
 * where that count's 12 address bits (`stridedAddr`: count & 0xfff) wrap. With `segs`: the starts of segments of
 * equal addresses that cover [0, k) (each queued record, each stride-0 run, each access of another run; neighbours
 * may be equal: `mergeRuns`) into segs[0..n), n returned (else 0). With `snaps`: the odometer at the start of each
 * run (`odometerAt`). Changes no state but `cnt` (and `segs`, `snaps`).
 */
export function fillAddrs(s: SeqState, dec: Fifo, cnt: Int32Array, k: number, dst: Int32Array | undefined, off: number, step: number, segs?: Int32Array, snaps?: OdometerSnaps): number {
  const core = s.core;
  const x = s.aux!;
  const pc = core.pc;
  const b = pc * AUX_WORDS;
  const view = s.view ? AMEM_VIEW_BIT : 0;
  cnt.set(core.count);
  const dn = dec.occupancy;
  const data = dec.data;
  let at = dec.peekSlot();
  let j = 0;
  let ns = 0;
  if (dst === undefined) j = dn < k ? dn : k;
  else
    for (; j < dn && j < k; j++) {
      dst[off + step * j] = amemPhysical(((data[at + R_ADDR]! & PTN_MASK) << 4) | view);
      if (segs !== undefined) segs[ns++] = j;
      at += REC_WORDS;
      if (at >= data.length) at = 0;
    }
  const inner = 31 - Math.clz32(core.eolMask[pc]!);
  const n = core.store.numloops[pc * NUM_ITERS + inner]!;
  const stride = ((x[b + A_NZ]! >> inner) & 1) === 0 ? 0 : x[b + A_STRIDE + inner]!;
  if (snaps !== undefined) snaps.n = 0;
  while (j < k) {
    if (snaps !== undefined) {
      if (snaps.n === snaps.at.length) snaps.grow();
      const i = snaps.n++;
      snaps.at[i] = j;
      const sc = snaps.cnt;
      const o = i * NUM_ITERS;
      for (let q = 0; q < NUM_ITERS; q++) sc[o + q] = cnt[q]!;
    }
    const a = stridedAddr(s.base, x, b, cnt);
    const c0 = cnt[inner]!;
    let run = n - c0;
    if (stride !== 0 && run > 4096 - (c0 & 0xfff)) run = 4096 - (c0 & 0xfff);
    if (run > k - j) run = k - j;
    if (dst === undefined) {
      // odometer only (the addresses are known)
    } else if (stride === 0) {
      const p = amemPhysical(((a & PTN_MASK) << 4) | view);
      if (step === 1) for (let t = off + j, e = t + run; t < e; t++) dst[t] = p;
      else for (let t = 0; t < run; t++) dst[off + step * (j + t)] = p;
      if (segs !== undefined) segs[ns++] = j;
    } else
      for (let t = 0; t < run; t++) {
        dst[off + step * (j + t)] = amemPhysical((((a + t * stride) & PTN_MASK) << 4) | view);
        if (segs !== undefined) segs[ns++] = j + t;
      }
    j += run;
    // run - 1 plain increments of the innermost count, then one `advance` (which may carry)
    cnt[inner] = c0 + run - 1;
    core.advance(cnt);
  }
  return ns;
}

/** The odometer (a core's counts) at the start of each run of `fillAddrs`: run i starts at step at[i]. */
export class OdometerSnaps {
  at = new Int32Array(64);
  cnt = new Int32Array(64 * NUM_ITERS);
  n = 0;
  /** Room for one more run (doubles; a busy copy has a run per repeated row: dozens per window, not thousands). */
  grow(): void {
    const at = new Int32Array(this.at.length * 2);
    const cnt = new Int32Array(this.cnt.length * 2);
    at.set(this.at);
    cnt.set(this.cnt);
    this.at = at;
    this.cnt = cnt;
  }
}

/**
 * The counts `fillAddrs(s, dec, cnt, k, ..)` leaves in `cnt` (the odometer after k steps), from the run starts a
 * longer `fillAddrs` of the same state recorded in `snaps`: the core's own counts while the queued records last,
 * else those of the run holding step k with its innermost count advanced by the plain increments of the run before
 * k (a run never carries before its last step). k must be below that fillAddrs' length.
 */
function odometerAt(s: SeqState, dec: Fifo, cnt: Int32Array, k: number, snaps: OdometerSnaps): void {
  const core = s.core;
  if (k <= dec.occupancy || snaps.n === 0) {
    cnt.set(core.count);
    return;
  }
  let i = snaps.n - 1;
  while (snaps.at[i]! > k) i--;
  for (let q = 0; q < NUM_ITERS; q++) cnt[q] = snaps.cnt[i * NUM_ITERS + q]!;
  cnt[31 - Math.clz32(core.eolMask[core.pc]!)]! += k - snaps.at[i]!;
}

/**
 * `runs(a, k, out)` from the segment starts `fillAddrs` gave (segs[0..n): a cover of [0, k) by segments of equal
 * values, in order): a segment start is a run start iff its value differs from the previous segment's. O(n).
 */
function mergeRuns(a: Int32Array, segs: Int32Array, n: number, k: number, out: Int32Array): number {
  let m = 0;
  for (let i = 0; i < n; i++) {
    const j = segs[i]!;
    if (m === 0 || a[j] !== a[out[m - 1]!]) out[m++] = j;
  }
  out[m] = k;
  return m;
}

/** The runs of `src` (n starts, `runs`' form) that start before k, into out (out[m] = k); returns m. */
function prefixRuns(src: Int32Array, n: number, k: number, out: Int32Array): number {
  let m = 0;
  while (m < n && src[m]! < k) {
    out[m] = src[m]!;
    m++;
  }
  out[m] = k;
  return m;
}

// scratch (one batch at a time on the host thread; no allocation per batch)
const scratchR = new Int32Array(MOVE_MAX);
const scratchW = new Int32Array(MOVE_MAX);
/** Per AMEM word: the epoch of the last batch that writes it (the read/write disjointness test of `moveBatch`). */
const written = new Int32Array(AMEM_BYTES / AMEM_WORD_BYTES);
let epoch = 0;
/** Run starts of the window's write / read addresses (`runs`), the never-written-block reads per read run. */
const runW = new Int32Array(MOVE_MAX + 1);
const runR = new Int32Array(MOVE_MAX + 1);
const runUninit = new Int32Array(MOVE_MAX);
/** Per 16 KiB block: the epoch of the last window writing it, and the window cycle of its first write then. */
const blockStamp = new Int32Array(AMEM_BYTES / AMEM_BLOCK_BYTES);
const blockFirstW = new Int32Array(AMEM_BYTES / AMEM_BLOCK_BYTES);
/** Per 16 KiB block: the epoch of the window in which it is new (no block before it) and has had only zeros written. */
const blockZero = new Int32Array(AMEM_BYTES / AMEM_BLOCK_BYTES);

/**
 * Copies one 128-byte word (32 x 32 bits); `src` undefined: zeros (a never-written block). A word already zero is
 * not written (the same bytes): a fresh block's pages are then only read, which the host maps without copying (a
 * copy from never-written memory into new blocks otherwise costs a page fault per 4 KiB written).
 */
function copyWord(dst: Uint32Array, d: number, src: Uint32Array | undefined, s: number): void {
  if (src === undefined) {
    let i = 0;
    while (i < 32 && dst[d + i] === 0) i++;
    for (; i < 32; i++) dst[d + i] = 0;
    return;
  }
  for (let i = 0; i < 32; i += 4) {
    dst[d + i] = src[s + i]!;
    dst[d + i + 1] = src[s + i + 1]!;
    dst[d + i + 2] = src[s + i + 2]!;
    dst[d + i + 3] = src[s + i + 3]!;
  }
}

/**
 * The AMEM / switchbox / commit part of K cycles (k <= MOVE_MAX) of the steady state `steadyCheck` accepted at `c`,
 * as `tick` runs them, per cycle t: the write commits due at t; one whole-word AMEM Write of the switchbox head at the
 * next write address and its posted commit; one whole-word AMEM Read into the switchbox at the next read address.
 * `rCnt` / `wCnt` receive the cores' counts advanced past the odometer steps used (`fillAddrs`).
 *
 * Direct moves: when no word read in the window is also written in it, the word read at t stays unchanged until
 * the write that pops it (t + the switchbox occupancy, constant in a batch: one pop and one push per cycle) and
 * nothing else can change AMEM in the window (`runAhead`'s contract), so that write copies it straight from AMEM;
 * only the reads of the last `occupancy` cycles fill the switchbox (whose other entries are consumed in the window).
 * The reads' bookkeeping (statistics, never-written blocks, the view rule) still happens at their own cycle.
 */
export function moveBatch(u: Uie, c: number, k: number, rCnt: Int32Array, wCnt: Int32Array, rdt: number, reb: number, rl: number): void {
  if (k > MOVE_MAX) throw new Error(`moveBatch: ${k} cycles > ${MOVE_MAX}`);
  const rs = u.seqs[records.SEQ_AMEM_READ]!;
  const ws = u.seqs[records.SEQ_AMEM_WRITE]!;
  // the addresses: those `fillSchedule` computed from this state, if it did (then only the odometers advance)
  const cached = u.batch.addrAt === c && u.batch.addrGen === u.stateGen && k <= u.batch.addrLen;
  const addrR = cached ? u.batch.addrR! : scratchR;
  const addrW = cached ? u.batch.addrW! : scratchW;
  if (cached && k === u.batch.addrLen) {
    // the odometers after all of fillSchedule's addresses: as it left them
    rCnt.set(u.batch.endCntR);
    wCnt.set(u.batch.endCntW);
  } else if (cached) {
    // after its first k: from the run starts it recorded
    odometerAt(rs, u.rd.dec, rCnt, k, u.batch.snapsR!);
    odometerAt(ws, u.wr.dec, wCnt, k, u.batch.snapsW!);
  } else {
    fillAddrs(rs, u.rd.dec, rCnt, k, cached ? undefined : addrR, 0, 1);
    fillAddrs(ws, u.wr.dec, wCnt, k, cached ? undefined : addrW, 0, 1);
  }
  const sb = u.sbReadToWrite;
  const occ = sb.occupancy;
  // direct moves need every read word of the window unwritten in it
  if (++epoch > 0x7fffffff) {
    written.fill(0);
    blockStamp.fill(0);
    blockZero.fill(0);
    epoch = 1;
  }
  // runs of equal addresses (a row read or written several times in a row: one test / one bookkeeping call per run);
  // from the same state as `fillSchedule`, its runs (those of the first k of its addresses)
  const b = u.batch;
  const nW = cached ? prefixRuns(b.runsW!, b.nRunsW, k, runW) : runs(addrW, k, runW);
  const nR = cached ? prefixRuns(b.runsR!, b.nRunsR, k, runR) : runs(addrR, k, runR);
  for (let i = 0; i < nW; i++) written[addrW[runW[i]!]! >>> 7] = epoch;
  let direct = true;
  for (let i = 0; i < nR && runR[i]! < k - occ; i++)
    if (written[addrR[runR[i]!]! >>> 7] === epoch) {
      direct = false;
      break;
    }
  if (direct) moveCounts.direct++;
  else moveCounts.staged++;
  const rView = rs.view ? AMEM_VIEW_BIT : 0;
  const wView = ws.view ? AMEM_VIEW_BIT : 0;
  const tripSlot = u.trips.oldest;
  const fill = direct ? k - occ : 0;
  // 1. the write-commit ring (tick step 1 at each t, then the posted commit of the write at t)
  u.commits.batch(c, k, tripSlot);
  if (direct && rView === wView) directMoves(u, c, k, addrR, addrW, occ, nW, nR, wView, rdt, reb, rl);
  else stagedMoves(u, c, k, addrR, addrW, occ, fill, direct, rView, wView, rdt, reb, rl);
}

/** Starts of the runs of equal values in a[0..k) into out (out[n] = k); returns n. */
function runs(a: Int32Array, k: number, out: Int32Array): number {
  let n = 0;
  let prev = -1;
  for (let j = 0; j < k; j++) {
    const x = a[j]!;
    if (x !== prev || j === 0) out[n++] = j;
    prev = x;
  }
  out[n] = k;
  return n;
}

/**
 * A live write of a direct window (`directMoves`, in cycle order) at physical address `wp`: zeros (`src` undefined:
 * a never-written source) into a block the window created and has written only zeros to are already there (the
 * block exists from then on, `Amem.touchZero`, without storage while it has none); any other copy is done into the
 * block's storage, and data ends its all-zero state.
 */
function liveWrite(amem: Amem, wp: number, src: Uint32Array | undefined, s: number): void {
  const blk = wp >>> 14;
  if (src === undefined && blockZero[blk] === epoch) {
    amem.touchZero(wp);
    return;
  }
  if (src !== undefined) blockZero[blk] = 0;
  copyWord(amem.writeBlockAt(wp), (wp & 16383) >> 2, src, s);
}

/**
 * The AMEM / switchbox part of a direct window (`moveBatch`) whose reads and writes use one view, by runs: the
 * bookkeeping of each run of equal addresses in one call (`Amem.noteWords`, in the cycle order of the runs' first
 * accesses, writes before reads in a cycle as `tick` does them: the same statistics and the same first view
 * conflict, since every access of the window has one view, a block's conflict status is the one it had before the
 * window), a read finding no block unless a write of the window created it at or before its cycle; then the data:
 * the live writes (a write the next cycle overwrites is dead when no read sees it), from AMEM (the word read `occ`
 * cycles earlier, unwritten in the window) or from the entries queued in the switchbox, and the reads of the last
 * `occ` cycles into the switchbox, in cycle order.
 */
function directMoves(u: Uie, c: number, k: number, addrR: Int32Array, addrW: Int32Array, occ: number, nW: number, nR: number, view: number, rdt: number, reb: number, rl: number): void {
  const amem = u.amem;
  // the cycle each block is first written in the window (blocks created by the window's writes)
  for (let i = 0; i < nW; i++) {
    const blk = addrW[runW[i]!]! >>> 14;
    if (blockStamp[blk] !== epoch) {
      blockStamp[blk] = epoch;
      blockFirstW[blk] = runW[i]!;
      // a block the window creates is all zeros until a write of data (`liveWrite`)
      blockZero[blk] = amem.blockAt(addrW[runW[i]!]!) === undefined ? epoch : 0;
    }
  }
  // reads finding no block, per read run (before any block of the window is created)
  for (let i = 0; i < nR; i++) {
    const s = runR[i]!;
    const e = runR[i + 1]!;
    const rp = addrR[s]!;
    let un = 0;
    if (!amem.written(rp)) {
      const blk = rp >>> 14;
      const f = blockStamp[blk] === epoch ? blockFirstW[blk]! : e;
      un = f <= s ? 0 : f >= e ? e - s : f - s;
    }
    runUninit[i] = un;
  }
  // bookkeeping in cycle order of the runs' first accesses (a write first in its cycle)
  for (let iw = 0, ir = 0; iw < nW || ir < nR; ) {
    if (iw < nW && (ir >= nR || runW[iw]! <= runR[ir]!)) {
      amem.noteWords(addrW[runW[iw]!]!, view, runW[iw + 1]! - runW[iw]!, true, 0);
      iw++;
    } else {
      amem.noteWords(addrR[runR[ir]!]!, view, runR[ir + 1]! - runR[ir]!, false, runUninit[ir]!);
      ir++;
    }
  }
  // the data, with the switchbox advanced at once (one pop and one push per cycle: `Fifo.rotate`): at cycle j its head
  // is slot h0 + j and the entry pushed goes to slot h0 + occ + j (mod capacity)
  const sb = u.sbReadToWrite;
  const raw32 = sb.raw32;
  const meta = sb.meta;
  const readyAt = u.sbReadyAt;
  const rlat = u.rd.latency;
  const cap = sb.capacity;
  const h0 = sb.peekSlot();
  const fill = k - occ;
  // 1. the writes before `fill`, by write runs: a write the next one (same run) overwrites is dead, since no read
  // before `fill` sees it (direct window), so only each run's last write is live; their sources are words read
  // `occ` cycles earlier, unwritten in the window, or entries queued before it (no later push reaches those slots
  // before their write: a push at j' lands `occ` or more slots past the head of cycle j' < j)
  for (let i = 0; i < nW; i++) {
    const j = runW[i + 1]! - 1;
    if (j >= fill) break;
    const wp = addrW[j]!;
    if (j >= occ) {
      const rp = addrR[j - occ]!;
      liveWrite(amem, wp, amem.blockAt(rp), (rp & 16383) >> 2);
    } else liveWrite(amem, wp, raw32, ((h0 + j) % cap) * 64);
  }
  // 2. the last `occ` cycles in cycle order (a read there may see a write of the window): a write is dead when the next
  // cycle's write covers the same word and its own cycle's read (after it) reads another word; every read fills its
  // switchbox entry
  for (let j = fill < 0 ? 0 : fill; j < k; j++) {
    const wp = addrW[j]!;
    if (j + 1 < k && addrW[j + 1] === wp && addrR[j] !== wp) {
      // dead store (its block is still created at its cycle, with no storage when it has none: the next write covers
      // the word). The read test is a guard: a batch never reads and writes one word in a cycle (one bank: a
      // conflict, which ends the window: steadyBatch.ts, schedules.ts `jointWindow`)
      amem.touchZero(wp);
    } else if (j >= occ) {
      const rp = addrR[j - occ]!;
      liveWrite(amem, wp, amem.blockAt(rp), (rp & 16383) >> 2);
    } else liveWrite(amem, wp, raw32, ((h0 + j) % cap) * 64);
    const rp = addrR[j]!;
    copyWord(raw32, ((h0 + occ + j) % cap) * 64, amem.blockAt(rp), (rp & 16383) >> 2);
  }
  // 3. a switchbox slot's readyAt / meta keep only their last push's values: the last `capacity` pushes write them
  for (let j = k > cap ? k - cap : 0; j < k; j++) {
    const e = (h0 + occ + j) % cap;
    readyAt[e] = c + j + rlat;
    const m = e * SB_META;
    meta[m] = 1;
    meta[m + 1] = rdt;
    meta[m + 2] = reb;
    meta[m + 3] = rl;
  }
  sb.rotate(k);
}

/** The AMEM / switchbox part of `moveBatch` cycle by cycle (staged windows, or reads and writes in two views). */
function stagedMoves(u: Uie, c: number, k: number, addrR: Int32Array, addrW: Int32Array, occ: number, fill: number, direct: boolean, rView: number, wView: number, rdt: number, reb: number, rl: number): void {
  const amem = u.amem;
  const sb = u.sbReadToWrite;
  const raw32 = sb.raw32;
  const meta = sb.meta;
  const readyAt = u.sbReadyAt;
  const rlat = u.rd.latency;
  // per cycle t: the AMEM Write of the switchbox head (issueWrite / doWrite fast path), then the AMEM Read into the
  // switchbox (issueRead fast path). A switchbox slot's readyAt / meta keep only their last push's values, so only
  // the last `capacity` pushes write them (the same final arrays)
  const stamp = k - sb.capacity;
  for (let j = 0; j < k; j++) {
    const t = c + j;
    const wp = addrW[j]!;
    const dst = amem.writeWordAt(wp, wView);
    // a whole-word write that the next cycle's write overwrites is dead when no read of the window can see it
    // (j < fill: only direct windows, whose reads before `fill` read no word written in the window); its
    // bookkeeping above still happens at its cycle
    if (j < fill && j + 1 < k && addrW[j + 1] === wp) {
      // dead store: the next write covers the whole word
    } else if (direct && j >= occ) {
      const rp = addrR[j - occ]!;
      copyWord(dst, (wp & 16383) >> 2, amem.blockAt(rp), (rp & 16383) >> 2);
    } else copyWord(dst, (wp & 16383) >> 2, raw32, sb.peekSlot() * 64);
    sb.pop();
    const rp = addrR[j]!;
    const src = amem.readWordAt(rp, rView);
    const e = sb.pushSlot();
    if (j >= fill) copyWord(raw32, e * 64, src, (rp & 16383) >> 2);
    if (j >= stamp) {
      readyAt[e] = t + rlat;
      const m = e * SB_META;
      meta[m] = 1;
      meta[m + 1] = rdt;
      meta[m + 2] = reb;
      meta[m + 3] = rl;
    }
  }
}

/** Scratch odometers and segment starts of `fillSchedule`. */
const schedR = new Int32Array(NUM_ITERS);
const schedW = new Int32Array(NUM_ITERS);
const segs = new Int32Array(MOVE_MAX);

/**
 * The banks (chip §7, after the §7.5 hash of the view) of the next `k` (<= MOVE_MAX) AMEM Read / Write whole-word
 * accesses of a state that `steadyCheck` accepted at `at` — the addresses `moveBatch` will access — as UIE u's next
 * schedule (`BankSchedules.schedOffset` / `setRuns`: per cycle j the read bank at [off + 2j] and the write bank at
 * [off + 2j + 1]; the runs of equal addresses of each side, within which the bank is constant; a `follower`'s list:
 * the banks only). The caller publishes it. Changes no state but the address cache (`SteadyBatchState.addrR` ..).
 */
export function fillSchedule(u: Uie, k: number, sched: BankSchedules, at: number, follower = false): void {
  const dst = sched.propBank;
  const off = sched.schedOffset(u.index);
  if (follower) {
    // a follower's list (`BankSchedules.publish`): banks only (it never batches on it: no runs, no address cache)
    fillAddrs(u.seqs[records.SEQ_AMEM_READ]!, u.rd.dec, schedR, k, scratchR, 0, 1);
    fillAddrs(u.seqs[records.SEQ_AMEM_WRITE]!, u.wr.dec, schedW, k, scratchW, 0, 1);
    for (let j = 0; j < k; j++) {
      dst[off + 2 * j] = (scratchR[j]! >>> 7) & 0x7f;
      dst[off + 2 * j + 1] = (scratchW[j]! >>> 7) & 0x7f;
    }
    return;
  }
  // the addresses and their runs are kept for a `moveBatch` from the same state (at `at`, no tick in between)
  const b = u.batch;
  const aR = (b.addrR ??= new Int32Array(MOVE_MAX));
  const aW = (b.addrW ??= new Int32Array(MOVE_MAX));
  const rR = (b.runsR ??= new Int32Array(MOVE_MAX + 1));
  const rW = (b.runsW ??= new Int32Array(MOVE_MAX + 1));
  const sR = (b.snapsR ??= new OdometerSnaps());
  const sW = (b.snapsW ??= new OdometerSnaps());
  b.nRunsR = mergeRuns(aR, segs, fillAddrs(u.seqs[records.SEQ_AMEM_READ]!, u.rd.dec, schedR, k, aR, 0, 1, segs, sR), k, rR);
  b.nRunsW = mergeRuns(aW, segs, fillAddrs(u.seqs[records.SEQ_AMEM_WRITE]!, u.wr.dec, schedW, k, aW, 0, 1, segs, sW), k, rW);
  b.endCntR.set(schedR);
  b.endCntW.set(schedW);
  b.addrAt = at;
  b.addrLen = k;
  b.addrGen = u.stateGen;
  // per cycle the banks (one value per run)
  for (let side = 0; side < 2; side++) {
    const a = side === 0 ? aR : aW;
    const r = side === 0 ? rR : rW;
    const n = side === 0 ? b.nRunsR : b.nRunsW;
    for (let i = 0; i < n; i++) {
      const bank = (a[r[i]!]! >>> 7) & 0x7f;
      for (let q = off + 2 * r[i]! + side, e = off + 2 * r[i + 1]! + side; q < e; q += 2) dst[q] = bank;
    }
    sched.setRuns(u.index, side, r, n);
  }
}
