/**
 * What each engine is charged (docs/timing-model.md "## neuroncore"), run on the machine and
 * compared with figures derived here from the guide's numbers and the documented parameters -
 * not read from grammars/neuroncore/machine.json, so a changed parameter fails a test.
 */
import { describe, expect, it } from 'vitest';
import { run } from './harness.js';

// The guide (neuroncore-v2-architecture.md).
const GHZ = { tensor: 2.8, vector: 1.12, scalar: 1.4, gpsimd: 1.4 };
const DMA_BYTES_PER_NS = (27 * 2 ** 30) / 1e9; // 27 GiB/s per DMA engine
const HBM_BYTES_PER_NS = 820; // 820 GB/s
const QUEUES = 16;
const ACCESS_OVERHEAD = 60; // "approximately 60 cycles"
const STATIC_OVERHEAD = 100; // "static instruction overhead of 100 engine cycles"
const STRIDE_LIMIT = 16; // bytes
// Documented, assumed parameters (docs/timing-model.md, docs/spec-notes.md).
const SHORT_N = 128;
const DMA_TRANSFER_NS = 1000;
const DMA_BUFFER_NS = 2;
const AFFINE_FIXED = 150;
const BN_AGGR_PER_TRIPLE = 13;
const TICK_GHZ = 5.6; // least common multiple of the engine clocks
const tpc = (e: keyof typeof GHZ) => Math.round(TICK_GHZ / GHZ[e]);

/** The report counts kernel ticks 0..T, T being the tick the last result becomes visible: T + 1. */
const COUNTED = 1;
const ticks = (src: string) => {
  const r = run(src, {}, { timingOnly: true }).run.report;
  return { ...r, ticks: r.ticks - COUNTED };
};
/** An instruction alone: its cost on its engine, then the access overhead before the result is visible. */
const alone = (e: keyof typeof GHZ, cycles: number) => (cycles + ACCESS_OVERHEAD) * tpc(e);

