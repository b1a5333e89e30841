/**
 * Per-engine cycle counters of a simulator: busy, stalled (by stall reason, SimEngine.stallCode) and idle cycles, in
 * typed arrays indexed by engine (the per-cycle path allocates nothing), and the EngineStats report built from them.
 * Every cycle of a run counts once per engine in exactly one of the three (docs/timing-model.md "Lazy accounting":
 * the lazy engines of lazyEngines.ts add theirs in one go). Part of the Simulator class chain (registry.ts).
 */
import type { SimEngine } from './engine.js';
import { EngineRegistry } from './registry.js';

export interface EngineStats {
  name: string;
  busy: number;
  stall: number;
  idle: number;
  /** Stall cycles per reason (only non-zero reasons). */
  stallReasons: Record<string, number>;
}

/** Engine e's current stall code: an index into its `stallReasons` (0 when it has none or the code is out of range). */
export function stallCodeOf(e: SimEngine): number {
  if (!e.stallCode || !e.stallReasons) return 0;
  const code = e.stallCode();
  return code >= 0 && code < e.stallReasons.length ? code : 0;
}

export class EngineCounters extends EngineRegistry {
  protected busyC = new Float64Array(0);
  protected stallC = new Float64Array(0);
  protected idleC = new Float64Array(0);
  /** Stall reason counters: engine i's codes start at reasonBase[i]. */
  protected reasonBase = new Int32Array(0);
  protected reasonC = new Float64Array(0);

  /** Sizes the counters for `n` engines, keeping the counts of the engines registered before. */
  protected growCounters(n: number): void {
    const grow = (a: Float64Array) => {
      const b = new Float64Array(n);
      b.set(a.subarray(0, Math.min(a.length, n)));
      return b;
    };
    this.busyC = grow(this.busyC);
    this.stallC = grow(this.stallC);
    this.idleC = grow(this.idleC);
    this.reasonBase = new Int32Array(n);
    let total = 0;
    for (let i = 0; i < n; i++) {
      this.reasonBase[i] = total;
      total += Math.max(1, this.engines[i]!.stallReasons?.length ?? 0);
    }
    const old = this.reasonC;
    this.reasonC = new Float64Array(total);
    if (old.length <= total) this.reasonC.set(old);
    // accountStall sees one engine of each class before the loop is optimised (0 cycles: no counter moves; stallCode
    // is a query), repeatedly (V8 keeps feedback only from a function's ~8th call on): a class first stalling later
    // (the trip manager at a trip's end, another at a thread's next partition) deoptimised the loop ("wrong map")
    const reps = new Map<unknown, number>();
    for (let i = 0; i < n; i++) if (!reps.has(Object.getPrototypeOf(this.engines[i]))) reps.set(Object.getPrototypeOf(this.engines[i]), i);
    for (let r = 0; r < 10; r++) for (const i of reps.values()) this.accountStall(i, this.engines[i]!, 0);
  }

  /** `cycles` stall cycles of engine i, with the reason its `stallCode` gives now. */
  protected accountStall(i: number, e: SimEngine, cycles: number): void {
    this.stallC[i] += cycles;
    // stallCodeOf inlined by hand: this runs for every stalled tick
    let code = 0;
    if (e.stallCode && e.stallReasons) {
      code = e.stallCode();
      if (!(code >= 0 && code < e.stallReasons.length)) code = 0;
    }
    this.reasonC[this.reasonBase[i]! + code] += cycles;
  }

  /** The counters as a report (the caller accounts the lazy engines first). */
  protected countersReport(): EngineStats[] {
    return this.engines.map((e, i) => {
      const reasons: Record<string, number> = {};
      const names = e.stallReasons ?? ['stalled'];
      for (let k = 0; k < Math.max(1, names.length); k++) {
        const c = this.reasonC[this.reasonBase[i]! + k]!;
        if (c > 0) reasons[names[k] ?? 'stalled'] = c;
      }
      return { name: e.name, busy: this.busyC[i]!, stall: this.stallC[i]!, idle: this.idleC[i]!, stallReasons: reasons };
    });
  }
}
