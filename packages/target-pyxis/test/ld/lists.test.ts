import { describe, expect, it } from 'vitest';
import { decode, loadTable } from '@pyxis/codec';
import { simulateImage } from '@pyxis/target-pyxis/sim';
import { DEFAULT_LIST_DESCRIPTORS, link } from '@pyxis/target-pyxis/ld';

/**
 * Queues longer than 4 lists (chip §11.5.1: the 4-entry ring limits lists in
 * flight, not lists per queue): the linker splits a queue into lists of at
 * most `maxListDescriptors`, emits their enqueue records in order, and
 * pyxis-sim's host enqueues the next list of a queue when a ring slot frees.
 */
const ENQ = loadTable('pyxis', 'desc_enqueue_record');
const UIE = loadTable('pyxis', 'desc_uie');

function records(img: ReturnType<typeof link>['image']): Array<Record<string, number>> {
  const s = img.sections.find((x) => x.name === '.enqueue')!;
  return Array.from({ length: s.size / 8 }, (_, k) => decode(ENQ, s.data, k * 8) as Record<string, number>);
}

describe('descriptor lists: more than 4 lists per queue', () => {
  it('20,000 no-op UIE trips in one queue plus a dependent H2A queue: split, enqueued in order, all simulated', () => {
    const n = 20_000;
    const trips = Array.from({ length: n }, (_, i) => `trip t${i} { }`).join('\n');
    const script = `memory a0 { cluster = 0; origin = 0; length = 8M; }
memory h { space = hbm; origin = 0; length = 1M; }
tensor hs { format = RFP8; shape = [8, 128]; region = h; zero = true; }
tensor as { format = RFP8; shape = [8, 128]; region = a0; zero = true; }
queue uie0 { ${trips} }
queue h2a { trip load { src = hs; dst = as; } }
t0 after load;
load2 after t${n - 1};
queue uie1 { trip load2 { } }
`;
    const { image, map } = link({ script, maxListDescriptors: 1500 });
    const uieLists = map.lists.filter((l) => l.engine === 'uie0');
    expect(uieLists).toHaveLength(Math.ceil(n / 1500)); // 14 lists > 4 ring entries
    expect(uieLists.map((l) => l.descriptors)).toEqual([...Array(13).fill(1500), n - 13 * 1500]);
    const recs = records(image).filter((r) => r['queue_id'] === 0);
    // enqueue records of the queue in list order, lengths N (8-byte units, N-1 encoded by the table)
    expect(recs.map((r) => r['descriptor_list_address'])).toEqual(uieLists.map((l) => l.engine_address));
    expect(recs.map((r) => r['descriptor_list_length'])).toEqual(uieLists.map((l) => (l.descriptors * UIE.bytes) / 8));
    // trip ids run on across list boundaries: last descriptor of list 0 and first of list 1
    const sec = (name: string) => image.sections.find((s) => s.name === name)!;
    const id = (name: string, k: number) => Number(decode(UIE, sec(name).data, k * UIE.bytes)['trip_id']);
    expect(id('.desc.c0.q00.1', 0)).toBe(id('.desc.c0.q00.0', 1499) + 1);
    const r = simulateImage(image, 'lists.pimg');
    expect(r.report.stop).toBe('done');
    // every descriptor fetched and run; 14 + 1 + 1 lists dequeued plus the barrier-config list.
    // (A host that enqueued strictly in record order would deadlock here: uie0's 5th list waits for
    // ring space while t0 waits for `load`, whose h2a list comes later in the records.)
    expect(r.report.trips_by_kind).toEqual({ barrier_config: map.barriers.length, h2a: 1, uie: n + 1 });
    expect(r.report.dpe[0]!.descriptors).toBe(n + 2 + map.barriers.length);
    expect(r.report.dpe[0]!.dequeue_events).toBe(map.lists.length);
  });

  it('the default list size is used when not given, and never exceeds the 16-bit list length', () => {
    const trips = Array.from({ length: DEFAULT_LIST_DESCRIPTORS + 1 }, (_, i) => `trip t${i} { }`).join('\n');
    const { map } = link({ script: `queue uie0 { ${trips} }` });
    expect(map.lists.map((l) => l.descriptors)).toEqual([DEFAULT_LIST_DESCRIPTORS, 1]);
    const big = link({ script: `queue uie0 { ${trips} }`, maxListDescriptors: 1e9 });
    expect(big.map.lists.map((l) => l.descriptors)).toEqual([DEFAULT_LIST_DESCRIPTORS + 1]);
    expect(Math.floor((65536 * 8) / UIE.bytes)).toBeGreaterThan(DEFAULT_LIST_DESCRIPTORS);
  });
});
