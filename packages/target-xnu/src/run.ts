/**
 * Running an XNU image: the jobs and their vectors out of the image, the
 * PEx8 engine on the kernel, then results, top-k, statistics and dumps.
 */
import { join } from 'node:path';
import { DiagnosticError, UsageError, error, unknownName, type Diagnostic } from '@pyxis/diagnostics';
import { writeNpy, type Container } from '@pyxis/container';
import { Simulator, TraceWriter, VcdWriter, type TextSink, type VcdTimeUnit } from '@pyxis/sim';
import { DDR_SPACE, LMEM_SPACE, jobsOf } from './jobs.js';
import { FLAG_INEXACT, FLAG_INVALID, FLAG_OVERFLOW, FLAG_UNDERFLOW } from './fp32.js';
import { SPEC, defaultXnuTiming, enumOf, opName, phaseCycles, unnamedRoundingWarning, type TimingModel, type XnuTimingParams } from './grammar.js';
import { OP_L1, OP_L2 } from './datapath.js';
import { PHASES, Pex8Engine, addEngine, type MachineJob } from './machine.js';

export interface XnuRunOptions {
  timing?: TimingModel;
  /** This machine instance's timing parameters (default: pex8_fsm.json `meta`). */
  params?: XnuTimingParams;
  clockHz?: number;
  maxCycles?: number;
  trace?: TextSink;
  vcd?: TextSink;
  vcdTimeUnit?: VcdTimeUnit;
  onProgress?: (cycle: number) => void;
}

export interface DumpSpec {
  job: string;
  what: 'results' | 'topk';
  file: string;
}

/**
 * `JOB=FILE.npy` (results; `JOB:f32` is accepted, fp32 results are float32 already) or `JOB.topk=FILE.npy`. The file
 * is an .npy whatever its name, as every target's `--dump` (the name need not end in .npy).
 */
export function parseDumpSpec(s: string): DumpSpec {
  const m = /^([A-Za-z_][A-Za-z0-9_]*)(\.topk|\.results)?(?::f32)?=(.+)$/.exec(s);
  if (!m) throw new UsageError(`--dump expects JOB=FILE.npy or JOB.topk=FILE.npy, got \`${s}\``);
  return { job: m[1]!, what: m[2] === '.topk' ? 'topk' : 'results', file: m[3]! };
}

/** The jobs of an image with their vectors; a malformed image is a diagnostic at its byte offset. */
export function machineJobs(image: Container, file: string, warnings: Diagnostic[] = []): MachineJob[] {
  const out: MachineJob[] = [];
  for (const { name, job, section } of jobsOf(image)) {
    const find = (sym: string, space: string) => {
      const s = image.symbols.find((x) => x.name === sym);
      const sec = s ? image.sections[s.section] : undefined;
      if (!s || !sec || sec.space !== space) throw new DiagnosticError(error('XNU0301', `image has no ${space} tensor \`${sym}\` for job \`${name}\``, { span: { file, offset: image.sections[section]?.fileOffset ?? 0 } }));
      return sec;
    };
    const q = find(`${name}.query`, LMEM_SPACE);
    const db = find(`${name}.database`, DDR_SPACE);
    const need = (sec: typeof q, words: number, what: string) => {
      if (sec.data.length !== words * 4)
        throw new DiagnosticError(error('XNU0302', `${what} of job \`${name}\` is ${sec.data.length} bytes; the job (vec_len ${job.vec_len}, num_vectors ${job.num_vectors}) needs ${words * 4}`, { span: { file, offset: sec.fileOffset ?? 0 } }));
    };
    if (job.vec_len === 0 || job.vec_len % 16 !== 0 || job.num_vectors === 0)
      throw new DiagnosticError(error('XNU0303', `job \`${name}\`: vec_len ${job.vec_len} / num_vectors ${job.num_vectors} cannot run (vec_len a positive multiple of 16, a non-empty database)`, { span: { file, offset: image.sections[section]?.fileOffset ?? 0 }, spec: SPEC }));
    const rw = unnamedRoundingWarning('XNU0305', job, { file, offset: image.sections[section]?.fileOffset ?? 0 }, `job \`${name}\`: `);
    if (rw) warnings.push(rw);
    need(q, job.vec_len, 'the query');
    need(db, job.vec_len * job.num_vectors, 'the database');
    const copy = (d: Uint8Array) => {
      const w = new Uint32Array(d.length / 4);
      new Uint8Array(w.buffer).set(d);
      return w;
    };
    out.push({ name, job, query: copy(q.data), database: copy(db.data), results: new Uint32Array(job.num_vectors), startCycle: 0, endCycle: 0, fpFlags: 0 });
  }
  if (out.length === 0) throw new DiagnosticError(error('XNU0304', 'image holds no XNU job', { span: { file, offset: 0 } }));
  return out;
}

