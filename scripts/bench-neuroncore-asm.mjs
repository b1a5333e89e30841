#!/usr/bin/env node
// NeuronCore assembler throughput: instructions per host second assembling
// samples/neuroncore/matmul_big.ncasm (85,504 ISA instructions after loop unrolling, matmul
// expansion and DMA splitting; auto-sync on), next to references measured in the same run on
// the same program:
//   - encode: JSON.stringify + UTF-8 encoding of the assembled program (what writing the object's
//     `nc.program` section costs; the assembler pays it too, so it bounds the assembler from above);
//   - disassemble + re-assemble: the program's ISA-form source (no loops: one line per instruction).
// Each figure is the best of --runs N (default 5) after one warm-up. Run after `npm run build`:
//   node scripts/bench-neuroncore-asm.mjs [--runs N] [--file X.ncasm]
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { assembleNc, sourceNc } from '../packages/target-neuroncore/dist/index.js';

const arg = (k, d) => {
  const i = process.argv.indexOf(k);
  return i >= 0 ? process.argv[i + 1] : d;
};
const runs = Number(arg('--runs', '5'));
const file = arg('--file', fileURLToPath(new URL('../samples/neuroncore/matmul_big.ncasm', import.meta.url)));
const text = readFileSync(file, 'utf8');

function best(fn) {
  fn(); // warm-up
  let t = Infinity;
  let r;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    r = fn();
    t = Math.min(t, (performance.now() - t0) / 1000);
  }
  return { s: t, r };
}

const asm = best(() => assembleNc([{ file: 'matmul_big.ncasm', text }]));
const p = asm.r.program;
const n = p.insns.length;
if (asm.r.diagnostics.some((d) => d.severity === 'error')) throw new Error('the benchmark program does not assemble');
const enc = best(() => new TextEncoder().encode(JSON.stringify(p)).length);
const src = sourceNc(p);
const re = best(() => assembleNc([{ file: 'dis.ncasm', text: src }]));

const row = (label, s) => console.log(`${label.padEnd(58)} ${(n / s / 1e3).toFixed(1).padStart(8)} k instr/s  (${s.toFixed(3)} s)`);
console.log(`${file.split('/').pop()}: ${n} instructions, best of ${runs}`);
row('assemble (parse, unroll, rules, expand, auto-sync, encode)', asm.s);
row('reference: JSON encode of the same program', enc.s);
row('reference: re-assemble its disassembly (no loops)', re.s);
console.log(`assemble / encode time ratio ${(asm.s / enc.s).toFixed(2)}`);
