/**
 * The Target contract, proved by a target that is not Pyxis: the toy
 * accumulator machine (./toy) is registered here and driven through the same
 * driver functions the shipped tools run (runAs, runLd, runSim, inspect).
 * Expected bytes and cycle counts are derived by hand from
 * toy/grammars/toy/toy_insn.json (word = opcode | arg << 4) and the timing
 * rule in toy/machine.ts, not read back from the implementation.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runAs, runLd, runSim } from '@pyxis/targets';
import { readContainerFile } from '@pyxis/container';
import * as codec from '@pyxis/codec';
import { renderAll } from '../../../scripts/gen-docs.mjs';
import { registerTarget, unregisterTarget, targetEntries } from '@pyxis/target';
import { makeToyTarget, toyTarget, TOY_GRAMMARS } from './toy/target.js';

const samples = fileURLToPath(new URL('./toy/samples/', import.meta.url));
type Run = (argv: string[], io?: { stdout?: (s: string) => void; stderr?: (s: string) => void }) => Promise<number>;

async function call(run: Run, args: string[]) {
  let out = '';
  let err = '';
  const code = await run(['--no-color', ...args], { stdout: (s) => (out += s), stderr: (s) => (err += s) });
  return { code, out, err };
}

const word = (op: number, arg = 0) => op | (arg << 4);
const words = (b: Uint8Array) => Array.from({ length: b.length / 2 }, (_, i) => b[2 * i]! | (b[2 * i + 1]! << 8));
// opcodes of toy_insn.json
const [HALT, LOAD, ADD, SUB, STORE, JNZ] = [0, 2, 3, 4, 5, 6];
// sum.toy: COUNT = 0, ONE = 1, TOTAL = 2
const SUM_WORDS = [word(LOAD, 2), word(ADD, 0), word(STORE, 2), word(LOAD, 0), word(SUB, 1), word(STORE, 0), word(JNZ, 0), word(HALT)];

describe('a test-only target through the shared drivers', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pyxis-toy-'));
  const src = join(samples, 'sum.toy');
  const obj = join(dir, 'sum.pobj');
  const img = join(dir, 'sum.pimg');
  beforeAll(() => registerTarget(toyTarget));
  afterAll(() => unregisterTarget('toy'));

  test('the toy is registered after the built-in targets (the default stays first)', () => {
    expect(targetEntries().map((e) => e.name)).toContain('toy');
    expect(targetEntries()[0]!.name).not.toBe('toy');
  });

  test('assemble: the .toy extension selects the toy; words as the table says', async () => {
    const r = await call(runAs, [src, '-o', obj, '--listing', join(dir, 'sum.lst')]);
    expect(r.code, r.err).toBe(0);
    const c = readContainerFile(obj);
    expect(c.kind).toBe('pobj');
    expect(c.target).toBe('toy');
    expect(c.symbols.map((s) => [s.name, s.kind])).toEqual([['sum', 'program']]);
    expect(words(c.sections[0]!.data)).toEqual(SUM_WORDS);
    // the JNZ (PC 6) is program-relative: one relocation for the linker
    expect(c.relocations.map((x) => [x.kind, x.offset])).toEqual([['toy.pc', 12]]);
    const lst = readFileSync(join(dir, 'sum.lst'), 'utf8');
    expect(lst).toMatch(/^\s+6\s+0006r\s+.*sum\.toy:13 JNZ$/m);
  });

  test('disassemble round-trips to the same words', async () => {
    const d = await call(runAs, ['disassemble', obj]);
    expect(d.code, d.err).toBe(0);
    expect(d.out).toContain('JNZ arg=0');
    const again = join(dir, 'again.toy');
    writeFileSync(again, d.out);
    const r = await call(runAs, [again, '-o', join(dir, 'again.pobj')]);
    expect(r.code, r.err).toBe(0);
    expect(words(readContainerFile(join(dir, 'again.pobj')).sections[0]!.data)).toEqual(SUM_WORDS);
  });

  test('link: the object header selects the toy; JNZ relocated by the program base', async () => {
    const r = await call(runLd, [join(samples, 'sum.ld'), obj, '-o', img, '--map', '-']);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/imem\s+4\s+8\s+sum/);
    const c = readContainerFile(img);
    expect(c.kind).toBe('pimg');
    expect(c.target).toBe('toy');
    const code = c.sections.find((s) => s.space === 'imem')!;
    expect(code.address).toBe(4);
    expect(words(code.data)).toEqual([...SUM_WORDS.slice(0, 6), word(JNZ, 4), word(HALT)]);
    expect(words(c.sections.find((s) => s.space === 'dmem')!.data)).toEqual([5, 1, 0]);
  });

  test('simulate: exact cycles, instructions and memory', async () => {
    const stats = join(dir, 'stats.json');
    const dump = join(dir, 'dmem.bin');
    const r = await call(runSim, ['run', img, '--stats', stats, '--dump-data', dump, '--trace', join(dir, 'trace.json')]);
    expect(r.code, r.err).toBe(0);
    // 5 iterations x (6 memory instructions x 2 cycles + JNZ 1) + HALT 1 = 66 cycles; 5 x 7 + 1 = 36 instructions
    expect(r.out).toBe('toy: halted after 66 cycles, 36 instructions, acc=0\n');
    const s = JSON.parse(readFileSync(stats, 'utf8')) as Record<string, unknown>;
    expect(s).toMatchObject({ target: 'toy', cycles: 66, instructions: 36, busy: 66 });
    // COUNT counted down to 0, TOTAL = 5+4+3+2+1
    expect((s['dmem'] as number[]).slice(0, 3)).toEqual([0, 1, 15]);
    expect(words(new Uint8Array(readFileSync(dump))).slice(0, 3)).toEqual([0, 1, 15]);
    const trace = JSON.parse(readFileSync(join(dir, 'trace.json'), 'utf8')) as { traceEvents: Array<{ ph: string }> };
    expect(trace.traceEvents.filter((e) => e.ph === 'X')).toHaveLength(36);
  });

  test('a runaway program stops at --max-cycles with exit 1', async () => {
    const loop = join(dir, 'loop.toy');
    writeFileSync(loop, '.program spin acc {\n  LOADI imm=1\n  JNZ target=1\n}\n');
    expect((await call(runAs, [loop, '-o', join(dir, 'loop.pobj')])).code).toBe(0);
    const ld = join(dir, 'loop.ld');
    writeFileSync(ld, 'code spin { at = 0; }\n');
    expect((await call(runLd, [ld, join(dir, 'loop.pobj'), '-o', join(dir, 'loop.pimg')])).code).toBe(0);
    const r = await call(runSim, ['run', join(dir, 'loop.pimg'), '--max-cycles', '100', '--dump-data', join(dir, 'never.bin')]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/error\[TSIM0003\]: max-cycles after 100 cycles/);
    expect(existsSync(join(dir, 'never.bin'))).toBe(false);
  });

  test('inspect uses the toy hook (through every tool)', async () => {
    for (const run of [runAs, runLd, runSim] as Run[]) {
      const r = await call(run, ['inspect', img]);
      expect(r.code, r.err).toBe(0);
      expect(r.out).toMatch(/pimg version 1, target toy/);
      expect(r.out).toMatch(/Code sum \(imem 4\):\n(?:.*\n){6}\s+10\s+JNZ arg=4\n\s+11\s+HALT\n/);
      // the toy names its own section flag bit
      expect(r.out).toMatch(/\bvars\s+data\s+dmem\b.*\bscratch$/m);
    }
  });

  test('--target toy for a source without the toy extension; an unknown target is a usage error', async () => {
    const plain = join(dir, 'plain.s');
    writeFileSync(plain, readFileSync(src, 'utf8'));
    const r = await call(runAs, ['--target', 'toy', plain, '-o', join(dir, 'plain.pobj')]);
    expect(r.code, r.err).toBe(0);
    expect(readContainerFile(join(dir, 'plain.pobj')).target).toBe('toy');
    const u = await call(runAs, ['--target', 'nope', plain]);
    expect(u.code).toBe(2);
    expect(u.err).toMatch(/unknown target `nope` \(known: .*toy/);
  });

  test('a toy option given for another target is a usage error; --help lists it', async () => {
    const h = await call(runSim, ['run', '--help']);
    // help is wrapped to the terminal width: compare with the line breaks folded
    expect(h.out.replace(/\s+/g, ' ')).toMatch(/--dump-data <file\.bin>.*\[toy\]/);
    const r = await call(runSim, ['run', '--target', 'pyxis', img, '--dump-data', join(dir, 'x.bin')]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--dump-data is not an option of target pyxis \(it is one of toy\)/);
  });

  test('an image of another target: --target toy on a Pyxis-named target is refused with CLI0002', async () => {
    const r = await call(runSim, ['run', img, '--target', 'pyxis']);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/is an image for target `toy`, not `pyxis`/);
  });

  test('assembler errors carry file:line:col and leave no output', async () => {
    const bad = join(dir, 'bad.toy');
    writeFileSync(bad, '.program p acc {\n  LOADI imm=1\n  JMP target=0\n  ADD addr=4096\n  STORE where=1\n}\n.program q alu {\n  HALT\n}\n');
    const out = join(dir, 'bad.pobj');
    const r = await call(runAs, [bad, '-o', out]);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`${bad}:3:3: error[TOY0003]: unknown mnemonic \`JMP\``);
    expect(r.err).toContain(`${bad}:4:12: error[TOY0006]: value 4096 out of range for \`arg\``);
    expect(r.err).toContain(`${bad}:5:9: error[TOY0004]: unknown operand \`where\``);
    expect(r.err).toContain(`${bad}:7:12: error[TOY0001]: unknown unit \`alu\``);
    expect(existsSync(out)).toBe(false);
    const j = await call(runAs, [bad, '-o', out, '--diagnostics-format', 'json']);
    const first = JSON.parse(j.err.split('\n')[0]!) as { code: string; span: { line: number; column: number } };
    expect(first).toMatchObject({ code: 'TOY0003', span: { line: 3, column: 3 } });
  });

  test('linker errors carry file:line:col and leave no image', async () => {
    const ld = join(dir, 'bad.ld');
    writeFileSync(ld, 'code sum { at = 250; }\ncode nosuch { at = 0; }\nstack s { }\n');
    const out = join(dir, 'bad.pimg');
    const r = await call(runLd, [ld, obj, '-o', out]);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`${ld}:2:6: error[TLD0004]: no object defines program \`nosuch\``);
    expect(r.err).toContain(`${ld}:3:1: error[TLD0006]: unknown block \`stack\``);
    expect(r.err).toContain(`${ld}:1:6: error[TLD0007]: \`sum\` (8 words at 250) does not fit imem (256 words)`);
    expect(existsSync(out)).toBe(false);
  });

  test('a broken grammar file of the target is one clear error naming file, field and line (exit 3, no output)', async () => {
    const broken = join(dir, 'grammars', 'toy');
    mkdirSync(broken, { recursive: true });
    const good = readFileSync(join(TOY_GRAMMARS, 'toy_insn.json'), 'utf8');
    writeFileSync(join(broken, 'toy_insn.json'), good.replace('"width": 12', '"width": 70'));
    registerTarget(makeToyTarget(broken, 'toybad'));
    try {
      const out = join(dir, 'broken.pobj');
      const r = await call(runAs, ['--target', 'toybad', src, '-o', out]);
      expect(r.code).toBe(3);
      const line = good.split('\n').findIndex((l) => l.includes('"name": "arg"')) + 1;
      expect(r.err).toMatch(new RegExp(`toy_insn\\.json:${line}:\\d+: error\\[GR0001\\]: grammar file .*toy_insn\\.json \\(table \`toy_insn\`\\): field \`arg\`: width must be 1\\.\\.64, got 70`));
      expect(r.err).not.toMatch(/at .*\.ts:\d+/); // no stack trace
      expect(existsSync(out)).toBe(false);
      // a missing file: the same code, naming the file
      writeFileSync(join(broken, 'toy_insn.json'), '{ "name": "toy_insn", ');
      registerTarget(makeToyTarget(join(dir, 'nowhere'), 'toybad'));
      const m = await call(runAs, ['--target', 'toybad', src, '-o', out]);
      expect(m.code).toBe(3);
      expect(m.err).toMatch(/error\[GR0001\]: grammar file .*nowhere\/toy_insn\.json: no such grammar file/);
    } finally {
      unregisterTarget('toybad');
    }
  });

  test('docs generation renders the toy from its own grammar folder, plus its docs hook pages', () => {
    const files = renderAll(codec, codec.grammarsDir(), [toyTarget]);
    const toy = [...files.keys()].filter((k) => k.startsWith('toy/'));
    expect(toy).toEqual(['toy/README.md', 'toy/timing.md', 'toy/toy_insn.md']);
    expect(files.get('toy/toy_insn.md')).toMatch(/Generated by scripts\/gen-docs\.mjs from packages\/targets\/test\/toy\/grammars\/toy\/toy_insn\.json/);
    expect(files.get('toy/toy_insn.md')).toMatch(/\| 15:4 \| `arg` \| 12 \|/);
    expect(files.get('toy/README.md')).toMatch(/\| \[`toy_insn`\]\(toy_insn\.md\) \| Toy accumulator machine instruction \| 16 \| 2 \|/);
    expect(files.get('toy/timing.md')).toMatch(/\| `ADD` \| 2 \|\n\| `SUB` \| 2 \|/);
    // the shipped targets' pages are there too (grammars/ folders no target claimed)
    expect(files.has('pyxis/README.md')).toBe(true);
    // a hook may not replace a generated table page
    const clash = { ...toyTarget, docs: { generate: () => new Map([['toy_insn.md', 'x']]) } };
    expect(() => renderAll(codec, codec.grammarsDir(), [clash])).toThrow(/docs hook of target toy generates toy_insn\.md/);
  });
});
