/**
 * The fabric adapter of one chip (chip §10.7-10.8): per cluster a Tx side (tx.ts) and an Rx side (rx.ts), and the
 * chip-level parts they share: the QPage table (§10.7.6, ~1024 entries for all clusters), the four FO pipes' TxDMA
 * contexts and Tx buffers (§10.7.7-10.7.8, §12.3), the header encapsulation (§10.7.9) and the fabric ports
 * (port.ts). One kernel engine for the whole chip, so that the clusters' competition for the shared QPage table is
 * resolved in one fixed order (clusters round-robin from a rotating start, §10.7.3 "cross-cluster round-robin"),
 * never by registration order. Transaction-level per page (docs/timing-model.md "Fabric adapter").
 */
import type { BandwidthPort, SimEngine } from '@pyxis/sim';
import type { AmemAccess } from '../amemAccess.js';
import { CLIENT_TXDMA } from '../amem/clients.js';
import { runtimeError } from '../diagnostics.js';
import { PHASE } from '../engines.js';
import type { PyxisObserver } from '../observer.js';
import type { HbmMemory } from '../memory.js';
import type { Trip, TripDone, TripEngine } from '../trip.js';
import type { AdapterCore, OutMessage, QPage } from './core.js';
import { encodeHeader } from './header.js';
import { FabricCodes, loadFabricAdapterParams, type FabricAdapterOverrides, type FabricAdapterParams } from './params.js';
import type { ChipFabricOptions, ChipFabricSide, FabricAdapterRx, FabricAdapterTx, FabricDestination, FabricEgress, FabricEnqueue, FabricPage } from './port.js';
import { DatagramRing, type RingPlacement } from './rings.js';
import { RxCluster } from './rx.js';
import { describeFailure, emptyClusterStats, type FabricClusterStats, type FabricJobFailure } from './stats.js';
import { TxCluster } from './tx.js';

/** RDMA queue ids (chip Table 11-1): Tx 0x0C-0x0D, Rx 0x0E-0x0F; datagram rings 0x23-0x26. */
export const RDMA_TX_QID = 0x0c;
export const RDMA_RX_QID = 0x0e;
export const DGRAM_TX_QID = 0x23;
export const DGRAM_RX_QID = 0x25;

/** A granted page in its VOQ's grant order: ready to leave at `ready` (sent as `page`, or flushed as `flush`). */
interface Slot {
  ready: number;
  pipe: number;
  words: number;
  page: FabricPage | null;
  flush: FabricEnqueue | null;
}

interface Ev {
  at: number;
  seq: number;
  fn: (now: number) => void;
}

/** The trip engine of one RDMA queue: hands the released trip to the job manager's shallow FIFO (§10.7.1, §10.8.1.1). */
export class RdmaQueueEngine implements TripEngine {
  readonly name: string;
  readonly group: string;
  readonly phase = PHASE.engines;
  readonly passive = true;
  readonly busy = false;
  tripsDone = 0;
  commitKey = 0;
  kernel: unknown;
  constructor(
    readonly cluster: number,
    readonly kind: 'rdma_tx' | 'rdma_rx',
    private readonly index: number,
    private readonly adapter: FabricAdapter,
    private readonly done: TripDone,
  ) {
    this.name = `c${cluster}.${kind}${index}`;
    this.group = `cluster ${cluster}`;
  }
  canAccept(): boolean {
    return this.kind === 'rdma_tx' ? this.adapter.txc[this.cluster]!.canAccept(this.index) : this.adapter.rxc[this.cluster]!.canAccept(this.index);
  }
  start(trip: Trip): void {
    (this.kind === 'rdma_tx' ? this.adapter.txc : this.adapter.rxc)[this.cluster]!.rdmaFifo[this.index]!.push(trip);
  }
  finish(trip: Trip, now: number): void {
    this.tripsDone++;
    this.done(trip, now);
  }
  tick(): boolean {
    return false;
  }
  nextWake(): number {
    return Infinity;
  }
  blockedReason(): string | undefined {
    return undefined;
  }
}

