/**
 * A two-chip system for tests (docs/system.md): chip 0 loads x (48 x 128 RFP8) from HBM into AMEM (H2A) and sends
 * it by RDMA (TJID 12, RJID 34, 32-word pages: two pages) to chip 1's AMEM y. VOQ group 1 -> the next chip.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeNpy } from '@pyxis/container';
import { runLd } from '@pyxis/targets';
import { call } from './cli-call.js';

export const PAIR_ROWS = 48;
const MEM = `memory amem0 { space = amem; cluster = 0; origin = 0; length = 32M; }
memory hbm { space = hbm; origin = 0; length = 1G; }
`;

/** Writes chip0.ld, chip1.ld, their images and pair.psys into `dir`; returns the .psys path. */
export async function linkPair(dir: string): Promise<string> {
  const ROWS = PAIR_ROWS;
  const data = new Float32Array(ROWS * 128).map((_, i) => ((i * 37) % 23) - 11);
  writeFileSync(join(dir, 'x.npy'), writeNpy({ dtype: 'float32', shape: [ROWS, 128], data }));
  writeFileSync(
    join(dir, 'chip0.ld'),
    MEM +
      `tensor x_hbm { format = RFP8; shape = [${ROWS}, 128]; region = hbm; data = "x.npy"; }
tensor x { format = RFP8; shape = [${ROWS}, 128]; region = amem0; zero = true; }
queue h2a { trip load { src = x_hbm; dst = x; } }
queue rdma_tx0 { trip send { src = x; tjid = 12; rjid = 34; dest_voq = 4; page_size_words = 32; } }
send after load;
`,
  );
  writeFileSync(join(dir, 'chip1.ld'), MEM + `tensor y { format = RFP8; shape = [${ROWS}, 128]; region = amem0; zero = true; }\nqueue rdma_rx0 { trip recv { dst = y; tjid = 12; rjid = 34; msg_voq = 4; } }\n`);
  writeFileSync(join(dir, 'pair.json'), JSON.stringify({ chips: 2, images: ['chip0.pimg', 'chip1.pimg'], voq_map: [{ group: 1, chip: '+1' }] }));
  for (const k of [0, 1]) {
    const l = await call(runLd, [join(dir, `chip${k}.ld`), '-o', join(dir, `chip${k}.pimg`)]);
    if (l.code !== 0) throw new Error(l.err);
  }
  const l = await call(runLd, [join(dir, 'pair.json'), '-o', join(dir, 'pair.psys')]);
  if (l.code !== 0) throw new Error(l.err);
  return join(dir, 'pair.psys');
}
