/**
 * Link-script pieces (packages/target-pyxis/src/gen/ldparts.ts): merging kernels into one image keeps every queue's
 * trips in stage order, drops a repeated declaration (same statement, or the same config table entry) and keeps the
 * dependencies of every kernel.
 */
import { describe, expect, it } from 'vitest';
import { LUT_TABLE, mergeParts, newParts, pushTrip, qkey, renderLd } from '../../src/gen/ldparts.js';

describe('gen ldparts', () => {
  const a = newParts();
  a.decls.push('memory hbm { space = hbm; origin = 0; length = 16G; }', 'config vpu.lut { cluster = 0; uie = 1; index = 0; data = "a_exp.npy"; }');
  pushTrip(a, qkey('uie', 0, 1), '  trip a1 { }');
  pushTrip(a, qkey('h2a', 0), '  trip la { src = x; dst = y; }');
  a.deps.push('a1 after la;');
  const b = newParts();
  b.decls.push('memory hbm { space = hbm; origin = 0; length = 16G; }', 'config vpu.lut { cluster = 0; uie = 1; index = 0; data = "b_exp.npy"; }', 'config vpu.lut { cluster = 0; uie = 1; index = 256; data = "b_recip.npy"; }');
  pushTrip(b, qkey('uie', 0, 1), '  trip b1 { }');
  pushTrip(b, qkey('uie', 1, 0), '  trip b2 { }');
  b.deps.push('b1 after a1;');
  const m = mergeParts([a, b]);

  it('queues keep stage order; declarations and config entries are not repeated', () => {
    expect(m.queues.get('uie 0 1')).toEqual(['  trip a1 { }', '  trip b1 { }']);
    expect(m.decls.filter((d) => d.startsWith('memory'))).toHaveLength(1);
    // one preload per (table, cluster, UIE, index): the first kernel's wins
    expect(m.decls.filter((d) => d.includes('index = 0;'))).toEqual(['config vpu.lut { cluster = 0; uie = 1; index = 0; data = "a_exp.npy"; }']);
    expect(m.decls.some((d) => d.includes('index = 256;'))).toBe(true);
    expect(m.deps).toEqual(['a1 after la;', 'b1 after a1;']);
  });

  it('renders DMA queues before UIE queues, by cluster and UIE', () => {
    const ld = renderLd('/* x */', m);
    const order = [...ld.matchAll(/queue (\S+) \{ cluster = (\d+);/g)].map((x) => `${x[1]} ${x[2]}`);
    expect(order).toEqual(['h2a 0', 'uie1 0', 'uie0 1']);
    expect(ld.trimEnd().endsWith('b1 after a1;')).toBe(true);
  });

  it('one LUT table per function (4 tables, memory_map.json vpu.lut)', () => {
    expect(new Set(Object.values(LUT_TABLE)).size).toBe(4);
    expect(Math.max(...Object.values(LUT_TABLE))).toBe(3);
  });
});
