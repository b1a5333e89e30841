import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DiagnosticError } from '@pyxis/diagnostics';
import {
  LnsI4F3, LnsI5F10, LnsI5F3, MNS13, MNS18, RFP16, RFP8,
  decompressWeight, ebAdjust, fp16ToFp8, fp16ToFp8Table, fp8ToFp16, fp8ToFp16Table, fp8ToLnsI5F3,
  lin2logFraction, linToLog, linToLogTable, lnsI4F3ToI5F3, lnsI5F3ToI5F10, log2linFraction, logToLin,
  logToLinTable, mnsAccumulate, mnsConvert, mnsToFp16,
} from '@pyxis/formats';

const ADJS = Array.from({ length: 64 }, (_, i) => i - 32);

describe('EB adjustment (chip §6.5)', () => {
  it('EB_adj outside the 6-bit signed range is a diagnostic', () => {
    expect(() => fp8ToFp16(0x10, 32)).toThrow(DiagnosticError);
    expect(() => fp8ToFp16(0x10, -33)).toThrow(DiagnosticError);
    expect(() => fp16ToFp8(0x10, 1.5)).toThrow(DiagnosticError);
    expect(fp8ToFp16(0x10, 31)).toBe(((2 + 31) > 31 ? 0x7fff : 0));
    try {
      ebAdjust('RFP16', 1, 40);
    } catch (e) {
      expect((e as DiagnosticError).diagnostics[0]!.code).toBe('FMT0002');
      expect((e as DiagnosticError).diagnostics[0]!.spec).toContain('§6.5');
    }
  });
  it('overflow -> max magnitude, underflow -> zero, zero/NaN unchanged', () => {
    expect(ebAdjust('RFP16', (30 << 10) | 5, 2)).toBe(0x7fff);
    expect(ebAdjust('RFP16', 0x8000 | (30 << 10) | 5, 2)).toBe(0xffff);
    expect(ebAdjust('RFP16', (3 << 10) | 5, -4)).toBe(0);
    expect(ebAdjust('RFP16', 0x8000 | (3 << 10), -3)).toBe(0); // would be the NaN pattern: zero
    expect(ebAdjust('RFP16', 0x8000, 5)).toBe(0x8000);
    expect(ebAdjust('LnsI5F10', (3 << 10) | 7, 4)).toBe((7 << 10) | 7);
    expect(ebAdjust('RFP8', (3 << 3) | 7, 12)).toBe(0x7f);
  });
});

