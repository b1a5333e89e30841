import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DiagnosticError } from '@pyxis/diagnostics';
import { assemble, loadPyxisIsa } from '@pyxis/target-pyxis/asm';

const isa = loadPyxisIsa();
import { link } from '@pyxis/target-pyxis/ld';

const samples = fileURLToPath(new URL('../../../../samples/pyxis/', import.meta.url));
const obj = assemble([{ file: 'copy.pasm', text: readFileSync(samples + 'copy.pasm', 'utf8') }], { isa, listing: false }).object;
const base = readFileSync(samples + 'fork_join.ld', 'utf8');
const npy = readFileSync(samples + 'copy_src.npy');
const readFile = (p: string) => {
  if (p.endsWith('copy_src.npy')) return new Uint8Array(npy);
  throw Object.assign(new Error('ENOENT'), { code: 'ENOENT' });
};

function tryLink(script: string): void {
  try {
    link({ script, scriptFile: '/v/s.ld', objects: [{ file: 'copy.pobj', container: obj }], readFile });
  } catch (e) {
    if (!(e instanceof DiagnosticError)) throw e;
    for (const d of e.diagnostics) {
      expect(d.code).toMatch(/^[A-Z]{2,3}\d{4}$/);
      expect(d.message.length).toBeGreaterThan(0);
    }
  }
}

const TOKENS = ['{', '}', '[', ']', ';', ',', '=', 'after', 'queue', 'trip', 'tensor', 'memory', 'uie0', 'h2a', 'mpe3', 'src', 'dst', 'load', 'c0', '0', '-1', '0x7fffffff', '64G', '"x.npy"', '"a\\qb"', 'RFP16', 'shape', 'region', 'amem0', 'address', 'cluster', '9', 'view', 'unhashed', 'op', 'matmul', 'blob', 'weights'];

describe('link never crashes on malformed scripts', () => {
  it('random token mutations of a valid script give a DiagnosticError or an image', () => {
    const toks = base.split(/(\s+)/);
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(), fc.constantFrom(...TOKENS), fc.boolean()), { minLength: 1, maxLength: 4 }), (edits) => {
        const t = [...toks];
        for (const [pos, tok, del] of edits) {
          const i = pos % t.length;
          if (del) t.splice(i, 1);
          else t.splice(i, 0, ' ', tok, ' ');
        }
        tryLink(t.join(''));
      }),
      { numRuns: 300 },
    );
  });
  it('random text', () => {
    fc.assert(fc.property(fc.string({ maxLength: 200 }), (s) => tryLink(s)), { numRuns: 200 });
  });
});

describe('tensor data files named in diagnostics', () => {
  it('a corrupt .npy is reported at its path from the working directory (script directory + script path), with the script span', () => {
    const bad = new Uint8Array(npy);
    bad.set(new TextEncoder().encode('xxxxxxxxxx'), 20); // inside the header dict
    const script = readFileSync(samples + 'copy.ld', 'utf8');
    let caught: unknown;
    try {
      link({ script, scriptFile: 'sub/dir/copy.ld', objects: [{ file: 'copy.pobj', container: obj }], readFile: () => bad });
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(DiagnosticError);
    const d = (caught as DiagnosticError).diagnostics[0]!;
    expect(d.code).toBe('TF0004');
    expect(d.span).toEqual({ file: 'sub/dir/copy_src.npy', offset: 20 });
    expect(d.secondary?.[0]?.label).toBe('loaded from here');
  });
});
