/**
 * `config REGION { data = "file.npy"; }`: table entries from a tensor file (configData.ts). Expected bytes are built
 * here from the table layout of grammars/pyxis/vpu_lut_entry.json (base = bits 0..15, slope = bits 16..31 of an
 * 8-byte entry) and the FP16 value format it declares (S E5 F10 at EB -15, chip §4.2), not from the linker.
 */
import { describe, expect, it } from 'vitest';
import { writeNpy } from '@pyxis/container';
import { link, loadMemoryMap } from '@pyxis/target-pyxis/ld';
import { linkErr, vfs } from './helpers.js';

const f32 = (rows: number[][]) => writeNpy({ dtype: 'float32', shape: [rows.length, rows[0]!.length], data: Float32Array.from(rows.flat()) });

describe('config data files (docs/linker.md "config")', () => {
  it('float rows (base, slope) become FP16 codes at the VPU EB in vpu.lut entries index.., at the UIE block', () => {
    // 1.0 = E 15 at EB -15 -> 0x3c00; 0.5 -> 0x3800; -2.0 -> 0xc000; 0.75 = 1.5 * 2^-1 -> E 14, F 512 -> 0x3a00
    const script = `config vpu.lut { uie = 1; index = 256; data = "t.npy"; }\nqueue uie0 { trip a { } }`;
    const { image } = link({ script, scriptFile: '/v/a.ld', readFile: vfs({ 't.npy': f32([[1, 0.5], [-2, 0.75]]) }) });
    const s = image.sections.find((x) => x.name === '.cfg.c0.uie1.vpu.lut.256')!;
    const mm = loadMemoryMap();
    const region = mm.regions.get('vpu.lut')!;
    expect(s.address).toBe(region.address + mm.uieStride + 256 * region.stride);
    const u16 = (b: Uint8Array, o: number) => b[o]! | (b[o + 1]! << 8);
    expect([u16(s.data, 0), u16(s.data, 2), u16(s.data, 8), u16(s.data, 10)]).toEqual([0x3c00, 0x3800, 0xc000, 0x3a00]);
  });

  it('integer rows are raw field values', () => {
    const npy = writeNpy({ dtype: 'int32', shape: [1, 2], data: Int32Array.from([0x1234, 0x8001]) });
    const { image } = link({ script: `config vpu.lut { data = "t.npy"; }\nqueue uie0 { trip a { } }`, scriptFile: '/v/a.ld', readFile: vfs({ 't.npy': npy }) });
    const s = image.sections.find((x) => x.name === '.cfg.c0.uie0.vpu.lut.0')!;
    expect(Array.from(s.data.subarray(0, 4))).toEqual([0x34, 0x12, 0x01, 0x80]);
  });

  it('a shape that does not match the table, or float data for a table without a value format, is LD0160 at the file name', () => {
    const d = linkErr({ script: `config vpu.lut { data = "t.npy"; }`, scriptFile: '/v/a.ld', readFile: vfs({ 't.npy': f32([[1, 2, 3]]) }) });
    expect(d.map((x) => x.code)).toContain('LD0160');
    expect(d.find((x) => x.code === 'LD0160')!.span).toMatchObject({ line: 1, column: 25 });
    const d2 = linkErr({ script: `config wdp.zero_mask { data = "t.npy"; }`, scriptFile: '/v/a.ld', readFile: vfs({ 't.npy': f32([[1]]) }) });
    expect(d2.map((x) => x.code)).toContain('LD0160');
  });
});
