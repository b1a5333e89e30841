/**
 * The kernel's results must not depend on the order in which engines were registered (`Simulator.add`): every
 * engine declares its phase, engines of one phase never see each other's same-cycle writes, shared ports are
 * served in engine-key order at the end of the phase, and clusters affect each other only through timed links
 * (docs/timing-model.md "Kernel semantics"). Each image is run with the canonical registration and with seeded
 * random permutations of it (ChipOptions.registrationSeed); cycles, every trip's start and end, the whole stats
 * report and the bytes of every memory the program touches must be identical.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { encode, loadTable } from '@pyxis/codec';
import { assemble, loadPyxisIsa } from '@pyxis/target-pyxis/asm';
import { link } from '@pyxis/target-pyxis/ld';
import { writeNpy, type Container } from '@pyxis/container';
import { CSR_ENQUEUE, defaultUieFactory, dumpSymbol, icdmaDestination, loadSimConfig, simulateImage, StringSink, type SimReport } from '@pyxis/target-pyxis/sim';
import { bytesOf, copyProgram, gid, ImageBuilder } from './pyxisImage.js';

const desc = ImageBuilder.desc;
const samples = fileURLToPath(new URL('../../../../samples/pyxis/', import.meta.url));
const CFG = 0x4000_0000;
const Q = { h2a: 0x10, a2h: 0x11, icdma: 0x12, mpe: 0x15, bcfg: 0x22 };
/** AMEM layout per cluster: H2A destination / UIE source, UIE destination / ICDMA source, ICDMA landing areas, MPE area. */
const A = { src: 0x10_0000, dst: 0x20_0000, landing: 0x30_0000, mpe: 0x38_0000, span: 0x1_0000 };
const HBM_OUT = 0x400_0000;
const HBM_OUT2 = 0x500_0000;
const CHIP_REGIONS: Regions = {
  amem: [[A.src, 0x4000], [A.dst, 0x4000], ...[0, 1, 2, 3].map((c): [number, number] => [A.landing + c * A.span, 0x3000]), [A.mpe, 0x3000]],
  hbm: [[HBM_OUT, 4 * A.span], [HBM_OUT2, 4 * A.span]],
};

interface Outcome {
  cycles: number;
  report: unknown;
  trips: Array<[string, number, number, number]>;
  /** The bytes of every memory range the program touches: `--dump` of every tensor symbol, then fixed regions. */
  dumps: Buffer[];
}

/** AMEM ranges (per cluster) and HBM ranges the builder images use. */
type Regions = { amem: Array<[number, number]>; hbm: Array<[number, number]> };

/** Every field of the report; engines (listed in registration order) sorted by name. */
function normalise(r: SimReport): unknown {
  return { ...r, engines: [...r.engines].sort((a, b) => a.name.localeCompare(b.name)) };
}

function tripsOf(trace: StringSink): Array<[string, number, number, number]> {
  const t = JSON.parse(trace.text) as { traceEvents: Array<Record<string, unknown>> };
  const names = new Map<string, string>();
  for (const e of t.traceEvents) if (e['ph'] === 'M' && e['name'] === 'thread_name') names.set(`${String(e['pid'])}/${String(e['tid'])}`, String((e['args'] as { name: string }).name));
  const out: Array<[string, number, number, number]> = [];
  for (const e of t.traceEvents) {
    const a = e['args'] as Record<string, number> | undefined;
    if (e['ph'] !== 'X' || !a || a['trip_id'] === undefined || a['end_cycle'] === undefined) continue;
    out.push([names.get(`${String(e['pid'])}/${String(e['tid'])}`) ?? '?', a['trip_id'], a['start_cycle']!, a['end_cycle']!]);
  }
  return out.sort((x, y) => x[0].localeCompare(y[0]) || x[1] - y[1] || x[2] - y[2]);
}

