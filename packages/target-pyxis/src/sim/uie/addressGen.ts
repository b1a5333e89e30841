/**
 * Address generation of the AMEM Read and AMEM Write sequencers: each issued microinstruction becomes one
 * decoder-metadata record (seq §3) holding the strided direct address (base + amem_addr_offset + sum of count *
 * iter_stride, seq §5.2.1, §6.1), the padding / post-final substitutions (seq §5.1, §5.3, §6.3) and the switch-table
 * indexes (seq §5.4, §5.5, §6.6, §6.7); the indirect part (x/y index times the reassigned strides, seq §5.2.2) is added
 * when the record reaches the datapath (`indirectAddr`). Two decoders build identical records: field by field
 * (`decodeRead` / `decodeWrite`, the general path) and from per-pc templates (`decodeFast`).
 */
import type { Fifo } from '@pyxis/sim';
import * as codes from './codes.js';
import type { Itfe } from './itfe.js';
import type { ReadFieldArrays, WriteFieldArrays } from './opFields.js';
import * as opFields from './opFields.js';
import type { SeqState } from './records.js';
import * as records from './records.js';
import { NUM_ITERS } from './sequencerCore.js';
import type { Uie } from './uie.js';

// Hot-path bindings as module-local constants: V8 checks every read of an imported binding for TDZ (a measured
// +13% instructions per flit); destructured once at load, they cost nothing. Cycle-free: no import below imports this file.
const { INDIR_BASE_ITERS, INDIR_MODE_MASK, INDIR_X32, INDIR_X_STRIDE_ITER, INDIR_Y, INDIR_Y_2D, INDIR_Y_MSBS, INDIR_Y_NONE, INDIR_Y_STRIDE_ITER, RD_CONST, RD_NOP, readsSram, WR_DISCARD, writesSram } = codes;
const { iterVal } = opFields;
const { A_CONST, A_CSW_BASE, A_CSW_ITER_ID, A_CSW_ITER_STRIDE, A_CSW_VLD, A_ENDPAD, A_FLAGS, A_INDIR, A_NZ, A_NZ_INDIR, A_OFFSET, A_OPCD, A_PADMASK, A_PSW_ITER_ID, A_PSW_ITER_STRIDE, A_STARTPAD, A_STRIDE, AUX_WORDS, F_EOP, F_INDIR, F_PAD, F_PF, F_POP, F_ROT, MODE_SHIFT, PTN_MASK, R_ADDR, R_COLOFF, R_CONST, R_CSW, R_DT, R_EB, R_FIFO, R_FLAGS, R_MASK, R_N, R_OP, R_PC, R_PSWBASE, R_PSWITER, R_RMW, R_SLOT, R_SX, R_SY, R_VIEW, R_ZSW, REC_WORDS, SEQ_AMEM_READ, SEQ_SPEC, UieCodes } = records;

export function decodeRead(u: Uie, s: SeqState, dec: Fifo): void {
  const core = s.core;
  const f = s.rf!;
  const pc = core.execPc;
  const at = dec.pushSlot();
  const d = dec.data;
  let opcd = f.opcd[pc]!;
  let constV = f.rd_const_value[pc]!;
  let flags = 0;
  // start/end row pad (seq §5.1) and post-final padding (seq §5.3)
  const padMask = f.pad_row_iter_mask[pc]!;
  let pad = false;
  if (padMask !== 0 && opcd !== RD_NOP) {
    if (f.start_row_pad[pc]! && (core.itersEqZero & padMask) === padMask) pad = true;
    if (f.end_row_pad[pc]! && (core.itersEqNloops & padMask) === padMask) pad = true;
  }
  if (core.postFinal && opcd !== RD_NOP) {
    pad = true;
    flags |= F_PF;
  }
  if (pad) {
    opcd = RD_CONST;
    constV = 0;
    flags |= F_PAD;
  }
  flags |= decodeCommon(u, s, f, d, at, pc, opcd, readsSram(opcd));
  d[at + R_FIFO] = f.tgt_fifo[pc]!;
  d[at + R_CONST] = constV;
  d[at + R_N] = f.num_logical_ptns[pc]!;
  if (f.rpsw_rot_enbl[pc]!) flags |= F_ROT;
  d[at + R_FLAGS] = flags;
  // RPSW index (seq §5.4): base + ((rot ? ptn : 0) + (iter & 7) * stride) % 8 — rot part added at issue
  d[at + R_PSWBASE] = f.rpsw_config_vld[pc]! ? f.rpsw_config_idx_base[pc]! : -1;
  d[at + R_PSWITER] = (iterVal(core.execCount, f.rpsw_config_iter_id[pc]!) & 7) * f.rpsw_config_iter_stride[pc]!;
  // RCSW index (seq §5.5): base + ((iter & 0xF) * stride) % 16
  d[at + R_CSW] = f.rcsw_switch_config_vld[pc]!
    ? (f.rcsw_switch_config_idx_base[pc]! + (((iterVal(core.execCount, f.rcsw_switch_config_iter_id[pc]!) & 15) * f.rcsw_switch_config_iter_stride[pc]!) % 16)) & 63
    : -1;
  d[at + R_MASK] = f.rcsw_col_mask_config_idx[pc]!;
  d[at + R_ZSW] = f.rzsw_config[pc]!;
}

