/**
 * Trip descriptor queues (chip §11.5, Table 11-1): per queue a 4-entry ring of
 * (address, length) list registers with 3-bit head/tail pointers, i.e. one
 * wrap bit over two index bits (§11.5.1, `q_ring_pointer_t`). Empty when
 * head == tail; full when head ^ tail == 0x4.
 */
export const RING_ENTRIES = 4;
export const TRIP_QUEUES = 0x23;

export type QueueKind = 'uie' | 'rdma_tx' | 'rdma_rx' | 'h2a' | 'a2h' | 'icdma' | 'mpe' | 'barrier_config';

/** Table 11-1: what engine a per-cluster queue id feeds, and its index among engines of that kind. */
export function queueKind(qid: number): { kind: QueueKind; index: number } | undefined {
  if (qid >= 0x00 && qid <= 0x0b) return { kind: 'uie', index: qid };
  if (qid === 0x0c || qid === 0x0d) return { kind: 'rdma_tx', index: qid - 0x0c };
  if (qid === 0x0e || qid === 0x0f) return { kind: 'rdma_rx', index: qid - 0x0e };
  if (qid === 0x10) return { kind: 'h2a', index: 0 };
  if (qid === 0x11) return { kind: 'a2h', index: 0 };
  if (qid >= 0x12 && qid <= 0x14) return { kind: 'icdma', index: qid - 0x12 };
  if (qid >= 0x15 && qid <= 0x21) return { kind: 'mpe', index: qid - 0x15 };
  if (qid === 0x22) return { kind: 'barrier_config', index: 0 };
  return undefined;
}

/** Table 12-1: destination cluster of ICDMA engine `index` in source cluster `src`. */
export function icdmaDestination(src: number, index: number): number {
  return index < src ? index : index + 1;
}

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
