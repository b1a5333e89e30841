/**
 * Automatic synchronisation: with the inserted semaphores, the concurrent machine (four engines
 * and 16 DMA queues, each with its own timing) must compute exactly what executing the program
 * one instruction at a time in text order computes. Property over random programs.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { writeNpy } from '@pyxis/container';
import { assembleNc, Executor, hbmAddresses, linkNc, Memories, programOf, runImage } from '../src/index.js';

const OPS = [
  (d: number, a: number, b: number) => `vector.tensor_tensor t${d}, t${a}, t${b}, op=add`,
  (d: number, a: number) => `scalar.activation t${d}, t${a}, func=identity, scale=0.5`,
  // GpSimd moves no data between its 16-partition groups (NC0317): its inputs sit on the output's partitions.
  (d: number) => `gpsimd.tensor_scalar t${d}, t${d}, op0=add, operand0=1`,
  (d: number, a: number) => `vector.tensor_scalar t${d}, t${a}, op0=mult, operand0=3`,
  (d: number) => `dma.copy t${d}, X[${d * 32}:${d * 32 + 32}, :]`,
  (d: number, a: number) => `dma.copy Y[${d * 32}:${d * 32 + 32}, :], t${a}`,
  (d: number) => `gpsimd.tensor_tensor t${d}, t${d}, t${d}, op=subtract`,
  (d: number, a: number) => `gpsimd.tensor_copy t${a}, t${a}`,
];

describe('auto sync', () => {
  it('property: concurrent execution equals text-order execution', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(OPS.length - 1), fc.nat(3), fc.nat(3), fc.nat(3)), { minLength: 1, maxLength: 40 }), (prog) => {
        const lines = ['.tensor X hbm fp32 [128, 64]', '.tensor Y hbm fp32 [128, 64]'];
        for (let i = 0; i < 4; i++) lines.push(`.tensor t${i} sbuf fp32 [32, 64] partition=${i * 32}`);
        for (let i = 0; i < 4; i++) lines.push(`vector.memset t${i}, value=${i}`);
        for (const [op, d, a, b] of prog) lines.push(OPS[op]!(d, a, b));
        for (let i = 0; i < 4; i++) lines.push(`dma.copy Y[${i * 32}:${i * 32 + 32}, :], t${i}`);
        const asm = assembleNc([{ file: 'p.ncasm', text: lines.join('\n') }]);
        expect(asm.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
        const x = Float32Array.from({ length: 128 * 64 }, (_, i) => (i % 13) - 6);
        const files = new Map([['/m/X.npy', writeNpy({ dtype: 'float32', shape: [128, 64], data: x })]]);
        const img = linkNc('tensor X { data = "X.npy"; }\ntensor Y { zero = true; }', '/m/l.ld', [{ file: 'p.pobj', container: asm.object }], () => {
          throw new Error('none');
        }, (p) => files.get(p)!).image;
        const conc = runImage(img, 'p.pimg');
        expect(conc.report.stop).toBe('done');
        // Text order, one instruction at a time.
        const p = programOf(img, 'p.pimg');
        const mem = new Memories(Number(img.metadata['hbm_bytes']), false);
        for (const s of img.sections) if (s.space === 'hbm') s.kind === 'zero' ? mem.hbm.fill(0, s.address, s.address + s.size) : mem.hbm.set(s.data, s.address);
        const ex = new Executor(mem, p, hbmAddresses(img, p));
        for (const insn of p.insns) ex.run(insn);
        expect(Buffer.from(conc.memories!.hbm).equals(Buffer.from(mem.hbm))).toBe(true);
      }),
      { numRuns: 40 },
    );
  });
});