export function decodeWrite(u: Uie, s: SeqState, dec: Fifo): void {
  const core = s.core;
  const f = s.wf!;
  const pc = core.execPc;
  const at = dec.pushSlot();
  const d = dec.data;
  let opcd = f.opcd[pc]!;
  let flags = 0;
  // post-final Write / RMW_Add -> Discard (seq §6.3)
  if (core.postFinal && writesSram(opcd)) {
    opcd = WR_DISCARD;
    flags |= F_PF | F_PAD;
  }
  flags |= decodeCommon(u, s, f, d, at, pc, opcd, writesSram(opcd));
  d[at + R_FIFO] = f.src_fifo[pc]!;
  d[at + R_N] = f.num_logical_cols[pc]!;
  d[at + R_COLOFF] = f.logical_col_offset[pc]!;
  if (f.wpsw_rot_enbl[pc]!) flags |= F_ROT;
  d[at + R_FLAGS] = flags;
  d[at + R_PSWBASE] = f.wpsw_config_vld[pc]! ? f.wpsw_config_idx_base[pc]! : -1;
  d[at + R_PSWITER] = (iterVal(core.execCount, f.wpsw_config_iter_id[pc]!) & 7) * f.wpsw_config_iter_stride[pc]!;
  d[at + R_CSW] = f.wcsw_switch_config_vld[pc]!
    ? (f.wcsw_switch_config_idx_base[pc]! + (((iterVal(core.execCount, f.wcsw_switch_config_iter_id[pc]!) & 15) * f.wcsw_switch_config_iter_stride[pc]!) % 16)) & 63
    : -1;
  d[at + R_MASK] = f.wcsw_col_mask_config_idx[pc]!;
  d[at + R_ZSW] = f.wzsw_config[pc]!;
  d[at + R_RMW] = f.rmw_rd_addr_offset[pc]!;
}

/**
 * The record words `decodeRead` and `decodeWrite` share (`sram`: the op accesses AMEM, so indirection applies): the strided address (base + amem_addr_offset +
 * sum of count * iter_stride over the iterators not used for the indirect part, seq §5.2), opcode, view,
 * data type, EB adjust, slot, pc and the indirect strides; returns the flags this adds (indirect mode / pop, EOP).
 */
export function decodeCommon(u: Uie, s: SeqState, f: ReadFieldArrays | WriteFieldArrays, d: Int32Array, at: number, pc: number, opcd: number, sram: boolean): number {
  const core = s.core;
  const indir = f.indir_vld[pc]! !== 0 && sram;
  const mode = f.indir_mode[pc]!;
  const strides = f.iter_stride;
  const nBase = indir ? INDIR_BASE_ITERS[mode]! : NUM_ITERS;
  let a = s.base + f.amem_addr_offset[pc]!;
  for (let i = 0; i < nBase; i++) a += (core.execCount[i]! & 0xfff) * (strides[pc * NUM_ITERS + i]! & 0xffff);
  d[at + R_OP] = opcd;
  d[at + R_ADDR] = a & PTN_MASK;
  d[at + R_VIEW] = s.view;
  d[at + R_DT] = f.data_type[pc]!;
  d[at + R_EB] = f.eb_adj[pc]!;
  d[at + R_SLOT] = s.slot;
  d[at + R_SX] = strides[pc * NUM_ITERS + INDIR_X_STRIDE_ITER]! & 0xffff;
  d[at + R_SY] = strides[pc * NUM_ITERS + INDIR_Y_STRIDE_ITER]! & 0xffff;
  d[at + R_PC] = pc;
  let flags = 0;
  if (indir) flags |= F_INDIR | (mode << MODE_SHIFT) | (f.indir_fifo_pop_enbl[pc]! ? F_POP : 0);
  if (core.programDone) flags |= F_EOP;
  return flags;
}

