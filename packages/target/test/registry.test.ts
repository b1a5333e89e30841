/** The registry: lazy entries, per-tool loading, order (the first is the default), unknown names. */
import { afterEach, describe, expect, it } from 'vitest';
import { UsageError } from '@pyxis/diagnostics';
import { defaultTargetName, findTargetEntry, loadTarget, registerTarget, targetEntries, targetForSourceFile, unregisterTarget, type Target, type TargetEntry, type ToolKind } from '@pyxis/target';

const made: string[] = [];
function entry(name: string, calls: Array<ToolKind | undefined>): TargetEntry {
  made.push(name);
  return {
    name,
    title: `${name} machine`,
    sourceExtensions: [`.${name}s`],
    options: { sim: [{ flags: '--fast', description: 'x' }] },
    load: async (tool) => {
      calls.push(tool);
      const t: Target = { name, title: `${name} machine`, specs: [], grammars: '/g' };
      if (tool === undefined || tool === 'as') t.assembler = { sourceExtensions: [`.${name}s`], inputKinds: ['s'], assemble: () => { throw new Error('unused'); } };
      return t;
    },
  };
}

afterEach(() => {
  for (const n of made.splice(0)) unregisterTarget(n);
});

describe('target registry', () => {
  it('loads an entry per tool on first use, once per tool; a whole load then serves every tool', async () => {
    const calls: Array<ToolKind | undefined> = [];
    registerTarget(entry('rega', calls));
    expect(calls).toEqual([]); // registering loads nothing
    const a = await loadTarget('rega', 'as');
    expect(a.assembler).toBeDefined();
    expect(await loadTarget('rega', 'as')).toBe(a);
    const s = await loadTarget('rega', 'sim');
    expect(s.assembler).toBeUndefined();
    expect(calls).toEqual(['as', 'sim']);
    const whole = await loadTarget('rega');
    expect(await loadTarget('rega', 'ld')).toBe(whole);
    expect(calls).toEqual(['as', 'sim', undefined]);
  });
  it('an object target serves every tool; re-registering keeps the order and drops what was loaded', async () => {
    const calls: Array<ToolKind | undefined> = [];
    registerTarget(entry('regb', calls));
    registerTarget(entry('regc', []));
    const names = () => targetEntries().map((e) => e.name).filter((n) => n === 'regb' || n === 'regc');
    expect(names()).toEqual(['regb', 'regc']);
    await loadTarget('regb', 'as');
    const obj: Target = { name: 'regb', title: 'object', specs: [], grammars: '/g' };
    registerTarget(obj);
    expect(names()).toEqual(['regb', 'regc']);
    expect(await loadTarget('regb', 'as')).toBe(obj);
    expect(await loadTarget('regb')).toBe(obj);
    expect(findTargetEntry('regb')!.title).toBe('object');
  });
  it('source extensions pick a target; an unknown name is a usage error listing the known ones', () => {
    registerTarget(entry('regd', []));
    expect(targetForSourceFile('dir/X.REGDS')).toBe('regd');
    expect(targetForSourceFile('x.unknown')).toBeUndefined();
    expect(() => loadTarget('nope')).toThrow(UsageError);
    expect(() => loadTarget('nope')).toThrow(/unknown target `nope` \(known: .*regd/);
    expect(defaultTargetName()).toBe(targetEntries()[0]!.name);
    unregisterTarget('regd');
    expect(findTargetEntry('regd')).toBeUndefined();
  });
});
