import { describe, expect, it } from 'vitest';
import { DiagnosticError } from '@pyxis/diagnostics';
import { Rig, loops, strides, bytes } from './uie-fixture.js';
import { controlStoreFrom, SEQ_AMEM_READ } from '../../src/sim/uie/index.js';

const rd = { opcd: 'Read_SRAM', data_type: 'Opaque_8bit', tgt_fifo: 'AMEM_write', iter_stride: strides(8) };
const wr = { opcd: 'Write', data_type: 'Opaque_8bit', src_fifo: 'AMEM_read', iter_stride: strides(8) };

describe('trips, tracking IDs and completion (seq §3, §6.8, chip §11.7.1)', () => {
  it('three trips in flight retire in order; a fourth waits for a tracking ID', () => {
    const r = new Rig();
    const src = bytes(3 * 640, 4);
    r.amem.writeBytes(0, src);
    r.prog('amem_read', 0, loops([{ n: 5 }]), rd);
    r.prog('amem_write', 0, loops([{ n: 5 }]), wr);
    // sequencer descriptor FIFOs hold 2 trips: start two, tick once (both sequencers take trip 1), then the third
    expect(r.trip({ trip_id: 1, amem_read_base_address: 0, amem_write_base_address: 0x1000 })).toBe(true);
    expect(r.trip({ trip_id: 2, amem_read_base_address: 640 >> 4, amem_write_base_address: 0x1000 + (640 >> 4) })).toBe(true);
    r.uie.tick(r.now++);
    expect(r.trip({ trip_id: 3, amem_read_base_address: 1280 >> 4, amem_write_base_address: 0x1000 + (1280 >> 4) })).toBe(true);
    expect(r.uie.canStartTrip()).toBe(false);
    expect(r.trip({ trip_id: 4 })).toBe(false);
    const cycles = r.run();
    expect(r.done.map((d) => d.trip)).toEqual([1, 2, 3]);
    expect(r.amem.readBytes(0x10000, 3 * 640)).toEqual(src);
    // trips overlap: the 3 x 5 flits stream back to back and only the last commit latency (10) is exposed
    expect(cycles).toBeLessThan(3 * (5 + 10));
  });

  it('a trip is not done until its writes commit (write_commit_latency)', () => {
    const r = new Rig({ writeCommitLatency: 50 });
    r.prog('amem_read', 0, loops([{ n: 1 }]), rd);
    r.prog('amem_write', 0, loops([{ n: 1 }]), wr);
    r.trip({ amem_write_base_address: 0x1000 });
    r.run();
    expect(r.done[0]!.cycle).toBeGreaterThanOrEqual(50);
    expect(r.uie.blockedReason()).toBeUndefined();
  });

  it('a no-op trip (empty valid mask) retires immediately (chip §11.4.2)', () => {
    const r = new Rig();
    r.trip({ trip_id: 9, trip_valid_mask: 0 });
    r.run();
    expect(r.done.map((d) => d.trip)).toEqual([9]);
  });

  it('a compute sequencer running NOPs issues one per cycle through its decoder FIFO and signals done (seq §3)', () => {
    const r = new Rig();
    r.prog('vi', 3, loops([{ n: 7 }], 1, 3), {});
    r.trip({ trip_valid_mask: 1 << 8, start_pc: [0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0] });
    const cycles = r.run();
    expect(r.uie.stats.instructions[8]).toBe(7);
    // 7 issues; the last NOP retires from the decoder FIFO the cycle after its issue
    expect(cycles).toBe(8);
    expect(r.uie.warnings.some((w) => w.code === 'SIM0608')).toBe(false);
  });

  it('microcode without EOPGM running off the end of memory is an error (seq §2.1)', () => {
    const r = new Rig();
    r.prog('amem_read', 30, { eopgm: 0 }, { opcd: 'Nop' });
    r.prog('amem_read', 31, { eopgm: 0 }, { opcd: 'Nop' });
    r.trip({ trip_valid_mask: 1, start_pc: [30, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] });
    let err: DiagnosticError | undefined;
    try {
      r.run();
    } catch (e) {
      err = e as DiagnosticError;
    }
    expect(err?.diagnostics[0]!.code).toBe('SIM0605');
  });

  it('patched microcode is re-decoded at the next trip (cfg generation)', () => {
    const r = new Rig({ attachGrid: false });
    r.prog('amem_read', 0, loops([{ n: 2 }]), { ...rd, tgt_fifo: 'Grid' });
    r.trip({ trip_valid_mask: 1 });
    r.run();
    expect(r.uie.stats.flitsDropped).toBe(2);
    r.prog('amem_read', 0, loops([{ n: 5 }]), { ...rd, tgt_fifo: 'Grid' });
    r.trip({ trip_id: 2, trip_valid_mask: 1 });
    r.run();
    expect(r.uie.stats.flitsDropped).toBe(7);
  });

  it('switch tables patched between trips are re-read: held RPSW entries and newly selected ones (seq §5.4)', () => {
    const r = new Rig();
    const src = bytes(128, 9);
    r.amem.writeBytes(0, src);
    const swap = (a: number, b: number) => Array.from({ length: 8 }, (_, o) => (o === a ? b : o === b ? a : o));
    r.table('rpsw.config', 2, { src_ptn: swap(0, 1) });
    // trip 1 selects RPSW entry 2 (held afterwards); trip 2's program never sets rpsw_config_vld
    r.prog('amem_read', 0, loops([{ n: 1 }]), { ...rd, rpsw_config_vld: 1, rpsw_config_idx_base: 2 });
    r.prog('amem_write', 0, loops([{ n: 1 }]), wr);
    r.trip({ trip_id: 1, amem_write_base_address: 0x100 });
    r.run();
    const expectSwapped = (a: number, b: number) => {
      const e = src.slice();
      e.set(src.subarray(a * 16, a * 16 + 16), b * 16);
      e.set(src.subarray(b * 16, b * 16 + 16), a * 16);
      return e;
    };
    expect(r.amem.readBytes(0x1000, 128)).toEqual(expectSwapped(0, 1));
    r.prog('amem_read', 0, loops([{ n: 1 }]), rd);
    r.table('rpsw.config', 2, { src_ptn: swap(2, 3) }); // patched while entry 2 is held
    r.trip({ trip_id: 2, amem_write_base_address: 0x200 });
    r.run();
    expect(r.amem.readBytes(0x2000, 128)).toEqual(expectSwapped(2, 3));
    // a patched column mask is applied by a trip that selects no switch entry at all (fresh UIE: nothing held)
    const r2 = new Rig();
    r2.amem.writeBytes(0, src);
    r2.prog('amem_read', 0, loops([{ n: 1 }]), { ...rd, rcsw_col_mask_config_idx: 1 });
    r2.prog('amem_write', 0, loops([{ n: 1 }]), wr);
    r2.trip({ trip_id: 1, amem_write_base_address: 0x100 });
    r2.run();
    expect(r2.amem.readBytes(0x1000, 128)).toEqual(src);
    r2.table('rcsw.col_mask', 1, { col_override: Array.from({ length: 128 }, (_, c) => (c < 16 ? 1 : 0)) });
    r2.trip({ trip_id: 2, amem_write_base_address: 0x200 });
    r2.run();
    const masked = src.slice();
    masked.fill(0, 0, 16);
    expect(r2.amem.readBytes(0x2000, 128)).toEqual(masked);
  });

  it('loadMicrocode installs decoded programs without a cfg space', () => {
    const r = new Rig({ cfg: undefined });
    r.uie.loadMicrocode(SEQ_AMEM_READ, controlStoreFrom([{ iters: [{ is_eol: 1, numloops: 4 }], eopgm: 1 }]));
    r.trip({ trip_valid_mask: 1 });
    r.run();
    expect(r.uie.stats.instructions[0]).toBe(4);
  });

  it('16-bit reads hold the AMEM port two cycles each and the engine wakes itself when the port frees', () => {
    const r = new Rig({ attachGrid: false });
    r.prog('amem_read', 0, loops([{ n: 6 }]), { ...rd, data_type: 'Recogni_FP16', tgt_fifo: 'Grid', iter_stride: strides(16) });
    r.trip({ trip_valid_mask: 1 });
    const cycles = r.run();
    expect(r.uie.stats.flitsDropped).toBe(6);
    expect(cycles).toBeGreaterThanOrEqual(12);
    expect(cycles).toBeLessThan(16);
  });

  it('AMEM Weights Read computes §7.2 addresses, pads post-final and checks the 128-byte rule for compressed data', () => {
    const r = new Rig();
    r.prog('amem_weights_read', 0, loops([{ n: 3 }, { n: 4, nf: 2, mask: 1, pf: 1 }]), { opcd: 'Read_SRAM', num_ptns: 8, wdc_type: 'Compressed_Data', iter_stride: strides(32, 8) });
    r.trip({ trip_valid_mask: 1 << 2, amem_weights_base_address: 0x1000 });
    r.run();
    // 3 x 4 reads, the last 2 of the final group post-final (no AMEM access): 10 x 128 bytes
    expect(r.uie.stats.weightsBytesRead).toBe(10 * 128);
    const r2 = new Rig();
    r2.prog('amem_weights_read', 0, loops([{ n: 1 }]), { opcd: 'Read_SRAM', wdc_type: 'Codebook', amem_addr_offset: 4 });
    r2.trip({ trip_valid_mask: 1 << 2 });
    expect(() => r2.run()).toThrow(/128-byte/);
  });

  it('attached grid: flits reach sbReadToGrid (deferred conversion materialised by headColumns) and come back via sbGridToWrite', () => {
    const r = new Rig({ attachGrid: true });
    const src = new Uint8Array(256);
    for (let i = 0; i < 256; i++) src[i] = ((i >> 3) & 15) <= 13 ? i : 0x38;
    r.amem.writeBytes(0, src);
    // read RFP8 with eb_adj +2 to the grid; write RFP8 with eb_adj -2 from the grid
    r.prog('amem_read', 0, loops([{ n: 2 }]), { opcd: 'Read_SRAM', data_type: 'Recogni_FP8', eb_adj: 2, tgt_fifo: 'Grid', iter_stride: strides(8) });
    r.prog('amem_write', 0, loops([{ n: 2 }]), { opcd: 'Write', data_type: 'Recogni_FP8', eb_adj: -2, src_fifo: 'Grid', iter_stride: strides(8) });
    r.trip({ amem_write_base_address: 0x1000 });
    const u = r.uie;
    const cols = new Uint16Array(128);
    const firstCols: number[] = [];
    let t = 0;
    while (u.busy && t < 1000) {
      // the "grid": pass flits through unchanged, one per cycle
      if (!u.sbReadToGrid.empty && u.sbGridToWrite.credits > 0) {
        u.sbReadToGrid.headColumns(cols);
        if (firstCols.length === 0) firstCols.push(cols[0]!, cols[1]!);
        u.sbReadToGrid.pop();
        u.sbGridToWrite.pushColumns(cols);
      }
      u.tick(t++);
    }
    expect(u.busy).toBe(false);
    expect(r.amem.readBytes(0x10000, 256)).toEqual(src);
    // RFP8 code 0x00 -> 0 ; code 0x01 (E=0, F=1) -> RFP16 E=2, F=1<<7
    expect(firstCols).toEqual([0, (2 << 10) | (1 << 7)]);
    expect(u.stats.flitsDropped).toBe(0);
  });
});
