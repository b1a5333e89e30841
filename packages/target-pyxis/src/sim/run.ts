/**
 * One-call simulation of a `.pimg`: build the chip for the image (or the
 * requested size), load it, run the kernel, and produce the report (stats
 * JSON + the data for the human summary). Trace/VCD sinks are closed on
 * every path; on a runtime error they are aborted (no partial files).
 */
import type { FabricAdapter } from './fabric/adapter.js';
import type { FabricClusterStats } from './fabric/stats.js';
import { loadTable, readField } from '@pyxis/codec';
import { DiagnosticError, error, warning, type Diagnostic } from '@pyxis/diagnostics';
import { descriptorBytes } from './descriptors.js';
import { remapEngineAddress } from './noc.js';
import type { Container } from '@pyxis/container';
import type { TextSink, VcdTimeUnit } from '@pyxis/sim';
import { TraceWriter } from '@pyxis/sim';
import { VcdWriter } from '@pyxis/sim';
import type { StopReason } from '@pyxis/sim';
import type { PyxisChip } from './chip.js';
import { loadSimConfig, type SimConfig } from './config.js';
import { SimCodes, CHIP_SPEC } from './diagnostics.js';
import { attachImageSpan, inspectImage, loadImage } from './image.js';
import { chipSize, listedBarriers, programAt, type ImageModel } from './imageModel.js';
import { chipFor, resetMemoryCounters } from './imageChip.js';
import { PyxisObserver, SequencerTracer, TraceSampler, VcdProbe, type CounterSource } from './observer.js';
import { loadMemoryMap } from '../common/memoryMap.js';
import { tripQueueId } from '../common/nocMap.js';
import { queueKind, TRIP_QUEUES } from './queues.js';
import { UieSlot, type UieFactory } from './uieSlot.js';
import { BaseTripEngine } from './engines.js';
import { UninitWatch } from './uninit.js';
import { sequencerPcs, sequencerRunning, uieFifos, uieStats } from './uieDefault.js';
import { vpuCounter, VpuTracer, vpuVcdProbes } from './vpuTrace.js';
import { bankCounter, gridCounter, gridVcdProbes, stallCounter } from './gridTrace.js';

/** Sequencer names by id, the order of `trip_valid_mask` / `start_pc` (grammars/pyxis/memory_map.json, isa.json order). */
export const SEQUENCER_NAMES: readonly string[] = (() => {
  const out: string[] = [];
  for (const q of loadMemoryMap().sequencers) out[q.id] = q.name;
  return out;
})();

export interface SimulateOptions {
  clusters?: number;
  uies?: number;
  clockHz?: number;
  maxCycles?: number;
  config?: SimConfig;
  trace?: TextSink;
  vcd?: TextSink;
  /** VCD time unit (`--vcd-time-unit`). */
  vcdTimeUnit?: VcdTimeUnit;
  uieFactory?: UieFactory;
  onProgress?: (cycle: number, work?: { done: number; total: number; unit: string }) => void;
  /** Cycles between trace counter samples (default 1024). */
  traceSamplePeriod?: number;
  /** Report reads of uninitialised AMEM/HBM as warnings with addresses (`--warn-uninit`; uninit.ts). */
  warnUninit?: boolean;
  /**
   * Temporal-decoupling quantum (`--quantum`, default DEFAULT_QUANTUM; 1 = strict lockstep): how many cycles a UIE may
   * run ahead of the global clock when nothing can start a trip on it (docs/simulator.md "Quantum"). Results are the
   * same for every value; runs with --trace, --vcd or --warn-uninit (which sample UIE state per cycle) use 1.
   */
  quantum?: number;
  /** Tests only: register the chip's engines in a permutation drawn from this seed (ChipOptions.registrationSeed). */
  registrationSeed?: number;
}

/** Default `SimulateOptions.quantum`. */
export const DEFAULT_QUANTUM = 256;

