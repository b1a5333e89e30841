/**
 * Failed RDMA jobs of a system run (chip §10.7.1.2 Tx "Job Failed", §10.8.1.2 Rx "Job Failed"): a job that failed
 * after its one retry raises the cluster's sticky Job Failed interrupt. A run with such a job never ends as
 * "completed" with exit 0 unless the image's host waits on that interrupt (a host action with
 * `afterInterrupt: fabric_job_failed`) and that action ran: the host then owns the recovery and the failure is
 * reported as recovered (docs/spec-notes.d/fsys2.md).
 */
import { FABRIC_JOB_FAILED_INTERRUPT, type PyxisChip } from '../chip.js';
import { describeFailure, DROP_REASONS, type FabricJobFailure } from './stats.js';

export interface SystemFailure extends FabricJobFailure {
  /** A host action waiting on this occurrence of the cluster's Job Failed interrupt ran. */
  recovered: boolean;
  text: string;
}

/** Every failed job of every chip, in (chip, cycle, cluster) order, each marked recovered or not. */
export function collectFailures(chips: readonly PyxisChip[]): SystemFailure[] {
  const out: SystemFailure[] = [];
  chips.forEach((chip) => {
    const fa = chip.fabricAdapter;
    if (!fa) return;
    const host = chip.host;
    // the highest Job Failed occurrence each cluster's host has waited for (actions run strictly in order)
    const waited = new Map<number, number>();
    for (let i = 0; i < host.actionsDone; i++) {
      const a = host.actions[i]!;
      if (a.afterInterrupt?.entry === FABRIC_JOB_FAILED_INTERRUPT) waited.set(a.cluster, Math.max(waited.get(a.cluster) ?? 0, a.afterInterrupt.count));
    }
    const seen = new Map<number, number>();
    for (const f of fa.failures) {
      const occ = (seen.get(f.cluster) ?? 0) + 1;
      seen.set(f.cluster, occ);
      out.push({ ...f, recovered: (waited.get(f.cluster) ?? 0) >= occ, text: describeFailure(f) });
    }
  });
  return out;
}

/** Pages the chips' Rx sides dropped, per reason (datagrams with no free Rx ring descriptor included), summed. */
export function rxDrops(chips: readonly PyxisChip[]): Record<string, number> {
  const out: Record<string, number> = Object.fromEntries(DROP_REASONS.map((r) => [r, 0]));
  for (const chip of chips) for (const c of chip.fabricAdapter?.clusterStats ?? []) for (const r of DROP_REASONS) out[r]! += c.rx_drops[r];
  return out;
}
