/**
 * The systolic accelerator: memories, the array with its bias row, the SIMD
 * ALUs and the configuration registers (spec §2-§4), executing a decoded
 * program instruction by instruction. Results are bit-exact (fixed.ts); the
 * time each instruction takes comes from the cycle model (timing.ts), which
 * is an estimate with documented parameters, not RTL (docs/timing-model.md
 * "## systolic"). One engine on the shared kernel: it issues the instruction
 * at `pc` when the previous one has completed and sleeps until then.
 */
import type { SimEngine } from '@pyxis/sim';
import { log2Ceil, type Arch } from './arch.js';
import { fixedMatVec16 } from '@pyxis/formats';
import { fixedType, mac, type FixedType } from './fixed.js';
import { DM, ISA, LOADWEIGHT_ZEROES, MATMUL_ACCUMULATE, MATMUL_ZEROES, OP, SIMD_ACCUMULATE, SIMD_OP, SIMD_READ, SIMD_WRITE, type TimingData } from './grammar.js';
import { dataMoveOther, type Program } from './isa.js';

const LOOKUP = SIMD_OP['Lookup'];
import { instructionCycles, type CycleClass } from './timing.js';
import { Sampler } from './samples.js';

export interface MachineSizes {
  dram0Vectors: number;
  dram1Vectors: number;
}

/** Highest vector (+1) each DRAM is touched at by the program: DRAM arrays are allocated only that far. */
export function dramExtent(p: Program, arch: Arch): MachineSizes {
  let d0 = 0;
  let d1 = 0;
  for (let pc = 0; pc < p.count; pc++) {
    if (p.op[pc] !== OP.DataMove) continue;
    const o = dataMoveOther(p.flags[pc]!, arch);
    if (!o || o.name === 'acc') continue;
    const end = p.a1[pc]! + p.a2[pc]! * 2 ** p.s1[pc]! + 1;
    if (o.name === 'dram0') d0 = Math.max(d0, end);
    else d1 = Math.max(d1, end);
  }
  return { dram0Vectors: d0, dram1Vectors: d1 };
}

const CONFIG_DEFAULTS = () => {
  const r = new Float64Array(16);
  for (const c of ISA.config_registers) r[c.number] = c.default;
  return r;
};
const REG = Object.fromEntries(ISA.config_registers.map((c) => [c.name, c.number])) as Record<string, number>;
const SAMPLE_INTERVAL = REG['sample_interval']!;

export interface HazardWarning {
  pc: number;
  simdPc: number;
}

/** Cycles and MACs of the instructions up to a store to DRAM0 (a layer's output, when the compiler spills it). */
export interface Segment {
  first_pc: number;
  last_pc: number;
  start_cycle: number;
  cycles: number;
  macs: number;
}

export class SystolicMachine implements SimEngine {
  readonly name = 'systolic.decoder';
  readonly group = 'systolic';
  readonly passive = false;
  readonly t: FixedType;
  readonly n: number;
  local: Int32Array;
  acc: Int32Array;
  dram0: Int32Array;
  dram1: Int32Array;
  /** Weights transposed: column j of the (N+1) x N array at wt[j*(N+1) ..], row 0 = bias row. */
  readonly wt: Int32Array;
  readonly regs: Int32Array;
  /**
   * Lookup tables (LoadLUT, SIMD Lookup): number_of_lookup_tables + 1 vectors of array_size entries; vector 0 is the
   * key index, vector t the values of table t (docs/spec-notes.md "systolic: Lookup and LoadLUT").
   */
  readonly lut: Int32Array;
  readonly luts: number;
  readonly config = CONFIG_DEFAULTS();
  pc = 0;
  private readyAt = 0;
  private done = false;
  // statistics (typed, allocation-free in the loop)
  readonly opCount = new Float64Array(16);
  readonly opCycles = new Float64Array(16);
  readonly classCycles = new Float64Array(8);
  macs = 0;
  timeouts = 0;
  tracepointCycle = -1;
  lastSimdWritePc = -1e9;
  readonly hazards: HazardWarning[] = [];
  hazardCount = 0;
  readonly segments: Segment[] = [];
  private segPc = 0;
  private segCycle = 0;
  private segMacs = 0;
  /** Performance samples (spec §5), when sampling is enabled by Configure (samples.ts). */
  readonly sampler: Sampler;
  private readonly input: Int32Array;
  private readonly simdBits: number;
  /**
   * SIMD writes still in flight (spec §4: they take about 2 instructions to reach the accumulators):
   * ring of the last `gap` writes with their PC and address.
   */
  private readonly flightPc: Float64Array;
  private readonly flightAddr: Float64Array;
  private flightNext = 0;
  /** Decoder stall cycles owed by the current instruction for a hazard (added by the cycle model). */
  hazardStall = 0;
  private readonly row: Int32Array;
  onInstruction?: (pc: number, op: number, flags: number, start: number, end: number, cls: CycleClass) => void;

