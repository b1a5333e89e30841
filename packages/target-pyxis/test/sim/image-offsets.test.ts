/**
 * Image diagnostics name the byte offset in the .pimg of the offending bytes
 * (container section data offset + offset inside the section). The expected
 * offsets are found independently by searching the written file for the
 * bytes in question.
 */
import { describe, expect, it } from 'vitest';
import { readContainer, writeContainer, type Container } from '@pyxis/container';
import { DiagnosticError, type ByteSpan } from '@pyxis/diagnostics';
import { defaultUieFactory, simulateImage } from '@pyxis/target-pyxis/sim';
import { ImageBuilder, seqWord } from './pyxisImage.js';

const desc = ImageBuilder.desc;

/** Writes the image and reads it back, as `pyxis-sim run` does (so sections carry their file offsets). */
function roundTrip(c: Container): { bytes: Uint8Array; image: Container } {
  const bytes = writeContainer(c);
  return { bytes, image: readContainer(bytes, 'x.pimg') };
}

/** Offset of the unique occurrence of `needle` in `hay`. */
function find(hay: Uint8Array, needle: Uint8Array): number {
  let hit = -1;
  outer: for (let i = 0; i + needle.length <= hay.length; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    expect(hit).toBe(-1); // unique
    hit = i;
  }
  expect(hit).toBeGreaterThanOrEqual(0);
  return hit;
}

function diag(f: () => unknown) {
  try {
    f();
  } catch (e) {
    if (e instanceof DiagnosticError) return e.diagnostics[0]!;
    throw e;
  }
  throw new Error('expected a DiagnosticError');
}

