/** The system description parser (system.ts): compact VOQ-map rules, defaults, and robustness on any input. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseSystem, VOQ_UNMAPPED } from '../../../src/sim/fabric/system.js';

/** §10.2: the n-th VPFE with VPFE[1:0] != 3, counted here independently. */
function nthLegal(n: number): number {
  let v = -1;
  for (let k = 0; k <= n; k++) do v++; while ((v & 3) === 3);
  return v;
}

describe('system description', () => {
  it('ring, all-to-all, absolute with `on`, explicit VPFE; default cluster VPFEs', () => {
    const text = JSON.stringify({
      chips: 5,
      image: 'a.pimg',
      voq_map: [
        { group: 1, chip: '+1' },
        { group: 2, chip: '-2', cluster: 3 },
        { group: 10, chip: 'all', cluster: 1 },
        { group: 20, chip: 4, cluster: 2, on: [0, 3] },
        { group: 21, vpfe: 2046 },
      ],
    });
    const { system, diagnostics } = parseSystem('s.json', text);
    expect(diagnostics).toEqual([]);
    const s = system!;
    for (let c = 0; c < 5; c++) {
      expect(s.clusterVpfe[c]).toEqual([0, 1, 2, 3].map((k) => nthLegal(4 * c + k)));
      const m = s.voqToVpfe[c]!;
      expect(m[1]).toBe(nthLegal(4 * ((c + 1) % 5)));
      expect(m[2]).toBe(nthLegal(4 * ((c + 3) % 5) + 3));
      for (let i = 0; i < 5; i++) expect(m[10 + i]).toBe(nthLegal(4 * i + 1));
      expect(m[20]).toBe(c === 0 || c === 3 ? nthLegal(4 * 4 + 2) : VOQ_UNMAPPED);
      expect(m[21]).toBe(2046);
      expect(m[0]).toBe(VOQ_UNMAPPED);
    }
  });

  it('a mistyped fabric override names the nearest parameter (JSON path; line:col of its value)', () => {
    const text = '{"chips": 2, "image": "a.pimg",\n "fabric": {"rx_oq_page": 10, "grant": {"schedular": "fifo"}, "zzz": 1}}';
    const { diagnostics } = parseSystem('s.json', text);
    expect(diagnostics.map((d) => [d.code, (d.span as { line?: number } | undefined)?.line, (d.span as { column?: number } | undefined)?.column])).toEqual([
      ['LD0900', 2, 27],
      ['LD0900', 2, 54],
      ['LD0900', 2, 70],
    ]);
    expect(diagnostics[0]!.message).toMatch(/^\$\.fabric\.rx_oq_page: `rx_oq_page` is not a fabric parameter a system may set \(did you mean `rx_oq_pages`\?\) \(one of /);
    expect(diagnostics[1]!.message).toMatch(/`grant\.schedular` .*\(did you mean `grant\.scheduler`\?\)/);
    expect(diagnostics[2]!.message).not.toMatch(/did you mean/);
    // a group given a value names its members
    const g = parseSystem('g.json', '{"chips": 2, "image": "a.pimg", "fabric": {"grant": 5}}').diagnostics;
    expect(g.map((d) => d.message)).toEqual(['$.fabric.grant: `grant` must be an object of `scheduler`, `messages_first`']);
  });

  it('deep nesting is a diagnostic, not a stack overflow', () => {
    const t = '{"chips":1,"image":"a","doc":' + '['.repeat(200000) + ']'.repeat(200000) + '}';
    const r = parseSystem('x.json', t);
    expect(r.diagnostics[0]!.message).toMatch(/nested too deeply/);
    expect(r.diagnostics[0]!.span).toMatchObject({ line: 1 });
  });

  it('any text or JSON value gives a system or diagnostics, never an exception (property)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json(), fc.jsonValue().map((v) => JSON.stringify({ chips: 2, image: 'a', voq_map: [v], fabric: v }))), (t) => {
        const r = parseSystem('p.json', t);
        expect(r.system !== null || r.diagnostics.length > 0).toBe(true);
      }),
      { numRuns: Number(process.env.PYXIS_PROPERTY_RUNS ?? 200) },
    );
  });
});
