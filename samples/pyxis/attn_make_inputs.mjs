#!/usr/bin/env node
// Float inputs of attn_causal.ld (deterministic): one causal attention head, 128 tokens, d_k = 64, d_v = 128.
//   node samples/pyxis/attn_make_inputs.mjs [OUTDIR] [--general]
// Stored feature-major where the grid wants it (attn_causal.pasm header): attn_qt.npy = Q^T [64, 128] (the AMEM Read
// operand), attn_kt.npy = K^T [64, 128] (the transposed weights-path operand), attn_v.npy = V [128, 128] (token-major:
// it is the transposed weights operand A^T of O^T = V^T P^T).
// Q: +-(1 + F/8) * 2^e, exact in RFP8 (eb -12). K and V: +-2^e, exact in RFP8 and also in the weights path's
// LnsI5F3 (chip §6.2.4.4), so the error figures isolate the MNS accumulation, the FP16 writeback and the VPU.
// --general: attn_gen_{qt,kt,v}.npy with K and V +-(1 + F/8) * 2^e too (exact in RFP8, rounded by the weights path to
// LnsI5F3: the error figures of real FP8 data).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const general = args.includes('--general');
const out = args.find((a) => !a.startsWith('--')) ?? dirname(fileURLToPath(import.meta.url));
mkdirSync(out, { recursive: true });
let seed = 20261124 ^ 0x5a7;
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
const pre = general ? 'attn_gen_' : 'attn_';
npy(`${pre}qt.npy`, [64, 128], vals(64 * 128, 3, -1, 1));
npy(`${pre}kt.npy`, [64, 128], vals(64 * 128, general ? 3 : 0, -1, 1));
npy(`${pre}v.npy`, [128, 128], vals(128 * 128, general ? 3 : 0, -2, 1));
