#!/usr/bin/env node
// NeuronCore target throughput (one core), each figure next to a reference measured in the same run:
//  1. functional matmul: MACs per host second of samples/neuroncore/matmul.ncasm ([512, 2048] x [2048, 2048],
//     BF16 in, FP32 accumulation in PSUM, the whole run: DMA, casts, evacuation), next to a plain
//     JavaScript float loop doing the same MACs (i-k-j order, Float32Array inputs, Float64Array accumulator).
//  2. cost model: instructions per host second of samples/neuroncore/matmul_big.ncasm with --timing-only
//     (assembly and simulation timed separately; assembly next to the JSON encoding of the same program).
// Run after `npm run build`: node scripts/bench-neuroncore.mjs [--skip-big]
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { writeNpy } from '../packages/container/dist/index.js';
import { assembleNc, linkNc, runImage } from '../packages/target-neuroncore/dist/index.js';
import { tensor } from '../samples/neuroncore/inputs.mjs';

const S = fileURLToPath(new URL('../samples/neuroncore/', import.meta.url));
const now = () => Number(process.hrtime.bigint()) / 1e9;

function build(name, inputs) {
  const a = assembleNc([{ file: `${name}.ncasm`, text: readFileSync(`${S}${name}.ncasm`, 'utf8') }]);
  const errs = a.diagnostics.filter((d) => d.severity === 'error');
  if (errs.length) throw new Error(errs.map((d) => d.message).join('\n'));
  const files = new Map(Object.entries(inputs).map(([k, t]) => [`/m/${k}.npy`, writeNpy(t)]));
  const script = Object.keys(inputs).map((k) => `tensor ${k} { data = "${k}.npy"; }`).join('\n');
  return { a, image: linkNc(script, '/m/x.ld', [{ file: 'x.pobj', container: a.object }], () => { throw new Error('no'); }, (p) => files.get(p)).image };
}

// 1. functional matmul vs a plain float loop
const M = 512, K = 2048, N = 2048;
const at = tensor([K, M], 1);
const b = tensor([K, N], 2);
const { image } = build('matmul', { AT: at, B: b });
let t0 = now();
const r = runImage(image, 'matmul.pimg');
const simS = now() - t0;
if (r.report.stop !== 'done') throw new Error('matmul run did not complete');
const macs = M * K * N;

t0 = now();
const c = new Float64Array(M * N);
const A = at.data, B = b.data;
for (let k = 0; k < K; k++)
  for (let m = 0; m < M; m++) {
    const s = A[k * M + m];
    const cb = m * N, bb = k * N;
    for (let n = 0; n < N; n++) c[cb + n] += s * B[bb + n];
  }
const refS = now() - t0;
console.log(`matmul [${M},${K}]x[${K},${N}] functional run      ${(macs / simS / 1e6).toFixed(0).padStart(7)} M MAC/s  (${simS.toFixed(2)} s, whole simulated run)`);
console.log(`plain JS float loop, same MACs (reference)        ${(macs / refS / 1e6).toFixed(0).padStart(7)} M MAC/s  (${refS.toFixed(2)} s)`);
console.log(`ratio simulator / reference                        ${(refS / simS).toFixed(2)}`);

// 2. cost model with --timing-only
if (!process.argv.includes('--skip-big')) {
  t0 = now();
  const big = assembleNc([{ file: 'matmul_big.ncasm', text: readFileSync(`${S}matmul_big.ncasm`, 'utf8') }]);
  const asmS = now() - t0;
  const img = linkNc('', '/m/x.ld', [{ file: 'x.pobj', container: big.object }], () => { throw new Error('no'); }).image;
  t0 = now();
  const rb = runImage(img, 'big.pimg', { timingOnly: true });
  const runS = now() - t0;
  const n = big.program.insns.length;
  console.log(`matmul_big assembly (${n} instructions)          ${(n / asmS / 1e3).toFixed(1).padStart(7)} k instr/s (${asmS.toFixed(2)} s)`);
  t0 = now();
  new TextEncoder().encode(JSON.stringify(big.program));
  const encS = now() - t0;
  console.log(`reference: JSON encode of the same program         ${(n / encS / 1e3).toFixed(1).padStart(7)} k instr/s (${encS.toFixed(2)} s; scripts/bench-neuroncore-asm.mjs has best-of-N figures)`);
  console.log(`matmul_big --timing-only simulation              ${(n / runS / 1e3).toFixed(1).padStart(7)} k instr/s (${runS.toFixed(2)} s), MFU ${(rb.report.matmul.mfu * 100).toFixed(1)}% (cost model)`);
}
