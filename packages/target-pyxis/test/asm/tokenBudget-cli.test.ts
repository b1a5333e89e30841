/**
 * `pyxis-as` on a source one token over the shipped budget (MAX_TOKENS, @pyxis/asm tokenBudget.ts): AS0109
 * at file:line:col, exit 1, no object, no stack trace. Cheap: the file is counted, never lexed.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAX_TOKENS } from '@pyxis/asm';
import { runAs } from '@pyxis/targets';

describe('pyxis-as token budget', () => {
  it('a `.const X = 1+1+...` line one token over the default budget: AS0109, exit 1, no output', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'as-budget-'));
    try {
      // counted: `.`, const, X, =, 2*terms-1 for the sum, the line end: 2*terms + 4 = MAX_TOKENS + 2, and
      // token MAX_TOKENS + 1 = 2*terms + 3 is the last `1`
      const terms = (MAX_TOKENS - 2) / 2;
      expect(Number.isInteger(terms)).toBe(true);
      const src = join(dir, 'big.pasm');
      writeFileSync(src, `.const X = ${Array(terms).fill('1').join('+')}\n`);
      const out = join(dir, 'big.pobj');
      let err = '';
      const io = { stdout: () => undefined, stderr: (s: string) => void (err += s) };
      expect(await runAs([src, '-o', out, '--no-color'], io)).toBe(1);
      expect(existsSync(out)).toBe(false);
      // the first `1` is at column 12, each next two columns on
      const col = 12 + 2 * (terms - 1);
      expect(err).toContain(`big.pasm:1:${col}: error[AS0109]: too many tokens: the assembly reaches ${MAX_TOKENS + 2} tokens with this file, the limit is ${MAX_TOKENS}`);
      expect(err).toMatch(/split the program .* flat listing/);
      expect(err).not.toMatch(/at .*\.[jt]s:\d+/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
