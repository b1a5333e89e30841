/**
 * Issue 26: the systolic, NeuronCore and XNU inputs that still broke the tools. Each case is a
 * diagnostic with a code and exit 1 (or usage, exit 2), never an internal error, and no output
 * file (nor `.partial`) left behind.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runAs, runLd, runSim } from '@pyxis/targets';
import { call, type Run } from './cli-call.js';

const ld = (a: string[]) => call(runLd, a);
const sim = (a: string[]) => call(runSim as Run, a);
void runAs;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pyxis-robust-targets-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a .tmodel nested 100,000 levels deep is a diagnostic (SYS02xx), not a stack overflow', () => {
  for (const [what, text] of [
    ['arrays', '['.repeat(100_000) + ']'.repeat(100_000)],
    ['an object holding arrays', '{"prog": ' + '['.repeat(100_000) + ']'.repeat(100_000) + '}'],
    ['consts', '{"prog": {"file_name": "p.tprog", "size": 1}, "consts": [' + '['.repeat(100_000) + ']'.repeat(100_000) + ']}'],
  ] as const)
    test(what, async () => {
      const f = join(dir, `deep-${what.replace(/ /g, '-')}.tmodel`);
      writeFileSync(f, text);
      for (const r of [await ld([f, '-o', join(dir, 'x.tprog')]), await sim(['run', f]), await sim(['inspect', f])]) {
        expect(r.err).not.toMatch(/internal error|call stack/);
        expect(r.err).toMatch(/SYS0\d\d\d/);
        expect(r.code).toBe(1);
        expect(r.err.length).toBeLessThan(4000);
      }
      expect(readdirSync(dir).filter((n) => n.startsWith('x.'))).toEqual([]);
    });
});

const systolic = fileURLToPath(new URL('../../../samples/systolic/', import.meta.url));
function fcModel(name: string, edit: (m: Record<string, unknown>) => void): string {
  for (const f of ['fc.tprog', 'fc.tdata', 'fc_x.npy']) copyFileSync(join(systolic, f), join(dir, f));
  const m = JSON.parse(readFileSync(join(systolic, 'fc.tmodel'), 'utf8')) as Record<string, unknown>;
  edit(m);
  const f = join(dir, name);
  writeFileSync(f, JSON.stringify(m));
  return f;
}

describe('.tmodel consts: overlaps and repeated entries', () => {
  test('two consts sharing DRAM1 vectors: SYS0205 from pyxis-sim too (as from pyxis-ld)', async () => {
    const f = fcModel('overlap.tmodel', (m) => (m['consts'] = [{ file_name: 'fc.tdata', base: 0, size: 5 }, { file_name: 'fc.tdata', base: 3, size: 5 }]));
    for (const r of [await ld([f, '-o', join(dir, 'o.pimg')]), await sim(['run', f])]) {
      expect(r.err).toMatch(/SYS0205.*consts1 \(dram1 vectors 3\.\.7\) overlaps consts0 \(vectors 0\.\.4\)/);
      expect(r.code).toBe(1);
    }
  });
  test('one const entry repeated 5,000 times: refused from the manifest (overlap), before reading any file 5,000 times', async () => {
    const f = fcModel('rep.tmodel', (m) => {
      m['consts'] = Array.from({ length: 5000 }, () => ({ file_name: 'fc.tdata', base: 0, size: 5 }));
    });
    const r = await sim(['run', f]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/SYS0205/);
  });
  test('the same file at 50 distinct bases (read and packed once) runs', async () => {
    const f = fcModel('many.tmodel', (m) => {
      m['consts'] = Array.from({ length: 50 }, (_, i) => ({ file_name: 'fc.tdata', base: 5 * i, size: 5 }));
    });
    const r = await sim(['run', f, '--input', `x:0=${join(dir, 'fc_x.npy')}`]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
  });
});

describe('no output overwrites a file the run reads, or another output (IO0003), whoever names it', () => {
  const as = (a: string[]) => call(runAs, a);
  let d: string;
  const same = (a: string, b: string) => Buffer.compare(readFileSync(a), readFileSync(b)) === 0;
  beforeAll(() => {
    d = mkdtempSync(join(dir, 'ow-'));
    for (const f of ['arch4.tarch', 'fc.tasm', 'fc.tmodel', 'fc.tprog', 'fc.tdata', 'fc_x.npy']) copyFileSync(join(systolic, f), join(d, f));
  });
  const refused = (r: { code: number; err: string }) => {
    expect(r.err).toMatch(/IO0003/);
    expect(r.code).toBe(1);
  };
  test('pyxis-as --arch a.tarch -o a.tarch (an option\'s input)', async () => {
    copyFileSync(join(d, 'arch4.tarch'), join(d, 'a.tarch'));
    refused(await as(['--target', 'systolic', '--arch', join(d, 'a.tarch'), join(d, 'fc.tasm'), '-o', join(d, 'a.tarch')]));
    expect(same(join(d, 'a.tarch'), join(d, 'arch4.tarch'))).toBe(true);
  });
  test('pyxis-ld fc.tmodel -o fc.tprog (the manifest\'s own program)', async () => {
    const before = readFileSync(join(d, 'fc.tprog'));
    refused(await ld([join(d, 'fc.tmodel'), '-o', join(d, 'fc.tprog')]));
    expect(readFileSync(join(d, 'fc.tprog'))).toEqual(before);
  });
  test('pyxis-sim --output y:0=F onto an --input F, and --stats onto the manifest\'s .tprog', async () => {
    copyFileSync(join(d, 'fc_x.npy'), join(d, 'in.npy'));
    refused(await sim(['run', join(d, 'fc.tmodel'), '--input', `x:0=${join(d, 'in.npy')}`, '--output', `y:0=${join(d, 'in.npy')}`]));
    expect(same(join(d, 'in.npy'), join(d, 'fc_x.npy'))).toBe(true);
    const before = readFileSync(join(d, 'fc.tprog'));
    refused(await sim(['run', join(d, 'fc.tmodel'), '--input', `x:0=${join(d, 'fc_x.npy')}`, '--stats', join(d, 'fc.tprog')]));
    expect(readFileSync(join(d, 'fc.tprog'))).toEqual(before);
  });
  test('pyxis-ld -o x --dram0 x and --map m --dram1 m (a target\'s outputs against the driver\'s)', async () => {
    refused(await ld([join(d, 'fc.tmodel'), '-o', join(d, 'x.pimg'), '--dram0', join(d, 'x.pimg'), '--input', `x:0=${join(d, 'fc_x.npy')}`]));
    refused(await ld([join(d, 'fc.tmodel'), '-o', join(d, 'y.pimg'), '--map', join(d, 'm.txt'), '--dram1', join(d, 'm.txt')]));
    expect(readdirSync(d).filter((n) => /^(x|y)\.pimg|^m\.txt|\.partial$|\.tmp$/.test(n))).toEqual([]);
  });
  test('an XNU link -o onto a .npy its script reads, a NeuronCore --map onto one', async () => {
    const x = fileURLToPath(new URL('../../../samples/xnu/', import.meta.url));
    for (const f of ['nn.xasm', 'nn.ld', 'nn_query.npy', 'nn_db.npy']) copyFileSync(join(x, f), join(d, f));
    expect((await as([join(d, 'nn.xasm'), '-o', join(d, 'nn.pobj')])).code).toBe(0);
    refused(await ld([join(d, 'nn.ld'), join(d, 'nn.pobj'), '-o', join(d, 'nn_query.npy')]));
    expect(same(join(d, 'nn_query.npy'), join(x, 'nn_query.npy'))).toBe(true);
    writeFileSync(join(d, 'k.ncasm'), '.tensor X hbm fp32 [4, 8]\n.tensor x sbuf fp32 [4, 8]\ndma.copy x, X\ndma.copy X, x\n');
    writeFileSync(join(d, 'k.ld'), 'tensor X { data = "kx.npy"; }\n');
    copyFileSync(join(d, 'nn_query.npy'), join(d, 'kx.npy')); // 32 float32 values: [32], reshaped below
    writeFileSync(join(d, 'kx.npy'), npy32([4, 8]));
    const kx = readFileSync(join(d, 'kx.npy'));
    expect((await as([join(d, 'k.ncasm'), '-o', join(d, 'k.pobj')])).code).toBe(0);
    refused(await ld([join(d, 'k.ld'), join(d, 'k.pobj'), '-o', join(d, 'k.pimg'), '--map', join(d, 'kx.npy')]));
    expect(readFileSync(join(d, 'kx.npy'))).toEqual(kx);
    expect(readdirSync(d).filter((n) => n === 'k.pimg')).toEqual([]);
  });
  test('the Pyxis linker: -o and --map onto a .npy its script reads', async () => {
    const p = fileURLToPath(new URL('../../../samples/pyxis/', import.meta.url));
    for (const f of ['gather.pasm', 'gather.ld', 'gather_idx.npy', 'gather_src.bin', 'gather_itfe.blob']) copyFileSync(join(p, f), join(d, f));
    expect((await as([join(d, 'gather.pasm'), '-o', join(d, 'gather.pobj')])).code).toBe(0);
    const idx = readFileSync(join(d, 'gather_idx.npy'));
    refused(await ld([join(d, 'gather.ld'), join(d, 'gather.pobj'), '-o', join(d, 'gather_idx.npy')]));
    refused(await ld([join(d, 'gather.ld'), join(d, 'gather.pobj'), '-o', join(d, 'g.pimg'), '--map', join(d, 'gather_idx.npy')]));
    expect(readFileSync(join(d, 'gather_idx.npy'))).toEqual(idx);
    expect(readdirSync(d).filter((n) => n === 'g.pimg')).toEqual([]);
  });
});

/** A float32 .npy of zeros. */
function npy32(shape: number[]): Buffer {
  let h = `{'descr': '<f4', 'fortran_order': False, 'shape': (${shape.join(', ')}), }`;
  h += ' '.repeat(63 - ((10 + h.length) % 64)) + '\n';
  const head = Buffer.alloc(10);
  head.write('\x93NUMPY', 0, 'latin1');
  head[6] = 1;
  head.writeUInt16LE(h.length, 8);
  return Buffer.concat([head, Buffer.from(h, 'latin1'), Buffer.alloc(4 * shape.reduce((a, b) => a * b, 1))]);
}

