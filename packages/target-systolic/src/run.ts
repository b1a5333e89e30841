/**
 * A simulation run: the machine built from an image, inputs converted from
 * `.npy` floats to the data type (or taken as raw fixed point from integer
 * arrays), the engine run on the shared kernel, outputs converted back to
 * float32, and the statistics with their honest label (functional results are
 * bit-exact; cycles come from the analytic model of timing.ts).
 */
import { DiagnosticError, type Diagnostic } from '@pyxis/diagnostics';
import { makeTensor, type Tensor } from '@pyxis/container';
import { Simulator, TraceWriter, type TextSink } from '@pyxis/sim';
import { fixedType, fromFloat, readFixed, toFloat, type FixedType } from './fixed.js';
import { TIMING, OPCODE_NAME, type TimingData } from './grammar.js';
import { decodeProgram } from './isa.js';
import { dramExtent, SystolicMachine } from './machine.js';
import type { ImageParts, TensorRef } from './model.js';
import { CYCLE_CLASS_NAMES } from './timing.js';

export interface RunSetup {
  parts: ImageParts;
  file: string;
  inputs: Map<string, Tensor>;
  clockHz?: number;
  /** The cycle-model parameters of this run (default: grammars/systolic/timing.json). */
  timing?: TimingData;
  maxCycles?: number;
  trace?: TextSink;
  /** Run only the first `limit` instructions (tests of program prefixes). */
  limit?: number;
}

export interface RunOutcome {
  machine: SystolicMachine;
  kernel: Simulator;
  cycles: number;
  stop: 'done' | 'max-cycles' | 'deadlock';
  warnings: Diagnostic[];
  stats: Record<string, unknown>;
  summary: string;
}

function findRef(refs: TensorRef[], name: string, what: string, file: string): TensorRef {
  const r = refs.find((x) => x.name === name);
  if (!r) throw new DiagnosticError({ severity: 'error', code: 'SYS0301', message: `${file} has no ${what} named \`${name}\` (it has: ${refs.map((x) => x.name).join(', ') || 'none'})`, span: { file, offset: 0 } });
  return r;
}

/** Writes a float tensor into DRAM0 vectors: the elements fill lanes in order; a last dimension smaller than the array pads lanes with zeros. */
function placeInput(dram0: Int32Array, N: number, ft: FixedType, ref: TensorRef, t: Tensor, file: string): void {
  const total = t.data.length;
  let lanes = N;
  if (total !== ref.size * N) {
    const last = t.shape[t.shape.length - 1] ?? 1;
    if (last < N && total === ref.size * last) lanes = last;
    else
      throw new DiagnosticError({
        severity: 'error', code: 'SYS0302',
        message: `input \`${ref.name}\`: ${total} elements (shape [${t.shape.join(', ')}]) do not fill ${ref.size} vectors of ${N} lanes (give ${ref.size * N} elements, or ${ref.size} rows of at most ${N})`,
        span: { file, offset: 0 },
      });
  }
  const isFloat = t.dtype === 'float32' || t.dtype === 'float64';
  for (let v = 0; v < ref.size; v++)
    for (let j = 0; j < lanes; j++) {
      const x = Number(t.data[v * lanes + j]);
      dram0[(ref.base + v) * N + j] = isFloat ? fromFloat(ft, x) : x;
    }
}

/** An output's vectors as float32, shape [size, array_size]. */
export function readOutput(m: SystolicMachine, ref: TensorRef): Tensor {
  const N = m.n;
  const out = new Float32Array(ref.size * N);
  for (let i = 0; i < out.length; i++) out[i] = toFloat(m.t, m.dram0[ref.base * N + i]!);
  return makeTensor('float32', [ref.size, N], out);
}

