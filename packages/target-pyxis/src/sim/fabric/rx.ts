/**
 * The Rx side of one cluster (chip §10.8): the Rx job manager and Rx Job Table (Table 10-2, indexed by RJID) fed by
 * the two RDMA Rx queues after their barrier wait; CTS sent when a job is set up (with one retried CTS after a data
 * wait timeout); the OQs of the cluster (4, round-robin), header decapsulation (CRC check), the per-page checks of
 * §10.8.8 (job ids, epoch, retry bit, sequence number, overrun), the Rx DMA into AMEM as a bank client with the 16
 * write-completion tracking ids (§10.8.8, §11.7.2), ACK / NACK and the completion notifications; datagrams into the
 * RxQ rings (§10.8.1.3, §11.5.2.2). Transaction-level per page (docs/timing-model.md "Fabric adapter").
 */
import type { Trip } from '../trip.js';
import { runtimeError } from '../diagnostics.js';
import { CLIENT_RXDMA } from '../amem/clients.js';
import { AMEM_BYTES, AMEM_VIEW_BIT } from '../../common/amem.js';
import type { AdapterCore } from './core.js';
import { decodeHeader } from './header.js';
import { FabricCodes } from './params.js';
import type { FabricDestination, FabricPage } from './port.js';
import { DescriptorPrefetch, type DatagramRing } from './rings.js';
import type { DropReason } from './stats.js';
import type { TxCluster } from './tx.js';

/** Largest datagram and datagram buffer: 127 x 128 bytes (§11.4.8-11.4.9, §10.6). */
const MAX_DATAGRAM_BYTES = 16256;

export const enum RxState {
  DataWait = 0,
  Active = 1,
  Commit = 2,
  Failed = 3,
}
const STATE_NAMES = ['Rx data wait', 'Rx data active', 'committing (last page written)', 'Job Failed'];

export interface RxJob {
  trip: Trip;
  rjid: number;
  tjid: number;
  msgVoq: number;
  msgDest: FabricDestination;
  base: number;
  totalWords: number;
  epoch: number;
  retry: number;
  state: RxState;
  ctsRetried: boolean;
  deadline: number;
  wordsReceived: number;
  nextSeq: number;
  /** A page of this attempt was lost (sequence gap) or overran the job: NACK at its end (§10.8.8). */
  error: boolean;
  /** What the error was (for the failure report). */
  errorWhy: string;
  /** Pages with this job's TJID but another epoch (dropped as stale; named in a failure report). */
  otherEpochPages: number;
  pendingCommits: number;
  startAt: number;
}

export class RxCluster {
  readonly jobs: Array<RxJob | null>;
  readonly epoch: Uint8Array;
  readonly failedVector: Uint8Array;
  readonly rdmaFifo: Trip[][] = [[], []];
  readonly rxq: Array<DatagramRing | null> = [null, null];
  /** Per RxQ: the descriptors the DPE prefetched (§11.5.2.2, §12.5). */
  private readonly rxqFifo = [new DescriptorPrefetch(), new DescriptorPrefetch()];
  /** The cluster's four OQs (§10.8.5): pages whole in the Rx CBUF, waiting for the page reader / Rx DMA. */
  private readonly oq: Array<Array<{ page: FabricPage; at: number }>> = [[], [], [], []];
  private rrOq = 0;
  private rrQueue = 0;
  private nextAccept = 0;
  private rxdmaFreeAt = 0;
  private lastCommit = 0;
  private trackingInUse = 0;
  private readonly active = new Set<RxJob>();
  /** Per RJID: the last job completed (its TJID, epoch and message VOQ), to re-ACK a retried job whose ACK was lost. */
  private readonly lastDone: Array<{ tjid: number; epoch: number; msgVoq: number; msgDest: FabricDestination } | null>;
  tx!: TxCluster;

