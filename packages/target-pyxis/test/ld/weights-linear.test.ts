import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DiagnosticError } from '@pyxis/diagnostics';
import { pack1x1I4F3Database, pack1x1I5F10Database, linear1x1Offset, unpack1x1Database, pack1x1BetaGroup } from '../../src/ld/weights/index.js';

describe('1x1 8-bit LnsI4F3 database (chip §15.2, table 15-3)', () => {
  const O = 256, I = 20;
  const code = (o: number, i: number) => ((o * 7 + i * 13) % 254) + 1;
  const codes = new Uint8Array(O * I);
  for (let o = 0; o < O; o++) for (let i = 0; i < I; i++) codes[o * I + i] = code(o, i);
  const { bytes, layout } = pack1x1I4F3Database(codes, [O, I]);

  /** bytes [a, a+128) hold 16 output channels x 8 input channels; `couts` as listed in the table row */
  function row(a: number, couts: number[], ins: number[]): void {
    const want: number[] = [];
    for (const o of couts) for (const i of ins) want.push(i < I ? code(o, i) : 0);
    expect(Array.from(bytes.subarray(a, a + 128)), `bytes ${a}-${a + 127}`).toEqual(want);
  }
  const seq = (a: number, step: number, n: number) => Array.from({ length: n }, (_, k) => a + k * step);

  it('rows of table 15-3', () => {
    row(0, seq(0, 8, 16), seq(0, 1, 8)); // inputs 0-7, Cout 0,8,..,120: bytes 0-127
    row(128, seq(1, 8, 16), seq(0, 1, 8)); // 1,9,..,121: 128-255
    row(256, seq(2, 8, 16), seq(0, 1, 8)); // 2,10,..,122: 256-383
    row(896, seq(7, 8, 16), seq(0, 1, 8)); // 7,15,..,127: 896-1023
    row(1024, seq(0, 8, 16), seq(8, 1, 8)); // inputs 8-15: 1024-1151
    row(1152, seq(1, 8, 16), seq(8, 1, 8));
    row(1280, seq(2, 8, 16), seq(8, 1, 8));
    row(1920, seq(7, 8, 16), seq(8, 1, 8)); // 1920-2047
    row(2048, seq(0, 8, 16), seq(16, 1, 8)); // inputs 16-23 (20..23 zero padding): 2048-3071
    row(2048 + 896, seq(7, 8, 16), seq(16, 1, 8));
    // second set of 128 output channels repeats the pattern after all input groups of the first set
    row(3072, seq(128, 8, 16), seq(0, 1, 8));
    row(3072 + 2048 + 896, seq(135, 8, 16), seq(16, 1, 8));
    expect(bytes.length).toBe(2 * 3 * 1024);
    expect(layout.groups).toBe(3);
    expect(layout.paddedInputChannels).toBe(24);
    expect(layout.alignment).toBe(16);
  });

  it('pads output channels to 128 with zeros; Beta is a trailing LnsI5F10 group', () => {
    const o = 5, i = 3;
    const w = Uint8Array.from({ length: o * i }, (_, k) => k + 1);
    const beta = Uint16Array.from([0x1234, 0x2345, 0x3456, 0x4567, 0xabcd]);
    const { bytes: b, layout: L } = pack1x1I4F3Database(w, [o, i], { beta });
    expect(L.groups).toBe(2);
    expect(L.betaGroup).toBe(1);
    expect(L.alignment).toBe(32); // the 16-bit Beta group needs an even partition (seq §1.1 rule 1)
    expect(L.paddedInputChannels).toBe(12); // 8 (8-bit) + 4 (16-bit group, seq §1.2 rule 2)
    expect(b.length).toBe(2048);
    // Cout 4: group 0 at (4 % 8) * 128 + 0, group 1 (Beta) at 1024 + 512
    expect(Array.from(b.subarray(512, 520))).toEqual([13, 14, 15, 0, 0, 0, 0, 0]);
    expect(Array.from(b.subarray(1024 + 512, 1024 + 520))).toEqual([0xcd, 0xab, 0, 0, 0, 0, 0, 0]);
    let nz = 0;
    for (const x of b) if (x) nz++;
    expect(nz).toBe(15 + 10);
    // the standalone Beta group (for compressed layers) is the same 1 KiB
    expect(pack1x1BetaGroup(beta).bytes).toEqual(b.subarray(1024, 2048));
  });
});

