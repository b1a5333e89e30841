/**
 * Wire timing (chip §10.1, §10.7 [5a]): expected cycles derived here from fabric.json / sim_config.json and an
 * independent reading of the §10.1 cell rules, against the wire model driven by stub adapters (the real adapter is
 * the fadapter developer's).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Simulator, runPartitioned } from '@pyxis/sim';
import { createWires } from '../../../src/sim/fabric/wireSet.js';
import { fabricParams, loadFabricJson, type FabricJson } from '../../../src/sim/fabric/wireParams.js';
import { legalVpfe, vpfeRoute } from '../../../src/sim/fabric/vpfe.js';
import type { FabricPage, FabricPageType } from '../../../src/sim/fabric/port.js';
import { parseFaultSpec } from '../../../src/sim/fabric/faults.js';

const root = new URL('../../../../../', import.meta.url);
const raw = JSON.parse(readFileSync(new URL('grammars/pyxis/fabric.json', root), 'utf8'));
const clockHz: number = JSON.parse(readFileSync(new URL('grammars/pyxis/sim_config.json', root), 'utf8')).clock_hz;
/** One-way latency: half the §10.1 RTT (~2 us) at the chip clock, rounded up. */
const L = Math.ceil(((raw.rtt_ns / 2) * clockHz) / 1e9);
/** §10.1: 176-B cells of 11 x 16-B chunks; an 88-B/cycle pipe moves a 96..176-B cell in 2 cycles (§10.7 [5a]). */
function pipeCyclesRef(bytes: number): number {
  const chunks = Math.ceil(bytes / 16);
  const cells = Math.max(1, Math.ceil(chunks / 11));
  return cells * 2;
}

interface Sent {
  chip: number;
  cluster: number;
  qpage: number;
  dstChip: number;
  bytes: number;
  type?: FabricPageType;
}
interface Log {
  granted: Map<string, number>;
  dequeued: Map<string, number>;
  received: Array<{ chip: number; at: number; src: number; qpage: number; corrupt: boolean }>;
  stats?: Array<{ grants: number; grantWaitCycles: number; grantWaitFrom: Record<number, number> }>;
}

function run(nChips: number, sends: Sent[], opts: { json?: FabricJson; order?: number[]; faults?: string } = {}): Log {
  const p = fabricParams(opts.json ?? loadFabricJson(), clockHz);
  const sims = Array.from({ length: nChips }, () => new Simulator());
  const route = vpfeRoute(Array.from({ length: nChips }, (_, c) => [0, 1, 2, 3].map((k) => legalVpfe(c * 4 + k))), 4);
  const { wires, crossLinks } = createWires(sims, p, route, opts.faults ? parseFaultSpec(opts.faults) : null);
  const log: Log = { granted: new Map(), dequeued: new Map(), received: [] };
  const pages = new Map<string, FabricPage>();
  wires.forEach((w, c) => {
    w.side = {
      tx: {
        granted(now, cl, q) {
          log.granted.set(`${c}.${cl}.${q}`, now);
          w.transmit(now, pages.get(`${c}.${cl}.${q}`)!); // a stub adapter: the page is ready at once
        },
        dequeued(now, cl, q) {
          log.dequeued.set(`${c}.${cl}.${q}`, now);
        },
      },
      rx: {
        receive(now, _cl, page) {
          log.received.push({ chip: c, at: now, src: page.srcChip, qpage: page.qpage, corrupt: page.corrupt ?? false });
        },
      },
    };
  });
  for (const s of sends) {
    const dest = { vpfe: legalVpfe(s.dstChip * 4), oq: 0 };
    const page: FabricPage = {
      srcChip: s.chip, srcCluster: s.cluster, voq: s.dstChip * 16, dest, qpage: s.qpage, wireBytes: s.bytes, type: s.type ?? 'rdma_data',
      header: new Uint8Array(16), payload: null, payloadBytes: s.bytes - 16,
    };
    pages.set(`${s.chip}.${s.cluster}.${s.qpage}`, page);
    wires[s.chip]!.enqueue(0, page);
  }
  const order = opts.order ?? sims.map((_, i) => i);
  const r = runPartitioned(order.map((i) => sims[i]!), order.map((i) => crossLinks[i]!), { lookahead: p.oneWayCycles });
  expect(r.reason).toBe('done');
  log.received.sort((a, b) => a.at - b.at || a.src - b.src || a.qpage - b.qpage);
  log.stats = wires.map((w) => w.stats);
  return log;
}

