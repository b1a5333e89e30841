/**
 * The NeuronCore-v2 machine on the shared kernel: one SimEngine per instruction stream
 * (TensorE, VectorE, ScalarE, GpSimd, 16 DMA queues) running asynchronously, synchronised
 * only through semaphores (NeuronCore-v2 Compute Engines). Time is cost-model time
 * (cost.ts) on a 5.6 GHz tick, the least common multiple of the engine clocks. Functional
 * effects happen at issue (every producer has completed by then: waits are on completion).
 *
 * Shared-port rule (Concurrent SBUF/PSUM accesses): VectorE and GpSimd never access SBUF at
 * the same time, VectorE and ScalarE never PSUM; an instruction claims every port it uses (a
 * VectorE PSUM -> SBUF evacuation holds both), waits until all are free, and the wait is
 * counted as a conflict stall.
 */
import type { SimEngine, TraceTrack, TraceWriter } from '@pyxis/sim';
import { DMA0, STREAMS, type Insn, type NcProgram } from './ir.js';
import { engineCycles, dmaNs, fp32Rate, type CostParams } from './cost.js';
import { loadMachine } from './isa.js';
import type { Executor } from './exec.js';

export interface Port {
  busyUntil: number;
  owner: number;
  conflicts: number;
}

export interface StreamStats {
  instructions: number;
  activeTicks: number;
  semWaitTicks: number;
  conflictTicks: number;
  lastEnd: number;
  /** Tick at which the last issued instruction's result is visible (its end plus the engine latency). */
  lastDone: number;
  bytes: number;
}

export class Shared {
  readonly sems: Float64Array;
  readonly sbufVG: Port = { busyUntil: 0, owner: -1, conflicts: 0 };
  readonly psumVS: Port = { busyUntil: 0, owner: -1, conflicts: 0 };
  readonly dmaBusyUntil = new Float64Array(16);
  flops = 0;
  /** Instruction index -> uninitialised-read warnings are attributed by the machine. */
  uninitAt: Array<{ insn: Insn; mem: string; address: number }> = [];
  constructor(
    readonly program: NcProgram,
    readonly exec: Executor | undefined,
    readonly trace: TraceWriter | undefined,
    /** This machine instance's cost-model constants (machine.json `cost` with --set/--sim-config applied). */
    readonly cost: CostParams = loadMachine().cost,
  ) {
    this.sems = new Float64Array(program.semaphores.length);
  }
}

export class StreamEngine implements SimEngine {
  readonly name: string;
  readonly group = 'neuroncore';
  readonly stallReasons = ['semaphore wait', 'SBUF/PSUM port conflict', 'pipeline'] as const;
  private pc = 0;
  private readonly list: Int32Array;
  private readonly ringT: Float64Array;
  private readonly ringI: Int32Array;
  private head = 0;
  private tail = 0;
  private lastCompletion = 0;
  private nextFree = 0;
  // TensorE: background LoadStationary (Tensor Engine, Background LoadStationary).
  private lsFree = 0;
  private mmFree = 0;
  private lastMMStart = 0;
  private statReady = 0;
  private statFp32 = false;
  private waitingSince = -1;
  private activeEnd = 0;
  private conflictSince = -1;
  private blocked = 0;
  private readonly tpc: number;
  private readonly latency: number;
  private track: TraceTrack | undefined;
  readonly stats: StreamStats = { instructions: 0, activeTicks: 0, semWaitTicks: 0, conflictTicks: 0, lastEnd: 0, lastDone: 0, bytes: 0 };

  constructor(
    readonly stream: number,
    indices: number[],
    private readonly sh: Shared,
  ) {
    this.name = STREAMS[stream]!;
    this.list = Int32Array.from(indices);
    this.ringT = new Float64Array(indices.length + 1);
    this.ringI = new Int32Array(indices.length + 1);
    const m = loadMachine();
    this.tpc = stream < DMA0 ? m.ticksPerCycle[stream]! : 1;
    this.latency = stream < DMA0 ? sh.cost['ACCESS_OVERHEAD']! * this.tpc : 0;
  }

  get busy(): boolean {
    return this.pc < this.list.length || this.head < this.tail;
  }

