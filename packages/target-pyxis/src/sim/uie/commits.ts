/**
 * The write-completion tracking of one UIE (chip §11.7.1, §11.7.2; seq §6.8): AMEM Write posts each write, which
 * commits `latency` cycles later (sim_config amem.write_commit_latency_cycles); a trip retires only once its count of
 * outstanding writes (`TripSlot.writes`) is back at zero. The constant latency keeps the ring in issue order.
 */
import type { TripSlot } from './records.js';
import { dbl } from '@pyxis/sim';

export class CommitRing {
  /** Per ring entry: its commit cycle and its trip slot. */
  private readonly at: Float64Array;
  private readonly slot: Int8Array;
  private readonly mask: number;
  private head = dbl(0);
  /** Posted writes not yet committed. */
  count = dbl(0);

  constructor(
    /** Cycles from AMEM write issue to commit. */
    readonly latency: number,
    private readonly slots: readonly TripSlot[],
  ) {
    // at most 2 posted writes per cycle can be outstanding for `latency` cycles
    let ring = 64; // small: the ring is walked every cycle, a 48-UIE chip keeps 48 of them hot
    while (ring < 2 * latency + 16) ring *= 2;
    this.mask = ring - 1;
    this.at = new Float64Array(ring);
    this.slot = new Int8Array(ring);
  }

  /** The commit cycle of the oldest posted write (Infinity: none). */
  get nextAt(): number {
    return this.count > 0 ? this.at[this.head]! : Infinity;
  }

  /** The cycle the last posted write commits (entries pop in order: the largest commit cycle; -Infinity: none). */
  get lastAt(): number {
    let m = -Infinity;
    for (let i = 0, q = this.head; i < this.count; i++, q = (q + 1) & this.mask) if (this.at[q]! > m) m = this.at[q]!;
    return m;
  }

  /** Commits the writes due at `now` (tick step 1); true when any did. */
  commitDue(now: number): boolean {
    let did = false;
    while (this.count > 0 && this.at[this.head]! <= now) {
      this.slots[this.slot[this.head]!]!.writes--;
      this.head = (this.head + 1) & this.mask;
      this.count--;
      did = true;
    }
    return did;
  }

  /** Posts `n` writes of trip slot `slot` issued at `now`. */
  post(slot: number, now: number, n: number): void {
    for (let i = 0; i < n; i++) {
      if (this.count > this.mask) {
        // ring full: commit the oldest now (never expected with 100-cycle latency)
        this.slots[this.slot[this.head]!]!.writes--;
        this.head = (this.head + 1) & this.mask;
        this.count--;
      }
      const k = (this.head + this.count) & this.mask;
      this.at[k] = now + this.latency;
      this.slot[k] = slot;
      this.count++;
      this.slots[slot]!.writes++;
    }
  }

  /** The newest `n` posted writes commit `late` cycles later (their bank access was served late). */
  delayNewest(n: number, late: number): void {
    for (let i = 0; i < n && i < this.count; i++) {
      const k = (this.head + this.count - 1 - i) & this.mask;
      this.at[k] = this.at[k]! + late;
    }
  }

  /**
   * K cycles c .. c + k - 1 of a steady-state batch (batchMove.ts): per cycle t the commits due at t, then one posted
   * write of trip slot `tripSlot`. Locals only; the trip's `writes` count takes the net of its pushes and pops at the
   * end (nothing reads it inside the window).
   */
  batch(c: number, k: number, tripSlot: number): void {
    const commitAt = this.at;
    const commitSlot = this.slot;
    const cm = this.mask;
    const lat = this.latency;
    const slots = this.slots;
    let cHead = this.head;
    let cCount = this.count;
    let dTrip = k;
    let due = cCount > 0 ? commitAt[cHead]! : Infinity;
    // entries posted before the window (at the head, popped first); once they are gone the ring holds only the
    // window's own writes, whose commit cycles increase by one per cycle: the rest of the window in closed form
    let pre = cCount;
    let j = 0;
    if (pre > 0) {
      // FIFO: the i-th entry posted before the window pops at max(c, the commit cycles of entries 0..i); the window's
      // own writes pop only after all of them. When the ring cannot fill before the last of them pops (then the
      // per-cycle loop below never takes its ring-full branch), that phase in closed form (no per-cycle loop)
      let T = c;
      let q = cHead;
      for (let i = 0; i < pre; i++) {
        const a = commitAt[q]!;
        if (a > T) T = a;
        q = (q + 1) & cm;
      }
      const end = T < c + k ? T - c : k - 1;
      if (pre + end <= cm) {
        let h = cHead;
        let popped = 0;
        let m = c;
        for (; popped < pre; popped++) {
          const a = commitAt[h]!;
          if (a > m) m = a;
          if (m >= c + k) break;
          const s = commitSlot[h]!;
          if (s === tripSlot) dTrip--;
          else slots[s]!.writes--;
          h = (h + 1) & cm;
        }
        // the window's own writes of cycles 0 .. j - 1 posted in this phase (at the tail, behind the entries above)
        j = T < c + k ? T - c + 1 : k;
        const tail = cHead + cCount;
        for (let i = 0; i < j; i++) {
          const r = (tail + i) & cm;
          commitAt[r] = c + i + lat;
          commitSlot[r] = tripSlot;
        }
        let first = 0;
        if (popped === pre) {
          // in the last one's cycle T the own writes due by T pop too: those of cycles i <= T - c - lat, posted before T
          first = T - c - lat + 1;
          if (first > T - c) first = T - c;
          if (first < 0) first = 0;
          dTrip -= first;
        }
        cHead = (h + first) & cm;
        cCount = pre - popped + j - first;
        pre = 0;
      }
    }
    for (; j < k && pre > 0; j++) {
      const t = c + j;
      // the entries due at t, then (a full ring) the oldest one early: entries pop in order, so after the due ones
      // the next is due after t and the loop forces at most one pop
      while (due <= t || cCount > cm) {
        const s = commitSlot[cHead]!;
        if (s === tripSlot) dTrip--;
        else slots[s]!.writes--;
        cHead = (cHead + 1) & cm;
        if (pre > 0) pre--;
        due = --cCount > 0 ? commitAt[cHead]! : Infinity;
      }
      const q = (cHead + cCount) & cm;
      commitAt[q] = t + lat;
      commitSlot[q] = tripSlot;
      if (cCount++ === 0) due = t + lat;
    }
    if (j < k) {
      // the ring holds the writes of cycles j - cCount .. j - 1 (in order from the head). A write of cycle i commits at
      // cycle i + L (L = max(latency, 1): a commit due in its own cycle was posted after that cycle's commits), so at
      // the end the writes of cycles max(first, k - L) .. k - 1 are posted (at most L <= mask of them: the ring never
      // fills), the others committed
      const L = lat > 1 ? lat : 1;
      const first = j - cCount;
      const from = k - L > first ? k - L : first;
      const popped = from - first;
      for (let i = from > j ? from : j; i < k; i++) {
        const q = (cHead + (i - first)) & cm;
        commitAt[q] = c + i + lat;
        commitSlot[q] = tripSlot;
      }
      dTrip -= popped;
      cHead = (cHead + popped) & cm;
      cCount = k - from;
    }
    slots[tripSlot]!.writes += dTrip;
    this.head = cHead;
    this.count = cCount;
  }
}
