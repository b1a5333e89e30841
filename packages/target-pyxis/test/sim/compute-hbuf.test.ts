/**
 * The Hbuf between WDP and GH (seq §9.1.4-§9.1.5, §10.1.1-§10.1.2; chip §6.2.4.6): the block rule for 3x3 kernels
 * (SIM0628) and the bank port model (docs/spec-notes.md: one read port and one write port per 8-byte bank).
 */
import { describe, expect, it } from 'vitest';
import { GridCodes } from '../../src/sim/uie/compute/grid.js';
import { HbufPorts } from '../../src/sim/uie/compute/hbuf.js';
import type { Uie } from '../../src/sim/uie/uie.js';
import { ensureInputs, runSample } from '../samples-compute.harness.js';
import { GH, gloops, Rig, runFeed, seqMask, thrownCode } from './compute-grid-rig.js';

/** One GH trip: a block of `units` x 16 bytes opened by the first read; RD_3X3 kernels at `offsets` (bytes). */
function kernels(units: number, offsets: number[]): Rig {
  const r = new Rig();
  r.uie.cmp.hbuf.rdCredits = 4096;
  const n = offsets.length;
  for (let i = 0; i < n; i++) {
    const ctl = i === n - 1 ? gloops([{ n: 1 }]) : { eopgm: 0 };
    r.prog('gh', i, ctl, {
      opcd: 'HBUF_RD_VLD', hbuf_rd_cmd: 'RD_3X3', end_grid_row_idx: 15, hbuf_addr_offset: offsets[i]!, hbuf_block_size: units,
      hbuf_block_start_en: i === 0 ? 1 : 0, hbuf_block_end_en: i === n - 1 ? 1 : 0, h_staging_done_en: 0,
    });
  }
  r.trip({ trip_valid_mask: seqMask(GH) });
  return r;
}

describe('Hbuf block rule for 3x3 kernels (SIM0628)', () => {
  it('kernels inside one 16-byte block: no diagnostic (bytes 0..8 and 7..15)', () => {
    expect(thrownCode(() => runFeed(kernels(1, [0, 7])))).toBeUndefined();
  });

  it('a kernel straddling the block end: bytes 8..16 of a 16-byte block', () => {
    expect(thrownCode(() => runFeed(kernels(1, [0, 8])))).toBe(GridCodes.kernelStraddle);
  });

  it('with 9-unit blocks (16 packed kernels of 9 bytes, docs/spec-notes.md) kernel 15 fits and kernel 16 does not', () => {
    expect(thrownCode(() => runFeed(kernels(9, [0, 15 * 9])))).toBeUndefined();
    expect(thrownCode(() => runFeed(kernels(9, [0, 16 * 9])))).toBe(GridCodes.kernelStraddle);
  });

  it('the message cites the section and the sequencer/pc', () => {
    try {
      runFeed(kernels(1, [0, 8]));
      expect.unreachable();
    } catch (e) {
      const d = (e as { diagnostics: Array<{ code: string; message: string; spec?: string; notes?: string[] }> }).diagnostics[0]!;
      expect(d.code).toBe('SIM0628');
      expect(d.message).toContain('8..16');
      expect(d.spec).toContain('§10.1.2');
      expect(d.notes?.join(' ')).toContain('pc 1');
    }
  });
});

describe('Hbuf bank ports (one read + one write port per bank)', () => {
  it('the checker counts a second access to the same port of a bank in one cycle, not a read and a write', () => {
    const p = new HbufPorts();
    p.note(3, 0x10, 5, 0); // grid-row 3, bank 0, read
    p.note(3, 0x10, 5, 1); // same bank, write: the other port
    p.note(3, 0x18, 5, 0); // bank 1 read
    expect(p.conflicts).toBe(0);
    p.note(3, 0x20, 5, 0); // bank 0 read again in cycle 5
    expect(p.conflicts).toBe(1);
    p.note(3, 0x20, 6, 0); // next cycle: free
    p.note(4, 0x20, 5, 0); // another grid-row's bank
    expect(p.conflicts).toBe(1);
    expect([p.reads, p.writes]).toEqual([5, 1]);
  });

  // Every WDP write mode and GH read command of the samples: row-shifted (LD_2ROWS_8B, RD FP8), FP16 (RD FP16),
  // transposed through the tbufs (LD_2ROWS_8B_TRANS + RD_TRANS), compressed 1x1 weights and 3x3 kernels (RD_3X3)
  const samples: Array<[string, string[]]> = [
    ['matmul_fp16', ['mm_fp16_a.npy', 'mm_fp16_b.npy']],
    ['matmul_transposed_fp8', ['mm_tr_at.npy', 'mm_tr_b.npy']],
    ['conv1x1_compressed', ['c1_x.npy', 'c1_w.npy']],
    ['conv3x3_pad', ['c3_x.npy', 'c3_w.npy']],
  ];
  for (const [name, inputs] of samples) {
    it(`${name}: no bank port is used twice in a cycle`, () => {
      ensureInputs(inputs);
      const ports: HbufPorts[] = [];
      const r = runSample(`${name}.pasm`, `${name}.ld`, {
        timingOnly: true,
        onUie: (u: Uie) => {
          const p = new HbufPorts();
          u.cmp.hbuf.ports = p;
          ports.push(p);
        },
      });
      expect(r.report.stop).toBe('done');
      const reads = ports.reduce((s, p) => s + p.reads, 0);
      const writes = ports.reduce((s, p) => s + p.writes, 0);
      expect(reads).toBeGreaterThan(0);
      expect(writes).toBeGreaterThan(0);
      expect(ports.reduce((s, p) => s + p.conflicts, 0)).toBe(0);
    });
  }
});
