/**
 * Enum codepoints and per-codepoint properties of the UIE op words, looked up once at load by NAME from the
 * grammar tables (grammars/pyxis/amem_read_op.json, amem_write_op.json, amem_weights_read_op.json, rcsw_entry.json,
 * rcsw_col_mask.json, gx_op.json, gv_op.json, gwb_op.json, gwb_col_mask.json, vpu_instr.json) so that the datapath compares against named constants and a grammar change cannot silently
 * change behaviour: a missing name or property is a load-time error naming the table and field.
 *
 * Table metadata read here (documented in docs/field-tables.md "Table metadata read by tools"):
 *  - `meta.data_type_bits` (amem_read_op, amem_write_op): bits per element of each `data_type` (seq §1.1, §5.1, §6.1);
 *  - `meta.indir_modes` (amem_read_op; the same encoding in amem_write_op and itfe_command, seq §8.1): per
 *    `indir_mode` codepoint the x_index width and the role of y_index, and the iterators whose strides are reassigned
 *    to the index strides (seq §5.2.2).
 */
import { enumCode, loadTable, type CompiledTable } from '@pyxis/codec';

function table(name: string): CompiledTable {
  return loadTable('pyxis', name);
}

/** The codepoint of enum value `value` of `field` in `t`; throws naming the table when it is missing. */
export function code(t: CompiledTable, field: string, value: string): number {
  const f = t.byName.get(field);
  const c = f ? enumCode(f, value) : undefined;
  if (c === undefined) throw new Error(`grammars/pyxis/${t.name}.json: field \`${field}\` has no enum value \`${value}\` (the UIE model needs it)`);
  return c;
}

const readOp = table('amem_read_op');
const writeOp = table('amem_write_op');
const weightsOp = table('amem_weights_read_op');

/** AMEM Read `opcd` (seq §5.1). */
export const RD_NOP = code(readOp, 'opcd', 'Nop');
export const RD_CONST = code(readOp, 'opcd', 'Read_Const');
export const RD_SRAM = code(readOp, 'opcd', 'Read_SRAM');
export const RD_SRAM_RELU = code(readOp, 'opcd', 'Read_SRAM_with_ReLU');
/** True for the AMEM Read ops that read AMEM (Read_SRAM, Read_SRAM_with_ReLU). */
export function readsSram(opcd: number): boolean {
  return opcd === RD_SRAM || opcd === RD_SRAM_RELU;
}

/** AMEM Write `opcd` (seq §6.1). */
export const WR_NOP = code(writeOp, 'opcd', 'Nop');
export const WR_DISCARD = code(writeOp, 'opcd', 'Discard');
export const WR_WRITE = code(writeOp, 'opcd', 'Write');
export const WR_RMW_ADD = code(writeOp, 'opcd', 'RMW_Add');
/** True for the AMEM Write ops that write AMEM (Write, RMW_Add). */
export function writesSram(opcd: number): boolean {
  return opcd === WR_WRITE || opcd === WR_RMW_ADD;
}

/** AMEM Weights Read `opcd` (seq §7.1): the ops that read AMEM. */
export const WT_SRAM = code(weightsOp, 'opcd', 'Read_SRAM');
export const WT_SRAM_RELU = code(weightsOp, 'opcd', 'Read_SRAM_with_ReLU');
/** `wdc_type` Uncompressed (seq §7.1): other types must be 128-byte aligned (seq §1.1). */
export const WT_UNCOMPRESSED = code(weightsOp, 'wdc_type', 'Uncompressed');

/** Switchbox FIFOs: AMEM Read `tgt_fifo` and AMEM Write `src_fifo` (seq §5.1, §6.1; chip §6.2.3). */
export const TGT_GRID = code(readOp, 'tgt_fifo', 'Grid');
export const TGT_VBUFFER = code(readOp, 'tgt_fifo', 'Vbuffer');
export const TGT_AMEM = code(readOp, 'tgt_fifo', 'AMEM_write');
export const SRC_GRID = code(writeOp, 'src_fifo', 'Grid');
export const SRC_VBUFFER = code(writeOp, 'src_fifo', 'Vbuffer');
export const SRC_AMEM = code(writeOp, 'src_fifo', 'AMEM_read');

