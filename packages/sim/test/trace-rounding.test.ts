import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { StringSink, TraceWriter } from '@pyxis/sim';

// Perfetto lays slices of one track end to end: a slice's ts + dur must not pass the next slice's ts. Rounding
// start and duration separately (1e-6 us) let back-to-back slices overlap by 1e-6 us at clocks like 5.6 GHz.
describe('trace slices on one track never overlap by rounding', () => {
  it('back-to-back slices: ts + dur of one is the next ts (to the microsecond grid)', () => {
    fc.assert(
      fc.property(fc.constantFrom(5.6e9, 1.12e9, 0.7e9, 1.4e9, 3e9, 100e6, 333e6), fc.array(fc.integer({ min: 1, max: 10_000 }), { minLength: 2, maxLength: 50 }), (hz, lens) => {
        const sink = new StringSink();
        const tw = new TraceWriter(sink, hz);
        const track = tw.track('g', 't');
        let at = 0;
        for (const n of lens) {
          tw.slice(track, at, at + n, 's');
          at += n;
        }
        tw.close();
        const ev = (JSON.parse(sink.text) as { traceEvents: Array<{ ph: string; ts: number; dur: number }> }).traceEvents.filter((e) => e.ph === 'X');
        for (let i = 1; i < ev.length; i++) expect(Math.round((ev[i - 1]!.ts + ev[i - 1]!.dur) * 1e6)).toBeLessThanOrEqual(Math.round(ev[i]!.ts * 1e6));
      }),
      { numRuns: 200 },
    );
  });
});
