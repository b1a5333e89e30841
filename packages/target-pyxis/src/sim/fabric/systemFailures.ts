/**
 * Failed RDMA jobs of a system run (chip §10.7.1.2 Tx "Job Failed", §10.8.1.2 Rx "Job Failed"): a job that failed
 * after its one retry raises the cluster's sticky Job Failed interrupt. A run with such a job never ends as
 * "completed" with exit 0 unless the image's host waits on that interrupt (a host action with
 * `afterInterrupt: fabric_job_failed`) and that action ran: the host then owns the recovery and the failure is
 * reported as recovered (docs/spec-notes.md). A failure while the cluster's cluster.fabric_failed_inhibit is set
 * (§11.8) raises no interrupt and is recovered by definition: software chose to let such jobs go to Idle.
 */
import { FABRIC_JOB_FAILED_INTERRUPT, type PyxisChip } from '../chip.js';
import { describeFailure, DROP_REASONS, type FabricJobFailure } from './stats.js';

export interface SystemFailure extends FabricJobFailure {
  /** A host action waiting on this occurrence of the cluster's Job Failed interrupt ran. */
  recovered: boolean;
  text: string;
}

/** What a system's report needs from one chip's fabric adapter (plain data: crosses worker threads). */
export interface ChipFabricOutcome {
  failures: SystemFailure[];
  /** Pages (and datagrams) the chip's Rx sides dropped, per reason. */
  rx_drops: Record<string, number>;
}

/** The failed jobs of one chip, each marked recovered or not, and its Rx drops by reason. */
export function chipFabricOutcome(chip: PyxisChip): ChipFabricOutcome {
  const failures: SystemFailure[] = [];
  const rx_drops: Record<string, number> = Object.fromEntries(DROP_REASONS.map((r) => [r, 0]));
  const fa = chip.fabricAdapter;
  if (!fa) return { failures, rx_drops };
  const host = chip.host;
  // the highest Job Failed occurrence each cluster's host has waited for (actions run strictly in order)
  const waited = new Map<number, number>();
  for (let i = 0; i < host.actionsDone; i++) {
    const a = host.actions[i]!;
    if (a.afterInterrupt?.entry === FABRIC_JOB_FAILED_INTERRUPT) waited.set(a.cluster, Math.max(waited.get(a.cluster) ?? 0, a.afterInterrupt.count));
  }
  const seen = new Map<number, number>();
  for (const f of fa.failures) {
    // an inhibited failure raised no interrupt (§11.8): software set the inhibit, so it owns the recovery
    if (f.inhibited) {
      failures.push({ ...f, recovered: true, text: describeFailure(f) });
      continue;
    }
    const occ = (seen.get(f.cluster) ?? 0) + 1;
    seen.set(f.cluster, occ);
    failures.push({ ...f, recovered: (waited.get(f.cluster) ?? 0) >= occ, text: describeFailure(f) });
  }
  for (const c of fa.clusterStats) for (const r of DROP_REASONS) rx_drops[r]! += c.rx_drops[r];
  return { failures, rx_drops };
}

/** Every chip's failures in chip order, and the Rx drops summed over the chips. */
export function systemFabricOutcome(chips: ReadonlyArray<ChipFabricOutcome | undefined>): ChipFabricOutcome {
  const rx_drops: Record<string, number> = Object.fromEntries(DROP_REASONS.map((r) => [r, 0]));
  for (const c of chips) for (const r of DROP_REASONS) rx_drops[r]! += c?.rx_drops[r] ?? 0;
  return { failures: chips.flatMap((c) => c?.failures ?? []), rx_drops };
}
