/** The trace summary and its documented downsampling (trace.ts, svg.ts; docs/report.md "Size"). */
import { describe, expect, it } from 'vitest';
import { BINS, buildReport, collectTraceText, MAX_POINTS, MAX_SLICES, TraceCollector } from '@pyxis/report';

function trace(events: object[]): string {
  return `{"displayTimeUnit":"ns","traceEvents":[\n${events.map((e) => JSON.stringify(e)).join(',\n')}\n]}\n`;
}

describe('TraceCollector', () => {
  it('streams in arbitrary chunks; names tracks and processes', () => {
    const text = trace([
      { ph: 'M', name: 'process_name', pid: 1, tid: 0, args: { name: 'cluster 0' } },
      { ph: 'M', name: 'thread_name', pid: 1, tid: 2, args: { name: 'c0.uie0' } },
      { ph: 'X', cat: 'trip', name: 'copy', pid: 1, tid: 2, ts: 0.5, dur: 1.25, args: { kind: 'uie' } },
      { ph: 'C', name: 'bandwidth GB/s', pid: 1, tid: 0, ts: 1, args: { hbm: 3 } },
    ]);
    const c = new TraceCollector();
    for (let i = 0; i < text.length; i += 7) c.write(text.slice(i, i + 7));
    c.close();
    const m = c.model();
    expect(m.tracks.map((t) => [t.process, t.name, t.slices.map((s) => [s.name, s.start, s.end, s.args['kind']])])).toEqual([['cluster 0', 'c0.uie0', [['copy', 0.5, 1.75, 'uie']]]]);
    expect([...m.counters[0]!.series.get('hbm')!.v]).toEqual([3]);
    expect(m.end).toBe(1.75);
  });

  it(`more than ${MAX_SLICES} slices on a track: merged in pairs; the outline and the exact busy time survive`, () => {
    const n = 5000;
    const ev: object[] = [];
    let busy = 0;
    for (let i = 0; i < n; i++) {
      const dur = 1 + (i % 3);
      busy += dur;
      ev.push({ ph: 'X', name: `s${i % 4}`, pid: 1, tid: 1, ts: i * 5, dur });
    }
    const m = collectTraceText(trace(ev));
    const t = m.tracks[0]!;
    expect(t.total).toBe(n);
    expect(t.slices.length).toBeLessThanOrEqual(MAX_SLICES);
    expect(t.slices.reduce((a, s) => a + s.count, 0)).toBe(n);
    expect(t.slices[0]!.start).toBe(0);
    expect(Math.max(...t.slices.map((s) => s.end))).toBe((n - 1) * 5 + 1 + ((n - 1) % 3));
    expect(t.busy.length).toBe(BINS);
    expect(t.busy.reduce((a, b) => a + b, 0)).toBeCloseTo(busy, 6);
    expect(t.binWidth * BINS).toBeGreaterThanOrEqual(m.end);
  });

  it(`more than ${MAX_POINTS} counter samples: pairs merged keeping the larger (the peak survives)`, () => {
    const ev: object[] = [];
    for (let i = 0; i < 10000; i++) ev.push({ ph: 'C', name: 'occ', pid: 1, tid: 0, ts: i, args: { fifo: i === 7777 ? 99 : i % 5 } });
    const s = collectTraceText(trace(ev)).counters[0]!.series.get('fifo')!;
    expect(s.v.length).toBeLessThanOrEqual(MAX_POINTS);
    expect(Math.max(...s.v)).toBe(99);
  });

  it('a big trace gives a small report: 200 tracks x 3000 slices and 20 counters under 1.5 MB', () => {
    const c = new TraceCollector();
    c.write('{"traceEvents":[\n');
    for (let tid = 1; tid <= 200; tid++) for (let i = 0; i < 3000; i++) c.write(JSON.stringify({ ph: 'X', cat: 'seq', name: `p${i % 3}`, pid: 1, tid, ts: i * 2, dur: 1 }) + ',\n');
    for (let k = 0; k < 20; k++) for (let i = 0; i < 3000; i++) c.write(JSON.stringify({ ph: 'C', name: `c${k}`, pid: 1, tid: 0, ts: i * 2, args: { v: i % 17 } }) + ',\n');
    c.close();
    const html = buildReport({ stats: { target: 'toy', model: 'a test' }, trace: c.model(), sections: [] });
    expect(html.length).toBeLessThan(1_500_000);
    expect(html).toMatch(/first 96 of 200 tracks shown/);
    expect(html).toMatch(/8 more counters not drawn/);
  });
});