/** Zipper switch modes `rzsw_config` / `wzsw_config` (chip §6.2.1.2, §6.2.2.3); the read and write tables must agree. */
export const ZSW_NOP = code(readOp, 'rzsw_config', 'NOP');
export const ZSW_UNZIP = code(readOp, 'rzsw_config', 'Unzip');
export const ZSW_ZIP = code(readOp, 'rzsw_config', 'Zip');
for (const [n, v] of [['NOP', ZSW_NOP], ['Unzip', ZSW_UNZIP], ['Zip', ZSW_ZIP]] as const)
  if (code(writeOp, 'wzsw_config', n) !== v) throw new Error(`grammars/pyxis: wzsw_config ${n} differs from rzsw_config ${n}; the UIE model shares one zipper switch`);

/** Column switch mux select `col_mux_sel` and column override `col_override` (chip §6.2.1.3). */
const csw = table('rcsw_entry');
const colMask = table('rcsw_col_mask');
export const MUX_SELF = code(csw, 'col_mux_sel', 'Self');
export const MUX_PREV = code(csw, 'col_mux_sel', 'Prev_Ptn');
export const MUX_NEXT = code(csw, 'col_mux_sel', 'Next_Ptn');
export const MASK_NONE = code(colMask, 'col_override', 'No_Mask');
export const MASK_ZERO = code(colMask, 'col_override', 'Zero');
export const MASK_MAX_NEG = code(colMask, 'col_override', 'Max_Negative');

const gxOp = table('gx_op');
const gvOp = table('gv_op');
const gwbOp = table('gwb_op');
const gwbColMask = table('gwb_col_mask');
const vpuInstr = table('vpu_instr');

/** GX `opcd` (seq §10.1). */
export const GX_VALID = code(gxOp, 'opcd', 'Exec_Valid');
export const GX_BUBBLE = code(gxOp, 'opcd', 'Exec_Bubble');
export const GX_CONFIG = code(gxOp, 'opcd', 'Exec_Config');
/** GV `opcd` (seq §9.1). */
export const GV_ZERO = code(gvOp, 'opcd', 'Read_Zero');
export const GV_AMEM = code(gvOp, 'opcd', 'Read_AMEM_FIFO');
export const GV_VPU = code(gvOp, 'opcd', 'Read_VPU_FIFO');
/** GWB `opcd`, `tgt_fifo`, `diagonal_mask_mode`, `diagonal_mask_override_sel` (seq §11.1) and `col_override` (gwb_col_mask). */
export const GWB_READ_WBA = code(gwbOp, 'opcd', 'Read_WBA');
export const GWB_TGT_VPU = code(gwbOp, 'tgt_fifo', 'VPU');
export const GWB_DIAG = {
  colLeRow: code(gwbOp, 'diagonal_mask_mode', 'Col_LE_Row'),
  colLtRow: code(gwbOp, 'diagonal_mask_mode', 'Col_LT_Row'),
  colEqRow: code(gwbOp, 'diagonal_mask_mode', 'Col_EQ_Row'),
  colNeRow: code(gwbOp, 'diagonal_mask_mode', 'Col_NE_Row'),
  colGeRow: code(gwbOp, 'diagonal_mask_mode', 'Col_GE_Row'),
  colGtRow: code(gwbOp, 'diagonal_mask_mode', 'Col_GT_Row'),
} as const;
export const GWB_OVR_MAX_NEG = code(gwbOp, 'diagonal_mask_override_sel', 'Max_Negative');
export const GWB_COL_ZERO = code(gwbColMask, 'col_override', 'Zero');
export const GWB_COL_MAX_NEG = code(gwbColMask, 'col_override', 'Max_Negative');
/** VPU source selectors (`src1_sel`/`src2_sel`, one encoding) and `cntr_ctrl` (chip §6.4, vpu_instr.json). */
export const VPU_SRC = {
  gpr: code(vpuInstr, 'src1_sel', 'GPR'),
  imm: code(vpuInstr, 'src1_sel', 'IMM'),
  in: code(vpuInstr, 'src1_sel', 'IN_FIFO'),
  cntr: code(vpuInstr, 'src1_sel', 'CNTR'),
} as const;
for (const [k, v] of Object.entries({ GPR: VPU_SRC.gpr, IMM: VPU_SRC.imm, IN_FIFO: VPU_SRC.in, CNTR: VPU_SRC.cntr }))
  if (code(vpuInstr, 'src2_sel', k) !== v) throw new Error(`grammars/pyxis/vpu_instr.json: src1_sel and src2_sel encode ${k} differently (the VPU model decodes both with one table)`);
