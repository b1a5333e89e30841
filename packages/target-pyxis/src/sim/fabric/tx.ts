/**
 * The Tx job manager and page generator of one cluster (chip §10.7.1-10.7.3): RDMA Tx descriptors from the two RDMA
 * Tx queues (after their barrier wait) and datagrams from the two TxQ rings, round-robin over the four queues; the
 * VOQ-Active lock; the Tx Job Table (Table 10-1, indexed by TJID) with CTS wait, Tx Active, ACK wait, one retry and
 * the sticky Job Failed state; PGen channels (high / low priority + round-robin, one reserved for messages); the
 * occupancy limiter (per-VOQ XOFF / XON profiles with hysteresis, high / low groups, the cluster cap).
 * Transaction-level per page (docs/timing-model.md "Fabric adapter").
 */
import type { Trip } from '../trip.js';
import { FabricCodes } from './params.js';
import type { AdapterCore, OutMessage, QPage } from './core.js';
import { DescriptorPrefetch, type DatagramRing } from './rings.js';
import type { FabricDestination } from './port.js';
import { runtimeError } from '../diagnostics.js';
import { AMEM_BYTES, AMEM_VIEW_BIT } from '../../common/amem.js';

export const enum TxState {
  CtsWait = 0,
  PgenWait = 1,
  Active = 2,
  Drain = 3,
  AckWait = 4,
  Failed = 5,
}
const STATE_NAMES = ['CTS wait', 'PGen wait', 'Tx active', 'Tx active (draining)', 'ACK wait', 'Job Failed'];

export interface TxJob {
  trip: Trip;
  tjid: number;
  rjid: number;
  voq: number;
  dest: FabricDestination;
  base: number;
  totalWords: number;
  pageWords: number;
  epoch: number;
  retry: number;
  state: TxState;
  ctsReceived: boolean;
  deadline: number;
  wordsGenerated: number;
  seq: number;
  /** Pages enqueued and not yet dequeued (both attempts). */
  outstanding: number;
  high: boolean;
  profile: number;
  lockHeld: boolean;
  startAt: number;
}

/** A PGen channel's work: an RDMA job, one datagram or one message (§10.7.3). */
interface Channel {
  job: TxJob | null;
  dg: { txq: number; slot: number; addr: number; bytes: number; rxq: number; voq: number; dest: FabricDestination } | null;
  msg: OutMessage | null;
}

const MSG_TYPES = { cts: 'cts', ack: 'ack', nack: 'nack' } as const;

export class TxCluster {
  /** Tx Job Table by TJID (Table 10-1); null = idle. */
  readonly jobs: Array<TxJob | null>;
  /** Epoch of the next job per TJID (§10.4: starts at 0, toggled when a job retires). */
  readonly epoch: Uint8Array;
  /** CTS received before its job (§10.3: 'before or after'): the epoch + 1 of the CTS per TJID, 0 = none. */
  private readonly earlyCts: Uint8Array;
  /** Per TJID: the last unexpected CTS (a duplicate, or one of the wrong epoch): cycle + 1 and epoch, for failure reports. */
  private readonly staleCtsAt: Float64Array;
  private readonly staleCtsEpoch: Uint8Array;
  /** Sticky Job Failed vector (§10.7.1.2), one bit per TJID. */
  readonly failedVector: Uint8Array;
  /** The shallow descriptor FIFOs of the RDMA Tx queues (after the barrier wait, §10.7.1). */
  readonly rdmaFifo: Trip[][] = [[], []];
  /** The datagram TxQ rings (dgram_tx0/1), when configured. */
  readonly txq: Array<DatagramRing | null> = [null, null];
  /** Per TxQ: descriptors the DPE prefetched (ring index, fields) and reads in flight (§11.5.2.1, §12.5). */
  private readonly txqFifo = [new DescriptorPrefetch(), new DescriptorPrefetch()];
  /** Per TxQ: datagrams in PGen / in flight, and done flags by ring slot (§10.7.1.4 reorder). */
  private readonly dgOutstanding = [0, 0];
  private readonly dgDone: Uint8Array[] = [new Uint8Array(0), new Uint8Array(0)];
  /**
   * Per-VOQ configuration of this cluster's PGen (cluster.fabric_voq_config, grammars/pyxis/fabric_voq_config.json):
   * occupancy profile (§10.7.3.1) and high priority / group (§10.7.3, §10.7.3.1); reset to the JSON defaults.
   */
  readonly voqProfile = new Uint8Array(8192);
  readonly voqHigh = new Uint8Array(8192);
  private readonly voqLock = new Uint8Array(8192);
  private readonly voqCount = new Int32Array(8192);
  private readonly voqXoff = new Uint8Array(8192);
  private readonly xoffSince = new Float64Array(8192);
  private readonly groupCount = [0, 0];
  private total = 0;
  private rrQueue = 0;
  private nextAccept = 0;
  private nextPage = 0;
  private rrChannel = 0;
  private rrPgen = 0;
  private readonly channels: Channel[] = [];
  private readonly messages: OutMessage[] = [];
  /** Jobs in the table that are not idle or failed (timers), in TJID order when scanned. */
  private readonly active = new Set<TxJob>();