export interface EngineReport {
  name: string;
  busy: number;
  stall: number;
  idle: number;
  /** busy / cycles: fraction of cycles the engine made progress. */
  utilization: number;
  /** (busy + stall) / cycles: fraction of cycles the engine held work (a trip in flight, queued descriptors). */
  occupancy: number;
  stall_reasons: Record<string, number>;
  trips?: number;
  bytes?: number;
  /** Cycles this engine's trips waited on their wait barrier (wait() to release). */
  barrier_wait_cycles?: number;
  /** UIE datapath statistics (UIE engines with the datapath model). */
  uie?: Record<string, unknown>;
}

export interface SimReport {
  stop: StopReason;
  cycles: number;
  seconds: number;
  clock_hz: number;
  clusters: number;
  uies: number;
  kernel_steps: number;
  trips_by_kind: Record<string, number>;
  trips_total: number;
  /** The link script's trip names by trip_id (image metadata), for reports. */
  trip_names: Record<string, string>;
  engines: EngineReport[];
  ports: Array<{ name: string; bytes: number; busy_cycles: number; utilization: number }>;
  barriers: Array<{
    cluster: number;
    setups: number;
    notifies: number;
    waits: number;
    releases: number;
    frees: number;
    /** Barrier timeouts detected by the §11.6.7 marking walk. */
    timeouts: number;
    interrupts: number[];
    /** Timeout interrupts raised (§11.6.7) and the saved first timed-out barrier id (-1: none). */
    timeout_interrupts: number;
    timeout_barrier_id: number;
    /** Every interrupt raised to the CPUs, in cycle order: barrier_interrupt_config entries (§11.6.5) and timeouts (entry -1). */
    interrupt_log: Array<{ cycle: number; source: string; entry: number; barrier_id: number }>;
    /** Launched trips that waited on each barrier: count and wait() -> release cycles (total, longest), by barrier id. */
    wait_cycles: Array<{ barrier_id: number; waits: number; cycles: number; max: number }>;
  }>;
  barrier_events: Record<string, number>;
  /** Trip flush per cluster that used it (chip §11.8): trips discarded and the cycles at which a flush completed. */
  trip_flush: Array<{ cluster: number; trips_discarded: number; done_at: number[]; flush_mode: boolean }>;
  dpe: Array<{ cluster: number; descriptors: number; bytes: number; dequeue_events: number }>;
  mpe: { patches: number; trips: number };
  apm: { enabled: boolean; peak_requested_power: number; final_granted_power: number; bubbles: number; energy: number };
  trip_power: Array<{ engine: string; power_cycles: number }>;
  /**
   * A chip of a system: its fabric adapter's statistics and debug counters per cluster (chip §10.9 is TBD: the set
   * is fabric/stats.ts's, docs/system.md), and the QPages still held at the end. Absent outside a system.
   */
  fabric_adapter?: { clusters: Array<{ cluster: number } & FabricClusterStats>; qpages_in_use: number; failed_interrupts: number[] };
  /** Memory traffic of the run (image loading excluded): HBM, and per cluster AMEM (all clients: UIE datapath, DMA, MPE, DPE). */
  memory: {
    hbm_bytes_read: number;
    hbm_bytes_written: number;
    hbm_uninit_bytes_read: number;
    amem_uninit_reads: number;
    amem_view_conflicts: number;
    amem: Array<{
      cluster: number;
      bytes_read: number;
      bytes_written: number;
      uninit_partition_reads: number;
      /** AMEM bank arbitration (amem/banks.ts): banks with conflicts, and every client that claimed. */
      bank_conflicts?: Array<{ bank: number; conflicts: number; stall_cycles: number; accesses: number }>;
      clients?: Array<{ client: string; claims: number; conflicts: number; stall_cycles: number }>;
      /** Partition accesses of every bank (index = bank), all clients. */
      bank_accesses?: number[];
    }>;
  };
  wait_graph: string[];
  warnings: Diagnostic[];
}

export interface SimulationResult {
  chip: PyxisChip;
  /** The image model the chip was built and loaded from (imageModel.ts). */
  info: ImageModel;
  report: SimReport;
}

export { resetMemoryCounters };

/** Simulates an image: its container (read here into the image model) or a model already read (imageModel.ts). */
export function simulateImage(container: Container | ImageModel, file: string, opts: SimulateOptions = {}): SimulationResult {
  let image: ImageModel;
  let size: { clusters: number; uies: number };
  try {
    image = 'placed' in container ? container : inspectImage(container, file);
    size = chipSize(image, opts);
  } catch (e) {
    // No output files for an image that cannot be run.
    opts.trace?.abort();
    opts.vcd?.abort();
    throw e;
  }
  return run(image, size, opts);
}

