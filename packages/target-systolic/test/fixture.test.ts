/**
 * The real Tensil ResNet-20 (ZCU104, ultra RAM): every instruction decodes,
 * and the machine's memories equal the independent reference (reference.ts)
 * after a prefix of the program (the whole network with SYSTOLIC_FULL=1).
 * The fixture lives outside the repository; the tests skip without it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { assembleText, decodeProgram, imageFromTModel, imageParts, buildMachine, disassembleProgram, simulate, readOutput, deriveLayout } from '../src/index.js';
import { RefMachine, refDecode, refLayout, type RefArch } from './reference.js';

const DIR = fileURLToPath(new URL('../../../../shared/fixtures/tensil/resnet20-zcu104-uram/', import.meta.url));
const MODEL = DIR + 'resnet20v2_cifar_onnx_zcu104_uram.tmodel';
const have = existsSync(MODEL);
if (!have) console.warn(`SKIP: Tensil fixture not found at ${DIR} (tests of the real ResNet-20 skipped)`);

/** A deterministic synthetic 32x32 RGB image encoded as the README says: byte/255 minus the channel mean, lanes 0-2. */
export function syntheticImage(N = 32): Float32Array {
  const px = new Float64Array(1024 * 3);
  for (let p = 0; p < 1024; p++) for (let c = 0; c < 3; c++) px[p * 3 + c] = (((p % 32) * 7 + Math.floor(p / 32) * 13 + c * 71) % 256) / 255;
  const out = new Float32Array(1024 * N);
  for (let c = 0; c < 3; c++) {
    let mean = 0;
    for (let p = 0; p < 1024; p++) mean += px[p * 3 + c]!;
    mean /= 1024;
    for (let p = 0; p < 1024; p++) out[p * N + c] = px[p * 3 + c]! - mean;
  }
  return out;
}

describe.skipIf(!have)('Tensil ResNet-20 fixture', () => {
  const text = have ? readFileSync(MODEL, 'utf8') : '{}';
  const image = have ? imageFromTModel(text, MODEL) : undefined;
  const parts = image ? imageParts(image, MODEL) : undefined;

  test('layout of the ZCU104 architecture: 9-byte instructions, operands 24/24/16 bits', () => {
    const L = deriveLayout(parts!.arch);
    // local 49152 -> 16 bits, accumulators 20480 -> 15, DRAM 2^21 -> 21, strides 8 -> 3 bits
    expect([L.operand0Bits, L.operand1Bits, L.operand2Bits, L.bytes]).toEqual([24, 24, 16, 9]);
    expect(refLayout(parts!.arch as RefArch).bytes).toBe(9);
    expect(parts!.program.length).toBe(451089);
  });

  test('every instruction decodes; the decoder agrees with the reference decoder field by field', () => {
    const p = decodeProgram(parts!.program, parts!.arch, MODEL);
    expect(p.count).toBe(451089 / 9);
    const ref = refDecode(parts!.program, parts!.arch as RefArch);
    for (let pc = 0; pc < p.count; pc++) {
      const r = ref[pc]!;
      if (r.opcode !== p.op[pc] || r.flags !== p.flags[pc] || r.addr0 !== p.a0[pc] || r.addr1 !== p.a1[pc] || r.op2 !== p.a2[pc] || r.stride0 !== p.s0[pc] || r.stride1 !== p.s1[pc])
        throw new Error(`instruction ${pc} differs: ${JSON.stringify(r)}`);
    }
    const dis = disassembleProgram(p, parts!.arch);
    expect(dis.split('\n')[1]).toBe('DataMove flow=dram1_to_local local=0 dram1=0 size=289');
    // the disassembly assembles back to the compiler's bytes, every one of them
    expect(Buffer.from(assembleText(dis, 'resnet.tasm', parts!.arch).bytes).equals(Buffer.from(parts!.program))).toBe(true);
  }, 180_000); // the shared front end parses the 50,121-line disassembly: ~5-14 s on the loaded 2-core machine

  const PREFIX = process.env['SYSTOLIC_FULL'] ? Infinity : 5620; // through the first conv, ReLU (SIMD Max), stores to DRAM0, local->acc(+) and the SIMD Multiply/Add
  test(`memories equal the reference after ${PREFIX === Infinity ? 'the whole network' : `${PREFIX} instructions`}`, () => {
    const m = buildMachine(parts!, MODEL);
    const ref = new RefMachine(parts!.arch as RefArch, m.dram0.length / 32, m.dram1.length / 32);
    const tdata = readFileSync(DIR + 'resnet20v2_cifar_onnx_zcu104_uram.tdata');
    for (let v = 0; v < tdata.length / 64; v++) for (let j = 0; j < 32; j++) ref.dram1[v]![j] = tdata.readInt16LE((v * 32 + j) * 2);
    const img = syntheticImage();
    for (let v = 0; v < 1024; v++)
      for (let j = 0; j < 32; j++) {
        // Java Math.round (half up) then saturate: the reference's own conversion
        const q = Math.max(-32768, Math.min(32767, Math.floor(img[v * 32 + j]! * 256 + 0.5)));
        ref.dram0[v]![j] = q;
        m.dram0[v * 32 + j] = q;
      }
    const instrs = refDecode(parts!.program, parts!.arch as RefArch);
    const n = Math.min(PREFIX, instrs.length);
    m.runAll(n);
    for (let pc = 0; pc < n; pc++) ref.step(instrs[pc]!);
    const cmp = (name: string, mine: Int32Array, theirs: number[][]) => {
      for (let v = 0; v < theirs.length; v++)
        for (let j = 0; j < 32; j++) if (mine[v * 32 + j] !== theirs[v]![j]) throw new Error(`${name}[${v}][${j}]: ${mine[v * 32 + j]} != reference ${theirs[v]![j]}`);
    };
    cmp('local', m.local, ref.local);
    cmp('acc', m.acc, ref.acc);
    cmp('dram0', m.dram0, ref.dram0);
    // the prefix did real work: the first layers wrote non-zero activations
    expect(m.acc.some((x) => x !== 0)).toBe(true);
  }, 600_000);

  test('the whole network runs and writes 10 finite logits', () => {
    const o = simulate({ parts: parts!, file: MODEL, inputs: new Map([['x:0', { dtype: 'float32', shape: [1024, 32], data: syntheticImage() }]]) });
    expect(o.stop).toBe('done');
    const logits = readOutput(o.machine, parts!.outputs[0]!);
    expect(logits.shape).toEqual([1, 32]);
    const l = Array.from(logits.data.slice(0, 10) as Float32Array);
    expect(l.every(Number.isFinite)).toBe(true);
    expect(new Set(l).size).toBeGreaterThan(5);
    expect(o.stats['macs']).toBeGreaterThan(5e7);
    expect(o.cycles).toBeGreaterThan(0);
    const segs = o.stats['segments'] as Array<{ cycles: number; macs: number }>;
    expect(segs.reduce((a, b) => a + b.cycles, 0)).toBe(o.cycles); // the program ends with the store of the logits
    expect(segs.reduce((a, b) => a + b.macs, 0)).toBe(o.stats['macs']);
  }, 120_000);
});
