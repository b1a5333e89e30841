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
