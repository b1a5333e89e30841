/**
 * The figures' FLOP split by precision (gen/precision.ts; docs/generators.md "Figures") and the transformer's stage
 * spans in `--json` (`run.stages`). Expected values are recomputed here from the kernels' parameters and the chip §1
 * peaks (48 UIEs x 2048 LLCs x 8 MACs x 2 FLOPs x 1.33 GHz FP8, half in FP16), never from the code under test.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gemm } from '../../src/gen/gemm.js';
import { attention } from '../../src/gen/attention.js';
import { splitFlops, tripPrecisions } from '../../src/gen/precision.js';
import { chipFigures } from '../../src/gen/figures.js';
import { KINDS } from '../../src/gen/kinds.js';
import type { SimReport } from '../../src/sim/run.js';
import { CLOCK, genInTemp } from './cli.harness.js';

const P8 = (48 * 2048 * 8 * 2 * CLOCK) / 1e12;
const P16 = P8 / 2;
/** FLOPs of one Exec_Valid at the FP8 rate: a 128 x 128 output tile, one K row (2048 LLCs x 8 MACs x 2). */
const EV_FLOPS = 2048 * 8 * 2;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** `pyxis-gen ARGS --out TMP --run --json`, stdout parsed */
function run(args: string[]): { code: number; j: Json; err: string } {
  const { code, out, err } = genInTemp('mixed', (dir) => [...args, '--out', dir, '--run', '--json']);
  return { code, j: JSON.parse(out), err };
}

describe('the precision of each compute trip, read from the program', () => {
  it('FP16 GEMMs (row-shifted and transposed A) are FP16; FP8 GEMMs and the attention P V trips (FP16 P^T from the VPU) are FP8', () => {
    const all = (k: { pasm: string; ld: string }) => [...new Set(tripPrecisions(k.pasm, k.ld).values())];
    expect(all(gemm({ m: 128, k: 128, n: 128, dtype: 'fp16' }))).toEqual(['fp16']);
    expect(all(gemm({ m: 128, k: 128, n: 128, dtype: 'fp16', transposed: true }))).toEqual(['fp16']);
    expect(all(gemm({ m: 128, k: 128, n: 128 }))).toEqual(['fp8']);
    const a = attention({ tiles: 2, dk: 64 });
    const t = tripPrecisions(a.pasm, a.ld);
    expect([...t.keys()].sort()).toEqual(['pv0_0', 'pv0_1', 'sc0_0', 'sc0_1']);
    expect(a.pasm).toMatch(/Read_VPU_FIFO/); // the P V trip's vertical operand: FP16 from the VPU, not from AMEM
    expect(t.get('pv0_0')).toBe('fp8');
  });

  it('every kind (small sizes): one rate per kernel, the one its meta declares (FP16: the 16-bit GEMM and 1x1 weights)', () => {
    const cases: Array<[string, Record<string, string | boolean>, 'fp8' | 'fp16' | null]> = [
      ['gemm', {}, 'fp8'],
      ['gemm', { dtype: 'fp16' }, 'fp16'],
      ['gemm', { dtype: 'fp16', transposed: true }, 'fp16'],
      ['gemm', { transposed: true, epilogue: 'bias_relu' }, 'fp8'],
      ['rows', { rows: '64' }, null],
      ['conv3x3', {}, 'fp8'],
      ['conv3x3', { stride: '2' }, 'fp8'],
      ['conv1x1', {}, 'fp8'],
      ['conv1x1', { weights: 'linear16', cin: '16' }, 'fp16'],
      ['conv1x1', { weights: 'compressed' }, 'fp8'],
      ['attention', {}, 'fp8'],
      ['attention', { seq: '256', dk: '192' }, 'fp8'],
      ['resnet', { images: '2', height: '16', clusters: '0', uies: '1' }, 'fp8'],
      ['resnet', { images: '2', height: '16', clusters: '0', uies: '1', downsample: true }, 'fp8'],
      ['transformer', { seq: '128', 'd-model': '128', heads: '1', ffn: '128', clusters: '0', uies: '1' }, 'fp8'],
    ];
    for (const [kind, opts, want] of cases) {
      const k = KINDS[kind]!.make(opts);
      const s = splitFlops(k);
      expect([kind, opts, s.fp8 + s.fp16]).toEqual([kind, opts, k.meta.flops]);
      expect([kind, opts, want === null ? 0 : s[want]]).toEqual([kind, opts, k.meta.flops]);
      if (want) expect([kind, opts, k.meta.dtype]).toEqual([kind, opts, want]);
    }
  });

  it('a kernel with an FP8 and an FP16 stage: the FLOPs split by stage; a stage of both rates, or FLOPs without a compute trip, is refused', () => {
    const e = gemm({ name: 'e', m: 128, k: 256, n: 128 });
    const h = gemm({ name: 'h', m: 256, k: 128, n: 128, dtype: 'fp16' });
    // the two kernels' trips renamed apart (text only: the split reads the program, it does not link it)
    const ld = e.ld.replace(/trip (\w+)/g, 'trip e_$1') + h.ld.replace(/trip (\w+)/g, 'trip h_$1');
    const fe = 2 * 128 * 256 * 128;
    const fh = 2 * 256 * 128 * 128;
    const k = { pasm: e.pasm + h.pasm, ld, meta: { ...e.meta, flops: fe + fh } };
    const s = splitFlops({ ...k, stages: [{ name: 'e', label: 'e', prefix: 'e_', flops: fe }, { name: 'h', label: 'h', prefix: 'h_', flops: fh }] });
    expect([s.fp8, s.fp16]).toEqual([fe, fh]);
    expect(s.groups.map((g) => g.precision)).toEqual(['fp8', 'fp16']);
    expect(() => splitFlops(k)).toThrow(/both FP8 and FP16/);
    expect(() => splitFlops({ ...k, stages: [{ name: 'x', label: 'x', prefix: 'nothing_', flops: 1 }] })).toThrow(/no compute trip/);
    // one trip whose horizontal operand mixes 8- and 16-bit rows (seq §1.2 rule 3): no split by trip, refused
    const mixedRows = e.pasm.replace(/(Read_SRAM wdc_type=Uncompressed[^\n]*)/, '$1\n          Read_SRAM is_16bit=1 wdc_type=Uncompressed');
    expect(mixedRows).not.toBe(e.pasm);
    expect(() => splitFlops({ pasm: mixedRows, ld: e.ld, meta: e.meta })).toThrow(/mixes 8-bit and 16-bit rows/);
  });

  it('the share of peak is the time-equivalent one: (F8 / peak8 + F16 / peak16) / run time', () => {
    const cycles = 10_000;
    const r = { cycles, clock_hz: CLOCK, engines: [], memory: { hbm_bytes_read: 0, hbm_bytes_written: 0 }, apm: { bubbles: 0, peak_requested_power: 0 }, stop: 'done' } as unknown as SimReport;
    const f8 = 3e12 * (cycles / CLOCK);
    const f16 = 1e12 * (cycles / CLOCK);
    const f = chipFigures(r, { fp8: f8, fp16: f16 }, 'fp8');
    const share = (f8 / P8 + f16 / P16) / 1e12 / (cycles / CLOCK);
    expect(f.precision).toBe('mixed');
    expect(f.tflops / f.peakTflops).toBeCloseTo(share, 12);
    expect(share).toBeCloseTo(3 / P8 + 1 / P16, 12);
    expect(f.peakTflops).toBeCloseTo(4 / (3 / P8 + 1 / P16), 9);
  });
});

