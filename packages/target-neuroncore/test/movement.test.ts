/** Cross-partition movement and generated patterns against references written here. */
import { describe, expect, it } from 'vitest';
import { run } from './harness.js';

const X = Float32Array.from({ length: 64 * 32 }, (_, i) => i);
const io = (op: string, outShape = '[64, 32]', outDt = 'fp32') => `
.tensor X hbm fp32 [64, 32]
.tensor Y hbm ${outDt} ${outShape}
.tensor x sbuf fp32 [64, 32]
.tensor y sbuf ${outDt} ${outShape}
dma.copy x, X
${op}
dma.copy Y, y`;

describe('cross-partition movement', () => {
  it('VectorE 32x32 transpose inside each group of 32 partitions', () => {
    const y = run(io('vector.transpose y, x'), { X: { shape: [64, 32], data: X } }).out('Y');
    for (let g = 0; g < 2; g++) for (let i = 0; i < 32; i++) for (let j = 0; j < 32; j++) expect(y[(g * 32 + i) * 32 + j]).toBe(X[(g * 32 + j) * 32 + i]);
  });

  it('32-partition shuffle: output partition i takes source partition mask[i] of its group', () => {
    const mask = Array.from({ length: 32 }, (_, i) => (i * 7 + 3) % 32);
    const y = run(io(`vector.shuffle y, x, mask=[${mask.join(', ')}]`), { X: { shape: [64, 32], data: X } }).out('Y');
    for (let p = 0; p < 64; p++) for (let f = 0; f < 32; f++) expect(y[p * 32 + f]).toBe(X[((p & ~31) + mask[p % 32]!) * 32 + f]);
  });

  it('cross-half copy: partitions 0..63 of the input land on 64..127 of the output', () => {
    const src = `
.tensor X hbm fp32 [64, 8]
.tensor Y hbm fp32 [64, 8]
.tensor a sbuf fp32 [128, 8]
dma.copy a[0:64, :], X
vector.tensor_copy a[64:128, :], a[0:64, :]
dma.copy Y, a[64:128, :]`;
    const x = Float32Array.from({ length: 512 }, (_, i) => i * 0.5);
    expect(Array.from(run(src, { X: { shape: [64, 8], data: x } }).out('Y'))).toEqual(Array.from(x));
  });
});

describe('iota and affine_select', () => {
  it('iota: base + partition*channel_multiplier + sum(index*step), cast to int32', () => {
    const y = run(io('gpsimd.iota y, base=5, channel_multiplier=100, pattern=[32, 4, -1, 8]', '[64, 32]', 'int32'), {}).out('Y');
    for (let p = 0; p < 64; p++) for (let a = 0; a < 4; a++) for (let b = 0; b < 8; b++) expect(y[p * 32 + a * 8 + b]).toBe(5 + p * 100 + a * 32 - b);
  });

  it('affine_select keeps in where cmp(affine, 0) holds, else the fill value', () => {
    const y = run(io('gpsimd.affine_select y, x, channel_multiplier=1, pattern=[-1, 32], cmp=is_ge, value=-7.5'), { X: { shape: [64, 32], data: X } }).out('Y');
    for (let p = 0; p < 64; p++) for (let k = 0; k < 32; k++) expect(y[p * 32 + k]).toBe(p - k >= 0 ? X[p * 32 + k] : -7.5);
  });
});
