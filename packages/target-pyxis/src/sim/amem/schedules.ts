/**
 * Steady-state schedules of a cluster's UIEs (docs/uie-model.md "Performance"; speed only, never results): a UIE in a
 * steady strided copy publishes the banks its AMEM Read / Write ports will access in the coming cycles, and the
 * cluster's UIEs batch a window together when their published accesses cannot conflict (`jointWindow`). The bank
 * arbitration (banks.ts) owns the resources; it tells the schedules of every UIE claim (`claimed`) and of every claim
 * served late (`servedLate`), and they read its held resources and pending claims.
 */
import { BANK_UIES, PORT_READ, PORT_WRITE, uieClient } from './clients.js';
import type { AmemBanks } from './banks.js';
import { dbl } from '@pyxis/sim';

/** Longest steady-state schedule a UIE publishes (cycles). */
export const SCHED_MAX = 1024;

export class BankSchedules {
  /** Per bank: the cycle `jointWindow`'s scan last used it (-1 between calls). */
  private readonly stamp = new Float64Array(128).fill(-1);

  constructor(private readonly arb: AmemBanks) {}

  /** A claim of port `port` of UIE `uie` at `cycle` (banks.ts `claim`): the next entry of its current schedules. */
  claimed(uie: number, port: number, cycle: number): void {
    for (let q = 2 * uie; q < 2 * uie + 2; q++)
      if (this.propAt[q]! <= cycle) {
        if (port === PORT_READ) this.propDoneR[q]!++;
        else if (port === PORT_WRITE) this.propDoneW[q]!++;
      }
  }

  /** A claim of UIE `uie` was served after its cycle `t`: its schedules' timing no longer holds (their address order does). */
  servedLate(uie: number, t: number): void {
    for (let q = 2 * uie; q < 2 * uie + 2; q++) if (this.propAt[q]! <= t) this.propStalled[q] = 1;
  }
  /** Per UIE: 1 while it has a trip (a potential claimant). */
  private readonly active = new Uint8Array(BANK_UIES);
  activeUies = 0;
  // two schedule slots per UIE (q = 2 * uie + s; `cur` the newest): a UIE that batched publishes its next schedule
  // while its current one still describes the window others may join in the middle of
  private readonly cur = new Uint8Array(BANK_UIES);
  private readonly sel = new Int8Array(BANK_UIES).fill(-1);
  private readonly propPub = new Float64Array(2 * BANK_UIES).fill(Infinity);
  private readonly propAt = new Float64Array(2 * BANK_UIES);
  private readonly propLen = new Int32Array(2 * BANK_UIES);
  /** Per UIE: 1 once a claim of its schedule was served late (the schedule then bounds its claims, see jointWindow). */
  private readonly propStalled = new Uint8Array(2 * BANK_UIES);
  /** Per UIE: claims of its AMEM Read / AMEM Write ports since its schedule's first cycle (the next entry index). */
  private readonly propDoneR = new Int32Array(2 * BANK_UIES);
  private readonly propDoneW = new Int32Array(2 * BANK_UIES);
  private readonly batcher = new Uint8Array(BANK_UIES);
  /** Per UIE: the cycle from which it makes no more claims in its current trips (-1: it may claim). */
  private readonly quietAt = new Float64Array(BANK_UIES).fill(-1);
  private readonly skip = new Uint8Array(BANK_UIES);
  private readonly heldBank = new Float64Array(128);
  private readonly followMask = new Int32Array(4);
  private readonly listB = new Int32Array(BANK_UIES);
  /** Per entry of listB: the batcher's schedule slot (`batchersWindow` reads its runs). */
  private readonly listQ = new Int32Array(BANK_UIES);
  private readonly listF = new Int32Array(BANK_UIES);
  /** Per UIE, per cycle of its schedule: read bank, write bank (whole aligned words). */
  readonly propBank = new Int16Array(2 * BANK_UIES * SCHED_MAX * 2);
  /**
   * Per schedule slot and side (read 0, write 1): the starts of runs of cycles within which the bank is constant,
   * in order from 0 (`setRuns`; index (2q + side) * (SCHED_MAX + 1)), and their number.
   */
  private readonly propRuns = new Int32Array(2 * 2 * BANK_UIES * (SCHED_MAX + 1));
  private readonly propNRuns = new Int32Array(2 * 2 * BANK_UIES);
  private jointAt = dbl(-1);
  private jointLimit = dbl(-1);
  private jointK = 0;


