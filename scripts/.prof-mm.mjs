import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { arg, buildSample, samples, simulateBest } from './bench-pyxis-lib.mjs';
const K = arg('k', 4096), TO = arg('to', 0), REPS = arg('reps', 3);
const tmp = mkdtempSync(join(tmpdir(), 'prof-mm-'));
execFileSync(process.execPath, [join(samples, 'make-compute-inputs.mjs'), tmp, '--k', String(K)], { stdio: 'ignore' });
const mm = buildSample('matmul_fp8.pasm', 'matmul_fp8.ld', (t, f) => {
  let x = t.replace(/^\.const K = \d+/m, `.const K = ${K}`);
  if (f.endsWith('.ld')) x = x.replace(/\[128, 1024\]/g, `[128, ${K}]`).replace(/\[1024, 128\]/g, `[${K}, 128]`).replace(/mm_fp8_(a|b)\.npy/g, K === 1024 ? 'mm_fp8_$1.npy' : `mm_fp8_$1_k${K}.npy`);
  return x;
}, tmp);
const r = simulateBest(mm, { reps: REPS, uie: { timingOnly: !!TO }, tag: 'p', pick: (c) => ({ macs: c?.macs }) });
console.log(r);
