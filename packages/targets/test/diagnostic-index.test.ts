/**
 * docs/diagnostics.md is the index of every diagnostic code the tools can print. This test keeps it honest:
 *
 *  1. every code string literal (`'AS0201'`: two to four capitals and four digits in single quotes) in
 *     packages/<pkg>/src and scripts/, and every code written inside a one-line template literal of code (not a
 *     comment: `...do not apply (CLI0021)`, `SWP0007: failed ...`, codes printed as part of a message), has a row
 *     `| CODE | severity | meaning | spec | more |` in it;
 *  2. every row's code still occurs in the source (no stale rows), once, under the section of its prefix;
 *  3. every row is well formed (a severity, a meaning) and its `more` link names an existing doc and heading.
 *
 * The harvest is written here, independently of any tool code. How it was checked that it can fail: a literal
 * `'ZZ9999'` appended to packages/cli/src/tool.ts made check 1 fail naming ZZ9999, and a row `| AS0100 | ...` (a
 * code no source has) added to docs/diagnostics.md made check 2 fail naming AS0100; both were reverted. The `missing`/`stale` helpers are also run on
 * a synthetic input below so the comparison itself cannot silently pass.
 */
import { describe, expect, test } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const CODE_LITERAL = /'([A-Z]{2,4}[0-9]{4})'/g;
const SOURCE = /\.(ts|mts|cts|js|mjs|cjs)$/;

function walk(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== 'node_modules' && e.name !== 'dist') walk(p, out);
    } else if (SOURCE.test(e.name)) out.push(p);
  }
  return out;
}

/** code -> first file (relative) it occurs in. */
function sourceCodes(): Map<string, string> {
  const files = [
    ...readdirSync(join(root, 'packages')).flatMap((p) => (existsSync(join(root, 'packages', p, 'src')) ? walk(join(root, 'packages', p, 'src')) : [])),
    ...walk(join(root, 'scripts')),
  ];
  const codes = new Map<string, string>();
  const add = (code: string, f: string) => codes.has(code) || codes.set(code, f.slice(root.length));
  for (const f of files) {
    const text = readFileSync(f, 'utf8');
    for (const m of text.matchAll(CODE_LITERAL)) add(m[1], f);
    for (const line of text.split('\n')) {
      if (/^\s*(\*|\/\/|\/\*)/.test(line)) continue;
      const code = line.replace(/\s\/\/ .*$/, '');
      for (const t of code.matchAll(/`[^`]*`/g)) for (const m of t[0].matchAll(/\b([A-Z]{2,4}[0-9]{4})\b/g)) add(m[1], f);
    }
  }
  return codes;
}

interface Row { code: string; section: string; cells: string[]; line: number }

function indexRows(text: string): Row[] {
  const rows: Row[] = [];
  let section = '';
  text.split('\n').forEach((l, i) => {
    const h = l.match(/^## ([A-Z]{2,4}): /);
    if (h) section = h[1];
    const r = l.match(/^\| ([A-Z]{2,4}[0-9]{4}) \|/);
    if (r) rows.push({ code: r[1], section, line: i + 1, cells: l.slice(1, -1).split(/(?<!\\)\|/).map((c) => c.trim()) });
  });
  return rows;
}

const missing = (src: Iterable<string>, rows: Row[]) => [...src].filter((c) => !rows.some((r) => r.code === c)).sort();
const stale = (src: Set<string>, rows: Row[]) => rows.filter((r) => !src.has(r.code)).map((r) => r.code);

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to dashes, repeats numbered. */
function anchors(md: string): Set<string> {
  const out = new Set<string>();
  const seen = new Map<string, number>();
  let fence = false;
  for (const l of md.split('\n')) {
    if (/^```/.test(l)) fence = !fence;
    const h = !fence && l.match(/^#{1,6} (.*)/);
    if (!h) continue;
    const s = h[1].toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, '').replace(/ /g, '-');
    const n = seen.get(s) ?? 0;
    seen.set(s, n + 1);
    out.add(n ? `${s}-${n}` : s);
  }
  return out;
}

const index = readFileSync(join(root, 'docs/diagnostics.md'), 'utf8');
const rows = indexRows(index);
const src = sourceCodes();

describe('docs/diagnostics.md, the index of diagnostic codes', () => {
  test('the comparison reports an added code and a removed one', () => {
    const fake = indexRows('## AS: x\n| code | severity | meaning | spec | more |\n|---|---|---|---|---|\n| AS0001 | error | m |  |  |\n');
    expect(missing(['AS0001', 'ZZ9999'], fake)).toEqual(['ZZ9999']);
    expect(stale(new Set(['AS0002']), fake)).toEqual(['AS0001']);
  });

  test('the harvest finds the codes (a broken regex or path would find none)', () => {
    expect(src.size).toBeGreaterThan(400);
    expect(src.get('AS0101')).toMatch(/^packages\//);
    expect(src.get('CLI0021'), 'a code printed inside a message template').toBe('packages/cli/src/params.ts');
  });

  test('every code in the source has a row', () => {
    expect(missing(src.keys(), rows), 'codes without a row in docs/diagnostics.md').toEqual([]);
  });

  test('every row names a code that occurs in the source (no stale rows)', () => {
    expect(stale(new Set(src.keys()), rows), 'rows whose code no source file contains').toEqual([]);
  });

  test('one row per code, under the section of its prefix, well formed', () => {
    const seen = new Set<string>();
    const bad: string[] = [];
    for (const r of rows) {
      if (seen.has(r.code)) bad.push(`${r.code}: second row (line ${r.line})`);
      seen.add(r.code);
      if (r.code.replace(/[0-9]+$/, '') !== r.section) bad.push(`${r.code}: under section ${r.section} (line ${r.line})`);
      if (r.cells.length !== 5) bad.push(`${r.code}: ${r.cells.length} cells, want 5 (line ${r.line})`);
      if (!/^(error|warning|note)( \/ (error|warning|note))*$/.test(r.cells[1] ?? '')) bad.push(`${r.code}: severity \`${r.cells[1]}\``);
      if (!r.cells[2]) bad.push(`${r.code}: no meaning`);
    }
    expect(bad).toEqual([]);
  });

  test('every link points to an existing doc and heading', () => {
    const cache = new Map<string, Set<string>>();
    const bad: string[] = [];
    for (const m of index.matchAll(/\]\(([a-z0-9_/-]+\.md)(?:#([^)]+))?\)/g)) {
      const file = join(root, 'docs', m[1]);
      if (!existsSync(file)) {
        bad.push(`${m[1]}: no such doc`);
        continue;
      }
      if (!m[2]) continue;
      if (!cache.has(file)) cache.set(file, anchors(readFileSync(file, 'utf8')));
      if (!cache.get(file)!.has(m[2])) bad.push(`${m[1]}#${m[2]}: no such heading`);
    }
    const own = anchors(index);
    for (const m of index.matchAll(/\]\(#([^)]+)\)/g)) if (!own.has(m[1])) bad.push(`#${m[1]}: no such heading on this page`);
    expect(bad).toEqual([]);
  });
});