  constructor(
    readonly cluster: number,
    private readonly core: AdapterCore,
  ) {
    const n = core.params.job_tables.tx_jobs_per_cluster;
    this.jobs = new Array<TxJob | null>(n).fill(null);
    this.epoch = new Uint8Array(n);
    this.earlyCts = new Uint8Array(n);
    this.staleCtsAt = new Float64Array(n);
    this.staleCtsEpoch = new Uint8Array(n);
    this.failedVector = new Uint8Array(n);
    this.voqProfile.fill(core.params.occupancy.default_profile);
    this.voqHigh.fill(core.params.occupancy.default_priority === 'high' ? 1 : 0);
  }

  get busy(): boolean {
    return this.active.size > 0 || this.rdmaFifo[0]!.length + this.rdmaFifo[1]!.length > 0 || this.messages.length > 0 || this.channels.length > 0 || this.dgOutstanding[0]! + this.dgOutstanding[1]! > 0 || this.dgPending();
  }
  private dgPending(): boolean {
    for (let q = 0; q < 2; q++) if (this.txqFifo[q]!.fifo.length > 0 || this.dgPrefetchWanted(q)) return true;
    return false;
  }
  /** The DPE should prefetch TxQ `q`'s next descriptor now: the ring has valid ones and the FIFO has room (§11.5.2.1). */
  private dgPrefetchWanted(q: number): boolean {
    return this.txqFifo[q]!.wanted(this.txq[q] ?? null, this.core.params.descriptor_fifos.dgram_tx_depth);
  }
  /** The DPE moves TxQ descriptors into the shallow hardware FIFOs, each `descriptorFetchCycles` after its read (§12.5). */
  private dgPrefetch(now: number): boolean {
    let did = false;
    for (let q = 0; q < 2; q++) did = this.txqFifo[q]!.fill(this.txq[q] ?? null, this.core.params.descriptor_fifos.dgram_tx_depth, now, this.core.descriptorFetchCycles, (at, fn) => this.core.schedule(at, fn)) || did;
    return did;
  }

  canAccept(q: number): boolean {
    return this.rdmaFifo[q]!.length < this.core.params.descriptor_fifos.rdma_tx_depth;
  }

  /** Whether `job` (a QPage's) is in the Job Failed state or went to Idle by failing (its pages are flushed, §11.8). */
  isFailed(job: unknown): boolean {
    return !!job && (job as TxJob).state === TxState.Failed;
  }

