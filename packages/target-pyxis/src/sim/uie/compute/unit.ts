/**
 * The contract between the sequencer cores and the compute datapath (seq §3): every compute sequencer (WDP, GH, GV,
 * GX, GWB) issues one microinstruction per cycle into its own decoder FIFO; the datapath unit behind it pops the
 * FIFO head when the unit's dependencies are met (Hbuf credits, staging, writeback credits, switchbox FIFOs, seq
 * §9.1.5, §10.1.2, §10.3.2, §11.4) and executes it. The sequencer stalls only when its decoder FIFO is full.
 *
 * Decoder records are Int32 words; words 0..HDR_WORDS-1 are written by the glue (sequencing.ts), the unit's
 * `decode` writes the rest. Everything that depends on iterator state (addresses, iter_mask conditions) is
 * evaluated in `decode`, at issue time, because the core's iterators move on (same rule as AMEM Read/Write).
 */
import type { Fifo } from '@pyxis/sim';
import type { SeqState } from '../records.js';
import type { OpStore } from '../tables.js';
import type { Uie } from '../uie.js';

/** Record word: trip slot of the instruction. */
export const H_SLOT = 0;
/** Record word: 1 when this is the last instruction of the sequencer's program for the trip (core done after it). */
export const H_LAST = 1;
/** Record word: pc of the instruction (diagnostics). */
export const H_PC = 2;
/** Record word: 1 when the instruction is post-final (seq §2.1.2). */
export const H_POSTFINAL = 3;
export const HDR_WORDS = 4;

export interface ComputeUnit {
  /** Sequencer id feeding this unit (grammars/pyxis/memory_map.json). */
  readonly seqId: number;
  /** The decoder-metadata FIFO between the sequencer core and this unit (seq §3); width >= HDR_WORDS. */
  readonly dec: Fifo;
  /**
   * The sequencer core has just executed `s.core.execPc` with iterator values `s.core.execCount` (flags
   * `s.core.itersEqZero`/`itersEqNloops` describe the executed instruction's iterators too, see sequencerCore.ts):
   * fill words HDR_WORDS.. of the record at word offset `rec` of `dec.data` (Fifo.pushSlot/peekSlot return word offsets).
   */
  decode(s: SeqState, rec: number): void;
  /** Trip start for this sequencer (per-trip state such as a configuration reset). */
  startTrip(s: SeqState): void;
  /**
   * The datapath side, once per cycle (downstream units first). Returns true when it did something (popped,
   * executed, moved data). When it waits, it may set `uie.blocked ??= reason` (a string built once) so the
   * kernel's deadlock report names the dependency, and count the stall cycle under its reason.
   * When the unit retires a record with H_LAST = 1 it calls `uie.seqDone(seqId, slot)`.
   */
  tick(now: number): boolean;
  /** The earliest cycle > now at which the unit has a timed event (pipeline latency), or Infinity. */
  nextEvent(now: number): number;
  /** True when nothing of this unit is in flight (decoder FIFO empty, no pipelined work). */
  readonly idle: boolean;
}

/**
 * Pops the head record of `unit`'s decoder FIFO and, when it was the last instruction of its trip for that sequencer
 * (H_LAST), signals the sequencer done for the record's trip slot. Returns true (the unit did something).
 */
export function retireHead(u: Uie, unit: ComputeUnit): boolean {
  const dec = unit.dec;
  const r = dec.peekSlot();
  const last = dec.data[r + H_LAST] === 1;
  const slot = dec.data[r + H_SLOT]!;
  dec.pop();
  if (last) u.seqDone(unit.seqId, slot);
  return true;
}

const NO_OP_FIELD = new Int32Array(32);

/** Placeholder field arrays of `names` (every field 0) until a trip binds the op memory (`opFieldArrays`). */
export function noOpFields<K extends string>(names: readonly K[]): Record<K, Int32Array> {
  const f = {} as Record<K, Int32Array>;
  for (const n of names) f[n] = NO_OP_FIELD;
  return f;
}

/** The decoded op-memory arrays of `names` (one per field, indexed by pc), bound at trip start; undefined without an op memory. */
export function opFieldArrays<K extends string>(op: OpStore | undefined, names: readonly K[]): Record<K, Int32Array> | undefined {
  if (!op) return undefined;
  const f = {} as Record<K, Int32Array>;
  for (const n of names) f[n] = op.field(n);
  return f;
}
