import { test } from 'vitest';
import { readFileSync } from 'node:fs';
import { assemble } from '../src/index.js';
import { renderDiagnostics, DiagnosticError } from '@pyxis/diagnostics';
test('x', () => {
  const f = new URL('../../../samples/pyxis/conv3x3_read.pasm', import.meta.url).pathname;
  try {
    const r = assemble({ file: f, text: readFileSync(f, 'utf8') });
    console.log(r.listing);
    console.log(JSON.stringify(r.object.relocations));
  } catch (e) {
    if (e instanceof DiagnosticError) console.log(renderDiagnostics(e.diagnostics, 'human', {}));
    else throw e;
  }
});
