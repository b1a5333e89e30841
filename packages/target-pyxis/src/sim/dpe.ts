/**
 * The Descriptor Prefetch Engine of one cluster (chip §12.5): fetches the descriptors of the lists enqueued on the
 * rings of the trip queues (ids 0x00-0x22, Table 11-1; §11.5.1) over the NoC, one per cycle, starving queues first,
 * then hungry ones, round-robin, into per-queue shallow prefetch queues that the trip manager (tripManager.ts) pops.
 * It validates each list when it starts on it (§11.5, §11.5.1.1) and decodes each descriptor into a Trip
 * (descriptors.ts).
 */
import type { SimEngine } from '@pyxis/sim';
import { ObjectFifo } from '@pyxis/sim';
import type { BandwidthPort } from '@pyxis/sim';
import { CLIENT_DPE } from './amem/banks.js';
import type { SimConfig } from './config.js';
import { decodeTrip, descriptorBytes } from './descriptors.js';
import { runtimeError, SimCodes } from './diagnostics.js';
import { remapEngineAddress, type NocMap, type RemapWindow } from './noc.js';
import { DescriptorQueue, queueKind, TRIP_QUEUES } from './queues.js';
import type { Trip } from './trip.js';
import { PHASE } from './engines.js';
import { FabricCodes } from './fabric/params.js';

interface Fetch {
  qid: number;
  ready: number;
  noc: number;
  address: number;
  bytes: number;
  /** The descriptor bytes once read, when the AMEM read was served late (delivered at `ready`). */
  data?: Uint8Array;
}

/** Descriptor Prefetch Engine of one cluster (chip §12.5). */
export class DescriptorPrefetchEngine implements SimEngine {
  readonly name: string;
  readonly group: string;
  /** After the host (enqueue records seen in the same cycle), before the trip manager (which pops the prefetch queues). */
  readonly phase = PHASE.dpe;
  /**
   * Passive (kernel skips it while idle): not busy means no list to fetch and no read in flight, so `tick` does
   * nothing and `nextWake` is Infinity; only `enqueue` makes it busy, and wakes it (issue 23 speed).
   */
  readonly passive = true;
  private wake: () => void = () => {};
  /** Also called when an enqueue or a delivered trip gives the trip manager work (it is passive too). */
  onWork: () => void = () => {};
  readonly queues: DescriptorQueue[] = [];
  readonly prefetch: Array<ObjectFifo<Trip>> = [];
  private readonly inflightCount = new Int32Array(TRIP_QUEUES);
  private readonly inflight: Fetch[] = [];
  private inflightHead = 0;
  private rr = 0;
  private readonly descBytes = new Int32Array(TRIP_QUEUES);
  readonly stallReasons = ['prefetch queues full', 'waiting NoC data'] as const;
  /** Trips waiting in the prefetch queues (all queues). */
  queued = 0;
  /** Set when an issue decision may have changed (enqueue, prefetch pop, delivery). */
  dirty = true;
  /** Descriptors fetched, bytes read (stats). */
  fetched = 0;
  bytesRead = 0;
  dequeueEvents = 0;
  /** Called when a list has been fully fetched (head advanced): the host may enqueue again. */
  onDequeue?: (qid: number, now: number) => void;
  windows: RemapWindow[];
  /**
   * The global configuration of `cluster.dpe_config` (chip §12.5; reset values sim_config.json dpe.*): hungry and
   * starving levels in descriptors, and descriptors per prefetch read.
   */
  hungryLevel: number;
  starvingLevel: number;
  burst: number;

  constructor(
    readonly cluster: number,
    private readonly cfg: SimConfig,
    private readonly noc: NocMap,
    private readonly nocPort: BandwidthPort,
    windows: RemapWindow[],
    /** Which queues have an engine in this configuration. */
    private readonly hasEngine: (qid: number) => boolean,
  ) {
    this.name = `c${cluster}.dpe`;
    this.group = `cluster ${cluster}`;
    this.windows = windows;
    this.hungryLevel = cfg.dpe.hungry_level;
    this.starvingLevel = cfg.dpe.starving_level;
    this.burst = cfg.dpe.burst_descriptors ?? 1;
    for (let q = 0; q < TRIP_QUEUES; q++) {
      this.queues.push(new DescriptorQueue(cluster, q));
      this.prefetch.push(new ObjectFifo<Trip>(`c${cluster}.q${q}.prefetch`, Math.max(1, cfg.dpe.prefetch_depth)));
      const k = queueKind(q);
      this.descBytes[q] = k ? descriptorBytes(k.kind) : 0;
    }
  }

