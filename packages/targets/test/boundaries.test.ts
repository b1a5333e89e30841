/**
 * The package boundary of "targets as plugins": the shared packages name no
 * target. Checked on the TypeScript syntax tree of every source file
 * (comments are free to give examples; code is not):
 *
 *  1. no import, re-export or dynamic import of a target package
 *     (`@pyxis/target-<name>`, `@pyxis/targets`);
 *  2. no string literal that is a target name or starts with one as a
 *     namespace (`'pyxis'`, `'pyxis.sol_pc'`, `'xnu/...'`): that is how code
 *     selects a target's tables (`loadTable('pyxis', ...)`), relocations or
 *     behaviour; names that merely start with the word (`'pyxis-fp'`, the
 *     number-format family, or the tool names `pyxis-as`) are not target names;
 *  3. no literal naming a target's grammar folder (`grammars/<name>`) or one
 *     of the data files in it (`sim_config.json`, `'memory_map'`);
 *  4. in the drivers and the contract (cli, target), whose strings are help
 *     and messages every target's users read: no target name as a word at all
 *     (`Pyxis: patch blobs`): what a target adds, the target says.
 *
 * Target names are the project's four machines plus whatever is discovered
 * (packages/target-*, grammars/*) and the test toy, so a new target is covered
 * without an edit here.
 */
import { describe, expect, test } from 'vitest';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const SHARED = ['diagnostics', 'codec', 'formats', 'container', 'asm', 'ld', 'sim', 'report', 'target', 'cli'] as const;
/** Packages whose string literals are user-facing text for every target (rule 4). */
const DRIVERS = new Set(['target', 'cli']);

function targetNames(): string[] {
  // The four machines of the project (README) even before their packages exist, and the test toy.
  const names = new Set(['pyxis', 'systolic', 'neuroncore', 'xnu', 'toy']);
  for (const d of readdirSync(join(root, 'packages'))) if (d.startsWith('target-')) names.add(d.slice('target-'.length));
  for (const d of readdirSync(join(root, 'grammars'))) if (statSync(join(root, 'grammars', d)).isDirectory()) names.add(d);
  return [...names].sort();
}

/** Base names of the data files in every target's grammar folder (`isa`, `sim_config`, ...). */
function grammarFileNames(): string[] {
  const out = new Set<string>();
  for (const d of readdirSync(join(root, 'grammars'))) {
    const dir = join(root, 'grammars', d);
    if (!statSync(dir).isDirectory()) continue;
    for (const f of readdirSync(dir)) if (f.endsWith('.json')) out.add(f.slice(0, -5));
  }
  return [...out].sort();
}

export interface Violation {
  line: number;
  rule: string;
  text: string;
}

