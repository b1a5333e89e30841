/**
 * The three tools on the systolic target, in-process: the sample fully
 * connected layer assembled, linked from its .tmodel and simulated (directly
 * and as a .pimg) with the expected output of samples/systolic; malformed
 * manifests and programs give diagnostics and exit 1, never a stack trace.
 */
import { copyFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { runAs, runLd, runSim } from '@pyxis/targets';
import { readNpyFile, writeNpyFile, makeTensor } from '@pyxis/container';

const S = fileURLToPath(new URL('../../../samples/systolic/', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'systolic-cli-'));

async function cap(run: typeof runSim, argv: string[]) {
  let out = '';
  let err = '';
  const code = await run(['--no-color', ...argv], { stdout: (s) => void (out += s), stderr: (s) => void (err += s) });
  return { code, out, err };
}

const expected = readFileSync(S + 'fc.expected.txt', 'utf8').split('\n').filter((l) => l && !l.startsWith('#')).map((l) => l.split(' ').map(Number));

describe('sample fully connected layer', () => {
  test('pyxis-as --emit tprog reproduces samples/systolic/fc.tprog', async () => {
    const r = await cap(runAs, ['--target', 'systolic', '--arch', S + 'arch4.tarch', S + 'fc.tasm', '--emit', 'tprog', '-o', join(tmp, 'fc.tprog')]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(readFileSync(join(tmp, 'fc.tprog'))).toEqual(readFileSync(S + 'fc.tprog'));
  });
  test('the assembler needs --arch (usage error, exit 2)', async () => {
    const r = await cap(runAs, [S + 'fc.tasm', '-o', join(tmp, 'x.pobj')]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('needs --arch');
  });
  test('pyxis-sim run MODEL.tmodel: output as float32 .npy, stats JSON with the honest label', async () => {
    const r = await cap(runSim, ['run', S + 'fc.tmodel', '--input', `x:0=${S}fc_x.npy`, '--output', `y:0=${join(tmp, 'y.npy')}`, '--stats', '-']);
    expect(r.code).toBe(0);
    const y = readNpyFile(join(tmp, 'y.npy'));
    expect(y.dtype).toBe('float32');
    expect(y.shape).toEqual([3, 4]);
    expect([0, 1, 2].map((i) => Array.from(y.data.slice(i * 4, i * 4 + 4)))).toEqual(expected);
    const stats = JSON.parse(r.out);
    expect(stats.model).toMatch(/bit-exact.*estimate/);
    expect(stats.cycles).toBeGreaterThan(0);
    expect(stats.frames_per_second).toBeCloseTo(stats.clock_hz / stats.cycles);
    expect(stats.macs).toBe(3 * 16);
    // one segment (the program ends with its only store to DRAM0) covering every cycle
    expect(stats.segments).toEqual([{ first_pc: 0, last_pc: 5, start_cycle: 0, cycles: stats.cycles, macs: 48 }]);
  });
  test('pyxis-ld links the .tmodel into a .pimg that runs the same', async () => {
    const l = await cap(runLd, [S + 'fc.tmodel', '-o', join(tmp, 'fc.pimg'), '--map-json', '-']);
    expect(l.code).toBe(0);
    expect(JSON.parse(l.out).sections.map((s: { name: string }) => s.name)).toEqual(['program', 'consts0']);
    const r = await cap(runSim, ['run', join(tmp, 'fc.pimg'), '--input', `x:0=${S}fc_x.npy`, '--output', `y:0=${join(tmp, 'y2.npy')}`]);
    expect(r.code).toBe(0);
    expect(readFileSync(join(tmp, 'y2.npy'))).toEqual(readFileSync(join(tmp, 'y.npy')));
  });
  test('--trace: a Perfetto trace with array, DRAM and accumulator tracks, one slice per instruction', async () => {
    const r = await cap(runSim, ['run', S + 'fc.tmodel', '--input', `x:0=${S}fc_x.npy`, '--trace', join(tmp, 't.json')]);
    expect(r.code).toBe(0);
    const t = JSON.parse(readFileSync(join(tmp, 't.json'), 'utf8'));
    const names = t.traceEvents.filter((e: { ph: string; name: string }) => e.ph === 'M' && e.name === 'thread_name').map((e: { args: { name: string } }) => e.args.name);
    expect(names).toEqual(expect.arrayContaining(['array', 'DRAM', 'accumulators', 'SIMD']));
    expect(t.traceEvents.filter((e: { ph: string }) => e.ph === 'X').map((e: { name: string }) => e.name)).toEqual(['DataMove', 'DataMove', 'LoadWeight', 'MatMul', 'DataMove', 'DataMove']);
  });
  test('pyxis-ld --input packs the quantised input into the image', async () => {
    const l = await cap(runLd, [S + 'fc.tmodel', '-o', join(tmp, 'fcx.pimg'), '--input', `x:0=${S}fc_x.npy`]);
    expect(l.code).toBe(0);
    const r = await cap(runSim, ['run', join(tmp, 'fcx.pimg'), '--output', `y:0=${join(tmp, 'y3.npy')}`]);
    expect(r.code).toBe(0);
    expect(r.err).not.toContain('not given');
    expect(readFileSync(join(tmp, 'y3.npy'))).toEqual(readFileSync(join(tmp, 'y.npy')));
  });
  test('unknown input name: usage error', async () => {
    const r = await cap(runSim, ['run', S + 'fc.tmodel', '--input', `x=${S}fc_x.npy`]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('--input: no input `x` in the model\n  = help: did you mean `x:0`?');
  });
  test('an input of the wrong size: diagnostic', async () => {
    writeNpyFile(join(tmp, 'small.npy'), makeTensor('float32', [5], new Float32Array(5)));
    const r = await cap(runSim, ['run', S + 'fc.tmodel', '--input', `x:0=${join(tmp, 'small.npy')}`]);
    expect(r.code).toBe(1);
    expect(r.err).toContain('do not fill 3 vectors of 4 lanes');
  });
});

test('pyxis-sim inspect of a bare .tprog without --target: the bad magic says how to read it (the systolic hint)', async () => {
  const r = await cap(runSim, ['inspect', S + 'fc.tprog']);
  expect(r.code).toBe(1);
  expect(r.err).toContain('error[CT0001]');
  expect(r.err).toContain('a Tensil program: `inspect --target systolic --arch FILE.tarch FILE.tprog`');
  const ok = await cap(runSim, ['inspect', '--target', 'systolic', '--arch', S + 'arch4.tarch', S + 'fc.tprog']);
  expect(ok.code, ok.err).toBe(0);
  expect(ok.out).toContain('DataMove flow=dram1_to_local');
});

test('--input NAME given twice: a usage error for pyxis-sim and pyxis-ld (the later one silently won)', async () => {
  const x = `x:0=${S}fc_x.npy`;
  const r = await cap(runSim, ['run', S + 'fc.tmodel', '--input', x, '--input', x]);
  expect(r.code).toBe(2);
  expect(r.err).toContain('--input x:0 is given twice');
  const l = await cap(runLd, [S + 'fc.tmodel', '--input', x, '--input', x, '-o', join(tmp, 'twice.pimg')]);
  expect(l.code).toBe(2);
  expect(l.err).toContain('--input x:0 is given twice');
  expect(existsSync(join(tmp, 'twice.pimg'))).toBe(false);
});

describe('malformed models', () => {
  const model = JSON.parse(readFileSync(S + 'fc.tmodel', 'utf8'));
  const write = (name: string, m: unknown, files: Record<string, Uint8Array> = {}) => {
    copyFileSync(S + 'fc.tprog', join(tmp, 'fc.tprog'));
    copyFileSync(S + 'fc.tdata', join(tmp, 'fc.tdata'));
    for (const [f, b] of Object.entries(files)) writeFileSync(join(tmp, f), b);
    writeFileSync(join(tmp, name), typeof m === 'string' ? m : JSON.stringify(m));
    return join(tmp, name);
  };
  test.each([
    ['bad JSON', '{"name": ', 'is not valid JSON'],
    ['negative size', { ...model, inputs: [{ name: 'x:0', base: 0, size: -1 }] }, '$.inputs[0].size: expected an integer >= 1'],
    ['bad arch', { ...model, arch: { ...model.arch, array_size: 0 } }, '$.arch.array_size: 0 out of range 2..256'],
    ['missing program', { ...model, prog: { file_name: 'nope.tprog', size: 36 } }, '$.prog.file_name: no such file'],
    ['program size', { ...model, prog: { file_name: 'fc.tprog', size: 40 } }, '$.prog.size: fc.tprog holds 36 bytes, the manifest says 40'],
    ['consts size', { ...model, consts: [{ file_name: 'fc.tdata', base: 0, size: 6 }] }, '$.consts[0]: fc.tdata holds 40 bytes, the manifest says 6 vectors of 8 bytes (48)'],
  ])('%s', async (_n, m, msg) => {
    const r = await cap(runSim, ['run', write('m.tmodel', m)]);
    expect(r.code).toBe(1);
    expect(r.err).toContain(msg);
    expect(r.err).not.toMatch(/\n\s+at /); // no stack trace
  });
  test('a truncated program: byte offset in the .tprog', async () => {
    const r = await cap(runSim, ['run', write('t.tmodel', { ...model, prog: { file_name: 'short.tprog', size: 33 } }, { 'short.tprog': readFileSync(S + 'fc.tprog').subarray(0, 33) })]);
    expect(r.code).toBe(1);
    expect(r.err).toContain('offset 0x0000001e (30)'.replace('0x0000001e', '0x000001e'));
    expect(r.err).toContain('truncated program: 33 bytes is not a whole number of 6-byte instructions');
    expect(r.err).toContain(`${join(tmp, 'short.tprog')}: offset`); // the file the offset is in, not the manifest
  });
  test('an unknown opcode: the .tprog and its offset from run, inspect and pyxis-ld; the linked image: the offset in the .pimg', async () => {
    const bad = new Uint8Array(readFileSync(S + 'fc.tprog'));
    bad[2 * 6 + 5] = 0x90; // instruction 2's header byte (the last of its 6, little-endian): opcode 9 does not exist (spec §4)
    const m = write('op.tmodel', { ...model, prog: { file_name: 'op.tprog', size: 36 } }, { 'op.tprog': bad });
    const at = `${join(tmp, 'op.tprog')}: offset 0x000000c (12): error[SYS0101]: instruction 2: unknown opcode 0x9`;
    for (const [run, argv] of [[runSim, ['run', m]], [runSim, ['inspect', m]], [runLd, [m, '-o', join(tmp, 'op.pimg')]]] as const) {
      const r = await cap(run, [...argv]);
      expect(r.code).toBe(1);
      expect(r.err).toContain(at);
    }
    expect(existsSync(join(tmp, 'op.pimg'))).toBe(false);
    // the same program inside an image: the offset counts from the start of the .pimg (the program section's data + 12)
    expect((await cap(runLd, [S + 'fc.tmodel', '-o', join(tmp, 'good.pimg')])).code).toBe(0);
    const img = new Uint8Array(readFileSync(join(tmp, 'good.pimg')));
    const good = readFileSync(S + 'fc.tprog');
    const start = Buffer.from(img).indexOf(good);
    expect(start).toBeGreaterThan(0);
    img[start + 17] = 0x90;
    writeFileSync(join(tmp, 'bad.pimg'), img);
    const r = await cap(runSim, ['run', join(tmp, 'bad.pimg')]);
    expect(r.code).toBe(1);
    const off = start + 12;
    expect(r.err).toContain(`bad.pimg: offset 0x${off.toString(16).padStart(7, '0')} (${off}): error[SYS0101]: instruction 2: unknown opcode 0x9`);
  });
});

test('performance samples: Configure sample_interval, 64-bit words with the PC and the instruction valid/ready bits', async () => {
  const src = `Configure register=sample_interval value=4\n${readFileSync(S + 'fc.tasm', 'utf8')}`;
  writeFileSync(join(tmp, 's.tasm'), src);
  expect((await cap(runAs, ['--target', 'systolic', '--arch', S + 'arch4.tarch', join(tmp, 's.tasm'), '--emit', 'tprog', '-o', join(tmp, 's.tprog')])).code).toBe(0);
  const model = JSON.parse(readFileSync(S + 'fc.tmodel', 'utf8'));
  copyFileSync(S + 'fc.tdata', join(tmp, 'fc.tdata'));
  writeFileSync(join(tmp, 's.tmodel'), JSON.stringify({ ...model, prog: { file_name: 's.tprog', size: 42 } }));
  const r = await cap(runSim, ['run', join(tmp, 's.tmodel'), '--samples', join(tmp, 's.bin'), '--stats', join(tmp, 's.json')]);
  expect(r.code).toBe(0);
  const b = readFileSync(join(tmp, 's.bin'));
  const stats = JSON.parse(readFileSync(join(tmp, 's.json'), 'utf8'));
  expect(b.length).toBe(8 * stats.performance_samples);
  expect(b.length / 8).toBe(Math.ceil((stats.cycles - 1) / 4)); // every 4 cycles from cycle 1 (the Configure completes) to the end
  const w = b.readBigUInt64LE(0);
  expect(Number(w & 0xffffffffn)).toBe(1); // instruction 1 (the first DataMove) issues at cycle 1
  expect((w >> 46n) & 3n).toBe(3n); // instruction valid + ready
  const last = b.readBigUInt64LE(b.length - 8); // in the final store to DRAM0: nothing waits behind it
  expect([(last >> 46n) & 1n, (last >> 40n) & 1n]).toEqual([0n, 1n]);
  expect(Object.keys(stats.sample_buses)).toEqual(['array', 'acc', 'dataflow', 'dram1', 'dram0', 'memPortB', 'memPortA', 'instruction']);
});

const FIX = fileURLToPath(new URL('../../../../shared/fixtures/tensil/resnet20-zcu104-uram/resnet20v2_cifar_onnx_zcu104_uram.tmodel', import.meta.url));
test.skipIf(!existsSync(FIX))('the real ResNet-20 .tmodel runs through pyxis-sim with an image input', async () => {
  const img = new Float32Array(1024 * 3);
  for (let i = 0; i < img.length; i++) img[i] = ((i * 37) % 255) / 255 - 0.5;
  writeNpyFile(join(tmp, 'img.npy'), makeTensor('float32', [1024, 3], img)); // 3 lanes per vector, the rest zero
  const r = await cap(runSim, ['run', FIX, '--input', `x:0=${join(tmp, 'img.npy')}`, '--output', `Identity:0=${join(tmp, 'logits.npy')}`, '--stats', join(tmp, 'r.json')]);
  expect(r.code).toBe(0);
  const l = readNpyFile(join(tmp, 'logits.npy'));
  expect(l.shape).toEqual([1, 32]);
  expect(Array.from(l.data.slice(0, 10)).every(Number.isFinite)).toBe(true);
  expect(JSON.parse(readFileSync(join(tmp, 'r.json'), 'utf8')).instructions).toBe(50121);
}, 60_000);

describe('samples/systolic/errors: each bad program with its exact diagnostics (*.err), all in one run', () => {
  const errDir = S + 'errors/';
  for (const f of readdirSync(errDir).filter((x) => x.endsWith('.tasm')).sort())
    test(f, async () => {
      const out = join(tmp, 'err.pobj');
      const r = await cap(runAs, ['--target', 'systolic', '--arch', S + 'arch4.tarch', errDir + f, '-o', out]);
      expect(r.code).toBe(1);
      expect(existsSync(out)).toBe(false);
      const file = errDir + f.replace(/\.tasm$/, '.err');
      // the golden text names the file relative to samples/systolic/errors
      const err = r.err.split(errDir).join('');
      if (process.env['PYXIS_UPDATE_GOLDEN'] === '1' || !existsSync(file)) writeFileSync(file, err);
      expect(err).toBe(readFileSync(file, 'utf8'));
    });
});