  /** A CTS for the next job of `tjid` arrived before the job (§10.3; the Idle entry's 'CTS received', Table 10-1). */
  ctsBeforeJob(tjid: number): boolean {
    return this.earlyCts[tjid] === this.epoch[tjid]! + 1;
  }

  queueMessage(m: OutMessage): void {
    this.messages.push(m);
  }

  /** The earliest cycle at which a timer of this cluster expires. */
  nextDeadline(): number {
    let w = Infinity;
    for (const j of this.active) if (j.deadline < w) w = j.deadline;
    return w;
  }

  private fail(j: TxJob, now: number, reason: string): void {
    this.core.stats(this.cluster).tx_jobs_failed++;
    this.releaseChannel(j);
    if (j.lockHeld) {
      this.voqLock[j.voq] = 0;
      j.lockHeld = false;
    }
    j.state = TxState.Failed;
    this.active.delete(j);
    // §11.8: with the sticky state inhibited the entry goes directly to Idle (epoch toggled as on a software clear)
    const inhibited = this.core.inhibitFailed(this.cluster);
    if (inhibited) {
      this.jobs[j.tjid] = null;
      this.epoch[j.tjid] ^= 1;
    } else this.failedVector[j.tjid] = 1;
    this.core.slice(this.cluster, 'tx', j.startAt, now, `TJID ${j.tjid} FAILED`, { tjid: j.tjid, rjid: j.rjid, reason });
    this.core.failed({ chip: this.core.chip, cluster: this.cluster, side: 'tx', tjid: j.tjid, rjid: j.rjid, epoch: j.epoch, tripId: j.trip.tripId, cycle: now, reason, ...(inhibited ? { inhibited } : {}) });
  }

  /** Software clears the sticky Job Failed state of TJID `tjid` (§10.7.1.2): the entry goes back to Idle. */
  clearFailed(tjid: number): void {
    const j = this.jobs[tjid];
    if (j && j.state === TxState.Failed) {
      this.jobs[tjid] = null;
      this.epoch[tjid] ^= 1;
    }
    this.failedVector[tjid] = 0;
  }

  private releaseChannel(j: TxJob): void {
    const i = this.channels.findIndex((c) => c.job === j);
    if (i >= 0) this.channels.splice(i, 1);
  }

  private retire(j: TxJob, now: number): void {
    this.active.delete(j);
    this.jobs[j.tjid] = null;
    this.epoch[j.tjid] ^= 1;
    this.core.stats(this.cluster).tx_jobs_completed++;
    this.core.slice(this.cluster, 'tx', j.startAt, now, `TJID ${j.tjid} -> RJID ${j.rjid}`, { tjid: j.tjid, rjid: j.rjid, epoch: j.epoch, retry: j.retry, words: j.totalWords, trip_id: j.trip.tripId });
    this.core.tripDone(j.trip, now);
  }

  /** A job's attempt failed (NACK or ACK-wait timeout): retry once (§10.7.1.1), then Job Failed. */
  private retryOrFail(j: TxJob, now: number, why: string): void {
    if (j.retry === 1) return this.fail(j, now, `${why} on the retried job`);
    j.retry = 1;
    j.wordsGenerated = 0;
    j.seq = 0;
    j.state = TxState.PgenWait;
    j.deadline = Infinity;
    this.core.stats(this.cluster).tx_retries++;
  }

