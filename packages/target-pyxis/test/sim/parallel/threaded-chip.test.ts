/**
 * The clusters of one chip as partitions on threads (sim/parallel/threadedChip.ts): for random multi-cluster images
 * whose clusters are independent, the merged report (every field but kernel_steps, a host-work figure) and the dumps
 * equal the plain single-Simulator run's at 1, 2 and 4 threads, completed and deadlocked runs alike; images that use
 * a cross-cluster path stay in one partition and say which. The workers load the built package (npm ci / tsc -b).
 * PYXIS_FC_RUNS raises the property's sample count.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeNpyFile } from '@pyxis/container';
import { gemm } from '../../../src/gen/index.js';
import { fileURLToPath } from 'node:url';
import type { Container } from '@pyxis/container';
import { writeNpy } from '@pyxis/container';
import { encode, loadTable } from '@pyxis/codec';
import { CSR_ENQUEUE, defaultUieFactory, dumpSymbol, inspectImage, loadSimConfig, simulateImage, type PyxisChip, type SimReport } from '@pyxis/target-pyxis/sim';
import { assemble, loadPyxisIsa } from '@pyxis/target-pyxis/asm';
import { link } from '@pyxis/target-pyxis/ld';
import { runChipThreaded, workOrder } from '../../../src/sim/parallel/threadedChip.js';
import { CLUSTER_PARTITION_BUILDER, CLUSTER_PARTITION_MODULE, type ClusterPartitionArgs } from '../../../src/sim/parallel/clusterPartition.js';
import { PartitionFailure, runThreaded } from '@pyxis/sim';
import { writeContainer } from '@pyxis/container';
import { ImageBuilder, bytesOf, copyProgram, gid } from '../pyxisImage.js';

const desc = ImageBuilder.desc;
const CFG = 0x4000_0000;
const Q = { h2a: 0x10, a2h: 0x11, bcfg: 0x22 };
const SRC = 0x10_0000;
const DST = 0x20_0000;
const HBM_IN = 0x100_0000;
const HBM_OUT = 0x400_0000;
const SPAN = 0x10_0000;

const clusterArb = fc.record({
  kib: fc.integer({ min: 1, max: 8 }),
  uies: fc.array(fc.integer({ min: 1, max: 48 }), { minLength: 1, maxLength: 3 }),
  a2hs: fc.integer({ min: 0, max: 2 }),
  /** 1 in 8 clusters deadlocks: barrier 2 expects one notification more than the UIEs give. */
  stuck: fc.integer({ min: 0, max: 7 }),
  /** 1 in 6 clusters has no work (no partition: idle in every partition, as in the single run). */
  idle: fc.constantFrom(false, false, false, false, false, true),
});
const chipArb = fc.record({
  clusters: fc.array(clusterArb, { minLength: 2, maxLength: 4 }),
  apm: fc.boolean(),
  /** The one cluster whose trips request power (APM is chip-wide: two would couple the clusters). */
  powered: fc.nat(3),
  /** At most 6 per engine: 5 engines stay within apm.min_granted_power (32), so APM never throttles. */
  power: fc.integer({ min: 0, max: 6 }),
  salt: fc.nat(255),
  /** Cluster 0's A2H list is enqueued by a host action (the enqueue CSR written at this cycle), not a record. */
  late: fc.option(fc.integer({ min: 0, max: 400 }), { freq: 2 }),
  /** Sometimes a --max-cycles stop in the middle of the run. */
  maxCycles: fc.option(fc.integer({ min: 30, max: 700 }), { freq: 3 }),
});
type ChipWork = typeof chipArb extends fc.Arbitrary<infer T> ? T : never;

/**
 * Per cluster c: H2A (its own HBM input) -> barrier 1 -> UIE copies (each its own rows) -> barrier 2 -> A2H stores
 * of the copied rows to its own HBM output. Tensors: each cluster's input, its AMEM result and its HBM output.
 */
