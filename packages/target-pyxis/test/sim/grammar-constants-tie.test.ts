/**
 * Constants the simulator compares against are the grammars' (issue 26, "the house"): the GX/GV/GWB op codepoints,
 * the VPU source selectors and counter controls (uie/codes.ts), the sequencer names of the VCD probes (run.ts) and
 * the trip-descriptor queue range (queues.ts, read by image.ts and chip.ts). Expected values are read here straight
 * from the JSON files, not through the codec or the code under test.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as codes from '../../src/sim/uie/codes.js';
import { diagonalMasked } from '../../src/sim/uie/compute/gwb.js';
import { SEQUENCER_NAMES } from '../../src/sim/run.js';
import { TRIP_QUEUES } from '../../src/sim/queues.js';
import { tripQueueId } from '../../src/common/nocMap.js';
import { BARRIER_COUNT_RANGE } from '../../src/sim/barriers.js';
import { HBM_ADDRESS_UNIT, UNIT as HBM_LENGTH_UNIT } from '../../src/sim/hbmDma.js';

type Field = { name: string; enum?: Record<string, number> };
function grammar(name: string): { fields: Field[]; meta?: Record<string, unknown>; [k: string]: unknown } {
  return JSON.parse(readFileSync(fileURLToPath(new URL(`../../../../grammars/pyxis/${name}.json`, import.meta.url)), 'utf8'));
}
function enumOf(table: string, field: string): Record<string, number> {
  const f = grammar(table).fields.find((x) => x.name === field);
  if (!f?.enum) throw new Error(`${table}.${field}: no enum`);
  return f.enum;
}

describe('UIE op codepoints tied to the grammars', () => {
  it('GX, GV, GWB opcodes', () => {
    const gx = enumOf('gx_op', 'opcd');
    expect([codes.GX_VALID, codes.GX_BUBBLE, codes.GX_CONFIG]).toEqual([gx['Exec_Valid'], gx['Exec_Bubble'], gx['Exec_Config']]);
    const gv = enumOf('gv_op', 'opcd');
    expect([codes.GV_ZERO, codes.GV_AMEM, codes.GV_VPU]).toEqual([gv['Read_Zero'], gv['Read_AMEM_FIFO'], gv['Read_VPU_FIFO']]);
    expect(codes.GWB_READ_WBA).toBe(enumOf('gwb_op', 'opcd')['Read_WBA']);
    expect(codes.GWB_TGT_VPU).toBe(enumOf('gwb_op', 'tgt_fifo')['VPU']);
    expect(codes.GWB_OVR_MAX_NEG).toBe(enumOf('gwb_op', 'diagonal_mask_override_sel')['Max_Negative']);
    const col = enumOf('gwb_col_mask', 'col_override');
    expect([codes.GWB_COL_ZERO, codes.GWB_COL_MAX_NEG]).toEqual([col['Zero'], col['Max_Negative']]);
  });

  it('every GWB diagonal_mask_mode codepoint masks what its name says (chip §6.2.2.1.3)', () => {
    const modes = enumOf('gwb_op', 'diagonal_mask_mode');
    const byName: Record<string, (r: number, c: number) => boolean> = {
      Disabled: () => false,
      Col_LE_Row: (r, c) => c <= r,
      Col_LT_Row: (r, c) => c < r,
      Col_EQ_Row: (r, c) => c === r,
      Col_NE_Row: (r, c) => c !== r,
      Col_GE_Row: (r, c) => c >= r,
      Col_GT_Row: (r, c) => c > r,
    };
    expect(Object.keys(modes).sort()).toEqual(Object.keys(byName).sort());
    for (const [name, m] of Object.entries(modes))
      for (let r = 0; r < 4; r++) for (let c = 0; c < 4; c++) expect(diagonalMasked(m, r, c), `${name} row ${r} col ${c}`).toBe(byName[name]!(r, c));
  });

  it('VPU source selectors and counter controls', () => {
    for (const f of ['src1_sel', 'src2_sel']) {
      const e = enumOf('vpu_instr', f);
      expect({ ...codes.VPU_SRC }).toEqual({ gpr: e['GPR'], imm: e['IMM'], in: e['IN_FIFO'], cntr: e['CNTR'] });
    }
    const c = enumOf('vpu_instr', 'cntr_ctrl');
    expect([codes.VPU_CNTR_INCR, codes.VPU_CNTR_DECR, codes.VPU_CNTR_ZERO]).toEqual([c['CNTR_CTRL_INCR'], c['CNTR_CTRL_DECR'], c['CNTR_CTRL_SET_TO_0']]);
  });
});

describe('names and ranges tied to the grammars', () => {
  it('barrier counts span the signed width of barrier_bt_barrier.json notify_count / wait_count', () => {
    const f = grammar('barrier_bt_barrier').fields as Array<{ name: string; width: number }>;
    for (const n of ['notify_count', 'wait_count']) {
      const w = f.find((x) => x.name === n)!.width;
      expect({ ...BARRIER_COUNT_RANGE }, n).toEqual({ min: -(2 ** (w - 1)), max: 2 ** (w - 1) - 1 });
    }
  });

  it('sequencer names in trip_valid_mask order are desc_uie.json meta.sequencers', () => {
    expect([...SEQUENCER_NAMES]).toEqual(grammar('desc_uie').meta!['sequencers']);
  });

  it('trip-descriptor queue ids end where noc_map.json says (Table 11-1)', () => {
    const table = (grammar('noc_map')['queues'] as { table: Array<{ first: number; count: number; trip: boolean }> }).table;
    const ends = table.filter((g) => g.trip).map((g) => g.first + g.count);
    expect(TRIP_QUEUES).toBe(Math.max(...ends));
  });

  it('the queue id of each engine the chip registers (chip.ts, run.ts) is its noc_map.json row', () => {
    const table = (grammar('noc_map')['queues'] as { table: Array<{ kind: string; first: number; count: number; trip: boolean }> }).table;
    for (const g of table.filter((x) => x.trip)) for (let i = 0; i < g.count; i++) expect(tripQueueId(g.kind, i), `${g.kind}${i}`).toBe(g.first + i);
    expect(() => tripQueueId('dgram_tx')).toThrow(/noc_map/);
  });
});

describe('HBM DMA units tied to the descriptor tables (chip §11.4.3, §11.4.4)', () => {
  it('the length unit and the hbm_base_address step are the tables\' 1K-byte blocks and address bits [35:10]', () => {
    for (const t of ['desc_h2a', 'desc_a2h']) {
      const g = grammar(t);
      // the spec's words: "DMA transfer length in 1K-byte blocks", "HBM ... base address[35:10]"
      expect(g.fields.find((f) => f.name === 'length')).toMatchObject({ doc: expect.stringMatching(/1K-byte blocks/) });
      expect(g.fields.find((f) => f.name === 'hbm_base_address')).toMatchObject({ doc: expect.stringMatching(/\[35:10\]/) });
      expect([g.meta?.['length_unit_bytes'], g.meta?.['hbm_address_unit_bytes']]).toEqual([1024, 2 ** 10]);
      expect([HBM_LENGTH_UNIT, HBM_ADDRESS_UNIT]).toEqual([g.meta?.['length_unit_bytes'], g.meta?.['hbm_address_unit_bytes']]);
    }
  });
});
