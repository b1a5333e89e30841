/**
 * `pyxis-gen --json` (docs/generators.md "JSON output"): stdout is one JSON object and nothing else, the text goes to
 * stderr, and every figure of the text is in the object as a number. The expected values are recomputed here from the
 * run's cycles and the kernel's own sizes (chip §1: 48 UIEs x 2048 LLCs x 8 MACs x 2 FLOPs x 1.33 GHz FP8, half in
 * FP16; HBM 4,915 GB/s), and checked against the numbers of the text printed by the same run.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLOCK, PEAK_UIE_FP8, genInTemp, num, runGemmWithChecks } from './cli.harness.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** `pyxis-gen ARGS` with the argument DIR replaced by a temporary directory; `keep(dir)` looks at it before removal. */
const call = (args: string[], keep?: (dir: string) => void) => genInTemp('json', (dir) => args.map((a) => (a === 'DIR' ? dir : a)), keep);

describe('pyxis-gen --run --json', () => {
  it('an FP8 GEMM: the object recomputed from its cycles and sizes, and equal to the text of the same run', () => {
    let written: Json;
    const r = call(['gemm', '--m', '256', '--k', '256', '--n', '128', '--uies', '2', '--out', 'DIR', '--run', '--json'], (d) => {
      written = JSON.parse(readFileSync(join(d, 'gemm.json'), 'utf8'));
    });
    expect(r.code).toBe(0);
    const j: Json = JSON.parse(r.out); // the whole of stdout is the object
    expect(j.schema).toBe('pyxis-gen/1');
    expect(j.exit_code).toBe(0);
    expect(j.kind).toBe('gemm');
    expect(j.options).toMatchObject({ m: '256', k: '256', n: '128', uies: '2', run: true, json: true });
    expect(j.meta).toEqual(written);
    expect(j.files).toContain('gemm.pasm');
    const x = j.run;
    expect(x).toMatchObject({ stop: 'done', timing_model: 'cycle-level', timing_only: false, outputs_computed: true, clock_hz: CLOCK, peak_precision: 'fp8', ok: true, error_status: 'checked' });
    const flops = 2 * 256 * 256 * 128;
    const seconds = x.cycles / CLOCK;
    expect(x.useful_flops).toBe(flops);
    expect(x.seconds).toBeCloseTo(seconds, 15);
    expect(x.tflops).toBeCloseTo(flops / seconds / 1e12, 9);
    expect(x.peak_tflops).toBeCloseTo(48 * PEAK_UIE_FP8, 9);
    expect(x.peak_share).toBeCloseTo(flops / seconds / 1e12 / (48 * PEAK_UIE_FP8), 12);
    expect(x.computing_uies).toBe(2);
    expect(x.computing_peak_tflops).toBeCloseTo(2 * PEAK_UIE_FP8, 9);
    // one cluster loads A (256 x 256 bytes) and B (256 x 128) once and stores C (256 x 128 FP16)
    expect(x.hbm_bytes_read).toBe(256 * 256 + 256 * 128);
    expect(x.hbm_bytes_written).toBe(256 * 128 * 2);
    expect(x.hbm_bytes).toBe(x.hbm_bytes_read + x.hbm_bytes_written);
    expect(x.hbm_gbps).toBeCloseTo(x.hbm_bytes / seconds / 1e9, 9);
    expect(x.hbm_peak_gbps).toBe(4915);
    expect(x.hbm_peak_share).toBeCloseTo(x.hbm_gbps / 4915, 12);
    // each UIE computes one 128 x 128 tile of C over K = 256: 128 x 256 x 128 MACs, 2048 LLCs x 8 per Exec_Valid
    for (const u of x.uies_utilisation) {
      expect(u.exec_valid).toBe((128 * 256 * 128) / (2048 * 8));
      expect(u.grid_utilisation).toBeCloseTo(u.exec_valid / x.cycles, 12);
    }
    expect(x.uies_utilisation.map((u: Json) => u.name)).toEqual(['c0.uie0', 'c0.uie1']);
    const ev = x.uies_utilisation.reduce((s: number, u: Json) => s + u.exec_valid, 0);
    expect(x.clusters_utilisation).toEqual([{ cluster: 0, uies: 2, grid_utilisation: expect.closeTo(ev / 2 / x.cycles, 12), vpu_utilisation: null }]);
    // the share of the 2 computing UIEs' peak is their grid utilisation (one Exec_Valid = 2048 x 8 FP8 MACs)
    expect(x.computing_peak_share).toBeCloseTo(ev / 2 / x.cycles, 9);
    // top stalls: the five largest of stall_cycles, in decreasing order
    const all = Object.entries(x.stall_cycles as Record<string, number>).sort((a, b) => b[1] - a[1]);
    expect(x.top_stalls).toEqual(all.slice(0, 5).map(([reason, cycles]) => ({ reason, cycles })));
    expect(x.error.pass).toBe(x.error.max <= x.error.max_bound);
    expect(x.error.rms_bound).toBeNull();

    // the text of the same run (on stderr) prints the same numbers
    const t = r.err;
    expect(num(t, /chip: (\d+) cycles/)).toBe(x.cycles);
    expect(num(t, /compute: ([\d.]+) TFLOPS/)).toBe(Number(x.tflops.toFixed(1)));
    expect(num(t, /TFLOPS of (\d+) peak/)).toBe(Math.round(x.peak_tflops));
    expect(num(t, /peak \(([\d.]+)%; useful/)).toBe(Number((100 * x.peak_share).toFixed(1)));
    expect(num(t, /HBM: ([\d.]+) MB moved/)).toBe(Number((x.hbm_bytes / 1e6).toFixed(2)));
    expect(num(t, /MB moved, (\d+) GB\/s/)).toBe(Math.round(x.hbm_gbps));
    expect(num(t, /c0 2 UIEs ([\d.]+)%/)).toBe(Number((100 * x.clusters_utilisation[0].grid_utilisation).toFixed(1)));
    expect(num(t, /c0\.uie1 ([\d.]+)%/)).toBe(Number((100 * x.uies_utilisation[1].grid_utilisation).toFixed(1)));
    expect(/top stalls \(cycles summed over UIEs\): (.*)$/m.exec(t)![1]).toBe(x.top_stalls.map((s: Json) => `${s.reason} ${s.cycles}`).join(', '));
    expect(num(t, /APM \(chip §13\): (\d+) UIE bubble/)).toBe(x.apm_bubbles);
    expect(num(t, /peak requested power (\d+)/)).toBe(x.apm_peak_requested_power);
    expect(num(t, /error vs float64: max ([\d.e+-]+)/)).toBe(Number(x.error.max.toExponential(3)));
    expect(num(t, /RMS relative ([\d.e+-]+)/)).toBe(Number(x.error.rms.toExponential(3)));
    expect(num(t, /\(bound ([\d.]+);/)).toBe(x.error.max_bound);
  });

  it('every key of the object is in the table of docs/generators.md "JSON output" (the documented schema)', () => {
    const doc = readFileSync(fileURLToPath(new URL('../../../../docs/generators.md', import.meta.url)), 'utf8');
    const section = doc.slice(doc.indexOf('\n## JSON output'), doc.indexOf('\n## ', doc.indexOf('\n## JSON output') + 5));
    const named = new Set([...section.matchAll(/`([a-z0-9_.\[\]]+)`/g)].map((m) => m[1]!.replace('[]', '')));
    const r = call(['rows', '--op', 'softmax', '--rows', '64', '--out', 'DIR', '--run', '--json']);
    const j: Json = JSON.parse(r.out);
    const missing: string[] = [];
    const need = (k: string) => void (named.has(k) || missing.push(k));
    for (const k of Object.keys(j)) need(k);
    for (const k of Object.keys(j.run)) need(`run.${k}`);
    for (const k of [...Object.keys(j.run.clusters_utilisation[0]), ...Object.keys(j.run.uies_utilisation[0] ?? {}), ...Object.keys(j.run.error), ...Object.keys(j.run.host_seconds)]) need(k);
    for (const k of ['reason', 'cycles']) need(k);
    expect(missing).toEqual([]);
  });

  it('rows (VPU only): no grid rate (null), the VPU busy share per cluster, the RMSNorm check', () => {
    const r = call(['rows', '--op', 'rmsnorm', '--rows', '64', '--out', 'DIR', '--run', '--json']);
    expect(r.code).toBe(0);
    const j: Json = JSON.parse(r.out);
    const x = j.run;
    expect(j.meta).toMatchObject({ kind: 'rows', op: 'rmsnorm', rows: 64, flops: 0 });
    expect(x).toMatchObject({ useful_flops: 0, tflops: null, peak_share: null, computing_peak_share: null, peak_precision: 'fp16', ok: true });
    expect(x.peak_tflops).toBeCloseTo((48 * PEAK_UIE_FP8) / 2, 9);
    // rows of 128 FP16 values in, the same out: 2 x 64 x 256 bytes through HBM
    expect(x.hbm_bytes).toBe(2 * 64 * 256);
    const vpu = x.clusters_utilisation[0].vpu_utilisation;
    expect(vpu).toBeGreaterThan(0);
    expect(vpu).toBeLessThanOrEqual(1);
    expect(num(r.err, /^VPU \(busy cycles \/ run cycles, per cluster\): c0 1 UIEs ([\d.]+)%$/m)).toBe(Number((100 * vpu).toFixed(1)));
    expect(x.error.pass).toBe(true);
    expect(num(r.err, /error vs float64: max ([\d.e+-]+)/)).toBe(Number(x.error.max.toExponential(3)));
  });

  it('--timing-only: cycles, no outputs and no error figure; without --run: the files and the meta, run null', () => {
    const t = call(['gemm', '--m', '8', '--k', '8', '--n', '8', '--out', 'DIR', '--run', '--timing-only', '--json']);
    expect(t.code).toBe(0);
    const x = JSON.parse(t.out).run;
    expect(x).toMatchObject({ timing_only: true, outputs_computed: false, error: null, error_status: 'timing-only', timing_model: 'cycle-level' });
    expect(x.cycles).toBeGreaterThan(0);
    let listed: string[] = [];
    const g = call(['gemm', '--m', '8', '--k', '8', '--n', '8', '--out', 'DIR', '--json'], (d) => (listed = readdirSync(d).sort()));
    expect(g.code).toBe(0);
    const j = JSON.parse(g.out);
    expect(j.run).toBeNull();
    expect([...j.files].sort()).toEqual(listed);
    expect(j.meta.flops).toBe(2 * 8 * 8 * 8);
    expect(g.err).toMatch(/^pyxis-gen gemm: wrote \d+ files/m);
  });

  it('a run that fails (stopped by --max-cycles): exit 1 and the object still printed, ok false', () => {
    const r = call(['gemm', '--out', 'DIR', '--run', '--max-cycles', '100', '--json']);
    expect(r.code).toBe(1);
    const j = JSON.parse(r.out);
    expect(j.exit_code).toBe(1);
    expect(j.run).toMatchObject({ stop: 'max-cycles', max_cycles: 100, cycles: 100, tflops: null, error: null, error_status: 'stopped', ok: false });
  });

  it('an error above its bound: pass false in the figures of the run (the CLI exits 1 with the object)', () => {
    const [above] = runGemmWithChecks('json', [{ max: 0.1, bound: 1, rms: 0.09, rmsBound: 0.08, what: 'test' }]);
    expect(above!.ok).toBe(false);
    expect(above!.json.error).toEqual({ max: 0.1, max_bound: 1, rms: 0.09, rms_bound: 0.08, what: 'test', pass: false });
    expect(above!.json.ok).toBe(false);
  });

  it('usage and parameter errors: nothing on stdout, the message on stderr, no file', () => {
    const first = call(['--json', 'gemm', '--out', 'DIR', '--run']);
    expect(first.code).toBe(2);
    expect(first.out).toBe('');
    expect(first.err).toMatch(/^pyxis-gen: error: the kernel kind comes first, then its options \(got `--json`\)/);
    const alone = call(['gemm', '--out', 'DIR', '--json', '--timing-only']);
    expect(alone.code).toBe(2);
    expect(alone.out).toBe('');
    let files: string[] = [];
    const bad = call(['gemm', '--m', '100', '--out', 'DIR', '--run', '--json'], (d) => (files = existsSync(d) ? readdirSync(d) : []));
    expect(bad.code).toBe(1);
    expect(bad.out).toBe('');
    expect(bad.err).toMatch(/error\[GEN0003\]/);
    expect(files).toEqual([]);
    const twice = call(['gemm', '--out', 'DIR', '--json', '--json']);
    expect(twice.code).toBe(2);
    expect(twice.err).toMatch(/GEN0070\]: --json given twice/);
    expect(twice.out).toBe('');
  });
});
