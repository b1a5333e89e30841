/**
 * The system's cell fabric between chips (chip §10.1, §10.7 [4]-[9], §10.8.3), one `ChipWire` per chip, living in
 * that chip's partition (its Simulator). Transaction-level per page, cell-exact in the pipe occupancy:
 *
 *   enqueue  (source)      : the page's Request flies to the destination chip (one-way latency L)
 *   request  (destination) : the OQ's grant scheduler grants it (round robin over source chips or FIFO, messages
 *                            first), paced so that the granted cells never exceed the destination's FI pipes' rate;
 *                            the Grant flies back (L): a lone page waits one RTT = 2L before its data moves (§10.1)
 *   granted  (source)      : the earliest free FO pipe is chosen (§10.7 [5a]) and the adapter told
 *   transmit (source)      : the page's cells (§10.1 table) occupy the pipe for sum(ceil(cell bytes / 88)) cycles;
 *                            the first cell reaches the destination L later; `dequeued` when the last cell left
 *   arrival  (destination) : an FI pipe (earliest free) takes the cells; `receive` when the last one is in
 *
 * Everything between chips goes over one cross-partition TimedLink per receiving chip (minimum latency L, the
 * lookahead); within a chip, delayed actions go over a local timer link. Decisions taken at one cycle on one chip
 * (grants) run as one commit after the cycle's deliveries, so same-cycle requests are all seen together; the order
 * of everything is (cycle, sender chip, send order): never the order chips were built or run in.
 */
import { TimedLink } from '@pyxis/sim';
import type { Simulator } from '@pyxis/sim';
import { warning, type Diagnostic } from '@pyxis/diagnostics';
import type { ChipFabricSide, FabricEgress, FabricEnqueue, FabricPage, FabricPageType } from './port.js';
import { cellify, type FabricParams } from './wireParams.js';
import { emptyChipStats, type WireChipStats, type WireLinkStats } from './wireStats.js';
import { FabricCodes } from './codes.js';
import type { FaultInjector } from './faults.js';

/** Kernel phase of the wire's deliveries: the trip engines' phase (PHASE.engines in engines.ts), so adapters act the same cycle. */
export const WIRE_PHASE = 3;

/** VPFE -> chip * clustersPerChip + cluster, -1 when no cluster of the system is that VPFE (§10.2). */
export type VpfeRoute = Int32Array;

interface ReqMsg {
  t: 0;
  src: number;
  srcCluster: number;
  qpage: number;
  /** Destination OQ index on the destination chip: cluster * 4 + VPFE_OQ. */
  oqIndex: number;
  message: boolean;
  pipeCycles: number;
  /** §10.1 cells of the page: what it occupies in the destination's Rx CBUF (§10.8.3). */
  cells: number;
  arrived: number;
}
interface GrantMsg {
  t: 1;
  srcCluster: number;
  qpage: number;
}
interface PageMsg {
  t: 2;
  page: FabricPage;
  dstCluster: number;
  pipeCycles: number;
}
/** A page the fault injector dropped: the destination releases the Rx CBUF cells its grant reserved (MODEL). */
interface LostMsg {
  t: 3;
  cells: number;
  /** Destination cluster (its OQ page count, §10.8.5). */
  dstCluster: number;
}
export type WireMsg = ReqMsg | GrantMsg | PageMsg | LostMsg;

interface Timer {
  kind: 0 | 1 | 2; // 0 dequeued, 1 receive, 2 scheduler wake
  srcCluster: number;
  qpage: number;
  dstCluster: number;
  page: FabricPage | null;
}

interface Outstanding {
  req: FabricEnqueue;
  dstChip: number;
  dstCluster: number;
  cells: number;
  pipeCycles: number;
  pipe: number;
}

/** How a chip's wire reaches another chip's inbound link (in process: that chip's `inLink.send`). */
export type WireSend = (dstChip: number, now: number, deliverAt: number, msg: WireMsg) => void;

export interface TraceSink {
  /** A complete event on a track of this chip (Perfetto `X`). */
  span(track: string, name: string, start: number, dur: number, args?: Record<string, unknown>): void;
  /** A counter sample of this chip (Perfetto `C`). */
  counter(name: string, at: number, values: Record<string, number>): void;
}

