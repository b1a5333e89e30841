/**
 * The destination's Rx CBUF (chip §10.8.3: 24K cells) as the grant scheduler's limit (§10.8 [8]: "As each CBUF cell
 * is freed, the Page Reader signals this to the VIQM (and associate Grant Scheduler). This is how the GS detects
 * whether it may issue more grants"). A stub adapter frees a page's cells when the page is whole (its page reader
 * takes it at once). Expected cycles derived here from fabric.json: one-way latency L = RTT / 2, a 125-word page =
 * 16016 B = 91 cells = 182 pipe cycles, grants paced at 182 / 4 cycles per page on 4 FI pipes.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Simulator, runPartitioned } from '@pyxis/sim';
import { createWires } from '../../../src/sim/fabric/wireSet.js';
import { fabricParams, loadFabricJson, type FabricJson } from '../../../src/sim/fabric/wireParams.js';
import { legalVpfe, vpfeRoute } from '../../../src/sim/fabric/vpfe.js';
import type { FabricPage } from '../../../src/sim/fabric/port.js';
import { parseFaultSpec } from '../../../src/sim/fabric/faults.js';

const root = new URL('../../../../../', import.meta.url);
const raw = JSON.parse(readFileSync(new URL('grammars/pyxis/fabric.json', root), 'utf8'));
const clockHz: number = JSON.parse(readFileSync(new URL('grammars/pyxis/sim_config.json', root), 'utf8')).clock_hz;
const L = Math.ceil(((raw.rtt_ns / 2) * clockHz) / 1e9);
const PAGE_BYTES = 16 + 125 * 128;
/** §10.1: 16016 B = 1001 chunks = 91 full cells; 2 pipe cycles per cell at 88 B/cycle. */
const CELLS = Math.ceil(Math.ceil(PAGE_BYTES / 16) / 11);
const PIPE = 2 * CELLS;

function run(pages: number, cbufCells: number, faults?: string, flush: number[] = [], oqPages?: number, pageBytes = PAGE_BYTES) {
  const json: FabricJson = { ...loadFabricJson(), rx_cbuf_cells: cbufCells, ...(oqPages ? { rx_oq_pages: oqPages } : {}) };
  const p = fabricParams(json, clockHz);
  const sims = [new Simulator(), new Simulator()];
  const route = vpfeRoute([0, 1].map((c) => [0, 1, 2, 3].map((k) => legalVpfe(c * 4 + k))), 4);
  const { wires, crossLinks } = createWires(sims, p, route, faults ? parseFaultSpec(faults) : null);
  const granted: number[] = [];
  const received: number[] = [];
  const dequeued: number[] = [];
  const byQ = new Map<number, FabricPage>();
  wires[0]!.side = {
    tx: {
      // a page in `flush` belongs to a failed job: flushed from the VOQ instead of sent (§10.7.1.1, §11.8)
      granted: (now, _c, q) => (granted[q] = now, flush.includes(q) ? wires[0]!.discard(now, byQ.get(q)!) : wires[0]!.transmit(now, byQ.get(q)!)),
      dequeued: (now, _c, q) => (dequeued[q] = now),
    },
    rx: { receive: () => {} },
  };
  wires[1]!.side = {
    tx: { granted: () => {}, dequeued: () => {} },
    rx: {
      receive: (now, _c, page) => {
        received[page.qpage] = now;
        wires[1]!.rxCellsFreed(now, page); // the page reader takes it at once
      },
    },
  };
  for (let q = 0; q < pages; q++) {
    const page: FabricPage = {
      srcChip: 0, srcCluster: 0, voq: 16, dest: { vpfe: legalVpfe(4), oq: 0 }, qpage: q, wireBytes: pageBytes, type: 'rdma_data',
      header: new Uint8Array(16), payload: null, payloadBytes: pageBytes - 16,
    };
    byQ.set(q, page);
    wires[0]!.enqueue(0, page);
  }
  const r = runPartitioned(sims, crossLinks, { lookahead: p.oneWayCycles });
  expect(r.reason).toBe('done');
  return { granted, received, dequeued, stats: wires[1]!.stats, src: wires[0]!.stats };
}