  constructor(
    readonly arch: Arch,
    readonly program: Program,
    readonly timing: TimingData,
    sizes: MachineSizes,
  ) {
    this.t = fixedType(arch.data_type);
    const N = (this.n = arch.array_size);
    this.local = new Int32Array(arch.local_depth * N);
    this.acc = new Int32Array(arch.accumulator_depth * N);
    this.dram0 = new Int32Array(sizes.dram0Vectors * N);
    this.dram1 = new Int32Array(sizes.dram1Vectors * N);
    this.wt = new Int32Array((N + 1) * N);
    this.regs = new Int32Array(Math.max(1, arch.simd_registers_depth) * N);
    this.luts = arch.number_of_lookup_tables ?? 0;
    this.lut = new Int32Array((this.luts + 1) * N);
    this.input = new Int32Array(N);
    this.row = new Int32Array(N);
    this.simdBits = log2Ceil(arch.simd_registers_depth + 1);
    const gap = Math.max(1, timing.simd_write_to_datamove_gap);
    this.flightPc = new Float64Array(gap).fill(-1e9);
    this.flightAddr = new Float64Array(gap);
    this.sampler = new Sampler(program, timing, arch);
  }

  get busy(): boolean {
    return !this.done;
  }
  blockedReason(): string | undefined {
    return this.done ? undefined : `executing instruction ${this.pc - 1} until cycle ${this.readyAt}`;
  }
  nextWake(now: number): number {
    return this.done ? Infinity : Math.max(now, this.readyAt);
  }

  tick(now: number): boolean {
    if (this.done || now < this.readyAt) return false;
    if (this.pc >= this.program.count) {
      // the last instruction has completed: the run ends at this cycle (no work done in it)
      this.done = true;
      return false;
    }
    const pc = this.pc;
    const cls = this.execute(pc);
    const p = this.program;
    const cycles = instructionCycles(this, pc, cls);
    const op = p.op[pc]!;
    this.opCount[op]++;
    this.opCycles[op] += cycles;
    this.classCycles[cls] += cycles;
    if (cycles > this.config[REG['timeout']!]!) this.timeouts++;
    if (pc === this.config[REG['tracepoint']!]) this.tracepointCycle = now;
    if (this.sampler.next < now + cycles) this.sampler.instruction(pc, now, now + cycles, cls);
    // sampling (re)starts in the cycle the Configure that sets the interval completes
    if (op === OP.Configure && p.a0[pc] === SAMPLE_INTERVAL) this.sampler.configure(p.a1[pc]!, now + cycles);
    this.onInstruction?.(pc, op, p.flags[pc]!, now, now + cycles, cls);
    if (op === OP.DataMove && p.flags[pc] === DM.localToDram0 && !(pc + 1 < p.count && p.op[pc + 1] === OP.DataMove && p.flags[pc + 1] === DM.localToDram0)) {
      this.segments.push({ first_pc: this.segPc, last_pc: pc, start_cycle: this.segCycle, cycles: now + cycles - this.segCycle, macs: this.macs - this.segMacs });
      this.segPc = pc + 1;
      this.segCycle = now + cycles;
      this.segMacs = this.macs;
    }
    this.readyAt = now + cycles;
    this.pc = pc + 1;
    this.config[REG['program_counter']!] = this.pc;
    return true;
  }

  /** Runs every instruction without the kernel (tests, prefixes); returns the cycle count. */
  runAll(limit = this.program.count): number {
    let now = 0;
    while (this.pc < limit) {
      this.tick(now);
      now = this.readyAt;
    }
    return now;
  }

  /** Executes instruction `pc` functionally; returns its cycle class (timing.ts). */
  execute(pc: number): CycleClass {
    const p = this.program;
    const op = p.op[pc]!;
    const f = p.flags[pc]!;
    switch (op) {
      case OP.MatMul:
        this.matMul(f, p.a0[pc]!, p.s0[pc]!, p.a1[pc]!, p.s1[pc]!, p.a2[pc]!);
        return 1;
      case OP.LoadWeight:
        this.loadWeight(f, p.a0[pc]!, p.s0[pc]!, p.a1[pc]!);
        return 1;
      case OP.DataMove:
        this.dataMove(pc, f, p.a0[pc]!, p.s0[pc]!, p.a1[pc]!, p.s1[pc]!, p.a2[pc]!);
        return f === DM.accToLocal || f >= DM.localToAcc ? 3 : 4;
      case OP.SIMD:
        if (f & SIMD_WRITE) {
          const k = this.flightNext;
          this.flightNext = (k + 1) % this.flightPc.length;
          this.flightPc[k] = pc;
          this.flightAddr[k] = p.a0[pc]!;
          this.lastSimdWritePc = pc;
        }
        this.simd(f, p.a0[pc]!, p.a1[pc]!, p.a2[pc]!);
        return 2;
      case OP.Configure:
        this.config[p.a0[pc]!] = p.a1[pc]!;
        return 5;
      case OP.LoadLUT:
        // one vector of local memory becomes the key index (table 0) or lookup table a1
        this.lut.set(this.local.subarray(p.a0[pc]! * this.n, (p.a0[pc]! + 1) * this.n), p.a1[pc]! * this.n);
        return 0;
      default:
        return 0; // NoOp
    }
  }

