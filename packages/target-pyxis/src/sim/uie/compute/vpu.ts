/**
 * The VPU (chip §6.1.4, §6.4) executing the project's VPU MODEL ISA (grammars/pyxis/vpu_instr.json: the spec defers
 * the VPU ISA to another document, docs/spec-notes.md "VPU: instruction set"). 128 lanes, 16 GPRs and one predicate
 * bit per lane, one counter register, 4 piecewise-linear lookup tables (vpu_lut_entry), an InFIFO fed by VB2VPU and
 * an OutFIFO drained by VPU2VB. One instruction per cycle (chip §6.4 "at one cycle per instruction").
 * The lane arithmetic (its one definition) is in vpuLanes.ts; fused chains of unary instructions in vpuChain.ts.
 */
import { readField } from '@pyxis/codec';
import { loadMemoryMap } from '../../../common/memoryMap.js';
import type { UieConfig } from '../config.js';
import { VPU_CNTR_DECR, VPU_CNTR_INCR, VPU_CNTR_ZERO, VPU_SRC } from '../codes.js';
import { CHAIN_MAX, chainDiag, chainRoot, chainStep, composeChain, type ChainNode } from './vpuChain.js';
import * as lanes from './vpuLanes.js';

// the hot loops read module-local constants: an imported binding is a module cell that V8 checks for TDZ on every
// read (destructured once at load, they cost nothing)
const { LANE_COUNT: LN, LANE_EB: EB, META, VpuOp, encFp16: enc, fpOp, fpRow, intOp, reduceMax, reduceSum, signed16: s16 } = lanes;
export { VpuOp };

export const LANES = LN;
export const GPRS = META.gprs;
/** Words of the VPU instruction memory (memory_map.json region `vpu.imem`, seq §12: 1K instructions). */
export const IMEM_WORDS = loadMemoryMap().regions.get('vpu.imem')?.words ?? 1024;
/** Exponent bias of the VPU's FP16 lanes (project model, docs/spec-notes.md "vpu: arithmetic"). */
export const EB_VPU = EB;

const SRC_GPR = VPU_SRC.gpr;
const SRC_IMM = VPU_SRC.imm;
const SRC_IN = VPU_SRC.in;
const SRC_CNTR = VPU_SRC.cntr;
const CNTR_INCR = VPU_CNTR_INCR;
const CNTR_DECR = VPU_CNTR_DECR;
const CNTR_ZERO = VPU_CNTR_ZERO;

const FIELDS = ['opcode', 'dtype', 'rd', 'rs1', 'rs2', 'src1_sel', 'src2_sel', 'wr_gpr_en', 'out_fifo_push', 'in_fifo_pop', 'pred_en', 'cmp_cond', 'lut_idx', 'eb_adj', 'cntr_ctrl', 'imm'] as const;
type Field = (typeof FIELDS)[number];

/** Opcodes reading operand b (src2_sel). */
const NEEDS_B = new Uint8Array(32);
for (const o of [VpuOp.ADD, VpuOp.SUB, VpuOp.MUL, VpuOp.MAC, VpuOp.MIN, VpuOp.MAX, VpuOp.CMP, VpuOp.SEL, VpuOp.AND, VpuOp.OR, VpuOp.XOR, VpuOp.SHL, VpuOp.SHR]) NEEDS_B[o] = 1;

/**
 * Result tables of instructions whose lane result depends on the lane's operand alone (Vpu.table), shared by every
 * VPU of the process (they depend on the opcode, data type, immediate and eb_adj only); at most
 * SHARED_TABLES_MAX x 128 KiB.
 */
const SHARED_TABLES = new Map<number, Uint16Array>();
const SHARED_TABLES_MAX = 64;
/**
 * Result tables of FP16 LUT instructions, shared by every VPU of the process whose LUT holds the same 256 entries
 * (keyed by their 512 base / slope codes: the 48 UIEs of a chip loaded with one LUT share one table instead of
 * 128 KiB each); at most SHARED_TABLES_MAX x 128 KiB.
 */
const LUT_TABLES = new Map<string, Uint16Array>();

/** Per word of `n` words of `stride` bytes: 1 when any of its bytes is non-zero. */
function nonZeroWords(bytes: Uint8Array, stride: number, n: number): Uint8Array {
  const nz = new Uint8Array(n);
  for (let w = 0; w < n; w++) {
    const o = w * stride;
    for (let i = 0; i < stride; i++)
      if (bytes[o + i] !== 0) {
        nz[w] = 1;
        break;
      }
  }
  return nz;
}

