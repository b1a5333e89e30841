/**
 * AMEM bank oracles for the DMA engines (chip §7, §8.1; docs/timing-model.md "AMEM banks", docs/spec-notes.md).
 * Every expected cycle count is derived here from the documented rules and grammars/pyxis/sim_config.json (read in the
 * test), never by running the model:
 *
 *  - every (partition, bank) serves one access per cycle; a 1 KiB H2A/A2H unit is 8 consecutive 128-byte words, i.e.
 *    8 banks x 8 partitions, in one cycle (chip §8.1.1, §8.1.2); the bank of a word is address [13:7] (unhashed view);
 *  - round-robin among the UIE ports (client id 5 x uie + port, AMEM Read = port 0) and the bulk DMA clients (h2a = 60,
 *    a2h = 61, icdma i = 62 + i): 65 clients; at cycle t the client with id t mod 65 has the highest priority, then the
 *    following ids (mod 65). The loser is served at the next free cycle; an access served late holds its client's port;
 *  - A2H: the unit's AMEM read is claimed at issue; served d cycles late, its HBM write and commit move d cycles. H2A:
 *    the unit's AMEM write is claimed when its data arrives from HBM (issue + HBM stack pass + read latency); served d
 *    late, its engine-port pass and commit move d cycles. ICDMA (icdma0 = 62): the chunk read at issue, sent over the
 *    core switch when the claim is settled (next cycle), d cycles later. Uncontended they are the formulas of timing.test.ts;
 *  - a UIE Read_SRAM walk with 16 KiB rows in the unhashed view claims bank 0 on every row, row i at cycle i + 1, and
 *    a trip whose writes are Discard retires L = request_shim + read_latency + switch_convert cycles after its last
 *    read (amem-banks.test.ts).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BandwidthPort } from '@pyxis/sim';
import { AMEM_VIEW_BIT } from '../../src/common/amem.js';
import { Amem } from '../../src/sim/amem/index.js';
import type { SimConfig } from '../../src/sim/config.js';
import { HbmDmaEngine } from '../../src/sim/hbmDma.js';
import { IcdmaEngine, type IcdmaChunk } from '../../src/sim/engines.js';
import type { TimedLink } from '@pyxis/sim';
import { HbmMemory } from '../../src/sim/memory.js';
import type { Trip } from '../../src/sim/trip.js';
import { Rig, loops, strides } from './uie-fixture.js';

const cfg = JSON.parse(readFileSync(fileURLToPath(new URL('../../../../grammars/pyxis/sim_config.json', import.meta.url)), 'utf8')) as SimConfig;
const L = cfg.amem.request_shim_cycles! + cfg.amem.read_latency_cycles! + cfg.amem.switch_convert_cycles!;
const COMMIT = cfg.amem.write_commit_latency_cycles;
const ROW_16K = 1024;
/** Round-robin: 12 UIEs x 5 ports + 5 bulk DMA clients (docs/timing-model.md "AMEM banks"). */
const RR = 12 * 5 + 5;
const UIE0_READ = 0;
const H2A = 60;
const A2H = 61;
/** Whether client a beats client b in cycle t (round-robin priority key (id - t) mod 65). */
const beats = (a: number, b: number, t: number) => (((a - t) % RR) + RR) % RR < (((b - t) % RR) + RR) % RR;

const hbmBpc = cfg.hbm.bytes_per_second_per_stack / cfg.clock_hz;
const portCycles = (bytes: number, bpc: number) => Math.ceil(bytes / bpc - 1e-9);
/** Uncontended 1 KiB units (timing.test.ts formulas). */
const h2a1 = portCycles(1024, hbmBpc) + cfg.hbm.read_latency_cycles + portCycles(1024, cfg.h2a.bytes_per_cycle) + COMMIT;
const a2h1 = portCycles(1024, cfg.a2h.bytes_per_cycle) + portCycles(1024, hbmBpc) + cfg.hbm.write_latency_cycles;
/** The cycle an H2A unit issued at t0 has its data at the AMEM (its write's bank claim). */
const h2aArrive = (t0: number) => t0 + portCycles(1024, hbmBpc) + cfg.hbm.read_latency_cycles;

