/**
 * The samples end to end through the CLI (pyxis-as / pyxis-ld / pyxis-sim run --dump --stats
 * --trace), each checked against a float64 reference written here, plus the cost-model
 * figures of each run against samples/neuroncore/expected.json
 * (regenerate: PYXIS_UPDATE_GOLDEN=1 npx vitest run packages/target-neuroncore/test/samples.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readNpy, writeNpyFile } from '@pyxis/container';
import { runAs, runLd, runSim } from '@pyxis/targets';
import { sampleInputs, type F32Tensor } from '../../../samples/neuroncore/inputs.mjs';

const SAMPLES = fileURLToPath(new URL('../../../samples/neuroncore/', import.meta.url));
const GOLDEN = join(SAMPLES, 'expected.json');
const dir = mkdtempSync(join(tmpdir(), 'nc-samples-'));
const inputs = sampleInputs();
for (const [f, t] of Object.entries(inputs)) writeNpyFile(join(dir, f), t);
const golden = JSON.parse(readFileSync(GOLDEN, 'utf8')) as Record<string, { elapsed_ns: number; mfu: number; instructions: Record<string, number> }>;
const update = process.env['PYXIS_UPDATE_GOLDEN'] === '1';

const io = () => {
  let out = '';
  let err = '';
  return { io: { stdout: (s: string) => void (out += s), stderr: (s: string) => void (err += s) }, get out() { return out; }, get err() { return err; } };
};

async function sample(name: string, dumps: string[]): Promise<Record<string, Float64Array>> {
  const c = io();
  expect(await runAs([join(SAMPLES, `${name}.ncasm`), '-o', join(dir, `${name}.pobj`)], c.io), c.err).toBe(0);
  copyFileSync(join(SAMPLES, `${name}.ld`), join(dir, `${name}.ld`));
  expect(await runLd([join(dir, `${name}.ld`), join(dir, `${name}.pobj`), '-o', join(dir, `${name}.pimg`)], c.io), c.err).toBe(0);
  const args = ['run', join(dir, `${name}.pimg`), '--stats', join(dir, `${name}.stats.json`), '--trace', join(dir, `${name}.trace.json`)];
  for (const d of dumps) args.push('--dump', `${d}=${join(dir, `${name}.${d}.npy`)}`);
  expect(await runSim(args, c.io), c.err).toBe(0);
  const stats = JSON.parse(readFileSync(join(dir, `${name}.stats.json`), 'utf8')) as { elapsed_ns: number; matmul: { mfu: number }; engines: Record<string, { instructions: number }>; model: string };
  expect(stats.model).toMatch(/^cost model/);
  const fig = { elapsed_ns: Math.round(stats.elapsed_ns * 1000) / 1000, mfu: Math.round(stats.matmul.mfu * 1e6) / 1e6, instructions: Object.fromEntries(Object.entries(stats.engines).map(([k, v]) => [k, v.instructions])) };
  if (update) {
    golden[name] = fig;
    writeFileSync(GOLDEN, JSON.stringify(golden, null, 2) + '\n');
  } else expect(fig).toEqual(golden[name]);
  const trace = JSON.parse(readFileSync(join(dir, `${name}.trace.json`), 'utf8')) as { traceEvents: Array<{ ph: string; name: string; args?: { name?: string } }> };
  expect(trace.traceEvents.some((e) => e.ph === 'M' && e.name === 'thread_name' && /engine|DMA queue/.test(e.args?.name ?? ''))).toBe(true);
  const out: Record<string, Float64Array> = {};
  for (const d of dumps) out[d] = Float64Array.from(readNpy(readFileSync(join(dir, `${name}.${d}.npy`)), d).data as Float32Array);
  return out;
}

const get = (f: string): F32Tensor => inputs[f]!;
const at2 = (t: F32Tensor, i: number, j: number) => t.data[i * t.shape[1]! + j]!;
function matmulT(a: F32Tensor, b: F32Tensor): Float64Array {
  // a: [K, M] (transposed), b: [K, N] -> [M, N] in float64
  const [K, M] = a.shape as [number, number];
  const N = b.shape[1]!;
  const out = new Float64Array(M * N);
  for (let k = 0; k < K; k++)
    for (let m = 0; m < M; m++) {
      const s = at2(a, k, m);
      for (let n = 0; n < N; n++) out[m * N + n] += s * at2(b, k, n);
    }
  return out;
}
function maxErr(got: Float64Array, want: Float64Array): { abs: number; rel: number } {
  let abs = 0;
  let scale = 0;
  for (let i = 0; i < want.length; i++) {
    abs = Math.max(abs, Math.abs(got[i]! - want[i]!));
    scale = Math.max(scale, Math.abs(want[i]!));
  }
  return { abs, rel: abs / scale };
}
function erf(x: number): number {
  // Simpson integration, float64 (reference only).
  const n = 2000;
  const h = x / n;
  let s = 1 + Math.exp(-x * x);
  for (let i = 1; i < n; i++) s += (i % 2 ? 4 : 2) * Math.exp(-(i * h) * (i * h));
  return ((2 / Math.sqrt(Math.PI)) * s * h) / 3;
}
function rowwise(x: F32Tensor, f: (row: number[]) => number[]): Float64Array {
  const [R, C] = x.shape as [number, number];
  const out = new Float64Array(R * C);
  for (let r = 0; r < R; r++) out.set(f(Array.from(x.data.subarray(r * C, (r + 1) * C))), r * C);
  return out;
}

describe('NeuronCore samples against float64 references', () => {
  it('tiled BF16 matmul [512, 2048] x [2048, 2048], K accumulated in PSUM (FP32)', async () => {
    const { C } = await sample('matmul', ['C']);
    const e = maxErr(C!, matmulT(get('matmul_at.npy'), get('matmul_b.npy')));
    // BF16 inputs are exact; only FP32 accumulation error over K = 2048 remains.
    expect(e.rel).toBeLessThan(2e-6);
  }, 120_000);

  it('matmul + bias + GELU (output BF16)', async () => {
    const { Y } = await sample('mlp', ['Y']);
    const z = matmulT(get('mlp_xt.npy'), get('mlp_w.npy'));
    const b = get('mlp_bias.npy');
    const want = z.map((v, i) => {
      const t = v + b.data[Math.floor(i / 512)]!;
      return 0.5 * t * (1 + erf(t / Math.SQRT2));
    });
    expect(maxErr(Y!, want).rel).toBeLessThan(2 ** -8);
  });

  it('softmax', async () => {
    const { Y } = await sample('softmax', ['Y']);
    const want = rowwise(get('softmax_x.npy'), (r) => {
      const m = Math.max(...r);
      const e = r.map((v) => Math.exp(v - m));
      const s = e.reduce((a, c) => a + c, 0);
      return e.map((v) => v / s);
    });
    expect(maxErr(Y!, want).abs).toBeLessThan(1e-6);
  });

  it('LayerNorm with bn_stats/bn_aggr', async () => {
    const { Y } = await sample('layernorm', ['Y']);
    const want = rowwise(get('norm_x.npy'), (r) => {
      const m = r.reduce((a, c) => a + c, 0) / r.length;
      const v = r.reduce((a, c) => a + (c - m) ** 2, 0) / r.length;
      return r.map((x) => (x - m) / Math.sqrt(v + 1e-5));
    });
    expect(maxErr(Y!, want).abs).toBeLessThan(5e-6);
  });

  it('RMSNorm', async () => {
    const { Y } = await sample('rmsnorm', ['Y']);
    const want = rowwise(get('norm_x.npy'), (r) => {
      const ms = r.reduce((a, c) => a + c * c, 0) / r.length;
      return r.map((x) => x / Math.sqrt(ms + 1e-5));
    });
    expect(maxErr(Y!, want).abs).toBeLessThan(5e-6);
  });

  it('causal attention tile: Q K^T, affine_select, softmax, P V', async () => {
    const { O } = await sample('attention', ['O']);
    const qt = get('attn_qt.npy');
    const kt = get('attn_kt.npy');
    const v = get('attn_v.npy');
    const want = new Float64Array(128 * 64);
    for (let q = 0; q < 128; q++) {
      const s: number[] = [];
      for (let k = 0; k <= q; k++) {
        let d = 0;
        for (let i = 0; i < 64; i++) d += at2(qt, i, q) * at2(kt, i, k);
        s.push(d / 8);
      }
      const m = Math.max(...s);
      const e = s.map((x) => Math.exp(x - m));
      const sum = e.reduce((a, c) => a + c, 0);
      for (let k = 0; k <= q; k++) for (let j = 0; j < 64; j++) want[q * 64 + j] += (e[k]! / sum) * at2(v, k, j);
    }
    // P is cast to BF16 for the second matmul (TensorE input): relative error ~2^-8.
    expect(maxErr(O!, want).abs).toBeLessThan(2 ** -8);
  });
});
