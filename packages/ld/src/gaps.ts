/**
 * The free address ranges ("gaps") of one memory region, for first-fit
 * placement in O(log n) per item: a treap ordered by address whose nodes carry,
 * for every alignment requested so far, the most bytes a gap of their subtree
 * offers at an aligned start (`end - alignUp(start, align)`). The search for the
 * lowest gap an item fits in then descends one path: a subtree is entered only
 * when it holds a fitting gap. (Keeping the plain longest gap instead is not
 * enough: after items of 1 KiB alignment, every leftover gap may be long enough
 * but misaligned, and each search would visit them all.)
 *
 * `steps` counts the nodes visited (scale tests check it grows as n log n).
 */
export class GapSet {
  private readonly start: number[] = [];
  private readonly end: number[] = [];
  /** Alignments seen by `find`, and per alignment the best aligned room of each node's subtree. */
  private readonly aligns: number[] = [];
  private readonly room: number[][] = [];
  private readonly left: number[] = [];
  private readonly right: number[] = [];
  private readonly prio: number[] = [];
  private readonly free: number[] = [];
  private root = -1;
  private seed = 0x2545f491;
  /** Nodes visited by searches and updates since construction. */
  steps = 0;

  private rand(): number {
    // xorshift32: deterministic priorities (the placement itself never depends on them)
    let x = this.seed;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.seed = x >>> 0;
    return this.seed;
  }

  private node(s: number, e: number): number {
    const n = this.free.pop() ?? this.start.length;
    this.start[n] = s;
    this.end[n] = e;
    this.left[n] = -1;
    this.right[n] = -1;
    this.prio[n] = this.rand();
    this.pull(n);
    return n;
  }

  private pull(n: number): void {
    const l = this.left[n]!;
    const r = this.right[n]!;
    const s = this.start[n]!;
    const e = this.end[n]!;
    for (let i = 0; i < this.aligns.length; i++) {
      const a = this.aligns[i]!;
      const room = this.room[i]!;
      let m = e - Math.ceil(s / a) * a;
      if (l >= 0 && room[l]! > m) m = room[l]!;
      if (r >= 0 && room[r]! > m) m = room[r]!;
      room[n] = m;
    }
  }

  /** The aggregate index of alignment `a`, computed over the whole tree the first time it is asked for. */
  private alignIndex(a: number): number {
    let i = this.aligns.indexOf(a);
    if (i >= 0) return i;
    i = this.aligns.length;
    this.aligns.push(a);
    this.room.push([]);
    const room = this.room[i]!;
    const fill = (t: number): number => {
      if (t < 0) return -Infinity;
      this.steps++;
      const m = Math.max(this.end[t]! - Math.ceil(this.start[t]! / a) * a, fill(this.left[t]!), fill(this.right[t]!));
      room[t] = m;
      return m;
    };
    fill(this.root);
    return i;
  }

  /** Splits subtree `t` into gaps starting before `key` and the rest. */
  private split(t: number, key: number): [number, number] {
    if (t < 0) return [-1, -1];
    this.steps++;
    if (this.start[t]! < key) {
      const [a, b] = this.split(this.right[t]!, key);
      this.right[t] = a;
      this.pull(t);
      return [t, b];
    }
    const [a, b] = this.split(this.left[t]!, key);
    this.left[t] = b;
    this.pull(t);
    return [a, t];
  }

  private merge(a: number, b: number): number {
    if (a < 0) return b;
    if (b < 0) return a;
    this.steps++;
    if (this.prio[a]! > this.prio[b]!) {
      this.right[a] = this.merge(this.right[a]!, b);
      this.pull(a);
      return a;
    }
    this.left[b] = this.merge(a, this.left[b]!);
    this.pull(b);
    return b;
  }

  /** Adds the free range [s, e) (it must not overlap a gap already in the set). */
  add(s: number, e: number): void {
    if (e <= s) return;
    const [a, b] = this.split(this.root, s);
    this.root = this.merge(this.merge(a, this.node(s, e)), b);
  }

  /** Removes the gap starting at `s`. */
  private remove(s: number): void {
    const [a, bc] = this.split(this.root, s);
    const [b, c] = this.split(bc, s + 1);
    if (b >= 0) this.free.push(b);
    this.root = this.merge(a, c);
  }

  /**
   * The lowest address `alignUp(gapStart, align)` of a gap that holds `size` bytes there, or undefined.
   * One path from the root: O(log n) expected.
   */
  find(size: number, align: number): { gap: number; at: number } | undefined {
    const room = this.room[this.alignIndex(align)]!;
    let t = this.root;
    if (t < 0 || room[t]! < size) return undefined;
    for (;;) {
      this.steps++;
      const l = this.left[t]!;
      if (l >= 0 && room[l]! >= size) {
        t = l;
        continue;
      }
      const at = Math.ceil(this.start[t]! / align) * align;
      if (at + size <= this.end[t]!) return { gap: t, at };
      t = this.right[t]!; // the subtree holds a fitting gap, and it is not left of or at t
    }
  }

  /** Takes [at, at+size) out of gap `gap` (as returned by `find`), keeping the pieces before and after. */
  take(gap: number, at: number, size: number): void {
    const s = this.start[gap]!;
    const e = this.end[gap]!;
    this.remove(s);
    this.add(s, at);
    this.add(at + size, e);
  }
}
