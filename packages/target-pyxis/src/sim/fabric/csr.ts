/**
 * The fabric adapter's cluster CSRs (PROJECT-DEFINED addresses in grammars/pyxis/memory_map.json; the spec defers
 * registers to the programming guide): the Tx / Rx failed-job vectors (chip §10.7.1.2, §10.8.1.2: "a software-visible
 * vector register of all jobs in the Failed state ... write the register to clear the sticky failed state"), 256 bits
 * each as four 64-bit words, write-1-to-clear; the datagram ring tail (software) and head (hardware) pointers
 * (§11.5.2); the inhibit of the sticky Job Failed state and the Job Table status of the trip flush (§11.8); the
 * per-RxQ datagram counters (§10.8.1.3); the Tx / Rx Job Tables (Tables 10-1 / 10-2, jobTable.ts); the per-VOQ
 * PGen configuration (§10.7.3, §10.7.3.1). Reads return the live values.
 */
import { decode, encode, loadTable } from '@pyxis/codec';
import { warning, type Diagnostic } from '@pyxis/diagnostics';
import { clusterCsrRegion, CtlCodes } from '../csrs.js';
import type { CsrCfgSpace } from '../csrSpace.js';
import type { FabricAdapter } from './adapter.js';
import { rxJobEntry, TX_JOB_ENTRY, txJobEntry } from './jobTable.js';

const TX_FAILED = clusterCsrRegion('cluster.fabric_tx_failed');
const RX_FAILED = clusterCsrRegion('cluster.fabric_rx_failed');
const TAIL = clusterCsrRegion('cluster.dgram_tail');
const HEAD = clusterCsrRegion('cluster.dgram_head');
const INHIBIT = clusterCsrRegion('cluster.fabric_failed_inhibit');
const JOB_STATUS = clusterCsrRegion('cluster.fabric_job_status');
const RXQ_COUNTS = clusterCsrRegion('cluster.dgram_rxq_counts');
const TX_TABLE = clusterCsrRegion('cluster.fabric_tx_job_table');
const RX_TABLE = clusterCsrRegion('cluster.fabric_rx_job_table');
const VOQ_CFG = clusterCsrRegion('cluster.fabric_voq_config');
const VOQ_CFG_TABLE = loadTable('pyxis', 'fabric_voq_config');
const ALL = [TX_FAILED, RX_FAILED, TAIL, HEAD, INHIBIT, JOB_STATUS, RXQ_COUNTS, TX_TABLE, RX_TABLE, VOQ_CFG];
const within = (r: typeof TX_TABLE, a: number) => a >= r.offset && a < r.offset + r.words * r.stride;
/** Registers the adapter maintains: a write is ignored with SIM0030, as for the other read-only CSRs. */
const READ_ONLY = [HEAD, JOB_STATUS, RXQ_COUNTS, TX_TABLE, RX_TABLE];
const LO = Math.min(...ALL.map((r) => r.offset));
const HI = Math.max(...ALL.map((r) => r.offset + r.words * r.stride));

function vectorHalves(v: Uint8Array, word: number): [number, number] {
  let lo = 0;
  let hi = 0;
  for (let j = 0; j < 32; j++) if (v[word * 64 + j]) lo |= 1 << j;
  for (let j = 0; j < 32; j++) if (v[word * 64 + 32 + j]) hi |= 1 << j;
  return [lo >>> 0, hi >>> 0];
}