/**
 * Indices of the k smallest results (nearest first; ties keep the lower
 * index; NaN last). Host post-processing after the engine, not hardware.
 */
export function topK(results: Uint32Array, useInt: boolean, k: number): Int32Array {
  const n = results.length;
  const key = new Float64Array(n);
  const f = new Float32Array(results.buffer, results.byteOffset, n);
  const i32 = new Int32Array(results.buffer, results.byteOffset, n);
  for (let i = 0; i < n; i++) key[i] = useInt ? i32[i]! : Number.isNaN(f[i]!) ? Infinity : f[i]!;
  const isNan = (i: number) => !useInt && Number.isNaN(f[i]!);
  const idx = Array.from({ length: n }, (_, i) => i);
  idx.sort((a, b) => Number(isNan(a)) - Number(isNan(b)) || key[a]! - key[b]! || a - b);
  return Int32Array.from(idx.slice(0, k));
}

export interface XnuRunResult {
  kernel: Simulator;
  jobs: MachineJob[];
  topk: Map<string, Int32Array>;
  stop: 'done' | 'deadlock' | 'max-cycles';
  cycles: number;
  stats: Record<string, unknown>;
  summary: string;
  warnings: Diagnostic[];
}

export function runXnu(image: Container, file: string, o: XnuRunOptions = {}): XnuRunResult {
  const timing = o.timing ?? 'spec';
  const params = o.params ?? defaultXnuTiming();
  const clockHz = o.clockHz ?? params.clock_hz;
  const warnings: Diagnostic[] = [];
  const jobs = machineJobs(image, file, warnings);
  const kernel = new Simulator();
  const trace = o.trace ? new TraceWriter(o.trace, clockHz) : undefined;
  const vcd = o.vcd ? new VcdWriter(o.vcd, clockHz, 'pyxis-sim --target xnu', o.vcdTimeUnit ?? 'ps') : undefined;
  const engine = new Pex8Engine(jobs, timing, trace, vcd, params);
  addEngine(kernel, engine);
  const res = kernel.run({ ...(o.maxCycles !== undefined ? { maxCycles: o.maxCycles } : {}), ...(o.onProgress ? { onProgress: o.onProgress } : {}) });
  const flags = jobs.reduce((f, j) => f | j.fpFlags, 0);
  trace?.close({ model: 'xnu: cycle-level controller FSM, functional bit-exact datapath' });
  vcd?.close(res.cycles);
  const topk = new Map<string, Int32Array>();
  if (res.reason === 'done')
    for (const j of jobs) if (j.job.top_k > 0 && (j.job.op_type === OP_L2 || j.job.op_type === OP_L1)) topk.set(j.name, topK(j.results, j.job.use_int === 1, j.job.top_k));
  const seconds = res.cycles / clockHz;
  const vectors = jobs.reduce((s, j) => s + j.job.num_vectors, 0);
  const phaseCyclesTotal: Record<string, number> = {};
  PHASES.forEach((p, i) => (phaseCyclesTotal[p] = engine.phaseTotals[i]!));
  const stats: Record<string, unknown> = {
    model:
      'cycle-level: the PEx8 controller FSM with the per-phase cycle counts of the ' +
      (timing === 'spec' ? "spec's validation cycle table" : "controller source's aggregation counter (--timing rtl)") +
      '; functional: datapath values computed bit-exactly once per beat, not per pipeline stage; top-k is host post-processing',
    timing,
    clock_hz: clockHz,
    clock_note: o.clockHz === undefined ? 'MODEL: the spec gives no clock frequency (grammars/xnu/pex8_fsm.json clock_hz)' : 'from --clock-hz / --set / --sim-config (stats `parameters`)',
    stop: res.reason,
    cycles: res.cycles,
    simulated_seconds: seconds,
    vectors,
    // a stopped run processed not all its vectors: no rate (0)
    vectors_per_second: res.reason === 'done' && seconds > 0 ? vectors / seconds : 0,
    phase_cycles: phaseCyclesTotal,
    jobs: jobs.map((j) => ({
      name: j.name,
      op_type: opName(j.job.op_type),
      use_int: j.job.use_int,
      rounding: enumOf('rounding', j.job.rounding),
      tininess: enumOf('tininess', j.job.tininess),
      l1_mode: enumOf('l1_mode', j.job.l1_mode),
      vec_len: j.job.vec_len,
      num_vectors: j.job.num_vectors,
      beats_per_vector: j.job.vec_len / 16,
      cycles_per_beat: beatCycles(j.job.op_type, timing, params),
      start_cycle: j.startCycle,
      end_cycle: j.endCycle,
      vectors_per_second: j.endCycle > j.startCycle ? j.job.num_vectors / ((j.endCycle - j.startCycle) / clockHz) : 0,
      fp_flags: flagRecord(j.fpFlags),
    })),
    fp_flags: {
      note: 'sticky HardFloat exception flags of all fp32 operations, the union of the jobs\' fp_flags (the PE does not output them; tininess shows only in underflow)',
      ...flagRecord(flags),
    },
  };
  return { kernel, jobs, topk, stop: res.reason, cycles: res.cycles, stats, summary: summaryText(jobs, topk, stats), warnings };
}

