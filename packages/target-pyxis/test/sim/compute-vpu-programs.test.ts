/**
 * Random VPU programs (every opcode, every operand source, pred_en, GPR writes, OutFIFO pushes, InFIFO pops, counter
 * controls and the VI's counter-zero override) executed by the model and by the reference interpreter of vpu-ref.ts
 * (written from grammars/pyxis/vpu_instr.json, not from the model): the same instruction waits for the same FIFO,
 * and after every instruction the GPRs, predicates, counter and every pushed row are identical. This pins the
 * model's results bit for bit while its lane loops are restructured for speed (issue 23). Larger runs:
 * VPU_PROGRAM_RUNS=500.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultSimConfig } from '../../src/sim/config.js';
import { Vpu, VpuOp, VpuWait } from '../../src/sim/uie/compute/vpu.js';
import { fpOp } from '../../src/sim/uie/compute/vpuLanes.js';
import { CNTR, fadd, fmul, LANES, NAN, OPS, RefVpu, refFp, SRC, type RefInstr } from './vpu-ref.js';

const RUNS = Number(process.env.VPU_PROGRAM_RUNS ?? 40);
const BIT_OPS = ['AND', 'OR', 'XOR', 'SHL', 'SHR'];

/** FP16 / Int16 codes: mostly arbitrary, some moderate values near 1, some extremes (max, tiny, NaN, zero). */
const code = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 0, max: 0xffff }) },
  { weight: 4, arbitrary: fc.tuple(fc.boolean(), fc.integer({ min: 10, max: 20 }), fc.integer({ min: 0, max: 1023 })).map(([s, e, m]) => (s ? 0x8000 : 0) | (e << 10) | m) },
  { weight: 1, arbitrary: fc.constantFrom(0, NAN, 0x7fff, 0xffff, 0x0001, 0x8001, 0x3c00, 0xbc00, 0x0400) },
);

const src = fc.constantFrom(SRC.GPR, SRC.GPR, SRC.GPR, SRC.IMM, SRC.IN_FIFO, SRC.CNTR);
const instr: fc.Arbitrary<RefInstr> = fc
  .record({
    opcode: fc.integer({ min: 0, max: OPS.length - 1 }),
    dtype: fc.integer({ min: 0, max: 1 }),
    rd: fc.integer({ min: 0, max: 5 }),
    rs1: fc.integer({ min: 0, max: 5 }),
    rs2: fc.integer({ min: 0, max: 5 }),
    src1_sel: src,
    src2_sel: src,
    wr_gpr_en: fc.integer({ min: 0, max: 1 }),
    out_fifo_push: fc.constantFrom(0, 0, 1),
    in_fifo_pop: fc.constantFrom(0, 0, 1),
    pred_en: fc.constantFrom(0, 0, 1),
    cmp_cond: fc.integer({ min: 0, max: 5 }),
    lut_idx: fc.integer({ min: 0, max: 3 }),
    eb_adj: fc.integer({ min: -20, max: 20 }),
    cntr_ctrl: fc.integer({ min: 0, max: 3 }),
    imm: code,
  })
  // the bit operations are Int16-only (FP16 is a program error, tested in compute-vpu-isa.test.ts)
  .map((i) => (BIT_OPS.includes(OPS[i.opcode]!) ? { ...i, dtype: 1 } : i));

const FIELDS = ['opcode', 'dtype', 'rd', 'rs1', 'rs2', 'src1_sel', 'src2_sel', 'wr_gpr_en', 'out_fifo_push', 'in_fifo_pop', 'pred_en', 'cmp_cond', 'lut_idx', 'eb_adj', 'cntr_ctrl', 'imm'] as const;

