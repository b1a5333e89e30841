/**
 * The host (CPU) side of a Pyxis chip: the enqueue records and host actions of an image, performed as software
 * writing the enqueue CSR and the cluster CSRs would (chip §11.5.1, §11.6.5-11.6.7, §11.8).
 */
import type { SimEngine } from '@pyxis/sim';
import type { PyxisChip } from './chip.js';
import { CFG_ENGINE_BASE } from './cfgSpace.js';
import { PHASE } from './engines.js';

export interface EnqueueRecord {
  cluster: number;
  queue_id: number;
  descriptor_list_address: number;
  /** In 8-byte units (N, N-1 decoding already undone). */
  descriptor_list_length: number;
}

/** HostAction.afterInterrupt.entry of the fabric adapter's RDMA Job Failed interrupt (chip §10.7.1.2, §10.8.1.2). */
export const FABRIC_JOB_FAILED_INTERRUPT = -2;
/**
 * HostAction.afterInterrupt.entry of the datagram ring interrupts (chip §11.5.2.1 "may signal an interrupt to indicate
 * that the buffer has been freed", §11.5.2.2 "This signals an interrupt"): -3 - k for ring k = dgram_tx0, dgram_tx1,
 * dgram_rx0, dgram_rx1 (one interrupt per descriptor the hardware head pointer passes).
 */
export const DGRAM_INTERRUPT_BASE = -3;
export const DGRAM_INTERRUPT_NAMES = ['dgram_tx0', 'dgram_tx1', 'dgram_rx0', 'dgram_rx1'] as const;

/**
 * A host (CPU) action from the image (`metadata.pyxis.host_actions`): an
 * 8-byte write to a cluster's CSR/config window (engine address
 * 0x4000_0000 + offset), at a cycle and/or after a barrier interrupt
 * (chip §11.6.5) fired. Used for `bt_mem_decrement` responses (§11.6.6),
 * barrier_interrupt_config set-up and late enqueues.
 */
export interface HostAction {
  cluster: number;
  /** Engine address in the CSR window. */
  address: number;
  /** 64-bit little-endian value. */
  value: bigint;
  atCycle: number;
  /**
   * Wait for the n-th (1-based) interrupt of `cluster`: entry 0..7 of barrier_interrupt_config (§11.6.5), -1 for
   * the barrier timeout interrupt (§11.6.7), -2 (FABRIC_JOB_FAILED_INTERRUPT) for the fabric adapter's RDMA
   * Job Failed interrupt (§10.7.1.2, §10.8.1.2), -3..-6 for the datagram ring interrupts (DGRAM_INTERRUPT_BASE, §11.5.2).
   */
  afterInterrupt?: { entry: number; count: number };
  /** Software polling (§11.8 "Software must monitor ..."): wait until (CSR word at `address` & mask) == value. */
  poll?: { address: number; mask: bigint; value: bigint; /** 32-bit halves of mask and value (no BigInt per poll) */ m32?: Uint32Array };
}

/**
 * The host: performs the enqueue records as software writing the enqueue CSR
 * would (§11.5.1). Records keep their order within each (cluster, queue);
 * a queue whose 4-entry ring is full waits until the DPE frees a slot (the
 * head list fully fetched) without holding back the other queues, so a queue
 * may have any number of lists (docs/spec-notes.md "more than 4 lists per
 * queue"). Then the image's host actions, in order.
 */
