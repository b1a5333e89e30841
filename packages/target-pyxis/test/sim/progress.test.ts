/**
 * Progress of a run for the progress bar (sim/run.ts `progress`, cli/src/progress.ts): trips done of the trips the
 * image's descriptor lists hold, reported with the cycle; the bar's view (total, ETA) from it.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { assemble, loadPyxisIsa } from '@pyxis/target-pyxis/asm';
import { link } from '@pyxis/target-pyxis/ld';
import { defaultUieFactory, simulateImage } from '@pyxis/target-pyxis/sim';
import { progressView } from '../../../cli/src/progress.js';

const S = fileURLToPath(new URL('../../../../samples/pyxis/', import.meta.url));

describe('run progress', () => {
  it('attn_causal: trips done of the 3 trips its lists hold, non-decreasing, with the cycle', () => {
    const obj = assemble([{ file: 'attn_causal.pasm', text: readFileSync(S + 'attn_causal.pasm', 'utf8') }], { isa: loadPyxisIsa(), listing: false }).object;
    const image = link({ script: readFileSync(S + 'attn_causal.ld', 'utf8'), scriptFile: S + 'attn_causal.ld', objects: [{ file: 'a.pobj', container: obj }] }).image;
    const seen: Array<[number, number, number]> = [];
    const res = simulateImage(image, 'attn_causal.pimg', { uieFactory: defaultUieFactory, onProgress: (cycle, w) => void seen.push([cycle, w!.done, w!.total]) });
    expect(res.report.trips_total).toBe(3);
    expect(seen.length).toBeGreaterThan(0);
    for (const [c, done, total] of seen) {
      expect(total).toBe(3);
      expect(done).toBeGreaterThanOrEqual(0);
      expect(done).toBeLessThanOrEqual(3);
      expect(c).toBeLessThanOrEqual(res.report.cycles);
    }
    for (let i = 1; i < seen.length; i++) expect(seen[i]![1]).toBeGreaterThanOrEqual(seen[i - 1]![1]);
  });

  it('the bar: trips with a total and an ETA; else cycles of --max-cycles; else cycles without a total', () => {
    expect(progressView('pyxis-sim', 500, { done: 2, total: 5, unit: 'trips' }, undefined)).toEqual({ format: 'pyxis-sim |{bar}| {value}/{total} trips | cycle {cycle} | ETA {eta_formatted}', value: 2, total: 5 });
    expect(progressView('pyxis-sim', 500, undefined, 1000)).toEqual({ format: 'pyxis-sim |{bar}| {value}/{total} cycles | ETA {eta_formatted}', value: 500, total: 1000 });
    expect(progressView('pyxis-sim', 500, undefined, undefined)).toEqual({ format: 'pyxis-sim {value} cycles simulated', value: 500, total: 0 });
  });
});
