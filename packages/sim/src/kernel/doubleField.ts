/**
 * Host speed only, never results (docs/dev/performance.md "V8 field representations"). V8 gives an object field the
 * representation of the first value stored in it: a small integer makes it a Smi field. When a later store holds a
 * heap number (a cycle computed in double arithmetic or read from a Float64Array, Infinity) V8 generalises the field
 * to double: the object's map is deprecated, every optimised function that relied on it deoptimises ("wrong map",
 * "not a Smi") and is compiled again, on the compiler threads that compete with the simulating ones. A field that
 * holds cycles (or any count that may be computed in doubles) is initialised with `dbl(x)`: the value x, stored as a
 * heap number, so the field is double from the first object on and never generalised later.
 */
const box = new Float64Array(1);

/** `x` itself (the same number); as a heap number when called cold, which is when the first object is built. */
export function dbl(x: number): number {
  box[0] = x;
  return box[0]!;
}

/**
 * `x` itself (the same number), as a small integer where it is an integer of 31 bits. Unoptimised code (the interpreter, and
 * an optimised function's caller after a deopt) reads a `dbl` field or a Float64Array element as a heap number and
 * keeps every sum computed from it a heap number; a cycle passed on like that reaches optimised callees that have
 * seen only small integers and deoptimises each of them ("not a Smi"). Host speed only, never results.
 */
export function smi(x: number): number {
  const i = x | 0;
  return i === x && i >= -0x40000000 && i < 0x40000000 ? i : x;
}
// Seen with heap numbers at load (V8 gives it a feedback vector only after some tens of calls): its own `x | 0` is
// compiled for both kinds of input and never deoptimises.
for (let k = 0; k < 64; k++) smi(dbl(k / 2));

/**
 * An empty array of V8's object elements kind (PACKED_ELEMENTS). A literal `[]` starts as small integers and changes
 * its map when the first object goes in; code optimised on arrays already holding objects then deoptimises ("wrong
 * map") on a fresh one, e.g. every engine of the next partition a thread builds (issue 22). Host speed only.
 */
export function objs<T>(): T[] {
  const a: T[] = [undefined as T];
  a.pop();
  return a;
}