export interface FabricAdapterDeps {
  clusters: number;
  fabric: ChipFabricOptions & { adapter?: FabricAdapterOverrides; timingOnly?: boolean };
  amem: AmemAccess[];
  hbm: HbmMemory;
  commitLatency: number;
  /** DPE read of one 8-byte datagram descriptor over the NoC: latency + transfer (chip §12.5; default 0 = functional). */
  descriptorFetchCycles?: number;
  /** The clusters' core-switch ports (chip §9): the TxDMA reads leave through egress, the Rx DMA writes enter through ingress. */
  coreSwitch?: { egress: BandwidthPort[]; ingress: BandwidthPort[] };
  observer?: PyxisObserver;
}

export class FabricAdapter implements SimEngine, AdapterCore, ChipFabricSide {
  readonly name = 'fabric_adapter';
  readonly group = 'chip';
  readonly phase = PHASE.engines;
  readonly stallReasons = ['waiting for the fabric (grant, dequeue, pages, messages)'] as const;
  readonly chip: number;
  readonly params: FabricAdapterParams;
  readonly egress: FabricEgress;
  readonly timingOnly: boolean;
  readonly descriptorFetchCycles: number;
  readonly txc: TxCluster[] = [];
  readonly rxc: RxCluster[] = [];
  readonly queueEngines: RdmaQueueEngine[][] = [];
  readonly clusterStats: FabricClusterStats[] = [];
  readonly failures: FabricJobFailure[] = [];
  /** Job-failed interrupts raised per cluster (§10.7.1.2, §10.8.1.2): host actions may wait on them. */
  readonly failedInterrupts: number[] = [];
  /** cluster.fabric_failed_inhibit bit 0 per cluster (§11.8): failing jobs go directly to Idle, no sticky state, no interrupt. */
  readonly failedInhibit: boolean[] = [];
  /** Datagram ring interrupts raised per cluster, rings dgram_tx0, dgram_tx1, dgram_rx0, dgram_rx1 (§11.5.2). */
  readonly dgramInterrupts: number[][] = [];
  private readonly qpages: QPage[] = [];
  private readonly freeQ: number[] = [];
  private readonly events: Ev[] = [];
  private evSeq = 0;
  /** Per FO pipe: granted pages waiting for a Tx page context / TxBuf space, TxDMA free cycle, TxBuf words in use. */
  private readonly pipeQueue: QPage[][] = [];
  private readonly pipeFreeAt: number[] = [];
  private readonly txbufUsed: number[] = [];
  private readonly txbufWords: number;
  private rrCluster = 0;
  /**
   * Per (cluster, VOQ): granted pages in grant order, each with its ready cycle once its TxDMA has started, and the
   * cycle the last one was handed to the fabric: pages of one VOQ leave in grant order (MODEL, spec notes).
   */
  private readonly voqOrder = new Map<number, { pages: Slot[]; last: number }>();
  private readonly voqToVpfe: Uint16Array;
  readonly tx: FabricAdapterTx;
  readonly rx: FabricAdapterRx;

