/**
 * Decoding of UIE memories at trip start into typed arrays: sequencer op
 * memories (one Int32Array per field) and the switch configuration tables
 * (RPSW/WPSW chip §6.2.1.1, RCSW/WCSW chip §6.2.1.3, column masks), all
 * through @pyxis/codec and the grammars/pyxis tables; no bit positions here.
 */
import type { CompiledTable } from '@pyxis/codec';
import { readField } from '@pyxis/codec';

/** Decoded op memory: `field(name)[pc * count + i]`. */
export class OpStore {
  private readonly map = new Map<string, Int32Array>();
  constructor(
    readonly table: CompiledTable,
    readonly depth: number,
  ) {}
  /**
   * The array of a field. Before any decode it holds the field's decoded value of an all-zero word (e.g. 8 for
   * `num_logical_ptns`, whose codepoint 0 means all 8 partitions — the codec's `zero_means_max`); zeros if the table
   * lacks the field.
   */
  field(name: string): Int32Array {
    let a = this.map.get(name);
    if (!a) {
      const f = this.table.byName.get(name);
      a = new Int32Array(this.depth * (f?.count ?? 1));
      if (f && !f.reserved) a.fill(zeroWordValue(this.table, name));
      this.map.set(name, a);
    }
    return a;
  }
  set(name: string, a: Int32Array): void {
    this.map.set(name, a);
  }
}

/** Per table: each field's decoded value of an all-zero word (a trip start allocates every field of each UIE's store). */
const zeroWords = new WeakMap<CompiledTable, Map<string, number>>();
function zeroWordValue(t: CompiledTable, name: string): number {
  let m = zeroWords.get(t);
  if (!m) zeroWords.set(t, (m = new Map()));
  let v = m.get(name);
  if (v === undefined) m.set(name, (v = Number(readField(t, new Uint8Array(t.bytes), name))));
  return v;
}

export function decodeOpStore(t: CompiledTable, mem: Uint8Array, depth: number, stride = t.bytes, into?: OpStore): OpStore {
  const st = into ?? new OpStore(t, depth);
  const d = Math.min(depth, Math.floor(mem.length / stride));
  for (const f of t.fields) {
    if (f.reserved) continue;
    const arr = st.field(f.name);
    for (let pc = 0; pc < d; pc++)
      for (let i = 0; i < f.count; i++) arr[pc * f.count + i] = Number(readField(t, mem, f.name, i, pc * stride));
  }
  return st;
}

/** Entries of the partition-switch and column-switch tables (seq §5.4, §5.5, chip §6.2.1.3.3). */
export const PSW_ENTRIES = 64;
export const CSW_ENTRIES = 64;
export const COL_MASK_ENTRIES = 4;

/** One datapath side's (read or write) switch configuration tables, decoded. */
export interface SwitchTables {
  /** `pswSrc[e*8+o]`: input partition routed to output partition o (`src_ptn`). */
  readonly pswSrc: Uint8Array;
  /** `pswZero[e*8+o]`: force output partition o to zero (`ptn_zero`). */
  readonly pswZero: Uint8Array;
  /** `cswMux[e*128+col]`: 0 Self, 1 Prev_Ptn, 2 Next_Ptn (`col_mux_sel`). */
  readonly cswMux: Uint8Array;
  /** `cswSrc[e*128+col]`: mux-selected input column 0..15 delivered to col (`col_src`). */
  readonly cswSrc: Uint8Array;
  /** `colMask[m*128+col]`: 0 No_Mask, 1 Zero, 2 Max_Negative (`col_override`). */
  readonly colMask: Uint8Array;
  /** colMaskActive[m] = 1 when mask entry m overrides any column (fast path). */
  readonly colMaskActive?: Uint8Array;
  /** pswIdentity[e] = 1 when partition-switch entry e routes every partition to itself, none zeroed (fast path). */
  readonly pswIdentity?: Uint8Array;
  /** cswIdentity[e] = 1 when column-switch entry e delivers every column unchanged (Self mux, col_src = column; fast path). */
  readonly cswIdentity?: Uint8Array;
}

let identityTemplate: SwitchTables | undefined;

/** Identity (reset-state) switch tables; built once, copied per call. */
export function identitySwitchTables(): SwitchTables {
  const tp = (identityTemplate ??= buildIdentitySwitchTables());
  return {
    pswSrc: tp.pswSrc.slice(),
    pswZero: tp.pswZero.slice(),
    cswMux: tp.cswMux.slice(),
    cswSrc: tp.cswSrc.slice(),
    colMask: tp.colMask.slice(),
    colMaskActive: tp.colMaskActive!.slice(),
    pswIdentity: tp.pswIdentity!.slice(),
    cswIdentity: tp.cswIdentity!.slice(),
  };
}

function buildIdentitySwitchTables(): SwitchTables {
  const t: SwitchTables = {
    pswSrc: new Uint8Array(PSW_ENTRIES * 8),
    pswZero: new Uint8Array(PSW_ENTRIES * 8),
    cswMux: new Uint8Array(CSW_ENTRIES * 128),
    cswSrc: new Uint8Array(CSW_ENTRIES * 128),
    colMask: new Uint8Array(COL_MASK_ENTRIES * 128),
    colMaskActive: new Uint8Array(COL_MASK_ENTRIES),
    pswIdentity: new Uint8Array(PSW_ENTRIES),
    cswIdentity: new Uint8Array(CSW_ENTRIES),
  };
  for (let e = 0; e < PSW_ENTRIES; e++) for (let o = 0; o < 8; o++) t.pswSrc[e * 8 + o] = o;
  for (let e = 0; e < CSW_ENTRIES; e++) for (let c = 0; c < 128; c++) t.cswSrc[e * 128 + c] = c & 15;
  updateSwitchSummaries(t);
  return t;
}

