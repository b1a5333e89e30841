/**
 * NeuronCore containers are validated before use (issue 15): the metadata against one schema per kind
 * (CT0015 with the JSON path; `hbm_bytes` sizes the simulated HBM), the `nc.program` section against its
 * schema and its references (NC0703 with the JSON path), the HBM layout against `hbm_bytes` (NC0703), and the
 * HBM the simulator holds (NC0704). Each bad file goes through the real CLI: exit 1, a coded diagnostic, no
 * stack trace, nothing written.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeContainer, writeNpy, type Container } from '@pyxis/container';
import { runAs, runLd, runSim } from '@pyxis/targets';
import { assembleNc, linkNc, NC_PROGRAM_SECTION } from '../src/index.js';
import { MAX_SIM_HBM } from '../src/validate.js';

const SRC = '.tensor X hbm fp32 [128, 64]\n.tensor x sbuf fp32 [128, 64]\ndma.copy x, X, queue=0\nvector.tensor_scalar x, x, op0=mult, operand0=2.0\ndma.copy X, x\n';
const object = (): Container => assembleNc([{ file: 'k.ncasm', text: SRC }]).object;
const image = (): Container => linkNc('tensor X { zero = true; }\n', '/mem/k.ld', [{ file: 'k.pobj', container: object() }], () => {
  throw new Error('no objects');
}).image;
/** The image with its program (decoded JSON) edited. */
function withProgram(c: Container, edit: (p: Record<string, any>) => void): Container {
  const s = c.sections.find((x) => x.name === NC_PROGRAM_SECTION)!;
  const p = JSON.parse(new TextDecoder().decode(s.data));
  edit(p);
  const data = new TextEncoder().encode(JSON.stringify(p));
  return { ...c, sections: c.sections.map((x) => (x === s ? { ...x, data, size: data.length } : x)) };
}

async function tool(which: 'as' | 'ld' | 'sim', c: Container, args: (f: string, dir: string) => string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'nc-validate-'));
  const f = join(dir, c.kind === 'pobj' ? 'in.pobj' : 'in.pimg');
  writeFileSync(f, writeContainer(c));
  writeFileSync(join(dir, 'k.ld'), 'tensor X { zero = true; }\n');
  let err = '';
  const run = which === 'as' ? runAs : which === 'ld' ? runLd : runSim;
  const code = await run(['--no-color', ...args(f, dir)], { stdout: () => {}, stderr: (s) => void (err += s) });
  expect(err).not.toMatch(/\n\s+at .+:\d+:\d+/); // no stack trace
  return { code, err, dir };
}
const sim = (c: Container, extra: string[] = []) => tool('sim', c, (f, dir) => ['run', f, '--stats', join(dir, 'stats.json'), ...extra]);