describe('image diagnostics point at byte offsets in the .pimg', () => {
  it('a bad descriptor (the second of a list): section file offset + offset in the list', () => {
    const b = new ImageBuilder();
    const good = desc('desc_h2a', { amem_start_address: 0x100, hbm_base_address: 0x40, length: 1, trip_id: 0x51 });
    const bad = desc('desc_h2a', { amem_start_address: 0x200, hbm_base_address: 0x41, length: 1, trip_id: 0x52, descriptor_format: 1 });
    b.list(0x10, 0x1000, [good, bad]);
    const { bytes, image } = roundTrip(b.build());
    const d = diag(() => simulateImage(image, 'x.pimg'));
    expect(d.code).toBe('SIM0003');
    expect(d.spec).toMatch(/§11\.4\.1/);
    expect(d.span).toEqual({ file: 'x.pimg', offset: find(bytes, bad), length: bad.length });
    expect((d.span as ByteSpan).offset).toBe(find(bytes, good) + good.length);
  });

  it('a descriptor field error found by the engine (ICDMA plane mask 0) points at the descriptor', () => {
    const b = new ImageBuilder();
    b.data('amem', 0x8000, new Uint8Array(64));
    const d0 = desc('desc_icdma', { amem_source_start_address: 0x8000 >> 7, amem_dest_start_address: 0x9000 >> 7, length: 1, core_switch_plane_mask: 0, trip_id: 0x33 });
    b.list(0x12, 0x1000, [d0]);
    const { bytes, image } = roundTrip(b.build());
    const d = diag(() => simulateImage(image, 'x.pimg', { clusters: 2 }));
    expect(d.message).toMatch(/Plane Mask 0/);
    expect((d.span as ByteSpan).offset).toBe(find(bytes, d0));
  });

  it('a bad enqueue record: offset of the 8-byte record in .enqueue', () => {
    const b = new ImageBuilder();
    b.list(0x10, 0x1000, [desc('desc_h2a', { length: 1 })]);
    b.enqueue(0x10, 0x1004, 4); // misaligned list address
    const c = b.build();
    const enq = c.sections.find((s) => s.name === '.enqueue')!;
    const { bytes, image } = roundTrip(c);
    const d = diag(() => simulateImage(image, 'x.pimg'));
    expect(d.code).toBe('SIM0002');
    expect(d.message).toMatch(/record 1/);
    expect(d.span).toEqual({ file: 'x.pimg', offset: find(bytes, enq.data) + 8, length: 8 });
  });

  it('a bad MPE patch: offset of its micro_patch_t header inside the blob', () => {
    const b = new ImageBuilder();
    // Patch 0 is fine (8-byte element); patch 1 has reg_size 40 > 32 into a CSR (csr.seq_start_pc, memory_map.json).
    const blob = new Uint8Array(8 + 8 + 8 + 40);
    const dv = new DataView(blob.buffer);
    dv.setUint32(0, 0x4000_0400, true);
    dv.setUint16(4, 7, true);
    dv.setUint32(16, 0x4001_1000, true);
    dv.setUint16(20, 39, true);
    blob.fill(0xee, 8, 16);
    b.data('amem', 0x2000, blob);
    b.list(0x15, 0x1000, [desc('desc_mpe_patch', { blob_address: 0x2000, blob_length: blob.length / 8, num_patches: 2, mode: 0 })]);
    const { bytes, image } = roundTrip(b.build());
    const d = diag(() => simulateImage(image, 'x.pimg'));
    expect(d.code).toBe('SIM0006');
    expect(d.message).toMatch(/patch 1 reg_size 40/);
    expect(d.span).toEqual({ file: 'x.pimg', offset: find(bytes, blob) + 16, length: 8 });
  });

  it('a section-level problem: the section data offset; in-memory images name the section with offset 0', () => {
    const b = new ImageBuilder();
    const data = new Uint8Array(24).fill(0x5a);
    b.data('amem', 0x40, data, 9); // cluster 9 does not exist
    const { bytes, image } = roundTrip(b.build());
    const d = diag(() => simulateImage(image, 'x.pimg'));
    expect(d.code).toBe('SIM0001');
    expect((d.span as ByteSpan).offset).toBe(find(bytes, data));
    const m = diag(() => simulateImage(b.build(), 'mem.pimg'));
    expect(m.message).toMatch(/section 0 `/);
    expect((m.span as ByteSpan).offset).toBe(0);
  });

  it('a UIE rule error in microcode: offset of the op word in the image (UIE 1, pc 1)', () => {
    const b = new ImageBuilder();
    const loop2 = { eopgm: 1, iter0_is_eol: 1, iter0_sol_pc: 0, iter0_numloops: 1 };
    const rd = { opcd: 'Read_SRAM', data_type: 'Opaque_8bit', tgt_fifo: 'AMEM_write', num_logical_ptns: 8 };
    const ok = { opcd: 'Write', data_type: 'Opaque_8bit', src_fifo: 'AMEM_read', num_logical_cols: 128 };
    // pc 1 of AMEM Write: logical_col_offset 15 + num_logical_cols 128 > 128 columns (seq §6.4)
    const badOp = seqWord('amem_write', 'op', 1, { ...ok, logical_col_offset: 15, num_logical_cols: 128 }, 1);
    for (const [off, w] of [
      seqWord('amem_read', 'control', 0, { eopgm: 0, iter0_is_eol: 1, iter0_sol_pc: 0, iter0_numloops: 1 }, 1),
      seqWord('amem_read', 'op', 0, rd, 1),
      seqWord('amem_read', 'control', 1, loop2, 1),
      seqWord('amem_read', 'op', 1, rd, 1),
      seqWord('amem_write', 'control', 0, { eopgm: 0, iter0_is_eol: 1, iter0_sol_pc: 0, iter0_numloops: 1 }, 1),
      seqWord('amem_write', 'op', 0, ok, 1),
      seqWord('amem_write', 'control', 1, loop2, 1),
      badOp,
    ])
      b.data('cfg', 0x4000_0000 + off, w, 0, `.ucode.${off.toString(16)}`);
    b.data('amem', 0x10000, new Uint8Array(256).fill(1));
    b.list(0x01, 0x1000, [desc('desc_uie', { trip_valid_mask: 0b11, amem_read_base_address: 0x10000 >> 4, amem_write_base_address: 0x20000 >> 4, trip_id: 5 })]);
    const { bytes, image } = roundTrip(b.build());
    const d = diag(() => simulateImage(image, 'x.pimg', { uieFactory: defaultUieFactory }));
    expect(d.code).toBe('SIM0603');
    expect(d.span).toEqual({ file: 'x.pimg', offset: find(bytes, badOp[1]) });
    expect(d.notes!.join(' ')).toMatch(/amem_write, pc 1/);
  });

  it('runtime errors about memory the image did not load keep no span', () => {
    const b = new ImageBuilder();
    b.enqueue(0x10, 0x7000, 4); // list in AMEM the image never wrote: reads zeros, a valid no-op H2A
    b.enqueue(0x22, 0x7000, 3); // a barrier-config list of zeros: barrier id 0 out of range
    const { image } = roundTrip(b.build());
    const d = diag(() => simulateImage(image, 'x.pimg'));
    expect(d.span).toBeUndefined();
  });
});
