/**
 * The alpha-beta model of a generated collective (docs/collectives.md "Timing model"), evaluated on the generator's
 * plans (which trips, which `after` barriers, which Tx pairs with which Rx) from the parameters in
 * grammars/pyxis/fabric.json, fabric_adapter.json and sim_config.json, read here. It never imports the simulator.
 *
 * Every message (CTS, data page, ACK) costs alpha = one request/grant round trip (2L, a new communication, §10.1)
 * + the flight (L) + its cells on the pipes (2 cycles per cell, §10.1 table) + the adapter's fixed latencies;
 * data pages add beta = their words through TxDMA and Rx DMA (one AMEM word per cycle each) and the write commit.
 * Trips start `notify + launch` cycles after the barrier's last producer ends; the UIE runs its trips one at a time.
 */
import { readFileSync } from 'node:fs';

const g = (n: string) => JSON.parse(readFileSync(new URL(`../../../grammars/pyxis/${n}.json`, import.meta.url), 'utf8'));

export interface ModelParams {
  L: number; // one-way flight, cycles
  pipeBytes: number;
  chunk: number;
  minChunks: number;
  maxChunks: number;
  lastTwo: Map<number, [number, number]>;
  header: number;
  msgBytes: number;
  encap: number;
  txdmaLatency: number;
  decap: number;
  commit: number;
  notify: number;
  launch: number;
  nocLatency: number;
  readPipe: number;
}

export function loadModelParams(): ModelParams {
  const f = g('fabric');
  const a = g('fabric_adapter');
  const s = g('sim_config');
  return {
    L: Math.ceil((f.rtt_ns / 2) * 1e-9 * s.clock_hz - 1e-9),
    pipeBytes: f.pipe_bytes_per_cycle,
    chunk: f.cell.chunk_bytes,
    minChunks: f.cell.min_chunks,
    maxChunks: f.cell.max_chunks,
    lastTwo: new Map(f.last_two_cells.rows.map((r: { mod: number; next_to_last: number; last: number }) => [r.mod, [r.next_to_last, r.last]])),
    header: f.page_header_bytes,
    msgBytes: f.min_packet_bytes,
    encap: a.txdma.encap_latency_cycles,
    txdmaLatency: a.txdma.latency_cycles,
    decap: a.rxdma.decap_latency_cycles,
    commit: s.amem.write_commit_latency_cycles,
    notify: s.trip_manager.notify_latency_cycles,
    launch: s.trip_manager.launch_latency_cycles,
    nocLatency: s.noc.latency_cycles,
    readPipe: s.amem.request_shim_cycles + s.amem.read_latency_cycles + s.amem.switch_convert_cycles,
  };
}

/** Pipe cycles of a page of `bytes` on the wire: its §10.1 cells, each ceil(cell / 88) cycles. */
export function pipeCycles(p: ModelParams, bytes: number): number {
  const chunks = Math.max(p.minChunks, Math.ceil(bytes / p.chunk));
  const cells: number[] = [];
  if (chunks <= p.maxChunks) cells.push(chunks);
  else {
    const [a, b] = p.lastTwo.get(chunks % p.maxChunks)!;
    for (let left = chunks - a - b; left > 0; left -= p.maxChunks) cells.push(p.maxChunks);
    cells.push(a, b);
  }
  return cells.reduce((t, c) => t + Math.ceil((c * p.chunk) / p.pipeBytes), 0);
}

interface Trip { name: string; after: string[]; id?: number; peer?: number; read?: string }
interface Plan { tx: Trip[]; rx: Trip[]; red: Trip[] }

/** Modelled cycles of the whole collective (the last trip's end). */
export function modelCycles(
  p: ModelParams,
  o: { chips: number; rows: number; pageSizeWords: number },
  plans: Plan[],
  peers: (c: number) => Record<number, number>,
): number {
  const N = o.chips;
  const words = o.rows * 2; // one row of 128 RFP16 = 256 B = two 128-B AMEM words
  const pages: number[] = [];
  for (let left = words; left > 0; left -= o.pageSizeWords) pages.push(Math.min(left, o.pageSizeWords));
  const msg = (t: number) => t + 2 * p.L + p.encap + p.L + pipeCycles(p, p.msgBytes); // enqueue -> the peer has it
  // start-up: the first descriptors come over the NoC, then the trip launches (MODEL: one NoC latency)
  const t0 = p.nocLatency + p.launch + 1;
  // RMW_Add (InMemAdd) holds the AMEM Write port two cycles per word (a read and a write of the bank, chip §7.4;
  // docs/timing-model.md AMEM banks), the read stream one: the write side paces the trip
  const reduceCycles = 2 * words + p.readPipe + p.commit;
  const start = new Map<string, number>();
  const end = new Map<string, number>();
  const key = (c: number, n: string) => `${c}:${n}`;
  // partner Rx of each Tx
  const rxOf = new Map<string, [number, Trip]>();
  const txOf = new Map<string, [number, Trip]>();
  for (let c = 0; c < N; c++)
    for (const t of plans[c].tx) {
      const d = peers(c)[t.peer!]!;
      const r = plans[d].rx.find((x) => x.id === t.id && peers(d)[x.peer!] === c)!;
      rxOf.set(key(c, t.name), [d, r]);
      txOf.set(key(d, r.name), [c, t]);
    }
  const get = (m: Map<string, number>, k: string) => m.get(k) ?? -Infinity;
  for (let iter = 0, changed = true; changed; iter++) {
    if (iter > 100000) throw new Error('model did not settle');
    changed = false;
    const set = (m: Map<string, number>, k: string, v: number) => {
      if (Number.isFinite(v) && v !== m.get(k)) {
        m.set(k, v);
        changed = true;
      }
    };
    for (let c = 0; c < N; c++) {
      const ready = (t: Trip) => Math.max(t0, ...t.after.map((a) => get(end, key(c, a)) + p.notify + p.launch));
      const queue = (ts: Trip[], serial: boolean, dur: (t: Trip, s: number) => number) => {
        let prevS = t0;
        let prevE = t0;
        for (const t of ts) {
          const s = Math.max(ready(t), serial ? prevE : prevS);
          set(start, key(c, t.name), s);
          set(end, key(c, t.name), dur(t, s));
          prevS = s;
          prevE = get(end, key(c, t.name));
        }
      };
      queue(plans[c].rx, false, (t, s) => {
        // the CTS leaves at s; the data pages come from the partner's Tx
        const [tc, tt] = txOf.get(key(c, t.name))!;
        const ts = get(start, key(tc, tt.name));
        const gen = Math.max(ts + 1, msg(s));
        let dma = -Infinity;
        let last = 0;
        pages.forEach((w, i) => {
          const arrive = gen + i + 2 * p.L + p.txdmaLatency + w + p.encap + p.L + pipeCycles(p, p.header + w * 128);
          dma = Math.max(arrive, dma + last);
          last = w;
        });
        return dma + p.decap + last + p.commit;
      });
      // a Tx job ends when the ACK its partner Rx sends at its end reaches it
      queue(plans[c].tx, false, (t) => {
        const [d, r] = rxOf.get(key(c, t.name))!;
        return msg(get(end, key(d, r.name)));
      });
      queue(plans[c].red, true, (_t, s) => s + reduceCycles);
    }
  }
  let last = 0;
  for (const v of end.values()) last = Math.max(last, v);
  return last + p.notify + 1;
}