describe('compute engines: one instruction alone', () => {
  const D = '.tensor x sbuf fp32 [128, 4096]\n.tensor y sbuf fp32 [128, 4096]\n.tensor z sbuf bf16 [128, 4096]\n.tensor s sbuf fp32 [128, 8]\n.tensor i sbuf int32 [128, 512]\n';
  it('the kernel tick divides every engine cycle', () => {
    for (const e of Object.keys(GHZ) as Array<keyof typeof GHZ>) expect(Math.abs(TICK_GHZ / GHZ[e] - tpc(e))).toBeLessThan(1e-9);
  });
  const cases: Array<[string, string, keyof typeof GHZ, number]> = [
    ['VectorE one input, N > 128: N cycles', 'vector.tensor_scalar y[:, 0:1000], x[:, 0:1000], op0=add, operand0=1', 'vector', 1000],
    ['VectorE two inputs: 2N cycles', 'vector.tensor_tensor y[:, 0:1000], x[:, 0:1000], x[:, 1000:2000], op=add', 'vector', 2000],
    ['VectorE N <= 128: N + static overhead', `vector.tensor_copy y[:, 0:${SHORT_N}], x[:, 0:${SHORT_N}]`, 'vector', SHORT_N + STATIC_OVERHEAD],
    ['VectorE N = 129: no static overhead', 'vector.tensor_copy y[:, 0:129], x[:, 0:129]', 'vector', 129],
    ['VectorE memset (no input): N of the output', 'vector.memset y[:, 0:3000], value=0', 'vector', 3000],
    ['VectorE reduce: N of the input', 'vector.tensor_reduce s[:, 0:1], x[:, 0:2048], op=add', 'vector', 2048],
    ['VectorE bn_stats: N', 'vector.bn_stats s[:, 0:6], x[:, 0:512]', 'vector', 512],
    ['VectorE bn_aggr: max(64, 13 per triple) + static overhead', 'vector.bn_aggr s[:, 0:2], x[:, 0:6]', 'vector', Math.max(64, BN_AGGR_PER_TRIPLE * 2) + STATIC_OVERHEAD],
    ['ScalarE activation: N cycles whatever scale/bias', 'scalar.activation y[:, 0:700], x[:, 0:700], func=gelu, scale=s[:, 0:1], bias=s[:, 1:2]', 'scalar', 700],
    ['GpSimd two inputs: 2N', 'gpsimd.tensor_tensor y[:, 0:500], x[:, 0:500], x[:, 500:1000], op=max', 'gpsimd', 1000],
    ['GpSimd iota: N', 'gpsimd.iota i[:, 0:512], base=0, channel_multiplier=1, pattern=[1, 512]', 'gpsimd', 512],
    ['GpSimd affine_select: 150 + N', 'gpsimd.affine_select y[:, 0:1024], x[:, 0:1024], channel_multiplier=1, pattern=[-1, 1024], cmp=is_ge, value=0', 'gpsimd', AFFINE_FIXED + 1024],
    ['GpSimd affine_select N <= 128: 150 + N + static overhead', 'gpsimd.affine_select y[:, 0:128], x[:, 0:128], channel_multiplier=1, pattern=[-1, 128], cmp=is_ge, value=0', 'gpsimd', AFFINE_FIXED + 128 + STATIC_OVERHEAD],
    // The innermost stride: 16 bytes streams at full rate, more halves it.
    ['stride of exactly 16 bytes (fp32 x4): full rate', 'vector.tensor_copy y[:, 0:256], x[:, 0:1024:4]', 'vector', 256],
    ['stride of 20 bytes (fp32 x5): half rate', 'vector.tensor_copy y[:, 0:256], x[:, 0:1280:5]', 'vector', 256 * 2],
    ['stride of 16 bytes in bf16 (x8): full rate', 'vector.tensor_copy y[:, 0:256], z[:, 0:2048:8]', 'vector', 256],
    ['stride of 18 bytes in bf16 (x9): half rate', 'vector.tensor_copy y[:, 0:256], z[:, 0:2304:9]', 'vector', 256 * 2],
  ];
  for (const [what, line, e, cycles] of cases)
    it(what, () => {
      expect(STRIDE_LIMIT).toBe(16);
      const r = ticks(D + line);
      expect(r.ticks).toBe(alone(e, cycles));
      expect(r.engines[e]!.active_ns).toBeCloseTo((cycles * tpc(e)) / TICK_GHZ, 6);
    });

  it('a dependent instruction on the same engine pays the static overhead; results wait for the access overhead', () => {
    const r = ticks(D + 'vector.tensor_copy y[:, 0:1000], x[:, 0:1000]\nvector.tensor_copy x[:, 2000:3000], y[:, 0:1000]');
    expect(r.ticks).toBe((1000 + 1000 + STATIC_OVERHEAD + ACCESS_OVERHEAD) * tpc('vector'));
    // The same pair across engines: the consumer waits for the producer's result (its cost + 60 cycles).
    const x = ticks(D + 'vector.tensor_copy y[:, 0:1000], x[:, 0:1000]\nscalar.activation x[:, 2000:3000], y[:, 0:1000], func=copy');
    expect(x.ticks).toBe(alone('vector', 1000) + alone('scalar', 1000));
  });

  it('semaphore instructions cost nothing; a signal is visible to waiters on the next tick', () => {
    const r = ticks('.sync explicit\n.semaphore s\nvector.sem_signal s, 1\nscalar.sem_wait s, 1\ndma.sem_wait s, 1, queue=4');
    // signal: issued and done at tick 0, visible at tick 1; the waits issue at tick 1 and are done then (retired at 2).
    expect(r.ticks).toBe(2);
    expect(r.engines['vector']!.active_ns + r.engines['scalar']!.active_ns + r.dma.active_ns).toBe(0);
    expect(r.stop).toBe('done');
  });
});

describe('TensorE', () => {
  const D = '.tensor a sbuf bf16 [128, 512]\n.tensor f sbuf fp32 [128, 512]\n.tensor ps psum fp32 [128, 4, 512]\n';
  it('LoadStationary max(F, 64)/4 cycles, then MultiplyMoving max(N, 64) (x4 for FP32)', () => {
    for (const [stat, mov, fp32] of [['a[:, 0:128]', 'a[:, 0:512]', 1], ['a[:, 0:32]', 'a[:, 0:16]', 1], ['f[:, 0:128]', 'a[:, 0:200]', 4], ['a[:, 0:128]', 'f[:, 0:512]', 4]] as const) {
      const F = Number(/0:(\d+)/.exec(stat)![1]);
      const N = Number(/0:(\d+)/.exec(mov)![1]);
      const lsFp32 = stat.startsWith('f') ? 4 : 1;
      const r = ticks(D + `tensor.matmul ps[0:${F}, 0, 0:${N}], ${stat}, ${mov}`);
      const ls = (Math.max(F, 64) / 4) * lsFp32;
      expect(r.ticks).toBe((ls + Math.max(N, 64) * fp32 + ACCESS_OVERHEAD) * tpc('tensor'));
    }
  });
});