describe('--vcd where a target writes none is refused (exit 2) before any file exists; no run leaves a .partial', () => {
  let d: string;
  beforeAll(() => {
    d = mkdtempSync(join(dir, 'partial-'));
    for (const f of ['fc.tmodel', 'fc.tprog', 'fc.tdata', 'fc_x.npy']) copyFileSync(join(systolic, f), join(d, f));
  });
  const leftovers = () => readdirSync(d).filter((n) => n.endsWith('.partial') || n.startsWith('w.') || n.startsWith('t.'));
  test('systolic: --vcd is a usage error naming the target and the options it has', async () => {
    const r = await sim(['run', join(d, 'fc.tmodel'), '--input', `x:0=${join(d, 'fc_x.npy')}`, '--vcd', join(d, 'w.vcd')]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--vcd.*systolic/);
    expect(leftovers()).toEqual([]);
  });
  test('neuroncore: --vcd is a usage error too', async () => {
    writeFileSync(join(d, 'k.ncasm'), '.tensor X hbm fp32 [4, 8]\n.tensor x sbuf fp32 [4, 8]\ndma.copy x, X\n');
    writeFileSync(join(d, 'k.ld'), 'tensor X { zero = true; }\n');
    expect((await call(runAs, [join(d, 'k.ncasm'), '-o', join(d, 'k.pobj')])).code).toBe(0);
    expect((await ld([join(d, 'k.ld'), join(d, 'k.pobj'), '-o', join(d, 'k.pimg')])).code).toBe(0);
    const r = await sim(['run', join(d, 'k.pimg'), '--vcd', join(d, 'w.vcd')]);
    expect(r.code).toBe(2);
    expect(leftovers()).toEqual([]);
  });
  test('a systolic --max-cycles stop keeps a complete trace (as Pyxis does), never a .partial', async () => {
    const r = await sim(['run', join(d, 'fc.tmodel'), '--input', `x:0=${join(d, 'fc_x.npy')}`, '--max-cycles', '3', '--trace', join(d, 't.json')]);
    expect(r.code).toBe(1);
    expect(readdirSync(d).filter((n) => n.endsWith('.partial'))).toEqual([]);
    expect(() => JSON.parse(readFileSync(join(d, 't.json'), 'utf8'))).not.toThrow();
    rmSync(join(d, 't.json'));
  });
  test('a malformed .tprog or XNU image with --trace: a diagnostic, and no trace at all', async () => {
    writeFileSync(join(d, 'bad.tprog'), Buffer.alloc(5, 0xff));
    const m = JSON.parse(readFileSync(join(d, 'fc.tmodel'), 'utf8'));
    m.prog = { file_name: 'bad.tprog', size: 5 };
    writeFileSync(join(d, 'bad.tmodel'), JSON.stringify(m));
    const r = await sim(['run', join(d, 'bad.tmodel'), '--trace', join(d, 't.json')]);
    expect(r.code).toBe(1);
    expect(leftovers()).toEqual([]);
    const x = fileURLToPath(new URL('../../../samples/xnu/', import.meta.url));
    for (const f of ['nn.xasm', 'nn.ld', 'nn_query.npy', 'nn_db.npy']) copyFileSync(join(x, f), join(d, f));
    expect((await call(runAs, [join(d, 'nn.xasm'), '-o', join(d, 'nn.pobj')])).code).toBe(0);
    expect((await ld([join(d, 'nn.ld'), join(d, 'nn.pobj'), '-o', join(d, 'nn.pimg')])).code).toBe(0);
    const img = readFileSync(join(d, 'nn.pimg'));
    // the first job descriptor's vec_len (bits 23:8) := 8, not a multiple of 16: XNU0303 at run time
    const sec = img.indexOf(Buffer.from([0x00, 0x20, 0x00, 0x00]));
    expect(sec).toBeGreaterThan(0);
    img[sec + 1] = 8;
    writeFileSync(join(d, 'bad.pimg'), img);
    const x1 = await sim(['run', join(d, 'bad.pimg'), '--trace', join(d, 't.json'), '--vcd', join(d, 'w.vcd')]);
    expect(x1.code).toBe(1);
    expect(leftovers()).toEqual([]);
  });
});

