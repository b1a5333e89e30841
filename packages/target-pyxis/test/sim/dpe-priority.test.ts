/**
 * DPE prefetch priority (pyxis-chip-fspec.md §12.5; dpe.ts): each cycle the DPE issues one descriptor fetch,
 * first to a queue that is *starving* (prefetched + in flight < dpe.starving_level), only then to a *hungry* one
 * (< dpe.hungry_level), round-robin within each class from the queue after the last one served.
 *
 * The scenario separates the two rules: queues 0 and 2 get lists at cycle 0, so the DPE serves 0 then 2 (round
 * robin) and the pointer now starts at 3, before 0 in wrap order. Queue 1 gets a list before cycle 2. At cycle 2
 * queue 0 holds one descriptor (level 1: not starving at the shipped starving_level = 1, still hungry at hungry_level 2) and queue 1 holds none:
 * starving-first serves queue 1; plain round robin over hungry queues would serve queue 0 (3, 4, ..., 34, 0).
 */
import { describe, expect, it } from 'vitest';
import { BandwidthPort } from '@pyxis/sim';
import { Amem } from '../../src/sim/amem/index.js';
import { CsrCfgSpace } from '../../src/sim/csrSpace.js';
import { defaultSimConfig } from '../../src/sim/config.js';
import { descriptorBytes } from '../../src/sim/descriptors.js';
import { DescriptorPrefetchEngine } from '../../src/sim/dpe.js';
import { HbmMemory } from '../../src/sim/memory.js';
import { defaultWindows, NocMap } from '../../src/sim/noc.js';

const shipped = defaultSimConfig().dpe;

function dpe(starving: number, hungry: number) {
  const base = defaultSimConfig();
  const cfg = { ...base, dpe: { prefetch_depth: Math.max(hungry, base.dpe.prefetch_depth), hungry_level: hungry, starving_level: starving } };
  const noc = new NocMap(new HbmMemory(), [new Amem()], [new CsrCfgSpace(0)]);
  return new DescriptorPrefetchEngine(0, cfg, noc, new BandwidthPort('noc', 1 << 20), defaultWindows(0), () => true);
}

describe('DPE issue priority (chip §12.5)', () => {
  const uie = descriptorBytes('uie');
  /** Fetches per queue after cycles 0..2; queue 1's list arrives before cycle 2. */
  function served(starving: number, hungry: number): number[] {
    const d = dpe(starving, hungry);
    // lists of 4 UIE descriptors each, at distinct HBM addresses (length in 8-byte units)
    d.enqueue(0, 0x1000, (4 * uie) / 8);
    d.enqueue(2, 0x2000, (4 * uie) / 8);
    d.tick(0);
    d.tick(1);
    d.enqueue(1, 0x3000, (4 * uie) / 8);
    d.tick(2);
    return [0, 1, 2].map((q) => d.queues[q]!.fetched / uie);
  }
  it('a starving queue is served before a hungry one the round robin would reach first (shipped levels, and 1 of 4)', () => {
    // the scenario needs: level 1 is not starving but hungry
    expect(shipped.starving_level).toBe(1);
    expect(shipped.hungry_level).toBeGreaterThan(1);
    expect(served(shipped.starving_level, shipped.hungry_level)).toEqual([1, 1, 1]);
    expect(served(1, 4)).toEqual([1, 1, 1]);
  });
  it('with every non-full queue starving (starving_level = hungry_level) it is plain round robin', () => {
    expect(served(2, 2)).toEqual([2, 0, 1]);
  });
});
