/**
 * Running an image: builds the memories (unless `--timing-only`), the executor and one
 * StreamEngine per used stream on the kernel, runs, and reports per-engine active time,
 * semaphore waits, port conflicts, DMA bandwidth and MFU - each labelled with what it
 * models (docs/timing-model.md "## neuroncore").
 */
import { error, warning, type Diagnostic } from '@pyxis/diagnostics';
import { Simulator, TraceWriter, type TextSink } from '@pyxis/sim';
import type { Container } from '@pyxis/container';
import { programOf } from './program.js';
import { DMA0, STREAMS, type NcProgram } from './ir.js';
import { Executor, Memories } from './exec.js';
import { Shared, StreamEngine } from './machine.js';
import { loadMachine } from './isa.js';
import { peakFlops, type CostParams } from './cost.js';

export const MODEL_LABEL =
  'cost model: the guide\'s per-instruction rules of thumb (initiation intervals, N-proportional costs, DMA bandwidth) with engine concurrency and semaphores; not cycle-accurate (docs/timing-model.md#neuroncore). Numbers: functional, bit-exact to docs/neuroncore.md "Numbers".';

export interface RunOptions {
  /** Cost-model constants of this machine instance (default: machine.json `cost`). */
  cost?: CostParams;
  timingOnly?: boolean;
  warnUninit?: boolean;
  maxTicks?: number;
  trace?: TextSink;
  onProgress?: (tick: number) => void;
}

export interface EngineReport {
  instructions: number;
  active_ns: number;
  utilization: number;
  semaphore_wait_ns: number;
  port_conflict_ns: number;
}

export interface NcReport {
  model: string;
  timing_only: boolean;
  stop: 'done' | 'deadlock' | 'max-cycles';
  ticks: number;
  tick_ghz: number;
  elapsed_ns: number;
  engines: Record<string, EngineReport>;
  dma: { queues_used: number; bytes: number; bandwidth_gbps: number; active_ns: number };
  matmul: { flops: number; achieved_tflops: number; peak_tflops: number; mfu: number; note: string };
  port_conflicts: { sbuf_vector_gpsimd: number; psum_vector_scalar: number };
  wait_graph: string[];
}

export interface NcRun {
  report: NcReport;
  memories?: Memories;
  program: NcProgram;
  hbmAddr: number[];
  warnings: Diagnostic[];
  kernel: Simulator;
}

export function hbmAddresses(image: Container, program: NcProgram): number[] {
  return program.tensors.map((t) => (t.mem === 'hbm' ? (image.symbols.find((s) => s.name === t.name)?.offset ?? 0) : -1));
}

