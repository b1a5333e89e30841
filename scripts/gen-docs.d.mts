// Types for scripts/gen-docs.mjs (used by packages/target-pyxis/test/grammars/pyxis-grammars.test.ts and packages/targets/test/docs.test.ts).
import type { CompiledTable } from '@pyxis/codec';

export interface CodecLike {
  loadTablesIn(dir: string): CompiledTable[];
  tableToMarkdown(t: CompiledTable): string;
  grammarsDir(): string;
}

export function renderIsaManifest(isa: unknown, tables: Map<string, CompiledTable>): string;
export function renderMemoryMap(mm: unknown): string;
export interface DocsHooksLike {
  generate(): Map<string, string>;
}
export interface DataRenderer {
  file: string;
  place: 'before' | 'after';
  render(json: unknown, tables: Map<string, CompiledTable>): string;
}
export const DATA_RENDERERS: DataRenderer[];
export function renderNocMap(nm: unknown): string;
export function renderTarget(codec: CodecLike, grammarsRoot: string, target: string, opts?: { dir?: string; docs?: DocsHooksLike }): Map<string, string>;
export function renderAll(codec: CodecLike, grammarsRoot?: string, targets?: Array<{ name: string; grammars: string; docs?: DocsHooksLike }>): Map<string, string>;
export function compareDocs(files: Map<string, string>, docsDir: string): { stale: string[]; missing: string[]; orphaned: string[] };
/** Cited source paths that do not exist: [citing file, cited path]. */
export function staleCitations(root?: string): Array<[string, string]>;
/** docs/*.md user pages (not docs/README.md itself, not sub-folders) that docs/README.md does not link to. */
export function unindexedDocs(root?: string): string[];
