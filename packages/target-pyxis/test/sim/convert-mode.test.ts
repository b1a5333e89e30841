/**
 * Run-time converter modes (chip §4.9, §4.10; `csr.convert_mode`, grammars/pyxis/convert_mode.json):
 * "Saturating/non-saturating mode is a run-time configuration" (import of +-infinity, OFP8 export overflow) and
 * "If the RFP16 value = +/- max, optionally convert this to IEEE +/- infinity. (This option is under CSR control)".
 * Expected codes are the spec's special values (RFP8 / RFP16 tables of §4.1-§4.2, OCP and IEEE encodings), written
 * out here.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assemble, loadPyxisIsa } from '@pyxis/target-pyxis/asm';
import { link } from '@pyxis/target-pyxis/ld';
import { defaultUieFactory, simulateImage } from '@pyxis/target-pyxis/sim';
import { loadGrammarJson } from '@pyxis/codec';
import { Rig, loops } from './uie-fixture.js';
import { ImageBuilder, seqWord } from './pyxisImage.js';

// chip §4.1 / §4.2: RFP NaN = sign 1 with E = F = 0; saturating max = all-ones E and F
const RFP16_NAN = 0x8000;
const RFP16_MAX = 0x7fff;
const RFP16_NMAX = 0xffff;
const RFP8_NAN = 0x80;
const RFP8_MAX = 0x7f;
const RFP8_NMAX = 0xff;
// OCP FP8 (OFP8 rev 1.0): E4M3 max normal 0_1111_110 (448), NaN S_1111_111; E5M2 max normal 0_11110_11, inf 0_11111_00
const E4M3_MAX = 0x7e;
const E4M3_NAN = 0x7f;
const E5M2_MAX = 0x7b;
const E5M2_INF = 0x7c;
// IEEE FP16: +inf 0x7c00, max normal 0x7bff (65504)
const IEEE_INF = 0x7c00;
const IEEE_MAX = 0x7bff;

/** Bits of csr.convert_mode by field name (the grammar's layout, read as data). */
const FIELDS = loadGrammarJson<{ fields: Array<{ name: string; width: number }> }>('pyxis', 'convert_mode').fields;
const bit = (name: string) => {
  let lsb = 0;
  for (const f of FIELDS) {
    if (f.name === name) return 1 << lsb;
    lsb += f.width;
  }
  throw new Error(name);
};
const IMPORT_NON_SAT = bit('import_non_saturating');
const EXPORT_NON_SAT = bit('export_non_saturating');
const MAX_TO_INF = bit('export_max_to_inf');

/** One AMEM Read -> AMEM Write row copy on a single UIE with csr.convert_mode = mode (sampled at trip start). */
function copy(src: number[], rdType: string, wrType: string, mode: number, wrAdj = 0): number[] {
  const r = new Rig();
  const in16 = /FP16$/.test(rdType) && rdType !== 'Recogni_FP8';
  const out16 = /FP16$/.test(wrType);
  const bytes = new Uint8Array(in16 ? 256 : 128);
  src.forEach((v, c) => (in16 ? bytes.set([v & 0xff, v >> 8], 2 * c) : (bytes[c] = v)));
  r.amem.writeBytes(0, bytes);
  r.prog('amem_read', 0, loops([{ n: 1 }]), { opcd: 'Read_SRAM', data_type: rdType, tgt_fifo: 'AMEM_write', num_logical_ptns: 8 });
  r.prog('amem_write', 0, loops([{ n: 1 }]), { opcd: 'Write', data_type: wrType, src_fifo: 'AMEM_read', num_logical_cols: 128, eb_adj: wrAdj });
  r.uie.convertModeSource = () => mode;
  r.trip({ amem_write_base_address: 0x4000 >> 4 });
  r.run();
  const out = r.amem.readBytes(0x4000, out16 ? 256 : 128);
  return src.map((_, c) => (out16 ? out[2 * c]! | (out[2 * c + 1]! << 8) : out[c]!));
}

