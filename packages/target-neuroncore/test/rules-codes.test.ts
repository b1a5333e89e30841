/**
 * The rule codes beyond issue 14's list (operand shape and DMA rules), each with a violating
 * program and its exact diagnostic (code, position, caret length, message, section).
 */
import { describe, expect, it } from 'vitest';
import { assemble } from './harness.js';

const G = 'neuroncore-v2-architecture.md §';
const ACCESS = `${G}Accessing SBUF/PSUM tensors using compute engines`;
const VEC = `${G}Vector Engine (Layout & Tile Size)`;
const XV = `${G}Vector Engine (Cross-partition Data Movement)`;
const DMA = `${G}Data movement between HBM and SBUF using DMAs`;
const d = (src: string) =>
  assemble(src).diagnostics.map((x) => {
    const s = x.span as { line: number; column: number; length: number };
    return [x.code, s.line, s.column, s.length, x.message, x.spec];
  });

describe('operand rules', () => {
  it('NC0103: at most four free dimensions', () => {
    const m = 'access of `s` has 5 free dimensions; an instruction operand has at most 4';
    expect(d('.tensor s sbuf fp32 [128, 2, 2, 2, 2, 2]\nvector.tensor_copy s[:, :, :, :, :, 0:2], s[:, :, :, :, :, 0:2]')).toEqual([
      ['NC0103', 2, 20, 21, m, ACCESS],
      ['NC0103', 2, 43, 21, m, ACCESS],
    ]);
  });

  it('NC0105 element alignment; NC0106 inside the partition', () => {
    expect(d('.tensor s sbuf fp32 [128, 8], offset=2\nvector.memset s, value=0')).toEqual([['NC0105', 2, 15, 1, 'access of `s` at byte offset 2 is not aligned to its 4-byte elements', ACCESS]]);
    expect(d('.tensor s sbuf fp32 [128, 8], offset=196600\nvector.memset s, value=0')).toEqual([
      ['NC0107', 1, 9, 1, '`s` needs bytes 196600..196631 of each partition; a SBUF partition has 196608', `${G}NeuronCore-v2 Compute Engines (SBUF 192KiB / PSUM 16KiB per partition)`],
      ['NC0106', 2, 15, 1, 'access of `s` reaches bytes 196600..196631 of a 196608-byte SBUF partition', `${G}NeuronCore-v2 Compute Engines (SBUF/PSUM geometry)`],
    ]);
  });

  it('NC0206 MultiplyMoving needs a LoadStationary; NC0208 transpose shape', () => {
    expect(d('.tensor a sbuf bf16 [128, 128]\n.tensor ps psum fp32 [128, 128]\ntensor.multiply_moving ps, a')).toEqual([
      ['NC0206', 3, 1, 22, 'MultiplyMoving needs a stationary matrix loaded by an earlier `tensor.load_stationary`', `${G}Tensor Engine`],
    ]);
    expect(d('.tensor a sbuf bf16 [128, 64]\n.tensor ps psum fp32 [128, 64]\ntensor.transpose ps, a')).toEqual([
      ['NC0208', 3, 18, 2, 'transposing [128, 64] gives [64, 128]; the output is [128, 64]', `${G}Tensor Engine (Alternative Use Case)`],
    ]);
  });

  it('NC0303 bn_stats/bn_aggr shapes; NC0313 element-wise sizes', () => {
    expect(d('.tensor x sbuf fp32 [128, 512]\nvector.bn_stats x[:, 0:5], x[:, 0:512]\nvector.bn_aggr x[:, 0:2], x[:, 0:7]\nvector.bn_aggr x[:, 0:3], x[:, 0:6]')).toEqual([
      ['NC0303', 2, 17, 9, 'bn_stats writes 6 elements per partition (count, mean, variance*count of even and odd elements); the output has 5', VEC],
      ['NC0303', 3, 27, 9, 'bn_aggr input holds (count, mean, variance*count) triples; 7 elements per partition is not a multiple of 3', VEC],
      ['NC0303', 4, 16, 9, 'bn_aggr writes 2 elements per partition (mean, variance); the output has 3', VEC],
    ]);
    expect(d('.tensor x sbuf fp32 [128, 512]\nvector.tensor_tensor x[:, 0:8], x[:, 0:8], x[:, 0:9], op=add')).toEqual([['NC0313', 2, 44, 9, 'operand has 9 elements per partition, the output 8', VEC]]);
  });

  it('NC0314 VectorE 32x32 transpose; NC0315 shuffle masks and groups', () => {
    const zeros = Array.from({ length: 32 }, () => 0).join(', ');
    expect(d(`.tensor x sbuf fp32 [128, 512]\nvector.transpose x[:, 0:32], x[:, 0:16]\nvector.shuffle x[0:32, 0:8], x[0:32, 0:8], mask=[1, 2]\nvector.shuffle x[0:16, 0:8], x[0:16, 0:8], mask=[${zeros}]`)).toEqual([
      ['NC0314', 2, 30, 10, 'VectorE transposes 32x32 blocks inside each group of 32 partitions: input and output must be [32k, 32]', XV],
      ['NC0315', 3, 44, 1, 'a shuffle mask has 32 source partition ids (0..31, modulo 32)', XV],
      ['NC0315', 4, 30, 12, 'a shuffle works on whole groups of 32 partitions', XV],
    ]);
  });
});

describe('DMA rules', () => {
  it('NC0402 element counts, NC0403 rows to partitions, NC0404 queues', () => {
    expect(d('.tensor H hbm fp32 [128, 8]\n.tensor x sbuf fp32 [128, 8]\ndma.copy x, H[0:64, :]\ndma.copy x[0:64, 0:8], H[0:128, 0:4]\ndma.copy x, H, queue=16\ndma.copy x, H, queues=17\ndma.copy x, H, qrange=[5, 2]')).toEqual([
      ['NC0402', 3, 13, 10, 'the DMA source has 64x8 elements, the destination 128x8', DMA],
      ['NC0403', 4, 24, 13, 'the DMA source has 128 rows and the destination 64 partitions; rows map to partitions one to one', DMA],
      ['NC0404', 5, 16, 1, 'DMA queue 16 does not exist (0..15)', `${DMA}: 16 parallel DMA engines`],
      ['NC0404', 6, 16, 1, 'queues=17: there are 16 DMA queues', DMA],
      ['NC0404', 7, 16, 1, '`qrange` is [first, last] with 0 <= first <= last <= 15', DMA],
    ]);
  });

  it('a DMA may start at any partition (the start-partition rule binds compute engines only)', () => {
    expect(d('.tensor H hbm fp32 [16, 8]\n.tensor x sbuf fp32 [128, 8]\ndma.copy x[16:32, :], H')).toEqual([]);
    expect(d('.tensor x sbuf fp32 [128, 8]\nvector.memset x[16:32, :], value=0').map((x) => x[0])).toEqual(['NC0102']);
  });
});
