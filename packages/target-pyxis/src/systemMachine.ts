/**
 * `pyxis-sim run x.psys`: the system path of the Pyxis machine (docs/system.md): every chip of the linked system
 * container, the wire between them, `--fabric-faults`, per-chip dumps (`--dump chip3:NAME=FILE.npy`), per-chip and
 * per-link stats, a summary naming chips, cycles and fabric traffic, and the cross-chip deadlock explainer.
 */
import { writeNpy, type Container, type OutputBytes } from '@pyxis/container';
import { UsageError, error, type Diagnostic } from '@pyxis/diagnostics';
import { defaultThreads, parallelStats, parallelSummary, type StopReason } from '@pyxis/sim';
import type { MachineRequest, MachineResult, OptionValues } from '@pyxis/target';
import { strings } from './options.js';
import { checkDumpSpecs, dumpSymbol, makeUieFactory, parseDumpSpec, type DumpSpec } from './sim/index.js';
import { parseFaultSpec } from './sim/fabric/faults.js';
import { readSystemContainer } from './sim/fabric/systemImage.js';
import { runSystem } from './sim/fabric/systemRun.js';
import { fabricParams, type FabricParams } from './sim/fabric/wireParams.js';
import type { WireChipStats, WireLinkStats } from './sim/fabric/wireStats.js';
import type { SimReport } from './sim/run.js';
import { runSystemThreaded } from './sim/parallel/threadedSystem.js';
import { FabricCodes } from './sim/fabric/codes.js';
import { rttTimerWarnings } from './sim/fabric/rttCheck.js';
import { loadFabricAdapterParams } from './sim/fabric/params.js';
import { chipFabricOutcome, systemFabricOutcome, type ChipFabricOutcome } from './sim/fabric/systemFailures.js';
import { simConfigFrom } from './sim/config.js';

interface SystemDump extends DumpSpec {
  chip: number;
}

/** `chipK:SYMBOL[:f32]=FILE.npy`. */
export function parseSystemDump(s: string, chips: number): SystemDump {
  const m = /^chip([^:=]*):(.+)$/.exec(s);
  if (!m) throw new UsageError(`--dump for a system expects chipK:SYMBOL=FILE.npy (K = 0..${chips - 1}), got \`${s}\``);
  const chip = /^\d{1,3}$/.test(m[1]!) ? Number(m[1]) : NaN;
  if (!(chip < chips)) throw new UsageError(`--dump \`${s}\`: the system has chips 0..${chips - 1}`);
  return { chip, ...parseDumpSpec(m[2]!) };
}

/** Single-chip options a system run does not take (yet): refused rather than ignored. */
const SINGLE_CHIP_ONLY: Array<[string, string]> = [
  ['clusters', '--clusters'],
  ['uies', '--uies'],
  ['dumpRegion', '--dump-region'],
  ['warnUninit', '--warn-uninit'],
  ['quantum', '--quantum'],
];

function plan(req: MachineRequest) {
  for (const [k, flag] of SINGLE_CHIP_ONLY) {
    const v = req.options[k];
    if (v !== undefined && v !== false && !(Array.isArray(v) && v.length === 0)) throw new UsageError(`${flag} is a single-chip option; ${req.file} is a system (docs/system.md lists what a system run takes)`);
  }
  // --compare reads a tensor after the run by NAME; a system's tensors are per chip: checked before the run
  if (req.compare?.length) throw new UsageError(`--compare is a single-chip option; ${req.file} is a system: dump the tensor with --dump chipK:NAME:f32=FILE.npy and compare the file`);
  const sys = readSystemContainer(req.image, req.file);
  const chips = sys.manifest.chips;
  const dumps = strings(req.options, 'dump').map((s) => parseSystemDump(s, chips));
  const faultsText = req.options['fabricFaults'];
  const faults = typeof faultsText === 'string' ? parseFaultSpec(faultsText) : null;
  // a rule naming a chip the system does not have could never hit: refused, not silently idle
  for (const r of faults?.rules ?? []) if (r.chip !== null && r.chip >= chips) throw new UsageError(`--fabric-faults: chip=${r.chip}: the system has chips 0..${chips - 1}`);
  for (const d of dumps) {
    const img = sys.images[sys.manifest.image_of_chip[d.chip]!]!;
    checkDumpSpecs(img.container, 4, [d], []);
  }
  return { sys, dumps, faults };
}

export function planSystem(req: MachineRequest): { outputs: string[] } {
  return { outputs: plan(req).dumps.map((d) => d.file) };
}

