import { describe, expect, it } from 'vitest';
import { DiagnosticBag, SourceMap, UsageError, didYouMean, editDistance, nearest, renderDiagnostics, renderHuman, unknownName, type Diagnostic } from '@pyxis/diagnostics';

describe('human rendering', () => {
  const sources = new SourceMap();
  sources.add('prog.pasm', 'loop i1 4 {\n\tread numloop = 4\n}\n');

  it('prints file:line:col, the source line and a caret under the span', () => {
    const d: Diagnostic = {
      severity: 'error',
      code: 'AS0102',
      message: 'unknown field `numloop`',
      span: { file: 'prog.pasm', line: 2, column: 7, length: 7 },
      label: 'not a field',
      notes: ['help: did you mean `numloops`?'],
      spec: 'pyxis-uie-sequencers-fspec.md §2.1',
    };
    const text = renderHuman(d, { sources, color: false });
    // The tab is expanded to 4 spaces so the caret lines up under `numloop`.
    expect(text).toBe(
      [
        'prog.pasm:2:7: error[AS0102]: unknown field `numloop`',
        '2 |     read numloop = 4',
        '  |          ^^^^^^^ not a field',
        '= help: did you mean `numloops`?',
        '= spec: pyxis-uie-sequencers-fspec.md §2.1',
      ].join('\n'),
    );
  });

  it('prints byte offsets for binary inputs in hex and decimal', () => {
    const text = renderHuman({ severity: 'error', code: 'CT0001', message: 'truncated', span: { file: 'x.pimg', offset: 300 } }, { color: false });
    expect(text).toBe('x.pimg: offset 0x000012c (300): error[CT0001]: truncated');
  });

  it('summarises counts when several diagnostics are printed', () => {
    const ds: Diagnostic[] = [
      { severity: 'error', code: 'A', message: 'a' },
      { severity: 'error', code: 'B', message: 'b' },
      { severity: 'warning', code: 'C', message: 'c' },
    ];
    expect(renderDiagnostics(ds, 'human', { color: false }).split('\n').at(-1)).toBe('2 errors, 1 warning');
  });

  it('colour codes appear only when asked for', () => {
    const d: Diagnostic = { severity: 'error', code: 'A', message: 'a' };
    expect(renderHuman(d, { color: false })).not.toContain('\u001b[');
    expect(renderHuman(d, { color: true })).toContain('\u001b[');
  });
});

describe('SourceMap', () => {
  it('maps offsets to 1-based line/column', () => {
    const s = new SourceMap();
    s.add('f', 'ab\ncd\n\nef');
    expect(s.position('f', 0)).toEqual({ line: 1, column: 1 });
    expect(s.position('f', 4)).toEqual({ line: 2, column: 2 });
    expect(s.position('f', 7)).toEqual({ line: 4, column: 1 });
    expect(s.line('f', 3)).toBe('');
    expect(s.line('f', 5)).toBeUndefined();
  });
});

describe('did-you-mean', () => {
  it('computes edit distance', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    // an adjacent swap is one edit (it was two: `gleu` got no suggestion among the activation functions)
    expect(editDistance('gleu', 'gelu')).toBe(1);
    expect(editDistance('ca', 'abc')).toBe(3); // optimal string alignment: no edit of a swapped pair
    expect(editDistance('Raed_SRAM', 'Read_SRAM')).toBe(1);
    expect(nearest('gleu', ['identity', 'relu', 'gelu', 'exp'])).toBe('gelu');
  });
  it('suggests close names and stays quiet for unrelated ones', () => {
    expect(nearest('numloop', ['numloops', 'sol_pc', 'is_eol'])).toBe('numloops');
    expect(didYouMean('zzzzzz', ['numloops', 'sol_pc'])).toEqual([]);
    // one letter for another is no typo of a one-letter name; a letter more is
    expect(nearest('Q', ['X', 'Y'])).toBeUndefined();
    expect(nearest('y', ['yy', 'x'])).toBe('yy');
  });
  it('unknownName: an unknown name in an option is a usage error with did-you-mean and at most 20 names listed', () => {
    const e = unknownName('--dump', 'tensor', 'out_hbn', 'the image', ['src', 'out_hbm']);
    expect(e).toBeInstanceOf(UsageError);
    expect([e.message, ...e.notes]).toEqual(['--dump: no tensor `out_hbn` in the image', 'did you mean `out_hbm`?', 'tensors in the image: src, out_hbm']);
    // Tensil's `y` for `y:0`: the one name it begins is suggested; none at all is said so
    expect(unknownName('--output', 'output', 'y', 'the model', ['y:0']).notes).toEqual(['did you mean `y:0`?', 'outputs in the model: y:0']);
    expect(unknownName('--dump', 'job', 'a', 'the image', []).notes).toEqual(['the image has no jobs']);
    const many = Array.from({ length: 25 }, (_, i) => `t${i}`);
    expect(unknownName('--dump', 'tensor', 'zzzzzz', 'the image', many).notes).toEqual([`tensors in the image: ${many.slice(0, 20).join(', ')}, ... (25 in all)`]);
  });
});

