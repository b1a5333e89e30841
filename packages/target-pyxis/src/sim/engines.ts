/**
 * The chip's specialised engines (chip §11.4, §12): barrier configuration,
 * HBM<->AMEM DMA (H2A/A2H, §12.1, tensor-mode HBM addressing §8.2), the
 * inter-cluster DMA (§12.2) and the Microcode Patch Engine (§12.6, patch and
 * DMA modes). Timing uses bandwidth-port reservations (kernel/port.ts), so a
 * bulk transfer costs one kernel step per chunk; an engine reports done only
 * when the last write has committed (§11.7.2).
 *
 * Functional model: data is copied when a chunk is issued; the trip is
 * complete at the commit time of its last chunk. (Programs that read before
 * the completing barrier are racy by §11.7 and may see either value.)
 */
import { alignUp } from '@pyxis/container';
import { decode, loadTable } from '@pyxis/codec';
import { warning, type Diagnostic } from '@pyxis/diagnostics';
import type { BandwidthPort, Committer, TimedLink } from '@pyxis/sim';
import { AMEM_BYTES, AMEM_VIEW_BIT } from '../common/amem.js';
import { CLIENT_ICDMA, CLIENT_ICDMA_IN, CLIENT_MPE } from './amem/banks.js';
import type { AmemAccess } from './amemAccess.js';
import type { Apm } from './apm.js';
import { DmaBankPort } from './dmaBankPort.js';
import type { BarrierTable } from './barriers.js';
import { CtlCodes, overlapsCsr } from './csrs.js';
import type { SimConfig } from './config.js';
import { runtimeError, SimCodes, tripError } from './diagnostics.js';
import { remapEngineAddress, type NocMap, type NocTarget, type RemapWindow } from './noc.js';
import type { QueueKind } from './queues.js';
import type { Trip, TripDone, TripEngine } from './trip.js';
import { dbl } from '@pyxis/sim';

/** Offset bits of a view address (the view bit removed, chip §7.5). */
const AMEM_OFFSET_MASK = AMEM_VIEW_BIT - 1;

/** Kernel phases of the Pyxis chip (docs/timing-model.md "Kernel semantics"): one cycle runs them in this order. */
export const PHASE = {
  /** The host agent: enqueue records and scripted CSR writes take effect for everything else in the same cycle. */
  host: 0,
  /** Descriptor prefetch engines (chip §12.5). */
  dpe: 1,
  /** Trip managers (chip §11.3): barrier notifications (links) are delivered at the start of this phase. */
  tripManager: 2,
  /** Trip engines (UIE, DMA, MPE, barrier config): ICDMA and remote MPE traffic is delivered at the start of this phase. */
  engines: 3,
  /** Active power management (chip §13): GrantedPower updates are seen by everything from the next cycle. */
  apm: 4,
  /** Trace/VCD samplers: read the state at the end of the cycle. */
  observe: 5,
} as const;

/** The model-given order of a trip engine among same-cycle commits and link messages: cluster, then queue id (Table 11-1). */
export function engineKey(cluster: number, qid: number): number {
  return cluster * 64 + qid;
}

/** What the engines need from the kernel: deferring work to the end of their phase. */
export interface CommitSink {
  requestCommit(c: Committer): void;
}

export abstract class BaseTripEngine implements TripEngine, Committer {
  readonly group: string;
  readonly passive = true;
  readonly phase: number = PHASE.engines;
  /** cluster * 64 + queue id: this engine's order among same-cycle commits and link messages. */
  commitKey = 0;
  /** The kernel, for deferred (commit-phase) work; set by the chip. */
  kernel: CommitSink | undefined;
  trip: Trip | undefined;
  tripsDone = 0;
  bytesMoved = 0;
  /** Sum over trips of trip_power x cycles (Trip Power report, §13). */
  powerCycles = dbl(0);
  constructor(
    readonly name: string,
    readonly kind: QueueKind,
    readonly cluster: number,
    protected readonly done: TripDone,
    protected readonly apm?: Apm,
    protected readonly apmSlot = 0,
  ) {
    this.group = `cluster ${cluster}`;
  }
  get busy(): boolean {
    return this.trip !== undefined;
  }
  canAccept(): boolean {
    return this.trip === undefined;
  }
  protected wake: (() => void) | undefined;
  attachWake(wake: () => void): void {
    this.wake = wake;
  }
  start(trip: Trip, now: number): void {
    this.wake?.();
    this.trip = trip;
    this.apm?.request(trip.trip_power, now);
    this.begin(trip, now);
  }
  protected finish(now: number): void {
    const t = this.trip!;
    this.trip = undefined;
    this.tripsDone++;
    this.powerCycles += t.trip_power * (now - t.startAt);
    this.apm?.request(-t.trip_power, now);
    this.done(t, now);
  }
  /** APM throttling factor for bandwidth reservations (§13). */
  protected scale(): number {
    return this.apm ? Math.max(this.apm.utilization, 1e-3) : 1;
  }
  protected abstract begin(trip: Trip, now: number): void;
  commit(_now: number): void {}
  abstract tick(now: number): boolean;
  abstract nextWake(now: number): number;
  abstract blockedReason(): string | undefined;
}

