/**
 * samples/pyxis/weights_1x1.ld: float weights (.npy) -> an uncompressed 8-bit
 * database with Beta (chip §15.2, §15.5) and a compressed superblock database
 * (§14.2, §15.4.1), linked with a map. Golden values are derived by hand from
 * the sample's weight formula (docs in the script) and Table 15-3; the text map
 * is compared with samples/pyxis/weights_1x1.expected.map.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { assemble, loadPyxisIsa } from '@pyxis/target-pyxis/asm';

const isa = loadPyxisIsa();
import { defaultUieFactory, dumpRegion, simulateImage } from '@pyxis/target-pyxis/sim';
import { LnsI4F3, LnsI5F10, decodeArray } from '@pyxis/formats';
import { writeNpy } from '@pyxis/container';
import { link, mapJson, mapText } from '@pyxis/target-pyxis/ld';
import { linkErr, vfs } from './helpers.js';
import { decompressSuperblocks, fittedEb, quantisationReport, superblockLayout } from '../../src/ld/weights/index.js';

const samples = fileURLToPath(new URL('../../../../samples/pyxis/', import.meta.url));
const O = 16, I = 64;
/** The sample's weights: w[o, i] = (-1)^(o+i) 2^-(((64o + i) mod 9) / 4) / 8. */
const weight = (o: number, i: number) => (-1) ** (o + i) * 2 ** (-((64 * o + i) % 9) / 4) / 8;

function linkSample() {
  const file = samples + 'weights_1x1.ld';
  const obj = assemble(['wdp_1x1_weights.pasm', 'weights_1x1_rd.pasm'].map((f) => ({ file: f, text: readFileSync(samples + f, 'utf8') })), { isa, listing: false }).object;
  return link({ script: readFileSync(file, 'utf8'), scriptFile: file, objects: [{ file: 'wdp_1x1_weights.pobj', container: obj }] });
}

