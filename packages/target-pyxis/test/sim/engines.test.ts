import { describe, expect, it } from 'vitest';
import { encode, loadTable } from '@pyxis/codec';
import { DiagnosticError } from '@pyxis/diagnostics';
import {
  CSR_ENQUEUE,
  loadSimConfig,
  simulateImage,
  stripedModeAddress,
  stripedToTensorMode,
  tensorModeLocation,
  remapEngineAddress,
  defaultWindows,
} from '@pyxis/target-pyxis/sim';
import { ImageBuilder, bytesOf, gid } from './pyxisImage.js';

const desc = ImageBuilder.desc;
const CFG = 0x4000_0000;

/** micro_patch_t (chip §12.6.1.2): u32 target_address, u16 reg_size-1, u16 reg_repeat-1, then data padded to 8 bytes per element. */
function patch(target: number, regSize: number, elems: Uint8Array[]): Uint8Array {
  const pad = Math.ceil(regSize / 8) * 8;
  const out = new Uint8Array(8 + pad * elems.length);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, target, true);
  dv.setUint16(4, regSize - 1, true);
  dv.setUint16(6, elems.length - 1, true);
  elems.forEach((e, i) => out.set(e.subarray(0, regSize), 8 + i * pad));
  return out;
}
function concat(...xs: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(xs.reduce((a, x) => a + x.length, 0));
  let o = 0;
  for (const x of xs) {
    out.set(x, o);
    o += x.length;
  }
  return out;
}

describe('HBM tensor-mode addressing (chip §8.2, Tables 8-1 / 8-2)', () => {
  it('places 8-byte blocks on channels {14,15,12,13,...,0,1} with 8 bytes per row per channel', () => {
    expect(tensorModeLocation(0x0)).toEqual({ channel: 14, offset: 0 });
    expect(tensorModeLocation(0x8)).toEqual({ channel: 15, offset: 0 });
    expect(tensorModeLocation(0x70)).toEqual({ channel: 0, offset: 0 });
    expect(tensorModeLocation(0x7f)).toEqual({ channel: 1, offset: 7 });
    expect(tensorModeLocation(0x80)).toEqual({ channel: 14, offset: 8 });
    expect(tensorModeLocation(0x3f80)).toEqual({ channel: 14, offset: 0x3f8 });
  });
  it('striped-mode rows of Table 8-2 hold the blocks the table lists', () => {
    // channel 0 (striped 0x0..0x3FF): blocks 0xE, 0x1E, ..., 0x7FE
    expect(stripedToTensorMode(0x0)).toBe(0xe * 8);
    expect(stripedToTensorMode(0x8)).toBe(0x1e * 8);
    expect(stripedToTensorMode(0x3f8)).toBe(0x7fe * 8);
    expect(stripedToTensorMode(0x400)).toBe(0xf * 8); // channel 1
    expect(stripedToTensorMode(0x800)).toBe(0xc * 8); // channel 2
    expect(stripedToTensorMode(0x3800)).toBe(0x0); // channel 14
    expect(stripedToTensorMode(0x3c00)).toBe(0x1 * 8); // channel 15
    expect(stripedToTensorMode(0x4000)).toBe(0x80e * 8); // next 16K group
    for (const a of [0, 0x78, 0x1234, 0x3fff, 0x4000, 0x12345]) {
      const { channel, offset } = tensorModeLocation(a);
      expect(stripedToTensorMode(stripedModeAddress(channel, offset))).toBe(a);
    }
  });
  it('H2A moves each 1 KiB HBM unit to 8 consecutive AMEM words, in the requested view', () => {
    const b = new ImageBuilder();
    const src = bytesOf(3072, (i) => (i * 31) ^ (i >> 8));
    b.data('hbm', 0x10_0000, src);
    const VIEW = 1 << 26;
    // AMEM start address[26:7] with the bank-hash-disable (view) bit on top (§11.4.3)
    b.list(0x10, 0x1000, [desc('desc_h2a', { amem_start_address: (VIEW | 0x8000) >> 7, hbm_base_address: 0x10_0000 >> 10, length: 3 })]);
    const { chip, report } = simulateImage(b.build(), 'h2a.pimg');
    expect(report.stop).toBe('done');
    const a = chip.amem[0]!;
    expect(a.readBytes(VIEW | 0x8000, 3072)).toEqual(src);
    // Through the hashed view the same bytes sit at the address whose hash is the identity-mapped one:
    // physical word 0x8000 + 128k has bank bits [13:7] = 0x00+k and [20:14] = 2, so the hashed address is phys ^ (2 << 7).
    expect(a.readBytes(0x8000 ^ (2 << 7), 128)).toEqual(src.subarray(0, 128));
  });
  it('remaps 32-bit engine addresses through the four windows (§12.7)', () => {
    const w = defaultWindows(2);
    expect(remapEngineAddress(0x1234, w)).toBe(0x10_0000_0000 + 2 * 0x1000_0000 + 0x1234);
    expect(remapEngineAddress(0x4000_0400, w)).toBe(0x20_0000_0000 + 2 * 0x4000_0000 + 0x400);
    expect(remapEngineAddress(0x8000_1000, w)).toBe(0x1000);
    expect(remapEngineAddress(0xc000_1000, w)).toBe(0x4000_1000);
  });
});

