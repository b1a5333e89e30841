import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { convertFrom16, convertTo16, roundF10toF3, reluCode, addCodes, DT_RFP8, DT_RFP16, DT_OCP_E4M3, DT_OCP_E5M2, DT_IEEE_FP16 } from '../src/targets/pyxis/uie/index.js';

const rfp16 = (e: number, f: number, s = 0) => (s << 15) | (e << 10) | f;

describe('16b->8b FP8 rounding (chip §6.2.2.2.2)', () => {
  it('golden cases from the rounding rule', () => {
    expect(roundF10toF3(0b0001000000)).toBe(0); // exactly half, F3 even: stays
    expect(roundF10toF3(0b0011000000)).toBe(2); // exactly half, F3 odd: round to even
    expect(roundF10toF3(0b0001000001)).toBe(1); // more than half
    expect(roundF10toF3(0b0000111111)).toBe(0); // less than half
    expect(roundF10toF3(0x3ff)).toBe(8); // carry out
  });
  it('carry into the exponent and saturation to max (chip §6.2.2.2.2, §6.5)', () => {
    expect(convertFrom16(rfp16(7, 0x3ff), DT_RFP8, 0)).toBe(0x40);
    expect(convertFrom16(rfp16(15, 0x3ff), DT_RFP8, 0)).toBe(0x7f);
    expect(convertFrom16(rfp16(15, 0x3ff, 1), DT_RFP8, 0)).toBe(0xff);
    expect(convertFrom16(rfp16(20, 0), DT_RFP8, 0)).toBe(0x7f); // exponent overflow
    expect(convertFrom16(rfp16(3, 5), DT_RFP8, -4)).toBe(0); // exponent underflow
    expect(convertFrom16(0x8000, DT_RFP8, 0)).toBe(0x80); // NaN
  });
  it('FP8 -> FP16 -> FP8 is the identity for adjustments that stay in range (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 255 }), fc.integer({ min: -8, max: 16 }), (code, adj) => {
        const e = (code >> 3) & 15;
        fc.pre(e + adj >= 0 && e + adj <= 31 && !(e + adj === 0 && (code & 7) === 0 && code !== 0 && code !== 0x80));
        expect(convertFrom16(convertTo16(code, DT_RFP8, adj), DT_RFP8, -adj)).toBe(code);
      }),
    );
  });
});

describe('IEEE / OCP import and export (chip §4.9, §4.10)', () => {
  it('IEEE FP16 1.0 imports with EB_adj 0 to RFP16 E=15 (EB -15) and exports back', () => {
    expect(convertTo16(0x3c00, DT_IEEE_FP16, 0)).toBe(0x3c00);
    expect(convertFrom16(0x3c00, DT_IEEE_FP16, 0)).toBe(0x3c00);
    expect(convertTo16(0x7c00, DT_IEEE_FP16, 0)).toBe(0x7fff); // +inf -> max (saturating)
    expect(convertTo16(0x7e00, DT_IEEE_FP16, 0)).toBe(0x8000); // NaN
    expect(convertTo16(0x8000, DT_IEEE_FP16, 0)).toBe(0); // -0 -> zero
  });
  it('export to IEEE subnormals: 2^-19 -> 0x0020; overflow -> infinity', () => {
    expect(convertFrom16(0x3c00, DT_IEEE_FP16, -19)).toBe(0x0020);
    expect(convertFrom16(rfp16(31, 0x3ff), DT_IEEE_FP16, 5)).toBe(0x7c00);
  });
  it('IEEE subnormal import normalises (2^-24 with EB_adj +20 -> E5 = -23+... )', () => {
    // 0x0001 = 2^-24 = 1.0 * 2^(1-15-10): normalised biased exponent = 1 - 10 = -9; +20 -> 11
    expect(convertTo16(0x0001, DT_IEEE_FP16, 20)).toBe(rfp16(11, 0));
  });
  it('OCP E5M2 infinity saturates on import; E4M3 export saturates at 448 (0x7E)', () => {
    expect(convertTo16(0x7c, DT_OCP_E5M2, 0)).toBe(0x7fff);
    expect(convertFrom16(rfp16(31, 0), DT_OCP_E4M3, 0)).toBe(0x7e);
    expect(convertFrom16(rfp16(31, 0, 1), DT_OCP_E5M2, 0)).toBe(0xfb);
  });
  it('OCP E4M3 subnormal export: 2^-8 -> 0x02 (2 x 2^-9)', () => {
    // RFP16 E5=7 with adj 0 -> OCP biased exponent 7-... use adj so that e = -1: value = 2^(e-7) = 2^-8
    expect(convertFrom16(rfp16(10, 0), DT_OCP_E4M3, -11)).toBe(0x02);
  });
});

describe('ReLU and InMemAdd', () => {
  it('ReLU keeps NaN and zeroes negatives (seq §5.1.1)', () => {
    expect(reluCode(0x80, DT_RFP8)).toBe(0x80);
    expect(reluCode(0xb8, DT_RFP8)).toBe(0);
    expect(reluCode(0x38, DT_RFP8)).toBe(0x38);
    expect(reluCode(0xbc00, DT_RFP16)).toBe(0);
  });
  it('adds with saturation, NaN stickiness and max + -max = NaN (chip §4)', () => {
    expect(addCodes(0x38, 0x40, DT_RFP8)).toBe(0x44); // 1 + 2 = 3
    expect(addCodes(0x38, 0xb8, DT_RFP8)).toBe(0); // 1 - 1 = 0
    expect(addCodes(0x7f, 0x7f, DT_RFP8)).toBe(0x7f); // saturate
    expect(addCodes(0x7f, 0xff, DT_RFP8)).toBe(0x80); // max + -max = NaN
    expect(addCodes(0x80, 0x38, DT_RFP8)).toBe(0x80); // NaN sticky
    expect(addCodes(rfp16(15, 0), rfp16(15, 0), DT_RFP16)).toBe(rfp16(16, 0));
  });
});
