#!/usr/bin/env node
/**
 * Transformer-layer host-time benchmark (not a test; issue 23 "Speed"): the chained layer of `pyxis-gen transformer`
 * (docs/generators.md, one image) generated, assembled, linked and simulated bit-exact and with --timing-only, host
 * seconds in total (assemble + link + simulate, CPU time of this process: the machine is shared), next to a plain
 * JavaScript float32 matrix multiplication of the layer's GEMM MACs measured in the same run, and the peak RSS.
 *   node scripts/bench-gen.mjs                 # seq 256, d_model 512, 4 heads, FFN 2048 (a minute or two)
 *   node scripts/bench-gen.mjs --full          # the default layer: seq 512, d_model 1024, 8 heads, FFN 4096 (minutes)
 *   node scripts/bench-gen.mjs --timing-only   # skip the bit-exact pass
 *   node scripts/bench-gen.mjs --threads 2     # also `pyxis-sim run --timing-only --threads 2` of the linked image, next
 *                                              # to `--threads 1` in the same run (child processes; CPU from
 *                                              # /proc/self/stat, Linux), and the run's `parallel.note`
 * Options: --seq --d-model --heads --ffn --clusters 0,1,2,3 --uies 12. Build first: npx tsc -b
 * Peak RSS over sequence length and K: scripts/bench-gen-memory.mjs.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runKernelFiles, transformer, writeKernel } from '../packages/target-pyxis/dist/gen/index.js';
import { assemble, loadPyxisIsa } from '../packages/target-pyxis/dist/asm/index.js';
import { link } from '../packages/target-pyxis/dist/ld/index.js';
import { writeContainerFile } from '@pyxis/container';

const argv = process.argv.slice(2);
const has = (k) => argv.includes(`--${k}`);
const opt = (k, d) => (argv.includes(`--${k}`) ? argv[argv.indexOf(`--${k}`) + 1] : d);
const full = has('full');
const p = {
  seq: Number(opt('seq', full ? 512 : 256)),
  dModel: Number(opt('d-model', full ? 1024 : 512)),
  heads: Number(opt('heads', full ? 8 : 4)),
  ffn: Number(opt('ffn', full ? 4096 : 2048)),
  clusters: opt('clusters', '0,1,2,3').split(',').map(Number),
  uies: Number(opt('uies', 12)),
};
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
const lut = fileURLToPath(new URL('./make-vpu-lut.mjs', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'bench-gen-'));
try {
  const k = transformer(p);
  console.log(`bench-gen: node ${process.version}; ${k.notes[0]}`);
  writeKernel(k, tmp, { makeLut: (fn, path) => execFileSync(process.execPath, [lut, '--fn', fn, '-o', path], { stdio: 'ignore' }) });
  const modes = has('timing-only') ? [true] : [false, true];
  const totals = {};
  for (const timingOnly of modes) {
    const t0 = cpu();
    const r = runKernelFiles(k, tmp, { timingOnly });
    const s = cpu() - t0;
    totals[timingOnly ? 'timing' : 'exact'] = s;
    const f = r.figures;
    console.log(`${timingOnly ? 'timing-only' : 'bit-exact'} layer (one image): ${f.cycles} cycles, ${f.tflops.toFixed(1)} TFLOPS simulated, host ${s.toFixed(2)} s CPU (assemble + link + simulate), ${(f.cycles / s / 1e3).toFixed(1)} k chip-cycles per CPU-second${r.ok ? '' : '  (NOT ok: ' + r.lines.filter((l) => /warning|ABOVE|deadlock/.test(l)).join('; ') + ')'}`);
    for (const l of r.lines) if (/^ {2}\S.*cycles .*span/.test(l)) console.log(l);
  }
  if (totals.exact && totals.timing) console.log(`timing-only speed-up: ${(totals.exact / totals.timing).toFixed(1)}x`);
  // reference: the layer's MACs (QKV, attention, out, FFN1, FFN2) as one plain JS float32 matmul shape, timed
  // on a 128 x 128 x K slice and scaled by MACs (i-k-j loop, Float32Array)
  const macs = k.meta.flops / 2;
  const K = 4096;
  const a = Float32Array.from({ length: 128 * K }, (_, i) => ((i * 7919) % 13) / 8 - 0.75);
  const b = Float32Array.from({ length: K * 128 }, (_, i) => ((i * 104729) % 11) / 8 - 0.6);
  const cc = new Float32Array(128 * 128);
  const t = cpu();
  for (let i = 0; i < 128; i++)
    for (let k = 0; k < K; k++) {
      const x = a[i * K + k];
      for (let j = 0; j < 128; j++) cc[i * 128 + j] += x * b[k * 128 + j];
    }
  const rate = (128 * 128 * K) / (cpu() - t);
  console.log(`reference: plain JS float32 matmul ${(rate / 1e6).toFixed(0)} M MAC/s -> the layer's ${(macs / 1e9).toFixed(2)} G MACs in ${(macs / rate).toFixed(2)} s${totals.exact ? `; bit-exact simulation ${(totals.exact / (macs / rate)).toFixed(1)}x that` : ''}`);
  console.log(`peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`);
  if (has('threads')) threadRuns(Number(opt('threads', 2)));

} finally {
  rmSync(tmp, { recursive: true, force: true });
}

/** CPU seconds of this process's finished children (Linux /proc/self/stat cutime + cstime, clock ticks of 1/100 s). */
function childCpu() {
  const f = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  return (Number(f[13]) + Number(f[14])) / 100;
}

/** `pyxis-sim run IMAGE --timing-only --threads N` (the CLI: threads need worker processes' own module graph). */
function threadRuns(threads) {
  const k = transformer(p);
  const obj = assemble([{ file: join(tmp, `${k.name}.pasm`), text: k.pasm }], { isa: loadPyxisIsa(), listing: false }).object;
  const linked = link({ script: k.ld, scriptFile: join(tmp, `${k.name}.ld`), objects: [{ file: `${k.name}.pobj`, container: obj }] });
  const img = join(tmp, `${k.name}.pimg`);
  writeContainerFile(img, linked.image);
  const sim = fileURLToPath(new URL('../bin/pyxis-sim', import.meta.url));
  for (const n of [1, threads]) {
    const stats = join(tmp, `stats${n}.json`);
    const c0 = childCpu();
    const w0 = performance.now();
    execFileSync(process.execPath, [sim, 'run', img, '--timing-only', '--threads', String(n), '--stats', stats], { stdio: 'ignore' });
    const wall = (performance.now() - w0) / 1e3;
    const s = JSON.parse(readFileSync(stats, 'utf8'));
    const par = s.parallel ?? {};
    console.log(`pyxis-sim run --timing-only --threads ${n}: ${s.cycles} cycles, ${(childCpu() - c0).toFixed(2)} s CPU, ${wall.toFixed(2)} s wall (whole process: read image, build, simulate); partitions ${par.partitions ?? 1}, parallel.note: ${JSON.stringify(par.note ?? null)}`);
  }
}
