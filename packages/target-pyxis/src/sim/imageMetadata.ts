/**
 * The image metadata the simulator interprets beyond the schema check (common/metadata.ts): host actions
 * (`metadata.pyxis.host_actions`) and remap windows (`metadata.pyxis.remap`, chip §12.7), parsed into the image
 * model (imageModel.ts). Errors are SIM image errors naming the JSON path.
 */
import { imageError, SimCodes } from './diagnostics.js';
import { CFG_ENGINE_BASE } from './cfgSpace.js';
import type { RemapWindow } from './noc.js';
import { DGRAM_INTERRUPT_BASE, DGRAM_INTERRUPT_NAMES, type HostAction } from './host.js';

/** Host CPU actions (metadata.pyxis.host_actions) for an image of `clusters` clusters. */
export function parseHostActions(file: string, v: unknown, clusters: number): HostAction[] {
  if (v === undefined) return [];
  const bad = (i: number, m: string) =>
    imageError(file, SimCodes.badImage, `metadata.pyxis.host_actions[${i}]: ${m}`, 0, { notes: ['format: { cluster, address: "0x40F01008", value: "0x2", at_cycle?, after_interrupt?: { entry: 0..7 | "timeout" | "fabric_job_failed" | "dgram_tx0" | "dgram_tx1" | "dgram_rx0" | "dgram_rx1", count? }, poll?: { address, mask?, value } }'] });
  if (!Array.isArray(v)) throw bad(0, 'must be a list');
  return v.map((x, i) => {
    const o = (x ?? {}) as Record<string, unknown>;
    const cluster = o['cluster'] ?? 0;
    if (typeof cluster !== 'number' || !(cluster >= 0 && cluster < Math.max(clusters, 4))) throw bad(i, `bad cluster ${String(cluster)}`);
    const address = big(o['address']);
    if (address === undefined || address < BigInt(CFG_ENGINE_BASE) || address >= 0x8000_0000n || address % 8n !== 0n)
      throw bad(i, 'address must be an 8-byte aligned engine address in the CSR window 0x40000000..0x7fffffff');
    const value = big(o['value']);
    if (value === undefined || value >= 1n << 64n) throw bad(i, 'value must be a 64-bit number or hex string');
    const at = o['at_cycle'] ?? 0;
    if (typeof at !== 'number' || !Number.isInteger(at) || at < 0) throw bad(i, 'at_cycle must be a cycle number');
    const a: HostAction = { cluster, address: Number(address), value, atCycle: at };
    const ai = o['after_interrupt'] as Record<string, unknown> | undefined;
    if (ai !== undefined) {
      const entry = ai['entry'];
      const count = ai['count'] ?? 1;
      const timeout = entry === 'timeout';
      const fabric = entry === 'fabric_job_failed';
      const ring = (DGRAM_INTERRUPT_NAMES as readonly unknown[]).indexOf(entry);
      if (!timeout && !fabric && ring < 0 && (typeof entry !== 'number' || !(entry >= 0 && entry < 8)))
        throw bad(i, 'after_interrupt.entry must be 0..7 (barrier_interrupt_config, chip §11.6.5), "timeout" (the barrier timeout interrupt, chip §11.6.7), "fabric_job_failed" (the RDMA Job Failed interrupt, chip §10.7.1.2, §10.8.1.2) or a datagram ring "dgram_tx0" / "dgram_tx1" / "dgram_rx0" / "dgram_rx1" (chip §11.5.2)');
      if (typeof count !== 'number' || !Number.isInteger(count) || count < 1) throw bad(i, `after_interrupt.count must be an integer >= 1 (the n-th interrupt; got ${JSON.stringify(count)})`);
      a.afterInterrupt = { entry: timeout ? -1 : fabric ? -2 : ring >= 0 ? DGRAM_INTERRUPT_BASE - ring : (entry as number), count };
    }
    const po = o['poll'] as Record<string, unknown> | undefined;
    if (po !== undefined) {
      // Software polling a CSR (e.g. cluster.trip_flush_status, chip §11.8): performed once (word & mask) == value.
      const pa = big(po['address']);
      if (pa === undefined || pa < BigInt(CFG_ENGINE_BASE) || pa >= 0x8000_0000n || pa % 8n !== 0n) throw bad(i, 'poll.address must be an 8-byte aligned engine address in the CSR window');
      const mask = po['mask'] === undefined ? (1n << 64n) - 1n : big(po['mask']);
      const pv = big(po['value']);
      if (mask === undefined || pv === undefined || mask >= 1n << 64n || pv >= 1n << 64n) throw bad(i, 'poll.mask and poll.value must be 64-bit numbers or hex strings');
      a.poll = { address: Number(pa), mask, value: pv & mask };
    }
    return a;
  });
}

function big(v: unknown): bigint | undefined {
  if (typeof v === 'number' && Number.isInteger(v) && v >= 0) return BigInt(v);
  if (typeof v === 'string' && /^(0x[0-9a-f]+|\d+)$/i.test(v)) return BigInt(v);
  return undefined;
}

export function parseWindows(file: string, v: unknown, what: string): RemapWindow[] {
  if (!Array.isArray(v) || v.length !== 4) throw imageError(file, SimCodes.badImage, `metadata.pyxis.remap: ${what} must list 4 windows`, 0, { spec: 'pyxis-chip-fspec.md §12.7' });
  return v.map((w, i) => {
    const base = big((w as Record<string, unknown>)?.['base']);
    const mask = big((w as Record<string, unknown>)?.['mask']);
    if (base === undefined || mask === undefined) throw imageError(file, SimCodes.badImage, `metadata.pyxis.remap: ${what}[${i}] needs hex string base and mask`);
    if ((mask & 0xfffn) !== 0xfffn)
      throw imageError(file, SimCodes.badImage, `metadata.pyxis.remap: ${what}[${i}] mask 0x${mask.toString(16)} does not pass address bits [11:0]`, 0, { spec: 'pyxis-chip-fspec.md §12.7' });
    return { base, mask };
  });
}
