/**
 * A ring all-gather over 4 chips as scripts/gen-collective.mjs writes it (docs/collectives.md), assembled and linked
 * by the real tools and run on 4 chips joined by the stub fabric: 12 RDMA jobs chained by barriers through their
 * completion notifications, each chip's Pyxis_VOQ_to_VPFE_map from system.json. Every chip must end with every
 * chip's chunk, bit-exact.
 */
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readContainer, type Container } from '@pyxis/container';
import { decodeArray } from '@pyxis/formats';
import { makeUieFactory } from '@pyxis/target-pyxis/sim';
import { runAs, runLd } from '@pyxis/targets';
import { buildSystem } from './fabric-stub.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const io = { stdout: () => {}, stderr: (s: string) => void process.stderr.write(s) };

describe('collective over the fabric adapters', () => {
  it('ring all-gather on 4 chips (generated, assembled, linked): every chip holds every chunk, bit-exact', async () => {
    const N = 4;
    const ROWS = 40;
    const dir = mkdtempSync(join(tmpdir(), 'fabric-coll-'));
    try {
      execFileSync(process.execPath, [join(ROOT, 'scripts/gen-collective.mjs'), '--chips', String(N), '--algorithm', 'ring-allgather', '--rows', String(ROWS), '--page-size-words', '32', '--out', dir]);
      expect(await runAs([join(dir, 'collective.pasm'), '-o', join(dir, 'collective.pobj')], io)).toBe(0);
      const images: Container[] = [];
      for (let c = 0; c < N; c++) {
        expect(await runLd([join(dir, `chip${c}.ld`), join(dir, 'collective.pobj'), '-o', join(dir, `chip${c}.pimg`)], io)).toBe(0);
        images.push(readContainer(readFileSync(join(dir, `chip${c}.pimg`)), `chip${c}.pimg`));
      }
      // system.json voq_map: VOQ group -> peer chip (absolute, or relative "+k" / "-k") and cluster (docs/system.md)
      const system = JSON.parse(readFileSync(join(dir, 'system.json'), 'utf8')) as { voq_map: Array<{ group: number; chip: number | string; cluster: number }> };
      const maps = Array.from({ length: N }, (_, c) => {
        const m = new Uint16Array(2048).fill(0xffff);
        for (const e of system.voq_map) {
          const peer = typeof e.chip === 'string' ? (((c + Number(e.chip)) % N) + N) % N : e.chip;
          m[e.group] = 4 * peer + e.cluster;
        }
        return m;
      });
      const sys = buildSystem(images, { grantDelay: 300, latency: 1000, uies: 1, uieFactory: makeUieFactory(), maps });
      const at = (c: number, j: number) => {
        const s = images[c]!.symbols.find((y) => y.name === `x_c${j}`)!;
        return images[c]!.sections[s.section]!.address + s.offset;
      };
      const BYTES = images[0]!.symbols.find((y) => y.name === 'x_c0')!.size;
      // chip j's own chunk j as the linker stored it (RFP16), before the run
      const own = Array.from({ length: N }, (_, j) => sys.chips[j]!.amem[0]!.readBytes(at(j, j), BYTES));
      expect(sys.run().reason).toBe('done');
      for (let j = 0; j < N; j++) {
        const want = decodeArray('RFP16', new Uint16Array(own[j]!.buffer, own[j]!.byteOffset, BYTES / 2), 0);
        expect(want.some((v) => v !== 0)).toBe(true);
        for (let c = 0; c < N; c++) {
          const bytes = sys.chips[c]!.amem[0]!.readBytes(at(c, j), BYTES);
          const bad = bytes.findIndex((b, i) => b !== own[j]![i]);
          expect(bad, `chip ${c} chunk ${j}: byte ${bad} differs`).toBe(-1);
        }
      }
      for (const c of sys.chips) {
        expect(c.tripsByKind['rdma_tx']).toBe(N - 1);
        expect(c.tripsByKind['rdma_rx']).toBe(N - 1);
        expect(c.fabricAdapter!.failures).toEqual([]);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
