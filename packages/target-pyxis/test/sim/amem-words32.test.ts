/**
 * `Amem.readWords32` / `writeWords32` (the DMA engines' allocation-free unit copies, hbmDma.ts) against the byte
 * interface `readBytes` / `writeBytes` they stand for: the same bytes, statistics (bytes, uninitialised reads, view
 * conflicts, bank accesses), bank claims (`servedAt`, `freeAt`) on two AMEMs driven by the same random operations.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Amem, AMEM_VIEW_BIT } from '../../src/sim/amem/index.js';
import { CLIENT_A2H, CLIENT_H2A } from '../../src/sim/amem/banks.js';

const RUNS = Number(process.env.PYXIS_PROP_RUNS ?? 60);

// deep equality of large typed arrays is slow in the test runner; hex strings compare as fast as memcmp
const hex = (u: Uint8Array) => Buffer.from(u.buffer, u.byteOffset, u.byteLength).toString('hex');

const op = fc.record({
  write: fc.boolean(),
  // 128-byte-aligned addresses over a few 16 KiB blocks (hashing permutes the words of a block), either view
  word: fc.integer({ min: 0, max: 4 * 128 - 1 }),
  view: fc.boolean(),
  words: fc.integer({ min: 1, max: 12 }),
  seed: fc.integer({ min: 0, max: 0xffff }),
  advance: fc.integer({ min: 0, max: 2 }),
});

describe('Amem word copies = byte copies (DMA units)', () => {
  it('same bytes, statistics and bank claims (property)', () => {
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 30 }), fc.boolean(), (ops, timed) => {
        const clock = { now: 0 };
        const a = new Amem('a', undefined, timed ? clock : undefined);
        const b = new Amem('b', undefined, timed ? clock : undefined);
        for (const o of ops) {
          clock.now += o.advance;
          const addr = (o.word * 128) | (o.view ? AMEM_VIEW_BIT : 0);
          const len = o.words * 128;
          if (o.write) {
            const d = new Uint8Array(len);
            for (let i = 0; i < len; i++) d[i] = (o.seed * 31 + i * 7) & 0xff;
            a.writeBytes(addr, d, CLIENT_H2A);
            b.writeWords32(addr, new Uint32Array(d.buffer), 0, len, CLIENT_H2A);
          } else {
            const want = a.readBytes(addr, len, CLIENT_A2H);
            // read at a word offset into a dirty buffer: every word is written (zeros for never-written blocks)
            const got = new Uint32Array(len / 4 + 8).fill(0xdeadbeef);
            b.readWords32(addr, len, got, 8, CLIENT_A2H);
            expect(hex(new Uint8Array(got.buffer, 32, len))).toBe(hex(want));
          }
          expect(b.servedAt).toBe(a.servedAt);
        }
        clock.now++;
        for (const m of [a, b]) m.banks.sync(clock.now);
        expect(b.stats).toEqual(a.stats);
        expect(Array.from(b.banks.freeAt)).toEqual(Array.from(a.banks.freeAt));
        expect(b.banks.stats).toEqual(a.banks.stats);
        // the contents, both views
        for (const v of [0, AMEM_VIEW_BIT]) expect(hex(b.readBytes(v, 8 * 16384))).toBe(hex(a.readBytes(v, 8 * 16384)));
      }),
      { numRuns: RUNS },
    );
  });
});
