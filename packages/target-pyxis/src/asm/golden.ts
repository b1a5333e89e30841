/** Golden-file renderers shared by scripts/regen-golden.mjs and the tests (so both print identically). */
import { DiagnosticError, SourceMap, renderDiagnostics } from '@pyxis/diagnostics';
import { assemble } from './assemble.js';
import type { Isa } from './isa.js';

/** Listing of a sample that must assemble (file = repository-relative path). */
export function goldenListing(file: string, text: string, isa: Isa): string {
  return assemble({ file, text }, { isa }).listing;
}

/** Plain-text diagnostics of a sample that must fail. */
export function goldenErrors(file: string, text: string, isa: Isa): string {
  const sources = new SourceMap();
  try {
    assemble({ file, text }, { sources, isa });
  } catch (e) {
    if (e instanceof DiagnosticError) return renderDiagnostics(e.diagnostics, 'human', { color: false, sources }) + '\n';
    throw e;
  }
  throw new Error(`${file}: expected errors, but it assembled`);
}
