/** The guide's layout rules: every violation is a diagnostic naming the rule, its section and file:line:col. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { errors } from './harness.js';
import { startPartitionOk } from '../src/index.js';

const decl = `
.tensor a sbuf bf16 [128, 1024]
.tensor f sbuf fp32 [128, 1024]
.tensor h sbuf bf16 [128, 4096]
.tensor ps psum fp32 [128, 2048]
.tensor H hbm bf16 [128, 1024]
`;
const at = (src: string) => errors(decl + src).map((d) => ({ code: d.code, line: (d.span as { line: number }).line - 6, col: (d.span as { column: number }).column, spec: d.spec ?? '' }));

describe('layout rules', () => {
  it('start partition: 0 for > 64 partitions, 0/64 for 33..64, 0/32/64/96 for <= 32', () => {
    expect(at('vector.tensor_copy f[32:96, 0:8], a[32:96, 0:8]')).toEqual([
      { code: 'NC0102', line: 1, col: 20, spec: expect.stringContaining('Accessing SBUF/PSUM') },
      { code: 'NC0102', line: 1, col: 35, spec: expect.stringContaining('Accessing SBUF/PSUM') },
    ]);
    expect(at('vector.tensor_copy f[64:128, 0:8], a[0:64, 0:8]')).toEqual([]); // cross-half movement
    expect(at('vector.tensor_copy f[96:128, 0:8], a[32:64, 0:8]')).toEqual([]); // cross-quadrant
    expect(at('vector.tensor_copy f[16:32, 0:8], a[16:32, 0:8]').map((d) => d.code)).toEqual(['NC0102', 'NC0102']);
  });

  it('property: the start-partition rule equals the guide\'s three cases', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 127 }), fc.integer({ min: 1, max: 128 }), (start, np) => {
        const ok = np > 64 ? start === 0 : np > 32 ? [0, 64].includes(start) : [0, 32, 64, 96].includes(start);
        expect(startPartitionOk(start, np)).toBe(ok);
      }),
    );
  });

  it('no partition striding; at most 4 free dims; slices inside the tensor', () => {
    expect(at('vector.tensor_copy f[0:128:2, 0:8], a[0:64, 0:8]').map((d) => d.code)).toEqual(['NC0108']);
    expect(at('vector.tensor_copy f[0:8, 0:2000], a[0:8, 0:2000]')).toEqual([{ code: 'NC0032', line: 1, col: 27, spec: expect.stringContaining('Accessing') }]);
  });

  it('TensorE: stationary free <= 128, moving free <= 512, one PSUM bank, FP32 output, SBUF in / PSUM out', () => {
    expect(at('tensor.matmul ps[:, 0:512], a[:, 0:256], a[:, 0:512]').map((d) => d.code)).toEqual(['NC0207', 'NC0202']);
    expect(at('tensor.matmul ps[:, 0:1024], a[:, 0:128], a[:, 0:1024]').map((d) => d.code)).toEqual(['NC0204', 'NC0203']);
    expect(at('tensor.matmul ps[:, 256:768], a[:, 0:128], a[:, 0:512]').map((d) => d.code)).toEqual(['NC0204']);
    expect(at('tensor.matmul f[:, 0:512], a[:, 0:128], a[:, 0:512]').map((d) => d.code)).toEqual(['NC0201']);
    expect(at('tensor.matmul ps[:, 0:512], a[:, 0:128], ps[:, 0:512]').map((d) => d.code)).toContain('NC0201');
    const e = at('tensor.matmul ps[:, 0:1024], a[:, 0:128], a[:, 0:1024]')[1]!;
    expect(e).toEqual({ code: 'NC0203', line: 1, col: 43, spec: expect.stringContaining('Tensor Engine') });
  });

  it('TensorE inputs are BF16/FP16/TF32/FP8/FP32, and stationary/moving share K', () => {
    expect(errors('.tensor i sbuf int32 [128, 128]\n.tensor ps psum fp32 [128, 128]\ntensor.matmul ps, i, i').map((d) => d.code)).toEqual(['NC0501', 'NC0501']);
    expect(at('tensor.matmul ps[0:64, 0:512], a[0:64, 0:64], a[:, 0:512]').map((d) => d.code)).toEqual(['NC0205']);
  });

  it('Vector/Scalar free size: 64K elements in SBUF, 4K in PSUM; bn_stats input <= 512', () => {
    expect(at('scalar.activation ps[:, 0:2048], ps[:, 0:2048], func=exp')).toEqual([]);
    expect(errors('.tensor big psum fp32 [128, 4097]').map((d) => d.code)).toEqual(['NC0107']);
    expect(errors('.tensor s sbuf fp8_e4m3 [128, 70000]\nvector.tensor_copy s, s').map((d) => d.code)).toEqual(['NC0104', 'NC0301', 'NC0104', 'NC0301']);
    expect(at('vector.bn_stats f[:, 0:6], f[:, 0:1024]').map((d) => d.code)).toEqual(['NC0302']);
  });

  it('GpSimd reaches SBUF only; DMA does not touch PSUM', () => {
    expect(at('gpsimd.memset ps[:, 0:8], value=0').map((d) => d.code)).toEqual(['NC0201']);
    expect(at('dma.copy ps[:, 0:8], f[:, 0:8]').map((d) => d.code)).toEqual(['NC0201']);
    expect(at('dma.copy f[:, 0:8], H[:, 0:8]').map((d) => d.code)).toEqual(['NC0401']);
  });

  it('input and output partition counts match (cross-partition movement only as the guide allows)', () => {
    expect(at('vector.tensor_copy f[0:64, 0:8], a[0:32, 0:8]').map((d) => d.code)).toEqual(['NC0310']);
  });

  it('activation bias is a per-partition tensor, scale may be a constant', () => {
    expect(at('scalar.activation f[:, 0:8], f[:, 0:8], func=exp, bias=0.5').map((d) => d.code)).toEqual(['NC0316']);
    expect(at('scalar.activation f[:, 0:8], f[:, 0:8], func=exp, bias=f[:, 0:2]').map((d) => d.code)).toEqual(['NC0312']);
    expect(at('scalar.activation f[:, 0:8], f[:, 0:8], func=expo').map((d) => d.code)).toEqual(['NC0046']);
  });

  it('syntax and name errors carry file:line:col', () => {
    const d = errors('\n  vector.tensor_copy f[0:8, 0:8], q[0:8]\n.tensor f sbuf fp32 [8, 8]\nbogus.op f\nvector.tensor_copy f[0:8 0:8], f');
    expect(d.map((x) => [x.code, (x.span as { line: number }).line, (x.span as { column: number }).column])).toEqual([
      ['NC0030', 2, 22],
      ['NC0040', 4, 1],
      ['NC0001', 5, 26],
    ]);
  });

  it('SBUF/PSUM tensors must fit a partition', () => {
    expect(errors('.tensor s sbuf bf16 [128, 100000]').map((d) => d.code)).toEqual(['NC0107']);
    expect(errors('.tensor s sbuf bf16 [129, 8]').map((d) => d.code)).toEqual(['NC0101']);
  });
});