  constructor(
    readonly cluster: number,
    private readonly core: AdapterCore,
    private readonly commitLatency: number,
  ) {
    const n = core.params.job_tables.rx_jobs_per_cluster;
    this.jobs = new Array<RxJob | null>(n).fill(null);
    this.epoch = new Uint8Array(n);
    this.failedVector = new Uint8Array(n);
    this.lastDone = new Array(n).fill(null);
  }

  get busy(): boolean {
    return this.active.size > 0 || this.rdmaFifo[0]!.length + this.rdmaFifo[1]!.length > 0 || this.queuedPages() > 0 || this.trackingInUse > 0 || this.prefetchWanted(0) || this.prefetchWanted(1);
  }
  private queuedPages(): number {
    return this.oq[0]!.length + this.oq[1]!.length + this.oq[2]!.length + this.oq[3]!.length;
  }

  canAccept(q: number): boolean {
    return this.rdmaFifo[q]!.length < this.core.params.descriptor_fifos.rdma_rx_depth;
  }

  /** A whole page arrived for this cluster in OQ `page.dest.oq` (§10.8 [5]). */
  receive(page: FabricPage, now: number): void {
    this.oq[page.dest.oq & 3]!.push({ page, at: now });
  }

  clearFailed(rjid: number): void {
    const j = this.jobs[rjid];
    if (j && j.state === RxState.Failed) {
      this.jobs[rjid] = null;
      this.epoch[rjid] ^= 1;
    }
    this.failedVector[rjid] = 0;
  }

  private message(j: RxJob, type: 'cts' | 'ack' | 'nack', retry: number): void {
    this.core.sendMessage(this.cluster, { type, tjid: j.tjid, rjid: j.rjid, epoch: j.epoch, retry, voq: j.msgVoq, dest: j.msgDest });
  }

  private fail(j: RxJob, now: number, reason: string): void {
    j.state = RxState.Failed;
    this.active.delete(j);
    // §11.8: with the sticky state inhibited the entry goes directly to Idle; later pages of the job find no Rx job
    // and are discarded ("any subsequently arriving fabric data will be discarded")
    const inhibited = this.core.inhibitFailed(this.cluster);
    if (inhibited) {
      this.jobs[j.rjid] = null;
      this.epoch[j.rjid] ^= 1;
    } else this.failedVector[j.rjid] = 1;
    this.core.stats(this.cluster).rx_jobs_failed++;
    this.core.slice(this.cluster, 'rx', j.startAt, now, `RJID ${j.rjid} FAILED`, { tjid: j.tjid, rjid: j.rjid, reason });
    this.core.failed({ chip: this.core.chip, cluster: this.cluster, side: 'rx', tjid: j.tjid, rjid: j.rjid, epoch: j.epoch, tripId: j.trip.tripId, cycle: now, reason, ...(inhibited ? { inhibited } : {}) });
  }

  /** The end of an attempt with an error: NACK, then the retry (§10.8.1.1) or, on the retried job, Job Failed. */
  private nack(j: RxJob, now: number, why: string): void {
    this.core.stats(this.cluster).rx_nacks_sent++;
    this.message(j, 'nack', j.retry);
    if (j.retry === 1) return this.fail(j, now, `${why} on the retried job`);
    j.retry = 1;
    j.wordsReceived = 0;
    j.nextSeq = 0;
    j.error = false;
    j.errorWhy = '';
    j.state = RxState.Active;
    j.deadline = now + this.core.params.timers.rx_job_completion_timeout_cycles;
  }

  private finish(j: RxJob, now: number): void {
    this.message(j, 'ack', j.retry);
    this.active.delete(j);
    this.jobs[j.rjid] = null;
    this.epoch[j.rjid] ^= 1;
    this.lastDone[j.rjid] = { tjid: j.tjid, epoch: j.epoch, msgVoq: j.msgVoq, msgDest: j.msgDest };
    this.core.stats(this.cluster).rx_jobs_completed++;
    this.core.slice(this.cluster, 'rx', j.startAt, now, `RJID ${j.rjid} <- TJID ${j.tjid}`, { tjid: j.tjid, rjid: j.rjid, epoch: j.epoch, retry: j.retry, words: j.totalWords, trip_id: j.trip.tripId });
    this.core.tripDone(j.trip, now);
  }

