/**
 * The simulator's one parameter object per machine instance. grammars/pyxis/sim_config.json holds every default
 * (bandwidths, latencies, FIFO depths, APM, grid and weights path), grammars/pyxis/params.json says what each one
 * accepts (type, range, unit, spec section or MODEL); the shared @pyxis/target params module derives the table from
 * the two, resolves `--sim-config` / `--set` overrides and validates them. `simConfigFrom` turns one resolved set into
 * the `SimConfig` a chip is built from and every engine, AMEM, UIE and compute unit of that chip reads. There is no
 * other default table in code and no process-wide parameter state: the file is read once per process (the defaults
 * are immutable data), the values once per machine instance.
 */
import { loadGrammarJson } from '@pyxis/codec';
import { DiagnosticError, UsageError, error } from '@pyxis/diagnostics';
import { defaultParams, deriveParamTable, overrideParam, paramTree, type ParamDescription, type ParamSet, type ParamTable } from '@pyxis/target';
import { SimCodes } from './diagnostics.js';

export interface GridParams {
  h_fifo_depth: number;
  hbuf_read_latency_cycles: number;
  v_fifo_depth: number;
  grid_fill_latency_cycles: number;
  llc_pipeline_latency_cycles: number;
  gh_dec_fifo_depth: number;
  gv_dec_fifo_depth: number;
  gx_dec_fifo_depth: number;
}

export interface WeightsPathParams {
  amem_read_latency_cycles: number;
  wdc_in_fifo_depth: number;
  wdc_latency_cycles: number;
  wdc_fifo_depth: number;
  wdp_dec_fifo_depth: number;
  wdp_latency_cycles: number;
}

/** FIFO depths of a UIE outside the grid and the weights path (sim_config.json `uie`). */
export interface UieDepths {
  amem_dec_fifo_depth: number;
  switchbox_fifo_depth: number;
  itfe_index_fifo_depth: number;
  vi_dec_fifo_depth: number;
  vbuffer_dec_fifo_depth: number;
  vpu_fifo_depth: number;
}

/** What a UIE model (uie/) reads: its share of the machine's parameters. */
export interface UieParams {
  uie: UieDepths;
  grid: GridParams;
  weights_path: WeightsPathParams;
}

export interface SimConfig extends UieParams {
  name: string;
  clock_hz: number;
  hbm: { bytes_per_second_per_stack: number; read_latency_cycles: number; write_latency_cycles: number };
  h2a: { bytes_per_cycle: number };
  a2h: { bytes_per_cycle: number };
  icdma: { bytes_per_cycle: number; latency_cycles: number; chunk_bytes: number };
  core_switch: { bytes_per_second_per_cluster_port: number };
  amem: { write_commit_latency_cycles: number; read_latency_cycles: number; request_shim_cycles: number; switch_convert_cycles: number };
  noc: { bytes_per_cycle: number; latency_cycles: number };
  dpe: { prefetch_depth: number; hungry_level: number; starving_level: number; burst_descriptors?: number };
  trip_manager: { launch_latency_cycles: number; notify_latency_cycles: number };
  barrier_config: { latency_cycles: number };
  barrier_timeout_cycles: number;
  mpe: { write_bytes_per_cycle: number };
  apm: { enabled: boolean; power_update_period: number; max_delta_power: number; min_granted_power: number; max_granted_power: number };
}

/** Derived per-cycle rates. */
export function hbmBytesPerCycle(c: SimConfig): number {
  return c.hbm.bytes_per_second_per_stack / c.clock_hz;
}
export function coreSwitchBytesPerCycle(c: SimConfig): number {
  return c.core_switch.bytes_per_second_per_cluster_port / c.clock_hz;
}

let table: ParamTable | undefined;
let defaultsFile: unknown;

/** The defaults file as read (immutable data; never mutated). */
function defaults(): unknown {
  return (defaultsFile ??= loadGrammarJson<unknown>('pyxis', 'sim_config'));
}

/** The Pyxis parameter table (grammars/pyxis/sim_config.json joined with params.json). */
export function pyxisParamTable(): ParamTable {
  return (table ??= deriveParamTable('pyxis', 'sim_config.json', defaults(), loadGrammarJson<ParamDescription>('pyxis', 'params')));
}

/** Relations between parameters a range cannot state (each a usage error naming both keys). */
function checkRelations(c: SimConfig): void {
  const a = c.apm;
  if (a.min_granted_power > a.max_granted_power)
    throw new UsageError(`apm.min_granted_power (${a.min_granted_power}) must not exceed apm.max_granted_power (${a.max_granted_power}) (pyxis-chip-fspec.md §13)`);
  const d = c.dpe;
  if (d.starving_level > d.hungry_level || d.hungry_level > d.prefetch_depth)
    throw new UsageError(`dpe.starving_level (${d.starving_level}) <= dpe.hungry_level (${d.hungry_level}) <= dpe.prefetch_depth (${d.prefetch_depth}) must hold (pyxis-chip-fspec.md §12.5)`);
}

/** The SimConfig of one machine instance from its resolved parameters. */
export function simConfigFrom(set: ParamSet): SimConfig {
  const c = paramTree<SimConfig>(set, defaults());
  checkRelations(c);
  return c;
}

/**
 * A config object built elsewhere (tests edit a copy): every parameter of the table is checked against its range
 * (SIM0xxx badConfig, exit 1: the object is input, not a command line).
 */
export function validateSimConfig(c: SimConfig): SimConfig {
  const t = pyxisParamTable();
  for (const p of t.params) {
    let v: unknown = c;
    for (const k of p.key.split('.')) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined;
    const ok = p.type === 'bool' ? typeof v === 'boolean' : typeof v === 'number' && Number.isFinite(v) && (p.type !== 'int' || Number.isInteger(v)) && v >= (p.min ?? -Infinity) && v <= (p.max ?? Infinity);
    if (!ok) throw new DiagnosticError(error(SimCodes.badConfig, `sim_config: \`${p.key}\` must be ${p.type === 'bool' ? 'a boolean' : `${p.type === 'int' ? 'an integer' : 'a number'} in ${p.min}..${p.max}`}, got ${JSON.stringify(v)}`));
  }
  return c;
}

let defaultConfig: SimConfig | undefined;

/** The shipped defaults as one frozen object (models built without a machine, e.g. unit tests of one UIE). */
export function defaultSimConfig(): SimConfig {
  return (defaultConfig ??= deepFreeze(simConfigFrom(defaultParams(pyxisParamTable()))));
}

function deepFreeze<T>(o: T): T {
  if (o && typeof o === 'object') {
    for (const v of Object.values(o)) deepFreeze(v);
    Object.freeze(o);
  }
  return o;
}

/** A fresh, mutable config: the defaults, optionally at another clock (`--clock-hz`). */
export function loadSimConfig(overrides: { clockHz?: number } = {}): SimConfig {
  const set = defaultParams(pyxisParamTable());
  if (overrides.clockHz !== undefined) overrideParam(set, 'clock_hz', overrides.clockHz);
  return simConfigFrom(set);
}