  private insn(): Insn {
    return this.sh.program.insns[this.list[this.pc]!]!;
  }

  private earliest(insn: Insn): number {
    if (this.stream !== 0) return this.nextFree;
    if (insn.op === 'tensor.load_stationary') return Math.max(this.lsFree, this.lastMMStart, this.nextFree);
    if (insn.op === 'tensor.multiply_moving') return Math.max(this.mmFree, this.statReady, this.nextFree);
    return Math.max(this.mmFree, this.lsFree, this.nextFree);
  }

  private waitsOk(insn: Insn): boolean {
    const s = this.sh.sems;
    for (const [i, v] of insn.waits) if (s[i]! < v) return false;
    return true;
  }

  /** The shared ports an instruction of this stream uses (computed once per instruction: no allocation per tick). */
  private ports(insn: Insn): readonly Port[] {
    let p = this.portCache.get(insn);
    if (p) return p;
    const touches = (mem: string) => insn.out?.mem === mem || insn.ins.some((a) => a.mem === mem);
    const list: Port[] = [];
    if ((this.stream === 1 || this.stream === 3) && touches('sbuf')) list.push(this.sh.sbufVG);
    if ((this.stream === 1 || this.stream === 2) && touches('psum')) list.push(this.sh.psumVS);
    p = list;
    this.portCache.set(insn, p);
    return p;
  }
  private readonly portCache = new Map<Insn, readonly Port[]>();

  /** The first of `ports` another stream holds past `at`, if any. */
  private heldPort(ports: readonly Port[], at: number): Port | undefined {
    for (const p of ports) if (p.owner !== this.stream && p.busyUntil > at) return p;
    return undefined;
  }

  tick(now: number): boolean {
    let progressed = false;
    const sh = this.sh;
    while (this.head < this.tail && this.ringT[this.head]! <= now) {
      const insn = sh.program.insns[this.ringI[this.head]!]!;
      sh.sems[sh.program.autoBase + this.stream]! += 1;
      if (insn.signal) {
        sh.sems[insn.signal[0]] += insn.signal[1];
        if (sh.trace) sh.trace.instant(this.tr(), now, `signal ${sh.program.semaphores[insn.signal[0]]}`, { value: sh.sems[insn.signal[0]]!, line: insn.line }, 'semaphore');
      }
      this.head++;
      progressed = true;
    }
    if (this.pc >= this.list.length) return progressed;
    const insn = this.insn();
    if (now < this.earliest(insn)) return progressed;
    if (!this.waitsOk(insn)) {
      if (this.waitingSince < 0) this.waitingSince = now;
      this.blocked = 0;
      return progressed;
    }
    if (this.waitingSince >= 0) {
      this.stats.semWaitTicks += now - this.waitingSince;
      if (sh.trace) sh.trace.instant(this.tr(), now, 'semaphore wait done', { waited_ticks: now - this.waitingSince, line: insn.line }, 'semaphore');
      this.waitingSince = -1;
    }
    const ports = this.ports(insn);
    const held = this.heldPort(ports, now);
    if (held) {
      if (this.conflictSince < 0) {
        this.conflictSince = now;
        held.conflicts++;
      }
      this.blocked = 1;
      return progressed;
    }
    if (this.conflictSince >= 0) {
      this.stats.conflictTicks += now - this.conflictSince;
      this.conflictSince = -1;
    }
    this.issue(insn, now, ports);
    return true;
  }

  private tr(): TraceTrack {
    return (this.track ??= this.sh.trace!.track('neuroncore', this.stream < DMA0 ? `${this.name} engine` : `DMA queue ${this.stream - DMA0}`));
  }

