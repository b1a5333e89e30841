/**
 * The image model (src/sim/imageModel.ts): a .pimg read and validated once, then the only thing the chip, the loader,
 * the VCD declarations and the diagnostics' spans read. Expected values come from the spec and docs/image-layout.md:
 * AMEM view bit = address bit 26 (chip §7.5), cfg sections at engine address 0x4000_0000 + offset (chip §12.7), queue
 * ids of Table 11-1 (UIEs 0x00-0x0b, H2A 0x10, datagram Tx 0x23-0x24 and Rx 0x25-0x26, chip §11.5.2).
 */
import { describe, expect, it } from 'vitest';
import { DiagnosticError } from '@pyxis/diagnostics';
import { PyxisSectionFlags } from '@pyxis/target-pyxis';
import { chipSize, locateInImage, programAt, readImage, simulateImage, loadImage, PyxisChip, loadSimConfig } from '@pyxis/target-pyxis/sim';
import { ImageBuilder } from './pyxisImage.js';

const desc = ImageBuilder.desc;
const VIEW_BIT = 2 ** 26;

function sample(): ImageBuilder {
  const b = new ImageBuilder();
  b.data('hbm', 0x12_3400, new Uint8Array(1024).fill(7));
  const u = b.data('amem', 0x2000, new Uint8Array(256), 1);
  b.sections[u]!.flags |= PyxisSectionFlags.unhashed;
  b.data('cfg', 0x4000_0000 + 3 * 0x10_0000 + 0x80, new Uint8Array(64), 0);
  b.data('amem', 0x9000, new Uint8Array(64), 0, '.dgram.c0.dgram_tx1');
  b.data('amem', 0x9800, new Uint8Array(128), 0, '.dgram.c0.dgram_rx0');
  // one H2A trip: 1 KiB of HBM 0x12_3400 -> AMEM 0x8000 of cluster 0
  b.list(0x10, 0x1000, [desc('desc_h2a', { amem_start_address: 0x8000 >> 7, hbm_base_address: 0x12_3400 >> 10, length: 1, trip_id: 5 })]);
  b.metadata = { trips: [{ trip_id: 5, name: 'load_x' }], queues: [{ lists: [{ descriptors: 1 }] }], programs: [{ cluster: 0, uie: 0, seq: 'amem_read', pc: 4, words: 3, name: 'rd' }] };
  return b;
}

describe('image model: read and validated once', () => {
  it('places every memory section (HBM address, AMEM view address, cfg-window offset) and derives the chip size', () => {
    const m = readImage(sample().build(), 'm.pimg');
    expect(m.placed.map((p) => [p.index, p.space, p.cluster, p.addr])).toEqual([
      [0, 'hbm', -1, 0x12_3400],
      [1, 'amem', 1, 0x2000 + VIEW_BIT],
      [2, 'cfg', 0, 3 * 0x10_0000 + 0x80],
      [3, 'amem', 0, 0x9000],
      [4, 'amem', 0, 0x9800],
      [5, 'amem', 0, 0x1000],
    ]);
    // clusters: the AMEM section of cluster 1; UIEs: the cfg section in UIE 3's block (1 MiB blocks, memory_map.json)
    expect([m.clusters, m.uies]).toEqual([2, 4]);
    expect(m.records).toEqual([{ cluster: 0, queue_id: 0x10, descriptor_list_address: 0x1000, descriptor_list_length: 4 }]);
    expect(m.listedTrips).toBe(1);
    expect(m.tripNames.get(5)).toBe('load_x');
  });
  it('datagram rings get the queue ids of Table 11-1 and one 8-byte slot per 8 bytes', () => {
    const m = readImage(sample().build(), 'm.pimg');
    expect(m.dgramRings).toEqual([
      { cluster: 0, queueId: 0x24, space: 'amem', memCluster: 0, address: 0x9000, entries: 8 },
      { cluster: 0, queueId: 0x25, space: 'amem', memCluster: 0, address: 0x9800, entries: 16 },
    ]);
  });
  it('locates loaded bytes in the image and names the program at a PC', () => {
    const m = readImage(sample().build(), 'm.pimg');
    expect(locateInImage(m, { space: 'amem', cluster: 1, addr: 0x2010 + VIEW_BIT })).toMatchObject({ index: 1, within: 0x10 });
    expect(locateInImage(m, { space: 'amem', cluster: 0, addr: 0x2010 + VIEW_BIT })).toBeUndefined();
    const at = programAt(m, 'c0.uie0.amem_read')!;
    expect([at(3), at(4), at(6), at(7)]).toEqual([undefined, 'rd', 'rd', undefined]);
  });
  it('checks the requested chip size against the image once (SIM codes, exit 1 / 2 in the CLI)', () => {
    const m = readImage(sample().build(), 'm.pimg');
    expect(chipSize(m, {})).toEqual({ clusters: 2, uies: 4 });
    expect(chipSize(m, { clusters: 4, uies: 12 })).toEqual({ clusters: 4, uies: 12 });
    const msg = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return e instanceof DiagnosticError ? e.diagnostics[0]!.message : String(e);
      }
      return 'no error';
    };
    expect(msg(() => chipSize(m, { clusters: 1 }))).toBe('m.pimg uses 2 cluster(s); --clusters 1 is too few');
    expect(msg(() => chipSize(m, { uies: 13 }))).toBe('--uies must be an integer in 0..12, got 13');
  });
  it('a run from the model equals a run from the container; the loaded chip reads its names from the model', () => {
    const c = sample().build();
    const m = readImage(c, 'm.pimg');
    const a = simulateImage(c, 'm.pimg');
    const b = simulateImage(m, 'm.pimg');
    expect(b.info).toBe(m);
    expect(b.report).toEqual(a.report);
    expect(b.report.trip_names).toEqual({ '5': 'load_x' });
    expect(b.chip.image).toBe(m);
    expect(b.chip.amem[0]!.readBytes(0x8000, 1024)).toEqual(new Uint8Array(1024).fill(7));
    // a chip loaded by hand (the system runners' path) gets the same names
    const chip = new PyxisChip({ clusters: 2, uies: 4, config: loadSimConfig() });
    loadImage(chip, m);
    expect(chip.tripNames.get(5)).toBe('load_x');
  });
});