  constructor(private readonly deps: FabricAdapterDeps) {
    const f = deps.fabric;
    this.chip = f.chip;
    this.egress = f.egress;
    this.voqToVpfe = f.voqToVpfe;
    this.timingOnly = !!f.timingOnly;
    this.descriptorFetchCycles = deps.descriptorFetchCycles ?? 0;
    this.params = loadFabricAdapterParams(f.adapter);
    for (let i = 0; i < this.params.qpages.table_entries; i++) {
      this.qpages.push({ id: i, inUse: false, cluster: 0, type: 'rdma_data', job: null, txq: -1, slot: -1, addr: 0, payloadBytes: 0, tjid: 0, rjid: 0, epoch: 0, retry: 0, last: 0, seq: 0, rxq: 0, voq: 0, dest: { vpfe: 0, oq: 0 }, high: false, profile: 0 });
      this.freeQ.push(this.params.qpages.table_entries - 1 - i);
    }
    for (let p = 0; p < this.params.txdma.pipes; p++) {
      this.pipeQueue.push([]);
      this.pipeFreeAt.push(0);
      this.txbufUsed.push(0);
    }
    this.txbufWords = this.params.txdma.txbuf_pages_per_pipe * 127;
    for (let c = 0; c < deps.clusters; c++) {
      const tx = new TxCluster(c, this);
      const rx = new RxCluster(c, this, deps.commitLatency);
      rx.tx = tx;
      this.txc.push(tx);
      this.rxc.push(rx);
      this.clusterStats.push(emptyClusterStats());
      this.failedInterrupts.push(0);
      this.failedInhibit.push(false);
      this.dgramInterrupts.push([0, 0, 0, 0]);
    }
    this.tx = {
      granted: (now, cluster, qpage, pipe) => this.granted(now, cluster, qpage, pipe),
      dequeued: (now, cluster, qpage) => this.dequeuedPage(now, cluster, qpage),
    };
    this.rx = { receive: (now, cluster, page) => this.receive(now, cluster, page) };
  }

  /** The trip engines of a cluster's RDMA queues (registered by the chip for queue ids 0x0C-0x0F). */
  makeQueueEngines(cluster: number, done: (qid: number) => TripDone): RdmaQueueEngine[] {
    const e = [
      new RdmaQueueEngine(cluster, 'rdma_tx', 0, this, done(RDMA_TX_QID)),
      new RdmaQueueEngine(cluster, 'rdma_tx', 1, this, done(RDMA_TX_QID + 1)),
      new RdmaQueueEngine(cluster, 'rdma_rx', 0, this, done(RDMA_RX_QID)),
      new RdmaQueueEngine(cluster, 'rdma_rx', 1, this, done(RDMA_RX_QID + 1)),
    ];
    this.queueEngines[cluster] = e;
    return e;
  }

  /** Configures datagram ring `qid` (0x23-0x26) of `cluster` (§11.5.2). */
  configureRing(cluster: number, qid: number, at: RingPlacement): DatagramRing {
    const names = ['dgram_tx0', 'dgram_tx1', 'dgram_rx0', 'dgram_rx1'];
    const k = qid - DGRAM_TX_QID;
    if (!(k >= 0 && k < 4) || cluster >= this.txc.length) throw new RangeError(`no datagram ring 0x${qid.toString(16)} in cluster ${cluster}`);
    const ring = new DatagramRing(`c${cluster}.${names[k]}`, at, (c) => this.deps.amem[c]!, this.deps.hbm);
    if (k < 2) this.txc[cluster]!.txq[k] = ring;
    else this.rxc[cluster]!.rxq[k - 2] = ring;
    return ring;
  }

