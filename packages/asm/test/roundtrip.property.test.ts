/**
 * fast-check round trips over every sequencer's tables:
 *  - random instructions (random op fields AND random raw control fields)
 *    -> encode -> disassemble -> assemble gives identical bytes;
 *  - random canonical IR -> assemble -> emit IR gives identical IR.
 */
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { encode, type CompiledField, type CompiledTable, type FieldValues } from '@pyxis/codec';
import { encodeFast } from '../src/fastcodec.js';
import { DiagnosticError, type Diagnostic } from '@pyxis/diagnostics';
import {
  assemble,
  assembleIr,
  buildObject,
  checkProgram,
  disassemble,
  emitIr,
  encodeProgram,
  irToText,
  programsFromContainer,
  type IrModule,
  type Program,
  type SequencerInfo,
} from '../src/index.js';
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

const arbProgram = fc
  .constantFrom(...seqs)
  .chain((seq) =>
    fc.tuple(fc.constant(seq), fc.array(fc.tuple(arbValues(seq.control), arbValues(seq.op)), { minLength: 1, maxLength: 6 })),
  )
  .map(([seq, insns]): Program => ({
    name: 'p',
    seq,
    insns: insns.map(([ctrl, op], pc) => {
      legalize(seq, op, pc, insns.length);
      return { ctrl, op };
    }),
  }));

describe('round trips (fast-check)', () => {
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

  test('random instructions -> encode -> disassemble -> assemble: identical bytes', () => {
    fc.assert(
      fc.property(arbProgram, (p) => {
        const diags: Diagnostic[] = [];
        const e = encodeProgram(p, diags);
        checkProgram(p, e, diags);
        fc.pre(!diags.some((d) => d.severity === 'error'));
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
      { numRuns: 120 },
    );
  });

  test('random canonical IR -> assemble -> emit IR: identical', () => {
    fc.assert(
      fc.property(arbProgram, (p) => {
        const diags: Diagnostic[] = [];
        const e = encodeProgram(p, diags);
        checkProgram(p, e, diags);
        fc.pre(!diags.some((d) => d.severity === 'error'));
        // canonical IR of the random program = what a compiler would hand us
        const ir: IrModule = JSON.parse(irToText(emitIr(programsFromContainer(buildObject([e], isa), isa), isa)));
        const back = emitIr(programsFromContainer(assembleIr(irToText(ir), { isa }).object, isa), isa);
        expect(back).toEqual(ir);
        expect(irToText(back)).toBe(irToText(ir));
      }),
      { numRuns: 100 },
    );
  });
});
