#!/usr/bin/env node
// Float inputs of matmul_bias_relu.ld (deterministic): A [128,256] and B [256,128] exact in RFP8 with eb -12,
// bias [1,128] exact in FP16 at EB -15.   node samples/pyxis/make-fused-inputs.mjs [OUTDIR]
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const out = process.argv[2] ?? dirname(fileURLToPath(import.meta.url));
mkdirSync(out, { recursive: true });
let seed = 20261124;
const rnd = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296);
/** +-(1 + F/2^fbits) * 2^e, e in [emin, emax] */
const vals = (n, fbits, emin, emax) => Float32Array.from({ length: n }, () => (rnd() < 0.5 ? -1 : 1) * (1 + Math.floor(rnd() * (1 << fbits)) / (1 << fbits)) * 2 ** (emin + Math.floor(rnd() * (emax - emin + 1))));
function npy(file, shape, data) {
  let h = `{'descr': '<f4', 'fortran_order': False, 'shape': (${shape.join(', ')}${shape.length === 1 ? ',' : ''}), }`;
  while ((10 + h.length + 1) % 64) h += ' ';
  h += '\n';
  const pre = Buffer.from([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0, h.length & 255, h.length >> 8]);
  writeFileSync(join(out, file), Buffer.concat([pre, Buffer.from(h, 'latin1'), Buffer.from(data.buffer)]));
}
npy('mbr_a.npy', [128, 256], vals(128 * 256, 3, -3, 1));
npy('mbr_b.npy', [256, 128], vals(256 * 128, 3, -3, 1));
npy('mbr_bias.npy', [1, 128], vals(128, 10, -2, 3));
