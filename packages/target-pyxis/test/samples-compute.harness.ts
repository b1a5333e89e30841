/**
 * Shared by the samples-compute*.test.ts files: assemble + link + simulate a sample of samples/pyxis in-process, read
 * tensors back, and the float64 references / error figures the tests check (written here, not taken from the model).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readNpyFile } from '@pyxis/container';
import { assemble, loadPyxisIsa } from '@pyxis/target-pyxis/asm';
import { link } from '@pyxis/target-pyxis/ld';
import { dumpSymbol, makeUieFactory, simulateImage, type SimReport } from '@pyxis/target-pyxis/sim';
import type { Uie } from '../src/sim/uie/uie.js';

export const SAMPLES = fileURLToPath(new URL('../../../samples/pyxis/', import.meta.url));
const isa = loadPyxisIsa();

/** chip §1: 1.33 GHz, 2048 LLCs x 8 MACs per cycle per UIE (FP8); 2 FLOPs per MAC. */
export const CLOCK_HZ = 1.33e9;
export const MACS_PER_CYCLE_FP8 = 2048 * 8;
export const PEAK_TFLOPS_FP8 = (MACS_PER_CYCLE_FP8 * 2 * CLOCK_HZ) / 1e12;

/** Runs make-compute-inputs.mjs (seeded) when an input file is missing. */
export function ensureInputs(files: string[], k?: number): void {
  if (files.every((f) => existsSync(SAMPLES + f))) return;
  execFileSync(process.execPath, [SAMPLES + 'make-compute-inputs.mjs', SAMPLES, ...(k ? ['--k', String(k)] : [])], { stdio: 'ignore' });
}

export interface SampleRun {
  report: SimReport;
  tensor(name: string): Float32Array;
  /** The bytes the linker placed for a symbol (e.g. a weight database), from the image. */
  raw(name: string): Uint8Array;
  /** The compute statistics of UIE `index` of cluster 0 (uieDefault.ts `uieStats().compute`). */
  compute(index?: number): ComputeFigures & { timing_only: boolean; trips: Array<ComputeFigures & { trip_id: number; start_cycle: number; end_cycle: number }> };
}

export interface ComputeFigures {
  cycles: number;
  macs: number;
  tflops: number;
  grid_utilisation: number;
  exec_valid: number;
  exec_bubble: number;
  writebacks: number;
  wb_flits: number;
  stall_cycles: Record<string, number>;
}

/**
 * Assembles `pasm`, links `ld` (both files of samples/pyxis, optionally rewritten by `edit` — used for other sizes of
 * the same program) and simulates the image.
 */
export function runSample(
  pasm: string,
  ld: string,
  opts: { timingOnly?: boolean; edit?: (text: string, file: string) => string; maxCycles?: number; onUie?: (uie: Uie) => void } = {},
): SampleRun {
  const edit = opts.edit ?? ((t: string) => t);
  const obj = assemble([{ file: pasm, text: edit(readFileSync(SAMPLES + pasm, 'utf8'), pasm) }], { isa, listing: false }).object;
  const image = link({ script: edit(readFileSync(SAMPLES + ld, 'utf8'), ld), scriptFile: SAMPLES + ld, objects: [{ file: pasm.replace(/\.pasm$/, '.pobj'), container: obj }] }).image;
  const factory = makeUieFactory({ timingOnly: opts.timingOnly ?? false });
  const uieFactory: typeof factory = (o) => {
    const m = factory(o);
    if (opts.onUie && 'cmp' in m) opts.onUie(m as unknown as Uie);
    return m;
  };
  const res = simulateImage(image, ld, { uieFactory, maxCycles: opts.maxCycles ?? 2_000_000 });
  return {
    report: res.report,
    tensor: (name) => dumpSymbol(res.chip, image, name, true).data as Float32Array,
    raw: (name) => {
      const sym = image.symbols.find((x) => x.name === name);
      const sec = sym ? image.sections[sym.section] : undefined;
      if (!sym || !sec?.data) throw new Error(`no placed symbol ${name}`);
      return sec.data.subarray(sym.offset, sym.offset + sym.size);
    },
    compute: (index = 0) => {
      const e = res.report.engines.find((x) => x.name === `c0.uie${index}`);
      const c = e?.uie?.['compute'];
      if (!c) throw new Error(`c0.uie${index}: no compute statistics`);
      return c as ReturnType<SampleRun['compute']>;
    },
  };
}

export function npy(file: string): { shape: number[]; data: Float64Array } {
  const t = readNpyFile(SAMPLES + file);
  return { shape: t.shape, data: Float64Array.from(t.data as Float32Array) };
}

// the float64 product, transpose and error figures are shared with the generator tests (independent references)
export { errors, matmul64, transpose } from './gen/float64.ref.js';

/**
 * Independent chip §14.1 decompression of a compressed 1x1 database, organisation cin_per_cout, block size 8
 * (docs/weights.md tables): codebook word, then per group k of 8 input channels a superblock of 128 scaling factors
 * and 128 blocks x 4 bytes; block j = Cout (j>>4) + 8*(j&15), Cin 8k + e (nibble e, low first). Weight = codebook
 * entry (EB -15) x scaling factor (EB eb); magnitude m = m_cb + m_sf - 120 eighths of an octave, m <= 0 -> 0.
 */
export function decompressCinPerCout8(bytes: ArrayLike<number>, O: number, I: number, eb: number): Float64Array {
  const out = new Float64Array(O * I);
  const val = (c: number, bias: number) => ((c & 0x7f) === 0 ? 0 : (c & 0x80 ? -1 : 1) * 2 ** ((c & 0x7f) / 8 + bias));
  for (let k = 0; k < I / 8; k++) {
    const base = 128 + k * (128 + 64 * 8);
    for (let j = 0; j < 128; j++) {
      const co = (j >> 4) + 8 * (j & 15);
      const sc = bytes[base + j]!;
      for (let e = 0; e < 8; e++) {
        const byte = bytes[base + 128 + j * 4 + (e >> 1)]!;
        const cb = bytes[e & 1 ? byte >> 4 : byte & 15]!;
        const m = (cb & 0x7f) + (sc & 0x7f) - 120;
        const prod = val(cb, -15) * val(sc, eb);
        out[co * I + 8 * k + e] = prod === 0 || m <= 0 ? 0 : m > 127 ? Math.sign(prod) * 2 ** (127 / 8 + eb) : prod;
      }
    }
  }
  return out;
}