/**
 * `decodeRead` / `decodeWrite` from the per-pc templates: one block copy of the static record, then the
 * fields that depend on the iterator counts, the trip and the padding / post-final state. Same records
 * (the fast-path tests compare against the field-by-field decoders).
 */
export function writeStatic(u: Uie, s: SeqState, d: Int32Array, at: number, pc: number, keys: Float64Array, ki: number, key: number): void {
  const t = s.tmpl!;
  const to = pc * REC_WORDS;
  d[at + R_DT] = t[to + R_DT]!;
  d[at + R_FIFO] = t[to + R_FIFO]!;
  d[at + R_N] = t[to + R_N]!;
  d[at + R_PSWBASE] = t[to + R_PSWBASE]!;
  d[at + R_CSW] = t[to + R_CSW]!;
  d[at + R_MASK] = t[to + R_MASK]!;
  d[at + R_ZSW] = t[to + R_ZSW]!;
  d[at + R_EB] = t[to + R_EB]!;
  d[at + R_COLOFF] = t[to + R_COLOFF]!;
  d[at + R_SX] = t[to + R_SX]!;
  d[at + R_SY] = t[to + R_SY]!;
  d[at + R_PC] = pc;
  d[at + R_RMW] = t[to + R_RMW]!;
  keys[ki] = key;
}

export function decodeFast(u: Uie, s: SeqState, dec: Fifo, isRead: boolean): void {
  const core = s.core;
  const pc = core.execPc;
  const at = dec.pushSlot();
  const d = dec.data;
  // static words of the record (the others are written below), unless this slot already holds them
  const keys = isRead ? u.rd.decKey : u.wr.decKey;
  const key = s.tmplId * 65536 + pc;
  if (keys[at] !== key) writeStatic(u, s, d, at, pc, keys, at, key);
  const x = s.aux!;
  const b = pc * AUX_WORDS;
  const cnt = core.execCount;
  let opcd = x[b + A_OPCD]!;
  let flags = x[b + A_FLAGS]!;
  let constV = x[b + A_CONST]!;
  if (isRead) {
    // start/end row pad (seq §5.1) and post-final padding (seq §5.3)
    let pad = false;
    const padMask = x[b + A_PADMASK]!;
    if (padMask !== 0 && opcd !== RD_NOP) {
      if (x[b + A_STARTPAD]! && (core.itersEqZero & padMask) === padMask) pad = true;
      if (x[b + A_ENDPAD]! && (core.itersEqNloops & padMask) === padMask) pad = true;
    }
    if (core.postFinal && opcd !== RD_NOP) {
      pad = true;
      flags |= F_PF;
    }
    if (pad) {
      opcd = RD_CONST;
      constV = 0;
      flags |= F_PAD;
    }
  } else if (core.postFinal && writesSram(opcd)) {
    // post-final Write / RMW_Add -> Discard (seq §6.3)
    opcd = WR_DISCARD;
    flags |= F_PF | F_PAD;
  }
  const indir = x[b + A_INDIR]! !== 0 && (isRead ? readsSram(opcd) : writesSram(opcd));
  // only the iterators with a non-zero stride (bit masks precomputed per pc)
  let nz = indir ? x[b + A_NZ_INDIR]! : x[b + A_NZ]!;
  let a = s.base + x[b + A_OFFSET]!;
  while (nz !== 0) {
    const i = 31 - Math.clz32(nz);
    nz ^= 1 << i;
    a += (cnt[i]! & 0xfff) * x[b + A_STRIDE + i]!;
  }
  if (indir) flags |= x[b + A_INDIR]!;
  // branch-free: the `|=` runs on every record, so V8 has its feedback before the program's last one (which deoptimised)
  flags |= core.programDone ? F_EOP : 0;
  d[at + R_OP] = opcd;
  d[at + R_ADDR] = a & PTN_MASK;
  d[at + R_VIEW] = s.view;
  d[at + R_CONST] = constV;
  d[at + R_FLAGS] = flags;
  const pid = x[b + A_PSW_ITER_ID]!;
  d[at + R_PSWITER] = ((pid < NUM_ITERS ? cnt[pid]! : 0) & 7) * x[b + A_PSW_ITER_STRIDE]!;
  if (x[b + A_CSW_VLD]!) {
    const cid = x[b + A_CSW_ITER_ID]!;
    d[at + R_CSW] = (x[b + A_CSW_BASE]! + ((((cid < NUM_ITERS ? cnt[cid]! : 0) & 15) * x[b + A_CSW_ITER_STRIDE]!) % 16)) & 63;
  }
  d[at + R_SLOT] = s.slot;
}

