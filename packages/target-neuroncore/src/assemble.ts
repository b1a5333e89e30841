/**
 * Assembler back end of the NeuronCore dialect: evaluates constants and unrolls `loop`s,
 * declares tensors (allocating SBUF/PSUM bytes when no offset is given), binds operands to
 * the instruction set of grammars/neuroncore/instructions.json, resolves access patterns, checks the
 * guide's rules (rules.ts), expands `tensor.matmul`/`tensor.transpose` into LoadStationary +
 * MultiplyMoving and `dma.copy` into transfers over the 16 queues, and inserts semaphores
 * (sync.ts). Output: an NcProgram in a `.pobj` container.
 */
import { CappedDiagnostics, didYouMean, error, type Diagnostic, type SourceMap } from '@pyxis/diagnostics';
import { sortDiagnostics } from '@pyxis/asm';
import { FORMAT_VERSION, type Container } from '@pyxis/container';
import { loadIsa, loadMachine, SPEC } from './isa.js';
import { DMA0, STREAMS, freeSize, type AP, type AttrValue, type Insn, type Mem, type NcProgram, type TensorDecl } from './ir.js';
import { parseNc, type Expr, type Operand, type Slice, type Stmt, type Value } from './parse.js';
import { DTYPES, dtypeBytes, type DType } from './numerics.js';
import { S_PSUM, checkAp, checkDecl, checkInsn, type RuleCtx } from './rules.js';
import { AutoSync } from './sync.js';
import { tensorAliases } from './aliases.js';
import { resolveRawAp } from './source.js';
import { MAX_UNROLLED, loopLowerBound } from './unroll.js';

import { NC_PROGRAM_SECTION, ProgramError, programOf } from './program.js';
export { NC_PROGRAM_SECTION, ProgramError, programOf };
const streamOf: Record<string, number> = { tensor: 0, vector: 1, scalar: 2, gpsimd: 3 };

export interface NcAssembleResult {
  program: NcProgram;
  diagnostics: Diagnostic[];
  object: Container;
}

class Stop extends Error {}
/** The unrolling limit was reached (NC0090): ends the assembly of every file. */
class Overflow extends Error {}

