/**
 * Fabric adapter parameters (grammars/pyxis/fabric_adapter.json: timers, job tables, descriptor FIFOs, PGen
 * channels, QPage table, occupancy profiles, TxDMA / RxDMA), loaded once; a chip may override any of them
 * (ChipFabricOptions.adapter: tests use short timers). Validated with a JSON path in the message (SIM0750).
 */
import { loadGrammarJson } from '@pyxis/codec';
import { DiagnosticError, error } from '@pyxis/diagnostics';

export interface OccupancyProfile {
  xoff: number;
  xon: number;
}

export interface FabricAdapterParams {
  timers: {
    tx_cts_wait_timeout_cycles: number;
    tx_active_timeout_cycles: number;
    tx_ack_wait_timeout_cycles: number;
    rx_data_wait_timeout_cycles: number;
    rx_job_completion_timeout_cycles: number;
  };
  job_tables: { tx_jobs_per_cluster: number; rx_jobs_per_cluster: number; timestamp_tick_cycles: number };
  descriptor_fifos: { rdma_tx_depth: number; rdma_rx_depth: number; dgram_tx_depth: number; dgram_rx_prefetch_depth: number };
  page_generator: { channels: number; message_channels_reserved: number; rdma_channel_limit: number; datagram_channel_limit: number; cycles_per_page: number; job_manager_cycles_per_job: number };
  qpages: { table_entries: number; cluster_limit: number };
  occupancy: {
    profiles: OccupancyProfile[];
    default_profile: number;
    message_profile: number;
    high_group_limit: number;
    low_group_limit: number;
    default_priority: 'high' | 'low';
  };
  txdma: { words_per_cycle_per_pipe: number; latency_cycles: number; txbuf_pages_per_pipe: number; encap_latency_cycles: number; pipes: number };
  rxdma: { words_per_cycle: number; decap_latency_cycles: number; tracking_ids: number };
  rx_oqm: { oq_priority: Array<'high' | 'low'> };
  messages: { page_bytes: number };
  datagrams: { tx_reorder_ids: number };
}

/** Diagnostic codes of the fabric adapter (SIM0750-SIM0799; docs/simulator.md). */
export const FabricCodes = {
  /** A fabric_adapter.json parameter (or an override) is not valid. */
  badParam: 'SIM0750',
  /** An RDMA / datagram descriptor names a VOQ that the chip's Pyxis_VOQ_to_VPFE_map does not map (§10.2). */
  unmappedVoq: 'SIM0751',
  /** An RDMA descriptor field is outside its legal range (§11.4.6-11.4.7). */
  badRdmaDescriptor: 'SIM0752',
  /** A TJID / RJID is re-used while its Job Table entry is still active (§10.4, §10.7.1, §10.8.1.1). */
  jobIdInUse: 'SIM0753',
  /** An RDMA job failed (Job Failed state, §10.7.1.2 / §10.8.1.2): reported in the wait graph and the stats. */
  jobFailed: 'SIM0754',
  /** The RDMA / datagram range runs past the 64 MiB AMEM (§11.4.6-11.4.9). */
  badRange: 'SIM0755',
  /** An RDMA queue in a chip outside a system (no fabric to send to). */
  noFabric: 'SIM0756',
  /** A datagram Rx descriptor's BufferSizeBytes exceeds 16256 (§11.4.9), seen when the DPE prefetches it. */
  badDgramRxDescriptor: 'SIM0870',
} as const;

let base: FabricAdapterParams | undefined;

function check(p: FabricAdapterParams): FabricAdapterParams {
  const bad = (path: string, v: unknown, want: string): never => {
    throw new DiagnosticError(error(FabricCodes.badParam, `fabric_adapter.json: \`${path}\` must be ${want}, got ${JSON.stringify(v)}`));
  };
  const int = (path: string, v: unknown, min: number) => {
    if (!(typeof v === 'number' && Number.isInteger(v) && v >= min)) bad(path, v, `an integer >= ${min}`);
  };
  for (const [group, vals] of Object.entries(p) as Array<[string, Record<string, unknown>]>) {
    if (group === 'occupancy' || group === 'rx_oqm') continue;
    for (const [k, v] of Object.entries(vals)) if (k !== 'doc') int(`${group}.${k}`, v, k.endsWith('latency_cycles') || k === 'message_channels_reserved' ? 0 : 1);
  }
  if (p.page_generator.message_channels_reserved >= p.page_generator.channels) bad('page_generator.message_channels_reserved', p.page_generator.message_channels_reserved, 'below page_generator.channels');
  if (p.job_tables.tx_jobs_per_cluster > 256 || p.job_tables.rx_jobs_per_cluster > 256) bad('job_tables', p.job_tables, 'at most 256 entries (8-bit job ids, §10.4)');
  const o = p.occupancy;
  if (!Array.isArray(o.profiles) || o.profiles.length !== 8) bad('occupancy.profiles', o.profiles, 'eight profiles (§10.7.3.1)');
  o.profiles.forEach((q, i) => {
    int(`occupancy.profiles[${i}].xoff`, q.xoff, 1);
    int(`occupancy.profiles[${i}].xon`, q.xon, 0);
    if (q.xon >= q.xoff) bad(`occupancy.profiles[${i}].xon`, q.xon, `below xoff (${q.xoff}): hysteresis`);
  });
  for (const k of ['default_profile', 'message_profile'] as const) if (!(Number.isInteger(o[k]) && o[k] >= 0 && o[k] < 8)) bad(`occupancy.${k}`, o[k], 'a profile index 0..7');
  int('occupancy.high_group_limit', o.high_group_limit, 1);
  int('occupancy.low_group_limit', o.low_group_limit, 1);
  if (o.default_priority !== 'high' && o.default_priority !== 'low') bad('occupancy.default_priority', o.default_priority, '"high" or "low"');
  const q = p.rx_oqm?.oq_priority;
  if (!Array.isArray(q) || q.length !== 4 || q.some((x) => x !== 'high' && x !== 'low')) bad('rx_oqm.oq_priority', q, 'four entries "high" / "low", one per OQ of a cluster (§10.8.5)');
  return p;
}

/** Deep merge of a partial override into the defaults (objects merged, arrays replaced). */
function merge(a: unknown, b: unknown): unknown {
  if (b === undefined) return structuredClone(a);
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const out: Record<string, unknown> = {};
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) out[k] = merge((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]);
    return out;
  }
  return structuredClone(b);
}

export type FabricAdapterOverrides = { [K in keyof FabricAdapterParams]?: Partial<FabricAdapterParams[K]> };

/** The parameters of grammars/pyxis/fabric_adapter.json with `overrides` applied, validated. */
export function loadFabricAdapterParams(overrides?: FabricAdapterOverrides): FabricAdapterParams {
  if (!base) {
    const raw = loadGrammarJson<Record<string, unknown>>('pyxis', 'fabric_adapter');
    const { name: _n, doc: _d, spec: _s, ...rest } = raw;
    base = check(rest as unknown as FabricAdapterParams);
  }
  return overrides ? check(merge(base, overrides) as FabricAdapterParams) : base;
}
