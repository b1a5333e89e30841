/**
 * Behaviour of the CSRs of grammars/pyxis/memory_map.json that are not microcode or configuration tables
 * (PROJECT-DEFINED registers; docs/simulator.md "CSRs"):
 * - per UIE (kind `csr`): the CSR-launched trip (`csr.seq_start_pc`, `csr.trip_valid_mask`, `csr.amem_*_base`,
 *   `csr.itfe_cmd_idx` hold its parameters, writing 1 to `csr.trip_start` launches it, chip §11.4.2 fields),
 *   `csr.seq_status` / `csr.seq_pc` (seq §2.1.4, §3) and `csr.write_tracker` (seq §6.8) read the model's live state,
 *   as do the hardware-maintained registers of the compute half (`csr.hbuf_*` seq §9.1.4-§9.1.5, §10.1.1-§10.1.2,
 *   `csr.wb_credits` §10.3.2, `csr.vbuf_*` §13.1-§13.2, `csr.vpu_cntr` §12.1); `csr.convert_mode` (chip §4.9, §4.10)
 *   is sampled by the UIE at each trip start; a write to a read-only register gives SIM0030 and is ignored.
 * - per cluster: `cluster.trip_flush` (chip §11.8), `cluster.trip_flush_status`, `cluster.barrier_timeout_status`
 *   (chip §11.6.7).
 * Writes arrive through CfgSpace watchers (image load, host actions, MPE patch/DMA writes); reads through the
 * CsrCfgSpace read hooks (host polling, MPE reads, dumps).
 */
import { warning, type Diagnostic } from '@pyxis/diagnostics';
import type { BarrierTable } from './barriers.js';
import type { TripManager } from './tripManager.js';
import { CLUSTER_CSR_REGIONS, clusterCsrRegion, CtlCodes, csrAt, UIE_CSR_HI, UIE_CSR_LO, UIE_STRIDE, uieCsr, type CsrRegion } from './csrs.js';
import { installClusterStatusCsrs } from './clusterStatusCsr.js';
import type { DescriptorPrefetchEngine } from './dpe.js';
import type { CsrCfgSpace } from './csrSpace.js';
import type { Trip } from './trip.js';
import { Uie, NUM_SEQUENCERS, SEQ_AMEM_WRITE } from './uie/index.js';
import type { UieSlot } from './uieSlot.js';
import { dbl } from '@pyxis/sim';

const SEQ_MASK = (1 << NUM_SEQUENCERS) - 1;
const R = {
  startPc: uieCsr('csr.seq_start_pc'),
  validMask: uieCsr('csr.trip_valid_mask'),
  readBase: uieCsr('csr.amem_read_base'),
  weightsBase: uieCsr('csr.amem_weights_base'),
  writeBase: uieCsr('csr.amem_write_base'),
  itfe: uieCsr('csr.itfe_cmd_idx'),
  tripStart: uieCsr('csr.trip_start'),
  seqStatus: uieCsr('csr.seq_status'),
  seqPc: uieCsr('csr.seq_pc'),
  writeTracker: uieCsr('csr.write_tracker'),
  convertMode: uieCsr('csr.convert_mode'),
};
/** The hardware-maintained compute registers (read-only, live): region -> value of word `i` of a UIE model. */
const HBUF_UNIT = 16; // hbuf_base and the credits count 16-byte units (seq §9.1.4: "16-byte granularity")
const COMPUTE_CSRS: ReadonlyMap<CsrRegion, (m: Uie, i: number) => number> = new Map<CsrRegion, (m: Uie, i: number) => number>([
  [uieCsr('csr.hbuf_wr_base'), (m) => Math.floor(m.cmp.hbuf.wrBase / HBUF_UNIT)],
  [uieCsr('csr.hbuf_rd_base'), (m) => Math.floor(m.cmp.hbuf.rdBase / HBUF_UNIT)],
  [uieCsr('csr.hbuf_wr_credits'), (m) => Math.floor(m.cmp.hbuf.wrCredits / HBUF_UNIT)],
  [uieCsr('csr.hbuf_rd_credits'), (m) => Math.floor(m.cmp.hbuf.rdCredits / HBUF_UNIT)],
  [uieCsr('csr.wb_credits'), (m) => m.cmp.acc.wbCredits],
  [uieCsr('csr.vbuf_wr_ptr'), (m, i) => m.cmp.vbuffer.wrPtr[i]!],
  [uieCsr('csr.vbuf_rd_ptr'), (m, i) => m.cmp.vbuffer.rdPtr[i]!],
  [uieCsr('csr.vbuf_scratchpad_count'), (m, i) => m.cmp.vbuffer.spCount[i]!],
  [uieCsr('csr.vpu_cntr'), (m) => m.cmp.vpu.cntr],
]);
/** Reset values of the compute registers when the UIE has no compute model (seq §9.1.5: credits = the full Hbuf; §10.3.2: 8). */
const COMPUTE_RESET: ReadonlyMap<string, number> = new Map([
  ['csr.hbuf_wr_credits', 4096 / HBUF_UNIT],
  ['csr.wb_credits', 8],
]);
export const FLUSH_CSR = clusterCsrRegion('cluster.trip_flush');
export const FLUSH_STATUS_CSR = clusterCsrRegion('cluster.trip_flush_status');
export const TIMEOUT_STATUS_CSR = clusterCsrRegion('cluster.barrier_timeout_status');