describe('sample weights_1x1.ld (chip §14, §15)', () => {
  const { image, map, diagnostics } = linkSample();
  const section = (n: string) => image.sections.find((s) => s.name === n)!;

  it('links without warnings; both databases 128-byte aligned, the EB fitted to max |w| = 1/8', () => {
    expect(diagnostics).toEqual([]);
    // LnsI4F3 at EB 0 reaches 2^(127/8) = 2^15.875; 2^(15.875 + EB) >= 2^-3 first for EB = -18
    for (const w of map.weights) {
      expect(w.address % 128).toBe(0);
      expect(w.report['eb']).toBe(-18);
    }
  });

  it('fc8: every weight at its Table 15-3 byte, code = sign | (120 - 2k) (exact: 2^(-k/4) is on the 1/8 log grid)', () => {
    const b = section('.wdb.fc8').data!;
    expect(b.length).toBe(9 * 1024); // 8 input groups of 8 + the Beta group, 128 output channels each
    let checked = 0;
    for (let o = 0; o < 128; o++)
      for (let i = 0; i < I; i++) {
        const at = (i >> 3) * 1024 + (o % 8) * 128 + (o >> 3) * 8 + (i % 8);
        const k = (64 * o + i) % 9;
        const want = o < O ? (((o + i) & 1) << 7) | (120 - 2 * k) : 0;
        if (b[at] !== want) expect.fail(`w[${o}, ${i}] at byte ${at}: ${b[at]} != ${want}`);
        checked++;
      }
    expect(checked).toBe(128 * I);
    // Beta group (input group 8): LnsI5F10 little-endian, (o - 8)/16 = ±2^(log2|o-8| - 4) -> magnitude (14 + log2|o-8|) * 1024
    const beta = (o: number) => b[8 * 1024 + (o % 8) * 128 + (o >> 3) * 8]! | (b[8 * 1024 + (o % 8) * 128 + (o >> 3) * 8 + 1]! << 8);
    expect(beta(0)).toBe(0x8000 | (17 * 1024)); // -1/2
    expect(beta(4)).toBe(0x8000 | (16 * 1024)); // -1/4
    expect(beta(7)).toBe(0x8000 | (14 * 1024)); // -1/16
    expect(beta(8)).toBe(0); // 0
    expect(beta(9)).toBe(14 * 1024); // +1/16
    expect(beta(12)).toBe(16 * 1024); // +1/4
  });

  it('fc8 report: exact up to the float32 input; fc4 report matches an independent decompression', () => {
    const fc8 = map.weights.find((w) => w.name === 'fc8')!.report;
    expect(fc8['weights']).toBe(O * I);
    expect(fc8['maxRelError'] as number).toBeLessThan(1e-7);
    expect(fc8['snrDb'] as number).toBeGreaterThan(140);
    expect(fc8['flushedToZero']).toBe(0);

    const fc4 = map.weights.find((w) => w.name === 'fc4')!.report;
    const codes = decompressSuperblocks(section('.wdb.fc4').data!, superblockLayout('cinPerCout', 16, O, I));
    const dec = decodeArray(LnsI4F3, codes, fc4['eb'] as number);
    let maxRel = 0, sw2 = 0, se2 = 0;
    for (let o = 0; o < O; o++)
      for (let i = 0; i < I; i++) {
        const x = weight(o, i), y = dec[o * I + i]!;
        maxRel = Math.max(maxRel, Math.abs((y - x) / x));
        sw2 += x * x;
        se2 += (y - x) ** 2;
      }
    expect(fc4['maxRelError'] as number).toBeCloseTo(maxRel, 6);
    expect(fc4['snrDb'] as number).toBeCloseTo(10 * Math.log10(sw2 / se2), 4);
    expect(fc4['snrDb'] as number).toBeGreaterThan(20);
  });

  it('fc4: codebook, superblocks, then the Beta group (same bytes as fc8\'s, same EB) at the next 128-byte boundary', () => {
    const sym = (n: string) => image.symbols.find((x) => x.name === n)!;
    expect([sym('fc4.codebook').offset, sym('fc4.codebook').size]).toEqual([0, 128]);
    const sb = sym('fc4.superblocks');
    expect(sb.offset).toBe(128);
    expect([sym('fc4.beta').offset, sym('fc4.beta').size]).toEqual([Math.ceil((128 + sb.size) / 128) * 128, 1024]);
    const fc4 = section('.wdb.fc4').data!;
    expect(fc4.subarray(sym('fc4.beta').offset)).toEqual(section('.wdb.fc8').data!.subarray(8 * 1024, 9 * 1024));
    expect(map.weights.find((w) => w.name === 'fc4')!.report['beta_eb']).toBe(-18);
  });

  it('pyxis-sim runs the image: after the H2A trip, fc4_amem holds the fc4 database', () => {
    const r = simulateImage(image, 'weights_1x1.pimg', { uieFactory: defaultUieFactory });
    expect(r.report.trips_total).toBe(4); // barrier config, load_fc4, fc_8bit, fc_4bit
    const at = image.symbols.find((x) => x.name === 'fc4_amem')!;
    const addr = image.sections[at.section]!.address;
    const fc4 = section('.wdb.fc4').data!;
    expect(dumpRegion(r.chip, { space: 'amem', cluster: 0, addr, len: fc4.length, file: '-' })).toEqual(fc4);
  });

  it('H2A loads fc4 before fc_4bit (one barrier); the text map matches the golden file', () => {
    expect(map.barriers).toEqual([{ cluster: 0, id: 1, notify_count: 1, wait_count: 1, config_wait: 0, producers: ['load_fc4'], consumers: ['fc_4bit'] }]);
    const text = mapText({ ...map, script: 'samples/pyxis/weights_1x1.ld' });
    const golden = samples + 'weights_1x1.expected.map';
    if (process.env['PYXIS_UPDATE_GOLDEN']) writeFileSync(golden, text); // regenerate: PYXIS_UPDATE_GOLDEN=1 npx vitest run packages/ld/test/sample-weights.test.ts
    expect(existsSync(golden), golden).toBe(true);
    expect(text).toBe(readFileSync(golden, 'utf8'));
  });
});

