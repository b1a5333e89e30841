/**
 * `pyxis-sim run --compare NAME=REF.npy[,rtol=R][,atol=A]` on every target (docs/simulator.md): pass, fail (exit 1,
 * CLI0033 with the worst value), a size mismatch (CLI0034), unknown names and bad specs before the run. The
 * allclose rule is checked against a plain reference of numpy.allclose written here.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readNpy, writeNpyFile } from '@pyxis/container';
import { runAs, runLd, runSim } from '@pyxis/targets';
import { compareValues } from '../../cli/src/compare.js';
import { call } from './cli-call.js';
import { sampleInputs } from '../../../samples/neuroncore/inputs.mjs';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'pyxis-compare-'));
const runs = Number(process.env['PYXIS_PROPERTY_RUNS'] ?? 100);

/** A float32 copy of an .npy with value `i` moved by `d`. */
function perturbed(src: string, out: string, i: number, d: number): void {
  const t = readNpy(readFileSync(src), src);
  const data = Float32Array.from(t.data as ArrayLike<number>, Number);
  data[i]! += d;
  writeNpyFile(out, { dtype: 'float32', shape: t.shape, data });
}

describe('--compare', () => {
  it('pyxis: the copy output against its source: ok; a moved value fails with exit 1 and names it', async () => {
    const s = join(root, 'samples/pyxis');
    expect((await call(runAs, [join(s, 'copy.pasm'), '-o', join(dir, 'copy.pobj')])).code).toBe(0);
    // (the real launcher: logs go to the process's stderr)
    const ld = spawnSync(process.execPath, [join(root, 'bin/pyxis-ld'), join(s, 'copy.ld'), join(dir, 'copy.pobj'), '-o', join(dir, 'copy.pimg'), '--log-level', 'info', '--log-format', 'json'], { encoding: 'utf8' });
    expect(ld.status, ld.stderr).toBe(0);
    // the linker's quantisation record of the converted float tensor (exact at the sample's eb = -3)
    const q = ld.stderr.split('\n').filter((l) => l.includes('"quantised"')).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(q).toHaveLength(1);
    expect(q[0]).toMatchObject({ tensor: 'src_hbm', format: 'RFP8', eb: -3, elements: 1024, max_rel_error: 0, rms_rel_error: 0, saturated: 0, flushed_to_zero: 0 });
    const img = join(dir, 'copy.pimg');
    let r = await call(runSim, ['run', img, '--compare', `out_hbm=${join(s, 'copy_src.npy')}`]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/compare out_hbm vs .*copy_src\.npy: 1024 values, max \|err\| 0\.000, RMS err 0\.000, max rel err 0\.000; 0 outside rtol=0\.00001 atol=1e-8: ok/);
    perturbed(join(s, 'copy_src.npy'), join(dir, 'ref2.npy'), 5, 0.01);
    r = await call(runSim, ['run', img, '--compare', `out_hbm=${join(dir, 'ref2.npy')},rtol=1e-3`]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/error\[CLI0033\]: compare out_hbm vs .*: 1024 values, max \|err\| 0\.01000, .* 1 outside rtol=0\.001 atol=1e-8: FAILED/);
    expect(r.err).toMatch(/worst: index 5/);
    r = await call(runSim, ['run', img, '--compare', `out_hbm=${join(dir, 'ref2.npy')},atol=0.011`]);
    expect(r.code, r.err).toBe(0);
    // wrong size, unknown symbol (usage, before the run), bad spec (usage), missing reference (before the run)
    writeNpyFile(join(dir, 'short.npy'), { dtype: 'float32', shape: [3], data: new Float32Array(3) });
    r = await call(runSim, ['run', img, '--compare', `out_hbm=${join(dir, 'short.npy')}`]);
    expect([r.code, /CLI0034.*1024 values.*has 3/.test(r.err)]).toEqual([1, true]);
    r = await call(runSim, ['run', img, '--compare', `nope=${join(dir, 'short.npy')}`]);
    expect([r.code, r.out, /--compare: no tensor `nope` in the image/.test(r.err)]).toEqual([2, '', true]);
    r = await call(runSim, ['run', img, '--compare', `out_hbm=${join(dir, 'short.npy')},rtol=-1`]);
    expect(r.code).toBe(2);
    r = await call(runSim, ['run', img, '--compare', `out_hbm=${join(dir, 'missing.npy')}`]);
    expect([r.code, r.out, /IO0001/.test(r.err)]).toEqual([1, '', true]);
  });

  it('systolic, xnu, neuroncore: a dumped output compares ok with itself and fails when moved', async () => {
    const cases: Array<{ t: string; run: string[]; name: string; dump: string[] }> = [];
    // systolic: the Tensil model with its input
    const sys = ['run', join(root, 'samples/systolic/fc.tmodel'), '--input', `x:0=${join(root, 'samples/systolic/fc_x.npy')}`];
    cases.push({ t: 'systolic', run: sys, name: 'y:0', dump: ['--output', `y:0=${join(dir, 'sys.npy')}`] });
    // xnu
    const x = join(root, 'samples/xnu');
    expect((await call(runAs, [join(x, 'nn.xasm'), '-o', join(dir, 'nn.pobj')])).code).toBe(0);
    expect((await call(runLd, [join(x, 'nn.ld'), join(dir, 'nn.pobj'), '-o', join(dir, 'nn.pimg')])).code).toBe(0);
    cases.push({ t: 'xnu', run: ['run', join(dir, 'nn.pimg')], name: 'nn_l2', dump: ['--dump', `nn_l2=${join(dir, 'xnu.npy')}`] });
    // neuroncore
    for (const [f, t] of Object.entries(sampleInputs())) writeNpyFile(join(dir, f), t);
    copyFileSync(join(root, 'samples/neuroncore/softmax.ld'), join(dir, 'softmax.ld'));
    expect((await call(runAs, [join(root, 'samples/neuroncore/softmax.ncasm'), '-o', join(dir, 'sm.pobj')])).code).toBe(0);
    expect((await call(runLd, [join(dir, 'softmax.ld'), join(dir, 'sm.pobj'), '-o', join(dir, 'sm.pimg')])).code).toBe(0);
    cases.push({ t: 'neuroncore', run: ['run', join(dir, 'sm.pimg')], name: 'Y', dump: ['--dump', `Y=${join(dir, 'nc.npy')}`] });
    for (const c of cases) {
      const file = c.dump[1]!.slice(c.dump[1]!.indexOf('=') + 1);
      let r = await call(runSim, [...c.run, ...c.dump]);
      expect(r.code, `${c.t}: ${r.err}`).toBe(0);
      r = await call(runSim, [...c.run, '--compare', `${c.name}=${file}`]);
      expect(r.code, `${c.t}: ${r.err}`).toBe(0);
      expect(r.out, c.t).toMatch(new RegExp(`compare ${c.name} vs .*: \\d+ values, max \\|err\\| 0\\.000.*: ok`));
      perturbed(file, join(dir, `${c.t}-moved.npy`), 0, 1);
      r = await call(runSim, [...c.run, '--compare', `${c.name}=${join(dir, `${c.t}-moved.npy`)}`]);
      expect(r.code, c.t).toBe(1);
      expect(r.err, c.t).toMatch(/CLI0033.*max \|err\| 1\.000.*1 outside.*FAILED/);
      r = await call(runSim, [...c.run, '--compare', `no_such_name=${file}`]);
      expect([r.code !== 0, r.out], c.t).toEqual([true, '']);
    }
  }, 60_000);

  it('the tolerance rule is numpy.allclose: |a - r| <= atol + rtol |r|, NaN only equal to NaN', () => {
    const val = fc.oneof(fc.double({ min: -1e6, max: 1e6, noNaN: true }), fc.constant(NaN), fc.constant(0));
    fc.assert(
      fc.property(fc.array(fc.tuple(val, val), { minLength: 1, maxLength: 50 }), fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 10, noNaN: true }), (pairs, rtol, atol) => {
        const got = pairs.map((p) => p[0]);
        const ref = Float64Array.from(pairs.map((p) => p[1]));
        let outside = 0;
        for (const [a, r] of pairs) {
          if (Number.isNaN(a) && Number.isNaN(r)) continue;
          if (Number.isNaN(a) || Number.isNaN(r) || !(Math.abs(a - r) <= atol + rtol * Math.abs(r))) outside++;
        }
        expect(compareValues(got, ref, rtol, atol).outside).toBe(outside);
      }),
      { numRuns: runs },
    );
  });
});
