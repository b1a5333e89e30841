/**
 * The fabric fault injector (`pyxis-sim run SYSTEM --fabric-faults SPEC`, docs/system.md "Faults"): seeded, applied
 * on the wire when a page is transmitted (drop: the page never arrives; corrupt: it arrives with `corrupt = true`,
 * a bad header CRC the adapter must drop, §10.8.7). The adapter reacts (NACK, timeouts, the one retry of §10.3.1).
 *
 * SPEC := ITEM (',' ITEM)*
 * ITEM := 'seed=' UINT | ACTION ':' TYPE (':' KEY '=' VALUE)*
 * ACTION := 'drop' | 'corrupt';  TYPE := 'data' | 'datagram' | 'cts' | 'ack' | 'nack' | 'any'
 * KEY := 'rate' (0..1: each matching page independently) | 'chip' (source chip) | 'nth' (the n-th matching page of
 *        that source chip, 0-based) | 'tjid' | 'rjid' | 'seq' (fields of the page, when the adapter sets them)
 * A rule without `rate` hits every matching page (with `nth`: exactly one). Rules are tried in order; the first that
 * hits decides. Decisions are taken per source chip with its own random stream (seed, chip): a run's faults never
 * depend on the order chips run in.
 */
import { UsageError } from '@pyxis/diagnostics';
import type { FabricPage, FabricPageType } from './port.js';

export type FaultAction = 'drop' | 'corrupt';

export interface FaultRule {
  action: FaultAction;
  type: FabricPageType | 'any';
  rate: number | null;
  chip: number | null;
  nth: number | null;
  tjid: number | null;
  rjid: number | null;
  seq: number | null;
}

export interface FaultSpec {
  seed: number;
  rules: FaultRule[];
}

const TYPES: Record<string, FabricPageType | 'any'> = { data: 'rdma_data', datagram: 'datagram', cts: 'cts', ack: 'ack', nack: 'nack', any: 'any' };

function fail(spec: string, pos: number, msg: string): never {
  throw new UsageError(`--fabric-faults: ${msg} at position ${pos + 1}\n  ${spec}\n  ${' '.repeat(pos)}^`);
}

/** Parses SPEC; a bad one is a usage error (exit 2) naming the position. */
export function parseFaultSpec(spec: string): FaultSpec {
  const out: FaultSpec = { seed: 1, rules: [] };
  if (spec.trim() === '') fail(spec, 0, 'empty SPEC');
  let pos = 0;
  for (const item of spec.split(',')) {
    const at = pos;
    pos += item.length + 1;
    const t = item.trim();
    const lead = item.length - item.trimStart().length;
    if (t.startsWith('seed=')) {
      const v = t.slice(5);
      if (!/^\d{1,15}$/.test(v)) fail(spec, at + lead + 5, `seed must be an unsigned integer, got "${v}"`);
      out.seed = Number(v);
      continue;
    }
    const parts = t.split(':');
    let p = at + lead;
    const action = parts[0]!;
    if (action !== 'drop' && action !== 'corrupt') fail(spec, p, `expected drop or corrupt, got "${action}"`);
    p += action.length + 1;
    const type = TYPES[parts[1] ?? ''];
    if (!type) fail(spec, p, `expected a page type (${Object.keys(TYPES).join(', ')}), got "${parts[1] ?? ''}"`);
    p += parts[1]!.length + 1;
    const rule: FaultRule = { action, type, rate: null, chip: null, nth: null, tjid: null, rjid: null, seq: null };
    const given = new Set<string>();
    for (const kv of parts.slice(2)) {
      const m = /^(rate|chip|nth|tjid|rjid|seq)=(.*)$/.exec(kv);
      if (!m) fail(spec, p, `expected rate=, chip=, nth=, tjid=, rjid= or seq=, got "${kv}"`);
      const [, k, v] = m;
      if (given.has(k!)) fail(spec, p, `${k} is given twice in one rule`);
      given.add(k!);
      if (k === 'rate') {
        if (!/^(0(\.\d+)?|1(\.0*)?|\.\d+)$/.test(v!)) fail(spec, p + k.length + 1, `rate must be a number in [0, 1], got "${v}"`);
        rule.rate = Number(v);
      } else {
        if (!/^\d{1,9}$/.test(v!)) fail(spec, p + k!.length + 1, `${k} must be an unsigned integer, got "${v}"`);
        // TJID / RJID are 8-bit job ids (chip §11.4.6-11.4.7): a larger value could never match
        if ((k === 'tjid' || k === 'rjid') && Number(v) > 255) fail(spec, p + k.length + 1, `${k} must be a job id 0..255 (8 bits, chip §11.4.6), got "${v}"`);
        rule[k as 'chip' | 'nth' | 'tjid' | 'rjid' | 'seq'] = Number(v);
      }
      p += kv.length + 1;
    }
    out.rules.push(rule);
  }
  return out;
}

/** SplitMix32-style seeded stream (deterministic, cheap; no per-call allocation). */
function mix(x: number): number {
  x = (x + 0x9e3779b9) | 0;
  let z = x;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

/** One per source chip (it lives in that chip's partition). */
export class FaultInjector {
  private state: number;
  /** Per rule: matching pages seen (for nth). */
  private readonly seen: Int32Array;
  constructor(
    readonly spec: FaultSpec,
    chip: number,
  ) {
    this.state = mix(spec.seed ^ mix(chip + 1));
    this.seen = new Int32Array(spec.rules.length);
  }

  private random(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    return mix(this.state) / 4294967296;
  }

  /** What happens to `page` sent by `chip`: null (delivered), 'drop' or 'corrupt'. */
  decide(chip: number, page: FabricPage): FaultAction | null {
    const rules = this.spec.rules;
    const meta = page;
    // Every rule counts its matching pages (nth) whatever an earlier rule decided; the first rule that hits decides.
    let fate: FaultAction | null = null;
    for (let i = 0; i < rules.length; i++) {
      const r = rules[i]!;
      if (r.type !== 'any' && r.type !== page.type) continue;
      if (r.chip !== null && r.chip !== chip) continue;
      if (r.tjid !== null && meta.tjid !== r.tjid) continue;
      if (r.rjid !== null && meta.rjid !== r.rjid) continue;
      if (r.seq !== null && meta.seq !== r.seq) continue;
      const n = this.seen[i]!++;
      if (r.nth !== null && n !== r.nth) continue;
      if (r.rate !== null && !(this.random() < r.rate)) continue;
      fate ??= r.action;
    }
    return fate;
  }
}