describe('8b -> 16b (chip §6.2.1.4) and 16b -> 8b (chip §6.2.2.2) converters', () => {
  it('fp8ToFp16: every code x every EB_adj equals the exact value conversion', () => {
    for (const adj of ADJS) {
      const t = fp8ToFp16Table(adj);
      for (let c = 0; c < 256; c++) {
        const want = c === 0x80 ? 0x8000 : RFP16.encode(RFP8.decode(c, 0), { eb: -adj });
        if (t[c] !== want || fp8ToFp16(c, adj) !== want) expect.fail(`fp8ToFp16(${c}, ${adj})`);
      }
    }
    expect(fp8ToFp16(0x3d, -2)).toBe((5 << 10) | (5 << 7)); // M10 = {M3, 7'b0}
  });
  it('fp16ToFp8: every code x representative EB_adj equals nearest-even value rounding', () => {
    for (const adj of [-32, -17, -16, -15, -9, -1, 0, 1, 7, 15, 16, 31]) {
      const t = fp16ToFp8Table(adj);
      for (let c = 0; c < 65536; c++) {
        const want = c === 0x8000 ? 0x80 : RFP8.encode(RFP16.decode(c, 0), { eb: -adj });
        if (t[c] !== want) expect.fail(`fp16ToFp8(${c.toString(16)}, ${adj}) = ${t[c]} want ${want}`);
      }
    }
  });
  it('§6.2.2.2.2 pseudo-code cases: half-way ties to even, above half rounds up, carry, saturation', () => {
    const h = (E: number, f10: number, s = 0): number => (s << 15) | (E << 10) | f10;
    const p = (E: number, f3: number, s = 0): number => (s << 7) | (E << 3) | f3;
    expect(fp16ToFp8(h(5, 0b001_1000000))).toBe(p(5, 0b010)); // tie, F3 odd -> up
    expect(fp16ToFp8(h(5, 0b010_1000000))).toBe(p(5, 0b010)); // tie, F3 even -> stays
    expect(fp16ToFp8(h(5, 0b000_1000001))).toBe(p(5, 0b001)); // more than half
    expect(fp16ToFp8(h(5, 0b000_0111111))).toBe(p(5, 0b000)); // less than half
    expect(fp16ToFp8(h(5, 0b111_1000000))).toBe(p(6, 0b000)); // carry into exponent
    expect(fp16ToFp8(h(5, 0b111_1000000, 1))).toBe(p(6, 0b000, 1));
    expect(fp16ToFp8(h(15, 0b111_1000000))).toBe(0x7f); // exponent overflow saturates
    expect(fp16ToFp8(h(20, 0b111_1000000), -5)).toBe(0x7f);
    expect(fp16ToFp8(h(17, 0b111_1000000, 1), -2)).toBe(0xff);
    expect(fp16ToFp8(h(15, 0b111_0111111))).toBe(p(15, 7)); // max, no rounding
    expect(fp16ToFp8(h(16, 0))).toBe(0x7f);
    expect(fp16ToFp8(h(3, 0b111_1111111), -4)).toBe(0); // E4 = -1 underflows to zero
    expect(fp16ToFp8(0x8000)).toBe(0x80);
  });
  it('property: FP8 -> FP16 -> FP8 is the identity when the EB adjustments cancel', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 16 }), (c, adj) => {
        expect(fp16ToFp8(fp8ToFp16(c, adj), -adj)).toBe(c);
      }),
    );
  });
});

