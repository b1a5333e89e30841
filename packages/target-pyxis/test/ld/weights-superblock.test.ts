import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DiagnosticError } from '@pyxis/diagnostics';
import {
  blockOrigin, blockDataOffset, superblockLayout, compressWeights, decompressSuperblocks, checkSuperblockAlignment, superblockPosition,
  type SuperblockLayout, type BlockSize, type SuperblockOrganisation,
} from '../../src/ld/weights/index.js';
import { decompressWeight } from '@pyxis/formats';

const seq = (a: number, step: number, n: number) => Array.from({ length: n }, (_, k) => a + k * step);

/** Output channels of blocks [j0, j0+n) of superblock k */
function couts(L: SuperblockLayout, k: number, j0: number, n: number): number[] {
  const o = [0, 0];
  return seq(j0, 1, n).map((j) => { blockOrigin(L, k, j, o); return o[0]!; });
}
function cins(L: SuperblockLayout, k: number, j0: number, n: number): number[] {
  const o = [0, 0];
  return seq(j0, 1, n).map((j) => { blockOrigin(L, k, j, o); return o[1]!; });
}

describe('superblock formats (chip §14.2, tables 14-1..14-4)', () => {
  it('sizes and block positions: codebook word, scaling-factor word, blocks (B/2 bytes each, block 0 in the LSBytes)', () => {
    // blocks per 128-byte word: B=32: 8 (Block 7..0), B=16: 16, B=8: 32, B=4: 64
    for (const [B, perWord] of [[32, 8], [16, 16], [8, 32], [4, 64]] as const) {
      const L = superblockLayout('coutPerCin', B, 128, 2 * B);
      expect(L.superblockSize).toBe(128 + (128 / perWord) * 128);
      expect(L.superblocks).toBe(2);
      expect(L.size).toBe(128 + 2 * L.superblockSize);
      expect(L.superblockSize % 128).toBe(0);
      expect(L.alignment).toBe(128);
      // Block 0 begins the first block word (after codebook word and scaling factors)
      expect(blockDataOffset(L, 0, 0)).toBe(256);
      // the last block of the first word, the first block of the second word
      expect(blockDataOffset(L, 0, perWord - 1)).toBe(256 + 128 - B / 2);
      expect(blockDataOffset(L, 0, perWord)).toBe(384);
      expect(blockDataOffset(L, 0, 127)).toBe(256 + L.superblockSize - 128 - B / 2);
      // the second superblock has no codebook word: its scaling factors follow block 127
      expect(blockDataOffset(L, 1, 0)).toBe(128 + L.superblockSize + 128);
    }
  });
});

