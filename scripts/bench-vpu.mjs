#!/usr/bin/env node
/**
 * VPU host-speed benchmark (not a test; issue 11 "Checks"): VPU lane-operations per host second of
 *   1. samples/pyxis/vpu_relu.pasm as shipped (16 rows x 2 instructions: mostly pipeline fill and write commit),
 *   2. the same data path with ROWS rows and a synthetic N-instruction FP16 program per row (a VPU-bound loop:
 *      MUL by 0.5 popping the InFIFO, then ADD / MAX / MUL / RELU in turn, the last one pushing the OutFIFO),
 * simulated bit-exact through the whole chip model (H2A, AMEM -> Vbuffer -> VPU -> Vbuffer -> AMEM, A2H), next to a
 * plain JavaScript Float32Array loop doing the same per-lane operations measured in the same run, and the peak RSS.
 * Image building (assemble + link), building the chip and loading the image are excluded from the timings (the run
 * alone, as scripts/bench-grid.mjs); CPU time of this process (process.cpuUsage: the machine is shared).
 * With --gpr the constants come from GPRs instead of immediates (the program starts with 4 MOVs of them into r2..r5,
 * counted as lane-operations on both sides): no instruction is then eligible for the model's result tables
 * (compute/vpu.ts `Vpu.table`), so this is the lane-by-lane arithmetic speed.
 * Options: --rows N (default 2048), --n N (VPU instructions per row, 2..64, default 16; 6..64 with --gpr),
 * --reps N (best of, default 3), --gpr, --no-vpu-replay (without the VPU-only cycle replay, uie/vpuBatch.ts: the
 * figures before issue 23's fast path, for comparison in the same conditions), --no-vpu-fuse (without the fused
 * chains of unary instructions, compute/vpuChain.ts).
 * Build first: npx tsc -b
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { arg, buildSample, cpu, npyF32, samples, simulateBest } from './bench-pyxis-lib.mjs';
import { VpuBatchState } from '../packages/target-pyxis/dist/sim/uie/vpuBatch.js';
import { Vpu } from '../packages/target-pyxis/dist/sim/uie/compute/vpu.js';
const ROWS = arg('rows', 2048);
const N = arg('n', 16);
const REPS = arg('reps', 3);
const GPR = process.argv.includes('--gpr');
if (process.argv.includes('--no-vpu-replay')) VpuBatchState.enabled = false;
if (process.argv.includes('--no-vpu-fuse')) Vpu.fuseEnabled = false;
if (!(N >= (GPR ? 6 : 2) && N <= 64)) throw new Error(`bench-vpu: --n must be in ${GPR ? 6 : 2}..64`);
const tmp = mkdtempSync(join(tmpdir(), 'bench-vpu-'));

const npy = (file, shape, data) => npyF32(join(tmp, file), shape, data);
const build = buildSample;

function simulate(image) {
  return simulateBest(image, {
    reps: REPS,
    tag: 'bench-vpu',
    pick: (c) => {
      if (!c?.vpu) throw new Error('bench-vpu: the VPU did not run');
      return { laneOps: c.vpu.lane_ops, util: c.vpu.lane_utilisation };
    },
  });
}

function line(name, r) {
  console.log(
    `${name.padEnd(50)} ${(r.laneOps / 1e6).toFixed(3).padStart(8)} M lane-ops  ${r.cycles ? String(r.cycles).padStart(8) + ' cycles' : ' '.repeat(15)}  ${r.s.toFixed(3).padStart(7)} s  ${(r.laneOps / r.s / 1e6).toFixed(2).padStart(8)} M lane-ops/s${r.util ? `  VPU lane utilisation ${(100 * r.util).toFixed(1)}%` : ''}`,
  );
}

// The synthetic program: x0 = 0.5 * in; then ADD 0.25, MAX -1, MUL 0.75, RELU in turn; the N-th pushes the result.
const OPS = ['ADD', 'MAX', 'MUL', 'RELU'];
const IMM = { ADD: '0x3400', MAX: '0xbc00', MUL: '0x3a00' }; // 0.25, -1.0, 0.75 (FP16 at EB -15)
const GPR_OF = { ADD: 'r3', MAX: 'r4', MUL: 'r5' };
function vpuProgramGpr(n) {
  const lines = [
    '  MOV rd=r2 src1_sel=IMM imm=0x3800 wr_gpr_en=1',
    ...Object.entries(GPR_OF).map(([op, r]) => `  MOV rd=${r} src1_sel=IMM imm=${IMM[op]} wr_gpr_en=1`),
    '  MUL rd=r1 src1_sel=IN_FIFO in_fifo_pop=1 rs2=r2 wr_gpr_en=1',
  ];
  for (let j = 5; j < n; j++) {
    const op = OPS[(j - 5) % OPS.length];
    const src2 = op === 'RELU' ? '' : ` rs2=${GPR_OF[op]}`;
    lines.push(`  ${op} rd=r1 rs1=r1${src2} wr_gpr_en=1${j === n - 1 ? ' out_fifo_push=1' : ''}`);
  }
  return lines.join('\n');
}
function vpuProgram(n) {
  if (GPR) return vpuProgramGpr(n);
  const lines = ['  MUL rd=r1 src1_sel=IN_FIFO in_fifo_pop=1 src2_sel=IMM imm=0x3800 wr_gpr_en=1'];
  for (let j = 1; j < n; j++) {
    const op = OPS[(j - 1) % OPS.length];
    const src2 = op === 'RELU' ? '' : ` src2_sel=IMM imm=${IMM[op]}`;
    lines.push(`  ${op} rd=r1 rs1=r1${src2} wr_gpr_en=1${j === n - 1 ? ' out_fifo_push=1' : ''}`);
  }
  return lines.join('\n');
}

/** The same per-lane operations on Float32Arrays (one pass per row over 128 lanes, as the VPU executes them). */
function jsReference(x, n) {
  const out = new Float32Array(x.length);
  const r = new Float32Array(128);
  const t0 = cpu();
  for (let row = 0; row < x.length / 128; row++) {
    const o = row * 128;
    for (let l = 0; l < 128; l++) r[l] = 0.5 * x[o + l];
    for (let j = 1; j < n; j++) {
      const op = (j - 1) % 4;
      if (op === 0) for (let l = 0; l < 128; l++) r[l] = r[l] + 0.25;
      else if (op === 1) for (let l = 0; l < 128; l++) r[l] = r[l] > -1 ? r[l] : -1;
      else if (op === 2) for (let l = 0; l < 128; l++) r[l] = r[l] * 0.75;
      else for (let l = 0; l < 128; l++) r[l] = r[l] > 0 ? r[l] : 0;
    }
    out.set(r, o);
  }
  return { s: cpu() - t0, out };
}