function trip(fields: Record<string, number>): Trip {
  return { cluster: 0, qid: 0x10, kind: 'h2a', fields, table: 'desc_h2a', tripId: 7, waitBarrierId: 0, notifyList: [], address: 0, trip_power: 0, fetchedAt: 0, waitAt: 0, goAt: 0, startAt: 0, doneAt: 0 };
}

/**
 * One cluster: a UIE walking `rows` rows of bank 0 (unhashed, 16 KiB rows) from cycle 0, and an H2A / A2H of one
 * 1 KiB unit at AMEM 0x200000 (unhashed: banks 0..7) started at `t0`; `dmaFirst` ticks the engine before the UIE.
 */
function race(dir: 'h2a' | 'a2h', rows: number, t0: number, dmaFirst: boolean) {
  const clock = { now: 0 };
  const amem = new Amem('c0.amem', cfg.amem, clock);
  const r = new Rig({ index: 0, cfgBase: 0, amem, writeCommitLatency: COMMIT });
  r.prog('amem_read', 0, loops([{ n: rows }]), { opcd: 'Read_SRAM', data_type: 'Opaque_8bit', tgt_fifo: 'AMEM_write', num_logical_ptns: 8, iter_stride: strides(ROW_16K) });
  r.prog('amem_write', 0, loops([{ n: rows }]), { opcd: 'Discard', data_type: 'Opaque_8bit', src_fifo: 'AMEM_read' });
  r.trip({ trip_id: 1, amem_read_base_address: 0, amem_read_bank_hash_dsbl: 1 });
  let dmaDone = -1;
  const eng = new HbmDmaEngine(0, dir, (_t, now) => (dmaDone = now), cfg, new HbmMemory(), amem, new BandwidthPort('hbm', hbmBpc), new BandwidthPort('eng', cfg[dir].bytes_per_cycle));
  const commits: Array<{ commit(now: number): void }> = [];
  eng.kernel = { requestCommit: (c) => commits.push(c) };
  const dma = (t: number) => {
    if (t === t0) eng.start(trip({ amem_start_address: (0x200000 | AMEM_VIEW_BIT) / 128, hbm_base_address: 0, length: 1 }), t);
    if (eng.busy) eng.tick(t);
  };
  for (let t = 0; t < 5000 && (r.uie.busy || eng.busy || t <= t0); t++) {
    clock.now = t;
    if (dmaFirst) dma(t);
    if (r.uie.busy) r.uie.tick(t);
    if (!dmaFirst) dma(t);
    for (const c of commits.splice(0)) c.commit(t);
  }
  return { uie: r.done[0]!.cycle, dma: dmaDone, st: amem.banks.stats };
}

