/**
 * The hand-written sample programs (samples/systolic/*.tasm) run on the
 * machine and checked against the reference written here from the spec: a
 * fully connected layer, a two-layer MLP with a SIMD ReLU, a convolution by
 * im2col with accumulation, and a ReLU alone. Data are deterministic and
 * include values that saturate.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { assembleText, buildMachine, parseArchText, type ImageParts } from '../src/index.js';
import { refMac } from './reference.js';

const SAMPLES = fileURLToPath(new URL('../../../samples/systolic/', import.meta.url));
const arch = parseArchText(readFileSync(SAMPLES + 'arch4.tarch', 'utf8'), 'arch4.tarch');
const N = 4;
const sat = (v: number) => Math.max(-32768, Math.min(32767, v));

/** Deterministic fixed-point values (raw FP16BP8 integers), a few large enough to saturate. */
function values(seed: number, count: number, big = false): number[] {
  let s = seed;
  return Array.from({ length: count }, () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    const v = (s % 1025) - 512; // -2.0 .. 2.0
    return big && s % 7 === 0 ? v * 60 : v;
  });
}

function le16(v: number[]): Uint8Array {
  const b = new Uint8Array(v.length * 2);
  v.forEach((x, i) => { b[i * 2] = x & 255; b[i * 2 + 1] = (x >> 8) & 255; });
  return b;
}

function run(file: string, dram0: number[], dram1: number[], outBase: number, outVectors: number) {
  const program = assembleText(readFileSync(SAMPLES + file, 'utf8'), file, arch).bytes;
  const parts: ImageParts = {
    arch, program, programOffset: 0, inputs: [], outputs: [], model: file,
    data: [{ space: 'dram0', address: 0, data: le16(dram0), name: 'x' }, { space: 'dram1', address: 0, data: le16(dram1), name: 'w' }],
  };
  const m = buildMachine(parts, file);
  m.runAll();
  const out: number[][] = [];
  for (let v = 0; v < outVectors; v++) out.push(Array.from(m.dram0.subarray((outBase + v) * N, (outBase + v + 1) * N)));
  return { out, m };
}

/** Reference layer: rows[0] = bias, rows[k] = weights of feature k-1; the chain of Tensil MACs in row order. */
function layer(x: number[], rows: number[][]): number[] {
  return Array.from({ length: N }, (_, j) => {
    let s = refMac(256, rows[0]![j]!, 0);
    for (let k = 1; k <= N; k++) s = refMac(x[k - 1]!, rows[k]![j]!, s);
    return s;
  });
}
const vec = (flat: number[], i: number) => flat.slice(i * N, i * N + N);
const rowsOf = (flat: number[], first: number) => Array.from({ length: N + 1 }, (_, k) => vec(flat, first + k));

