#!/usr/bin/env node
/**
 * Peak host memory of chip-scale generated kernels (not a test; issue 23 "Memory stays flat in K and in sequence
 * length"): a sweep over the transformer layer's sequence length and over a GEMM's K, each point in fresh processes:
 *   build  generate + write the inputs + assemble + link + write the .pimg (in one process, like `pyxis-gen`)
 *   sim    `--timing-only` simulation of that .pimg (in one process, like `pyxis-sim run --timing-only`)
 * For the sim process it prints the peak RSS next to what the simulated chip holds: the AMEM blocks the program
 * wrote (materialised 16 KiB blocks), the HBM pages it owns (pages written at run time; the image's own pages are
 * views of the image's bytes, memory.ts `load`) and the image's bytes; `other` = peak RSS minus those three, i.e. the
 * simulator's own state (flat if the simulator is). In brackets, the same simulation with the image's HBM pages
 * copied (`HbmMemory.load` replaced by `writeBytes`, the storage before issue 23's change). A plain-JS reference (allocate and touch 64 MiB) is measured in a
 * child process of the same run, so the figures can be read against the machine's load.
 *   node scripts/bench-gen-memory.mjs                      # seq 128,256,512,768 and K 1024,2048,4096,8192
 *   node scripts/bench-gen-memory.mjs --seq 256,768 --k 1024,8192
 * GEMM points: M = N = 1024 on 48 UIEs (4 clusters x 12), FP8. Build first: npx tsc -b
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const self = fileURLToPath(import.meta.url);
const argv = process.argv.slice(2);
const opt = (k, d) => (argv.includes(`--${k}`) ? argv[argv.indexOf(`--${k}`) + 1] : d);
const MiB = 1024 * 1024;
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
const peak = () => (process.resourceUsage().maxRSS * 1024) / MiB;

async function child(mode, a, b, c) {
  if (mode === 'reference') {
    const x = new Uint8Array(64 * MiB);
    for (let i = 0; i < x.length; i += 4096) x[i] = i & 255;
    return { peak: peak() };
  }
  if (mode === 'build') {
    const gen = await import('../packages/target-pyxis/dist/gen/index.js');
    const { assemble, loadPyxisIsa } = await import('../packages/target-pyxis/dist/asm/index.js');
    const { link } = await import('../packages/target-pyxis/dist/ld/index.js');
    const { writeContainerFile } = await import('@pyxis/container');
    const p = JSON.parse(b);
    const t0 = cpu();
    let k = a === 'transformer' ? gen.transformer(p) : gen.gemm(p);
    const lut = fileURLToPath(new URL('./make-vpu-lut.mjs', import.meta.url));
    gen.writeKernel(k, c, { makeLut: (fn, path) => execFileSync(process.execPath, [lut, '--fn', fn, '-o', path], { stdio: 'ignore' }) });
    const { name, pasm, ld } = k;
    k = undefined;
    const obj = assemble([{ file: join(c, `${name}.pasm`), text: pasm }], { isa: loadPyxisIsa(), listing: false }).object;
    const linked = link({ script: ld, scriptFile: join(c, `${name}.ld`), objects: [{ file: `${name}.pobj`, container: obj }] });
    writeContainerFile(join(c, `${name}.pimg`), linked.image);
    return { peak: peak(), cpu: cpu() - t0, pimg: join(c, `${name}.pimg`) };
  }
  // sim; `copy`: the reference of the same run, the image's HBM bytes copied into owned pages as before borrowing
  const { simulateImage, makeUieFactory, HbmMemory } = await import('../packages/target-pyxis/dist/sim/index.js');
  if (b === 'copy') HbmMemory.prototype.load = HbmMemory.prototype.writeBytes;
  const { readContainerFile } = await import('@pyxis/container');
  const t0 = cpu();
  const image = readContainerFile(a);
  const r = simulateImage(image, a, { uieFactory: makeUieFactory({ timingOnly: true }), maxCycles: 50_000_000 });
  const chip = r.chip;
  const amem = chip.amem.reduce((s, m) => s + m.allocatedBlocks * 16384, 0) / MiB;
  return {
    peak: peak(),
    cpu: cpu() - t0,
    cycles: r.report.cycles,
    stop: r.report.stop,
    amem,
    hbmOwned: (chip.hbm.allocated - chip.hbm.borrowedBytes) / MiB,
    image: statSync(a).size / MiB,
  };
}

if (argv[0] === '--child') {
  console.log(JSON.stringify(await child(argv[1], argv[2], argv[3], argv[4])));
  process.exit(0);
}

const run = (...args) => JSON.parse(execFileSync(process.execPath, [self, '--child', ...args], { encoding: 'utf8', maxBuffer: 1 << 24 }).trim().split('\n').pop());
const seqs = opt('seq', '128,256,512,768').split(',').filter(Boolean).map(Number);
const ks = opt('k', '1024,2048,4096,8192').split(',').filter(Boolean).map(Number);
const f = (x) => x.toFixed(1);
console.log(`bench-gen-memory: node ${process.version}; load average ${(await import('node:os')).loadavg().map((x) => x.toFixed(1)).join(' ')}`);
const ref = run('reference');
console.log(`reference: a node process that allocates and touches 64 MiB: peak RSS ${f(ref.peak)} MiB`);
const points = [
  ...seqs.map((s) => ({ label: `transformer seq ${s}`, kind: 'transformer', p: { seq: s } })),
  ...ks.map((k) => ({ label: `gemm 1024 x ${k} x 1024`, kind: 'gemm', p: { m: 1024, k, n: 1024, clusters: [0, 1, 2, 3], uies: 12 } })),
];
console.log('| kernel | build peak RSS | sim peak RSS (image HBM pages copied) | cycles | sim CPU s | AMEM written | HBM owned | image | other (sim peak - those) |');
console.log('|---|---|---|---|---|---|---|---|---|');
for (const pt of points) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-gen-memory-'));
  try {
    const b = run('build', pt.kind, JSON.stringify(pt.p), dir);
    const c = run('sim', b.pimg, 'copy');
    const s = run('sim', b.pimg);
    const other = s.peak - s.amem - s.hbmOwned - s.image;
    console.log(`| ${pt.label} | ${f(b.peak)} MiB | ${f(s.peak)} MiB (${f(c.peak)} MiB) | ${s.cycles}${c.cycles === s.cycles ? '' : ` (copied: ${c.cycles}!)`}${s.stop === 'done' ? '' : ` (${s.stop})`} | ${s.cpu.toFixed(2)} | ${f(s.amem)} MiB | ${f(s.hbmOwned)} MiB | ${f(s.image)} MiB | ${f(other)} MiB |`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
console.log(`load average at the end ${(await import('node:os')).loadavg().map((x) => x.toFixed(1)).join(' ')}`);

