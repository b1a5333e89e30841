/**
 * AMEM bank oracle for the Weights Read port (seq §7; chip §7; docs/timing-model.md "AMEM banks" and "Pyxis weights
 * path"). Expected cycles are derived here from the documented rules and the `weights_path` / `amem` parameters:
 *
 *  - Weights Read word i is read (its bank claimed) at cycle i when nothing stalls it, and written by the WDP at
 *    FIRST_WR + i, FIRST_WR = amem_read_latency_cycles + wdc_latency_cycles (compute-weights.test.ts);
 *  - a word of 8 partitions at partition address 8i (unhashed) is bank i (address [13:7]);
 *  - round-robin among 65 clients (client id 5 x uie + port: AMEM Read 0, Weights Read 2): at cycle t the client
 *    t mod 65 has the highest priority, then the following ids; the loser is served at the next free cycle, and its port
 *    is held until then (the Weights Read sequencer stalls), its word reaching the decompressor that much later;
 *  - UIE 1's Read_SRAM walk with 16 KiB rows (unhashed) claims one bank on every row, row j at cycle j + 1; with
 *    Discard writes it retires L = request_shim + read_latency + switch_convert cycles after its last read.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Amem } from '../../src/sim/amem/index.js';
import { P, readLoop, wdpLoop, WR_WDP } from './compute-weights-ref.js';
import { Rig, loops, strides } from './uie-fixture.js';

const cfg = JSON.parse(readFileSync(fileURLToPath(new URL('../../../../grammars/pyxis/sim_config.json', import.meta.url)), 'utf8')) as {
  amem: { write_commit_latency_cycles: number; read_latency_cycles: number; request_shim_cycles: number; switch_convert_cycles: number };
};
const L = cfg.amem.request_shim_cycles + cfg.amem.read_latency_cycles + cfg.amem.switch_convert_cycles;
const FIRST_WR = P.amem_read_latency_cycles + P.wdc_latency_cycles;
const RR = 65;
const key = (client: number, t: number) => (((client - t) % RR) + RR) % RR;

/** UIE 0: Weights Read of `n` consecutive words from 0 (unhashed: word i in bank i) into the WDP; UIE 1: a walk of
 * `rows` 16 KiB rows in bank `bank` (unhashed), or none. Returns the WDP write cycles and UIE 1's retirement. */
function run(n: number, rows: number, bank: number) {
  const amem = new Amem('c0.amem', cfg.amem);
  const w = new Rig({ index: 0, cfgBase: 0, amem, attachGrid: false });
  readLoop(w, [{ n }], { iter_stride: strides(8) });
  wdpLoop(w, [{ n }], { hbuf_wr_control: 'LD_2ROWS_8B', log2_ptns_per_hlane: 0, lin2log_config_vld: 1, dsbl_mapping_corr: 1 });
  w.trip({ trip_valid_mask: WR_WDP, amem_weights_base_address: 0, amem_weights_bank_hash_dsbl: 1 });
  const r = new Rig({ index: 1, cfgBase: 0, amem, writeCommitLatency: cfg.amem.write_commit_latency_cycles });
  if (rows > 0) {
    r.prog('amem_read', 0, loops([{ n: rows }]), { opcd: 'Read_SRAM', data_type: 'Opaque_8bit', tgt_fifo: 'AMEM_write', num_logical_ptns: 8, iter_stride: strides(1024) });
    r.prog('amem_write', 0, loops([{ n: rows }]), { opcd: 'Discard', data_type: 'Opaque_8bit', src_fifo: 'AMEM_read' });
    r.trip({ trip_id: 1, amem_read_base_address: bank * 8, amem_read_bank_hash_dsbl: 1 });
  }
  const wr: number[] = [];
  for (let t = 0; t < 2000 && (w.uie.busy || r.uie.busy); t++) {
    const k = w.uie.cmp.stats.wdpWords;
    if (w.uie.busy) w.uie.tick(t);
    if (r.uie.busy) r.uie.tick(t);
    if (w.uie.cmp.stats.wdpWords !== k) wr.push(t);
  }
  return { wr, walk: r.done[0]?.cycle, amem, stall: w.uie.cmp.stats.stallAmemPort };
}

describe('AMEM banks: Weights Read is a bank client (seq §7, chip §7)', () => {
  it('alone, word i is written at FIRST_WR + i', () => {
    expect(run(8, 0, 0).wr).toEqual(Array.from({ length: 8 }, (_, i) => FIRST_WR + i));
  });

  it('losing bank 3 to UIE 1 at cycle 3: the sequencer stalls one cycle, words 3.. are written one cycle later', () => {
    // UIE 1's rows are all bank 3: row j at cycle j + 1 meets weights word i = j + 1 (bank i) only at j = 2, cycle 3
    const T = 3;
    expect(key(5 * 1 + 0, T)).toBeLessThan(key(5 * 0 + 2, T)); // uie1.amem_read beats uie0.weights_read at cycle 3
    // the weights word is served at T + 1 (port held until T + 2, so word T + 1 issues at T + 2); UIE 1's next row
    // claims bank 3 at T + 1, finds it taken by the late weights word and is served at T + 2: UIE 1 one cycle late
    const rows = 6;
    const got = run(8, rows, 3);
    expect(got.wr).toEqual(Array.from({ length: 8 }, (_, i) => FIRST_WR + i + (i >= T ? 1 : 0)));
    expect(got.walk).toBe(rows + L + 1);
    expect(got.stall).toBe(1);
    const st = got.amem.banks.stats;
    expect(st.clientConflicts[2]).toBe(1); // uie0.weights_read
    expect(st.clientConflicts[5]).toBe(1); // uie1.amem_read
    expect(st.bankConflicts[3]).toBe(2);
  });

  it('winning the bank (UIE 1 collides at a cycle where the weights port has priority): only UIE 1 waits', () => {
    // rows in bank 1: row 0 at cycle 1 meets weights word 1 (bank 1); at cycle 1 key(2) = 1 < key(5) = 4
    const T = 1;
    expect(key(2, T)).toBeLessThan(key(5, T));
    const rows = 6;
    const got = run(8, rows, 1);
    expect(got.wr).toEqual(Array.from({ length: 8 }, (_, i) => FIRST_WR + i));
    expect(got.walk).toBe(rows + L + 1);
    expect(got.amem.banks.stats.clientConflicts[2]).toBe(0);
    expect(got.amem.banks.stats.clientConflicts[5]).toBe(1);
  });
});
