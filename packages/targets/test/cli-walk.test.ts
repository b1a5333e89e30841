/**
 * The three tools x the four targets given what binutils / LLVM users try (session 9, polish3): every target answers
 * the same mistake the same way.
 * - a name the input does not hold in `--dump`, `--compare`, `--input`, `--output`: a usage error (exit 2) with
 *   did-you-mean and the names there are (unknownName, @pyxis/diagnostics); Pyxis said SIM0013 (exit 1).
 * - a single-value option given twice (`-o a -o b`): usage (exit 2), as LLVM and pyxis-gen (GEN0070); the last one
 *   won silently. Repeatable options (`--set`, `-I`, `--dump`) still repeat.
 * - a binary file as a source (AS0106; the NeuronCore lexer quoted the bytes) or as a link script (LD0005; it was
 *   lexed into LD0002 / SYS0200) on every target, at its byte offset.
 * - an output that is a FIFO or a device (`-o /dev/null`): written in place, never replaced by a renamed temporary
 *   file (as root that turned /dev/null into a regular file). Tested on a FIFO in a temporary directory.
 * - `inspect --json` of a systolic `.tmodel` / `.tprog` is JSON; commander's usage errors carry the did-you-mean as a
 *   note in JSON.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { closeSync, constants, copyFileSync, mkdtempSync, openSync, readFileSync, readSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isSpecialOutput, readContainerFile, readNpy, writeContainerFile, writeNpyFile } from '@pyxis/container';
import { runAs, runLd, runSim } from '@pyxis/targets';
import { call } from './cli-call.js';
import { sampleInputs } from '../../../samples/neuroncore/inputs.mjs';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const S = join(root, 'samples');
const dir = mkdtempSync(join(tmpdir(), 'pyxis-cli-walk-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const as = (a: string[]) => call(runAs, a);
const ld = (a: string[]) => call(runLd, a);
const sim = (a: string[]) => call(runSim, a);
/** The ELF-like head of a binary: a NUL at byte 7. */
const BINARY = Uint8Array.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0, 0x41, 0x42]);

/** The four targets' images (each linked from its sample here). */
async function images(): Promise<Record<string, string>> {
  const pyxis = join(dir, 'copy.pimg');
  expect((await as([join(S, 'pyxis/copy.pasm'), '-o', join(dir, 'copy.pobj')])).code).toBe(0);
  expect((await ld([join(S, 'pyxis/copy.ld'), join(dir, 'copy.pobj'), '-o', pyxis])).code).toBe(0);
  expect((await as([join(S, 'xnu/nn.xasm'), '-o', join(dir, 'nn.pobj')])).code).toBe(0);
  expect((await ld([join(S, 'xnu/nn.ld'), join(dir, 'nn.pobj'), '-o', join(dir, 'nn.pimg')])).code).toBe(0);
  for (const [f, t] of Object.entries(sampleInputs())) if (f.startsWith('softmax')) writeNpyFile(join(dir, f), t);
  copyFileSync(join(S, 'neuroncore/softmax.ld'), join(dir, 'softmax.ld'));
  expect((await as([join(S, 'neuroncore/softmax.ncasm'), '-o', join(dir, 'sm.pobj')])).code).toBe(0);
  expect((await ld([join(dir, 'softmax.ld'), join(dir, 'sm.pobj'), '-o', join(dir, 'sm.pimg')])).code).toBe(0);
  return { pyxis, xnu: join(dir, 'nn.pimg'), neuroncore: join(dir, 'sm.pimg'), systolic: join(S, 'systolic/fc.tmodel') };
}

