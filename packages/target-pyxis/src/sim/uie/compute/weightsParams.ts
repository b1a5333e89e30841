/**
 * Parameters of the weights path (grammars/pyxis/sim_config.json `weights_path`, documented in its `doc` string and
 * in docs/timing-model.md "Pyxis weights path"): FIFO depths and pipeline latencies of AMEM Weights Read (seq §7) ->
 * weights decompressor (chip §6.2.4.1) -> wdc_fifo -> WDP (seq §9). Read once per process.
 */
import { loadGrammarJson } from '@pyxis/codec';

export interface WeightsPathParams {
  amem_read_latency_cycles: number;
  wdc_in_fifo_depth: number;
  wdc_latency_cycles: number;
  wdc_fifo_depth: number;
  wdp_dec_fifo_depth: number;
  wdp_latency_cycles: number;
}

const DEFAULTS: WeightsPathParams = {
  amem_read_latency_cycles: 2,
  wdc_in_fifo_depth: 4,
  wdc_latency_cycles: 1,
  wdc_fifo_depth: 4,
  wdp_dec_fifo_depth: 4,
  wdp_latency_cycles: 3,
};

let cache: WeightsPathParams | undefined;

export function weightsPathParams(): WeightsPathParams {
  if (cache) return cache;
  const raw = (loadGrammarJson<Record<string, unknown>>('pyxis', 'sim_config')['weights_path'] ?? {}) as Record<string, unknown>;
  const p = { ...DEFAULTS };
  for (const k of Object.keys(DEFAULTS) as Array<keyof WeightsPathParams>) {
    const v = raw[k];
    if (v === undefined) continue;
    const min = k.endsWith('_depth') || k === 'amem_read_latency_cycles' || k === 'wdc_latency_cycles' ? 1 : 0;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min) throw new Error(`grammars/pyxis/sim_config.json: weights_path.${k} must be an integer >= ${min}, got ${JSON.stringify(v)}`);
    p[k] = v;
  }
  return (cache = p);
}
