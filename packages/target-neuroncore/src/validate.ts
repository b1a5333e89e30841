/**
 * What the NeuronCore tools check of a container before using it (issue 15: no input reaches an unchecked
 * property). Three layers, each reported before any of it is used:
 *  - the container metadata, one schema per kind (CT0015 with its JSON path, docs/container-format.md
 *    "NeuronCore metadata"): `hbm_bytes` above all, which sizes the simulated HBM;
 *  - the `nc.program` section, against PROGRAM_SCHEMA (its JSON shape: types, ranges, enums);
 *  - the program's references: tensor, semaphore and stream indices in range, every access pattern inside
 *    its tensor (the same test as an ISA-form access in the assembler, NC0033), SBUF/PSUM tensors inside
 *    their memory, and (images) every HBM section and tensor inside `hbm_bytes`.
 * The last two raise ProgramError (NC0703 at the tools); the assembler's rules (rules.ts) are not re-run.
 */
import { checkSchema, validateMetadata, type Container, type JsonSchema } from '@pyxis/container';
import { loadIsa, loadMachine } from './isa.js';
import { STREAMS, type AP, type NcProgram } from './ir.js';
import { DTYPES, dtypeBytes } from './numerics.js';
import { resolveRawAp } from './source.js';

const uint: JsonSchema = { type: 'integer', minimum: 0 };
const int: JsonSchema = { type: 'integer', minimum: -(2 ** 53), maximum: 2 ** 53 };
const str: JsonSchema = { type: 'string' };
/** The device's HBM (grammars/neuroncore/machine.json `hbm.bytes`: 2 stacks, 32 GiB). */
const HBM_BYTES = 32 * 2 ** 30;

/** HBM bytes the simulator holds (one dense array; docs/spec-notes.md): larger images run --timing-only. */
export const MAX_SIM_HBM = 2 ** 30;

/** `.pobj` metadata (pyxis-as --target neuroncore). */
export const NC_OBJECT_METADATA: JsonSchema = {
  type: 'object',
  properties: { producer: str, sources: { type: 'array', items: str }, instructions: uint },
};

/** `.pimg` metadata (pyxis-ld --target neuroncore): `hbm_bytes` is the HBM the linker laid tensors out in. */
export const NC_IMAGE_METADATA: JsonSchema = {
  type: 'object',
  required: ['hbm_bytes'],
  properties: { producer: str, object: str, hbm_bytes: { type: 'integer', minimum: 0, maximum: HBM_BYTES, description: 'bytes of HBM the tensors occupy' }, instructions: uint },
};

const mem: JsonSchema = { enum: ['hbm', 'sbuf', 'psum'] };
const dtype: JsonSchema = { enum: [...DTYPES] };
const ap: JsonSchema = {
  type: 'object',
  required: ['tensor', 'mem', 'dtype', 'start', 'np', 'pstride', 'offset', 'dims'],
  properties: { tensor: uint, mem, dtype, start: uint, np: { type: 'integer', minimum: 1, maximum: 65535 }, pstride: int, offset: uint, dims: { type: 'array', minItems: 1, maxItems: 4, items: { type: 'array', minItems: 2, maxItems: 2, items: int } } },
};
const pair: JsonSchema = { type: 'array', minItems: 2, maxItems: 2, items: uint };