/** Why the VPU could not execute its next instruction this cycle. */
export const enum VpuWait {
  None = 0,
  InFifo = 1,
  OutFifo = 2,
}

export class Vpu {
  /** The GPR file, lanes of GPR r at [r * 128 ..]; read through `gpr` from outside (it applies a pending chain first). */
  private readonly regs = new Uint16Array(GPRS * LN);
  /** The GPR file with every executed instruction's result in it (vpuChain.ts: a pending chain applied first). */
  get gpr(): Uint16Array {
    if (this.chainN > 0) this.flushChain();
    return this.regs;
  }
  /** Bit r set once GPR r was written (a read of an unwritten GPR is a program error). */
  written = 0;
  readonly pred = new Uint8Array(LN);
  cntr = 0;
  /** Instruction memory decoded per field (vpu.imem, 1K words). */
  readonly imem: Record<Field, Int32Array>;
  /** LUT t entry e: base/slope RFP16 codes at lut[(t * 256 + e) * 2 + 0/1]. */
  readonly lut = new Uint16Array(4 * 256 * 2);
  // FIFOs of rows (InFIFO from VB2VPU, OutFIFO to VPU2VB)
  readonly inRows: Uint16Array;
  readonly outRows: Uint16Array;
  inHead = 0;
  inCount = 0;
  outHead = 0;
  outCount = 0;
  private readonly a = new Uint16Array(LN);
  private readonly b = new Uint16Array(LN);
  private readonly d = new Uint16Array(LN);
  /** Lane-operations executed (instructions x 128), for stats. */
  laneOps = 0;
  instructions = 0;

  /**
   * `fuse`: chains of unary instructions on one register are applied when read (vpuChain.ts; UieOptions.fastPaths,
   * and `Vpu.fuseEnabled` for benchmarks).
   */
  constructor(
    readonly fifoDepth: number,
    fuse = true,
  ) {
    this.fuse = fuse && Vpu.fuseEnabled;
    const m = {} as Record<Field, Int32Array>;
    for (const f of FIELDS) m[f] = new Int32Array(IMEM_WORDS);
    this.imem = m;
    this.inRows = new Uint16Array(fifoDepth * LN);
    this.outRows = new Uint16Array(fifoDepth * LN);
  }

  /**
   * Re-decodes the instruction memory and LUTs from the UIE config space when they changed (inside the run: at the
   * first VI trip). An all-zero word decodes to the zero word's field values, decoded once (programs fill a few of
   * the 1K words: 16 fields x 1K generic `readField` calls were ~2% of a VPU-bound run, x48 UIEs on a chip).
   */
  load(cfg: UieConfig): void {
    const im = cfg.regionBytes('vpu.imem');
    if (im && im.changed) {
      const n = Math.min(IMEM_WORDS, im.words);
      const nz = nonZeroWords(im.bytes, im.stride, n);
      const zero = new Uint8Array(im.stride);
      for (const f of FIELDS) {
        const arr = this.imem[f];
        if (!im.table.byName.has(f)) continue;
        const z = Number(readField(im.table, zero, f, 0, 0));
        for (let w = 0; w < n; w++) arr[w] = nz[w] ? Number(readField(im.table, im.bytes, f, 0, w * im.stride)) : z;
      }
    }
    const lt = cfg.regionBytes('vpu.lut');
    if (lt && lt.changed) {
      this.lutChanged();
      const n = Math.min(1024, lt.words);
      const nz = nonZeroWords(lt.bytes, lt.stride, n);
      const zero = new Uint8Array(lt.stride);
      const zb = Number(readField(lt.table, zero, 'base', 0, 0));
      const zs = Number(readField(lt.table, zero, 'slope', 0, 0));
      for (let e = 0; e < n; e++) {
        this.lut[e * 2] = nz[e] ? Number(readField(lt.table, lt.bytes, 'base', 0, e * lt.stride)) : zb;
        this.lut[e * 2 + 1] = nz[e] ? Number(readField(lt.table, lt.bytes, 'slope', 0, e * lt.stride)) : zs;
      }
    }
  }