  /** A UIE of this cluster gained (`on`) or lost its last trip: it is (not) a potential claimant. */
  setActive(uie: number, on: boolean): void {
    if (on) this.quietAt[uie] = -1;
    const v = on ? 1 : 0;
    if (this.active[uie] === v) return;
    this.active[uie] = v;
    this.activeUies += on ? 1 : -1;
    if (!on) this.propLen[2 * uie] = this.propLen[2 * uie + 1] = 0;
  }

  /**
   * Publishes UIE `uie`'s steady-state schedule (computed at global cycle `pub`): if none of its claims is served
   * late, its AMEM Read / Write ports access the whole aligned words of banks `propBank[(uie * SCHED_MAX + j) * 2]`
   * (read) and `[.. + 1]` (write) at cycle `at + j`, j < len (the caller filled them). A `follower` schedule gives
   * only the order of those accesses (its timing is not known: at cycle t a port claims one of entries [done, t - at]).
   */
  publish(uie: number, pub: number, at: number, len: number, follower = false): void {
    const q = 2 * uie + 1 - this.cur[uie]!;
    this.cur[uie] = q & 1;
    this.propPub[q] = pub;
    this.propAt[q] = at;
    this.propLen[q] = len;
    this.propStalled[q] = follower ? 1 : 0;
    this.propDoneR[q] = 0;
    this.propDoneW[q] = 0;
  }

  /** Where the caller fills the schedule it is about to `publish` (propBank offset of UIE `uie`'s other slot). */
  schedOffset(uie: number): number {
    return (2 * uie + 1 - this.cur[uie]!) * SCHED_MAX * 2;
  }

  /**
   * With the banks at `schedOffset(uie)`: the run starts r[0..n) of side `side` of that schedule (r[0] = 0, in
   * order; the bank is constant from one start to the next and from the last to the schedule's end).
   */
  setRuns(uie: number, side: number, r: Int32Array, n: number): void {
    const qs = 2 * (2 * uie + 1 - this.cur[uie]!) + side;
    const R = this.propRuns;
    const o = qs * (SCHED_MAX + 1);
    for (let i = 0; i < n; i++) R[o + i] = r[i]!;
    this.propNRuns[qs] = n;
  }

  /** The slot of UIE `uie` that describes cycle `c`: the newest published before `maxPub` with at <= c, if it covers c; else -1. */
  private slotFor(u: number, c: number, maxPub: number): number {
    const a = 2 * u + this.cur[u]!;
    for (let i = 0; i < 2; i++) {
      const q = i === 0 ? a : a ^ 1;
      if (!(this.propPub[q]! < maxPub) || this.propAt[q]! > c) continue;
      return this.propLen[q]! > 0 && c < this.propAt[q]! + this.propLen[q]! ? q : -1;
    }
    return -1;
  }

  /** No claim pending and no resource held at or after cycle `c` (a lone client's batch cannot meet an earlier access). */
  idleAt(c: number): boolean {
    this.arb.sync(c);
    return this.arb.pendCycle < 0 && this.arb.heldUntil < c;
  }

  /**
   * UIE `uie` will make no more claims in its current trips (its AMEM Read / Write / Weights Read sequencers and ITFEs
   * are done, only write commits remain), as of the end of cycle `now`: `jointWindow` ignores it from `now + 1`.
   */
  setQuiet(uie: number, now: number): void {
    if (this.quietAt[uie]! < 0) this.quietAt[uie] = now;
  }

  /** True when UIE `uie` has a published schedule, not broken by a stall, usable at cycle `c`. */
  hasSchedule(uie: number, c: number): boolean {
    const q = this.slotFor(uie, c, Infinity);
    return q >= 0 && this.propStalled[q] === 0;
  }