function run(info: ImageModel, size: { clusters: number; uies: number }, opts: SimulateOptions): SimulationResult {
  let config: SimConfig;
  try {
    config = opts.config ?? loadSimConfig(opts.clockHz !== undefined ? { clockHz: opts.clockHz } : {});
  } catch (e) {
    opts.trace?.abort();
    opts.vcd?.abort();
    throw e;
  }
  const trace = opts.trace ? new TraceWriter(opts.trace, config.clock_hz) : undefined;
  const vcd = opts.vcd ? new VcdWriter(opts.vcd, config.clock_hz, 'pyxis-sim', opts.vcdTimeUnit ?? 'ps') : undefined;
  const observer = new PyxisObserver(trace, vcd);
  try {
    const quantum = trace || vcd || opts.warnUninit ? 1 : (opts.quantum ?? DEFAULT_QUANTUM);
    if (!(Number.isInteger(quantum) && quantum >= 1 && quantum <= 1 << 20))
      throw new DiagnosticError(error(SimCodes.badConfig, `--quantum must be an integer in 1..${1 << 20}, got ${quantum}`));
    const chip = chipFor(info, { ...size, config, observer, quantum, ...(opts.registrationSeed !== undefined ? { registrationSeed: opts.registrationSeed } : {}), ...(opts.uieFactory ? { uieFactory: opts.uieFactory } : {}) });
    // traces and VCD sample the UIEs' counters at every cycle: no VPU-only cycles deferred (uie/uie.ts vpuSkipUntil)
    if (trace || vcd) for (const u of chip.uies) if (u.model && 'deferVpu' in u.model) (u.model as { deferVpu: boolean }).deferVpu = false;
    let sampler: TraceSampler | undefined;
    let seqTracer: SequencerTracer | undefined;
    let vpuTracer: VpuTracer | undefined;
    if (trace) {
      chip.apm.onChange = (now) => trace.counter('chip', now, 'APM power', { requested: chip.apm.requested, granted: chip.apm.granted });
      const counters: CounterSource[] = chip.dpe.map((d) => ({ group: d.group, name: 'prefetch occupancy', sample: () => ({ descriptors: d.prefetch.reduce((a, f) => a + f.occupancy, 0) }) }));
      for (const u of chip.uies) {
        const fifos = uieFifos(u.model);
        if (fifos) counters.push({ group: u.group, name: `${u.name} FIFO occupancy`, sample: () => Object.fromEntries(fifos.map(([n, get]) => [n, get()])) });
        const vc = vpuCounter(u.model, u.name, u.group);
        if (vc) counters.push(vc);
        const gc = gridCounter(u.model, u.name, u.group);
        if (gc) counters.push(gc);
        const sc = stallCounter(u.model, u.name, u.group);
        if (sc) counters.push(sc);
      }
      chip.amem.forEach((a, c) => counters.push(bankCounter(a.banks.stats.bankAccesses, c, `cluster ${c}`)));
      sampler = new TraceSampler(trace, opts.traceSamplePeriod ?? 1024, config.clock_hz, chip.ports, counters);
      chip.sim.add(sampler);
      for (const d of chip.dpe) d.onDequeue = (qid, now) => observer.instant(d.group, d.name, now, `dequeue q0x${qid.toString(16)}`, { queue_id: qid, head: d.queues[qid]!.head });
      for (const u of chip.uies) {
        const seqs = sequencerRunning(u.model);
        if (!seqs) continue;
        seqTracer ??= new SequencerTracer(trace);
        seqs.forEach((q, i) => seqTracer!.add(u.name, i, u.group, `${u.name}.${q.name}`, q.name, q.running, q.pc, q.slot, programAt(info, `${u.name}.${q.name}`)));
      }
      if (seqTracer) {
        chip.sim.add(seqTracer);
        observer.seqTracer = seqTracer;
      }
      // VPU and Vbuffer activity per UIE (vpuTrace.ts)
      vpuTracer = new VpuTracer(trace);
      for (const u of chip.uies) vpuTracer.add(u.model, u.name, u.group);
      chip.sim.add(vpuTracer);
    }
    loadImage(chip, info);
    if (vcd) declareVcd(chip, vcd, info);
    // Memory counters describe the run, not the image load.
    resetMemoryCounters(chip);
    const watch = opts.warnUninit ? new UninitWatch(() => chip.sim.now) : undefined;
    if (watch) {
      for (const a of chip.amem) watch.watchAmem(a);
      watch.watchSparse(chip.hbm);
    }
    const res = chip.sim.run({
      ...(opts.maxCycles !== undefined ? { maxCycles: opts.maxCycles } : {}),
      ...(opts.onProgress ? { onProgress: progress(chip, info, opts.onProgress), progressEvery: 1024 } : {}),
    });
    watch?.stop();
    if (trace && res.reason !== 'done') traceUnfinished(chip, observer, res.cycles);
    chip.apm.finish(res.cycles);
    seqTracer?.finish(res.cycles);
    vpuTracer?.finish(res.cycles);
    sampler?.finish(res.cycles);
    const report = buildReport(chip, config, res.reason, res.cycles, res.steps, res.waitGraph, watch);
    trace?.close({ cycles: res.cycles, stop: res.reason, clock_hz: config.clock_hz });
    vcd?.close(res.cycles);
    return { chip, info, report };
  } catch (e) {
    trace?.abort();
    vcd?.abort();
    attachImageSpan(e, info);
    throw e;
  }
}