describe('channel orders, multiple C_in per C_out (chip §15.4.1)', () => {
  it('table 15-5 (B=32)', () => {
    const L = superblockLayout('cinPerCout', 32, 128, 96);
    expect(L.superblocks).toBe(3);
    expect(couts(L, 0, 0, 4)).toEqual([0, 16, 32, 48]);
    expect(couts(L, 0, 4, 4)).toEqual([64, 80, 96, 112]);
    expect(couts(L, 0, 8, 4)).toEqual([1, 17, 33, 49]);
    expect(couts(L, 0, 12, 4)).toEqual([65, 81, 97, 113]);
    expect(couts(L, 0, 120, 4)).toEqual([15, 31, 47, 63]);
    expect(couts(L, 0, 124, 4)).toEqual([79, 95, 111, 127]);
    expect(cins(L, 0, 0, 128)).toEqual(new Array(128).fill(0));
    expect(cins(L, 1, 0, 1)).toEqual([32]);
    expect(cins(L, 2, 0, 1)).toEqual([64]);
    expect(couts(L, 2, 124, 4)).toEqual([79, 95, 111, 127]);
  });
  it('table 15-6 (B=16)', () => {
    const L = superblockLayout('cinPerCout', 16, 128, 48);
    expect(couts(L, 0, 0, 8)).toEqual(seq(0, 16, 8));
    expect(couts(L, 0, 8, 8)).toEqual(seq(1, 16, 8));
    expect(couts(L, 0, 16, 8)).toEqual(seq(2, 16, 8));
    expect(couts(L, 0, 120, 8)).toEqual(seq(15, 16, 8));
    expect(cins(L, 1, 5, 1)).toEqual([16]);
    expect(cins(L, 2, 5, 1)).toEqual([32]);
  });
  it('table 15-7 (B=8)', () => {
    const L = superblockLayout('cinPerCout', 8, 128, 24);
    expect(couts(L, 0, 0, 16)).toEqual(seq(0, 8, 16));
    expect(couts(L, 0, 16, 16)).toEqual(seq(1, 8, 16));
    expect(couts(L, 0, 32, 16)).toEqual(seq(2, 8, 16));
    expect(couts(L, 0, 112, 16)).toEqual(seq(7, 8, 16));
    expect(cins(L, 1, 0, 1)).toEqual([8]);
    expect(cins(L, 2, 0, 1)).toEqual([16]);
  });
  it('table 15-8 (B=4, block pairs, two superblocks per 8 input channels)', () => {
    const L = superblockLayout('cinPerCout', 4, 128, 24);
    expect(L.superblocks).toBe(6);
    const pairs = (k: number, p0: number, n: number) => seq(p0, 1, n).map((p) => {
      const a = couts(L, k, 2 * p, 2);
      expect(a[0]).toBe(a[1]); // both blocks of a pair are the same output channel
      expect(cins(L, k, 2 * p, 2).map((c) => c % 8)).toEqual([0, 4]); // 0-3 + 4-7
      return a[0]!;
    });
    expect(pairs(0, 0, 16)).toEqual(seq(0, 8, 16)); // blocks 0+1 .. 30+31
    expect(pairs(0, 16, 16)).toEqual(seq(1, 8, 16)); // 32+33 .. 62+63
    expect(pairs(0, 48, 16)).toEqual(seq(3, 8, 16)); // 96+97 .. 126+127
    expect(pairs(1, 0, 16)).toEqual(seq(4, 8, 16));
    expect(pairs(1, 16, 16)).toEqual(seq(5, 8, 16));
    expect(pairs(1, 48, 16)).toEqual(seq(7, 8, 16));
    expect(cins(L, 0, 0, 2)).toEqual([0, 4]);
    expect(cins(L, 2, 0, 2)).toEqual([8, 12]); // superblock 2: 8-11 + 12-15
    expect(pairs(2, 48, 16)).toEqual(seq(3, 8, 16));
    expect(pairs(3, 48, 16)).toEqual(seq(7, 8, 16));
    expect(cins(L, 4, 0, 2)).toEqual([16, 20]);
  });
});

describe('channel orders, multiple C_out per C_in (chip §15.4.2, tables 15-9..15-12)', () => {
  for (const B of [32, 16, 8, 4] as const) {
    it(`B=${B}: ${128 / B} blocks cover Cout 0-127 of one C_in; ${B} C_in per superblock`, () => {
      const L = superblockLayout('coutPerCin', B, 128, 3 * B);
      const per = 128 / B;
      for (let k = 0; k < 3; k++)
        for (let c = 0; c < B; c++) {
          expect(couts(L, k, c * per, per)).toEqual(seq(0, B, per));
          expect(cins(L, k, c * per, per)).toEqual(new Array(per).fill(k * B + c));
        }
    });
  }
});