export interface ControlCsrDeps {
  cluster: number;
  cfg: CsrCfgSpace;
  uies: readonly UieSlot[];
  tm: TripManager;
  barriers: BarrierTable;
  /** Whether the cluster's descriptor queues (rings, in-flight fetches, prefetch queues) are empty. */
  queuesEmpty: () => boolean;
  /** The cluster's DPE (head-pointer and configuration CSRs, chip §11.5.1, §12.5); absent in unit tests of the CSRs. */
  dpe?: DescriptorPrefetchEngine;
  now: () => number;
  warnOnce: (key: string, d: Diagnostic) => void;
}

const lo = (v: bigint) => Number(v & 0xffff_ffffn);

/** `csr.seq_status` of a UIE model (seq §3): bits 0..12 busy (core running), bits 13..25 done (ran, not running). */
export function seqStatus(m: unknown): number {
  if (!(m instanceof Uie)) return 0;
  let busy = 0;
  let done = 0;
  for (const s of m.seqs) {
    if (s.core.running) busy |= 1 << s.id;
    // done is sticky until the sequencer's next trip starts: it has executed and is not running
    else if (m.stats.instructions[s.id]! > 0) done |= 1 << s.id;
  }
  return (busy | (done << NUM_SEQUENCERS)) >>> 0;
}

/** `csr.write_tracker[k]` (seq §6.8): tracking ID k's outstanding writes (15:0) and EOPGM seen (16). */
function writeTracker(m: unknown, k: number): number {
  if (!(m instanceof Uie)) return 0;
  const sl = m.slots[k];
  if (!sl || !sl.active) return 0;
  const eopgm = (sl.pending >> SEQ_AMEM_WRITE) & 1 ? 0 : 1;
  return Math.min(sl.writes, 0xffff) | (eopgm << 16);
}

