/**
 * The cost model against figures derived by hand from the guide's parameters
 * (grammars/neuroncore/machine.json): TensorE 2.8 GHz, MM initiation interval max(N, 64),
 * x4 for FP32, LoadStationary 4x faster and in the background, VectorE 1.12 GHz ~N / ~2N
 * cycles + 100 static overhead, half rate above a 16-byte stride, DMA 27 GiB/s per queue.
 * The kernel ticks at 5.6 GHz: TensorE cycle = 2 ticks, VectorE = 5, ScalarE/GpSimd = 4.
 */
import { describe, expect, it } from 'vitest';
import { assemble, run } from './harness.js';
import { dmaNs, engineCycles, peakFlops } from '../src/index.js';

const mmStream = (dt: string, n: number) => `
.tensor a sbuf ${dt} [128, 128]
.tensor b sbuf ${dt} [128, 512]
.tensor ps psum fp32 [128, 2, 512]
loop i ${n} {
  tensor.matmul ps[:, i%2, :], a, b, accumulate=i/2
}`;

describe('TensorE cost model', () => {
  it('peak = 128 x 128 MACs x 2 FLOPs x 2.8 GHz = 91.75 TFLOPS', () => {
    expect(peakFlops()).toBe(2 * 128 * 128 * 2.8e9);
  });

  it('a stream of 128x128 by 128x512 BF16 matmuls runs at the 92 TFLOPS peak in steady state', () => {
    const n = 200;
    const r = run(mmStream('bf16', n), {}, { timingOnly: true }).run.report;
    // LS0 = 128/4 = 32 cycles (64 ticks); MM i starts at 64 + 1024 i ticks (II = 512 cycles, the next LS hidden);
    // the last result is visible 60 cycles (120 ticks) after the last MM ends.
    const last = 64 + n * 1024 + 120;
    expect(r.ticks).toBeGreaterThanOrEqual(last);
    expect(r.ticks).toBeLessThanOrEqual(last + 1);
    expect(r.matmul.flops).toBe(n * 2 * 128 * 128 * 512);
    const steady = (2 * 128 * 128 * 512) / (512 / 2.8e9) / 1e12;
    expect(steady).toBeCloseTo(91.75, 2);
    expect(r.matmul.achieved_tflops).toBeGreaterThan(steady * 0.998);
    expect(r.engines['tensor']!.instructions).toBe(2 * n);
  });

  it('FP32 inputs: a quarter of the rate (23 TFLOPS)', () => {
    const n = 50;
    const r = run(mmStream('fp32', n), {}, { timingOnly: true }).run.report;
    const last = 4 * 32 * 2 + n * 4 * 1024 + 120;
    expect(r.ticks).toBeGreaterThanOrEqual(last);
    expect(r.ticks).toBeLessThanOrEqual(last + 1);
    expect(r.matmul.achieved_tflops).toBeGreaterThan(22.9 * 0.995);
    expect(r.matmul.achieved_tflops).toBeLessThan(22.94);
  });

  it('short moving tiles cost MM_INIT_LATENCY = 64 cycles', () => {
    const p = assemble('.tensor a sbuf bf16 [128, 128]\n.tensor b sbuf bf16 [128, 16]\n.tensor ps psum fp32 [128, 16]\ntensor.matmul ps, a, b').program;
    expect(engineCycles(p.insns[0]!, false)).toBe(32); // LS: max(128, 64) / 4
    expect(engineCycles(p.insns[1]!, false)).toBe(64);
    expect(engineCycles(p.insns[1]!, true)).toBe(256);
  });
});

describe('Vector/Scalar/GpSimd cost model', () => {
  const p = assemble(`
.tensor x sbuf fp32 [128, 4096]
.tensor y sbuf fp32 [128, 4096]
.tensor s sbuf fp32 [128, 1]
vector.tensor_scalar y[:, 0:1024], x[:, 0:1024], op0=add, operand0=1.0
vector.tensor_tensor y[:, 0:1024], x[:, 0:1024], x[:, 1024:2048], op=add
vector.tensor_scalar y[:, 0:64], x[:, 0:64], op0=add, operand0=1.0
vector.tensor_scalar y[:, 0:512], x[:, 0:4096:8], op0=add, operand0=1.0
vector.tensor_scalar y[:, 0:1024], y[:, 0:1024], op0=add, operand0=1.0
scalar.activation x[:, 0:1024], y[:, 2048:3072], func=exp`).program;
  it('one input ~N cycles, two inputs ~2N, +100 for N <= 128, x2 above a 16-byte stride, +100 when dependent', () => {
    expect(p.insns.map((i) => engineCycles(i, false))).toEqual([1024, 2048, 64 + 100, 512 * 2, 1024 + 100, 1024]);
  });
});

