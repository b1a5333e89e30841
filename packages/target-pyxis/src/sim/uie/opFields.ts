/**
 * Op-field binding: the decoded op memory of the AMEM Read, AMEM Write and AMEM Weights Read sequencers
 * (grammars/pyxis/amem_read_op.json, amem_write_op.json, amem_weights_read_op.json; seq §5.1, §6.1, §7.1) bound
 * to typed per-field arrays, and the per-pc decode templates the fast decoder copies (docs/uie-model.md "Fast paths").
 * Field values are the codec's decoded values (`zero_means_max` applied by @pyxis/codec, never re-implemented here).
 */
import { INDIR_BASE_ITERS, INDIR_X_STRIDE_ITER, INDIR_Y_STRIDE_ITER } from './codes.js';
import {
  A_CONST, A_CSW_BASE, A_CSW_ITER_ID, A_CSW_ITER_STRIDE, A_CSW_VLD, A_ENDPAD, A_FLAGS, A_INDIR, A_NBASE_INDIR, A_NZ, A_NZ_INDIR,
  A_OFFSET, A_OPCD, A_PADMASK, A_PSW_ITER_ID, A_PSW_ITER_STRIDE, A_STARTPAD, A_STRIDE, AUX_WORDS, F_INDIR, F_POP, F_ROT, MODE_SHIFT,
  R_COLOFF, R_CSW, R_DT, R_EB, R_FIFO, R_MASK, R_N, R_PC, R_PSWBASE, R_RMW, R_SX, R_SY, R_ZSW, REC_WORDS,
  SEQ_AMEM_READ, SEQ_AMEM_WEIGHTS_READ, SEQ_AMEM_WRITE, type SeqState,
} from './records.js';
import { NUM_ITERS, SEQ_DEPTH } from './sequencerCore.js';
import type { OpStore } from './tables.js';

let tmplSerial = 0;

export const READ_FIELDS = [
  'opcd', 'data_type', 'tgt_fifo', 'amem_addr_offset', 'iter_stride', 'indir_vld', 'indir_mode', 'indir_fifo_pop_enbl', 'rd_const_value',
  'num_logical_ptns', 'start_row_pad', 'end_row_pad', 'pad_row_iter_mask', 'rpsw_config_idx_base', 'rpsw_rot_enbl', 'rpsw_config_iter_id',
  'rpsw_config_iter_stride', 'rpsw_config_vld', 'rcsw_switch_config_idx_base', 'rcsw_switch_config_iter_id', 'rcsw_switch_config_iter_stride',
  'rcsw_switch_config_vld', 'rcsw_col_mask_config_idx', 'rzsw_config', 'eb_adj',
] as const;
export const WRITE_FIELDS = [
  'opcd', 'data_type', 'src_fifo', 'amem_addr_offset', 'iter_stride', 'indir_vld', 'indir_mode', 'indir_fifo_pop_enbl', 'rmw_rd_addr_offset',
  'logical_col_offset', 'num_logical_cols', 'wpsw_config_idx_base', 'wpsw_rot_enbl', 'wpsw_config_iter_id', 'wpsw_config_iter_stride', 'wpsw_config_vld',
  'wcsw_switch_config_idx_base', 'wcsw_switch_config_iter_id', 'wcsw_switch_config_iter_stride', 'wcsw_switch_config_vld', 'wcsw_col_mask_config_idx',
  'wzsw_config', 'eb_adj',
] as const;
export const WEIGHTS_FIELDS = ['opcd', 'num_ptns', 'is_16bit', 'amem_addr_offset', 'iter_stride', 'wdc_type'] as const;

const NO_FIELD = new Int32Array(0);
/*
 * Op-memory field arrays bound once per decode so the per-instruction decoders do plain property loads. Classes with
 * declared fields keep V8's fast (in-object) property layout; an object filled by keyed stores goes to dictionary mode.
 */
