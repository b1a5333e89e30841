/** Arbitrary descriptor bytes never crash the simulator: every run ends done / deadlock / max-cycles or with a DiagnosticError. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DiagnosticError } from '@pyxis/diagnostics';
import { defaultUieFactory, simulateImage } from '@pyxis/target-pyxis/sim';
import { ImageBuilder } from './pyxisImage.js';

const QUEUES = [0x00, 0x10, 0x11, 0x12, 0x15, 0x21, 0x22];
const SIZE: Record<number, number> = { 0x00: 40, 0x10: 32, 0x11: 32, 0x12: 32, 0x15: 32, 0x21: 32, 0x22: 24 };

describe('robustness', () => {
  it('random descriptor lists end in a result or a diagnostic', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ q: fc.constantFrom(...QUEUES), n: fc.integer({ min: 1, max: 3 }), seed: fc.integer() }), { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        (lists, smallLength) => {
          const b = new ImageBuilder();
          let at = 0x1000;
          let x = 0;
          for (const l of lists) {
            const bytes = new Uint8Array(SIZE[l.q]! * l.n);
            x = l.seed | 0 || 1;
            for (let i = 0; i < bytes.length; i++) {
              x ^= x << 13;
              x ^= x >>> 17;
              x ^= x << 5;
              bytes[i] = x & 0xff;
            }
            // keep DMA lengths small most of the time so runs stay short
            if (smallLength && (l.q === 0x10 || l.q === 0x11)) for (let d = 0; d < l.n; d++) bytes[d * 32 + 24] = 0, (bytes[d * 32 + 25] = 0);
            b.data('amem', at, bytes, 0, `.desc.${at}`);
            b.enqueue(l.q, at, bytes.length / 8);
            at += 0x400;
          }
          try {
            const { report } = simulateImage(b.build(), 'fuzz.pimg', { maxCycles: 20000, uies: 1, clusters: 2, uieFactory: defaultUieFactory });
            expect(['done', 'deadlock', 'max-cycles']).toContain(report.stop);
          } catch (e) {
            if (!(e instanceof DiagnosticError)) throw e;
            expect(e.diagnostics[0]!.code).toMatch(/^SIM\d{4}$/);
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
