#!/usr/bin/env node
/**
 * Runs the all-reduce in the current directory (system.psys built as README.md shows) with every chip's chunks
 * dumped, and compares each chunk with the float64 sum of the inputs chipK_x_cJ.npy (docs/collectives.md).
 * usage: node ../check-allreduce.mjs N   (from samples/pyxis/collectives/ring_allreduce4)
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const N = Number(process.argv[2] ?? 4);
const sim = fileURLToPath(new URL('../../../bin/pyxis-sim', import.meta.url));
function npy(file) {
  const b = readFileSync(file);
  const hl = b.readUInt16LE(8);
  const header = b.toString('latin1', 10, 10 + hl);
  if (!header.includes("'<f4'")) throw new Error(`${file}: expected float32 (<f4)`);
  const body = b.subarray(10 + hl);
  return new Float32Array(body.buffer.slice(body.byteOffset, body.byteOffset + body.length));
}
const dumps = [];
for (let c = 0; c < N; c++) for (let j = 0; j < N; j++) dumps.push('--dump', `chip${c}:x_c${j}:f32=out${c}_${j}.npy`);
execFileSync(process.execPath, [sim, 'run', 'system.psys', ...dumps], { stdio: ['ignore', 'inherit', 'inherit'] });
let bad = 0;
for (let j = 0; j < N; j++) {
  const inputs = Array.from({ length: N }, (_, c) => npy(`chip${c}_x_c${j}.npy`));
  for (let c = 0; c < N; c++) {
    const o = npy(`out${c}_${j}.npy`);
    for (let i = 0; i < o.length; i++) {
      let ref = 0;
      for (const x of inputs) ref += x[i];
      if (o[i] !== ref) {
        if (bad++ < 5) console.log(`chip${c} x_c${j}[${i}] = ${o[i]}, float64 sum ${ref}`);
        break;
      }
    }
  }
}
if (bad) {
  console.log(`${bad} chunk(s) differ from the float64 sum`);
  process.exit(1);
}
console.log(`${N} chips x ${N} chunks: all equal to the float64 sum`);
