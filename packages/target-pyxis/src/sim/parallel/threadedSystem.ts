/**
 * A system run with its chips as partitions on threads (issue 22): each chip is built inside its worker by
 * chipPartition.ts from plain data, and the kernel's threaded runner (@pyxis/sim kernel/threaded.ts) grants windows
 * of the fabric's one-way latency (the lookahead of the wire's cross links). The result carries what the system
 * report needs, per chip in chip order, plus the parallel run's own figures; it equals the in-process runner's
 * (fabric/systemRun.ts) for any thread count.
 */
import { defaultThreads, registerPartitionModule, runThreaded, type PartitionSpec, type StopReason, type ThreadedRunResult } from '@pyxis/sim';
import type { Diagnostic } from '@pyxis/diagnostics';
import type { ChipBuildInput } from '../fabric/systemRun.js';
import type { FabricJson } from '../fabric/wireParams.js';
import type { FaultSpec } from '../fabric/faults.js';
import type { SimConfig } from '../config.js';
import type { WireChipStats, WireLinkStats } from '../fabric/wireStats.js';
import { buildChipPartition, CHIP_PARTITION_BUILDER, CHIP_PARTITION_MODULE, type ChipPartitionArgs, type ChipPartitionResult } from './chipPartition.js';

export interface ThreadedSystemOptions {
  fabric: FabricJson;
  clusterVpfe: number[][];
  faults: FaultSpec | null;
  timingOnly: boolean;
  /** The machine parameters (`--set`, `--sim-config`). */
  config?: SimConfig;
  /** `--threads`; absent: defaultThreads(chips). */
  threads?: number;
  maxCycles?: number;
  /** Per chip: its dumps. */
  dumps?: Array<Array<{ symbol: string; f32: boolean; file: string }>>;
  /** Tests: the module the workers load (the built package by default). */
  module?: string;
}

export interface ThreadedSystemResult {
  stop: StopReason;
  cycles: number;
  chips: ChipPartitionResult[];
  wire: WireChipStats[];
  links: WireLinkStats[];
  waitGraph: string[];
  diagnostics: Diagnostic[];
  parallel: ThreadedRunResult;
}

export async function runSystemThreaded(inputs: ChipBuildInput[], o: ThreadedSystemOptions): Promise<ThreadedSystemResult> {
  const specs: PartitionSpec[] = inputs.map((input, k) => {
    const args: ChipPartitionArgs = { input, chips: inputs.length, fabric: o.fabric, clusterVpfe: o.clusterVpfe, faults: o.faults, timingOnly: o.timingOnly, dumps: o.dumps?.[k] ?? [], ...(o.config ? { config: o.config } : {}) };
    return { name: `chip${k}`, module: o.module ?? CHIP_PARTITION_MODULE, builder: CHIP_PARTITION_BUILDER, args };
  });
  // a host on the calling thread builds with this very module (the CLI bundle's copy, not the package loaded again)
  registerPartitionModule(CHIP_PARTITION_MODULE, { [CHIP_PARTITION_BUILDER]: buildChipPartition });
  // Host 0 is the calling thread (it would otherwise only wait for the workers): --threads N starts N - 1 workers
  const r = await runThreaded(specs, { threads: o.threads ?? defaultThreads(inputs.length), mainThreadHost: true, ...(o.maxCycles !== undefined ? { maxCycles: o.maxCycles } : {}) });
  const chips = r.parts.map((p) => p.collected as ChipPartitionResult);
  return {
    stop: r.reason,
    cycles: r.cycles,
    chips,
    wire: chips.map((c) => c.wire),
    links: chips.flatMap((c) => c.links).sort((a, b) => a.src - b.src || a.dst - b.dst),
    waitGraph: r.reason === 'done' ? [] : chips.flatMap((c) => c.explain),
    diagnostics: chips.flatMap((c) => c.diagnostics),
    parallel: r,
  };
}
