/**
 * Software-visible state (coverage audit gap 6): the hardware-maintained compute registers (seq §9.1.4-§9.1.5,
 * §10.1.1-§10.1.2, §10.3.2, §12.1, §13.1-§13.2), the direct barrier-table view `bt_mem[1024]` (chip §11.6.6), the
 * descriptor-queue head-pointer status CSRs (chip §11.5.1) and the DPE configuration (chip §12.5). Addresses and
 * packings are project-defined (grammars/pyxis/memory_map.json); the expected values below come from the spec text
 * and are computed here, not read from the code under test.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { assemble, loadPyxisIsa } from '@pyxis/target-pyxis/asm';
import { link } from '@pyxis/target-pyxis/ld';
import { defaultUieFactory, makeUieFactory, simulateImage, uie as uieNs } from '@pyxis/target-pyxis/sim';
import { loadGrammarJson } from '@pyxis/codec';
import { SAMPLES } from '../samples-compute.harness.js';
import { bytesOf, copyProgram, ImageBuilder } from './pyxisImage.js';

const CFG = 0x4000_0000;
const hex = (n: number) => `0x${n.toString(16)}`;
const MAP = loadGrammarJson<{ regions: Array<{ name: string; offset: number; stride: number; words: number; access?: string }> }>('pyxis', 'memory_map');
const region = (name: string) => MAP.regions.find((r) => r.name === name)!;
/** Offset in the cluster's CSR window of word i of a region (UIE u for per-UIE regions). */
const at = (name: string, i = 0, u = 0) => (name.startsWith('csr.') ? u * (1 << 20) : 0) + region(name).offset + i * region(name).stride;
const le64 = (v: bigint) => {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, v, true);
  return b;
};

describe('compute CSRs read the hardware state (seq §9.1.4-§13.2)', () => {
  it('reset values: hbuf_wr_credits = full Hbuf (4 KiB / 16 B = 256), wb_credits = 8, the rest 0', () => {
    const b = new ImageBuilder();
    for (const [off, bytes] of copyProgram(1)) b.data('cfg', CFG + off, bytes);
    const { chip } = simulateImage(b.build(), 'r.pimg', { uies: 1, uieFactory: defaultUieFactory });
    const cfg = chip.cfg[0]!;
    // seq §9.1.5 "The credits are initialized to the full hbuf size by hardware"; §10.3.2 "GX ... starts with 8 credits"
    expect(cfg.read64(at('csr.hbuf_wr_credits'))).toBe(4096n / 16n);
    expect(cfg.read64(at('csr.wb_credits'))).toBe(8n);
    for (const n of ['csr.hbuf_wr_base', 'csr.hbuf_rd_base', 'csr.hbuf_rd_credits', 'csr.vpu_cntr']) expect(cfg.read64(at(n))).toBe(0n);
    for (let t = 0; t < 8; t++) for (const n of ['csr.vbuf_wr_ptr', 'csr.vbuf_rd_ptr', 'csr.vbuf_scratchpad_count']) expect(cfg.read64(at(n, t))).toBe(0n);
  });

  it('units and indexing: hbuf_base / credits in 16-byte units (seq §9.1.4 "16-byte granularity"), one word per Vbuffer tile', () => {
    const b = new ImageBuilder();
    for (const [off, bytes] of copyProgram(1)) b.data('cfg', CFG + off, bytes);
    const { chip } = simulateImage(b.build(), 'u.pimg', { uies: 1, uieFactory: defaultUieFactory });
    const m = chip.uies[0]!.model as InstanceType<typeof uieNs.Uie>;
    // a mid-trip state: WDP at byte 4032 with 1 KiB of space left, GH at 3008 with 1 KiB to read, 3 writeback credits
    m.cmp.hbuf.wrBase = 4032;
    m.cmp.hbuf.rdBase = 3008;
    m.cmp.hbuf.wrCredits = 1024;
    m.cmp.hbuf.rdCredits = 1024;
    m.cmp.acc.wbCredits = 3;
    m.cmp.vbuffer.wrPtr[5] = 17;
    m.cmp.vbuffer.rdPtr[6] = 127;
    m.cmp.vbuffer.spCount[2] = 128;
    m.cmp.vpu.cntr = 0xbeef;
    const cfg = chip.cfg[0]!;
    expect(cfg.read64(at('csr.hbuf_wr_base'))).toBe(BigInt(4032 >> 4)); // byte address [11:4]
    expect(cfg.read64(at('csr.hbuf_rd_base'))).toBe(BigInt(3008 >> 4));
    expect(cfg.read64(at('csr.hbuf_wr_credits'))).toBe(64n);
    expect(cfg.read64(at('csr.hbuf_rd_credits'))).toBe(64n);
    expect(cfg.read64(at('csr.wb_credits'))).toBe(3n);
    expect(cfg.read64(at('csr.vbuf_wr_ptr', 5))).toBe(17n);
    expect(cfg.read64(at('csr.vbuf_wr_ptr', 4))).toBe(0n);
    expect(cfg.read64(at('csr.vbuf_rd_ptr', 6))).toBe(127n);
    expect(cfg.read64(at('csr.vbuf_scratchpad_count', 2))).toBe(128n);
    expect(cfg.read64(at('csr.vpu_cntr'))).toBe(0xbeefn);
  });

  it('after matmul_bias_relu (grid, writeback, Vbuffer, VPU): every block, credit and scratchpad count is returned', () => {
    const isa = loadPyxisIsa();
    const obj = assemble([{ file: 'm.pasm', text: readFileSync(SAMPLES + 'matmul_bias_relu.pasm', 'utf8') }], { isa, listing: false }).object;
    const image = link({ script: readFileSync(SAMPLES + 'matmul_bias_relu.ld', 'utf8'), scriptFile: SAMPLES + 'matmul_bias_relu.ld', objects: [{ file: 'm.pobj', container: obj }] }).image;
    const { report, chip } = simulateImage(image, 'm.ld', { uieFactory: makeUieFactory({ timingOnly: true }) });
    expect(report.stop).toBe('done');
    const cfg = chip.cfg[0]!;
    // seq §10.1.2: GH returns every consumed block to the WDP: credits back to the full Hbuf, no data left to read,
    // and both hbuf_base pointers advanced by the same number of bytes
    expect(cfg.read64(at('csr.hbuf_wr_credits'))).toBe(256n);
    expect(cfg.read64(at('csr.hbuf_rd_credits'))).toBe(0n);
    expect(cfg.read64(at('csr.hbuf_wr_base'))).toBe(cfg.read64(at('csr.hbuf_rd_base')));
    // seq §10.3.2: GWB returns one credit per offloaded slot
    expect(cfg.read64(at('csr.wb_credits'))).toBe(8n);
    // seq §13.2 "At the end of a trip, the count must always return to zero"; §13.1 FIFO tiles drained
    for (let t = 0; t < 8; t++) {
      expect(cfg.read64(at('csr.vbuf_scratchpad_count', t))).toBe(0n);
      expect(cfg.read64(at('csr.vbuf_wr_ptr', t))).toBe(cfg.read64(at('csr.vbuf_rd_ptr', t)));
    }
    // the sample moved weights through the Hbuf: the base pointers are not at reset (the checks above can fail);
    // the 128-row FIFO tiles wrap back to 0 (128 rows of C in and out)
    expect(cfg.read64(at('csr.hbuf_wr_base'))).not.toBe(0n);
  });
});