describe('VPU: random programs against the reference interpreter (every opcode, source and control bit)', () => {
  // tableAfter 0: every instruction eligible for a result table (Vpu.table) runs from one from its first execution
  for (const tableAfter of [Vpu.tableAfter, 0])
    it(`same waits, same GPRs / predicates / counter after every instruction, same OutFIFO rows (tables after ${tableAfter} executions)`, () => {
      const saved = Vpu.tableAfter;
      Vpu.tableAfter = tableAfter;
      try {
        fc.assert(
          fc.property(
            fc.array(instr, { minLength: 1, maxLength: 24 }),
            fc.array(fc.array(code, { minLength: LANES, maxLength: LANES }), { minLength: 1, maxLength: 6 }),
            fc.array(code, { minLength: 6 * LANES, maxLength: 6 * LANES }),
            fc.array(code, { minLength: 2048, maxLength: 2048 }),
            fc.integer({ min: 1, max: 4 }),
            fc.integer({ min: 0, max: 0xffff }),
            (prog, inRows, gprInit, lutInit, repeats, cntr0) => {
              const depth = defaultSimConfig().uie.vpu_fifo_depth;
              const lut = Uint16Array.from(lutInit);
              const v = new Vpu(depth);
              const ref = new RefVpu(depth, lut);
              v.lut.set(lut);
              for (let r = 0; r < 6; r++)
                for (let l = 0; l < LANES; l++) {
                  v.gpr[r * LANES + l] = gprInit[r * LANES + l]!;
                  ref.gpr[r]![l] = gprInit[r * LANES + l]!;
                }
              for (let l = 0; l < LANES; l++) v.pred[l] = ref.pred[l] = gprInit[l]! & 1;
              v.written = 0xffff;
              v.cntr = ref.cntr = cntr0;
              prog.forEach((ins, pc) => {
                for (const f of FIELDS) v.imem[f][pc] = ins[f];
              });
              let fed = 0;
              const out: Uint16Array[] = [];
              const row = new Uint16Array(LANES);
              const drain = () => {
                while (v.popOut(row)) out.push(row.slice());
              };
              // the program `repeats` times (the counter-zero override on the last instruction of every other pass)
              for (let rep = 0; rep < repeats; rep++)
                for (let pc = 0; pc < prog.length; pc++) {
                  const ins = prog[pc]!;
                  for (;;) {
                    const w = v.waitsFor(pc);
                    const rw = ref.waits(ins);
                    expect(w, `pc ${pc}: wait`).toBe(rw === 'in' ? VpuWait.InFifo : rw === 'out' ? VpuWait.OutFifo : VpuWait.None);
                    if (rw === undefined) break;
                    if (rw === 'out') {
                      drain();
                      ref.outQ.length = 0;
                      continue;
                    }
                    if (fed === inRows.length) return; // the input stream is over: the program would wait for good
                    const r = inRows[fed++]!;
                    expect(v.pushIn(Uint16Array.from(r))).toBe(true);
                    ref.inQ.push(r.slice());
                  }
                  const force = pc === prog.length - 1 && rep % 2 === 1;
                  const want = ref.outQ.length;
                  expect(v.execute(pc, force), `pc ${pc}`).toBeUndefined();
                  ref.exec(ins, force);
                  for (let r = 0; r < 6; r++) expect(Array.from(v.gpr.subarray(r * LANES, (r + 1) * LANES)), `pc ${pc} (${OPS[ins.opcode]}) r${r}`).toEqual(ref.gpr[r]);
                  expect(Array.from(v.pred), `pc ${pc} pred`).toEqual(ref.pred);
                  expect(v.cntr, `pc ${pc} cntr`).toBe(ref.cntr);
                  expect(v.inCount, `pc ${pc} InFIFO`).toBe(ref.inQ.length);
                  if (ref.outQ.length > want) {
                    drain();
                    expect(out.length).toBeGreaterThan(0);
                    expect(Array.from(out[out.length - 1]!), `pc ${pc} (${OPS[ins.opcode]}) pushed row`).toEqual(ref.outQ[ref.outQ.length - 1]);
                    ref.outQ.length = 0;
                  }
                }
              expect(v.instructions).toBeGreaterThan(0);
            },
          ),
          { numRuns: RUNS },
        );
      } finally {
        Vpu.tableAfter = saved;
      }
    });

  it('the counter as an operand: FP16 lanes see its signed value converted, Int16 lanes its bits', () => {
    const v = new Vpu(defaultSimConfig().uie.vpu_fifo_depth);
    v.cntr = 0xfffe; // -2
    const m = v.imem;
    m.opcode[0] = OPS.indexOf('MOV');
    m.src1_sel[0] = SRC.CNTR;
    m.rd[0] = 1;
    m.wr_gpr_en[0] = 1;
    m.cntr_ctrl[0] = CNTR.CNTR_CTRL_INCR;
    v.execute(0, false);
    expect(v.gpr[LANES]).toBe(0xc000); // -2.0 at EB -15
    m.dtype[0] = 1;
    v.execute(0, false);
    expect(v.gpr[LANES]).toBe(0xffff); // -1 after the increment
  });
});

