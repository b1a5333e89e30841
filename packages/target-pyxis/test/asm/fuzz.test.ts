/** Random mutations of valid sources: the assembler only ever succeeds or throws DiagnosticError. */
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DiagnosticError } from '@pyxis/diagnostics';
import { assemble, assembleIr, emitIr, irToText, programsFromContainer } from '@pyxis/target-pyxis/asm';
import { isa, samplesDir } from './helpers.js';

// the valid samples and the error goldens (mutations of bad input must not crash either)
const sources = [samplesDir, join(samplesDir, 'errors')].flatMap((d) =>
  readdirSync(d)
    .filter((f) => f.endsWith('.pasm'))
    .map((f) => readFileSync(join(d, f), 'utf8')),
);
const snippets = ['hbuf_write_ctl=1', 'vpv_pgm_start_addr=x', '.vpu v { RELU }', '{', '}', '[', ']', '=', 'loop', 'loop i7 3 {', 'final', 'when [i0]', 'post_final', 'ctrl {', '.const X = 1/0', '0x', '<<', '99999999999999999999999', '-', '~', '\n', ';', '.include "x"', 'i0', '.program', '"', '\\\n', '#', '@'];

const mutation = fc.oneof(
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), len: fc.integer({ min: 1, max: 20 }) }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), text: fc.oneof(fc.constantFrom(...snippets), fc.string({ maxLength: 8 })) }),
  fc.record({ kind: fc.constant('dup' as const), at: fc.nat(), len: fc.integer({ min: 1, max: 80 }) }),
);

function mutate(src: string, ms: { kind: string; at: number; len?: number; text?: string }[]): string {
  let s = src;
  for (const m of ms) {
    const at = s.length ? m.at % s.length : 0;
    if (m.kind === 'delete') s = s.slice(0, at) + s.slice(at + (m.len ?? 1));
    else if (m.kind === 'insert') s = s.slice(0, at) + m.text + s.slice(at);
    else s = s.slice(0, at) + s.slice(at, at + (m.len ?? 1)) + s.slice(at);
  }
  return s;
}

describe('fuzz', () => {
  test('mutated .pasm never crashes', () => {
    fc.assert(
      fc.property(fc.constantFrom(...sources), fc.array(mutation, { minLength: 1, maxLength: 5 }), (src, ms) => {
        const text = mutate(src, ms);
        try {
          assemble({ file: 'fuzz.pasm', text }, { isa, readFile: () => undefined });
        } catch (e) {
          if (!(e instanceof DiagnosticError)) throw e;
          for (const d of e.diagnostics) {
            expect(d.code).toMatch(/^AS\d{4}$/);
            expect(d.message.length).toBeGreaterThan(0);
          }
        }
      }),
      { numRuns: 250 },
    );
  });
  test('mutated IR never crashes', () => {
    const base = irToText(emitIr(programsFromContainer(assemble({ file: 's.pasm', text: sources[0]! }, { isa }).object, isa), isa));
    fc.assert(
      fc.property(fc.array(mutation, { minLength: 1, maxLength: 4 }), (ms) => {
        try {
          assembleIr(mutate(base, ms), { isa });
        } catch (e) {
          if (!(e instanceof DiagnosticError)) throw e;
        }
      }),
      { numRuns: 200 },
    );
  });
});