export class ReadFieldArrays {
  opcd = NO_FIELD;
  data_type = NO_FIELD;
  tgt_fifo = NO_FIELD;
  amem_addr_offset = NO_FIELD;
  iter_stride = NO_FIELD;
  indir_vld = NO_FIELD;
  indir_mode = NO_FIELD;
  indir_fifo_pop_enbl = NO_FIELD;
  rd_const_value = NO_FIELD;
  num_logical_ptns = NO_FIELD;
  start_row_pad = NO_FIELD;
  end_row_pad = NO_FIELD;
  pad_row_iter_mask = NO_FIELD;
  rpsw_config_idx_base = NO_FIELD;
  rpsw_rot_enbl = NO_FIELD;
  rpsw_config_iter_id = NO_FIELD;
  rpsw_config_iter_stride = NO_FIELD;
  rpsw_config_vld = NO_FIELD;
  rcsw_switch_config_idx_base = NO_FIELD;
  rcsw_switch_config_iter_id = NO_FIELD;
  rcsw_switch_config_iter_stride = NO_FIELD;
  rcsw_switch_config_vld = NO_FIELD;
  rcsw_col_mask_config_idx = NO_FIELD;
  rzsw_config = NO_FIELD;
  eb_adj = NO_FIELD;
}
export class WriteFieldArrays {
  opcd = NO_FIELD;
  data_type = NO_FIELD;
  src_fifo = NO_FIELD;
  amem_addr_offset = NO_FIELD;
  iter_stride = NO_FIELD;
  indir_vld = NO_FIELD;
  indir_mode = NO_FIELD;
  indir_fifo_pop_enbl = NO_FIELD;
  rmw_rd_addr_offset = NO_FIELD;
  logical_col_offset = NO_FIELD;
  num_logical_cols = NO_FIELD;
  wpsw_config_idx_base = NO_FIELD;
  wpsw_rot_enbl = NO_FIELD;
  wpsw_config_iter_id = NO_FIELD;
  wpsw_config_iter_stride = NO_FIELD;
  wpsw_config_vld = NO_FIELD;
  wcsw_switch_config_idx_base = NO_FIELD;
  wcsw_switch_config_iter_id = NO_FIELD;
  wcsw_switch_config_iter_stride = NO_FIELD;
  wcsw_switch_config_vld = NO_FIELD;
  wcsw_col_mask_config_idx = NO_FIELD;
  wzsw_config = NO_FIELD;
  eb_adj = NO_FIELD;
}
export class WeightsFieldArrays {
  opcd = NO_FIELD;
  num_ptns = NO_FIELD;
  is_16bit = NO_FIELD;
  amem_addr_offset = NO_FIELD;
  iter_stride = NO_FIELD;
  wdc_type = NO_FIELD;
}

function bindFields<T extends object>(op: OpStore, names: readonly string[], o: T): T {
  for (const n of names) (o as Record<string, Int32Array>)[n] = op.field(n);
  return o;
}

/**
 * Binds a sequencer's decoded op memory (after every decode or `Uie.loadMicrocode`) and rebuilds its templates.
 * `opKey` (decodeCache.ts): the op store's content is that of every decode with this key.
 */
export function bindSeq(s: SeqState, opKey?: object): void {
  if (!s.op) return;
  if (s.id === SEQ_AMEM_READ) {
    const f = (s.rf = bindFields(s.op, READ_FIELDS, new ReadFieldArrays()));
    s.usesPsw = f.rpsw_config_vld.some((v) => v !== 0);
    s.usesCsw = f.rcsw_switch_config_vld.some((v) => v !== 0);
    buildTemplates(s, f, true, opKey);
  } else if (s.id === SEQ_AMEM_WRITE) {
    const f = (s.wf = bindFields(s.op, WRITE_FIELDS, new WriteFieldArrays()));
    s.usesPsw = f.wpsw_config_vld.some((v) => v !== 0);
    s.usesCsw = f.wcsw_switch_config_vld.some((v) => v !== 0);
    buildTemplates(s, f, false, opKey);
  }
  else if (s.id === SEQ_AMEM_WEIGHTS_READ) s.kf = bindFields(s.op, WEIGHTS_FIELDS, new WeightsFieldArrays());
}

/** Count of iterator `id` (3-bit field; ids 6 and 7 name no iterator and read as 0). */
export function iterVal(counts: Int32Array, id: number): number {
  return id < NUM_ITERS ? counts[id]! : 0;
}

/**
 * Templates built for an op store content (decodeCache.ts `opKey`), read and write side: the UIEs of a chip mostly run
 * the same programs, and the templates are read-only once built, so equal decodes share them. Host speed only: it
 * also keeps buildTemplates from running hot enough for V8 to compile it, in every thread (issue 22).
 */
const templatesByOp = new WeakMap<object, Array<{ tmpl: Int32Array; aux: Int32Array } | undefined>>();