describe('NeuronCore container validation', () => {
  it('the good image runs (the baseline of every case below)', async () => {
    const r = await sim(image());
    expect(r.code, r.err).toBe(0);
  });

  it.each([
    [-1, '$.metadata.hbm_bytes: -1 is below the minimum 0'],
    ['x', '$.metadata.hbm_bytes: expected an integer, got string "x"'],
    [1e300, `$.metadata.hbm_bytes: 1e+300 is above the maximum ${32 * 2 ** 30}`],
    [2 ** 40, `$.metadata.hbm_bytes: ${2 ** 40} is above the maximum ${32 * 2 ** 30}`],
    [null, '$.metadata.hbm_bytes: expected an integer, got null'],
    [undefined, '$.metadata: missing required member `hbm_bytes`'],
  ])('image metadata hbm_bytes = %s: CT0015 with the JSON path', async (v, msg) => {
    const c = image();
    const metadata = { ...c.metadata, hbm_bytes: v };
    if (v === undefined) delete metadata.hbm_bytes;
    const r = await sim({ ...c, metadata });
    expect(r.code).toBe(1);
    expect(r.err).toContain(`error[CT0015]: ${msg}`);
    expect(existsSync(join(r.dir, 'stats.json'))).toBe(false);
  });

  it('hbm_bytes smaller than the HBM sections or tensors: NC0703', async () => {
    const c = image();
    const r = await sim({ ...c, metadata: { ...c.metadata, hbm_bytes: 100 } });
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/error\[NC0703\]: `.*in\.pimg`: section `hbm\.X` \(bytes 0\.\.32767\) lies outside the 100 bytes of HBM in `hbm_bytes`/);
  });

  it('more HBM than the simulator holds: NC0704, and --timing-only still runs', async () => {
    const c = image();
    const big = { ...c, metadata: { ...c.metadata, hbm_bytes: MAX_SIM_HBM + 1 } };
    const r = await sim(big);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`lays out ${MAX_SIM_HBM + 1} bytes of HBM; the simulator holds at most ${MAX_SIM_HBM} bytes`);
    expect((await sim(big, ['--timing-only'])).code).toBe(0);
  });

  it.each([
    ['a stream out of range', (p: any) => (p.insns[0].stream = 99), '$.insns[0].stream: 99 is above the maximum 19'],
    ['a tensor index out of range', (p: any) => (p.insns[1].out.tensor = 7), '$.insns[1].out.tensor: no tensor 7 (2 declared)'],
    ['an access outside its tensor', (p: any) => (p.insns[1].out.np = 129), '$.insns[1].out: outside `x`: it spans partitions 0..128; the tensor occupies 0..127'],
    ['a size past the uint16 field', (p: any) => (p.insns[1].ins[0].dims = [[1 << 30, 0]]), '$.insns[1].ins[0].dims: sizes 1..65535'],
    ['a missing operand', (p: any) => (p.insns[1].ins = []), '$.insns[1]: `vector.tensor_scalar` takes out, in'],
    ['an unknown ALU op', (p: any) => (p.insns[1].attrs.op0 = 'nope'), '$.insns[1].attrs.op0: expected one of'],
    ['an instruction on another engine\'s stream', (p: any) => (p.insns[1].stream = 0), '$.insns[1].stream: `vector.tensor_scalar` on stream tensor'],
    ['a semaphore out of range', (p: any) => (p.insns[1].waits = [[999, 1]]), '$.insns[1]: semaphore 999 of'],
    ['a tensor outside SBUF', (p: any) => (p.tensors[1].partition = 100), '$.tensors[1] (`x`): partitions 100.. and bytes 0.. lie outside SBUF'],
    ['a null instruction', (p: any) => (p.insns[0] = null), '$.insns[0]: expected an object, got null'],
  ])('program section with %s: NC0703 with the JSON path', async (_name, edit, msg) => {
    const r = await sim(withProgram(image(), edit));
    expect(r.code).toBe(1);
    expect(r.err).toContain('error[NC0703]');
    expect(r.err).toContain(msg);
  });

  it('object metadata: CT0015 in pyxis-ld and pyxis-as --disassemble; a bad program section is NC0703 there too', async () => {
    const bad = { ...object(), metadata: { producer: 'x', sources: [null] } };
    const ld = await tool('ld', bad, (f, dir) => [join(dir, 'k.ld'), f, '-o', join(dir, 'out.pimg')]);
    expect(ld.code).toBe(1);
    expect(ld.err).toContain('error[CT0015]: $.metadata.sources[0]: expected a string, got null');
    expect(existsSync(join(ld.dir, 'out.pimg'))).toBe(false);
    const dis = await tool('as', bad, (f, dir) => ['--disassemble', f, '-o', join(dir, 'out.ncasm')]);
    expect(dis.code).toBe(1);
    expect(dis.err).toContain('error[CT0015]: $.metadata.sources[0]');
    const prog = await tool('ld', withProgram(object(), (p) => (p.insns[0].ins[0].tensor = -1)), (f, dir) => [join(dir, 'k.ld'), f, '-o', join(dir, 'out.pimg')]);
    expect(prog.code).toBe(1);
    expect(prog.err).toContain('$.insns[0].ins[0].tensor: -1 is below the minimum 0');
  });
});

describe('bf16 bit patterns in a uint16 .npy (the usual way NumPy stores bf16)', () => {
  const obj = () => assembleNc([{ file: 'b.ncasm', text: '.tensor W hbm bf16 [2, 4]\n.tensor V hbm fp32 [2, 4]\n' }]).object;
  // 1.0 = 0x3f80, -2.5 = 0xc020, 0.1 ~ 0x3dcd, +inf = 0x7f80 as bf16 bit patterns.
  const bits = Uint16Array.of(0x3f80, 0xc020, 0x3dcd, 0x7f80, 0, 0x8000, 0x4000, 0x3f00);
  const npy = writeNpy({ dtype: 'uint16', shape: [2, 4], data: bits });
  const link = (script: string) => linkNc(script, '/m/k.ld', [{ file: 'k.pobj', container: obj() }], () => obj(), () => npy);
  it('is read as bf16 bit patterns when the tensor is declared bf16: its bytes are the patterns', () => {
    const r = link('tensor W { data = "w.npy"; }\n');
    const sec = r.image.sections.find((s) => s.data.length === 16 && s.name !== NC_PROGRAM_SECTION)!;
    expect(Array.from(new Uint16Array(sec.data.slice().buffer))).toEqual(Array.from(bits));
    expect(r.map.tensors.find((t) => t.name === 'W')!.init).toMatch(/bf16 bit patterns/);
  });
  it('a uint16 .npy for a tensor of another dtype still holds integers (cast to the dtype)', () => {
    const r = link('tensor V { data = "w.npy"; }\n');
    const sec = r.image.sections.find((s) => s.data.length === 32)!;
    expect(Array.from(new Float32Array(sec.data.slice().buffer))).toEqual(Array.from(bits));
    expect(r.map.tensors.find((t) => t.name === 'V')!.init).toBe('data');
  });
});

describe('garbage input: the diagnostic cap of the shared front end (DiagnosticBag)', () => {
  it('60,000 erroneous lines collect 200 errors, the first saying how many more there were', () => {
    const text = Array.from({ length: 60_000 }, (_, i) => `vector.nope${i % 7} a, b`).join('\n');
    const r = assembleNc([{ file: 'g.ncasm', text }]);
    const errors = r.diagnostics.filter((d) => d.severity === 'error');
    expect(errors.length).toBe(200);
    expect(errors[0]!.notes?.at(-1)).toBe('59800 more errors after the first 200 were not collected (this pass stops collecting at 200)');
  });
});