describe('VPU: FP16 MUL / ADD lane functions over every code x (issue 23: integer MUL)', () => {
  it('fpOp(MUL / ADD, x, y) for all 65,536 x and edge and random y equals the reference', () => {
    const ys = [0, NAN, 0x7fff, 0xffff, 0x0001, 0x8001, 0x3c00, 0x0400, 0x3fff, 0x4000, 0x3555, 0xc7ff];
    let a = 3;
    for (let i = 0; i < 4; i++) ys.push((a = (Math.imul(a, 1103515245) + 12345) >>> 0) >>> 16);
    for (const y of ys)
      for (let x = 0; x < 1 << 16; x++) {
        const got = fpOp(VpuOp.MUL, x, y, 0, 0, undefined as unknown as Vpu, 0, 0, 0);
        if (got !== fmul(x, y)) expect(got, `MUL ${x.toString(16)} * ${y.toString(16)}`).toBe(fmul(x, y));
        const sum = fpOp(VpuOp.ADD, x, y, 0, 0, undefined as unknown as Vpu, 0, 0, 0);
        if (sum !== fadd(x, y)) expect(sum, `ADD ${x.toString(16)} + ${y.toString(16)}`).toBe(fadd(x, y));
      }
  });
});

describe('VPU: LUT result tables shared between VPUs by LUT contents (issue 23)', () => {
  it('VPUs with equal LUTs share one table, a VPU with other contents gets its own; every lane equals the reference', () => {
    const saved = Vpu.tableAfter;
    Vpu.tableAfter = 0;
    try {
      let seed = 7;
      const rnd16 = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 16) & 0x7bff;
      const lutA = Uint16Array.from({ length: 2048 }, rnd16);
      const lutB = lutA.slice();
      for (let e = 512; e < 1024; e++) lutB[e] = rnd16(); // LUT 1 differs, LUTs 0, 2, 3 equal
      const x = Uint16Array.from({ length: LANES }, (_, l) => (l * 509 + 3) & 0xffff);
      const run = (lut: Uint16Array, li: number) => {
        const v = new Vpu(defaultSimConfig().uie.vpu_fifo_depth);
        v.lut.set(lut);
        v.gpr.set(x, LANES);
        v.written = 0b10;
        const m = v.imem;
        m.opcode[0] = VpuOp.LUT;
        m.lut_idx[0] = li;
        m.rd[0] = 2;
        m.rs1[0] = 1;
        m.wr_gpr_en[0] = 1;
        expect(v.execute(0, false)).toBeUndefined();
        const got = Array.from(v.gpr.subarray(2 * LANES, 3 * LANES));
        expect(got, `LUT ${li}`).toEqual(Array.from(x, (a) => refFp('LUT', a, 0, 0, 0, 0, 0, lut, li).d));
        return (v as unknown as { tabs: Array<Uint16Array | undefined> }).tabs[0];
      };
      for (const li of [1, 2]) {
        const ta = run(lutA, li);
        const tb = run(lutB, li);
        const ta2 = run(lutA, li);
        expect(ta).toBeDefined();
        expect(ta2, `LUT ${li}: equal contents, one table`).toBe(ta);
        if (li === 1) expect(tb, 'LUT 1: other contents, another table').not.toBe(ta);
        else expect(tb, `LUT ${li}: equal contents in both, one table`).toBe(ta);
      }
    } finally {
      Vpu.tableAfter = saved;
    }
  });
});
