/** GNU-ld-style map layout of @pyxis/ld (expected text written out by hand). */
import { describe, expect, it } from 'vitest';
import { MapTextWriter, mapHex, mapPad } from '@pyxis/ld';

describe('MapTextWriter', () => {
  it('titles get one blank line around them; cells pad to their width with at least one space', () => {
    const w = new MapTextWriter();
    w.line('Link map of a.ld').heading('Memory').row([['Name', 6], ['Origin', 12]], 'Length').row([['toolongname', 6], [mapHex(0x40), 12]], mapHex(0x1000, 4));
    w.heading('Symbols').row([['', 2], [mapHex(1, 2), 6]], 'x');
    expect(w.text()).toBe(['Link map of a.ld', '', 'Memory', '', 'Name  Origin      Length', 'toolongname 0x00000040  0x1000', '', 'Symbols', '', '  0x01  x', ''].join('\n'));
    expect(mapPad('ab', 2)).toBe('ab ');
  });
});

describe('MapTextWriter.table: columns widen to their longest cell, so every row stays aligned', () => {
  it('a 40-character section name widens the Name column for every row (header included)', () => {
    const long = 'weights.fc8.superblock_group_0.amem0_part';
    const w = new MapTextWriter();
    w.table([['Name', 12], ['Kind', 6]], 'Size', [
      [['a', 'code'], '0x10'],
      [[long, 'data'], '0x20'],
    ]);
    const rows = w.text().split('\n').filter(Boolean);
    const col = long.length + 1;
    expect(rows).toEqual([`${'Name'.padEnd(col)}Kind  Size`, `${'a'.padEnd(col)}code  0x10`, `${long} data  0x20`]);
    // without long cells the minimum widths are kept (the shipped maps do not change)
    const v = new MapTextWriter().table([['Name', 12], ['Kind', 6]], 'Size', [[['a', 'code'], '0x10']]);
    expect(v.text()).toBe('Name        Kind  Size\na           code  0x10\n');
  });
});
