import { loadGrammarJson } from '@pyxis/codec';
import { error, type Diagnostic } from '@pyxis/diagnostics';

/**
 * Errors of the kernel generators (docs/generators.md "Diagnostics", codes GEN0001-GEN0099). A generator never
 * writes a program the hardware cannot run: a parameter outside what seq §1.2-1.4, the AMEM size or the chip's UIE
 * count allow is a GenError naming the parameter and the limit. Exit code 1 (input error) from the CLI; 2 for usage.
 */
export class GenError extends Error {
  constructor(
    readonly code: string,
    readonly param: string,
    /** What is wrong with `param` (the message without the code and the parameter). */
    readonly detail: string,
    readonly exitCode: 1 | 2 = 1,
    /** Hints printed under the message (`did you mean \`gelu\`?`). */
    readonly notes: readonly string[] = [],
  ) {
    super(`${code}: ${param}: ${detail}`);
    this.name = 'GenError';
  }

  /** The error as the tools print theirs (`error[GEN0003]: m: must be a multiple of 8 ...`; @pyxis/diagnostics). */
  toDiagnostic(): Diagnostic {
    return error(this.code, `${this.param}: ${this.detail}`, this.notes.length ? { notes: [...this.notes] } : {});
  }
}

/** Chip limits the generators check (grammars/pyxis/memory_map.json: clusters, uies_per_cluster; docs/linker.md). */
export interface ChipLimits {
  clusters: number;
  uiesPerCluster: number;
  /** AMEM bytes per cluster (chip §7: 64 MiB). */
  amemBytes: number;
  /** Sequencer loop counts (seq §2.1: numloops is 12 bits). */
  maxLoop: number;
  /** AMEM Read / Write / Weights Read iter_stride, in 16-byte partitions (16 bits, seq §5.1). */
  maxStride: number;
}

export function requireInt(param: string, v: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (!Number.isInteger(v)) throw new GenError('GEN0001', param, `must be an integer (got ${v})`, 2);
  if (v < min || v > max) throw new GenError('GEN0002', param, `must be in ${min}..${max} (got ${v})`);
  return v;
}

/**
 * Host limits of one generated kernel (GEN0020; not the chip's: docs/generators.md "Diagnostics"): the generator draws
 * its inputs as float32 in memory and writes them as .npy, and the linker and the simulator keep state per trip, so a
 * kernel has at most MAX_TRIPS compute trips and MAX_INPUT_VALUES input values. Larger work is several kernels.
 */
export const MAX_TRIPS = 16384;
export const MAX_INPUT_VALUES = 2 ** 28;
/** `trips` compute trips (`what`: how they follow from the parameters) and `values` input values, against the limits. */
export function requireScale(params: string, trips: number, what: string, values: number): void {
  if (trips > MAX_TRIPS) throw new GenError('GEN0020', params, `${what} = ${trips} compute trips; a generated kernel has at most ${MAX_TRIPS} (the linker and the simulator keep state per trip): split the work into several kernels`);
  if (values > MAX_INPUT_VALUES) throw new GenError('GEN0020', params, `the inputs would be ${values} values (${((values * 4) / 2 ** 30).toFixed(1)} GiB as float32); a generated kernel has at most ${MAX_INPUT_VALUES} (1 GiB, held in memory and written as .npy)`);
}

export const MAX_NAME = 128;
/** A kernel name: it prefixes the files, programs and tensors (GEN0005, usage). */
export function requireName(name: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new GenError('GEN0005', 'name', `must be an identifier (got "${name}")`, 2);
  // it prefixes file names (NAME_ref_a.npy, and the temporary .NAME_ref_a.npy.PID.tmp.npy): keep them far below the
  // 255 bytes a file name may have on common file systems
  if (name.length > MAX_NAME) throw new GenError('GEN0005', 'name', `must be at most ${MAX_NAME} characters (got ${name.length}): it prefixes the file names`, 2);
  return name;
}

export function requireMultiple(param: string, v: number, m: number, why: string): void {
  if (v % m !== 0) throw new GenError('GEN0003', param, `must be a multiple of ${m} (got ${v}): ${why}`);
}

let limits: ChipLimits | undefined;
/** The chip's limits: cluster and UIE counts from grammars/pyxis/memory_map.json, the rest from the specs cited. */
export function chipLimits(): ChipLimits {
  if (limits) return limits;
  const mm = loadGrammarJson<{ clusters: number; uies_per_cluster: number }>('pyxis', 'memory_map');
  limits = { clusters: mm.clusters, uiesPerCluster: mm.uies_per_cluster, amemBytes: 64 * 1024 * 1024, maxLoop: 4096, maxStride: 65535 };
  return limits;
}

/** A worker = one UIE of one cluster. */
export interface Worker {
  cluster: number;
  uie: number;
}

/**
 * The UIEs a kernel runs on: `clusters` (list of cluster ids) x the first `uies` UIEs of each. Checked against the
 * chip (GEN0004 more clusters / UIEs than exist).
 */
export function workers(clusters: number[], uies: number): Worker[] {
  const lim = chipLimits();
  if (clusters.length === 0) throw new GenError('GEN0004', 'clusters', 'at least one cluster');
  for (const c of clusters) {
    if (!Number.isInteger(c) || c < 0 || c >= lim.clusters) throw new GenError('GEN0004', 'clusters', `cluster ${c} does not exist (the chip has clusters 0..${lim.clusters - 1})`);
  }
  if (new Set(clusters).size !== clusters.length) throw new GenError('GEN0004', 'clusters', 'a cluster is listed twice');
  if (!Number.isInteger(uies) || uies < 1 || uies > lim.uiesPerCluster) throw new GenError('GEN0004', 'uies', `must be 1..${lim.uiesPerCluster} UIEs per cluster (got ${uies})`);
  const out: Worker[] = [];
  // UIE-major so that consecutive tiles land on different clusters (their HBM stacks and H2A engines work in parallel)
  for (let u = 0; u < uies; u++) for (const c of clusters) out.push({ cluster: c, uie: u });
  return out;
}