describe('AMEM banks: a DMA competing with a UIE for a bank (round-robin, chip §7, §8.1)', () => {
  const alone = (rows: number) => rows + L;
  const cases: Array<[string, 'h2a' | 'a2h', number, number]> = [
    // A2H read at issue t0 against UIE row t0 - 1 (claimed at t0): t0 = 30 -> a2h has priority; t0 = 65 -> the UIE
    ['A2H wins', 'a2h', 80, 30],
    ['A2H loses', 'a2h', 80, 65],
    // H2A write at its data's arrival a = h2aArrive(t0), against the UIE row claimed at a
    ['H2A at its arrival', 'h2a', 300, 20],
    ['H2A at its arrival (other rotation)', 'h2a', 300, 65 - (h2aArrive(0) % RR)],
  ];
  for (const [name, dir, rows, t0] of cases) {
    it(`${name}: the loser is served one cycle late; both pay for it`, () => {
      const claimAt = dir === 'a2h' ? t0 : h2aArrive(t0);
      expect(claimAt).toBeGreaterThanOrEqual(1);
      expect(claimAt).toBeLessThanOrEqual(rows); // the UIE claims bank 0 in that cycle
      const dmaWins = beats(dir === 'a2h' ? A2H : H2A, UIE0_READ, claimAt);
      // DMA wins: the UIE's row waits 1 cycle (then streams on). UIE wins: the DMA's word of bank 0 is served at
      // claimAt + 1, where the UIE's next row claims bank 0 too: that row waits for it, so the UIE loses 1 cycle as well
      const dmaDone = t0 + (dir === 'a2h' ? a2h1 : h2a1) + (dmaWins ? 0 : 1);
      const uieDone = alone(rows) + 1;
      for (const first of [true, false]) {
        const got = race(dir, rows, t0, first);
        expect({ dma: got.dma, uie: got.uie }).toEqual({ dma: dmaDone, uie: uieDone });
        const client = dir === 'a2h' ? A2H : H2A;
        // per client: the DMA's word of bank 0 counts one conflict when it lost; the UIE's read one (or two: the row it
        // lost and, when the DMA lost, none — its late word then occupies the cycle the UIE's next row claims)
        expect(got.st.clientConflicts[client]).toBe(dmaWins ? 0 : 1);
        expect(got.st.clientConflicts[UIE0_READ]).toBe(1);
        expect(got.st.bankConflicts[0]).toBe(dmaWins ? 1 : 2);
      }
    });
  }

  it('alone, the DMA units keep the uncontended formulas (no UIE claims its banks)', () => {
    for (const dir of ['h2a', 'a2h'] as const) {
      const got = race(dir, 4, 100, true);
      expect(got.dma).toBe(100 + (dir === 'a2h' ? a2h1 : h2a1));
      expect(got.uie).toBe(alone(4));
    }
  });
});

describe('AMEM banks: fixed-priority clients (ICDMA ingress, MPE, DPE) wait only for resources already granted', () => {
  // ids from docs/timing-model.md "AMEM banks": after the 65 round-robin clients, icdma_in 65, mpe 66, dpe 67, control 68
  const MPE = 66;
  const DPE = 67;
  const CONTROL = 68;
  const UIE0_WRITE = 1;
  /** Byte address of a word in bank b (unhashed view: bank = address [13:7]). */
  const inBank = (b: number) => (0x100000 + b * 128) | AMEM_VIEW_BIT;

  it("the second access of a UIE read-modify-write holds the bank: an MPE word of it is served a cycle later, another bank's at once", () => {
    const clock = { now: 0 };
    const amem = new Amem('c0.amem', cfg.amem, clock);
    const banks = amem.banks;
    // cycle 0: RMW_Add of one word in bank 5 (two accesses: the bank is held in cycles 0 and 1, chip §7.4)
    expect(banks.claim(UIE0_WRITE, 0, inBank(5), 8, 2)).toBe(true);
    clock.now = 1;
    amem.readBytes(inBank(5), 128, MPE);
    expect(amem.servedAt).toBe(2);
    amem.readBytes(inBank(6), 128, DPE);
    expect(amem.servedAt).toBe(1);
    // the host is never delayed
    amem.readBytes(inBank(5), 16, CONTROL);
    expect(amem.servedAt).toBe(1);
    expect(banks.stats.clientConflicts[MPE]).toBe(1);
    expect(banks.stats.clientStallCycles[MPE]).toBe(1);
    expect(banks.stats.clientConflicts[DPE]).toBe(0);
  });

  it('in its cycle a fixed-priority access is served before a UIE claim of the same bank (order-independent)', () => {
    for (const uieFirst of [true, false]) {
      const clock = { now: 3 };
      const amem = new Amem('c0.amem', cfg.amem, clock);
      const banks = amem.banks;
      if (uieFirst) banks.claim(UIE0_READ, 3, inBank(9), 8);
      amem.writeBytes(inBank(9), new Uint8Array(128), MPE);
      if (!uieFirst) banks.claim(UIE0_READ, 3, inBank(9), 8);
      expect(amem.servedAt).toBe(3);
      banks.sync(4);
      // the UIE read is served at 4: its port is held until 5
      expect(banks.freeAt[UIE0_READ]).toBe(5);
      expect(banks.stats.clientConflicts[UIE0_READ]).toBe(1);
    }
  });
});