function buildChip(w: ChipWork, cross = false, allPowered = false): Container {
  const b = new ImageBuilder();
  const n = w.clusters.length;
  const actions: Array<Record<string, unknown>> = [];
  let id = 1;
  w.clusters.forEach((k, c) => {
    const power = allPowered || c === w.powered % n ? w.power : 0;
    const u = k.uies.length;
    b.tensor(`in${c}`, 'hbm', HBM_IN + c * SPAN, bytesOf(k.kib * 1024, (i) => i * 7 + c * 31 + w.salt), [k.kib * 8, 128], 'RFP8', 0);
    b.tensor(`out${c}`, 'hbm', HBM_OUT + c * SPAN, new Uint8Array(k.kib * 1024), [k.kib * 8, 128], 'RFP8', 0);
    b.tensor(`dst${c}`, 'amem', DST, new Uint8Array(u * 0x2000), [u * 64, 128], 'RFP8', 0, c);
    if (k.idle) return; // its tensors stay as the image holds them
    const bcfg = [
      desc('desc_barrier_config', { barrier_id: 1, notify_count: 1, wait_count: u, trip_id: id++ }),
      desc('desc_barrier_config', { barrier_id: 2, notify_count: u + (k.stuck === 0 ? 1 : 0), wait_count: Math.max(1, k.a2hs), trip_id: id++ }),
    ];
    b.list(Q.bcfg, 0x1400, bcfg, c);
    b.list(Q.h2a, 0x1000, [desc('desc_h2a', { amem_start_address: SRC >> 7, hbm_base_address: (HBM_IN + c * SPAN) >> 10, length: k.kib, notify_list: [gid(c, 1)], trip_id: id++, trip_power: power })], c);
    k.uies.forEach((rows, q) => {
      for (const [off, v] of copyProgram(rows, q)) b.data('cfg', CFG + off, v, c);
      const notify = cross && c === 0 && q === 0 ? [gid(c, 2), gid(1, 5)] : [gid(c, 2)];
      b.list(q, 0x1100 + q * 0x40, [desc('desc_uie', { trip_valid_mask: 3, start_pc: Array(13).fill(0), amem_read_base_address: SRC >> 4, amem_write_base_address: (DST + q * 0x2000) >> 4, wait_barrier_id: 1, notify_list: notify, trip_id: id++, trip_power: power })], c);
    });
    const a2h = Array.from({ length: k.a2hs }, (_, j) => desc('desc_a2h', { amem_start_address: (DST + j * 0x2000) >> 7, hbm_base_address: (HBM_OUT + c * SPAN + j * 0x2000) >> 10, length: Math.min(k.kib, 8), wait_barrier_id: 2, trip_id: id++, trip_power: power }));
    if (a2h.length && c === 0 && w.late !== null && w.late !== undefined) {
      const list = new Uint8Array(a2h.length * a2h[0]!.length);
      a2h.forEach((d, i) => list.set(d, i * d.length));
      b.data('amem', 0x1500, list, c);
      const rec = encode(loadTable('pyxis', 'desc_enqueue_record'), { queue_id: Q.a2h, descriptor_list_address: 0x1500, descriptor_list_length: list.length / 8 });
      actions.push({ cluster: 0, address: `0x${(CFG + CSR_ENQUEUE).toString(16)}`, value: `0x${new DataView(rec.buffer).getBigUint64(0, true).toString(16)}`, at_cycle: w.late });
    } else if (a2h.length) b.list(Q.a2h, 0x1500, a2h, c);
  });
  b.metadata = { clusters: n, uies: Math.max(...w.clusters.map((k) => k.uies.length)), ...(actions.length ? { host_actions: actions } : {}) };
  return b.build();
}

const plain = <T>(x: T): T => JSON.parse(JSON.stringify(x)) as T;
const noSteps = (r: SimReport) => plain({ ...r, kernel_steps: 0 });

