/**
 * The VPU Instruction (VI) sequencer's second phase and the VPU it drives (seq §12; chip §6.4): each
 * Generate_VPU_Program record (phase 1, from the sequencer core) names `vpv_pgm_instr_count` VPU instructions at
 * `vpv_pgm_start_addr` in the 1K-word instruction memory; they are fetched and executed one per cycle, an
 * instruction waiting while its InFIFO operand or OutFIFO room is missing. counter_zero_iter_mask forces
 * CNTR_CTRL_SET_TO_0 on the last instruction of the program (seq §12.1).
 */
import { Fifo } from '@pyxis/sim';
import type { SeqState } from '../records.js';
import * as records from '../records.js';
import type { Uie } from '../uie.js';
import type { Compute } from './index.js';
import { seqIdOf } from './seqIds.js';
import { H_PC, HDR_WORDS, opFieldArrays, retireHead, type ComputeUnit } from './unit.js';
import { IMEM_WORDS, VpuWait } from './vpu.js';
import { VPU_SRC } from '../codes.js';

const { CHIP_SPEC_F, SEQ_SPEC } = records;
const SRC_IN = VPU_SRC.in;

export const VpuCodes = { programError: 'SIM0655', imemOverflow: 'SIM0656' } as const;

const W_OP = HDR_WORDS;
const W_START = HDR_WORDS + 1;
const W_COUNT = HDR_WORDS + 2;
const W_ZERO = HDR_WORDS + 3;
const WORDS = HDR_WORDS + 4;

export class ViUnit implements ComputeUnit {
  readonly seqId = seqIdOf('vi');
  readonly dec: Fifo;
  private f: Record<string, Int32Array> = {};
  /** Remaining instructions of the program being executed (0 = none started for the head record). */
  private left = 0;
  private pc = 0;
  private readonly msgIn: string;
  private readonly msgOut: string;

  constructor(
    readonly u: Uie,
    readonly cmp: Compute,
  ) {
    this.dec = new Fifo(`${u.name}.vi.dec`, u.params.uie.vi_dec_fifo_depth, WORDS);
    this.msgIn = `vi: VPU instruction waits for the VPU InFIFO (VB2VPU, seq §14.4)`;
    this.msgOut = `vi: VPU instruction waits for room in the VPU OutFIFO (VPU2VB, seq §14.3)`;
  }

  startTrip(s: SeqState): void {
    this.f = opFieldArrays(s.op, ['opcd', 'vpv_pgm_start_addr', 'vpv_pgm_instr_count', 'counter_zero_iter_mask']) ?? this.f;
    this.cmp.vpu.load(this.u.config);
  }

  decode(s: SeqState, rec: number): void {
    const d = this.dec.data;
    const f = this.f;
    const pc = s.core.execPc;
    d[rec + W_OP] = f.opcd?.[pc] ?? 0;
    d[rec + W_START] = f.vpv_pgm_start_addr?.[pc] ?? 0;
    d[rec + W_COUNT] = f.vpv_pgm_instr_count?.[pc] ?? 1; // the codec applies the N-1 encoding
    const m = f.counter_zero_iter_mask?.[pc] ?? 0;
    d[rec + W_ZERO] = m !== 0 && (s.core.itersEqNloops & m) === m ? 1 : 0;
    if (d[rec + W_OP] === 1 && d[rec + W_START]! + d[rec + W_COUNT]! > IMEM_WORDS)
      this.u.ruleError(VpuCodes.imemOverflow, `VPU program at ${d[rec + W_START]} with ${d[rec + W_COUNT]} instructions runs past the 1K-word instruction memory`, `${SEQ_SPEC} §12, §12.1`, s, pc);
  }

  tick(_now: number): boolean {
    const dec = this.dec;
    this.lastPure = false;
    if (dec.empty) return false;
    const d = dec.data;
    const r = dec.peekSlot();
    if (d[r + W_OP] !== 1) return this.retire(r);
    const st = this.cmp.stats;
    if (this.left === 0) {
      this.left = d[r + W_COUNT]!;
      this.pc = d[r + W_START]!;
      st.vpuPrograms++;
    }
    const vpu = this.cmp.vpu;
    const pc = this.pc % IMEM_WORDS;
    const w = vpu.waitsFor(pc);
    if (w !== VpuWait.None) {
      if (w === VpuWait.InFifo) st.stallVpuIn++;
      else st.stallVpuOut++;
      this.u.blocked ??= w === VpuWait.InFifo ? this.msgIn : this.msgOut;
      return false;
    }
    const lastOfProgram = this.left === 1;
    this.lastPure = !lastOfProgram && this.pure(pc);
    this.exec(pc, lastOfProgram && d[r + W_ZERO] === 1, d[r + H_PC]!);
    this.pc++;
    if (--this.left === 0) return this.retire(r);
    return true;
  }

  /** One instruction executed (its statistics and a program error), by `tick` and `runPure`. */
  private exec(pc: number, zero: boolean, seqPc: number): void {
    const st = this.cmp.stats;
    const vpu = this.cmp.vpu;
    const laneOps = vpu.laneOps;
    const err = vpu.execute(pc, zero);
    st.vpuLaneOps += vpu.laneOps - laneOps;
    st.vpuInstructions++;
    if (err) this.u.ruleError(VpuCodes.programError, err, `${CHIP_SPEC_F} §6.4 (VPU model ISA, grammars/pyxis/vpu_instr.json)`, this.u.seqs[this.seqId], seqPc);
    st.vpuBusy++;
  }

  /**
   * Whether the instruction at `pc` touches nothing outside the VPU's registers: no InFIFO operand or pop, no OutFIFO
   * push (vpuBatch.ts: such an instruction, not the last of its program, changes no state another unit reads).
   */
  private pure(pc: number): boolean {
    const m = this.cmp.vpu.imem;
    return m.in_fifo_pop[pc] !== 1 && m.out_fifo_push[pc] !== 1 && m.src1_sel[pc] !== SRC_IN && m.src2_sel[pc] !== SRC_IN;
  }

  /** Set by `tick`: the instruction it executed was pure (`pure`) and not the last of its program. */
  lastPure = false;

  /** How many of the next instructions (at most `max`) are pure and not the last of the program (0 when none runs). */
  pureAhead(max: number): number {
    if (this.left <= 1 || this.dec.empty) return 0;
    const n = Math.min(max, this.left - 1);
    let k = 0;
    while (k < n && this.pure((this.pc + k) % IMEM_WORDS)) k++;
    return k;
  }

  /** `pureAhead(max)` limited to the instructions that cannot report a program error (Vpu.errorFreeAhead). */
  deferrableAhead(max: number): number {
    const k = this.pureAhead(max);
    return k > 0 ? this.cmp.vpu.errorFreeAhead(this.pc % IMEM_WORDS, k) : 0;
  }

  /** Executes the next pure instruction (`pureAhead` > 0) at cycle `now`, exactly as `tick` would. */
  runPure(now: number): void {
    const d = this.dec.data;
    const r = this.dec.peekSlot();
    this.u.now = now;
    this.exec(this.pc % IMEM_WORDS, false, d[r + H_PC]!);
    this.pc++;
    this.left--;
  }

  private retire(_r: number): boolean {
    this.left = 0;
    return retireHead(this.u, this);
  }

  nextEvent(_now: number): number {
    return Infinity;
  }

  get idle(): boolean {
    return this.dec.empty;
  }
}
