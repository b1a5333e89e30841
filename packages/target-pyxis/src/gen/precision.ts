/**
 * The precision the grid runs each compute trip of a generated kernel at, read from the generated program itself
 * (the one place that decides it; docs/generators.md "Figures", docs/spec-notes.d/fig.md). The grid's rate follows its
 * operands' width (seq §1.2 rule 3: 8 inner-dimension values per staging with an FP8 horizontal operand, 4 with FP16):
 *
 * a compute trip (one with a `gx` program) runs at the FP16 rate (chip §1: 1,050 TFLOPS, half of FP8) when one of its
 * grid operands crosses the AMEM port at two bytes per element: its horizontal ("Matrix A", weights-path) operand is
 * 16-bit (`is_16bit=1` on the AMEM weights read or the WDP, or an `hbuf_rd_cmd=RD_*_FP16`: LnsI5F10 on the side of
 * the grid, chip §6.2.1.5 table 6-2, §6.1.3.2 "4 dot-product values per cycle instead of 8"), or its vertical operand
 * is read from AMEM as FP16 (`amem_read` `Read_SRAM data_type=Recogni_FP16 tgt_fifo=Grid`: serialised over two cycles
 * per column lane, chip §4.2, §6.2.1.4.1). Otherwise it runs at the FP8 rate (2,100 TFLOPS): that includes FP16 data
 * fed to the grid from the VPU through the Vbuffer (`Read_VPU_FIFO`, attention's P V trips), which is 16 bits per
 * column with no AMEM serialisation and becomes LnsI5F10 like every vertical operand (chip §6.2.1.5 table 6-1;
 * §6.1.4: "recirculated from the VPU to the LLC Grid ... in the higher-precision FP16 format at full performance").
 *
 * The kernel's useful FLOPs are split by trip-name prefix (`GenKernel.stages`, e.g. the transformer layer's stages);
 * a kernel without stages has one group: all its compute trips, which must then run at one precision.
 */
import type { GenKernel } from './kernel.js';

export type GridPrecision = 'fp8' | 'fp16';

/** A group of trips (by name prefix) and its useful FLOPs: a stage of a chained kernel, or the whole kernel ('' prefix). */
export interface FlopGroup {
  /** Short stable name (`qkv`, `attn`, ...; `kernel` for the whole kernel). */
  name: string;
  label: string;
  /** Trip-name prefix of the group's trips. */
  prefix: string;
  flops: number;
}

export interface PrecisionSplit {
  fp8: number;
  fp16: number;
  /** Per group: its precision (null: no compute trip, e.g. a VPU LayerNorm stage) and FLOPs. */
  groups: Array<FlopGroup & { precision: GridPrecision | null; trips: number }>;
}

interface Program {
  kind: string;
  body: string;
}

/** `.program NAME KIND { ... }` blocks of the generated assembly (a body ends at the first `}` in column 0). */
export function programBodies(pasm: string): Map<string, Program> {
  const out = new Map<string, Program>();
  const re = /^\.program\s+(\S+)\s+(\S+)\s*\{/gm;
  let m: RegExpExecArray | null;
  while ((m = re.exec(pasm))) {
    const start = m.index + m[0].length;
    const end = pasm.indexOf('\n}', start);
    out.set(m[1]!, { kind: m[2]!, body: pasm.slice(start, end < 0 ? pasm.length : end) });
  }
  return out;
}

/**
 * The rule of the module comment, for the programs of one compute trip. seq §1.2 rule 3 allows FP8 and FP16 rows in
 * one horizontal operand (grouped); such a trip would run at both rates and its FLOPs cannot be split by trip: no
 * generator makes one, and it is refused (an Error naming it) rather than rated at either peak.
 */
export function gridPrecision(programs: Program[]): GridPrecision {
  for (const p of programs) {
    if (p.kind === 'amem_weights_read' || p.kind === 'wdp') {
      const ops = p.body.split('\n').filter((l) => /^\s*(Read_SRAM|WR_HBUF)\b/.test(l));
      const wide = ops.filter((l) => /\bis_16bit=1\b/.test(l)).length;
      if (wide > 0 && wide < ops.length) throw new Error(`a compute trip's ${p.kind} program mixes 8-bit and 16-bit rows of the horizontal operand (seq §1.2 rule 3): its FLOPs run at both rates, which the figures cannot split by trip (gen/precision.ts)`);
      if (wide > 0) return 'fp16';
    }
    if (p.kind === 'gh' && /\bhbuf_rd_cmd=RD_\w*FP16\b/.test(p.body)) return 'fp16';
    if (p.kind === 'amem_read' && p.body.split('\n').some((l) => /\bdata_type=Recogni_FP16\b/.test(l) && /\btgt_fifo=Grid\b/.test(l))) return 'fp16';
  }
  return 'fp8';
}

/** Every compute trip of the link script (a trip naming a `gx` program) and its precision. */
export function tripPrecisions(pasm: string, ld: string): Map<string, GridPrecision> {
  const progs = programBodies(pasm);
  const cache = new Map<string, GridPrecision>();
  const out = new Map<string, GridPrecision>();
  const re = /\btrip\s+(\S+)\s*\{([^}]*)\}/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(ld))) {
    const body = m[2]!;
    if (!/\bgx\s*=/.test(body)) continue;
    // the trips of one kind share their programs: decide once per program set
    const names = [...body.matchAll(/\b(amem_weights_read|wdp|gh|amem_read|gv|gx)\s*=\s*([\w.]+)/g)].map((x) => x[2]!);
    const key = names.join(',');
    let prec = cache.get(key);
    if (prec === undefined) {
      prec = gridPrecision(names.map((n) => progs.get(n)).filter((p): p is Program => p !== undefined));
      cache.set(key, prec);
    }
    out.set(m[1]!, prec);
  }
  return out;
}

/**
 * The kernel's useful FLOPs by the precision the grid runs them at. A group whose trips run at both precisions, or
 * with FLOPs and no compute trip, is a generator defect (an Error: the CLI's exit 3).
 */
export function splitFlops(k: Pick<GenKernel, 'pasm' | 'ld' | 'meta' | 'stages'>): PrecisionSplit {
  const trips = tripPrecisions(k.pasm, k.ld);
  const groups: FlopGroup[] = k.stages ?? [{ name: 'kernel', label: k.meta.kind, prefix: '', flops: k.meta.flops }];
  const split: PrecisionSplit = { fp8: 0, fp16: 0, groups: [] };
  for (const g of groups) {
    const seen = new Set<GridPrecision>();
    let n = 0;
    for (const [name, p] of trips)
      if (name.startsWith(g.prefix)) {
        seen.add(p);
        n++;
      }
    if (seen.size > 1) throw new Error(`${k.meta.kind}: the compute trips of "${g.name}" (prefix "${g.prefix}") run at both FP8 and FP16: give each precision its own FLOP group (gen/precision.ts)`);
    const precision = seen.size === 1 ? [...seen][0]! : null;
    if (precision === null && g.flops > 0) throw new Error(`${k.meta.kind}: "${g.name}" has ${g.flops} FLOPs and no compute trip (prefix "${g.prefix}")`);
    if (precision) split[precision] += g.flops;
    split.groups.push({ ...g, precision, trips: n });
  }
  return split;
}
