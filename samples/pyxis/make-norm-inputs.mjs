#!/usr/bin/env node
// Float inputs of the VPU row-reduction samples (vpu_softmax.ld, vpu_rmsnorm.ld, vpu_layernorm.ld), deterministic
// (seeded PRNG, Box-Muller normals), and their lookup tables (scripts/make-vpu-lut.mjs):
//   node samples/pyxis/make-norm-inputs.mjs [OUTDIR]
// The linker rounds the floats to FP16 at EB -15; the tests take their float64 references from the FP16 values the
// UIE read (dumped back from AMEM), so the inputs need not be exact in FP16.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeNpyFile } from '@pyxis/container';

const here = dirname(fileURLToPath(import.meta.url));
const out = process.argv[2] ?? here;
mkdirSync(out, { recursive: true });

let seed = 0x5eed2026;
/** mulberry32 */
function rnd() {
  seed = (seed + 0x6d2b79f5) >>> 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
/** N(mean, sd) by Box-Muller */
const normal = (mean, sd) => mean + sd * Math.sqrt(-2 * Math.log(1 - rnd())) * Math.cos(2 * Math.PI * rnd());
const normals = (n, mean, sd) => Float32Array.from({ length: n }, () => normal(mean, sd));
const write = (file, shape, data) => writeNpyFile(join(out, file), { dtype: 'float32', shape, data });

// softmax: 64 rows of 128 logits ~ N(0, 3) (attention-score range)
write('sm_x.npy', [64, 128], normals(64 * 128, 0, 3));
// RMSNorm: 64 rows ~ N(0.5, sd) with sd ~ U(0.5, 3) per row, gamma ~ N(1, 0.25)
const rn = new Float32Array(64 * 128);
for (let r = 0; r < 64; r++) {
  const sd = 0.5 + 2.5 * rnd();
  for (let c = 0; c < 128; c++) rn[r * 128 + c] = normal(0.5, sd);
}
write('rn_x.npy', [64, 128], rn);
write('rn_gamma.npy', [1, 128], normals(128, 1, 0.25));
// LayerNorm: rows with a non-zero mean per row (mean ~ N(0, 2), sd ~ U(0.5, 3))
const ln = new Float32Array(64 * 128);
for (let r = 0; r < 64; r++) {
  const mu = normal(0, 2);
  const sd = 0.5 + 2.5 * rnd();
  for (let c = 0; c < 128; c++) ln[r * 128 + c] = normal(mu, sd);
}
write('ln_x.npy', [64, 128], ln);
// row 0 gamma ~ N(1, 0.25), row 1 beta ~ N(0, 0.5): one tensor, loaded into two Vbuffer scratchpad rows
write('ln_gb.npy', [2, 128], Float32Array.from([...normals(128, 1, 0.25), ...normals(128, 0, 0.5)]));

const lut = (fn, file) => execFileSync(process.execPath, [join(here, '../../scripts/make-vpu-lut.mjs'), '--fn', fn, '-o', join(out, file)], { stdio: 'ignore' });
lut('exp', 'sm_exp_lut.npy');
lut('recip', 'sm_recip_lut.npy');
lut('rsqrt', 'rn_rsqrt_lut.npy');
