/**
 * Bounded FIFOs over typed arrays: the only way engines exchange data in the
 * simulator, so backpressure (a full FIFO = no credit) is always modelled.
 * Each entry holds `width` 32-bit words; `push`/`pop` never allocate.
 */
import { dbl } from './doubleField.js';

export class Fifo {
  readonly capacity: number;
  readonly width: number;
  /** Entry storage: entry i occupies words [i*width, (i+1)*width). */
  readonly data: Int32Array;
  private head = 0;
  private count = 0;
  /** Credits handed out by `reserve` and not yet filled by `push`. */
  private reserved = 0;
  /** Statistics: entries pushed/popped, cycles a producer found no credit, high-water mark. */
  pushes = 0;
  pops = 0;
  // double from the start (doubleField.ts): stall runs add counts computed from cycles; a Smi field generalised then
  // deprecated the map, and a thread's next partition re-typed the fields holding FIFOs (lazy deopts)
  fullStalls = dbl(0);
  maxOccupancy = 0;

  constructor(
    readonly name: string,
    capacity: number,
    width = 1,
  ) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`fifo ${name}: capacity must be >= 1`);
    if (!Number.isInteger(width) || width < 1) throw new RangeError(`fifo ${name}: width must be >= 1`);
    this.capacity = capacity;
    this.width = width;
    this.data = new Int32Array(capacity * width);
  }

  get occupancy(): number {
    return this.count;
  }
  get empty(): boolean {
    return this.count === 0;
  }
  get full(): boolean {
    return this.count + this.reserved >= this.capacity;
  }
  /** Free slots not promised to anybody: the producer's credits. */
  get credits(): number {
    return this.capacity - this.count - this.reserved;
  }

  /** Takes one credit now for an entry that will be pushed later (e.g. after a latency). */
  reserve(): boolean {
    if (this.count + this.reserved >= this.capacity) {
      this.fullStalls++;
      return false;
    }
    this.reserved++;
    return true;
  }

  /**
   * Appends an entry and returns the word offset of its slot in `data`, so the
   * producer can fill the remaining words in place; -1 (and a stall is counted)
   * when full. `fromReserved` consumes a credit taken earlier with `reserve`.
   */
  pushSlot(fromReserved = false): number {
    if (fromReserved) {
      if (this.reserved <= 0) throw new Error(`fifo ${this.name}: push from reserve without a reservation`);
      this.reserved--;
    } else if (this.count + this.reserved >= this.capacity) {
      this.fullStalls++;
      return -1;
    }
    let tail = this.head + this.count;
    if (tail >= this.capacity) tail -= this.capacity;
    this.count++;
    this.pushes++;
    if (this.count > this.maxOccupancy) this.maxOccupancy = this.count;
    return tail * this.width;
  }

  /** Pushes a one-word value (word 0 of the entry). False when full. */
  push(value: number): boolean {
    const at = this.pushSlot();
    if (at < 0) return false;
    this.data[at] = value;
    return true;
  }

  /** Word offset of the head entry in `data`, or -1 when empty. */
  peekSlot(): number {
    return this.count === 0 ? -1 : this.head * this.width;
  }
  /** Word `word` of the head entry (undefined behaviour when empty: returns 0). */
  peek(word = 0): number {
    return this.count === 0 ? 0 : this.data[this.head * this.width + word]!;
  }

  /** Removes the head entry; returns word 0 of it (0 when empty: check `empty` first). */
  pop(): number {
    if (this.count === 0) return 0;
    const v = this.data[this.head * this.width]!;
    this.head++;
    if (this.head === this.capacity) this.head = 0;
    this.count--;
    this.pops++;
    return v;
  }

  /**
   * `n` times one `pop` then one `pushSlot` (an entry streaming through at constant occupancy): the head moves by `n`,
   * `n` pops and `n` pushes are counted, occupancy and high-water mark stay. The entry pushed by the i-th pair
   * (i < n) is at word offset ((head + occupancy + i) mod capacity) * width with the head before the call; the caller
   * fills those slots. The FIFO must not be empty (a pop of an empty FIFO does nothing).
   */
  rotate(n: number): void {
    if (this.count === 0) throw new Error(`fifo ${this.name}: rotate of an empty FIFO`);
    // `| 0`: an integer either way; keeps the field a V8 Smi when `n` arrives as a heap number (kernel/doubleField.ts)
    this.head = ((this.head + n) % this.capacity) | 0;
    this.pops += n;
    this.pushes += n;
  }

  clear(): void {
    this.head = 0;
    this.count = 0;
    this.reserved = 0;
  }
}

/**
 * A FIFO of JavaScript objects (descriptors, trip records) with the same
 * bounded-credit semantics; the slot array is allocated once.
 */
export class ObjectFifo<T> {
  private readonly slots: (T | undefined)[];
  private head = 0;
  private count = 0;
  pushes = 0;
  fullStalls = 0;
  maxOccupancy = 0;
  constructor(
    readonly name: string,
    readonly capacity: number,
  ) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`fifo ${name}: capacity must be >= 1`);
    this.slots = new Array<T | undefined>(capacity).fill(undefined);
  }
  get occupancy(): number {
    return this.count;
  }
  get empty(): boolean {
    return this.count === 0;
  }
  get full(): boolean {
    return this.count >= this.capacity;
  }
  get credits(): number {
    return this.capacity - this.count;
  }
  push(v: T): boolean {
    if (this.count >= this.capacity) {
      this.fullStalls++;
      return false;
    }
    let tail = this.head + this.count;
    if (tail >= this.capacity) tail -= this.capacity;
    this.slots[tail] = v;
    this.count++;
    this.pushes++;
    if (this.count > this.maxOccupancy) this.maxOccupancy = this.count;
    return true;
  }
  peek(): T | undefined {
    return this.count === 0 ? undefined : this.slots[this.head];
  }
  pop(): T | undefined {
    if (this.count === 0) return undefined;
    const v = this.slots[this.head];
    this.slots[this.head] = undefined;
    this.head++;
    if (this.head === this.capacity) this.head = 0;
    this.count--;
    return v;
  }
}
