/** Trace slices on one track never overlap through rounding (trace.ts `span`): ts + dur of one <= ts of the next. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { TraceWriter, type TextSink } from '@pyxis/sim';

class Mem implements TextSink {
  text = '';
  write(s: string): void {
    this.text += s;
  }
  close(): void {}
  abort(): void {}
}

const runs = Number(process.env['PYXIS_PROPERTY_RUNS'] ?? 100);

describe('trace slice rounding', () => {
  it('consecutive slices [c0,c1], [c1,c2], ... never overlap, at any clock', () => {
    fc.assert(
      fc.property(fc.oneof(fc.constant(1.33e9), fc.double({ min: 1e6, max: 1e11, noNaN: true })), fc.array(fc.integer({ min: 0, max: 5000 }), { minLength: 2, maxLength: 40 }), (hz, steps) => {
        const sink = new Mem();
        const w = new TraceWriter(sink, hz);
        const tr = w.track('g', 't');
        let c = 0;
        const cuts = steps.map((s) => (c += s));
        for (let i = 0; i + 1 < cuts.length; i++) w.slice(tr, cuts[i]!, cuts[i + 1]!, `s${i}`);
        w.close();
        const ev = (JSON.parse(sink.text) as { traceEvents: Array<{ ph: string; ts: number; dur: number }> }).traceEvents.filter((e) => e.ph === 'X');
        // compare in whole picoseconds, as a viewer reading the doubles would (Perfetto: integer ns of ts * 1000)
        const ps = (us: number) => Math.round(us * 1e6);
        for (let i = 0; i + 1 < ev.length; i++) {
          expect(ps(ev[i]!.ts + ev[i]!.dur)).toBeLessThanOrEqual(ps(ev[i + 1]!.ts));
          expect(ev[i]!.dur).toBeGreaterThanOrEqual(0);
        }
        // and the end of each slice is its end cycle rounded, like every other event's time
        for (let i = 0; i < ev.length; i++) expect(ps(ev[i]!.ts + ev[i]!.dur)).toBe(Math.round((cuts[i + 1]! * 1e12) / hz));
      }),
      { numRuns: runs },
    );
  });
});