  private acceptJob(now: number): boolean {
    for (let i = 0; i < 2; i++) {
      const q = (this.rrQueue + i) % 2;
      const trip = this.rdmaFifo[q]![0];
      if (!trip) continue;
      const f = trip.fields;
      const what = `c${this.cluster}.rdma_rx${q} trip ${trip.tripId}`;
      const rjid = Number(f['rjid']);
      if (rjid >= this.jobs.length) throw runtimeError(FabricCodes.badRdmaDescriptor, `${what}: RJID ${rjid} beyond the ${this.jobs.length}-entry Rx Job Table`, '§10.8.2', now);
      const old = this.jobs[rjid];
      if (old && old.state !== RxState.Failed) throw runtimeError(FabricCodes.jobIdInUse, `${what}: RJID ${rjid} is still active (${STATE_NAMES[old.state]}, trip ${old.trip.tripId}); software must not re-use an Rx Job ID before its job retires`, '§10.4', now);
      if (this.failedVector[rjid]) continue;
      const words = Number(f['num_words']);
      if (!(words >= 1 && words <= 65536)) throw runtimeError(FabricCodes.badRdmaDescriptor, `${what}: NumWords ${words} is outside [1, 65536]`, '§11.4.7', now);
      const base = Number(f['amem_address']) * 128;
      if ((base & (AMEM_VIEW_BIT - 1)) + words * 128 > AMEM_BYTES) throw runtimeError(FabricCodes.badRange, `${what}: AMEM range 0x${base.toString(16)} + ${words} words runs past the 64 MiB AMEM`, '§11.4.7', now);
      const msgVoq = Number(f['msg_voq']);
      const j: RxJob = {
        trip, rjid, tjid: Number(f['tjid']), msgVoq, msgDest: this.core.dest(msgVoq, what, now), base, totalWords: words, epoch: this.epoch[rjid]!, retry: 0,
        state: RxState.DataWait, ctsRetried: false, deadline: now + this.core.params.timers.rx_data_wait_timeout_cycles,
        wordsReceived: 0, nextSeq: 0, error: false, errorWhy: '', otherEpochPages: 0, pendingCommits: 0, startAt: now,
      };
      this.rdmaFifo[q]!.shift();
      this.rrQueue = (q + 1) % 2;
      this.jobs[rjid] = j;
      this.lastDone[rjid] = null;
      this.active.add(j);
      this.core.stats(this.cluster).rx_jobs_started++;
      this.message(j, 'cts', 0); // CTS when the Rx Job Table entry is written (§10.8.1.1)
      return true;
    }
    return false;
  }

  private drop(reason: DropReason): void {
    this.core.stats(this.cluster).rx_drops[reason]++;
  }

  /** Writes `bytes` of the page at `addr` as the Rx DMA (bank client), returns the commit cycle (in order). */
  private write(addr: number, page: FabricPage, words: number, now: number): number {
    const amem = this.core.amem(this.cluster);
    let served = now;
    if (page.payload && !this.core.timingOnly) {
      amem.writeBytes(addr, page.payload.subarray(0, page.payloadBytes), CLIENT_RXDMA);
      served = Math.max(now, amem.servedAt ?? now);
    } else if (amem.banks?.clock) served = Math.max(now, amem.banks.access(CLIENT_RXDMA, addr, page.payloadBytes));
    const r = this.core.params.rxdma;
    // the flits cross the cluster's core-switch ingress (shared with incoming ICDMA, chip §9, §12.4)
    const last = Math.max(served + r.decap_latency_cycles + Math.ceil(words / r.words_per_cycle), this.core.ingress(this.cluster, served + r.decap_latency_cycles, page.payloadBytes));
    const commit = Math.max(this.lastCommit, last + this.commitLatency);
    this.lastCommit = commit;
    this.core.stats(this.cluster).rxdma_words += words;
    return commit;
  }