  /**
   * The cycles from `c` that UIE `uie`'s newest schedule still covers (0: none covers c). With `follower`, only a
   * stalled (follower) schedule whose claims lag its list by at most `maxLag` entries counts. Speed only (which
   * schedule a UIE keeps decides which cycles are batched, never their results).
   */
  coverLeft(uie: number, c: number, follower: boolean, maxLag: number): number {
    const q = 2 * uie + this.cur[uie]!;
    const at = this.propAt[q]!;
    const end = at + this.propLen[q]!;
    if (at > c || end <= c || this.propPub[q]! > c) return 0;
    if ((this.propStalled[q] === 1) !== follower) return 0;
    if (follower && (c - at - this.propDoneR[q]! > maxLag || c - at - this.propDoneW[q]! > maxLag)) return 0;
    return end - c;
  }

  /** After `jointWindow`: the schedule slot of UIE `uie` used for the window (for `countBatch`). */
  slotOf(uie: number): number {
    return this.sel[uie]!;
  }

  /** The newest schedule slot of UIE `uie` (after `publish`). */
  newest(uie: number): number {
    return 2 * uie + this.cur[uie]!;
  }

  /** After `jointWindow(c, ..)`: UIE `uie` batches the window (the others of its cluster run cycle by cycle). */
  batches(uie: number): boolean {
    return this.batcher[uie] === 1;
  }