/** Barrier Configuration Engine (§11.4.11): one set_ref_counts() per descriptor. */
export class BarrierConfigEngine extends BaseTripEngine {
  private readyAt = dbl(0);
  readonly stallReasons = ['set_ref_counts latency'] as const;
  constructor(
    cluster: number,
    done: TripDone,
    private readonly table: BarrierTable,
    private readonly latency: number,
  ) {
    super(`c${cluster}.barrier_config`, 'barrier_config', cluster, done);
  }
  protected begin(_trip: Trip, now: number): void {
    this.readyAt = now + this.latency;
  }
  tick(now: number): boolean {
    const t = this.trip;
    if (!t || now < this.readyAt) return false;
    this.table.setRefCounts(Number(t.fields['barrier_id']), Number(t.fields['notify_count']), Number(t.fields['wait_count']), now, this.name, t.tripId);
    this.finish(now);
    return true;
  }
  nextWake(now: number): number {
    return this.trip ? Math.max(now, this.readyAt) : Infinity;
  }
  blockedReason(): string | undefined {
    return this.trip ? `set_ref_counts pending until cycle ${this.readyAt}` : undefined;
  }
}

/**
 * A DMA engine that moves a trip's data in chunks (chip §11.7: the trip is
 * done when its last write has committed): the common issue loop of H2A/A2H
 * and ICDMA. `issue` moves one chunk functionally, reserves the ports and
 * returns the chunk's commit cycle; the next chunk issues at `portFreeAt`;
 * between chunks the engine sleeps (`nextWake`), so a transfer costs one
 * kernel step per chunk. Stall codes: 0 = port busy, 1 = in flight.
 *
 * Power management (chip §13) throttles a DMA in ONE way only: its port reservations are stretched by
 * 1/AllowedUtilization (`scale()`), i.e. the engine moves data on that fraction of the port cycles. There is no
 * per-issue bubble gate on top (that throttled twice: 2.7x instead of 2x at AllowedUtilization 0.5, audit D2).
 */