  /**
   * The OQM scheduler (§10.8.5 "simple priority + round-robin"): the high-priority OQs (rx_oqm.oq_priority) first,
   * round-robin among those whose head page can go now (a data page needs a write-completion tracking id, §10.8.8),
   * then the low ones; -1 if none.
   */
  private eligibleOq(): number {
    const idFree = this.trackingInUse < this.core.params.rxdma.tracking_ids;
    const prio = this.core.params.rx_oqm.oq_priority;
    for (const level of ['high', 'low'] as const)
      for (let i = 0; i < 4; i++) {
        const k = (this.rrOq + i) % 4;
        if (prio[k] !== level) continue;
        const head = this.oq[k]![0];
        if (head && (idFree || !(head.page.type === 'rdma_data' || head.page.type === 'datagram'))) return k;
      }
    return -1;
  }

  /** The Rx DMA takes the next page from the OQs (round-robin, §10.8.5) and processes it (§10.8.7-10.8.8). */
  private rxdma(now: number): boolean {
    if (now < this.rxdmaFreeAt || this.queuedPages() === 0) return false;
    const q = this.eligibleOq();
    if (q < 0) return false;
    const { page, at } = this.oq[q]![0]!;
    // the page could have started at max(arrival, engine free): any later start waited for a tracking id (§10.8.8)
    const could = Math.max(at, this.rxdmaFreeAt);
    if (now > could) this.core.stats(this.cluster).rx_tracking_stall_cycles += now - could;
    this.oq[q]!.shift();
    this.rrOq = (q + 1) % 4;
    const words = Math.ceil(page.payloadBytes / 128);
    this.rxdmaFreeAt = now + Math.max(1, Math.ceil(words / this.core.params.rxdma.words_per_cycle));
    // the page reader has read every cell of the page out of the Rx CBUF when the Rx DMA has taken its last flit:
    // the cells are free for the grant scheduler (§10.8 [8], §10.8.3)
    this.core.schedule(this.rxdmaFreeAt, (t) => this.core.egress.rxCellsFreed?.(t, page));
    const h = page.corrupt ? null : decodeHeader(page.header);
    if (!h) return this.drop('crc'), true;
    if (h.page_type === 'cts' || h.page_type === 'ack' || h.page_type === 'nack') {
      this.tx.onMessage(h.page_type, h.tjid, h.epoch, h.retry, now);
      return true;
    }
    if (h.page_type === 'datagram') {
      // §10.8.8: the page length from the page reader (16-B chunks) must match the header's; else the page is dropped
      if (Math.ceil(h.page_size_bytes / 16) !== Math.ceil(page.payloadBytes / 16)) {
        this.core.stats(this.cluster).rxq_dropped[h.rxq_index & 1]++;
        return this.drop('length_mismatch'), true;
      }
      return this.datagram(page, h.rxq_index, now), true;
    }
    const st = this.core.stats(this.cluster);
    const j = h.rjid < this.jobs.length ? this.jobs[h.rjid] : null;
    if (!j) {
      // the last page of a retried job that already completed here: its ACK was lost, ACK again (MODEL, spec notes)
      const d = h.rjid < this.jobs.length ? this.lastDone[h.rjid] : null;
      if (d && d.tjid === h.tjid && d.epoch === h.epoch) {
        if (h.last_page && h.retry === 1) this.core.sendMessage(this.cluster, { type: 'ack', tjid: d.tjid, rjid: h.rjid, epoch: d.epoch, retry: 1, voq: d.msgVoq, dest: d.msgDest });
        return this.drop('stale'), true;
      }
      return this.drop('no_rx_job'), true;
    }
    // a page of the retried job while this side still waits for the first attempt (the Tx side's ACK-wait timer
    // expired first, as §10.8.1.1 intends): the job restarts with the retry (MODEL, spec notes)
    if (h.retry === 1 && j.retry === 0 && j.tjid === h.tjid && j.epoch === h.epoch && (j.state === RxState.DataWait || j.state === RxState.Active)) {
      j.retry = 1;
      j.wordsReceived = 0;
      j.nextSeq = 0;
      j.error = false;
      j.errorWhy = '';
    }
    if (j.state === RxState.Failed || j.state === RxState.Commit || j.tjid !== h.tjid || j.epoch !== h.epoch || j.retry !== h.retry) {
      if (j.tjid === h.tjid && j.epoch !== h.epoch) j.otherEpochPages++;
      return this.drop('stale'), true;
    }
    const pw = h.page_size_bytes / 128;
    j.state = RxState.Active;
    j.deadline = now + this.core.params.timers.rx_job_completion_timeout_cycles;
    if (h.page_seq_num !== j.nextSeq) {
      st.rx_sequence_gaps++;
      if (!j.error) j.errorWhy = `lost or out-of-sequence page (sequence number ${h.page_seq_num}, expected ${j.nextSeq})`;
      j.error = true;
    }
    j.nextSeq = h.page_seq_num + 1;
    if (j.wordsReceived + pw > j.totalWords) {
      if (!j.error) j.errorWhy = `overrun: the Tx job sends more than the Rx job's NumWords (${j.totalWords}) (§10.8.8)`;
      j.error = true;
      this.drop('overrun');
    } else if (j.error) {
      this.drop('after_error');
      j.wordsReceived += pw;
    } else {
      const commit = this.write(j.base + j.wordsReceived * 128, page, pw, now);
      j.wordsReceived += pw;
      j.pendingCommits++;
      this.trackingInUse++;
      st.rx_pages++;
      st.rx_data_bytes += page.payloadBytes;
      this.core.schedule(commit, (t) => {
        this.trackingInUse--;
        j.pendingCommits--;
        if (j.state === RxState.Commit && j.pendingCommits === 0) this.finish(j, t);
      });
    }
    if (h.last_page) {
      if (j.error || j.wordsReceived !== j.totalWords) this.nack(j, now, j.error ? j.errorWhy : `short job: the last page came after ${j.wordsReceived} of the Rx job's ${j.totalWords} words (lost pages, or the Tx job's NumWords is smaller)`);
      else {
        j.state = RxState.Commit;
        j.deadline = Infinity;
        if (j.pendingCommits === 0) this.finish(j, now);
      }
    }
    return true;
  }

