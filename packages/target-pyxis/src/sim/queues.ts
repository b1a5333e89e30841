/**
 * Trip descriptor queues (chip §11.5, Table 11-1): per queue a 4-entry ring of
 * (address, length) list registers with 3-bit head/tail pointers, i.e. one
 * wrap bit over two index bits (§11.5.1, `q_ring_pointer_t`). Empty when
 * head == tail; full when head ^ tail == 0x4.
 */
import { icdmaDestination, tripQueueIds } from '../common/nocMap.js';

export const RING_ENTRIES = 4;

export type QueueKind = 'uie' | 'rdma_tx' | 'rdma_rx' | 'h2a' | 'a2h' | 'icdma' | 'mpe' | 'barrier_config';

/** Trip-descriptor queue ids of Table 11-1 (`queues` of grammars/pyxis/noc_map.json; datagram rings excluded). */
const TRIP_KINDS: ReadonlyArray<{ kind: QueueKind; index: number } | undefined> = (() => {
  const out: Array<{ kind: QueueKind; index: number } | undefined> = [];
  for (const q of tripQueueIds()) out[q.id] = { kind: q.kind as QueueKind, index: q.index };
  return out;
})();

/** Number of trip-descriptor queue ids (0x23: ids 0x00-0x22, chip Table 11-1). */
export const TRIP_QUEUES: number = TRIP_KINDS.length;

/** Table 11-1: what engine a per-cluster queue id feeds, and its index among engines of that kind. */
export function queueKind(qid: number): { kind: QueueKind; index: number } | undefined {
  const k = Number.isInteger(qid) && qid >= 0 ? TRIP_KINDS[qid] : undefined;
  return k ? { kind: k.kind, index: k.index } : undefined;
}

/** Table 12-1: destination cluster of ICDMA engine `index` in source cluster `src`. */
export { icdmaDestination };

export class DescriptorQueue {
  /** Ring registers: list engine address and length in 8-byte units (N, not N-1). */
  readonly ringAddress = new Float64Array(RING_ENTRIES);
  readonly ringLength = new Int32Array(RING_ENTRIES);
  /** 3-bit pointers: {wrap, q_idx[1:0]}. */
  head = 0;
  tail = 0;
  /** DPE cursor: bytes of the head list already fetched. */
  fetched = 0;
  lists = 0;
  constructor(
    readonly cluster: number,
    readonly qid: number,
  ) {}

  get empty(): boolean {
    return this.head === this.tail;
  }
  get full(): boolean {
    return (this.head ^ this.tail) === 0x4;
  }
  /** Lists in the ring (difference of the pointers, §11.5.1). */
  get count(): number {
    return (this.tail - this.head) & 7;
  }

  /** The enqueue CSR write (Table 11-2): false when the ring is full. */
  enqueue(address: number, length8: number): boolean {
    if (this.full) return false;
    const i = this.tail & 3;
    this.ringAddress[i] = address;
    this.ringLength[i] = length8;
    this.tail = (this.tail + 1) & 7;
    this.lists++;
    return true;
  }

  headAddress(): number {
    return this.ringAddress[this.head & 3]!;
  }
  headBytes(): number {
    return this.ringLength[this.head & 3]! * 8;
  }

  /** The DPE has fetched the whole head list: advance the head pointer. */
  advanceHead(): void {
    this.head = (this.head + 1) & 7;
    this.fetched = 0;
  }
}