describe('DiagnosticBag', () => {
  it('collects many errors and throws them together', () => {
    const bag = new DiagnosticBag(2);
    bag.add({ severity: 'warning', code: 'W', message: 'w' });
    expect(bag.hasErrors).toBe(false);
    for (let i = 0; i < 5; i++) bag.add({ severity: 'error', code: 'E', message: `e${i}` });
    expect(bag.errorCount).toBe(2);
    expect(() => bag.throwIfErrors()).toThrowError(/e0; e1/);
  });
  it('says how many errors past the limit it did not collect (on the first error, which is always printed)', () => {
    const bag = new DiagnosticBag(200);
    // 30,000 warnings interleaved with 5,000 errors: counts are kept, not recounted per add
    for (let i = 0; i < 5000; i++) {
      for (let k = 0; k < 6; k++) bag.add({ severity: 'warning', code: 'W', message: `w${i}.${k}` });
      bag.add({ severity: 'error', code: 'E', message: `e${i}` });
    }
    expect(bag.errorCount).toBe(200);
    expect(bag.droppedErrors).toBe(4800);
    expect(bag.items).toHaveLength(30_000 + 200);
    let thrown: unknown;
    try {
      bag.throwIfErrors();
    } catch (e) {
      thrown = e;
    }
    const ds = (thrown as { diagnostics: Diagnostic[] }).diagnostics;
    const first = ds.find((d) => d.severity === 'error')!;
    expect(first.message).toBe('e0');
    expect(first.notes).toEqual(['4800 more errors after the first 200 were not collected (this pass stops collecting at 200)']);
    expect(ds.filter((d) => d.notes?.length)).toHaveLength(1);
  });
});

describe('bounded human rendering', () => {
  it('cuts a long quoted line to 120 columns around the caret, the caret still under its column', () => {
    const sources = new SourceMap();
    const line = Array.from({ length: 1000 }, (_, i) => String.fromCharCode(97 + (i % 26))).join('');
    sources.add('x.pasm', line + '\n');
    const d: Diagnostic = { severity: 'error', code: 'AS0101', message: 'm', span: { file: 'x.pasm', line: 1, column: 501, length: 3 } };
    const [, quoted, carets] = renderHuman(d, { sources, color: false }).split('\n');
    // columns 461..580 (40 before the caret), `...` on both sides
    expect(quoted).toBe(`1 | ...${line.slice(460, 580)}...`);
    expect(carets).toBe(`  | ${' '.repeat(3 + 40)}^^^`);
    // near the start: no leading cut; near the end: the last 120 columns, no trailing cut
    const start = renderHuman({ ...d, span: { file: 'x.pasm', line: 1, column: 2 } }, { sources, color: false }).split('\n');
    expect(start[1]).toBe(`1 | ${line.slice(0, 120)}...`);
    expect(start[2]).toBe('  |  ^');
    const end = renderHuman({ ...d, span: { file: 'x.pasm', line: 1, column: 1000 } }, { sources, color: false }).split('\n');
    expect(end[1]).toBe(`1 | ...${line.slice(880)}`);
    expect(end[2]).toBe(`  | ${' '.repeat(3 + 119)}^`);
  });
  it('prints at most 100 errors and 100 warnings, then one line with the rest, then the totals', () => {
    const ds: Diagnostic[] = [];
    for (let i = 0; i < 250; i++) ds.push({ severity: 'error', code: 'X0001', message: `e${i}` });
    for (let i = 0; i < 101; i++) ds.push({ severity: 'warning', code: 'X0002', message: `w${i}` });
    const text = renderDiagnostics(ds, 'human', { color: false });
    expect(text.match(/error\[X0001\]/g)).toHaveLength(100);
    expect(text.match(/warning\[X0002\]/g)).toHaveLength(100);
    expect(text).toContain('error[X0001]: e99');
    expect(text).not.toContain('error[X0001]: e100');
    const tail = text.split('\n\n').slice(-2);
    expect(tail[0]).toMatch(/^\.\.\. 150 more errors, 1 more warning not shown/);
    expect(tail[1]).toBe('250 errors, 101 warnings');
    expect(renderDiagnostics(ds, 'json').split('\n')).toHaveLength(351);
    // exactly 100: nothing hidden
    expect(renderDiagnostics(ds.slice(0, 100), 'human', { color: false })).not.toMatch(/not shown/);
  });
});
