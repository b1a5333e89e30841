import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DiagnosticError } from '@pyxis/diagnostics';
import {
  blockOrigin, blockDataOffset, superblockLayout, compressWeights, decompressSuperblocks, checkSuperblockAlignment, superblockPosition,
  type SuperblockLayout, type BlockSize, type SuperblockOrganisation,
} from '../src/weights/index.js';
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


describe('fuzz', () => {
  it('round trip: the database decodes to what the compressor reports; choices are the specified ones', () => {
    fc.assert(
      fc.property(
        fc.constant<SuperblockOrganisation>('coutPerCin'), fc.constant<BlockSize>(4),
        fc.constant(129), fc.constant(18), fc.constant(5),
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
            if (ms !== want) { bad++; console.log('SCALE', k, j, ms, want, mx, eb); }
            if (ms === 0) continue;
            const S = 2 ** (ms / 8 + eb);
            for (const p of ps) {
              const x = w[p]! / S, got = Math.abs(x - dec[p]! / S);
              let nearest = Infinity; // over the values the entries decompress to at this scale (flush: m <= 0 -> 0)
              cbv.forEach((v, c) => { nearest = Math.min(nearest, Math.abs(x - ((r.codebook[c]! & 0x7f) + ms - 120 <= 0 ? 0 : v))); });
              if (got > nearest + Math.abs(x) * 0.025 + 1e-12) { bad++; console.log('NEAR', p, x, dec[p]! / S, nearest, ms, eb, Array.from(r.codebook)); }
            }
          }
          expect(bad).toBe(0);
          expect(r.report.objective).toBeLessThanOrEqual(r.report.initialObjective * (1 + 1e-12));
        },
      ),
      { numRuns: 1 },
    );
  });

});
