/**
 * The disassembler: an assembled program back to `.ncasm` source that assembles to the same
 * program (`pyxis-as --disassemble`; the round trip is a property test). The expanded streams
 * are written one ISA instruction per line: `tensor.load_stationary` / `tensor.multiply_moving`
 * (a transpose's identity multiply as `tensor.transpose`), one `dma.copy ..., queue=q` per DMA
 * transfer, access patterns in their ISA form `t{start, np, pstride, offset, [size, stride]...}`,
 * and each statement preceded by `.loc "file" line col` (its original source position). With
 * `.sync auto` the semaphores are not written: re-assembly derives the same waits from the same
 * instruction list; explicit `sem_wait`/`sem_signal` instructions are written as they are.
 *
 * Also here: the reverse of the ISA form (resolveRawAp), used by the assembler.
 */
import { DMA0, STREAMS, type AP, type AttrValue, type Insn, type NcProgram, type TensorDecl } from './ir.js';
import { dtypeBytes } from './numerics.js';

/** A number as source text that reads back as the same double (-0, infinities and NaN included). */
export function numText(v: number): string {
  if (Number.isNaN(v)) return 'nan';
  if (v === Infinity) return 'inf';
  if (v === -Infinity) return '-inf';
  if (Object.is(v, -0)) return '-0';
  return String(v);
}

export function apText(p: NcProgram, a: AP): string {
  const t = p.tensors[a.tensor]!;
  return `${t.name}{${a.start}, ${a.np}, ${a.pstride}, ${a.offset}${a.dims.map(([s, st]) => `, [${s}, ${st}]`).join('')}}`;
}

function attrText(p: NcProgram, v: AttrValue): string {
  if (typeof v === 'number') return numText(v);
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return `[${v.map((x) => (typeof x === 'number' ? numText(x) : String(x))).join(', ')}]`;
  return apText(p, v);
}

const loc = (i: { file: string; line: number; col: number }) => `.loc ${JSON.stringify(i.file)} ${i.line} ${i.col}`;

function attrsText(p: NcProgram, attrs: Record<string, AttrValue>, skip: readonly string[] = []): string[] {
  return Object.keys(attrs)
    .filter((k) => !skip.includes(k))
    .map((k) => `${k}=${attrText(p, attrs[k]!)}`);
}

/** One instruction (or a LoadStationary + identity MultiplyMoving pair) as source; returns the instructions consumed. */
function insnText(p: NcProgram, k: number, out: string[]): number {
  const i = p.insns[k]!;
  const next = p.insns[k + 1];
  const ops: string[] = [];
  let mn = i.op;
  let used = 1;
  if (i.op.endsWith('.sem_wait') || i.op.endsWith('.sem_signal')) {
    const [s, v] = i.op.endsWith('.sem_wait') ? i.waits[0]! : i.signal!;
    ops.push(p.semaphores[s]!, numText(v));
    if (i.stream >= DMA0) ops.push(`queue=${i.stream - DMA0}`);
  } else if (i.op === 'tensor.load_stationary' && next && next.op === 'tensor.multiply_moving' && typeof next.attrs['identity'] === 'number' && next.out) {
    // tensor.transpose = LoadStationary(in) + MultiplyMoving(identity): written back as one statement.
    mn = 'tensor.transpose';
    ops.push(apText(p, next.out), apText(p, i.ins[0]!));
    used = 2;
  } else {
    if (i.out) ops.push(apText(p, i.out));
    for (const a of i.ins) ops.push(apText(p, a));
    ops.push(...attrsText(p, i.attrs));
    if (i.op === 'dma.copy') ops.push(`queue=${i.stream - DMA0}`);
  }
  out.push(loc(i), `${mn} ${ops.join(', ')}`.trimEnd());
  return used;
}

/** The program as assemblable source (see the module comment). */
export function sourceNc(p: NcProgram): string {
  const lines = [
    `# NeuronCore-v2 program (pyxis-as --disassemble): ${p.insns.length} ISA instructions on ${new Set(p.insns.map((i) => i.stream)).size} streams`,
    '# access patterns: tensor{start partition, partitions, HBM row stride, byte offset, [size, stride in elements]...}',
    `.sync ${p.sync}`,
  ];
  const user = p.semaphores.slice(0, p.autoBase);
  if (user.length) lines.push(`.semaphore ${user.join(', ')}`);
  for (const t of p.tensors) {
    lines.push(`.loc ${JSON.stringify(p.insns[0]?.file ?? '-')} ${t.line} 1`);
    lines.push(`.tensor ${t.name} ${t.mem} ${t.dtype} [${t.shape.join(', ')}]${t.mem === 'hbm' ? '' : `, partition=${t.partition}, offset=${t.offset}`}`);
  }
  for (let k = 0; k < p.insns.length; ) k += insnText(p, k, lines);
  return lines.join('\n') + '\n';
}

/**
 * An access pattern in ISA form, checked against its tensor: returns the AP, or the reason it
 * is not inside the tensor. `fields` = start partition (absolute), partitions, HBM row stride
 * (elements), byte offset (absolute in the partition; from the tensor base for HBM).
 */
export function resolveRawAp(t: TensorDecl, ti: number, fields: number[], dims: Array<[number, number]>): AP | string {
  const [start, np, pstride, offset] = fields as [number, number, number, number];
  if (!dims.length) return 'an access pattern has at least one [size, stride] free dimension';
  if (np < 1 || dims.some(([s]) => s < 1)) return 'sizes are positive';
  const eb = dtypeBytes(t.dtype);
  let lo = 0;
  let hi = 0;
  for (const [s, st] of dims) (st < 0 ? (lo += (s - 1) * st) : (hi += (s - 1) * st));
  if (t.mem === 'hbm') {
    if (start !== 0) return 'an HBM access starts at partition 0';
    (pstride < 0 ? (lo += (np - 1) * pstride) : (hi += (np - 1) * pstride));
    if (offset % eb !== 0 || offset + lo * eb < 0 || offset + (hi + 1) * eb > t.bytes) return `it reaches bytes ${offset + lo * eb}..${offset + (hi + 1) * eb - 1} of a ${t.bytes}-byte tensor`;
  } else {
    if (pstride !== 0) return 'SBUF/PSUM accesses have no row stride (partition striding is not allowed)';
    if (start < t.partition || start + np > t.partition + t.shape[0]!) return `it spans partitions ${start}..${start + np - 1}; the tensor occupies ${t.partition}..${t.partition + t.shape[0]! - 1}`;
    if (offset + lo * eb < t.offset || offset + (hi + 1) * eb > t.offset + t.bytes) return `it reaches bytes ${offset + lo * eb}..${offset + (hi + 1) * eb - 1} of each partition; the tensor occupies ${t.offset}..${t.offset + t.bytes - 1}`;
  }
  return { tensor: ti, mem: t.mem, dtype: t.dtype, start, np, pstride, offset, dims };
}

/** Streams as names (the listing and inspect use them). */
export const streamName = (s: number): string => STREAMS[s] ?? `stream${s}`;
export type { Insn };
