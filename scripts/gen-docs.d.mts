// Types for scripts/gen-docs.mjs (used by packages/codec/test/pyxis-grammars.test.ts).
import type { CompiledTable } from '@pyxis/codec';

export interface CodecLike {
  loadTarget(target: string): CompiledTable[];
  tableToMarkdown(t: CompiledTable): string;
  grammarsDir(): string;
}

export function renderIsaManifest(isa: unknown, tables: Map<string, CompiledTable>): string;
export function renderMemoryMap(mm: unknown): string;
export function renderTarget(codec: CodecLike, grammarsRoot: string, target: string): Map<string, string>;
export function renderAll(codec: CodecLike, grammarsRoot?: string): Map<string, string>;
export function compareDocs(files: Map<string, string>, docsDir: string): { stale: string[]; missing: string[]; orphaned: string[] };
