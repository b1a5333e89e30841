/**
 * LD0832 and the race checks on a UIE trip's real AMEM footprint (src/ld/footprint.ts). The copy sample's programs
 * read / write `loop i0 N` rows with iter_stride[i0] = 8 partitions (seq §5.2.1, §6.1): N rows of 128 bytes from the
 * base address. An RFP8 [R, 128] tensor has 128-byte rows (chip §7.2-7.3), so the footprint of N rows is N * 128
 * bytes from the slice start; expected byte ranges below are derived from that and the tensors' placed symbols.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { assemble, loadPyxisIsa } from '@pyxis/target-pyxis/asm';
import { link } from '@pyxis/target-pyxis/ld';
import { linkErr } from './helpers.js';
import { SAMPLES } from '../samples-compute.harness.js';

const isa = loadPyxisIsa();
const COPY_PASM = readFileSync(SAMPLES + 'copy.pasm', 'utf8');
const rows = (n: number) => COPY_PASM.replace(/loop i0 8/g, `loop i0 ${n}`);
const obj = (text: string) => assemble([{ file: 'copy.pasm', text }], { isa, listing: false }).object;
const HEAD = `memory m { origin = 0; length = 1M; }
memory hbm { space = hbm; origin = 0; length = 1M; }
tensor big { format = RFP8; shape = [32, 128]; region = m; zero = true; }
tensor dst { format = RFP8; shape = [8, 128]; region = m; zero = true; }
tensor hb { format = RFP8; shape = [32, 128]; region = hbm; zero = true; }
`;
const opts = (body: string, n: number) => ({ script: HEAD + body, scriptFile: '/virtual/s.ld', objects: [{ file: 'copy.pobj', container: obj(rows(n)) }] });
const trip = (read: string, write: string) => `queue uie0 { trip t { amem_read = copy_rd; amem_write = copy_wr; read = ${read}; write = ${write}; } }`;
const addrOf = (image: ReturnType<typeof link>['image'], n: string) => {
  const s = image.symbols.find((x) => x.name === n)!;
  return image.sections[s.section]!.address + s.offset;
};

describe('LD0832: the AMEM program leaves the slice (seq §5.2.1, §6.1)', () => {
  it('a program writing 16 rows into an 8-row slice warns with the byte ranges outside the slice', () => {
    const { image, diagnostics } = link(opts(trip('big[16:32]', 'big[0:8]'), 16));
    expect(diagnostics.map((d) => [d.code, d.severity])).toEqual([['LD0832', 'warning']]);
    const b = addrOf(image, 'big');
    const hex = (x: number) => '0x' + x.toString(16);
    expect(diagnostics[0]!.message).toContain(`AMEM Write program writes bytes ${hex(b + 8 * 128)}..${hex(b + 16 * 128)} outside the slice of \`big\` (${hex(b)}..${hex(b + 8 * 128)})`);
    expect(diagnostics[0]!.spec).toMatch(/§6\.1/);
  });
  it('the same program with a 16-row slice (and the copy sample with its own slices) links without a word', () => {
    expect(link(opts(trip('big[16:32]', 'big[0:16]'), 16)).diagnostics).toEqual([]);
    expect(link(opts(trip('big[16:24]', 'dst'), 8)).diagnostics).toEqual([]);
  });
  it('a read past the slice warns on the read side (AMEM Read, seq §5.2.1)', () => {
    const d = link(opts(trip('big[24:28]', 'big[0:8]'), 8)).diagnostics;
    expect(d.map((x) => x.code)).toEqual(['LD0832']);
    expect(d[0]!.message).toMatch(/AMEM Read program reads bytes .* outside the slice of `big`/);
  });
  it('a program running past the tensor storage is an error', () => {
    const d = linkErr(opts(trip('big[0:16]', 'dst'), 16));
    expect(d.map((x) => [x.code, x.severity])).toContainEqual(['LD0832', 'error']);
    expect(d.find((x) => x.code === 'LD0832')!.message).toMatch(/outside the storage of `dst`/);
  });
});

describe('padded rows read no AMEM (seq §5.1 start_row_pad / end_row_pad)', () => {
  it('a 10-row read whose first and last rows are padding touches rows 1..8 only', () => {
    const pad = (flags: string) => COPY_PASM.replace(/loop i0 8/g, 'loop i0 10').replace('Read_SRAM tgt_fifo=AMEM_write', `Read_SRAM tgt_fifo=AMEM_write${flags}`);
    const o = (flags: string) => ({ script: HEAD + trip('big[0:9]', 'big[16:26]'), scriptFile: '/virtual/s.ld', objects: [{ file: 'copy.pobj', container: obj(pad(flags)) }] });
    expect(link(o(' start_row_pad=1 end_row_pad=1 pad_row_iter_mask=[i0]')).diagnostics).toEqual([]);
    // without padding the last row (row 9, bytes 9*128..10*128 of big) is read outside the 9-row slice
    const d = link(o('')).diagnostics;
    expect(d.map((x) => x.code)).toEqual(['LD0832']);
    expect(d[0]!.message).toMatch(/AMEM Read program reads bytes 0x[0-9a-f]+\.\.0x[0-9a-f]+ outside/);
  });
});

describe('race checks use the real footprint', () => {
  it('a DMA reading rows 8..15 races with a trip declared on rows 0..7 that writes rows 0..15 (LD0813)', () => {
    const body = (n: number) => `queue a2h { trip s { src = big[8:16]; dst = hb[0:8]; } }\n` + trip('big[16:32]', 'big[0:8]');
    // the slice alone: no overlap, no race
    expect(link(opts(body(8), 8)).diagnostics).toEqual([]);
    const codes = link(opts(body(16), 16)).diagnostics.map((x) => x.code).sort();
    expect(codes).toContain('LD0813');
  });
});
