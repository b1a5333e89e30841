/**
 * VPU and Vbuffer activity in `--trace` (Perfetto/Chrome JSON) and `--vcd` (sim/vpuTrace.ts; docs/simulator.md "VPU and
 * Vbuffer activity in traces"), on the vpu_relu sample. The trace and VCD figures must add up to the --stats counts of
 * the same run (one source of truth, two views), and the VCD states must cover exactly the counted cycles.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { assemble, loadPyxisIsa } from '@pyxis/target-pyxis/asm';
import { link } from '@pyxis/target-pyxis/ld';
import { makeUieFactory, simulateImage, StringSink } from '@pyxis/target-pyxis/sim';
import { SAMPLES } from '../samples-compute.harness.js';

const CLOCK_HZ = 1.33e9;

function runRelu() {
  const obj = assemble([{ file: 'vpu_relu.pasm', text: readFileSync(SAMPLES + 'vpu_relu.pasm', 'utf8') }], { isa: loadPyxisIsa(), listing: false }).object;
  const image = link({ script: readFileSync(SAMPLES + 'vpu_relu.ld', 'utf8'), scriptFile: SAMPLES + 'vpu_relu.ld', objects: [{ file: 'vpu_relu.pobj', container: obj }] }).image;
  const trace = new StringSink();
  const vcd = new StringSink();
  const res = simulateImage(image, 'vpu_relu.ld', { uieFactory: makeUieFactory(), trace, vcd, traceSamplePeriod: 8 });
  const compute = res.report.engines.find((e) => e.name === 'c0.uie0')!.uie!['compute'] as {
    vpu: { busy_cycles: number; instructions: number; programs: number; lane_ops: number; stall_cycles: { in_fifo: number; out_fifo: number } };
    vbuffer: { sequencers: Record<string, { rows: number; empty: number; full: number; scratchpad?: number }> };
  };
  return { trace: JSON.parse(trace.text) as { traceEvents: Array<Record<string, any>> }, vcd: vcd.text, compute };
}

/** Events on the thread track named `name`. */
function onTrack(events: Array<Record<string, any>>, name: string): Array<Record<string, any>> {
  const meta = events.find((e) => e['ph'] === 'M' && e['name'] === 'thread_name' && e['args'].name === name);
  if (!meta) return [];
  return events.filter((e) => e['ph'] !== 'M' && e['pid'] === meta['pid'] && e['tid'] === meta['tid']);
}

/** Cycles spent in each value of VCD signal `name` (scope-less lookup; one cycle = 1e12 / clock ps, rounded). */
function vcdCycles(text: string, name: string): Map<number, number> {
  const code = new RegExp(`\\$var wire \\d+ (\\S+) ${name} \\$end`).exec(text)![1]!;
  const ps = 1e12 / CLOCK_HZ;
  const out = new Map<number, number>();
  let t = 0;
  let value = NaN;
  let at = 0;
  let end = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) {
      t = Math.round(Number(line.slice(1)) / ps);
      end = t;
      continue;
    }
    const m = /^b([01x]+) (\S+)$/.exec(line);
    if (!m || m[2] !== code) continue;
    if (value === value) out.set(value, (out.get(value) ?? 0) + t - at);
    value = m[1]!.includes('x') ? NaN : parseInt(m[1]!, 2);
    at = t;
  }
  if (value === value) out.set(value, (out.get(value) ?? 0) + end - at);
  return out;
}

describe('VPU activity in traces (vpu_relu sample)', () => {
  const { trace, vcd, compute } = runRelu();
  const ev = trace.traceEvents;

  it('trace: a c0.uie0.vpu track whose slices add up to the --stats VPU counts', () => {
    const slices = onTrack(ev, 'c0.uie0.vpu');
    expect(slices.length).toBeGreaterThan(0);
    const sum = (k: string) => slices.reduce((a, s) => a + s['args'][k], 0);
    expect(sum('instructions')).toBe(compute.vpu.instructions);
    expect(sum('programs')).toBe(compute.vpu.programs);
    expect(sum('busy_cycles')).toBe(compute.vpu.busy_cycles);
    expect(sum('lane_ops')).toBe(compute.vpu.lane_ops);
    expect(sum('in_fifo_waits')).toBe(compute.vpu.stall_cycles.in_fifo);
    for (const s of slices) {
      expect(s['name']).toBe(`vpu: ${s['args'].instructions} instructions`);
      // a span is at least as long as what happened in it (one instruction or one wait per cycle)
      expect(s['args'].end_cycle - s['args'].start_cycle).toBeGreaterThanOrEqual(s['args'].busy_cycles + s['args'].in_fifo_waits + s['args'].out_fifo_waits);
    }
  });

  it('trace: one track per Vbuffer sequencer with the rows and waits of --stats', () => {
    for (const [k, f] of Object.entries(compute.vbuffer.sequencers)) {
      const slices = onTrack(ev, `c0.uie0.${k}.rows`);
      const sum = (a: string) => slices.reduce((x, s) => x + (s['args'][a] ?? 0), 0);
      expect(sum('rows'), k).toBe(f.rows);
      expect(sum('empty_waits'), k).toBe(f.empty);
      expect(sum('full_waits'), k).toBe(f.full);
      expect(sum('scratchpad_waits'), k).toBe(f.scratchpad ?? 0);
    }
  });

  it('trace: the VPU utilisation counter integrates to the busy cycles', () => {
    // counter events carry their time only (ts in microseconds)
    const cycle = (e: Record<string, any>) => Math.round((e['ts'] * CLOCK_HZ) / 1e6);
    const c = ev.filter((e) => e['ph'] === 'C' && e['name'] === 'c0.uie0 VPU utilisation').sort((a, b) => cycle(a) - cycle(b));
    expect(c.length).toBeGreaterThan(1);
    expect(c.at(-1)!['args'].busy_pct).toBe(0); // back to zero once the VPU is idle
    // each value is the rate over [its cycle, the next sample's cycle)
    let busy = 0;
    for (let i = 0; i + 1 < c.length; i++) busy += (c[i]!['args'].busy_pct / 100) * (cycle(c[i + 1]!) - cycle(c[i]!));
    expect(Math.abs(busy - compute.vpu.busy_cycles)).toBeLessThan(0.5);
  });

  it('VCD: vpu_state spends exactly busy_cycles in 1 and the InFIFO waits in 2; the Vbuffer states match the rows and waits', () => {
    const v = vcdCycles(vcd, 'vpu_state');
    expect(v.get(1) ?? 0).toBe(compute.vpu.busy_cycles);
    expect(v.get(2) ?? 0).toBe(compute.vpu.stall_cycles.in_fifo);
    expect(v.get(3) ?? 0).toBe(compute.vpu.stall_cycles.out_fifo);
    for (const [k, f] of Object.entries(compute.vbuffer.sequencers)) {
      const s = vcdCycles(vcd, `${k}_state`);
      expect(s.get(1) ?? 0, k).toBe(f.rows);
      expect(s.get(2) ?? 0, k).toBe(f.empty);
      expect(s.get(3) ?? 0, k).toBe(f.full + (f.scratchpad ?? 0));
    }
  });
});
