/**
 * samples/pyxis/hotbank_{unhashed,hashed}.ld (chip §7.5): two UIEs walk tensors with 16 KiB (power-of-two) rows at
 * the same time. Unhashed, both walks hit bank 0 on every row and are serialised on it; hashed, bits [20:14] move
 * every row to another bank and the walks never meet. The figures (cycles, conflicts, stall cycles) are pinned in
 * samples/pyxis/hotbank.expected.sim.txt; the test also checks the relations the port model implies (docs/timing-model.md
 * "AMEM banks"), so that a regenerated expected file cannot hide a broken model.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { assemble, loadPyxisIsa } from '@pyxis/target-pyxis/asm';
import { link } from '@pyxis/target-pyxis/ld';
import { defaultUieFactory, formatSummary, simulateImage } from '../../src/sim/index.js';

const samples = fileURLToPath(new URL('../../../../samples/pyxis/', import.meta.url));
const isa = loadPyxisIsa();
const ROWS = 64;

function run(view: 'unhashed' | 'hashed') {
  const obj = assemble([{ file: 'hotbank.pasm', text: readFileSync(samples + 'hotbank.pasm', 'utf8') }], { isa, listing: false }).object;
  const file = samples + `hotbank_${view}.ld`;
  const { image } = link({ script: readFileSync(file, 'utf8'), scriptFile: file, objects: [{ file: 'hotbank.pobj', container: obj }] });
  const { report } = simulateImage(image, `hotbank_${view}.pimg`, { uieFactory: defaultUieFactory });
  const a = report.memory.amem[0]!;
  const conflicts = (a.bank_conflicts ?? []).reduce((s, b) => s + b.conflicts, 0);
  const stalls = (a.bank_conflicts ?? []).reduce((s, b) => s + b.stall_cycles, 0);
  const lines = formatSummary(report)
    .split('\n')
    .filter((l) => l.startsWith('pyxis-sim:') || l.startsWith('AMEM banks'));
  return { report, conflicts, stalls, hottest: a.bank_conflicts?.[0]?.bank, text: [`# hotbank_${view}.ld`, ...lines, `bank conflicts: ${conflicts}, bank stall cycles: ${stalls}`].join('\n') };
}

describe('sample hotbank (chip §7.5: hashed vs unhashed view of power-of-two row strides)', () => {
  const u = run('unhashed');
  const h = run('hashed');

  it('prints the figures of samples/pyxis/hotbank.expected.sim.txt', () => {
    expect(`${u.text}\n${h.text}\n`).toBe(readFileSync(samples + 'hotbank.expected.sim.txt', 'utf8'));
  });

  it('unhashed: bank 0 is hot and the walks are serialised (about one extra cycle per row); hashed: no conflict', () => {
    expect(h.conflicts).toBe(0);
    expect(u.hottest).toBe(0);
    // 2 x ROWS reads of one bank: one of the two walks waits about one cycle per row
    expect(u.stalls).toBeGreaterThanOrEqual(ROWS * 2 - 2);
    expect(u.report.cycles - h.report.cycles).toBeGreaterThanOrEqual(ROWS - 1);
    expect(u.report.cycles - h.report.cycles).toBeLessThanOrEqual(ROWS + 2);
  });
});
