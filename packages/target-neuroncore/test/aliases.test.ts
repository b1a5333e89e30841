import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { tensorAliases } from '../src/index.js';
import type { TensorDecl } from '../src/ir.js';

// The independent reference: every pair compared (what the assembler did before the sweep).
function reference(ts: TensorDecl[]): number[][] {
  return ts.map((t, i) =>
    ts.flatMap((u, j) => (j === i || (t.mem !== 'hbm' && u.mem === t.mem && u.partition < t.partition + t.shape[0]! && t.partition < u.partition + u.shape[0]! && u.offset < t.offset + t.bytes && t.offset < u.offset + u.bytes) ? [j] : [])),
  );
}

const decl = fc.record({
  mem: fc.constantFrom('hbm' as const, 'sbuf' as const, 'psum' as const),
  p0: fc.integer({ min: 0, max: 127 }),
  np: fc.integer({ min: 1, max: 128 }),
  offset: fc.integer({ min: 0, max: 64 }),
  bytes: fc.integer({ min: 1, max: 32 }),
});

describe('tensorAliases (SBUF/PSUM tensors sharing partitions and bytes)', () => {
  it('equals the all-pairs reference', () => {
    fc.assert(
      fc.property(fc.array(decl, { maxLength: 40 }), (ds) => {
        const ts: TensorDecl[] = ds.map((d, i) => ({ name: `t${i}`, mem: d.mem, dtype: 'fp32', shape: [d.np, 1], partition: d.p0, offset: d.offset, bytes: d.bytes, line: i + 1 }));
        expect(tensorAliases(ts)).toEqual(reference(ts));
      }),
      { numRuns: 300 },
    );
  });
});