/** The four HardFloat flags the fp32 model raises, by name. */
function flagRecord(f: number): { invalid: boolean; overflow: boolean; underflow: boolean; inexact: boolean } {
  return { invalid: (f & FLAG_INVALID) !== 0, overflow: (f & FLAG_OVERFLOW) !== 0, underflow: (f & FLAG_UNDERFLOW) !== 0, inexact: (f & FLAG_INEXACT) !== 0 };
}

function beatCycles(op: number, timing: TimingModel, params: XnuTimingParams): number {
  const c = phaseCycles(op, timing, params);
  return c.init + c.operation + c.aggregation + c.addition + c.output;
}

/** A result word as text. */
export function showWord(w: number, useInt: boolean): string {
  if (useInt) return String(w | 0);
  const f = new Float32Array(new Uint32Array([w]).buffer)[0]!;
  return Object.is(f, -0) ? '-0' : String(f);
}

function summaryText(jobs: MachineJob[], topk: Map<string, Int32Array>, s: Record<string, unknown>): string {
  const lines = [
    s['stop'] === 'done'
      ? `xnu PEx8: ${s['cycles']} cycles (${s['stop']}), ${s['vectors']} vectors, ${Number(s['vectors_per_second']).toExponential(3)} vectors/s at ${Number(s['clock_hz']) / 1e6} MHz`
      : `xnu PEx8: ${s['cycles']} cycles (${s['stop']}), stopped before its ${s['vectors']} vectors were processed: no rate (${Number(s['clock_hz']) / 1e6} MHz)`,
  ];
  lines.push(`  model: ${s['model']}`);
  const pc = s['phase_cycles'] as Record<string, number>;
  lines.push(`  phase cycles: ${PHASES.map((p) => `${p} ${pc[p]}`).join(', ')}`);
  for (const j of jobs) {
    const n = Math.min(8, j.results.length);
    const vals = Array.from(j.results.subarray(0, n), (w) => showWord(w, j.job.use_int === 1));
    lines.push(`  ${j.name} (${opName(j.job.op_type)}, ${j.job.use_int ? 'int32' : 'fp32 ' + enumOf('rounding', j.job.rounding)}): [${vals.join(', ')}${j.results.length > n ? ', ...' : ''}]`);
    const flags = Object.entries(flagRecord(j.fpFlags)).filter(([, v]) => v).map(([k]) => k);
    if (flags.length) lines.push(`    fp_flags: ${flags.join(', ')}`);
    const t = topk.get(j.name);
    if (t) lines.push(`    top-${t.length} (host post-processing): [${Array.from(t).join(', ')}]`);
  }
  return lines.join('\n') + '\n';
}