export const VPU_CNTR_INCR = code(vpuInstr, 'cntr_ctrl', 'CNTR_CTRL_INCR');
export const VPU_CNTR_DECR = code(vpuInstr, 'cntr_ctrl', 'CNTR_CTRL_DECR');
export const VPU_CNTR_ZERO = code(vpuInstr, 'cntr_ctrl', 'CNTR_CTRL_SET_TO_0');

/** Bits per element by `data_type` codepoint (table metadata `data_type_bits`), one array per op table. */
function dataTypeBits(t: CompiledTable): Uint8Array {
  const f = t.byName.get('data_type');
  const bits = (t.meta?.['data_type_bits'] ?? {}) as Record<string, number>;
  if (!f?.enum) throw new Error(`grammars/pyxis/${t.name}.json: no data_type enum`);
  const out = new Uint8Array(1 << f.width);
  for (const [name, c] of Object.entries(f.enum)) {
    const b = bits[name];
    if (b !== 8 && b !== 16) throw new Error(`grammars/pyxis/${t.name}.json: meta.data_type_bits.${name} must be 8 or 16`);
    out[c] = b;
  }
  return out;
}
const READ_DT_BITS = dataTypeBits(readOp);
const WRITE_DT_BITS = dataTypeBits(writeOp);
for (let c = 0; c < READ_DT_BITS.length; c++)
  if (READ_DT_BITS[c] !== WRITE_DT_BITS[c]) throw new Error('grammars/pyxis: amem_read_op and amem_write_op give data_type codepoint ' + c + ' different widths');
/** 16-bit `data_type` codepoints (1) of the AMEM Read / Write op words (the two tables agree, checked above). */
export const DT_IS_16 = READ_DT_BITS.map((b) => (b === 16 ? 1 : 0));

/** The `data_type` codepoint of a named type (AMEM Read / Write op words). */
export function dataType(name: string): number {
  return code(readOp, 'data_type', name);
}

/** Indirection modes (seq §5.2.2, §8.1) from `meta.indir_modes` of amem_read_op, per codepoint 0..3. */
interface IndirModeMeta {
  x_index_bits: number;
  y_index: 'none' | 'msbs' | '2d';
}
const modes = (readOp.meta?.['indir_modes'] ?? {}) as Record<string, unknown>;
const indirModeCount = 1 << (readOp.byName.get('indir_mode')?.width ?? 2);
/** Per mode: 1 when the x_index entries are 32 bits (else 16). */
export const INDIR_X32 = new Uint8Array(indirModeCount);
/** Per mode: 0 y_index unused, 1 y_index supplies index bits [31:16], 2 y_index is a second (2-D) index. */
export const INDIR_Y = new Uint8Array(indirModeCount);
export const INDIR_Y_NONE = 0;
export const INDIR_Y_MSBS = 1;
export const INDIR_Y_2D = 2;
/** Per mode: iterators 0 .. n-1 form the direct part of an indirect address (seq §5.2.2 num_base_address_iters). */
export const INDIR_BASE_ITERS = new Uint8Array(indirModeCount);
/** Iterators whose strides become the X- / Y-index strides (seq §5.2.2). */
export const INDIR_X_STRIDE_ITER = Number(modes['x_stride_iter']);
export const INDIR_Y_STRIDE_ITER = Number(modes['y_stride_iter']);
for (let m = 0; m < indirModeCount; m++) {
  const e = modes[String(m)] as IndirModeMeta | undefined;
  if (!e || (e.x_index_bits !== 16 && e.x_index_bits !== 32) || !['none', 'msbs', '2d'].includes(e.y_index))
    throw new Error(`grammars/pyxis/amem_read_op.json: meta.indir_modes.${m} must give x_index_bits (16/32) and y_index (none/msbs/2d)`);
  INDIR_X32[m] = e.x_index_bits === 32 ? 1 : 0;
  INDIR_Y[m] = e.y_index === 'none' ? INDIR_Y_NONE : e.y_index === 'msbs' ? INDIR_Y_MSBS : INDIR_Y_2D;
  INDIR_BASE_ITERS[m] = e.y_index === '2d' ? Math.min(INDIR_X_STRIDE_ITER, INDIR_Y_STRIDE_ITER) : INDIR_X_STRIDE_ITER;
}
if (!Number.isInteger(INDIR_X_STRIDE_ITER) || !Number.isInteger(INDIR_Y_STRIDE_ITER))
  throw new Error('grammars/pyxis/amem_read_op.json: meta.indir_modes needs x_stride_iter and y_stride_iter');
/** Mask of an indir_mode codepoint (the field's width). */
export const INDIR_MODE_MASK = indirModeCount - 1;