  /** Lists enqueued and not yet fully fetched, over all queues (O(1) `busy`). */
  private lists = 0;

  get busy(): boolean {
    return this.lists > 0 || this.inflight.length > this.inflightHead;
  }

  /** Enqueue CSR write (§11.5.1.1) into queue q's ring; false when the ring is full. */
  enqueue(q: number, address: number, length8: number): boolean {
    const ok = this.queues[q]!.enqueue(address, length8);
    if (ok) {
      this.lists++;
      this.dirty = true;
      this.wake();
      this.onWork();
    }
    return ok;
  }

  /** A write of `cluster.dpe_config` (chip §12.5): takes effect for the next prefetch decision. */
  configure(hungry: number, starving: number, burst: number): void {
    this.hungryLevel = hungry;
    this.starvingLevel = starving;
    this.burst = burst; // 0 acts as 1 (tick)
    this.dirty = true;
    this.wake();
  }

  /** The 3-bit head pointer {wrap, q_idx} of trip queue q (chip §11.5.1, `cluster.descr_q_head`); 0 past the last queue. */
  headPointer(q: number): number {
    return q >= 0 && q < TRIP_QUEUES ? this.queues[q]!.head & 7 : 0;
  }

  /** Depth of each shallow prefetch queue in descriptors (sim_config.json dpe.prefetch_depth). */
  get prefetchDepth(): number {
    return this.cfg.dpe.prefetch_depth;
  }

  attachWake(wake: () => void): void {
    this.wake = wake;
  }

  private level(q: number): number {
    return this.prefetch[q]!.occupancy + this.inflightCount[q]!;
  }

  /** Validates the head list of queue q when the DPE starts on it. */
  private checkList(q: DescriptorQueue, now: number): void {
    const k = queueKind(q.qid);
    const where = `list at 0x${q.headAddress().toString(16)} in queue 0x${q.qid.toString(16)} of cluster ${this.cluster}`;
    // Where the list's bytes are (if anywhere modelled), so the diagnostic can point into the image.
    const at = this.noc.resolve(remapEngineAddress(q.headAddress(), this.windows), q.headBytes());
    const fail = (code: string, msg: string, section: string) => runtimeError(code, `${where}: ${msg}`, section, now, [], at, q.headBytes());
    if (!k || this.descBytes[q.qid] === 0) throw fail(SimCodes.noEngine, `queue 0x${q.qid.toString(16)} (${k?.kind ?? 'unknown'}) is not modelled by pyxis-sim`, '§11.5');
    if (!this.hasEngine(q.qid) && (k.kind === 'rdma_tx' || k.kind === 'rdma_rx'))
      throw fail(
        FabricCodes.noFabric,
        `${k.kind}${k.index} is an RDMA queue: it needs the fabric adapter of a chip in a multi-chip system (pyxis-sim run SYSTEM, docs/system.md); a single-chip run has no fabric to send to or receive from`,
        k.kind === 'rdma_tx' ? '§10.7.1' : '§10.8.1',
      );
    if (!this.hasEngine(q.qid)) throw fail(SimCodes.noEngine, `no ${k.kind}${k.index} engine in the simulated chip (see --clusters/--uies)`, '§11.5');
    if (q.headAddress() % 8 !== 0) throw fail(SimCodes.misaligned, 'list address is not 8-byte aligned', '§11.5.1.1');
    if (q.headBytes() % this.descBytes[q.qid]! !== 0)
      throw fail(SimCodes.badDescriptor, `length ${q.headBytes()} bytes is not a multiple of the ${this.descBytes[q.qid]}-byte ${k.kind} descriptor`, '§11.5.1.1');
  }

