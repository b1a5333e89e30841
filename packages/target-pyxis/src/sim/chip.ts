/**
 * The Pyxis chip model: memories (HBM, per-cluster AMEM and CSR/config
 * space), and per cluster the barrier table, DPE, trip manager, barrier-
 * config engine, H2A, A2H, 3 ICDMA, 13 MPE channels and the UIEs, plus the
 * chip-level APM and the host agent (host.ts) that performs the image's
 * enqueue records. Everything is registered with one kernel Simulator.
 */
import { decode, loadTable } from '@pyxis/codec';
import { DiagnosticError, error, type Diagnostic } from '@pyxis/diagnostics';
import type { SimEngine } from '@pyxis/sim';
import { BandwidthPort, objs, RunAheadWindow, Simulator, TimedLink } from '@pyxis/sim';
import { Amem } from './amem/index.js';
import { CLIENT_MPE } from './amem/banks.js';
import type { AmemAccess } from './amemAccess.js';
import { Apm } from './apm.js';
import { BarrierTable } from './barriers.js';
import { OrderingTracker } from './ordering.js';
import { CsrCfgSpace } from './csrSpace.js';
import { CLUSTER_CSR_BASE, CLUSTER_CSRS, CSR_END, type ClusterCsrRegion } from './clusterCsr.js';
import { coreSwitchBytesPerCycle, hbmBytesPerCycle, type SimConfig } from './config.js';
import { DescriptorPrefetchEngine } from './dpe.js';
import { TripManager } from './tripManager.js';
import { runtimeError, SimCodes } from './diagnostics.js';
import {
  BarrierConfigEngine, deliverIcdmaChunk, engineKey, IcdmaEngine, MpeEngine, PHASE,
  type IcdmaAck, type IcdmaChunk, type RemoteWrite,
} from './engines.js';
import { HbmDmaEngine } from './hbmDma.js';
import { HbmMemory } from './memory.js';
import { defaultWindows, NocMap, type RemapWindow } from './noc.js';
import { PyxisObserver } from './observer.js';
import { tripQueueId } from '../common/nocMap.js';
import { icdmaDestination, queueKind, TRIP_QUEUES } from './queues.js';
import type { Trip, TripEngine } from './trip.js';
import { UieSlot, type UieFactory } from './uieSlot.js';
import { installControlCsrs } from './uieCsr.js';
import { loadMemoryMap } from '../common/memoryMap.js';
import { HostAgent, type EnqueueRecord } from './host.js';
import { MAX_CLUSTERS, MAX_UIES, type ImageModel } from './imageModel.js';
import type { ChipFabricOptions, ChipFabricSide } from './fabric/port.js';
import { FabricAdapter } from './fabric/adapter.js';
import { installFabricCsrs } from './fabric/csr.js';

export { DGRAM_INTERRUPT_BASE, DGRAM_INTERRUPT_NAMES, FABRIC_JOB_FAILED_INTERRUPT, HostAgent, type EnqueueRecord, type HostAction } from './host.js';

export { MAX_CLUSTERS, MAX_UIES } from './imageModel.js';
export const MPES_PER_CLUSTER = 13;
export const ICDMAS_PER_CLUSTER = 3;
/** memory_map.json `uie_stride`: byte distance between UIE blocks in the cfg window. */
export const UIE_CFG_STRIDE = loadMemoryMap().uieStride;

export interface ChipOptions {
  clusters: number;
  uies: number;
  config: SimConfig;
  uieFactory?: UieFactory;
  observer?: PyxisObserver;
  remap?: Array<{ dpe: RemapWindow[]; mpe: RemapWindow[] }>;
  /**
   * Temporal-decoupling quantum in cycles (default 1 = strict lockstep): a UIE may simulate up to this many cycles
   * ahead of the global clock while nothing outside can start a trip on it (docs/simulator.md "Quantum").
   */
  quantum?: number;
  /**
   * Tests only: register the engines with the kernel in a permutation drawn from this seed instead of the canonical
   * order. Results must not change (docs/timing-model.md "Kernel semantics").
   */
  registrationSeed?: number;
  /** A chip of a multi-chip system (fabric/port.ts): its fabric adapter talks to the system's fabric. */
  fabric?: ChipFabricOptions;
}

