/**
 * Performance samples (spec §5): every `sample_interval` cycles, one 64-bit
 * word with the program counter in bits 0-31 and, from bit 32, a valid/ready
 * pair per decoder control bus in the order of the spec's table (array, acc,
 * dataflow, DRAM1, DRAM0, MemPortB, MemPortA, instruction; valid the lower
 * bit). The first sample is taken in the cycle the Configure that sets a
 * non-zero interval completes (the RTL sampler fires when its down-counter is
 * 0, which it is when sampling starts), then every interval cycles.
 *
 * The bits follow the cycle model's phases of the instruction that occupies
 * the decoder (docs/timing-model.md "## systolic", "Performance samples"):
 * a bus is *valid* while the decoder has a control word for its unit and
 * *ready* while the unit can accept one. Idle units are ready, not valid; a
 * unit still working after its words were sent (array fill/drain, accumulator
 * write-back, SIMD pipeline, a hazard wait) is neither; a DRAM bus waiting for
 * the AXI round trip is valid, not ready, and then ready once per vector. The
 * instruction bus is valid and ready in an instruction's first cycle (the
 * decoder takes it), then valid (another instruction waits) but not ready.
 * Words go to growable typed arrays: no allocation per sample.
 */
import type { Arch } from './arch.js';
import { fixedType } from './fixed.js';
import { DM, LOADWEIGHT_ZEROES, MATMUL_ZEROES, OP, type TimingData } from './grammar.js';
import type { Program } from './isa.js';
import type { CycleClass } from './timing.js';

/** Bus index k: valid at bit 32 + 2k, ready at 33 + 2k (spec §5 table order). */
export const BUS = { array: 0, acc: 1, dataflow: 2, dram1: 3, dram0: 4, memPortB: 5, memPortA: 6, instruction: 7 } as const;
export const BUS_NAMES = Object.keys(BUS) as Array<keyof typeof BUS>;
const bit = (k: number) => 1 << k;

export class Sampler {
  /** Low and high 32 bits of each word (PC; flags in bits 0-15 of the high half). */
  private lo = new Uint32Array(1024);
  private hi = new Uint32Array(1024);
  count = 0;
  /** Next cycle to sample at; Infinity while sampling is off. */
  next = Infinity;
  interval = 0;
  private readonly beats: number;

  constructor(private readonly program: Program, private readonly timing: TimingData, arch: Arch) {
    this.beats = Math.max(1, Math.ceil((arch.array_size * fixedType(arch.data_type).bytes) / timing.dram_bytes_per_cycle), timing.vector_cycles);
  }

  /** A Configure set the interval: sampling restarts at `from` (0 stops it). */
  configure(interval: number, from: number): void {
    this.interval = interval;
    this.next = interval > 0 ? from : Infinity;
  }

  /** Samples the instruction at `pc` occupying the decoder over [start, end). */
  instruction(pc: number, start: number, end: number, cls: CycleClass): void {
    if (this.next >= end) return;
    const p = this.program;
    const T = this.timing;
    const op = p.op[pc]!;
    const f = p.flags[pc]!;
    const more = pc + 1 < p.count;
    // buses the instruction sends control words on, and its phases (cycles from `start`)
    let mask = 0;
    let dram = -1;
    const t0 = T.decode_cycles;
    let t1 = t0; // words are sent in [t0, t1); the units work on until `end`
    let wait = 0; // DRAM: the round trip before the first vector, [t0, t0 + wait)
    const vectors = p.a2[pc]! + 1;
    switch (cls) {
      case 1:
        if (op === OP.LoadWeight) {
          mask = bit(BUS.array) | (f & LOADWEIGHT_ZEROES ? 0 : bit(BUS.memPortB));
          t1 = t0 + (p.a1[pc]! + 1) * T.vector_cycles;
        } else {
          mask = bit(BUS.array) | bit(BUS.acc) | bit(BUS.dataflow) | (f & MATMUL_ZEROES ? 0 : bit(BUS.memPortA));
          t1 = t0 + vectors * T.vector_cycles;
        }
        break;
      case 2:
        mask = bit(BUS.acc);
        t1 = t0 + 1;
        break;
      case 3:
        mask = bit(BUS.acc) | bit(BUS.dataflow) | bit(BUS.memPortA);
        t1 = t0 + vectors * T.vector_cycles;
        break;
      case 4: {
        const one = f === DM.dram0ToLocal || f === DM.localToDram0;
        dram = one ? BUS.dram0 : BUS.dram1;
        // DRAM0 data goes through the router to port A; DRAM1 data straight into port B (the weights port)
        mask = bit(dram) | (one ? bit(BUS.dataflow) | bit(BUS.memPortA) : bit(BUS.memPortB));
        wait = T.dram_latency_cycles;
        t1 = end - start;
        break;
      }
      default:
        if (op === OP.LoadLUT) {
          mask = bit(BUS.memPortA);
          t1 = end - start;
        }
    }
    for (; this.next < end; this.next += this.interval) {
      const r = this.next - start;
      let valid = 0;
      let busy = 0; // units that are not ready
      if (r >= t0 && r < t1) {
        if (r < t0 + wait) {
          valid = bit(dram);
          busy = bit(dram);
        } else {
          valid = mask;
          // a DRAM vector completes once every `beats` cycles: the bus is ready on that cycle only
          if (dram >= 0 && (r - t0 - wait) % this.beats !== this.beats - 1) busy = bit(dram);
        }
      } else if (r >= t1) busy = mask;
      let flags = 0;
      for (let k = 0; k < 7; k++) {
        if (valid & bit(k)) flags |= 1 << (2 * k);
        if (!(busy & bit(k))) flags |= 2 << (2 * k);
      }
      if (r === 0) flags |= 3 << 14;
      else if (more) flags |= 1 << 14;
      this.push(pc, flags);
    }
  }

  private push(pc: number, flags: number): void {
    if (this.count === this.lo.length) {
      const lo = new Uint32Array(this.count * 2);
      const hi = new Uint32Array(this.count * 2);
      lo.set(this.lo);
      hi.set(this.hi);
      this.lo = lo;
      this.hi = hi;
    }
    this.lo[this.count] = pc >>> 0;
    this.hi[this.count] = flags;
    this.count++;
  }

  /** Sample k as its 64-bit word. */
  word(k: number): bigint {
    return (BigInt(this.hi[k]!) << 32n) | BigInt(this.lo[k]!);
  }

  /** Every word, little-endian (the `--samples` file). */
  bytes(): Uint8Array {
    const buf = new Uint8Array(this.count * 8);
    const dv = new DataView(buf.buffer);
    for (let k = 0; k < this.count; k++) {
      dv.setUint32(k * 8, this.lo[k]!, true);
      dv.setUint32(k * 8 + 4, this.hi[k]!, true);
    }
    return buf;
  }

  /** Per bus: samples with valid, with ready, and with valid but not ready (stalled). */
  summary(): Record<string, { valid: number; ready: number; stalled: number }> {
    const out: Record<string, { valid: number; ready: number; stalled: number }> = {};
    BUS_NAMES.forEach((name, b) => {
      let valid = 0;
      let ready = 0;
      let stalled = 0;
      for (let k = 0; k < this.count; k++) {
        const v = (this.hi[k]! >> (2 * b)) & 1;
        const r = (this.hi[k]! >> (2 * b + 1)) & 1;
        valid += v;
        ready += r;
        stalled += v & (r ^ 1);
      }
      out[name] = { valid, ready, stalled };
    });
    return out;
  }
}