function prepare(req: MachineRequest) {
  if (req.vcd) {
    req.vcd.abort();
    req.trace?.abort();
    throw new UsageError(`--vcd is not available for systems yet; ${req.file} is a system (use --trace)`);
  }
  const { sys, dumps, faults } = plan(req);
  const m = sys.manifest;
  const inputs = m.image_of_chip.map((i, k) => ({
    chip: k,
    image: sys.images[i]!.bytes,
    imageFile: sys.images[i]!.file,
    voqToVpfe: sys.voqToVpfe[k]!,
    ...(req.clockHz !== undefined ? { clockHz: req.clockHz } : {}),
  }));
  return { sys, dumps, faults, m, inputs, timingOnly: !!req.options['timingOnly'], config: req.params ? simConfigFrom(req.params) : undefined };
}

/** What the report needs from a system run, in process (systemRun.ts) or with the chips on threads (sim/parallel/). */
interface SystemOutcome {
  stop: StopReason;
  cycles: number;
  windows: number;
  crossMessages: number;
  params: FabricParams;
  chips: Array<{ report: SimReport; clusters: number; uies: number; fabric?: ChipFabricOutcome }>;
  wire: WireChipStats[];
  links: WireLinkStats[];
  waitGraph: string[];
  diagnostics: Diagnostic[];
}

export function runSystemMachine(req: MachineRequest): MachineResult {
  const p = prepare(req);
  const { sys, dumps, m } = p;
  const r = runSystem(p.inputs, {
    ...(p.config ? { config: p.config } : {}),
    fabric: m.fabric,
    clusterVpfe: m.cluster_vpfe,
    faults: p.faults,
    uieFactory: makeUieFactory({ timingOnly: p.timingOnly }),
    ...(req.maxCycles !== undefined ? { maxCycles: req.maxCycles } : {}),
    ...(req.trace ? { trace: req.trace } : {}),
  });
  const fabric = r.chips.map((c) => chipFabricOutcome(c.chip));
  const failed = fabric.some((f) => f.failures.some((x) => !x.recovered));
  const outputs: Array<[string, OutputBytes]> = [];
  if (r.stop === 'done' && !failed) for (const d of dumps) outputs.push([d.file, writeNpy(dumpSymbol(r.chips[d.chip]!.chip, sys.images[m.image_of_chip[d.chip]!]!.container as Container, d.symbol, d.f32))]);
  const asked = req.threads;
  const note = asked !== undefined && asked > 1 && m.chips > 1 && req.trace ? 'a trace (--trace, or --report, which draws on it) has one writer for every chip: ran on the calling thread' : 'every chip on the calling thread';
  const parallel = { threads_asked: asked ?? null, threads_used: 1, partitions: m.chips, lookahead_cycles: r.params.oneWayCycles, windows: r.windows, cross_messages: r.crossMessages, note };
  return systemResult(p, { ...r, chips: r.chips.map((c, k) => ({ report: c.report, clusters: c.info.clusters, uies: c.info.uies, fabric: fabric[k]! })) }, outputs, parallel);
}

/**
 * The system run with its chips on worker threads (`--threads N`, default defaultThreads(chips); sim/parallel/):
 * the same result as runSystemMachine for any N (docs/simulator.md "Parallel runs"). A trace has one writer for every
 * chip: with `--trace`, one thread or one chip the run stays in process.
 */
export async function runSystemMachineAsync(req: MachineRequest): Promise<MachineResult> {
  const p = prepare(req);
  const threads = req.threads ?? defaultThreads(p.m.chips);
  if (threads <= 1 || req.trace || p.m.chips === 1) return runSystemMachine(req);
  const perChip = p.m.image_of_chip.map((_, k) => p.dumps.filter((d) => d.chip === k).map((d) => ({ symbol: d.symbol, f32: d.f32, file: d.file })));
  const r = await runSystemThreaded(p.inputs, {
    ...(p.config ? { config: p.config } : {}),
    fabric: p.m.fabric,
    clusterVpfe: p.m.cluster_vpfe,
    faults: p.faults,
    timingOnly: p.timingOnly,
    threads,
    dumps: perChip,
    ...(req.maxCycles !== undefined ? { maxCycles: req.maxCycles } : {}),
  });
  const params = fabricParams(p.m.fabric, r.chips[0]!.report.clock_hz);
  const failed = r.chips.some((c) => c.fabric?.failures.some((x) => !x.recovered));
  const outputs: Array<[string, OutputBytes]> = r.stop === 'done' && !failed ? r.chips.flatMap((c) => c.dumps) : [];
  const outcome: SystemOutcome = { ...r, windows: r.parallel.windows, crossMessages: r.parallel.crossMessages, params };
  return systemResult(p, outcome, outputs, parallelStats(r.parallel, req.threads), parallelSummary(r.parallel));
}

