/**
 * The layout rules of the guide, checked on every assembled instruction. Each diagnostic
 * names the rule and the guide's section (`spec: neuroncore-v2-architecture.md §<title>`).
 * Codes: NC01xx access patterns, NC02xx engine/memory connectivity and TensorE tiles,
 * NC03xx Vector/Scalar/GpSimd, NC04xx DMA, NC05xx data types.
 */
import { error, type Diagnostic, type SourceSpan } from '@pyxis/diagnostics';
import { freeSize, type AP, type Insn, type TensorDecl } from './ir.js';
import { loadMachine, SPEC } from './isa.js';
import { dtypeBytes, type DType } from './numerics.js';

export const S_ACCESS = `${SPEC} §Accessing SBUF/PSUM tensors using compute engines`;
export const S_XPART = `${SPEC} §Cross-Partition Connectivity`;
export const S_TENSOR = `${SPEC} §Tensor Engine (Layout, Tile Size)`;
export const S_PSUM = `${SPEC} §Near-memory accumulation in PSUM`;
export const S_VECTOR = `${SPEC} §Vector Engine (Layout & Tile Size)`;
export const S_SCALAR = `${SPEC} §Scalar Engine`;
export const S_GPSIMD = `${SPEC} §GpSimd Engine (Memory Hierarchy)`;
export const S_DMA = `${SPEC} §Data movement between HBM and SBUF using DMAs`;
export const S_DTYPE = `${SPEC} §Tensor Engine (Data Types)`;
export const S_MOVE = `${SPEC} §Data Movement (engine connectivity)`;

export const TENSOR_INPUT_DTYPES: readonly DType[] = ['bf16', 'fp16', 'tf32', 'fp8_e4m3', 'fp8_e5m2', 'fp32'];

export interface RuleCtx {
  diags: Diagnostic[];
  span(col: number, len?: number): SourceSpan;
  /** Column of an operand (for carets). */
  colOf(ap: AP): number;
  /** Column of a `key=` attribute, when the instruction has it. */
  attrCol?(key: string): number | undefined;
  tensors: TensorDecl[];
}

function fail(ctx: RuleCtx, code: string, msg: string, col: number, spec: string, notes?: string[]): void {
  ctx.diags.push(error(code, msg, { span: ctx.span(col), spec, ...(notes ? { notes } : {}) }));
}

/** The start-partition rule of the guide (Accessing SBUF/PSUM tensors). */
export function startPartitionOk(start: number, np: number): boolean {
  if (np > 64) return start === 0;
  if (np > 32) return start === 0 || start === 64;
  return start === 0 || start === 32 || start === 64 || start === 96;
}

/** Rules every SBUF/PSUM access pattern obeys. */
export function checkAp(ap: AP, ctx: RuleCtx, dma = false): void {
  const col = ctx.colOf(ap);
  const m = loadMachine();
  const name = ctx.tensors[ap.tensor]?.name ?? '?';
  if (ap.dims.length > 4) fail(ctx, 'NC0103', `access of \`${name}\` has ${ap.dims.length} free dimensions; an instruction operand has at most 4`, col, S_ACCESS);
  for (const [size, stride] of ap.dims) {
    if (size > 65535) fail(ctx, 'NC0104', `free dimension size ${size} of \`${name}\` does not fit the uint16 size field`, col, S_ACCESS);
    if (stride > 32767 || stride < -32768) fail(ctx, 'NC0104', `free dimension stride ${stride} elements of \`${name}\` does not fit the int16 stride field`, col, S_ACCESS);
  }
  if (ap.mem === 'hbm') return;
  if (ap.np < 1 || ap.np > 128) fail(ctx, 'NC0101', `access of \`${name}\` spans ${ap.np} partitions; at most 128`, col, S_ACCESS);
  // The start-partition rule binds the compute engines' read/write interfaces; a DMA addresses
  // SBUF through the device address map, one buffer per partition (docs/spec-notes.md).
  else if (!dma && !startPartitionOk(ap.start, ap.np))
    fail(ctx, 'NC0102', `access of \`${name}\` starts at partition ${ap.start} with ${ap.np} partitions; the start partition must be ${ap.np > 64 ? '0 for more than 64 partitions' : ap.np > 32 ? '0 or 64 for 33..64 partitions' : '0, 32, 64 or 96 for up to 32 partitions'}`, col, S_ACCESS);
  const eb = dtypeBytes(ap.dtype);
  if (ap.offset % eb !== 0) fail(ctx, 'NC0105', `access of \`${name}\` at byte offset ${ap.offset} is not aligned to its ${eb}-byte elements`, col, S_ACCESS);
  const pbytes = ap.mem === 'sbuf' ? m.sbufPartitionBytes : m.psumPartitionBytes;
  let lo = 0;
  let hi = 0;
  for (const [size, stride] of ap.dims) if (size > 1) (stride < 0 ? (lo += (size - 1) * stride) : (hi += (size - 1) * stride));
  if (ap.offset + lo * eb < 0 || ap.offset + (hi + 1) * eb > pbytes)
    fail(ctx, 'NC0106', `access of \`${name}\` reaches bytes ${ap.offset + lo * eb}..${ap.offset + (hi + 1) * eb - 1} of a ${pbytes}-byte ${ap.mem.toUpperCase()} partition`, col, `${SPEC} §NeuronCore-v2 Compute Engines (SBUF/PSUM geometry)`);
}

