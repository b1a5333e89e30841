/** Shared helpers of the pyxis-ld tests. */
import { DiagnosticError, type Diagnostic } from '@pyxis/diagnostics';
import { link, type LinkOptions } from '@pyxis/target-pyxis/ld';

/** A virtual file system for data files (matched by file name). */
export function vfs(files: Record<string, Uint8Array>): LinkOptions['readFile'] {
  return (p: string) => {
    const k = Object.keys(files).find((f) => p.endsWith('/' + f));
    if (!k) throw Object.assign(new Error(`ENOENT: ${p}`), { code: 'ENOENT' });
    return files[k]!;
  };
}

/** The diagnostics of a link that must fail with a DiagnosticError. */
export function linkErr(opts: LinkOptions): Diagnostic[] {
  try {
    link(opts);
  } catch (e) {
    if (e instanceof DiagnosticError) return e.diagnostics;
    throw e;
  }
  throw new Error('expected link to fail');
}