/** `limits.maxUnrolled`: the unrolling limit (default MAX_UNROLLED, unroll.ts; the tests lower it). */
export function assembleNc(inputs: Array<{ file: string; text: string }>, sources?: SourceMap, limits: { maxUnrolled?: number } = {}): NcAssembleResult {
  const maxUnrolled = limits.maxUnrolled ?? MAX_UNROLLED;
  const isa = loadIsa();
  const machine = loadMachine();
  // capped like the shared front end (200 errors, the first saying how many more): garbage input stays cheap
  const diags = new CappedDiagnostics();
  // did-you-mean only for diagnostics that will be kept (it is the costly part of an error on garbage input)
  const hint = (word: string, candidates: readonly string[]): string[] => (diags.full ? [] : didYouMean(word, candidates));
  const tensors: TensorDecl[] = [];
  const tensorByName = new Map<string, number>();
  /** Row-major element strides of each declared tensor's dimensions (computed on first access). */
  const tensorStrides: number[][] = [];
  const semaphores: string[] = [];
  const semByName = new Map<string, number>();
  const env = new Map<string, number>();
  const insns: Insn[] = [];
  let sync = 'auto' as 'auto' | 'explicit';
  const alloc = { sbuf: 0, psum: 0 };
  let hbmBase = 0;
  const hbmBases: number[] = [];
  // Operand columns and caret lengths of the instruction being assembled (cleared per statement).
  const apCols = new Map<AP, number>();
  const colLen = new Map<number, number>();
  // Round-robin cursor of the DMA queues per queue range (`qrange=[first, last]`, default all 16).
  const dmaNext = new Map<number, number>();
  let lastStationary: AP | undefined;
  // PSUM accumulation groups (guide "PSUM"): a bank holds one group at a time; bank -> the region of the group
  // started last in it, and region -> the line that started it (docs/spec-notes.md "one accumulation group per bank").
  const bankGroup = new Map<number, string>();
  const groupLine = new Map<string, number>();
  const trackGroup = (out: AP | undefined, attrs: Record<string, AttrValue>, line: number, ctx: RuleCtx) => {
    if (!out || out.mem !== 'psum') return;
    const bank = Math.floor(out.offset / machine.psumBankBytes);
    const region = String(out.offset); // the group's first byte in the partition (its partitions may grow or shrink)
    const acc = typeof attrs['accumulate'] === 'number' && attrs['accumulate'] !== 0;
    if (!acc) {
      bankGroup.set(bank, region);
      groupLine.set(region, line);
      return;
    }
    const open = bankGroup.get(bank);
    if (open === undefined || open === region) return;
    const own = groupLine.get(region);
    diags.push(
      error(
        'NC0209',
        `PSUM bank ${bank} holds one accumulation group at a time: this matmul accumulates into ${own === undefined ? 'a region where no group was started' : `the group started at line ${own}`}, but line ${groupLine.get(open)} started another group in the same bank (up to eight outstanding groups, one per bank)`,
        { span: ctx.span(ctx.colOf(out)), spec: S_PSUM },
      ),
    );
  };
  const pending: Insn[] = [];
  /** Statements expanded so far (unroll.ts), and the loops whose expansion was estimated before unrolling. */
  let unrolled = 0;
  const unrolledMsg = `more than ${maxUnrolled} statements after unrolling loops (each iteration counts one)`;
  const estimated = new WeakSet<Stmt>();

  for (const { file, text } of inputs) {
    sources?.add(file, text);
    const stmts = parseNc(text, file, diags);
    const span = (line: number, col: number, len = 1) => ({ file, line, column: col, length: len });

    const evalE = (e: Expr, line: number): number => {
      switch (e.k) {
        case 'num':
          return e.v;
        case 'name': {
          const v = env.get(e.name);
          if (v === undefined) {
            diags.push(error('NC0010', `unknown name \`${e.name}\``, { span: span(line, e.col, e.name.length), notes: hint(e.name, [...env.keys()]) }));
            throw new Stop();
          }
          return v;
        }
        case 'neg':
          return -evalE(e.a, line);
        case 'bin': {
          const a = evalE(e.a, line);
          const b = evalE(e.b, line);
          switch (e.op) {
            case '+': return a + b;
            case '-': return a - b;
            case '*': return a * b;
            case '/':
              if (b === 0) {
                diags.push(error('NC0011', 'division by zero', { span: span(line, e.col) }));
                throw new Stop();
              }
              return a / b; // exact division: a non-integer result used as an index is reported (NC0012)
            default:
              if (b === 0) {
                diags.push(error('NC0011', 'division by zero', { span: span(line, e.col) }));
                throw new Stop();
              }
              return a % b;
          }
        }
      }
    };
    const evalInt = (e: Expr, line: number, what: string): number => {
      const v = evalE(e, line);
      if (!Number.isSafeInteger(v)) {
        diags.push(error('NC0012', `${what} must be an integer, got ${v}`, { span: span(line, e.col) }));
        throw new Stop();
      }
      return v;
    };

    const declare = (st: Extract<Stmt, { k: 'tensor' }>): void => {
      if (tensorByName.has(st.name)) {
        diags.push(error('NC0020', `tensor \`${st.name}\` is declared twice`, { span: span(st.line, st.col, st.name.length) }));
        return;
      }
      if (st.mem !== 'hbm' && st.mem !== 'sbuf' && st.mem !== 'psum') {
        diags.push(error('NC0021', `unknown memory \`${st.mem}\` (hbm, sbuf, psum)`, { span: span(st.line, st.memCol, st.mem.length), spec: `${SPEC} §Data Movement` }));
        return;
      }
      if (!(DTYPES as readonly string[]).includes(st.dtype)) {
        diags.push(error('NC0022', `unknown dtype \`${st.dtype}\``, { span: span(st.line, st.dtypeCol, st.dtype.length), notes: [`known: ${DTYPES.join(', ')}`, ...hint(st.dtype, [...DTYPES])] }));
        return;
      }
      const dtype = st.dtype as DType;
      const shape = st.shape.map((e) => evalInt(e, st.line, 'a dimension'));
      if (shape.some((d) => d < 1)) {
        diags.push(error('NC0023', `dimensions must be positive: [${shape.join(', ')}]`, { span: span(st.line, st.col) }));
        return;
      }
      const mem = st.mem as Mem;
      let partition = 0;
      let offset: number | undefined;
      for (const a of st.attrs) {
        const v = a.value.k === 'expr' ? evalInt(a.value.e, st.line, `\`${a.key}\``) : NaN;
        if (a.key === 'partition' && mem !== 'hbm') partition = v;
        else if (a.key === 'offset' && mem !== 'hbm') offset = v;
        else if (a.key === 'bank' && mem === 'psum') offset = v * machine.psumBankBytes;
        else diags.push(error('NC0024', `unknown tensor attribute \`${a.key ?? '?'}\` for ${mem.toUpperCase()} (${mem === 'hbm' ? 'none' : mem === 'psum' ? 'partition, offset, bank' : 'partition, offset'})`, { span: span(st.line, a.col) }));
      }
      const elems = shape.reduce((a, b) => a * b, 1);
      const bytes = mem === 'hbm' ? elems * dtypeBytes(dtype) : (elems / shape[0]!) * dtypeBytes(dtype);
      if (mem !== 'hbm' && offset === undefined) {
        // Bump allocation; PSUM tensors start on a bank so a tile never straddles two banks.
        const align = mem === 'psum' ? machine.psumBankBytes : 64;
        offset = Math.ceil(alloc[mem] / align) * align;
      }
      if (mem !== 'hbm') alloc[mem as 'sbuf' | 'psum'] = Math.max(alloc[mem as 'sbuf' | 'psum'], offset! + bytes);
      const t: TensorDecl = { name: st.name, mem, dtype, shape, partition, offset: offset ?? 0, bytes, line: loc?.line ?? st.line };
      const ctx: RuleCtx = { diags, span: (c) => span(st.line, c), colOf: () => st.col, tensors };
      checkDecl(t, ctx, st.col);
      tensorByName.set(st.name, tensors.length);
      tensors.push(t);
      hbmBases.push(hbmBase);
      if (mem === 'hbm') hbmBase += Math.ceil(bytes / 64) * 64 + 64;
      env.delete(st.name);
    };

    const resolveAp = (name: string, slices: Slice[] | undefined, line: number, col: number, len = name.length): AP => {
      const ti = tensorByName.get(name);
      if (ti === undefined) {
        diags.push(error('NC0030', `unknown tensor \`${name}\``, { span: span(line, col, name.length), notes: hint(name, [...tensorByName.keys()]) }));
        throw new Stop();
      }
      const t = tensors[ti]!;
      const shape = t.shape;
      const sl = slices ?? [];
      if (sl.length > shape.length) {
        diags.push(error('NC0031', `\`${name}\` has ${shape.length} dimensions; ${sl.length} indices given`, { span: span(line, col, name.length) }));
        throw new Stop();
      }
      const strides = (tensorStrides[ti] ??= shape.map((_, i) => shape.slice(i + 1).reduce((a, b) => a * b, 1)));
      const eb = dtypeBytes(t.dtype);
      const dims: Array<[number, number]> = [];
      let offsetEl = 0;
      let np = 1;
      let pstride = 0;
      let p0 = 0;
      for (let i = 0; i < shape.length; i++) {
        const s = sl[i];
        let lo = 0;
        let hi = shape[i]!;
        let step = 1;
        if (s) {
          if (s.lo) lo = evalInt(s.lo, line, 'a slice bound');
          if (s.single) hi = lo + 1;
          else if (s.hi) hi = evalInt(s.hi, line, 'a slice bound');
          if (s.step) step = evalInt(s.step, line, 'a slice step');
          if (step < 1 || lo < 0 || hi > shape[i]! || lo >= hi) {
            diags.push(error('NC0032', `slice ${lo}:${hi}${step !== 1 ? `:${step}` : ''} is outside dimension ${i} of \`${name}\` (size ${shape[i]})${step < 1 ? '; steps are positive' : ''}`, { span: span(line, s.col, s.end - s.col), spec: `${SPEC} §Accessing SBUF/PSUM tensors using compute engines` }));
            throw new Stop();
          }
        }
        const size = Math.ceil((hi - lo) / step);
        if (i === 0 && t.mem !== 'hbm') {
          if (step !== 1) {
            diags.push(error('NC0108', 'partition striding is not allowed: a tensor occupies a continuous range of partitions', { span: span(line, s!.col, s!.end - s!.col), spec: `${SPEC} §Accessing SBUF/PSUM tensors using compute engines` }));
            throw new Stop();
          }
          p0 = lo;
          np = size;
          continue;
        }
        if (i === 0 && shape.length > 1) {
          np = size;
          pstride = strides[0]! * step;
          offsetEl += lo * strides[0]!;
          continue;
        }
        offsetEl += lo * strides[i]!;
        if (size > 1) dims.push([size, strides[i]! * step]);
      }
      if (!dims.length) dims.push([1, 1]);
      const ap: AP = { tensor: ti, mem: t.mem, dtype: t.dtype, start: t.partition + p0, np, pstride, offset: t.mem === 'hbm' ? offsetEl * eb : t.offset + offsetEl * eb, dims };
      apCols.set(ap, col);
      colLen.set(col, len);
      return ap;
    };

    const resolveRaw = (v: Extract<Value, { k: 'raw' }>, line: number): AP => {
      const ti = tensorByName.get(v.name);
      if (ti === undefined) {
        diags.push(error('NC0030', `unknown tensor \`${v.name}\``, { span: span(line, v.col, v.name.length), notes: hint(v.name, [...tensorByName.keys()]) }));
        throw new Stop();
      }
      const fields = v.fields.map((e) => evalInt(e, line, 'an access-pattern field'));
      const ap = resolveRawAp(tensors[ti]!, ti, fields, v.dims.map(([a, b]) => [evalInt(a, line, 'a size'), evalInt(b, line, 'a stride')]));
      if (typeof ap === 'string') {
        diags.push(error('NC0033', `access pattern of \`${v.name}\` is outside the tensor: ${ap}`, { span: span(line, v.col, v.end - v.col), spec: `${SPEC} §Accessing SBUF/PSUM tensors using compute engines` }));
        throw new Stop();
      }
      apCols.set(ap, v.col);
      colLen.set(v.col, v.end - v.col);
      return ap;
    };

    const valueToAttr = (v: Value, line: number): AttrValue => {
      if (v.k === 'ap') return resolveAp(v.name, v.slices, line, v.col, v.end - v.col);
      if (v.k === 'raw') return resolveRaw(v, line);
      if (v.k === 'list') return v.items.flatMap((x) => { const r = valueToAttr(x, line); return Array.isArray(r) ? r : [r as number]; }) as number[];
      if (v.e.k === 'name' && !env.has(v.e.name)) {
        if (tensorByName.has(v.e.name)) return resolveAp(v.e.name, undefined, line, v.col);
        return v.e.name;
      }
      return evalE(v.e, line);
    };

    const emit = (insn: Insn, engine: string, ctx: RuleCtx, col: number): void => {
      checkInsn(insn, engine, ctx, col);
      pending.push(insn);
    };
    /** NC0090 at a statement, and the end of the assembly. */
    const overflow = (line: number, col: number, len: number, what: string): never => {
      diags.push(error('NC0090', what, { span: span(line, col, len), notes: ['every loop is unrolled (the engines have no loop instruction) and nested loops multiply their trip counts; the limit is documented in docs/neuroncore.md'] }));
      throw new Overflow();
    };

    const instruction = (st: Extract<Stmt, { k: 'insn' }>): void => {
      const mn = `${st.engine}.${st.op}`;
      apCols.clear();
      colLen.clear();
      const ctx: RuleCtx = { diags, span: (c, l) => span(st.line, c, l ?? colLen.get(c) ?? 1), colOf: (ap) => apCols.get(ap) ?? st.col, attrCol: (k) => st.operands.find((o) => o.key === k)?.col, tensors };
      const isSem = st.op === 'sem_signal' || st.op === 'sem_wait';
      const def = isSem ? { operands: [], attrs: ['sem', 'value', 'queue'], spec: '' } : isa.instructions[mn];
      if (!def || (!(st.engine in streamOf) && st.engine !== 'dma')) {
        diags.push(error('NC0040', `unknown instruction \`${mn}\``, { span: span(st.line, st.col, st.opEnd - st.col), notes: hint(mn, [...Object.keys(isa.instructions)]) }));
        return;
      }
      // Bind operands: positional in the ISA's operand order, then key=value.
      const bound = new Map<string, Operand>();
      let pos = 0;
      const names = isSem ? ['sem', 'value'] : def.operands;
      for (const o of st.operands) {
        const key = o.key ?? names[pos++];
        if (!key) {
          diags.push(error('NC0041', `\`${mn}\` takes ${names.length} positional operand${names.length === 1 ? '' : 's'} (${names.join(', ') || 'none'})`, { span: span(st.line, o.col) }));
          return;
        }
        if (!names.includes(key) && !def.attrs.includes(key)) {
          diags.push(error('NC0042', `\`${mn}\` has no operand \`${key}\` (operands: ${[...names, ...def.attrs].join(', ')})`, { span: span(st.line, o.col, key.length), notes: hint(key, [...names, ...def.attrs]) }));
          return;
        }
        bound.set(key, o);
      }
      for (const n of names)
        if (!bound.has(n)) {
          diags.push(error('NC0043', `\`${mn}\` needs operand \`${n}\``, { span: span(st.line, st.col, st.opEnd - st.col) }));
          return;
        }
      const attrs: Record<string, AttrValue> = {};
      const aps: Record<string, AP> = {};
      for (const [k, o] of bound) {
        const v = valueToAttr(o.value, st.line);
        if (def.operands.includes(k)) {
          if (typeof v !== 'object' || Array.isArray(v)) {
            diags.push(error('NC0044', `operand \`${k}\` of \`${mn}\` must be a tensor access like \`t[0:128, 0:512]\``, { span: span(st.line, o.col) }));
            return;
          }
          aps[k] = v;
        } else attrs[k] = v;
      }
      const base = { file: loc?.file ?? file, line: loc?.line ?? st.line, col: loc?.col ?? st.col, waits: [] as Array<[number, number]> };
      if (isSem) {
        const sem = attrs['sem'];
        const si = typeof sem === 'string' ? semByName.get(sem) : undefined;
        if (si === undefined) {
          diags.push(error('NC0050', `unknown semaphore \`${String(sem)}\` (declare it with \`.semaphore NAME\`)`, { span: span(st.line, bound.get('sem')!.col), notes: hint(String(sem), [...semByName.keys()]) }));
          return;
        }
        const value = attrs['value'];
        if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
          diags.push(error('NC0051', 'a semaphore value is a non-negative integer', { span: span(st.line, bound.get('value')!.col) }));
          return;
        }
        const q = attrs['queue'];
        const stream = st.engine === 'dma' ? DMA0 + (typeof q === 'number' && q >= 0 && q < 16 ? q : 0) : streamOf[st.engine]!;
        const insn: Insn = { op: mn, stream, ins: [], attrs: {}, ...base };
        if (st.op === 'sem_wait') insn.waits.push([si, value]);
        else insn.signal = [si, value];
        pending.push(insn);
        return;
      }
      const mk = (op: string, stream: number, out: AP | undefined, ins: AP[], a: Record<string, AttrValue>): Insn => ({ op, stream, ...(out ? { out } : {}), ins, attrs: a, ...base, waits: [] });
      switch (mn) {
        case 'tensor.matmul':
        case 'tensor.transpose': {
          const stat = mn === 'tensor.matmul' ? aps['stationary']! : aps['in']!;
          emit(mk('tensor.load_stationary', 0, undefined, [stat], {}), 'tensor', ctx, st.col);
          if (mn === 'tensor.matmul') {
            emit(mk('tensor.multiply_moving', 0, aps['out'], [aps['moving']!], attrs), 'tensor', ctx, st.col);
            checkPair(stat, aps['moving']!, aps['out']!, ctx);
            trackGroup(aps['out'], attrs, st.line, ctx);
          } else {
            // Transpose = matmul(in, identity[P, P]): out[F, P] (Tensor Engine, Alternative Use Case).
            const out = aps['out']!;
            emit(mk('tensor.multiply_moving', 0, out, [], { identity: stat.np }), 'tensor', ctx, st.col);
            if (out.np !== freeSize(stat) || freeSize(out) !== stat.np)
              diags.push(error('NC0208', `transposing [${stat.np}, ${freeSize(stat)}] gives [${freeSize(stat)}, ${stat.np}]; the output is [${out.np}, ${freeSize(out)}]`, { span: ctx.span(ctx.colOf(out)), spec: `${SPEC} §Tensor Engine (Alternative Use Case)` }));
          }
          lastStationary = stat;
          return;
        }
        case 'tensor.load_stationary':
          lastStationary = aps['stationary'];
          emit(mk(mn, 0, undefined, [aps['stationary']!], attrs), 'tensor', ctx, st.col);
          return;
        case 'tensor.multiply_moving':
          if (!lastStationary) {
            diags.push(error('NC0206', 'MultiplyMoving needs a stationary matrix loaded by an earlier `tensor.load_stationary`', { span: span(st.line, st.col, st.opEnd - st.col), spec: `${SPEC} §Tensor Engine` }));
            return;
          }
          emit(mk(mn, 0, aps['out'], [aps['moving']!], attrs), 'tensor', ctx, st.col);
          checkPair(lastStationary, aps['moving']!, aps['out']!, ctx);
          trackGroup(aps['out'], attrs, st.line, ctx);
          return;
        case 'dma.copy': {
          const out = aps['out']!;
          const inp = aps['in']!;
          const q = attrs['queue'];
          const qn = attrs['queues'];
          const qr = attrs['qrange'];
          let qlo = 0;
          let qhi = 15;
          if (qr !== undefined) {
            if (!Array.isArray(qr) || qr.length !== 2 || !(qr[0]! >= 0 && qr[0]! <= qr[1]! && qr[1]! <= 15 && Number.isInteger(qr[0]) && Number.isInteger(qr[1]))) {
              diags.push(error('NC0404', '`qrange` is [first, last] with 0 <= first <= last <= 15', { span: span(st.line, bound.get('qrange')!.col), spec: `${SPEC} §Data movement between HBM and SBUF using DMAs` }));
              return;
            }
            qlo = qr[0]!;
            qhi = qr[1]!;
          }
          const width = qhi - qlo + 1;
          // Default split: one transfer per DMA engine of the range, rows spread evenly (the guide's example: a
          // 128x512 FP32 load is 16 transfers of 8 DMA buffers; docs/spec-notes.md "the default DMA split").
          let nq = typeof q === 'number' ? 1 : typeof qn === 'number' ? qn : width;
          if (typeof q === 'number' && (!Number.isInteger(q) || q < 0 || q > 15)) {
            diags.push(error('NC0404', `DMA queue ${q} does not exist (0..15)`, { span: span(st.line, bound.get('queue')!.col), spec: `${SPEC} §Data movement between HBM and SBUF using DMAs: 16 parallel DMA engines` }));
            return;
          }
          if (!Number.isInteger(nq) || nq < 1 || nq > 16) {
            diags.push(error('NC0404', `queues=${nq}: there are 16 DMA queues`, { span: span(st.line, bound.get('queues')!.col), spec: `${SPEC} §Data movement between HBM and SBUF using DMAs` }));
            return;
          }
          checkInsn(mk(mn, DMA0, out, [inp], {}), 'dma', ctx, st.col);
          if (out.np !== inp.np) return;
          nq = Math.min(nq, out.np);
          // Split the rows (partitions) over the queues, as the compiler spreads a load over the DMA engines.
          for (let k = 0; k < nq; k++) {
            const r0 = Math.floor((k * out.np) / nq);
            const r1 = Math.floor(((k + 1) * out.np) / nq);
            const cur = dmaNext.get(qlo * 16 + qhi) ?? 0;
            const qi = typeof q === 'number' ? q : qlo + ((cur + k) % width);
            pending.push(mk(mn, DMA0 + qi, rows(out, r0, r1), [rows(inp, r0, r1)], {}));
          }
          if (typeof q !== 'number') dmaNext.set(qlo * 16 + qhi, ((dmaNext.get(qlo * 16 + qhi) ?? 0) + nq) % width);
          return;
        }
        default: {
          const engine = st.engine;
          const stream = streamOf[engine]!;
          const ins = def.operands.filter((n) => n !== 'out').map((n) => aps[n]!);
          emit(mk(mn, stream, aps['out'], ins, attrs), engine, ctx, st.col);
          checkAttrs(mn, attrs, st, ctx, bound, span);
        }
      }
    };

    // `.loc` (disassembly): the source position of the next tensor or instruction statement.
    let loc: { file: string; line: number; col: number } | undefined;
    const walk = (list: Stmt[]): void => {
      for (const st of list) {
        if (++unrolled > maxUnrolled) overflow(st.line, st.col, st.k === 'loop' ? 4 : 1, unrolledMsg);
        try {
          switch (st.k) {
            case 'const':
              if (env.has(st.name) || tensorByName.has(st.name)) diags.push(error('NC0013', `\`${st.name}\` is already defined`, { span: span(st.line, st.col, st.name.length) }));
              else env.set(st.name, evalE(st.e, st.line));
              break;
            case 'tensor':
              try {
                declare(st);
              } finally {
                loc = undefined;
              }
              break;
            case 'sem':
              for (const n of st.names) {
                if (semByName.has(n.name)) diags.push(error('NC0052', `semaphore \`${n.name}\` is declared twice`, { span: span(st.line, n.col, n.name.length) }));
                else {
                  semByName.set(n.name, semaphores.length);
                  semaphores.push(n.name);
                }
              }
              break;
            case 'loc':
              loc = st;
              continue;
            case 'sync':
              sync = st.mode as 'auto' | 'explicit';
              break;
            case 'loop': {
              const from = evalInt(st.from, st.line, 'a loop bound');
              const to = evalInt(st.to, st.line, 'a loop bound');
              if (!estimated.has(st)) {
                // before unrolling: a loop bound to exceed the limit is refused at once (nested trip counts multiply)
                estimated.add(st);
                const n = loopLowerBound(st, (name) => env.get(name));
                if (unrolled + n > maxUnrolled) overflow(st.line, st.col, 4, `this loop expands to ${n > 1e15 ? n.toExponential(2) : n} statements or more (each iteration counts one); the limit is ${maxUnrolled}`);
              }
              const had = env.get(st.v);
              for (let i = from; i < to; i++) {
                if (++unrolled > maxUnrolled) overflow(st.line, st.col, 4, unrolledMsg);
                env.set(st.v, i);
                walk(st.body);
                if (diags.length > 50) throw new Stop();
              }
              if (had === undefined) env.delete(st.v);
              else env.set(st.v, had);
              break;
            }
            case 'insn':
              try {
                instruction(st);
              } finally {
                loc = undefined;
              }
              if (pending.length > maxUnrolled) overflow(st.line, st.col, st.opEnd - st.col, `more than ${maxUnrolled} ISA instructions after unrolling loops`);
              break;
          }
        } catch (e) {
          if (!(e instanceof Stop)) throw e;
          if (diags.length > 50) throw e;
        }
      }
    };
    try {
      walk(stmts);
    } catch (e) {
      if (e instanceof Overflow) break;
      if (!(e instanceof Stop)) throw e;
    }
  }

  const autoBase = semaphores.length;
  for (const s of STREAMS) semaphores.push(`auto.${s}`);
  const aliases = tensorAliases(tensors);
  const syncer = new AutoSync(STREAMS.length, autoBase, (t) => hbmBases[t] ?? 0, aliases);
  for (const insn of pending) {
    syncer.add(insn, insns.length, sync === 'explicit');
    insns.push(insn);
  }
  const program: NcProgram = { tensors, semaphores, autoBase, sync, insns };
  const object = programObject(program, inputs.map((i) => i.file));
  return { program, diagnostics: sortDiagnostics(diags.finish()), object };
}

