/**
 * fast-check round trips over every sequencer's tables:
 *  - random instructions (random op fields AND random raw control fields)
 *    -> encode -> disassemble -> assemble gives identical bytes;
 *  - random canonical IR -> assemble -> emit IR gives identical IR.
 */
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { encode, type CompiledField, type CompiledTable, type FieldValues } from '@pyxis/codec';
import { encodeFast } from '../../src/asm/fastcodec.js';
import { DiagnosticError, type Diagnostic } from '@pyxis/diagnostics';
import {
  assemble,
  assembleIr,
  buildObject,
  checkProgram,
  disassemble,
  emitIr,
  encodeProgram,
  encodeVpuProgram,
  irToText,
  vpuProgramsFromContainer,
  programsFromContainer,
  type IrModule,
  type Program,
  type SequencerInfo,
} from '@pyxis/target-pyxis/asm';
import { isa } from './helpers.js';

const seqs = [...isa.sequencers.values()];

function arbField(f: CompiledField): fc.Arbitrary<number | bigint> {
  if (f.enumNames) return fc.constantFrom(...[...f.enumNames.keys()]);
  if (f.width > 48) return fc.bigInt({ min: f.min, max: f.max });
  return fc.integer({ min: Number(f.min), max: Number(f.max) });
}

function arbValues(t: CompiledTable): fc.Arbitrary<FieldValues> {
  const rec: Record<string, fc.Arbitrary<unknown>> = {};
  for (const f of t.fields) {
    if (f.reserved) continue;
    rec[f.name] = f.count > 1 ? fc.array(arbField(f), { minLength: f.count, maxLength: f.count }) : arbField(f);
  }
  return fc.record(rec) as fc.Arbitrary<FieldValues>;
}

/** Makes values satisfy the static rules that random values almost always break (§1.1 alignment, §6.1, Table 9-3, §10.2). */
function legalize(seq: SequencerInfo, op: FieldValues, pc: number, n: number): void {
  if ('amem_addr_offset' in op) op['amem_addr_offset'] = (BigInt(op['amem_addr_offset'] as number) & ~7n);
  if (Array.isArray(op['iter_stride'])) op['iter_stride'] = op['iter_stride'].map((s) => BigInt(s as number) & ~7n);
  if ('logical_col_offset' in op && 'num_logical_cols' in op) op['logical_col_offset'] = 0;
  const wc = seq.op.byName.get('hbuf_wr_control');
  if (wc && 'log2_ptns_per_hlane' in op) {
    const name = wc.enumNames?.get(Number(op['hbuf_wr_control']));
    if (name === 'LD_1ROW_16B_TRANS') op['log2_ptns_per_hlane'] = 1;
    if (name === 'LD_2ROWS_8B_TRANS') op['log2_ptns_per_hlane'] = 0;
  }
  if ('conv3x3_mode' in op) op['conv3x3_mode'] = 0;
  if ('wb_done_iter_mask' in op) {
    op['wb_done_iter_mask'] = pc === n - 1 ? 1 : 0;
    if (pc === n - 1 && seq.opcode) op[seq.opcode.name] = 1;
  }
}

/** A random program of one sequencer: random raw control words and random op fields (made legal). */
const arbProgramOf = (seq: SequencerInfo): fc.Arbitrary<Program> =>
  fc.array(fc.tuple(arbValues(seq.control), arbValues(seq.op)), { minLength: 1, maxLength: 6 }).map(
    (insns): Program => ({
      name: 'p',
      seq,
      insns: insns.map(([ctrl, op], pc) => {
        legalize(seq, op, pc, insns.length);
        // §2.1: a loop's sol_pc cannot follow its is_eol instruction (AS0319)
        for (const k of Object.keys(ctrl)) if (/^iter\d+_sol_pc$/.test(k)) ctrl[k] = Number(ctrl[k]) % (pc + 1);
        return { ctrl, op };
      }),
    }),
  );