export class ChipWire implements FabricEgress {
  readonly inLink: TimedLink<WireMsg>;
  private readonly timer: TimedLink<Timer>;
  side: ChipFabricSide | null = null;
  private readonly out = new Map<number, Outstanding>();
  private readonly foFree: Float64Array;
  /** Per FO pipe: pages dequeued so far (the page number of the Tx CLIST's artificial cell pointers, §10.7.5). */
  private readonly cptrPage: Uint32Array;
  /**
   * Per FO pipe: the end of the work granted to it (a granted page's cycles are counted at its grant, before the
   * Tx DMA has read it): FO load-balances pages over the pipes at grant time (§10.7 [5a]), so the pages of one job
   * spread over the four pipes instead of all finding the same pipe idle.
   */
  private readonly foReserved: Float64Array;
  /**
   * Per destination chip: the latest cycle a page sent to it arrives there; per source chip: the latest cycle a page
   * from it is whole at this chip. The fabric delivers the pages of a chip pair in the order they were sent (the FI
   * reorder per chip pair, §10.8.3-10.8.4; docs/spec-notes.md): a page on a less busy pipe waits for the earlier ones.
   */
  private readonly lastArriveAt = new Map<number, number>();
  private readonly lastWholeFrom = new Map<number, number>();
  private readonly fiFree: Float64Array;
  private readonly pending: ReqMsg[] = [];
  /** The OQ of the round robin's last pick (-1: the pick was a message or FIFO). */
  private pickOq = -1;
  /** Rx CBUF cells reserved by grants and not yet read out (§10.8.3, §10.8 [8]); since when a request waits for room. */
  private cbufUsed = 0;
  /** Per destination cluster of this chip: pages granted and not yet read out (its OQs, §10.8.5). */
  private readonly oqPages: Int32Array;
  private cbufFullSince = -1;
  private budgetFree = 0;
  private wakeAt = -1;
  private commitAt = -1;
  private lastOq = -1;
  /** Pages enqueued and waiting for their grant / granted and not yet dequeued (trace counter). */
  private waitingGrant = 0;
  private granted = 0;
  private readonly lastSrc: Int32Array;
  readonly stats: WireChipStats;
  /** Per destination chip: the link from this chip. */
  readonly links = new Map<number, WireLinkStats>();
  readonly diagnostics: Diagnostic[] = [];
  /** The commit that runs the grant scheduler once per cycle, after the cycle's deliveries. */
  private readonly scheduler: { commitKey: number; commit: (now: number) => void };

  constructor(
    readonly chip: number,
    private readonly p: FabricParams,
    private readonly route: VpfeRoute,
    private readonly sim: Simulator,
    private readonly send: WireSend,
    private readonly faults: FaultInjector | null = null,
    private readonly trace: TraceSink | null = null,
  ) {
    this.foFree = new Float64Array(p.pipes);
    this.cptrPage = new Uint32Array(p.pipes);
    this.oqPages = new Int32Array(p.json.system.clusters_per_chip);
    this.foReserved = new Float64Array(p.pipes);
    this.fiFree = new Float64Array(p.pipes);
    this.lastSrc = new Int32Array(p.json.system.clusters_per_chip * p.json.system.oqs_per_cluster).fill(-1);
    this.stats = emptyChipStats(chip, p.pipes);
    this.inLink = new TimedLink<WireMsg>(`chip${chip}.fabric.in`, p.oneWayCycles, WIRE_PHASE, (m, now) => this.arrive(m, now));
    this.inLink.crossPartition = true;
    this.timer = new TimedLink<Timer>(`chip${chip}.fabric.timer`, 1, WIRE_PHASE, (t, now) => this.fire(t, now));
    sim.addLink(this.inLink);
    sim.addLink(this.timer);
    // Unique among the commits of this chip's phase: the trip engines use cluster * 64 + qid (< 2^12).
    this.scheduler = { commitKey: 1 << 20, commit: (now) => this.schedule(now) };
  }

  /** Pages enqueued and not yet dequeued (the deadlock explainer names them). */
  get outstanding(): number {
    return this.out.size;
  }

  private key(srcCluster: number, qpage: number): number {
    return srcCluster * 0x1000000 + qpage;
  }

  // ---- source side (FabricEgress) ----