describe('1x1 16-bit LnsI5F10 database (chip §15.3, table 15-4)', () => {
  it('rows of table 15-4 (4 input channels per 8 bytes, little-endian)', () => {
    const O = 128, I = 6;
    const code = (o: number, i: number) => 0x100 * (o + 1) + i * 17 + 1;
    const codes = new Uint16Array(O * I);
    for (let o = 0; o < O; o++) for (let i = 0; i < I; i++) codes[o * I + i] = code(o, i);
    const { bytes, layout } = pack1x1I5F10Database(codes, [O, I]);
    expect(layout.groups).toBe(2);
    expect(bytes.length).toBe(2048);
    const row = (a: number, couts: number[], ins: number[]) => {
      const want: number[] = [];
      for (const o of couts) for (const i of ins) { const v = i < I ? code(o, i) & 0xffff : 0; want.push(v & 0xff, v >>> 8); }
      expect(Array.from(bytes.subarray(a, a + 128))).toEqual(want);
    };
    const seq = (a: number, n: number) => Array.from({ length: n }, (_, k) => a + k * 8);
    row(0, seq(0, 16), [0, 1, 2, 3]); // inputs 0-3, Cout 0,8,..,120
    row(128, seq(1, 16), [0, 1, 2, 3]);
    row(896, seq(7, 16), [0, 1, 2, 3]);
    row(1024, seq(0, 16), [4, 5, 6, 7]); // inputs 4-7: 1024-1151 (6, 7 padding)
    row(1920, seq(7, 16), [4, 5, 6, 7]);
  });

  it('Beta is input channel I', () => {
    const codes = new Uint16Array(2 * 4).fill(0x0101);
    const { bytes, layout } = pack1x1I5F10Database(codes, [2, 4], { beta: Uint16Array.from([0xbeef, 0xcafe]) });
    expect(layout.groups).toBe(2);
    expect(layout.betaGroup).toBe(1);
    expect(Array.from(bytes.subarray(1024 + 128, 1024 + 136))).toEqual([0xfe, 0xca, 0, 0, 0, 0, 0, 0]);
    expect(linear1x1Offset(layout, 1, 4)).toBe(1024 + 128);
  });
});

describe('1x1 packers: bijection against an independent reference', () => {
  /** reference: per-output-channel padded arrays (+ Beta), 8-byte groups, swizzled per set of 128 */
  function reference(bytesPerWeight: 1 | 2, codes: Uint8Array | Uint16Array, O: number, I: number, beta?: Uint16Array): Uint8Array {
    const per = 8 / bytesPerWeight;
    const rows: number[][] = []; // per output channel: bytes
    for (let o = 0; o < Math.ceil(O / 128) * 128; o++) {
      const r: number[] = [];
      for (let i = 0; i < I; i++) {
        const v = o < O ? codes[o * I + i]! : 0;
        if (bytesPerWeight === 1) r.push(v); else r.push(v & 0xff, v >> 8);
      }
      if (beta && bytesPerWeight === 2) { const v = o < O ? beta[o]! : 0; r.push(v & 0xff, v >> 8); }
      while (r.length % 8) r.push(0);
      if (beta && bytesPerWeight === 1) { const v = o < O ? beta[o]! : 0; r.push(v & 0xff, v >> 8, 0, 0, 0, 0, 0, 0); }
      rows.push(r);
    }
    const G = rows[0]!.length / 8;
    const out: number[] = [];
    for (let s = 0; s < rows.length / 128; s++)
      for (let g = 0; g < G; g++)
        for (let r = 0; r < 8; r++)
          for (let q = 0; q < 16; q++) out.push(...rows[s * 128 + q * 8 + r]!.slice(8 * g, 8 * g + 8));
    void per;
    return Uint8Array.from(out);
  }
  it('8-bit and 16-bit, with and without Beta', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 300 }), fc.integer({ min: 1, max: 21 }), fc.boolean(), (O, I, withBeta) => {
        const beta = withBeta ? Uint16Array.from({ length: O }, (_, o) => 0x8000 + o * 3 + 1) : undefined;
        const bo = beta ? { beta } : {};
        const c8 = Uint8Array.from({ length: O * I }, (_, k) => (k % 255) + 1);
        expect(pack1x1I4F3Database(c8, [O, I, 1, 1], bo).bytes).toEqual(reference(1, c8, O, I, beta));
        const c16 = Uint16Array.from({ length: O * I }, (_, k) => (k * 263) % 65535 + 1);
        const p = pack1x1I5F10Database(c16, [O, I], bo);
        expect(p.bytes).toEqual(reference(2, c16, O, I, beta));
        const p8 = pack1x1I4F3Database(c8, [O, I], bo);
        expect(unpack1x1Database(p8.bytes, p8.layout)).toEqual(beta ? { codes: c8, beta } : { codes: c8 });
        expect(unpack1x1Database(p.bytes, p.layout)).toEqual(beta ? { codes: c16, beta } : { codes: c16 });
        let bad = 0;
        const seen = new Uint8Array(p.bytes.length);
        for (let o = 0; o < O; o++) for (let i = 0; i < I; i++) {
          const off = linear1x1Offset(p.layout, o, i);
          if (seen[off]) bad++;
          seen[off] = 1;
          if ((p.bytes[off]! | (p.bytes[off + 1]! << 8)) !== c16[o * I + i]) bad++;
        }
        expect(bad).toBe(0);
      }),
      { numRuns: 20 },
    );
  });

  it('diagnostics for bad shapes', () => {
    expect(() => pack1x1I4F3Database(new Uint8Array(6), [2, 4])).toThrow(DiagnosticError);
    expect(() => pack1x1I4F3Database(new Uint8Array(6), [2, 3, 3, 3])).toThrow(/\[O, I\]/);
    expect(() => pack1x1I5F10Database(new Uint16Array(6), [2, 3], { beta: new Uint16Array(3) })).toThrow(/Beta/);
  });
});
