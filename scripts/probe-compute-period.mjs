#!/usr/bin/env node
/**
 * Development probe (not a test, not a benchmark; issue 23 "steady-state fast path for compute trips"): is the UIE state
 * of a compute trip periodic? Runs the 128x128xK FP8 MatMul of scripts/bench-grid.mjs (--timing-only, lockstep) and
 *   1. snapshots every numeric field and small typed array reachable from the UIE (the operand / Hbuf / accumulator /
 *      switchbox data arrays and the static switch tables left out) at cycles T0, T0 + P and T0 + 2P for each candidate
 *      period P, and counts the fields whose two increments differ (a state that repeats up to linearly advancing
 *      counters, odometers, addresses and cycle stamps has none; `--show P` lists them);
 *   2. lists the cycles at which one of the UIE's AMEM bank claims was served late (amem/banks.ts), with the lengths of
 *      the conflict-free stretches between them.
 * docs/timing-model.md "Steady state of a compute trip" gives the result and what it means for a batch path.
 * Options: --k N (default 4096) --t0 N (default 1000) --periods 257,514,1028 --show P. Build first: npx tsc -b
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { arg, buildSample, samples } from './bench-pyxis-lib.mjs';
import { PyxisChip, inspectImage, loadImage, loadSimConfig, makeUieFactory } from '../packages/target-pyxis/dist/sim/index.js';

const K = arg('k', 4096);
const T0 = arg('t0', 1000);
const SHOW = arg('show', 0);
const pi = process.argv.indexOf('--periods');
const PERIODS = (pi >= 0 ? process.argv[pi + 1] : '257,514,1028').split(',').map(Number);
const tmp = mkdtempSync(join(tmpdir(), 'probe-period-'));
execFileSync(process.execPath, [join(samples, 'make-compute-inputs.mjs'), tmp, '--k', String(K)], { stdio: 'ignore' });
const image = buildSample('matmul_fp8.pasm', 'matmul_fp8.ld', (t, f) => {
  let x = t.replace(/^\.const K = \d+/m, `.const K = ${K}`);
  if (f.endsWith('.ld')) x = x.replace(/\[128, 1024\]/g, `[128, ${K}]`).replace(/\[1024, 128\]/g, `[${K}, 128]`).replace(/mm_fp8_(a|b)\.npy/g, K === 1024 ? 'mm_fp8_$1.npy' : `mm_fp8_$1_k${K}.npy`);
  return x;
}, tmp);
const chip = new PyxisChip({ clusters: 1, uies: 1, config: loadSimConfig(), uieFactory: makeUieFactory({ timingOnly: true }), quantum: 1 });
loadImage(chip, inspectImage(image, 'probe.pimg'));
const u = chip.uies[0].model;

// the state: what the UIE owns (not the AMEM, configuration, parameters, observer, messages); data arrays left out
const SKIP = new Set(['amem', 'config', 'params', 'observer', 'onTripDone', 'onDiagnostic', 'onPartialWrite', 'warnings', 'seqMsgs', 'sbMsgs', 'warned', 'itfeOverride', 'u', 'cmp', 'control', 'controlTable', 'opTable', 'rawCtl', 'rawOp', 'store']);
const DATA = /(\.flits|\.raw|\.raw32|hbuf\.data|acc\.|vbuffer\.data|\.vpu\.|inBytes|outBytes|in32|out32|tbuf|grid\.(h|hk|v)|gx\.(win|pad|snap)|\.sw\.|wdc\.lut|gwb\.colMask)/;
const names = [];
const getters = [];
const seen = new Set();
function walk(o, path) {
  if (o === null || typeof o !== 'object' || seen.has(o) || o instanceof Map || o instanceof Set) return;
  seen.add(o);
  if (ArrayBuffer.isView(o)) {
    if (DATA.test(path)) return;
    for (let i = 0; i < o.length; i++) {
      names.push(`${path}[${i}]`);
      getters.push(() => Number(o[i]));
    }
    return;
  }
  for (const k of Object.keys(o)) {
    if (SKIP.has(k)) continue;
    const v = o[k];
    if (typeof v === 'number' || typeof v === 'boolean') {
      names.push(`${path}.${k}`);
      getters.push(() => Number(o[k]));
    } else walk(v, `${path}.${k}`);
  }
}
walk(u, 'uie');
walk(u.cmp, 'cmp');
const snap = () => getters.map((g) => g());
const at = new Set([T0]);
for (const p of PERIODS) at.add(T0 + p).add(T0 + 2 * p);
const snaps = new Map();
const conflicts = [];
const cc = u.amem.banks.stats.clientConflicts;
let lastConf = 0;
const tick = u.tick.bind(u);
u.tick = (now) => {
  if (at.has(now)) snaps.set(now, snap());
  const r = tick(now);
  let c = 0;
  for (let i = 0; i < cc.length; i++) c += cc[i];
  if (c !== lastConf) conflicts.push(now);
  lastConf = c;
  return r;
};
const res = chip.sim.run();
console.log(`probe: 128x128x${K} FP8 MatMul --timing-only, ${res.cycles} cycles (${res.reason}); state vector ${names.length} numbers`);
for (const p of PERIODS) {
  const a = snaps.get(T0);
  const b = snaps.get(T0 + p);
  const c = snaps.get(T0 + 2 * p);
  if (!a || !b || !c) {
    console.log(`P ${p}: past the end of the run`);
    continue;
  }
  const bad = [];
  let drift = 0;
  for (let i = 0; i < a.length; i++) {
    const d1 = b[i] - a[i];
    const d2 = c[i] - b[i];
    if (d1 !== d2 && !(Number.isNaN(d1) && Number.isNaN(d2))) bad.push(`${names[i]} ${a[i]} ${b[i]} ${c[i]}`);
    else if (d1 !== 0) drift++;
  }
  console.log(`P ${p} (cycles ${T0}, ${T0 + p}, ${T0 + 2 * p}): ${bad.length} fields not linear, ${drift} advancing linearly`);
  if (p === SHOW) for (const x of bad) console.log(`  ${x}`);
}
const gaps = conflicts.slice(1).map((c, i) => c - conflicts[i]);
console.log(`AMEM bank conflicts of the UIE's ports (cycle of the late service): ${conflicts.join(' ')}`);
console.log(`conflict-free stretches: ${gaps.join(' ')}`);
rmSync(tmp, { recursive: true, force: true });
