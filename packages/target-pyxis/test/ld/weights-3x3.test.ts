import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DiagnosticError } from '@pyxis/diagnostics';
import { pack3x3Database, kernel3x3Offset, unpack3x3Database } from '../../src/ld/weights/index.js';

/** code of weight (o, i, tap) for tests: non-zero, mostly distinct */
const tag = (o: number, i: number, t: number) => ((o * 37 + i * 11 + t * 3) % 255) + 1;

function makeCodes(O: number, I: number): Uint8Array {
  const c = new Uint8Array(O * I * 9);
  for (let o = 0; o < O; o++) for (let i = 0; i < I; i++) for (let t = 0; t < 9; t++) c[(o * I + i) * 9 + t] = tag(o, i, t);
  return c;
}

describe('3x3 kernels database (chip §15.1)', () => {
  it('table 15-1: kernel bytes NW..SE in LSB..MSB order = row-major [kh][kw]', () => {
    // One filter, one input channel, one grid-row: the database is the kernel itself + MSB padding
    const names = ['NW', 'NC', 'NE', 'CW', 'CC', 'CE', 'SW', 'SC', 'SE'];
    const w = new Uint8Array(9);
    // weights[kh][kw]: kh 0 = north, kw 0 = west
    const pos: Record<string, [number, number]> = { NW: [0, 0], NC: [0, 1], NE: [0, 2], CW: [1, 0], CC: [1, 1], CE: [1, 2], SW: [2, 0], SC: [2, 1], SE: [2, 2] };
    names.forEach((n, k) => { const [r, c] = pos[n]!; w[r * 3 + c] = 0x10 + k; });
    const { bytes, layout } = pack3x3Database(w, [1, 1, 3, 3], { filtersPerGridRow: 1 });
    // 9 bytes -> 2 chunks; 1 grid-row is odd -> padded to 2 grid-rows
    expect(layout.chunks).toBe(2);
    expect(layout.paddedGridRows).toBe(2);
    expect(Array.from(bytes)).toEqual([
      0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0, 0, 0, 0, 0, 0, 0, 0,
      0x18, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    ]);
  });

  it('spec example: M=4, N=2 (9 chunks per grid-row), 5 grid-rows padded to 6 (table 15-2)', () => {
    const M = 4, N = 2, G = 5, O = G * N;
    const codes = makeCodes(O, M);
    const { bytes, layout } = pack3x3Database(codes, [O, M, 3, 3], { filtersPerGridRow: N });
    expect(layout.bytesPerGridRow).toBe(72);
    expect(layout.chunks).toBe(9);
    expect(layout.paddedGridRows).toBe(6);
    expect(bytes.length).toBe(9 * 48);
    // Chunk contents from the §15.1 chunk table, LSB segment first: [i, j, firstByte, lastByte]
    // ("kernel 0,1 [55:0]" = bytes 0..6 of K(0,1), "[71:64]" = byte 8, ...)
    const chunkTable: [number, number, number, number][][] = [
      [[0, 0, 0, 7]],
      [[0, 0, 8, 8], [0, 1, 0, 6]],
      [[0, 1, 7, 8], [1, 0, 0, 5]],
      [[1, 0, 6, 8], [1, 1, 0, 4]],
      [[1, 1, 5, 8], [2, 0, 0, 3]],
      [[2, 0, 4, 8], [2, 1, 0, 2]],
      [[2, 1, 3, 8], [3, 0, 0, 1]],
      [[3, 0, 2, 8], [3, 1, 0, 0]],
      [[3, 1, 1, 8]],
    ];
    // Table 15-2: chunk c, grid-row r at bytes 48c + 8r; the 6th grid-row slot is zero padding.
    for (let c = 0; c < 9; c++) {
      for (let r = 0; r < 6; r++) {
        const got = Array.from(bytes.subarray(48 * c + 8 * r, 48 * c + 8 * r + 8));
        if (r === 5) { expect(got).toEqual([0, 0, 0, 0, 0, 0, 0, 0]); continue; }
        const want: number[] = [];
        for (const [i, j, a, b] of chunkTable[c]!) for (let t = a; t <= b; t++) want.push(tag(r * N + j, i, t));
        expect(got, `chunk ${c} grid-row ${r}`).toEqual(want);
      }
    }
    // the rows of table 15-2 given as byte ranges
    expect(kernel3x3Offset(layout, 0, 0, 0)).toBe(0);
    expect(kernel3x3Offset(layout, 2 * N, 0, 0)).toBe(16);
    expect(kernel3x3Offset(layout, 4 * N, 0, 0)).toBe(32);
    expect(kernel3x3Offset(layout, 0, 0, 8)).toBe(48); // chunk 1, grid-row 0
    expect(kernel3x3Offset(layout, 1 * N, 0, 8)).toBe(56);
    expect(kernel3x3Offset(layout, 1 * N, 1, 0)).toBe(96 + 8 + 2); // chunk 2, grid-row 1, byte 2
  });

  /** Independent reference: per grid-row arrays, chopped, interleaved. */
  function reference(codes: Uint8Array, O: number, I: number, N: number, G: number, beta?: Uint8Array): Uint8Array {
    const M = I + (beta ? 1 : 0);
    const rows: number[][] = [];
    for (let r = 0; r < G; r++) {
      const arr: number[] = [];
      for (let i = 0; i < M; i++)
        for (let j = 0; j < N; j++) {
          const o = r * N + j;
          for (let t = 0; t < 9; t++) arr.push(o >= O ? 0 : i < I ? codes[(o * I + i) * 9 + t]! : beta![o * 9 + t]!);
        }
      while (arr.length % 8) arr.push(0);
      rows.push(arr);
    }
    if (G % 2) rows.push(new Array(rows[0]!.length).fill(0));
    const out: number[] = [];
    for (let c = 0; c < rows[0]!.length / 8; c++) for (const row of rows) out.push(...row.slice(8 * c, 8 * c + 8));
    return Uint8Array.from(out);
  }

  it('matches an independent reference; every weight exactly once, padding zero', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(1, 2, 4, 8), fc.integer({ min: 1, max: 16 }), fc.integer({ min: 1, max: 7 }), fc.integer({ min: 0, max: 3 }), fc.boolean(),
        (N, rows, I, extraRows, withBeta) => {
          const O = Math.max(1, rows * N - (rows > 1 ? (N - 1) : 0));
          const G = Math.min(16, Math.ceil(O / N) + extraRows);
          const codes = new Uint8Array(O * I * 9);
          for (let k = 0; k < codes.length; k++) codes[k] = (k % 255) + 1;
          const beta = withBeta ? Uint8Array.from({ length: O * 9 }, (_, k) => (k % 200) + 3) : undefined;
          const { bytes, layout } = pack3x3Database(codes, [O, I, 3, 3], { filtersPerGridRow: N, gridRows: G, ...(beta ? { beta } : {}) });
          expect(bytes).toEqual(reference(codes, O, I, N, G, beta));
          const back = unpack3x3Database(bytes, layout);
          expect(back.codes).toEqual(codes);
          expect(back.beta).toEqual(beta);
          const seen = new Uint8Array(bytes.length);
          let bad = 0;
          for (let o = 0; o < O; o++) for (let i = 0; i < layout.M; i++) for (let t = 0; t < 9; t++) {
            const off = kernel3x3Offset(layout, o, i, t);
            if (seen[off] !== 0) bad++;
            seen[off] = 1;
            if (bytes[off] !== (i < I ? codes[(o * I + i) * 9 + t] : beta![o * 9 + t])) bad++;
          }
          for (let k = 0; k < bytes.length; k++) if (!seen[k] && bytes[k] !== 0) bad++;
          expect(bad).toBe(0);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('rejects bad shapes and parameters with diagnostics', () => {
    expect(() => pack3x3Database(new Uint8Array(9), [1, 1, 1, 9], { filtersPerGridRow: 1 })).toThrow(DiagnosticError);
    expect(() => pack3x3Database(new Uint8Array(9), [1, 1, 3, 3], { filtersPerGridRow: 3 })).toThrow(/1, 2, 4 or 8/);
    expect(() => pack3x3Database(new Uint8Array(17 * 9), [17, 1, 3, 3], { filtersPerGridRow: 1 })).toThrow(/grid-rows/);
    expect(() => pack3x3Database(new Uint8Array(8), [1, 1, 3, 3], { filtersPerGridRow: 1 })).toThrow(DiagnosticError);
    try {
      pack3x3Database(new Uint8Array(9), [1, 1, 3, 3], { filtersPerGridRow: 5, source: { file: 'w.npy', name: 'conv1' } });
    } catch (e) {
      const d = (e as DiagnosticError).diagnostics[0]!;
      expect(d.code).toBe('LD0702');
      expect(d.span).toEqual({ file: 'w.npy', offset: 0 });
      expect(d.spec).toMatch(/§10\.1/);
    }
  });
});