function run(img: Container, regions: Regions, opts: { seed?: number; apm?: boolean; trace?: boolean; quantum?: number }): Outcome {
  const config = loadSimConfig();
  if (opts.apm === false) config.apm.enabled = false;
  const trace = opts.trace ? new StringSink() : undefined;
  const { chip, report } = simulateImage(img, 'order.pimg', {
    config,
    uieFactory: defaultUieFactory,
    ...(opts.seed !== undefined ? { registrationSeed: opts.seed } : {}),
    ...(trace ? { trace } : {}),
    ...(opts.quantum !== undefined ? { quantum: opts.quantum } : {}),
  });
  expect(report.stop).toBe('done');
  return {
    cycles: report.cycles,
    report: normalise(report),
    trips: trace ? tripsOf(trace) : [],
    dumps: [
      ...img.symbols.filter((s) => s.kind === 'tensor').map((s) => Buffer.from(writeNpy(dumpSymbol(chip, img, s.name, false)))),
      ...chip.amem.flatMap((a) => regions.amem.map(([at, n]) => Buffer.from(a.readBytes(at, n)))),
      ...regions.hbm.map(([at, n]) => Buffer.from(chip.hbm.readBytes(at, n))),
    ],
  };
}

function expectSame(b: Outcome, a: Outcome): void {
  expect(b.cycles).toBe(a.cycles);
  expect(b.trips).toEqual(a.trips);
  expect(b.report).toEqual(a.report);
  expect(b.dumps.length).toBe(a.dumps.length);
  for (let i = 0; i < a.dumps.length; i++) expect(b.dumps[i]!.equals(a.dumps[i]!)).toBe(true);
}

/** Canonical registration vs. `seeds` permutations (with trace: trip times), and one permutation with run-ahead. */
function checkOrderFree(img: Container, seeds: number[], apm = true, regions: Regions = { amem: [], hbm: [] }): Outcome {
  const a = run(img, regions, { trace: true, apm });
  for (const seed of seeds) expectSame(run(img, regions, { seed, trace: true, apm }), a);
  const q = run(img, regions, { seed: seeds[0]! ^ 0x5a5a, apm, quantum: 256 });
  expect(q.cycles).toBe(a.cycles);
  expect(q.report).toEqual({ ...(a.report as object), kernel_steps: (q.report as SimReport).kernel_steps });
  for (let i = 0; i < a.dumps.length; i++) expect(q.dumps[i]!.equals(a.dumps[i]!)).toBe(true);
  return a;
}

/** micro_patch_t header (chip §12.6.1.2) through its grammar table, then the elements padded to 8 bytes. */
function patch(target: number, regSize: number, elems: Uint8Array[]): Uint8Array {
  const pad = Math.ceil(regSize / 8) * 8;
  const out = new Uint8Array(8 + pad * elems.length);
  encode(loadTable('pyxis', 'patch_micro_patch_t'), { target_address: target, reg_size: regSize, reg_repeat: elems.length }, out, 0);
  elems.forEach((e, i) => out.set(e.subarray(0, regSize), 8 + i * pad));
  return out;
}

const clusterArb = fc.record({
  kib: fc.integer({ min: 1, max: 12 }),
  rows: fc.integer({ min: 1, max: 64 }),
  icdma: fc.nat(2),
  power: fc.integer({ min: 0, max: 40 }),
  patchElems: fc.integer({ min: 1, max: 3 }),
  mpeRemote: fc.boolean(),
  /** An A2H with no wait, contending with the H2A for the HBM port from the first cycles. */
  extraA2h: fc.integer({ min: 0, max: 6 }),
  /** A second ICDMA engine with no wait, contending for the core-switch egress (when Table 12-1 gives it a simulated destination). */
  extraIcdma: fc.integer({ min: 0, max: 24 }),
});
const chipArb = fc.record({ clusters: fc.array(clusterArb, { minLength: 2, maxLength: 4 }), apm: fc.boolean(), salt: fc.nat(255) });
type ChipWork = typeof chipArb extends fc.Arbitrary<infer T> ? T : never;

/**
 * Per cluster c: H2A (HBM -> AMEM) -> barrier 1 -> UIE 0 copy -> barrier 2 -> ICDMA into another cluster d, which
 * notifies barrier 100 + c of cluster d (a cross-cluster barrier) -> A2H of d stores the landed data to HBM; an MPE
 * patch writes UIE 1's config space and enqueues nothing; in cluster 0 an MPE DMA may write into cluster 1's AMEM
 * through a remap window (a cross-cluster NoC write).
 */
