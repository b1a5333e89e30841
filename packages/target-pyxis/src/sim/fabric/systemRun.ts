/**
 * Running a system (docs/system.md): N PyxisChips, one Simulator each (one partition), joined by the wire
 * (wire.ts) over cross-partition links whose minimum latency, the fabric's one-way latency, is the lookahead of
 * `runPartitioned`. `buildSystemChip` needs only serialisable inputs (image bytes, the chip's VOQ map, options), so a
 * runner on worker threads can call it inside a worker.
 */
import { readContainer } from '@pyxis/container';
import { runPartitioned, TraceWriter, type StopReason, type TextSink } from '@pyxis/sim';
import type { Diagnostic } from '@pyxis/diagnostics';
import type { PyxisChip } from '../chip.js';
import { loadSimConfig, type SimConfig } from '../config.js';
import { inspectImage, type ImageInfo } from '../image.js';
import { loadedChipFor } from '../imageChip.js';
import { PyxisObserver } from '../observer.js';
import { buildReport, DEFAULT_QUANTUM, type SimReport } from '../run.js';
import type { UieFactory } from '../uieSlot.js';
import type { ChipFabricSide, FabricEgress, FabricEnqueue, FabricPage } from './port.js';
import { fabricParams, type FabricJson, type FabricParams } from './wireParams.js';
import { vpfeRoute } from './vpfe.js';
import { ChipTraceWriter, writeSystemTrace } from './systemTrace.js';
import { createWires } from './wireSet.js';
import type { FaultSpec } from './faults.js';
import type { WireChipStats, WireLinkStats } from './wireStats.js';
import type { ChipWire } from './wire.js';

/** What building chip k needs (plain data). */
export interface ChipBuildInput {
  chip: number;
  image: Uint8Array;
  imageFile: string;
  voqToVpfe: Uint16Array;
  clockHz?: number;
  quantum?: number;
}

/** An egress whose wire is connected after the chip is built (the wire needs the chip's Simulator). */
export class DeferredEgress implements FabricEgress {
  target: FabricEgress | null = null;
  enqueue(now: number, req: FabricEnqueue): void {
    this.target!.enqueue(now, req);
  }
  transmit(now: number, page: FabricPage): void {
    this.target!.transmit(now, page);
  }
  rxCellsFreed(now: number, page: FabricPage): void {
    this.target!.rxCellsFreed?.(now, page);
  }
  discard(now: number, req: FabricEnqueue): void {
    if (this.target!.discard) this.target!.discard(now, req);
    else throw new Error('fabric: a page was flushed on a fabric that cannot flush');
  }
}

/**
 * Builds chip k. `traceFor` (a trace for the chip's own engine tracks, given the clock) makes the chip run with a
 * quantum of 1, as a traced single-chip run does (run.ts).
 */
export function buildSystemChip(
  input: ChipBuildInput,
  egress: FabricEgress,
  uieFactory?: UieFactory,
  config?: SimConfig,
  traceFor?: (clockHz: number) => TraceWriter,
): { chip: PyxisChip; info: ImageInfo; config: SimConfig } {
  const cfg = config ?? loadSimConfig(input.clockHz !== undefined ? { clockHz: input.clockHz } : {});
  const info = inspectImage(readContainer(input.image, input.imageFile), input.imageFile);
  const observer = new PyxisObserver(traceFor?.(cfg.clock_hz));
  const chip = loadedChipFor(info, {
    config: cfg,
    observer,
    quantum: input.quantum ?? (traceFor ? 1 : DEFAULT_QUANTUM),
    ...(uieFactory ? { uieFactory } : {}),
    fabric: { chip: input.chip, egress, voqToVpfe: input.voqToVpfe },
  });
  return { chip, info, config: cfg };
}

export interface SystemRunOptions {
  fabric: FabricJson;
  clusterVpfe: number[][];
  maxCycles?: number;
  clockHz?: number;
  faults?: FaultSpec | null;
  uieFactory?: UieFactory;
  trace?: TextSink;
  /** Tests: the order the chips are built in (a permutation of 0..N-1; default chip order). */
  buildOrder?: number[];
  /** The chips' configuration (machine parameters, `--set` / `--sim-config`); default sim_config.json. */
  config?: SimConfig;
  /**
   * Tests: a fabric side that replaces the chip's adapter (`chip.fabric`) on the wire, e.g. a stub that sends pages
   * through `egress` and records arrivals. Called after every chip and the wire exist.
   */
  stubAdapter?: (k: number, chip: PyxisChip, egress: FabricEgress) => ChipFabricSide;
}

