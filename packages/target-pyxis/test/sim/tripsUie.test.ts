/** End-to-end chip runs with the UIE datapath: a copy trip preloaded in cfg space, and one patched in by the MPE first. */
import { describe, expect, it } from 'vitest';
import { defaultUieFactory, simulateImage, StringSink } from '@pyxis/target-pyxis/sim';
import { ImageBuilder, bytesOf, copyProgram, gid } from './pyxisImage.js';

const CFG = 0x4000_0000;
const desc = ImageBuilder.desc;

describe('UIE trips through the trip manager', () => {
  it('H2A -> UIE copy -> A2H, chained by barriers, data intact', () => {
    const b = new ImageBuilder();
    const src = bytesOf(2048, (i) => i * 13 + 1);
    b.data('hbm', 0x8000, src);
    for (const [off, bytes] of copyProgram(16)) b.data('cfg', CFG + off, bytes);
    b.list(0x22, 0x1000, [desc('desc_barrier_config', { barrier_id: 1, notify_count: 1, wait_count: 1 }), desc('desc_barrier_config', { barrier_id: 2, notify_count: 1, wait_count: 1 })]);
    b.list(0x10, 0x1100, [desc('desc_h2a', { amem_start_address: 0x10000 >> 7, hbm_base_address: 0x8000 >> 10, length: 2, notify_list: [gid(0, 1)], trip_id: 1 })]);
    b.list(0x00, 0x1200, [
      desc('desc_uie', { trip_valid_mask: 0b11, start_pc: new Array(13).fill(0), amem_read_base_address: 0x10000 >> 4, amem_write_base_address: 0x20000 >> 4, wait_barrier_id: 1, notify_list: [gid(0, 2)], trip_id: 2, trip_power: 20 }),
    ]);
    b.list(0x11, 0x1300, [desc('desc_a2h', { amem_start_address: 0x20000 >> 7, hbm_base_address: 0x40, length: 2, wait_barrier_id: 2, trip_id: 3 })]);
    const trace = new StringSink();
    const vcd = new StringSink();
    const { chip, report } = simulateImage(b.build(), 'copy.pimg', { uieFactory: defaultUieFactory, trace, vcd });
    expect(report.stop).toBe('done');
    expect(report.trips_by_kind).toEqual({ barrier_config: 2, h2a: 1, uie: 1, a2h: 1 });
    expect(chip.amem[0]!.readBytes(0x20000, 2048)).toEqual(src);
    expect(chip.hbm.readBytes(0x40 * 1024, 2048)).toEqual(src);
    const uie = report.engines.find((e) => e.name === 'c0.uie0')!;
    expect(uie.trips).toBe(1);
    expect(uie.busy).toBeGreaterThanOrEqual(16);
    const t = JSON.parse(trace.text) as { traceEvents: Array<Record<string, unknown>> };
    expect(t.traceEvents.some((e) => e['ph'] === 'X' && e['name'] === 'uie trip 2')).toBe(true);
    // one track per sequencer that ran, with its run as a slice
    const seqSlices = t.traceEvents.filter((e) => e['cat'] === 'sequencer').map((e) => e['name']);
    expect(seqSlices).toEqual(['amem_read pc 0', 'amem_write pc 0']);
    const wait = report.engines.find((e) => e.name === 'c0.uie0')!.barrier_wait_cycles!;
    expect(wait).toBeGreaterThan(300); // waited for the H2A (HBM latency 200 + commit 100)
    expect(uie.uie?.['bytes_read']).toBe(2048);
    expect(vcd.text).toMatch(/\$var wire 5 \S+ amem_read_pc \$end/);
  });

  it('MPE patch mode loads the program, then the UIE runs the patched program', () => {
    const b = new ImageBuilder();
    const src = bytesOf(1024, (i) => 200 - i);
    b.data('amem', 0x10000, src);
    // Patch blob: one micro_patch per microcode word (reg_size = stride, reg_repeat = 1).
    const patches = copyProgram(8).map(([off, bytes]) => {
      const p = new Uint8Array(8 + Math.ceil(bytes.length / 8) * 8);
      const dv = new DataView(p.buffer);
      dv.setUint32(0, CFG + off, true);
      dv.setUint16(4, bytes.length - 1, true);
      dv.setUint16(6, 0, true);
      p.set(bytes, 8);
      return p;
    });
    const blob = new Uint8Array(patches.reduce((a, p) => a + p.length, 0));
    let o = 0;
    for (const p of patches) {
      blob.set(p, o);
      o += p.length;
    }
    b.data('amem', 0x4000, blob);
    b.list(0x22, 0x1000, [desc('desc_barrier_config', { barrier_id: 4, notify_count: 1, wait_count: 1 })]);
    b.list(0x15, 0x1100, [desc('desc_mpe_patch', { blob_address: 0x4000, blob_length: blob.length / 8, num_patches: patches.length, mode: 0, notify_list: [gid(0, 4)], trip_id: 1 })]);
    b.list(0x00, 0x1200, [desc('desc_uie', { trip_valid_mask: 0b11, amem_read_base_address: 0x10000 >> 4, amem_write_base_address: 0x30000 >> 4, wait_barrier_id: 4, trip_id: 2 })]);
    const { chip, report } = simulateImage(b.build(), 'patch.pimg', { uieFactory: defaultUieFactory });
    expect(report.stop).toBe('done');
    expect(report.mpe.patches).toBe(4);
    expect(chip.amem[0]!.readBytes(0x30000, 1024)).toEqual(src);
  });
});
