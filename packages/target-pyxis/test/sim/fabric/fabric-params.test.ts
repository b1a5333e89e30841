/** grammars/pyxis/fabric.json: validated once; its §10.1 last-two-cells table equals an independent reading of §10.1. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { cellify, fabricParams, loadFabricJson, validateFabricJson } from '../../../src/sim/fabric/wireParams.js';
import { parseFaultSpec } from '../../../src/sim/fabric/faults.js';
import { legalVpfe, isLegalVpfe } from '../../../src/sim/fabric/vpfe.js';

/**
 * §10.1 / §10.8.3 in words: cells carry 6..11 chunks; all but the last two carry 11; if the page's chunk count mod 11
 * is below 6 the last cell has exactly 6 and the next-to-last the rest; otherwise the next-to-last is full.
 */
function lastTwoRef(r: number): [number, number] {
  if (r === 0) return [11, 11];
  if (r >= 6) return [11, r];
  return [11 + r - 6, 6];
}

describe('fabric.json (§10.1)', () => {
  it('the last-two-cells table is the §10.1 rule', () => {
    const j = loadFabricJson();
    expect(j.last_two_cells.rows).toHaveLength(11);
    for (const row of j.last_two_cells.rows) expect([row.next_to_last, row.last]).toEqual(lastTwoRef(row.mod));
  });

  it('cellify: every cell 6..11 chunks, chunks add up, cells = ceil(chunks / 11) (property)', () => {
    const p = fabricParams(loadFabricJson(), 1.33e9);
    fc.assert(
      fc.property(fc.integer({ min: 177, max: 16400 }), (bytes) => {
        const chunks = Math.ceil(bytes / 16);
        const c = cellify(p, bytes);
        expect(c.cells).toBe(Math.ceil(chunks / 11));
        expect((c.cells - 2) * 11 + c.nextToLast + c.last).toBe(chunks);
        for (const k of [c.nextToLast, c.last]) expect(k >= 6 && k <= 11).toBe(true);
        expect(c.pipeCycles).toBe(2 * c.cells); // 96..176-B cells at 88 B/cycle
      }),
      { numRuns: 200 },
    );
  });

  it('a one-cell page is padded to the 96-B minimum cell', () => {
    const p = fabricParams(loadFabricJson(), 1.33e9);
    expect(cellify(p, 16)).toMatchObject({ cells: 1, chunks: 6, pipeCycles: 2 });
    expect(cellify(p, 176)).toMatchObject({ cells: 1, chunks: 11, pipeCycles: 2 });
  });

  it('rejects a broken table or parameter with the JSON path', () => {
    const j = loadFabricJson();
    j.last_two_cells.rows[3]!.last = 7;
    expect(() => validateFabricJson(j)).toThrow(/last_two_cells\.rows\[3\]/);
    const k = loadFabricJson();
    (k as { pipes_per_chip: number }).pipes_per_chip = 0;
    expect(() => validateFabricJson(k)).toThrow(/pipes_per_chip/);
  });
});

describe('VPFE assignment (§10.2)', () => {
  it('the n-th legal VPFE skips VPFE[1:0] == 3 and covers 144 chips x 4 clusters in 11 bits', () => {
    const legal: number[] = [];
    for (let v = 0; legal.length < 576; v++) if ((v & 3) !== 3) legal.push(v);
    for (let n = 0; n < 576; n++) expect(legalVpfe(n)).toBe(legal[n]);
    expect(isLegalVpfe(legalVpfe(575))).toBe(true);
    expect(isLegalVpfe(3)).toBe(false);
    expect(isLegalVpfe(2048)).toBe(false);
  });
});

describe('--fabric-faults SPEC', () => {
  it('parses rules and the seed', () => {
    expect(parseFaultSpec('seed=7,drop:data:rate=0.25,corrupt:ack:chip=1:nth=0')).toEqual({
      seed: 7,
      rules: [
        { action: 'drop', type: 'rdma_data', rate: 0.25, chip: null, nth: null, tjid: null, rjid: null, seq: null },
        { action: 'corrupt', type: 'ack', rate: null, chip: 1, nth: 0, tjid: null, rjid: null, seq: null },
      ],
    });
  });
  it('a bad SPEC is a usage error with the position', () => {
    expect(() => parseFaultSpec('drop:data,lose:cts')).toThrow(/position 11/);
    expect(() => parseFaultSpec('drop:data:rate=2')).toThrow(/rate must be a number in \[0, 1\].*position 16/s);
    expect(() => parseFaultSpec('drop:pages')).toThrow(/page type.*position 6/s);
    expect(() => parseFaultSpec('drop:data,lose:cts')).toThrow(expect.objectContaining({ name: 'UsageError' }));
  });
});
