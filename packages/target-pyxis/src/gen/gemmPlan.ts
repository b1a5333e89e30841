/**
 * The tile schedule of the GEMM generator (gen/gemm.ts; docs/generators.md "GEMM"): which worker computes which
 * 128 x 128 output tile, which operand blocks stay resident in a cluster's AMEM and which are streamed through a
 * worker's double buffers. Blocks are global: row block z * MB + mi, column block z * NB + ni (batch z).
 */
import { GenError, chipLimits, type Worker } from './errors.js';

export interface Run {
  /** First block and number of consecutive blocks loaded by one H2A trip. */
  start: number;
  len: number;
}

export interface Plan {
  /** Tiles of each worker, in order. */
  jobs: Array<Array<{ mi: number; ni: number }>>;
  /** Clusters whose A row blocks / B column blocks are loaded once into AMEM (shared by the cluster's UIEs). */
  residentA: Map<number, Run[]>;
  residentB: Map<number, Run[]>;
}

/** Consecutive blocks grouped into runs (one H2A trip each: the blocks are contiguous in HBM, each 128 rows in AMEM). */
function runsOf(blocks: number[], short: (b: number) => boolean): Run[] {
  const out: Run[] = [];
  for (const b of blocks) {
    const last = out[out.length - 1];
    // a short block (a last row block of fewer than 128 rows) ends its run: the next block is not 128 rows further
    if (last && last.start + last.len === b && !short(b - 1)) last.len++;
    else out.push({ start: b, len: 1 });
  }
  return out;
}

/** The run holding `block` and the block's index in it. */
export function runOf(runs: Run[], block: number): { run: number; at: number } {
  const run = runs.findIndex((r) => block >= r.start && block < r.start + r.len);
  return { run, at: block - runs[run]!.start };
}

/**
 * Tiles in column-block-major order (t = ni * M/128 + mi), contiguous chunks per worker, the workers of a cluster
 * taking consecutive chunks: consecutive tiles of a worker share the B column block and a cluster's tiles cover a
 * contiguous range of column blocks. The A row blocks and the B column blocks of a cluster are loaded once into its
 * AMEM (a few large H2A trips, shared by the cluster's 12 UIEs) when they fit next to the C double buffers; else they
 * are streamed per worker through double buffers, reloaded whenever the block changes.
 */
export function planTiles(BT: number, MB: number, NB: number, ws: Worker[], aBytes: number, bBytes: number, cBytes: number, biasBytes: number, amemBudget: number | undefined, shortA: (b: number) => boolean): Plan {
  const lim = chipLimits();
  const budget = amemBudget ?? lim.amemBytes - 1024 * 1024; // 1 MiB left for descriptor lists and the barrier tables
  const T = BT * MB * NB;
  const jobs: Plan['jobs'] = ws.map(() => []);
  const order = ws.map((_, i) => i).sort((x, y) => ws[x]!.cluster - ws[y]!.cluster || ws[x]!.uie - ws[y]!.uie);
  order.forEach((i, k) => {
    for (let t = Math.floor((k * T) / ws.length); t < Math.floor(((k + 1) * T) / ws.length); t++) {
      // t = (bi * NB + ni) * MB + mi: global row block bi*MB + mi, global column block bi*NB + ni
      const g = Math.floor(t / MB);
      jobs[i]!.push({ mi: Math.floor(g / NB) * MB + (t % MB), ni: g });
    }
  });
  const residentA = new Map<number, Run[]>();
  const residentB = new Map<number, Run[]>();
  for (const c of new Set(ws.map((w) => w.cluster))) {
    const mine = ws.map((w, i) => (w.cluster === c ? i : -1)).filter((i) => i >= 0 && jobs[i]!.length > 0);
    const streamed = mine.length * 2 * (aBytes + bBytes + cBytes) + biasBytes;
    if (streamed > budget)
      throw amemBudget === undefined
        ? new GenError('GEN0008', 'k', `double-buffered tiles need ${streamed} bytes of AMEM in cluster ${c} (limit ${budget}: 64 MiB less 1 MiB for descriptor lists); use a smaller K or fewer UIEs per cluster`)
        : // the user's budget is the limit that binds (the C buffers alone may exceed it, whatever K): name it
          new GenError('GEN0008', 'amem-budget', `double-buffered tiles need ${streamed} bytes of AMEM in cluster ${c} (limit ${budget}: the AMEM budget given); give at least ${streamed}, or a smaller K or fewer UIEs per cluster`);
    const aBlocks = [...new Set(mine.flatMap((i) => jobs[i]!.map((t) => t.mi)))].sort((x, y) => x - y);
    const bBlocks = [...new Set(mine.flatMap((i) => jobs[i]!.map((t) => t.ni)))].sort((x, y) => x - y);
    let used = streamed;
    if (aBlocks.length > 0 && used - mine.length * 2 * aBytes + aBlocks.length * aBytes <= budget) {
      used += aBlocks.length * aBytes - mine.length * 2 * aBytes;
      residentA.set(c, runsOf(aBlocks, shortA));
    }
    if (bBlocks.length > 0 && used - mine.length * 2 * bBytes + bBlocks.length * bBytes <= budget) residentB.set(c, runsOf(bBlocks, () => false));
  }
  return { jobs, residentA, residentB };
}

/** For each tile, the load that feeds it: a new load (index q, buffer q mod 2) whenever the block changes. */
export function loadSeq(blocks: number[]): Array<{ index: number; first: number; last: number }> {
  const out: Array<{ index: number; first: number; last: number }> = [];
  let cur: { index: number; first: number; last: number } | undefined;
  blocks.forEach((b, j) => {
    if (!cur || blocks[j - 1] !== b) cur = { index: cur ? cur.index + 1 : 0, first: j, last: j };
    cur.last = j;
    out.push(cur);
  });
  return out;
}