describe('import of +-infinity (chip §4.9.1, §4.10.1)', () => {
  it('IEEE FP16: saturating -> RFP16 +-max, non-saturating -> RFP16 NaN; finite values and NaN unchanged by the mode', () => {
    const src = [0x7c00, 0xfc00, 0x3c00, 0x7e00];
    expect(copy(src, 'IEEE_FP16', 'Recogni_FP16', 0)).toEqual([RFP16_MAX, RFP16_NMAX, 0x3c00, RFP16_NAN]);
    expect(copy(src, 'IEEE_FP16', 'Recogni_FP16', IMPORT_NON_SAT)).toEqual([RFP16_NAN, RFP16_NAN, 0x3c00, RFP16_NAN]);
  });
  it('OFP8 E5M2 (the only OFP8 format with infinities): same rule, seen through an RFP8 write', () => {
    const src = [0x7c, 0xfc, 0x3c];
    // RFP16 +-max -> RFP8 saturates to +-max (chip §6.2.2.2); NaN -> NaN
    const sat = copy(src, 'OCP_FP8_E5M2', 'Recogni_FP8', 0);
    const non = copy(src, 'OCP_FP8_E5M2', 'Recogni_FP8', IMPORT_NON_SAT);
    expect(sat.slice(0, 2)).toEqual([RFP8_MAX, RFP8_NMAX]);
    expect(non.slice(0, 2)).toEqual([RFP8_NAN, RFP8_NAN]);
    expect(non[2]).toBe(sat[2]); // a finite value does not depend on the mode
  });
  it('OFP8 E4M3 has no infinity: its NaN codes import as NaN in both modes', () => {
    expect(copy([0x7f, 0xff], 'OCP_FP8_E4M3', 'Recogni_FP8', 0)).toEqual([RFP8_NAN, RFP8_NAN]);
    expect(copy([0x7f, 0xff], 'OCP_FP8_E4M3', 'Recogni_FP8', IMPORT_NON_SAT)).toEqual([RFP8_NAN, RFP8_NAN]);
  });
});

describe('export overflow and +-max (chip §4.9.2, §4.10.2)', () => {
  const big = [RFP16_MAX, RFP16_NMAX, 0x3c00]; // RFP16 +-max (E = 31) overflow every OFP8 format; 1.0 (E = 15) does not
  it('OFP8 E4M3: saturating -> +-448 (max normal); non-saturating -> +-NaN', () => {
    expect(copy(big, 'Recogni_FP16', 'OCP_FP8_E4M3', 0).slice(0, 2)).toEqual([E4M3_MAX, 0x80 | E4M3_MAX]);
    expect(copy(big, 'Recogni_FP16', 'OCP_FP8_E4M3', EXPORT_NON_SAT).slice(0, 2)).toEqual([E4M3_NAN, 0x80 | E4M3_NAN]);
  });
  it('OFP8 E5M2: saturating -> +-57344 (max normal); non-saturating -> +-infinity; 1.0 exact in both', () => {
    expect(copy(big, 'Recogni_FP16', 'OCP_FP8_E5M2', 0)).toEqual([E5M2_MAX, 0x80 | E5M2_MAX, 0x3c]);
    expect(copy(big, 'Recogni_FP16', 'OCP_FP8_E5M2', EXPORT_NON_SAT)).toEqual([E5M2_INF, 0x80 | E5M2_INF, 0x3c]);
  });
  it('IEEE FP16: export_max_to_inf turns RFP16 +-max into +-infinity before the EB adjustment; otherwise +-max is a normal value', () => {
    // eb_adj -1 on the write: E = 31 - 1 = 30, the largest IEEE normal exponent -> 0x7bff when +-max is a normal value
    const src = [RFP16_MAX, RFP16_NMAX, 0x7bfe];
    expect(copy(src, 'Recogni_FP16', 'IEEE_FP16', 0, -1)).toEqual([IEEE_MAX, 0x8000 | IEEE_MAX, 0x77fe]);
    expect(copy(src, 'Recogni_FP16', 'IEEE_FP16', MAX_TO_INF, -1)).toEqual([IEEE_INF, 0x8000 | IEEE_INF, 0x77fe]);
    // the OFP8 saturating bit does not apply to IEEE FP16 (no saturating mode: overflow is always +-infinity)
    expect(copy(src, 'Recogni_FP16', 'IEEE_FP16', EXPORT_NON_SAT, -1)).toEqual([IEEE_MAX, 0x8000 | IEEE_MAX, 0x77fe]);
  });
});