  /** The LUT contents changed (`load`, or a test writing `lut`): tables of LUT instructions are rebuilt. */
  lutChanged(): void {
    this.lutGen++;
    this.lutTabs.clear();
  }

  /** Pushes a row into the InFIFO; false when full. */
  pushIn(src: Uint16Array, base = 0): boolean {
    if (this.inCount === this.fifoDepth) return false;
    const slot = (this.inHead + this.inCount) % this.fifoDepth;
    const rows = this.inRows;
    const o = slot * LN;
    for (let l = 0; l < LN; l++) rows[o + l] = src[base + l]!;
    this.inCount++;
    return true;
  }
  get inFull(): boolean {
    return this.inCount === this.fifoDepth;
  }
  /** Pops the OutFIFO head into dst; false when empty. */
  popOut(dst: Uint16Array, base = 0): boolean {
    if (this.outCount === 0) return false;
    const rows = this.outRows;
    const o = this.outHead * LN;
    for (let l = 0; l < LN; l++) dst[base + l] = rows[o + l]!;
    this.outHead = (this.outHead + 1) % this.fifoDepth;
    this.outCount--;
    return true;
  }

  /** What instruction `pc` waits for (InFIFO data, OutFIFO room), or None when it can execute now. */
  waitsFor(pc: number): VpuWait {
    const m = this.imem;
    const usesIn = m.src1_sel[pc] === SRC_IN || m.src2_sel[pc] === SRC_IN || m.in_fifo_pop[pc] === 1;
    if (m.opcode[pc] !== VpuOp.NOP && usesIn && this.inCount === 0) return VpuWait.InFifo;
    if (m.in_fifo_pop[pc] === 1 && this.inCount === 0) return VpuWait.InFifo;
    if (m.out_fifo_push[pc] === 1 && this.outCount === this.fifoDepth) return VpuWait.OutFifo;
    return VpuWait.None;
  }

  /**
   * Executes instruction `pc` on all lanes (call only when `waitsFor(pc)` is None). `forceCntrZero`: the VI
   * sequencer's counter_zero_iter_mask override (seq §12.1). Returns an error message for a program error (read of
   * an unwritten GPR, bit operation on FP16), else undefined.
   */
  execute(pc: number, forceCntrZero: boolean): string | undefined {
    const m = this.imem;
    const op = m.opcode[pc]!;
    const fp = m.dtype[pc] === 0;
    const rd = m.rd[pc]!;
    if (this.fuse) {
      // a link of the register's pending chain (vpuChain.ts): the lanes are left for the chain's flush
      if (this.link(pc, op, fp, rd)) return this.finish(pc, forceCntrZero);
      if (this.chainN > 0) this.flushChain();
    }
    if (op !== VpuOp.NOP) {
      const e1 = this.operand(m.src1_sel[pc]!, m.rs1[pc]!, m.imm[pc]!, fp, this.a);
      const ab = this.srcBase;
      const A = this.src;
      const readsRd = op === VpuOp.MAC || m.pred_en[pc] === 1;
      const e3 = readsRd && !((this.written >> rd) & 1) ? `r${rd}` : undefined;
      const g = rd * LN;
      const gpr = this.regs;
      const wr = m.wr_gpr_en[pc] === 1 && op !== VpuOp.CMP;
      // without pred_en a written result goes straight into rd (lane l is read before it is written, so rd may be a
      // source); else into `d`, merged and copied after
      const d = this.d;
      let D = wr && m.pred_en[pc] !== 1 ? gpr : d;
      let db = D === gpr ? g : 0;
      const T = e1 === undefined && e3 === undefined ? this.table(pc, op, fp) : undefined;
      if (T !== undefined) {
        // the lane function of this instruction as a 64K-entry table (its other operand is the immediate)
        for (let l = 0; l < LN; l++) D[db + l] = T[A[ab + l]!]!;
      } else {
        const needsB = NEEDS_B[op] === 1;
        const e2 = needsB ? this.operand(m.src2_sel[pc]!, m.rs2[pc]!, m.imm[pc]!, fp, this.b) : undefined;
        const bb = needsB ? this.srcBase : 0;
        const B = needsB ? this.src : this.b;
        const err = e1 ?? e2 ?? e3;
        if (err) return `VPU instruction ${pc} reads GPR ${err} before any instruction wrote it`;
        if (fp && op >= VpuOp.AND && op <= VpuOp.SHR) return `VPU instruction ${pc}: ${Object.keys(VpuOp)[op]} is an Int16-only operation (dtype must be INT16)`;
        if (!fp || !fpRow(op, A, ab, B, bb, gpr, g, D, db)) {
          this.compute(op, fp, rd, m.cmp_cond[pc]!, m.lut_idx[pc]!, m.eb_adj[pc]!, A, ab, B, bb); // into d
          D = d;
          db = 0;
        }
      }
      if (D === d) {
        if (m.pred_en[pc] === 1) for (let l = 0; l < LN; l++) if (!this.pred[l]) d[l] = gpr[g + l]!;
        if (wr) gpr.set(d, g);
      }
      if (wr) this.written |= 1 << rd;
      if (m.out_fifo_push[pc] === 1) {
        const o = ((this.outHead + this.outCount) % this.fifoDepth) * LN;
        const out = this.outRows;
        for (let l = 0; l < LN; l++) out[o + l] = D[db + l]!;
        this.outCount++;
      }
      this.laneOps += LN;
    }
    return this.finish(pc, forceCntrZero);
  }