/** Encodes and checks a random program; discards the (rare) run that still breaks a static rule. */
function encodeLegal(p: Program): ReturnType<typeof encodeProgram> {
  const diags: Diagnostic[] = [];
  const e = encodeProgram(p, diags);
  checkProgram(p, e, diags);
  fc.pre(!diags.some((d) => d.severity === 'error'));
  return e;
}

describe('round trips (fast-check)', () => {
  test('the property tests cover all 13 sequencers', () => {
    expect(seqs.map((s) => s.name).sort()).toEqual(['amem_read', 'amem_weights_read', 'amem_write', 'gh', 'gv', 'gwb', 'gx', 'sb2vb', 'vb2sb', 'vb2vpu', 'vi', 'vpu2vb', 'wdp']);
  });

  test('fast packer == generic codec, every table', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...seqs.flatMap((s) => [s.control, s.op]), ...(isa.vpu ? [isa.vpu.op] : []), isa.patchHeader).chain((t) => fc.tuple(fc.constant(t), arbValues(t))),
        ([t, v]) => {
          const a = new Uint8Array(t.bytes + 3).fill(0xa5);
          const b = new Uint8Array(t.bytes + 3).fill(0xa5);
          encodeFast(t, v, a, 2);
          encode(t, v, b, 2);
          expect([...a]).toEqual([...b]);
        },
      ),
      { numRuns: 300 },
    );
  });

  // Every sequencer explicitly (not left to a random pick), a few runs each.
  test.each(seqs.map((s) => [s.name, s] as const))('%s: random instructions -> encode -> disassemble -> assemble: identical bytes', (_name, seq) => {
    fc.assert(
      fc.property(arbProgramOf(seq), (p) => {
        const e = encodeLegal(p);
        const obj = buildObject([e], isa);
        const text = disassemble(obj, { isa });
        let again;
        try {
          again = assemble({ file: 'dis.pasm', text }, { isa });
        } catch (err) {
          if (err instanceof DiagnosticError) throw new Error(`${text}\n${err.diagnostics.map((d) => d.message).join('\n')}`);
          throw err;
        }
        expect([...again.object.sections[0]!.data]).toEqual([...e.ctrl]);
        expect([...again.object.sections[1]!.data]).toEqual([...e.op]);
      }),
      { numRuns: 12 },
    );
  });

  test('VPU programs: random VPU instructions -> encode -> disassemble -> assemble: identical bytes; IR round trip', () => {
    const vpu = isa.vpu!;
    fc.assert(
      fc.property(fc.array(arbValues(vpu.op), { minLength: 1, maxLength: 5 }), (ops) => {
        const diags: Diagnostic[] = [];
        const v = encodeVpuProgram({ name: 'k', vpu, insns: ops.map((op) => ({ ctrl: {}, op })) }, diags);
        expect(diags).toEqual([]);
        const obj = buildObject([], isa, {}, [v]);
        const text = disassemble(obj, { isa });
        const again = assemble({ file: 'dis.pasm', text }, { isa });
        expect([...again.vpuPrograms[0]!.words]).toEqual([...v.words]);
        const ir = irToText(emitIr([], isa, vpuProgramsFromContainer(obj, isa)));
        const back = assembleIr(ir, { isa });
        expect([...back.vpuPrograms[0]!.words]).toEqual([...v.words]);
      }),
      { numRuns: 40 },
    );
  });

  test.each(seqs.map((s) => [s.name, s] as const))('%s: random canonical IR -> assemble -> emit IR: identical', (_name, seq) => {
    fc.assert(
      fc.property(arbProgramOf(seq), (p) => {
        const e = encodeLegal(p);
        // canonical IR of the random program = what a compiler would hand us
        const ir: IrModule = JSON.parse(irToText(emitIr(programsFromContainer(buildObject([e], isa), isa), isa)));
        const back = emitIr(programsFromContainer(assembleIr(irToText(ir), { isa }).object, isa), isa);
        expect(back).toEqual(ir);
        expect(irToText(back)).toBe(irToText(ir));
      }),
      { numRuns: 10 },
    );
  });
});