function buildChip(w: ChipWork): Container {
  const b = new ImageBuilder();
  const n = w.clusters.length;
  const bcfg: Uint8Array[][] = Array.from({ length: n }, () => []);
  const a2h: Uint8Array[][] = Array.from({ length: n }, () => []);
  let id = 1;
  const remap: Array<Record<string, unknown>> = [];
  w.clusters.forEach((k, c) => {
    const bytes = k.rows * 128;
    b.data('hbm', 0x10_0000 * (c + 1), bytesOf(k.kib * 1024, (i) => i * 7 + c * 31 + w.salt));
    for (const [off, v] of copyProgram(k.rows, 0)) b.data('cfg', CFG + off, v, c);
    bcfg[c]!.push(desc('desc_barrier_config', { barrier_id: 1, notify_count: 1, wait_count: 1, trip_id: id++ }));
    bcfg[c]!.push(desc('desc_barrier_config', { barrier_id: 2, notify_count: 1, wait_count: 1, trip_id: id++ }));
    b.list(Q.h2a, 0x1000, [desc('desc_h2a', { amem_start_address: A.src >> 7, hbm_base_address: (0x10_0000 * (c + 1)) >> 10, length: k.kib, notify_list: [gid(c, 1)], trip_id: id++, trip_power: k.power })], c);
    b.list(0, 0x1100, [desc('desc_uie', { trip_valid_mask: 3, start_pc: Array(13).fill(0), amem_read_base_address: A.src >> 4, amem_write_base_address: A.dst >> 4, wait_barrier_id: 1, notify_list: [gid(c, 2)], trip_id: id++, trip_power: k.power })], c);
    // ICDMA engine index: the first of (k.icdma, +1, +2) whose destination (Table 12-1) is another simulated cluster
    const choices = [0, 1, 2].map((j) => (k.icdma + j) % 3).filter((i) => icdmaDestination(c, i) < n && icdmaDestination(c, i) !== c);
    const i = choices[0]!;
    const d = icdmaDestination(c, i);
    const landing = A.landing + c * A.span;
    const spare = choices[1];
    if (k.extraIcdma > 0 && spare !== undefined) {
      b.list(Q.icdma + spare, 0x1280, [
        desc('desc_icdma', { amem_source_start_address: A.mpe >> 7, amem_dest_start_address: (landing + 0x2000) >> 7, length: k.extraIcdma, core_switch_plane_mask: 0x3, trip_id: id++, trip_power: k.power }),
      ], c);
    }
    if (k.extraA2h > 0)
      a2h[c]!.unshift(desc('desc_a2h', { amem_start_address: A.mpe >> 7, hbm_base_address: (HBM_OUT2 + c * A.span) >> 10, length: k.extraA2h, trip_id: id++, trip_power: k.power }));
    b.list(Q.icdma + i, 0x1200, [
      desc('desc_icdma', { amem_source_start_address: A.dst >> 7, amem_dest_start_address: landing >> 7, length: k.rows, core_switch_plane_mask: 0xf, wait_barrier_id: 2, notify_list: [gid(d, 100 + c)], trip_id: id++, trip_power: k.power }),
    ], c);
    bcfg[d]!.push(desc('desc_barrier_config', { barrier_id: 100 + c, notify_count: 1, wait_count: 1, trip_id: id++ }));
    a2h[d]!.push(desc('desc_a2h', { amem_start_address: landing >> 7, hbm_base_address: (HBM_OUT + c * A.span) >> 10, length: Math.ceil(bytes / 1024), wait_barrier_id: 100 + c, trip_id: id++, trip_power: k.power }));
    // MPE patch: reg elements into UIE 1's amem_read op memory (cfg offset 1 MiB + 0x400)
    const elems = Array.from({ length: k.patchElems }, (_, e) => bytesOf(20, (x) => x + e * 40 + c + w.salt));
    const blob = patch(CFG + (1 << 20) + 0x400, 20, elems);
    b.data('amem', A.mpe, blob, c);
    const mpe = [desc('desc_mpe_patch', { blob_address: A.mpe, blob_length: blob.length / 8, num_patches: 1, mode: 0, trip_id: id++ })];
    if (c === 0 && k.mpeRemote) {
      // window 3 of cluster 0's MPE points at cluster 1's AMEM: a DMA-mode write across the NoC
      b.data('amem', A.mpe + 0x1000, bytesOf(512, (x) => x * 5 + w.salt), 0);
      mpe.push(desc('desc_mpe_dma', { source_address: A.mpe + 0x1000, target_address: 0xc000_0000 + A.mpe + 0x2000, length: 64, mode: 1, trip_id: id++ }));
      const win = (base: bigint, mask: bigint) => ({ base: `0x${base.toString(16)}`, mask: `0x${mask.toString(16)}` });
      const std = [win(0x10_0000_0000n, 0x7ff_ffffn), win(0x20_0000_0000n, 0x3fff_ffffn), win(0n, 0x3fff_ffffn)];
      remap.push({ cluster: 0, dpe: [...std, win(0x4000_0000n, 0x3fff_ffffn)], mpe: [...std, win(0x10_1000_0000n, 0x7ff_ffffn)] });
    }
    b.list(Q.mpe, 0x1300, mpe, c);
  });
  for (let c = 0; c < n; c++) {
    b.list(Q.bcfg, 0x1400, bcfg[c]!, c);
    if (a2h[c]!.length) b.list(Q.a2h, 0x1500, a2h[c]!, c);
  }
  b.metadata = { clusters: n, uies: 1, ...(remap.length ? { remap } : {}) };
  return b.build();
}