export function runImage(image: Container, file: string, opts: RunOptions = {}): NcRun {
  const program = programOf(image, file);
  const m = loadMachine();
  const hbmAddr = hbmAddresses(image, program);
  const hbmBytes = Number(image.metadata['hbm_bytes'] ?? 0);
  let memories: Memories | undefined;
  let exec: Executor | undefined;
  if (!opts.timingOnly) {
    memories = new Memories(hbmBytes, !!opts.warnUninit);
    for (const s of image.sections) {
      if (s.space !== 'hbm') continue;
      if (s.kind === 'zero') memories.hbm.fill(0, s.address, s.address + s.size);
      else memories.hbm.set(s.data, s.address);
      memories.shadow?.hbm.fill(1, s.address, s.address + s.size);
    }
    exec = new Executor(memories, program, hbmAddr);
  }
  const trace = opts.trace ? new TraceWriter(opts.trace, m.baseGhz * 1e9) : undefined;
  const shared = new Shared(program, exec, trace, opts.cost ?? m.cost);
  const kernel = new Simulator();
  const perStream: number[][] = STREAMS.map(() => []);
  program.insns.forEach((insn, i) => perStream[insn.stream]!.push(i));
  const engines: StreamEngine[] = [];
  perStream.forEach((list, s) => {
    if (!list.length) return;
    const e = new StreamEngine(s, list, shared);
    engines.push(e);
    kernel.add(e);
  });
  const res = kernel.run({ ...(opts.maxTicks !== undefined ? { maxCycles: opts.maxTicks } : {}), ...(opts.onProgress ? { onProgress: opts.onProgress } : {}) });
  const ticks = res.cycles;
  const ns = (t: number) => t / m.baseGhz;
  const elapsed = ns(ticks);
  // A stopped run (max-cycles, deadlock) counts the work of every instruction issued before the stop, so its averages
  // run to the end of the last of them, not to the stop (else a 10-tick stop with a 256 KiB DMA in flight reads
  // ~180x the HBM bandwidth and utilisation far above 100%). A finished run ends when all its work has.
  const span = res.reason === 'done' ? elapsed : Math.max(elapsed, ns(Math.max(0, ...engines.map((e) => e.stats.lastDone))));
  const report: NcReport = {
    model: MODEL_LABEL,
    timing_only: !!opts.timingOnly,
    stop: res.reason,
    ticks,
    tick_ghz: m.baseGhz,
    elapsed_ns: elapsed,
    engines: {},
    dma: { queues_used: 0, bytes: 0, bandwidth_gbps: 0, active_ns: 0 },
    matmul: { flops: shared.flops, achieved_tflops: 0, peak_tflops: peakFlops() / 1e12, mfu: 0, note: 'FLOPs of MultiplyMoving (2·K·M·N; identity transposes excluded) over elapsed time, against the BF16/FP16/TF32/FP8 TensorE peak' },
    port_conflicts: { sbuf_vector_gpsimd: shared.sbufVG.conflicts, psum_vector_scalar: shared.psumVS.conflicts },
    wait_graph: res.waitGraph,
  };
  for (const e of engines) {
    const st = e.stats;
    if (e.stream >= DMA0) {
      report.dma.queues_used++;
      report.dma.bytes += st.bytes;
      report.dma.active_ns += ns(st.activeTicks);
      continue;
    }
    report.engines[STREAMS[e.stream]!] = {
      instructions: st.instructions,
      active_ns: ns(st.activeTicks),
      utilization: span > 0 ? ns(st.activeTicks) / span : 0,
      semaphore_wait_ns: ns(st.semWaitTicks),
      port_conflict_ns: ns(st.conflictTicks),
    };
  }
  report.dma.bandwidth_gbps = span > 0 ? report.dma.bytes / span : 0;
  report.matmul.achieved_tflops = span > 0 ? shared.flops / span / 1e3 : 0;
  report.matmul.mfu = report.matmul.peak_tflops > 0 ? report.matmul.achieved_tflops / report.matmul.peak_tflops : 0;
  trace?.close({ ticks, tick_ghz: m.baseGhz, stop: res.reason, model: MODEL_LABEL });
  const warnings: Diagnostic[] = shared.uninitAt.map((u) =>
    warning('NC0601', `${u.insn.op} reads never-written ${u.mem.toUpperCase()} at byte ${u.mem === 'hbm' ? u.address : `${Math.floor(u.address / (u.mem === 'sbuf' ? m.sbufPartitionBytes : m.psumPartitionBytes))}:${u.address % (u.mem === 'sbuf' ? m.sbufPartitionBytes : m.psumPartitionBytes)} (partition:offset)`} (reads as NaN)`, { span: { file: u.insn.file, line: u.insn.line, column: u.insn.col, length: 1 } }),
  );
  return { report, ...(memories ? { memories } : {}), program, hbmAddr, warnings, kernel };
}

export function stopDiagnostics(r: NcReport): Diagnostic[] | undefined {
  if (r.stop === 'done') return undefined;
  return [
    error(r.stop === 'deadlock' ? 'NC0801' : 'NC0802', r.stop === 'deadlock' ? 'deadlock: every unfinished engine waits on a semaphore that no engine will signal' : `stopped at the cycle limit (${r.ticks} ticks of 1/${r.tick_ghz} ns)`, { notes: r.wait_graph }),
  ];
}

const f = (x: number, d = 1) => x.toFixed(d);

export function formatSummary(r: NcReport): string {
  const lines: string[] = [];
  lines.push(`NeuronCore-v2 run: ${r.stop}${r.timing_only ? ' (timing only: no arithmetic)' : ''}`);
  lines.push(`elapsed ${f(r.elapsed_ns / 1000, 3)} us (${r.ticks} ticks at ${r.tick_ghz} GHz) - ${r.model.split(';')[0]}`);
  lines.push('engine     instrs    active us   util   sem wait us  port conflict us');
  for (const [name, e] of Object.entries(r.engines))
    lines.push(`${name.padEnd(9)} ${String(e.instructions).padStart(7)} ${f(e.active_ns / 1000, 3).padStart(12)} ${(f(e.utilization * 100) + '%').padStart(6)} ${f(e.semaphore_wait_ns / 1000, 3).padStart(13)} ${f(e.port_conflict_ns / 1000, 3).padStart(17)}`);
  if (r.stop !== 'done') lines.push('(stopped: the figures count the instructions issued before the stop; averages run to the end of the last of them)');
  lines.push(`DMA: ${r.dma.queues_used} queues, ${r.dma.bytes} bytes, ${f(r.dma.bandwidth_gbps)} GB/s average over the run`);
  lines.push(`matmul: ${r.matmul.flops} FLOPs, ${f(r.matmul.achieved_tflops, 2)} TFLOPS of ${f(r.matmul.peak_tflops, 2)} peak, MFU ${f(r.matmul.mfu * 100)}% (cost model)`);
  if (r.port_conflicts.sbuf_vector_gpsimd || r.port_conflicts.psum_vector_scalar)
    lines.push(`port conflicts serialised: SBUF VectorE/GpSimd ${r.port_conflicts.sbuf_vector_gpsimd}, PSUM VectorE/ScalarE ${r.port_conflicts.psum_vector_scalar}`);
  return lines.join('\n') + '\n';
}