describe('unknown names in options: one usage error for every target', () => {
  it('--dump / --output / --input / --compare of a name the image does not hold: exit 2, did-you-mean, the names', async () => {
    const img = await images();
    const out = join(dir, 'never.npy');
    const cases: Array<[string, string[], RegExp]> = [
      ['pyxis', ['--dump', `out_hbn=${out}`], /--dump: no tensor `out_hbn` in the image\n {2}= help: did you mean `out_hbm`\?\n {2}= help: tensors in the image: .*out_hbm/],
      ['pyxis', ['--compare', `out_hbn=${out}`], /--compare: no tensor `out_hbn` in the image\n {2}= help: did you mean `out_hbm`\?/],
      ['xnu', ['--dump', `nn_l3=${out}`], /--dump: no job `nn_l3` in the image\n {2}= help: did you mean `nn_l2`\?\n {2}= help: jobs in the image: nn_l2, nn_l1/],
      ['xnu', ['--compare', `nn_l3=${out}`], /--compare: no job `nn_l3` in the image\n {2}= help: did you mean `nn_l2`\?/],
      ['neuroncore', ['--dump', `YY=${out}`], /--dump: no HBM tensor `YY` in the image\n {2}= help: did you mean `Y`\?\n {2}= help: HBM tensors in the image: X, Y/],
      ['systolic', ['--output', `y=${out}`], /--output: no output `y` in the model\n {2}= help: did you mean `y:0`\?\n {2}= help: outputs in the model: y:0/],
      ['systolic', ['--input', `x=${out}`], /--input: no input `x` in the model\n {2}= help: did you mean `x:0`\?/],
      ['systolic', ['--compare', `y=${out}`], /--compare: no output `y` in the model/],
    ];
    for (const [t, args, msg] of cases) {
      // the reference named by --compare does not exist: the name is checked first (usage before input errors)
      const r = await sim(['run', img[t]!, ...args]);
      expect([t, args[0], r.code, r.out], r.err).toEqual([t, args[0], 2, '']);
      expect(r.err).toMatch(msg);
    }
    const j = await sim(['run', img['pyxis']!, '--dump', `out_hbn=${out}`, '--diagnostics-format', 'json']);
    expect(JSON.parse(j.err.trim())).toEqual({ severity: 'error', code: 'CLI0001', message: '--dump: no tensor `out_hbn` in the image', notes: ['did you mean `out_hbm`?', 'tensors in the image: src_hbm, src, dst, out_hbm'] });
    expect(readdirSync(dir).filter((f) => f.startsWith('never'))).toEqual([]);
    // any file name takes a dump, on every target (XNU wanted a name ending in .npy: a usage error)
    for (const [t, spec] of [['xnu', 'nn_l2'], ['neuroncore', 'Y'], ['pyxis', 'out_hbm']] as const) {
      const f = join(dir, `${t}.dump`);
      const r = await sim(['run', img[t]!, '--dump', `${spec}=${f}`]);
      expect([t, r.code], r.err).toEqual([t, 0]);
      expect(readNpy(readFileSync(f), f).shape.length, t).toBeGreaterThan(0);
    }
  }, 30_000);
});

describe('an option that takes one value, given twice', () => {
  it('is a usage error in every tool, naming both values; repeatable options still repeat', async () => {
    const src = join(S, 'pyxis/copy.pasm');
    const a = join(dir, 'twice-a.pobj');
    const b = join(dir, 'twice-b.pobj');
    let r = await as([src, '-o', a, '--output', b]);
    expect([r.code, r.err]).toEqual([2, `pyxis-as: error: -o/--output given twice (\`${a}\`, then \`${b}\`); it takes one value: give it once\n(run with --help for usage)\n`]);
    r = await ld([join(S, 'pyxis/copy.ld'), a, '--target', 'pyxis', '--target', 'xnu']);
    expect([r.code, /--target given twice \(`pyxis`, then `xnu`\)/.test(r.err)]).toEqual([2, true]);
    r = await sim(['run', join(dir, 'x.pimg'), '--max-cycles', '10', '--max-cycles', '20']);
    expect([r.code, /--max-cycles given twice/.test(r.err)]).toEqual([2, true]);
    r = await sim(['--log-level', 'info', '--log-level', 'warn', 'params']);
    expect([r.code, /--log-level given twice/.test(r.err)]).toEqual([2, true]);
    expect(readdirSync(dir).filter((f) => f.startsWith('twice'))).toEqual([]);
    // -I collects its values, flags may repeat
    r = await as([src, '-o', a, '-I', dir, '-I', S, '--no-color']);
    expect(r.code, r.err).toBe(0);
  });
});