describe('results do not depend on the engine registration order', () => {
  it('random multi-cluster images (cross-cluster barriers, ICDMA, MPE patch and remote DMA, APM on/off)', () => {
    fc.assert(
      fc.property(chipArb, fc.array(fc.integer({ min: 1, max: 2 ** 31 }), { minLength: 2, maxLength: 3 }), (w, seeds) => {
        const a = checkOrderFree(buildChip(w), seeds, w.apm, CHIP_REGIONS);
        // the program did what it says: the landed ICDMA data of every cluster reached HBM through the A2H
        const hbm = a.dumps[a.dumps.length - 2]!; // HBM_OUT (the regions end with HBM_OUT, HBM_OUT2)
        w.clusters.forEach((k, c) => {
          const want = Buffer.from(bytesOf(k.rows * 128, (i) => (i < k.kib * 1024 ? i * 7 + c * 31 + w.salt : 0)));
          expect(hbm.subarray(c * A.span, c * A.span + k.rows * 128).equals(want)).toBe(true);
        });
        // cluster 1's MPE area (the last AMEM region of cluster 1)
        const per = CHIP_REGIONS.amem.length;
        if (w.clusters[0]!.mpeRemote) expect(a.dumps[per + per - 1]!.subarray(0x2000, 0x2200).equals(Buffer.from(bytesOf(512, (x) => x * 5 + w.salt)))).toBe(true);
      }),
      { numRuns: 12 },
    );
  });

  it('the MPE patch sample of engines.test (enqueue CSR written by an MPE)', () => {
    const b = new ImageBuilder();
    const rec = encode(loadTable('pyxis', 'desc_enqueue_record'), { queue_id: 0x10, descriptor_list_address: 0x3000, descriptor_list_length: 4 });
    const blob = patch(CFG + CSR_ENQUEUE, 8, [rec]);
    b.data('amem', 0x2000, blob);
    b.data('hbm', 0, bytesOf(1024, (i) => 255 - i));
    b.data('amem', 0x3000, desc('desc_h2a', { amem_start_address: 0x9000 >> 7, hbm_base_address: 0, length: 1, trip_id: 77 }));
    b.list(0x15, 0x1000, [desc('desc_mpe_patch', { blob_address: 0x2000, blob_length: blob.length / 8, num_patches: 1, mode: 0, trip_id: 5 })]);
    checkOrderFree(b.build(), [1, 2, 3], true, { amem: [[0x9000, 1024]], hbm: [] });
  });

  const sample = (ld: string, pasm: string) => {
    const obj = assemble(pasm.split(',').map((f) => ({ file: f, text: readFileSync(samples + f, 'utf8') })), { isa: loadPyxisIsa(), listing: false }).object;
    return link({ script: readFileSync(samples + ld, 'utf8'), scriptFile: samples + ld, objects: [{ file: pasm, container: obj }] }).image;
  };
  for (const [ld, pasm] of [
    ['copy.ld', 'copy.pasm'],
    ['fork_join.ld', 'copy.pasm'],
    ['gather.ld', 'gather.pasm'],
    ['vpu_relu.ld', 'vpu_relu.pasm'],
    ['weights_1x1.ld', 'wdp_1x1_weights.pasm,weights_1x1_rd.pasm'],
  ] as const)
    it(`samples/pyxis/${ld}`, () => void checkOrderFree(sample(ld, pasm), [7, 1234567, 99]));
});