describe('pyxis-gen --run --json: the FP8/FP16 split and the stages', () => {
  it('attention (2 tiles, d_k 64): every FLOP at the FP8 rate, as the simulated grid ran them (one Exec_Valid per K row)', () => {
    const { code, j } = run(['attention', '--tiles', '2', '--dk', '64']);
    expect(code).toBe(0);
    const x = j.run;
    // scores S^T = K Q^T: 2 x 128 x 128 x d_k; P V: O^T = V^T P^T, 2 x 128 x 128 x 128 (128 keys), per tile
    const fp8 = 2 * (2 * 128 * 128 * 64 + 2 * 128 * 128 * 128);
    expect([x.useful_flops_fp8, x.useful_flops_fp16, x.useful_flops]).toEqual([fp8, 0, fp8]);
    expect(x.peak_precision).toBe('fp8');
    // the grid did them at the FP8 rate: Exec_Valid cycles x the FP8 FLOPs of one = the FLOPs (an FP16-rate P V would take twice its Exec_Valids)
    expect(x.uies_utilisation.reduce((a: number, u: Json) => a + u.exec_valid, 0) * EV_FLOPS).toBe(fp8);
    expect([x.peak_tflops_fp8, x.peak_tflops_fp16]).toEqual([expect.closeTo(P8, 9), expect.closeTo(P16, 9)]);
    expect(x.peak_share).toBeCloseTo(fp8 / P8 / 1e12 / (x.cycles / CLOCK), 12);
  });

  it('an FP16 GEMM (128 x 128 x 128, timing-only): all FP16, two Exec_Valids per K row, rated against the FP16 peak', () => {
    const { code, j } = run(['gemm', '--m', '128', '--k', '128', '--n', '128', '--dtype', 'fp16', '--timing-only']);
    expect(code).toBe(0);
    const x = j.run;
    const fp16 = 2 * 128 * 128 * 128;
    expect([x.useful_flops_fp8, x.useful_flops_fp16, x.peak_precision]).toEqual([0, fp16, 'fp16']);
    expect(x.uies_utilisation.reduce((a: number, u: Json) => a + u.exec_valid, 0) * (EV_FLOPS / 2)).toBe(fp16);
    expect(x.peak_tflops).toBeCloseTo(P16, 9);
    expect(x.peak_share).toBeCloseTo(fp16 / P16 / 1e12 / (x.cycles / CLOCK), 12);
  });

  it('attention --seq 256 --heads 2 --dk 64 (timing-only): the causal key blocks of every head, all FP8', () => {
    const { code, j } = run(['attention', '--seq', '256', '--heads', '2', '--dk', '64', '--timing-only']);
    expect(code).toBe(0);
    const x = j.run;
    // per head, query block b meets key blocks 0..b: scores 2 x 128 x 128 x d_k, P V 2 x 128 x 128 x 128 (V^T padded to 128 rows) each
    const fp8 = 2 * (1 + 2) * (2 * 128 * 128 * 64 + 2 * 128 * 128 * 128);
    expect([x.useful_flops_fp8, x.useful_flops_fp16]).toEqual([fp8, 0]);
    expect(x.stages).toBeNull();
    expect(x.peak_share).toBeCloseTo(fp8 / P8 / 1e12 / (x.cycles / CLOCK), 12);
  });

  it('transformer (seq 128, d_model 128, 1 head, FFN 256; timing-only): per-stage numbers, the split and the share', () => {
    const { code, j, err } = run(['transformer', '--seq', '128', '--d-model', '128', '--heads', '1', '--ffn', '256', '--clusters', '0', '--uies', '2', '--timing-only']);
    expect(code).toBe(0);
    const x = j.run;
    const S = 128;
    const D = 128;
    const F = 256;
    const want: Array<[string, number, string | null]> = [
      ['ln1', 0, null],
      ['qkv', 2 * 3 * D * (D + 128) * S, 'fp8'], // the folded bias is one more K block of 128
      ['attn', 2 * 128 * 128 * (D + 128), 'fp8'], // one head, one query block, one key block
      ['wo', 2 * D * D * S, 'fp8'],
      ['ln2', 0, null],
      ['ffn1', 2 * F * (D + 128) * S, 'fp8'],
      ['ffn2', 2 * D * F * S, 'fp8'],
    ];
    expect(x.stages.map((s: Json) => [s.stage, s.useful_flops, s.precision])).toEqual(want);
    const total = want.reduce((a, w) => a + w[1], 0);
    expect([x.useful_flops, x.useful_flops_fp8, x.useful_flops_fp16]).toEqual([total, total, 0]);
    expect(x.peak_share).toBeCloseTo(total / P8 / 1e12 / (x.cycles / CLOCK), 12);
    for (const s of x.stages) {
      expect(s.cycles).toBe(s.last_cycle - s.first_cycle);
      expect(s.first_cycle).toBeGreaterThanOrEqual(0);
      expect(s.last_cycle).toBeLessThanOrEqual(x.cycles);
      expect(s.tflops === null ? null : s.tflops).toEqual(s.useful_flops > 0 ? expect.closeTo(s.useful_flops / (s.cycles / CLOCK) / 1e12, 9) : null);
      // the text line of the stage carries the same numbers
      const line = err.split('\n').find((l) => l.trimStart().startsWith(`${s.stage}:`))!;
      expect(line).toContain(`${s.first_cycle}..${s.last_cycle}`);
      expect(line).toContain(`span ${String(s.cycles).padStart(6)}, ${s.uies} UIEs`);
      if (s.tflops !== null) expect(line).toContain(`${s.tflops.toFixed(1)} TFLOPS FP8, grid ${(100 * s.grid_utilisation).toFixed(1)}%`);
    }
    expect(x.report_lines).toEqual([]);
    // every key of a stage is documented (docs/generators.md "JSON output", `run.stages[]`)
    const doc = readFileSync(fileURLToPath(new URL('../../../../docs/generators.md', import.meta.url)), 'utf8');
    const row = doc.split('\n').find((l) => l.startsWith('| `run.stages[]`'))!;
    for (const key of Object.keys(x.stages[0])) expect(row).toContain(`\`${key}\``);
  });
});
