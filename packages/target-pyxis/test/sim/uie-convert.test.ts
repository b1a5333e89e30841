import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Rig, loops } from './uie-fixture.js';
import { convertFrom16, convertTo16, reluCode, addCodes, DT_RFP8, DT_RFP16, DT_OCP_E4M3, DT_OCP_E5M2, DT_IEEE_FP16 } from '../../src/sim/uie/index.js';

const rfp16 = (e: number, f: number, s = 0) => (s << 15) | (e << 10) | f;

describe('16b->8b FP8 rounding (chip §6.2.2.2.2)', () => {
  it('golden cases from the rounding rule (RFP16 E=7 -> RFP8 E=7 with eb_adj 0)', () => {
    expect(convertFrom16(rfp16(7, 0b0001000000), DT_RFP8, 0)).toBe(0x38); // exactly half, F3 even: stays
    expect(convertFrom16(rfp16(7, 0b0011000000), DT_RFP8, 0)).toBe(0x3a); // exactly half, F3 odd: round to even
    expect(convertFrom16(rfp16(7, 0b0001000001), DT_RFP8, 0)).toBe(0x39); // more than half
    expect(convertFrom16(rfp16(7, 0b0000111111), DT_RFP8, 0)).toBe(0x38); // less than half
    expect(convertFrom16(rfp16(7, 0x3ff), DT_RFP8, 0)).toBe(0x40); // carry out into E
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
    expect(convertFrom16(rfp16(10, 0x200), DT_OCP_E4M3, -11)).toBe(0x03); // 1.5 * 2^-8 = 3 * 2^-9
  });
  it('export below the minimum subnormal is +/- zero (chip §4.9.2, §4.10.2 "smaller than the minimum subnormal")', () => {
    // 1.5 * 2^(10-13-7) = 0.75 * 2^-9 (E4M3 minimum subnormal 2^-9) -> zero, sign kept
    expect(convertFrom16(rfp16(10, 0x200), DT_OCP_E4M3, -13)).toBe(0x00);
    expect(convertFrom16(rfp16(10, 0x200, 1), DT_OCP_E4M3, -13)).toBe(0x80);
    // IEEE: 1.5 * 2^(10-20-15) = 0.75 * 2^-24 -> +0
    expect(convertFrom16(rfp16(10, 0x200), DT_IEEE_FP16, -20)).toBe(0x0000);
  });
  it('RFP16 NaN exports as the canonical +NaN of the target (chip §4.9.2, §4.10.2)', () => {
    expect(convertFrom16(0x8000, DT_IEEE_FP16, 0)).toBe(0x7e00);
    expect(convertFrom16(0x8000, DT_OCP_E4M3, 0)).toBe(0x7f);
    expect(convertFrom16(0x8000, DT_OCP_E5M2, 0)).toBe(0x7e);
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

// ---------------------------------------------------------------------------------------------
// The datapath's conversions observed through copy trips (AMEM -> AMEM Read -> switchbox -> AMEM
// Write -> AMEM), against a value-level reference written here from chip §4.1/§4.2 (Pyxis: no
// subnormals, saturating max, flush to zero), §4.9-§4.10 (IEEE / OFP8 import and export) and
// §6.5 (E_out = E_in + eb_adj): decode to a real value, scale by 2^adj, round on the target grid.
// ---------------------------------------------------------------------------------------------

/** Round x > 0 to `mbits` fraction bits, ties to even; exponents below `emin` use the emin grid (subnormals). */
function roundGrid(x: number, mbits: number, emin: number): number {
  let e = Math.floor(Math.log2(x));
  if (2 ** e > x) e--;
  if (2 ** (e + 1) <= x) e++;
  if (e < emin) e = emin;
  const q = x / 2 ** (e - mbits);
  const f = Math.floor(q);
  const r = q - f > 0.5 || (q - f === 0.5 && f % 2 === 1) ? f + 1 : f;
  return r * 2 ** (e - mbits);
}
function floorLog2(x: number): number {
  let e = Math.floor(Math.log2(x));
  if (2 ** e > x) e--;
  if (2 ** (e + 1) <= x) e++;
  return e;
}
/** Nominal value (EB = 0) -> Pyxis code (ebits, fbits): RNE on the 1.F grid, E > emax -> +-max, E < 0 -> 0, E=0/F=0 -> 0. */
function refPyxis(x: number, ebits: number, fbits: number): number {
  const sBit = 1 << (ebits + fbits);
  if (Number.isNaN(x)) return sBit;
  if (x === 0) return 0;
  const s = x < 0 ? sBit : 0;
  const r = roundGrid(Math.abs(x), fbits, -Infinity);
  const e = floorLog2(r);
  if (e > (1 << ebits) - 1) return s | (sBit - 1);
  if (e < 0) return 0;
  const F = (r / 2 ** e - 1) * (1 << fbits);
  return e === 0 && F === 0 ? 0 : s | (e << fbits) | F;
}
function pyxisValue(code: number, ebits: number, fbits: number): number {
  const sBit = 1 << (ebits + fbits);
  const mag = code & (sBit - 1);
  if (mag === 0) return code ? NaN : 0;
  const v = (1 + (mag & ((1 << fbits) - 1)) / (1 << fbits)) * 2 ** (mag >> fbits);
  return code & sBit ? -v : v;
}
/** IEEE-style (bias, mbits) value of a code; `fn`: E4M3 (no infinities, only S.1111.111 is NaN). */
function ieeeValue(code: number, ebits: number, mbits: number, fn = false): number {
  const bias = (1 << (ebits - 1)) - 1;
  const sBit = 1 << (ebits + mbits);
  const E = (code >> mbits) & ((1 << ebits) - 1);
  const M = code & ((1 << mbits) - 1);
  let v: number;
  if (fn && E === (1 << ebits) - 1 && M === (1 << mbits) - 1) return NaN;
  if (!fn && E === (1 << ebits) - 1) v = M ? NaN : Infinity;
  else if (E === 0) v = M * 2 ** (1 - bias - mbits);
  else v = (1 + M / (1 << mbits)) * 2 ** (E - bias);
  return code & sBit ? -v : v;
}
/** Real value -> IEEE-style code, saturating to `maxCode` (IEEE FP16: infinity), subnormals, below min subnormal -> +-0. */
function refIeee(x: number, ebits: number, mbits: number, maxCode: number, nanCode: number, overflowCode: number): number {
  if (Number.isNaN(x)) return nanCode;
  if (x === 0) return 0;
  const bias = (1 << (ebits - 1)) - 1;
  const s = x < 0 ? 1 << (ebits + mbits) : 0;
  const a = Math.abs(x);
  if (a < 2 ** (1 - bias - mbits)) return s;
  const r = roundGrid(a, mbits, 1 - bias);
  if (r > ieeeValue(maxCode, ebits, mbits)) return s | overflowCode;
  const e = floorLog2(r);
  if (e < 1 - bias) return s | (r / 2 ** (1 - bias - mbits));
  return s | ((e + bias) << mbits) | ((r / 2 ** e - 1) * (1 << mbits));
}

function copyTrip(src: Uint8Array, rdType: string, rdAdj: number, wrType: string, wrAdj: number): Uint8Array {
  const r = new Rig();
  const wide = src.length === 256;
  r.amem.writeBytes(0, src);
  r.prog('amem_read', 0, loops([{ n: 1 }]), { opcd: 'Read_SRAM', data_type: rdType, tgt_fifo: 'AMEM_write', num_logical_ptns: 8, eb_adj: rdAdj });
  r.prog('amem_write', 0, loops([{ n: 1 }]), { opcd: 'Write', data_type: wrType, src_fifo: 'AMEM_read', num_logical_cols: 128, eb_adj: wrAdj });
  r.trip({ amem_write_base_address: 0x4000 >> 4 });
  r.run();
  return r.amem.readBytes(0x4000, wide ? 256 : 128);
}

describe('conversions through a copy trip vs a value-level reference (chip §4, §6.5 Table 6-4)', () => {
  const adj = fc.integer({ min: -32, max: 31 });
  it('OCP E4M3 import (eb_adj a) -> RFP8 write (eb_adj b)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 128, maxLength: 128 }), adj, adj, (src, a, b) => {
        const out = copyTrip(src, 'OCP_FP8_E4M3', a, 'Recogni_FP8', b);
        for (let c = 0; c < 128; c++) {
          // E5 = E_ocp_biased + a: RFP16 nominal value = value * 2^(7+a); then E4 = E5 + b
          const v16 = refPyxis(ieeeValue(src[c]!, 4, 3, true) * 2 ** (7 + a), 5, 10);
          expect(out[c]).toBe(refPyxis(pyxisValue(v16, 5, 10) * 2 ** b, 4, 3));
        }
      }),
      { numRuns: 25 },
    );
  });
  it('RFP8 read (eb_adj a) -> OCP E5M2 export (eb_adj b), saturating', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 128, maxLength: 128 }), adj, adj, (src, a, b) => {
        const out = copyTrip(src, 'Recogni_FP8', a, 'OCP_FP8_E5M2', b);
        for (let c = 0; c < 128; c++) {
          const v16 = refPyxis(pyxisValue(src[c]!, 4, 3) * 2 ** a, 5, 10);
          // E_ocp_biased = E5 + b: value = 1.M * 2^(E5 + b - 15)
          expect(out[c]).toBe(refIeee(pyxisValue(v16, 5, 10) * 2 ** (b - 15), 5, 2, 0x7b, 0x7e, 0x7b));
        }
      }),
      { numRuns: 25 },
    );
  });
  it('RFP16 read (eb_adj a) -> IEEE FP16 export (eb_adj b): subnormals, overflow to infinity', () => {
    fc.assert(
      fc.property(fc.uint16Array({ minLength: 128, maxLength: 128 }), adj, adj, (codes, a, b) => {
        const src = new Uint8Array(codes.buffer.slice(0));
        const out = copyTrip(src, 'Recogni_FP16', a, 'IEEE_FP16', b);
        for (let c = 0; c < 128; c++) {
          const v16 = refPyxis(pyxisValue(codes[c]!, 5, 10) * 2 ** a, 5, 10);
          const want = refIeee(pyxisValue(v16, 5, 10) * 2 ** (b - 15), 5, 10, 0x7bff, 0x7e00, 0x7c00);
          expect(out[2 * c]! | (out[2 * c + 1]! << 8)).toBe(want);
        }
      }),
      { numRuns: 20 },
    );
  });
});
