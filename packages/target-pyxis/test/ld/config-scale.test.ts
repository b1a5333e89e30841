/**
 * Issue 15: overlapping `config` statements are found by one sorted sweep (O(n log n)), with at most one LD0157
 * per statement (the later-declared of an overlapping pair, naming the other), not one per pair.
 */
import { describe, expect, it } from 'vitest';
import { link } from '@pyxis/target-pyxis/ld';
import { linkErr } from './helpers.js';

const MEM = 'memory amem0 { space = amem; cluster = 0; origin = 0; length = 16M; }\n';
const cfg = (index: number, extra = '') => `config itfe_read.cmd { uie = 0; index = ${index};${extra} entry { indir_mode = 1; num_indices_per_table_m1 = 7; } }\n`;

describe('config preload overlaps (LD0157)', () => {
  it('three statements writing one entry: two errors, each naming an earlier statement', () => {
    const ds = linkErr({ script: MEM + cfg(1) + cfg(2) + cfg(1) + cfg(1), scriptFile: 't.ld' }).filter((d) => d.code === 'LD0157');
    expect(ds).toHaveLength(2);
    for (const d of ds) {
      expect(d.message).toMatch(/config \.cfg\.c0\.uie0\.itfe_read\.cmd\.1 overlaps \.cfg\.c0\.uie0\.itfe_read\.cmd\.1/);
      expect((d.span as { line: number }).line).toBeGreaterThan((d.secondary![0]!.span as { line: number }).line);
    }
  });

  it('a multi-entry statement overlapping a later single entry, and disjoint entries of other UIEs and clusters', () => {
    const two = `config itfe_read.cmd { uie = 0; index = 0; entry { indir_mode = 1; } entry { indir_mode = 2; } }\n`;
    const ds = linkErr({ script: MEM + cfg(1) + two + cfg(3) + cfg(1, ' uie = 1;').replace('uie = 0; ', ''), scriptFile: 't.ld' });
    expect(ds.map((d) => d.code)).toEqual(['LD0157']);
    expect(ds[0]!.message).toMatch(/\.cmd\.0 overlaps .*\.cmd\.1/);
    expect(() => link({ script: MEM + cfg(0) + cfg(1) + cfg(1, ' cluster = 1;') + cfg(0, ' cluster = 1;'), scriptFile: 't.ld' })).not.toThrow();
  });

  it('5,000 overlapping statements: one error per later statement at most (timings: scripts/bench-placement.mjs)', () => {
    let script = MEM;
    for (let i = 0; i < 5000; i++) script += cfg(i % 4);
    const ds = linkErr({ script, scriptFile: 't.ld' });
    expect(ds.length).toBeGreaterThan(0);
    expect(ds.length).toBeLessThanOrEqual(4996);
    expect(ds.every((d) => d.code === 'LD0157')).toBe(true);
  });
});