describe('AMEM banks: an ICDMA source read competing with a UIE (round-robin client icdma0 = 62)', () => {
  const ICDMA0 = 62;
  const csBpc = cfg.core_switch.bytes_per_second_per_cluster_port / cfg.clock_hz;
  /**
   * One 128-byte ICDMA chunk from AMEM 0x200000 (unhashed: bank 0) issued at t0 against the UIE walk of bank 0:
   * returns the cycle the chunk was sent over the core switch, its delivery cycle, and the UIE's retirement.
   */
  function run(t0: number, rows: number) {
    const clock = { now: 0 };
    const amem = new Amem('c0.amem', cfg.amem, clock);
    const r = new Rig({ index: 0, cfgBase: 0, amem, writeCommitLatency: COMMIT });
    r.prog('amem_read', 0, loops([{ n: rows }]), { opcd: 'Read_SRAM', data_type: 'Opaque_8bit', tgt_fifo: 'AMEM_write', num_logical_ptns: 8, iter_stride: strides(ROW_16K) });
    r.prog('amem_write', 0, loops([{ n: rows }]), { opcd: 'Discard', data_type: 'Opaque_8bit', src_fifo: 'AMEM_read' });
    r.trip({ trip_id: 1, amem_read_base_address: 0, amem_read_bank_hash_dsbl: 1 });
    const sent: Array<[number, number]> = [];
    const link = { minLatency: cfg.icdma.latency_cycles, send: (now: number, at: number, _k: number, _m: IcdmaChunk) => sent.push([now, at]) } as unknown as TimedLink<IcdmaChunk>;
    const eng = new IcdmaEngine(0, 0, 1, () => {}, cfg, amem, link, new BandwidthPort('eng', cfg.icdma.bytes_per_cycle), new BandwidthPort('egress', csBpc));
    const commits: Array<{ commit(now: number): void }> = [];
    eng.kernel = { requestCommit: (c) => commits.push(c) };
    const t = trip({ amem_source_start_address: (0x200000 | AMEM_VIEW_BIT) / 128, amem_dest_start_address: 0, length: 1, core_switch_plane_mask: 0xf });
    for (let c = 0; c < 3000 && (r.uie.busy || c <= t0 + 2); c++) {
      clock.now = c;
      if (c === t0) eng.start(t, c);
      if (eng.busy) eng.tick(c);
      if (r.uie.busy) r.uie.tick(c);
      for (const x of commits.splice(0)) x.commit(c);
    }
    return { sent, uie: r.done[0]!.cycle, st: amem.banks.stats };
  }
  for (const t0 of [20, 65]) {
    it(`issued at ${t0}: the chunk leaves one cycle late when it loses bank 0, on time when it wins`, () => {
      const rows = 80;
      const wins = beats(ICDMA0, UIE0_READ, t0);
      // uncontended: engine port and egress pass of 128 bytes, then the core-switch latency (timing.test.ts)
      const at = t0 + Math.max(portCycles(128, cfg.icdma.bytes_per_cycle), portCycles(128, csBpc)) + cfg.icdma.latency_cycles;
      const got = run(t0, rows);
      expect(got.sent).toEqual([[t0 + 1, at + (wins ? 0 : 1)]]);
      expect(got.uie).toBe(rows + L + 1);
      expect(got.st.clientConflicts[ICDMA0]).toBe(wins ? 0 : 1);
    });
  }
});