  // ---- AdapterCore ----
  amem(cluster: number): AmemAccess {
    return this.deps.amem[cluster]!;
  }
  ingress(cluster: number, now: number, bytes: number): number {
    return this.deps.coreSwitch ? this.deps.coreSwitch.ingress[cluster]!.reserve(now, bytes) : now;
  }
  stats(cluster: number): FabricClusterStats {
    return this.clusterStats[cluster]!;
  }
  dest(voq: number, what: string, now: number): FabricDestination {
    const v = voq >> 2 < this.voqToVpfe.length ? this.voqToVpfe[voq >> 2]! : 0xffff;
    if (v === 0xffff || (v & 3) === 3)
      throw runtimeError(FabricCodes.unmappedVoq, `${what}: VOQ ${voq} (map entry ${voq >> 2}) ${v === 0xffff ? 'is not configured in' : `maps to VPFE ${v} (VPFE[1:0] = 3 is illegal) in`} chip ${this.chip}'s Pyxis_VOQ_to_VPFE_map`, '§10.2', now);
    return { vpfe: v, oq: voq & 3 };
  }
  allocQPage(): QPage | undefined {
    const id = this.freeQ.pop();
    if (id === undefined) return undefined;
    const q = this.qpages[id]!;
    q.inUse = true;
    return q;
  }
  schedule(at: number, fn: (now: number) => void): void {
    const e = this.events;
    const ev = { at, seq: this.evSeq++, fn };
    e.push(ev);
    let i = e.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (e[p]!.at < at || (e[p]!.at === at && e[p]!.seq < ev.seq)) break;
      e[i] = e[p]!;
      i = p;
    }
    e[i] = ev;
  }
  private popEvent(): Ev {
    const e = this.events;
    const top = e[0]!;
    const last = e.pop()!;
    if (e.length > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= e.length) break;
        const r = l + 1;
        const c = r < e.length && (e[r]!.at < e[l]!.at || (e[r]!.at === e[l]!.at && e[r]!.seq < e[l]!.seq)) ? r : l;
        if (e[c]!.at > last.at || (e[c]!.at === last.at && e[c]!.seq > last.seq)) break;
        e[i] = e[c]!;
        i = c;
      }
      e[i] = last;
    }
    return top;
  }
  tripDone(trip: Trip, now: number): void {
    this.queueEngines[trip.cluster]![trip.qid - RDMA_TX_QID]!.finish(trip, now);
  }
  failed(f: FabricJobFailure): void {
    this.failures.push(f);
    if (!f.inhibited) this.failedInterrupts[f.cluster]!++;
  }
  dgramInterrupt(cluster: number, ring: number): void {
    this.dgramInterrupts[cluster]![ring]!++;
  }
  inhibitFailed(cluster: number): boolean {
    return this.failedInhibit[cluster]!;
  }
  /**
   * cluster.fabric_job_status (§11.8): Job Table entries not Idle (active or Job Failed) and entries in Job Failed,
   * per side, 16 bits each (memory_map.json).
   */
  jobStatus(cluster: number): { txBusy: number; rxBusy: number; txFailed: number; rxFailed: number } {
    const count = (a: ArrayLike<unknown>, pred: (x: unknown) => boolean) => {
      let n = 0;
      for (let i = 0; i < a.length; i++) if (pred(a[i])) n++;
      return n;
    };
    const tx = this.txc[cluster]!;
    const rx = this.rxc[cluster]!;
    return {
      txBusy: count(tx.jobs, (j) => j !== null),
      rxBusy: count(rx.jobs, (j) => j !== null),
      txFailed: count(tx.failedVector, (b) => b === 1),
      rxFailed: count(rx.failedVector, (b) => b === 1),
    };
  }
  sendMessage(cluster: number, m: OutMessage): void {
    this.txc[cluster]!.queueMessage(m);
  }
  slice(cluster: number, side: 'tx' | 'rx', start: number, end: number, name: string, args: Record<string, string | number>): void {
    this.deps.observer?.fabricSlice(`cluster ${cluster}`, `c${cluster}.fabric_${side}_jobs`, start, end, name, args);
  }

  // ---- FabricAdapterTx / Rx ----
  private qpage(cluster: number, id: number, what: string): QPage {
    const q = this.qpages[id];
    if (!q || !q.inUse || q.cluster !== cluster) throw new RangeError(`chip ${this.chip}: fabric ${what} of QPage ${id} of cluster ${cluster}, which is not outstanding`);
    return q;
  }
  private granted(_now: number, cluster: number, id: number, pipe: number): void {
    // a snapshot: the Tx page context (§10.7.7) lives on even if the fabric reports the QPage dequeued before the data left
    const q = { ...this.qpage(cluster, id, 'grant') };
    const key = q.cluster * 8192 + q.voq;
    let o = this.voqOrder.get(key);
    if (!o) this.voqOrder.set(key, (o = { pages: [], last: 0 }));
    const slot: Slot = { ready: -1, pipe: pipe % this.pipeQueue.length, words: 0, page: null, flush: null };
    o.pages.push(slot);
    this.slotOf.set(q, slot);
    this.pipeQueue[slot.pipe]!.push(q);
  }
  private readonly slotOf = new Map<QPage, Slot>();

  /** Hands the pages at the head of VOQ `key`'s grant order whose data are ready to the fabric, in order. */
  private release(key: number): void {
    const o = this.voqOrder.get(key)!;
    while (o.pages.length > 0 && (o.pages[0]!.page || o.pages[0]!.flush)) {
      const sl = o.pages.shift()!;
      const at = Math.max(sl.ready, o.last);
      o.last = at;
      if (sl.flush) {
        const req = sl.flush;
        this.schedule(at, (t) => this.egress.discard!(t, req));
        continue;
      }
      const page = sl.page!;
      const p = sl.pipe;
      const words = sl.words;
      this.schedule(at, (t) => {
        this.txbufUsed[p]! -= words;
        this.egress.transmit(t, page);
      });
    }
  }
  private dequeuedPage(now: number, cluster: number, id: number): void {
    const q = this.qpage(cluster, id, 'dequeue');
    this.txc[cluster]!.dequeued(q, now);
    q.inUse = false;
    q.job = null;
    this.freeQ.push(id);
  }
  private receive(now: number, cluster: number, page: FabricPage): void {
    if (cluster >= this.rxc.length) throw new RangeError(`chip ${this.chip}: a fabric page for cluster ${cluster}, but the chip has ${this.rxc.length} cluster(s)`);
    this.rxc[cluster]!.receive(page, now);
  }

  /** TxDMA of granted pages (§10.7.7, §12.3): a Tx page context and TxBuf space per page, one word per cycle per pipe. */
  private txdma(now: number): boolean {
    let did = false;
    const t = this.params.txdma;
    for (let p = 0; p < this.pipeQueue.length; p++) {
      const queue = this.pipeQueue[p]!;
      while (queue.length > 0 && this.pipeFreeAt[p]! <= now) {
        const q = queue[0]!;
        // a page of a failed job is flushed from its VOQ, not read from AMEM (§10.7.1.1, §11.8), when the fabric can
        if (q.type === 'rdma_data' && this.egress.discard && this.txc[q.cluster]!.isFailed(q.job)) {
          queue.shift();
          const sl = this.slotOf.get(q)!;
          this.slotOf.delete(q);
          sl.ready = now;
          sl.flush = { srcChip: this.chip, srcCluster: q.cluster, voq: q.voq, dest: q.dest, qpage: q.id, wireBytes: 16 + q.payloadBytes, type: q.type };
          this.clusterStats[q.cluster]!.tx_pages_flushed++;
          this.release(q.cluster * 8192 + q.voq);
          did = true;
          continue;
        }
        const data = q.type === 'rdma_data' || q.type === 'datagram';
        const words = data ? Math.ceil(q.payloadBytes / 128) : 1;
        if (this.txbufUsed[p]! + words > this.txbufWords) break;
        queue.shift();
        this.txbufUsed[p]! += words;
        let payload: Uint8Array | null = null;
        let ready = now + t.encap_latency_cycles;
        if (data) {
          const amem = this.deps.amem[q.cluster]!;
          let served = now;
          if (!this.timingOnly) {
            payload = amem.readBytes(q.addr, q.payloadBytes, CLIENT_TXDMA);
            served = Math.max(now, amem.servedAt ?? now);
          } else if (amem.banks?.clock) served = Math.max(now, amem.banks.access(CLIENT_TXDMA, q.addr, q.payloadBytes));
          const dur = Math.ceil(words / t.words_per_cycle_per_pipe);
          this.pipeFreeAt[p] = served + dur;
          // the words cross the cluster's core-switch egress (shared with the ICDMA engines, chip §9, §12.3)
          const out = this.deps.coreSwitch ? this.deps.coreSwitch.egress[q.cluster]!.reserve(served, q.payloadBytes) : served;
          ready = Math.max(served + dur, out) + t.latency_cycles + t.encap_latency_cycles;
          this.clusterStats[q.cluster]!.txdma_words += words;
          if (q.type === 'rdma_data') this.clusterStats[q.cluster]!.tx_data_bytes += q.payloadBytes;
          if (q.type === 'datagram') {
            const txq = q.txq;
            const slot = q.slot;
            const tx = this.txc[q.cluster]!;
            this.schedule(ready - t.encap_latency_cycles, () => tx.datagramRead(txq, slot));
          }
        }
        const header = encodeHeader({ page_type: q.type, tjid: q.tjid, rjid: q.rjid, epoch: q.epoch, retry: q.retry, last_page: q.last, rxq_index: q.rxq, page_size_bytes: data ? q.payloadBytes : 0, page_seq_num: q.seq & 0x7ff });
        const page: FabricPage = {
          srcChip: this.chip, srcCluster: q.cluster, voq: q.voq, dest: q.dest, qpage: q.id,
          wireBytes: data ? 16 + q.payloadBytes : this.params.messages.page_bytes, type: q.type,
          header, payload, payloadBytes: data ? q.payloadBytes : 0, tjid: q.tjid, rjid: q.rjid, seq: q.seq,
        };
        // pages of one VOQ are handed to the fabric in grant order (MODEL: the fabric's reorder, §10.8 [3], keeps VOQ order)
        const sl = this.slotOf.get(q)!;
        this.slotOf.delete(q);
        sl.ready = ready;
        sl.words = words;
        sl.page = page;
        this.release(q.cluster * 8192 + q.voq);
        did = true;
      }
    }
    return did;
  }

  get busy(): boolean {
    if (this.events.length > 0) return true;
    for (const q of this.pipeQueue) if (q.length > 0) return true;
    for (let c = 0; c < this.txc.length; c++) if (this.txc[c]!.busy || this.rxc[c]!.busy) return true;
    return false;
  }

  tick(now: number): boolean {
    let did = false;
    while (this.events.length > 0 && this.events[0]!.at <= now) {
      this.popEvent().fn(now);
      did = true;
    }
    const n = this.txc.length;
    // Rx first (messages received reach the Tx job managers this cycle), clusters from a rotating start
    for (let i = 0; i < n; i++) if (this.rxc[(this.rrCluster + i) % n]!.tick(now)) did = true;
    for (let i = 0; i < n; i++) if (this.txc[(this.rrCluster + i) % n]!.tick(now)) did = true;
    this.rrCluster = (this.rrCluster + 1) % n;
    if (this.txdma(now)) did = true;
    return did;
  }

  nextWake(now: number): number {
    let w = this.events.length > 0 ? this.events[0]!.at : Infinity;
    for (let p = 0; p < this.pipeQueue.length; p++) if (this.pipeQueue[p]!.length > 0 && this.pipeFreeAt[p]! > now && this.pipeFreeAt[p]! < w) w = this.pipeFreeAt[p]!;
    for (let c = 0; c < this.txc.length; c++) w = Math.min(w, this.txc[c]!.wakeHint(now), this.rxc[c]!.wakeHint(now));
    return Math.max(now, w);
  }

  stallCode(): number {
    return 0;
  }

  blockedReason(): string | undefined {
    const parts: string[] = [];
    for (let c = 0; c < this.txc.length; c++) parts.push(...this.txc[c]!.blockedReason(), ...this.rxc[c]!.blockedReason());
    const granted = this.pipeQueue.reduce((a, q) => a + q.length, 0);
    if (granted) parts.push(`${granted} granted page(s) waiting for TxBuf space`);
    return parts.length ? parts.join('; ') : undefined;
  }

  /** Wait-graph lines: every failed job (nothing is lost silently). */
  explain(): string[] {
    return this.failures.map((f) => `${FabricCodes.jobFailed}: ${describeFailure(f)}`);
  }

  /** Statistics for the report (per cluster; failures named). */
  report(): { chip: number; clusters: FabricClusterStats[]; failures: FabricJobFailure[]; failed_interrupts: number[]; qpages_in_use: number } {
    return { chip: this.chip, clusters: this.clusterStats, failures: this.failures, failed_interrupts: this.failedInterrupts, qpages_in_use: this.qpages.length - this.freeQ.length };
  }
}
