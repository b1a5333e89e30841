/**
 * The VPU and Vbuffer statistics of `pyxis-sim run --stats` and of the text summary (docs/timing-model.md "Pyxis VPU
 * and Vbuffer statistics"), on the vpu_relu sample: 16 rows of 128 FP16 lanes, a VI program issuing the 2-instruction
 * VPU program once per row (samples/pyxis/vpu_relu.pasm). Expected counts follow from the program text.
 */
import { describe, expect, it } from 'vitest';
import { formatSummary } from '@pyxis/target-pyxis/sim';
import { runSample } from '../samples-compute.harness.js';

const ROWS = 16;
const INSTR_PER_ROW = 2; // RELU, MUL (neither is a NOP)
const LANES = 128;

interface VpuJson {
  busy_cycles: number;
  utilisation: number;
  instructions: number;
  programs: number;
  lane_ops: number;
  lane_utilisation: number;
  stall_cycles: { in_fifo: number; out_fifo: number };
}
interface VbufJson {
  rows_written: number;
  rows_read: number;
  scratchpad_waits: number;
  sequencers: Record<string, { rows: number; empty: number; full: number; scratchpad?: number }>;
}

describe('VPU / Vbuffer statistics (vpu_relu sample)', () => {
  const run = runSample('vpu_relu.pasm', 'vpu_relu.ld');
  const c = run.compute() as ReturnType<typeof run.compute> & { vpu: VpuJson; vbuffer: VbufJson; trips: Array<{ cycles: number; vpu: VpuJson; vbuffer: VbufJson }> };

  it('JSON: VPU busy cycles, instructions, programs, lane-operations and both utilisations', () => {
    const v = c.vpu;
    expect(v.instructions).toBe(ROWS * INSTR_PER_ROW);
    expect(v.busy_cycles).toBe(ROWS * INSTR_PER_ROW); // one instruction per cycle (latency 1)
    expect(v.programs).toBe(ROWS);
    expect(v.lane_ops).toBe(ROWS * INSTR_PER_ROW * LANES);
    expect(v.utilisation).toBeCloseTo(v.busy_cycles / c.cycles, 12);
    expect(v.lane_utilisation).toBeCloseTo(v.lane_ops / (LANES * c.cycles), 12);
    expect(v.stall_cycles.in_fifo).toBe(c.stall_cycles['vpu_in_fifo'] ?? 0);
    expect(v.stall_cycles.out_fifo).toBe(c.stall_cycles['vpu_out_fifo'] ?? 0);
  });

  it('JSON: rows and waits per Vbuffer sequencer; their waits add up to stall_cycles.vbuffer', () => {
    const b = c.vbuffer;
    for (const s of ['sb2vb', 'vb2vpu', 'vpu2vb', 'vb2sb']) expect(b.sequencers[s]!.rows, s).toBe(ROWS);
    expect(b.rows_written).toBe(2 * ROWS);
    expect(b.rows_read).toBe(2 * ROWS);
    expect(b.sequencers['sb2vb']!.scratchpad).toBeUndefined(); // writers never wait for scratchpad_count
    expect(b.scratchpad_waits).toBe(0); // FIFO-mode tiles only
    const sum = Object.values(b.sequencers).reduce((a, f) => a + f.empty + f.full + (f.scratchpad ?? 0), 0);
    expect(sum).toBe(c.stall_cycles['vbuffer'] ?? 0);
  });

  it('JSON: the single trip carries the same VPU and Vbuffer figures', () => {
    expect(c.trips).toHaveLength(1);
    const t = c.trips[0]!;
    expect(t.cycles).toBe(c.cycles);
    expect(t.vpu).toEqual(c.vpu);
    expect(t.vbuffer).toEqual(c.vbuffer);
  });

  it('text: a vpu and a vbuffer line under the VPU header (the grid did not run)', () => {
    const text = formatSummary(run.report);
    const v = c.vpu;
    expect(text).toContain('compute (VPU and Vbuffer, at 1.33 GHz):');
    expect(text).not.toContain(' grid: ');
    const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
    expect(text).toContain(
      `c0.uie0 vpu: busy ${v.busy_cycles} / ${c.cycles} cycles = ${pct(v.busy_cycles / c.cycles)}, ${ROWS * INSTR_PER_ROW} instructions (${ROWS} programs), ${ROWS * INSTR_PER_ROW * LANES} lane-ops = ${pct((ROWS * INSTR_PER_ROW) / c.cycles)} of 128 lanes x cycles`,
    );
    expect(text).toContain('  (vpu: the project VPU model ISA at one instruction per cycle; % of the cycles with a trip in flight;');
    expect(text).toMatch(/c0\.uie0 vbuffer: sb2vb 16 rows( \(waits: [^)]*\))?, vb2vpu 16 rows( \(waits: [^)]*\))?, vpu2vb 16 rows( \(waits: [^)]*\))?, vb2sb 16 rows( \(waits: [^)]*\))?; scratchpad waits 0/);
  });

  it('per trip: two VPU trips overlapping on one UIE each get their own VPU counts (attributed by the VI record)', () => {
    // a second trip identical to `relu` queued right behind it on uie0 (the UIE tracks up to three trips, chip §11.7.1)
    const two = runSample('vpu_relu.pasm', 'vpu_relu.ld', {
      edit: (t, f) => (f.endsWith('.ld') ? t.replace(/(trip relu \{[^}]*\})/, '$1\n  trip relu2 { amem_read = relu_rd; sb2vb = relu_in; vb2vpu = relu_feed; vi = vi_rows; vpu2vb = relu_out; vb2sb = relu_drain; amem_write = relu_wr; read = x; write = y; trip_power = 8; }').replace('store after relu;', 'store after relu2;') : t),
    });
    const cc = two.compute() as unknown as { vpu: VpuJson; trips: Array<{ trip_id: number; start_cycle: number; end_cycle: number; vpu: VpuJson }> };
    expect(cc.trips).toHaveLength(2);
    const [a, b] = cc.trips;
    expect(b!.start_cycle).toBeLessThanOrEqual(a!.end_cycle); // they overlap (the first one's write commit at least)
    for (const t of cc.trips) {
      expect(t.vpu.instructions, `trip ${t.trip_id}`).toBe(ROWS * INSTR_PER_ROW);
      expect(t.vpu.programs).toBe(ROWS);
      expect(t.vpu.lane_ops).toBe(ROWS * INSTR_PER_ROW * LANES);
    }
    expect(cc.vpu.instructions).toBe(2 * ROWS * INSTR_PER_ROW);
  });
});
