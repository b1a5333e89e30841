/**
 * AMEM bank timing oracles (chip §7, §7.4, §7.5; docs/timing-model.md "AMEM banks"). Every expected cycle count is
 * derived in this file from the documented port model and the documented parameters — never by running the model:
 *
 *  - every (partition, bank) is single-ported: one access per cycle; an access waits for the first cycle its banks
 *    are free, and its port is held until then (so N accesses to one bank take N cycles, whoever makes them);
 *  - an AMEM Read's data enters the switchbox FIFO L = request_shim_cycles + read_latency_cycles +
 *    switch_convert_cycles after its bank access (grammars/pyxis/sim_config.json `amem`);
 *  - a read-modify-write (RMW_Add, a partial write, chip §7.4) is two accesses: its port is busy two cycles;
 *  - the bank of a 128-byte word is address [13:7], XORed with [20:14] in the hashed view (chip §7.5);
 *  - pipeline (uie-timing.test.ts): a core issues one record per cycle from cycle 0; the datapath takes it the cycle
 *    after; a trip whose writes are all Discard retires in the cycle its last flit is discarded.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { amemBank, amemPhysical, AMEM_VIEW_BIT } from '../../src/common/amem.js';
import { Amem, clientName, CLIENT_CONTROL, PORT_READ, uieClient } from '../../src/sim/amem/index.js';
import { Rig, loops, strides } from './uie-fixture.js';

const cfg = JSON.parse(readFileSync(fileURLToPath(new URL('../../../../grammars/pyxis/sim_config.json', import.meta.url)), 'utf8')) as {
  amem: { write_commit_latency_cycles: number; read_latency_cycles: number; request_shim_cycles: number; switch_convert_cycles: number };
};
const L = cfg.amem.request_shim_cycles + cfg.amem.read_latency_cycles + cfg.amem.switch_convert_cycles;
const COMMIT = cfg.amem.write_commit_latency_cycles;
/** One 16 KiB step in partitions: the same bank [13:7] on every row in the unhashed view (chip §7.5). */
const ROW_16K = 1024;

interface Clock {
  now: number;
}

/** UIEs sharing one AMEM (one cluster), ticked every cycle in `order`; returns each UIE's retirement cycle. */
function cluster(n: number, clock: Clock = { now: 0 }): { amem: Amem; rigs: Rig[]; run(order?: number[], each?: (t: number) => void): number[] } {
  const amem = new Amem('c0.amem', cfg.amem, clock);
  const rigs = Array.from({ length: n }, (_, i) => new Rig({ index: i, cfgBase: 0, amem, writeCommitLatency: COMMIT }));
  return {
    amem,
    rigs,
    run(order = rigs.map((_, i) => i), each) {
      for (let t = 0; t < 100000 && rigs.some((r) => r.uie.busy); t++) {
        clock.now = t;
        each?.(t);
        for (const i of order) if (rigs[i]!.uie.busy) rigs[i]!.uie.tick(t);
      }
      return rigs.map((r) => r.done[0]!.cycle);
    },
  };
}

/** A read-only walk: `rows` Read_SRAM of 8 partitions with `stride` partitions per row, every flit discarded. */
function walk(r: Rig, rows: number, stride: number, base: number, unhashed: boolean): void {
  r.prog('amem_read', 0, loops([{ n: rows }]), { opcd: 'Read_SRAM', data_type: 'Opaque_8bit', tgt_fifo: 'AMEM_write', num_logical_ptns: 8, iter_stride: strides(stride) });
  r.prog('amem_write', 0, loops([{ n: rows }]), { opcd: 'Discard', data_type: 'Opaque_8bit', src_fifo: 'AMEM_read' });
  r.trip({ trip_id: 1, amem_read_base_address: base >> 4, amem_read_bank_hash_dsbl: unhashed ? 1 : 0 });
}

/** Bank of row i of a walk (chip §7.5), for the derivations. */
const bankOf = (base: number, i: number, stride: number, unhashed: boolean) => amemBank(amemPhysical((base + i * stride * 16) | (unhashed ? AMEM_VIEW_BIT : 0)));

