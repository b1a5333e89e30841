/**
 * pyxis-ld's static checks of a system (systemChecks.ts): RDMA descriptors of the chips' images against the
 * system's VOQ maps (chip §10.2, §10.3, §10.4, §11.4.6).
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeContainerFile } from '@pyxis/container';
import { runLd } from '@pyxis/targets';
import { ImageBuilder } from '../../target-pyxis/test/sim/pyxisImage.js';
import { call } from './cli-call.js';

const desc = ImageBuilder.desc;

function rdmaImage(tx: Array<Record<string, number>>, rx: Array<Record<string, number>>) {
  const b = new ImageBuilder();
  if (tx.length) b.list(0x0c, 0x1000, tx.map((f) => desc('desc_rdma_tx', { amem_address: 0, trip_id: 1, ...f })));
  if (rx.length) b.list(0x0e, 0x2000, rx.map((f) => desc('desc_rdma_rx', { amem_address: 0, trip_id: 2, ...f })));
  return b.build();
}

describe('pyxis-ld system static checks', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pyxis-syschk-'));
  let n = 0;
  const link = async (images: object[], extra: object = {}) => {
    images.forEach((im, i) => writeContainerFile(join(dir, `c${i}.pimg`), im as never));
    writeFileSync(join(dir, 'sys.json'), JSON.stringify({ chips: images.length, images: images.map((_, i) => `c${i}.pimg`), voq_map: [{ group: 0, chip: '+1' }], ...extra }));
    const out = join(dir, `sys${n++}.psys`);
    const r = await call(runLd, ['--diagnostics-format', 'json', join(dir, 'sys.json'), '-o', out]);
    return { ...r, written: existsSync(out), codes: [...r.err.matchAll(/"code":\s*"(LD\d+)"/g)].map((m) => m[1]) };
  };

  it('a consistent 2-chip RDMA pair links (VOQ group 0 = the ring neighbour)', async () => {
    const tx = { tjid: 5, rjid: 9, dest_voq: 0, num_words: 250, page_size_words: 125 };
    const rx = { tjid: 5, rjid: 9, msg_voq: 0, num_words: 250 };
    const r = await link([rdmaImage([tx], []), rdmaImage([], [rx])]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
  });

  it('reports a VOQ with no target, a page size out of range, NumWords that disagree, a TJID with two partners', async () => {
    const tx = [
      { tjid: 5, rjid: 9, dest_voq: 0, num_words: 250, page_size_words: 125 },
      { tjid: 5, rjid: 10, dest_voq: 1, num_words: 10, page_size_words: 31 },
      { tjid: 6, rjid: 1, dest_voq: 8, num_words: 10, page_size_words: 125 },
    ];
    const rx = [{ tjid: 5, rjid: 9, msg_voq: 0, num_words: 256 }];
    const r = await link([rdmaImage(tx, []), rdmaImage([], rx)]);
    expect(r.code).toBe(1);
    expect(r.written).toBe(false);
    // and the warning LD0960 for the Tx jobs no Rx job of the system answers (TJID 5 -> RJID 10, TJID 6)
    expect([...r.codes].sort()).toEqual(['LD0902', 'LD0903', 'LD0904', 'LD0905', 'LD0960']);
  });

  it('warns when PageSizeWords * 128 + 16 is not a multiple of 176 (§10.7.2)', async () => {
    const r = await link([rdmaImage([{ tjid: 1, rjid: 1, dest_voq: 0, num_words: 64, page_size_words: 64 }], []), rdmaImage([], [])]);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/LD0908/);
  });
});