  private issue(insn: Insn, now: number, ports: readonly Port[]): void {
    const sh = this.sh;
    let dur: number;
    let bytes = 0;
    if (insn.op.endsWith('.sem_wait') || insn.op.endsWith('.sem_signal')) dur = 0;
    else if (this.stream >= DMA0) {
      let active = 1;
      for (let q = 0; q < 16; q++) if (q !== this.stream - DMA0 && sh.dmaBusyUntil[q]! > now) active++;
      const d = dmaNs(insn, active, this.sh.cost);
      dur = Math.ceil(d.ns * loadMachine().baseGhz);
      bytes = d.bytes;
      sh.dmaBusyUntil[this.stream - DMA0] = now + dur;
    } else {
      const isMM = insn.op === 'tensor.multiply_moving';
      dur = engineCycles(insn, isMM && this.statFp32, this.sh.cost) * this.tpc;
    }
    const end = now + dur;
    if (this.stream === 0) {
      if (insn.op === 'tensor.load_stationary') {
        this.lsFree = end;
        this.statReady = end;
        this.statFp32 = fp32Rate(insn.ins[0]);
      } else {
        this.mmFree = end;
        this.lastMMStart = now;
      }
      this.nextFree = now + 1;
    } else this.nextFree = end;
    for (const port of ports) {
      port.busyUntil = end;
      port.owner = this.stream;
    }
    if (sh.exec) {
      const before = sh.exec.uninit.length;
      sh.flops += sh.exec.run(insn);
      for (let i = before; i < sh.exec.uninit.length; i++) sh.uninitAt.push({ insn, ...sh.exec.uninit[i]! });
    } else if (insn.op === 'tensor.multiply_moving' && typeof insn.attrs['identity'] !== 'number') {
      const st = this.statFlopsOf(insn);
      sh.flops += st;
    }
    if (insn.op === 'tensor.load_stationary') this.statShape = [insn.ins[0]!.np, insn.ins[0]!.dims.reduce((a, d) => a * d[0], 1)];
    const zeroCost = dur === 0;
    const done = Math.max(end + (zeroCost ? 0 : this.latency), this.lastCompletion);
    this.lastCompletion = done;
    if (done > this.stats.lastDone) this.stats.lastDone = done;
    this.ringT[this.tail] = done;
    this.ringI[this.tail] = this.list[this.pc]!;
    this.tail++;
    this.pc++;
    this.stats.instructions++;
    // Active time is the union of busy intervals (a background LoadStationary overlaps the MM).
    if (end > this.activeEnd) {
      this.stats.activeTicks += end - Math.max(now, this.activeEnd);
      this.activeEnd = end;
    }
    this.stats.bytes += bytes;
    if (end > this.stats.lastEnd) this.stats.lastEnd = end;
    if (sh.trace && !zeroCost) sh.trace.slice(this.tr(), now, end, insn.op, { line: `${insn.file}:${insn.line}`, ...(bytes ? { bytes } : {}) }, 'insn');
    else if (sh.trace && insn.waits.length && insn.op.endsWith('sem_wait')) sh.trace.instant(this.tr(), now, insn.op, { line: insn.line }, 'semaphore');
  }

  private statShape: [number, number] = [0, 0];
  private statFlopsOf(insn: Insn): number {
    const mv = insn.ins[0]!;
    const N = mv.dims.reduce((a, d) => a * d[0], 1);
    return 2 * this.statShape[0] * this.statShape[1] * N;
  }

  nextWake(now: number): number {
    let t = this.head < this.tail ? this.ringT[this.head]! : Infinity;
    if (this.pc < this.list.length) {
      const insn = this.insn();
      const e = this.earliest(insn);
      if (e > now - 1 || this.waitsOk(insn)) {
        let w = Math.max(e, now);
        if (this.waitsOk(insn)) {
          for (let h = this.heldPort(this.ports(insn), w); h; h = this.heldPort(this.ports(insn), w)) w = h.busyUntil;
          if (w < t) t = w;
        } else if (e >= now && e < t) t = e;
      }
    }
    return t;
  }

  blockedReason(): string | undefined {
    if (this.pc >= this.list.length) return this.head < this.tail ? 'completing' : undefined;
    const insn = this.insn();
    const sh = this.sh;
    const missing = insn.waits.filter(([i, v]) => sh.sems[i]! < v).map(([i, v]) => `semaphore ${sh.program.semaphores[i]} >= ${v} (now ${sh.sems[i]})`);
    if (missing.length) return `${insn.op} at ${insn.file}:${insn.line} waits for ${missing.join(', ')}`;
    return `${insn.op} at ${insn.file}:${insn.line}`;
  }

  stallCode(): number {
    return this.waitingSince >= 0 ? 0 : this.blocked === 1 && this.conflictSince >= 0 ? 1 : 2;
  }
}