  /** The end of every instruction: InFIFO pop, counter register, instruction count. */
  private finish(pc: number, forceCntrZero: boolean): undefined {
    const m = this.imem;
    if (m.in_fifo_pop[pc] === 1 && this.inCount > 0) {
      this.inHead = (this.inHead + 1) % this.fifoDepth;
      this.inCount--;
    }
    const cc = forceCntrZero ? CNTR_ZERO : m.cntr_ctrl[pc]!;
    if (cc === CNTR_INCR) this.cntr = (this.cntr + 1) & 0xffff;
    else if (cc === CNTR_DECR) this.cntr = (this.cntr - 1) & 0xffff;
    else if (cc === CNTR_ZERO) this.cntr = 0;
    this.instructions++;
    return undefined;
  }

  /** Whether chains are fused (constructor). Process-wide switch for benchmarks: */
  private readonly fuse: boolean;
  static fuseEnabled = true;
  /**
   * Flushes of a chain before it is applied as one composed table (vpuChain.ts composeChain: 65,536 x links table
   * look-ups to build, shared by the process; tests set 0).
   */
  static chainAfter = 256;
  /** The pending chain: `chainN` tables for GPR `chainReg`, and its trie node. */
  private readonly chain: Uint16Array[] = [];
  private chainN = 0;
  private chainReg = 0;
  private chainNode: ChainNode = chainRoot();

  /**
   * Instruction `pc` as a link of the pending chain (vpuChain.ts) when its lane result is the table of rd's own lane
   * (rd = rs1 a written GPR, no predicate, no InFIFO pop, not CMP) and the chain is rd's or empty; its OutFIFO push,
   * if any, flushes the chain and pushes rd. Returns false (nothing done) for any other instruction.
   */
  private link(pc: number, op: number, fp: boolean, rd: number): boolean {
    const m = this.imem;
    if (op === VpuOp.NOP || op === VpuOp.CMP || m.src1_sel[pc] !== SRC_GPR || m.rs1[pc] !== rd || m.wr_gpr_en[pc] !== 1) return false;
    if (m.pred_en[pc] === 1 || m.in_fifo_pop[pc] === 1 || ((this.written >> rd) & 1) === 0) return false;
    if (this.chainN > 0 && (this.chainReg !== rd || this.chainN >= CHAIN_MAX)) return false;
    const T = this.table(pc, op, fp, true);
    if (T === undefined) return false;
    this.chainReg = rd;
    this.chain[this.chainN++] = T;
    this.chainNode = chainStep(this.chainNode, T);
    if (m.out_fifo_push[pc] === 1) {
      this.flushChain();
      const o = ((this.outHead + this.outCount) % this.fifoDepth) * LN;
      const out = this.outRows;
      const R = this.regs;
      const g = rd * LN;
      for (let l = 0; l < LN; l++) out[o + l] = R[g + l]!;
      this.outCount++;
    }
    this.laneOps += LN;
    return true;
  }