describe('lin <-> log mappings (chip §4.7, §4.8)', () => {
  it('golden values: piece boundaries of §4.8 map onto the §4.7 boundaries', () => {
    expect(lin2logFraction(192)).toBe(256); // 3/16 -> 1/4
    expect(lin2logFraction(424)).toBe(512); // 53/128 -> 1/2
    expect(lin2logFraction(696)).toBe(768); // 87/128 -> 3/4
    expect(log2linFraction(256)).toBe(192);
    expect(log2linFraction(512)).toBe(424);
    expect(log2linFraction(768)).toBe(696);
    expect(lin2logFraction(0)).toBe(0);
    expect(log2linFraction(0)).toBe(0);
    expect(lin2logFraction(3)).toBe(4); // 4*3/3
    expect(log2linFraction(4)).toBe(3); // 3*4/4
  });
  it('mapping fractions equal the §4.7/§4.8 formulas (double reference) rounded to 10 bits', () => {
    const d = (x: number): number =>
      x < 0.25 ? -x / 4 : x < 0.5 ? -(12 * x + 5) / 128 : x < 0.75 ? (8 * x - 15) / 128 : (9 * x - 9) / 32;
    const dp = (x: number): number =>
      x < 3 / 16 ? -x / 3 : x < 53 / 128 ? -(12 * x + 5) / 116 : x < 87 / 128 ? (8 * x - 15) / 136 : (9 * x - 9) / 41;
    for (let k = 0; k < 1024; k++) {
      const x = k / 1024;
      for (const [got, exact] of [
        [log2linFraction(k), (x + d(x)) * 1024],
        [lin2logFraction(k), (x - dp(x)) * 1024],
      ] as const) {
        expect(Math.abs(got - exact)).toBeLessThanOrEqual(0.5 + 1e-9);
        if (Math.abs((exact % 1) - 0.5) > 1e-6) expect(got).toBe(Math.round(exact));
      }
    }
  });
  it('log -> lin: maximum relative error < 1% over every LnsI5F10 code (chip §4.7 claim)', () => {
    const t = logToLinTable();
    let worst = 0;
    for (let c = 1; c < 0x7fff; c++) {
      if ((c >> 10) === 31 && (c & 0x3ff) > 1000) continue; // may saturate at the top binade
      const exact = LnsI5F10.decode(c, -15);
      const got = RFP16.decode(t[c]!, -15);
      if (got === 0) continue; // I=0 F=0 region underflow (F mapped to 0)
      worst = Math.max(worst, Math.abs(got / exact - 1));
    }
    expect(worst).toBeLessThan(0.01);
    expect(worst).toBeGreaterThan(0.001); // the approximation is real, not exact
  });
  it('lin -> log: |log2(x) - lns| small for every RFP16 code', () => {
    const t = linToLogTable();
    let worst = 0;
    for (let c = 0x400; c < 0x7c00; c++) {
      const want = Math.log2(RFP16.decode(c, 0));
      const got = Math.log2(LnsI5F10.decode(t[c]!, 0));
      worst = Math.max(worst, Math.abs(got - want));
    }
    expect(worst).toBeLessThan(0.0075);
  });
  it('lin -> log -> lin with mapping correction disabled is the identity for every FP16 and FP8 value (chip §17.1)', () => {
    for (const adj of [0, 5, -7]) {
      const l2l = linToLogTable({ mappingCorrection: false, ebAdj: adj });
      const g2l = logToLinTable({ mappingCorrection: false, ebAdj: -adj });
      for (let c = 0; c < 65536; c++) {
        const E = (c >> 10) & 31;
        if (E + adj > 31 || E + adj < 0 || (E + adj === 0 && (c & 0x3ff) === 0)) continue; // saturates/underflows in between
        if (g2l[l2l[c]!] !== c) expect.fail(`FP16 ${c.toString(16)} adj ${adj}`);
      }
    }
    for (let c = 0; c < 256; c++) {
      const lns = fp8ToLnsI5F3(c, { mappingCorrection: false, ebAdj: 4 });
      const lin = logToLin(lnsI5F3ToI5F10(lns), { mappingCorrection: false, ebAdj: -4 });
      expect(fp16ToFp8(lin, 0)).toBe(c);
    }
  });
  it('with mapping correction lin -> log -> lin is within one LSB (not an identity)', () => {
    let changed = 0;
    for (let c = 0x400; c < 0x7c00; c++) {
      const back = logToLin(linToLog(c));
      if (back !== c) changed++;
      if (Math.abs(back - c) > 1) expect.fail(`${c}: ${back}`);
    }
    expect(changed).toBeGreaterThan(0);
  });
  it('fbits_truncate_amt forces fraction LSBs to zero after the mapping', () => {
    for (let c = 0x400; c < 0x7c00; c += 7) {
      const full = linToLog(c);
      for (let t = 0; t <= 7; t++) {
        const tr = linToLog(c, { fbitsTruncateAmt: t });
        if (tr !== (full & ~((1 << t) - 1))) expect.fail(`${c} t ${t}`);
      }
    }
    expect(() => linToLog(0x400, { fbitsTruncateAmt: 8 })).toThrow(DiagnosticError);
  });
  it('FP8 -> LnsI5F3 (chip §6.2.4.4): mapped fractions rounded to 3 bits, hand-derived', () => {
    // F3 = k: f = k/8; log2(1+f) ~ f - delta'(f) -> 10 bits -> 3 bits (round to even):
    // 0, 171, 327, 468, 595, 715, 824, 924 (/1024) -> 0, 1, 3, 4, 5, 6, 6, 7 (/8)
    const want = [0, 1, 3, 4, 5, 6, 6, 7];
    for (let k = 0; k < 8; k++) {
      expect(fp8ToLnsI5F3((6 << 3) | k, { ebAdj: 3 })).toBe((9 << 3) | want[k]!);
      expect(fp8ToLnsI5F3((6 << 3) | k, { ebAdj: 3, mappingCorrection: false })).toBe((9 << 3) | k);
      expect(fp8ToLnsI5F3(0x80 | (6 << 3) | k, { ebAdj: 3 })).toBe(0x100 | (9 << 3) | want[k]!);
    }
    expect(fp8ToLnsI5F3(0x80)).toBe(0x100);
    expect(fp8ToLnsI5F3(0)).toBe(0);
  });
});