describe('first mistakes get a hint', () => {
  let d: string;
  beforeAll(() => {
    d = mkdtempSync(join(dir, 'hint-'));
    for (const f of ['fc.tmodel', 'fc.tprog', 'fc.tdata', 'fc_x.npy', 'fc.tasm']) copyFileSync(join(systolic, f), join(d, f));
  });
  test('--dump on systolic names every target that has it and the options systolic has instead', async () => {
    const r = await sim(['run', join(d, 'fc.tmodel'), '--dump', `y=${join(d, 'o.npy')}`]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--dump is not an option of target systolic \(it is one of pyxis, xnu, neuroncore\)/);
    expect(r.err).toMatch(/--output/);
  });
  test('pyxis-sim IMAGE without `run` suggests `pyxis-sim run IMAGE` (and in JSON, as a note)', async () => {
    const r = await sim([join(d, 'fc.tmodel')]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`did you mean \`pyxis-sim run ${join(d, 'fc.tmodel')}\`?`);
    const j = await sim(['--diagnostics-format', 'json', join(d, 'fc.tmodel')]);
    const line = JSON.parse(j.err.trim().split('\n')[0]!) as { code: string; notes?: string[] };
    expect(line.notes).toEqual([`did you mean \`pyxis-sim run ${join(d, 'fc.tmodel')}\`?`]);
  });
  test('a link script given to pyxis-as, a source to pyxis-ld or pyxis-sim: the right tool is named', async () => {
    const x = fileURLToPath(new URL('../../../samples/xnu/', import.meta.url));
    copyFileSync(join(x, 'nn.ld'), join(d, 'nn.ld'));
    const a = await call(runAs, [join(d, 'nn.ld')]);
    expect(a.code).toBe(2);
    expect(a.err).toMatch(/nn\.ld is a link script: link it with `pyxis-ld/);
    const l = await ld([join(d, 'fc.tasm')]);
    expect(l.code).toBe(2);
    expect(l.err).toMatch(/fc\.tasm is an assembly source: assemble it with `pyxis-as/);
    const s2 = await sim(['run', join(d, 'fc.tasm')]);
    expect(s2.code).toBe(2);
    expect(s2.err).toMatch(/fc\.tasm is an assembly source: assemble it with `pyxis-as.*then link/);
    // a link script given to the simulator: the linker is named (not "bad magic")
    const s3 = await sim(['run', join(d, 'nn.ld')]);
    expect(s3.code).toBe(2);
    expect(s3.err).toMatch(/nn\.ld is a link script: link it with `pyxis-ld .*nn\.ld OBJ\.pobj -o IMAGE\.pimg`, then run the image/);
    expect(s3.err).not.toMatch(/bad magic/);
  });
});

describe('an output named .tprog is a .tprog; a raw .tprog disassembles', () => {
  test('pyxis-as --target systolic fc.tasm -o p.tprog writes the raw program (the bytes of --emit tprog)', async () => {
    const d = mkdtempSync(join(dir, 'tprog-'));
    for (const f of ['fc.tasm', 'arch4.tarch']) copyFileSync(join(systolic, f), join(d, f));
    const a = await call(runAs, ['--target', 'systolic', '--arch', join(d, 'arch4.tarch'), join(d, 'fc.tasm'), '-o', join(d, 'p.tprog')]);
    expect(a.err).toBe('');
    const b = await call(runAs, ['--target', 'systolic', '--arch', join(d, 'arch4.tarch'), join(d, 'fc.tasm'), '--emit', 'tprog', '-o', join(d, 'q.bin')]);
    expect(b.code).toBe(0);
    expect(readFileSync(join(d, 'p.tprog'))).toEqual(readFileSync(join(d, 'q.bin')));
    expect(readFileSync(join(d, 'p.tprog')).subarray(0, 3).toString('latin1')).not.toBe('PYX');
    // and it disassembles with --arch (no container header to carry the architecture)
    const dis = await call(runAs, ['disassemble', join(d, 'p.tprog'), '--target', 'systolic', '--arch', join(d, 'arch4.tarch')]);
    expect(dis.err).toBe('');
    expect(dis.code).toBe(0);
    expect(dis.out).toMatch(/MatMul|matmul|LoadWeights|DataMove/i);
  });
});

describe('--dump NAME=FILE follows the extension', () => {
  test('.bin: the tensor\'s raw little-endian codes (samples/pyxis/gather.ld documents it); .npy: the same bytes in an .npy', async () => {
    const d = mkdtempSync(join(dir, 'bin-'));
    const p = fileURLToPath(new URL('../../../samples/pyxis/', import.meta.url));
    for (const f of ['gather.pasm', 'gather.ld', 'gather_idx.npy', 'gather_src.bin', 'gather_itfe.blob']) copyFileSync(join(p, f), join(d, f));
    expect((await call(runAs, [join(d, 'gather.pasm'), '-o', join(d, 'g.pobj')])).code).toBe(0);
    expect((await ld([join(d, 'gather.ld'), join(d, 'g.pobj'), '-o', join(d, 'g.pimg')])).code).toBe(0);
    const r = await sim(['run', join(d, 'g.pimg'), '--dump', `gathered=${join(d, 'g.bin')}`, '--dump', `gathered=${join(d, 'g.npy')}`]);
    expect(r.code).toBe(0);
    const bin = readFileSync(join(d, 'g.bin'));
    const npy = readFileSync(join(d, 'g.npy'));
    expect(bin.subarray(0, 6).toString('latin1')).not.toBe('\x93NUMPY');
    expect(npy.subarray(npy.length - bin.length)).toEqual(bin);
  });
});