describe('bt_mem[1024]: direct read/write view of the barrier table (chip §11.6.6)', () => {
  /** bt_barrier_t (chip §11.6.1): notify_count 6-bit signed [5:0], wait_count 6-bit signed [11:6], ref_counts_valid [12]. */
  const btWord = (n: number, w: number, v: number) => BigInt((n & 63) | ((w & 63) << 6) | (v << 12));

  it('reads the live counts; a write sets an entry without releasing waiters or freeing it', () => {
    const b = new ImageBuilder();
    // barrier 7: 2 producers, 1 consumer; the consumer (a UIE trip) waits (wait_count 1 -> 0, chip §11.6.2)
    b.list(0x22, 0x1000, [ImageBuilder.desc('desc_barrier_config', { barrier_id: 7, notify_count: 2, wait_count: 1 })]);
    for (const [off, bytes] of copyProgram(1)) b.data('cfg', CFG + off, bytes);
    b.list(0x00, 0x1100, [ImageBuilder.desc('desc_uie', { trip_valid_mask: 0b11, wait_barrier_id: 7, trip_id: 9 })]);
    const bt = hex(CFG + at('cluster.bt_mem', 7));
    b.metadata = {
      host_actions: [
        // software notify through bt_mem_decrement (notif_decr = bit 1): notify_count 2 -> 1
        { cluster: 0, address: hex(CFG + at('cluster.bt_mem_decrement', 7)), value: '0x2', at_cycle: 50 },
        // read via a poll: notify 1, wait 0, valid 1 -> 0x1001
        { cluster: 0, address: hex(CFG + at('cluster.barrier_interrupt_config', 0)), value: '0x0', poll: { address: bt, mask: '0x1fff', value: hex(Number(btWord(1, 0, 1))) } },
        // direct write: notify_count 0 (a notify to 0 would release the waiting trip and free the barrier) -> nothing happens
        { cluster: 0, address: bt, value: hex(Number(btWord(0, 0, 1))) },
      ],
    };
    const { report, chip } = simulateImage(b.build(), 'bt.pimg', { uies: 1, uieFactory: defaultUieFactory, maxCycles: 2000 });
    expect(chip.host.actionsDone).toBe(3);
    // the waiting trip never ran: "Writing a barrier does not trigger hardware operations"
    expect(report.trips_by_kind['uie'] ?? 0).toBe(0);
    expect(report.stop).toBe('deadlock');
    expect(chip.barriers[0]!.notifyCount[7]).toBe(0);
    expect(chip.barriers[0]!.refCountsValid[7]).toBe(1); // not freed
    expect(chip.cfg[0]!.read64(at('cluster.bt_mem', 7))).toBe(btWord(0, 0, 1));
    expect(chip.cfg[0]!.read64(at('cluster.bt_mem', 8))).toBe(0n);
  });

  it('the view round-trips negative counts and a clean-up write returns an entry to the reset state', () => {
    const b = new ImageBuilder();
    for (const [off, bytes] of copyProgram(1)) b.data('cfg', CFG + off, bytes);
    b.metadata = {
      host_actions: [
        { cluster: 0, address: hex(CFG + at('cluster.bt_mem_decrement', 3)), value: '0x1', at_cycle: 5 }, // wait_decr: wait_count -1
        { cluster: 0, address: hex(CFG + at('cluster.bt_mem', 4)), value: hex(Number(btWord(-32, 31, 1))), at_cycle: 6 },
        { cluster: 0, address: hex(CFG + at('cluster.bt_mem', 0)), value: '0x1', at_cycle: 7 },
      ],
    };
    const { report, chip } = simulateImage(b.build(), 'bt2.pimg', { uies: 1, uieFactory: defaultUieFactory });
    const cfg = chip.cfg[0]!;
    expect(cfg.read64(at('cluster.bt_mem', 3))).toBe(btWord(0, -1, 0));
    expect(cfg.read64(at('cluster.bt_mem', 4))).toBe(btWord(-32, 31, 1));
    expect(chip.barriers[0]!.notifyCount[4]).toBe(-32);
    expect(cfg.read64(at('cluster.bt_mem', 0))).toBe(0n);
    expect(report.warnings.filter((w) => w.code === 'SIM0860')).toHaveLength(1);
    // clean-up: zero counts and ref_counts_valid 0 -> reset state (no longer pending in the wait graph)
    chip.cfg[0]!.write(at('cluster.bt_mem', 3), le64(0n), 0, 8);
    expect(chip.barriers[0]!.pending(chip.sim.now).map((p) => p.id)).toEqual([4]);
  });
});