  /**
   * The steady-state batch condition (docs/uie-model.md "Performance"): the number of cycles from `c` (at most
   * `limit - c`) during which no claim of this cluster can conflict — every active UIE has a schedule published
   * before `c` that covers them, the schedules are pairwise (and read-vs-write) bank-disjoint in every cycle, no
   * earlier access still holds a resource, and (the caller's run-ahead gate) no control-plane client can act. The
   * same for every UIE asking at `c` (it reads only state fixed before `c`), so they all batch the same window.
   */
  jointWindow(c: number, limit: number, asker = -1): number {
    this.arb.sync(c);
    if (this.jointAt === c && this.jointLimit === limit) return this.jointK;
    // an asker that cannot batch (no valid schedule) does not need the answer: none computed (nor cached) for it
    if (asker >= 0) {
      const q = this.slotFor(asker, c, c);
      if (q < 0 || this.propStalled[q] === 1) return 0;
    }
    // batchers: a schedule published before c, covering c, never stalled — their claims are exact per cycle.
    // followers (stalled since they published): their claims keep the schedule's address order, at most one per port
    // and cycle, so at cycle t a port claims one of the entries [done, t - propAt] of its list. Anybody else: no batch.
    let k = limit - c;
    if (this.arb.pendCycle >= 0) k = 0;
    let nb = 0;
    for (let u = 0; u < BANK_UIES; u++) {
      this.batcher[u] = 0;
      this.sel[u] = -1;
      // `< c` first: both compares run on every call (quietAt -1), so V8 has their feedback when jointWindow is optimised;
      // the reverse order first reached `< c` at a trip's end, which deoptimised and recompiled jointWindow
      this.skip[u] = this.active[u] === 0 || (this.quietAt[u]! < c && this.quietAt[u]! >= 0) ? 1 : 0;
      if (this.skip[u] === 1 || k === 0) continue;
      const q = this.slotFor(u, c, c);
      this.sel[u] = q;
      if (q < 0) k = 0;
      else {
        k = Math.min(k, this.propAt[q]! + this.propLen[q]! - c);
        if (this.propStalled[q] === 0) {
          this.batcher[u] = 1;
          nb++;
        }
      }
    }
    if (nb === 0) k = 0;
    const P = this.propBank;
    // resources still held by late accesses: per bank, the last cycle any partition is held
    const held = this.arb.heldUntil >= c;
    const hb = this.heldBank;
    if (held) for (let b = 0; b < 128; b++) hb[b] = this.arb.busyUntil(b, 0xff);
    // the followers' possible banks: entries [done, t - propAt] of their lists, a set that only grows with t
    const fm = this.followMask;
    fm.fill(0);
    for (let u = 0; u < BANK_UIES && k > 0; u++) {
      if (this.skip[u] === 1 || this.batcher[u] === 1) continue;
      const q = this.sel[u]!;
      const base = q * SCHED_MAX * 2;
      const hi = c - this.propAt[q]!;
      // a follower far behind its schedule makes its set large: no window
      if (hi - this.propDoneR[q]! > 64 || hi - this.propDoneW[q]! > 64) k = 0;
      for (let i = this.propDoneR[q]!; i < hi; i++) fm[P[base + 2 * i]! >> 5]! |= 1 << (P[base + 2 * i]! & 31);
      for (let i = this.propDoneW[q]!; i < hi; i++) fm[P[base + 2 * i + 1]! >> 5]! |= 1 << (P[base + 2 * i + 1]! & 31);
    }
    // per-cycle scan over compact lists of the batchers' and followers' schedule rows (offsets at cycle c)
    const bo = this.listB;
    const fo = this.listF;
    let nbl = 0;
    let nfl = 0;
    for (let u = 0; u < BANK_UIES && k > 0; u++) {
      if (this.skip[u] === 1) continue;
      const q = this.sel[u]!;
      const o = (q * SCHED_MAX + (c - this.propAt[q]!)) * 2;
      if (this.batcher[u] === 1) {
        this.listQ[nbl] = q;
        bo[nbl++] = o;
      } else fo[nfl++] = o;
    }
    const stamp = this.stamp;
    if (nfl === 0 && k > 0) k = this.batchersWindow(c, k, nbl, held);
    else
      for (let j = 0; j < k; j++) {
        const t = c + j;
        const d = 2 * j;
        for (let i = 0; i < nfl; i++) {
          const r = P[fo[i]! + d]!;
          const w = P[fo[i]! + d + 1]!;
          fm[r >> 5]! |= 1 << (r & 31);
          fm[w >> 5]! |= 1 << (w & 31);
        }
        let clash = false;
        for (let i = 0; i < nbl && !clash; i++) {
          for (let s2 = 0; s2 < 2; s2++) {
            const b = P[bo[i]! + d + s2]!;
            if (stamp[b] === t || (held && hb[b]! >= t) || (fm[b >> 5]! >>> (b & 31)) & 1) {
              clash = true;
              break;
            }
            stamp[b] = t;
          }
        }
        if (clash) {
          k = j;
          break;
        }
      }
    // a builtin, not a 128-step loop on every call: that loop made V8 compile jointWindow on-stack (OSR) besides its
    // regular compilations, and such OSR code was seen re-entered and deoptimised at one site over and over
    this.stamp.fill(-1);
    if (k === 0) for (let u = 0; u < BANK_UIES; u++) this.batcher[u] = 0;
    this.jointAt = c;
    this.jointLimit = limit;
    this.jointK = k;
    return k;
  }

  /** Batchers using each bank in the cycle `batchersWindow` is at (all zero between calls). */
  private readonly useCnt = new Int32Array(128);
  /** `batchersWindow`'s events: per window cycle the first access (2 * batcher + side) whose run starts there. */
  private readonly evHead = new Int32Array(SCHED_MAX + 1);
  /** Per access: the next one in its cycle's list, its current run index and bank. */
  private readonly evNext = new Int32Array(2 * BANK_UIES);
  private readonly evRun = new Int32Array(2 * BANK_UIES);
  private readonly evBank = new Int32Array(2 * BANK_UIES);

