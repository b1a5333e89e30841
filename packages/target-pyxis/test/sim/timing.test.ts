/**
 * Exact timing of the transaction-level engine models (docs/timing-model.md). Every expected cycle count is derived
 * here from the parameters of grammars/pyxis/sim_config.json (read in the test) by the formula the timing model
 * documents; each case also runs with perturbed parameters (the formula re-evaluated with them), so a parameter the
 * engine ignored, or used differently, fails the test. APM is off so nothing is throttled.
 */
import { describe, expect, it } from 'vitest';
import { loadGrammarJson } from '@pyxis/codec';
import { loadSimConfig, MPES_PER_CLUSTER, simulateImage, StringSink, type SimConfig } from '@pyxis/target-pyxis/sim';
import { encode, loadTable } from '@pyxis/codec';
import { bytesOf, gid, ImageBuilder } from './pyxisImage.js';

const desc = ImageBuilder.desc;
const CFG = 0x4000_0000;

/** The documented parameters, straight from the JSON file (not through the simulator's loader). */
function fileConfig(): SimConfig {
  const c = structuredClone(loadGrammarJson<SimConfig>('pyxis', 'sim_config'));
  c.apm.enabled = false;
  return c;
}

/** start/end cycle of every trip (trace slices), by trip_id. */
function tripTimes(trace: StringSink): Map<number, { start: number; end: number }> {
  const t = JSON.parse(trace.text) as { traceEvents: Array<Record<string, unknown>> };
  const out = new Map<number, { start: number; end: number }>();
  for (const e of t.traceEvents) {
    const a = e['args'] as Record<string, number> | undefined;
    if (e['ph'] === 'X' && e['cat'] === 'trip' && a) out.set(a['trip_id']!, { start: a['start_cycle']!, end: a['end_cycle']! });
  }
  return out;
}

function run(b: ImageBuilder, config: SimConfig) {
  const trace = new StringSink();
  const { report } = simulateImage(b.build(), 't.pimg', { config, trace });
  expect(report.stop).toBe('done');
  return tripTimes(trace);
}

/** HBM stack rate in bytes per cycle (chip §1, §8: bytes per second per stack at clock_hz). */
const hbmBpc = (c: SimConfig) => c.hbm.bytes_per_second_per_stack / c.clock_hz;
/** Cycles for `bytes` through a port of `bpc` bytes per cycle starting on a whole cycle (a port ends on a whole cycle). */
const portCycles = (bytes: number, bpc: number) => Math.ceil(bytes / bpc - 1e-9);

/**
 * H2A of N KiB (chip §8.1.2, §12.1): 1 KiB units read back to back from the HBM stack; the last unit leaves HBM
 * after N KiB at the stack rate, then the read latency, its 8 AMEM words through the engine port, and the AMEM
 * write-commit latency (§11.7.2). (The engine port is faster than the stack, so only the last unit's pass counts.)
 */
const h2aCycles = (c: SimConfig, kib: number) => portCycles(kib * 1024, hbmBpc(c)) + c.hbm.read_latency_cycles + portCycles(1024, c.h2a.bytes_per_cycle) + c.amem.write_commit_latency_cycles;
/** A2H of N KiB (chip §8.1.1): the first unit's AMEM read, then N KiB back to back into the stack, then the HBM write latency. */
const a2hCycles = (c: SimConfig, kib: number) => portCycles(1024, c.a2h.bytes_per_cycle) + portCycles(kib * 1024, hbmBpc(c)) + c.hbm.write_latency_cycles;

/** Config variants: the default and each named parameter changed (formula and simulator both see the change). */
function variants(edits: Array<[string, (c: SimConfig) => void]>): Array<[string, SimConfig]> {
  return [['default', fileConfig()], ...edits.map(([n, f]): [string, SimConfig] => {
    const c = fileConfig();
    f(c);
    return [n, c];
  })];
}

