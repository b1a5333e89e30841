/**
 * LD0820, the 3x3 size rules of seq §1.2-1.3, counted "inclusive of any padding": the pad rows a trip's AMEM Read
 * program makes in microcode (Read_Const, start/end_row_pad §5.1, post-final §2.1.2 / §5.3) count as input rows, and
 * the rows its AMEM Write program discards (Discard, post-final §6.3) as output rows computed in the grid.
 * Expected row counts are derived by hand from the programs' loops (comments beside each case).
 */
import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderDiagnostics, SourceMap } from '@pyxis/diagnostics';
import { assemble, loadPyxisIsa } from '@pyxis/target-pyxis/asm';
import { link } from '@pyxis/target-pyxis/ld';
import { linkErr } from './helpers.js';
import { SAMPLES, ensureInputs } from '../samples-compute.harness.js';

const isa = loadPyxisIsa();
const root = fileURLToPath(new URL('../../../../', import.meta.url));
const ERR = join(SAMPLES, 'errors/ld/');
const obj = (file: string, text: string) => ({ file, container: assemble([{ file, text }], { isa, listing: false }).object });
const c3 = obj('conv3x3_pad.pasm', readFileSync(SAMPLES + 'conv3x3_pad.pasm', 'utf8'));
const rows = obj('conv3x3_rows.pasm', readFileSync(ERR + 'conv3x3_rows.pasm', 'utf8'));

/** Links `script` (a trip body per case) over a zero [16, 8, 128] input with the programs of both files. */
const HEAD = `memory amem0 { space = amem; cluster = 0; view = hashed; origin = 0; length = 32M; }
tensor x { format = RFP8; shape = [16, 8, 128]; region = amem0; zero = true; }
tensor y { format = RFP16; shape = [16, 8, 128]; region = amem0; zero = true; }
`;
const one = (trip: string, extra = '') => ({ script: `${HEAD}${extra}\nqueue uie0 { cluster = 0; trip t { ${trip} } }`, scriptFile: '/virtual/s.ld', objects: [c3, rows] });

describe('LD0820 counts the pad rows made in microcode (seq §1.2 "inclusive of any padding")', () => {
  it('the conv3x3_pad sample (8 rows + 2 Read_Const rows per channel = 10 = 8 + 2) links with op = conv3x3_s1', () => {
    const script = readFileSync(SAMPLES + 'conv3x3_pad.ld', 'utf8');
    expect(script).toMatch(/op = conv3x3_s1/);
    ensureInputs(['c3_x.npy', 'c3_w.npy']);
    const { diagnostics } = link({ script, scriptFile: join(SAMPLES, 'conv3x3_pad.ld'), objects: [c3] });
    expect(diagnostics.filter((d) => d.code === 'LD0820')).toEqual([]);
  });
  it('stride 1 with 17 rows per channel fails, the count in the message', () => {
    const d = linkErr(one('amem_read = rd_s2; gv = c3_gv; read = x; op = conv3x3_s1;'));
    // rd_s2: 8 data rows + 9 Read_Const rows per channel = 17 rows: 17 - 2 = 15 is not a multiple of 8
    expect(d.map((x) => x.code)).toEqual(['LD0820']);
    expect(d[0]!.message).toContain('input `x` has 8 rows + 9 pad rows per channel made in microcode by program `rd_s2` (144 pad rows in 16 channels) = 17 rows');
  });
  it('end_row_pad rows count (1 Read_Const + 8 rows + 1 padded row = 10, stride 1)', () => {
    expect(link(one('amem_read = rd_row_pad; gv = c3_gv; read = x; op = conv3x3_s1;')).diagnostics.filter((d) => d.code === 'LD0820')).toEqual([]);
  });
  it('stride 2: 8 rows + 9 Read_Const rows = 17 = 16 + 1 links', () => {
    expect(link(one('amem_read = rd_s2; gv = c3_gv; read = x; op = conv3x3_s2;')).diagnostics.filter((d) => d.code === 'LD0820')).toEqual([]);
  });
  it('post-final rows count: 22 rows read in groups of 10 overlapping by 2, the last group 6 rows + 4 post-final (seq §2.1.1-2.1.2)', () => {
    // one channel of 22 rows; groups start at rows 0, 8, 16 (iter_stride[i0] = 8 rows of 8 partitions); the last
    // group reads rows 16..21 and 4 post-final Read_Const(0): 22 + 4 = 26 = 8 x 3 + 2 input rows
    const pf = obj('pf.pasm', `.program rd_pf amem_read {
  loop i0 3 {
    loop i1 10 final 6 when [i0] post_final {
      Read_SRAM data_type=Recogni_FP8 tgt_fifo=Grid iter_stride[i0]=64 iter_stride[i1]=8
    }
  }
}
.program rd_nopf amem_read {
  loop i0 3 {
    loop i1 10 final 6 when [i0] {
      Read_SRAM data_type=Recogni_FP8 tgt_fifo=Grid iter_stride[i0]=64 iter_stride[i1]=8
    }
  }
}
`);
    const s = (p: string) => ({ script: `${HEAD}tensor z { format = RFP8; shape = [22, 128]; region = amem0; zero = true; }\nqueue uie0 { cluster = 0; trip t { amem_read = ${p}; gv = c3_gv; read = z; op = conv3x3_s1; } }`, scriptFile: '/virtual/s.ld', objects: [c3, pf] });
    expect(link(s('rd_pf')).diagnostics.filter((d) => d.code === 'LD0820' || d.code === 'LD0832')).toEqual([]);
    // without post_final the last group stops after 6 rows: 22 rows, no pads -> 22 - 2 = 20 is not a multiple of 8
    const d = linkErr(s('rd_nopf'));
    expect(d.map((x) => x.code)).toEqual(['LD0820']);
    expect(d[0]!.message).toMatch(/input `z` has 22 rows$/);
  });
  it('output rows discarded in microcode count as rows computed in the grid (seq §1.3)', () => {
    // a Write program storing 6 rows and discarding 2 per channel: [16, 6, 128] output + 2 = 8 rows
    const w = obj('w.pasm', `.program wr6 amem_write {
  loop i0 16 {
    loop i1 6 {
      Write src_fifo=Grid data_type=Recogni_FP16 iter_stride[i0]=96 iter_stride[i1]=16
    }
    loop i1 2 {
      Discard src_fifo=Grid
    }
  }
}
`);
    const s = (shape: string) => ({ script: `${HEAD}tensor o { format = RFP16; shape = ${shape}; region = amem0; zero = true; }\nqueue uie0 { cluster = 0; trip t { amem_read = c3_rd; gv = c3_gv; amem_write = wr6; read = x; write = o; op = conv3x3_s1; } }`, scriptFile: '/virtual/s.ld', objects: [c3, w] });
    expect(link(s('[16, 6, 128]')).diagnostics.filter((d) => d.code === 'LD0820')).toEqual([]);
  });
});