/** Rows r0..r1 of an access pattern (partitions for SBUF, outer rows for HBM). */
function rows(ap: AP, r0: number, r1: number): AP {
  if (ap.mem === 'hbm') return { ...ap, np: r1 - r0, offset: ap.offset + r0 * ap.pstride * dtypeBytes(ap.dtype) };
  return { ...ap, start: ap.start + r0, np: r1 - r0 };
}

function checkPair(stat: AP, mov: AP, out: AP, ctx: RuleCtx): void {
  const S = `${SPEC} §Tensor Engine (Tile Size)`;
  if (stat.np !== mov.np) ctx.diags.push(error('NC0205', `stationary and moving must share the contraction (partition) dimension: ${stat.np} vs ${mov.np}`, { span: ctx.span(ctx.colOf(mov)), spec: S }));
  if (out.np !== freeSize(stat)) ctx.diags.push(error('NC0207', `the output has ${out.np} partitions; the stationary free size (${freeSize(stat)}) becomes the output partition dimension`, { span: ctx.span(ctx.colOf(out)), spec: S }));
}

function checkAttrs(mn: string, attrs: Record<string, AttrValue>, st: Extract<Stmt, { k: 'insn' }>, ctx: RuleCtx, bound: Map<string, Operand>, span: (l: number, c: number, n?: number) => ReturnType<RuleCtx['span']>): void {
  const isa = loadIsa();
  const en = (k: string, list: string[], dflt?: string): void => {
    const v = attrs[k] ?? dflt;
    if (v === undefined) {
      ctx.diags.push(error('NC0045', `\`${mn}\` needs \`${k}=\``, { span: span(st.line, st.col) }));
      return;
    }
    if (typeof v !== 'string' || !list.includes(v))
      ctx.diags.push(error('NC0046', `\`${k}\` must be one of ${list.join(', ')}`, { span: span(st.line, bound.get(k)?.col ?? st.col), notes: typeof v === 'string' ? didYouMean(v, list) : [] }));
  };
  const num = (k: string): void => {
    const v = attrs[k];
    if (v !== undefined && typeof v !== 'number' && !(typeof v === 'object' && !Array.isArray(v)))
      ctx.diags.push(error('NC0047', `\`${k}\` must be a number${mn.endsWith('tensor_scalar') || k === 'scale' ? ' or a per-partition [P, 1] tensor access' : ''}`, { span: span(st.line, bound.get(k)?.col ?? st.col) }));
  };
  if (mn.endsWith('tensor_tensor')) en('op', isa.alu_ops);
  if (mn.endsWith('tensor_scalar')) {
    en('op0', isa.alu_ops);
    num('operand0');
    if (attrs['op1'] !== undefined) en('op1', isa.alu_ops);
    num('operand1');
    if (attrs['operand0'] === undefined) ctx.diags.push(error('NC0045', `\`${mn}\` needs \`operand0=\``, { span: span(st.line, st.col) }));
  }
  if (mn === 'vector.tensor_reduce') en('op', isa.reduce_ops);
  if (mn === 'scalar.activation') {
    en('func', isa.activation_functions);
    num('scale');
    const b = attrs['bias'];
    if (b !== undefined && (typeof b !== 'object' || Array.isArray(b)))
      ctx.diags.push(error('NC0316', 'the activation bias is a per-partition [P, 1] tensor (only the scale may be a constant)', { span: span(st.line, bound.get('bias')!.col), spec: `${SPEC} §Scalar Engine (Pipelined Multiply-Add)` }));
  }
  if (mn === 'gpsimd.affine_select') en('cmp', isa.cmp_ops);
  if (mn.endsWith('memset')) num('value');
  const pat = attrs['pattern'];
  if (pat !== undefined && (!Array.isArray(pat) || pat.length % 2 !== 0 || pat.length > 8))
    ctx.diags.push(error('NC0048', '`pattern` is a list of up to 4 [step, count] pairs', { span: span(st.line, bound.get('pattern')!.col) }));
}

