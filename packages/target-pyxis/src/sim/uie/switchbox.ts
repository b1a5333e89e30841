/**
 * AMEM - Grid - VPU switchbox FIFOs (chip §6.2.3): one bounded FIFO per
 * source/destination pair, each entry a flit of 128 RFP16 columns. Producers
 * need a credit (a free slot) to push; consumers pop in program order.
 *
 * An entry produced by AMEM Read without column switching may be stored
 * *deferred*: the post-RPSW AMEM lanes plus the read conversion (data_type,
 * eb_adj, ReLU), converted where it is consumed with the same tables, so every
 * consumer sees exactly the columns a source-side conversion would give
 * (`headColumns`), and AMEM Write can compose both conversions into one table.
 */
import { Fifo } from '@pyxis/sim';
import { is16bit, to16Table } from './convert.js';

/** `meta` words per entry: [deferred?, data_type, eb_adj, relu]. */
export const SB_META = 4;

export class SwitchboxFifo extends Fifo {
  /** Entry k: 128 RFP16 columns at [k*128, k*128+128) (when not deferred). */
  readonly flits: Uint16Array;
  /** Entry k: 256 lane bytes at [k*256, k*256+256) (when deferred). */
  readonly raw: Uint8Array;
  readonly raw32: Uint32Array;
  readonly meta: Int32Array;
  /** Per entry k: a view of raw32[k*64, k*64+32) (the 128 lane bytes of an 8-bit flit), for block moves without allocation. */
  readonly rawWordView: Uint32Array[];
  /**
   * Per entry: the first cycle its data may be consumed (docs/timing-model.md "AMEM banks": an AMEM Read flit is pushed
   * in its issue cycle and is there request_shim + read_latency + switch_convert cycles after its bank access). The
   * one producer of the AMEM-read FIFOs stamps it (readPath.ts); every consumer asks `headReadyAt` (0: no latency).
   */
  readonly readyAt: Float64Array;

  constructor(name: string, depth: number) {
    super(name, depth, 1);
    this.readyAt = new Float64Array(depth);
    this.flits = new Uint16Array(depth * 128);
    this.raw = new Uint8Array(depth * 256);
    this.raw32 = new Uint32Array(this.raw.buffer);
    this.meta = new Int32Array(depth * SB_META);
    this.rawWordView = [];
    for (let k = 0; k < depth; k++) this.rawWordView.push(this.raw32.subarray(k * 64, k * 64 + 32));
  }

  /** The cycle the head entry's data is there (`readyAt`); the FIFO must not be empty. */
  headReadyAt(): number {
    return this.readyAt[this.peekSlot()]!;
  }

  /** Pushes 128 RFP16 columns from src[base..]; false (stall counted) when there is no credit. */
  pushColumns(src: Uint16Array, base = 0): boolean {
    const slot = this.pushSlot();
    if (slot < 0) return false;
    for (let c = 0; c < 128; c++) this.flits[slot * 128 + c] = src[base + c]!;
    this.meta[slot * SB_META] = 0;
    return true;
  }

  /** The head entry's 128 RFP16 columns into dst[base..] (deferred conversions applied). Head must exist. */
  headColumns(dst: Uint16Array, base = 0): void {
    const slot = this.peekSlot();
    const m = slot * SB_META;
    if (this.meta[m] !== 1) {
      for (let c = 0; c < 128; c++) dst[base + c] = this.flits[slot * 128 + c]!;
      return;
    }
    const dt = this.meta[m + 1]!;
    convertLanesTo16(to16Table(dt, this.meta[m + 2]!, (this.meta[m + 3]! & 1) === 1, this.meta[m + 3]! >> 1), this.raw, slot * 256, is16bit(dt), dst, base);
  }
}

/**
 * The switchbox read-latency rule, for every consumer (AMEM Write, GV, SB2VB): true while the head entry's data is not
 * there yet (`readyAt` > now; the FIFO must not be empty); the consumer then waits, and wakes at that cycle (`w.portWake`).
 */
export function headWaiting(sb: SwitchboxFifo, now: number, w: { portWake: number }): boolean {
  const r = sb.readyAt[sb.peekSlot()]!;
  if (r <= now) return false;
  if (r < w.portWake) w.portWake = r;
  return true;
}

/**
 * 8b->16b converter and FP16 deserializer (chip §6.2.1.4) as table lookups:
 * 8-bit: column c = lane byte c; 16-bit: logical partition o's columns are the
 * LE values of its cycle-0 bytes then its cycle-1 bytes (docs/spec-notes.md).
 */
export function convertLanesTo16(tab: Uint16Array, l: Uint8Array, lb: number, wide: boolean, dst: Uint16Array, base: number): void {
  if (!wide) {
    for (let c = 0; c < 128; c++) dst[base + c] = tab[l[lb + c]!]!;
    return;
  }
  for (let o = 0; o < 8; o++) {
    const b0 = lb + o * 16;
    const d0 = base + o * 16;
    for (let i = 0; i < 8; i++) {
      dst[d0 + i] = tab[l[b0 + 2 * i]! | (l[b0 + 2 * i + 1]! << 8)]!;
      dst[d0 + 8 + i] = tab[l[128 + b0 + 2 * i]! | (l[128 + b0 + 2 * i + 1]! << 8)]!;
    }
  }
}