/** The boundary violations of one source file (exported for the self-test below). */
export function violations(file: string, text: string, targets: readonly string[], dataFiles: readonly string[], driver: boolean): Violation[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const out: Violation[] = [];
  const at = (n: ts.Node, rule: string, t: string) => out.push({ line: sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1, rule, text: t });
  const alt = targets.map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
  const importRe = new RegExp(`^@pyxis/(?:targets|target-[a-z0-9-]+)(?:/|$)`);
  const nameRe = new RegExp(`^(?:${alt})(?:$|[./])`, 'i');
  const folderRe = new RegExp(`grammars[/\\\\](?:${alt})\\b`, 'i');
  const wordRe = new RegExp(`(?<![-@/\\w])(?:${alt})(?![-\\w])`, 'i');
  // Plain words (`machine`, `timing`, `isa`) are grammar file names too; only identifier-like names (`sim_config`,
  // `memory_map`) are distinctive enough to flag as bare strings or words; any name is flagged with `.json`.
  const distinctive = dataFiles.filter((f) => f.includes('_'));
  const dataSet = new Set(distinctive);
  const visit = (n: ts.Node): void => {
    if ((ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) && n.moduleSpecifier && ts.isStringLiteral(n.moduleSpecifier) && importRe.test(n.moduleSpecifier.text))
      at(n, 'imports a target package', n.moduleSpecifier.text);
    else if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword && n.arguments[0] && ts.isStringLiteralLike(n.arguments[0]) && importRe.test(n.arguments[0].text))
      at(n, 'imports a target package', n.arguments[0].text);
    else if (ts.isStringLiteralLike(n) || ts.isTemplateHead(n) || ts.isTemplateMiddle(n) || ts.isTemplateTail(n)) {
      const s = n.text;
      const isModule = n.parent && (ts.isImportDeclaration(n.parent) || ts.isExportDeclaration(n.parent));
      if (!isModule) {
        if (nameRe.test(s)) at(n, 'names a target', s);
        else if (folderRe.test(s)) at(n, "names a target's grammar folder", s);
        else if (dataSet.has(s) || dataFiles.some((f) => s.includes(`${f}.json`))) at(n, "names a target's grammar file", s);
        else if (driver && (wordRe.test(s.replace(/\bpyxis-(?:as|ld|sim)\b/g, '')) || distinctive.some((f) => new RegExp(`\\b${f}\\b`).test(s))))
          at(n, 'driver text names a target or its grammar files', s);
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...sourceFiles(p));
    else if (/\.(?:ts|mts|js|mjs)$/.test(e.name) && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

describe('shared packages name no target', () => {
  const targets = targetNames();
  const data = grammarFileNames();

  test('the discovered targets include the shipped one and the toy', () => {
    expect(targets).toContain('pyxis');
    expect(targets).toContain('toy');
    expect(data).toContain('sim_config');
  });

  for (const pkg of SHARED)
    test(`@pyxis/${pkg}`, () => {
      const found: string[] = [];
      for (const f of sourceFiles(join(root, 'packages', pkg, 'src')))
        for (const v of violations(f, readFileSync(f, 'utf8'), targets, data, DRIVERS.has(pkg))) found.push(`${f.slice(root.length)}:${v.line}: ${v.rule}: ${JSON.stringify(v.text)}`);
      expect(found).toEqual([]);
    });

  test('the rules catch real violations (and leave comments, number formats and tool names alone)', () => {
    const bad = [
      "import { pyxisTarget } from '@pyxis/target-pyxis';",
      "export * from '@pyxis/targets';",
      "const t = await import('@pyxis/target-xnu/entry');",
      "const isa = loadTable('pyxis', name);",
      "const kind = 'pyxis.sol_pc';",
      "const dir = `${root}/grammars/systolic/`;",
      "const cfg = readJson('sim_config.json');",
      "const mm = loadGrammarJson(t, 'memory_map');",
      "program.option('--emit <kind>', 'Pyxis: patch blobs');",
      "program.option('--clock-hz <hz>', 'default: from the sim_config');",
    ].join('\n');
    const v = violations('bad.ts', bad, targets, data, true);
    expect(v.map((x) => x.line)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    // the last two are only violations in driver text
    expect(violations('bad.ts', bad, targets, data, false).map((x) => x.line)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    const fine = [
      "// loadTable('pyxis', 'isa') is what a target does; e.g. grammars/pyxis/isa.json",
      "import { x } from '@pyxis/codec';",
      "export const family = 'pyxis-fp';",
      "runTool('pyxis-sim', 'simulator');",
      "const spec = 'RFP8';",
    ].join('\n');
    expect(violations('fine.ts', fine, targets, data, true)).toEqual([]);
  });
});

/**
 * Target semantics that live in shared packages on purpose (docs/architecture.md "Shared on purpose"): number formats
 * with their machine arithmetic, and the sequencer-program syntax of the shared parser. A file that starts to carry
 * such meaning fails here until it is declared in both places.
 */
const SHARED_ON_PURPOSE: Record<string, readonly string[]> = {
  formats: ['errors.ts', 'fixed.ts', 'formats.ts', 'hw.ts', 'mnsRound.ts', 'ops.ts', 'registry.ts', 'rfp16Fast.ts', 'tables.ts', 'types.ts'],
  asm: ['ast.ts', 'fastparse.ts', 'parser.ts', 'sources.ts', 'tokens.ts'],
};
/** A machine's spec cited in a comment (the Pyxis chip and sequencer specs, the Tensil, NeuronCore and XNU documents). */
const MACHINE_SPEC = /\b(?:chip|seq) §|systolic-fpga-hardware|neuroncore-v2-architecture|xnu-pe-similarity/;
/** The sequencer-program syntax: the `.vpu` directive and the loop's last-iteration keywords, in code (not comments). */
function sequencerSyntax(file: string, text: string): boolean {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  let found = false;
  const visit = (n: ts.Node): void => {
    if (found) return;
    if ((ts.isStringLiteralLike(n) || ts.isRegularExpressionLiteral(n) || ts.isTemplateHead(n) || ts.isTemplateMiddle(n) || ts.isTemplateTail(n)) && /\.vpu\b|\bpost_final\b|^final$/.test(n.text)) found = true;
    else if ((ts.isPropertySignature(n) || ts.isPropertyAssignment(n)) && n.name && ts.isIdentifier(n.name) && /^(?:vpu|final|postFinal)$/.test(n.name.text)) found = true;
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return found;
}

describe('target semantics shared on purpose are declared', () => {
  const arch = readFileSync(join(root, 'docs', 'architecture.md'), 'utf8');
  const section = arch.slice(arch.indexOf('## Shared on purpose'), arch.indexOf('\n## ', arch.indexOf('## Shared on purpose') + 3));

  test('docs/architecture.md has the section and names every declared file; every shared file it names is declared', () => {
    expect(section.length).toBeGreaterThan(100);
    for (const [pkg, files] of Object.entries(SHARED_ON_PURPOSE))
      for (const f of files) {
        expect(existsSync(join(root, 'packages', pkg, 'src', f)), `${pkg}/src/${f} exists`).toBe(true);
        expect(section, `the section names packages/${pkg}/src/${f}`).toContain(`packages/${pkg}/src/${f}`);
      }
    for (const m of section.matchAll(/packages\/(formats|asm)\/src\/([\w.]+\.ts)/g))
      if (!(m[1] === 'asm' && m[2] === 'flat.ts')) expect(SHARED_ON_PURPOSE[m[1]!], `${m[0]} declared in the test`).toContain(m[2]);
  });

  test('@pyxis/formats: every file citing a machine spec is declared', () => {
    const found = sourceFiles(join(root, 'packages', 'formats', 'src'))
      .filter((f) => MACHINE_SPEC.test(readFileSync(f, 'utf8')))
      .map((f) => f.slice(f.lastIndexOf('/') + 1));
    expect(found.filter((f) => !SHARED_ON_PURPOSE.formats!.includes(f))).toEqual([]);
  });

  test('@pyxis/asm: every file with the sequencer-program syntax is declared', () => {
    const found = sourceFiles(join(root, 'packages', 'asm', 'src'))
      .filter((f) => sequencerSyntax(f, readFileSync(f, 'utf8')))
      .map((f) => f.slice(f.lastIndexOf('/') + 1));
    expect(found.length).toBeGreaterThan(0);
    expect(found.filter((f) => !SHARED_ON_PURPOSE.asm!.includes(f))).toEqual([]);
    // the detector sees the syntax in code and not in comments
    expect(sequencerSyntax('a.ts', "const k = new Set(['loop', 'final']);")).toBe(true);
    expect(sequencerSyntax('b.ts', '// a `.vpu NAME { }` program, loop ... final\nconst x = 1;')).toBe(false);
  });
});