/**
 * Progress in trips: done (every engine kind) of the trips the image's descriptor lists hold
 * (metadata.pyxis.queues[].lists[].descriptors; lists written at run time raise the total as they run).
 */
function progress(chip: PyxisChip, info: ImageModel, report: NonNullable<SimulateOptions['onProgress']>): (cycle: number) => void {
  const total = info.listedTrips;
  return (cycle) => {
    let done = 0;
    for (const k in chip.tripsByKind) done += chip.tripsByKind[k]!;
    report(cycle, total > 0 ? { done, total: Math.max(total, done), unit: 'trips' } : undefined);
  };
}

function declareVcd(chip: PyxisChip, vcd: VcdWriter, info: ImageModel): void {
  const probe = new VcdProbe(vcd);
  const usedQueues = new Set(info.records.map((r) => r.cluster * 64 + r.queue_id));
  for (let c = 0; c < chip.clusters; c++) {
    for (let q = 0; q < TRIP_QUEUES; q++) {
      if (!usedQueues.has(c * 64 + q)) continue;
      const k = queueKind(q)!;
      const name = `${k.kind}${k.kind === 'h2a' || k.kind === 'a2h' || k.kind === 'barrier_config' ? '' : k.index}`;
      const fifo = chip.dpe[c]!.prefetch[q]!;
      const dq = chip.dpe[c]!.queues[q]!;
      probe.add(vcd.signal([`cluster${c}`, 'prefetch'], `${name}_occupancy`, 4), () => fifo.occupancy);
      probe.add(vcd.signal([`cluster${c}`, 'rings'], `${name}_lists`, 3), () => dq.count);
    }
    for (const e of chip.allEngines) if (e.cluster === c) probe.add(vcd.signal([`cluster${c}`, 'busy'], e.name.replace(/^c\d+\./, ''), 1), () => (e.busy ? 1 : 0));
    for (const u of chip.uies) {
      const pcs = sequencerPcs(u.model);
      if (u.cluster !== c || !pcs) continue;
      pcs.forEach((get, s) => probe.add(vcd.signal([`cluster${c}`, `uie${u.index}`], `${SEQUENCER_NAMES[s] ?? `seq${s}`}_pc`, 5), get));
      for (const [name, get] of uieFifos(u.model) ?? []) probe.add(vcd.signal([`cluster${c}`, `uie${u.index}`], name, 8), get);
      for (const [name, width, get] of vpuVcdProbes(u.model) ?? []) probe.add(vcd.signal([`cluster${c}`, `uie${u.index}`], name, width), get);
      for (const [name, width, get] of gridVcdProbes(u.model) ?? []) probe.add(vcd.signal([`cluster${c}`, `uie${u.index}`], name, width), get);
    }
  }
  // Barriers: those the image lists, plus every barrier_id of the barrier-config lists found in memory at load.
  const ids = listedBarriers(info);
  const bc = loadTable('pyxis', 'desc_barrier_config');
  const size = descriptorBytes('barrier_config');
  const barrierQueue = tripQueueId('barrier_config');
  for (const r of info.records) {
    if (r.queue_id !== barrierQueue || r.cluster >= chip.clusters) continue;
    const noc = remapEngineAddress(r.descriptor_list_address, chip.dpe[r.cluster]!.windows);
    const t = chip.noc.resolve(noc, r.descriptor_list_length * 8);
    if (!t) continue;
    const bytes = chip.noc.read(t, r.descriptor_list_length * 8);
    for (let o = 0; o + size <= bytes.length; o += size) {
      const id = Number(readField(bc, bytes, 'barrier_id', 0, o));
      if (id > 0) ids.set(r.cluster * 1024 + id, { cluster: r.cluster, id });
    }
  }
  for (const b of [...ids.values()].sort((x, y) => x.cluster * 1024 + x.id - (y.cluster * 1024 + y.id))) {
    if (b.cluster >= chip.clusters) continue;
    const n = vcd.signal([`cluster${b.cluster}`, 'barriers'], `b${b.id}_notify_count`, 6);
    const w = vcd.signal([`cluster${b.cluster}`, 'barriers'], `b${b.id}_wait_count`, 6);
    chip.observer.barrierSignals.set(b.cluster * 1024 + b.id, [n, w]);
  }
  chip.sim.add(probe);
}

