#!/usr/bin/env node
// Assembler throughput on a generated 100k-line source (target: well under 2 s).
// Build first: npx tsc -b
import { performance } from 'node:perf_hooks';
import { assemble, loadPyxisIsa } from '../packages/target-pyxis/dist/asm/index.js';

const LINES = Number(process.argv[2] ?? 100_000);
const isa = loadPyxisIsa();
const parts = ['# generated benchmark source', '.const BASE = 0x40', '.const ROWS = 22'];
let n = 0;
while (parts.length < LINES) {
  // 12 lines per program: 3 nested loops, 6 instructions, constants and expressions
  parts.push(
    `.program p${n} amem_read {`,
    `  Read_Const rd_const_value=0 num_logical_ptns=8`,
    `  loop i0 (ROWS + 7) / 8 {                  # row groups`,
    `    loop i1 10 final ROWS - 16 when [i0] post_final {`,
    `      Read_SRAM data_type=Recogni_FP8 amem_addr_offset=BASE + ${n % 64} iter_stride[i0]=8 iter_stride[i1]=1`,
    `      Read_SRAM_with_ReLU amem_addr_offset=BASE iter_stride[i1]=1 pad_row_iter_mask=[i0, i1] start_row_pad=1`,
    `      loop i2 4 { Read_SRAM num_logical_ptns=4 iter_stride[i2]=2 }`,
    `    }`,
    `    Read_SRAM tgt_fifo=Vbuffer eb_adj=-3 rpsw_config_iter_id=i1`,
    `  }`,
    `  Nop`,
    `}`,
  );
  n++;
}
const text = parts.join('\n') + '\n';
const lines = parts.length;
assemble({ file: 'warm.pasm', text: parts.slice(0, 3 + 12 * 150).join('\n') + '\n' }, { isa, listing: false });
// Wall time is unreliable on a shared machine: report process CPU time (user+system) too.
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
  if (k === 0) console.log(`programs: ${r.programs.length}, instructions: ${r.programs.reduce((s, p) => s + p.count, 0)}`);
}
const best = Math.min(...runs);
const bestCpu = Math.min(...cpu);
console.log(`lines: ${lines}, best of 3 wall: ${best.toFixed(0)} ms = ${(lines / (best / 1000)).toFixed(0)} lines/s (runs: ${runs.map((r) => r.toFixed(0)).join(', ')} ms)`);
console.log(`best of 3 CPU time: ${bestCpu.toFixed(0)} ms = ${(lines / (bestCpu / 1000)).toFixed(0)} lines/s (includes GC on helper threads)`);