describe('descriptor-queue head pointers (chip §11.5.1) and the DPE configuration (chip §12.5)', () => {
  /** Head pointer of queue q from the two status words: 21 queues x 3 bits per word (descr_q_head.json). */
  const headOf = (w: bigint[], q: number) => Number((w[Math.floor(q / 21)]! >> BigInt(3 * (q % 21))) & 7n);

  it('each fully fetched list advances {wrap, q_idx}; software computes outstanding lists as (tail - head) mod 8', () => {
    const b = new ImageBuilder();
    for (const [off, bytes] of copyProgram(2)) b.data('cfg', CFG + off, bytes);
    b.data('amem', 0x10000, bytesOf(256, (i) => i));
    // 5 lists on queue 0 (UIE 0): the ring holds 4, so the host enqueues the fifth once the head has moved;
    // 6 lists on queue 0x22 (barrier config) make its pointer wrap: 6 = 0b110 -> wrap 1, q_idx 2
    for (let i = 0; i < 5; i++) b.list(0x00, 0x1000 + 0x100 * i, [ImageBuilder.desc('desc_uie', { trip_valid_mask: 0b11, amem_read_base_address: 0x10000 >> 4, amem_write_base_address: 0x20000 >> 4, trip_id: i + 1 })]);
    for (let i = 0; i < 6; i++) b.list(0x22, 0x2000 + 0x100 * i, [ImageBuilder.desc('desc_barrier_config', { barrier_id: 10 + i, notify_count: 1, wait_count: 0 })]);
    const { report, chip } = simulateImage(b.build(), 'q.pimg', { uies: 1, uieFactory: defaultUieFactory });
    expect(report.stop).toBe('done');
    const words = [chip.cfg[0]!.read64(at('cluster.descr_q_head', 0)), chip.cfg[0]!.read64(at('cluster.descr_q_head', 1))];
    expect(headOf(words, 0x00)).toBe(5 & 7); // 5 lists: wrap 1, q_idx 1
    expect(headOf(words, 0x22)).toBe(6 & 7);
    for (let q = 1; q < 0x22; q++) expect(headOf(words, q)).toBe(0);
    // queue 0x22 is field head_13 of word 1; fields past queue 0x22 read 0
    expect(words[1]! >> BigInt(3 * 14)).toBe(0n);
    // read-only: a write is ignored with SIM0030
    const before = chip.cfg[0]!.read64(at('cluster.descr_q_head', 0));
    chip.cfg[0]!.write(at('cluster.descr_q_head', 0), le64(0n), 0, 8);
    expect(chip.cfg[0]!.read64(at('cluster.descr_q_head', 0))).toBe(before);
  });

  /** dpe_config (dpe_config.json): hungry_level [7:0], starving_level [15:8], burst_amount [23:16]. */
  const dpeWord = (hungry: number, starving: number, burst: number) => BigInt(hungry | (starving << 8) | (burst << 16));

  it('reads the reset configuration of sim_config.json; a burst of 2 fetches two descriptors per NoC request', () => {
    const cfgJson = loadGrammarJson<{ dpe: { hungry_level: number; starving_level: number; burst_descriptors: number; prefetch_depth: number }; noc: { latency_cycles: number; bytes_per_cycle: number } }>('pyxis', 'sim_config');
    const run = (preload?: bigint) => {
      const b = new ImageBuilder();
      if (preload !== undefined) b.data('cfg', CFG + at('cluster.dpe_config'), le64(preload));
      // one list of 2 barrier-config descriptors: the DPE's fetches are the only NoC traffic
      b.list(0x22, 0x2000, [ImageBuilder.desc('desc_barrier_config', { barrier_id: 20, notify_count: 1, wait_count: 0 }), ImageBuilder.desc('desc_barrier_config', { barrier_id: 21, notify_count: 1, wait_count: 0 })]);
      return simulateImage(b.build(), 'dpe.pimg', { uies: 1, uieFactory: defaultUieFactory });
    };
    const base = run();
    expect(base.chip.cfg[0]!.read64(at('cluster.dpe_config'))).toBe(dpeWord(cfgJson.dpe.hungry_level, cfgJson.dpe.starving_level, cfgJson.dpe.burst_descriptors));
    const burst = run(dpeWord(cfgJson.dpe.prefetch_depth, 1, 2));
    expect(burst.chip.cfg[0]!.read64(at('cluster.dpe_config'))).toBe(dpeWord(cfgJson.dpe.prefetch_depth, 1, 2));
    // the NoC statistics: one request per burst, same bytes
    expect(burst.chip.dpe[0]!.bytesRead).toBe(base.chip.dpe[0]!.bytesRead);
    expect(burst.chip.dpe[0]!.fetched).toBe(2);
    // with one descriptor per request the second descriptor is issued one cycle after the first; in a burst both
    // arrive with the single request, so the second set_ref_counts can start no later than without the burst
    expect(burst.report.cycles).toBeLessThanOrEqual(base.report.cycles);
  });

  it('levels outside starving <= hungry <= depth act clamped, with SIM0861', () => {
    const b = new ImageBuilder();
    b.data('cfg', CFG + at('cluster.dpe_config'), le64(dpeWord(60, 61, 1)));
    b.list(0x22, 0x2000, [ImageBuilder.desc('desc_barrier_config', { barrier_id: 20, notify_count: 1, wait_count: 0 })]);
    const { report } = simulateImage(b.build(), 'clamp.pimg', { uies: 1, uieFactory: defaultUieFactory });
    expect(report.stop).toBe('done');
    const w = report.warnings.filter((d) => d.code === 'SIM0861');
    expect(w).toHaveLength(1);
    expect(w[0]!.spec).toMatch(/§12\.5/);
  });

  it('hungry_level 0 (never fetch) acts as 1 with SIM0861 instead of hanging the queues', () => {
    const b = new ImageBuilder();
    b.data('cfg', CFG + at('cluster.dpe_config'), le64(dpeWord(0, 0, 1)));
    b.list(0x22, 0x2000, [ImageBuilder.desc('desc_barrier_config', { barrier_id: 20, notify_count: 1, wait_count: 0 })]);
    const { report } = simulateImage(b.build(), 'h0.pimg', { uies: 1, uieFactory: defaultUieFactory });
    expect(report.stop).toBe('done');
    expect(report.warnings.filter((d) => d.code === 'SIM0861').map((d) => d.message)).toEqual([expect.stringMatching(/act as 0 \/ 1$/)]);
  });
});
