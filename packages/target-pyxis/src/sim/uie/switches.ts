/**
 * The UIE's data switches on one flit (chip §6.2.1.1-§6.2.1.3 read side, §6.2.2.3-§6.2.2.5 write side): the
 * partition switch (PSW) on AMEM port lanes, the zipper switch (ZSW) and the column switch with its column override
 * mask (CSW) on 16-bit columns. Tables are the decoded SwitchTables (tables.ts); codepoints by name (codes.ts).
 */
import * as codes from './codes.js';
import type { SwitchTables } from './tables.js';

// Hot-path bindings as module-local constants: V8 checks every read of an imported binding for TDZ (a measured
// +13% instructions per flit); destructured once at load, they cost nothing. Cycle-free: no import below imports this file.
const { MASK_MAX_NEG, MASK_ZERO, MUX_NEXT, MUX_PREV, ZSW_UNZIP, ZSW_ZIP } = codes;

/** Partition switch (chip §6.2.1.1): out[o] = ptn_zero[o] ? 0 : in[src_ptn[o]]; both serialization cycles for 16-bit. idx < 0: identity (reset state). */
export function applyPsw(t: SwitchTables, idx: number, src: Uint8Array, dst: Uint8Array, wide: boolean): void {
  const cycles = wide ? 2 : 1;
  for (let c = 0; c < cycles; c++)
    for (let o = 0; o < 8; o++) {
      const base = c * 128 + o * 16;
      if (idx >= 0 && t.pswZero[idx * 8 + o]) {
        dst.fill(0, base, base + 16);
        continue;
      }
      const sp = idx >= 0 ? t.pswSrc[idx * 8 + o]! : o;
      dst.set(src.subarray(c * 128 + sp * 16, c * 128 + sp * 16 + 16), base);
    }
  if (!wide) dst.fill(0, 128, 256);
}

/** Zipper switch (chip §6.2.1.2) per partition pair: 1 = Unzip (evens to the lower partition, odds to the upper), 2 = Zip (interleave). In place. */
export function applyZsw(mode: number, cols: Uint16Array, tmp: Uint16Array): void {
  if (mode !== ZSW_UNZIP && mode !== ZSW_ZIP) return;
  tmp.set(cols);
  for (let pair = 0; pair < 4; pair++) {
    const b = pair * 32;
    for (let i = 0; i < 16; i++) {
      if (mode === ZSW_UNZIP) {
        cols[b + i] = tmp[b + 2 * i]!;
        cols[b + 16 + i] = tmp[b + 2 * i + 1]!;
      } else {
        cols[b + 2 * i] = tmp[b + i]!;
        cols[b + 2 * i + 1] = tmp[b + 16 + i]!;
      }
    }
  }
}

/**
 * Column switch (chip §6.2.1.3): per output column 16p+c, the 3:1 mux picks
 * input column c of partition p, p-1 (Prev_Ptn) or p+1 (Next_Ptn) (zero beyond
 * the edges); the butterfly delivers mux column `col_src` to c; then the
 * column override mask (Zero / Max_Negative = RFP16 -max 0xFFFF). idx < 0: identity.
 */
export function applyCsw(t: SwitchTables, idx: number, maskIdx: number, cols: Uint16Array, tmp: Uint16Array): void {
  if (idx >= 0) {
    tmp.set(cols);
    for (let p = 0; p < 8; p++)
      for (let c = 0; c < 16; c++) {
        const k = idx * 128 + p * 16 + c;
        const srcCol = t.cswSrc[k]! & 15;
        // the mux select is per (partition, mux column): use the select of the column being picked
        const sel = t.cswMux[idx * 128 + p * 16 + srcCol]!;
        const sp = sel === MUX_PREV ? p - 1 : sel === MUX_NEXT ? p + 1 : p;
        cols[p * 16 + c] = sp < 0 || sp > 7 ? 0 : tmp[sp * 16 + srcCol]!;
      }
  }
  const mb = (maskIdx & 3) * 128;
  if (t.colMaskActive && !t.colMaskActive[maskIdx & 3]) return;
  for (let c = 0; c < 128; c++) {
    const m = t.colMask[mb + c]!;
    if (m === MASK_ZERO) cols[c] = 0;
    else if (m === MASK_MAX_NEG) cols[c] = 0xffff;
  }
}
