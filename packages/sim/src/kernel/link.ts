/**
 * A timed link: the only way state crosses a partition boundary (a cluster,
 * later a worker thread or a chip in another process). A message sent at
 * cycle `now` is delivered at `deliverAt >= now + minLatency` (minLatency >= 1
 * cycles: the lookahead that lets the two sides run a cycle apart) at the
 * start of the receiving phase, before that phase's engines tick, so every
 * engine of the receiving side sees it in the same cycle whatever the
 * registration order. Messages due in the same cycle are delivered in
 * (deliverAt, sender key, send sequence) order: the sender key is a number the
 * model gives each sender (never the registration index), so the order is a
 * property of the model, not of how it was built.
 */
export class TimedLink<T> {
  /** Binary min-heap over (at, key, seq); parallel arrays so that ordering allocates nothing per message. */
  private at: number[] = [];
  private key: number[] = [];
  private seq: number[] = [];
  private msg: T[] = [];
  private nextSeq = 0;
  /** Messages delivered (stats). */
  delivered = 0;

  constructor(
    readonly name: string,
    /** Minimum latency in cycles (>= 1): the lookahead of this link. */
    readonly minLatency: number,
    /** Kernel phase in which messages are delivered (see Simulator: phases). */
    readonly phase: number,
    private readonly deliver: (msg: T, now: number) => void,
  ) {
    if (!(Number.isInteger(minLatency) && minLatency >= 1)) throw new RangeError(`link ${name}: minimum latency must be an integer >= 1 cycle, got ${minLatency}`);
  }

  /** Messages in flight. */
  get pending(): number {
    return this.at.length;
  }

  /** Cycle of the earliest pending delivery (Infinity when none). */
  get nextAt(): number {
    return this.at.length ? this.at[0]! : Infinity;
  }

  /**
   * A link between two partitions (partitioned.ts): `send` only records the message in an outbox, which the
   * partitioned runner moves into the heap between windows (`flushOutbox`), so that what the receiving partition sees
   * inside a window never depends on which partition ran first (or on which thread). Sender keys must then name the
   * sender uniquely across partitions.
   */
  crossPartition = false;
  private outbox: Array<{ at: number; key: number; msg: T }> = [];

  /** Sends `msg` from sender `key` at `now`, delivered at `deliverAt` (>= now + minLatency). */
  send(now: number, deliverAt: number, key: number, msg: T): void {
    if (!(deliverAt >= now + this.minLatency))
      throw new RangeError(`link ${this.name}: message sent at cycle ${now} for cycle ${deliverAt} violates the minimum latency of ${this.minLatency}`);
    if (this.crossPartition) {
      this.outbox.push({ at: deliverAt, key, msg });
      return;
    }
    this.insert(deliverAt, key, msg);
  }

  /** Messages sent across partitions in the current window, not yet in the heap. */
  get outboxSize(): number {
    return this.outbox.length;
  }

  /**
   * Moves the window's cross-partition messages into the heap. Their order is (at, key, send order per key), as for
   * direct sends: the heap's sequence numbers are given here in the outbox order sorted by (at, key), and a stable
   * sort keeps each sender's own order.
   */
  flushOutbox(): number {
    const box = this.outbox;
    const n = box.length;
    if (n === 0) return 0;
    box.sort((a, b) => a.at - b.at || a.key - b.key);
    for (let i = 0; i < n; i++) this.insert(box[i]!.at, box[i]!.key, box[i]!.msg);
    this.outbox = [];
    return n;
  }

  /**
   * Threaded runs (threaded.ts): drains the window's outbox without delivering it, for a link that stands in, in the
   * sending partition, for another partition's inbound link (the messages cross to that partition's thread).
   */
  takeOutbox(): Array<{ at: number; key: number; msg: T }> {
    const box = this.outbox;
    this.outbox = [];
    return box;
  }

  /** Threaded runs: a message sent by another partition, placed in the outbox; `flushOutbox` orders it with the rest. */
  acceptRemote(at: number, key: number, msg: T): void {
    this.outbox.push({ at, key, msg });
  }

  private insert(deliverAt: number, key: number, msg: T): void {
    const a = this.at;
    let i = a.length;
    a.push(deliverAt);
    this.key.push(key);
    this.seq.push(this.nextSeq++);
    this.msg.push(msg);
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(i, p)) break;
      this.swap(i, p);
      i = p;
    }
  }

  private less(i: number, j: number): boolean {
    const a = this.at;
    if (a[i] !== a[j]) return a[i]! < a[j]!;
    if (this.key[i] !== this.key[j]) return this.key[i]! < this.key[j]!;
    return this.seq[i]! < this.seq[j]!;
  }

  private swap(i: number, j: number): void {
    let t: number = this.at[i]!;
    this.at[i] = this.at[j]!;
    this.at[j] = t;
    t = this.key[i]!;
    this.key[i] = this.key[j]!;
    this.key[j] = t;
    t = this.seq[i]!;
    this.seq[i] = this.seq[j]!;
    this.seq[j] = t;
    const m = this.msg[i]!;
    this.msg[i] = this.msg[j]!;
    this.msg[j] = m;
  }

  private pop(): T {
    const m = this.msg[0]!;
    const last = this.at.length - 1;
    if (last > 0) this.swap(0, last);
    this.at.pop();
    this.key.pop();
    this.seq.pop();
    this.msg.pop();
    const n = this.at.length;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let s = i;
      if (l < n && this.less(l, s)) s = l;
      if (r < n && this.less(r, s)) s = r;
      if (s === i) break;
      this.swap(i, s);
      i = s;
    }
    return m;
  }

  /** Delivers every message due at or before `now`; returns how many. Called by the kernel. */
  deliverDue(now: number): number {
    let n = 0;
    while (this.at.length && this.at[0]! <= now) {
      this.deliver(this.pop(), now);
      n++;
    }
    this.delivered += n;
    return n;
  }
}