/** Trace slices for what was still pending at a deadlock / --max-cycles stop. */
function traceUnfinished(chip: PyxisChip, observer: PyxisObserver, end: number): void {
  for (const e of chip.allEngines) {
    const trips = e instanceof UieSlot ? e.inflightTrips : e instanceof BaseTripEngine && e.trip ? [e.trip] : [];
    for (const t of trips) if (t.startAt >= 0) observer.unfinished(e.name, e.cluster, t, end, 'running');
  }
  for (const tm of chip.tm)
    for (const s of tm.slots) if (s.trip && s.trip.waitAt >= 0 && s.trip.goAt < 0 && s.engine) observer.unfinished(s.engine.name, tm.cluster, s.trip, end, 'waiting');
}

export function buildReport(chip: PyxisChip, config: SimConfig, stop: StopReason, cycles: number, steps: number, waitGraph: string[], watch?: UninitWatch): SimReport {
  const byName = new Map(chip.allEngines.map((e) => [e.name, e]));
  const engines: EngineReport[] = chip.sim
    .engineStats()
    .filter((s) => s.name !== 'vcd_probe' && s.name !== 'trace_sampler' && s.name !== 'sequencer_tracer' && s.name !== 'vpu_tracer')
    .map((s) => {
      const e = byName.get(s.name);
      const r: EngineReport = {
        name: s.name,
        busy: s.busy,
        stall: s.stall,
        idle: s.idle,
        utilization: cycles > 0 ? s.busy / cycles : 0,
        occupancy: cycles > 0 ? Math.min(1, (s.busy + s.stall) / cycles) : 0,
        stall_reasons: s.stallReasons,
      };
      if (e) {
        r.trips = e.tripsDone;
        const qid = [...chip.engines[e.cluster]!].find(([, x]) => x === e)?.[0];
        if (qid !== undefined) r.barrier_wait_cycles = chip.tm[e.cluster]!.barrierWait[qid]!;
        if (e.bytesMoved !== undefined) r.bytes = e.bytesMoved;
        const us = e instanceof UieSlot ? uieStats(e.model, config.clock_hz) : undefined;
        if (us) {
          r.bytes = (us['bytes_read'] as number) + (us['bytes_written'] as number);
          r.uie = us;
        }
      }
      return r;
    });
  const warnings: Diagnostic[] = [];
  // §11.6.7: every timeout the marking walk detected up to the last cycle (it also raised the timeout interrupt). After a
  // deadlock nothing can change any more, so the walks to come are certain: they are reported too.
  const walkEnd = stop === 'deadlock' ? Infinity : cycles;
  for (const bt of chip.barriers)
    for (const t of bt.timeoutsUpTo(walkEnd))
      warnings.push(
        warning(
          SimCodes.barrierTimeout,
          `barrier ${bt.cluster}:${t.id} ${t.at > cycles ? `times out after the deadlock, at cycle ${t.at}` : `timed out at cycle ${t.at}`} (in use since cycle ${t.since}, still marked at the second walk; walk period ${config.barrier_timeout_cycles}); ${t.freedAt >= 0 ? `completed at cycle ${t.freedAt}` : 'still incomplete at the end'}`,
          { spec: `${CHIP_SPEC} §11.6.7`, notes: ['the barrier timeout interrupt was raised; cluster.barrier_timeout_status holds the first timed-out barrier id'] },
        ),
      );
  // (sorted: engines of one phase may meet their first diagnostic in any tick order, docs/timing-model.md "Kernel semantics")
  warnings.push(...[...chip.warnings].sort((a, b) => (a.message < b.message ? -1 : a.message > b.message ? 1 : 0)));
  const flushed = chip.tm.filter((t) => t.tripsFlushed > 0 || t.flushDoneAt.length > 0);
  let uninit = 0;
  let conflicts = 0;
  // Uninitialised reads: totals by default, addresses with --warn-uninit (the watch).
  const uninitNotes = watch ? ['uninitialised memory reads as zero'] : ['uninitialised memory reads as zero', 'run with --warn-uninit for the addresses'];
  if (watch) warnings.push(...watch.warnings());
  for (const a of chip.amem) {
    uninit += a.stats.uninitReads;
    conflicts += a.stats.viewConflicts;
    if (a.stats.uninitReads > 0 && !watch) warnings.push(warning(SimCodes.uninitRead, `${a.name}: ${a.stats.uninitReads} partition read(s) of AMEM never written`, { notes: uninitNotes }));
    if (a.firstViewConflict) warnings.push(warning(SimCodes.badAddress, `${a.name}: ${a.firstViewConflict}`, { spec: `${CHIP_SPEC} §7.5` }));
  }
  for (const u of chip.uies) if (u.model?.warnings) warnings.push(...u.model.warnings);
  warnings.push(...chipWarnings(chip.host.records.length, Object.keys(chip.tripsByKind).length, watch ? 0 : chip.hbm.uninitReads));
  const tripsTotal = Object.values(chip.tripsByKind).reduce((a, b) => a + b, 0);
  return {
    stop,
    cycles,
    seconds: cycles / config.clock_hz,
    clock_hz: config.clock_hz,
    clusters: chip.clusters,
    uies: chip.opts.uies,
    kernel_steps: steps,
    trips_by_kind: sortedKeys(chip.tripsByKind),
    trips_total: tripsTotal,
    trip_names: Object.fromEntries(chip.tripNames),
    engines,
    ports: chip.ports.map((p) => ({ name: p.name, bytes: p.bytes, busy_cycles: Math.round(p.busyCycles), utilization: cycles > 0 ? Math.min(1, p.busyCycles / cycles) : 0 })),
    barriers: chip.barriers.map((b) => ({
      cluster: b.cluster,
      setups: b.setups,
      notifies: b.notifies,
      waits: b.waits,
      releases: b.releases,
      frees: b.frees,
      timeouts: b.timeoutsUpTo(walkEnd).length,
      interrupts: Array.from(b.interruptCount),
      timeout_interrupts: b.timeoutInterruptsBefore(walkEnd + 1),
      timeout_barrier_id: b.timeoutStatus(walkEnd + 1).valid ? b.timeoutStatus(walkEnd + 1).barrierId : -1,
      interrupt_log: b.interruptLog
        .filter((r) => r.cycle <= walkEnd)
        .sort((x, y) => x.cycle - y.cycle || x.entry - y.entry || x.barrierId - y.barrierId)
        .map((r) => ({ cycle: r.cycle, source: r.source, entry: r.entry, barrier_id: r.barrierId })),
      wait_cycles: [...chip.tm[b.cluster]!.waitsByBarrier]
        .sort((x, y) => x[0] - y[0])
        .map(([id, w]) => ({ barrier_id: id, ...w })),
    })),
    barrier_events: sortedKeys(chip.observer.barrierEvents),
    trip_flush: flushed.map((t) => ({ cluster: t.cluster, trips_discarded: t.tripsFlushed, done_at: [...t.flushDoneAt], flush_mode: t.flushMode })),
    dpe: chip.dpe.map((d) => ({ cluster: d.cluster, descriptors: d.fetched, bytes: d.bytesRead, dequeue_events: d.dequeueEvents })),
    mpe: { patches: chip.mpes.reduce((a, m) => a + m.patchesApplied, 0), trips: chip.mpes.reduce((a, m) => a + m.tripsDone, 0) },
    apm: { enabled: config.apm.enabled, peak_requested_power: chip.apm.peakRequested, final_granted_power: chip.apm.granted, bubbles: chip.apm.bubbles, energy: chip.apm.energy },
    trip_power: chip.allEngines.filter((e) => 'powerCycles' in e && (e as { powerCycles: number }).powerCycles > 0).map((e) => ({ engine: e.name, power_cycles: (e as unknown as { powerCycles: number }).powerCycles })),
    memory: {
      hbm_bytes_read: chip.hbm.bytesRead,
      hbm_bytes_written: chip.hbm.bytesWritten,
      hbm_uninit_bytes_read: chip.hbm.uninitReads,
      amem_uninit_reads: uninit,
      amem_view_conflicts: conflicts,
      amem: chip.amem.map((a, c) => ({ cluster: c, bytes_read: a.stats.bytesRead, bytes_written: a.stats.bytesWritten, uninit_partition_reads: a.stats.uninitReads, ...a.banks.report() })),
    },
    wait_graph: waitGraph,
    warnings,
    ...(chip.fabricAdapter ? { fabric_adapter: fabricAdapterReport(chip.fabricAdapter) } : {}),
  };
}

