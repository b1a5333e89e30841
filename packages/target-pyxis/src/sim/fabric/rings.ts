/**
 * Datagram descriptor rings (chip §11.5.2): per cluster two TxQs (dgram_tx0/1, queue ids 0x23-0x24) and two RxQs
 * (dgram_rx0/1, 0x25-0x26), rings of 8-byte descriptors (desc_dgram_tx / desc_dgram_rx, §11.4.8-11.4.9) in AMEM or
 * HBM. Software writes the tail pointer, hardware the head pointer; a ring of N entries holds at most N-1. The
 * descriptor prefetch pointer lies between head and tail (§11.5.2.1-2). The descriptor reads and the Rx write-back of
 * PacketSizeBytes are functional (MODEL: not timed, docs/timing-model.md "Fabric adapter").
 */
import { decode, encode, loadTable } from '@pyxis/codec';
import type { AmemAccess } from '../amemAccess.js';
import type { HbmMemory } from '../memory.js';

export const DGRAM_TX = loadTable('pyxis', 'desc_dgram_tx');
export const DGRAM_RX = loadTable('pyxis', 'desc_dgram_rx');
export const DGRAM_DESC_BYTES = 8;

/** Where a ring lives: a cluster's AMEM (view address) or HBM. */
export interface RingPlacement {
  space: 'amem' | 'hbm';
  /** AMEM cluster for space 'amem'. */
  cluster: number;
  address: number;
  entries: number;
  /** Initial tail pointer (the linker's image: every written descriptor is valid, entries - 1). */
  tail: number;
}

export class DatagramRing {
  head = 0;
  tail: number;
  /** Prefetch pointer: descriptors in [head, prefetch) are in hardware (§11.5.2). */
  prefetch = 0;
  constructor(
    readonly name: string,
    readonly at: RingPlacement,
    private readonly amem: (cluster: number) => AmemAccess,
    private readonly hbm: HbmMemory,
  ) {
    if (!(Number.isInteger(at.entries) && at.entries >= 2)) throw new RangeError(`${name}: a ring needs at least 2 entries, got ${at.entries}`);
    this.tail = at.tail % at.entries;
  }
  get entries(): number {
    return this.at.entries;
  }
  /** Descriptors software made valid that hardware has not fetched yet. */
  get unfetched(): number {
    return (this.tail - this.prefetch + this.entries) % this.entries;
  }
  /** Software advances the tail pointer (§11.5.2: one entry past the last valid descriptor). */
  setTail(tail: number): void {
    this.tail = ((tail % this.entries) + this.entries) % this.entries;
  }
  private bytes(i: number): Uint8Array {
    const a = this.at.address + i * DGRAM_DESC_BYTES;
    if (this.at.space === 'amem') return this.amem(this.at.cluster).readBytes(a, DGRAM_DESC_BYTES);
    const out = new Uint8Array(DGRAM_DESC_BYTES);
    this.hbm.read(a, out, 0, DGRAM_DESC_BYTES);
    return out;
  }
  /** Fetches the descriptor at the prefetch pointer and advances it; its ring index and fields. */
  fetch(peek = false): { index: number; fields: Record<string, number> } {
    const index = this.prefetch;
    const v = decode(this.name.includes('tx') ? DGRAM_TX : DGRAM_RX, this.bytes(index));
    if (!peek) this.prefetch = (index + 1) % this.entries;
    const fields: Record<string, number> = {};
    for (const [k, x] of Object.entries(v)) fields[k] = Number(x);
    return { index, fields };
  }
  /** Rx: hardware writes PacketSizeBytes into the descriptor (§11.4.9, §10.8.8). */
  writePacketSize(index: number, amemAddress: number, bytes: number): void {
    const d = encode(DGRAM_RX, { amem_address: amemAddress, buffer_size_bytes: bytes });
    const a = this.at.address + index * DGRAM_DESC_BYTES;
    if (this.at.space === 'amem') this.amem(this.at.cluster).writeBytes(a, d);
    else this.hbm.write(a, d, 0, DGRAM_DESC_BYTES);
  }
  /** Hardware advances the head pointer by one (in order). */
  advanceHead(): void {
    this.head = (this.head + 1) % this.entries;
  }
}

/** A ring descriptor as the DPE fetched it: its ring index and decoded fields. */
export type RingDescriptor = { index: number; fields: Record<string, number> };

/**
 * The shallow hardware FIFO of one datagram queue (TxQ or RxQ) that the DPE keeps topped up from its ring (§11.5.2.1-2,
 * §12.5): one read per valid unfetched descriptor while the FIFO has room for it (reads in flight count); each read
 * lands `delay` cycles after it is issued. Shared by the Tx and Rx sides.
 */
export class DescriptorPrefetch {
  readonly fifo: RingDescriptor[] = [];
  /** Descriptor reads in flight. */
  private inflight = 0;
  /** The DPE should read the ring's next descriptor now. */
  wanted(ring: DatagramRing | null, depth: number): boolean {
    return !!ring && ring.unfetched > 0 && this.fifo.length + this.inflight < depth;
  }
  /** Issues every wanted read (`check` sees each descriptor when it is read); true if one was issued. */
  fill(ring: DatagramRing | null, depth: number, now: number, delay: number, schedule: (at: number, fn: () => void) => void, check?: (d: RingDescriptor) => void): boolean {
    let did = false;
    while (this.wanted(ring, depth)) {
      const d = ring!.fetch();
      check?.(d);
      this.inflight++;
      schedule(now + delay, () => {
        this.inflight--;
        this.fifo.push(d);
      });
      did = true;
    }
    return did;
  }
}
