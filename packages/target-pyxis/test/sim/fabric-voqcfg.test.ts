/**
 * Per-VOQ configuration of the Tx Page Generator (chip §10.7.3, §10.7.3.1) through cluster.fabric_voq_config: a VOQ on
 * a small occupancy profile never has more outstanding QPages than the profile's XOFF threshold while a VOQ on the
 * default profile fills up; a high-priority VOQ's pages win the PGen arbitration over a low-priority VOQ's. The
 * thresholds are read from fabric_adapter.json; the outstanding counts from the stub fabric's enqueue / dequeue log.
 */
import { describe, expect, it } from 'vitest';
import { encode, loadGrammarJson, loadTable } from '@pyxis/codec';
import { CFG_ENGINE_BASE, clusterCsrRegion } from '@pyxis/target-pyxis/sim';
import { link } from '@pyxis/target-pyxis/ld';
import { bytesOf, ImageBuilder } from './pyxisImage.js';
import { buildSystem, voqOf } from './fabric-stub.js';
import { firstDiff } from './fabric-rdma-lib.js';

const desc = ImageBuilder.desc;
const CFG = loadTable('pyxis', 'fabric_voq_config');
const OCC = loadGrammarJson<{ occupancy: { profiles: Array<{ xoff: number; xon: number }>; default_profile: number } }>('pyxis', 'fabric_adapter').occupancy;
const VOQ_CFG = clusterCsrRegion('cluster.fabric_voq_config').offset;
const A = voqOf(1, 0, 0);
const B = voqOf(1, 0, 1);
const WORDS = 256;
const PAGE = 32;

/** The 64-bit value of a configuration entry (the grammar's layout). */
function entry(profile: number, high: number): bigint {
  const w = encode(CFG, { profile, high_priority: high });
  return new DataView(w.buffer, w.byteOffset).getBigUint64(0, true);
}

/** Chip 0 sends job A (TJID 1) to VOQ A and job B (TJID 2) to VOQ B of chip 1, 8 pages each; `config` is written at cycle 0. */
function run(config: Array<[number, bigint]>) {
  const a = bytesOf(WORDS * 128, (i) => (i * 5) & 0xff);
  const b = bytesOf(WORDS * 128, (i) => (i * 9 + 1) & 0xff);
  const tx = new ImageBuilder();
  const rx = new ImageBuilder();
  tx.data('amem', 0x10000, a);
  tx.data('amem', 0x20000, b);
  tx.list(0x0c, 0x1000, [desc('desc_rdma_tx', { trip_id: 1, tjid: 1, rjid: 1, dest_voq: A, amem_address: 0x10000 >> 7, num_words: WORDS, page_size_words: PAGE })]);
  tx.list(0x0d, 0x1100, [desc('desc_rdma_tx', { trip_id: 2, tjid: 2, rjid: 2, dest_voq: B, amem_address: 0x20000 >> 7, num_words: WORDS, page_size_words: PAGE })]);
  rx.list(0x0e, 0x1000, [desc('desc_rdma_rx', { trip_id: 3, tjid: 1, rjid: 1, msg_voq: voqOf(0, 0), amem_address: 0x40000 >> 7, num_words: WORDS })]);
  rx.list(0x0f, 0x1100, [desc('desc_rdma_rx', { trip_id: 4, tjid: 2, rjid: 2, msg_voq: voqOf(0, 0), amem_address: 0x60000 >> 7, num_words: WORDS })]);
  const sys = buildSystem([tx.build(), rx.build()], { grantDelay: 100, latency: 500 });
  for (const [voq, value] of config) sys.chips[0]!.host.actions.push({ cluster: 0, address: CFG_ENGINE_BASE + VOQ_CFG + 8 * voq, value, atCycle: 0 });
  expect(sys.run().reason).toBe('done');
  expect(firstDiff(sys.chips[1]!.amem[0]!.readBytes(0x40000, a.length), a)).toBe(-1);
  expect(firstDiff(sys.chips[1]!.amem[0]!.readBytes(0x60000, b.length), b)).toBe(-1);
  // the most QPages each VOQ held at once, from the fabric's enqueue / dequeue log
  const count = new Map<number, number>();
  const max = new Map<number, number>();
  for (const e of sys.log[0]!) {
    const n = (count.get(e.voq) ?? 0) + e.d;
    count.set(e.voq, n);
    max.set(e.voq, Math.max(max.get(e.voq) ?? 0, n));
  }
  const order = sys.log[0]!.filter((e) => e.d === 1 && e.type === 'rdma_data').map((e) => (e.voq === A ? 'A' : 'B'));
  return { sys, max, order };
}

describe('per-VOQ PGen configuration (cluster.fabric_voq_config)', () => {
  it('a VOQ on profile 5 holds at most its XOFF threshold of QPages; a default VOQ is not limited by it', () => {
    const p5 = OCC.profiles[5]!;
    expect(p5.xoff).toBeLessThan(8);
    expect(OCC.profiles[OCC.default_profile]!.xoff).toBeGreaterThanOrEqual(8);
    const { sys, max } = run([[A, entry(5, 0)]]);
    expect(max.get(A)).toBe(p5.xoff);
    expect(max.get(B)).toBe(8); // every page of job B is enqueued before its first grant returns (G = 100)
    // read back through the CSR window
    expect(sys.chips[0]!.cfg[0]!.read64(VOQ_CFG + 8 * A)).toBe(entry(5, 0));
    expect(sys.chips[0]!.cfg[0]!.read64(VOQ_CFG + 8 * B)).toBe(entry(OCC.default_profile, 0));
    expect(sys.chips[0]!.fabricAdapter!.report().clusters[0]!.xoff_events).toBeGreaterThan(0);
  });

  it('a high-priority VOQ wins the PGen arbitration: once its job generates, no low-priority page until its last', () => {
    const { order } = run([[B, entry(OCC.default_profile, 1)]]);
    const first = order.indexOf('B');
    const last = order.lastIndexOf('B');
    expect(last - first).toBe(7);
    expect(order.filter((x) => x === 'A').length).toBe(8);
    // without the configuration the two jobs interleave (round-robin among equals)
    const plain = run([]).order;
    expect(plain.slice(plain.indexOf('B'), plain.lastIndexOf('B') + 1)).toContain('A');
  });

  it('a link script preloads the configuration (`config cluster.fabric_voq_config`); the adapter applies it at load', () => {
    const { image } = link({ script: 'config cluster.fabric_voq_config { cluster = 0; index = 5; entry { profile = 5; high_priority = 1; } }\n' });
    const sec = image.sections.find((x) => x.name.startsWith('.cfg.c0.cluster.fabric_voq_config'))!;
    expect(sec.address).toBe(CFG_ENGINE_BASE + VOQ_CFG + 8 * 5);
    expect(Array.from(sec.data)).toEqual(Array.from(encode(CFG, { profile: 5, high_priority: 1 })));
    const sys = buildSystem([image, new ImageBuilder().build()], { grantDelay: 100, latency: 500 });
    const tx = sys.chips[0]!.fabricAdapter!.txc[0]!;
    expect([tx.voqProfile[5], tx.voqHigh[5], tx.voqProfile[6], tx.voqHigh[6]]).toEqual([5, 1, OCC.default_profile, 0]);
  });
});
