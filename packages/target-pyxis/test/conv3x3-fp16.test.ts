/**
 * FP16 3x3 convolution rate (chip §6.3 "Grid Structure"; ambiguity 7 of the coverage audit; docs/spec-notes.md):
 * the grid executes 3x3 with FP16 vertical data every cycle, the external datapath delivers an FP16 row of 128
 * columns (256 bytes, 16 AMEM partitions) in two AMEM Read port cycles. A 3x3 input channel needs 10 data rows for 8
 * output rows (2 Exec_Bubble + 8 Exec_Valid, chip §6.1.1 item 8), so FP16 takes 10 x 2 = 20 cycles per input channel
 * per 8 output rows where FP8 takes 10. The FP16 variant of samples/pyxis/conv3x3_pad reads the same values as FP16:
 * both go through Lin2Log into LnsI5F10 (chip §6.2.1.5), so the outputs are bit-identical.
 */
import { describe, expect, it } from 'vitest';
import { ensureInputs, runSample } from './samples-compute.harness.js';

const C = 16;
/** Rows per input channel (pad, 8 rows, pad) and AMEM Read port cycles per row (chip §6.2.1: 128 bytes per cycle). */
const ROWS = 10;
const PORT_FP8 = 1;
const PORT_FP16 = 2;
/** 128 writeback flits, 2 AMEM write cycles per FP16 row; write commit ~100 cycles (chip §11.7.2). */
const WB = 2 * 128;
const COMMIT = 100;
/** Fill (first rows, grid fill, kernel load) and drain allowance, the same for both variants. */
const SLACK = 18 + 64;

/** conv3x3_pad with x stored as RFP16: 16 partitions per row, the RPSW table undoing the §7.3.1 FP16 serialisation. */
const fp16 = (text: string, file: string): string => {
  if (file.endsWith('.ld'))
    return text
      .replace('tensor x { format = RFP8;  shape = [16, 8, 128]; eb = -12;', 'tensor x { format = RFP16; shape = [16, 8, 128]; eb = -12;')
      .replace('queue uie0', 'config rpsw.config { uie = 0; index = 0; entry { src_ptn = [0, 2, 4, 6, 1, 3, 5, 7]; } }\n\nqueue uie0');
  return text
    .replace(/Read_Const data_type=Recogni_FP8/g, 'Read_Const data_type=Recogni_FP16')
    .replace('Read_SRAM data_type=Recogni_FP8 tgt_fifo=Grid iter_stride[i0]=64 iter_stride[i1]=8', 'Read_SRAM data_type=Recogni_FP16 tgt_fifo=Grid rpsw_config_vld=1 rpsw_config_idx_base=0 iter_stride[i0]=128 iter_stride[i1]=16');
};

describe('FP16 3x3 convolution: half rate from the AMEM Read port (chip §6.3)', () => {
  it('20 cycles per input channel per 8 output rows (FP8: 10), same outputs as FP8', () => {
    ensureInputs(['c3_x.npy', 'c3_w.npy']);
    const r8 = runSample('conv3x3_pad.pasm', 'conv3x3_pad.ld');
    const r16 = runSample('conv3x3_pad.pasm', 'conv3x3_pad.ld', { edit: fp16 });
    expect(r8.report.stop).toBe('done');
    expect(r16.report.stop).toBe('done');
    const t8 = r8.compute().trips[0]!;
    const t16 = r16.compute().trips[0]!;
    // the same work: 16 x 16 channels x 8 x 128 outputs x 9 taps, 8 Exec_Valid + 2 Exec_Bubble per input channel
    for (const t of [t8, t16]) {
      expect(t.macs).toBe(C * C * 8 * 128 * 9);
      expect(t.exec_valid).toBe(C * 8);
      expect(t.exec_bubble).toBe(C * 2);
    }
    // FP16: the grid waits for its data rows (v_data) about every other cycle (the first rows of a channel may be in the
    // row FIFO already, hence the allowance)
    const d16 = C * ROWS * PORT_FP16 + WB + COMMIT;
    expect(t16.cycles).toBeGreaterThanOrEqual(d16);
    expect(t16.cycles).toBeLessThanOrEqual(d16 + SLACK);
    expect(t16.stall_cycles['v_data']).toBeGreaterThanOrEqual(C * ROWS * (PORT_FP16 - PORT_FP8) - 16);
    // the difference between the variants is the extra port cycle of every row, less the rows AMEM Read fetches (at
    // either rate) while GX still waits for the first kernel block (the weights fill, GH hbuf_read_credits stall)
    const fill = t8.stall_cycles['hbuf_read_credits'] ?? 0;
    expect(fill).toBeGreaterThan(0);
    expect(t16.cycles - t8.cycles).toBeGreaterThanOrEqual(C * ROWS * (PORT_FP16 - PORT_FP8) - fill);
    expect(t16.cycles - t8.cycles).toBeLessThanOrEqual(C * ROWS * (PORT_FP16 - PORT_FP8) + 4);
    expect(Array.from(r16.tensor('y'))).toEqual(Array.from(r8.tensor('y')));
  });
});