describe('AMEM banks: oracles derived from the port model (chip §7, §7.5)', () => {
  const N = 40;
  // no conflict: reads at cycles 1..N, the last flit discarded L cycles after its read: retires at N + L
  const alone = N + L;
  // one bank, 2N accesses from cycle 1, one per cycle: the last is served at 2N, its data discarded at 2N + L
  const shared = 2 * N + L;

  it('a lone strided walk streams one row per cycle (retires at N + L)', () => {
    const c = cluster(1);
    walk(c.rigs[0]!, N, ROW_16K, 0, true);
    expect(c.run()).toEqual([alone]);
  });

  it('two UIEs walking the same bank (unhashed, 16 KiB rows) are serialised on it: the last retires at 2N + L', () => {
    const A = 0;
    const B = 64 * 16384; // [20:14] = 64: same bank [13:7] = 0 in the unhashed view
    for (let i = 0; i < N; i++) expect(bankOf(A, i, ROW_16K, true)).toBe(bankOf(B, i, ROW_16K, true));
    for (const order of [
      [0, 1],
      [1, 0],
    ]) {
      const c = cluster(2);
      walk(c.rigs[0]!, N, ROW_16K, A, true);
      walk(c.rigs[1]!, N, ROW_16K, B, true);
      const done = c.run(order);
      // the bank is busy every cycle 1..2N; one UIE's last access is at 2N - 1, the other's at 2N
      expect([...done].sort((x, y) => x - y)).toEqual([shared - 1, shared]);
      const st = c.amem.banks.stats;
      const bank = bankOf(A, 0, ROW_16K, true);
      // every access but the first waits: 2N - 1 conflicts... minus the ones found the bank free; stall total exact:
      // served cycles 1..2N for issue cycles that sum to (served - 1) each: stall = sum(served) - sum(issue) > 0
      expect(st.bankConflicts[bank]).toBeGreaterThan(0);
      expect(st.clientConflicts[uieClient(0, PORT_READ)]! + st.clientConflicts[uieClient(1, PORT_READ)]!).toBe(st.bankConflicts[bank]);
      expect(clientName(uieClient(1, PORT_READ))).toBe('uie1.amem_read');
    }
  });

  it('the hashed view spreads the same two walks over all banks: no conflict, both retire at N + L', () => {
    const A = 0;
    const B = 64 * 16384;
    for (let i = 0; i < N; i++) expect(bankOf(A, i, ROW_16K, false)).not.toBe(bankOf(B, i, ROW_16K, false));
    const c = cluster(2);
    walk(c.rigs[0]!, N, ROW_16K, A, false);
    walk(c.rigs[1]!, N, ROW_16K, B, false);
    expect(c.run()).toEqual([alone, alone]);
    expect(c.amem.banks.stats.clientConflicts.reduce((a, b) => a + b, 0)).toBe(0);
  });

  it('a host (control-client) access to a bank the UIE reads in the same cycle costs the UIE one cycle per collision', () => {
    // the UIE claims bank 0 every cycle (16 KiB rows, unhashed) except the cycle after a collision (its port is held
    // while the late access is served); host writes of one word to bank 0 at cycles 5, 9, 13 (each a cycle the UIE
    // claims) are served first (docs/timing-model.md; DMA engines: amem-banks-dma.test.ts): three collisions, three cycles
    const dmaAt = [5, 9, 13];
    const run = (dmaFirst: boolean) => {
      const clock = { now: 0 };
      const c = cluster(1, clock);
      walk(c.rigs[0]!, N, ROW_16K, 0, true);
      const dma = (t: number) => {
        if (dmaAt.includes(t)) c.amem.writeBytes((0x200000 + t * 16384) | AMEM_VIEW_BIT, new Uint8Array(128));
      };
      // order independence: the DMA's access before or after the UIE's tick of the same cycle
      const done = dmaFirst
        ? c.run(undefined, dma)
        : (() => {
            const r = c.rigs[0]!;
            let t = 0;
            for (; r.uie.busy; t++) {
              clock.now = t;
              r.uie.tick(t);
              dma(t);
            }
            return [r.done[0]!.cycle];
          })();
      return { done, st: c.amem.banks.stats };
    };
    for (const first of [true, false]) {
      const { done, st } = run(first);
      expect(done).toEqual([alone + dmaAt.length]);
      expect(st.clientConflicts[uieClient(0, PORT_READ)]).toBe(dmaAt.length);
      expect(st.clientClaims[CLIENT_CONTROL]).toBe(dmaAt.length);
    }
  });

  it('RMW_Add and partial writes pay one extra bank access: the write port paces the copy at 2 cycles per row', () => {
    // reads in banks 0.., writes in banks 64.. (unhashed, one word per row): no read/write bank conflict. With the
    // write port busy 2 cycles per row, the reads are throttled by the 4-deep switchbox FIFO; write i starts at
    // w_i = max(read_i + L, w_{i-1} + 2) and the trip retires when the last write commits: w_{N-1} + 2 - 2 + COMMIT
    // (posted at its start, committing COMMIT later, chip §11.7.2; the late port time does not delay the commit).
    const n = 24;
    const expected = (acc: number) => {
      const DEPTH = 4;
      const r: number[] = [];
      const w: number[] = [];
      for (let i = 0; i < n; i++) {
        let ri = Math.max(i + 1, i > 0 ? r[i - 1]! + 1 : 1);
        if (i >= DEPTH) ri = Math.max(ri, w[i - DEPTH]!);
        r.push(ri);
        w.push(Math.max(ri + Math.max(L, 1), i > 0 ? w[i - 1]! + acc : 0, i + 1));
      }
      return w[n - 1]! + COMMIT;
    };
    const run = (op: Record<string, unknown>) => {
      const c = cluster(1);
      const r = c.rigs[0]!;
      r.prog('amem_read', 0, loops([{ n }]), { opcd: 'Read_SRAM', data_type: 'Opaque_8bit', tgt_fifo: 'AMEM_write', num_logical_ptns: 8, iter_stride: strides(8) });
      r.prog('amem_write', 0, loops([{ n }]), { data_type: 'Opaque_8bit', src_fifo: 'AMEM_read', num_logical_cols: 128, iter_stride: strides(8), ...op });
      r.trip({ trip_id: 1, amem_read_base_address: 0x10000 >> 4, amem_write_base_address: (0x80000 + 64 * 128) >> 4, amem_read_bank_hash_dsbl: 1, amem_write_bank_hash_dsbl: 1 });
      return c.run()[0]!;
    };
    expect(run({ opcd: 'Write' })).toBe(expected(1));
    expect(run({ opcd: 'RMW_Add', data_type: 'Recogni_FP8' })).toBe(expected(2));
    expect(run({ opcd: 'Write', num_logical_cols: 100 })).toBe(expected(2));
    expect(expected(2)).toBeGreaterThan(expected(1));
  });
});