/** Resolves the indirect part of an address (seq §5.2.2); returns -1 if the index FIFOs are not ready. */
export function indirectAddr(u: Uie, itfe: Itfe, d: Int32Array, at: number, side: SeqState): number {
  const flags = d[at + R_FLAGS]!;
  const mode = (flags >> MODE_SHIFT) & INDIR_MODE_MASK;
  const yKind = INDIR_Y[mode]!;
  const needY = yKind !== INDIR_Y_NONE;
  if (itfe.x.empty || (needY && itfe.y.empty)) {
    if (itfe.finished) {
      u.ruleError(
        UieCodes.itfeStarved,
        `${side.name} needs an index but its ITFE has fetched all ${itfe.totalPerTable} index value(s) of the trip: the ITFE index count must match the sequencer's indirect accesses`,
        `${SEQ_SPEC} §8.1`,
        side,
        d[at + R_PC]!,
      );
      return -2;
    }
    u.blocked ??= u.blockMsg(side, 2);
    u.stats.datapathStallCycles[side.id === SEQ_AMEM_READ ? 0 : 1]!++;
    return -1;
  }
  if (itfe.cmd.indir_mode !== mode)
    u.ruleError(UieCodes.indirMode, `${side.name} indir_mode ${mode} differs from its ITFE command indir_mode ${itfe.cmd.indir_mode}`, `${SEQ_SPEC} §5.1, §8.1`, side, d[at + R_PC]!);
  const x = itfe.x.peek() >>> 0;
  const y = needY ? itfe.y.peek() & 0xffff : 0;
  let off: number;
  // seq §5.2.2: the x index (16 or 32 bits) times the X stride; y_index either supplies index bits [31:16] or is a 2-D index
  const xi = INDIR_X32[mode] ? x : x & 0xffff;
  if (yKind === INDIR_Y_MSBS) off = (xi + y * 65536) * d[at + R_SX]!;
  else if (yKind === INDIR_Y_2D) off = xi * d[at + R_SX]! + y * d[at + R_SY]!;
  else off = xi * d[at + R_SX]!;
  if (flags & F_POP) {
    itfe.x.pop();
    if (needY) itfe.y.pop();
  }
  return (d[at + R_ADDR]! + (off % (PTN_MASK + 1))) & PTN_MASK;
}

export function checkItfeCount(u: Uie, itfe: Itfe, pops: number, s: SeqState, pc: number, tripIndirect: boolean): void {
  if (!tripIndirect && pops === 0) return;
  const expected = tripIndirect ? itfe.totalPerTable : 0;
  if (pops !== expected)
    u.ruleError(
      UieCodes.itfeCount,
      `${s.name} popped ${pops} index value(s) in this trip but its ITFE supplies ${expected} (num_indices_per_table * repeat_count); they must match`,
      `${SEQ_SPEC} §8.1`,
      s,
      pc,
    );
}

/** decodeFast's direct address for iterator counts `cnt`: base + amem_addr_offset + sum of (count & 0xfff) * stride. */
export function stridedAddr(base: number, x: Int32Array, b: number, cnt: Int32Array): number {
  let nz = x[b + A_NZ]!;
  let a = base + x[b + A_OFFSET]!;
  while (nz !== 0) {
    const i = 31 - Math.clz32(nz);
    nz ^= 1 << i;
    a += (cnt[i]! & 0xfff) * x[b + A_STRIDE + i]!;
  }
  return a & PTN_MASK;
}
