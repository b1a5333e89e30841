/** chip §11.7: overlapping partial writes from different UIEs must be separated by a barrier. */
import { describe, expect, it } from 'vitest';
import type { FieldValues } from '@pyxis/codec';
import { DiagnosticError } from '@pyxis/diagnostics';
import { defaultUieFactory, simulateImage } from '@pyxis/target-pyxis/sim';
import { ImageBuilder, bytesOf, gid, seqWord } from './pyxisImage.js';

const desc = ImageBuilder.desc;

/** Word of sequencer `seq` of UIE `uie` at pc 0, as (engine address, bytes). */
function word(uie: number, seq: string, part: 'control' | 'op', values: FieldValues): [number, Uint8Array] {
  const [off, bytes] = seqWord(seq, part, 0, values, uie);
  return [0x4000_0000 + off, bytes];
}
const one: FieldValues = { eopgm: 1, iter0_is_eol: 1, iter0_sol_pc: 0, iter0_numloops: 1 };

/** UIE `u` copies one 128-byte row but writes only columns [off, off+8): a partial write of partition 0. */
function partialCopy(b: ImageBuilder, u: number, colOff: number): void {
  for (const [a, w] of [
    word(u, 'amem_read', 'control', one),
    word(u, 'amem_read', 'op', { opcd: 'Read_SRAM', data_type: 'Opaque_8bit', tgt_fifo: 'AMEM_write', num_logical_ptns: 8 }),
    word(u, 'amem_write', 'control', one),
    word(u, 'amem_write', 'op', { opcd: 'Write', data_type: 'Opaque_8bit', src_fifo: 'AMEM_read', logical_col_offset: colOff, num_logical_cols: 8 }),
  ])
    b.data('cfg', a, w);
}

function image(withBarrier: boolean) {
  const b = new ImageBuilder();
  b.data('amem', 0x10000, bytesOf(128, (i) => 0x10 + i));
  b.data('amem', 0x10080, bytesOf(128, (i) => 0x90 + i));
  partialCopy(b, 0, 0);
  partialCopy(b, 1, 8);
  if (withBarrier) b.list(0x22, 0x1000, [desc('desc_barrier_config', { barrier_id: 8, notify_count: 1, wait_count: 1 })]);
  b.list(0x00, 0x1100, [desc('desc_uie', { trip_valid_mask: 0b11, amem_read_base_address: 0x10000 >> 4, amem_write_base_address: 0x20000 >> 4, notify_list: withBarrier ? [gid(0, 8)] : [], trip_id: 1 })]);
  b.list(0x01, 0x1200, [desc('desc_uie', { trip_valid_mask: 0b11, amem_read_base_address: 0x10080 >> 4, amem_write_base_address: 0x20000 >> 4, wait_barrier_id: withBarrier ? 8 : 0, trip_id: 2 })]);
  return b.build();
}

describe('partial-write ordering (chip §11.7)', () => {
  it('accepts overlapping partial writes of two UIEs ordered by a barrier, and merges them', () => {
    const { chip, report } = simulateImage(image(true), 'ok.pimg', { uieFactory: defaultUieFactory });
    expect(report.stop).toBe('done');
    const row = chip.amem[0]!.readBytes(0x20000, 16);
    expect(Array.from(row.subarray(0, 8))).toEqual(Array.from(bytesOf(8, (i) => 0x10 + i)));
    expect(Array.from(row.subarray(8, 16))).toEqual(Array.from(bytesOf(8, (i) => 0x98 + i)));
  });

  it('rejects the same partial writes without a barrier between the trips', () => {
    try {
      simulateImage(image(false), 'race.pimg', { uieFactory: defaultUieFactory });
      expect.unreachable();
    } catch (e) {
      const d = (e as DiagnosticError).diagnostics[0]!;
      expect(d.code).toBe('SIM0015');
      expect(d.message).toMatch(/partition 0x20000 of cluster 0 by c0\.uie\d trip \d and c0\.uie\d trip \d are not separated by a barrier/);
      expect(d.spec).toMatch(/§11\.7/);
    }
  });
});

