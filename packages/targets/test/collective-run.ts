/**
 * Generating, building and running a collective in-process (scripts/gen-collective.mjs, docs/collectives.md):
 * pyxis-as once, pyxis-ld per chip and for the system, pyxis-sim run with every chip's chunk tensors dumped.
 * Shared by the collective tests.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readNpy } from '@pyxis/container';
import { runAs, runLd, runSim } from '@pyxis/targets';
import { generate, type CollectiveOptions } from '../../../scripts/gen-collective.mjs';
import { call } from './cli-call.js';

export interface CollectiveRun {
  o: CollectiveOptions;
  dir: string;
  /** inputs[c][j]: chip c's contribution to chunk j (float32 as written to the .npy) */
  inputs: Float32Array[][];
  /** outputs[c][j]: chip c's chunk j after the run (dumped as f32); empty with data 'none' */
  outputs: Float32Array[][];
  cycles: number;
  stats: { chips: Array<Record<string, unknown>>; links: Array<Record<string, unknown>>; [k: string]: unknown };
  out: string;
  err: string;
  code: number;
}

export async function buildCollective(opts: Partial<CollectiveOptions> & Pick<CollectiveOptions, 'chips' | 'algorithm' | 'rows'>) {
  const dir = mkdtempSync(join(tmpdir(), `pyxis-coll-${opts.algorithm}-${opts.chips}-`));
  const o: CollectiveOptions = { pageSizeWords: 125, data: 'exact', seed: 1, out: dir, ...opts };
  const g = generate(o);
  const as = await call(runAs, [join(dir, 'collective.pasm'), '-o', join(dir, 'collective.pobj')]);
  if (as.code !== 0) throw new Error(`pyxis-as: ${as.err}`);
  for (let c = 0; c < o.chips; c++) {
    const l = await call(runLd, [join(dir, `chip${c}.ld`), join(dir, 'collective.pobj'), '-o', join(dir, `chip${c}.pimg`)]);
    if (l.code !== 0) throw new Error(`pyxis-ld chip${c}: ${l.err}`);
  }
  const s = await call(runLd, [join(dir, 'system.json'), '-o', join(dir, 'system.psys')]);
  if (s.code !== 0) throw new Error(`pyxis-ld system: ${s.err}`);
  return { o, dir, inputs: g.inputs };
}

export async function runCollective(
  built: { o: CollectiveOptions; dir: string; inputs: Float32Array[][] },
  extra: string[] = [],
  tag = 'r',
): Promise<CollectiveRun> {
  const { o, dir } = built;
  const N = o.chips;
  const dumps: string[] = [];
  if (o.data !== 'none')
    for (let c = 0; c < N; c++) for (let j = 0; j < N; j++) dumps.push('--dump', `chip${c}:x_c${j}:f32=${join(dir, `${tag}_o${c}_${j}.npy`)}`);
  const statsFile = join(dir, `${tag}_stats.json`);
  const r = await call(runSim, ['run', join(dir, 'system.psys'), '--stats', statsFile, ...dumps, ...extra]);
  const outputs: Float32Array[][] = [];
  if (r.code === 0 && o.data !== 'none')
    for (let c = 0; c < N; c++) {
      const row: Float32Array[] = [];
      for (let j = 0; j < N; j++) {
        const f = join(dir, `${tag}_o${c}_${j}.npy`);
        row.push(readNpy(readFileSync(f), f).data as Float32Array);
      }
      outputs.push(row);
    }
  const m = /completed after (\d+) cycles/.exec(r.out);
  let stats = { chips: [], links: [] } as CollectiveRun['stats'];
  try {
    stats = JSON.parse(readFileSync(statsFile, 'utf8'));
  } catch {
    /* a failed run may write no stats */
  }
  return { ...built, outputs, cycles: m ? Number(m[1]) : NaN, stats, out: r.out, err: r.err, code: r.code };
}