const ENGINE_MEMS: Record<string, { read: string[]; write: string[]; spec: string }> = {
  tensor: { read: ['sbuf'], write: ['psum'], spec: `${S_TENSOR}: TensorE must read input matrices from SBUF and write output matrices to PSUM` },
  vector: { read: ['sbuf', 'psum'], write: ['sbuf', 'psum'], spec: S_MOVE },
  scalar: { read: ['sbuf', 'psum'], write: ['sbuf', 'psum'], spec: S_MOVE },
  gpsimd: { read: ['sbuf'], write: ['sbuf'], spec: `${S_GPSIMD}: each GpSimd processor connects to 16 SBUF partitions` },
  dma: { read: ['hbm', 'sbuf'], write: ['hbm', 'sbuf'], spec: `${S_DMA}; ${S_MOVE}: data movement between PSUM and SBUF is done through ISA instructions on the compute engines` },
};

function partitionScalar(ap: AP, np: number, what: string, ctx: RuleCtx, spec: string): void {
  if (ap.np !== np || freeSize(ap) !== 1)
    fail(ctx, 'NC0312', `${what} must be a per-partition vector of [${np}, 1] (one element per partition); got [${ap.np}, ${freeSize(ap)}]`, ctx.colOf(ap), spec);
}

/** Rules of one instruction (after operand binding). `engine` is the mnemonic prefix. */
export function checkInsn(insn: Insn, engine: string, ctx: RuleCtx, insnCol: number): void {
  const conn = ENGINE_MEMS[engine];
  const aps: AP[] = [...insn.ins];
  for (const v of Object.values(insn.attrs)) if (v && typeof v === 'object' && !Array.isArray(v)) aps.push(v);
  for (const ap of [...aps, ...(insn.out ? [insn.out] : [])]) checkAp(ap, ctx, engine === 'dma');
  if (conn) {
    for (const ap of aps)
      if (!conn.read.includes(ap.mem)) fail(ctx, 'NC0201', `${engine === 'dma' ? 'DMA' : engine} cannot read ${ap.mem.toUpperCase()} (reads: ${conn.read.join(', ').toUpperCase()})`, ctx.colOf(ap), conn.spec);
    if (insn.out && !conn.write.includes(insn.out.mem))
      fail(ctx, 'NC0201', `${engine === 'dma' ? 'DMA' : engine} cannot write ${insn.out.mem.toUpperCase()} (writes: ${conn.write.join(', ').toUpperCase()})`, ctx.colOf(insn.out), conn.spec);
  }
  const op = insn.op;
  const out = insn.out;
  const in0 = insn.ins[0];
  if (engine === 'vector' || engine === 'scalar' || engine === 'gpsimd') {
    for (const ap of [...insn.ins, ...(out ? [out] : [])]) {
      const lim = ap.mem === 'psum' ? 4096 : 65536;
      if (freeSize(ap) > lim) fail(ctx, 'NC0301', `${engine} operand has ${freeSize(ap)} elements per partition; at most ${lim} in ${ap.mem.toUpperCase()}`, ctx.colOf(ap), engine === 'scalar' ? S_SCALAR : S_VECTOR);
    }
    if (out) {
      for (const ap of insn.ins)
        if (ap.np !== out.np)
          fail(ctx, 'NC0310', `input spans ${ap.np} partitions but the output ${out.np}: each input partition flows into one output partition`, ctx.colOf(ap), S_XPART);
        else if (engine === 'gpsimd') checkGpsimdGroups(ap, out, ctx);
        else if (ap.start !== out.start && ap.np > 64) fail(ctx, 'NC0311', 'cross-partition movement needs at most 64 partitions', ctx.colOf(ap), S_XPART);
      if (engine === 'gpsimd')
        for (const v of Object.values(insn.attrs)) if (v && typeof v === 'object' && !Array.isArray(v) && v.np === out.np) checkGpsimdGroups(v, out, ctx);
    }
    const same = (a: AP | undefined, b: AP | undefined): void => {
      if (a && b && freeSize(a) !== freeSize(b)) fail(ctx, 'NC0313', `operand has ${freeSize(a)} elements per partition, the output ${freeSize(b)}`, ctx.colOf(a), S_VECTOR);
    };
    if (op.endsWith('tensor_tensor')) {
      same(insn.ins[0], out);
      same(insn.ins[1], out);
    }
    if (op.endsWith('tensor_scalar') || op.endsWith('tensor_copy') || op === 'scalar.activation' || op === 'gpsimd.affine_select') same(in0, out);
    for (const k of ['operand0', 'operand1', 'scale', 'bias']) {
      const v = insn.attrs[k];
      if (v && typeof v === 'object' && !Array.isArray(v) && in0) partitionScalar(v, in0.np, `\`${k}\``, ctx, op === 'scalar.activation' ? `${S_SCALAR} §Pipelined Multiply-Add` : S_VECTOR);
    }
    if (op === 'vector.bn_stats' && in0 && out) {
      if (freeSize(in0) > 512) fail(ctx, 'NC0302', `bn_stats input has ${freeSize(in0)} elements per partition; at most 512`, ctx.colOf(in0), S_VECTOR);
      if (freeSize(out) !== 6) fail(ctx, 'NC0303', `bn_stats writes 6 elements per partition (count, mean, variance*count of even and odd elements); the output has ${freeSize(out)}`, ctx.colOf(out), S_VECTOR);
    }
    if (op === 'vector.bn_aggr' && in0 && out) {
      if (freeSize(in0) % 3 !== 0) fail(ctx, 'NC0303', `bn_aggr input holds (count, mean, variance*count) triples; ${freeSize(in0)} elements per partition is not a multiple of 3`, ctx.colOf(in0), S_VECTOR);
      if (freeSize(out) !== 2) fail(ctx, 'NC0303', `bn_aggr writes 2 elements per partition (mean, variance); the output has ${freeSize(out)}`, ctx.colOf(out), S_VECTOR);
    }
    if (op === 'vector.transpose' && in0 && out) {
      if (in0.np % 32 !== 0 || freeSize(in0) !== 32 || out.np !== in0.np || freeSize(out) !== 32)
        fail(ctx, 'NC0314', 'VectorE transposes 32x32 blocks inside each group of 32 partitions: input and output must be [32k, 32]', ctx.colOf(in0), `${SPEC} §Vector Engine (Cross-partition Data Movement)`);
    }
    if (op === 'vector.shuffle' && in0) {
      const mask = insn.attrs['mask'];
      if (!Array.isArray(mask) || mask.length !== 32 || mask.some((x) => !Number.isInteger(x) || x < 0 || x > 31))
        fail(ctx, 'NC0315', 'a shuffle mask has 32 source partition ids (0..31, modulo 32)', ctx.attrCol?.('mask') ?? insnCol, `${SPEC} §Vector Engine (Cross-partition Data Movement)`);
      if (in0.np % 32 !== 0) fail(ctx, 'NC0315', 'a shuffle works on whole groups of 32 partitions', ctx.colOf(in0), `${SPEC} §Vector Engine (Cross-partition Data Movement)`);
    }
  }
  if (op === 'tensor.load_stationary' && in0) {
    if (!TENSOR_INPUT_DTYPES.includes(in0.dtype)) fail(ctx, 'NC0501', `TensorE inputs are BF16, FP16, TF32, FP8 or FP32; \`${in0.dtype}\` is not`, ctx.colOf(in0), S_DTYPE);
    if (freeSize(in0) > 128) fail(ctx, 'NC0202', `stationary free size ${freeSize(in0)} exceeds 128 (the PE columns)`, ctx.colOf(in0), S_TENSOR);
  }
  if (op === 'tensor.multiply_moving' && out) {
    const mv = in0;
    if (mv) {
      if (!TENSOR_INPUT_DTYPES.includes(mv.dtype)) fail(ctx, 'NC0501', `TensorE inputs are BF16, FP16, TF32, FP8 or FP32; \`${mv.dtype}\` is not`, ctx.colOf(mv), S_DTYPE);
      if (freeSize(mv) > 512) fail(ctx, 'NC0203', `moving free size ${freeSize(mv)} exceeds 512 (one PSUM bank holds 512 FP32 values per partition)`, ctx.colOf(mv), S_TENSOR);
      if (freeSize(out) !== freeSize(mv)) fail(ctx, 'NC0207', `the output free size (${freeSize(out)}) must equal the moving free size (${freeSize(mv)})`, ctx.colOf(out), S_TENSOR);
    }
    if (out.dtype !== 'fp32') fail(ctx, 'NC0502', `TensorE accumulates in FP32 and writes FP32 to PSUM; the output is \`${out.dtype}\``, ctx.colOf(out), S_DTYPE);
    if (out.mem === 'psum') {
      const m = loadMachine();
      const box = out.offset + (freeSize(out) - 1) * 4;
      if (Math.floor(out.offset / m.psumBankBytes) !== Math.floor(box / m.psumBankBytes))
        fail(ctx, 'NC0204', `the output spans PSUM bytes ${out.offset}..${box + 3}, crossing a 2 KiB bank boundary; a matmul writes one PSUM bank`, ctx.colOf(out), S_PSUM);
    }
  }
  if (engine === 'dma' && out && in0) {
    if (out.dtype !== in0.dtype) fail(ctx, 'NC0401', `a DMA copies bytes: source \`${in0.dtype}\` and destination \`${out.dtype}\` differ`, ctx.colOf(in0), S_DMA);
    if (out.np * freeSize(out) !== in0.np * freeSize(in0))
      fail(ctx, 'NC0402', `the DMA source has ${in0.np}x${freeSize(in0)} elements, the destination ${out.np}x${freeSize(out)}`, ctx.colOf(in0), S_DMA);
    else if (out.np !== in0.np) fail(ctx, 'NC0403', `the DMA source has ${in0.np} rows and the destination ${out.np} partitions; rows map to partitions one to one`, ctx.colOf(in0), S_DMA);
  }
  void insnCol;
}