describe('fabric wire timing (§10.1, §10.7 [5a])', () => {
  it('derives the one-way latency from the ~2 us RTT', () => {
    expect(fabricParams(loadFabricJson(), clockHz).oneWayCycles).toBe(L);
    expect(L).toBe(1330); // 1 us at 1.33 GHz
  });

  it('one page of 125 words + header = 16016 B = 91 cells = 182 cycles: granted after one RTT, received after RTT + flight + cells', () => {
    const bytes = 125 * 128 + 16;
    expect(pipeCyclesRef(bytes)).toBe(182);
    const log = run(2, [{ chip: 0, cluster: 0, qpage: 7, dstChip: 1, bytes }]);
    expect(log.granted.get('0.0.7')).toBe(2 * L);
    expect(log.dequeued.get('0.0.7')).toBe(2 * L + 182);
    expect(log.received).toEqual([{ chip: 1, at: 3 * L + 182, src: 0, qpage: 7, corrupt: false }]);
  });

  it('P pages to one destination: grants paced at the 4 FI pipes (182 / 4 cycles per page), pipes overlap', () => {
    const P = 9;
    const bytes = 125 * 128 + 16;
    const log = run(2, Array.from({ length: P }, (_, i) => ({ chip: 0, cluster: 0, qpage: i, dstChip: 1, bytes })));
    const c = pipeCyclesRef(bytes);
    const expected = Array.from({ length: P }, (_, i) => 3 * L + Math.ceil((i * c) / 4) + c);
    expect(log.received.map((r) => r.at)).toEqual(expected);
    expect(log.received.map((r) => r.qpage)).toEqual([...Array(P).keys()]);
  });

  for (const N of [2, 4]) {
    it(`${N} sources into one output queue share its FI rate in round robin`, () => {
      const P = 4;
      const bytes = 64 * 128 + 16; // 8208 B = 513 chunks = 47 cells (513 % 11 = 7: last two cells 11 + 7 chunks)
      const c = pipeCyclesRef(bytes);
      expect(c).toBe(94);
      const sends: Sent[] = [];
      for (let s = 1; s <= N; s++) for (let i = 0; i < P; i++) sends.push({ chip: s, cluster: 0, qpage: i, dstChip: 0, bytes });
      const log = run(N + 1, sends);
      const expected = Array.from({ length: N * P }, (_, j) => 3 * L + Math.ceil((j * c) / 4) + c);
      expect(log.received.map((r) => r.at)).toEqual(expected);
      // Round robin over the source chips: 1, 2, .., N, 1, 2, ...
      expect(log.received.map((r) => r.src)).toEqual(Array.from({ length: N * P }, (_, j) => 1 + (j % N)));
      // Grant waits at chip 0: grant j happens ceil(j * c / 4) cycles after every request arrived (at L).
      const waits = Array.from({ length: N * P }, (_, j) => Math.ceil((j * c) / 4));
      expect(log.stats![0]!.grants).toBe(N * P);
      expect(log.stats![0]!.grantWaitCycles).toBe(waits.reduce((a, b) => a + b, 0));
      for (let s = 1; s <= N; s++) expect(log.stats![0]!.grantWaitFrom[s]).toBe(waits.filter((_, j) => 1 + (j % N) === s).reduce((a, b) => a + b, 0));
    });
  }

  it('fifo scheduler and messages first: a CTS requested after data pages is granted first', () => {
    const j = loadFabricJson();
    j.grant.scheduler = 'fifo';
    const data = 125 * 128 + 16;
    const sends: Sent[] = [0, 1, 2, 3, 4, 5].map((i) => ({ chip: 0, cluster: 0, qpage: i, dstChip: 1, bytes: data }));
    sends.push({ chip: 2, cluster: 0, qpage: 99, dstChip: 1, bytes: j.min_packet_bytes, type: 'cts' });
    const log = run(3, sends, { json: j });
    const cts = log.received.find((r) => r.qpage === 99)!;
    // Granted at the first grant slot (L), flies L back and L forward; one minimum cell = 2 cycles.
    expect(cts.at).toBe(3 * L + 2);
  });

  it('faults: drop never arrives, corrupt arrives flagged; both still dequeue at the source', () => {
    const sends: Sent[] = [0, 1, 2, 3].map((i) => ({ chip: 0, cluster: 0, qpage: i, dstChip: 1, bytes: 1040 }));
    const log = run(2, sends, { faults: 'drop:data:nth=1,corrupt:data:nth=2' });
    expect(log.received.map((r) => [r.qpage, r.corrupt])).toEqual([
      [0, false],
      [2, true],
      [3, false],
    ]);
    expect(log.dequeued.size).toBe(4);
  });

  it('a page whose VPFE is no cluster of the system is not delivered and reported (SIM0701)', () => {
    const p = fabricParams(loadFabricJson(), clockHz);
    const sim = new Simulator();
    const { wires } = createWires([sim], p, vpfeRoute([[0, 1, 2, 4]], 4));
    wires[0]!.enqueue(0, { srcChip: 0, srcCluster: 0, voq: 40, dest: { vpfe: 40, oq: 0 }, qpage: 1, wireBytes: 96, type: 'cts' });
    expect(wires[0]!.stats.unroutable).toBe(1);
    expect(wires[0]!.diagnostics.map((d) => [d.code, d.severity])).toEqual([['SIM0701', 'warning']]);
    expect(wires[0]!.outstanding).toBe(0);
  });

  it('results do not depend on the order the chips are run in (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ chip: fc.integer({ min: 0, max: 3 }), dstChip: fc.integer({ min: 0, max: 3 }), bytes: fc.integer({ min: 17, max: 16400 }), cluster: fc.integer({ min: 0, max: 3 }) }), { minLength: 1, maxLength: 12 }),
        fc.shuffledSubarray([0, 1, 2, 3], { minLength: 4, maxLength: 4 }),
        (ss, order) => {
          const sends = ss.map((s, i) => ({ ...s, qpage: i }));
          const a = run(4, sends);
          const b = run(4, sends, { order });
          expect(b.received).toEqual(a.received);
          expect([...b.dequeued].sort()).toEqual([...a.dequeued].sort());
        },
      ),
      { numRuns: Number(process.env.PYXIS_PROPERTY_RUNS ?? 15) },
    );
  });
});