describe('LnsI4F3 -> LnsI5F3 and weight decompression', () => {
  it('lnsI4F3ToI5F3: every code x every EB_adj equals the value conversion', () => {
    for (const adj of ADJS) {
      for (let c = 0; c < 256; c++) {
        const want = c === 0x80 ? 0x100 : LnsI5F3.encode(LnsI4F3.decode(c, 0), { eb: -adj });
        if (lnsI4F3ToI5F3(c, adj) !== want) expect.fail(`${c} ${adj}`);
      }
    }
  });
  it('decompressWeight (chip §14.1): codebook (EB -15) x scale (EB user) for all pairs', () => {
    for (const eb of [-8, -20]) {
      for (let cb = 0; cb < 256; cb++) {
        if (cb === 0x80) continue;
        for (let s = 0; s < 256; s++) {
          if (s === 0x80) continue;
          const want = LnsI4F3.encode(LnsI4F3.decode(cb, -15) * LnsI4F3.decode(s, eb), { eb });
          if (decompressWeight(cb, s) !== want) expect.fail(`cb ${cb} s ${s}`);
        }
      }
    }
    expect(decompressWeight(0x78, 0x28)).toBe(0x28); // 1.0 * scale = scale
    expect(decompressWeight(0xf8, 0x28)).toBe(0xa8); // -1.0 * scale
    expect(decompressWeight(0x80, 0x28)).toBe(0x80); // NaN (not allowed for weights) propagates
  });
});