function decodeArrayField(t: CompiledTable, mem: Uint8Array, entries: number, stride: number, name: string, out: Uint8Array, per: number): void {
  const f = t.byName.get(name);
  if (!f) return;
  const n = Math.min(entries, Math.floor(mem.length / stride));
  for (let e = 0; e < n; e++) for (let i = 0; i < Math.min(per, f.count); i++) out[e * per + i] = Number(readField(t, mem, name, i, e * stride));
}

/** Column-mask decodes by byte image (speed only: every trip start decodes its column masks; the UIEs of a chip mostly share them). */
interface MaskEntry {
  t: CompiledTable;
  stride: number;
  raw: Uint8Array;
  values: Uint8Array;
}
const maskCache: MaskEntry[] = [];
let nextMask = 0;

/**
 * `decodeArrayField(t, mem, COL_MASK_ENTRIES, stride, 'col_override', out, 128)`, from a recent decode of the same
 * table, stride and bytes when the memory holds every entry and the field every column (then the decode writes all
 * of `out`, a function of those bytes alone).
 */
function decodeMasks(t: CompiledTable, mem: Uint8Array, stride: number, out: Uint8Array): void {
  const f = t.byName.get('col_override');
  const len = COL_MASK_ENTRIES * stride;
  if (!f || f.count < 128 || t.bytes > stride || mem.length < len) {
    decodeArrayField(t, mem, COL_MASK_ENTRIES, stride, 'col_override', out, 128);
    return;
  }
  const raw = mem.subarray(0, len);
  for (const e of maskCache) {
    if (e.t !== t || e.stride !== stride) continue;
    let same = true;
    for (let i = 0; i < len && same; i++) if (e.raw[i] !== raw[i]) same = false;
    if (same) {
      out.set(e.values);
      return;
    }
  }
  decodeArrayField(t, mem, COL_MASK_ENTRIES, stride, 'col_override', out, 128);
  maskCache[nextMask] = { t, stride, raw: raw.slice(), values: out.slice(0, COL_MASK_ENTRIES * 128) };
  nextMask = (nextMask + 1) % 4;
}

/**
 * Decodes raw table memories (entries consecutive, `stride` bytes each,
 * default the table's byte size) into `into`. Tables: `rpsw_entry`/`wpsw_entry`,
 * `rcsw_entry`/`wcsw_entry`, `rcsw_col_mask`/`wcsw_col_mask`.
 */
export function decodeSwitchTables(
  tabs: { psw: CompiledTable; csw: CompiledTable; mask: CompiledTable },
  mem: { psw?: Uint8Array; csw?: Uint8Array; mask?: Uint8Array },
  into: SwitchTables = identitySwitchTables(),
  strides: { psw?: number; csw?: number; mask?: number } = {},
): SwitchTables {
  if (mem.psw) {
    const s = strides.psw ?? tabs.psw.bytes;
    decodeArrayField(tabs.psw, mem.psw, PSW_ENTRIES, s, 'src_ptn', into.pswSrc, 8);
    decodeArrayField(tabs.psw, mem.psw, PSW_ENTRIES, s, 'ptn_zero', into.pswZero, 8);
  }
  if (mem.csw) {
    const s = strides.csw ?? tabs.csw.bytes;
    decodeArrayField(tabs.csw, mem.csw, CSW_ENTRIES, s, 'col_mux_sel', into.cswMux, 128);
    decodeArrayField(tabs.csw, mem.csw, CSW_ENTRIES, s, 'col_src', into.cswSrc, 128);
  }
  if (mem.mask) decodeMasks(tabs.mask, mem.mask, strides.mask ?? tabs.mask.bytes, into.colMask);
  // each summary is a function of its own part's arrays only: recompute those of the parts decoded (a trip start
  // decodes the column masks alone; the PSW / CSW identity scans are 72 KiB of compares)
  if (mem.mask) updateMaskActivity(into);
  if (mem.psw) updatePswIdentity(into);
  if (mem.csw) updateCswIdentity(into);
  return into;
}

/** Recomputes `colMaskActive` after `colMask` changed. */
export function updateMaskActivity(t: SwitchTables): void {
  if (!t.colMaskActive) return;
  for (let m = 0; m < COL_MASK_ENTRIES; m++) {
    let any = 0;
    for (let c = 0; c < 128; c++) if (t.colMask[m * 128 + c]) any = 1;
    t.colMaskActive[m] = any;
  }
}

/**
 * Recomputes the per-entry summaries the datapath's fast paths use (`colMaskActive`, `pswIdentity`,
 * `cswIdentity`) after the tables changed: done once when a configuration is loaded, never per flit.
 */
export function updateSwitchSummaries(t: SwitchTables): void {
  updateMaskActivity(t);
  updatePswIdentity(t);
  updateCswIdentity(t);
}

function updatePswIdentity(t: SwitchTables): void {
  if (t.pswIdentity)
    for (let e = 0; e < PSW_ENTRIES; e++) {
      let id = 1;
      for (let o = 0; o < 8; o++) if (t.pswSrc[e * 8 + o] !== o || t.pswZero[e * 8 + o]) id = 0;
      t.pswIdentity[e] = id;
    }
}

function updateCswIdentity(t: SwitchTables): void {
  if (t.cswIdentity)
    for (let e = 0; e < CSW_ENTRIES; e++) {
      let id = 1;
      for (let c = 0; c < 128; c++) {
        const k = e * 128 + c;
        // col_src = c and the mux of that column selects Self (applyCsw reads the mux select of the picked column)
        if ((t.cswSrc[k]! & 15) !== (c & 15) || t.cswMux[k] !== 0) id = 0;
      }
      t.cswIdentity[e] = id;
    }
}