export function buildMachine(parts: ImageParts, file: string, timing: TimingData = TIMING): SystolicMachine {
  const program = decodeProgram(parts.program, parts.arch, parts.programFile ?? file, parts.programOffset);
  const ext = dramExtent(program, parts.arch);
  const vbytes = parts.arch.array_size * fixedType(parts.arch.data_type).bytes;
  for (const r of [...parts.inputs, ...parts.outputs]) ext.dram0Vectors = Math.max(ext.dram0Vectors, r.base + r.size);
  for (const d of parts.data) {
    const end = d.address + d.data.length / vbytes;
    if (d.space === 'dram0') ext.dram0Vectors = Math.max(ext.dram0Vectors, end);
    if (d.space === 'dram1') ext.dram1Vectors = Math.max(ext.dram1Vectors, end);
  }
  const m = new SystolicMachine(parts.arch, program, timing, ext);
  for (const d of parts.data) {
    const mem = d.space === 'dram0' ? m.dram0 : d.space === 'dram1' ? m.dram1 : d.space === 'local' ? m.local : undefined;
    if (!mem) continue;
    const count = d.data.length / m.t.bytes;
    if (d.address * m.n + count > mem.length)
      throw new DiagnosticError({ severity: 'error', code: 'SYS0303', message: `section ${d.name} (${count} values at vector ${d.address}) does not fit ${d.space}`, span: { file, offset: 0 } });
    readFixed(m.t, d.data, 0, mem, d.address * m.n, count);
  }
  return m;
}

export function simulate(s: RunSetup): RunOutcome {
  const { parts, file } = s;
  const T = s.timing ?? TIMING;
  const m = buildMachine(parts, file, T);
  for (const [name, t] of s.inputs) placeInput(m.dram0, m.n, m.t, findRef(parts.inputs, name, 'input', file), t, file);
  const warnings: Diagnostic[] = [];
  const missing = parts.inputs.filter((r) => !s.inputs.has(r.name) && !parts.data.some((d) => d.name === `input:${r.name}`));
  for (const r of missing) warnings.push({ severity: 'warning', code: 'SYS0304', message: `input \`${r.name}\` not given (--input ${r.name}=FILE.npy): its ${r.size} vectors are zero`, span: { file, offset: 0 } });
  const clockHz = s.clockHz ?? T.clock_hz;
  let writer: TraceWriter | undefined;
  if (s.trace) {
    const tw = (writer = new TraceWriter(s.trace, clockHz));
    const tracks = CYCLE_CLASS_NAMES.map((n) => tw.track('systolic', n === 'array' ? 'array' : n === 'simd' ? 'SIMD' : n === 'dram' ? 'DRAM' : n === 'accumulator_move' ? 'accumulators' : 'decoder'));
    m.onInstruction = (pc, op, _f, start, end, cls) => tw.slice(tracks[cls]!, start, end, OPCODE_NAME.get(op) ?? 'op', { pc }, 'instruction');
  }
  const kernel = new Simulator();
  kernel.add(m);
  let cycles: number;
  let stop: RunOutcome['stop'];
  const t0 = performance.now();
  if (s.limit !== undefined) {
    cycles = m.runAll(s.limit);
    stop = 'done';
  } else {
    const r = kernel.run(s.maxCycles !== undefined ? { maxCycles: s.maxCycles } : {});
    cycles = r.cycles;
    stop = r.reason;
  }
  const hostSeconds = (performance.now() - t0) / 1000;
  if (writer) (writer as unknown as { close(): void }).close();
  for (const h of m.hazards)
    warnings.push({
      severity: 'warning', code: 'SYS0401',
      message: `instruction ${h.pc}: DataMove reads an accumulator vector ${h.pc - h.simdPc} instruction(s) after the SIMD write to it at ${h.simdPc}; the spec asks for ${T.simd_write_to_datamove_gap} instructions in between (spec §4 SIMD notes); simulated as a decoder wait, the read sees the written value`,
      span: { file: parts.programFile ?? file, offset: parts.programOffset + h.pc * m.program.bytesPerInstruction }, spec: 'systolic-fpga-hardware.md §4',
    });
  if (m.hazardCount > m.hazards.length) warnings.push({ severity: 'warning', code: 'SYS0401', message: `${m.hazardCount - m.hazards.length} more SIMD-write/DataMove hazards not listed`, span: { file, offset: 0 } });
  const stats = makeStats(m, cycles, clockHz, hostSeconds, parts, stop);
  return { machine: m, kernel, cycles, stop, warnings, stats, summary: summaryText(stats) };
}

