/**
 * The simulator's one documented configuration: grammars/pyxis/sim_config.json
 * (bandwidths, latencies, queue depths, APM). `loadSimConfig` returns the
 * parsed file with derived bytes-per-cycle figures; callers may override
 * fields (e.g. `--clock-hz`).
 */
import { loadGrammarJson } from '@pyxis/codec';
import { DiagnosticError, error } from '@pyxis/diagnostics';
import { SimCodes } from './diagnostics.js';

export interface SimConfig {
  name: string;
  clock_hz: number;
  hbm: { bytes_per_second_per_stack: number; read_latency_cycles: number; write_latency_cycles: number };
  h2a: { bytes_per_cycle: number };
  a2h: { bytes_per_cycle: number };
  icdma: { bytes_per_cycle: number; latency_cycles: number; chunk_bytes: number };
  core_switch: { bytes_per_second_per_cluster_port: number };
  amem: { write_commit_latency_cycles: number; read_latency_cycles: number; request_shim_cycles: number; switch_convert_cycles: number };
  noc: { bytes_per_cycle: number; latency_cycles: number };
  dpe: { prefetch_depth: number; hungry_level: number; starving_level: number };
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

function num(o: unknown, path: string, min = 0): number {
  if (typeof o !== 'number' || !Number.isFinite(o) || o < min)
    throw new DiagnosticError(error(SimCodes.badConfig, `sim_config.json: \`${path}\` must be a number >= ${min}, got ${JSON.stringify(o)}`));
  return o;
}

/** Validates a config object (all numeric leaves are checked). */
export function validateSimConfig(c: SimConfig): SimConfig {
  num(c.clock_hz, 'clock_hz', 1);
  const walk = (o: unknown, p: string) => {
    if (o && typeof o === 'object')
      for (const [k, v] of Object.entries(o as Record<string, unknown>)) {
        if (k === 'doc' || k === 'name' || k === 'spec') continue;
        if (typeof v === 'number') num(v, `${p}${k}`);
        else if (typeof v === 'object') walk(v, `${p}${k}.`);
      }
  };
  walk(c, '');
  return c;
}

export function loadSimConfig(overrides: { clockHz?: number } = {}): SimConfig {
  const c = structuredClone(loadGrammarJson<SimConfig>('pyxis', 'sim_config'));
  if (overrides.clockHz !== undefined) c.clock_hz = overrides.clockHz;
  return validateSimConfig(c);
}
