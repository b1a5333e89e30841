/**
 * Cluster CSRs of the control plane that software reads or writes directly (memory_map.json `cluster_csr` regions,
 * PROJECT-DEFINED addresses; layouts in grammars/pyxis/*.json):
 * - `cluster.bt_mem[1024]` (chip §11.6.6): the direct read/write view of the barrier table, one `bt_barrier_t`
 *   (barrier_bt_barrier.json) per barrier. "Writing a barrier does *not* trigger hardware operations (such as
 *   enabling trips or relaxing barriers) as a side-effect using this view": a write sets the entry and nothing else.
 * - `cluster.descr_q_head[2]` (chip §11.5.1): "Hardware exports the current state of the head pointers for all
 *   queues via status registers (CSRs) ... packed into a minimum number of 64-bit CSRs" (descr_q_head.json).
 * - `cluster.dpe_config` (chip §12.5): the DPE's global hungry / starving levels and burst amount (dpe_config.json).
 * Diagnostic codes SIM0860-SIM0869 (CovCodes below; docs/simulator.md "CSRs").
 */
import { decode, encode, loadTable } from '@pyxis/codec';
import { warning, type Diagnostic } from '@pyxis/diagnostics';
import type { BarrierTable } from './barriers.js';
import { clusterCsrRegion, CtlCodes } from './csrs.js';
import type { CsrCfgSpace } from './csrSpace.js';
import type { DescriptorPrefetchEngine } from './dpe.js';

/** Diagnostic codes of the cluster status / configuration CSRs. */
export const CovCodes = {
  /** A `bt_mem[0]` write: barrier id 0 is not a barrier (ids 1..1023, chip §11.6.3); ignored. */
  btMemZero: 'SIM0860',
  /** A `cluster.dpe_config` level outside starving <= hungry, 1 <= hungry <= prefetch depth: it acts clamped (chip §12.5). */
  dpeLevelClamped: 'SIM0861',
} as const;

export interface ClusterStatusDeps {
  cluster: number;
  cfg: CsrCfgSpace;
  barriers: BarrierTable;
  dpe?: DescriptorPrefetchEngine;
  now: () => number;
  warnOnce: (key: string, d: Diagnostic) => void;
}

const BT_MEM = clusterCsrRegion('cluster.bt_mem');
const Q_HEAD = clusterCsrRegion('cluster.descr_q_head');
const DPE_CFG = clusterCsrRegion('cluster.dpe_config');

export function installClusterStatusCsrs(d: ClusterStatusDeps): void {
  const { cfg, cluster, barriers: bt } = d;
  const btTable = loadTable('pyxis', BT_MEM.table!);
  const qTable = loadTable('pyxis', Q_HEAD.table!);
  const dpeTable = loadTable('pyxis', DPE_CFG.table!);
  const btEnd = BT_MEM.offset + BT_MEM.words * BT_MEM.stride;
  const word = new Uint8Array(8);
  const wordAt = (a: number) => {
    new DataView(word.buffer).setBigUint64(0, cfg.peek64(a), true);
    return word;
  };
  const store = (a: number, bytes: Uint8Array) => {
    const dv = new DataView(bytes.buffer, bytes.byteOffset, 8);
    cfg.storeHalves(a, dv.getUint32(0, true), dv.getUint32(4, true));
  };

  // bt_mem[id]: reads the live entry; a write sets it without side effects (chip §11.6.6)
  cfg.onRead(BT_MEM.offset, btEnd, (addr, len) => {
    const lo = Math.max(BT_MEM.offset, addr - (addr % 8));
    const hi = Math.min(btEnd, addr + len);
    for (let a = lo; a < hi; a += BT_MEM.stride) {
      const id = (a - BT_MEM.offset) / BT_MEM.stride;
      if (id === 0) cfg.storeWord(a, 0);
      else store(a, encode(btTable, { notify_count: bt.notifyCount[id]!, wait_count: bt.waitCount[id]!, ref_counts_valid: bt.refCountsValid[id]! }));
    }
  });
  cfg.watch(BT_MEM.offset, btEnd, (addr, _src, _off, len) => {
    for (let a = Math.max(BT_MEM.offset, addr - (addr % 8)); a < Math.min(btEnd, addr + len); a += BT_MEM.stride) {
      const id = (a - BT_MEM.offset) / BT_MEM.stride;
      if (id === 0) {
        d.warnOnce(`c${cluster}.bt_mem0`, warning(CovCodes.btMemZero, `cluster ${cluster}: write to bt_mem[0] ignored: barrier id 0 means "no barrier" (ids 1..1023)`, { spec: 'pyxis-chip-fspec.md §11.6.3, §11.6.6' }));
        continue;
      }
      const v = decode(btTable, wordAt(a));
      bt.writeDirect(id, Number(v['notify_count']), Number(v['wait_count']), Number(v['ref_counts_valid']), d.now());
    }
  });

  // descr_q_head[w]: the DPE's 3-bit head pointers, 21 queues per word (chip §11.5.1); read-only
  const qEnd = Q_HEAD.offset + Q_HEAD.words * Q_HEAD.stride;
  const perWord = qTable.fields.filter((f) => !f.reserved).length;
  cfg.onRead(Q_HEAD.offset, qEnd, (addr, len) => {
    for (let a = Math.max(Q_HEAD.offset, addr - (addr % 8)); a < Math.min(qEnd, addr + len); a += Q_HEAD.stride) {
      const w = (a - Q_HEAD.offset) / Q_HEAD.stride;
      const values: Record<string, number> = {};
      for (let i = 0; i < perWord; i++) values[`head_${i}`] = d.dpe ? d.dpe.headPointer(perWord * w + i) : 0;
      store(a, encode(qTable, values));
    }
  });
  cfg.watch(Q_HEAD.offset, qEnd, () =>
    d.warnOnce(`c${cluster}.descr_q_head.ro`, warning(CtlCodes.csrReadOnly, `cluster ${cluster}: write to read-only cluster.descr_q_head ignored (the DPE advances the head pointers)`, { spec: Q_HEAD.spec })),
  );

  // dpe_config: reads the DPE's live configuration; a write reconfigures it (chip §12.5)
  const dpe = d.dpe;
  if (!dpe) return;
  const depth = () => dpe.prefetchDepth;
  cfg.onRead(DPE_CFG.offset, DPE_CFG.offset + 8, () => store(DPE_CFG.offset, encode(dpeTable, { hungry_level: dpe.hungryLevel, starving_level: dpe.starvingLevel, burst_amount: dpe.burst })));
  cfg.watch(DPE_CFG.offset, DPE_CFG.offset + 8, () => {
    const v = decode(dpeTable, wordAt(DPE_CFG.offset));
    const hungry = Number(v['hungry_level']);
    const starving = Number(v['starving_level']);
    const burst = Number(v['burst_amount']);
    if (hungry < 1 || hungry > depth() || starving > hungry)
      d.warnOnce(
        `c${cluster}.dpe_config.clamp`,
        warning(
          CovCodes.dpeLevelClamped,
          `cluster ${cluster}: cluster.dpe_config starving_level ${starving} / hungry_level ${hungry} outside starving <= hungry, 1 <= hungry <= ${depth()} (the prefetch depth): they act as ${Math.min(starving, Math.max(1, Math.min(hungry, depth())))} / ${Math.max(1, Math.min(hungry, depth()))}`,
          { spec: 'pyxis-chip-fspec.md §12.5' },
        ),
      );
    dpe.configure(hungry, starving, burst);
  });
}