  /** A CTS / ACK / NACK message for this cluster's Tx side (§10.8.8: relayed from the Rx DMA). */
  onMessage(type: 'cts' | 'ack' | 'nack', tjid: number, epoch: number, retry: number, now: number): void {
    const s = this.core.stats(this.cluster).rx_messages;
    s[type]++;
    if (tjid >= this.jobs.length) return void s.stale++;
    const j = this.jobs[tjid];
    if (type === 'cts') {
      if (j && j.state !== TxState.Failed && j.epoch === epoch) {
        if (!j.ctsReceived) {
          j.ctsReceived = true;
          if (j.state === TxState.CtsWait) {
            j.state = TxState.PgenWait;
            j.deadline = Infinity;
          }
        } else this.unexpectedCts(tjid, epoch, now); // a retried CTS for a job already running
        return;
      }
      if (!j && this.epoch[tjid] === epoch) this.earlyCts[tjid] = epoch + 1; // CTS before its Tx job (§10.3)
      else this.unexpectedCts(tjid, epoch, now);
      return;
    }
    // ACK / NACK: epoch must match the current job; an ACK of either attempt completes it (all data arrived)
    if (!j || j.state === TxState.Failed || j.epoch !== epoch || (type === 'nack' && retry !== j.retry)) return void s.stale++;
    if (type === 'ack') {
      // even while a retry is generating (the first attempt's ACK was late): the Rx side has every byte; pages still
      // in the VOQ are dequeued later (dequeued() tolerates a retired job)
      this.releaseChannel(j);
      if (j.lockHeld) {
        this.voqLock[j.voq] = 0;
        j.lockHeld = false;
      }
      this.retire(j, now);
      return;
    }
    if (j.state !== TxState.AckWait && j.state !== TxState.Drain) return void s.stale++;
    this.retryOrFail(j, now, 'NACK received');
  }

  private unexpectedCts(tjid: number, epoch: number, now: number): void {
    this.core.stats(this.cluster).rx_messages.stale++;
    this.staleCtsAt[tjid] = now + 1;
    this.staleCtsEpoch[tjid] = epoch;
  }

  /** RDMA Tx descriptor -> Tx Job Table entry (§10.7.1.1), the VOQ-Active lock already taken. */
  private admit(trip: Trip, voq: number, dest: FabricDestination, now: number): void {
    const f = trip.fields;
    const tjid = Number(f['tjid']);
    const totalWords = Number(f['num_words']);
    const pageWords = Number(f['page_size_words']);
    const base = Number(f['amem_address']) * 128;
    const high = this.voqHigh[voq] === 1;
    const epoch = this.epoch[tjid]!;
    const cts = this.earlyCts[tjid] === epoch + 1;
    this.earlyCts[tjid] = 0;
    const j: TxJob = {
      trip, tjid, rjid: Number(f['rjid']), voq, dest, base, totalWords, pageWords, epoch, retry: 0,
      state: cts ? TxState.PgenWait : TxState.CtsWait,
      ctsReceived: cts,
      deadline: cts ? Infinity : now + this.core.params.timers.tx_cts_wait_timeout_cycles,
      wordsGenerated: 0, seq: 0, outstanding: 0, high, profile: this.voqProfile[voq]!, lockHeld: true, startAt: now,
    };
    this.jobs[tjid] = j;
    this.voqLock[voq] = 1;
    this.active.add(j);
    this.core.stats(this.cluster).tx_jobs_started++;
  }

  /** Checks an RDMA Tx descriptor (§11.4.6) when it reaches the job manager. */
  private check(trip: Trip, now: number): { voq: number; dest: FabricDestination } {
    const f = trip.fields;
    const what = `c${this.cluster}.rdma_tx${trip.qid - 0x0c} trip ${trip.tripId}`;
    const words = Number(f['num_words']);
    const page = Number(f['page_size_words']);
    const tjid = Number(f['tjid']);
    if (!(words >= 1 && words <= 65536)) throw runtimeError(FabricCodes.badRdmaDescriptor, `${what}: NumWords ${words} is outside [1, 65536]`, '§11.4.6', now);
    if (!(page >= 32 && page <= 127)) throw runtimeError(FabricCodes.badRdmaDescriptor, `${what}: PageSizeWords ${page} is outside [32, 127]`, '§11.4.6', now);
    if (tjid >= this.jobs.length) throw runtimeError(FabricCodes.badRdmaDescriptor, `${what}: TJID ${tjid} beyond the ${this.jobs.length}-entry Tx Job Table`, '§10.7.2', now);
    const base = Number(f['amem_address']) * 128;
    if ((base & (AMEM_VIEW_BIT - 1)) + words * 128 > AMEM_BYTES) throw runtimeError(FabricCodes.badRange, `${what}: AMEM range 0x${base.toString(16)} + ${words} words runs past the 64 MiB AMEM`, '§11.4.6', now);
    const voq = Number(f['dest_voq']);
    return { voq, dest: this.core.dest(voq, what, now) };
  }