describe('MNS (chip §4.6) and MNS -> FP16 (chip §6.2.2.1)', () => {
  it('MNS13: every code decodes per §4.6 and re-encodes to itself; reserved codepoints', () => {
    const one = 2 ** 13;
    for (let c = 0; c < 2 ** 19; c++) {
      const s = c >> 18;
      const E = (c >> 13) & 31;
      const F = c & (one - 1);
      const v = MNS13.decode(c, -16);
      if (c === MNS13.nanCode) {
        expect(v).toBeNaN();
        continue;
      }
      const ref = c === 0 ? 0 : ((s ? -2 : 1) + F / one) * 2 ** (E - 16);
      if (v !== ref) expect.fail(`decode ${c}`);
      if (c !== 0 && !(s === 0 && E === 0 && F === 0) && MNS13.encode(v, { eb: -16 }) !== c) expect.fail(`roundtrip ${c}`);
    }
    expect(MNS13.decode(MNS13.maxCode, 0)).toBe((2 - 2 ** -13) * 2 ** 31);
    expect(MNS13.decode(MNS13.minCode, 0)).toBe(-(2 - 2 ** -13) * 2 ** 31);
    expect(MNS13.nanCode).toBe((1 << 18) | (31 << 13));
  });
  it('normalisation: -1.0*2^E is stored as -2.0*2^(E-1); -1.0*2^0 underflows to zero; overflow is sticky max', () => {
    expect(MNS18.encode(-1, { eb: 0 })).toBe(0);
    expect(MNS18.encode(-2, { eb: 0 })).toBe(1 << 23); // S=1 E=0 F=0 = -2.0
    expect(MNS18.encode(-4, { eb: 0 })).toBe((1 << 23) | (1 << 18));
    expect(MNS18.encode(-3, { eb: 0 })).toBe((1 << 23) | (1 << 18) | (1 << 17)); // -2 + 0.5 = -1.5 * 2^1
    expect(MNS18.encode(1, { eb: 0 })).toBe(0); // 1.0*2^0 is the zero codepoint
    expect(MNS18.encode(2 ** 40, { eb: 0 })).toBe(MNS18.maxCode);
    expect(MNS18.encode(-(2 ** 32), { eb: 0 })).toBe(MNS18.minCode); // -2.0*2^31 would be NaN
    expect(MNS18.encode(2 ** -3, { eb: 0 })).toBe(0);
  });
  it('accumulation: sticky max, sticky NaN, +max + -max = NaN', () => {
    let acc = MNS13.encode(2 ** 31 * 1.9, { eb: 0 });
    acc = mnsAccumulate(MNS13, acc, 2 ** 31, 0);
    expect(acc).toBe(MNS13.maxCode);
    expect(mnsAccumulate(MNS13, acc, -(2 ** 32), 0)).toBe(MNS13.maxCode); // sticky
    expect(mnsAccumulate(MNS13, acc, NaN, 0)).toBe(MNS13.nanCode);
    expect(mnsAccumulate(MNS13, MNS13.nanCode, 1, 0)).toBe(MNS13.nanCode);
    expect(mnsConvert(MNS13, MNS18, MNS13.maxCode)).toBe(MNS18.maxCode);
    expect(mnsConvert(MNS13, MNS18, MNS13.minCode)).toBe(MNS18.minCode);
    expect(mnsConvert(MNS13, MNS18, MNS13.nanCode)).toBe(MNS18.nanCode);
    const z = mnsAccumulate(MNS13, 0, 5, 0);
    expect(mnsAccumulate(MNS13, z, -5, 0)).toBe(0);
  });
  it('mnsToFp16: NaN, -2.0 corner case, rounding to 10 bits, EB adjust (golden)', () => {
    expect(mnsToFp16(MNS18.nanCode)).toBe(0x8000);
    expect(mnsToFp16(0)).toBe(0);
    expect(mnsToFp16((1 << 23) | (3 << 18))).toBe(0x8000 | (4 << 10)); // -2.0*2^3 -> -1.0*2^4
    expect(mnsToFp16((1 << 23) | (30 << 18))).toBe(0xfc00); // -2.0*2^30 -> -1.0*2^31
    expect(mnsToFp16((5 << 18) | ((1 << 18) - 1))).toBe(6 << 10); // 1.11..1 rounds up, carry
    expect(mnsToFp16((5 << 18) | (0b1 << 7))).toBe((5 << 10) | 0); // exactly half an LSB: tie to even (down)
    expect(mnsToFp16((5 << 18) | (0b11 << 7))).toBe((5 << 10) | 2); // 1.5 LSB: tie to even (up)
    expect(mnsToFp16(MNS18.maxCode)).toBe(0x7fff); // 1.1..1*2^31 rounds to 2^32 -> saturates
    expect(mnsToFp16(MNS18.maxCode, -4)).toBe(28 << 10);
    expect(mnsToFp16(5 << 18, -6)).toBe(0); // underflow
  });
  it('mnsToFp16 equals nearest-even value conversion: MNS13 exhaustive, MNS18 sampled', () => {
    for (const adj of [-5, 9]) {
      for (let c = 0; c < 2 ** 19; c++) {
        const want = c === MNS13.nanCode ? 0x8000 : RFP16.encode(MNS13.decode(c, 0), { eb: -adj });
        if (mnsToFp16(c, adj, MNS13) !== want) expect.fail(`MNS13 ${c} adj ${adj}`);
      }
    }
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 24 - 1 }), fc.integer({ min: -32, max: 31 }), (c, adj) => {
        const want = c === MNS18.nanCode ? 0x8000 : RFP16.encode(MNS18.decode(c, 0), { eb: -adj });
        expect(mnsToFp16(c, adj)).toBe(want);
      }),
      { numRuns: 20000 },
    );
  });
});