/** UIE `u` adds one full 128-byte row into the destination with InMemAdd (RMW_Add, Opaque_8bit: byte-wise add). */
function rmwCopy(b: ImageBuilder, u: number): void {
  for (const [a, w] of [
    word(u, 'amem_read', 'control', one),
    word(u, 'amem_read', 'op', { opcd: 'Read_SRAM', data_type: 'Opaque_8bit', tgt_fifo: 'AMEM_write', num_logical_ptns: 8 }),
    word(u, 'amem_write', 'control', one),
    word(u, 'amem_write', 'op', { opcd: 'RMW_Add', data_type: 'Opaque_8bit', src_fifo: 'AMEM_read', num_logical_cols: 128 }),
  ])
    b.data('cfg', a, w);
}

function rmwImage(withBarrier: boolean, sameUie = false) {
  const b = new ImageBuilder();
  b.data('amem', 0x10000, bytesOf(128, (i) => 0x10 + i));
  b.data('amem', 0x10080, bytesOf(128, (i) => 0x90 + i));
  b.data('amem', 0x20000, bytesOf(128, (i) => 3 * i));
  rmwCopy(b, 0);
  rmwCopy(b, 1);
  if (withBarrier) b.list(0x22, 0x1000, [desc('desc_barrier_config', { barrier_id: 8, notify_count: 1, wait_count: 1 })]);
  b.list(0x00, 0x1100, [desc('desc_uie', { trip_valid_mask: 0b11, amem_read_base_address: 0x10000 >> 4, amem_write_base_address: 0x20000 >> 4, notify_list: withBarrier ? [gid(0, 8)] : [], trip_id: 1 })]);
  b.list(sameUie ? 0x00 : 0x01, 0x1200, [desc('desc_uie', { trip_valid_mask: 0b11, amem_read_base_address: 0x10080 >> 4, amem_write_base_address: 0x20000 >> 4, wait_barrier_id: withBarrier ? 8 : 0, trip_id: 2 })]);
  return b.build();
}

describe('InMemAdd atomicity (chip §7.4.2 "RMW operations are NOT guaranteed to be atomic across different UIE")', () => {
  // byte-wise sum of the initial row and the two added rows (Opaque_8bit adds modulo 256, chip §7.4)
  const sum = bytesOf(128, (i) => (3 * i + (0x10 + i) + (0x90 + i)) & 0xff);
  it('two UIEs adding whole rows into the same partitions, ordered by a barrier: both sums land', () => {
    const { chip, report } = simulateImage(rmwImage(true), 'rmw-ok.pimg', { uieFactory: defaultUieFactory });
    expect(report.stop).toBe('done');
    expect(Array.from(chip.amem[0]!.readBytes(0x20000, 128))).toEqual(Array.from(sum));
  });
  it('the same InMemAdds from one UIE need no barrier ("AMEM guarantees ordering ... from the same UIE")', () => {
    const { chip, report } = simulateImage(rmwImage(false, true), 'rmw-same.pimg', { uieFactory: defaultUieFactory });
    expect(report.stop).toBe('done');
    expect(Array.from(chip.amem[0]!.readBytes(0x20000, 128))).toEqual(Array.from(sum));
  });
  it('without a barrier between the UIEs: SIM0015 names both InMemAdd trips (full partitions, not only partial writes)', () => {
    let d: ReturnType<DiagnosticError['diagnostics']['at']>;
    try {
      simulateImage(rmwImage(false), 'rmw-race.pimg', { uieFactory: defaultUieFactory });
      expect.unreachable();
    } catch (e) {
      d = (e as DiagnosticError).diagnostics[0]!;
    }
    expect(d!.code).toBe('SIM0015');
    expect(d!.message).toMatch(/read-modify-writes \(partial writes or InMemAdd\) to AMEM partition 0x200[0-7]0 of cluster 0 by c0\.uie\d trip \d \(InMemAdd\) and c0\.uie\d trip \d \(InMemAdd\) are not separated by a barrier/);
    expect(d!.spec).toMatch(/§7\.4\.2/);
  });
});