export abstract class ChunkedDmaEngine extends BaseTripEngine {
  /** Chunks (H2A/A2H) or bytes (ICDMA) left to issue. */
  protected remaining = 0;
  protected lastCommit = 0;
  protected nextIssue = 0;
  private code = 0;
  /**
   * Moves one chunk at `now` (port reservations stretched by `scale`); returns its commit cycle, or -1 when the
   * commit is reported later (`ackCommit`, ICDMA: the destination cluster reports it over a link).
   */
  protected abstract issue(now: number, scale: number): number;
  /** Earliest cycle for the next chunk (when the limiting port frees). */
  protected abstract portFreeAt(): number;
  /** Chunks whose commit has not been reported yet. */
  protected unacked = 0;
  protected startTransfer(now: number): void {
    this.lastCommit = now;
    this.nextIssue = now;
    this.unacked = 0;
  }
  /** A chunk's writes committed at `cycle` (delivered over a link at that cycle). */
  ackCommit(cycle: number): void {
    this.unacked--;
    if (cycle > this.lastCommit) this.lastCommit = cycle;
  }
  /**
   * The AMEM stage of the units (bank arbitration, dmaBankPort.ts), run at the start of every tick before issuing:
   * settles last cycle's bank claim and charges its lateness; true when it moved data.
   */
  protected stage(_now: number): boolean {
    return false;
  }
  /** The next cycle the AMEM stage needs a tick (Infinity: none). */
  protected stageWake(): number {
    return Infinity;
  }
  /** Units still in the AMEM stage (the trip is not done while there are). */
  protected stageBusy(): boolean {
    return false;
  }
  tick(now: number): boolean {
    if (!this.trip) return false;
    const did = this.stage(now);
    if (this.remaining > 0) {
      if (now < this.nextIssue) {
        this.code = 0;
        return did;
      }
      // The chunk reserves ports shared with other engines of this cluster (HBM: H2A/A2H, core-switch egress: the
      // three ICDMAs): issue it at the end of the phase, in engine-key order, so that same-cycle requests are served
      // in a fixed priority order whatever the tick order (docs/spec-notes.md "same-cycle port requests").
      this.nextIssue = Infinity;
      this.kernel!.requestCommit(this);
      return true;
    }
    if (now >= this.lastCommit && this.unacked === 0 && !this.stageBusy()) {
      this.finish(now);
      return true;
    }
    this.code = 1;
    return did;
  }
  override commit(now: number): void {
    const commit = this.issue(now, this.scale());
    if (commit < 0) this.unacked++;
    else if (commit > this.lastCommit) this.lastCommit = commit;
    this.nextIssue = Math.max(now + 1, Math.floor(this.portFreeAt()));
  }
  nextWake(now: number): number {
    if (!this.trip) return Infinity;
    // with every unit issued and commits unreported (ICDMA: over a link; H2A: its AMEM stage), only the stage wakes it
    let w = this.remaining > 0 ? this.nextIssue : this.unacked > 0 || this.stageBusy() ? Infinity : this.lastCommit;
    const s = this.stageWake();
    if (s < w) w = s;
    return Math.max(now, w);
  }
  stallCode(): number {
    return this.code;
  }
  protected abstract pendingWork(): string;
  blockedReason(): string | undefined {
    if (!this.trip) return undefined;
    if (this.remaining > 0) return this.pendingWork();
    return this.unacked > 0 ? `waiting for ${this.unacked} chunk commit report(s)` : `waiting for writes to commit at cycle ${this.lastCommit}`;
  }
}

/** One ICDMA chunk on its way through the core switch to the destination cluster (chip §12.2). */
export interface IcdmaChunk {
  source: IcdmaEngine;
  dst: number;
  data: Uint8Array;
  /** APM throttling factor at issue (chip §13), applied to the ingress transfer too. */
  scale: number;
}

/**
 * Inter-cluster DMA (§11.4.5, §12.2): 128-byte words from this cluster's AMEM to `dest`'s. The source side reads a
 * chunk, reserves the engine and core-switch egress ports and sends it over the core-switch link (minimum latency
 * `icdma.latency_cycles`); the destination cluster (`deliverIcdmaChunk`) reserves its ingress port, writes its AMEM
 * and reports the commit back over a link, so no cluster touches another's state directly.
 */