describe('a missing file named by an option', () => {
  it('is IO0001 (exit 1) as a missing input is, on every target (systolic --arch was a usage error)', async () => {
    const missing = join(dir, 'missing.tarch');
    const cases: Array<[string, Promise<{ code: number; err: string }>]> = [
      ['as --arch', as(['--target', 'systolic', join(S, 'systolic/fc.tasm'), '--arch', missing, '-o', join(dir, 'm.pobj')])],
      ['sim --arch', sim(['run', join(S, 'systolic/fc.tmodel'), '--arch', missing])],
      ['sim --input', sim(['run', join(S, 'systolic/fc.tmodel'), '--input', `x:0=${missing}`])],
      ['sim --sim-config', sim(['run', join(S, 'systolic/fc.tmodel'), '--sim-config', missing])],
    ];
    for (const [what, p] of cases) {
      const r = await p;
      expect([what, r.code, r.err]).toEqual([what, 1, `error[IO0001]: no such file: ${missing}\n`]);
    }
  });
});

describe('hand-edited metadata that only feeds the progress bar', () => {
  it('metadata.pyxis.queues[].lists that is not a list of lists runs as if absent (fuzz pimg seeds 82, 116, 232: exit 3)', async () => {
    const src = join(dir, 'q-src.pobj');
    expect((await as([join(S, 'pyxis/copy.pasm'), '-o', src])).code).toBe(0);
    expect((await ld([join(S, 'pyxis/copy.ld'), src, '-o', join(dir, 'q.pimg')])).code).toBe(0);
    for (const [i, lists] of [-1e300, [null], [-1, { descriptors: 'x' }]].entries()) {
      const c = readContainerFile(join(dir, 'q.pimg'));
      ((c.metadata['pyxis'] as { queues: Array<Record<string, unknown>> }).queues[0]!)['lists'] = lists;
      const f = join(dir, `q${i}.pimg`);
      writeContainerFile(f, c);
      const r = await sim(['run', f]);
      expect([i, r.code], r.err).toEqual([i, 0]);
    }
  });
});

describe('binary files given as text', () => {
  it('a binary source is AS0106 on every target; a binary link script LD0005', async () => {
    for (const ext of ['pasm', 'tasm', 'xasm', 'ncasm']) {
      const f = join(dir, `bin.${ext}`);
      writeFileSync(f, BINARY);
      const r = await as([f, '-o', join(dir, 'bin.pobj'), ...(ext === 'tasm' ? ['--arch', join(S, 'systolic/arch4.tarch')] : [])]);
      expect([ext, r.code, r.err]).toEqual([ext, 1, `${f}: offset 0x0000007 (7): error[AS0106]: \`${f}\` looks like a binary file (NUL byte at offset 7); expected assembly source\n`]);
    }
    const script = join(dir, 'bin.ld');
    writeFileSync(script, BINARY);
    const tm = join(dir, 'bin.tmodel');
    writeFileSync(tm, BINARY);
    for (const [t, s, exts] of [['pyxis', script, '.ld, .json'], ['xnu', script, '.ld'], ['neuroncore', script, '.ld'], ['systolic', tm, '.tmodel']] as const) {
      const r = await ld(['--target', t, s, '-o', join(dir, 'bin.pimg')]);
      expect([t, r.code, r.err]).toEqual([t, 1, `${s}: offset 0x0000007 (7): error[LD0005]: \`${s}\` looks like a binary file (NUL byte at offset 7); expected a link script (${exts})\n`]);
    }
    expect(readdirSync(dir).filter((f) => f === 'bin.pobj' || f === 'bin.pimg')).toEqual([]);
  });
});

