/**
 * Decoded microcode by byte image (speed only): the UIEs of a chip mostly run the same programs, and decoding a
 * sequencer's control and op memories through @pyxis/codec is most of a trip start's cost. A decode whose tables,
 * strides and bytes equal a recent one copies that one's result instead — the same values `decodeControlStore` /
 * `decodeOpStore` would write (only the words they decode: pc < the words the bytes hold).
 */
import type { CompiledTable } from '@pyxis/codec';
import { decodeControlStore, emptyControlStore, NUM_ITERS, SEQ_DEPTH, type ControlStore } from './sequencerCore.js';
import { decodeOpStore, OpStore } from './tables.js';

interface Entry {
  ct: CompiledTable;
  ot: CompiledTable | undefined;
  ctlStride: number;
  opStride: number;
  ctl: Uint8Array;
  op: Uint8Array;
  control: ControlStore;
  opStore: OpStore | undefined;
}

/** Byte images remembered (round robin). */
const CACHE_ENTRIES = 16;
const cache: Entry[] = [];
let nextEntry = 0;

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Copies the first `d` words' decoded values of `src` into `dst` (what a decode of `d` words writes). */
function copyControl(src: ControlStore, dst: ControlStore, d: number): void {
  const n = d * NUM_ITERS;
  for (const k of ['isEol', 'solPc', 'numloops', 'numloopsFinal', 'finalIterMask', 'postFinalEn'] as const) dst[k].set(src[k].subarray(0, n));
  dst.eopgm.set(src.eopgm.subarray(0, d));
}

function copyOp(t: CompiledTable, src: OpStore, dst: OpStore, d: number): void {
  for (const f of t.fields) if (!f.reserved) dst.field(f.name).set(src.field(f.name).subarray(0, d * f.count));
}

/**
 * `decodeControlStore(ct, rawCtl, SEQ_DEPTH, ctlStride, control)` and, with an op table, `decodeOpStore(ot, rawOp,
 * SEQ_DEPTH, opStride, op)`: the decoded stores (`control`, and `op` or a new store). `opKey`: an object that stands
 * for the op store's whole content (every word decoded from these bytes) and is the same for every equal decode
 * (opFields.ts keeps the decode templates by it); undefined when the bytes do not hold every word.
 */
export function decodeMicrocode(
  ct: CompiledTable,
  ot: CompiledTable | undefined,
  rawCtl: Uint8Array,
  ctlStride: number,
  rawOp: Uint8Array,
  opStride: number,
  control: ControlStore,
  op: OpStore | undefined,
): { control: ControlStore; op: OpStore | undefined; opKey: object | undefined } {
  const dc = Math.min(SEQ_DEPTH, Math.floor(rawCtl.length / ctlStride));
  const dop = Math.min(SEQ_DEPTH, Math.floor(rawOp.length / opStride));
  const full = ot !== undefined && dop === SEQ_DEPTH;
  if (control.depth === SEQ_DEPTH && (!op || op.depth === SEQ_DEPTH))
    for (const e of cache) {
      if (e.ct !== ct || e.ot !== ot || e.ctlStride !== ctlStride || e.opStride !== opStride || !sameBytes(e.ctl, rawCtl) || !sameBytes(e.op, rawOp)) continue;
      copyControl(e.control, control, dc);
      if (!ot || !e.opStore) return { control, op, opKey: undefined };
      const o = op ?? new OpStore(ot, SEQ_DEPTH);
      copyOp(ot, e.opStore, o, dop);
      return { control, op: o, opKey: full ? e : undefined };
    }
  const c = decodeControlStore(ct, rawCtl, SEQ_DEPTH, ctlStride, control);
  const o = ot ? decodeOpStore(ot, rawOp, SEQ_DEPTH, opStride, op) : op;
  // the entry keeps its own copies (the UIE's stores are decoded into again at a later change)
  const e: Entry = { ct, ot, ctlStride, opStride, ctl: rawCtl.slice(), op: rawOp.slice(), control: emptyControlStore(SEQ_DEPTH), opStore: undefined };
  copyControl(c, e.control, dc);
  if (ot && o) {
    e.opStore = new OpStore(ot, SEQ_DEPTH);
    copyOp(ot, o, e.opStore, dop);
  }
  cache[nextEntry] = e;
  nextEntry = (nextEntry + 1) % CACHE_ENTRIES;
  return { control: c, op: o, opKey: full && o ? e : undefined };
}