const NO_NAMES: ReadonlyMap<number, string> = new Map();

/** A barrier notification on its way to the barrier table of its cluster (§11.6.4). */
interface NotifyMsg {
  id: number;
  engine: string;
  trip: Trip;
}

/** Deterministic permutation (mulberry32 + Fisher-Yates) for `registrationSeed`. */
function shuffled<T>(a: T[], seed: number): T[] {
  let x = seed >>> 0;
  const rnd = () => {
    x = (x + 0x6d2b79f5) >>> 0;
    let t = x;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...a];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** A link latency parameter of sim_config.json: at least one cycle (it is the lookahead between clusters). */
function linkLatency(v: number, key: string): number {
  if (!(Number.isInteger(v) && v >= 1))
    throw new DiagnosticError(error(SimCodes.badConfig, `sim_config.json: \`${key}\` must be an integer >= 1 (it is the minimum latency of a cross-cluster link), got ${v}`));
  return v;
}

export class PyxisChip {
  readonly sim = new Simulator();
  /** The fabric adapter's face to the system's fabric (chip §10); null outside a system. */
  fabric: ChipFabricSide | null = null;
  /** The fabric adapter itself (fabric/adapter.ts: job managers, stats, failures); null outside a system. */
  fabricAdapter: FabricAdapter | null = null;
  readonly hbm = new HbmMemory();
  readonly amem: Amem[] = [];
  readonly cfg: CsrCfgSpace[] = [];
  readonly noc: NocMap;
  readonly barriers: BarrierTable[] = [];
  readonly dpe: DescriptorPrefetchEngine[] = [];
  readonly tm: TripManager[] = [];
  /** Trip engines by cluster, then queue id. */
  readonly engines: Array<Map<number, TripEngine>> = [];
  readonly allEngines: TripEngine[] = [];
  readonly mpes: MpeEngine[] = [];
  readonly uies: UieSlot[] = [];
  readonly apm: Apm;
  readonly ports: BandwidthPort[] = [];
  readonly host: HostAgent;
  readonly observer: PyxisObserver;
  /** Trips completed per engine kind. */
  readonly tripsByKind: Record<string, number> = {};
  private readonly records: EnqueueRecord[] = [];
  /** §11.7 partial-write ordering checker (vector clocks over trip engines). */
  readonly ordering: OrderingTracker;
  private readonly engineIndex = new Map<TripEngine, number>();
  /** The image loaded into the chip (image.ts `loadImage`); null for a chip built without one (tests). */
  image: ImageModel | null = null;
  /** Trip names by trip_id (the image's metadata), for reports. */
  get tripNames(): ReadonlyMap<number, string> {
    return this.image?.tripNames ?? NO_NAMES;
  }
  /** Run-time warnings of the control plane (CSR accesses, ICDMA plane masks), each key reported once. */
  readonly warnings: Diagnostic[] = [];
  private readonly warned = new Set<string>();
  warnOnce(key: string, d: Diagnostic): void {
    if (this.warned.has(key)) return;
    this.warned.add(key);
    this.warnings.push(d);
  }
  /**
   * Per cluster, the timed links into it (kernel TimedLink): barrier notifications (min latency
   * trip_manager.notify_latency_cycles), ICDMA chunks through the core switch (icdma.latency_cycles), ICDMA commit
   * reports back to the source, and MPE writes across the NoC (noc.latency_cycles). Every effect of one cluster on
   * another goes through them.
   */
  readonly notifyLinks: Array<TimedLink<NotifyMsg>> = [];
  readonly icdmaLinks: Array<TimedLink<IcdmaChunk>> = [];
  readonly icdmaAckLinks: Array<TimedLink<IcdmaAck>> = [];
  readonly nocLinks: Array<TimedLink<RemoteWrite>> = [];

  constructor(readonly opts: ChipOptions) {
    const { clusters, uies, config } = opts;
    if (!(clusters >= 1 && clusters <= MAX_CLUSTERS)) throw new RangeError(`clusters must be 1..${MAX_CLUSTERS}`);
    if (!(uies >= 0 && uies <= MAX_UIES)) throw new RangeError(`uies must be 0..${MAX_UIES}`);
    this.observer = opts.observer ?? new PyxisObserver();
    for (let c = 0; c < clusters; c++) {
      this.amem.push(new Amem(`c${c}.amem`, config.amem, this.sim)); // AMEM timing + control-plane bank claims (amem/banks.ts)
      this.cfg.push(new CsrCfgSpace(c));
    }
    this.noc = new NocMap(this.hbm, this.amem as AmemAccess[], this.cfg);
    // Engine slots per cluster: UIEs, H2A, A2H, 3 ICDMA, 13 MPE, barrier config.
    this.ordering = new OrderingTracker(clusters * (uies + 2 + ICDMAS_PER_CLUSTER + MPES_PER_CLUSTER + 1 + (opts.fabric ? 4 : 0)), (i) => this.allEngines[i]?.name ?? `engine ${i}`);
    const apmSlots = clusters * (uies + 5);
    this.apm = new Apm(config.apm, apmSlots);
    let apmSlot = 0;
    const port = (name: string, bpc: number) => {
      const p = new BandwidthPort(name, bpc);
      this.ports.push(p);
      return p;
    };
    const egress: BandwidthPort[] = [];
    const ingress: BandwidthPort[] = [];
    for (let c = 0; c < clusters; c++) {
      egress.push(port(`c${c}.core_switch.egress`, coreSwitchBytesPerCycle(config)));
      ingress.push(port(`c${c}.core_switch.ingress`, coreSwitchBytesPerCycle(config)));
    }
    const notifyLatency = linkLatency(config.trip_manager.notify_latency_cycles, 'trip_manager.notify_latency_cycles');
    const icdmaLatency = linkLatency(config.icdma.latency_cycles, 'icdma.latency_cycles');
    const nocLatency = linkLatency(config.noc.latency_cycles, 'noc.latency_cycles');
    for (let c = 0; c < clusters; c++) {
      const cl = c;
      this.notifyLinks.push(this.sim.addLink(new TimedLink<NotifyMsg>(`c${c}.barrier_notify`, notifyLatency, PHASE.tripManager, (m, now) => this.deliverNotify(cl, m, now))));
      // A commit report is sent when the ingress transfer starts and arrives at the commit cycle: at least one cycle later.
      this.icdmaAckLinks.push(this.sim.addLink(new TimedLink<IcdmaAck>(`c${c}.icdma_commit`, 1, PHASE.engines, (m, now) => m.source.ackCommit(now))));
      // remote MPE writes: bank client `mpe` of the target cluster, their lateness not charged (docs/spec-notes.md)
      this.nocLinks.push(this.sim.addLink(new TimedLink<RemoteWrite>(`c${c}.noc_in`, nocLatency, PHASE.engines, (m) => this.noc.write(m.target, m.data, CLIENT_MPE))));
    }
    for (let c = 0; c < clusters; c++) {
      const amem = this.amem[c]!;
      const inPort = ingress[c]!;
      this.icdmaLinks.push(
        this.sim.addLink(
          new TimedLink<IcdmaChunk>(`c${c}.core_switch_in`, icdmaLatency, PHASE.engines, (m, now) => deliverIcdmaChunk(m, now, config, amem, inPort, this.icdmaAckLinks[m.source.cluster]!)),
        ),
      );
    }
    if (opts.fabric) {
      // chip §10: one fabric adapter per chip (Tx / Rx job managers per cluster, the shared QPage table, FO pipes)
      this.fabricAdapter = new FabricAdapter({ clusters, fabric: opts.fabric, amem: this.amem, hbm: this.hbm, commitLatency: config.amem.write_commit_latency_cycles, descriptorFetchCycles: config.noc.latency_cycles + Math.ceil(8 / config.noc.bytes_per_cycle), coreSwitch: { egress, ingress }, observer: this.observer });
      this.fabric = this.fabricAdapter;
    }
    for (let c = 0; c < clusters; c++) {
      const bt = new BarrierTable(c, this.observer, config.barrier_timeout_cycles);
      this.barriers.push(bt);
      const hbmPort = port(`c${c}.hbm`, hbmBytesPerCycle(config));
      const nocPort = port(`c${c}.noc`, config.noc.bytes_per_cycle);
      const engines = new Map<number, TripEngine>();
      this.engines.push(engines);
      let tm: TripManager | undefined;
      const done = (engine: string) => (trip: Trip, now: number) => {
        this.tripsByKind[trip.kind] = (this.tripsByKind[trip.kind] ?? 0) + 1;
        tm!.complete(trip, now, engine);
      };
      const add = (qid: number, e: TripEngine & { commitKey: number; kernel: unknown }) => {
        e.commitKey = engineKey(c, qid);
        e.kernel = this.sim;
        engines.set(qid, e);
        this.engineIndex.set(e, this.allEngines.length);
        this.allEngines.push(e);
        // controlIdle's list, kept here: built lazily it was first built in controlIdle's first calls, before V8 keeps
        // feedback for them, and a thread's next partition then deoptimised the slots' tick there
        if (e instanceof UieSlot) this.uieCount++;
        else this.controlEngines.push(e);
      };
      for (let u = 0; u < uies; u++) {
        const name = `c${c}.uie${u}`;
        const slot = new UieSlot(c, u, done(name), this.apm, apmSlot++);
        slot.model = opts.uieFactory?.({
          cluster: c,
          index: u,
          name,
          amem: this.amem[c]!,
          cfg: this.cfg[c]!,
          cfgBase: u * UIE_CFG_STRIDE,
          writeCommitLatency: config.amem.write_commit_latency_cycles,
          params: config,
          onTripDone: (tripId, cycle) => slot.retire(tripId, cycle),
          onPartialWrite: (byteAddr, tripId, cycle, rmw) => {
            const t = slot.inflightTrip(tripId);
            if (t) this.ordering.partialWrite(t, slot.cluster, byteAddr, cycle, rmw);
          },
        });
        slot.window = new RunAheadWindow(opts.quantum ?? 1, this.sim);
        slot.gate = this;
        this.uies.push(slot);
        add(tripQueueId('uie', u), slot);
      }
      add(tripQueueId('h2a'), new HbmDmaEngine(c, 'h2a', done(`c${c}.h2a`), config, this.hbm, this.amem[c]!, hbmPort, port(`c${c}.h2a`, config.h2a.bytes_per_cycle), this.apm, apmSlot++));
      add(tripQueueId('a2h'), new HbmDmaEngine(c, 'a2h', done(`c${c}.a2h`), config, this.hbm, this.amem[c]!, hbmPort, port(`c${c}.a2h`, config.a2h.bytes_per_cycle), this.apm, apmSlot++));
      for (let i = 0; i < ICDMAS_PER_CLUSTER; i++) {
        const dest = icdmaDestination(c, i);
        if (dest >= clusters) continue;
        const icdma = new IcdmaEngine(c, i, dest, done(`c${c}.icdma${i}`), config, this.amem[c]!, this.icdmaLinks[dest]!, port(`c${c}.icdma${i}`, config.icdma.bytes_per_cycle), egress[c]!, this.apm, apmSlot++);
        icdma.warn = (k, d) => this.warnOnce(k, d);
        add(tripQueueId('icdma', i), icdma);
      }
      const windows = opts.remap?.[c];
      const mpeWrite = port(`c${c}.mpe_write`, config.mpe.write_bytes_per_cycle * MPES_PER_CLUSTER);
      for (let i = 0; i < MPES_PER_CLUSTER; i++) {
        const m = new MpeEngine(c, i, done(`c${c}.mpe${i}`), config, this.noc, nocPort, mpeWrite, windows?.mpe ?? defaultWindows(c), this.nocLinks);
        this.mpes.push(m);
        add(tripQueueId('mpe', i), m);
      }
      add(tripQueueId('barrier_config'), new BarrierConfigEngine(c, done(`c${c}.barrier_config`), bt, config.barrier_config.latency_cycles));
      if (this.fabricAdapter) for (const e of this.fabricAdapter.makeQueueEngines(c, (qid) => done(`c${c}.${queueKind(qid)!.kind}${queueKind(qid)!.index}`))) add(tripQueueId(e.kind === 'rdma_tx' ? 'rdma_tx' : 'rdma_rx', Number(e.name.slice(-1))), e);
      const dpe = new DescriptorPrefetchEngine(c, config, this.noc, nocPort, windows?.dpe ?? defaultWindows(c), (q) => engines.has(q));
      this.dpe.push(dpe);
      tm = new TripManager(c, config, dpe, bt, engines, (g, now, at, engine, trip) => this.sendNotify(g, now, at, engine, trip), this.observer);
      tm.tripName = (id) => this.tripNames.get(id);
      const cl = c;
      tm.onRelease = (trip, qid, barrierId) => {
        const e = engines.get(qid);
        if (e) this.ordering.released(trip, this.engineIndex.get(e)!, cl, barrierId);
      };
      bt.onFree = (id) => this.ordering.freed(cl, id);
      // Trip flush (chip §11.8): once quiescent, the barrier table is cleared and re-initialised by hardware.
      tm.onFlushQuiescent = (now) => bt.reinitialize(now);
      this.tm.push(tm);
      this.installCsrHooks(c);
      if (this.fabricAdapter) installFabricCsrs(this.cfg[c]!, c, this.fabricAdapter, (k, w) => this.warnOnce(k, w));
      const d = dpe;
      installControlCsrs({
        cluster: c,
        cfg: this.cfg[c]!,
        uies: this.uies.filter((u) => u.cluster === c),
        tm,
        barriers: bt,
        queuesEmpty: () => !d.busy && d.queued === 0,
        dpe: d,
        now: () => this.sim.now,
        warnOnce: (k, w) => this.warnOnce(k, w),
      });
    }
    this.host = new HostAgent(this, this.records);
    this.apm.kernel = this.sim;
    // The order of registration does not matter: each engine declares its phase (PHASE), and engines of one phase
    // never see each other's same-cycle writes (docs/timing-model.md "Kernel semantics"). The canonical order below
    // only fixes the order of the stats and trace tracks; tests register in random orders (registrationSeed).
    const all: SimEngine[] = [this.host];
    for (let c = 0; c < clusters; c++) all.push(this.dpe[c]!, this.tm[c]!);
    all.push(...this.allEngines, this.apm);
    if (this.fabricAdapter) all.push(this.fabricAdapter);
    for (const e of opts.registrationSeed === undefined ? all : shuffled(all, opts.registrationSeed)) this.register(e);
    this.sim.addExplainer(() => this.explainBarriers());
    if (this.fabricAdapter) {
      const fa = this.fabricAdapter;
      this.sim.addExplainer(() => fa.explain());
    }
  }

  /** Set once no trip can ever be started again on the chip (absorbing; re-checked at most once per cycle). */
  private quiet = false;
  private quietCheckedAt = -1;

  /**
   * No engine can ever start a trip again: the host has nothing left to enqueue or write, every DPE is idle with
   * empty prefetch queues, every trip-manager slot is idle and no MPE (the only engine that can write the enqueue
   * CSR, through the NoC) is running. Nothing can then enqueue a list again, so the state is final.
   */
  private noMoreTrips(): boolean {
    if (this.host.busy) return false;
    for (const d of this.dpe) if (d.busy || d.queued !== 0) return false;
    for (const m of this.mpes) if (m.busy) return false;
    for (const t of this.tm) {
      if (t.csrLaunchesPending) return false;
      for (const s of t.slots) if (s.state !== 0) return false;
    }
    return true;
  }

  /**
   * The run-ahead gate of the UIE slots (docs/simulator.md "Quantum"). With APM enabled a UIE must be admitted on
   * every cycle of the window: utilisation 1 now, and no trip start anywhere (RequestedPower then only falls, §13).
   * Without APM it suffices that no trip can be started on this UIE: either never again, or not while its tracking
   * IDs / descriptor FIFOs are full (run-ahead then stops when that changes).
   */
  runAheadGate(slot: UieSlot, now: number): 0 | 1 | 2 {
    const apmOn = this.opts.config.apm.enabled;
    if (apmOn && this.apm.utilization < 1) return 0;
    // software polling reads live UIE registers (csr.seq_status, ...) at the global clock: no run-ahead meanwhile
    if (this.host.polling) return 0;
    if (!this.quiet && this.quietCheckedAt !== now) {
      this.quietCheckedAt = now;
      this.quiet = this.noMoreTrips();
    }
    // AMEM banks (amem/banks.ts): DMA engines claim banks in their tick / commit, after a UIE may have batched the cycle
    // (its batch does not claim): while any is busy the UIEs run cycle by cycle, so every claim meets the arbiter
    if (!this.controlIdle(now)) return 0;
    if (this.quiet) return 1;
    if (apmOn) return 0;
    return slot.canAccept() ? 0 : 2;
  }

  private idleCheckedAt = -1;
  private idle = false;
  /** No trip engine other than the UIEs is busy (evaluated once per cycle, so every UIE sees the same answer). */
  private controlIdle(now: number): boolean {
    if (this.idleCheckedAt !== now) {
      this.idleCheckedAt = now;
      // the engines other than the UIEs, listed once (all are registered in the constructor)
      if (this.controlEngines.length + this.uieCount !== this.allEngines.length) {
        this.controlEngines = this.allEngines.filter((e) => !(e instanceof UieSlot));
        this.uieCount = this.allEngines.length - this.controlEngines.length;
      }
      const ce = this.controlEngines;
      let idle = true;
      for (let i = 0; i < ce.length; i++)
        if (ce[i]!.busy) {
          idle = false;
          break;
        }
      this.idle = idle && !this.fabricAdapter?.busy;
    }
    return this.idle;
  }
  // an object array from the start (kernel objs(): a fresh `[]` deoptimises controlIdle at the next partition's chip)
  private controlEngines: TripEngine[] = objs();
  private uieCount = 0;

  private register(e: SimEngine): void {
    this.sim.add(e);
    this.observer.registerEngine(e);
  }

  get clusters(): number {
    return this.opts.clusters;
  }

  /** Queues the image's enqueue records for the host agent. */
  addEnqueueRecords(records: EnqueueRecord[]): void {
    this.records.push(...records);
    this.host.wake();
  }

  /** The enqueue CSR (§11.5.1.1): false when the ring is full. */
  enqueue(r: EnqueueRecord, now: number): boolean {
    if (r.cluster >= this.clusters)
      throw runtimeError(SimCodes.noEngine, `enqueue to cluster ${r.cluster}, but only ${this.clusters} cluster(s) are simulated (see --clusters)`, '§11.5.1', now);
    if (r.queue_id >= TRIP_QUEUES || !queueKind(r.queue_id))
      throw runtimeError(SimCodes.badEnqueue, `enqueue to queue 0x${r.queue_id.toString(16)}: not a trip descriptor queue (Table 11-1: 0x00-0x${(TRIP_QUEUES - 1).toString(16)})`, '§11.5', now);
    if (r.descriptor_list_address % 8 !== 0)
      throw runtimeError(SimCodes.misaligned, `descriptor list address 0x${r.descriptor_list_address.toString(16)} is not 8-byte aligned`, '§11.5.1.1', now);
    return this.dpe[r.cluster]!.enqueue(r.queue_id, r.descriptor_list_address, r.descriptor_list_length);
  }

  /**
   * notify() of a global barrier id {cluster[1:0], local[9:0]} (§11.6.4) by a trip completed at `now`: sent over the
   * barrier link of that cluster (the own cluster's too, so that every notification reaches its table the same way),
   * applied at `at` before the trip managers tick.
   */
  sendNotify(g: number, now: number, at: number, engine: string, trip: Trip): void {
    const c = g >> 10;
    const id = g & 1023;
    if (c >= this.clusters)
      throw runtimeError(SimCodes.noEngine, `${engine} trip ${trip.tripId} notifies barrier ${c}:${id} of cluster ${c}, which is not simulated (see --clusters)`, '§11.6.4', now);
    this.notifyLinks[c]!.send(now, at, engineKey(trip.cluster, trip.qid), { id, engine, trip });
  }

  private deliverNotify(c: number, m: NotifyMsg, now: number): void {
    this.ordering.notified(m.trip, c, m.id);
    this.barriers[c]!.notify(m.id, now, m.engine, m.trip.tripId);
  }

  private installCsrHooks(c: number): void {
    const cfg = this.cfg[c]!;
    const enq = loadTable('pyxis', CLUSTER_CSRS.enqueue.table);
    const decr = loadTable('pyxis', CLUSTER_CSRS.bt_mem_decrement.table);
    const intr = loadTable('pyxis', CLUSTER_CSRS.barrier_interrupt_config.table);
    /** Entry index of `a` in CSR region r, or -1 (addresses from memory_map.json cluster_csr regions). */
    const entry = (r: ClusterCsrRegion, a: number) => (a >= r.offset && a < r.offset + r.words * r.stride && (a - r.offset) % r.stride === 0 ? (a - r.offset) / r.stride : -1);
    let e: number;
    cfg.watch(CLUSTER_CSR_BASE, CSR_END, (addr, src, off, len) => {
      for (let a = addr - (addr % 8); a < addr + len; a += 8) {
        const word = new Uint8Array(8);
        for (let i = 0; i < 8; i++) {
          const s = a + i - addr;
          word[i] = s >= 0 && s < len ? src[off + s]! : cfg.byte(a + i);
        }
        const now = this.sim.now;
        if (entry(CLUSTER_CSRS.enqueue, a) === 0) {
          const v = decode(enq, word);
          const r: EnqueueRecord = { cluster: c, queue_id: Number(v['queue_id']), descriptor_list_address: Number(v['descriptor_list_address']), descriptor_list_length: Number(v['descriptor_list_length']) };
          if (!this.enqueue(r, now))
            throw runtimeError(SimCodes.queueFull, `enqueue CSR write to queue 0x${r.queue_id.toString(16)} of cluster ${c} while its 4-entry ring is full`, '§11.5.1', now);
        } else if ((e = entry(CLUSTER_CSRS.bt_mem_decrement, a)) >= 0) {
          const v = decode(decr, word);
          this.barriers[c]!.softwareDecrement(e, Number(v['wait_decr']), Number(v['notif_decr']), Number(v['trip_id']), now);
        } else if ((e = entry(CLUSTER_CSRS.barrier_interrupt_config, a)) >= 0) {
          const v = decode(intr, word);
          this.barriers[c]!.configureInterrupt(e, Number(v['interrupt_valid']) === 1, Number(v['barrier_id']));
        }
      }
    });
  }

  /** Wait-graph lines for barriers that are not in the reset state. */
  explainBarriers(): string[] {
    const lines: string[] = [];
    const now = this.sim.now;
    for (const bt of this.barriers) {
      for (const b of bt.pending(now)) {
        const who = b.waiters.length ? `; blocked: ${b.waiters.join(', ')}` : '';
        const why = !b.refCountsValid
          ? 'never set up (no set_ref_counts yet)'
          : b.notifyCount > 0
            ? `${b.notifyCount} notification(s) missing`
            : b.waitCount > 0
              ? `${b.waitCount} consumer wait(s) outstanding`
              : 'complete';
        const roles = this.image?.barrierRoles.get(bt.cluster * 1024 + b.id);
        const exp = roles ? `; producers: ${roles.producers.join(', ') || '-'}; consumers: ${roles.consumers.join(', ') || '-'}` : '';
        lines.push(`barrier ${bt.cluster}:${b.id}: notify_count=${b.notifyCount} wait_count=${b.waitCount} ref_counts_valid=${b.refCountsValid ? 1 : 0} (${why})${who}${exp}`);
      }
    }
    return lines;
  }
}
