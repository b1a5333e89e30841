/**
 * H2A / A2H (chip §11.4.3, §11.4.4, §12.1): `length` 1 KiB units; AMEM address [26:7] with the view bit on top, HBM
 * address [35:10], tensor-mode mapping (§8.2.1), so the 1024 bytes at HBM address h are the 8 AMEM words at a.
 *
 * Timing (docs/timing-model.md): a unit issues when the shared HBM port of the cluster frees. H2A: HBM read (stack
 * port + read latency), then its AMEM write — 8 words in one cycle (chip §8.1.2) — as a round-robin bank claim
 * (dmaBankPort.ts) at the first cycle >= the data's arrival at which the engine port is free; served late by d cycles,
 * the unit's engine-port pass and commit move d cycles later and the following units queue behind it (the HBM reads
 * go on: the shim buffers the data, MODEL). A2H: the AMEM read is the first stage, claimed at issue; served late by d,
 * the unit's HBM write and commit move d later and the next unit issues no earlier than the cycle after it is served.
 */
import { loadTable } from '@pyxis/codec';
import { AMEM_BYTES, AMEM_VIEW_BIT } from '../common/amem.js';
import type { BandwidthPort } from '@pyxis/sim';
import { CLIENT_A2H, CLIENT_H2A } from './amem/banks.js';
import type { AmemAccess } from './amemAccess.js';
import type { Apm } from './apm.js';
import type { SimConfig } from './config.js';
import { SimCodes, tripError } from './diagnostics.js';
import { DmaBankPort } from './dmaBankPort.js';
import { ChunkedDmaEngine } from './engines.js';
import type { HbmMemory } from './memory.js';
import type { Trip, TripDone } from './trip.js';

/** Offset bits of a view address (the view bit removed, chip §7.5). */
const AMEM_OFFSET_MASK = AMEM_VIEW_BIT - 1;
/**
 * Bytes of one `length` unit and of one `hbm_base_address` step (chip §11.4.3, §11.4.4: 1K-byte blocks, HBM address
 * [35:10]): the table metadata `length_unit_bytes` / `hbm_address_unit_bytes` of desc_h2a and desc_a2h, which agree.
 */
export const UNIT = descUnit('length_unit_bytes');
export const HBM_ADDRESS_UNIT = descUnit('hbm_address_unit_bytes');

function descUnit(key: string): number {
  const v = ['desc_h2a', 'desc_a2h'].map((n) => loadTable('pyxis', n).meta?.[key]);
  if (typeof v[0] !== 'number' || !Number.isInteger(v[0]) || v[0] <= 0 || v[1] !== v[0]) throw new Error(`grammars/pyxis/desc_h2a.json, desc_a2h.json: meta.${key} must be the same positive integer in both`);
  return v[0];
}

/** Which way an HBM DMA moves data. */
export type HbmDirection = 'h2a' | 'a2h';

export class HbmDmaEngine extends ChunkedDmaEngine {
  private amemAddr = 0;
  private hbmAddr = 0;
  /** Port busy includes the APM stretch of the reservations (chip §13). */
  readonly stallReasons = ['HBM port busy', 'in flight (latency + write commit)'] as const;
  private readonly port: DmaBankPort;
  /** A2H: the commit cycle of the unit whose AMEM read is being settled. */
  private unitCommit = 0;
  // H2A: units between their HBM read and their AMEM write, a ring (arrival cycle, AMEM address, APM scale, data)
  private qArrive = new Float64Array(32);
  private qAddr = new Float64Array(32);
  private qScale = new Float64Array(32);
  private qData = new Uint8Array(32 * UNIT);
  /** `qData` as 32-bit words, for the AMEM's allocation-free word copies (`AmemAccess.writeWords32`). */
  private qData32 = new Uint32Array(this.qData.buffer);
  /** A2H: the unit read from AMEM, on its way to HBM (reused; with `readWords32`). */
  private readonly unit = new Uint8Array(UNIT);
  private readonly unit32 = new Uint32Array(this.unit.buffer);
  /** The AMEM offers the word copies (amem/amem.ts; a partition's proxy may not). */
  private readonly words: boolean;
  private qHead = 0;
  private qCount = 0;
  constructor(
    cluster: number,
    readonly direction: HbmDirection,
    done: TripDone,
    private readonly cfg: SimConfig,
    private readonly hbm: HbmMemory,
    private readonly amem: AmemAccess,
    private readonly hbmPort: BandwidthPort,
    private readonly enginePort: BandwidthPort,
    apm?: Apm,
    apmSlot = 0,
  ) {
    super(`c${cluster}.${direction}`, direction, cluster, done, apm, apmSlot);
    this.port = new DmaBankPort(amem, direction === 'h2a' ? CLIENT_H2A : CLIENT_A2H);
    this.words = typeof amem.readWords32 === 'function' && typeof amem.writeWords32 === 'function' && UNIT % 128 === 0;
  }
  protected begin(trip: Trip, now: number): void {
    this.amemAddr = Number(trip.fields['amem_start_address']) * 128;
    this.hbmAddr = Number(trip.fields['hbm_base_address']) * HBM_ADDRESS_UNIT;
    this.remaining = Number(trip.fields['length']);
    const end = (this.amemAddr & AMEM_OFFSET_MASK) + this.remaining * 1024;
    if (end > AMEM_BYTES)
      throw tripError(
        SimCodes.badAddress,
        `${this.name} trip ${trip.tripId}: AMEM range 0x${this.amemAddr.toString(16)} + ${this.remaining} KiB runs past the 64 MiB AMEM`,
        '§11.4.3',
        now,
        trip,
      );
    if (this.hbmAddr + this.remaining * 1024 > this.hbm.size)
      throw tripError(SimCodes.badAddress, `${this.name} trip ${trip.tripId}: HBM range past 2^36 bytes`, '§11.4.3', now, trip);
    this.startTransfer(now);
  }
  protected issue(now: number, sc: number): number {
    let commit: number;
    if (this.direction === 'h2a') {
      // §8.1.2: HBM read now; the 8 AMEM words are written by the AMEM stage when the data has arrived (`stage`)
      if (this.qCount === this.qArrive.length) this.growQueue();
      const k = (this.qHead + this.qCount) % this.qArrive.length;
      this.hbm.read(this.hbmAddr, this.qData, k * UNIT, UNIT);
      this.qArrive[k] = this.hbmPort.reserve(now, UNIT, sc) + this.cfg.hbm.read_latency_cycles;
      this.qAddr[k] = this.amemAddr;
      this.qScale[k] = sc;
      this.qCount++;
      commit = -1; // reported by the AMEM stage (ackCommit)
    } else {
      // §8.1.1: 8 AMEM words read (a bank claim, settled next cycle), 64 B to each of 16 HBM channels; HBM orders its own writes (§11.7)
      let data: Uint8Array = this.unit;
      if (this.words) this.amem.readWords32!(this.amemAddr, UNIT, this.unit32, 0, CLIENT_A2H);
      else data = this.amem.readBytes(this.amemAddr, UNIT, CLIENT_A2H);
      this.port.claimed(now);
      const t1 = this.enginePort.reserve(now, UNIT, sc);
      const t2 = this.hbmPort.reserve(t1, UNIT, sc);
      this.hbm.write(this.hbmAddr, data, 0, UNIT);
      commit = t2 + this.cfg.hbm.write_latency_cycles;
      this.unitCommit = commit;
    }
    this.bytesMoved += UNIT;
    this.amemAddr += UNIT;
    this.hbmAddr += UNIT;
    this.remaining--;
    return commit;
  }