describe('DMA', () => {
  const dmaTicks = (bytes: number, buffers: number, active = 1) => Math.ceil((DMA_TRANSFER_NS + buffers * DMA_BUFFER_NS + bytes / Math.min(DMA_BYTES_PER_NS, HBM_BYTES_PER_NS / active)) * TICK_GHZ);

  it('one transfer: per-transfer overhead + per-buffer overhead + bytes at 27 GiB/s; visible when it ends', () => {
    const r = ticks('.tensor H hbm bf16 [128, 1024]\n.tensor h sbuf bf16 [128, 1024]\ndma.copy h, H, queue=3');
    expect(r.ticks).toBe(dmaTicks(128 * 1024 * 2, 128));
  });

  it('a strided row is one buffer per contiguous run (the larger side counts)', () => {
    const r = ticks('.tensor H hbm fp32 [128, 64]\n.tensor h sbuf fp32 [128, 32]\ndma.copy h, H[:, 0:64:2], queue=0');
    expect(r.ticks).toBe(dmaTicks(128 * 32 * 4, 128 * 32));
  });

  it('a queue runs its transfers in order; 16 queues run in parallel at the per-engine rate (16 x 27 GiB/s < 820 GB/s)', () => {
    expect(QUEUES * DMA_BYTES_PER_NS).toBeLessThan(HBM_BYTES_PER_NS);
    const one = dmaTicks(8 * 4096 * 2, 8);
    const seq = ticks('.tensor H hbm bf16 [16, 4096]\n.tensor h sbuf bf16 [128, 4096]\ndma.copy h[0:8, :], H[0:8, :], queue=2\ndma.copy h[8:16, :], H[8:16, :], queue=2');
    expect(seq.ticks).toBe(2 * one);
    const par = ticks(`.tensor H hbm bf16 [128, 4096]\n.tensor h sbuf bf16 [128, 4096]\n${Array.from({ length: QUEUES }, (_, q) => `dma.copy h[${q * 8}:${q * 8 + 8}, :], H[${q * 8}:${q * 8 + 8}, :], queue=${q}`).join('\n')}`);
    expect(par.ticks).toBe(one);
    expect(par.dma.bytes).toBe(128 * 4096 * 2);
  });

  it('the default split follows the guide: one transfer per DMA engine, rows spread evenly', () => {
    // The guide's example: a 128x512 FP32 load is 16 transfers (one per DMA engine) of 8 DMA buffers (rows) each.
    const g = ticks('.tensor H hbm fp32 [128, 512]\n.tensor h sbuf fp32 [128, 512]\ndma.copy h, H');
    expect(g.dma.queues_used).toBe(16);
    expect(g.ticks).toBe(dmaTicks(8 * 512 * 4, 8));
    expect(g.dma.active_ns).toBeCloseTo((16 * dmaTicks(8 * 512 * 4, 8)) / TICK_GHZ, 6);
    // 512 KiB of BF16 rows: 16 transfers of 8 rows, all in parallel.
    const r = ticks('.tensor H hbm bf16 [128, 2048]\n.tensor h sbuf bf16 [128, 2048]\ndma.copy h, H');
    expect(r.ticks).toBe(dmaTicks(8 * 2048 * 2, 8));
    expect(r.dma.queues_used).toBe(16);
    // fewer rows than engines: one transfer per row; qrange narrows the engines
    expect(ticks('.tensor H hbm fp32 [4, 512]\n.tensor h sbuf fp32 [4, 512]\ndma.copy h, H').dma.queues_used).toBe(4);
    const q = ticks('.tensor H hbm fp32 [128, 512]\n.tensor h sbuf fp32 [128, 512]\ndma.copy h, H, qrange=[4, 7]');
    expect(q.dma.queues_used).toBe(4);
    expect(q.ticks).toBe(dmaTicks(32 * 512 * 4, 32));
  });
});
