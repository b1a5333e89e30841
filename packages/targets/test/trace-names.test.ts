/**
 * Traces and waveforms in the user's words (docs/simulator.md "Observability", docs/timing-model.md "Pyxis compute
 * statistics"): trip slices named by the link script's trips, sequencer slices by the linked programs, the grid
 * utilisation and compute stalls as counter tracks that add up to the stats, grid / weights-path / writeback signals
 * in the VCD, and `--vcd-time-unit cycle`.
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runAs, runLd, runSim } from '@pyxis/targets';
import { call } from './cli-call.js';

const S = fileURLToPath(new URL('../../../samples/pyxis/', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'pyxis-names-'));

interface Ev {
  ph: string;
  name: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  args?: Record<string, unknown>;
}

async function build(name: string): Promise<string> {
  expect((await call(runAs, [join(S, `${name}.pasm`), '-o', join(dir, `${name}.pobj`)])).code).toBe(0);
  expect((await call(runLd, [join(S, `${name}.ld`), join(dir, `${name}.pobj`), '-o', join(dir, `${name}.pimg`)])).code).toBe(0);
  return join(dir, `${name}.pimg`);
}

describe('trace and VCD names', () => {
  it('copy: trips named load / copy / store (kind in args), sequencer slices named copy_rd / copy_wr', async () => {
    const img = await build('copy');
    const r = await call(runSim, ['run', img, '--trace', join(dir, 'copy.json')]);
    expect(r.code, r.err).toBe(0);
    const ev = (JSON.parse(readFileSync(join(dir, 'copy.json'), 'utf8')) as { traceEvents: Ev[] }).traceEvents;
    // (the barrier-config trips the linker adds have no name in the script: `barrier_config trip N`)
    const trips = ev.filter((e) => e.ph === 'X' && (e as { cat?: string }).cat === 'trip' && e.args?.['kind'] !== 'barrier_config');
    expect(ev.some((e) => e.ph === 'X' && /^barrier_config trip \d+$/.test(e.name))).toBe(true);
    expect(trips.map((e) => [e.name, e.args?.['kind']]).sort()).toEqual([
      ['copy', 'uie'],
      ['load', 'h2a'],
      ['store', 'a2h'],
    ]);
    const seq = ev.filter((e) => e.ph === 'X' && (e as { cat?: string }).cat === 'sequencer');
    expect(seq.map((e) => [e.name, e.args?.['sequencer'], e.args?.['start_pc']]).sort()).toEqual([
      ['copy_rd', 'amem_read', 0],
      ['copy_wr', 'amem_write', 0],
    ]);
  });

  it('matmul_bias_relu: grid utilisation and compute-stall counters add up to the stats; VCD in cycles with grid signals', async () => {
    const img = await build('matmul_bias_relu');
    const r = await call(runSim, ['run', img, '--trace', join(dir, 'mbr.json'), '--stats', join(dir, 'mbr.stats.json'), '--vcd', join(dir, 'mbr.vcd'), '--vcd-time-unit', 'cycle']);
    expect(r.code, r.err).toBe(0);
    const stats = JSON.parse(readFileSync(join(dir, 'mbr.stats.json'), 'utf8')) as {
      cycles: number;
      engines: Array<{ name: string; uie?: { compute?: { exec_valid: number; stall_cycles: Record<string, number> } } }>;
    };
    const c = stats.engines.find((e) => e.name === 'c0.uie0')!.uie!.compute!;
    const ev = (JSON.parse(readFileSync(join(dir, 'mbr.json'), 'utf8')) as { traceEvents: Ev[] }).traceEvents;
    const grid = ev.filter((e) => e.ph === 'C' && e.name === 'c0.uie0 grid utilisation');
    expect(grid.length).toBeGreaterThan(0);
    // one sample period covers the whole run here (period 1024 > cycles): Exec_Valid cycles / run cycles
    expect(stats.cycles).toBeLessThan(1024);
    expect(grid[0]!.args!['exec_valid_pct']).toBeCloseTo((100 * c.exec_valid) / stats.cycles, 2);
    const stalls: Record<string, number> = {};
    for (const e of ev.filter((x) => x.ph === 'C' && x.name === 'c0.uie0 compute stalls')) for (const [k, v] of Object.entries(e.args ?? {})) stalls[k] = (stalls[k] ?? 0) + Number(v);
    expect(stalls).toEqual(c.stall_cycles);
    // the bank counter (bank x time in the report) adds up to the stats' accesses of every bank
    const banks = new Array<number>(128).fill(0);
    for (const e of ev.filter((x) => x.ph === 'C' && x.name === 'c0 AMEM bank accesses')) for (const [k, v] of Object.entries(e.args ?? {})) banks[Number(k.slice(1))]! += Number(v);
    const st = stats as unknown as { memory: { amem: Array<{ bank_accesses: number[] }> } };
    expect(banks).toEqual(st.memory.amem[0]!.bank_accesses);
    expect(banks.some((v) => v > 0)).toBe(true);
    const vcd = readFileSync(join(dir, 'mbr.vcd'), 'utf8');
    expect(vcd).toMatch(/\$timescale 1ns \$end/);
    expect(vcd).toMatch(/\$comment one time unit = one clock cycle/);
    for (const s of ['grid_state', 'weights_path', 'writeback']) expect(vcd).toMatch(new RegExp(`\\$var wire 2 \\S+ ${s} \\$end`));
    const times = [...vcd.matchAll(/^#(\d+)$/gm)].map((m) => Number(m[1]));
    expect(times.at(-1)).toBe(stats.cycles);
    // grid_state is 1 (Exec_Valid) in exactly exec_valid cycles
    const code = /\$var wire 2 (\S+) grid_state \$end/.exec(vcd)![1]!;
    let t = 0;
    let v = 0;
    let since = 0;
    let valid = 0;
    for (const line of vcd.slice(vcd.indexOf('$enddefinitions')).split('\n')) {
      if (line.startsWith('#')) t = Number(line.slice(1));
      else if (line.endsWith(` ${code}`) && line.startsWith('b')) {
        if (v === 1) valid += t - since;
        v = parseInt(line.slice(1, line.indexOf(' ')), 2);
        since = t;
      }
    }
    if (v === 1) valid += stats.cycles - since;
    expect(valid).toBe(c.exec_valid);
  });
});