  enqueue(now: number, req: FabricEnqueue): void {
    const cpc = this.p.json.system.clusters_per_chip;
    const r = req.dest.vpfe >= 0 && req.dest.vpfe < this.route.length ? this.route[req.dest.vpfe]! : -1;
    if (r < 0) {
      this.stats.unroutable++;
      if (this.diagnostics.length < 100)
        this.diagnostics.push(
          warning(FabricCodes.unroutable, `chip ${this.chip} cluster ${req.srcCluster}: VOQ ${req.voq} maps to VPFE ${req.dest.vpfe}, which no chip/cluster of the system is; the ${req.type} page is not delivered`, {
            spec: 'pyxis-chip-fspec.md §10.2',
          }),
        );
      return;
    }
    const dstChip = Math.floor(r / cpc);
    const dstCluster = r % cpc;
    const c = cellify(this.p, req.wireBytes);
    this.out.set(this.key(req.srcCluster, req.qpage), { req, dstChip, dstCluster, cells: c.cells, pipeCycles: c.pipeCycles, pipe: -1 });
    const msg: ReqMsg = {
      t: 0,
      src: this.chip,
      srcCluster: req.srcCluster,
      qpage: req.qpage,
      oqIndex: dstCluster * this.p.json.system.oqs_per_cluster + req.dest.oq,
      message: req.type === 'cts' || req.type === 'ack' || req.type === 'nack',
      pipeCycles: c.pipeCycles,
      cells: c.cells,
      arrived: 0,
    };
    this.send(dstChip, now, now + this.p.oneWayCycles, msg);
    this.waitingGrant++;
    this.sampleVoq(now);
  }

  private sampleVoq(now: number): void {
    this.trace?.counter('fabric VOQ pages', now, { waiting_grant: this.waitingGrant, granted: this.granted });
  }

  transmit(now: number, page: FabricPage): void {
    const k = this.key(page.srcCluster, page.qpage);
    const o = this.out.get(k);
    if (!o || o.pipe < 0) throw new Error(`fabric wire: chip ${this.chip} cluster ${page.srcCluster} transmitted QPage ${page.qpage}, which was not granted`);
    const start = Math.max(now, this.foFree[o.pipe]!);
    const end = start + o.pipeCycles;
    this.foFree[o.pipe] = end;
    this.stats.foBusy[o.pipe]! += o.pipeCycles;
    let l = this.links.get(o.dstChip);
    if (!l) this.links.set(o.dstChip, (l = { src: this.chip, dst: o.dstChip, pages: 0, bytes: 0, cells: 0, busyCycles: 0, byType: {} }));
    l.pages++;
    l.bytes += page.wireBytes;
    l.cells += o.cells;
    l.busyCycles += o.pipeCycles;
    l.byType[page.type] = (l.byType[page.type] ?? 0) + 1;
    const fate = this.faults ? this.faults.decide(this.chip, page) : null;
    // Tx CLIST (§10.7.5): the artificial cell pointers of the page, {page number on its FO pipe, cell index}: debug
    // values only (the spec: "the cptr values are not actually used")
    const cptr = this.cptrPage[o.pipe]!++ * 256;
    // per-page event (§18 fabric page tracing): the header's job ids and sequence number when the adapter set them
    this.trace?.span(`FO pipe ${o.pipe}`, `${page.type} ->chip${o.dstChip}`, start, o.pipeCycles, { qpage: page.qpage, cells: o.cells, bytes: page.wireBytes, fault: fate ?? undefined, tjid: page.tjid, rjid: page.rjid, seq: page.seq, cptrs: `0x${cptr.toString(16)}..0x${(cptr + o.cells - 1).toString(16)}` });
    if (fate === 'drop') {
      this.stats.faults.dropped[page.type] = (this.stats.faults.dropped[page.type] ?? 0) + 1;
      // the destination's grant reserved Rx CBUF cells for it: released when it would have arrived
      const at = Math.max(start + this.p.oneWayCycles, this.lastArriveAt.get(o.dstChip) ?? 0);
      this.send(o.dstChip, now, at, { t: 3, cells: o.cells, dstCluster: o.dstCluster });
    } else {
      if (fate === 'corrupt') {
        this.stats.faults.corrupted[page.type] = (this.stats.faults.corrupted[page.type] ?? 0) + 1;
        page.corrupt = true;
      }
      const arrive = Math.max(start + this.p.oneWayCycles, this.lastArriveAt.get(o.dstChip) ?? 0);
      this.lastArriveAt.set(o.dstChip, arrive);
      this.send(o.dstChip, now, arrive, { t: 2, page, dstCluster: o.dstCluster, pipeCycles: o.pipeCycles });
    }
    this.timer.send(now, end, this.chip, { kind: 0, srcCluster: page.srcCluster, qpage: page.qpage, dstCluster: 0, page: null });
  }

