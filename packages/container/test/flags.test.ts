/** Section flags: target-neutral names, target-defined bits named by the target, the bytes unchanged. */
import { describe, expect, it } from 'vitest';
import { SectionFlags, inspectJson, inspectText, readContainer, sectionFlagNames, writeContainer, type Container } from '@pyxis/container';

describe('section flags', () => {
  it('keep the bit positions files were written with (bit 1 was the only target flag)', () => {
    // docs/container-format.md: bit 0 relocatable, bit 1 target0, bit 2 readonly, bits 3..5 target1..3
    expect([SectionFlags.relocatable, SectionFlags.target0, SectionFlags.readonly, SectionFlags.target1, SectionFlags.target2, SectionFlags.target3]).toEqual([1, 2, 4, 8, 16, 32]);
  });
  it('are named by the target for its own bits, generically otherwise; unknown bits in hex', () => {
    expect(sectionFlagNames(0b100011)).toEqual(['relocatable', 'target0', 'target3']);
    expect(sectionFlagNames(0b100011, { target0: 'unhashed' })).toEqual(['relocatable', 'unhashed', 'target3']);
    expect(sectionFlagNames(0x140)).toEqual(['0x140']);
  });
  it('round-trip through the container bytes and show in inspect', () => {
    const c: Container = {
      kind: 'pimg', version: 1, target: 't', relocations: [], symbols: [], metadata: {},
      sections: [{ name: 'a', kind: 'data', space: 'm', address: 0, size: 2, align: 1, flags: SectionFlags.target0 | SectionFlags.target2, data: new Uint8Array([1, 2]) }],
    };
    const back = readContainer(writeContainer(c), 'x.pimg');
    expect(back.sections[0]!.flags).toBe(0b10010);
    expect(inspectText(back, { flagNames: { target2: 'fast' } })).toMatch(/\btarget0,fast\b/);
    expect((inspectJson(back)['sections'] as Array<{ flagNames: string[] }>)[0]!.flagNames).toEqual(['target0', 'target2']);
  });
});
