#!/usr/bin/env node
// Generator of samples/sweeps/matmul-k.json: the FP8 MatMul of samples/pyxis/matmul_fp8.pasm / .ld with another
// reduction length K (C[128,128] = A[128,K] x B[K,128]). The microcode takes K from its `.const K`; the link script
// gets the tensor shapes for K and zero-filled inputs (the sweep runs --timing-only: cycles do not depend on values).
//   node make-matmul-k.mjs K OUT.pimg          (K a multiple of 128)
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const [kText, out] = process.argv.slice(2);
const K = Number(kText);
if (!Number.isInteger(K) || K < 128 || K % 128 !== 0 || !out) {
  console.error('usage: node make-matmul-k.mjs K OUT.pimg   (K a multiple of 128)');
  process.exit(2);
}
const img = resolve(out);
mkdirSync(dirname(img), { recursive: true });
const pasm = readFileSync(join(here, '../pyxis/matmul_fp8.pasm'), 'utf8');
if (!/^\.const K = 1024$/m.test(pasm)) throw new Error('matmul_fp8.pasm no longer has `.const K = 1024`');
writeFileSync(`${img}.pasm`, pasm.replace(/^\.const K = 1024$/m, `.const K = ${K}`));
const ld = readFileSync(join(here, '../pyxis/matmul_fp8.ld'), 'utf8')
  .replace('shape = [128, 1024]; eb = -12; region = amem0; data = "mm_fp8_a.npy";', `shape = [128, ${K}]; eb = -12; region = amem0; zero = true;`)
  .replace('shape = [1024, 128]; eb = -12; region = amem0; data = "mm_fp8_b.npy";', `shape = [${K}, 128]; eb = -12; region = amem0; zero = true;`);
if (!ld.includes(`[128, ${K}]`) || !ld.includes(`[${K}, 128]`)) throw new Error('matmul_fp8.ld no longer declares a [128, 1024] and b [1024, 128]');
writeFileSync(`${img}.ld`, ld);
const tool = (name, args) => execFileSync(process.execPath, [join(here, '../../bin', name), ...args], { stdio: 'inherit' });
tool('pyxis-as', [`${img}.pasm`, '-o', `${img}.pobj`]);
tool('pyxis-ld', [`${img}.ld`, `${img}.pobj`, '-o', img]);
