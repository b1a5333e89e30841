/**
 * A collective's results do not depend on the order its chips are built (registered) or run in (design rule;
 * docs/collectives.md): a 4-chip ring all-reduce and a 4-chip halving-doubling all-reduce built in a permuted chip
 * order and run with the partitions in another permuted order give the same cycles, wire stats, per-chip reports
 * and chunk values as the natural order. (wire-timing.test.ts covers the run order for a stub adapter; this covers
 * the real adapters, barriers and InMemAdd trips.)
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readContainer, type Container } from '@pyxis/container';
import { runPartitioned } from '@pyxis/sim';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSystemChip, DeferredEgress } from '../../target-pyxis/src/sim/fabric/systemRun.js';
import { readSystemContainer } from '../../target-pyxis/src/sim/fabric/systemImage.js';
import { createWires } from '../../target-pyxis/src/sim/fabric/wireSet.js';
import { fabricParams } from '../../target-pyxis/src/sim/fabric/wireParams.js';
import { vpfeRoute } from '../../target-pyxis/src/sim/fabric/vpfe.js';
import { dumpSymbol, makeUieFactory } from '../../target-pyxis/src/sim/index.js';
import { buildCollective } from './collective-run.js';

type Sys = ReturnType<typeof readSystemContainer>;

function run(sys: Sys, buildOrder: number[], runOrder: number[]) {
  const m = sys.manifest;
  const N = m.chips;
  const egress = Array.from({ length: N }, () => new DeferredEgress());
  const chips = new Array<ReturnType<typeof buildSystemChip>>(N);
  for (const k of buildOrder) {
    const img = sys.images[m.image_of_chip[k]!]!;
    chips[k] = buildSystemChip({ chip: k, image: img.bytes, imageFile: img.file, voqToVpfe: sys.voqToVpfe[k]! }, egress[k]!, makeUieFactory());
  }
  const params = fabricParams(m.fabric, chips[0]!.config.clock_hz);
  const route = vpfeRoute(m.cluster_vpfe, m.fabric.system.clusters_per_chip, m.fabric.system.vpfe_bits);
  const { wires, crossLinks } = createWires(chips.map((b) => b.chip.sim), params, route);
  wires.forEach((w, k) => {
    egress[k]!.target = w;
    w.side = chips[k]!.chip.fabric;
  });
  const r = runPartitioned(runOrder.map((k) => chips[k]!.chip.sim), runOrder.map((k) => crossLinks[k]!), { lookahead: params.oneWayCycles });
  const values = chips.map((b, k) =>
    Array.from({ length: N }, (_, j) => Array.from(dumpSymbol(b.chip, sys.images[m.image_of_chip[k]!]!.container as Container, `x_c${j}`, true).data as Float32Array)),
  );
  return {
    reason: r.reason,
    cycles: r.cycles,
    wire: JSON.stringify(wires.map((w) => w.stats)),
    links: JSON.stringify(wires.map((w) => [...w.links.values()])),
    steps: chips.map((b) => b.chip.sim.steps),
    values,
  };
}

describe('collectives: independent of chip build and run order (property)', () => {
  for (const algorithm of ['ring-allreduce', 'hd-allreduce'] as const)
    it(`${algorithm} on 4 chips`, async () => {
      const b = await buildCollective({ chips: 4, algorithm, rows: 2, seed: 5 });
      const file = join(b.dir, 'system.psys');
      const sys = readSystemContainer(readContainer(new Uint8Array(readFileSync(file)), file), file);
      const base = run(sys, [0, 1, 2, 3], [0, 1, 2, 3]);
      expect(base.reason).toBe('done');
      const perm = fc.shuffledSubarray([0, 1, 2, 3], { minLength: 4, maxLength: 4 });
      fc.assert(
        fc.property(perm, perm, (bo, ro) => {
          const r = run(sys, bo, ro);
          expect(r.cycles).toBe(base.cycles);
          expect(r.wire).toBe(base.wire);
          expect(r.links).toBe(base.links);
          expect(r.steps).toEqual(base.steps);
          expect(r.values).toEqual(base.values);
        }),
        { numRuns: Number(process.env['PYXIS_PROP_RUNS'] ?? 4) },
      );
    }, 60_000);
});
