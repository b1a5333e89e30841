import { describe, expect, it } from 'vitest';
import { FP16BP8, FP32BP16, Int16, RFP16, convertArray, decodeArray, encodeArray, exportFromRfp16, importToRfp16, linToLog, logToLin, fp8ToLnsI5F3 } from '@pyxis/formats';

// Every option is honoured or refused (FMT0004), never silently ignored.
const code = (f: () => unknown): string | undefined => {
  try {
    f();
  } catch (e) {
    return (e as { diagnostics?: Array<{ code: string }> }).diagnostics?.[0]?.code ?? "not a diagnostic";
  }
  return undefined;
};

describe('fixed-point rounding: the Tensil types round half up by default and honour rounding: rne', () => {
  // x * 2^8 = 2.5 / -3.5: half up gives 3 / -3, ties to even 2 / -4 (two's complement codes).
  const tie = 2.5 / 256;
  const ntie = -3.5 / 256;
  it('scalar encode', () => {
    expect([FP16BP8.encode(tie), FP16BP8.encode(ntie)]).toEqual([3, 0x10000 - 3]);
    expect([FP16BP8.encode(tie, { rounding: 'rne' }), FP16BP8.encode(ntie, { rounding: 'rne' })]).toEqual([2, 0x10000 - 4]);
    expect(FP16BP8.encode(tie, { rounding: 'rtz' })).toBe(2);
    expect(FP32BP16.encode(2.5 / 65536, { rounding: 'rne' })).toBe(2);
    expect(FP16BP8.encode(tie, { rounding: 'rne', saturate: false })).toBe(2); // the wrapping path too
    expect(Int16.encode(2.5)).toBe(2); // Int16 rounds to even natively
  });
  it('arrays and conversions agree with the scalar', () => {
    expect(Array.from(encodeArray('FP16BP8', Float64Array.of(tie, ntie), { rounding: 'rne' }))).toEqual([2, 0x10000 - 4]);
    expect(Array.from(encodeArray('FP16BP8', Float64Array.of(tie, ntie)))).toEqual([3, 0x10000 - 3]);
    const f32 = new Uint32Array(new Float32Array([tie, ntie]).buffer);
    expect(Array.from(convertArray('FP32', 'FP16BP8', f32))).toEqual([3, 0x10000 - 3]);
    expect(Array.from(convertArray('FP32', 'FP16BP8', f32, { rounding: 'rne' }))).toEqual([2, 0x10000 - 4]);
  });
});

describe('an exponent bias on a format without one is refused', () => {
  it('encode / encodeArray / decodeArray / convertArray', () => {
    expect(code(() => FP16BP8.encode(1, { eb: 3 }))).toBe('FMT0004');
    expect(FP16BP8.encode(1, { eb: 0 })).toBe(256);
    expect(code(() => encodeArray('FP16BP8', [1], { eb: -2 }))).toBe('FMT0004');
    expect(code(() => decodeArray('FP16BP8', Uint16Array.of(256), { eb: 1 }))).toBe('FMT0004');
    expect(code(() => convertArray('FP16BP8', 'RFP16', Uint16Array.of(256), { fromEb: 1 }))).toBe('FMT0004');
    expect(code(() => RFP16.encode(1.5, { eb: 3 }))).toBeUndefined(); // a format with a bias takes it
  });
});

describe('the hardware converters check their options objects', () => {
  it('misspelt keys and wrong types', () => {
    expect(code(() => linToLog(0x3c00, { ebadj: 1 } as never))).toBe('FMT0004');
    expect(code(() => logToLin(0x3c00, { mappingCorrection: 'no' } as never))).toBe('FMT0004');
    expect(code(() => fp8ToLnsI5F3(0x38, { fbitsTruncateAmt: 1 } as never))).toBe('FMT0004');
    expect(code(() => importToRfp16('IEEE_FP16', 0x3c00, { saturated: true } as never))).toBe('FMT0004');
    expect(code(() => exportFromRfp16('OCP_E4M3', 0x3c00, { maxToInf: true }))).toBe('FMT0004'); // IEEE FP16 only
    expect(code(() => exportFromRfp16('IEEE_FP16', 0x3c00, { saturate: true }))).toBe('FMT0004'); // FP16 always overflows to infinity
    expect(exportFromRfp16('IEEE_FP16', 0x3c00, { saturate: false })).toBe(exportFromRfp16('IEEE_FP16', 0x3c00));
    expect(linToLog(0x3c00, { ebAdj: 0, mappingCorrection: true, fbitsTruncateAmt: 0 })).toBe(linToLog(0x3c00));
  });
});
