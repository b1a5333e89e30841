/**
 * Tensor slices in trips (docs/linker.md "Slices", slices.ts) and the switchbox-consumer warning LD0831
 * (fifoConsumers.ts). Expected addresses are derived here from the layout rules of chip §7.2-7.3:
 * an RFP8 [R, 128] tensor has 128-byte rows (8 partitions), so row r starts r * 128 bytes into it.
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decode, loadTable } from '@pyxis/codec';
import { parseLinkScript } from '@pyxis/ld';
import { assemble, loadPyxisIsa } from '@pyxis/target-pyxis/asm';
import { link, mapText } from '@pyxis/target-pyxis/ld';
import { linkErr } from './helpers.js';
import { SAMPLES, runSample } from '../samples-compute.harness.js';

const isa = loadPyxisIsa();
const COPY_PASM = readFileSync(SAMPLES + 'copy.pasm', 'utf8');
const obj = (text = COPY_PASM) => assemble([{ file: 'copy.pasm', text }], { isa, listing: false }).object;
const HEAD = `memory m { origin = 0; length = 1M; }
memory hbm { space = hbm; origin = 0; length = 1M; }
tensor src { format = RFP8; shape = [32, 128]; region = m; zero = true; }
tensor w16 { format = RFP16; shape = [4, 16, 128]; region = m; zero = true; }
tensor dst { format = RFP8; shape = [8, 128]; region = m; zero = true; }
tensor hb { format = RFP8; shape = [32, 128]; region = hbm; zero = true; }
`;
const linkScript = (body: string, text?: string) => link({ script: HEAD + body, scriptFile: '/virtual/s.ld', objects: [{ file: 'copy.pobj', container: obj(text) }] });
const errs = (body: string) => linkErr({ script: HEAD + body, scriptFile: '/virtual/s.ld', objects: [{ file: 'copy.pobj', container: obj() }] });
const sym = (image: ReturnType<typeof link>['image'], n: string) => {
  const s = image.symbols.find((x) => x.name === n)!;
  return image.sections[s.section]!.address + s.offset;
};

describe('link-script slice syntax', () => {
  it('parses rows, columns, single indices and byte ranges', () => {
    const s = parseLinkScript('queue q { trip t { read = x[16:32]; write = y[:, 0:64]; weights = z@bytes[0:4096]; a = w[2, 3:, :5]; } }', 'f.ld');
    const v = (k: string) => s.blocks[0]!.children[0]!.attrs.find((a) => a.key === k)!.value as { slice?: { unit: string; dims: Array<{ start?: number; end?: number }> } };
    expect(v('read').slice).toMatchObject({ unit: 'elements', dims: [{ start: 16, end: 32 }] });
    expect(v('write').slice!.dims).toMatchObject([{}, { start: 0, end: 64 }]);
    expect(v('write').slice!.dims[0]!.start).toBeUndefined();
    expect(v('weights').slice).toMatchObject({ unit: 'bytes', dims: [{ start: 0, end: 4096 }] });
    expect(v('a').slice!.dims).toMatchObject([{ start: 2, end: 3 }, { start: 3 }, { end: 5 }]);
  });
  it('a malformed slice is a syntax error at its position', () => {
    expect(() => parseLinkScript('queue q { trip t { read = x[1:2; } }')).toThrow(/expected `,` or `]`/);
    expect(() => parseLinkScript('queue q { trip t { read = x@words[0:4]; } }')).toThrow(/`bytes` after `@`/);
  });
});

describe('sliced trips: descriptors', () => {
  it('rows, columns and byte ranges move the UIE base address by the slice offset', () => {
    const { image } = linkScript('queue uie0 { trip t { amem_read = copy_rd; amem_write = copy_wr; read = src[16:24]; write = dst; } }');
    const uie = decode(loadTable('pyxis', 'desc_uie'), image.sections.find((s) => s.name === '.desc.c0.q00.0')!.data);
    expect(uie['amem_read_base_address']).toBe((sym(image, 'src') + 16 * 128) >> 4);
    expect(uie['amem_write_base_address']).toBe(sym(image, 'dst') >> 4);
    const c = linkScript('queue uie0 { trip t { amem_read = copy_rd; amem_write = copy_wr; read = src[8:16, 64:128]; write = src@bytes[2048:3072]; } }').image;
    const u2 = decode(loadTable('pyxis', 'desc_uie'), c.sections.find((s) => s.name === '.desc.c0.q00.0')!.data);
    expect(u2['amem_read_base_address']).toBe((sym(c, 'src') + 8 * 128 + 64) >> 4);
    expect(u2['amem_write_base_address']).toBe((sym(c, 'src') + 2048) >> 4);
  });
  it('the link map lists each slice with the address, bytes, [C, H, W] and row pitch derived from the layout', () => {
    const { image, map } = linkScript('queue uie0 { trip t { amem_read = copy_rd; amem_write = copy_wr; read = src[8:16, 64:128]; write = dst; } }');
    const base = sym(image, 'src');
    // rows 8..15, columns 64..127: starts at row 8 column 64; spans 7 full row pitches + the last 64-byte row
    expect(map.slices).toEqual([{ trip: 't', key: 'read', tensor: 'src', slice: '[8:16, 64:128]', address: base + 8 * 128 + 64, bytes: 7 * 128 + 64, shape: [1, 8, 64], row_pitch: 128, chan_pitch: 32 * 128 }]);
    const text = mapText(map);
    const line = text.split('\n').find((l) => l.includes('src[8:16, 64:128]'))!;
    const [trip, key, addr, bytes] = line.trim().split(/\s+/);
    expect([trip, key, parseInt(addr!, 16), parseInt(bytes!, 16)]).toEqual(['t', 'read', base + 8 * 128 + 64, 7 * 128 + 64]);
    expect(text).toMatch(/\nSlices\n/);
  });
  it('16-bit tensors: channel and row slices use the channel and row pitch (rows padded to 32 bytes)', () => {
    const { image } = linkScript('queue uie0 { trip t { amem_read = copy_rd; amem_write = copy_wr; read = w16[2, 4:12]; write = dst; } }');
    const uie = decode(loadTable('pyxis', 'desc_uie'), image.sections.find((s) => s.name === '.desc.c0.q00.0')!.data);
    const rowBytes = 128 * 2; // 256: already a multiple of 32
    expect(uie['amem_read_base_address']).toBe((sym(image, 'w16') + 2 * 16 * rowBytes + 4 * rowBytes) >> 4);
  });
  it('an H2A row slice moves the DMA start address and length', () => {
    const { image } = linkScript('queue h2a { trip l { src = hb[8:16]; dst = src[16:24]; } }');
    const h2a = decode(loadTable('pyxis', 'desc_h2a'), image.sections.find((s) => s.name === '.desc.c0.q10.0')!.data);
    expect(h2a['hbm_base_address']).toBe((sym(image, 'hb') + 8 * 128) / 1024);
    expect(h2a['amem_start_address']).toBe((sym(image, 'src') + 16 * 128) / 128);
    expect(h2a['length']).toBe(1); // 8 rows x 128 B = 1 KiB
  });
});

describe('sliced trips: diagnostics', () => {
  it('out of range, empty and too many dimensions', () => {
    const line7 = 'queue uie0 { trip t { amem_read = copy_rd; amem_write = copy_wr; read = src[24:40]; write = dst[3:3]; } }';
    const d = errs(line7 + '\nqueue uie1 { trip u { read = src[0, 0, 0]; write = dst@bytes[0:2000]; } }');
    expect(d.map((x) => x.code)).toEqual(['LD0136', 'LD0136', 'LD0136', 'LD0136']);
    expect(d[0]!.message).toMatch(/dimension 0 24:40 is out of range \(the dimension 0 has 32\)/);
    expect(d[0]!.span).toMatchObject({ file: '/virtual/s.ld', line: 7, column: line7.indexOf('24:40') + 1, length: 5 }); // the offending dimension
    expect(d[1]!.message).toMatch(/empty/);
    expect(d[2]!.message).toMatch(/3 dimensions given, the tensor has 2/);
    expect(d[3]!.message).toMatch(/byte range 0:2000 is out of range/);
  });
  it('a column slice of a DMA trip is not one contiguous range; an unaligned UIE column start is refused', () => {
    const d = errs('queue h2a { trip l { src = hb[0:8, 0:64]; dst = src[0:8]; } }\nqueue uie0 { trip t { read = src[:, 8:72]; write = dst; } }');
    expect(d.map((x) => x.code)).toEqual(['LD0136', 'LD0136']);
    expect(d[0]!.message).toMatch(/not one contiguous byte range/);
    expect(d[1]!.message).toMatch(/8 bytes into the tensor, not on a 16-byte \(partition\) boundary/);
  });
  it('an H2A slice not on a 1 KiB boundary is LD0502; a slice where no tensor is expected is LD0135', () => {
    expect(errs('queue h2a { trip l { src = hb[1:9]; dst = src[0:8]; } }').map((x) => x.code)).toEqual(['LD0502']);
    expect(errs('tensor q { format = RFP8; shape = [8, 128]; region = m[0:1]; }').map((x) => x.code)).toContain('LD0135');
  });
});

describe('sliced trips: race check on the view', () => {
  it('a read of rows 8..15 does not race with a load of rows 0..7; a read of rows 0..7 does (LD0813)', () => {
    const body = (rows: string) => `queue h2a { trip l { src = hb[0:8]; dst = src[0:8]; } }\nqueue uie0 { trip t { amem_read = copy_rd; amem_write = copy_wr; read = src[${rows}]; write = dst; } }`;
    expect(linkScript(body('8:16')).diagnostics).toEqual([]);
    expect(linkScript(body('4:12')).diagnostics.map((d) => d.code)).toEqual(['LD0813']);
  });
});

describe('sliced copy through the simulator', () => {
  it('copies rows 16..31 of a 32-row tensor: the output equals those rows of the input', () => {
    const dir = mkdtempSync(join(tmpdir(), 'slices-'));
    const raw = new Uint8Array(32 * 128).map((_, i) => ((i >> 7) * 5 + (i & 127)) % 0x70);
    writeFileSync(join(dir, 'src32.bin'), raw);
    const run = runSample('copy.pasm', 'copy.ld', {
      edit: (text, file) =>
        file.endsWith('.pasm')
          ? text.replace(/loop i0 8/g, 'loop i0 16')
          : text
              .replace(/tensor src_hbm \{[^}]*\}/, `tensor src_hbm { format = RFP8; shape = [32, 128]; eb = -3; region = hbm; raw = "${join(dir, 'src32.bin')}"; }`)
              .replace(/tensor src +\{ format = RFP8; shape = \[8, 128\]/, 'tensor src { format = RFP8; shape = [32, 128]')
              .replace(/(tensor (dst|out_hbm) +\{ format = RFP8; shape = )\[8, 128\]/g, '$1[16, 128]')
              .replace('read = src;', 'read = src[16:32];'),
    });
    const out = run.tensor('out_hbm');
    const src = run.tensor('src_hbm');
    expect(out.length).toBe(16 * 128);
    expect([...out]).toEqual([...src.subarray(16 * 128, 32 * 128)]);
    expect([...out.subarray(0, 128)]).not.toEqual([...src.subarray(0, 128)]);
  });
});

describe('LD0831: switchbox data with no consumer in the trip (chip §6.2.3 Table 6-3)', () => {
  it('the copy sample without tgt_fifo warns with the program, the field and a hint', () => {
    const text = COPY_PASM.replace(' tgt_fifo=AMEM_write', '');
    const line7 = 'queue uie0 { trip t { amem_read = copy_rd; amem_write = copy_wr; read = src[0:8]; write = dst; } }';
    const { diagnostics } = linkScript(line7, text);
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ code: 'LD0831', severity: 'warning', span: { line: 7, column: line7.indexOf('copy_rd') + 1 } });
    expect(diagnostics[0]!.message).toMatch(/amem_read program `copy_rd` sends data to switchbox FIFO tgt_fifo=Grid, but the trip runs no gv program/);
    expect(diagnostics[0]!.notes!.join('\n')).toMatch(/set `tgt_fifo=AMEM_write` in `copy_rd`/);
  });
  it('the copy sample as shipped links without warnings', () => {
    const script = readFileSync(SAMPLES + 'copy.ld', 'utf8');
    const r = link({ script, scriptFile: SAMPLES + 'copy.ld', objects: [{ file: 'copy.pobj', container: obj() }] });
    expect(r.diagnostics).toEqual([]);
  });
});
