/**
 * RDMA between two chips whose images pyxis-ld links from link scripts (docs/linker.md "RDMA Tx / Rx"): the Rx
 * chip's A2H trip runs `after` the RDMA Rx trip, so the Rx job's completion notification (chip §10.8.1.1) releases
 * it through a barrier; on the Tx chip an H2A trip loads the source tensor before the RDMA Tx trip (`after`).
 * The bytes travel HBM -> AMEM (chip 0) -> fabric -> AMEM -> HBM (chip 1).
 */
import { describe, expect, it } from 'vitest';
import { writeNpy } from '@pyxis/container';
import { link } from '@pyxis/target-pyxis/ld';
import { vfs } from '../ld/helpers.js';
import { buildSystem, voqOf } from './fabric-stub.js';
import { firstDiff } from './fabric-rdma-lib.js';

const ROWS = 48;
const MEM = `memory amem0 { space = amem; cluster = 0; origin = 0; length = 32M; }
memory hbm { space = hbm; origin = 0; length = 1G; }
`;

describe('RDMA from linked images', () => {
  it('H2A -> RDMA Tx (chip 0) ... RDMA Rx -> A2H (chip 1), ordered by barriers, byte-exact', () => {
    const data = new Float32Array(ROWS * 128).map((_, i) => ((i * 37) % 23) - 11);
    const npy = writeNpy({ dtype: 'float32', shape: [ROWS, 128], data });
    const tx = link({
      scriptFile: 'chip0.ld',
      readFile: vfs({ 'x.npy': npy }),
      script: MEM + `tensor x_hbm { format = RFP8; shape = [${ROWS}, 128]; region = hbm; data = "x.npy"; }
tensor x { format = RFP8; shape = [${ROWS}, 128]; region = amem0; zero = true; }
queue h2a { trip load { src = x_hbm; dst = x; } }
queue rdma_tx0 { trip send { src = x; tjid = 12; rjid = 34; dest_voq = ${voqOf(1, 0)}; page_size_words = 32; } }
send after load;
`,
    }).image;
    const rx = link({
      scriptFile: 'chip1.ld',
      script: MEM + `tensor y { format = RFP8; shape = [${ROWS}, 128]; region = amem0; zero = true; }
tensor y_hbm { format = RFP8; shape = [${ROWS}, 128]; region = hbm; zero = true; }
queue rdma_rx0 { trip recv { dst = y; tjid = 12; rjid = 34; msg_voq = ${voqOf(0, 0)}; } }
queue a2h { trip store { src = y; dst = y_hbm; } }
store after recv;
`,
    }).image;
    const sys = buildSystem([tx, rx], { grantDelay: 300, latency: 1000 });
    const res = sys.run();
    expect(res.reason).toBe('done');
    const sym = (img: typeof tx, name: string) => {
      const s = img.symbols.find((x) => x.name === name)!;
      return img.sections[s.section]!.address + s.offset;
    };
    const bytes = ROWS * 128;
    const x = sys.chips[0]!.amem[0]!.readBytes(sym(tx, 'x'), bytes);
    expect(x.some((b) => b !== 0)).toBe(true);
    expect(firstDiff(sys.chips[1]!.amem[0]!.readBytes(sym(rx, 'y'), bytes), x)).toBe(-1);
    expect(firstDiff(sys.chips[1]!.hbm.readBytes(sym(rx, 'y_hbm'), bytes), x)).toBe(-1);
    // the A2H trip started after the RDMA Rx trip completed (its notification released the barrier)
    expect(sys.chips[1]!.tripsByKind['a2h']).toBe(1);
    expect(sys.chips[1]!.fabricAdapter!.report().clusters[0]!.rx_pages).toBe(Math.ceil(bytes / 128 / 32));
  });
});
