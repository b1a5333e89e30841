#!/usr/bin/env node
// Assembler throughput and memory. Build first: npx tsc -b
//   node scripts/bench-asm.mjs [LINES=100000] [--in-process]
// 1. In process: `assemble` on a generated source (scripts/gen-pasm.mjs), best of 3, wall and CPU lines/s.
// 2. Whole processes (each a child, so its peak memory is its own): `pyxis-as` assembling the source, with
//    `--listing`, and disassembling the object, each with CPU time, lines/s, peak RSS and the RSS per added source
//    line (against the same command on a 2,000-line source, which measures the fixed cost: node, modules, tables),
//    next to the reference of the same run: a node process that only reads the source and splits its lines.
// Wall time is unreliable on a shared machine: CPU time (user + system of the child) is what is compared.
import { performance } from 'node:perf_hooks';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assemble, loadPyxisIsa } from '../packages/target-pyxis/dist/asm/index.js';
import { generatePasm } from './gen-pasm.mjs';

const LINES = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 100_000);
const inProcessOnly = process.argv.includes('--in-process');
const root = fileURLToPath(new URL('..', import.meta.url));
const { text, lines } = generatePasm(LINES);
const fmt = (n) => n.toLocaleString('en-US', { maximumFractionDigits: 0 });

// ---- 1. in process
{
  const isa = loadPyxisIsa();
  assemble({ file: 'warm.pasm', text: generatePasm(2000).text }, { isa, listing: false });
  const runs = [];
  const cpu = [];
  for (let k = 0; k < 3; k++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const r = assemble({ file: 'bench.pasm', text }, { isa, listing: false });
    const t1 = performance.now();
    const c1 = process.cpuUsage(c0);
    runs.push(t1 - t0);
    cpu.push((c1.user + c1.system) / 1000);
    if (k === 0) console.log(`source: ${fmt(lines)} lines, ${fmt(text.length)} bytes; programs: ${fmt(r.programs.length)}, instructions: ${fmt(r.programs.reduce((s, p) => s + p.count, 0))}`);
  }
  const best = Math.min(...runs);
  const bestCpu = Math.min(...cpu);
  console.log(`in process, best of 3 wall: ${best.toFixed(0)} ms = ${fmt(lines / (best / 1000))} lines/s (runs: ${runs.map((r) => r.toFixed(0)).join(', ')} ms)`);
  console.log(`in process, best of 3 CPU:  ${bestCpu.toFixed(0)} ms = ${fmt(lines / (bestCpu / 1000))} lines/s (includes GC on helper threads)`);
}
if (inProcessOnly) process.exit(0);

// ---- 2. whole processes: CPU time and peak RSS of each child (process.resourceUsage at exit)
const dir = mkdtempSync(join(tmpdir(), 'bench-asm-'));
try {
  const src = join(dir, 'big.pasm');
  writeFileSync(src, text);
  // each child reports its own usage when it exits (maxRSS in KiB, CPU in microseconds)
  const usage = join(dir, 'usage.cjs');
  writeFileSync(usage, `process.on('exit', () => { const u = process.resourceUsage(); require('node:fs').writeSync(2, '\\n@usage ' + JSON.stringify({ rss: u.maxRSS, cpu: u.userCPUTime + u.systemCPUTime }) + '\\n'); });\n`);
  const probe = (script, args) => {
    const r = spawnSync(process.execPath, ['--require', usage, ...script, ...args], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 30 });
    const m = /@usage (\{.*\})/.exec(r.stderr ?? '');
    if (r.status !== 0 || !m) throw new Error(`${script.join(' ')} ${args.join(' ')}: exit ${r.status}\n${(r.stderr ?? '').slice(0, 2000)}`);
    return JSON.parse(m[1]);
  };
  const as = join(root, 'bin', 'pyxis-as');
  // the same commands on a small source: their fixed cost (node, the toolchain's modules, the ISA tables)
  const small = generatePasm(2000);
  const smallSrc = join(dir, 'small.pasm');
  writeFileSync(smallSrc, small.text);
  const refOf = (file) => probe(['-e', `const t = require('node:fs').readFileSync(${JSON.stringify(file)}, 'utf8'); if (t.split('\\n').length < 1) process.exit(1);`], []);
  const cmds = (file, d) => [
    ['pyxis-as', [as], [file, '-o', join(d, 'o.pobj')]],
    ['pyxis-as --listing', [as], [file, '-o', join(d, 'o.pobj'), '--listing', join(d, 'o.lst')]],
    ['pyxis-as disassemble', [as], ['disassemble', join(d, 'o.pobj'), '-o', join(d, 'o.dis.pasm')]],
  ];
  const big = join(dir, 'big');
  const lit = join(dir, 'small');
  mkdirSync(big);
  mkdirSync(lit);
  const row = (what, u, s) => {
    const perLine = ((u.rss - s.rss) * 1024) / (lines - small.lines);
    console.log(
      `${what.padEnd(22)} CPU ${(u.cpu / 1e6).toFixed(2).padStart(7)} s = ${fmt(lines / (u.cpu / 1e6)).padStart(9)} lines/s   peak RSS ${fmt(u.rss / 1024).padStart(6)} MiB` +
        ` (${fmt(s.rss / 1024)} MiB at ${fmt(small.lines)} lines) = ${fmt(perLine).padStart(5)} B per added line`,
    );
  };
  console.log(`\nwhole processes, ${fmt(lines)} lines (${(statSync(src).size / 2 ** 20).toFixed(1)} MiB of source); B per added line = (peak RSS - peak RSS at ${fmt(small.lines)} lines) / added lines:`);
  row('reference (read text)', refOf(src), refOf(smallSrc));
  for (const [[what, script, args], [, sScript, sArgs]] of cmds(src, big).map((c, k) => [c, cmds(smallSrc, lit)[k]])) {
    const s = probe(sScript, sArgs);
    row(what, probe(script, args), s);
  }
  console.log(`  (listing ${(statSync(join(big, 'o.lst')).size / 2 ** 20).toFixed(1)} MiB, object ${(statSync(join(big, 'o.pobj')).size / 2 ** 20).toFixed(1)} MiB)`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