export function programObject(program: NcProgram, files: string[]): Container {
  // JSON has no infinities/NaN (an affine_select fill of -inf): they travel as {"$num": "-Infinity"}.
  // Only attribute values can be non-finite; without any, JSON.stringify runs without a replacer (several times faster).
  const nonFinite = program.insns.some((i) => {
    for (const k in i.attrs) {
      const v = i.attrs[k];
      if ((typeof v === 'number' && !Number.isFinite(v)) || (Array.isArray(v) && v.some((x) => typeof x === 'number' && !Number.isFinite(x)))) return true;
    }
    return false;
  });
  const json = nonFinite ? JSON.stringify(program, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? { $num: String(v) } : v)) : JSON.stringify(program);
  const data = new TextEncoder().encode(json);
  return {
    kind: 'pobj',
    version: FORMAT_VERSION,
    target: 'neuroncore',
    sections: [{ name: NC_PROGRAM_SECTION, kind: 'meta', space: 'none', address: 0, size: data.length, align: 8, flags: 0, data }],
    symbols: program.tensors.map((t) => ({
      name: t.name,
      kind: 'tensor' as const,
      section: -1,
      offset: t.offset,
      size: t.bytes,
      global: true,
      tensor: { shape: t.shape, format: t.dtype, eb: 0 },
    })),
    relocations: [],
    metadata: { producer: 'pyxis-as --target neuroncore', sources: files, instructions: program.insns.length },
  };
}


void checkAp;