describe('DMA timing (exact, from sim_config.json)', () => {
  const hbmVariants = variants([
    ['hbm.read_latency_cycles + 37', (c) => void (c.hbm.read_latency_cycles += 37)],
    ['hbm.write_latency_cycles + 29', (c) => void (c.hbm.write_latency_cycles += 29)],
    ['hbm stack at half rate', (c) => void (c.hbm.bytes_per_second_per_stack /= 2)],
    ['amem.write_commit_latency_cycles + 11', (c) => void (c.amem.write_commit_latency_cycles += 11)],
  ]);
  for (const kib of [1, 3, 64, 256])
    for (const [name, cfg] of hbmVariants) {
      it(`H2A and A2H of ${kib} KiB (${name})`, () => {
        const h = new ImageBuilder();
        h.list(0x10, 0x1000, [desc('desc_h2a', { amem_start_address: 0x10_0000 >> 7, hbm_base_address: 0, length: kib, trip_id: 1 })]);
        const th = run(h, cfg).get(1)!;
        expect(th.end - th.start).toBe(h2aCycles(cfg, kib));
        const a = new ImageBuilder();
        a.list(0x11, 0x1000, [desc('desc_a2h', { amem_start_address: 0x10_0000 >> 7, hbm_base_address: 0, length: kib, trip_id: 2 })]);
        const ta = run(a, cfg).get(2)!;
        expect(ta.end - ta.start).toBe(a2hCycles(cfg, kib));
      });
    }

  it('an engine port slower than the HBM stack is the bottleneck (h2a/a2h.bytes_per_cycle)', () => {
    const cfg = fileConfig();
    cfg.h2a.bytes_per_cycle = cfg.a2h.bytes_per_cycle = 256; // 4 cycles per KiB, slower than the stack
    const kib = 64;
    const h = new ImageBuilder();
    h.list(0x10, 0x1000, [desc('desc_h2a', { amem_start_address: 0x10_0000 >> 7, hbm_base_address: 0, length: kib, trip_id: 1 })]);
    const th = run(h, cfg).get(1)!;
    // first unit out of HBM + read latency, then every unit through the 256 B/cycle engine port, then commit
    expect(th.end - th.start).toBe(portCycles(1024, hbmBpc(cfg)) + cfg.hbm.read_latency_cycles + portCycles(kib * 1024, 256) + cfg.amem.write_commit_latency_cycles);
    const a = new ImageBuilder();
    a.list(0x11, 0x1000, [desc('desc_a2h', { amem_start_address: 0x10_0000 >> 7, hbm_base_address: 0, length: kib, trip_id: 2 })]);
    const ta = run(a, cfg).get(2)!;
    // every unit through the engine port, the last one's HBM write, then the write latency
    expect(ta.end - ta.start).toBe(portCycles(kib * 1024, 256) + portCycles(1024, hbmBpc(cfg)) + cfg.hbm.write_latency_cycles);
  });

  it('H2A and A2H running together share the HBM port', () => {
    const cfg = fileConfig();
    const one = new ImageBuilder();
    one.list(0x10, 0x1000, [desc('desc_h2a', { amem_start_address: 0, hbm_base_address: 0, length: 128, trip_id: 1 })]);
    const both = new ImageBuilder();
    both.list(0x10, 0x1000, [desc('desc_h2a', { amem_start_address: 0, hbm_base_address: 0, length: 128, trip_id: 1 })]);
    both.list(0x11, 0x1100, [desc('desc_a2h', { amem_start_address: 0x100000 >> 7, hbm_base_address: 1024, length: 128, trip_id: 2 })]);
    const r1 = simulateImage(one.build(), 'a.pimg', { config: cfg }).report;
    const r2 = simulateImage(both.build(), 'b.pimg', { config: cfg }).report;
    const hbm = r2.ports.find((p) => p.name === 'c0.hbm')!;
    expect(hbm.bytes).toBe(2 * 128 * 1024);
    // the stack is the bottleneck of both: the pair keeps it busy for twice the bytes
    expect(hbm.busy_cycles).toBe(Math.round((2 * 128 * 1024) / hbmBpc(cfg)));
    expect(r2.cycles - r1.cycles).toBeGreaterThanOrEqual(portCycles(128 * 1024, hbmBpc(cfg)) - 2);
  });

  for (const [name, cfg] of variants([
    ['icdma.latency_cycles + 17', (c) => void (c.icdma.latency_cycles += 17)],
    ['icdma.bytes_per_cycle = 64', (c) => void (c.icdma.bytes_per_cycle = 64)],
    ['icdma.chunk_bytes = 4096', (c) => void (c.icdma.chunk_bytes = 4096)],
    ['amem.write_commit_latency_cycles + 7', (c) => void (c.amem.write_commit_latency_cycles += 7)],
  ]))
    it(`ICDMA of 64 KiB into another cluster (${name})`, () => {
      const b = new ImageBuilder();
      b.list(0x12, 0x1000, [desc('desc_icdma', { amem_source_start_address: 0, amem_dest_start_address: 0, length: 512, core_switch_plane_mask: 0xf, trip_id: 1 })]);
      b.data('amem', 0, new Uint8Array(8), 1); // make cluster 1 exist
      const t = run(b, cfg).get(1)!;
      // the last chunk leaves the engine port after 64 KiB at icdma.bytes_per_cycle (the core-switch ports are
      // faster), crosses the switch (icdma.latency_cycles, the link's latency), passes the destination's ingress
      // port, and commits there (chip §11.7.2)
      const cs = cfg.core_switch.bytes_per_second_per_cluster_port / cfg.clock_hz;
      const expected = portCycles(64 * 1024, cfg.icdma.bytes_per_cycle) + cfg.icdma.latency_cycles + portCycles(cfg.icdma.chunk_bytes, cs) + cfg.amem.write_commit_latency_cycles;
      expect(t.end - t.start).toBe(expected);
    });
});