describe('Microcode Patch Engine (chip §12.6)', () => {
  it('patch mode writes padded register elements into the UIE config space and an enqueue CSR', () => {
    const b = new ImageBuilder();
    const e1 = bytesOf(20, (i) => 0xa0 + i);
    const e2 = bytesOf(20, (i) => 0xc0 + i);
    // Patch 1: two 20-byte elements into UIE 0's amem_read.op memory (offset 0x400; padded to 24 bytes each).
    const p1 = patch(CFG + 0x400, 20, [e1, e2]);
    // Patch 2: write an enqueue record to the cluster enqueue CSR -> enqueues an H2A list placed at 0x3000.
    const rec = encode(loadTable('pyxis', 'desc_enqueue_record'), { queue_id: 0x10, descriptor_list_address: 0x3000, descriptor_list_length: 4 });
    const p2 = patch(CFG + CSR_ENQUEUE, 8, [rec]);
    const blob = concat(p1, p2);
    b.data('amem', 0x2000, blob);
    b.data('hbm', 0, bytesOf(1024, (i) => 255 - i));
    b.data('amem', 0x3000, desc('desc_h2a', { amem_start_address: 0x9000 >> 7, hbm_base_address: 0, length: 1, trip_id: 77 }));
    b.list(0x15, 0x1000, [desc('desc_mpe_patch', { blob_address: 0x2000, blob_length: blob.length / 8, num_patches: 2, mode: 0, trip_id: 5 })]);
    const { chip, report } = simulateImage(b.build(), 'patch.pimg');
    expect(report.stop).toBe('done');
    const cfg = chip.cfg[0]!;
    expect(cfg.readBytes(0x400, 20)).toEqual(e1);
    expect(cfg.readBytes(0x418, 20)).toEqual(e2);
    expect(cfg.readBytes(0x414, 4)).toEqual(new Uint8Array(4)); // padding bytes of element 0
    expect(report.mpe).toEqual({ patches: 2, trips: 1 });
    expect(report.trips_by_kind['h2a']).toBe(1);
    expect(chip.amem[0]!.readBytes(0x9000, 1024)).toEqual(bytesOf(1024, (i) => 255 - i));
  });

  it('DMA mode copies 8-byte words between any mapped addresses', () => {
    const b = new ImageBuilder();
    const src = bytesOf(256, (i) => i * 3);
    b.data('amem', 0x5000, src);
    b.list(0x21, 0x1000, [desc('desc_mpe_dma', { source_address: 0x5000, target_address: 0x8000_0000 + 0x2000, length: 32, mode: 1 })]);
    const { chip, report } = simulateImage(b.build(), 'mpedma.pimg');
    expect(report.stop).toBe('done');
    expect(chip.hbm.readBytes(0x2000, 256)).toEqual(src);
  });

  it('rejects a blob whose patches do not fill blob_length', () => {
    const b = new ImageBuilder();
    const p = patch(CFG + 0x400, 8, [new Uint8Array(8)]);
    b.data('amem', 0x2000, concat(p, new Uint8Array(8)));
    b.list(0x15, 0x1000, [desc('desc_mpe_patch', { blob_address: 0x2000, blob_length: 3, num_patches: 1, mode: 0 })]);
    try {
      simulateImage(b.build(), 'bad.pimg');
      expect.unreachable();
    } catch (e) {
      const d = (e as DiagnosticError).diagnostics[0]!;
      expect(d.code).toBe('SIM0006');
      expect(d.spec).toMatch(/§12\.6\.1/);
    }
  });
});

