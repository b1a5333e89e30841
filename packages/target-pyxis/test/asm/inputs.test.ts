/** Input robustness: JSON value positions for IR diagnostics, binary input detection. */
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { DiagnosticError, SourceMap, renderDiagnostics, type Diagnostic, type SourceSpan } from '@pyxis/diagnostics';
import { assemble, assembleIr, binaryTextProblem, jsonPositions, jsonSyntaxErrorOffset, parentPath } from '@pyxis/target-pyxis/asm';
import { isa } from './helpers.js';

function diagsOf(f: () => unknown): Diagnostic[] {
  try {
    f();
  } catch (e) {
    if (e instanceof DiagnosticError) return e.diagnostics;
    throw e;
  }
  throw new Error('expected diagnostics');
}

/** Reference: every path of a parsed JSON value, with the value. */
function refPaths(v: unknown, path = '', out = new Map<string, unknown>()): Map<string, unknown> {
  out.set(path, v);
  if (Array.isArray(v)) v.forEach((e, i) => refPaths(e, `${path}[${i}]`, out));
  else if (v !== null && typeof v === 'object') for (const [k, e] of Object.entries(v)) refPaths(e, path === '' ? k : `${path}.${k}`, out);
  return out;
}

describe('jsonPositions', () => {
  test('hand-checked offsets', () => {
    const text = '{\n  "a": [1, {"b": "x\\"y"}],\n  "c": -2.5e3\n}';
    const p = jsonPositions(text, 'f.json');
    expect(p.byPath.get('')).toEqual({ offset: 0, length: 1 });
    expect(p.byPath.get('a')).toEqual({ offset: 9, length: 1 });
    expect(p.byPath.get('a[0]')).toEqual({ offset: 10, length: 1 });
    expect(p.byPath.get('a[1].b')).toEqual({ offset: 19, length: 6 });
    expect(p.byPath.get('c')).toEqual({ offset: 36, length: 6 });
    expect(p.span('c')).toEqual({ file: 'f.json', line: 3, column: 8, length: 6 });
    // missing keys fall back to the nearest ancestor present
    expect(p.span('a[1].zz')).toEqual({ file: 'f.json', line: 2, column: 12, length: 1 });
    expect(p.span('nope[3].x')).toEqual({ file: 'f.json', line: 1, column: 1, length: 1 });
    expect(parentPath('a.b[2].c')).toBe('a.b[2]');
    expect(parentPath('a.b[2]')).toBe('a.b');
    expect(parentPath('a')).toBe('');
  });
  test('property: every value of random JSON is found where it is written', () => {
    const key = fc.stringMatching(/^[a-z_][a-z0-9_]{0,6}$/);
    const json = fc.letrec((tie) => ({
      v: fc.oneof({ depthSize: 'small' }, fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.string(), fc.boolean(), fc.constant(null), fc.array(tie('v'), { maxLength: 4 }), fc.dictionary(key, tie('v'), { maxKeys: 4 })),
    })).v;
    fc.assert(
      fc.property(json, fc.constantFrom(undefined, 1, 2, '\t'), (v, indent) => {
        const text = JSON.stringify(v, null, indent);
        const p = jsonPositions(text);
        const ref = refPaths(JSON.parse(text));
        expect([...p.byPath.keys()].sort()).toEqual([...ref.keys()].sort());
        for (const [path, val] of ref) {
          const { offset, length } = p.byPath.get(path)!;
          if (Array.isArray(val)) expect(text[offset]).toBe('[');
          else if (val !== null && typeof val === 'object') expect(text[offset]).toBe('{');
          else expect(JSON.parse(text.slice(offset, offset + length))).toEqual(val);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('jsonSyntaxErrorOffset', () => {
  test('hand-checked offsets', () => {
    expect(jsonSyntaxErrorOffset('{"a": [1, 2]}')).toBeUndefined();
    expect(jsonSyntaxErrorOffset('{"a":\n  [1,}')).toBe(11);
    expect(jsonSyntaxErrorOffset('{"a": 1')).toBe(7);
    expect(jsonSyntaxErrorOffset('{"a": 01}')).toBe(7);
    expect(jsonSyntaxErrorOffset('{"a": tru}')).toBe(9);
    expect(jsonSyntaxErrorOffset('{"a": "\\x"}')).toBe(8);
    expect(jsonSyntaxErrorOffset('[1] x')).toBe(4);
    expect(jsonSyntaxErrorOffset('')).toBe(0);
  });
  test('property: agrees with JSON.parse on valid and mutated JSON', () => {
    const mutated = fc
      .tuple(fc.jsonValue(), fc.nat(), fc.nat({ max: 3 }), fc.constantFrom('', ',', '}', ']', '"', ':', '-', '0', 'e', '\\', ' ', 'x'))
      .map(([v, at, del, ins]) => {
        const t = JSON.stringify(v);
        const k = at % (t.length + 1);
        return t.slice(0, k) + ins + t.slice(k + del);
      });
    fc.assert(
      fc.property(fc.oneof(mutated, fc.string()), (text) => {
        let ok = true;
        try {
          JSON.parse(text);
        } catch {
          ok = false;
        }
        const at = jsonSyntaxErrorOffset(text);
        expect(at === undefined).toBe(ok);
        if (at !== undefined) expect(at).toBeLessThanOrEqual(text.length);
      }),
      { numRuns: 1000 },
    );
  });
  test('AS0512 points at the offending character', () => {
    const ds = diagsOf(() => assembleIr('{"format": "pyxis-ir",\n  "programs": [1,}', { isa, file: 'j.json' }));
    expect(ds[0]!.code).toBe('AS0512');
    expect(ds[0]!.message).toBe('IR is not valid JSON: unexpected "}"');
    expect(ds[0]!.span).toEqual({ file: 'j.json', line: 2, column: 18, length: 1 });
  });
});

const IR = `{
  "format": "pyxis-ir",
  "version": 1,
  "programs": [
    { "name": "p", "sequencer": "amem_read",
      "instructions": [ { "iters": [], "eopgm": 1, "op": { "bogus": 3, "amem_addr_offset": 99999999 } } ] },
    { "name": "q", "sequencer": "amem_read",
      "instructions": [
        { "eopgm": 1, "op": { "opcd": "Read_SRAM", "data_type": "IEEE_FP16",
                              "amem_addr_offset": 3 } } ] },
    { "name": "q", "sequencer": "amem_read", "instructions": [ { "eopgm": 1 } ] }
  ]
}
`;

describe('IR diagnostics point at the JSON value', () => {
  test('field errors: line:col of the value, caret under it', () => {
    const sources = new SourceMap();
    const ds = diagsOf(() => assembleIr(IR, { isa, file: 'm.json', sources }));
    const spans = ds.map((d) => [d.code, d.span as SourceSpan]);
    expect(spans).toEqual([
      ['AS0510', { file: 'm.json', line: 6, column: 69, length: 1 }],
      ['AS0510', { file: 'm.json', line: 6, column: 92, length: 8 }],
    ]);
    expect(ds[1]!.message).toMatch(/^programs\[0\]\.instructions\[0\]\.op\.amem_addr_offset: /);
    const text = renderDiagnostics(ds, 'human', { color: false, sources });
    expect(text).toContain('m.json:6:92: error[AS0510]');
    expect(text).toContain(' '.repeat(91) + '^^^^^^^^');
  });
  test('rule checks and duplicates point at the instruction field / program name', () => {
    const fixed = IR.replace(', "amem_addr_offset": 99999999', '').replace('"bogus": 3', '"amem_addr_offset": 2');
    const ds = diagsOf(() => assembleIr(fixed, { isa, file: 'm.json' }));
    const byCode = new Map(ds.map((d) => [d.code, d.span as SourceSpan]));
    // 16-bit data at an odd offset (seq §1.1): the `3` on line 10
    expect(byCode.get('AS0412')).toEqual({ file: 'm.json', line: 10, column: 51, length: 1 });
    // the second program named q: its "name" value on line 11
    expect(byCode.get('AS0218')).toEqual({ file: 'm.json', line: 11, column: 15, length: 3 });
  });
  test('IR given as parsed JSON still reports (at 1:1)', () => {
    const ds = diagsOf(() => assembleIr(JSON.parse(IR), { isa, file: 'm.json' }));
    expect(ds.every((d) => (d.span as SourceSpan).line === 1)).toBe(true);
  });
});

describe('binary input', () => {
  test('NUL byte and invalid UTF-8: one AS0106 at the byte offset', () => {
    const bin = diagsOf(() => assemble({ file: 'x.pasm', text: 'PYXOBJ\0\0\x01' }, { isa }));
    expect(bin).toHaveLength(1);
    expect(bin[0]!.code).toBe('AS0106');
    expect(bin[0]!.message).toBe('`x.pasm` looks like a binary file (NUL byte at offset 6); expected assembly source');
    expect(bin[0]!.span).toEqual({ file: 'x.pasm', offset: 6 });
    // byte (not character) offset: "é" is 2 bytes in UTF-8
    const bad = new TextDecoder().decode(new Uint8Array([0x23, 0xc3, 0xa9, 0x20, 0xff, 0x0a]));
    expect(binaryTextProblem(bad)).toEqual({ offset: 4, what: 'invalid UTF-8' });
    expect(binaryTextProblem('# ok é\n.program p amem_read { Read_SRAM }\n')).toBeUndefined();
    // only the first BINARY_SNIFF_CHARS are examined
    expect(binaryTextProblem('#'.repeat(9000) + '\0')).toBeUndefined();
  });
  test('an included binary file is reported too; IR text as well', () => {
    const files: Record<string, string> = { 'b.bin': '\0\0\0' };
    const ds = diagsOf(() => assemble({ file: 'a.pasm', text: '.include "b.bin"\n' }, { isa, readFile: (p) => files[p] }));
    expect(ds.map((d) => d.code)).toEqual(['AS0106']);
    expect(ds[0]!.span).toEqual({ file: 'b.bin', offset: 0 });
    expect(diagsOf(() => assembleIr('{"a\0"}', { isa, file: 'i.json' }))[0]!.code).toBe('AS0106');
  });
});

describe('AS0320: iterator-select fields (`*_iter_id`) name enclosing loops', () => {
  const warns = (body: string, seq = 'amem_read') => assemble({ file: 'w.pasm', text: `.program p ${seq} {\n${body}\n}\n` }, { isa }).diagnostics.filter((d) => d.code === 'AS0320');
  test('explicit values outside the enclosing loops warn, with the field spec section', () => {
    const w = warns('loop i0 2 { loop i1 3 { Read_SRAM } Read_SRAM rpsw_config_iter_id=i1 }');
    expect(w).toHaveLength(1);
    expect(w[0]!.severity).toBe('warning');
    expect(w[0]!.spec).toBe('pyxis-uie-sequencers-fspec.md §5.1, §5.4');
    expect(w[0]!.span).toMatchObject({ line: 2, column: 67, length: 2 });
  });
  test('enclosing loops, defaults and the raw ctrl form do not warn', () => {
    expect(warns('loop i0 2 { loop i1 3 { Read_SRAM rpsw_config_iter_id=i1 rcsw_switch_config_iter_id=i0 } }')).toEqual([]);
    expect(warns('Read_SRAM')).toEqual([]); // default rpsw_config_iter_id = 0 outside any loop
    expect(warns('ctrl { eopgm=1 } Read_SRAM rpsw_config_iter_id=i3')).toEqual([]);
    expect(warns('loop i0 4 { HBUF_RD_VLD hbuf_stride_iter_id_dim1=5 }', 'gh').map((d) => d.message)).toEqual([
      '`hbuf_stride_iter_id_dim1` selects iterator 5 (`i5`), which is not a loop enclosing this instruction',
    ]);
  });
});