/** The `nc.program` section (ir.ts NcProgram). Access-pattern sizes are bounded again by the reference check below. */
export const PROGRAM_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['tensors', 'semaphores', 'autoBase', 'sync', 'insns'],
  properties: {
    tensors: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'mem', 'dtype', 'shape', 'partition', 'offset', 'bytes'],
        properties: { name: str, mem, dtype, shape: { type: 'array', minItems: 1, maxItems: 8, items: { type: 'integer', minimum: 1, maximum: HBM_BYTES } }, partition: uint, offset: uint, bytes: { type: 'integer', minimum: 1, maximum: HBM_BYTES }, line: uint },
      },
    },
    semaphores: { type: 'array', items: str },
    autoBase: uint,
    sync: { enum: ['auto', 'explicit'] },
    insns: {
      type: 'array',
      items: {
        type: 'object',
        required: ['op', 'stream', 'ins', 'attrs', 'waits'],
        properties: {
          op: { type: 'string', pattern: '^(tensor|vector|scalar|gpsimd|dma)\\.[a-z_]+$', description: 'an engine.op mnemonic' },
          stream: { type: 'integer', minimum: 0, maximum: STREAMS.length - 1 },
          out: ap,
          ins: { type: 'array', maxItems: 3, items: ap },
          attrs: { type: 'object', additionalProperties: { anyOf: [{ type: 'number' }, str, { type: 'array', items: { type: 'number' } }, ap] } },
          waits: { type: 'array', items: pair },
          signal: pair,
          depPrev: { type: 'boolean' },
          file: str,
          line: uint,
          col: uint,
        },
      },
    },
  },
};

/** Validates a NeuronCore container's metadata against the schema of its kind (CT0015 with the JSON path). */
export function checkNcMetadata(c: Container, file: string): void {
  validateMetadata(c, c.kind === 'pobj' ? NC_OBJECT_METADATA : NC_IMAGE_METADATA, file);
}

const product = (xs: number[]): number => xs.reduce((a, b) => a * b, 1);

/**
 * Why a decoded program cannot be used (its shape, then its references), or undefined. Cost: linear in the
 * program (each access pattern checked once).
 */