describe('queues, trip chaining, ICDMA, APM', () => {
  it('runs 6 lists on one queue through the 4-entry ring in order (the host waits for the head)', () => {
    const b = new ImageBuilder();
    for (let i = 0; i < 6; i++) b.data('hbm', i * 1024, bytesOf(1024, () => i + 1));
    for (let i = 0; i < 6; i++) b.list(0x10, 0x1000 + i * 0x100, [desc('desc_h2a', { amem_start_address: 0x10000 >> 7, hbm_base_address: i, length: 1, trip_id: 10 + i })]);
    const { chip, report } = simulateImage(b.build(), 'ring.pimg');
    expect(report.stop).toBe('done');
    expect(report.trips_by_kind['h2a']).toBe(6);
    expect(report.dpe[0]!.dequeue_events).toBe(6);
    expect(chip.amem[0]!.readBytes(0x10000, 4)).toEqual(new Uint8Array([6, 6, 6, 6])); // last list ran last
  });

  it('chains fork/join through barriers and no-op UIE trips; ICDMA copies to another cluster', () => {
    const b = new ImageBuilder();
    b.data('amem', 0x20000, bytesOf(512, (i) => i ^ 0x5a));
    // barrier 1 (c0): ICDMA done -> UIE no-op; barrier 2 (c1): UIE no-op notifies remote cluster 1's barrier -> c1 H2A waits
    b.list(0x22, 0x1000, [desc('desc_barrier_config', { barrier_id: 1, notify_count: 1, wait_count: 1 })]);
    b.list(0x22, 0x1000, [desc('desc_barrier_config', { barrier_id: 2, notify_count: 1, wait_count: 1 })], 1);
    b.list(0x12, 0x1100, [desc('desc_icdma', { amem_source_start_address: 0x20000 >> 7, amem_dest_start_address: 0x30000 >> 7, length: 4, core_switch_plane_mask: 0xf, notify_list: [gid(0, 1)], trip_id: 1 })]);
    b.list(0x00, 0x1200, [desc('desc_uie', { trip_valid_mask: 0, wait_barrier_id: 1, notify_list: [gid(1, 2)], trip_id: 2 })]);
    b.list(0x11, 0x1100, [desc('desc_a2h', { amem_start_address: 0x30000 >> 7, hbm_base_address: 0x40, length: 1, wait_barrier_id: 2, trip_id: 3 })], 1);
    const { chip, report } = simulateImage(b.build(), 'chain.pimg');
    expect(report.stop).toBe('done');
    expect(report.clusters).toBe(2);
    expect(chip.amem[1]!.readBytes(0x30000, 512)).toEqual(bytesOf(512, (i) => i ^ 0x5a));
    expect(chip.hbm.readBytes(0x40 * 1024, 512)).toEqual(bytesOf(512, (i) => i ^ 0x5a));
    expect(report.trips_by_kind).toEqual({ barrier_config: 2, icdma: 1, uie: 1, a2h: 1 });
  });

  it('APM throttles a high-power trip during the ramp (chip §13)', () => {
    const mk = () => {
      const b = new ImageBuilder();
      b.list(0x10, 0x1000, [desc('desc_h2a', { amem_start_address: 0, hbm_base_address: 0, length: 256, trip_power: 127 })]);
      return b.build();
    };
    const on = loadSimConfig();
    const off = loadSimConfig();
    off.apm.enabled = false;
    const r1 = simulateImage(mk(), 'a.pimg', { config: on }).report;
    const r0 = simulateImage(mk(), 'b.pimg', { config: off }).report;
    // A DMA is throttled by stretching its port reservations (chip §13), not by bubbles (those are the UIEs').
    expect(r1.apm.bubbles).toBe(0);
    expect(r1.apm.peak_requested_power).toBe(127);
    expect(r1.cycles).toBeGreaterThan(r0.cycles);
    expect(r0.apm.bubbles).toBe(0);
  });

  it('rejects descriptors for engines outside the simulated chip', () => {
    const b = new ImageBuilder();
    b.list(0x03, 0x1000, [desc('desc_uie', { trip_valid_mask: 0 })]);
    expect(() => simulateImage(b.build(), 'x.pimg', { uies: 2 })).toThrow(/uses 4 UIE/);
  });
});