  /** A datagram page (§10.8.8 "For Datagram pages"): the RxQ's next prefetched descriptor, or a counted drop. */
  private datagram(page: FabricPage, rxq: number, now: number): void {
    const ring = this.rxq[rxq];
    const fifo = this.rxqFifo[rxq]!.fifo;
    const d = fifo[0];
    const st = this.core.stats(this.cluster);
    if (!ring || !d) return void st.rxq_dropped[rxq]!++, this.drop('rxq_empty');
    if (page.payloadBytes > d.fields['buffer_size_bytes']!) return void st.rxq_dropped[rxq]!++, this.drop('rxq_too_small');
    st.rxq_accepted[rxq]!++;
    fifo.shift();
    const commit = this.write(d.fields['amem_address']! * 128, page, Math.ceil(page.payloadBytes / 128), now);
    this.trackingInUse++;
    st.rx_datagrams++;
    st.rx_data_bytes += page.payloadBytes;
    this.core.schedule(commit, () => {
      this.trackingInUse--;
      ring.writePacketSize(d.index, d.fields['amem_address']!, page.payloadBytes);
      ring.advanceHead();
      this.core.dgramInterrupt(this.cluster, 2 + rxq); // §11.5.2.2: the filled buffer is visible to software
    });
  }

  /** Free descriptors of RxQ `q` the DPE should prefetch now: the ring has some and the FIFO has room. */
  private prefetchWanted(q: number): boolean {
    return this.rxqFifo[q]!.wanted(this.rxq[q] ?? null, this.core.params.descriptor_fifos.dgram_rx_prefetch_depth);
  }