describe('outputs that are not regular files', () => {
  it('a FIFO given as -o and --listing is written in place and stays a FIFO (no temporary file renamed over it)', async () => {
    const fifo = join(dir, 'out.fifo');
    execFileSync('mkfifo', [fifo]);
    // a reader first (non-blocking open), so that the tool's open for writing does not wait
    const fd = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const r = await as([join(S, 'pyxis/copy.pasm'), '-o', fifo, '--listing', fifo]);
      expect(r.code, r.err).toBe(0);
      expect(statSync(fifo).isFIFO()).toBe(true);
      const buf = new Uint8Array(1 << 16);
      const n = readSync(fd, buf);
      // the object (its container magic first), then the listing
      expect(new TextDecoder().decode(buf.subarray(0, 6))).toBe('PYXOBJ');
      expect(new TextDecoder().decode(buf.subarray(0, n))).toContain('copy.pasm');
    } finally {
      closeSync(fd);
    }
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
  it('/dev/null, /dev/stdout (a link to a file when stdout is redirected) and a FIFO are written in place; a regular file is not', () => {
    // checked without writing: a regression here would replace the nodes themselves when the tests run as root
    expect(['/dev/null', '/dev/stdout', join(dir, 'out.fifo')].map(isSpecialOutput)).toEqual([true, true, true]);
    expect([join(dir, 'copy.pobj'), join(dir, 'not-yet.pobj')].map(isSpecialOutput)).toEqual([false, false]);
  });
});

describe('machine-readable output', () => {
  it('inspect --json of a systolic .tmodel and .tprog is JSON: the architecture and one record per instruction', async () => {
    for (const args of [[join(S, 'systolic/fc.tmodel')], ['--target', 'systolic', '--arch', join(S, 'systolic/arch4.tarch'), join(S, 'systolic/fc.tprog')]]) {
      const r = await sim(['inspect', '--json', ...args]);
      expect(r.code, r.err).toBe(0);
      const j = JSON.parse(r.out) as { target: string; arch: { array_size: number }; instructions: Array<{ pc: number; offset: number; text: string }> };
      expect([j.target, j.arch.array_size, j.instructions.length]).toEqual(['systolic', 4, 6]);
      // arch4's words are 6 bytes (operands 16/16/8 bits, flags and opcode 8)
      expect(j.instructions[5]).toEqual({ pc: 5, offset: 30, text: 'DataMove flow=local_to_dram0 local=16 dram0=8 size=3' });
    }
  });
  it('an unknown option: the tool\'s error form, did-you-mean as a help note (human) or in notes (JSON)', async () => {
    let r = await as(['--lisitng', 'x.lst', 'a.pasm']);
    expect([r.code, r.err]).toEqual([2, "pyxis-as: error: unknown option '--lisitng'\n  = help: did you mean `--listing`?\n(run with --help for usage)\n"]);
    // `help NAME` of no command: named, with did-you-mean (it printed the whole help on stderr, exit 2)
    r = await sim(['help', 'rn']);
    expect([r.code, r.err]).toEqual([2, 'pyxis-sim: error: unknown command \'rn\'\n  = help: did you mean `run`?\n  = help: commands: run, params, sweep, worker, report, inspect, help\n(run with --help for usage)\n']);
    expect((await sim(['help', 'run'])).code).toBe(0);
    r = await sim(['--diagnostics-format', 'json', 'runn']);
    expect([r.code, JSON.parse(r.err.trim())]).toEqual([2, { severity: 'error', code: 'CLI0001', message: "unknown command 'runn'", notes: ['did you mean `run`?'] }]);
  });
  it('a value outside an option\'s choices: `--OPT: must be ...` with did-you-mean (commander\'s "Allowed choices" said none)', async () => {
    let r = await sim(['run', 'x.pimg', '--diagnostics-format', 'jsn']);
    expect([r.code, r.err]).toEqual([2, 'pyxis-sim: error: --diagnostics-format: must be human or json (got `jsn`)\n  = help: did you mean `json`?\n(run with --help for usage)\n']);
    r = await as(['--log-format', 'prety', 'a.pasm']);
    expect([r.code, r.err]).toEqual([2, 'pyxis-as: error: --log-format: must be pretty or json (got `prety`)\n  = help: did you mean `pretty`?\n(run with --help for usage)\n']);
    // nothing near: no note; JSON keeps the same message
    r = await sim(['--diagnostics-format', 'json', 'run', 'x.pimg', '--timing', 'bogus']);
    expect([r.code, JSON.parse(r.err.trim())]).toEqual([2, { severity: 'error', code: 'CLI0001', message: '--timing: must be spec or rtl (got `bogus`)' }]);
  });
});
