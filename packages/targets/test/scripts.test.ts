/** The repository's scripts as a newcomer runs them: arguments and output directories (issue 26). */
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { intArg } from '../../../scripts/args.mjs';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

describe('script arguments', () => {
  it('--runs: absent gives the default, a value is a positive integer, anything else a usage error', () => {
    expect(intArg(['node', 'x'], '--runs', 3)).toBe(3); // was NaN: argv[indexOf(-1) + 1] is the node binary
    expect(intArg(['--runs', '5'], '--runs', 3)).toBe(5);
    for (const bad of [['--runs'], ['--runs', '0'], ['--runs', 'two'], ['--runs', '1.5']]) expect(() => intArg(bad, '--runs', 3)).toThrow(/--runs expects a positive integer/);
  });
});

describe('samples/neuroncore/make-inputs.mjs DIR', () => {
  it('creates a DIR that does not exist yet', () => {
    const base = mkdtempSync(join(tmpdir(), 'nc-inputs-'));
    try {
      const out = join(base, 'new', 'dir');
      execFileSync(process.execPath, [join(ROOT, 'samples/neuroncore/make-inputs.mjs'), out], { stdio: 'pipe' });
      expect(existsSync(out)).toBe(true);
      expect(readdirSync(out).filter((f) => f.endsWith('.npy')).length).toBeGreaterThan(0);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });
});

describe('docs:check refuses citations of source files that no longer exist', () => {
  it('the repository cites none; a moved file is reported with the citing document', async () => {
    const { staleCitations } = await import('../../../scripts/gen-docs.mjs');
    expect(staleCitations()).toEqual([]);
    const base = mkdtempSync(join(tmpdir(), 'cite-'));
    try {
      const { mkdirSync, writeFileSync } = await import('node:fs');
      mkdirSync(join(base, 'docs'));
      mkdirSync(join(base, 'grammars/t'), { recursive: true });
      mkdirSync(join(base, 'packages/a/src'), { recursive: true });
      writeFileSync(join(base, 'packages/a/src/here.ts'), '');
      writeFileSync(join(base, 'docs/x.md'), 'Implemented in packages/a/src/here.ts and packages/a/src/gone.ts.\n');
      writeFileSync(join(base, 'grammars/t/w.json'), '{"doc": "see packages/b/src/old.ts"}');
      expect(staleCitations(base)).toEqual([
        ['docs/x.md', 'packages/a/src/gone.ts'],
        ['grammars/t/w.json', 'packages/b/src/old.ts'],
      ]);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });
});

describe('docs:check refuses a user page that docs/README.md (the index every --help points to) does not list', () => {
  it('the repository indexes every docs/*.md; a new page missing from the index is reported', async () => {
    const { unindexedDocs } = await import('../../../scripts/gen-docs.mjs');
    expect(unindexedDocs()).toEqual([]);
    const base = mkdtempSync(join(tmpdir(), 'index-'));
    try {
      const { mkdirSync, writeFileSync } = await import('node:fs');
      mkdirSync(join(base, 'docs/dev'), { recursive: true });
      writeFileSync(join(base, 'docs/README.md'), '| [a.md](a.md) | a |\n');
      for (const f of ['a.md', 'b.md', 'dev/c.md']) writeFileSync(join(base, 'docs', f), '');
      expect(unindexedDocs(base)).toEqual(['b.md']);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });
});