describe('barrier chain timing (chip §11.3, §11.6)', () => {
  /**
   * A (H2A, cluster 0) -> barrier 0:1 -> B (no-op UIE trip, cluster 0) -> barrier 1:2 (another cluster, over the
   * barrier link) -> C (no-op UIE trip, cluster 1). A no-op trip completes in the cycle it starts (§11.4.2); a
   * completion reaches the barrier table notify_latency_cycles later, and the released trip starts
   * launch_latency_cycles after the release.
   */
  for (const [name, cfg] of variants([
    ['notify_latency_cycles = 5', (c) => void (c.trip_manager.notify_latency_cycles = 5)],
    ['launch_latency_cycles = 9', (c) => void (c.trip_manager.launch_latency_cycles = 9)],
    ['launch_latency_cycles = 0', (c) => void (c.trip_manager.launch_latency_cycles = 0)],
  ]))
    it(`A -> B -> C (${name})`, () => {
      const b = new ImageBuilder();
      b.list(0x22, 0x1000, [desc('desc_barrier_config', { barrier_id: 1, notify_count: 1, wait_count: 1, trip_id: 10 })], 0);
      b.list(0x22, 0x1000, [desc('desc_barrier_config', { barrier_id: 2, notify_count: 1, wait_count: 1, trip_id: 11 })], 1);
      b.list(0x10, 0x1100, [desc('desc_h2a', { amem_start_address: 0x10_0000 >> 7, hbm_base_address: 0, length: 4, notify_list: [gid(0, 1)], trip_id: 1 })], 0);
      b.list(0, 0x1200, [desc('desc_uie', { trip_valid_mask: 0, wait_barrier_id: 1, notify_list: [gid(1, 2)], trip_id: 2 })], 0);
      b.list(0, 0x1200, [desc('desc_uie', { trip_valid_mask: 0, wait_barrier_id: 2, trip_id: 3 })], 1);
      b.metadata = { uies: 1, clusters: 2 };
      const t = run(b, cfg);
      const A = t.get(1)!;
      const B = t.get(2)!;
      const C = t.get(3)!;
      const hop = cfg.trip_manager.notify_latency_cycles + cfg.trip_manager.launch_latency_cycles;
      expect(A.end - A.start).toBe(h2aCycles(cfg, 4));
      expect(B.start).toBe(A.end + hop);
      expect(B.end).toBe(B.start);
      expect(C.start).toBe(B.end + hop);
      expect(C.end).toBe(C.start);
    });
});

describe('MPE patch timing (chip §12.6)', () => {
  /** micro_patch_t header through its grammar table, then the elements padded to 8 bytes. */
  function patch(target: number, regSize: number, elems: Uint8Array[]): Uint8Array {
    const pad = Math.ceil(regSize / 8) * 8;
    const out = new Uint8Array(8 + pad * elems.length);
    encode(loadTable('pyxis', 'patch_micro_patch_t'), { target_address: target, reg_size: regSize, reg_repeat: elems.length }, out, 0);
    elems.forEach((e, i) => out.set(e.subarray(0, regSize), 8 + i * pad));
    return out;
  }
  /**
   * The blob is read through the cluster's NoC port (noc.bytes_per_cycle) plus noc.latency_cycles; then each
   * patch's data goes out through the NoC port and the MPE write path (mpe.write_bytes_per_cycle per channel, 13
   * channels) one after the other, each taking the slower of the two; the trip ends when the last write is done.
   */
  for (const [name, cfg] of variants([
    ['noc.latency_cycles + 13', (c) => void (c.noc.latency_cycles += 13)],
    ['noc.bytes_per_cycle = 16', (c) => void (c.noc.bytes_per_cycle = 16)],
    ['mpe.write_bytes_per_cycle = 2', (c) => void (c.mpe.write_bytes_per_cycle = 2)],
  ]))
    it(`two patches into UIE config memory (${name})`, () => {
      const b = new ImageBuilder();
      const p1 = patch(CFG + 0x400, 20, [bytesOf(20, (i) => i), bytesOf(20, (i) => 2 * i), bytesOf(20, (i) => 3 * i)]);
      const p2 = patch(CFG + 0x800, 8, [bytesOf(8, (i) => 100 + i)]);
      const blob = new Uint8Array(p1.length + p2.length);
      blob.set(p1);
      blob.set(p2, p1.length);
      b.data('amem', 0x2000, blob);
      b.list(0x15, 0x1000, [desc('desc_mpe_patch', { blob_address: 0x2000, blob_length: blob.length / 8, num_patches: 2, mode: 0, trip_id: 5 })]);
      const t = run(b, cfg).get(5)!;
      const write = cfg.mpe.write_bytes_per_cycle * MPES_PER_CLUSTER;
      let end = portCycles(blob.length, cfg.noc.bytes_per_cycle) + cfg.noc.latency_cycles;
      for (const data of [p1.length - 8, p2.length - 8]) end = Math.max(end + portCycles(data, write), end + portCycles(data, cfg.noc.bytes_per_cycle));
      expect(t.end - t.start).toBe(end);
    });
});

describe('sim_config.json is the one source of the parameters', () => {
  it('the simulator loads exactly the file', () => {
    const c = loadSimConfig();
    const f = loadGrammarJson<SimConfig>('pyxis', 'sim_config');
    expect(c).toEqual(f);
  });
});
