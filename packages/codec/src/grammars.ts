import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileTable, TableError } from './compile.js';
import type { CompiledTable, FieldTable } from './table.js';

/**
 * `grammars/` sits at the repository root; packages/<pkg>/src and
 * packages/<pkg>/dist are both three levels below it.
 */
export function grammarsDir(): string {
  const env = process.env['PYXIS_GRAMMARS'];
  if (env) return env;
  return fileURLToPath(new URL('../../../grammars/', import.meta.url));
}

const cache = new Map<string, CompiledTable>();

/** Loads and compiles `grammars/<target>/<name>.json` (cached). */
export function loadTable(target: string, name: string): CompiledTable {
  const key = `${target}/${name}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const file = join(grammarsDir(), target, `${name}.json`);
  const t = loadTableFile(file);
  cache.set(key, t);
  return t;
}

export function loadTableFile(file: string): CompiledTable {
  if (!existsSync(file)) throw new TableError(file, `no such grammar file ${file}`);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new TableError(file, `not valid JSON: ${(e as Error).message}`);
  }
  return compileTable(json as FieldTable, relative(grammarsDir(), file));
}

/** Every table of a target (files whose JSON has a `fields` array). */
export function loadTarget(target: string): CompiledTable[] {
  const dir = join(grammarsDir(), target);
  if (!existsSync(dir)) return [];
  const out: CompiledTable[] = [];
  for (const f of readdirSync(dir).sort()) {
    if (!f.endsWith('.json')) continue;
    const json = parseJsonFile(join(dir, f)) as { fields?: unknown } | null;
    if (json === null || typeof json !== 'object') continue;
    if (Array.isArray(json.fields)) out.push(loadTable(target, f.replace(/\.json$/, '')));
  }
  return out;
}

/** Reads a non-table data file under grammars/ (e.g. a memory map). */
export function loadGrammarJson<T = unknown>(target: string, name: string): T {
  return parseJsonFile(join(grammarsDir(), target, `${name}.json`)) as T;
}

/** Reads a JSON file; a missing or malformed file is a TableError naming it. */
function parseJsonFile(file: string): unknown {
  if (!existsSync(file)) throw new TableError(file, `no such grammar file ${file}`);
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new TableError(file, `not valid JSON: ${(e as Error).message}`);
  }
}