  /** Applies the pending chain to its register: one composed table once the chain is known, else its tables in turn. */
  private flushChain(): void {
    const n = this.chainN;
    const node = this.chainNode;
    this.chainN = 0;
    this.chainNode = chainRoot();
    let T = node.composite;
    if (T === undefined && ++node.uses > Vpu.chainAfter) T = node.composite = composeChain(this.chain, n);
    const R = this.regs;
    const g = this.chainReg * LN;
    if (T !== undefined) for (let l = 0; l < LN; l++) R[g + l] = T[R[g + l]!]!;
    else
      for (let s = 0; s < n; s++) {
        const t = this.chain[s]!;
        for (let l = 0; l < LN; l++) R[g + l] = t[R[g + l]!]!;
      }
    if (n > 1) chainDiag.flushes++;
  }

  /**
   * How many of the `n` instructions from `pc` (in order, wrapping in the instruction memory) execute without a
   * program error (`execute`'s checks: no read of an unwritten GPR, no bit operation on FP16), given the GPRs they
   * write: Uie.vpuSkipUntil defers only instructions that cannot report an error at a later cycle.
   */
  errorFreeAhead(pc: number, n: number): number {
    const m = this.imem;
    let w = this.written;
    for (let k = 0; k < n; k++) {
      const p = (pc + k) % IMEM_WORDS;
      const op = m.opcode[p]!;
      if (op !== VpuOp.NOP) {
        const fp = m.dtype[p] === 0;
        if (m.src1_sel[p] === SRC_GPR && !((w >> m.rs1[p]!) & 1)) return k;
        if (NEEDS_B[op] === 1 && m.src2_sel[p] === SRC_GPR && !((w >> m.rs2[p]!) & 1)) return k;
        if ((op === VpuOp.MAC || m.pred_en[p] === 1) && !((w >> m.rd[p]!) & 1)) return k;
        if (fp && op >= VpuOp.AND && op <= VpuOp.SHR) return k;
        if (m.wr_gpr_en[p] === 1 && op !== VpuOp.CMP) w |= 1 << m.rd[p]!;
      }
    }
    return n;
  }

  /**
   * Executions of an instruction before its lane function becomes a table (issue 23: a table costs 65,536 lane
   * operations to build, about 512 rows' worth; tests set 0 to put every eligible instruction on the table path).
   */
  static tableAfter = 256;
  /** Per pc: the table key of the instruction last executed there (-1 none), its executions, its table once built. */
  private readonly tabKey = new Float64Array(IMEM_WORDS).fill(-1);
  private readonly tabUses = new Int32Array(IMEM_WORDS);
  private readonly tabs: Array<Uint16Array | undefined> = new Array<Uint16Array | undefined>(IMEM_WORDS).fill(undefined);
  /** LUT-instruction tables of this VPU by key (they depend on its LUT contents: LUT_TABLES), dropped when `load` changes the LUTs. */
  private readonly lutTabs = new Map<number, Uint16Array>();
  private lutGen = 0;

  /** The content key of LUT `li` (its 256 entries' base / slope codes as a string; LUT_TABLES). */
  private lutContent(li: number): string {
    const e = this.lut.subarray(li * 512, li * 512 + 512);
    let s = '';
    for (let i = 0; i < e.length; i += 64) s += String.fromCharCode.apply(null, e.subarray(i, i + 64) as unknown as number[]);
    return s;
  }

  /** The table of LUT key `k` (lut_idx `li`, this VPU's lutGen): this VPU's, else one any VPU built from the same LUT contents. */
  private lutTable(k: number, li: number): Uint16Array | undefined {
    let t = this.lutTabs.get(k);
    if (t === undefined) {
      t = LUT_TABLES.get(this.lutContent(li));
      if (t !== undefined) this.lutTabs.set(k, t);
    }
    return t;
  }

