/**
 * Misaligned tensors (seq §5.4, §6.7; chip §6.2.1, §7): a plain copy from a tensor at a non-zero partition offset
 * to an aligned one, with identity partition switches, comes out rotated — AMEM Read puts memory partition j of an
 * access at offset s on lane (s + j) mod 8 and AMEM Write puts lane j at partition j of an aligned access — and the
 * linker warns (LD0830) when a trip does that without a partition switch that compensates.
 */
import { describe, expect, it } from 'vitest';
import { assemble, loadPyxisIsa } from '@pyxis/target-pyxis/asm';
import { link } from '@pyxis/target-pyxis/ld';
import { Rig, bytes, loops, strides } from './uie-fixture.js';

describe('misaligned copies (seq §5.4, §6.7)', () => {
  it('the model: source at partition offset 3, aligned destination, identity switches -> rows rotated by 3 partitions', () => {
    const r = new Rig();
    const rows = 4;
    const src = bytes(rows * 128 + 128, 7);
    const srcAddr = 0x10000 + 3 * 16;
    r.amem.writeBytes(srcAddr, src.subarray(0, rows * 128));
    r.prog('amem_read', 0, loops([{ n: rows }]), { opcd: 'Read_SRAM', data_type: 'Opaque_8bit', tgt_fifo: 'AMEM_write', num_logical_ptns: 8, iter_stride: strides(8) });
    r.prog('amem_write', 0, loops([{ n: rows }]), { opcd: 'Write', data_type: 'Opaque_8bit', src_fifo: 'AMEM_read', num_logical_cols: 128, iter_stride: strides(8) });
    r.trip({ amem_read_base_address: srcAddr >> 4, amem_write_base_address: 0x80000 >> 4 });
    r.run();
    const out = r.amem.readBytes(0x80000, rows * 128);
    for (let row = 0; row < rows; row++)
      for (let k = 0; k < 8; k++) {
        // lane k = memory partition j of the read with (3 + j) mod 8 = k; written to partition k
        const j = (k - 3 + 8) % 8;
        expect(Array.from(out.subarray(row * 128 + k * 16, row * 128 + k * 16 + 16))).toEqual(Array.from(src.subarray(row * 128 + j * 16, row * 128 + j * 16 + 16)));
      }
  });

  const isa = loadPyxisIsa();
  const pasm = (rdExtra: string) => `
.program crd amem_read {
  loop i0 4 {
    Read_SRAM tgt_fifo=AMEM_write iter_stride[i0]=8${rdExtra}
  }
}
.program cwr amem_write {
  loop i0 4 {
    Write src_fifo=AMEM_read iter_stride[i0]=8
  }
}
`;
  const script = (srcAddr: string) => `
memory amem0 { space = amem; cluster = 0; view = hashed; origin = 0; length = 32M; }
tensor a { format = RFP8; shape = [4, 128]; eb = 0; region = amem0; address = ${srcAddr}; zero = true; }
tensor b { format = RFP8; shape = [4, 128]; eb = 0; region = amem0; address = 0x80000; zero = true; }
queue uie0 { cluster = 0; trip cp { amem_read = crd; amem_write = cwr; read = a; write = b; trip_power = 1; } }
`;
  const codes = (srcAddr: string, rdExtra = '') => {
    const obj = assemble([{ file: 'c.pasm', text: pasm(rdExtra) }], { isa, listing: false }).object;
    return link({ script: script(srcAddr), scriptFile: 'c.ld', objects: [{ file: 'c.pobj', container: obj }] }).diagnostics.map((d) => d.code);
  };

  it('the linker warns LD0830 for a rotated copy, not for an aligned one or one with a partition switch configured', () => {
    expect(codes('0x10030')).toContain('LD0830');
    expect(codes('0x10000')).not.toContain('LD0830');
    expect(codes('0x10080')).not.toContain('LD0830'); // another word, same partition offset 0
    expect(codes('0x10030', ' rpsw_config_vld=1 rpsw_rot_enbl=1')).not.toContain('LD0830');
  });
});