export interface SystemRunResult {
  stop: StopReason;
  cycles: number;
  windows: number;
  crossMessages: number;
  params: FabricParams;
  chips: Array<{ chip: PyxisChip; info: ImageInfo; report: SimReport }>;
  wire: WireChipStats[];
  links: WireLinkStats[];
  /** Deadlock / cycle-limit explanation across chips, each line prefixed with its chip. */
  waitGraph: string[];
  diagnostics: Diagnostic[];
}

export function runSystem(inputs: ChipBuildInput[], opts: SystemRunOptions): SystemRunResult {
  const egress = inputs.map(() => new DeferredEgress());
  const traces: ChipTraceWriter[] = [];
  const traceFor = opts.trace ? (k: number) => (clockHz: number) => (traces[k] = new ChipTraceWriter(k, clockHz)) : undefined;
  // chips are built in `buildOrder` (tests: results and the trace do not depend on it), then kept in chip order
  const built: Array<ReturnType<typeof buildSystemChip>> = new Array(inputs.length);
  for (const k of opts.buildOrder ?? inputs.map((_, i) => i)) built[k] = buildSystemChip(inputs[k]!, egress[k]!, opts.uieFactory, opts.config, traceFor?.(k));
  const config = built[0]!.config;
  const params = fabricParams(opts.fabric, config.clock_hz);
  const route = vpfeRoute(opts.clusterVpfe, opts.fabric.system.clusters_per_chip, opts.fabric.system.vpfe_bits);
  const sinks = built.map((_, k) => {
    const t = traces[k];
    return t
      ? {
          span: (track: string, name: string, start: number, dur: number, args?: Record<string, unknown>) => t.slice(t.track('chip', `fabric ${track}`), start, start + dur, name, args as never, 'fabric'),
          counter: (name: string, at: number, values: Record<string, number>) => t.counter('chip', at, name, values),
        }
      : null;
  });
  const { wires, crossLinks } = createWires(built.map((b) => b.chip.sim), params, route, opts.faults ?? null, sinks);
  wires.forEach((w, k) => {
    egress[k]!.target = w;
    w.side = opts.stubAdapter ? opts.stubAdapter(k, built[k]!.chip, w) : built[k]!.chip.fabric;
  });
  try {
    const r = runPartitioned(
      built.map((b) => b.chip.sim),
      crossLinks,
      { lookahead: params.oneWayCycles, ...(opts.maxCycles !== undefined ? { maxCycles: opts.maxCycles } : {}) },
    );
    const waitGraph = r.reason === 'done' ? [] : explainSystem(built.map((b) => b.chip), wires);
    const chips = built.map((b) => ({ ...b, report: buildReport(b.chip, config, r.reason, r.cycles, b.chip.sim.steps, r.reason === 'done' ? [] : b.chip.sim.waitGraph()) }));
    if (opts.trace) writeSystemTrace(opts.trace, traces, { cycles: r.cycles, stop: r.reason, clock_hz: config.clock_hz, chips: inputs.length });
    return {
      stop: r.reason,
      cycles: r.cycles,
      windows: r.windows,
      crossMessages: r.crossMessages,
      params,
      chips,
      wire: wires.map((w) => w.stats),
      links: wires.flatMap((w) => [...w.links.values()]).sort((a, b) => a.src - b.src || a.dst - b.dst),
      waitGraph,
      diagnostics: wires.flatMap((w) => w.diagnostics),
    };
  } catch (e) {
    opts.trace?.abort();
    throw e;
  }
}

/** The deadlock explainer across chips: every chip's wait graph and the wire's outstanding pages, prefixed by chip. */
export function explainSystem(chips: PyxisChip[], wires: ChipWire[]): string[] {
  const out: string[] = [];
  chips.forEach((c, k) => {
    for (const l of c.sim.waitGraph()) out.push(`chip${k}: ${l}`);
    out.push(...wires[k]!.explain());
  });
  return out;
}