  /**
   * A granted page of a failed Tx job flushed from its VOQ (§10.7.1.1, §11.8): no cell leaves; the destination releases
   * the cells its grant reserved when the page would have arrived, and the source dequeues it the next cycle.
   */
  discard(now: number, req: FabricEnqueue): void {
    const k = this.key(req.srcCluster, req.qpage);
    const o = this.out.get(k);
    if (!o || o.pipe < 0) throw new Error(`fabric wire: chip ${this.chip} cluster ${req.srcCluster} flushed QPage ${req.qpage}, which was not granted`);
    this.stats.flushed++;
    this.send(o.dstChip, now, now + this.p.oneWayCycles, { t: 3, cells: o.cells, dstCluster: o.dstCluster });
    this.timer.send(now, now + 1, this.chip, { kind: 0, srcCluster: req.srcCluster, qpage: req.qpage, dstCluster: 0, page: null });
  }

  /** §10.8 [8]: the page reader read a page out of the Rx CBUF: its cells are free, the grant scheduler may go on. */
  rxCellsFreed(now: number, page: FabricPage): void {
    const r = this.route[page.dest.vpfe]!;
    this.freeCells(now, cellify(this.p, page.wireBytes).cells, r % this.p.json.system.clusters_per_chip);
  }

  private freeCells(now: number, cells: number, dstCluster: number): void {
    this.cbufUsed -= cells;
    this.oqPages[dstCluster]!--;
    if (this.cbufUsed < 0) throw new Error(`fabric wire: chip ${this.chip} freed more Rx CBUF cells than its grants reserved`);
    if (this.pending.length > 0) this.timer.send(now, now + 1, this.chip, { kind: 2, srcCluster: 0, qpage: 0, dstCluster: 0, page: null });
  }

  // ---- deliveries ----

  private arrive(m: WireMsg, now: number): void {
    if (m.t === 3) return this.freeCells(now, m.cells, m.dstCluster);
    if (m.t === 0) {
      m.arrived = now;
      this.pending.push(m);
      this.requestSchedule(now);
    } else if (m.t === 1) {
      const o = this.out.get(this.key(m.srcCluster, m.qpage));
      if (!o) return;
      let pipe = 0;
      for (let i = 1; i < this.foReserved.length; i++) if (this.foReserved[i]! < this.foReserved[pipe]!) pipe = i;
      this.foReserved[pipe] = Math.max(now, this.foReserved[pipe]!) + o.pipeCycles;
      o.pipe = pipe;
      this.waitingGrant--;
      this.granted++;
      this.sampleVoq(now);
      this.side?.tx.granted(now, m.srcCluster, m.qpage, pipe);
    } else {
      let pipe = 0;
      for (let i = 1; i < this.fiFree.length; i++) if (this.fiFree[i]! < this.fiFree[pipe]!) pipe = i;
      const start = Math.max(now, this.fiFree[pipe]!);
      this.fiFree[pipe] = start + m.pipeCycles;
      // whole no earlier than the chip pair's previous page (reorder per chip pair)
      const end = Math.max(start + m.pipeCycles, this.lastWholeFrom.get(m.page.srcChip) ?? 0);
      this.lastWholeFrom.set(m.page.srcChip, end);
      this.stats.fiBusy[pipe]! += m.pipeCycles;
      this.trace?.span(`FI pipe ${pipe}`, `${m.page.type} chip${m.page.srcChip}->c${m.dstCluster}`, start, m.pipeCycles, { qpage: m.page.qpage, corrupt: m.page.corrupt ?? false, tjid: m.page.tjid, rjid: m.page.rjid, seq: m.page.seq });
      this.timer.send(now, end, this.chip, { kind: 1, srcCluster: m.page.srcCluster, qpage: m.page.qpage, dstCluster: m.dstCluster, page: m.page });
    }
  }

  private fire(t: Timer, now: number): void {
    if (t.kind === 0) {
      this.out.delete(this.key(t.srcCluster, t.qpage));
      this.granted--;
      this.sampleVoq(now);
      this.side?.tx.dequeued(now, t.srcCluster, t.qpage);
    } else if (t.kind === 1) this.side?.rx.receive(now, t.dstCluster, t.page!);
    else {
      this.wakeAt = -1;
      this.requestSchedule(now);
    }
  }

  private requestSchedule(now: number): void {
    if (this.commitAt === now) return;
    this.commitAt = now;
    this.sim.requestCommit(this.scheduler);
  }

  // ---- the destination's grant scheduler (§10.1; MODEL: fabric.json grant) ----

