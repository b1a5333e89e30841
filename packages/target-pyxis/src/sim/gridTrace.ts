/**
 * The compute half in the user's terms on trace counter tracks and VCD signals (built only with --trace / --vcd):
 * per UIE a `<uie> grid utilisation` counter (Exec_Valid cycles of each sample period in % of its cycles, the figure
 * of docs/timing-model.md "Pyxis compute statistics") and a `<uie> compute stalls` counter (stall cycles of each
 * reason within the period, the names of the stats' `stall_cycles`); VCD states of the LLC grid, the weights path
 * and the writeback, one sample per cycle, from the same counters.
 */
import { Uie } from './uie/index.js';
import type { UieModel } from './uieSlot.js';
import type { CounterSource } from './observer.js';
import { STALLS } from './uieDefault.js';
import { stateOf } from './vpuTrace.js';

/**
 * `c<C> AMEM bank accesses`: partition accesses per bank within each sample period (keys `b<bank>`, banks not
 * accessed in the period left out; bank arbitration's counts, amem/banks.ts), for the report's bank x time heatmap.
 */
export function bankCounter(bankAccesses: Float64Array, cluster: number, group: string): CounterSource {
  const last = new Float64Array(bankAccesses.length);
  let wasZero = true;
  return {
    group,
    name: `c${cluster} AMEM bank accesses`,
    rate: true,
    sample: () => {
      const out: Record<string, number> = {};
      let any = false;
      for (let b = 0; b < bankAccesses.length; b++) {
        const d = bankAccesses[b]! - last[b]!;
        last[b] = bankAccesses[b]!;
        if (d > 0) {
          out[`b${b}`] = d;
          any = true;
        }
      }
      if (!any && wasZero) return undefined;
      wasZero = !any;
      return any ? out : { b0: 0 };
    },
  };
}

/** `<uie> grid utilisation`: exec_valid_pct of each period; nothing while the grid stays idle. */
export function gridCounter(m: UieModel | undefined, uieName: string, group: string): CounterSource | undefined {
  if (!(m instanceof Uie)) return undefined;
  const st = m.cmp.stats;
  let at = 0;
  let valid = 0;
  let macs = 0;
  let wasZero = true;
  return {
    group,
    name: `${uieName} grid utilisation`,
    rate: true,
    sample: (now: number) => {
      const dt = now - at;
      const dv = st.execValid - valid;
      const dm = st.macs - macs;
      at = now;
      valid = st.execValid;
      macs = st.macs;
      const zero = dv === 0 && dm === 0;
      if (zero && wasZero) return undefined;
      wasZero = zero;
      return { exec_valid_pct: dt > 0 ? Math.round((1e4 * dv) / dt) / 100 : 0, macs_per_cycle: dt > 0 ? Math.round((100 * dm) / dt) / 100 : 0 };
    },
  };
}

/** `<uie> compute stalls`: stall cycles per reason within each period (reasons that never stalled are left out). */
export function stallCounter(m: UieModel | undefined, uieName: string, group: string): CounterSource | undefined {
  if (!(m instanceof Uie)) return undefined;
  const st = m.cmp.stats;
  const last = new Float64Array(STALLS.length);
  let wasZero = true;
  return {
    group,
    name: `${uieName} compute stalls`,
    rate: true,
    sample: () => {
      const out: Record<string, number> = {};
      let any = false;
      STALLS.forEach(([name, k], i) => {
        const v = st[k] as number;
        const d = v - last[i]!;
        last[i] = v;
        if (v > 0) out[name] = d;
        if (d > 0) any = true;
      });
      if (!any && wasZero) return undefined;
      wasZero = !any;
      return out;
    },
  };
}

/**
 * VCD probes of the compute half: `grid_state` (1 Exec_Valid, 2 bubble, 3 configuration), `weights_path`
 * (1 a weights word entered the WDC, 2 the WDP moved a word, 3 an Hbuf was written), `writeback`
 * (1 a writeback flit, 2 a writeback stalled on credits, 3 on a pending writeback).
 */
export function gridVcdProbes(m: UieModel | undefined): Array<[string, number, () => number]> | undefined {
  if (!(m instanceof Uie)) return undefined;
  const st = m.cmp.stats;
  return [
    ['grid_state', 2, stateOf(st, 'execValid', 'execBubble', ['execConfig'])],
    ['weights_path', 2, stateOf(st, 'wdcWords', 'wdpWords', ['hbufBytesWritten'])],
    ['writeback', 2, stateOf(st, 'wbFlits', 'stallWbCredits', ['stallWbPending'])],
  ];
}
