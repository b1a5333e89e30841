/**
 * Address fields and micro patches go through their grammar tables unmasked:
 * a value wider than its field is a codec range error (a diagnostic), never a
 * silently wrapped field. Widths are read from the grammar JSON here.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { decode, encode, loadTable } from '@pyxis/codec';
import { amemPartitionAddress, amemWordAddress } from '../../src/ld/addresses.js';
import { countPatches, decodePatchBlob, encodePatchBlob, PatchBlobError, type MicroPatch } from '../../src/common/patchBlob.js';
import { applyFieldRelocation } from '../../src/common/relocation.js';
import type { Region } from '../../src/ld/placement.js';

const grammars = fileURLToPath(new URL('../../../../grammars/pyxis/', import.meta.url));
const width = (table: string, field: string) => (JSON.parse(readFileSync(`${grammars}${table}.json`, 'utf8')) as { fields: Array<{ name: string; width: number }> }).fields.find((f) => f.name === field)!.width;
const MiB = 2 ** 20;
const region = (unhashed: boolean) => ({ unhashed }) as Region;

describe('AMEM address fields (chip §7.1, §11.4.2, §11.4.3)', () => {
  it('[25:4] partition addresses: every 16-byte address of the 64 MiB AMEM encodes and decodes exactly', () => {
    const t = loadTable('pyxis', 'desc_uie');
    expect(width('desc_uie', 'amem_read_base_address')).toBe(22); // 26 - 4 address bits
    fc.assert(fc.property(fc.integer({ min: 0, max: 64 * MiB / 16 - 1 }), (p) => {
      const v = amemPartitionAddress({ address: p * 16 });
      expect(v).toBe(p);
      expect(decode(t, encode(t, { amem_read_base_address: v }))['amem_read_base_address']).toBe(p);
    }));
  });
  it('an address at or past 64 MiB is not wrapped: the codec rejects it', () => {
    const t = loadTable('pyxis', 'desc_uie');
    const v = amemPartitionAddress({ address: 64 * MiB });
    expect(v).toBe(2 ** 22); // not 0, which `& 0x3fffff` used to give
    expect(() => encode(t, { amem_read_base_address: v })).toThrow(/amem_read_base_address/);
  });
  it('[26:7] word addresses carry the view bit; past the 27-bit AMEM address they are rejected', () => {
    const t = loadTable('pyxis', 'desc_h2a');
    expect(width('desc_h2a', 'amem_start_address')).toBe(20);
    expect(amemWordAddress({ address: 0x4080, region: region(false) })).toBe(0x81);
    expect(amemWordAddress({ address: 0x4080, region: region(true) })).toBe(0x81 + 2 ** 19); // bit 26 -> bit 19 of the word address
    const last = amemWordAddress({ address: 64 * MiB - 128, region: region(true) });
    expect(last).toBe(2 ** 20 - 1);
    expect(decode(t, encode(t, { amem_start_address: last }))['amem_start_address']).toBe(last);
    const over = amemWordAddress({ address: 64 * MiB, region: region(true) });
    expect(over).toBe(2 ** 20);
    expect(() => encode(t, { amem_start_address: over })).toThrow(/amem_start_address/);
  });
});

describe('MPE patch blobs through patch_micro_patch_t (chip §12.6.1.2)', () => {
  const patch = (target: number, size: number, repeat: number, fill = 1): MicroPatch => ({ target_address: target, reg_size: size, reg_repeat: repeat, data: new Uint8Array(repeat * Math.ceil(size / 8) * 8).fill(fill) });
  it('header bytes: u32 target, u16 reg_size - 1, u16 reg_repeat - 1, little-endian (hand-derived)', () => {
    const b = encodePatchBlob([patch(0x4000_0400, 12, 2)]);
    expect([...b.subarray(0, 8)]).toEqual([0x00, 0x04, 0x00, 0x40, 11, 0, 1, 0]);
    expect(b.length).toBe(8 + 2 * 16);
  });
  it('encode then decode gives the patches back; countPatches agrees', () => {
    const arb = fc.array(fc.record({ t: fc.integer({ min: 0, max: 2 ** 29 - 1 }), s: fc.integer({ min: 1, max: 40 }), r: fc.integer({ min: 1, max: 4 }) }), { minLength: 1, maxLength: 5 });
    fc.assert(fc.property(arb, (ps) => {
      const patches = ps.map((p, k) => patch(p.t * 8, p.s, p.r, k + 1));
      const blob = encodePatchBlob(patches);
      expect(decodePatchBlob(blob)).toEqual(patches);
      expect(countPatches(blob)).toBe(patches.length);
    }));
  });
  it('a target beyond 32 bits or a reg_size beyond 65536 is an issue, not a wrapped header', () => {
    expect(() => encodePatchBlob([patch(2 ** 32, 8, 1)])).toThrow(PatchBlobError);
    expect(() => encodePatchBlob([patch(0, 65537, 1)])).toThrow(/reg_size/);
    expect(() => encodePatchBlob([])).toThrow(/at least one patch/);
    expect(() => encodePatchBlob([{ ...patch(0, 8, 1), data: new Uint8Array(4) }])).toThrow(/data is 4 bytes/);
    expect(() => encodePatchBlob([patch(4, 8, 1)])).toThrow(/not 8-byte aligned/);
  });
  it('countPatches reports truncation and misalignment', () => {
    const b = encodePatchBlob([patch(0x100, 8, 2)]);
    expect(countPatches(b.subarray(0, 16))).toMatch(/run past the end/);
    expect(countPatches(b.subarray(0, 4))).toMatch(/multiple of 8/);
    expect(countPatches(new Uint8Array(0))).toBe('empty blob');
  });
});

describe('microcode relocations through the sequencer tables', () => {
  it('field = addend + value; a value the field cannot hold is reported, the word unchanged', () => {
    const t = loadTable('pyxis', 'seq_control');
    const w = width('seq_control', 'iter0_sol_pc');
    const data = new Uint8Array(t.bytes);
    expect(applyFieldRelocation(data, 0, 'seq_control.iter0_sol_pc', 'p', 3, 4)).toBeUndefined();
    expect(decode(t, data)['iter0_sol_pc']).toBe(7);
    const before = [...data];
    expect(applyFieldRelocation(data, 0, 'seq_control.iter0_sol_pc', 'p', 0, 2 ** w)).toMatch(/does not fit/);
    expect([...data]).toEqual(before);
    expect(applyFieldRelocation(data, 0, 'nope.iter0_sol_pc', 'p', 0, 1)).toMatch(/unknown relocation kind/);
  });
});

describe('engine windows from noc_map.json (chip §12.7)', () => {
  it('HBM is reached through the hbm windows, eng[31:30] = window index; beyond them no engine address', async () => {
    const { hbmEngineAddress, HBM_WINDOW_SIZE, CFG_WINDOW_BASE } = await import('../../src/ld/image.js');
    const noc = JSON.parse(readFileSync(`${grammars}noc_map.json`, 'utf8')) as { remap_windows: { windows: Array<{ window: number; region: string; offset: string; mask: string }> } };
    const hbm = noc.remap_windows.windows.filter((w) => w.region === 'hbm');
    const size = hbm.reduce((n, w) => n + Number(w.mask) + 1, 0);
    expect(HBM_WINDOW_SIZE).toBe(size);
    expect(hbmEngineAddress(0)).toBe(hbm[0]!.window * 2 ** 30);
    expect(hbmEngineAddress(size - 1)).toBe(hbm[0]!.window * 2 ** 30 + size - 1);
    expect(hbmEngineAddress(size)).toBeUndefined();
    expect(CFG_WINDOW_BASE).toBe(noc.remap_windows.windows.find((w) => w.region === 'cfg')!.window * 2 ** 30);
  });
});

describe('a descriptor field that cannot hold the value is LD0506 (no wrapping)', () => {
  it('an MPE patch blob longer than blob_length can say (16 bits of 8-byte units, N-1: chip §12.6.1.1)', async () => {
    const { linkErr, vfs } = await import('./helpers.js');
    const units = 2 ** width('desc_mpe_patch', 'blob_length'); // N-1 encoded: at most 2^16 units
    // one patch of `units` 8-byte elements: 8 header bytes + units * 8 data bytes = units + 1 units
    const blob = encodePatchBlob([{ target_address: 0x4000_0000, reg_size: 8, reg_repeat: units, data: new Uint8Array(units * 8) }]);
    expect(blob.length / 8).toBe(units + 1);
    const script = 'memory m { origin = 0; length = 4M; }\nblob b { file = "big.blob"; region = m; }\nqueue mpe0 { trip p { blob = b; } }';
    const d = linkErr({ script, readFile: vfs({ 'big.blob': blob }) });
    expect(d.map((x) => x.code)).toEqual(['LD0506']);
    expect(d[0]!.message).toMatch(/trip `p`: cannot encode its desc_mpe_patch descriptor: .*blob_length/);
    // one unit less fits
    const ok = encodePatchBlob([{ target_address: 0x4000_0000, reg_size: 8, reg_repeat: units - 1, data: new Uint8Array((units - 1) * 8) }]);
    const { link } = await import('@pyxis/target-pyxis/ld');
    const { image } = link({ script, readFile: vfs({ 'big.blob': ok }) });
    const desc = image.sections.find((s) => s.name === '.desc.c0.q15.0')!;
    expect(decode(loadTable('pyxis', 'desc_mpe_patch'), desc.data)['blob_length']).toBe(units);
  });
});
