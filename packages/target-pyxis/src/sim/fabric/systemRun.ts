/**
 * Running a system (docs/system.md): N PyxisChips, one Simulator each (one partition), joined by the wire
 * (wire.ts) over cross-partition links whose minimum latency, the fabric's one-way latency, is the lookahead of
 * `runPartitioned`. `buildSystemChip` needs only serialisable inputs (image bytes, the chip's VOQ map, options), so a
 * runner on worker threads can call it inside a worker.
 */
import { readContainer } from '@pyxis/container';
import { runPartitioned, TraceWriter, type StopReason, type TextSink } from '@pyxis/sim';
import type { Diagnostic } from '@pyxis/diagnostics';
import { PyxisChip } from '../chip.js';
import { loadSimConfig, type SimConfig } from '../config.js';
import { inspectImage, loadImage, type ImageInfo } from '../image.js';
import { PyxisObserver } from '../observer.js';
import { buildReport, DEFAULT_QUANTUM, resetMemoryCounters, type SimReport } from '../run.js';
import type { UieFactory } from '../uieSlot.js';
import type { ChipFabricSide, FabricEgress, FabricEnqueue, FabricPage } from './port.js';
import { fabricParams, type FabricJson, type FabricParams } from './wireParams.js';
import { vpfeRoute } from './vpfe.js';
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
}

export function buildSystemChip(input: ChipBuildInput, egress: FabricEgress, uieFactory?: UieFactory, config?: SimConfig): { chip: PyxisChip; info: ImageInfo; config: SimConfig } {
  const cfg = config ?? loadSimConfig(input.clockHz !== undefined ? { clockHz: input.clockHz } : {});
  const info = inspectImage(readContainer(input.image, input.imageFile), input.imageFile);
  const chip = new PyxisChip({
    clusters: info.clusters,
    uies: info.uies,
    config: cfg,
    observer: new PyxisObserver(),
    quantum: input.quantum ?? DEFAULT_QUANTUM,
    ...(uieFactory ? { uieFactory } : {}),
    ...(info.remap ? { remap: info.remap } : {}),
    fabric: { chip: input.chip, egress, voqToVpfe: input.voqToVpfe },
  });
  loadImage(chip, info);
  resetMemoryCounters(chip);
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
  const built = inputs.map((inp, k) => buildSystemChip(inp, egress[k]!, opts.uieFactory, opts.config));
  const config = built[0]!.config;
  const params = fabricParams(opts.fabric, config.clock_hz);
  const route = vpfeRoute(opts.clusterVpfe, opts.fabric.system.clusters_per_chip, opts.fabric.system.vpfe_bits);
  const trace = opts.trace ? new TraceWriter(opts.trace, config.clock_hz) : undefined;
  const sinks = built.map((_, k) =>
    trace
      ? {
          span: (track: string, name: string, start: number, dur: number, args?: Record<string, unknown>) => trace.slice(trace.track(`chip${k}`, `fabric ${track}`), start, start + dur, name, args as never, 'fabric'),
          counter: (name: string, at: number, values: Record<string, number>) => trace.counter(`chip${k}`, at, name, values),
        }
      : null,
  );
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
    trace?.close({ cycles: r.cycles, stop: r.reason, clock_hz: config.clock_hz, chips: inputs.length });
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
    trace?.abort();
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
