/**
 * An IEEE FP16 tensor declared with `eb = -3` links with warning LD0117 ("does not change the stored values, only
 * recorded in the symbol table", chip §4.9-4.10). `pyxis-sim --dump SYM:f32` and `--compare` must then decode the
 * stored FP16 codes as plain IEEE half floats: they refused the symbol (FMT0004 "eb: -3 would be ignored", exit 1).
 * Expected values: the .npy's multiples of 1/8 in -8..8, exact in FP16 (11-bit significand), so the round trip
 * HBM -> AMEM -> HBM gives them back bit for bit.
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeTensor, readNpyFile, writeNpyFile } from '@pyxis/container';
import { runLd, runSim } from '@pyxis/targets';
import { call } from './cli-call.js';

describe('--dump :f32 of an OCP/IEEE tensor whose symbol records an eb', () => {
  it('decodes with the standard bias (the eb the linker warned about does not apply)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pyxis-dump-eb-'));
    const [R, C] = [5, 129];
    const x = new Float32Array(R * C).map((_, i) => ((i * 37) % 129) / 8 - 8);
    writeNpyFile(join(dir, 'x.npy'), makeTensor('float32', [R, C], x));
    writeFileSync(
      join(dir, 'fp16.ld'),
      [
        'memory amem0 { space = amem; cluster = 0; view = hashed; origin = 0; length = 32M; }',
        'memory hbm { space = hbm; origin = 0; length = 1G; }',
        `tensor src_hbm { format = FP16; shape = [${R}, ${C}]; eb = -3; region = hbm; data = "x.npy"; }`,
        `tensor src     { format = FP16; shape = [${R}, ${C}]; eb = -3; region = amem0; zero = true; }`,
        `tensor out_hbm { format = FP16; shape = [${R}, ${C}]; eb = -3; region = hbm; zero = true; }`,
        'queue h2a { cluster = 0; trip load { src = src_hbm; dst = src; trip_power = 4; } }',
        'queue a2h { cluster = 0; trip store { src = src; dst = out_hbm; trip_power = 4; } }',
        'store after load;',
        '',
      ].join('\n'),
    );
    const ld = await call(runLd, [join(dir, 'fp16.ld'), '-o', join(dir, 'fp16.pimg')]);
    expect(ld.code, ld.err).toBe(0);
    expect(ld.err).toContain('warning[LD0117]');
    const r = await call(runSim, ['run', join(dir, 'fp16.pimg'), '--dump', `out_hbm:f32=${join(dir, 'y.npy')}`, '--compare', `out_hbm=${join(dir, 'x.npy')},rtol=0,atol=0`]);
    expect(r.err).not.toContain('FMT0004');
    expect(r.code, r.err).toBe(0);
    const y = readNpyFile(join(dir, 'y.npy'));
    expect(y.dtype).toBe('float32');
    expect(y.shape).toEqual([R, C]);
    expect(Array.from(y.data as Float32Array)).toEqual(Array.from(x));
  });
});