function makeStats(m: SystolicMachine, cycles: number, clockHz: number, hostSeconds: number, parts: ImageParts, stop: RunOutcome['stop']): Record<string, unknown> {
  const mix: Record<string, { count: number; cycles: number }> = {};
  for (const [code, name] of OPCODE_NAME) if (m.opCount[code]) mix[name] = { count: m.opCount[code]!, cycles: m.opCycles[code]! };
  const byClass: Record<string, number> = {};
  CYCLE_CLASS_NAMES.forEach((n, i) => (byClass[n] = m.classCycles[i]!));
  const peak = cycles * m.n * m.n;
  return {
    model: 'functional results bit-exact (Tensil fixed point); cycles from an analytic per-instruction model (docs/timing-model.md ## systolic), instructions serialised: an estimate, not RTL-cycle-accurate',
    program: parts.model,
    arch: parts.arch,
    instructions: m.pc,
    cycles,
    // a stopped run completed no frame: no frame rate (0), its seconds are those simulated up to the stop
    stop,
    clock_hz: clockHz,
    seconds: cycles / clockHz,
    frames_per_second: stop === 'done' && cycles > 0 ? clockHz / cycles : 0,
    macs: m.macs,
    mac_efficiency: peak > 0 ? m.macs / peak : 0,
    instruction_mix: mix,
    cycles_by_unit: byClass,
    decoder_timeouts: m.timeouts,
    tracepoint_cycle: m.tracepointCycle >= 0 ? m.tracepointCycle : null,
    simd_datamove_hazards: m.hazardCount,
    performance_samples: m.sampler.count,
    ...(m.sampler.count ? { sample_buses: m.sampler.summary() } : {}),
    segments_note: 'time per segment: instructions up to each store to DRAM0 (a layer output when the compiler writes it to DRAM0); a .tprog has no explicit layer boundaries',
    segments: m.segments,
    host_simulation_seconds: hostSeconds,
  };
}

function summaryText(s: Record<string, unknown>): string {
  const n = (k: string) => Number(s[k]);
  const lines = [
    `systolic: ${s['program']} — ${n('instructions')} instructions, ${n('cycles')} cycles (model estimate) at ${(n('clock_hz') / 1e6).toFixed(1)} MHz`,
    s['stop'] === 'done'
      ? `  ${(n('seconds') * 1e3).toFixed(3)} ms/frame, ${n('frames_per_second').toFixed(1)} frames/s; ${n('macs')} MACs, MAC efficiency ${(n('mac_efficiency') * 100).toFixed(1)}%`
      : `  stopped (${String(s['stop'])}) at cycle ${n('cycles')}: no frame completed; ${n('macs')} MACs so far, MAC efficiency ${(n('mac_efficiency') * 100).toFixed(1)}%`,
    ...(Array.isArray(s['segments']) && (s['segments'] as unknown[]).length > 1
      ? [`  ${(s['segments'] as unknown[]).length} segments ending at stores to DRAM0 (layer outputs); longest ${Math.max(...(s['segments'] as Array<{ cycles: number }>).map((x) => x.cycles))} cycles (--stats lists them)`]
      : []),
    `  instruction mix: ${Object.entries(s['instruction_mix'] as Record<string, { count: number }>).map(([k, v]) => `${k} ${v.count}`).join(', ')}`,
    ...(s['sample_buses']
      ? [`  ${n('performance_samples')} performance samples; valid but not ready in: ${Object.entries(s['sample_buses'] as Record<string, { stalled: number }>).map(([k, v]) => `${k} ${((100 * v.stalled) / n('performance_samples')).toFixed(0)}%`).join(', ')}`]
      : []),
    `  (${s['model']})`,
  ];
  return lines.join('\n') + '\n';
}