  /**
   * The DPE keeps each RxQ's descriptor FIFO topped up (§10.8.8, §11.5.2.2, §12.5): one read per free descriptor
   * between the prefetch and tail pointers while the FIFO has room; each lands `descriptorFetchCycles` later.
   */
  private prefetch(now: number): boolean {
    let did = false;
    for (let q = 0; q < 2; q++)
      did =
        this.rxqFifo[q]!.fill(this.rxq[q] ?? null, this.core.params.descriptor_fifos.dgram_rx_prefetch_depth, now, this.core.descriptorFetchCycles, (at, fn) => this.core.schedule(at, fn), (d) => {
          const size = d.fields['buffer_size_bytes']!;
          if (size > MAX_DATAGRAM_BYTES)
            throw runtimeError(FabricCodes.badDgramRxDescriptor, `c${this.cluster}.dgram_rx${q} descriptor ${d.index}: BufferSizeBytes ${size} exceeds the maximum legal value ${MAX_DATAGRAM_BYTES} (127 x 128 bytes)`, '§11.4.9', now);
        }) || did;
    return did;
  }

  private timers(now: number): boolean {
    let did = false;
    let due = false;
    for (const j of this.active) if (now >= j.deadline) due = true;
    if (!due) return false;
    for (const j of [...this.active]) {
      if (now < j.deadline) continue;
      did = true;
      if (j.state === RxState.DataWait) {
        if (!j.ctsRetried) {
          j.ctsRetried = true;
          this.core.stats(this.cluster).rx_cts_retries++;
          this.message(j, 'cts', 1);
          j.deadline = now + this.core.params.timers.rx_data_wait_timeout_cycles;
        } else {
          const hint = j.otherEpochPages ? `; ${j.otherEpochPages} page(s) of TJID ${j.tjid} with epoch ${j.epoch ^ 1} arrived (this job has epoch ${j.epoch}): Tx and Rx used the TJID / RJID pair a different number of times (§10.4)` : '';
          this.fail(j, now, `second Rx data-wait timeout after the retried CTS (no data within timers.rx_data_wait_timeout_cycles = ${this.core.params.timers.rx_data_wait_timeout_cycles})${hint}`);
        }
      } else if (j.state === RxState.Active) this.nack(j, now, `job-completion timeout (no page within timers.rx_job_completion_timeout_cycles = ${this.core.params.timers.rx_job_completion_timeout_cycles})`);
      else j.deadline = Infinity;
    }
    return did;
  }

  tick(now: number): boolean {
    let did = this.prefetch(now);
    if (this.active.size > 0 && this.timers(now)) did = true;
    if (now >= this.nextAccept && this.acceptJob(now)) {
      this.nextAccept = now + this.core.params.page_generator.job_manager_cycles_per_job;
      did = true;
    }
    if (this.rxdma(now)) did = true;
    return did;
  }

  wakeHint(now: number): number {
    if (this.prefetchWanted(0) || this.prefetchWanted(1)) return now;
    let w = Infinity;
    for (const j of this.active) if (j.deadline < w) w = j.deadline;
    if (this.rdmaFifo[0]!.length + this.rdmaFifo[1]!.length > 0 && this.nextAccept > now && this.nextAccept < w) w = this.nextAccept;
    if (this.queuedPages() > 0 && this.rxdmaFreeAt < w && this.eligibleOq() >= 0) w = Math.max(now, this.rxdmaFreeAt);
    return w;
  }

  blockedReason(): string[] {
    const out: string[] = [];
    for (const j of this.active)
      out.push(`c${this.cluster} Rx RJID ${j.rjid} <- TJID ${j.tjid} (msg VOQ ${j.msgVoq}, trip ${j.trip.tripId}): ${STATE_NAMES[j.state]}${j.retry ? ' (retry)' : ''}, ${j.wordsReceived}/${j.totalWords} words received`);
    for (let q = 0; q < 2; q++) {
      const t = this.rdmaFifo[q]![0];
      if (t) out.push(`c${this.cluster}.rdma_rx${q} trip ${t.tripId} waits: RJID ${Number(t.fields['rjid'])} is in the sticky Job Failed state`);
    }
    return out;
  }
}
