/** CLI conventions for the NeuronCore target: diagnostics with carets and exit codes, usage errors, timing-only, dumps. */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runAs, runLd, runSim } from '@pyxis/targets';

const SAMPLES = fileURLToPath(new URL('../../../samples/neuroncore/', import.meta.url));
const cap = () => {
  const c = { out: '', err: '', io: { stdout: (s: string) => void (c.out += s), stderr: (s: string) => void (c.err += s) } };
  return c;
};

describe('neuroncore CLI', () => {
  it('rule violations: exit 1, file:line:col with caret, the rule and its section, no object written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nc-cli-'));
    const c = cap();
    const out = join(dir, 'bad.pobj');
    expect(await runAs([join(SAMPLES, 'errors/bad_layout.ncasm'), '-o', out, '--no-color'], c.io)).toBe(1);
    expect(existsSync(out)).toBe(false);
    expect(c.err).toMatch(/bad_layout\.ncasm:4:20: error\[NC0102\]: access of `a` starts at partition 16 with 32 partitions/);
    expect(c.err).toMatch(/bad_layout\.ncasm:5:43: error\[NC0203\]: moving free size 1024 exceeds 512/);
    expect(c.err).toMatch(/bad_layout\.ncasm:6:15: error\[NC0201\]: gpsimd cannot write PSUM/);
    expect(c.err).toMatch(/bad_layout\.ncasm:7:35: error\[NC0317\]: GpSimd cannot move data between its 16-partition groups/);
    expect(c.err).toContain('7 | gpsimd.tensor_copy a[64:96, 0:8], a[0:32, 0:8]\n  |                                   ^^^^^^^^^^^^');
    expect(c.err).toMatch(/\^/);
    expect(c.err).toContain('neuroncore-v2-architecture.md');
    expect(c.err).not.toMatch(/at .*\.ts:\d+/); // no stack trace
  });
  it('a swapped pair of letters in an enumeration value gets a did-you-mean (func=gleu: gelu)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nc-cli-'));
    const src = join(dir, 'gleu.ncasm');
    writeFileSync(src, '.tensor a sbuf fp32 [128, 64]\nscalar.activation a, a, func=gleu\n');
    const c = cap();
    expect(await runAs([src, '-o', join(dir, 'g.pobj'), '--no-color'], c.io)).toBe(1);
    expect(c.err).toContain('gleu.ncasm:2:25: error[NC0046]: `func` must be one of');
    expect(c.err).toContain('help: did you mean `gelu`?');
    // an operand naming no tensor: said so, with the nearest declared one
    writeFileSync(src, '.tensor act sbuf fp32 [128, 64]\nvector.tensor_copy act, atc\n');
    const d = cap();
    expect(await runAs([src, '-o', join(dir, 'g.pobj'), '--no-color'], d.io)).toBe(1);
    expect(d.err).toContain('gleu.ncasm:2:25: error[NC0044]: operand `in` of `vector.tensor_copy` must be a tensor access like `t[0:128, 0:512]`: `atc` is not a declared tensor');
    expect(d.err).toContain('help: did you mean `act`?');
  });

  it('the .ncasm extension selects the target; timing-only runs the cost model; usage errors exit 2', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nc-cli-'));
    const src = join(dir, 'k.ncasm');
    writeFileSync(src, '.tensor X hbm fp32 [128, 64]\n.tensor x sbuf fp32 [128, 64]\ndma.copy x, X\nvector.tensor_scalar x, x, op0=mult, operand0=2.0\ndma.copy X, x\n');
    writeFileSync(join(dir, 'k.ld'), 'tensor X { zero = true; }\n');
    const c = cap();
    expect(await runAs([src, '-o', join(dir, 'k.pobj')], c.io), c.err).toBe(0);
    expect(await runLd([join(dir, 'k.ld'), join(dir, 'k.pobj'), '-o', join(dir, 'k.pimg')], c.io), c.err).toBe(0);
    const t = cap();
    expect(await runSim(['run', join(dir, 'k.pimg'), '--timing-only', '--stats', '-'], t.io), t.err).toBe(0);
    const stats = JSON.parse(t.out) as { timing_only: boolean; model: string; engines: Record<string, unknown> };
    expect(stats.timing_only).toBe(true);
    expect(stats.model).toMatch(/cost model/);
    expect(Object.keys(stats.engines)).toEqual(['vector']);
    const u = cap();
    expect(await runSim(['run', join(dir, 'k.pimg'), '--dump', `Q=${join(dir, 'q.npy')}`], u.io)).toBe(2);
    expect(u.err).toContain('no HBM tensor `Q` in the image');
    const v = cap();
    expect(await runSim(['run', join(dir, 'k.pimg'), '--dump', `X=${join(dir, 'x.npy')}`], v.io), v.err).toBe(0);
    expect(existsSync(join(dir, 'x.npy'))).toBe(true);
  });

  it('link errors: shape mismatch and unknown tensors point into the script', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nc-cli-'));
    writeFileSync(join(dir, 'k.ncasm'), '.tensor X hbm fp32 [4, 4]\n.tensor x sbuf fp32 [4, 4]\ndma.copy x, X\n');
    writeFileSync(join(dir, 'k.ld'), '// bind\ntensor Y { zero = true; }\n');
    const c = cap();
    expect(await runAs([join(dir, 'k.ncasm'), '-o', join(dir, 'k.pobj')], c.io)).toBe(0);
    expect(await runLd([join(dir, 'k.ld'), join(dir, 'k.pobj'), '-o', join(dir, 'k.pimg'), '--no-color'], c.io)).toBe(1);
    expect(c.err).toMatch(/k\.ld:2:8: error\[NC0711\]: the program declares no tensor `Y`/);
  });
});