export function installFabricCsrs(cfg: CsrCfgSpace, cluster: number, adapter: FabricAdapter, warnOnce?: (key: string, d: Diagnostic) => void): void {
  const tx = adapter.txc[cluster]!;
  const rx = adapter.rxc[cluster]!;
  const ring = (k: number) => (k < 2 ? tx.txq[k] : rx.rxq[k - 2]) ?? null;
  cfg.watch(LO, HI, (addr, src, off, len) => {
    for (let a = addr - (addr % 8); a < addr + len; a += 8) {
      const byte = (i: number) => (a + i >= addr && a + i < addr + len ? src[off + a + i - addr]! : cfg.byte(a + i));
      const ro = READ_ONLY.find((r) => within(r, a));
      if (ro) warnOnce?.(`c${cluster}.${ro.name}.ro`, warning(CtlCodes.csrReadOnly, `cluster ${cluster}: write to read-only ${ro.name} ignored (the fabric adapter maintains it)`, { spec: ro.spec }));
      else if (a >= TX_FAILED.offset && a < TX_FAILED.offset + 32) {
        const w = (a - TX_FAILED.offset) / 8;
        for (let i = 0; i < 8; i++) for (let j = 0; j < 8; j++) if ((byte(i) >> j) & 1) tx.clearFailed(w * 64 + i * 8 + j);
      } else if (a >= RX_FAILED.offset && a < RX_FAILED.offset + 32) {
        const w = (a - RX_FAILED.offset) / 8;
        for (let i = 0; i < 8; i++) for (let j = 0; j < 8; j++) if ((byte(i) >> j) & 1) rx.clearFailed(w * 64 + i * 8 + j);
      } else if (a >= TAIL.offset && a < TAIL.offset + 32) ring((a - TAIL.offset) / 8)?.setTail(byte(0) | (byte(1) << 8));
      else if (a === INHIBIT.offset) adapter.failedInhibit[cluster] = (byte(0) & 1) === 1;
      else if (within(VOQ_CFG, a)) {
        const w = new Uint8Array(8);
        for (let i = 0; i < 8; i++) w[i] = byte(i);
        const v = decode(VOQ_CFG_TABLE, w);
        const voq = (a - VOQ_CFG.offset) / 8;
        tx.voqProfile[voq] = Number(v['profile']);
        tx.voqHigh[voq] = Number(v['high_priority']);
      }
    }
  });
  const tick = adapter.params.job_tables.timestamp_tick_cycles;
  const entryBytes = TX_JOB_ENTRY.bytes;
  cfg.onRead(LO, HI, (addr, len) => {
    // the Job Table windows (Tables 10-1 / 10-2): each entry encoded once per read
    let cached = -1;
    let entry: Uint8Array | null = null;
    const tableWord = (r: typeof TX_TABLE, a: number, rx: boolean) => {
      const k = a - r.offset;
      const e = Math.floor(k / entryBytes);
      const key = (rx ? 1 << 16 : 0) + e;
      if (key !== cached) {
        const n = rx ? adapter.rxc[cluster]!.jobs.length : adapter.txc[cluster]!.jobs.length;
        entry = e < n ? (rx ? rxJobEntry(adapter.rxc[cluster]!, e, tick) : txJobEntry(adapter.txc[cluster]!, e, tick)) : new Uint8Array(entryBytes);
        cached = key;
      }
      const v = new DataView(entry!.buffer, entry!.byteOffset + (k % entryBytes));
      cfg.storeHalves(a, v.getUint32(0, true), v.getUint32(4, true));
    };
    for (let a = Math.max(LO, addr - (addr % 8)); a < Math.min(HI, addr + len); a += 8) {
      if (a >= TX_FAILED.offset && a < TX_FAILED.offset + 32) cfg.storeHalves(a, ...vectorHalves(tx.failedVector, (a - TX_FAILED.offset) / 8));
      else if (a >= RX_FAILED.offset && a < RX_FAILED.offset + 32) cfg.storeHalves(a, ...vectorHalves(rx.failedVector, (a - RX_FAILED.offset) / 8));
      else if (a >= TAIL.offset && a < TAIL.offset + 32) cfg.storeWord(a, ring((a - TAIL.offset) / 8)?.tail ?? 0);
      else if (a >= HEAD.offset && a < HEAD.offset + 32) cfg.storeWord(a, ring((a - HEAD.offset) / 8)?.head ?? 0);
      else if (a === INHIBIT.offset) cfg.storeWord(a, adapter.failedInhibit[cluster] ? 1 : 0);
      else if (a === JOB_STATUS.offset) {
        const j = adapter.jobStatus(cluster);
        cfg.storeHalves(a, (j.txBusy & 0xffff) | ((j.rxBusy & 0xffff) << 16), (j.txFailed & 0xffff) | ((j.rxFailed & 0xffff) << 16));
      } else if (within(VOQ_CFG, a)) {
        const voq = (a - VOQ_CFG.offset) / 8;
        const w = encode(VOQ_CFG_TABLE, { profile: tx.voqProfile[voq]!, high_priority: tx.voqHigh[voq]! });
        const v = new DataView(w.buffer, w.byteOffset);
        cfg.storeHalves(a, v.getUint32(0, true), v.getUint32(4, true));
      } else if (within(TX_TABLE, a)) tableWord(TX_TABLE, a, false);
      else if (within(RX_TABLE, a)) tableWord(RX_TABLE, a, true);
      else if (a >= RXQ_COUNTS.offset && a < RXQ_COUNTS.offset + 32) {
        const w = (a - RXQ_COUNTS.offset) / 8;
        const st = adapter.clusterStats[cluster]!;
        cfg.storeWord(a, (w & 1 ? st.rxq_dropped : st.rxq_accepted)[w >> 1]! >>> 0);
      }
    }
  });
}
