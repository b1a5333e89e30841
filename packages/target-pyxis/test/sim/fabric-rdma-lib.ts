/** Test helper: RDMA Tx / Rx images for two chips (fabric-*.test.ts). */
import { encode, loadGrammarJson, loadTable } from '@pyxis/codec';
import { DiagnosticError, type Diagnostic } from '@pyxis/diagnostics';
import { loadSimConfig, type Trip } from '@pyxis/target-pyxis/sim';
import { ImageBuilder } from './pyxisImage.js';
import { voqOf } from './fabric-stub.js';

const desc = ImageBuilder.desc;
const P = loadGrammarJson<any>('pyxis', 'fabric_adapter');
const COMMIT = loadSimConfig().amem.write_commit_latency_cycles;
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

/** Reference timing of one RDMA job over the stub fabric (docs/timing-model.md "Fabric adapter"), at most 4 pages. */
export function expectedTimes(r: Rdma, R: number, T: number, G: number, L: number): { rxDone: number; txDone: number; pages: number[] } {
  const t = P.txdma;
  const x = P.rxdma;
  const pages: number[] = [];
  for (let w = r.words; w > 0; w -= r.page) pages.push(Math.min(r.page, w));
  // CTS: enqueued when the Rx job is set up (R), granted G later, header encapsulated, L on the wire
  const C = Math.max(R + G + t.encap_latency_cycles + L, T);
  // page i generated at C + i, granted G later on pipe i, read at one word per cycle after the TxDMA latency; pages of
  // one VOQ leave in order
  let lastTx = 0;
  const arrive = pages.map((w, i) => {
    const ready = Math.max(C + i + G + t.latency_cycles + w + t.encap_latency_cycles, lastTx);
    lastTx = ready;
    return ready + L;
  });
  // Rx DMA: one word per cycle after decap, commit latency after the last word; pages in order
  let free = 0;
  let commit = 0;
  arrive.forEach((a, i) => {
    const s = Math.max(a, free);
    free = s + pages[i]!;
    commit = Math.max(commit, s + x.decap_latency_cycles + pages[i]! + COMMIT);
  });
  const rxDone = commit;
  // ACK: enqueued at rxDone, granted, encapsulated, on the wire; the Tx job retires when it is received
  const txDone = rxDone + G + t.encap_latency_cycles + L;
  return { rxDone, txDone, pages };
}

/** The first diagnostic of the DiagnosticError `f` throws (any other exception is rethrown; none fails the test). */
export function firstDiagnostic(f: () => unknown): Diagnostic {
  try {
    f();
  } catch (e) {
    if (e instanceof DiagnosticError) return e.diagnostics[0]!;
    throw e;
  }
  throw new Error('expected a DiagnosticError, none was thrown');
}
