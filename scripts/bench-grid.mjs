#!/usr/bin/env node
/**
 * LLC grid host-speed benchmark (not a test; issue 10 "Host speed"): bit-exact MACs per host second of
 *   1. one 128x128x4096 FP8 MatMul trip (samples/pyxis/matmul_fp8.pasm with K = 4096),
 *   2. a 3x3 convolution (samples/pyxis/conv3x3_pad.pasm with 128 input channels: 16 x 128 x 8 x 128 x 9 MACs),
 * each simulated in full and with --timing-only (Uie option timingOnly: no LLC arithmetic), next to a plain
 * JavaScript float32 matrix multiplication of the same size measured in the same run, and the peak RSS.
 * Image building (assemble + link), building the chip and loading the image are excluded from the timings (the run
 * alone, as scripts/bench-sim.mjs busy48); CPU time of this process (process.cpuUsage: the machine is shared), best of
 * --reps runs (default 3: the JIT-warm rate a long chip-scale run sees; the reference is best of as many; the ~10 ms
 * timing-only runs best of 4x as many, interleaved with the bit-exact runs of the same image so that the ratio compares
 * runs made under the same load). The last lines
 * give the issue-23 ratios: bit-exact grid / JS float32 matmul (target >= 0.3) and bit-exact / timing-only host time
 * (target >= 20). Options: --k N (MatMul K, default 4096) --cin N (3x3 input channels, default 128) --reps N.
 * Build first: npx tsc -b
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { arg, buildSample, cpu, npyF32, samples, simulateBest } from './bench-pyxis-lib.mjs';
const K = arg('k', 4096);
const CIN = arg('cin', 128);
const REPS = arg('reps', 3);
const tmp = mkdtempSync(join(tmpdir(), 'bench-grid-'));

const npy = (file, shape, data) => npyF32(join(tmp, file), shape, data);
const build = (pasm, ld, edit) => buildSample(pasm, ld, edit, tmp);

const pickGrid = (c) => ({ macs: c?.macs ?? 0, util: c?.grid_utilisation ?? 0 });
/**
 * The bit-exact run and the --timing-only run of one image, interleaved (one bit-exact run, then four timing-only
 * runs, REPS times) so that both see the same phases of the shared host's load; best of each (the JIT-warm rate). The
 * ~10 ms timing-only runs get 4x as many tries so that one scheduler hiccup does not decide their best.
 */
function simulatePair(image) {
  let full;
  let timing;
  const better = (a, b) => (!a || b.s < a.s ? b : a);
  for (let r = 0; r < REPS; r++) {
    full = better(full, simulateBest(image, { reps: 1, uie: { timingOnly: false }, tag: 'bench-grid', pick: pickGrid }));
    for (let t = 0; t < 4; t++) timing = better(timing, simulateBest(image, { reps: 1, uie: { timingOnly: true }, tag: 'bench-grid', pick: pickGrid }));
  }
  return [full, timing];
}

function line(name, r) {
  console.log(
    `${name.padEnd(44)} ${(r.macs / 1e6).toFixed(1).padStart(8)} M MAC  ${String(r.cycles).padStart(7)} cycles  ${r.s.toFixed(4).padStart(8)} s  ${(r.macs / r.s / 1e6).toFixed(1).padStart(9)} M MAC/s${r.util ? `  utilisation ${(100 * r.util).toFixed(1)}%` : ''}`,
  );
}

// inputs: seeded FP8-exact values (the generator of the samples), written as .npy for the edited link scripts
execFileSync(process.execPath, [join(samples, 'make-compute-inputs.mjs'), tmp, '--k', String(K)], { stdio: 'ignore' });
const rnd = (() => {
  let a = 12345;
  return () => ((a = (Math.imul(a, 1103515245) + 12345) >>> 0) / 4294967296);
})();
const fp8 = (n) => Float32Array.from({ length: n }, () => (rnd() < 0.5 ? -1 : 1) * (1 + Math.floor(rnd() * 8) / 8) * 2 ** (Math.floor(rnd() * 5) - 3));
const lns = (n) => Float32Array.from({ length: n }, (_, i) => (i === 0 ? 2 : (rnd() < 0.5 ? -1 : 1) * 2 ** (Math.floor(rnd() * 4) - 3 + Math.floor(rnd() * 8) / 8)));
npy('c3_x.npy', [CIN, 8, 128], fp8(CIN * 8 * 128));
npy('c3_w.npy', [16, CIN, 3, 3], lns(16 * CIN * 9));

console.log(`bench-grid: node ${process.version}, CPU time of this process; best of ${REPS}`);
const mm = build('matmul_fp8.pasm', 'matmul_fp8.ld', (t, f) => {
  let x = t.replace(/^\.const K = \d+/m, `.const K = ${K}`);
  if (f.endsWith('.ld')) x = x.replace(/\[128, 1024\]/g, `[128, ${K}]`).replace(/\[1024, 128\]/g, `[${K}, 128]`).replace(/mm_fp8_(a|b)\.npy/g, K === 1024 ? 'mm_fp8_$1.npy' : `mm_fp8_$1_k${K}.npy`);
  return x;
});
const c3 = build('conv3x3_pad.pasm', 'conv3x3_pad.ld', (t) => t.replace(/^\.const CIN = \d+/m, `.const CIN = ${CIN}`).replace(/\[16, 8, 128\]; eb = -12/, `[${CIN}, 8, 128]; eb = -12`));
const [mmFull, mmTiming] = simulatePair(mm);
const [c3Full, c3Timing] = simulatePair(c3);
line(`FP8 MatMul 128x128x${K}`, mmFull);
line(`FP8 MatMul 128x128x${K} --timing-only`, mmTiming);
line(`3x3 conv ${CIN}->16, 8x128`, c3Full);
line(`3x3 conv ${CIN}->16, 8x128 --timing-only`, c3Timing);

// plain JavaScript float32 matrix multiplication of the same size (i-k-j loop, Float32Array)
{
  const a = fp8(128 * K);
  const b = fp8(K * 128);
  let s = Infinity;
  for (let r = 0; r < REPS; r++) {
    const c = new Float32Array(128 * 128);
    const t0 = cpu();
    for (let i = 0; i < 128; i++)
      for (let k = 0; k < K; k++) {
        const x = a[i * K + k];
        const bo = k * 128;
        const co = i * 128;
        for (let j = 0; j < 128; j++) c[co + j] += x * b[bo + j];
      }
    s = Math.min(s, cpu() - t0);
  }
  line(`JS float32 matmul 128x128x${K} (reference)`, { macs: 128 * 128 * K, cycles: 0, s });
  const rate = (r) => r.macs / r.s;
  console.log(`bit-exact grid / JS float32 matmul: MatMul ${(rate(mmFull) / ((128 * 128 * K) / s)).toFixed(2)}x, 3x3 conv ${(rate(c3Full) / ((128 * 128 * K) / s)).toFixed(2)}x`);
  console.log(`bit-exact / --timing-only host time: MatMul ${(mmFull.s / mmTiming.s).toFixed(1)}x, 3x3 conv ${(c3Full.s / c3Timing.s).toFixed(1)}x`);
}
console.log(`peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`);
rmSync(tmp, { recursive: true, force: true });
