/**
 * Config loading of one UIE: its sequencer microcode (control + op memories), switch configuration tables
 * (RPSW/WPSW, RCSW/WCSW, column masks) and ITFE command registers, read from the per-cluster config space at the
 * offsets of grammars/pyxis/memory_map.json (through src/common/memoryMap.ts, UIE u at u * uie_stride) and decoded
 * with @pyxis/codec by the tables named there (seq §2, §5.4, §5.5, §6.6, §6.7, §8.1; chip §6.2.1.3.3).
 *
 * Re-decoding happens only when the config space's `generation` moved *and* the bytes differ (compared in place
 * against the last decoded bytes, no allocation). Switch tables are re-read per side at that side's sequencer trip
 * start; PSW/CSW entries only when the program can select one or an entry selected earlier is still held
 * (docs/spec-notes.md "uie: when are switch tables read").
 */
import { loadTable, readField, type CompiledTable } from '@pyxis/codec';
import { loadMemoryMap, type MemoryMapRegion, type SeqMemory } from '../../common/memoryMap.js';
import type { ItfeCommand } from './itfe.js';
import { bindSeq } from './opFields.js';
import type { SeqState, UieCfgSpace } from './records.js';
import { decodeMicrocode } from './decodeCache.js';
import { decodeSwitchTables, type SwitchTables } from './tables.js';

interface SwitchLayout {
  psw: MemoryMapRegion;
  csw: MemoryMapRegion;
  mask: MemoryMapRegion;
  tp: CompiledTable;
  tc: CompiledTable;
  tm: CompiledTable;
}

/** Tables by name, looked up once per process (`loadTable` resolves the grammar path on every call). */
const tables = new Map<string, CompiledTable | undefined>();