/** Builds the decode templates of an AMEM Read (`read`) or AMEM Write sequencer from its bound op fields. */
export function buildTemplates(s: SeqState, f: ReadFieldArrays | WriteFieldArrays, read: boolean, opKey?: object): void {
  const side = read ? 0 : 1;
  const memo = opKey ? templatesByOp.get(opKey) : undefined;
  const hit = memo?.[side];
  if (hit) {
    s.tmpl = hit.tmpl;
    s.aux = hit.aux;
    s.tmplId = ++tmplSerial;
    return;
  }
  const tmpl = new Int32Array(SEQ_DEPTH * REC_WORDS);
  const aux = new Int32Array(SEQ_DEPTH * AUX_WORDS);
  for (let pc = 0; pc < SEQ_DEPTH; pc++) {
    const t = pc * REC_WORDS;
    const b = pc * AUX_WORDS;
    const r = read ? (f as ReadFieldArrays) : undefined;
    const w = read ? undefined : (f as WriteFieldArrays);
    const strides = f.iter_stride;
    tmpl[t + R_DT] = f.data_type[pc]!;
    tmpl[t + R_FIFO] = r ? r.tgt_fifo[pc]! : w!.src_fifo[pc]!;
    tmpl[t + R_N] = r ? r.num_logical_ptns[pc]! : w!.num_logical_cols[pc]!;
    tmpl[t + R_COLOFF] = w ? w.logical_col_offset[pc]! : 0;
    tmpl[t + R_PSWBASE] = r ? (r.rpsw_config_vld[pc]! ? r.rpsw_config_idx_base[pc]! : -1) : w!.wpsw_config_vld[pc]! ? w!.wpsw_config_idx_base[pc]! : -1;
    tmpl[t + R_CSW] = -1; // overwritten when *csw_switch_config_vld
    tmpl[t + R_MASK] = r ? r.rcsw_col_mask_config_idx[pc]! : w!.wcsw_col_mask_config_idx[pc]!;
    tmpl[t + R_ZSW] = r ? r.rzsw_config[pc]! : w!.wzsw_config[pc]!;
    tmpl[t + R_EB] = f.eb_adj[pc]!;
    tmpl[t + R_SX] = strides[pc * NUM_ITERS + INDIR_X_STRIDE_ITER]! & 0xffff;
    tmpl[t + R_SY] = strides[pc * NUM_ITERS + INDIR_Y_STRIDE_ITER]! & 0xffff;
    tmpl[t + R_PC] = pc;
    tmpl[t + R_RMW] = w ? w.rmw_rd_addr_offset[pc]! : 0;
    aux[b + A_OPCD] = f.opcd[pc]!;
    aux[b + A_FLAGS] = (r ? r.rpsw_rot_enbl[pc]! : w!.wpsw_rot_enbl[pc]!) ? F_ROT : 0;
    aux[b + A_CONST] = r ? r.rd_const_value[pc]! : 0;
    aux[b + A_PADMASK] = r ? r.pad_row_iter_mask[pc]! : 0;
    aux[b + A_STARTPAD] = r ? r.start_row_pad[pc]! : 0;
    aux[b + A_ENDPAD] = r ? r.end_row_pad[pc]! : 0;
    const mode = f.indir_mode[pc]!;
    aux[b + A_INDIR] = f.indir_vld[pc]! !== 0 ? F_INDIR | (mode << MODE_SHIFT) | (f.indir_fifo_pop_enbl[pc]! ? F_POP : 0) : 0;
    aux[b + A_NBASE_INDIR] = INDIR_BASE_ITERS[mode]!;
    aux[b + A_OFFSET] = f.amem_addr_offset[pc]!;
    aux[b + A_PSW_ITER_ID] = r ? r.rpsw_config_iter_id[pc]! : w!.wpsw_config_iter_id[pc]!;
    aux[b + A_PSW_ITER_STRIDE] = r ? r.rpsw_config_iter_stride[pc]! : w!.wpsw_config_iter_stride[pc]!;
    aux[b + A_CSW_VLD] = r ? r.rcsw_switch_config_vld[pc]! : w!.wcsw_switch_config_vld[pc]!;
    aux[b + A_CSW_BASE] = r ? r.rcsw_switch_config_idx_base[pc]! : w!.wcsw_switch_config_idx_base[pc]!;
    aux[b + A_CSW_ITER_ID] = r ? r.rcsw_switch_config_iter_id[pc]! : w!.wcsw_switch_config_iter_id[pc]!;
    aux[b + A_CSW_ITER_STRIDE] = r ? r.rcsw_switch_config_iter_stride[pc]! : w!.wcsw_switch_config_iter_stride[pc]!;
    let nz = 0;
    for (let i = 0; i < NUM_ITERS; i++) {
      aux[b + A_STRIDE + i] = strides[pc * NUM_ITERS + i]! & 0xffff;
      if (aux[b + A_STRIDE + i] !== 0) nz |= 1 << i;
    }
    aux[b + A_NZ] = nz;
    aux[b + A_NZ_INDIR] = nz & ((1 << aux[b + A_NBASE_INDIR]!) - 1);
  }
  s.tmpl = tmpl;
  s.aux = aux;
  s.tmplId = ++tmplSerial;
  if (opKey) {
    const m = memo ?? [];
    m[side] = { tmpl, aux };
    templatesByOp.set(opKey, m);
  }
}
