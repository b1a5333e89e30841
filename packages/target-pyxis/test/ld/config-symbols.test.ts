/**
 * Config-table fields naming tensors: the ITFE command's x/y_table_base_addr
 * (AMEM address bits [25:7], grammars/pyxis/itfe_command.json; chip §7.6,
 * seq §8) are filled by the linker after placement, the table is placed
 * 128-byte aligned and bank_hash_dsbl follows the table's region view (§7.5).
 */
import { describe, expect, it } from 'vitest';
import { decode, loadTable } from '@pyxis/codec';
import { link } from '@pyxis/target-pyxis/ld';
import { linkErr } from './helpers.js';

const ITFE = loadTable('pyxis', 'itfe_command');
const MEM = `
memory amem0 { space = amem; cluster = 0; origin = 0; length = 16M; }
memory amem0u { space = amem; cluster = 0; view = unhashed; origin = 16M; length = 16M; }
memory hbm { space = hbm; origin = 0; length = 1M; }
`;

function entry(script: string, index = 1): Record<string, number> {
  const { image } = link({ script: MEM + script, scriptFile: 't.ld' });
  const s = image.sections.find((x) => x.name === `.cfg.c0.uie0.itfe_read.cmd.${index}`)!;
  return decode(ITFE, s.data, 0) as Record<string, number>;
}

describe('config fields naming tensors (itfe_command x/y_table_base_addr)', () => {
  it('x_table_base_addr = address >> 7 of a first-fit table; the table is aligned to 128 bytes', () => {
    // pad (48 bytes) first: a 16-byte aligned table would land at 0x30; referenced, it goes to 0x80
    const e = entry(`
tensor pad { format = RFP8; shape = [1, 48]; region = amem0; }
tensor idx { format = RFP8; shape = [1, 64]; region = amem0; }
config itfe_read.cmd { uie = 0; index = 1; entry { indir_mode = 1; x_table_base_addr = idx; num_indices_per_table_m1 = 7; } }
`);
    expect(e).toMatchObject({ indir_mode: 1, x_table_base_addr: 0x80 >> 7, bank_hash_dsbl: 0, num_indices_per_table_m1: 7 });
  });

  it('a table in the unhashed view sets bank_hash_dsbl; X and Y tables', () => {
    const e = entry(`
tensor ix { format = RFP8; shape = [1, 128]; region = amem0u; address = 0x1000100; }
tensor iy { format = RFP8; shape = [1, 128]; region = amem0u; }
config itfe_read.cmd { uie = 0; index = 2; entry { indir_mode = 2; x_table_base_addr = ix; y_table_base_addr = iy; } }
`, 2);
    // iy (first fit, 128-byte aligned): the 256 bytes before ix's fixed range [0x1000100, 0x1000180) hold it at 0x1000000
    expect(e['x_table_base_addr']).toBe(0x1000100 >> 7);
    expect(e['y_table_base_addr']).toBe(0x1000000 >> 7);
    expect(e['bank_hash_dsbl']).toBe(1);
  });

  it('an explicit bank_hash_dsbl is kept', () => {
    const e = entry(`
tensor idx { format = RFP8; shape = [1, 64]; region = amem0; }
config itfe_read.cmd { uie = 0; index = 1; entry { x_table_base_addr = idx; bank_hash_dsbl = 1; } }
`);
    expect(e['bank_hash_dsbl']).toBe(1);
  });

  it('misaligned fixed table (LD0803), HBM table and mixed views (LD0159), unknown name (LD0126) at file:line:col', () => {
    const d = linkErr({ script: MEM + `
tensor a { format = RFP8; shape = [1, 64]; region = amem0; address = 0x40; }
tensor h { format = RFP8; shape = [1, 64]; region = hbm; }
tensor u { format = RFP8; shape = [1, 64]; region = amem0u; }
tensor k { format = RFP8; shape = [1, 64]; region = amem0; }
config itfe_read.cmd { uie = 0; index = 0; entry { x_table_base_addr = a; } }
config itfe_read.cmd { uie = 0; index = 1; entry { x_table_base_addr = h; } }
config itfe_read.cmd { uie = 0; index = 2; entry { indir_mode = 2; x_table_base_addr = k; y_table_base_addr = u; } }
`, scriptFile: 't.ld' });
    expect(d.map((x) => [x.code, (x.span as { line: number }).line, x.spec])).toEqual([
      ['LD0803', 10, 'pyxis-uie-sequencers-fspec.md §1.1; pyxis-chip-fspec.md §7.6'],
      ['LD0159', 11, 'pyxis-chip-fspec.md §7.6'],
      ['LD0159', 12, 'pyxis-chip-fspec.md §7.5'],
    ]);
    const u = linkErr({ script: MEM + 'config itfe_read.cmd { uie = 0; entry { x_table_base_addr = nope; } }\n', scriptFile: 't.ld' });
    expect(u[0]).toMatchObject({ code: 'LD0126', span: { line: 5, column: 61 } });
  });
});