export function tryTable(name: string | undefined): CompiledTable | undefined {
  if (!name) return undefined;
  if (tables.has(name)) return tables.get(name);
  let t: CompiledTable | undefined;
  try {
    t = loadTable('pyxis', name);
  } catch {
    t = undefined;
  }
  tables.set(name, t);
  return t;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A configuration table's bytes as `UieConfig.regionBytes` returns them. */
export interface ConfigRegionView {
  readonly bytes: Uint8Array;
  readonly stride: number;
  readonly words: number;
  readonly table: CompiledTable;
  changed: boolean;
}

export class UieConfig {
  /** Memory-map entries of the sequencers, by sequencer id. */
  readonly seqMem: Array<SeqMemory | undefined> = [];
  /** Byte offset of this UIE's block in the config space. */
  readonly base: number;
  /** `Infinity` once switch tables were installed directly (`Uie.loadSwitchTables`): cfg is no longer read for them. */
  swGen = -1;
  /** ITFE command registers set directly (tests/tools without a cfg space), by side and index 0..3. */
  readonly itfeOverride: { read: Array<ItfeCommand | undefined>; write: Array<ItfeCommand | undefined> } = { read: [], write: [] };
  private scratch = new Uint8Array(0);
  /** Last decoded raw bytes and cfg generation of the switch-table parts, index side * 3 + [psw, csw, mask]. */
  private readonly rawSw: Array<Uint8Array | undefined> = [];
  private readonly swGens = new Float64Array(6).fill(-1);
  /** Memory-map regions and codec tables of each side's switch configuration (looked up once). */
  private readonly swLayout: Array<SwitchLayout | null | undefined> = [undefined, undefined];

  constructor(
    readonly cfg: UieCfgSpace | undefined,
    index: number,
    cfgBase: number | undefined,
  ) {
    const mm = loadMemoryMap();
    for (const s of mm.sequencers) this.seqMem[s.id] = s;
    this.base = cfgBase ?? index * mm.uieStride;
  }

  /** Config-space address of sequencer `id`'s op memory (for diagnostics' spans) and its word stride. */
  opAddr(id: number): number {
    return this.base + (this.seqMem[id]?.op.offset ?? 0);
  }
  opStride(id: number): number {
    return this.seqMem[id]?.op.stride ?? 0;
  }

  private region(name: string): MemoryMapRegion | undefined {
    return loadMemoryMap().regions.get(name);
  }

  /** Reads `len` cfg bytes into a reusable scratch view (valid until the next call). */
  private readInto(offset: number, len: number): Uint8Array {
    if (this.scratch.length < len) this.scratch = new Uint8Array(len);
    const v = this.scratch.subarray(0, len);
    this.cfg?.read(this.base + offset, v, 0, len);
    return v;
  }

  private read(offset: number, len: number): Uint8Array {
    const b = new Uint8Array(len);
    this.cfg?.read(this.base + offset, b, 0, len);
    return b;
  }

  /** Decodes a sequencer's control/op memories from cfg when they changed (generation check), then rebinds it. */
  decodeSeq(s: SeqState): void {
    if (!this.cfg || s.gen === Number.POSITIVE_INFINITY) return;
    const gen = this.cfg.generation ?? -2;
    if (gen === s.gen && gen !== -2) return;
    const m = this.seqMem[s.id];
    if (!m || !s.controlTable) return;
    s.gen = gen;
    // the generation moves on any cfg write (other UIEs, CSRs): re-decode only if this sequencer's bytes changed
    // compare in place against the last decoded bytes (scratch buffers: no allocation unless the bytes changed)
    const ctl = this.readInto(m.ctrl.offset, m.ctrl.stride * m.ctrl.words);
    if (s.rawCtl && sameBytes(ctl, s.rawCtl)) {
      const opb = this.readInto(m.op.offset, m.op.stride * m.op.words);
      if (s.rawOp && sameBytes(opb, s.rawOp)) return;
    }
    s.rawCtl = this.read(m.ctrl.offset, m.ctrl.stride * m.ctrl.words);
    s.rawOp = this.read(m.op.offset, m.op.stride * m.op.words);
    const d = decodeMicrocode(s.controlTable, s.opTable, s.rawCtl, m.ctrl.stride, s.rawOp, m.op.stride, s.control, s.op);
    s.control = d.control;
    if (s.opTable) s.op = d.op;
    bindSeq(s, d.opKey);
  }

  /**
   * Re-decodes one side's switch tables (0 = read: RPSW/RCSW/mask, 1 = write: WPSW/WCSW/mask) into `into`, part by
   * part, when the cfg generation moved and the bytes changed. The PSW/CSW tables (6.5 KiB) are only looked at when
   * the program can select an entry (`usesPsw` / `usesCsw`) or an entry selected earlier is still held (`pswHeld` /
   * `cswHeld`); the column masks (used by every flit) always.
   */
  decodeSwitches(side: 0 | 1, usesPsw: boolean, usesCsw: boolean, pswHeld: boolean, cswHeld: boolean, into: SwitchTables): void {
    if (!this.cfg || this.swGen === Number.POSITIVE_INFINITY) return;
    const L = (this.swLayout[side] ??= this.switchLayout(side === 0 ? 'r' : 'w'));
    if (!L) return;
    const gen = this.cfg.generation ?? -2;
    if (usesPsw || pswHeld) this.syncSwitchPart(side * 3, L.psw, gen, L, into);
    if (usesCsw || cswHeld) this.syncSwitchPart(side * 3 + 1, L.csw, gen, L, into);
    this.syncSwitchPart(side * 3 + 2, L.mask, gen, L, into);
  }

  /** Part k (side * 3 + [psw, csw, mask]): compare cfg bytes with the last decoded ones (no allocation), decode if changed. */
  private syncSwitchPart(k: number, r: MemoryMapRegion, gen: number, L: SwitchLayout, into: SwitchTables): void {
    if (gen === this.swGens[k] && gen !== -2) return;
    this.swGens[k] = gen;
    const len = r.stride * r.words;
    const prev = this.rawSw[k];
    if (prev && sameBytes(this.readInto(r.offset, len), prev)) return;
    const raw = this.read(r.offset, len);
    this.rawSw[k] = raw;
    const part = k % 3;
    decodeSwitchTables(
      { psw: L.tp, csw: L.tc, mask: L.tm },
      part === 0 ? { psw: raw } : part === 1 ? { csw: raw } : { mask: raw },
      into,
      { psw: L.psw.stride, csw: L.csw.stride, mask: L.mask.stride },
    );
  }

  private switchLayout(side: 'r' | 'w'): SwitchLayout | null {
    const psw = this.region(`${side}psw.config`);
    const csw = this.region(`${side}csw.config`);
    const mask = this.region(`${side}csw.col_mask`);
    const tp = tryTable(psw?.table);
    const tc = tryTable(csw?.table);
    const tm = tryTable(mask?.table);
    if (!psw || !csw || !mask || !tp || !tc || !tm) return null;
    return { psw, csw, mask, tp, tc, tm };
  }

  private readonly regionCache = new Map<string, { gen: number; view: ConfigRegionView }>();
  /**
   * A configuration table of this UIE's block (memory_map.json region `name`, e.g. `gwb.col_mask`, `wdp.zero_mask`):
   * its raw bytes, word stride, word count and codec table; re-read only when the cfg generation moved. Decode it with
   * @pyxis/codec's `readField(table, bytes, field, i, word * stride)`. Undefined without a cfg space or region.
   * `changed` is true on the first call and whenever the bytes were re-read (callers re-decode then).
   */
  regionBytes(name: string): ConfigRegionView | undefined {
    const r = this.region(name);
    const table = tryTable(r?.table);
    if (!r || !table || !this.cfg) return undefined;
    const gen = this.cfg.generation ?? -2;
    const c = this.regionCache.get(name);
    if (c && c.gen === gen && gen !== -2) {
      c.view.changed = false;
      return c.view;
    }
    const view: ConfigRegionView = { bytes: this.read(r.offset, r.stride * r.words), stride: r.stride, words: r.words, table, changed: true };
    this.regionCache.set(name, { gen, view });
    return view;
  }

  /** ITFE command register `idx` of one side (seq §8.1), decoded from cfg (or the direct override without cfg). */
  itfeCommand(side: 'read' | 'write', idx: number): ItfeCommand {
    const r = this.region(`itfe_${side}.cmd`);
    const t = tryTable(r?.table ?? 'itfe_command');
    const cmd: ItfeCommand = { indir_mode: 0, x_table_base_addr: 0, y_table_base_addr: 0, bank_hash_dsbl: 0, num_indices_per_table_m1: 0, repeat_count_m1: 0 };
    if (!r || !t || !this.cfg) return this.itfeOverride[side][idx] ?? cmd;
    const buf = this.read(r.offset + idx * r.stride, r.stride);
    for (const k of Object.keys(cmd) as Array<keyof ItfeCommand>) if (t.byName.has(k)) cmd[k] = Number(readField(t, buf, k));
    return cmd;
  }
}