  /**
   * `jointWindow`'s scan when there are no followers (the only resources to avoid are the other batchers' and the
   * held ones, whose set only shrinks as t grows): the first cycle j < k at which two accesses of the batchers share
   * a bank or one meets a held bank, else k. Incremental: per bank the number of batcher accesses in the current
   * cycle; from one cycle to the next only the accesses whose bank changed are moved (and checked against held ones),
   * and a bank can change only where a run of the schedule starts (`setRuns`): per cycle the list of the accesses
   * whose next run starts there (events), so the cycles between are not visited.
   */
  private batchersWindow(c: number, k: number, nbl: number, held: boolean): number {
    const P = this.propBank;
    const R = this.propRuns;
    const hb = this.heldBank;
    const cnt = this.useCnt;
    const head = this.evHead;
    const next = this.evNext;
    const run = this.evRun;
    const cur = this.evBank;
    let over = 0;
    let clashAt = k;
    head.fill(-1, 0, k);
    for (let i = 0; i < nbl; i++) {
      const q = this.listQ[i]!;
      const o0 = c - this.propAt[q]!;
      for (let s2 = 0; s2 < 2; s2++) {
        const x = 2 * i + s2;
        const b = P[this.listB[i]! + s2]!;
        cur[x] = b;
        if (held && hb[b]! >= c) clashAt = 0;
        if (++cnt[b]! === 2) over++;
        // the run holding o0 (the last start <= o0), then its successor's start as this access's first event
        const qs = 2 * q + s2;
        const r0 = qs * (SCHED_MAX + 1);
        const n = this.propNRuns[qs]!;
        const lo = this.runHolding(r0, n, o0);
        run[x] = lo;
        const j = lo + 1 < n ? R[r0 + lo + 1]! - o0 : k;
        if (j < k) {
          next[x] = head[j]!;
          head[j] = x;
        }
      }
    }
    if (over > 0) clashAt = 0;
    for (let j = 1; j < clashAt; j++) {
      let x = head[j]!;
      if (x < 0) continue;
      const t = c + j;
      while (x >= 0) {
        const nx = next[x]!;
        const i = x >> 1;
        const s2 = x & 1;
        const q = this.listQ[i]!;
        const o0 = c - this.propAt[q]!;
        const qs = 2 * q + s2;
        const r0 = qs * (SCHED_MAX + 1);
        const n = this.propNRuns[qs]!;
        const r = ++run[x]!;
        const nb = P[this.listB[i]! + 2 * j + s2]!;
        const ob = cur[x]!;
        if (nb !== ob) {
          cur[x] = nb;
          if (--cnt[ob]! === 1) over--;
          if (++cnt[nb]! === 2) over++;
          if (held && hb[nb]! >= t) clashAt = j;
        }
        const jn = r + 1 < n ? R[r0 + r + 1]! - o0 : k;
        if (jn < k) {
          next[x] = head[jn]!;
          head[jn] = x;
        }
        x = nx;
      }
      if (over > 0) clashAt = j;
    }
    cnt.fill(0);
    return clashAt;
  }

  /** The run of a schedule (its `n` run starts at propRuns[r0..], rising from 0) holding offset o0: the last start <= o0 (binary search). */
  private runHolding(r0: number, n: number, o0: number): number {
    const R = this.propRuns;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (R[r0 + mid]! <= o0) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** Accounts the bank accesses of a batched window (whole words: 8 partitions each). */
  countBatch(uie: number, q: number, at: number, k: number): void {
    const o0 = at - this.propAt[q]!;
    const P = this.propBank;
    const base = q * SCHED_MAX * 2;
    const acc = this.arb.stats.bankAccesses;
    // per run of the schedule (`setRuns`: the bank constant in it) the part in [o0, o0 + k), added at once
    for (let side = 0; side < 2; side++) {
      const qs = 2 * q + side;
      const R = this.propRuns;
      const r0 = qs * (SCHED_MAX + 1);
      const n = this.propNRuns[qs]!;
      const lo = this.runHolding(r0, n, o0);
      const end = o0 + k;
      for (let i = lo; i < n && R[r0 + i]! < end; i++) {
        const s = R[r0 + i]! > o0 ? R[r0 + i]! : o0;
        const e = i + 1 < n && R[r0 + i + 1]! < end ? R[r0 + i + 1]! : end;
        acc[P[base + 2 * s + side]!]! += 8 * (e - s);
      }
    }
    const st = this.arb.stats;
    st.clientClaims[uieClient(uie, PORT_READ)]! += k;
    st.clientClaims[uieClient(uie, PORT_WRITE)]! += k;
  }
}