  private matMul(f: number, la: number, ls: number, aa: number, as: number, size: number): void {
    const N = this.n;
    const t = this.t;
    const wt = this.wt;
    const local = this.local;
    const acc = this.acc;
    const x = this.input;
    const y = this.row;
    const zeroes = (f & MATMUL_ZEROES) !== 0;
    const accumulate = (f & MATMUL_ACCUMULATE) !== 0;
    const lstep = 2 ** ls;
    const astep = 2 ** as;
    const fast = t.width <= 16;
    const bp = t.bp;
    const max = t.max;
    const min = t.min;
    for (let i = 0; i <= size; i++) {
      if (zeroes) x.fill(0);
      else x.set(local.subarray((la + i * lstep) * N, (la + i * lstep + 1) * N));
      if (fast) fixedMatVec16(x, wt, y, N, bp, max, min);
      else
        for (let j = 0; j < N; j++) {
          const col = j * (N + 1);
          let s = wt[col]!;
          for (let k = 1; k <= N; k++) s = mac(t, x[k - 1]!, wt[col + k]!, s);
          y[j] = s;
        }
      const base = (aa + i * astep) * N;
      if (accumulate)
        for (let j = 0; j < N; j++) {
          const v = acc[base + j]! + y[j]!;
          acc[base + j] = v > max ? max : v < min ? min : v;
        }
      else acc.set(y, base);
    }
    this.macs += (size + 1) * N * N;
  }

  /** Spec §4 note "weights should be loaded in reverse order": each vector pushes the rows down by one. */
  private loadWeight(f: number, la: number, ls: number, size: number): void {
    const N = this.n;
    const N1 = N + 1;
    const wt = this.wt;
    const step = 2 ** ls;
    for (let i = size; i >= 0; i--) {
      for (let j = 0; j < N; j++) {
        const col = j * N1;
        wt.copyWithin(col + 1, col, col + N);
        wt[col] = f & LOADWEIGHT_ZEROES ? 0 : this.local[(la + i * step) * N + j]!;
      }
    }
  }

  private dataMove(pc: number, f: number, la: number, ls: number, oa: number, os: number, size: number): void {
    const N = this.n;
    const t = this.t;
    const lstep = 2 ** ls;
    const ostep = 2 ** os;
    const other = f === DM.dram0ToLocal || f === DM.localToDram0 ? this.dram0 : f === DM.dram1ToLocal || f === DM.localToDram1 ? this.dram1 : this.acc;
    const toLocal = f === DM.dram0ToLocal || f === DM.dram1ToLocal || f === DM.accToLocal;
    const gap = this.timing.simd_write_to_datamove_gap;
    const hazardous = f === DM.accToLocal && pc - this.lastSimdWritePc <= gap;
    for (let i = 0; i <= size; i++) {
      const l = (la + i * lstep) * N;
      const o = (oa + i * ostep) * N;
      if (hazardous && i < gap) this.inFlight(pc, i, oa + i * ostep);
      if (toLocal) this.local.set(other.subarray(o, o + N), l);
      else if (f === DM.localToAccAcc)
        for (let j = 0; j < N; j++) {
          const v = other[o + j]! + this.local[l + j]!;
          other[o + j] = v > t.max ? t.max : v < t.min ? t.min : v;
        }
      else other.set(this.local.subarray(l, l + N), o);
    }
  }

