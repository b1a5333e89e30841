/**
 * A chip of a system as a partition of a threaded run (issue 22; @pyxis/sim kernel/threaded.ts): built inside its
 * worker thread from serialisable inputs (the chip's image bytes, VOQ map, the system's fabric parameters and
 * cluster VPFEs, the fault SPEC, the dumps it must produce), with its own side of the wire (fabric/wire.ts). The
 * wire's sends to chip d go over a stand-in for chip d's inbound link `chip<d>.fabric.in` (sender key = this chip,
 * as in the in-process runner, fabric/wireSet.ts), so what each chip receives, and in which order, is the same
 * whatever thread ran which chip. After the run, `collect` returns everything the system report needs from the chip
 * (its SimReport, wire stats and links, explainer lines, diagnostics, dump bytes) as plain data.
 */
import { chipFabricOutcome, type ChipFabricOutcome } from '../fabric/systemFailures.js';
import { TimedLink, type PartitionBuild, type RunEnd } from '@pyxis/sim';
import { writeNpy } from '@pyxis/container';
import type { Diagnostic } from '@pyxis/diagnostics';
import { buildReport, type SimReport } from '../run.js';
import { dumpSymbol } from '../dump.js';
import { makeUieFactory } from '../uieDefault.js';
import type { SimConfig } from '../config.js';
import { buildSystemChip, DeferredEgress, type ChipBuildInput } from '../fabric/systemRun.js';
import { ChipWire, WIRE_PHASE, type WireMsg } from '../fabric/wire.js';
import { fabricParams, type FabricJson } from '../fabric/wireParams.js';
import { vpfeRoute } from '../fabric/vpfe.js';
import { FaultInjector, type FaultSpec } from '../fabric/faults.js';
import type { WireChipStats, WireLinkStats } from '../fabric/wireStats.js';

/** The bare specifier and export a threaded system run names in its partition specs. */
export const CHIP_PARTITION_MODULE = '@pyxis/target-pyxis/parallel';
export const CHIP_PARTITION_BUILDER = 'buildChipPartition';

export interface ChipPartitionArgs {
  input: ChipBuildInput;
  chips: number;
  fabric: FabricJson;
  clusterVpfe: number[][];
  faults: FaultSpec | null;
  timingOnly: boolean;
  /** The machine parameters (`--set`, `--sim-config`): a plain tree. */
  config?: SimConfig;
  /** Dumps of this chip (written by the driver after a completed run). */
  dumps: Array<{ symbol: string; f32: boolean; file: string }>;
}

export interface ChipPartitionResult {
  chip: number;
  clusters: number;
  uies: number;
  report: SimReport;
  wire: WireChipStats;
  links: WireLinkStats[];
  /** This chip's lines of the cross-chip explainer (empty for a completed run). */
  explain: string[];
  diagnostics: Diagnostic[];
  dumps: Array<[file: string, npy: Uint8Array]>;
  /** Failed RDMA jobs and Rx drops (fsys2: a failed job fails the system run, systemMachine.ts). */
  fabric: ChipFabricOutcome;
}

export function buildChipPartition(a: ChipPartitionArgs): PartitionBuild {
  const k = a.input.chip;
  const egress = new DeferredEgress();
  const { chip, info, config } = buildSystemChip(a.input, egress, makeUieFactory({ timingOnly: a.timingOnly }), a.config);
  const params = fabricParams(a.fabric, config.clock_hz);
  const route = vpfeRoute(a.clusterVpfe, a.fabric.system.clusters_per_chip, a.fabric.system.vpfe_bits);
  const outbound: Record<string, TimedLink<unknown>> = {};
  const to: Array<TimedLink<WireMsg>> = [];
  let wire: ChipWire | null = null;
  for (let d = 0; d < a.chips; d++) {
    if (d === k) continue;
    const stand = new TimedLink<WireMsg>(`chip${d}.fabric.in`, params.oneWayCycles, WIRE_PHASE, () => {
      throw new Error(`chip${k}: a stand-in for chip${d}'s fabric link never delivers`);
    });
    stand.crossPartition = true;
    outbound[stand.name] = stand as TimedLink<unknown>;
    to[d] = stand;
  }
  wire = new ChipWire(k, params, route, chip.sim, (dst, now, at, msg) => (dst === k ? wire!.inLink : to[dst]!).send(now, at, k, msg), a.faults ? new FaultInjector(a.faults, k) : null, null);
  egress.target = wire;
  wire.side = chip.fabric;
  const w = wire;
  return {
    sim: chip.sim,
    inbound: { [w.inLink.name]: w.inLink as TimedLink<unknown> },
    outbound,
    collect: (end: RunEnd): ChipPartitionResult => {
      const done = end.reason === 'done';
      // the dumps read the image's symbols from the model the chip was built from (not a second read of the bytes)
      const container = done && a.dumps.length ? info.container : null;
      return {
        chip: k,
        clusters: info.clusters,
        uies: info.uies,
        fabric: chipFabricOutcome(chip),
        report: buildReport(chip, config, end.reason, end.cycles, chip.sim.steps, done ? [] : chip.sim.waitGraph()),
        wire: w.stats,
        links: [...w.links.values()],
        explain: done ? [] : [...chip.sim.waitGraph().map((l) => `chip${k}: ${l}`), ...w.explain()],
        diagnostics: w.diagnostics,
        dumps: container ? a.dumps.map((d) => [d.file, writeNpy(dumpSymbol(chip, container, d.symbol, d.f32)) as Uint8Array]) : [],
      };
    },
  };
}
