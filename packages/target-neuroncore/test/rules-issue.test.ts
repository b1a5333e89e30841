/**
 * Every rule of issue 14's "Rules enforced" list, each fed a violating program, with the exact
 * diagnostic expected: code, message, file:line:col, caret length and the guide section cited.
 * The expected texts are written here by hand from the guide, not read from the sources.
 */
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '@pyxis/diagnostics';
import { assemble, run } from './harness.js';

const G = 'neuroncore-v2-architecture.md §';
const ACCESS = `${G}Accessing SBUF/PSUM tensors using compute engines`;

interface D {
  code: string;
  line: number;
  col: number;
  len: number;
  message: string;
  spec: string;
}
const shape = (d: Diagnostic): D => {
  const s = d.span as { file: string; line: number; column: number; length: number };
  expect(s.file).toBe('t.ncasm');
  return { code: d.code!, line: s.line, col: s.column, len: s.length, message: d.message, spec: d.spec ?? '' };
};
const diags = (src: string): D[] => assemble(src).diagnostics.map(shape);

describe('issue 14 rules: each violation gives its exact diagnostic', () => {
  it('partition count <= 128', () => {
    expect(diags('.tensor s sbuf bf16 [129, 8]')).toEqual([{ code: 'NC0101', line: 1, col: 9, len: 1, message: '`s` has 129 partitions; SBUF and PSUM have 128', spec: ACCESS }]);
    expect(diags('.tensor s sbuf bf16 [128, 8], partition=64')).toEqual([{ code: 'NC0101', line: 1, col: 9, len: 1, message: '`s` occupies partitions 64..191; there are 128', spec: ACCESS }]);
  });

  it('start partition 0 for > 64 partitions', () => {
    expect(diags('.tensor f sbuf fp32 [128, 8]\nvector.tensor_copy f[0:96, 0:8], f[32:128, 0:8]')).toEqual([
      { code: 'NC0102', line: 2, col: 34, len: 14, message: 'access of `f` starts at partition 32 with 96 partitions; the start partition must be 0 for more than 64 partitions', spec: ACCESS },
      // ... which is also a cross-partition move of more than 64 partitions.
      { code: 'NC0311', line: 2, col: 34, len: 14, message: 'cross-partition movement needs at most 64 partitions', spec: `${G}Cross-Partition Connectivity` },
    ]);
  });

  it('start partition 0 or 64 for 33..64 partitions', () => {
    expect(diags('.tensor f sbuf fp32 [128, 8]\nvector.tensor_copy f[32:96, 0:8], f[0:64, 0:8]')).toEqual([
      { code: 'NC0102', line: 2, col: 20, len: 13, message: 'access of `f` starts at partition 32 with 64 partitions; the start partition must be 0 or 64 for 33..64 partitions', spec: ACCESS },
    ]);
  });

  it('start partition 0/32/64/96 for <= 32 partitions', () => {
    expect(diags('.tensor f sbuf fp32 [128, 8]\nvector.tensor_copy f[16:48, 0:8], f[32:64, 0:8]')).toEqual([
      { code: 'NC0102', line: 2, col: 20, len: 13, message: 'access of `f` starts at partition 16 with 32 partitions; the start partition must be 0, 32, 64 or 96 for up to 32 partitions', spec: ACCESS },
    ]);
  });

  it('no partition striding', () => {
    expect(diags('.tensor f sbuf fp32 [128, 8]\nvector.tensor_copy f[0:32, 0:8], f[0:64:2, 0:8]')).toEqual([
      { code: 'NC0108', line: 2, col: 36, len: 6, message: 'partition striding is not allowed: a tensor occupies a continuous range of partitions', spec: ACCESS },
    ]);
  });

  const mm = '.tensor a sbuf bf16 [128, 1024]\n.tensor f sbuf fp32 [128, 1024]\n.tensor ps psum fp32 [128, 2048]\n';
  const TILE = `${G}Tensor Engine (Layout, Tile Size)`;
  it('stationary free size <= 128', () => {
    expect(diags(mm + 'tensor.matmul ps[:, 0:512], a[:, 0:129], a[:, 0:512]')).toEqual([
      // the output has 128 partitions: it cannot hold the 129 the stationary free size would give
      { code: 'NC0207', line: 4, col: 15, len: 12, message: 'the output has 128 partitions; the stationary free size (129) becomes the output partition dimension', spec: `${G}Tensor Engine (Tile Size)` },
      { code: 'NC0202', line: 4, col: 29, len: 11, message: 'stationary free size 129 exceeds 128 (the PE columns)', spec: TILE },
    ]);
  });

  it('moving free size <= 512 and one PSUM bank per matmul', () => {
    expect(diags(mm + 'tensor.matmul ps[:, 0:513], a[:, 0:128], a[:, 0:513]')).toEqual([
      { code: 'NC0204', line: 4, col: 15, len: 12, message: 'the output spans PSUM bytes 0..2051, crossing a 2 KiB bank boundary; a matmul writes one PSUM bank', spec: `${G}Near-memory accumulation in PSUM` },
      { code: 'NC0203', line: 4, col: 42, len: 11, message: 'moving free size 513 exceeds 512 (one PSUM bank holds 512 FP32 values per partition)', spec: TILE },
    ]);
    expect(diags(mm + 'tensor.matmul ps[:, 256:768], a[:, 0:128], a[:, 0:512]')).toEqual([
      { code: 'NC0204', line: 4, col: 15, len: 14, message: 'the output spans PSUM bytes 1024..3071, crossing a 2 KiB bank boundary; a matmul writes one PSUM bank', spec: `${G}Near-memory accumulation in PSUM` },
    ]);
  });

  it('TensorE reads SBUF and writes PSUM only', () => {
    const why = `${TILE}: TensorE must read input matrices from SBUF and write output matrices to PSUM`;
    expect(diags(mm + 'tensor.matmul f[:, 0:512], a[:, 0:128], a[:, 0:512]')).toEqual([{ code: 'NC0201', line: 4, col: 15, len: 11, message: 'tensor cannot write SBUF (writes: PSUM)', spec: why }]);
    expect(diags(mm + 'tensor.matmul ps[:, 0:512], a[:, 0:128], ps[:, 0:512]')).toEqual([{ code: 'NC0201', line: 4, col: 42, len: 12, message: 'tensor cannot read PSUM (reads: SBUF)', spec: why }]);
  });

  it('Vector free size <= 64K elements in SBUF', () => {
    const m = 'vector operand has 65540 elements per partition; at most 65536 in SBUF';
    expect(diags('.tensor s sbuf fp8_e4m3 [128, 4, 16385]\nvector.tensor_copy s, s')).toEqual([
      { code: 'NC0301', line: 2, col: 20, len: 1, message: m, spec: `${G}Vector Engine (Layout & Tile Size)` },
      { code: 'NC0301', line: 2, col: 23, len: 1, message: m, spec: `${G}Vector Engine (Layout & Tile Size)` },
    ]);
  });

  it('Scalar free size <= 4K elements in PSUM', () => {
    const m = 'scalar operand has 4097 elements per partition; at most 4096 in PSUM';
    expect(diags('.tensor p psum bf16 [128, 8192]\nscalar.activation p[:, 0:4097], p[:, 0:4097], func=exp')).toEqual([
      { code: 'NC0301', line: 2, col: 19, len: 12, message: m, spec: `${G}Scalar Engine` },
      { code: 'NC0301', line: 2, col: 33, len: 12, message: m, spec: `${G}Scalar Engine` },
    ]);
  });

  it('bn_stats input <= 512', () => {
    expect(diags('.tensor x sbuf fp32 [128, 1024]\n.tensor o sbuf fp32 [128, 6]\nvector.bn_stats o, x[:, 0:513]')).toEqual([
      { code: 'NC0302', line: 3, col: 20, len: 11, message: 'bn_stats input has 513 elements per partition; at most 512', spec: `${G}Vector Engine (Layout & Tile Size)` },
    ]);
  });

  it('TensorE inputs BF16/FP16/TF32/FP8/FP32; FP32 output in PSUM', () => {
    const dt = `${G}Tensor Engine (Data Types)`;
    const m = 'TensorE inputs are BF16, FP16, TF32, FP8 or FP32; `int32` is not';
    expect(diags('.tensor i sbuf int32 [128, 128]\n.tensor ps psum fp32 [128, 128]\ntensor.matmul ps, i, i')).toEqual([
      { code: 'NC0501', line: 3, col: 19, len: 1, message: m, spec: dt },
      { code: 'NC0501', line: 3, col: 22, len: 1, message: m, spec: dt },
    ]);
    expect(diags('.tensor a sbuf bf16 [128, 128]\n.tensor ps psum bf16 [128, 128]\ntensor.matmul ps, a, a')).toEqual([
      { code: 'NC0502', line: 3, col: 15, len: 2, message: 'TensorE accumulates in FP32 and writes FP32 to PSUM; the output is `bf16`', spec: dt },
    ]);
  });

  it('cross-partition movement: one-to-one partitions, cross-half/quadrant only', () => {
    const x = `${G}Cross-Partition Connectivity`;
    expect(diags('.tensor f sbuf fp32 [128, 8]\nvector.tensor_copy f[0:64, 0:8], f[0:32, 0:8]')).toEqual([
      { code: 'NC0310', line: 2, col: 34, len: 12, message: 'input spans 32 partitions but the output 64: each input partition flows into one output partition', spec: x },
    ]);
    // The allowed forms: cross-half (33..64 partitions) and cross-quadrant (<= 32) on Vector/Scalar.
    expect(diags('.tensor f sbuf fp32 [128, 8]\nscalar.activation f[64:128, 0:8], f[0:64, 0:8], func=copy')).toEqual([]);
    expect(diags('.tensor f sbuf fp32 [128, 8]\nvector.tensor_copy f[96:128, 0:8], f[32:64, 0:8]')).toEqual([]);
  });

  it('GpSimd: each processor reads and writes only its 16 SBUF partitions', () => {
    const gp = `${G}GpSimd Engine (Memory Hierarchy): processor[0] connected to partition[0:15], processor[1] to partition[16:31] and so on`;
    expect(diags('.tensor f sbuf fp32 [128, 8]\ngpsimd.tensor_copy f[64:96, 0:8], f[0:32, 0:8]')).toEqual([
      {
        code: 'NC0317',
        line: 2,
        col: 35,
        len: 12,
        message: 'GpSimd cannot move data between its 16-partition groups: input partitions 0..31 (processors 0..1) would flow into output partitions 64..95 (processors 4..5); each processor reads and writes only its 16 connected SBUF partitions',
        spec: gp,
      },
    ]);
    // A per-partition operand is read by the processor of its partitions too.
    expect(diags('.tensor f sbuf fp32 [128, 8]\ngpsimd.tensor_scalar f[96:128, 0:8], f[96:128, 0:8], op0=add, operand0=f[64:96, 0:1]')).toEqual([
      {
        code: 'NC0317',
        line: 2,
        col: 72,
        len: 13,
        message: 'GpSimd cannot move data between its 16-partition groups: input partitions 64..95 (processors 4..5) would flow into output partitions 96..127 (processors 6..7); each processor reads and writes only its 16 connected SBUF partitions',
        spec: gp,
      },
    ]);
    // Same partitions, any of the 8 processors: allowed; the same move on VectorE is a cross-quadrant move.
    expect(diags('.tensor f sbuf fp32 [128, 8]\ngpsimd.tensor_copy f[96:128, 0:8], f[96:128, 0:8]')).toEqual([]);
    expect(diags('.tensor f sbuf fp32 [128, 8]\nvector.tensor_copy f[64:96, 0:8], f[0:32, 0:8]')).toEqual([]);
  });

  it('VectorE and ScalarE do not access PSUM in the same cycle: serialised and reported', () => {
    const r = run('.tensor p psum fp32 [128, 1024]\nvector.memset p[:, 0:512], value=1\nscalar.activation p[:, 512:1024], p[:, 512:1024], func=copy', {}, { timingOnly: true }).run.report;
    expect(r.port_conflicts).toEqual({ sbuf_vector_gpsimd: 0, psum_vector_scalar: 1 });
    // VectorE: 512 cycles x 5 ticks; ScalarE waits for the port, then 512 x 4 ticks; + 60-cycle result latency x 4 ticks.
    const vec = 512 * (5.6 / 1.12);
    expect(r.engines['scalar']!.port_conflict_ns).toBeCloseTo(vec / 5.6, 9);
    expect(r.ticks).toBeGreaterThanOrEqual(vec + 512 * 4 + 60 * 4);
    expect(r.ticks).toBeLessThanOrEqual(vec + 512 * 4 + 60 * 4 + 1);
  });

  it('one accumulation group per PSUM bank: a group started in a bank ends the previous group there', () => {
    const head = '.tensor a sbuf bf16 [128, 128]\n.tensor b sbuf bf16 [128, 256]\n.tensor p psum fp32 [128, 8, 512]\n.tensor q psum fp32 [128, 2, 256], bank=0\n';
    // nine groups open at once: eight banks of p, and two halves of bank 0 through q (q aliases bank 0 of p).
    const open9 = head + 'tensor.matmul q[:, 0, :], a, b, accumulate=0\ntensor.matmul q[:, 1, :], a, b, accumulate=0\ntensor.matmul q[:, 0, :], a, b, accumulate=1\n';
    expect(diags(open9)).toEqual([
      {
        code: 'NC0209',
        line: 7,
        col: 15,
        len: 10,
        message: 'PSUM bank 0 holds one accumulation group at a time: this matmul accumulates into the group started at line 5, but line 6 started another group in the same bank (up to eight outstanding groups, one per bank)',
        spec: `${G}Near-memory accumulation in PSUM`,
      },
    ]);
    // one bank used by one group after another, and eight groups in eight banks, are fine
    expect(diags(head + 'tensor.matmul q[:, 0, :], a, b, accumulate=0\ntensor.matmul q[:, 0, :], a, b, accumulate=1\ntensor.matmul q[:, 1, :], a, b, accumulate=0\ntensor.matmul q[:, 1, :], a, b, accumulate=1\n')).toEqual([]);
    const p8 = '.tensor a sbuf bf16 [128, 128]\n.tensor b sbuf bf16 [128, 512]\n.tensor p psum fp32 [128, 8, 512]\nloop k 2 {\n  loop g 8 {\n    tensor.matmul p[:, g, :], a, b, accumulate=k\n  }\n}\n';
    expect(diags(p8)).toEqual([]);
  });

  it('a VectorE PSUM -> SBUF evacuation claims the PSUM port as well as the SBUF port (every port it uses)', () => {
    // VectorE copies PSUM columns 0..511 to SBUF (512 cycles x 5 ticks); ScalarE's PSUM activation must wait for it,
    // then 512 cycles x 4 ticks, then the 60-cycle result latency x 4 ticks: the same timeline as two PSUM writers.
    const src = '.tensor p psum fp32 [128, 1024]\n.tensor s sbuf fp32 [128, 512]\nvector.tensor_copy s, p[:, 0:512]\nscalar.activation p[:, 512:1024], p[:, 512:1024], func=copy';
    const r = run(src, {}, { timingOnly: true }).run.report;
    expect(r.port_conflicts).toEqual({ sbuf_vector_gpsimd: 0, psum_vector_scalar: 1 });
    const vec = 512 * (5.6 / 1.12);
    expect(r.engines['scalar']!.port_conflict_ns).toBeCloseTo(vec / 5.6, 9);
    expect(r.ticks).toBeGreaterThanOrEqual(vec + 512 * 4 + 60 * 4);
    expect(r.ticks).toBeLessThanOrEqual(vec + 512 * 4 + 60 * 4 + 1);
    // and the SBUF side still excludes GpSimd while the evacuation runs
    const g = run('.tensor p psum fp32 [128, 512]\n.tensor s sbuf fp32 [128, 512]\n.tensor t sbuf fp32 [128, 512]\nvector.tensor_copy s, p\ngpsimd.memset t, value=1', {}, { timingOnly: true }).run.report;
    expect(g.port_conflicts).toEqual({ sbuf_vector_gpsimd: 1, psum_vector_scalar: 0 });
  });

  it('a read of never-written memory is NaN and, with --warn-uninit, a warning at the instruction', () => {
    const r = run('.tensor Y hbm fp32 [4, 8]\n.tensor x sbuf fp32 [4, 8]\n.tensor y sbuf fp32 [4, 8]\nvector.tensor_copy y, x\ndma.copy Y, y', {}, { warnUninit: true });
    expect([...r.out('Y')].every((v) => Number.isNaN(v))).toBe(true);
    expect(r.run.warnings.map((d) => ({ ...shape(d), severity: d.severity }))).toEqual([
      { code: 'NC0601', line: 4, col: 1, len: 1, message: 'vector.tensor_copy reads never-written SBUF at byte 0:0 (partition:offset) (reads as NaN)', spec: '', severity: 'warning' },
    ]);
  });
});