async function expectSameAsPlain(img: Container, config = loadSimConfig(), threadsList = [1, 2, 4], maxCycles?: number | null): Promise<SimReport> {
  const symbols = img.symbols.filter((s) => s.tensor).map((s) => s.name);
  const stop = maxCycles ? { maxCycles } : {};
  const ref = simulateImage(img, 'x.pimg', { config, uieFactory: defaultUieFactory, ...stop });
  const refDumps = ref.report.stop === 'done' ? symbols.map((s) => Buffer.from(writeNpy(dumpSymbol(ref.chip, img, s, false)))) : [];
  for (const threads of threadsList) {
    const r = await runChipThreaded(img, 'x.pimg', { config, uieFactory: defaultUieFactory, threads, symbols, ...stop });
    const active = new Set(inspectImage(img, 'x.pimg').records.map((x) => x.cluster)).size;
    if (active < 2) {
      expect(r.parallel).toBeNull();
      expect(r.note).toMatch(/^only cluster \d has work$|^no cluster has work$/);
      expect(JSON.stringify(noSteps(r.report))).toBe(JSON.stringify(noSteps(ref.report)));
      continue;
    }
    expect(r.parallel, r.note ?? '').not.toBeNull();
    expect(r.parallel!.threads).toBe(Math.min(threads, active));
    expect(r.parallel!.schedule).toBe('queue');
    expect(new Set(r.parallel!.parts.map((p) => p.thread)).size).toBeLessThanOrEqual(r.parallel!.threads);
    if (threads > active) expect(r.note).toMatch(/threads asked/);
    else expect(r.note).toBeNull();
    expect(noSteps(r.report)).toEqual(noSteps(ref.report));
    // byte-identical, key order included (toEqual ignores it)
    expect(JSON.stringify(noSteps(r.report))).toBe(JSON.stringify(noSteps(ref.report)));
    if (ref.report.stop === 'done') {
      const dumps = symbols.map((s) => Buffer.from(writeNpy(dumpSymbol(r.memory as PyxisChip, img, s, false))));
      dumps.forEach((d, i) => expect(d.equals(refDumps[i]!), symbols[i]).toBe(true));
    }
  }
  return ref.report;
}