describe('transposition through the grid (chip §17.1): A^T x I is an identity chain', () => {
  const chain = (c: number, corr: boolean): number => {
    const EB8 = -8;
    const d = fp8ToLnsI5F3(c, { mappingCorrection: corr, ebAdj: 0 }); // LnsI5F3, EB -8
    const lin = logToLin(lnsI5F3ToI5F10(d), { mappingCorrection: corr }); // x 1.0 (identity weight)
    if (lin === 0x8000) return 0x80;
    const v = RFP16.decode(lin, EB8);
    const aa = mnsAccumulate(MNS13, 0, v, -16); // active accumulator, EB_MNS = -16
    const wba = mnsAccumulate(MNS18, 0, MNS13.decode(aa, -16), -16); // split accumulation into the WBA
    const f16 = mnsToFp16(wba, -16 - -16); // EB_FP16 = -16
    return fp16ToFp8(f16, -16 - EB8); // back to EB -8
  };
  it('every FP8 value survives with mapping correction disabled', () => {
    for (let c = 0; c < 256; c++) if (c !== 0x80) expect(chain(c, false)).toBe(c);
    expect(chain(0x80, false)).toBe(0x80);
  });
  it('with mapping correction the chain is not an identity', () => {
    let diff = 0;
    for (let c = 0; c < 256; c++) if (chain(c, true) !== c) diff++;
    expect(diff).toBeGreaterThan(0);
  });
});

describe('bad codes are diagnostics (FMT0003), never garbage', () => {
  it('scalar converters and decoders reject codes wider than their format', () => {
    const bad: (() => unknown)[] = [
      () => fp8ToFp16(256),
      () => fp16ToFp8(65536),
      () => fp16ToFp8(-1),
      () => linToLog(1.5),
      () => logToLin(70000),
      () => mnsToFp16(2 ** 24),
      () => decompressWeight(300, 1),
      () => RFP8.decode(256),
      () => MNS13.decode(2 ** 19),
      () => LnsI5F3.decode(512),
    ];
    for (const f of bad) {
      try {
        f();
        expect.fail('no throw');
      } catch (e) {
        expect(e).toBeInstanceOf(DiagnosticError);
        expect((e as DiagnosticError).diagnostics[0]!.code).toBe('FMT0003');
      }
    }
  });
});

import { llcProduct, mnsEb } from '@pyxis/formats';

describe('LLC product (log-domain multiply + log2lin) feeding MNS', () => {
  it('golden values and the EB_MNS = EB_a + EB_b + 16 convention', () => {
    expect(mnsEb(-8, -16)).toBe(-8);
    const one16 = (16 << 10) | 0; // 2^(16 + EB) with EB = -16: 1.0
    // 1.5 * 2^(3-8) in LNS with correction disabled: F = 0.5 -> 1 + 0.5
    const d = (3 << 10) | 512;
    expect(llcProduct(d, one16, false)).toBe(1.5 * 2 ** 3); // units of 2^EB_MNS, EB_MNS = -8
    expect(llcProduct(d, one16, true)).toBe((1024 + 424) / 1024 * 2 ** 3); // log2lin(0.5) = 1 + 424/1024
    expect(llcProduct(d | 0x8000, one16, false)).toBe(-12);
    expect(llcProduct(0x8000, one16)).toBeNaN();
    expect(llcProduct(0, one16)).toBe(0);
    // fraction carry: 0.75 + 0.25 = 1.0 -> integer + 1
    expect(llcProduct((3 << 10) | 768, (16 << 10) | 256, false)).toBe(2 ** 4);
  });
  it('transposition chain with llcProduct: every FP8 value survives without mapping correction', () => {
    for (let c = 0; c < 256; c++) {
      if (c === 0x80) continue;
      const d = lnsI5F3ToI5F10(fp8ToLnsI5F3(c, { mappingCorrection: false })); // EB -8
      const v = llcProduct(d, (16 << 10) | 0, false); // identity weight, EB -16 -> EB_MNS = -8
      const acc = mnsAccumulate(MNS18, 0, v, 0); // v is in units of 2^EB_MNS: codes carry EB_MNS implicitly
      const f16 = mnsToFp16(acc, 0); // FP16 EB = -8
      expect(fp16ToFp8(f16, 0)).toBe(c);
    }
  });
});
