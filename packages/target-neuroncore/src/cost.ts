/**
 * The cost model of the guide, in one place (docs/timing-model.md "## neuroncore"). Every
 * parameter comes from grammars/neuroncore/machine.json, which names its source section or
 * marks it assumed. Results are in engine cycles of the instruction's engine (DMA: ns);
 * the machine converts them to 5.6 GHz kernel ticks.
 *
 * - MultiplyMoving: initiation interval max(N, MM_INIT_LATENCY) TensorE cycles, x4 for FP32
 *   inputs (Tensor Engine, Cost Model). N = moving free size.
 * - LoadStationary: max(F, MM_INIT_LATENCY) / LS_SPEEDUP cycles (Fast LoadStationary, up to 4x
 *   faster than an MM of the same free size), x4 for FP32; it runs in the background of the
 *   previous MultiplyMoving (Background LoadStationary) - see machine.ts.
 * - Vector/GpSimd: ~N cycles with one input, ~2N with two (Vector Engine, Cost Model), plus
 *   STATIC_OVERHEAD cycles when N <= SHORT_N or the instruction depends on its predecessor.
 * - Scalar: ~N cycles (one input per instruction), same static overhead rule.
 * - Any operand whose innermost stride exceeds 16 bytes halves the streaming rate (x2).
 * - Results become visible to other engines ACCESS_OVERHEAD engine cycles after the instruction
 *   ends (the ~60-cycle SBUF/PSUM access overhead, hidden by independent work).
 * - DMA transfer: DMA_TRANSFER_OVERHEAD_NS + buffers * DMA_BUFFER_OVERHEAD_NS + bytes / rate,
 *   rate = min(27 GiB/s, 820 GB/s / active transfers).
 */
import { freeSize, innerStrideBytes, type AP, type Insn } from './ir.js';
import { loadMachine } from './isa.js';
import { dtypeBytes } from './numerics.js';

/** The cost-model constants of one machine instance (machine.json `cost`, by name; --set cost.NAME=VALUE). */
export type CostParams = Readonly<Record<string, number>>;

function strideFactor(aps: Array<AP | undefined>, c: CostParams): number {
  const lim = c['STRIDE_PENALTY_BYTES']!;
  for (const ap of aps) if (ap && ap.mem !== 'hbm' && innerStrideBytes(ap, dtypeBytes(ap.dtype)) > lim) return 2;
  return 1;
}

/** True when the MultiplyMoving/LoadStationary runs at quarter rate (an FP32 input). */
export function fp32Rate(ap: AP | undefined): boolean {
  return ap?.dtype === 'fp32';
}

/** Engine cycles an instruction occupies its engine (the initiation interval for TensorE). */
export function engineCycles(insn: Insn, stationaryFp32: boolean, c: CostParams = loadMachine().cost): number {
  const op = insn.op;
  if (op.endsWith('sem_signal') || op.endsWith('sem_wait')) return 0;
  if (op === 'tensor.load_stationary') {
    const st = insn.ins[0]!;
    const f = Math.max(freeSize(st), c['MM_INIT_LATENCY']!);
    return Math.ceil(f / c['LS_SPEEDUP']!) * (fp32Rate(st) ? c['FP32_MATMUL_FACTOR']! : 1);
  }
  if (op === 'tensor.multiply_moving') {
    const ident = insn.attrs['identity'];
    const mv = insn.ins[0];
    const N = typeof ident === 'number' ? ident : freeSize(mv!);
    const fp32 = stationaryFp32 || fp32Rate(mv);
    return Math.max(N, c['MM_INIT_LATENCY']!) * (fp32 ? c['FP32_MATMUL_FACTOR']! : 1);
  }
  const out = insn.out;
  const in0 = insn.ins[0];
  const N = in0 ? freeSize(in0) : out ? freeSize(out) : 1;
  let cycles: number;
  const name = op.slice(op.indexOf('.') + 1);
  if (name === 'bn_aggr') cycles = Math.max(c['MM_INIT_LATENCY']!, c['BN_AGGR_PER_TRIPLE']! * Math.ceil(N / 3));
  else if (name === 'affine_select') cycles = c['GPSIMD_AFFINE_SELECT_FIXED']! + N;
  else {
    const inputs = insn.ins.length;
    cycles = N * Math.max(1, inputs);
  }
  cycles *= strideFactor([out, ...insn.ins], c);
  if (N <= c['SHORT_N']! || insn.depPrev) cycles += c['STATIC_OVERHEAD']!;
  return cycles;
}

/** Contiguous runs (DMA buffers) of an access pattern: one per partition/row and per non-contiguous inner run. */
export function dmaBuffers(ap: AP): number {
  let runs = ap.np;
  const d = ap.dims;
  // Innermost contiguous dims merge; every outer dim multiplies the run count.
  let i = d.length - 1;
  let expect = 1;
  while (i >= 0 && (d[i]![1] === expect || d[i]![0] === 1)) {
    expect *= d[i]![0];
    i--;
  }
  for (let j = 0; j <= i; j++) runs *= d[j]![0];
  return runs;
}

/** DMA transfer time in ns given the number of transfers in flight (including this one). */
export function dmaNs(insn: Insn, active: number, c: CostParams = loadMachine().cost): { ns: number; bytes: number; buffers: number } {
  const src = insn.ins[0]!;
  const bytes = src.np * freeSize(src) * dtypeBytes(src.dtype);
  const buffers = Math.max(dmaBuffers(src), dmaBuffers(insn.out!));
  const rate = Math.min(c['DMA_ENGINE_GBPS']!, c['HBM_GBPS']! / Math.max(1, active)); // GB/s = bytes/ns
  return { ns: c['DMA_TRANSFER_OVERHEAD_NS']! + buffers * c['DMA_BUFFER_OVERHEAD_NS']! + bytes / rate, bytes, buffers };
}

/** Peak TensorE FLOP/s: 128x128 MACs per cycle at the TensorE clock (BF16/FP16/TF32/FP8 rate). */
export function peakFlops(): number {
  const m = loadMachine();
  return 2 * m.cost['PE_ROWS']! * m.cost['PE_COLS']! * m.clockGhz[0] * 1e9;
}