describe('clusters of one chip on threads', () => {
  it('random independent multi-cluster images: the single-Simulator report and dumps at 1, 2 and 4 threads', async () => {
    const stops = new Set<string>();
    await fc.assert(
      fc.asyncProperty(chipArb, async (w) => {
        const config = loadSimConfig();
        config.apm.enabled = w.apm;
        const r = await expectSameAsPlain(buildChip(w), config, [1, 2, 4], w.maxCycles);
        stops.add(r.stop);
        // the program did what it says: every completed cluster's A2H stored the copied rows
      }),
      { numRuns: Number(process.env['PYXIS_FC_RUNS'] ?? 6), seed: 2201 },
    );
    expect(stops.has('done')).toBe(true);
    expect(stops.size).toBeGreaterThan(1);
  }, 60_000);

  it('workOrder: the clusters with the most descriptor-list words (and host actions) first, ties in cluster order', () => {
    const rec = (cluster: number, descriptor_list_length: number) => ({ cluster, descriptor_list_length });
    // active clusters 1, 2, 5, 6: words 4 + 4 = 8, 3, 8 (+ 0 actions), 2 + 1 action = 3
    const order = workOrder([1, 2, 5, 6], [rec(1, 4), rec(2, 3), rec(1, 4), rec(5, 8), rec(6, 2)], [{ cluster: 6 }]);
    // positions in `active`: cluster 1 (8) and 5 (8), then 2 (3) and 6 (3)
    expect(order).toEqual([0, 2, 1, 3]);
    expect(workOrder([0, 1, 2, 3], [0, 1, 2, 3].map((c) => rec(c, 6)), [])).toEqual([0, 1, 2, 3]);
  });

  it('a deadlocked cluster: the wait graph and the stop are those of the single run', async () => {
    const w: ChipWork = { clusters: [{ kib: 2, uies: [4, 9], a2hs: 1, stuck: 1, idle: false }, { kib: 1, uies: [3], a2hs: 1, stuck: 0, idle: false }, { kib: 3, uies: [5], a2hs: 2, stuck: 0, idle: false }], apm: true, powered: 1, power: 6, salt: 3, maxCycles: null, late: 20 };
    const r = await expectSameAsPlain(buildChip(w), loadSimConfig(), [2]);
    expect(r.stop).toBe('deadlock');
    expect(r.wait_graph.some((l) => l.startsWith('barrier 1:2'))).toBe(true);
    expect(r.wait_graph.some((l) => l.startsWith('barrier 2:2'))).toBe(true);
  });

  it('an image that uses a cross-cluster path stays in one partition and says which', async () => {
    const w: ChipWork = { clusters: [{ kib: 1, uies: [2], a2hs: 1, stuck: 1, idle: false }, { kib: 1, uies: [2], a2hs: 1, stuck: 1, idle: false }], apm: false, powered: 0, power: 0, salt: 0, maxCycles: null, late: null };
    const img = buildChip(w, true);
    const r = await runChipThreaded(img, 'x.pimg', { uieFactory: defaultUieFactory, threads: 2 });
    expect(r.parallel).toBeNull();
    expect(r.note).toMatch(/^clusters are not independent: trip \d+ \(uie, cluster 0\) notifies barrier 1:5 of cluster 1: the barrier link's latency \(trip_manager.notify_latency_cycles = 2\)/);
    // APM enabled: trips requesting power in one cluster split, in two clusters they do not (RequestedPower is the chip's)
    const one = await runChipThreaded(buildChip({ ...w, power: 5, apm: true }), 'x.pimg', { uieFactory: defaultUieFactory, threads: 2 });
    expect(one.parallel).not.toBeNull();
    const two = await runChipThreaded(buildChip({ ...w, power: 5, apm: true }, false, true), 'x.pimg', { uieFactory: defaultUieFactory, threads: 2 });
    expect(two.parallel).toBeNull();
    expect(two.note).toMatch(/^clusters are not independent: APM is enabled and trip \d+ \(h2a, cluster 0\) and trip \d+ \(h2a, cluster 1\) request power/);
    // one powered cluster whose engines can request more than min_granted_power (32): a throttle would slow all
    const throttle = await runChipThreaded(buildChip({ ...w, power: 11, apm: true }), 'x.pimg', { uieFactory: defaultUieFactory, threads: 2 });
    expect(throttle.parallel).toBeNull();
    expect(throttle.note).toMatch(/can request 33 > apm.min_granted_power = 32: a throttle slows every cluster/);
  });

  it('a GEMM tiled over 2 clusters (pyxis-gen gemm --clusters 0,1): split with APM off, identical; coupled by the APM on', async () => {
    const k = gemm({ m: 256, k: 256, n: 256, clusters: [0, 1], uies: 2 });
    const dir = mkdtempSync(join(tmpdir(), 'pyxis-cl-gemm-'));
    let img: Container;
    try {
      for (const f of k.inputs) writeNpyFile(join(dir, f.file), { dtype: 'float32', shape: f.shape, data: f.data });
      const obj = assemble([{ file: `${k.name}.pasm`, text: k.pasm }], { isa: loadPyxisIsa(), listing: false }).object;
      img = link({ script: k.ld, scriptFile: join(dir, `${k.name}.ld`), objects: [{ file: `${k.name}.pobj`, container: obj }] }).image;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const off = loadSimConfig();
    off.apm.enabled = false;
    const r = await expectSameAsPlain(img, off, [2]);
    expect(r.stop).toBe('done');
    expect(r.clusters).toBe(2);
    const on = await runChipThreaded(img, 'gemm.pimg', { uieFactory: defaultUieFactory, threads: 2 });
    expect(on.parallel).toBeNull();
    expect(on.note).toMatch(/^clusters are not independent: APM is enabled and trip \d+ \(\w+, cluster 0\) and trip \d+ \(\w+, cluster 1\) request power/);
  });

  it('with a progress display: rising cycles and the cluster partitions done; the same report', async () => {
    const w: ChipWork = { clusters: [{ kib: 2, uies: [40, 7], a2hs: 2, stuck: 1, idle: false }, { kib: 3, uies: [9], a2hs: 1, stuck: 1, idle: false }], apm: false, powered: 0, power: 0, salt: 9, maxCycles: null, late: null };
    const img = buildChip(w);
    const ref = simulateImage(img, 'x.pimg', { uieFactory: defaultUieFactory });
    const seen: Array<[number, { done: number; total: number; unit: string } | undefined]> = [];
    const r = await runChipThreaded(img, 'x.pimg', { uieFactory: defaultUieFactory, threads: 2, onProgress: (c, work) => void seen.push([c, work]), progressWindow: 37 });
    expect(r.parallel).not.toBeNull();
    expect(r.parallel!.schedule).toBe('queue');
    expect(JSON.stringify(noSteps(r.report))).toBe(JSON.stringify(noSteps(ref.report)));
    // the calling thread reports after each chunk of 37 cycles of the partition it runs
    expect(seen.length).toBeGreaterThan(5);
    expect(seen.map((x) => x[0])).toEqual(seen.map((x) => x[0]).sort((a, b) => a - b));
    for (const [, work] of seen) expect(work && work.total === 2 && work.done <= 2 && work.unit === 'cluster partitions').toBe(true);
  });

  it('the run-time guard: a partition that reaches what its plan did not name fails, naming it', async () => {
    const w: ChipWork = { clusters: [{ kib: 1, uies: [2], a2hs: 1, stuck: 1, idle: false }, { kib: 2, uies: [2], a2hs: 1, stuck: 1, idle: false }], apm: false, powered: 0, power: 0, salt: 0, maxCycles: null, late: null };
    const image = writeContainer(buildChip(w));
    const config = loadSimConfig();
    config.apm.enabled = false;
    // a plan that misses cluster 1's H2A read (as a descriptor written at run time would)
    const args = (c: number): ClusterPartitionArgs => ({ image, file: 'x.pimg', cluster: c, clusters: 2, uies: 1, config, timingOnly: false, quantum: 256, hbmReads: [[[HBM_IN, HBM_IN + 1024]], []], hbmWrites: [[], []], recordIndex: [], spans: [], models: [c] });
    const e = await runThreaded([0, 1].map((c) => ({ name: `cluster${c}`, module: CLUSTER_PARTITION_MODULE, builder: CLUSTER_PARTITION_BUILDER, args: args(c) })), { threads: 2 }).then(() => null, (x: unknown) => x);
    expect(e).toBeInstanceOf(PartitionFailure);
    expect((e as PartitionFailure).partition).toBe('cluster1');
    expect((e as PartitionFailure).detail).toMatch(/cluster 1 reads HBM 0x1100000, outside the ranges its descriptors name at run time: clusters are not independent/);
  });

  it('samples/pyxis: each runs as the single run does (every sample uses one cluster: one partition, said so)', async () => {
    const dir = fileURLToPath(new URL('../../../../../samples/pyxis/', import.meta.url));
    const lds = readdirSync(dir).filter((f) => f.endsWith('.ld'));
    expect(lds.length).toBeGreaterThan(10);
    // no sample places anything in clusters 1-3: none qualifies for a split (a multi-cluster image is the GEMM above)
    for (const ld of lds) expect(readFileSync(dir + ld, 'utf8'), ld).not.toMatch(/cluster\s*=\s*[1-3]/);
    for (const ld of ['copy.ld', 'fork_join.ld']) {
      const obj = assemble([{ file: 'copy.pasm', text: readFileSync(dir + 'copy.pasm', 'utf8') }], { isa: loadPyxisIsa(), listing: false }).object;
      const img = link({ script: readFileSync(dir + ld, 'utf8'), scriptFile: dir + ld, objects: [{ file: 'copy.pasm', container: obj }] }).image;
      const r = await runChipThreaded(img, ld, { uieFactory: defaultUieFactory, threads: 2 });
      expect(r.note).toBe('one partition (a single-chip image of one cluster)');
      expect(r.parallel).toBeNull();
    }
  });
});
