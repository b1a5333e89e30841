/**
 * The wires of a whole system in one process: one ChipWire per chip, each sending to the others' inbound
 * cross-partition links (key = the sending chip: unique across the system, so same-cycle arrivals are ordered by
 * (cycle, source chip, send order)). A runner on worker threads builds one ChipWire per worker with its own `send`.
 */
import type { Simulator, TimedLink } from '@pyxis/sim';
import { ChipWire, type TraceSink, type VpfeRoute } from './wire.js';
import type { FabricParams } from './wireParams.js';
import { FaultInjector, type FaultSpec } from './faults.js';

export interface WireSet {
  wires: ChipWire[];
  /** The cross-partition links, for runPartitioned. */
  crossLinks: Array<TimedLink<unknown>>;
}

export function createWires(sims: Simulator[], p: FabricParams, route: VpfeRoute, faults: FaultSpec | null = null, traces: Array<TraceSink | null> = []): WireSet {
  const wires: ChipWire[] = [];
  const send = (src: number) => (dst: number, now: number, at: number, msg: Parameters<ChipWire['inLink']['send']>[3]) => wires[dst]!.inLink.send(now, at, src, msg);
  sims.forEach((sim, k) => wires.push(new ChipWire(k, p, route, sim, send(k), faults ? new FaultInjector(faults, k) : null, traces[k] ?? null)));
  return { wires, crossLinks: wires.map((w) => w.inLink as TimedLink<unknown>) };
}