describe('fittedEb and quantisationReport', () => {
  it('fittedEb: smallest EB whose largest magnitude covers max |w| (LnsI4F3 max 2^15.875, LnsI5F10 max ~2^32 at EB 0)', () => {
    expect(fittedEb('LnsI4F3', Float32Array.of(0.125))).toBe(-18); // 15.875 - 18 = -2.125 >= -3; -19 would give -3.125
    expect(fittedEb('LnsI4F3', Float32Array.of(1))).toBe(-15);
    expect(fittedEb('LnsI4F3', Float64Array.of(LnsI4F3.decode(0x7f, 0)))).toBe(0); // exactly the top: EB 0
    expect(fittedEb('LnsI4F3', Float64Array.of(LnsI4F3.decode(0x7f, 0) * (1 + 1e-12)))).toBe(1);
    expect(fittedEb('LnsI4F3', Float32Array.of(0.1), Float32Array.of(-3))).toBe(-14); // Beta counts too: 2^(15.875-14) >= 3
    expect(fittedEb('LnsI4F3', new Float32Array(4))).toBe(0);
    expect(fittedEb('LnsI4F3', Float64Array.of(1e-300))).toBe(-63);
    const top16 = Math.max(...Array.from(decodeArray(LnsI5F10, Uint16Array.from({ length: 0x8000 }, (_, c) => c), 0)));
    expect(fittedEb('LnsI5F10', Float64Array.of(top16))).toBe(0);
    expect(fittedEb('LnsI5F10', Float64Array.of(top16 * 1.001))).toBe(1);
  });

  it('quantisationReport: exact codes give 0 / Infinity; one weight between codes, one flushed, one saturated', () => {
    const exact = Float64Array.of(0.125, -0.0625, 0); // 2^-3, -2^-4: magnitudes (15, 14) * 8 at EB -18
    const codesExact = Uint8Array.of(0x78, 0x80 | 0x70, 0);
    expect(LnsI4F3.decode(0x80 | 0x70, -18)).toBe(-0.0625);
    expect(quantisationReport(exact, codesExact, LnsI4F3, -18)).toEqual({ weights: 3, zeroWeights: 1, maxRelError: 0, rmsRelError: 0, snrDb: Infinity, flushedToZero: 0, saturated: 0 });
    // 0.1 stored as code 0x78 (0.125): rel 0.25; 1e-9 stored as 0: rel 1, flushed; 1e6 stored at the max (2^-2.125): saturated
    const top = LnsI4F3.decode(0x7f, -18);
    const w = Float64Array.of(0.1, 1e-9, 1e6);
    const r = quantisationReport(w, Uint8Array.of(0x78, 0, 0x7f), LnsI4F3, -18);
    const rel = [0.25, 1, (1e6 - top) / 1e6];
    expect(r.maxRelError).toBeCloseTo(1, 12);
    expect(r.rmsRelError).toBeCloseTo(Math.sqrt((rel[0]! ** 2 + rel[1]! ** 2 + rel[2]! ** 2) / 3), 12);
    expect(r.snrDb).toBeCloseTo(10 * Math.log10((0.01 + 1e-18 + 1e12) / (0.025 ** 2 + 1e-18 + (1e6 - top) ** 2)), 9);
    expect(r.flushedToZero).toBe(1);
    expect(r.saturated).toBe(1);
  });
});

describe('saturation counts only weights that saturation changed (LD0706)', () => {
  // LnsI4F3 at EB -18: the largest code 0x7f is 2^(15 + 7/8 - 18); the next code would be 2^(1/8) above it, so a
  // weight rounds to the maximum anyway (nearest in the log domain) up to the log midpoint top * 2^(1/16).
  const top = LnsI4F3.decode(0x7f, -18);
  const enc = (w: Float64Array) => Uint8Array.from(w, (x) => LnsI4F3.encode(x, { eb: -18 }));
  it('a weight just above the maximum that rounds to it anyway is not saturated; one past the midpoint is', () => {
    const w = Float64Array.of(top, top * (1 + 1e-9), Math.fround(top), -top * 2 ** (1 / 16) * 0.999, top * 2 ** (1 / 16) * 1.001, -1e6);
    expect(Array.from(enc(w))).toEqual([0x7f, 0x7f, 0x7f, 0xff, 0x7f, 0xff]);
    expect(quantisationReport(w, enc(w), LnsI4F3, -18).saturated).toBe(2);
  });
  it('exact LNS values below the maximum (the 1x1 linear8 database) link without LD0706 at any EB', () => {
    // float32 weights 2^(e + f/8), the largest 2^(1 + 7/8): not a power of two, so its float32 is not its float64 value.
    const vals = Float32Array.from({ length: 8 * 16 }, (_, k) => (k % 2 ? -1 : 1) * 2 ** (((k * 7) % 40) / 8 - 3));
    vals[5] = 2 ** (1 + 7 / 8);
    const files = vfs({ 'w.npy': writeNpy({ dtype: 'float32', shape: [8, 16], data: vals }) });
    for (const eb of ['', 'eb = -14; '])
      expect(link({ script: `weights w { kind = linear8; data = "w.npy"; ${eb}}\n`, scriptFile: 's.ld', readFile: files }).diagnostics.map((d) => d.code)).toEqual([]);
  });
});