describe('golden diagnostics (samples/pyxis/errors/ld/conv3x3_rows.ld -> .err)', () => {
  it('matches the golden file', () => {
    const file = join(ERR, 'conv3x3_rows.ld');
    const rel = relative(root, file);
    const script = readFileSync(file, 'utf8');
    const sources = new SourceMap();
    sources.add(rel, script);
    const d = linkErr({ script, scriptFile: rel, objects: [c3, rows] });
    const text = renderDiagnostics(d, 'human', { color: false, sources }) + '\n';
    if (process.env['REGEN_GOLDEN']) writeFileSync(file.replace(/\.ld$/, '.err'), text);
    expect(text).toBe(readFileSync(file.replace(/\.ld$/, '.err'), 'utf8'));
  });
});

describe('LD0820, seq §1.3 rule 2: 3x3 output channels a multiple of the filters per grid-row', () => {
  // GH programs reading RD_3X3 with 2 and 1 filters per grid-row (log2_filters_per_row 1 and 0, seq §10.1)
  const gh = obj('gh.pasm', `.program gh_f2 gh {
  loop i0 4 {
    loop i1 2 {
      HBUF_RD_VLD hbuf_rd_cmd=RD_3X3 log2_filters_per_row=1 h_staging_filter_iter_id=i1 h_staging_done_en=1
    }
  }
}
.program gh_f1 gh {
  loop i0 4 {
    HBUF_RD_VLD hbuf_rd_cmd=RD_3X3 log2_filters_per_row=0 h_staging_filter_iter_id=i0 h_staging_done_en=1
  }
}
`);
  const s = (prog: string, channels: number) => ({
    script: `${HEAD}tensor o { format = RFP16; shape = [${channels}, 8, 128]; region = amem0; zero = true; }\nqueue uie0 { cluster = 0; trip t { gh = ${prog}; write = o; op = conv3x3_s1; } }`,
    scriptFile: '/virtual/s.ld',
    objects: [c3, gh],
  });
  const codes = (x: ReturnType<typeof s>) => link(x).diagnostics.filter((d) => d.code === 'LD0820');
  it('15 output channels at 2 filters per grid-row fail; 16 link; 1 filter per grid-row accepts any count', () => {
    const d = linkErr(s('gh_f2', 15));
    expect(d.map((x) => x.code)).toEqual(['LD0820']);
    expect(d[0]!.message).toMatch(/output `o` has 15 channels, not a multiple of the 2 filters per grid-row of GH program `gh_f2`/);
    expect(d[0]!.spec).toMatch(/§1\.3/);
    expect(codes(s('gh_f2', 16))).toEqual([]);
    expect(codes(s('gh_f1', 15))).toEqual([]);
  });
});