  private schedule(now: number): void {
    const perPipe = this.p.pipes;
    const cap = this.p.json.rx_cbuf_cells;
    while (this.pending.length > 0 && this.budgetFree <= now) {
      this.pickOq = -1;
      const i = this.pick();
      const m = this.pending[i]!;
      // the Rx CBUF must hold the granted page's cells (§10.8.3, §10.8 [8]); a page larger than the whole CBUF is
      // granted into an empty one (MODEL), so no size can deadlock
      const cl = Math.floor(m.oqIndex / this.p.json.system.oqs_per_cluster);
      if ((this.cbufUsed > 0 && this.cbufUsed + m.cells > cap) || this.oqPages[cl]! >= this.p.json.rx_oq_pages) {
        if (this.cbufFullSince < 0) this.cbufFullSince = now;
        return;
      }
      if (this.pickOq >= 0) {
        this.lastOq = this.pickOq;
        this.lastSrc[this.pickOq] = m.src;
      }
      if (this.cbufFullSince >= 0) {
        this.stats.rxCbufFullCycles += now - this.cbufFullSince;
        this.cbufFullSince = -1;
      }
      this.cbufUsed += m.cells;
      if (this.cbufUsed > this.stats.rxCbufMaxCells) this.stats.rxCbufMaxCells = this.cbufUsed;
      if (++this.oqPages[cl]! > this.stats.rxOqMaxPages) this.stats.rxOqMaxPages = this.oqPages[cl]!;
      this.pending.splice(i, 1);
      const wait = now - m.arrived;
      this.stats.grants++;
      this.stats.grantWaitCycles += wait;
      if (wait > this.stats.grantWaitMax) this.stats.grantWaitMax = wait;
      this.stats.grantWaitFrom[m.src] = (this.stats.grantWaitFrom[m.src] ?? 0) + wait;
      // A backlogged scheduler keeps its fractional budget (grants every 45.5 cycles for 182-cycle pages on 4
      // pipes); an idle one restarts from now.
      this.budgetFree = (this.budgetFree > now - 1 ? this.budgetFree : now) + m.pipeCycles / perPipe;
      this.send(m.src, now, now + this.p.oneWayCycles, { t: 1, srcCluster: m.srcCluster, qpage: m.qpage });
    }
    if (this.pending.length > 0) {
      const at = Math.max(now + 1, Math.ceil(this.budgetFree));
      if (this.wakeAt < 0 || at < this.wakeAt) {
        this.wakeAt = at;
        this.timer.send(now, at, this.chip, { kind: 2, srcCluster: 0, qpage: 0, dstCluster: 0, page: null });
      }
    }
  }

  /** The next request to grant: messages first (if set), then FIFO or round robin over OQs and source chips. */
  private pick(): number {
    const q = this.pending;
    const g = this.p.json.grant;
    if (g.messages_first) for (let i = 0; i < q.length; i++) if (q[i]!.message) return i;
    if (g.scheduler === 'fifo') return 0;
    // Round robin: the next OQ after the last granted one that has requests, then in it the next source chip.
    const nOq = this.lastSrc.length;
    let bestOq = -1;
    let bestD = Infinity;
    for (const m of q) {
      const d = (m.oqIndex - this.lastOq - 1 + 2 * nOq) % nOq;
      if (d < bestD) {
        bestD = d;
        bestOq = m.oqIndex;
      }
    }
    const last = this.lastSrc[bestOq]!;
    let best = -1;
    let bestS = Infinity;
    const big = 1 << 16;
    for (let i = 0; i < q.length; i++) {
      const m = q[i]!;
      if (m.oqIndex !== bestOq) continue;
      const d = (m.src - last - 1 + 2 * big) % big;
      if (d < bestS) {
        bestS = d;
        best = i;
      }
    }
    // the round robin moves when the request is granted (schedule: a full Rx CBUF may hold it back)
    this.pickOq = bestOq;
    return best;
  }

  /** Lines for the cross-chip deadlock explainer. */
  explain(): string[] {
    const lines: string[] = [];
    for (const o of this.out.values())
      lines.push(`chip${this.chip}: ${o.req.type} QPage ${o.req.qpage} of cluster ${o.req.srcCluster} to chip${o.dstChip} cluster ${o.dstCluster} ${o.pipe < 0 ? 'waits for its grant' : 'is granted, not yet transmitted by the adapter'}`);
    if (this.pending.length) lines.push(`chip${this.chip}: ${this.pending.length} request(s) wait for a grant at its OQs`);
    return lines;
  }
}

/** Types of pages, for stats tables. */
export const PAGE_TYPES: readonly FabricPageType[] = ['rdma_data', 'datagram', 'cts', 'ack', 'nack'];