/**
 * GpSimd's 16-partition groups (GpSimd Engine, Memory Hierarchy): processor k reads and writes
 * only SBUF partitions 16k..16k+15, so partition p of every input must land in a partition of
 * the same processor; with equal partition counts that means the same partition (any shift the
 * start-partition rule allows, a multiple of 32, leaves the processor). docs/spec-notes.md.
 */
export function checkGpsimdGroups(ap: AP, out: AP, ctx: RuleCtx): void {
  if (ap.start === out.start) return;
  const group = loadMachine().gpsimdGroup;
  const g = (p: number) => Math.floor(p / group);
  fail(
    ctx,
    'NC0317',
    `GpSimd cannot move data between its ${group}-partition groups: input partitions ${ap.start}..${ap.start + ap.np - 1} (processor${g(ap.start) === g(ap.start + ap.np - 1) ? ` ${g(ap.start)}` : `s ${g(ap.start)}..${g(ap.start + ap.np - 1)}`}) would flow into output partitions ${out.start}..${out.start + out.np - 1} (processor${g(out.start) === g(out.start + out.np - 1) ? ` ${g(out.start)}` : `s ${g(out.start)}..${g(out.start + out.np - 1)}`}); each processor reads and writes only its ${group} connected SBUF partitions`,
    ctx.colOf(ap),
    `${S_GPSIMD}: processor[0] connected to partition[0:15], processor[1] to partition[16:31] and so on`,
  );
}

/** The start-partition and geometry rules of a declared SBUF/PSUM tensor. */
export function checkDecl(t: TensorDecl, ctx: RuleCtx, col: number): void {
  if (t.mem === 'hbm') return;
  const m = loadMachine();
  const np = t.shape[0]!;
  if (np > 128) fail(ctx, 'NC0101', `\`${t.name}\` has ${np} partitions; SBUF and PSUM have 128`, col, S_ACCESS);
  else if (t.partition + np > 128) fail(ctx, 'NC0101', `\`${t.name}\` occupies partitions ${t.partition}..${t.partition + np - 1}; there are 128`, col, S_ACCESS);
  const pbytes = t.mem === 'sbuf' ? m.sbufPartitionBytes : m.psumPartitionBytes;
  if (t.offset + t.bytes > pbytes) fail(ctx, 'NC0107', `\`${t.name}\` needs bytes ${t.offset}..${t.offset + t.bytes - 1} of each partition; a ${t.mem.toUpperCase()} partition has ${pbytes}`, col, `${SPEC} §NeuronCore-v2 Compute Engines (SBUF 192KiB / PSUM 16KiB per partition)`);
}