  protected override stage(now: number): boolean {
    const port = this.port;
    if (this.direction === 'a2h') {
      if (port.pending && now > port.claimedAt) {
        const at = port.claimedAt;
        const late = port.settle(now);
        if (late > 0) {
          if (this.unitCommit + late > this.lastCommit) this.lastCommit = this.unitCommit + late;
          if (at + 1 + late > this.nextIssue) this.nextIssue = at + 1 + late;
        }
      }
      return false;
    }
    // H2A: settle last cycle's write, then write the head unit if its data is there and both ports are free
    if (port.pending && now > port.claimedAt) {
      const at = port.claimedAt;
      this.written(at + port.settle(now));
    }
    if (port.pending || this.qCount === 0) return false;
    const k = this.qHead;
    if (this.qArrive[k]! > now || port.freeAt() > now || Math.floor(this.enginePort.freeAt) > now) return false;
    if (this.words) this.amem.writeWords32!(this.qAddr[k]!, this.qData32, (k * UNIT) >> 2, UNIT, CLIENT_H2A);
    else this.amem.writeBytes(this.qAddr[k]!, this.qData.subarray(k * UNIT, k * UNIT + UNIT), CLIENT_H2A);
    port.claimed(now);
    if (!port.pending) this.written(now); // AMEM without a bank model: served at once
    return true;
  }

  /** H2A: the head unit's AMEM write was served at `s`: its engine-port pass, then the commit (chip §11.7.2). */
  private written(s: number): void {
    const k = this.qHead;
    const t2 = this.enginePort.reserve(s, UNIT, this.qScale[k]!);
    this.qHead = (k + 1) % this.qArrive.length;
    this.qCount--;
    this.ackCommit(t2 + this.cfg.amem.write_commit_latency_cycles);
  }

  protected override stageWake(): number {
    const port = this.port;
    if (port.pending) return port.claimedAt + 1;
    if (this.direction === 'a2h' || this.qCount === 0) return Infinity;
    return Math.max(this.qArrive[this.qHead]!, port.freeAt(), Math.floor(this.enginePort.freeAt));
  }

  protected override stageBusy(): boolean {
    return this.port.pending || this.qCount > 0;
  }

  private growQueue(): void {
    const n = this.qArrive.length;
    const grow = (a: Float64Array) => {
      const b = new Float64Array(2 * n);
      for (let i = 0; i < n; i++) b[i] = a[(this.qHead + i) % n]!;
      return b;
    };
    const d = new Uint8Array(2 * n * UNIT);
    for (let i = 0; i < n; i++) d.set(this.qData.subarray(((this.qHead + i) % n) * UNIT, ((this.qHead + i) % n) * UNIT + UNIT), i * UNIT);
    this.qArrive = grow(this.qArrive);
    this.qAddr = grow(this.qAddr);
    this.qScale = grow(this.qScale);
    this.qData = d;
    this.qData32 = new Uint32Array(d.buffer);
    this.qHead = 0;
  }

  /**
   * The next unit issues when the shared HBM port frees (keeps H2A and A2H interleaved fairly). H2A's first stage is
   * the HBM read; A2H's is the AMEM read (the engine port), so an A2H unit issues one engine-stage earlier, and its
   * HBM write starts as the previous one ends: the stack stays busy, as in H2A (chip §8.1.1, §12.1).
   */
  protected portFreeAt(): number {
    if (this.direction === 'h2a') return this.hbmPort.freeAt;
    return Math.max(this.enginePort.freeAt, this.hbmPort.freeAt - UNIT / this.enginePort.bytesPerCycle);
  }
  protected pendingWork(): string {
    return `${this.remaining} KiB left, HBM port busy until ${Math.ceil(this.hbmPort.freeAt)}`;
  }
}
