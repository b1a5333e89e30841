/**
 * Shared pieces of the Pyxis compute benchmarks (scripts/bench-grid.mjs, scripts/bench-vpu.mjs): option parsing,
 * CPU time, a float32 .npy writer, building a sample with text edits and running an image on a one-UIE chip.
 * Not a test; CPU time of this process (process.cpuUsage: the machine is shared). Build first: npx tsc -b
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assemble, loadPyxisIsa } from '../packages/target-pyxis/dist/asm/index.js';
import { link } from '../packages/target-pyxis/dist/ld/index.js';
import { PyxisChip, loadSimConfig, inspectImage, loadImage, makeUieFactory, uieStats } from '../packages/target-pyxis/dist/sim/index.js';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const samples = join(root, 'samples', 'pyxis');

/** `--name N` from the command line, or `d`. */
export const arg = (name, d) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : d;
};

/** CPU seconds (user + system) of this process. */
export function cpu() {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

/** Float32 .npy writer (C order). */
export function npyF32(path, shape, data) {
  let h = `{'descr': '<f4', 'fortran_order': False, 'shape': (${shape.join(', ')}${shape.length === 1 ? ',' : ''}), }`;
  h += ' '.repeat((64 - ((10 + h.length + 1) % 64)) % 64) + '\n';
  const head = Buffer.alloc(10);
  head.write('\x93NUMPY', 0, 'latin1');
  head[6] = 1;
  head.writeUInt16LE(h.length, 8);
  writeFileSync(path, Buffer.concat([head, Buffer.from(h, 'latin1'), Buffer.from(data.buffer, data.byteOffset, data.byteLength)]));
}

let isa;
/** Assemble + link a sample with text edits; data files resolve against `dir` (where the edited script is written). */
export function buildSample(pasm, ld, edit, dir) {
  isa ??= loadPyxisIsa();
  const obj = assemble([{ file: pasm, text: edit(readFileSync(join(samples, pasm), 'utf8'), pasm) }], { isa, listing: false }).object;
  const script = edit(readFileSync(join(samples, ld), 'utf8'), ld);
  writeFileSync(join(dir, ld), script);
  return link({ script, scriptFile: join(dir, ld), objects: [{ file: 'x.pobj', container: obj }] }).image;
}

/**
 * Runs `image` `reps` times on a fresh one-UIE chip (building the chip and loading the image are not timed; run-ahead
 * quantum `--quantum N`, default 1 = lockstep as the figures in docs/timing-model.md; `pyxis-sim run` uses 256) and
 * returns the fastest run as `{ s, cycles, ...pick(computeStats) }`; `tag` names the benchmark in errors.
 */
export function simulateBest(image, { reps, uie = {}, pick, tag, quantum = arg('quantum', 1) }) {
  let best;
  const info = inspectImage(image, 'bench.pimg');
  for (let r = 0; r < reps; r++) {
    const chip = new PyxisChip({ clusters: 1, uies: 1, config: loadSimConfig(), uieFactory: makeUieFactory(uie), quantum });
    loadImage(chip, info);
    const t0 = cpu();
    const res = chip.sim.run();
    const s = cpu() - t0;
    if (res.reason !== 'done') throw new Error(`${tag}: the run stopped with ${res.reason}`);
    const figures = pick(uieStats(chip.uies[0].model)?.compute);
    if (!best || s < best.s) best = { s, cycles: res.cycles, ...figures };
  }
  return best;
}