export class IcdmaEngine extends ChunkedDmaEngine {
  private src = 0;
  private dst = 0;
  /** Reports a warning once per `key` for the whole run (set by the chip). */
  warn?: (key: string, d: Diagnostic) => void;
  /** The source read's bank port (round-robin client CLIENT_ICDMA + index) and the chunk waiting for it to settle. */
  private readonly port: DmaBankPort;
  private held: IcdmaChunk | undefined;
  private heldAt = 0;
  /** Port busy includes the APM stretch of the reservations (chip §13). */
  readonly stallReasons = ['core switch busy', 'in flight (latency + write commit)'] as const;
  constructor(
    cluster: number,
    readonly index: number,
    readonly dest: number,
    done: TripDone,
    private readonly cfg: SimConfig,
    private readonly srcAmem: AmemAccess,
    /** The core-switch link into the destination cluster. */
    private readonly toDest: TimedLink<IcdmaChunk>,
    private readonly enginePort: BandwidthPort,
    private readonly egress: BandwidthPort,
    apm?: Apm,
    apmSlot = 0,
  ) {
    super(`c${cluster}.icdma${index}`, 'icdma', cluster, done, apm, apmSlot);
    this.port = new DmaBankPort(srcAmem, CLIENT_ICDMA + index);
  }
  protected begin(trip: Trip, now: number): void {
    this.src = Number(trip.fields['amem_source_start_address']) * 128;
    this.dst = Number(trip.fields['amem_dest_start_address']) * 128;
    this.remaining = Number(trip.fields['length']) * 128;
    const mask = Number(trip.fields['core_switch_plane_mask']);
    if (mask === 0) throw tripError(SimCodes.badDescriptor, `${this.name} trip ${trip.tripId}: Core Switch Plane Mask 0 is illegal`, '§11.4.5', now, trip);
    // The model has no core-switch planes (chip §12.2): every chunk uses the cluster's whole core-switch port, i.e.
    // what all four planes (0xF) give. A narrower mask is not honoured: say so once per engine (docs/simulator.md).
    if (mask !== 0xf)
      this.warn?.(
        `${this.name}.plane-mask`,
        warning(
          CtlCodes.icdmaPlaneMask,
          `${this.name} trip ${trip.tripId}: core_switch_plane_mask 0x${mask.toString(16)} is not modelled; the transfer uses the whole core-switch port of the cluster, as with all four planes (0xf)`,
          { spec: 'pyxis-chip-fspec.md §11.4.5, §12.2', notes: ['reported once per ICDMA engine, for its first trip with a mask other than 0xf'] },
        ),
      );
    if ((this.src & AMEM_OFFSET_MASK) + this.remaining > AMEM_BYTES || (this.dst & AMEM_OFFSET_MASK) + this.remaining > AMEM_BYTES)
      throw tripError(SimCodes.badAddress, `${this.name} trip ${trip.tripId}: transfer runs past the end of AMEM`, '§11.4.5', now, trip);
    this.startTransfer(now);
  }
  protected issue(now: number, sc: number): number {
    const n = Math.min(this.remaining, this.cfg.icdma.chunk_bytes);
    // the source read is a round-robin bank claim of its words (MODEL: the chunk's words in its issue cycle); the chunk
    // leaves when the claim is settled next cycle, `late` cycles later if it was served late (`stage`)
    const data = this.srcAmem.readBytes(this.src, n, this.port.client);
    this.port.claimed(now);
    const t1 = this.enginePort.reserve(now, n, sc);
    const t2 = this.egress.reserve(now, n, sc);
    const chunk: IcdmaChunk = { source: this, dst: this.dst, data, scale: sc };
    const at = Math.max(t1, t2) + this.cfg.icdma.latency_cycles;
    if (this.port.pending) {
      this.held = chunk;
      this.heldAt = at;
    } else this.toDest.send(now, at, this.commitKey, chunk);
    this.bytesMoved += n;
    this.src += n;
    this.dst += n;
    this.remaining -= n;
    return -1;
  }
  protected portFreeAt(): number {
    return Math.min(this.enginePort.freeAt, this.egress.freeAt);
  }
  /** Settles the source read of the last chunk and sends it, as many cycles later as the read was served late. */
  protected override stage(now: number): boolean {
    const port = this.port;
    if (!port.pending || now <= port.claimedAt) return false;
    const at = port.claimedAt;
    const late = port.settle(now);
    if (at + 1 + late > this.nextIssue) this.nextIssue = at + 1 + late;
    this.toDest.send(now, Math.max(now + this.toDest.minLatency, this.heldAt + late), this.commitKey, this.held!);
    this.held = undefined;
    return false;
  }
  protected override stageWake(): number {
    return this.port.pending ? this.port.claimedAt + 1 : Infinity;
  }
  protected override stageBusy(): boolean {
    return this.port.pending;
  }
  protected pendingWork(): string {
    return `${this.remaining} bytes left to cluster ${this.dest}`;
  }
}

/** A commit report of an ICDMA chunk, back to its source engine. */
export interface IcdmaAck {
  source: IcdmaEngine;
}

/**
 * The destination side of an ICDMA chunk (runs in the destination cluster when the core-switch link delivers it):
 * ingress port, AMEM write, and the commit report back to the source over `back` (delivered at the commit cycle,
 * `amem.write_commit_latency_cycles` after the ingress transfer, chip §11.7.2).
 */
export function deliverIcdmaChunk(m: IcdmaChunk, now: number, cfg: SimConfig, amem: AmemAccess, ingress: BandwidthPort, back: TimedLink<IcdmaAck>): void {
  const t3 = ingress.reserve(now, m.data.length, m.scale);
  // the destination write: a fixed-priority bank client (amem/banks.ts claimFirst), its lateness known at once
  amem.writeBytes(m.dst, m.data, CLIENT_ICDMA_IN);
  const late = amem.servedAt !== undefined && amem.servedAt > now ? amem.servedAt - now : 0;
  back.send(now, Math.max(now + back.minLatency, t3 + late + cfg.amem.write_commit_latency_cycles), m.source.commitKey, { source: m.source });
}