  private headBlocked(q: number, now: number): boolean {
    if (q < 2) {
      const trip = this.rdmaFifo[q]![0];
      if (!trip) return true;
      const tjid = Number(trip.fields['tjid']);
      const j = this.jobs[tjid];
      if (j && j.state !== TxState.Failed) throw runtimeError(FabricCodes.jobIdInUse, `c${this.cluster}.rdma_tx${q} trip ${trip.tripId}: TJID ${tjid} is still active (${STATE_NAMES[j.state]}, trip ${j.trip.tripId}); software must not re-use a Tx Job ID before its job retires (its notify_list)`, '§10.4', now);
      if (this.failedVector[tjid]) return true; // sticky Job Failed: waits for software to clear it
      const voq = Number(trip.fields['dest_voq']);
      return this.voqLock[voq] === 1;
    }
    const head = this.txqFifo[q - 2]!.fifo[0];
    if (!head) return true;
    if (this.dgOutstanding[q - 2]! >= this.core.params.datagrams.tx_reorder_ids) return true;
    if (!this.channelFree('datagram')) return true; // a datagram is forwarded straight to a PGen channel (§10.7.1.3)
    // datagrams to one VOQ stay in order: the VOQ-Active lock (§10.7.1.1)
    return this.voqLock[head.fields['dest_voq']!] === 1;
  }

  /** Job manager: one job from the four queues, round-robin (§10.7.1.1). */
  private acceptJob(now: number): boolean {
    for (let i = 0; i < 4; i++) {
      const q = (this.rrQueue + i) % 4;
      if (this.headBlocked(q, now)) continue;
      this.rrQueue = (q + 1) % 4;
      if (q < 2) {
        const trip = this.rdmaFifo[q]!.shift()!;
        const { voq, dest } = this.check(trip, now);
        this.admit(trip, voq, dest, now);
      } else {
        const ring = this.txq[q - 2]!;
        const { index, fields } = this.txqFifo[q - 2]!.fifo.shift()!;
        const voq = fields['dest_voq']!;
        const bytes = fields['num_bytes']!;
        const what = `c${this.cluster}.dgram_tx${q - 2} descriptor ${index}`;
        if (!(bytes >= 1 && bytes <= 16256)) throw runtimeError(FabricCodes.badRdmaDescriptor, `${what}: NumBytes ${bytes} is outside [1, 16256]`, '§11.4.8', now);
        const addr = fields['amem_address']! * 128;
        if ((addr & (AMEM_VIEW_BIT - 1)) + bytes > AMEM_BYTES) throw runtimeError(FabricCodes.badRange, `${what}: AMEM range 0x${addr.toString(16)} + ${bytes} bytes runs past the 64 MiB AMEM`, '§11.4.8', now);
        const dest = this.core.dest(voq, what, now);
        const t = q - 2;
        if (this.dgDone[t]!.length !== ring.entries) this.dgDone[t] = new Uint8Array(ring.entries);
        this.dgOutstanding[t]!++;
        this.voqLock[voq] = 1;
        this.channels.push({ job: null, msg: null, dg: { txq: t, slot: index, addr: fields['amem_address']! * 128, bytes, rxq: fields['rxq_index']!, voq, dest } });
      }
      return true;
    }
    return false;
  }

