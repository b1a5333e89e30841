/** The sweep results reader (sweep.ts): CSV with a header row, JSON Lines, JSON arrays; the sweep charts. */
import { describe, expect, it } from 'vitest';
import { readResults, sweepSection } from '@pyxis/report';

describe('readResults', () => {
  it('CSV: BOM, CRLF, quoted commas and quotes, comments and blank lines, numbers and text, missing cells', () => {
    const t = readResults('\uFEFFrows,name,cycles\r\n# a comment\r\n1024,"a, ""b""",5000\r\n\r\n2048,c,\r\n4096,d,1.5e3');
    expect(t.columns).toEqual(['rows', 'name', 'cycles']);
    expect(t.rows).toEqual([
      { rows: 1024, name: 'a, "b"', cycles: 5000 },
      { rows: 2048, name: 'c', cycles: null },
      { rows: 4096, name: 'd', cycles: 1500 },
    ]);
  });
  it('JSON Lines and a JSON array: nested objects flattened to dotted columns, in first-seen order', () => {
    const jl = readResults('{"p": {"rows": 1}, "cycles": 10}\n\n{"p": {"rows": 2}, "cycles": 20, "extra": "x"}\n');
    expect(jl.columns).toEqual(['p.rows', 'cycles', 'extra']);
    expect(jl.rows[1]).toEqual({ 'p.rows': 2, cycles: 20, extra: 'x' });
    expect(readResults('[{"a": 1}, {"a": 2}]').rows).toEqual([{ a: 1 }, { a: 2 }]);
  });
  it('says which line it cannot read', () => {
    expect(() => readResults('{"a": 1}\n{"a": }\n')).toThrow(/line 2: not JSON/);
    expect(() => readResults('{"a": 1}\n[1]\n')).toThrow(/line 2: not a JSON object/);
  });
});

describe('sweepSection', () => {
  const t = readResults('rows,clusters,cycles,label\n1024,1,5000,x\n2048,1,9800,x\n1024,2,2600,x\n2048,2,5100,x\n');
  it('defaults: x = the first numeric column that varies, y = the others; a series per group, points sorted by x', () => {
    const s = sweepSection(t, { source: 'r.csv', group: 'clusters' });
    const charts = s.charts.filter((c) => c.kind === 'lines');
    expect(charts.map((c) => c.title)).toEqual(['cycles against rows (one series per clusters)']);
    const c = charts[0]!;
    if (c.kind !== 'lines') throw new Error('lines');
    expect(c.series).toEqual([
      { name: 'clusters = 1', points: [[1024, 5000], [2048, 9800]] },
      { name: 'clusters = 2', points: [[1024, 2600], [2048, 5100]] },
    ]);
    expect(s.charts.at(-1)!.kind).toBe('table');
  });
  it("pyxis-sim sweep's table: x = the first varying params.* column, y = the figures.*; run/exit/host_seconds are neither", () => {
    const jl = readResults(
      [
        { run: 0, key: 'a', input: 'm.pimg', params: { k: 512, q: 1 }, status: 'ok', exit: 0, host_seconds: 0.4, figures: { cycles: 900, tflops: 20 } },
        { run: 1, key: 'b', input: 'm.pimg', params: { k: 1024, q: 1 }, status: 'ok', exit: 0, host_seconds: 0.7, figures: { cycles: 1500, tflops: 25 } },
        { run: 2, key: 'c', input: 'm.pimg', params: { k: 2048, q: 1 }, status: 'failed', exit: 1, host_seconds: 0.1, figures: {}, diagnostic: 'SIM0001: x' },
      ]
        .map((o) => JSON.stringify(o))
        .join('\n'),
    );
    const s = sweepSection(jl, { source: 'b.jsonl' });
    expect(s.charts.filter((c) => c.kind === 'lines').map((c) => c.title)).toEqual(['figures.cycles against params.k', 'figures.tflops against params.k']);
    const c = s.charts[0]!;
    if (c.kind !== 'lines') throw new Error('lines');
    expect(c.series[0]!.points).toEqual([[512, 900], [1024, 1500]]); // the failed run has no figures
  });
  it('refuses unknown and non-numeric columns', () => {
    expect(() => sweepSection(t, { source: 'r', x: 'nope' })).toThrow(/no column `nope`/);
    expect(() => sweepSection(t, { source: 'r', y: ['label'] })).toThrow(/`label` is not numeric/);
  });
});