export function installControlCsrs(d: ControlCsrDeps): void {
  const { cfg, cluster } = d;
  cfg.warn = d.warnOnce; // the window's decode reports unmapped accesses and bits beyond a register's width (csrSpace.ts)

  for (const slot of d.uies) {
    const base = slot.index * UIE_STRIDE;
    const word = (r: CsrRegion, i = 0) => base + r.offset + i * r.stride;
    // csr.convert_mode: the UIE samples it when it accepts a trip (a write never changes a running trip's conversions)
    if (slot.model instanceof Uie) {
      const at = word(R.convertMode);
      slot.model.convertModeSource = () => Number(cfg.peek64(at) & BigInt((1 << (R.convertMode.bits ?? 3)) - 1));
    }
    // writes: side effects and diagnostics
    cfg.watch(base + UIE_CSR_LO, base + UIE_CSR_HI, (addr, _src, _off, len) => {
      for (let a = addr - (addr % 8); a < addr + len; a += 8) {
        const hit = csrAt(a);
        if (!hit || hit.uie !== slot.index) continue;
        const r = hit.region;
        if (r.access === 'ro')
          d.warnOnce(
            `${slot.name}.${r.name}.ro`,
            warning(CtlCodes.csrReadOnly, `${slot.name}: write to read-only ${r.name} ignored (it reads the sequencers' state)`, { spec: r.spec }),
          );
        else if (r === R.tripStart && (cfg.peek64(a) & 1n) === 1n) d.tm.launchFromCsr(slot.index, csrTrip(slot, cluster, (rr, i) => cfg.peek64(word(rr, i)), d.now()));
      }
    });
    // reads: live values
    cfg.onRead(base + UIE_CSR_LO, base + UIE_CSR_HI, (addr, len) => {
      for (let a = addr - (addr % 8); a < addr + len; a += 8) {
        const hit = csrAt(a);
        if (!hit || hit.uie !== slot.index) continue;
        const r = hit.region;
        const m = slot.model;
        if (slot.window.covers(d.now()) && r.access === 'ro')
          d.warnOnce(
            `${slot.name}.csr-ahead`,
            warning(CtlCodes.csrAhead, `${slot.name}: ${r.name} read while the UIE model ran ahead of the global clock (--quantum): the value is from a later cycle; use --quantum 1 for exact reads`, {
              spec: r.spec,
              notes: ['host polls force lockstep; MPE reads of live UIE registers do not (docs/simulator.md "CSRs")'],
            }),
          );
        const live = COMPUTE_CSRS.get(r);
        if (live) cfg.storeWord(a, m instanceof Uie ? live(m, hit.index) : (COMPUTE_RESET.get(r.name) ?? 0));
        else if (r === R.seqStatus) cfg.storeWord(a, seqStatus(m));
        else if (r === R.seqPc) cfg.storeWord(a, m instanceof Uie && hit.index < m.seqs.length ? m.seqs[hit.index]!.core.pc : 0);
        else if (r === R.writeTracker) cfg.storeWord(a, writeTracker(m, hit.index));
        else if (r === R.tripStart) cfg.storeWord(a, 0); // write-only: reads as 0
      }
    });
  }

  installClusterStatusCsrs({ cluster, cfg, barriers: d.barriers, dpe: d.dpe, now: d.now, warnOnce: d.warnOnce });

  // write-only cluster CSRs (enqueue, bt_mem_decrement) read as 0, not as the last value written
  for (const r of CLUSTER_CSR_REGIONS) {
    if (r.access !== 'wo') continue;
    const end = r.offset + r.words * r.stride;
    cfg.onRead(r.offset, end, (addr, len) => {
      for (let a = Math.max(r.offset, addr - (addr % 8)); a < Math.min(end, addr + len); a += r.stride) cfg.storeWord(a, 0);
    });
  }

  // cluster CSRs of the trip manager and the barrier timeout register
  const flushAt = FLUSH_CSR.offset;
  const statusAt = FLUSH_STATUS_CSR.offset;
  const timeoutAt = TIMEOUT_STATUS_CSR.offset;
  cfg.watch(flushAt, timeoutAt + 8, (addr, _src, _off, len) => {
    for (let a = addr - (addr % 8); a < addr + len; a += 8) {
      if (a === flushAt) d.tm.setFlushMode((cfg.peek64(a) & 1n) === 1n, d.now());
      else if (a === statusAt)
        d.warnOnce(`c${cluster}.trip_flush_status.ro`, warning(CtlCodes.csrReadOnly, `cluster ${cluster}: write to read-only cluster.trip_flush_status ignored`, { spec: FLUSH_STATUS_CSR.spec }));
      else if (a === timeoutAt && (cfg.peek64(a) & 1n) === 1n) d.barriers.clearTimeoutStatus(d.now());
    }
  });
  cfg.onRead(flushAt, timeoutAt + 8, (addr, len) => {
    const now = d.now();
    if (addr < statusAt + 8 && addr + len > statusAt) {
      const n = Math.min(d.tm.outstandingTrips(), 0xffff);
      const empty = d.queuesEmpty() ? 1 : 0;
      const done = d.tm.flushMode && d.tm.flushDone ? 1 : 0;
      cfg.storeWord(statusAt, n | (empty << 16) | (done << 17));
    }
    if (addr < timeoutAt + 8 && addr + len > timeoutAt) {
      const s = d.barriers.timeoutStatus(now);
      cfg.storeWord(timeoutAt, s.valid ? 1 | (s.barrierId << 1) : 0);
    }
    if (addr < flushAt + 8 && addr + len > flushAt) cfg.storeWord(flushAt, d.tm.flushMode ? 1 : 0);
  });
}

/** The trip a write of 1 to `csr.trip_start` launches: the chip §11.4.2 fields from the CSRs (no barriers, trip_id 0). */
function csrTrip(slot: UieSlot, cluster: number, get: (r: CsrRegion, i?: number) => bigint, now: number): Trip {
  const vm = lo(get(R.validMask));
  const rb = lo(get(R.readBase));
  const wb = lo(get(R.writeBase));
  const kb = lo(get(R.weightsBase));
  const itfe = lo(get(R.itfe));
  const startPc: number[] = [];
  for (let i = 0; i < R.startPc.words; i++) startPc.push(lo(get(R.startPc, i)) & 31);
  const fields = {
    trip_id: 0,
    wait_barrier_id: 0,
    trip_valid_mask: vm & SEQ_MASK,
    amem_read_indirect_vld: (vm >> 13) & 1,
    amem_write_indirect_vld: (vm >> 14) & 1,
    start_pc: startPc,
    amem_read_base_address: rb & 0x3f_ffff,
    amem_read_bank_hash_dsbl: (rb >> 22) & 1,
    amem_weights_base_address: kb & 0x3f_ffff,
    amem_weights_bank_hash_dsbl: (kb >> 22) & 1,
    amem_write_base_address: wb & 0x3f_ffff,
    amem_write_bank_hash_dsbl: (wb >> 22) & 1,
    amem_read_indirect_cmd_index: itfe & 3,
    amem_write_indirect_cmd_index: (itfe >> 2) & 3,
    trip_power: 0,
  };
  return {
    cluster,
    qid: slot.index,
    kind: 'uie',
    fields,
    table: 'csr.trip_start',
    tripId: 0,
    waitBarrierId: 0,
    notifyList: [],
    address: 0,
    trip_power: 0,
    fetchedAt: now,
    waitAt: -1,
    goAt: -1,
    startAt: -1,
    doneAt: dbl(-1),
  };
}