  /**
   * Whether a channel of work type `type` may be allocated now (§10.7.3: one bucket of channels, a limit per work
   * type; the channels reserved for messages are never given to RDMA jobs or datagrams).
   */
  private channelFree(type: 'rdma' | 'datagram'): boolean {
    const p = this.core.params.page_generator;
    if (this.channels.length >= p.channels) return false;
    let rdma = 0;
    let dg = 0;
    for (const c of this.channels) if (c.job) rdma++;
    else if (c.dg) dg++;
    if (rdma + dg >= p.channels - p.message_channels_reserved) return false;
    return type === 'rdma' ? rdma < p.rdma_channel_limit : dg < p.datagram_channel_limit;
  }

  /** PGen channel allocation: retry jobs first, then round-robin over TJIDs (§10.7.1.1). */
  private allocChannel(): boolean {
    if (!this.channelFree('rdma')) return false;
    const n = this.jobs.length;
    let pick: TxJob | null = null;
    let best = Infinity;
    for (const j of this.active) {
      if (j.state !== TxState.PgenWait) continue;
      const rank = (j.retry === 1 ? 0 : n) + ((j.tjid - this.rrPgen + n) % n);
      if (rank < best) {
        best = rank;
        pick = j;
      }
    }
    if (!pick) return false;
    this.rrPgen = (pick.tjid + 1) % n;
    pick.state = TxState.Active;
    pick.deadline = Infinity;
    this.channels.push({ job: pick, dg: null, msg: null });
    return true;
  }

  private inhibited(voq: number, high: boolean): boolean {
    const o = this.core.params.occupancy;
    if (this.voqXoff[voq]) return true;
    if (this.groupCount[high ? 1 : 0]! >= (high ? o.high_group_limit : o.low_group_limit)) return true;
    return this.total >= this.core.params.qpages.cluster_limit;
  }

  private chanVoq(c: Channel): { voq: number; high: boolean; profile: number } {
    if (c.msg) return { voq: c.msg.voq, high: true, profile: this.core.params.occupancy.message_profile };
    // the VOQ's configuration as it is now (cluster.fabric_voq_config): a write applies to the next page generated
    const voq = c.dg ? c.dg.voq : c.job!.voq;
    return { voq, high: this.voqHigh[voq] === 1, profile: this.voqProfile[voq]! };
  }