/** The adapter's per-cluster counters, copied (the report is serialised across threads and must not alias the model). */
function fabricAdapterReport(fa: FabricAdapter): NonNullable<SimReport['fabric_adapter']> {
  const r = fa.report();
  return { clusters: r.clusters.map((c, k) => ({ cluster: k, ...structuredClone(c) })), qpages_in_use: r.qpages_in_use, failed_interrupts: [...r.failed_interrupts] };
}

/**
 * The report's last warnings, about the whole chip: an image with no enqueue records, HBM read where never written
 * (without --warn-uninit). One place for the single-partition report and the merge of a cluster-partitioned run.
 */
export function chipWarnings(records: number, tripKinds: number, hbmUninitReads: number): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (records === 0 && tripKinds === 0) out.push(warning(SimCodes.badEnqueue, 'the image has no enqueue records (.enqueue section): nothing was run', { spec: `${CHIP_SPEC} §11.5.1` }));
  if (hbmUninitReads > 0)
    out.push(warning(SimCodes.uninitRead, `${hbmUninitReads} byte(s) read from HBM locations never written`, { notes: ['uninitialised memory reads as zero', 'run with --warn-uninit for the addresses'] }));
  return out;
}

/** Counters by name in name order: a report never depends on which engine met a kind first (issue 22 merges). */
export function sortedKeys(o: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.keys(o).sort().map((k) => [k, o[k]!]));
}

/** The DiagnosticError for a run that stopped on a deadlock or --max-cycles, with the wait graph as notes. */
export function stopDiagnostic(report: SimReport): DiagnosticError | undefined {
  if (report.stop === 'done') return undefined;
  const dl = report.stop === 'deadlock';
  return new DiagnosticError(
    error(
      dl ? SimCodes.deadlock : SimCodes.maxCycles,
      dl
        ? `deadlock at cycle ${report.cycles}: no engine can make progress but work remains`
        : `stopped at --max-cycles ${report.cycles} with work remaining`,
      { notes: ['wait graph:', ...report.wait_graph.map((l) => `  ${l}`)], spec: `${CHIP_SPEC} §11.3, §11.6.2` },
    ),
  );
}