/** The --gpr program on Float32Arrays: 4 constant rows filled per row (the MOVs), then the n - 4 operations reading them. */
function jsReferenceGpr(x, n) {
  const out = new Float32Array(x.length);
  const r = new Float32Array(128);
  const c = [new Float32Array(128), new Float32Array(128), new Float32Array(128), new Float32Array(128)];
  const K = [0.5, 0.25, -1, 0.75];
  const t0 = cpu();
  for (let row = 0; row < x.length / 128; row++) {
    const o = row * 128;
    for (let k = 0; k < 4; k++) c[k].fill(K[k]);
    const [half, add, lo, mul] = c;
    for (let l = 0; l < 128; l++) r[l] = half[l] * x[o + l];
    for (let j = 5; j < n; j++) {
      const op = (j - 5) % 4;
      if (op === 0) for (let l = 0; l < 128; l++) r[l] = r[l] + add[l];
      else if (op === 1) for (let l = 0; l < 128; l++) r[l] = r[l] > lo[l] ? r[l] : lo[l];
      else if (op === 2) for (let l = 0; l < 128; l++) r[l] = r[l] * mul[l];
      else for (let l = 0; l < 128; l++) r[l] = r[l] > 0 ? r[l] : 0;
    }
    out.set(r, o);
  }
  return { s: cpu() - t0, out };
}

const rnd = (() => {
  let a = 12345;
  return () => (a = (Math.imul(a, 1103515245) + 12345) >>> 0) / 4294967296;
})();
const x = Float32Array.from({ length: ROWS * 128 }, () => (rnd() - 0.5) * 8);
npy('vpu_src.npy', [ROWS, 128], x);

console.log(`bench-vpu: node ${process.version}, CPU time of this process; best of ${REPS}`);
const relu = build('vpu_relu.pasm', 'vpu_relu.ld', (t) => t, samples);
line('vpu_relu sample (16 rows x 2 instructions)', simulate(relu));
const synth = build(
  'vpu_relu.pasm',
  'vpu_relu.ld',
  (t, f) =>
    f.endsWith('.ld')
      ? t.replace(/\[16, 128\]/g, `[${ROWS}, 128]`).replace(/"relu_src\.npy"/, '"vpu_src.npy"')
      : t
          .replace(/\.vpu relu_scale \{[^}]*\}/, `.vpu relu_scale {\n${vpuProgram(N)}\n}`)
          .replace(/vpv_pgm_instr_count=2/, `vpv_pgm_instr_count=${N}`)
          .replace(/loop i0 16 \{/g, `loop i0 ${ROWS} {`),
  tmp,
);
const sim = simulate(synth);
line(`synthetic ${ROWS} rows x ${N} FP16 instructions${GPR ? ' (GPR operands)' : ''}`, sim);
let ref;
for (let r = 0; r < REPS; r++) {
  const t = GPR ? jsReferenceGpr(x, N) : jsReference(x, N);
  if (!ref || t.s < ref.s) ref = t;
}
line(`JS Float32Array, same ${N} ops per lane (reference)`, { laneOps: ROWS * N * 128, cycles: 0, s: ref.s });
console.log(`simulator / JS reference: ${((sim.laneOps / sim.s) / ((ROWS * N * 128) / ref.s)).toFixed(3)}x; peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`);
rmSync(tmp, { recursive: true, force: true });