  /** Generates one page: high-priority channels first, round-robin within the priority (§10.7.3). */
  private generate(now: number): boolean {
    if (this.channels.length === 0) return false;
    let pick = -1;
    for (let pass = 0; pass < 2 && pick < 0; pass++)
      for (let i = 0; i < this.channels.length; i++) {
        const k = (this.rrChannel + i) % this.channels.length;
        const v = this.chanVoq(this.channels[k]!);
        if (v.high !== (pass === 0) || this.inhibited(v.voq, v.high)) continue;
        pick = k;
        break;
      }
    if (pick < 0) return false;
    const qp = this.core.allocQPage();
    if (!qp) return false;
    this.rrChannel = pick + 1;
    const c = this.channels[pick]!;
    const v = this.chanVoq(c);
    qp.cluster = this.cluster;
    qp.voq = v.voq;
    qp.high = v.high;
    qp.profile = v.profile;
    qp.job = null;
    qp.txq = -1;
    qp.slot = -1;
    qp.rxq = 0;
    qp.seq = 0;
    qp.last = 0;
    const st = this.core.stats(this.cluster);
    if (c.msg) {
      const m = c.msg;
      Object.assign(qp, { type: MSG_TYPES[m.type], addr: 0, payloadBytes: 0, tjid: m.tjid, rjid: m.rjid, epoch: m.epoch, retry: m.retry, dest: m.dest });
      st.tx_messages[m.type]++;
      this.channels.splice(pick, 1);
    } else if (c.dg) {
      const d = c.dg;
      Object.assign(qp, { type: 'datagram', addr: d.addr, payloadBytes: d.bytes, tjid: 0, rjid: 0, epoch: 0, retry: 0, rxq: d.rxq, txq: d.txq, slot: d.slot, dest: d.dest });
      st.tx_datagrams++;
      this.voqLock[d.voq] = 0;
      this.channels.splice(pick, 1);
    } else {
      const j = c.job!;
      const words = Math.min(j.pageWords, j.totalWords - j.wordsGenerated);
      const last = j.wordsGenerated + words === j.totalWords ? 1 : 0;
      Object.assign(qp, { type: 'rdma_data', job: j, addr: j.base + j.wordsGenerated * 128, payloadBytes: words * 128, tjid: j.tjid, rjid: j.rjid, epoch: j.epoch, retry: j.retry, last, seq: j.seq, dest: j.dest });
      j.wordsGenerated += words;
      j.seq++;
      j.outstanding++;
      j.deadline = now + this.core.params.timers.tx_active_timeout_cycles;
      if (last) {
        // all pages enqueued: the channel and the VOQ-Active lock are released (§10.7.1.1)
        this.channels.splice(pick, 1);
        if (j.lockHeld) {
          this.voqLock[j.voq] = 0;
          j.lockHeld = false;
        }
        j.state = TxState.Drain;
      }
      st.tx_pages++;
    }
    // occupancy (§10.7.3.1): count, XOFF at the profile's threshold
    const cnt = ++this.voqCount[qp.voq]!;
    if (cnt >= this.core.params.occupancy.profiles[qp.profile]!.xoff && !this.voqXoff[qp.voq]) {
      this.voqXoff[qp.voq] = 1;
      this.xoffSince[qp.voq] = now;
      st.xoff_events++;
    }
    this.groupCount[qp.high ? 1 : 0]!++;
    this.total++;
    if (this.total > st.qpages_max) st.qpages_max = this.total;
    this.core.egress.enqueue(now, {
      srcChip: this.core.chip, srcCluster: this.cluster, voq: qp.voq, dest: qp.dest, qpage: qp.id,
      wireBytes: qp.type === 'rdma_data' || qp.type === 'datagram' ? 16 + qp.payloadBytes : this.core.params.messages.page_bytes, type: qp.type,
    });
    return true;
  }

  /** The page's QPage was dequeued (it left the chip): occupancy and the job's outstanding pages drop (§10.7.3.1). */
  dequeued(qp: QPage, now: number): void {
    const cnt = --this.voqCount[qp.voq]!;
    if (this.voqXoff[qp.voq] && cnt <= this.core.params.occupancy.profiles[qp.profile]!.xon) {
      this.voqXoff[qp.voq] = 0;
      this.core.stats(this.cluster).xoff_cycles += now - this.xoffSince[qp.voq]!;
    }
    this.groupCount[qp.high ? 1 : 0]!--;
    this.total--;
    const j = qp.job as TxJob | null;
    if (j && this.jobs[j.tjid] === j && j.state !== TxState.Failed) {
      j.outstanding--;
      if (j.state === TxState.Active || j.state === TxState.Drain) j.deadline = now + this.core.params.timers.tx_active_timeout_cycles;
      if (j.state === TxState.Drain && j.outstanding === 0) {
        j.state = TxState.AckWait;
        j.deadline = now + this.core.params.timers.tx_ack_wait_timeout_cycles;
      }
    } else if (j) j.outstanding--;
  }

  /** A datagram's data reached the Tx buffer: mark its reorder slot done and advance the TxQ head in order (§10.7.1.4). */
  datagramRead(txq: number, slot: number): void {
    const ring = this.txq[txq]!;
    const done = this.dgDone[txq]!;
    done[slot] = 1;
    while (done[ring.head] === 1) {
      done[ring.head] = 0;
      ring.advanceHead();
      this.dgOutstanding[txq]!--;
      this.core.dgramInterrupt(this.cluster, txq); // §11.5.2.1: the buffer is free again
    }
  }