describe('EB warnings and region diagnostics name the spec', () => {
  const npy = (data: Float32Array, shape: number[]) => writeNpy({ dtype: 'float32', shape, data });
  const files = vfs({ 'w.npy': npy(Float32Array.from({ length: 8 * 16 }, (_, k) => ((k % 5) - 2) / 8), [8, 16]) });

  it('LD0707 at `eb` when a fixed EB flushes the weights to zero; LD0706 when it saturates them', () => {
    const flush = link({ script: 'weights w { kind = linear8; data = "w.npy"; eb = 0; }\n', scriptFile: 's.ld', readFile: files });
    expect(flush.diagnostics).toHaveLength(1);
    expect(flush.diagnostics[0]).toMatchObject({ code: 'LD0707', severity: 'warning', span: { file: 's.ld', line: 1, column: 50 }, spec: 'pyxis-chip-fspec.md §4' });
    expect(flush.map.weights[0]!.report['flushedToZero']).toBe(102); // every non-zero weight: 128 minus the 26 with k % 5 == 2
    const sat = link({ script: 'weights w { kind = linear16; data = "w.npy"; eb = -40; }\n', scriptFile: 's.ld', readFile: files });
    expect(sat.diagnostics.map((d) => [d.code, d.spec])).toEqual([['LD0706', 'pyxis-chip-fspec.md §4, §14.1']]);
    const fitted = link({ script: 'weights w { kind = linear16; data = "w.npy"; }\n', scriptFile: 's.ld', readFile: files });
    expect(fitted.diagnostics).toEqual([]);
    expect(fitted.map.weights[0]!.report['saturated']).toBe(0);
  });

  it('LD0117: `eb` on an OCP FP8 / IEEE FP16 tensor does not scale its values (standard bias, chip §4.9-4.10)', () => {
    const f = vfs({ 'x.npy': npy(Float32Array.of(1, 2, 0.5, -1), [1, 4]) });
    const r = link({ script: 'tensor x { format = OCP_E4M3; shape = [1, 4]; data = "x.npy"; eb = -3; }\ntensor y { format = IEEE_FP16; shape = [1, 4]; data = "x.npy"; }\n', scriptFile: 's.ld', readFile: f });
    expect(r.diagnostics.map((d) => [d.code, d.spec])).toEqual([['LD0117', 'pyxis-chip-fspec.md §4.9, §4.10']]);
    // an exact database: SNR = Infinity, kept as "Infinity" in the JSON map (not null)
    const exact = link({ script: 'weights w { kind = linear16; data = "x.npy"; }\n', scriptFile: 's.ld', readFile: vfs({ 'x.npy': npy(Float32Array.of(1, 2, 0.5, -1), [2, 2]) }) });
    expect(exact.map.weights[0]!.report['snrDb']).toBe(Infinity);
    expect(JSON.parse(mapJson(exact.map)).weights[0].report.snrDb).toBe('Infinity');
    // E4M3 1.0 = 0x38 whatever the eb (bias 7, chip §4.10)
    expect(r.image.sections.find((x) => x.name === '.tensor.x')!.data[0]).toBe(0x38);
  });

  it('overflow and overlap (LD0305, LD0306) carry the AMEM / HBM spec sections', () => {
    const d1 = linkErr({ script: 'memory m { space = hbm; origin = 0; length = 1K; }\ntensor t { format = RFP8; shape = [16, 128]; region = m; }\n', scriptFile: 's.ld' });
    expect(d1.map((d) => [d.code, d.spec])).toEqual([['LD0306', 'pyxis-chip-fspec.md §8.2']]);
    const d2 = linkErr({ script: 'memory m { origin = 0; length = 1M; }\nweights w { kind = linear8; data = "w.npy"; region = m; address = 0; }\ntensor t { format = RFP8; shape = [1, 128]; region = m; address = 0; }\n', scriptFile: 's.ld', readFile: files });
    expect(d2.map((d) => [d.code, d.spec])).toEqual([['LD0305', 'pyxis-chip-fspec.md §7, §7.1']]);
  });
});
