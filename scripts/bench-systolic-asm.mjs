#!/usr/bin/env node
// Systolic assembler throughput on the real ResNet-20 (ZCU104) program: its .tprog disassembled to a 50,122-line .tasm
// and assembled back on the shared front end (the bytes must round-trip). Reports lines/s (wall and process CPU, best of
// N runs) for: this build; this build with the plain-line fast path off (every file through the Chevrotain lexer and
// parser); and, with --baseline DIR, another checkout's build (e.g. the commit before the speed-up) in the same run.
// Usage: node scripts/bench-systolic-asm.mjs [runs] [--baseline DIR] [--write FILE.tasm]   (build first: npx tsc -b)
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import * as here from '../packages/target-systolic/dist/index.js';

const DIR = fileURLToPath(new URL('../../shared/fixtures/tensil/resnet20-zcu104-uram/', import.meta.url));
const MODEL = DIR + 'resnet20v2_cifar_onnx_zcu104_uram.tmodel';
if (!existsSync(MODEL)) {
  console.log(`skipped: no fixture at ${MODEL}`);
  process.exit(0);
}
const args = process.argv.slice(2);
const opt = (flag) => {
  const k = args.indexOf(flag);
  return k >= 0 ? args.splice(k, 2)[1] : undefined;
};
const out = opt('--write');
const baseDir = opt('--baseline');
const RUNS = Number(args[0] ?? 3);
const m = here.parseTModel(readFileSync(MODEL, 'utf8'), MODEL);
const prog = readFileSync(DIR + m.prog.file_name);
const text = here.disassembleProgram(here.decodeProgram(prog, m.arch, 'resnet.tprog'), m.arch);
if (out) writeFileSync(out, text);
const lines = text.split('\n').filter((l) => l.trim()).length;
console.log(`ResNet-20 listing: ${lines} lines, ${(text.length / 1e6).toFixed(2)} MB; load average ${(await import('node:os')).loadavg()[0].toFixed(1)}`);

function bench(label, assemble) {
  const wall = [];
  const cpu = [];
  for (let k = 0; k < RUNS; k++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const r = assemble();
    const t1 = performance.now();
    const c1 = process.cpuUsage(c0);
    if (r.diagnostics.some((d) => d.severity === 'error')) throw new Error(`${label}: ${r.diagnostics[0].message}`);
    if (Buffer.compare(Buffer.from(r.bytes), prog) !== 0) throw new Error(`${label}: assembled bytes differ from the .tprog`);
    wall.push(t1 - t0);
    cpu.push((c1.user + c1.system) / 1000);
  }
  const w = Math.min(...wall);
  const c = Math.min(...cpu);
  console.log(`${label.padEnd(34)} wall ${w.toFixed(0).padStart(6)} ms = ${String(Math.round(lines / (w / 1000))).padStart(7)} lines/s   CPU ${c.toFixed(0).padStart(6)} ms = ${String(Math.round(lines / (c / 1000))).padStart(7)} lines/s   (best of ${RUNS}; runs ${wall.map((x) => x.toFixed(0)).join(', ')} ms)`);
  return { w, c };
}

const input = [{ file: 'resnet.tasm', text }];
let base;
if (baseDir) {
  const mod = await import(pathToFileURL(join(resolve(baseDir), 'packages/target-systolic/dist/index.js')).href);
  base = bench(`baseline (${baseDir})`, () => mod.assembleSystolic(input, m.arch));
}
const slow = bench('this build, Chevrotain front end', () => here.assembleSystolic(input, m.arch, { fastPath: false }));
const fast = bench('this build, plain-line fast path', () => here.assembleSystolic(input, m.arch));
const ratio = (a, b) => `${(a.w / b.w).toFixed(1)}x wall, ${(a.c / b.c).toFixed(1)}x CPU`;
console.log(`speed-up: ${ratio(slow, fast)} over the Chevrotain path${base ? `; ${ratio(base, fast)} over the baseline` : ''} (wall times vary with the machine's load; CPU is steadier)`);
