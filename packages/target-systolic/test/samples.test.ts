/**
 * Performance samples (spec §5): the valid/ready pairs of the decoder buses per
 * the phases of the cycle model, checked at hand-picked cycles of a small
 * program whose instruction timings are worked out here from
 * grammars/systolic/timing.json (decode 1, DRAM latency 64, one cycle per
 * vector, fill/drain 2 x 4 rows, accumulator latency 2, SIMD pipeline 2).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { assembleText, buildMachine, parseArchText } from '../src/index.js';

const S = fileURLToPath(new URL('../../../samples/systolic/', import.meta.url));
const arch = parseArchText(readFileSync(S + 'arch4.tarch', 'utf8'), 'arch4.tarch');

// bit numbers of spec §5's table
const V = { array: 32, acc: 34, dataflow: 36, dram1: 38, dram0: 40, portB: 42, portA: 44, instr: 46 } as const;
type Bus = keyof typeof V;
const ALL: Bus[] = ['array', 'acc', 'dataflow', 'dram1', 'dram0', 'portB', 'portA'];
/** A word from the PC and, per bus, 'vr' (valid + ready), 'v', 'r' or '' ; units not named are idle (ready). */
function word(pc: number, buses: Partial<Record<Bus, string>>): bigint {
  let w = BigInt(pc);
  for (const b of [...ALL, 'instr' as Bus]) {
    const s = buses[b] ?? (b === 'instr' ? 'v' : 'r');
    if (s.includes('v')) w |= 1n << BigInt(V[b]);
    if (s.includes('r')) w |= 1n << BigInt(V[b] + 1);
  }
  return w;
}

const PROGRAM = (interval: number) => `Configure register=sample_interval value=${interval}
DataMove flow=dram1_to_local local=0 dram1=0 size=2
LoadWeight local=0 size=2
MatMul local=0 acc=0 size=2
SIMD read write op=Max left=0 right=0 dest=0 write_addr=0 read_addr=0
NoOp`;

function run(interval: number) {
  const m = buildMachine({ arch, program: assembleText(PROGRAM(interval), 's.tasm', arch).bytes, programOffset: 0, inputs: [], outputs: [], model: 's', data: [] }, 's.tasm');
  const cycles = m.runAll();
  const words = new Map<number, bigint>();
  // interval 1: sample k is cycle 1 + k (sampling starts when the Configure, cycle 0, completes)
  for (let k = 0; k < m.sampler.count; k++) words.set(1 + k * interval, m.sampler.word(k));
  return { m, cycles, words };
}

test('valid/ready per bus through DRAM wait, transfer, array work and drain, SIMD pipeline', () => {
  // Configure [0,1); DataMove 1 + 64 + 2 = 67 [1,68); LoadWeight 1 + 2 [68,71); MatMul 1 + 2 + 8 + 2 = 13 [71,84); SIMD 3 [84,87); NoOp [87,88)
  const { cycles, words, m } = run(1);
  expect(cycles).toBe(88);
  expect(m.sampler.count).toBe(87);
  const at = (c: number) => words.get(c);
  expect(at(1)).toBe(word(1, { instr: 'vr' })); // the decoder takes the DataMove
  expect(at(2)).toBe(word(1, { dram1: 'v' })); // the AXI round trip: DRAM1 valid, not ready
  expect(at(65)).toBe(word(1, { dram1: 'v' }));
  expect(at(66)).toBe(word(1, { dram1: 'vr', portB: 'vr' })); // first vector into port B
  expect(at(67)).toBe(word(1, { dram1: 'vr', portB: 'vr' }));
  expect(at(68)).toBe(word(2, { instr: 'vr' }));
  expect(at(69)).toBe(word(2, { array: 'vr', portB: 'vr' })); // LoadWeight reads through the weights port
  expect(at(72)).toBe(word(3, { array: 'vr', acc: 'vr', dataflow: 'vr', portA: 'vr' }));
  expect(at(73)).toBe(word(3, { array: 'vr', acc: 'vr', dataflow: 'vr', portA: 'vr' }));
  expect(at(74)).toBe(word(3, { array: '', acc: '', dataflow: '', portA: '' })); // fill/drain: busy, nothing to send
  expect(at(83)).toBe(word(3, { array: '', acc: '', dataflow: '', portA: '' }));
  expect(at(85)).toBe(word(4, { acc: 'vr' }));
  expect(at(86)).toBe(word(4, { acc: '' })); // SIMD pipeline
  expect(at(87)).toBe(word(5, { instr: 'vr' })); // the last instruction: nothing waits behind it
  expect(at(86)! >> 48n).toBe(0n); // bits 48-63 unused
});

test('the interval counts from the Configure; the per-bus summary counts the stalls', () => {
  const { m, words } = run(5);
  expect(m.sampler.count).toBe(18); // cycles 1, 6, ..., 86
  expect(words.get(86)).toBe(word(4, { acc: '' }));
  const s = m.sampler.summary();
  // DRAM1: idle (ready) at 1; 6 .. 61 in the round trip (2..65): 12 valid, not ready; 66 a transfer; idle at 71 .. 86
  expect(s['dram1']).toEqual({ valid: 13, ready: 6, stalled: 12 });
  // the instruction bus is valid throughout and ready only where an instruction issues: 1 (DataMove) and 71 (MatMul)
  expect(s['instruction']).toEqual({ valid: 18, ready: 2, stalled: 16 });
});
