/**
 * Reading grammar folders: a folder of JSON files, each a field table
 * (docs/field-tables.md) or a data file of the target's own (a manifest, a
 * memory map). A target passes its own folder (`Target.grammars`): the
 * shipped ones live under the repository's `grammars/<target>/`, a test
 * target's anywhere. Anything wrong with a file is one TableError naming the
 * file, the table and the field; nothing is skipped silently.
 */
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join, relative, isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileTable, TableError } from './compile.js';
import type { CompiledTable, FieldTable } from './table.js';

/**
 * `grammars/` sits at the repository root; packages/<pkg>/src and
 * packages/<pkg>/dist are both three levels below it. PYXIS_GRAMMARS=DIR
 * points every `loadTable(target, ...)` at another copy.
 */
export function grammarsDir(): string {
  const env = process.env['PYXIS_GRAMMARS'];
  if (env) return env;
  return fileURLToPath(new URL('../../../grammars/', import.meta.url));
}

/** The shipped grammar folder of a target (`grammars/<target>/`, or under PYXIS_GRAMMARS). */
export function targetGrammarsDir(target: string): string {
  return join(grammarsDir(), target);
}

/** How a file is named in errors: relative to the working directory when inside it. */
function shown(file: string): string {
  const abs = resolve(file);
  const rel = relative(process.cwd(), abs);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : abs;
}

const cache = new Map<string, CompiledTable>();

/** Loads and compiles `<dir>/<name>.json` (cached by path). */
export function loadTableFrom(dir: string, name: string): CompiledTable {
  const file = resolve(dir, `${name}.json`);
  const hit = cache.get(file);
  if (hit) return hit;
  const t = loadTableFile(file);
  cache.set(file, t);
  return t;
}

/** Loads and compiles `grammars/<target>/<name>.json` (cached). */
export function loadTable(target: string, name: string): CompiledTable {
  return loadTableFrom(targetGrammarsDir(target), name);
}

function readText(file: string): string {
  if (!existsSync(file)) throw new TableError(shown(file), 'no such grammar file', { file: shown(file) });
  return readFileSync(file, 'utf8');
}

function parse(file: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new TableError(shown(file), `not valid JSON: ${(e as Error).message}`, { file: shown(file) });
  }
}

/** Reads and compiles one table file; every problem is a TableError naming the file (and the field, with its line). */
export function loadTableFile(file: string): CompiledTable {
  const text = readText(file);
  const json = parse(file, text);
  if (json === null || typeof json !== 'object' || Array.isArray(json)) throw new TableError(shown(file), 'a field table must be a JSON object', { file: shown(file) });
  try {
    return compileTable(json as FieldTable, relative(grammarsDir(), file));
  } catch (e) {
    if (e instanceof TableError) throw e.locate(shown(file), text);
    throw e;
  }
}

/** Keys close to `fields` (a typo would otherwise turn a table into a data file and drop it). */
function looksLikeTable(json: Record<string, unknown>): boolean {
  if ('fields' in json) return true;
  return Object.keys(json).some((k) => k !== 'fields' && k.length >= 4 && /^f[a-z]*ld[a-z]*s?$|^fi[a-z]*ds?$/i.test(k));
}

/**
 * Every table of a grammar folder, by file name order. A file is a table when
 * it has `fields` (or a key that is a misspelling of it, which then fails to
 * compile with a message saying so); other files are the target's data files
 * (read with `loadGrammarJsonFrom`). A missing folder is an error.
 */
export function loadTablesIn(dir: string): CompiledTable[] {
  if (!existsSync(dir)) throw new TableError(shown(dir), 'no such grammar folder', { file: shown(dir) });
  const out: CompiledTable[] = [];
  for (const f of readdirSync(dir).sort()) {
    if (!f.endsWith('.json')) continue;
    const file = join(dir, f);
    const json = parse(file, readText(file));
    if (json === null || typeof json !== 'object' || Array.isArray(json)) continue;
    const obj = json as Record<string, unknown>;
    if (!looksLikeTable(obj)) continue;
    if (!('fields' in obj)) {
      const typo = Object.keys(obj).find((k) => k !== 'fields' && /^f/i.test(k));
      throw new TableError(shown(file), `no \`fields\` array, but a key \`${typo}\`: a misspelling of \`fields\`?`, { file: shown(file) });
    }
    out.push(loadTableFrom(dir, f.replace(/\.json$/, '')));
  }
  return out;
}

/** Every table of a shipped target (`grammars/<target>/`); a target without a folder has none. */
export function loadTarget(target: string): CompiledTable[] {
  const dir = targetGrammarsDir(target);
  return existsSync(dir) ? loadTablesIn(dir) : [];
}

/** Reads a non-table data file of a grammar folder (e.g. a memory map). */
export function loadGrammarJsonFrom<T = unknown>(dir: string, name: string): T {
  const file = join(dir, `${name}.json`);
  return parse(file, readText(file)) as T;
}

/** Reads a non-table data file under grammars/<target>/ (e.g. a memory map). */
export function loadGrammarJson<T = unknown>(target: string, name: string): T {
  return loadGrammarJsonFrom<T>(targetGrammarsDir(target), name);
}
