/**
 * The figures `pyxis-gen --run` prints (docs/generators.md "Figures"), recomputed here from the printed cycles and the
 * kernel's own sizes: TFLOPS = useful FLOPs / (cycles / 1.33 GHz) against the chip §1 peak of the grid's precision
 * (48 UIEs x 2048 LLCs x 8 MACs x 2 FLOPs x 1.33 GHz = 2,092 FP8, half in FP16), and the lines a kernel without a
 * grid rate (VPU rows) or without a float64 check (compressed 1x1 weights) prints instead.
 */
import { describe, expect, it } from 'vitest';
import { CLOCK, PEAK_UIE_FP8, genInTemp, num, runGemmWithChecks } from './cli.harness.js';

/** `pyxis-gen ARGS --out TMP --run` */
const run = (args: string[]) => genInTemp('fig', (dir) => [...args, '--out', dir, '--run']);

describe('pyxis-gen --run figures', () => {
  it('conv1x1 --weights linear16 (16-bit grid, half rate) is rated against the FP16 peak', () => {
    const r = run(['conv1x1', '--images', '2', '--cin', '32', '--rows', '2', '--weights', 'linear16']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const cycles = num(r.out, /chip: (\d+) cycles/);
    const flops = 2 * 128 * 32 * 2 * 128 * 2; // 2 COUT CIN P W N
    const tflops = flops / (cycles / CLOCK) / 1e12;
    expect(num(r.out, /compute: ([\d.]+) TFLOPS/)).toBeCloseTo(tflops, 1);
    expect(num(r.out, /TFLOPS of (\d+) peak/)).toBe(Math.round((48 * PEAK_UIE_FP8) / 2));
    // the share of the one UIE's FP16 peak is its grid utilisation (every Exec_Valid does 2048 x 4 FP16 MACs)
    const share = num(r.out, /of the 1 UIE\(s\) that computed: [\d.]+ peak \(([\d.]+)%\)/);
    const util = num(r.out, /c0 1 UIEs ([\d.]+)%/);
    expect(share).toBeCloseTo((100 * tflops) / (PEAK_UIE_FP8 / 2), 0);
    expect(Math.abs(share - util)).toBeLessThanOrEqual(0.15);
  });

  it('an FP8 GEMM: TFLOPS, its share of the peak and the HBM rate from the printed cycles and bytes', () => {
    const r = run(['gemm', '--m', '256', '--k', '256', '--n', '128', '--uies', '2']);
    expect(r.code).toBe(0);
    const cycles = num(r.out, /chip: (\d+) cycles/);
    const seconds = cycles / CLOCK;
    const tflops = (2 * 256 * 256 * 128) / seconds / 1e12;
    expect(num(r.out, /compute: ([\d.]+) TFLOPS/)).toBeCloseTo(tflops, 1);
    expect(num(r.out, /TFLOPS of (\d+) peak/)).toBe(2092);
    expect(r.out).not.toMatch(/^VPU /m);
    expect(num(r.out, /peak \(([\d.]+)%; useful/)).toBeCloseTo((100 * tflops) / (48 * PEAK_UIE_FP8), 1);
    // one cluster loads A (256 x 256 bytes) and B (256 x 128) once and stores C (256 x 128 FP16)
    expect(num(r.out, /HBM: ([\d.]+) MB moved/)).toBeCloseTo((256 * 256 + 256 * 128 + 256 * 128 * 2) / 1e6, 2);
    expect(num(r.out, /MB moved, (\d+) GB\/s/)).toBe(Math.round((256 * 256 + 256 * 128 + 256 * 128 * 2) / seconds / 1e9));
  });

  it('one tile on 4 x 12 UIEs: the share is that of the one UIE that computed, not of the 48 asked for', () => {
    const r = run(['gemm', '--m', '128', '--k', '128', '--n', '128', '--clusters', '0,1,2,3', '--uies', '12']);
    expect(r.code).toBe(0);
    const util = num(r.out, /c\d 1 UIEs ([\d.]+)%/);
    expect(num(r.out, /of the 1 UIE\(s\) that computed: ([\d.]+) peak/)).toBeCloseTo(PEAK_UIE_FP8, 1);
    expect(num(r.out, /that computed: [\d.]+ peak \(([\d.]+)%\)/)).toBeCloseTo(util, 0);
  });

  it('rows (VPU only) prints no grid rate; compressed conv1x1 says why there is no float64 check', () => {
    const rows = run(['rows', '--op', 'softmax', '--rows', '64']);
    expect(rows.code).toBe(0);
    expect(rows.out).toMatch(/compute: no grid FLOPs \(a VPU kernel/);
    expect(rows.out).not.toMatch(/TFLOPS of/);
    // the VPU's busy share is what bounds a VPU kernel: between 0 and 100%, and absent for a GEMM without epilogue
    const vpu = num(rows.out, /^VPU \(busy cycles \/ run cycles, per cluster\): c0 1 UIEs ([\d.]+)%$/m);
    expect(vpu).toBeGreaterThan(0);
    expect(vpu).toBeLessThanOrEqual(100);
    expect(rows.out).toMatch(/error vs float64: max .*: ok/);
    const comp = run(['conv1x1', '--images', '1', '--cin', '16', '--rows', '2', '--weights', 'compressed']);
    expect(comp.code).toBe(0);
    expect(comp.out).toMatch(/error vs float64: not checked by --run \(the compressed database/);
  });

  it('a run stopped before any compute trip: no rate, and the cluster line says why it is empty (exit 1)', () => {
    const r = run(['gemm', '--max-cycles', '100']);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/compute: not computed \(the run stopped/);
    expect(r.out).toMatch(/clusters \(grid utilisation = Exec_Valid cycles \/ run cycles\): none \(no UIE trip ran a compute sequencer/);
  });

  it('a check with an RMS bound (the transformer layer): --run fails above it even when the max is within its bound', () => {
    const [within, above] = runGemmWithChecks('fig', [
      { max: 0.1, bound: 1, rms: 0.05, rmsBound: 0.08, what: 'test' },
      { max: 0.1, bound: 1, rms: 0.09, rmsBound: 0.08, what: 'test' },
    ]);
    expect(within!.ok).toBe(true);
    expect(within!.lines.join('\n')).toMatch(/RMS relative 5\.000e-2 \(bound 0\.08\): ok/);
    expect(above!.ok).toBe(false);
    expect(above!.lines.join('\n')).toMatch(/RMS relative 9\.000e-2 \(bound 0\.08\): ABOVE THE BOUND/);
  });
});