/** The bytes of a dump (`.npy`): results as float32/int32 [num_vectors], top-k as int32 [k]. */
export function dumpBytes(r: XnuRunResult, d: DumpSpec): Uint8Array {
  const j = r.jobs.find((x) => x.name === d.job);
  if (!j) throw unknownName('--dump', 'job', d.job, 'the image', r.jobs.map((x) => x.name));
  if (d.what === 'topk') {
    const t = r.topk.get(d.job);
    if (!t) throw new UsageError(`--dump ${d.job}.topk: job \`${d.job}\` has no top_k (set top_k on an L2/L1 job)`);
    return writeNpy({ dtype: 'int32', shape: [t.length], data: t });
  }
  const buf = j.results.slice();
  return j.job.use_int ? writeNpy({ dtype: 'int32', shape: [buf.length], data: new Int32Array(buf.buffer) }) : writeNpy({ dtype: 'float32', shape: [buf.length], data: new Float32Array(buf.buffer) });
}

/** A job's results (or its top-k indices, `JOB.topk`) as numbers: `--compare`. */
export function readResults(r: XnuRunResult, name: string): { shape: number[]; data: ArrayLike<number> } {
  const d = parseDumpSpec(`${name}=x.npy`);
  const j = r.jobs.find((x) => x.name === d.job);
  if (!j) throw unknownName('--compare', 'job', d.job, 'the image', r.jobs.map((x) => x.name));
  if (d.what === 'topk') {
    const t = r.topk.get(d.job)!;
    return { shape: [t.length], data: t };
  }
  const buf = j.results.slice();
  return { shape: [buf.length], data: j.job.use_int ? new Int32Array(buf.buffer) : new Float32Array(buf.buffer) };
}

/** `--dump-all DIR`: one results dump per job (DIR/JOB.npy) and one top-k dump per job that has top_k. */
export function dumpAllSpecs(image: Container, dir: string): DumpSpec[] {
  const out: DumpSpec[] = [];
  for (const { name, job } of jobsOf(image)) {
    out.push({ job: name, what: 'results', file: join(dir, `${name}.npy`) });
    if (job.top_k > 0 && (job.op_type === OP_L2 || job.op_type === OP_L1)) out.push({ job: name, what: 'topk', file: join(dir, `${name}.topk.npy`) });
  }
  return out;
}

/** Checks dump specs against the image before the run. */
export function checkDumps(image: Container, dumps: DumpSpec[], flag = '--dump'): void {
  const jobs = jobsOf(image);
  for (const d of dumps) {
    const j = jobs.find((x) => x.name === d.job);
    if (!j) throw unknownName(flag, 'job', d.job, 'the image', jobs.map((x) => x.name));
    if (d.what === 'topk' && !(j.job.top_k > 0 && (j.job.op_type === OP_L2 || j.job.op_type === OP_L1))) throw new UsageError(`${flag} ${d.job}.topk: job \`${d.job}\` has no top_k (set top_k on an L2/L1 job)`);
  }
}