  /**
   * The result table of instruction `pc` when its result in a lane is a function of the lane's operand a alone (a
   * from a GPR or the InFIFO): ADD / SUB / MUL / MIN / MAX with b the immediate, CVT_F2I / CVT_I2F / SCALE (eb_adj),
   * FP16 LUT; built from the lane functions fpOp / intOp themselves, so the results are the same bits. Undefined
   * for any other instruction or before `tableAfter` executions.
   */
  private table(pc: number, op: number, fp: boolean, unary = false): Uint16Array | undefined {
    const m = this.imem;
    const s1 = m.src1_sel[pc]!;
    if (s1 !== SRC_GPR && s1 !== SRC_IN) return undefined;
    let k: number;
    if (op <= VpuOp.MAX && op >= VpuOp.ADD && op !== VpuOp.MAC) {
      if (m.src2_sel[pc] !== SRC_IMM) return undefined;
      k = op + (fp ? 0 : 32) + (m.imm[pc]! & 0xffff) * 64;
    } else if (op === VpuOp.CVT_F2I || op === VpuOp.CVT_I2F || op === VpuOp.SCALE) k = op + (fp ? 0 : 32) + (m.eb_adj[pc]! + 1024) * 64 * 65536; // any eb_adj a test may write
    else if (op === VpuOp.LUT && fp) k = op + m.lut_idx[pc]! * 64 + this.lutGen * 256;
    // (RELU / ABS / NEG only as chain links: alone their lane rows, fpRow, are cheaper than a look-up)
    else if (unary && (op === VpuOp.RELU || op === VpuOp.ABS || op === VpuOp.NEG)) k = op + (fp ? 0 : 32);
    else return undefined;
    const lut = op === VpuOp.LUT;
    if (this.tabKey[pc] === k) {
      const t = this.tabs[pc];
      if (t !== undefined || ++this.tabUses[pc] <= Vpu.tableAfter) return t;
    } else {
      this.tabKey[pc] = k;
      this.tabUses[pc] = 1;
      // a table already built (by another VPU, an earlier run or another pc) costs nothing: used at once
      const built = lut ? this.lutTable(k, m.lut_idx[pc]!) : SHARED_TABLES.get(k);
      this.tabs[pc] = built;
      if (built !== undefined || Vpu.tableAfter > 0) return built;
    }
    const li = m.lut_idx[pc]!;
    let t = lut ? this.lutTable(k, li) : SHARED_TABLES.get(k);
    if (t === undefined) {
      t = new Uint16Array(1 << 16);
      const y = m.imm[pc]! & 0xffff;
      const eb = m.eb_adj[pc]!;
      for (let x = 0; x < 1 << 16; x++) t[x] = fp ? fpOp(op, x, y, 0, 0, this, 0, li, eb) : intOp(op, x, y, 0, 0, this, 0, eb);
      const shared = lut ? LUT_TABLES : SHARED_TABLES;
      if (shared.size >= SHARED_TABLES_MAX) shared.clear();
      if (lut) {
        LUT_TABLES.set(this.lutContent(li), t);
        this.lutTabs.set(k, t);
      } else SHARED_TABLES.set(k, t);
    }
    this.tabs[pc] = t;
    return t;
  }

  /** Operand source of the last `operand` call: lanes at src[srcBase ..] (a GPR, the InFIFO head, or `tmp` filled). */
  private src: Uint16Array = this.a;
  private srcBase = 0;

  /** Points `src`/`srcBase` at the operand's lanes (codes), filling `tmp` for an immediate or the counter; returns the GPR name when it reads an unwritten GPR. */
  private operand(sel: number, r: number, imm: number, fp: boolean, tmp: Uint16Array): string | undefined {
    this.src = tmp;
    this.srcBase = 0;
    if (sel === SRC_GPR) {
      if (!((this.written >> r) & 1)) return `r${r}`;
      this.src = this.regs;
      this.srcBase = r * LN;
    } else if (sel === SRC_IMM) tmp.fill(imm & 0xffff);
    else if (sel === SRC_IN) {
      this.src = this.inRows;
      this.srcBase = this.inHead * LN;
    } else if (sel === SRC_CNTR) tmp.fill(fp ? enc(s16(this.cntr)) : this.cntr & 0xffff);
    return undefined;
  }

  /** The lane loop of the operations without a specialised FP16 row (fpRow), one lane operation per call. */
  private compute(op: number, fp: boolean, rd: number, cond: number, lutIdx: number, eb: number, A: Uint16Array, ab: number, B: Uint16Array, bb: number): void {
    const d = this.d;
    if (op === VpuOp.RMAX || op === VpuOp.RSUM) {
      d.fill(op === VpuOp.RMAX ? reduceMax(A, ab, fp) : reduceSum(A, ab, fp));
      return;
    }
    const g = rd * LN;
    for (let l = 0; l < LN; l++) {
      const x = A[ab + l]!;
      const y = B[bb + l]!;
      d[l] = fp ? fpOp(op, x, y, this.regs[g + l]!, cond, this, l, lutIdx, eb) : intOp(op, x, y, this.regs[g + l]!, cond, this, l, eb);
    }
  }
}