function systemResult(p: ReturnType<typeof prepare>, r: SystemOutcome, outputs: Array<[string, OutputBytes]>, parallel: Record<string, unknown>, parallelLine = ''): MachineResult {
  const { m, faults } = p;
  const clock = r.chips[0]!.report.clock_hz;
  const pages = r.links.reduce((a, l) => a + l.pages, 0);
  const bytes = r.links.reduce((a, l) => a + l.bytes, 0);
  const cells = r.links.reduce((a, l) => a + l.cells, 0);
  const dropped = r.wire.reduce((a, w) => a + Object.values(w.faults.dropped).reduce((x, y) => x + y, 0), 0);
  const corrupted = r.wire.reduce((a, w) => a + Object.values(w.faults.corrupted).reduce((x, y) => x + y, 0), 0);
  const { failures, rx_drops: drops } = systemFabricOutcome(r.chips.map((c) => c.fabric));
  const unrecovered = failures.filter((f) => !f.recovered);
  const dropTotal = Object.values(drops).reduce((a, b) => a + b, 0);
  const status = r.stop === 'done' ? (unrecovered.length ? 'FAILED (RDMA job failed)' : 'completed') : r.stop === 'deadlock' ? 'DEADLOCK' : 'stopped at the cycle limit';
  const lines = [
    `pyxis-sim: system of ${m.chips} chip(s) ${status} after ${r.cycles} cycles = ${((r.cycles / clock) * 1e6).toFixed(3)} us at ${(clock / 1e9).toFixed(2)} GHz`,
    `fabric (wire: transaction-level per page, cell-exact pipe occupancy): ${pages} page(s), ${bytes} B, ${cells} cells over ${r.links.length} link(s); RTT ${r.params.rttCycles} cycles; ${r.windows} window(s)` +
      (faults ? `; faults injected: ${dropped} dropped, ${corrupted} corrupted` : ''),
    ...r.chips.map((c, k) => `chip${k}: ${c.report.trips_total} trip(s), ${c.clusters} cluster(s) x ${c.uies} UIE(s)`),
    `fabric Rx drops: ${dropTotal} page(s)/datagram(s)` + (dropTotal ? ` (${Object.entries(drops).filter(([, n]) => n > 0).map(([k, n]) => `${k} ${n}`).join(', ')})` : ''),
    ...failures.map((f) => `${f.inhibited ? 'recovered (the sticky Job Failed state was inhibited, cluster.fabric_failed_inhibit)' : f.recovered ? 'recovered (a host action waited on the Job Failed interrupt)' : 'FAILED'}: ${f.text}`),
  ];
  const perPipe = (busy: number[]) => busy.map((b) => (r.cycles > 0 ? b / r.cycles : 0));
  const stats = {
    model: 'system: each chip cycle-level as in a single-chip run; the fabric wire transaction-level per page with cell-exact pipe occupancy (docs/timing-model.md "Fabric (wire)")',
    stop: r.stop,
    cycles: r.cycles,
    clock_hz: clock,
    chips: r.chips.map((c, k) => ({ chip: k, ...c.report, fabric: { ...r.wire[k]!, fo_utilization: perPipe(r.wire[k]!.foBusy), fi_utilization: perPipe(r.wire[k]!.fiBusy) } })),
    links: r.links.map((l) => ({ ...l, utilization: r.cycles > 0 ? l.busyCycles / (r.cycles * r.params.pipes) : 0, grant_wait_cycles: r.wire[l.dst]?.grantWaitFrom[l.src] ?? 0 })),
    fabric: { pages, bytes, cells, rtt_cycles: r.params.rttCycles, one_way_cycles: r.params.oneWayCycles, windows: r.windows, cross_messages: r.crossMessages, faults_dropped: dropped, faults_corrupted: corrupted },
    wait_graph: r.waitGraph,
    failed_jobs: failures.map(({ text: _t, ...f }) => f),
    rx_drops: drops,
    parallel,
  };
  const stop =
    r.stop === 'done'
      ? unrecovered.length
        ? [error(FabricCodes.jobFailedUnrecovered, `${unrecovered.length} RDMA job(s) failed and no host action waited on the Job Failed interrupt (chip §10.7.1.2, §10.8.1.2):\n  ${unrecovered.map((f) => f.text).join('\n  ')}`)]
        : undefined
      : [
          error(r.stop === 'deadlock' ? 'SIM0010' : 'SIM0011', `system ${r.stop === 'deadlock' ? 'deadlock' : 'cycle limit'} at cycle ${r.cycles}:\n  ${r.waitGraph.join('\n  ')}`),
        ];
  const timers = rttTimerWarnings(r.params.rttCycles, m.fabric.rtt_ns, loadFabricAdapterParams().timers);
  return { summary: lines.join('\n') + (parallelLine ? `\n${parallelLine.trimEnd()}` : '') + '\n', stats, diagnostics: [...timers, ...r.diagnostics], ...(stop ? { stop } : {}), outputs, cycles: r.cycles };
}

/** checkOptions for a run whose input may be a system: a `chipK:` dump prefix is checked later, with the system. */
export function stripChipPrefix(o: OptionValues): OptionValues {
  const d = o['dump'];
  if (!Array.isArray(d)) return o;
  return { ...o, dump: d.map((s) => String(s).replace(/^chip[^:=]*:/, '')) };
}

export { FabricCodes };