  tick(now: number): boolean {
    let did = this.dgPrefetch(now);
    if (this.active.size > 0) did = this.timers(now) || did;
    const p = this.core.params.page_generator;
    if (now >= this.nextAccept && this.acceptJob(now)) {
      this.nextAccept = now + p.job_manager_cycles_per_job;
      did = true;
    }
    // messages from the Rx side take a PGen channel at once (the reserved channel, §10.7.1.5)
    while (this.messages.length > 0 && this.channels.length < p.channels) {
      this.channels.push({ job: null, dg: null, msg: this.messages.shift()! });
      did = true;
    }
    if (this.allocChannel()) did = true;
    if (now >= this.nextPage && this.generate(now)) {
      this.nextPage = now + p.cycles_per_page;
      did = true;
    }
    return did;
  }

  private timers(now: number): boolean {
    let due = false;
    for (const j of this.active) if (now >= j.deadline) due = true;
    if (!due) return false;
    for (const j of [...this.active]) {
      if (now < j.deadline) continue;
      if (j.state === TxState.CtsWait) {
        const at = this.staleCtsAt[j.tjid]!;
        const hint = at ? `; an unexpected CTS for TJID ${j.tjid} (epoch ${this.staleCtsEpoch[j.tjid]}) arrived at cycle ${at - 1} and this job has epoch ${j.epoch}: did Tx and Rx use the TJID / RJID pair a different number of times (a TJID re-used for another RJID or Rx chip? §10.4)` : '';
        this.fail(j, now, `CTS-wait timeout (no CTS from the Rx chip within timers.tx_cts_wait_timeout_cycles = ${this.core.params.timers.tx_cts_wait_timeout_cycles})${hint}`);
      }
      else if (j.state === TxState.AckWait) this.retryOrFail(j, now, `ACK-wait timeout (timers.tx_ack_wait_timeout_cycles = ${this.core.params.timers.tx_ack_wait_timeout_cycles})`);
      else if (j.state === TxState.Active || j.state === TxState.Drain) this.fail(j, now, `Tx-active timeout (the VOQ made no progress for timers.tx_active_timeout_cycles = ${this.core.params.timers.tx_active_timeout_cycles})`);
      else j.deadline = Infinity;
    }
    return true;
  }

  /** The next cycle the rate limits (one job, one page per interval) let pending work go on; Infinity when none. */
  wakeHint(now: number): number {
    if (this.dgPrefetchWanted(0) || this.dgPrefetchWanted(1)) return now;
    let w = this.nextDeadline();
    const pending = this.rdmaFifo[0]!.length + this.rdmaFifo[1]!.length > 0 || this.dgPending();
    if (pending && this.nextAccept > now && this.nextAccept < w) w = this.nextAccept;
    if (this.channels.length > 0 && this.nextPage > now && this.nextPage < w) w = this.nextPage;
    if (this.messages.length > 0) w = now;
    return w;
  }

  blockedReason(): string[] {
    const out: string[] = [];
    for (const j of this.active) out.push(`c${this.cluster} Tx TJID ${j.tjid} -> RJID ${j.rjid} (VOQ ${j.voq}, trip ${j.trip.tripId}): ${STATE_NAMES[j.state]}${j.retry ? ' (retry)' : ''}, ${j.wordsGenerated}/${j.totalWords} words generated, ${j.outstanding} page(s) outstanding`);
    for (let q = 0; q < 2; q++) {
      const t = this.rdmaFifo[q]![0];
      if (t && this.failedVector[Number(t.fields['tjid'])]) out.push(`c${this.cluster}.rdma_tx${q} trip ${t.tripId} waits: TJID ${Number(t.fields['tjid'])} is in the sticky Job Failed state`);
      else if (t) out.push(`c${this.cluster}.rdma_tx${q} trip ${t.tripId} waits for the VOQ-Active lock of VOQ ${Number(t.fields['dest_voq'])}`);
    }
    return out;
  }
}