/** Independent §14.1 decompressor over database bytes, with its own block -> channel map from the tables. */
function testDecompress(bytes: Uint8Array, org: SuperblockOrganisation, B: number, O: number, I: number, eb: number): Float64Array {
  const out = new Float64Array(O * I);
  let padErrors = 0;
  const cb = bytes.subarray(0, 16);
  const sbSize = 128 + 64 * B;
  const sets = Math.ceil(O / 128);
  const perSet = org === 'coutPerCin' ? Math.ceil(I / B) : B === 4 ? 2 * Math.ceil(I / 8) : Math.ceil(I / B);
  const val = (c: number, bias: number) => ((c & 0x7f) === 0 ? 0 : (c & 0x80 ? -1 : 1) * 2 ** ((c & 0x7f) / 8 + bias));
  for (let s = 0; s < sets; s++)
    for (let kk = 0; kk < perSet; kk++) {
      const base = 128 + (s * perSet + kk) * sbSize;
      for (let j = 0; j < 128; j++) {
        let co: number, ci: number;
        if (org === 'coutPerCin') { co = (j % (128 / B)) * B; ci = kk * B + Math.floor(j / (128 / B)); }
        else if (B === 4) { const p = Math.floor(j / 2); co = (kk % 2) * 4 + Math.floor(p / 16) + 8 * (p % 16); ci = Math.floor(kk / 2) * 8 + (j % 2) * 4; }
        else if (B === 8) { co = Math.floor(j / 16) + 8 * (j % 16); ci = kk * 8; }
        else { co = Math.floor(j / 8) + 16 * (j % 8); ci = kk * B; }
        co += s * 128;
        const sc = bytes[base + j]!;
        for (let e = 0; e < B; e++) {
          const o = org === 'coutPerCin' ? co + e : co, i = org === 'coutPerCin' ? ci : ci + e;
          const byte = bytes[base + 128 + j * (B / 2) + Math.floor(e / 2)]!;
          const idx = e % 2 ? byte >> 4 : byte & 15;
          if (o >= O || i >= I) { if ((cb[idx]! & 0x7f) !== 0) padErrors++; continue; } // pads are the zero entry
          // weight = codebook[idx] * scale: EB -15 codebook times the scale (EB eb), i.e. magnitude
          // m = m_cb + m_sf - 120 in 1/8 octaves; m <= 0 flushes to zero, m > 127 saturates (§14.1 model, docs/weights.md)
          const m = (cb[idx]! & 0x7f) + (sc & 0x7f) - 120;
          const prod = sc === 0 ? 0 : val(cb[idx]!, -15) * val(sc, eb);
          out[o * I + i] = prod === 0 || m <= 0 ? 0 : m > 127 ? Math.sign(prod) * 2 ** (127 / 8 + eb) : prod;
        }
      }
    }
  expect(padErrors).toBe(0);
  return out;
}

function gaussian(n: number, seed: number): Float32Array {
  let s = seed >>> 0;
  const rnd = () => ((s = (s * 1664525 + 1013904223) >>> 0) + 0.5) / 4294967296;
  const w = new Float32Array(n);
  for (let k = 0; k < n; k++) w[k] = Math.sqrt(-2 * Math.log(rnd())) * Math.cos(2 * Math.PI * rnd()) * 0.05;
  return w;
}

