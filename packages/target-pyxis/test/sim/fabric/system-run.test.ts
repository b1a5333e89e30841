/**
 * runSystem (systemRun.ts) with a stub adapter (the real one is the fadapter developer's): pages cross between
 * PyxisChips run by runPartitioned, the Perfetto trace has one process per chip with FO / FI pipe tracks, a lost page
 * shows up as a cross-chip deadlock whose explanation names the chips, and injected faults are counted.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { writeContainer } from '@pyxis/container';
import { StringSink, type SimEngine } from '@pyxis/sim';
import { runSystem } from '../../../src/sim/fabric/systemRun.js';
import { loadFabricJson } from '../../../src/sim/fabric/wireParams.js';
import { legalVpfe } from '../../../src/sim/fabric/vpfe.js';
import { parseFaultSpec } from '../../../src/sim/fabric/faults.js';
import type { FabricPage } from '../../../src/sim/fabric/port.js';
import { ImageBuilder, bytesOf, gid } from '../pyxisImage.js';

const root = new URL('../../../../../', import.meta.url);
const clockHz: number = JSON.parse(readFileSync(new URL('grammars/pyxis/sim_config.json', root), 'utf8')).clock_hz;
const L = Math.ceil(((loadFabricJson().rtt_ns / 2) * clockHz) / 1e9);

function copyImage(): Uint8Array {
  const b = new ImageBuilder();
  b.tensor('x', 'hbm', 0x8000, bytesOf(1024, (i) => i), [8, 128], 'RFP8', 0);
  b.list(0x22, 0x1000, [desc('desc_barrier_config', { barrier_id: 3, notify_count: 1, wait_count: 1 })]);
  b.list(0x10, 0x1100, [desc('desc_h2a', { amem_start_address: 0x40000 >> 7, hbm_base_address: 0x8000 >> 10, length: 1, notify_list: [gid(0, 3)], trip_id: 1 })]);
  b.list(0x11, 0x1200, [desc('desc_a2h', { amem_start_address: 0x40000 >> 7, hbm_base_address: 0x10000 >> 10, length: 1, wait_barrier_id: 3, trip_id: 2 })]);
  b.metadata = { barriers: [{ cluster: 0, id: 3 }] };
  return writeContainer(b.build());
}
const desc = ImageBuilder.desc;

/** A stub receiver engine: busy until it has received `want` pages (so a lost page is a deadlock). */
class StubRx implements SimEngine {
  readonly name: string;
  got: Array<{ at: number; page: FabricPage }> = [];
  constructor(
    chip: number,
    private readonly want: number,
  ) {
    this.name = `chip${chip}.stub_rx`;
  }
  get busy() {
    return this.got.length < this.want;
  }
  tick() {
    return false;
  }
  nextWake() {
    return Infinity;
  }
  blockedReason() {
    return `waiting for ${this.want - this.got.length} page(s) from the fabric`;
  }
}

function run(faults: string | null, pages: number) {
  const img = copyImage();
  const inputs = [0, 1].map((k) => ({ chip: k, image: img, imageFile: `chip${k}.pimg`, voqToVpfe: new Uint16Array(2048).fill(0xffff) }));
  const rx: StubRx[] = [];
  const sink = new StringSink();
  const r = runSystem(inputs, {
    fabric: loadFabricJson(),
    clusterVpfe: [0, 1].map((c) => [0, 1, 2, 3].map((k) => legalVpfe(c * 4 + k))),
    faults: faults ? parseFaultSpec(faults) : null,
    trace: sink,
    stubAdapter: (k, chip, egress) => {
      const s = new StubRx(k, k === 1 ? pages : 0);
      rx.push(s);
      chip.sim.add(s);
      const sent = new Map<number, FabricPage>();
      if (k === 0)
        for (let q = 0; q < pages; q++) {
          const page: FabricPage = {
            srcChip: 0, srcCluster: 0, voq: 4, dest: { vpfe: legalVpfe(4), oq: 0 }, qpage: q, wireBytes: 16016, type: 'rdma_data',
            header: new Uint8Array(16), payload: null, payloadBytes: 16000,
          };
          sent.set(q, page);
          egress.enqueue(0, page);
        }
      return {
        tx: { granted: (now, _c, q) => egress.transmit(now, sent.get(q)!), dequeued: () => {} },
        rx: { receive: (now, _c, page) => void s.got.push({ at: now, page }) },
      };
    },
  });
  return { r, rx, trace: sink.text };
}

describe('runSystem (2 chips, stub adapter)', () => {
  it('delivers pages between chips at the wire timing; trace: one process per chip with pipe tracks', () => {
    const { r, rx, trace } = run(null, 2);
    expect(r.stop).toBe('done');
    expect(rx[1]!.got.map((g) => g.at)).toEqual([3 * L + 182, 3 * L + Math.ceil(182 / 4) + 182]);
    expect(r.links).toEqual([expect.objectContaining({ src: 0, dst: 1, pages: 2, bytes: 2 * 16016, cells: 2 * 91, busyCycles: 2 * 182 })]);
    expect(r.chips).toHaveLength(2);
    const t = JSON.parse(trace) as { traceEvents: Array<{ ph: string; name: string; args?: { name?: string } }> };
    const names = t.traceEvents.filter((e) => e.ph === 'M').map((e) => e.args?.name);
    expect(names).toEqual(expect.arrayContaining(['chip0', 'chip1', 'fabric FO pipe 0', 'fabric FI pipe 0']));
    const voq = t.traceEvents.filter((e) => e.ph === 'C' && e.name === 'fabric VOQ pages');
    expect(voq.length).toBe(6); // 2 enqueues, 2 grants, 2 dequeues on chip 0
  });

  it('a dropped page: counted, and the deadlock explainer names both chips', () => {
    const { r } = run('drop:data:nth=1', 2);
    expect(r.stop).toBe('deadlock');
    expect(r.wire[0]!.faults.dropped).toEqual({ rdma_data: 1 });
    expect(r.waitGraph.some((l) => l.startsWith('chip1: ') && /waiting for 1 page/.test(l))).toBe(true);
  });
});