describe('DMA cost model', () => {
  it('transfer = 1000 ns overhead + 2 ns per DMA buffer + bytes at 27 GiB/s (shared 820 GB/s HBM)', () => {
    const p = assemble('.tensor H hbm bf16 [128, 256]\n.tensor h sbuf bf16 [128, 256]\ndma.copy h, H, queue=3').program;
    const d = dmaNs(p.insns[0]!, 1);
    expect(d.bytes).toBe(65536);
    expect(d.buffers).toBe(128);
    expect(d.ns).toBeCloseTo(1000 + 256 + 65536 / ((27 * 2 ** 30) / 1e9), 6);
    // 31 transfers in flight would share 820 GB/s below the per-queue 27 GiB/s.
    expect(dmaNs(p.insns[0]!, 31).ns).toBeCloseTo(1000 + 256 + 65536 / (820 / 31), 6);
  });

  it('a transfer pays for the side with more buffers: the destination when its rows are cut into more runs', () => {
    // Source: 4 HBM rows of 64 contiguous FP32 (4 buffers). Destination: 4 partitions, each two runs of 32 (the first
    // half of each 64-wide row of a [4, 2, 64] tensor) = 8 buffers. The transfer's buffer count is 8, not 4.
    const p = assemble('.tensor H hbm fp32 [4, 64]\n.tensor h sbuf fp32 [4, 2, 64]\ndma.copy h[:, :, 0:32], H, queue=0').program;
    const d = dmaNs(p.insns[0]!, 1);
    expect(d.buffers).toBe(8);
    expect(d.ns).toBeCloseTo(1000 + 8 * 2 + 1024 / ((27 * 2 ** 30) / 1e9), 6);
    // and the other way round: the HBM side cut into more runs than the SBUF side
    const q = assemble('.tensor H hbm fp32 [4, 2, 64]\n.tensor h sbuf fp32 [4, 64]\ndma.copy h, H[:, :, 0:32], queue=0').program;
    expect(dmaNs(q.insns[0]!, 1).buffers).toBe(8);
  });
});

describe('engine concurrency', () => {
  it('VectorE and GpSimd do not access SBUF in the same cycle: the model serialises and counts the conflict', () => {
    const r = run(`
.tensor a sbuf fp32 [128, 2048]
.tensor b sbuf fp32 [128, 2048]
vector.memset a, value=1
gpsimd.memset b, value=2`, {}, { timingOnly: true }).run.report;
    expect(r.port_conflicts.sbuf_vector_gpsimd).toBe(1);
    // vector 2048 cycles x 5 ticks; gpsimd starts after it: 2048 x 4 ticks; + 60-cycle result latency x 4.
    expect(r.ticks).toBeGreaterThanOrEqual(2048 * 5 + 2048 * 4 + 240);
    expect(r.engines['gpsimd']!.port_conflict_ns).toBeCloseTo((2048 * 5) / 5.6, 6);
  });

  it('independent engines overlap; dependent ones wait on the auto semaphores', () => {
    const indep = run('.tensor a sbuf fp32 [128, 2048]\n.tensor b psum fp32 [128, 512]\nvector.memset a, value=1\nscalar.activation b, b, func=copy', {}, { timingOnly: true }).run.report;
    expect(indep.engines['scalar']!.semaphore_wait_ns).toBe(0);
    const dep = run('.tensor a sbuf fp32 [128, 2048]\n.tensor b sbuf fp32 [128, 2048]\nvector.memset a, value=1\nscalar.activation b, a, func=exp', {}, { timingOnly: true }).run.report;
    // ScalarE waits until VectorE's result is visible: 2048 x 5 + 60 x 5 ticks.
    expect(dep.engines['scalar']!.semaphore_wait_ns).toBeCloseTo((2048 * 5 + 300) / 5.6, 6);
  });

  it('explicit semaphores order engines; an unsignalled wait is a deadlock with the wait graph', () => {
    const ok = run(`
.sync explicit
.semaphore ready
.tensor a sbuf fp32 [128, 512]
.tensor b sbuf fp32 [128, 512]
vector.memset a, value=3
vector.sem_signal ready, 1
scalar.sem_wait ready, 1
scalar.activation b, a, func=square
.tensor B hbm fp32 [128, 512]
scalar.sem_signal ready, 1
dma.sem_wait ready, 2
dma.copy B, b, queue=0`, {});
    expect(ok.out('B')[0]).toBe(9);
    const dl = run('.sync explicit\n.semaphore s\n.tensor a sbuf fp32 [128, 8]\nvector.sem_wait s, 1\nvector.memset a, value=0', {}, { timingOnly: true }).run.report;
    expect(dl.stop).toBe('deadlock');
    expect(dl.wait_graph.join('\n')).toContain('semaphore s >= 1 (now 0)');
  });
});