describe('superblockPosition inverts blockOrigin', () => {
  it('every weight has exactly one nibble, in a block covering it', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<SuperblockOrganisation>('cinPerCout', 'coutPerCin'), fc.constantFrom<BlockSize>(4, 8, 16, 32),
        fc.integer({ min: 1, max: 300 }), fc.integer({ min: 1, max: 70 }),
        (org, B, O, I) => {
          const L = superblockLayout(org, B, O, I);
          const seen = new Set<number>();
          const og = [0, 0];
          let bad = 0;
          for (let o = 0; o < O; o++) for (let i = 0; i < I; i++) {
            const p = superblockPosition(L, o, i);
            const key = p.byteOffset * 2 + (p.shift >> 2);
            if (seen.has(key)) bad++;
            seen.add(key);
            blockOrigin(L, p.superblock, p.block, og);
            const want = org === 'cinPerCout' ? [og[0]!, og[1]! + p.element] : [og[0]! + p.element, og[1]!];
            if (want[0] !== o || want[1] !== i) bad++;
            if (p.byteOffset !== blockDataOffset(L, p.superblock, p.block) + (p.element >> 1)) bad++;
            if (p.superblock >= L.superblocks || p.byteOffset >= L.size) bad++;
          }
          expect(bad).toBe(0);
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe('compression (chip §14.1) and round trip', () => {
  it('exact codebook values survive compression bit-exactly', () => {
    // codebook 0, +-2^0, +-2^-1, ...; weights are codebook value x 2^(ms/8 + eb) with ms = 64, eb = -8 -> S = 1
    const cbk = Uint8Array.from([0, 120, 112, 104, 96, 88, 80, 72, 0x80 | 120, 0x80 | 112, 0x80 | 104, 0x80 | 96, 0x80 | 88, 0x80 | 80, 0x80 | 72, 64]);
    const O = 130, I = 40;
    const w = new Float32Array(O * I);
    const want = new Uint8Array(O * I);
    for (let o = 0; o < O; o++) for (let i = 0; i < I; i++) {
      const idx = (i % 8 === 0 || o % 7 === 0) ? 1 : 1 + ((o * 5 + i * 3) % 15); // every block has a 1.0 -> scale 64
      want[o * I + i] = idx;
      const c = cbk[idx]!;
      w[o * I + i] = (c & 0x80 ? -1 : 1) * 2 ** ((c & 0x7f) / 8 - 15);
    }
    for (const [org, B] of [['cinPerCout', 32], ['cinPerCout', 16], ['cinPerCout', 8], ['cinPerCout', 4], ['coutPerCin', 4], ['coutPerCin', 32]] as const) {
      const wi = org === 'coutPerCin' ? w.map((_, k) => (Math.floor(k / I) % 4 === 0 ? 1 : w[k]!)) : w; // block max 1.0 in both organisations
      const r = compressWeights(wi, [O, I], { organisation: org, blockSize: B, eb: -8, codebook: cbk });
      expect(r.report.snrDb).toBe(Infinity);
      expect(r.report.maxRelError).toBe(0);
      expect(Array.from(r.bytes.subarray(0, 16))).toEqual(Array.from(cbk));
      expect(r.bytes.subarray(16, 128).every((b) => b === 0)).toBe(true);
      const dec = testDecompress(r.bytes, org, B, O, I, -8);
      expect(Array.from(dec)).toEqual(Array.from(wi, (x) => x));
      // library decompressor agrees
      const codes = decompressSuperblocks(r.bytes, r.layout);
      let bad = 0;
      for (let k = 0; k < codes.length; k++) {
        const c = codes[k]!;
        const v = (c & 0x7f) === 0 ? 0 : (c & 0x80 ? -1 : 1) * 2 ** ((c & 0x7f) / 8 - 8);
        if (v !== wi[k]) bad++;
      }
      expect(bad).toBe(0);
    }
  });

  it('golden bytes: B=32, one superblock; Cout 16 is block 1 (scale byte 1, bytes 16..31 of the first block word)', () => {
    const O = 128, I = 32;
    const w = new Float32Array(O * I).fill(0.5);
    for (let i = 0; i < I; i++) w[16 * I + i] = i === 3 ? 2 : 1;
    const r = compressWeights(w, [O, I], { organisation: 'cinPerCout', blockSize: 32, eb: -4 });
    const L = r.layout;
    expect(L.size).toBe(128 + 128 + 2048);
    // scale byte 1 (block 1 = Cout 16) aligns max 2.0 = 2^(ms/8 - 4) -> ms = 40; other blocks 0.5 -> ms = 24
    expect(r.bytes[128 + 1]).toBe(40);
    expect(r.bytes[128 + 0]).toBe(24);
    expect(r.bytes[128 + 127]).toBe(24);
    const cbVal = (c: number) => 2 ** ((c & 0x7f) / 8 - 15);
    const nib = (byte: number, e: number) => (e % 2 ? byte >> 4 : byte & 15);
    const blk1 = r.bytes.subarray(256 + 16, 256 + 32);
    for (let e = 0; e < 32; e++) {
      const v = cbVal(r.codebook[nib(blk1[e >> 1]!, e)]!) * 2 ** (40 / 8 - 4);
      expect(v).toBeCloseTo(e === 3 ? 2 : 1, 12);
    }
  });

  it('round trip: the database decodes to what the compressor reports; choices are the specified ones', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<SuperblockOrganisation>('cinPerCout', 'coutPerCin'), fc.constantFrom<BlockSize>(4, 8, 16, 32),
        fc.integer({ min: 1, max: 140 }), fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 1e6 }),
        (org, B, O, I, seed) => {
          const w = gaussian(O * I, seed);
          w[seed % w.length] = 0;
          w[(seed * 7) % w.length] = 0;
          const r = compressWeights(w, [O, I], { organisation: org, blockSize: B });
          expect(r.report.zeroWeights).toBe(w.filter((x) => x === 0).length);
          expect(r.report.weights).toBe(O * I);
          const eb = r.eb;
          const dec = testDecompress(r.bytes, org, B, O, I, eb);
          // SNR from the independent decompressor equals the reported one
          let sw = 0, se = 0, maxRel = 0;
          for (let k = 0; k < w.length; k++) {
            const e = dec[k]! - w[k]!;
            sw += w[k]! ** 2; se += e * e;
            if (w[k] !== 0) maxRel = Math.max(maxRel, Math.abs(e / w[k]!));
          }
          // (all weights zero, e.g. O = I = 1 after the two zeroings: SNR is 0/0, nothing to compare)
          if (sw > 0) expect(r.report.snrDb).toBeCloseTo(10 * Math.log10(sw / se), 6);
          expect(r.report.maxRelError).toBeCloseTo(maxRel, 9);
          // the library's decompressor gives the same values (LnsI4F3 codes with EB eb)
          const codes = decompressSuperblocks(r.bytes, r.layout);
          for (let k = 0; k < codes.length; k++) {
            const c = codes[k]!;
            const v = (c & 0x7f) === 0 ? 0 : (c & 0x80 ? -1 : 1) * 2 ** ((c & 0x7f) / 8 + eb);
            if (Math.abs(v - dec[k]!) > 1e-12 * Math.abs(v)) throw new Error(`weight ${k}: ${v} vs ${dec[k]}`);
          }
          // scale = block-max alignment (§14.1 model in compress.ts), and every weight uses an entry at
          // most one histogram bin (1/64 octave) worse than the nearest codebook entry
          const cbv = Array.from(r.codebook, (c) => ((c & 0x7f) === 0 ? 0 : (c & 0x80 ? -1 : 1) * 2 ** ((c & 0x7f) / 8 - 15)));
          const L = r.layout, og = [0, 0];
          let bad = 0;
          for (let k = 0; k < L.superblocks; k++) for (let j = 0; j < 128; j++) {
            blockOrigin(L, k, j, og);
            const ms = r.bytes[128 + k * L.superblockSize + j]!;
            const ps: number[] = [];
            for (let e = 0; e < B; e++) {
              const o = org === 'coutPerCin' ? og[0]! + e : og[0]!, i = org === 'coutPerCin' ? og[1]! : og[1]! + e;
              if (o < O && i < I) ps.push(o * I + i);
            }
            const mx = Math.max(0, ...ps.map((p) => Math.abs(w[p]!)));
            const want = mx === 0 ? 0 : Math.min(127, Math.max(1, Math.round(8 * (Math.log2(mx) - eb))));
            if (ms !== want) bad++;
            if (ms === 0) continue;
            const S = 2 ** (ms / 8 + eb);
            for (const p of ps) {
              const x = w[p]! / S, got = Math.abs(x - dec[p]! / S);
              let nearest = Infinity; // over the values the entries decompress to at this scale (flush: m <= 0 -> 0)
              cbv.forEach((v, c) => { nearest = Math.min(nearest, Math.abs(x - ((r.codebook[c]! & 0x7f) + ms - 120 <= 0 ? 0 : v))); });
              if (got > nearest + Math.abs(x) * 0.025 + 1e-12) bad++;
            }
          }
          expect(bad).toBe(0);
          expect(r.report.objective).toBeLessThanOrEqual(r.report.initialObjective * (1 + 1e-12));
        },
      ),
      // examples: blocks at the smallest scales, where entries flush to zero (found by fuzzing:
      // the decompressor models the flush, the encoder avoids flushed entries there)
      { numRuns: 20, examples: [['coutPerCin', 4, 129, 18, 5], ['cinPerCout', 4, 104, 33, 684902]] },
    );
  });

  it('Lloyd optimisation never increases the error; compressed error is small for Gaussian weights', () => {
    for (const seed of [1, 2, 3]) {
      const w = gaussian(256 * 64, seed);
      const a = compressWeights(w, [256, 64], { organisation: 'cinPerCout', blockSize: 16, iterations: 0 });
      const b = compressWeights(w, [256, 64], { organisation: 'cinPerCout', blockSize: 16 });
      expect(b.report.objective).toBeLessThanOrEqual(a.report.objective);
      expect(b.report.initialObjective).toBeCloseTo(a.report.objective, 9);
      expect(b.report.iterations).toBeGreaterThan(0);
      expect(b.report.snrDb).toBeGreaterThan(15);
      // any iteration budget ends at or below the initial codebook's error; the SNR improves accordingly
      for (const it of [1, 2, 4, 8]) {
        const r = compressWeights(w, [256, 64], { organisation: 'cinPerCout', blockSize: 16, iterations: it });
        expect(r.report.objective).toBeLessThanOrEqual(a.report.objective);
        expect(r.report.initialObjective).toBe(a.report.objective);
      }
      expect(b.report.snrDb).toBeGreaterThan(a.report.snrDb);
    }
  });

  it('objective = block-normalised squared error measured by the independent decompressor', () => {
    const O = 128, I = 64, B = 8;
    const w = gaussian(O * I, 9);
    const r = compressWeights(w, [O, I], { organisation: 'coutPerCin', blockSize: B });
    const dec = testDecompress(r.bytes, 'coutPerCin', B, O, I, r.eb);
    // block scale S = 2^(ms/8 + eb) read back from the database
    let J = 0;
    const L = r.layout;
    const o = [0, 0];
    for (let k = 0; k < L.superblocks; k++) for (let j = 0; j < 128; j++) {
      blockOrigin(L, k, j, o);
      const S = 2 ** (r.bytes[128 + k * L.superblockSize + j]! / 8 + r.eb);
      for (let e = 0; e < B; e++) { const p = (o[0]! + e) * I + o[1]!; J += ((dec[p]! - w[p]!) / S) ** 2; }
    }
    expect(J).toBeCloseTo(r.report.objective, 9);
  });

  it('padding uses the zero entry; decompressWeight follows §14.1', () => {
    expect(decompressWeight(120, 64)).toBe(64);
    expect(decompressWeight(0x80 | 100, 30)).toBe(0x80 | 10);
    expect(decompressWeight(0x80 | 10, 30)).toBe(0); // underflow flushes to +0, never NaN (0x80)
    expect(decompressWeight(127, 127)).toBe(127); // saturates
    expect(decompressWeight(0, 90)).toBe(0);
    expect(decompressWeight(90, 0)).toBe(0);
    const r = compressWeights(Float32Array.from([1, -1, 0.5]), [1, 3], { organisation: 'cinPerCout', blockSize: 32 });
    expect(r.zeroEntry).toBe(true);
    expect(r.layout.paddedInputChannels).toBe(32);
    expect(r.layout.paddedOutputChannels).toBe(128);
    expect(() => compressWeights(Float32Array.from([1, -1, 0.5]), [1, 3], { organisation: 'cinPerCout', blockSize: 32, zeroEntry: false })).toThrow(/zero codebook entry/);
  });

  it('accepts [O, I, 1, 1] and Float64Array; alignment check', () => {
    const w = gaussian(64 * 16, 5);
    const a = compressWeights(w, [64, 16], { organisation: 'cinPerCout', blockSize: 8 });
    const b = compressWeights(Float64Array.from(w), [64, 16, 1, 1], { organisation: 'cinPerCout', blockSize: 8 });
    expect(b.bytes).toEqual(a.bytes);
    expect(() => checkSuperblockAlignment(0x1080)).not.toThrow();
    expect(() => checkSuperblockAlignment(0x1040, { name: 'fc1' })).toThrow(/128-byte aligned/);
  });

  it('diagnostics', () => {
    expect(() => compressWeights(new Float32Array(4), [2, 2], { organisation: 'cinPerCout', blockSize: 12 })).toThrow(/4, 8, 16 or 32/);
    expect(() => compressWeights(Float32Array.from([1, NaN]), [1, 2], { organisation: 'cinPerCout', blockSize: 4 })).toThrow(DiagnosticError);
    expect(() => compressWeights(new Float32Array(4), [2, 2], { organisation: 'rows' as SuperblockOrganisation, blockSize: 4 })).toThrow(/organisation/);
    expect(() => compressWeights(new Float32Array(4), [2, 2], { organisation: 'cinPerCout', blockSize: 4, eb: 0.5 })).toThrow(/EB/);
    expect(() => compressWeights(new Float32Array(4), [2, 2], { organisation: 'cinPerCout', blockSize: 4, codebook: new Uint8Array(15) })).toThrow(/16/);
  });
});