interface PendingWrite {
  target: NocTarget;
  data: Uint8Array;
}

/** An MPE write into another cluster's AMEM or CSR/config window, carried by that cluster's NoC link. */
export interface RemoteWrite {
  target: NocTarget;
  data: Uint8Array;
}

/** micro_patch_t header (§12.6.1.2), decoded through grammars/pyxis/patch_micro_patch_t.json. */
const MICRO_PATCH = loadTable('pyxis', 'patch_micro_patch_t');

/**
 * Microcode Patch Engine channel (§12.6). Patch mode reads the blob
 * (`micro_patch_t` list, §12.6.1.2) and writes each patch's data[] at its
 * remapped target address; DMA mode copies `length` 8-byte words. The
 * writes land when the channel's NoC transfers complete.
 */
export class MpeEngine extends BaseTripEngine {
  private doneAt = dbl(0);
  readonly stallReasons = ['NoC transfer'] as const;
  private writes: PendingWrite[] = [];
  patchesApplied = 0;
  constructor(
    cluster: number,
    readonly index: number,
    done: TripDone,
    private readonly cfg: SimConfig,
    private readonly noc: NocMap,
    private readonly nocPort: BandwidthPort,
    private readonly writePort: BandwidthPort,
    public windows: RemapWindow[],
    /** NoC links into each cluster (remote writes; the own cluster's entry is not used). */
    private readonly remote: ReadonlyArray<TimedLink<RemoteWrite>> = [],
  ) {
    super(`c${cluster}.mpe${index}`, 'mpe', cluster, done);
  }

  private target(eng: number, len: number, what: string, trip: Trip, now: number, localOnly: boolean): NocTarget {
    const noc = remapEngineAddress(eng, this.windows);
    const t = this.noc.resolve(noc, len);
    if (!t)
      throw tripError(
        SimCodes.badAddress,
        `${this.name} trip ${trip.tripId}: ${what} 0x${(eng >>> 0).toString(16)} (+${len} bytes) remaps to NoC 0x${noc.toString(16)}, outside every modelled memory`,
        '§12.7',
        now,
        trip,
      );
    if (localOnly && t.space !== 'hbm' && t.cluster !== this.cluster)
      throw tripError(SimCodes.badAddress, `${this.name} trip ${trip.tripId}: ${what} 0x${(eng >>> 0).toString(16)} is not cluster-local`, '§12.6.1.1', now, trip);
    return t;
  }

