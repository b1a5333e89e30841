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

describe('DPE burst amount (chip §12.5 "fetch a (configurable) burst amount of descriptor data"; cluster.dpe_config)', () => {
  const S = descriptorBytes('uie');
  const NOC = defaultSimConfig().noc;
  /** Cycle at which queue 0's prefetch queue first holds `n` descriptors, and the NoC requests made. */
  function arrivals(burst: number, listLen: number): { at: number[]; requests: number } {
    const base = defaultSimConfig();
    const cfg = { ...base, dpe: { ...base.dpe, prefetch_depth: 2, hungry_level: 2, starving_level: 1 } };
    const noc = new NocMap(new HbmMemory(), [new Amem()], [new CsrCfgSpace(0)]);
    const port = new BandwidthPort('noc', NOC.bytes_per_cycle);
    const d = new DescriptorPrefetchEngine(0, cfg, noc, port, defaultWindows(0), () => true);
    d.configure(2, 1, burst);
    d.enqueue(0, 0x1000, (listLen * S) / 8);
    const at: number[] = [];
    for (let c = 0; c < 400 && at.length < 2; c++) {
      d.tick(c);
      while (d.prefetch[0]!.occupancy > at.length) at.push(c);
    }
    return { at, requests: port.transfers };
  }
  it('burst 1: two requests, the second issued the next cycle behind the first on the 64 B/cycle port', () => {
    const { at, requests } = arrivals(1, 2);
    expect(requests).toBe(2);
    expect(at).toEqual([Math.ceil(S / NOC.bytes_per_cycle) + NOC.latency_cycles, Math.ceil((2 * S) / NOC.bytes_per_cycle) + NOC.latency_cycles]);
  });
  it('burst 2: one request of 2 descriptors, both delivered together', () => {
    const { at, requests } = arrivals(2, 2);
    expect(requests).toBe(1);
    const t = Math.ceil((2 * S) / NOC.bytes_per_cycle) + NOC.latency_cycles;
    expect(at).toEqual([t, t]);
  });
  it('a burst never overfills the prefetch queue (depth 2) nor reads past the list (1 descriptor left)', () => {
    expect(arrivals(8, 4).requests).toBe(1); // 2 of 4: the queue's room
    expect(arrivals(8, 1).requests).toBe(1);
    expect(arrivals(8, 1).at).toEqual([Math.ceil(S / NOC.bytes_per_cycle) + NOC.latency_cycles]);
  });
});