describe('sample programs', () => {
  test('fully connected layer', () => {
    const x = values(1, 3 * N, true);
    const w = values(2, 5 * N);
    x.splice(0, 2, 32767, 32767); // 128.0 times the 2.0 weights below: the chain saturates
    w.splice(N, 2, 512, 512);
    const { out } = run('fc.tasm', x, w, 8, 3);
    expect(out).toEqual([0, 1, 2].map((i) => layer(vec(x, i), rowsOf(w, 0))));
    expect(out.flat().some((v) => v === 32767 || v === -32768)).toBe(true); // the big inputs saturated
  });

  test('two-layer MLP with a SIMD ReLU between the layers', () => {
    const x = values(3, 3 * N);
    const w = values(4, 10 * N);
    const { out, m } = run('mlp.tasm', x, w, 8, 3);
    const expected = [0, 1, 2].map((i) => layer(layer(vec(x, i), rowsOf(w, 0)).map((v) => Math.max(v, 0)), rowsOf(w, 5)));
    expect(out).toEqual(expected);
    expect(m.hazardCount).toBe(0);
  });

  test('convolution by im2col, two input channels accumulated', () => {
    const img = values(5, 2 * 9); // 2 channels of 3x3
    const taps = values(6, 10 * N);
    taps.splice(5 * N, N, 0, 0, 0, 0); // the second weight block's bias row is zero
    // im2col: for output position (r, c) and channel ch, the 2x2 patch in row-major order
    const patches: number[] = [];
    for (let ch = 0; ch < 2; ch++)
      for (let r = 0; r < 2; r++) for (let c = 0; c < 2; c++) patches.push(img[ch * 9 + r * 3 + c]!, img[ch * 9 + r * 3 + c + 1]!, img[ch * 9 + (r + 1) * 3 + c]!, img[ch * 9 + (r + 1) * 3 + c + 1]!);
    const { out } = run('conv.tasm', patches, taps, 8, 4);
    const expected = [0, 1, 2, 3].map((p) => {
      const a = layer(vec(patches, p), rowsOf(taps, 0));
      const b = layer(vec(patches, 4 + p), rowsOf(taps, 5));
      return a.map((v, j) => sat(v + b[j]!));
    });
    expect(out).toEqual(expected);
  });

  test('MatMul accumulate saturates the sum in the accumulator (each channel alone already at the limit)', () => {
    // Every patch value 127.99 (32767) against taps of 2.0 (512): each channel's layer saturates at +32767 (row 0 of
    // each block: bias 0), and accumulating the second channel onto the first must stay at +32767, not 65534;
    // the negated taps give -32768 the same way.
    for (const [tap, want] of [[512, 32767], [-512, -32768]] as const) {
      const patches = Array(8 * N).fill(32767);
      const taps = Array.from({ length: 10 * N }, (_, i) => (i % (5 * N) < N ? 0 : tap)); // rows 0 and 5: zero bias
      const { out } = run('conv.tasm', patches, taps, 8, 4);
      expect(out).toEqual(Array.from({ length: 4 }, () => Array(N).fill(want)));
    }
  });

  test('SIMD ReLU', () => {
    const x = values(7, 4 * N, true);
    const { out } = run('relu.tasm', x, [], 8, 4);
    expect(out).toEqual([0, 1, 2, 3].map((i) => vec(x, i).map((v) => Math.max(v, 0))));
  });

  test('a DataMove from the accumulators right after a SIMD write is reported with its PC, waits, and reads the written value', () => {
    const x = values(8, 4 * N, true);
    const go = (gap: string) => {
      const src = readFileSync(SAMPLES + 'relu.tasm', 'utf8').replace(/NoOp\nNoOp\nDataMove flow=acc_to_local local=8 acc=0 size=4/, `${gap}DataMove flow=acc_to_local local=8 acc=3 size=1`);
      const program = assembleText(src, 'hazard.tasm', arch).bytes;
      const m = buildMachine({ arch, program, programOffset: 0, inputs: [], outputs: [], model: 'h', data: [{ space: 'dram0', address: 0, data: le16(x), name: 'x' }] }, 'hazard.tasm');
      m.runAll();
      return m;
    };
    const bad = go('');
    expect(bad.hazards).toEqual([{ pc: 7, simdPc: 6 }]);
    expect(Array.from(bad.local.subarray(8 * N, 9 * N))).toEqual(vec(x, 3).map((v) => Math.max(v, 0)));
    const ok = go('NoOp\nNoOp\n');
    expect(ok.hazards).toEqual([]);
    expect(Array.from(ok.local.subarray(8 * N, 9 * N))).toEqual(vec(x, 3).map((v) => Math.max(v, 0)));
  });

  test('FP32BP16: the fully connected layer on a 32-bit architecture', () => {
    const a32 = { ...arch, data_type: 'FP32BP16' as const };
    const program = assembleText(readFileSync(SAMPLES + 'fc.tasm', 'utf8'), 'fc.tasm', a32).bytes;
    const x = values(9, 3 * N).map((v) => v * 300);
    const w = values(10, 5 * N).map((v) => v * 300);
    const le32 = (v: number[]) => { const b = Buffer.alloc(v.length * 4); v.forEach((n, i) => b.writeInt32LE(n, i * 4)); return new Uint8Array(b); };
    const m = buildMachine({ arch: a32, program, programOffset: 0, inputs: [], outputs: [], model: 'fc32', data: [{ space: 'dram0', address: 0, data: le32(x), name: 'x' }, { space: 'dram1', address: 0, data: le32(w), name: 'w' }] }, 'fc.tasm');
    m.runAll();
    const expected = [0, 1, 2].map((i) => Array.from({ length: N }, (_, j) => {
      let s = refMac(65536, w[j]!, 0, 32, 16);
      for (let k = 1; k <= N; k++) s = refMac(x[i * N + k - 1]!, w[k * N + j]!, s, 32, 16); // products < 2^40: exact in doubles
      return s;
    }));
    expect([0, 1, 2].map((i) => Array.from(m.dram0.subarray((8 + i) * N, (9 + i) * N)))).toEqual(expected);
  });

  test('Configure: the tracepoint records the cycle its PC issues; the timeout counts longer instructions', () => {
    const src = `Configure register=tracepoint value=3\nConfigure register=timeout value=10\n${readFileSync(SAMPLES + 'fc.tasm', 'utf8')}`;
    const program = assembleText(src, 'cfg.tasm', arch).bytes;
    const m = buildMachine({ arch, program, programOffset: 0, inputs: [], outputs: [], model: 'cfg', data: [] }, 'cfg.tasm');
    const starts: number[] = [];
    const lengths: number[] = [];
    m.onInstruction = (_pc, _op, _f, start, end) => { starts.push(start); lengths.push(end - start); };
    m.runAll();
    expect(m.tracepointCycle).toBe(starts[3]);
    expect(m.timeouts).toBe(lengths.slice(2).filter((n) => n > 10).length); // from the instruction after the Configure
    expect(m.timeouts).toBeGreaterThan(0);
    expect(m.config[10]).toBe(8); // program counter register: instructions completed
  });
});