export class HostAgent implements SimEngine {
  readonly name = 'host';
  readonly group = 'chip';
  /** First: what the host writes at cycle t is seen by the whole chip at t (as the CPU's writes precede the cycle). */
  readonly phase = PHASE.host;
  /**
   * Passive: not busy means every record enqueued and every action done, so `tick` does nothing and `nextWake` is
   * Infinity; records and actions added later (`PyxisChip.addEnqueueRecords`, `addActions`) wake it.
   */
  readonly passive = true;
  wake: () => void = () => {};
  attachWake(wake: () => void): void {
    this.wake = wake;
  }
  /** Appends host actions (image load). */
  addActions(actions: readonly HostAction[]): void {
    this.actions.push(...actions);
    this.wake();
  }
  /** Per (cluster, queue) in order of first appearance: record indexes and the next one to enqueue. */
  private readonly pending: Array<{ recs: number[]; next: number }> = [];
  private readonly byQueue = new Map<number, { recs: number[]; next: number }>();
  /** Groups with records left (indexes into `pending`). */
  private open: number[] = [];
  /** Records already sorted into groups (records may be appended after construction). */
  private grouped = 0;
  private nextAction = 0;
  enqueued = 0;
  actionsDone = 0;
  readonly actions: HostAction[] = [];
  constructor(
    private readonly chip: PyxisChip,
    readonly records: EnqueueRecord[],
  ) {}
  get busy(): boolean {
    return this.enqueued < this.records.length || this.nextAction < this.actions.length;
  }
  /** Whether an action still to come polls a CSR (live UIE registers must then be read in lockstep). */
  get polling(): boolean {
    for (let i = this.nextAction; i < this.actions.length; i++) if (this.actions[i]!.poll) return true;
    return false;
  }
  private sortRecords(): void {
    for (; this.grouped < this.records.length; this.grouped++) {
      const r = this.records[this.grouped]!;
      const k = r.cluster * 256 + r.queue_id;
      let g = this.byQueue.get(k);
      if (!g) {
        this.byQueue.set(k, (g = { recs: [], next: 0 }));
        this.pending.push(g);
      }
      if (g.next === g.recs.length) this.open.push(this.pending.indexOf(g));
      g.recs.push(this.grouped);
    }
  }
  private ready(a: HostAction, now: number): boolean {
    if (now < a.atCycle) return false;
    const bt = this.chip.barriers[a.cluster]!;
    if (a.afterInterrupt) {
      const { entry, count } = a.afterInterrupt;
      // the timeout interrupt of the walk at the end of cycle W is seen from cycle W + 1 (barriers.ts)
      const n =
        entry === FABRIC_JOB_FAILED_INTERRUPT ? (this.chip.fabricAdapter?.failedInterrupts[a.cluster] ?? 0)
        : entry <= DGRAM_INTERRUPT_BASE ? (this.chip.fabricAdapter?.dgramInterrupts[a.cluster]?.[DGRAM_INTERRUPT_BASE - entry] ?? 0)
        : entry < 0 ? bt.timeoutInterruptsBefore(now) : bt.interruptCount[entry]!;
      if (n < count) return false;
    }
    if (a.poll) {
      const p = a.poll;
      const m = (p.m32 ??= Uint32Array.of(Number(p.mask & 0xffff_ffffn), Number(p.mask >> 32n), Number(p.value & 0xffff_ffffn), Number(p.value >> 32n)));
      const w = this.chip.cfg[a.cluster]!.readWord(p.address - CFG_ENGINE_BASE);
      if (((w[0]! & m[0]!) >>> 0) !== m[2] || ((w[1]! & m[1]!) >>> 0) !== m[3]) return false;
    }
    return true;
  }
  tick(now: number): boolean {
    let did = false;
    if (this.grouped < this.records.length) this.sortRecords();
    if (this.enqueued < this.records.length) {
      let keep = 0;
      for (const gi of this.open) {
        const g = this.pending[gi]!;
        while (g.next < g.recs.length && this.chip.enqueue(this.records[g.recs[g.next]!]!, now)) {
          g.next++;
          this.enqueued++;
          did = true;
        }
        if (g.next < g.recs.length) this.open[keep++] = gi;
      }
      this.open.length = keep;
    }
    while (this.nextAction < this.actions.length && this.ready(this.actions[this.nextAction]!, now)) {
      const a = this.actions[this.nextAction++]!;
      const b = new Uint8Array(8);
      new DataView(b.buffer).setBigUint64(0, a.value, true);
      this.chip.cfg[a.cluster]!.write(a.address - CFG_ENGINE_BASE, b, 0, 8);
      this.actionsDone++;
      did = true;
    }
    return did;
  }
  nextWake(now: number): number {
    const a = this.actions[this.nextAction];
    if (this.enqueued < this.records.length || !a) return Infinity;
    if (now < a.atCycle) return a.atCycle;
    // A poll or a timeout interrupt may become true without any engine progressing: at the next timeout walk
    // (lazily evaluated, barriers.ts); every other change comes with a kernel step.
    if ((a.afterInterrupt && a.afterInterrupt.entry === -1) || a.poll) return Math.max(now, this.chip.barriers[a.cluster]!.nextTimeoutWalk() + 1);
    if (a.afterInterrupt) return Infinity;
    return now;
  }
  blockedReason(): string | undefined {
    this.sortRecords();
    const g = this.open.length ? this.pending[this.open[0]!] : undefined;
    const r = g ? this.records[g.recs[g.next]!] : undefined;
    if (r) return `enqueue of list 0x${r.descriptor_list_address.toString(16)} waits: ring of queue 0x${r.queue_id.toString(16)} in cluster ${r.cluster} is full (4 lists)`;
    const a = this.actions[this.nextAction];
    if (a?.afterInterrupt)
      return `host action ${this.nextAction} waits for ${a.afterInterrupt.entry === FABRIC_JOB_FAILED_INTERRUPT ? 'the fabric Job Failed interrupt' : a.afterInterrupt.entry <= DGRAM_INTERRUPT_BASE ? `the ${DGRAM_INTERRUPT_NAMES[DGRAM_INTERRUPT_BASE - a.afterInterrupt.entry]} ring interrupt` : a.afterInterrupt.entry < 0 ? 'the barrier timeout interrupt' : `interrupt ${a.afterInterrupt.entry}`} of cluster ${a.cluster} (occurrence ${a.afterInterrupt.count})`;
    if (a?.poll) return `host action ${this.nextAction} polls CSR 0x${a.poll.address.toString(16)} of cluster ${a.cluster} until (value & 0x${a.poll.mask.toString(16)}) == 0x${a.poll.value.toString(16)}`;
    if (a) return `host action ${this.nextAction} scheduled at cycle ${a.atCycle}`;
    return undefined;
  }
}
