/** Test helper: RDMA Tx / Rx images for two chips (fabric-*.test.ts). */
import { encode, loadTable } from '@pyxis/codec';
import type { Trip } from '@pyxis/target-pyxis/sim';
import { ImageBuilder } from './pyxisImage.js';
import { voqOf } from './fabric-stub.js';

const desc = ImageBuilder.desc;
export const SRC = 0x10000;
export const DST = 0x40000;

export interface Rdma {
  tjid: number;
  rjid: number;
  words: number;
  page: number;
  /** Cycle at which the host enqueues the Tx / Rx list (0: the image's enqueue record). */
  txAt?: number;
  rxAt?: number;
  src?: number;
  dst?: number;
}

function enqueueValue(qid: number, address: number, length8: number): bigint {
  const w = encode(loadTable('pyxis', 'desc_enqueue_record'), { queue_id: qid, descriptor_list_address: address, descriptor_list_length: length8, cluster: 0 });
  return new DataView(w.buffer, w.byteOffset).getBigUint64(0, true);
}

/** Two images: chip `from` sends `r` to chip `to` (cluster 0 each); payload bytes. */
export function rdmaImages(r: Rdma, data: Uint8Array, txChip = 0, rxChip = 1): { tx: ImageBuilder; rx: ImageBuilder; late: Array<{ chip: 'tx' | 'rx'; at: number; value: bigint }> } {
  const tx = new ImageBuilder();
  const rx = new ImageBuilder();
  const late: Array<{ chip: 'tx' | 'rx'; at: number; value: bigint }> = [];
  const src = r.src ?? SRC;
  const dst = r.dst ?? DST;
  tx.data('amem', src, data);
  const td = desc('desc_rdma_tx', { trip_id: 1, tjid: r.tjid, rjid: r.rjid, dest_voq: voqOf(rxChip, 0), amem_address: src >> 7, num_words: r.words, page_size_words: r.page });
  const rd = desc('desc_rdma_rx', { trip_id: 2, tjid: r.tjid, rjid: r.rjid, msg_voq: voqOf(txChip, 0), amem_address: dst >> 7, num_words: r.words });
  if (r.txAt) {
    tx.data('amem', 0x1000, td);
    late.push({ chip: 'tx', at: r.txAt, value: enqueueValue(0x0c, 0x1000, td.length / 8) });
  } else tx.list(0x0c, 0x1000, [td]);
  if (r.rxAt) {
    rx.data('amem', 0x1000, rd);
    late.push({ chip: 'rx', at: r.rxAt, value: enqueueValue(0x0e, 0x1000, rd.length / 8) });
  } else rx.list(0x0e, 0x1000, [rd]);
  return { tx, rx, late };
}

/** Records the trips the RDMA queue engines start (their startAt / doneAt are set by the trip manager). */
export function watchTrips(chip: { fabricAdapter: { queueEngines: Array<Array<{ start(t: Trip, now: number): void }>> } | null }): Trip[] {
  const seen: Trip[] = [];
  for (const e of chip.fabricAdapter!.queueEngines[0]!) {
    const orig = e.start.bind(e);
    e.start = (t: Trip, now: number) => {
      seen.push(t);
      orig(t, now);
    };
  }
  return seen;
}

/** Byte-exact comparison without a slow deep-equal of large arrays: the first differing offset, or -1. */
export function firstDiff(a: Uint8Array, b: Uint8Array): number {
  if (a.length !== b.length) return Math.min(a.length, b.length);
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return i;
  return -1;
}