  protected begin(trip: Trip, now: number): void {
    const f = trip.fields;
    this.writes = [];
    let t = now;
    if (trip.table === 'desc_mpe_dma') {
      const src = Number(f['source_address']);
      const dst = Number(f['target_address']);
      const len = Number(f['length']) * 8;
      if (src % 8 || dst % 8)
        throw tripError(SimCodes.misaligned, `${this.name} trip ${trip.tripId}: DMA-mode addresses must be 8-byte aligned (source 0x${src.toString(16)}, target 0x${dst.toString(16)})`, '§12.6.2.2', now, trip);
      const s = this.target(src, len, 'source_address', trip, now, false);
      const d = this.target(dst, len, 'target_address', trip, now, false);
      const data = this.noc.read(s, len, CLIENT_MPE);
      t = this.nocPort.reserve(now, len) + this.cfg.noc.latency_cycles + this.late(now);
      t = Math.max(this.writePort.reserve(t, len), this.nocPort.reserve(t, len));
      // A write into another cluster crosses the NoC: it travels over that cluster's link and lands at the cycle the
      // transfer completes (>= now + noc.latency_cycles, the link's minimum), as a local write would.
      if (d.space !== 'hbm' && d.cluster !== this.cluster) {
        const link = this.remote[d.cluster]!;
        link.send(now, Math.max(now + link.minLatency, t), this.commitKey, { target: d, data });
      }
      else this.writes.push({ target: d, data });
      this.bytesMoved += len;
    } else {
      const addr = Number(f['blob_address']);
      const len = Number(f['blob_length']) * 8;
      const num = Number(f['num_patches']);
      if (addr % 8) throw tripError(SimCodes.misaligned, `${this.name} trip ${trip.tripId}: blob_address 0x${addr.toString(16)} is not 8-byte aligned`, '§12.6.1.1', now, trip);
      const src = this.target(addr, len, 'blob_address', trip, now, true);
      const blob = this.noc.read(src, len, CLIENT_MPE);
      t = this.nocPort.reserve(now, len) + this.cfg.noc.latency_cycles + this.late(now);
      let off = 0;
      /** A bad patch: located at the patch's bytes in the blob (so at its byte offset in the image). */
      const patchError = (code: string, msg: string, section: string, at: number, bytes: number) =>
        runtimeError(code, `${this.name} trip ${trip.tripId}: ${msg}`, section, now, [], { ...src, addr: src.addr + at }, bytes);
      for (let p = 0; p < num; p++) {
        if (off + 8 > len)
          throw patchError(SimCodes.badPatch, `blob of ${len} bytes ends inside patch ${p} of ${num} (num_patches)`, '§12.6.1.2', off, len - off);
        // micro_patch_t header (§12.6.1.2); the table undoes the N-1 encodings of reg_size and reg_repeat.
        const h = decode(MICRO_PATCH, blob, off);
        const target = Number(h['target_address']);
        const regSize = Number(h['reg_size']);
        const regRepeat = Number(h['reg_repeat']);
        const bytes = regRepeat * alignUp(regSize, 8);
        off += 8;
        if (off + bytes > len)
          throw patchError(
            SimCodes.badPatch,
            `patch ${p} (target 0x${target.toString(16)}, reg_size ${regSize}, reg_repeat ${regRepeat}) needs ${bytes} data bytes; the blob has ${len - off} left`,
            '§12.6.1.2',
            off - 8,
            8,
          );
        if (target % 8) throw patchError(SimCodes.misaligned, `patch ${p} target_address 0x${target.toString(16)} is not 8-byte aligned`, '§12.6.1.2', off - 8, 8);
        const d = this.target(target, bytes, `patch ${p} target_address`, trip, now, true);
        // "Hardware imposes a maximum reg_size of 32 bytes for CSRs" (§12.6.1.2): CSR targets only (memory_map.json kinds
        // csr / cluster_csr), not microcode memories or configuration tables (a 96-byte rcsw_entry is one element).
        if (d.space === 'cfg' && regSize > 32 && overlapsCsr(d.addr, bytes))
          throw patchError(SimCodes.badPatch, `patch ${p} reg_size ${regSize} exceeds the 32-byte CSR maximum (target 0x${target.toString(16)} is a CSR)`, '§12.6.1.2', off - 8, 8);
        // Register elements are stored padded to 8 bytes, exactly as the CSR/config space lays them out (docs/image-layout.md).
        this.writes.push({ target: d, data: blob.slice(off, off + bytes) });
        t = Math.max(this.writePort.reserve(t, bytes), this.nocPort.reserve(t, bytes));
        off += bytes;
        this.bytesMoved += bytes;
      }
      if (off !== len)
        throw tripError(SimCodes.badPatch, `${this.name} trip ${trip.tripId}: ${num} patches use ${off} bytes but blob_length is ${len} bytes`, '§12.6.1.1', now, trip);
      this.patchesApplied += num;
    }
    this.doneAt = Math.max(now + 1, t);
  }
  /** Cycles the last NoC access was served late by the AMEM banks (fixed-priority client, amem/banks.ts claimFirst). */
  private late(now: number): number {
    return this.noc.servedAt > now ? this.noc.servedAt - now : 0;
  }
  tick(now: number): boolean {
    if (!this.trip || now < this.doneAt) return false;
    if (this.writes.length > 0) {
      // the writes land now; a bank access served late delays the trip's completion by as much
      let late = 0;
      for (const w of this.writes) {
        this.noc.write(w.target, w.data, CLIENT_MPE);
        late = Math.max(late, this.late(now));
      }
      this.writes = [];
      if (late > 0) {
        this.doneAt = now + late;
        return true;
      }
    }
    this.finish(now);
    return true;
  }
  nextWake(now: number): number {
    return this.trip ? Math.max(now, this.doneAt) : Infinity;
  }
  blockedReason(): string | undefined {
    return this.trip ? `writing ${this.trip.table === 'desc_mpe_dma' ? 'DMA data' : 'patches'} until cycle ${this.doneAt}` : undefined;
  }
}