  tick(now: number): boolean {
    let did = false;
    // 1. Deliver descriptors whose NoC read completed (the NoC port is FIFO, so ready times are ordered).
    while (this.inflightHead < this.inflight.length && this.inflight[this.inflightHead]!.ready <= now) {
      const f = this.inflight[this.inflightHead]!;
      const target = this.noc.resolve(f.noc, f.bytes)!;
      // a descriptor in AMEM: a fixed-priority bank access (amem/banks.ts claimFirst); served late, it is delivered then
      const bytes = f.data ?? this.noc.read(target, f.bytes, CLIENT_DPE);
      if (f.data === undefined && this.noc.servedAt > now) {
        f.data = bytes;
        f.ready = this.noc.servedAt;
        break;
      }
      this.inflightHead++;
      const k = queueKind(f.qid)!;
      const trip = decodeTrip(k.kind, this.cluster, f.qid, bytes, f.address, now, target);
      this.inflightCount[f.qid]--;
      this.prefetch[f.qid]!.push(trip);
      this.queued++;
      this.onWork();
      this.fetched++;
      this.dirty = true;
      did = true;
    }
    if (this.inflightHead === this.inflight.length && this.inflightHead > 0) {
      this.inflight.length = 0;
      this.inflightHead = 0;
    }
    // 2. Issue one prefetch: starving queues first, then hungry ones, round-robin (§12.5).
    if (!this.dirty) return did;
    const depth = this.cfg.dpe.prefetch_depth;
    const hungry = Math.max(1, Math.min(depth, this.hungryLevel)); // hungry 0 would never fetch: acts as 1 (SIM0861)
    const starving = Math.min(hungry, this.starvingLevel);
    let pick = -1;
    for (let pass = 0; pass < 2 && pick < 0; pass++) {
      const limit = pass === 0 ? starving : hungry;
      for (let i = 0; i < TRIP_QUEUES; i++) {
        const q = (this.rr + i) % TRIP_QUEUES;
        if (this.queues[q]!.empty || this.level(q) >= limit) continue;
        pick = q;
        break;
      }
    }
    if (pick >= 0) {
      this.rr = (pick + 1) % TRIP_QUEUES;
      const q = this.queues[pick]!;
      if (q.fetched === 0) this.checkList(q, now);
      const size = this.descBytes[pick]!;
      // the burst (cluster.dpe_config burst_amount): whole descriptors, within the room of the prefetch queue and the list
      const n = Math.max(1, Math.min(this.burst, depth - this.level(pick), (q.headBytes() - q.fetched) / size));
      const address = q.headAddress() + q.fetched;
      for (let k = 0; k < n; k++) {
        const noc = remapEngineAddress(address + k * size, this.windows);
        if (!this.noc.resolve(noc, size))
          throw runtimeError(
            SimCodes.badAddress,
            `descriptor address 0x${(address + k * size).toString(16)} (queue 0x${pick.toString(16)}, cluster ${this.cluster}) remaps to NoC 0x${noc.toString(16)}, outside every modelled memory`,
            '§12.7',
            now,
          );
      }
      // one NoC read request for the whole burst: its descriptors arrive together at the end of the transfer
      const ready = this.nocPort.reserve(now, n * size) + this.cfg.noc.latency_cycles;
      for (let k = 0; k < n; k++) this.inflight.push({ qid: pick, ready, noc: remapEngineAddress(address + k * size, this.windows), address: address + k * size, bytes: size });
      this.inflightCount[pick] += n;
      this.bytesRead += n * size;
      q.fetched += n * size;
      if (q.fetched >= q.headBytes()) {
        q.advanceHead();
        this.lists--;
        this.dequeueEvents++;
        this.onDequeue?.(pick, now);
      }
      did = true;
    } else this.dirty = false;
    return did;
  }

  /** The trip manager takes the head trip of queue q's prefetch queue. */
  take(q: number): Trip | undefined {
    const t = this.prefetch[q]!.pop();
    if (t) {
      this.queued--;
      this.dirty = true;
    }
    return t;
  }

  nextWake(now: number): number {
    if (this.inflightHead < this.inflight.length) return Math.max(now, this.inflight[this.inflightHead]!.ready);
    return Infinity;
  }

  stallCode(): number {
    return this.inflightHead < this.inflight.length ? 1 : 0;
  }

  blockedReason(): string | undefined {
    const waiting = this.queues.filter((q) => !q.empty).map((q) => `0x${q.qid.toString(16)}`);
    if (this.inflightHead < this.inflight.length) return `waiting for ${this.inflight.length - this.inflightHead} descriptor read(s) on the NoC`;
    if (waiting.length) return `prefetch queues full for queue(s) ${waiting.join(', ')} (trip manager not consuming)`;
    return undefined;
  }
}