export function programProblem(p: unknown): string | undefined {
  const shape = checkSchema(p, PROGRAM_SCHEMA, '$', 1)[0];
  if (shape) return `${shape.path}: ${shape.message}`;
  const prog = p as NcProgram;
  const m = loadMachine();
  for (const [i, t] of prog.tensors.entries()) {
    const eb = dtypeBytes(t.dtype);
    const where = `$.tensors[${i}] (\`${t.name}\`)`;
    if (t.mem === 'hbm') {
      if (t.bytes !== product(t.shape) * eb) return `${where}: ${t.bytes} bytes for shape [${t.shape.join(', ')}] of ${t.dtype}`;
      continue;
    }
    const parts = t.mem === 'sbuf' ? m.sbufPartitions : m.psumPartitions;
    const pbytes = t.mem === 'sbuf' ? m.sbufPartitionBytes : m.psumPartitionBytes;
    if (t.bytes !== product(t.shape.slice(1)) * eb) return `${where}: ${t.bytes} bytes per partition for shape [${t.shape.join(', ')}] of ${t.dtype}`;
    if (t.partition + t.shape[0]! > parts || t.offset + t.bytes > pbytes) return `${where}: partitions ${t.partition}.. and bytes ${t.offset}.. lie outside ${t.mem.toUpperCase()} (${parts} partitions of ${pbytes} bytes)`;
  }
  if (prog.autoBase + STREAMS.length > prog.semaphores.length) return `$.autoBase: ${prog.autoBase} leaves no room for the ${STREAMS.length} automatic semaphores of ${prog.semaphores.length}`;
  const apProblem = (a: AP, path: string): string | undefined => {
    const t = prog.tensors[a.tensor];
    if (!t) return `${path}.tensor: no tensor ${a.tensor} (${prog.tensors.length} declared)`;
    if (t.mem !== a.mem || t.dtype !== a.dtype) return `${path}: ${a.mem} ${a.dtype} access of \`${t.name}\`, a ${t.mem} ${t.dtype} tensor`;
    if (a.dims.some(([size, stride]) => size < 1 || size > 65535 || stride < -32768 || stride > 32767)) return `${path}.dims: sizes 1..65535 and strides -32768..32767 (the ISA's uint16/int16 fields)`;
    const r = resolveRawAp(t, a.tensor, [a.start, a.np, a.pstride, a.offset], a.dims);
    return typeof r === 'string' ? `${path}: outside \`${t.name}\`: ${r}` : undefined;
  };
  const isa = loadIsa();
  const enums: Record<string, readonly string[]> = { op0: isa.alu_ops, op1: isa.alu_ops, func: isa.activation_functions, cmp: isa.cmp_ops };
  for (const [k, insn] of prog.insns.entries()) {
    const path = `$.insns[${k}]`;
    // the mnemonic, its engine's stream, its operands (as the ISA lists them) and its enumerated attributes
    const engine = insn.op.slice(0, insn.op.indexOf('.'));
    const sem = /\.sem_(signal|wait)$/.test(insn.op);
    const def = isa.instructions[insn.op];
    if ((!def && !sem) || insn.op === 'tensor.matmul' || insn.op === 'tensor.transpose') return `${path}.op: \`${insn.op}\` is not an ISA instruction`;
    if ((engine === 'dma') !== (insn.stream >= STREAMS.indexOf('dma0')) || (engine !== 'dma' && STREAMS[insn.stream] !== engine)) return `${path}.stream: \`${insn.op}\` on stream ${STREAMS[insn.stream]}`;
    if (def) {
      // a transpose is a MultiplyMoving of the identity (`identity` attribute) with no moving operand
      const nIns = def.operands.filter((o) => o !== 'out').length - (insn.op === 'tensor.multiply_moving' && insn.attrs['identity'] !== undefined ? 1 : 0);
      if (insn.ins.length !== nIns || !insn.out !== !def.operands.includes('out')) return `${path}: \`${insn.op}\` takes ${def.operands.join(', ') || 'no operands'}`;
    }
    for (const [key, v] of Object.entries(insn.attrs)) {
      const list = key === 'op' ? (insn.op.endsWith('tensor_reduce') ? isa.reduce_ops : isa.alu_ops) : enums[key];
      if (list && (typeof v !== 'string' || !list.includes(v))) return `${path}.attrs.${key}: expected one of ${list.join(', ')}`;
    }
    const aps: Array<[AP, string]> = insn.ins.map((a, j) => [a, `${path}.ins[${j}]`]);
    if (insn.out) aps.push([insn.out, `${path}.out`]);
    for (const [key, v] of Object.entries(insn.attrs)) if (v && typeof v === 'object' && !Array.isArray(v)) aps.push([v, `${path}.attrs.${key}`]);
    for (const [a, where] of aps) {
      const bad = apProblem(a, where);
      if (bad) return bad;
    }
    for (const [s] of [...insn.waits, ...(insn.signal ? [insn.signal] : [])]) if (s >= prog.semaphores.length) return `${path}: semaphore ${s} of ${prog.semaphores.length}`;
  }
  return undefined;
}

/** Why an image's HBM sections and tensors do not fit its `hbm_bytes` (metadata already validated), or undefined. */
export function hbmProblem(image: Container, program: NcProgram, hbmAddr: number[]): string | undefined {
  const hbm = Number(image.metadata['hbm_bytes'] ?? 0);
  for (const s of image.sections) {
    if (s.space !== 'hbm') continue;
    if (s.address + s.size > hbm) return `section \`${s.name}\` (bytes ${s.address}..${s.address + s.size - 1}) lies outside the ${hbm} bytes of HBM in \`hbm_bytes\``;
    if (s.kind !== 'zero' && s.data.length !== s.size) return `section \`${s.name}\` holds ${s.data.length} bytes, not its size ${s.size}`;
  }
  for (const [i, t] of program.tensors.entries())
    if (t.mem === 'hbm' && (hbmAddr[i]! < 0 || hbmAddr[i]! + t.bytes > hbm)) return `tensor \`${t.name}\` (bytes ${hbmAddr[i]}..${hbmAddr[i]! + t.bytes - 1}) lies outside the ${hbm} bytes of HBM in \`hbm_bytes\``;
  return undefined;
}
