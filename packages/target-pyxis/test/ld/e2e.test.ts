import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { decode, loadTable } from '@pyxis/codec';
import { assemble, loadPyxisIsa } from '@pyxis/target-pyxis/asm';

const isa = loadPyxisIsa();
import type { Container } from '@pyxis/container';
import { link, type AllocatedBarrier, type BarrierPlan, type PlannedTrip } from '@pyxis/target-pyxis/ld';
import { mulberry, simulate } from './refmodel.js';

/**
 * End to end: random trip graphs -> link script -> image; the image's own
 * bytes (enqueue records, descriptor lists, barrier-config descriptors) are
 * decoded with the grammars/pyxis tables and run through the chip §11.6.2
 * reference model; every trip must launch once, after its dependencies.
 */
const samples = fileURLToPath(new URL('../../../../samples/pyxis/', import.meta.url));
const obj = assemble([{ file: 'copy.pasm', text: readFileSync(samples + 'copy.pasm', 'utf8') }], { isa, listing: false }).object;

const T = {
  enq: loadTable('pyxis', 'desc_enqueue_record'),
  uie: loadTable('pyxis', 'desc_uie'),
  h2a: loadTable('pyxis', 'desc_h2a'),
  bar: loadTable('pyxis', 'desc_barrier_config'),
};

function planFromImage(img: Container): { plan: BarrierPlan; names: Map<number, string> } {
  const enq = img.sections.find((s) => s.name === '.enqueue')!;
  const trips: PlannedTrip[] = [];
  const barriers: AllocatedBarrier[] = [];
  const names = new Map<number, string>();
  for (const t of (img.metadata['pyxis'] as { trips: Array<{ trip_id: number; name: string }> }).trips) names.set(t.trip_id, t.name);
  for (let k = 0; k < enq.size / 8; k++) {
    const r = decode(T.enq, enq.data, k * 8) as Record<string, number>;
    // the DPE address of a list in the cluster's AMEM window is the AMEM address (hashed view)
    const list = img.sections.find((s) => s.kind === 'descriptors' && s.cluster === r['cluster'] && s.address === r['descriptor_list_address'])!;
    expect(list.size).toBe(r['descriptor_list_length']! * 8);
    const q = r['queue_id']!;
    const table = q === 0x22 ? T.bar : q < 12 ? T.uie : T.h2a;
    for (let off = 0; off < list.size; off += table.bytes) {
      const d = decode(table, list.data, off) as Record<string, number | number[]>;
      if (q === 0x22)
        barriers.push({ cluster: r['cluster']!, id: d['barrier_id'] as number, notify_count: d['notify_count'] as number, wait_count: d['wait_count'] as number, config_wait: d['wait_barrier_id'] as number, producers: [], consumers: [] });
      else
        trips.push({ name: names.get(d['trip_id'] as number)!, cluster: r['cluster']!, queue: q, origin: d['trip_id'] as number, wait: d['wait_barrier_id'] as number, notify: (d['notify_list'] as number[]).filter((x) => x !== 0) });
    }
  }
  return { plan: { trips, barriers }, names };
}

describe('end to end: image descriptors obey the barrier reference model', () => {
  it('random graphs over 2 clusters, UIE and H2A queues, with and without barrier id reuse', () => {
    let linked = 0;
    const arb = fc.record({ n: fc.integer({ min: 2, max: 24 }), seed: fc.integer(), maxId: fc.constantFrom(undefined, 3, 5) });
    fc.assert(
      fc.property(arb, fc.integer(), ({ n, seed, maxId }, simSeed) => {
        const r = mulberry(seed);
        const lines = ['memory a0 { cluster = 0; origin = 0; length = 4M; }', 'memory a1 { cluster = 1; origin = 0; length = 4M; }', 'memory h { space = hbm; origin = 0; length = 16M; }'];
        lines.push('tensor s0 { format = RFP8; shape = [8, 128]; region = a0; zero = true; }', 'tensor s1 { format = RFP8; shape = [8, 128]; region = a1; zero = true; }', 'tensor hs { format = RFP8; shape = [8, 128]; region = h; zero = true; }');
        const queues = new Map<string, string[]>();
        const deps: string[] = [];
        for (let i = 0; i < n; i++) {
          const c = Math.floor(r() * 2);
          const q = ['uie0', 'uie1', 'uie2', 'h2a'][Math.floor(r() * 4)]!;
          lines.push(`tensor d${i} { format = RFP8; shape = [8, 128]; region = a${c}; }`);
          const body = q === 'h2a' ? `src = hs; dst = d${i};` : `amem_read = copy_rd; amem_write = copy_wr; read = s${c}; write = d${i};`;
          const key = `${q} { cluster = ${c};`;
          if (!queues.has(key)) queues.set(key, []);
          queues.get(key)!.push(`trip t${i} { ${body} }`);
          for (let p = 0; p < i; p++) if (r() < 0.3) deps.push(`t${i} after t${p};`);
        }
        for (const [k, ts] of queues) lines.push(`queue ${k} ${ts.join(' ')} }`);
        lines.push(...deps);
        let img: Container;
        try {
          img = link({ script: lines.join('\n'), objects: [{ file: 'copy.pobj', container: obj }], ...(maxId ? { maxBarrierId: maxId } : {}) }).image;
        } catch (e) {
          // only legal refusals: DMA producers with > 8 notifies, or no reusable id with tiny id budgets
          const codes = (e as { diagnostics?: Array<{ code: string }> }).diagnostics?.map((d) => d.code) ?? [String(e)];
          expect(codes.every((c) => c === 'LD0404' || c === 'LD0402' || (maxId && c === 'LD0403'))).toBe(true);
          return;
        }
        linked++;
        const { plan } = planFromImage(img);
        const sim = simulate(plan, mulberry(simSeed));
        plan.trips.forEach((_, i) => expect(sim.launches.get(i)).toBe(1));
        const byName = new Map(plan.trips.map((t, i) => [t.name, i]));
        for (const d of deps) {
          const [, c, p] = /^(t\d+) after (t\d+);$/.exec(d)!;
          expect(sim.completeTime.get(byName.get(p!)!)!).toBeLessThan(sim.launchTime.get(byName.get(c!)!)!);
        }
      }),
      { numRuns: 60, seed: 5 },
    );
    expect(linked).toBeGreaterThan(20);
  });
});