describe('csr.convert_mode through the chip (memory_map.json; sampled when the UIE accepts a trip)', () => {
  const MAP = loadGrammarJson<{ regions: Array<{ name: string; offset: number }> }>('pyxis', 'memory_map');
  const off = (n: string) => MAP.regions.find((r) => r.name === n)!.offset;
  const CFG = 0x4000_0000;
  const le64 = (v: number) => new Uint8Array(new BigUint64Array([BigInt(v)]).buffer);
  function run(mode: number | undefined): number[] {
    const b = new ImageBuilder();
    const row = new Uint8Array(256);
    row.set([0x00, 0x7c, 0x00, 0xfc], 0); // IEEE +inf, -inf
    b.data('amem', 0x10000, row);
    const loop1 = loops([{ n: 1 }]);
    for (const [o, bytes] of [
      seqWord('amem_read', 'control', 0, loop1),
      seqWord('amem_read', 'op', 0, { opcd: 'Read_SRAM', data_type: 'IEEE_FP16', tgt_fifo: 'AMEM_write', num_logical_ptns: 8 }),
      seqWord('amem_write', 'control', 0, loop1),
      seqWord('amem_write', 'op', 0, { opcd: 'Write', data_type: 'Recogni_FP16', src_fifo: 'AMEM_read', num_logical_cols: 128 }),
    ] as Array<[number, Uint8Array]>)
      b.data('cfg', CFG + o, bytes);
    if (mode !== undefined) b.data('cfg', CFG + off('csr.convert_mode'), le64(mode));
    b.list(0x00, 0x1100, [ImageBuilder.desc('desc_uie', { trip_valid_mask: 0b11, amem_read_base_address: 0x10000 >> 4, amem_write_base_address: 0x20000 >> 4, trip_id: 1 })]);
    const { report, chip } = simulateImage(b.build(), 'cm.pimg', { uies: 1, uieFactory: defaultUieFactory });
    expect(report.stop).toBe('done');
    const out = chip.amem[0]!.readBytes(0x20000, 4);
    return [out[0]! | (out[1]! << 8), out[2]! | (out[3]! << 8)];
  }
  it('reset 0 is saturating; import_non_saturating gives NaN', () => {
    expect(run(undefined)).toEqual([RFP16_MAX, RFP16_NMAX]);
    expect(run(IMPORT_NON_SAT)).toEqual([RFP16_NAN, RFP16_NAN]);
  });
});

describe('csr.convert_mode from a linker script (`config csr.convert_mode { ... }`, docs/linker.md config tables)', () => {
  it('IEEE +-infinity imports as RFP16 NaN when the script sets import_non_saturating; as +-max without the statement', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cm-'));
    try {
      const x = new Uint8Array(256);
      x.set([0x00, 0x7c, 0x00, 0xfc, 0x00, 0x3c]); // IEEE +inf, -inf, 1.0
      writeFileSync(join(dir, 'x.bin'), x);
      const pasm = `.program rd amem_read {\n  Read_SRAM data_type=IEEE_FP16 tgt_fifo=AMEM_write num_logical_ptns=8\n}\n.program wr amem_write {\n  Write data_type=Recogni_FP16 src_fifo=AMEM_read num_logical_cols=128\n}\n`;
      const obj = assemble([{ file: 'cm.pasm', text: pasm }], { isa: loadPyxisIsa(), listing: false }).object;
      const run = (config: string) => {
        const script = `memory amem0 { space = amem; cluster = 0; view = hashed; origin = 0; length = 64M; }
tensor x { format = IEEE_FP16; shape = [1, 128]; region = amem0; raw = "x.bin"; }
tensor y { format = RFP16; shape = [1, 128]; region = amem0; zero = true; }
${config}
queue uie0 { cluster = 0; trip t { amem_read = rd; amem_write = wr; read = x; write = y; } }`;
        const { image } = link({ script, scriptFile: join(dir, 'cm.ld'), objects: [{ file: 'cm.pobj', container: obj }] });
        const { report, chip } = simulateImage(image, 'cm.pimg', { uieFactory: defaultUieFactory });
        expect(report.stop).toBe('done');
        const y = image.symbols.find((s) => s.name === 'y')!;
        const at = image.sections[y.section]!.address + y.offset;
        const b = chip.amem[0]!.readBytes(at, 6);
        return [0, 1, 2].map((k) => b[2 * k]! | (b[2 * k + 1]! << 8));
      };
      expect(run('')).toEqual([RFP16_MAX, RFP16_NMAX, 0x3c00]);
      expect(run('config csr.convert_mode { cluster = 0; uie = 0; entry { import_non_saturating = 1; } }')).toEqual([RFP16_NAN, RFP16_NAN, 0x3c00]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