describe('Rx CBUF and the grant scheduler (chip §10.8.3, §10.8 [8])', () => {
  it('the default 24K cells never bind a few pages: grants paced at the FI rate only', () => {
    const { granted, stats } = run(4, raw.rx_cbuf_cells);
    // the destination grants at L, L + 45.5 (-> 46), L + 91, L + 136.5 (-> 137); each grant flies L back
    expect(granted).toEqual([0, 1, 2, 3].map((k) => 2 * L + Math.ceil((k * PIPE) / 4)));
    expect(stats.rxCbufMaxCells).toBe(4 * CELLS);
    expect(stats.rxCbufFullCycles).toBe(0);
  });

  it('a CBUF of two pages: the third grant waits until the first page is read out', () => {
    const { granted, received, stats } = run(4, 2 * CELLS + 18);
    // pages 0 and 1 as above; page 0 leaves the source at 2L (FO pipe 0, PIPE cycles), its first cell arrives at 3L,
    // it is whole after PIPE more cycles on an FI pipe and freed then; the scheduler wakes the next cycle
    expect(granted.slice(0, 2)).toEqual([2 * L, 2 * L + Math.ceil(PIPE / 4)]);
    expect(received[0]).toBe(3 * L + PIPE);
    expect(granted[2]).toBe(received[0]! + 1 + L);
    // page 1 (granted at L + 46, FO / FI pipe 1) is whole PIPE cycles after its first cell: its free lets page 3 go
    expect(received[1]).toBe(3 * L + Math.ceil(PIPE / 4) + PIPE);
    expect(granted[3]).toBe(received[1]! + 1 + L);
    expect(stats.rxCbufMaxCells).toBe(2 * CELLS);
    expect(stats.rxCbufFullCycles).toBeGreaterThan(0);
  });

  it('a dropped page releases its reserved cells when it would have arrived (no leak)', () => {
    // page 0 is dropped on the wire; with room for one page only, page 1 is granted once page 0's cells are released
    const { granted, received } = run(2, CELLS, 'drop:data:nth=0');
    expect(received[0]).toBeUndefined();
    // page 0's first cell would have arrived at 3L: released then, the scheduler wakes the next cycle
    expect(granted[1]).toBe(3 * L + 1 + L);
    expect(received[1]).toBe(granted[1]! + L + PIPE);
  });

  it('a flushed page (failed job) sends no cell, is dequeued the next cycle and releases its cells at the destination', () => {
    const { granted, received, dequeued, src } = run(2, CELLS, undefined, [0]);
    expect(received[0]).toBeUndefined();
    expect(dequeued[0]).toBe(granted[0]! + 1);
    expect(src.flushed).toBe(1);
    expect(src.foBusy.reduce((a, b) => a + b, 0)).toBe(PIPE); // only page 1 used an FO pipe
    // page 0's cells are released one-way after the flush: page 1 (room for one page only) is granted then
    expect(granted[1]).toBe(granted[0]! + L + 1 + L);
  });

  it('the OQs of a destination cluster (rx_oq_pages, §10.8.5) bound the grants of small pages too', () => {
    // 64-B pages: one cell each, so the CBUF never binds; an OQ of two pages does
    const { granted, received, stats } = run(4, raw.rx_cbuf_cells, undefined, [], 2, 64);
    expect(raw.rx_oq_pages).toBeGreaterThanOrEqual(128); // the spec's 128-256 pages per cluster
    expect(stats.rxOqMaxPages).toBe(2);
    expect(received.filter((x) => x !== undefined).length).toBe(4);
    // the third grant waits for the first page to be read out, the fourth for the second
    expect(granted[2]).toBe(received[0]! + 1 + L);
    expect(granted[3]).toBe(received[1]! + 1 + L);
  });
});