  /**
   * Vector i of a DataMove from the accumulators is read i cycles after it issues; a SIMD write issued d
   * instructions earlier lands after `gap` instruction slots, so i + d <= gap is a hazard. Real Tensil
   * programs contain it (the ResNet-20 fixture reads its logits one instruction after the SIMD Move that
   * wrote them) and run correctly on the boards, so the read sees the written value, the decoder is
   * charged the wait, and the hazard is reported (docs/spec-notes.md "systolic: SIMD write hazard").
   */
  private inFlight(pc: number, i: number, addr: number): void {
    const gap = this.timing.simd_write_to_datamove_gap;
    for (let k = 0; k < this.flightPc.length; k++) {
      const d = pc - this.flightPc[k]!;
      if (d >= 1 && i + d <= gap && this.flightAddr[k] === addr) {
        this.hazardStall = Math.max(this.hazardStall, gap - d - i + 1);
        this.hazardCount++;
        if (this.hazards.length < 20) this.hazards.push({ pc, simdPc: this.flightPc[k]! });
        return;
      }
    }
  }

  /**
   * Spec §4 "Lookup sub-instruction", per lane: the key of the index closest to the argument (smallest |x - key|,
   * the lowest entry on a tie), the difference x - key (saturated) to the output and register d, and entry k of
   * table t to register d + t (t = 1..number_of_lookup_tables). The output row holds the arguments on entry.
   */
  private lookup(dest: number): void {
    const N = this.n;
    const out = this.row;
    const lut = this.lut;
    const regs = this.regs;
    const nregs = this.arch.simd_registers_depth;
    const max = this.t.max;
    const min = this.t.min;
    for (let i = 0; i < N; i++) {
      const x = out[i]!;
      let best = 0;
      let bestDist = Infinity;
      for (let k = 0; k < N; k++) {
        const d = Math.abs(x - lut[k]!);
        if (d < bestDist) {
          bestDist = d;
          best = k;
        }
      }
      const diff = x - lut[best]!;
      out[i] = diff > max ? max : diff < min ? min : diff;
      if (dest > 0) regs[(dest - 1) * N + i] = out[i]!;
      for (let t = 1; t <= this.luts; t++) if (dest + t <= nregs) regs[(dest + t - 1) * N + i] = lut[t * N + best]!;
    }
  }

  private simd(f: number, writeAddr: number, readAddr: number, sub: number): void {
    const N = this.n;
    const t = this.t;
    const w = this.simdBits;
    const mask = (1 << w) - 1;
    const dest = sub & mask;
    const srcR = (sub >> w) & mask;
    const srcL = (sub >> (2 * w)) & mask;
    const op = sub >> (3 * w);
    const input = this.input;
    if (f & SIMD_READ) input.set(this.acc.subarray(readAddr * N, readAddr * N + N));
    else input.fill(0);
    const regs = this.regs;
    const one = t.one;
    const max = t.max;
    const min = t.min;
    const out = this.row;
    for (let i = 0; i < N; i++) {
      const l = srcL === 0 ? input[i]! : regs[(srcL - 1) * N + i]!;
      const r = srcR === 0 ? input[i]! : regs[(srcR - 1) * N + i]!;
      let v: number;
      switch (op) {
        case SIMD_OP['NoOp']: v = input[i]!; break;
        case SIMD_OP['Zero']: v = 0; break;
        case SIMD_OP['Move']: v = l; break;
        case SIMD_OP['Not']: v = l === 0 ? one : 0; break;
        case SIMD_OP['And']: v = l !== 0 && r !== 0 ? one : 0; break;
        case SIMD_OP['Or']: v = l !== 0 || r !== 0 ? one : 0; break;
        case SIMD_OP['Increment']: v = l + one; break;
        case SIMD_OP['Decrement']: v = l - one; break;
        case SIMD_OP['Add']: v = l + r; break;
        case SIMD_OP['Subtract']: v = l - r; break;
        case SIMD_OP['Multiply']: v = mac(t, l, r, 0); break;
        // Chisel's abs of the most negative value wraps to itself (no saturation in the RTL)
        case SIMD_OP['Abs']: v = l < 0 ? (-l > max ? min : -l) : l; break;
        case SIMD_OP['GreaterThan']: v = l > r ? one : 0; break;
        case SIMD_OP['GreaterThanEqual']: v = l >= r ? one : 0; break;
        case SIMD_OP['Min']: v = l < r ? l : r; break;
        case SIMD_OP['Max']: v = l > r ? l : r; break;
        default: v = l; // Lookup: the argument, replaced by the difference in lookup()
      }
      out[i] = v > max ? max : v < min ? min : v;
    }
    if (op === LOOKUP) this.lookup(dest);
    else if (dest !== 0 && op !== SIMD_OP['NoOp']) regs.set(out, (dest - 1) * N);
    if (f & SIMD_WRITE) {
      const base = writeAddr * N;
      if (f & SIMD_ACCUMULATE)
        for (let i = 0; i < N; i++) {
          const v = this.acc[base + i]! + out[i]!;
          this.acc[base + i] = v > max ? max : v < min ? min : v;
        }
      else this.acc.set(out, base);
    }
  }
}
