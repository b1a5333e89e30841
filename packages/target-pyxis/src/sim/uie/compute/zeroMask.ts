/**
 * The WDP zero-mask table (chip §6.2.4.3; seq §9.1.6): 4 entries of 8 x 16-bit H-lane masks, project layout of
 * grammars/pyxis/wdp_zero_mask.json (docs/spec-notes.md "switch tables": bit v of hlane_zero_mask[h] zeroes virtual
 * grid-row v of H-lane h, VGRs 0..7 on its first grid-row, 8..15 on its second). Read from the UIE config space
 * (memory_map.json region `wdp.zero_mask`) at WDP trip start when the config generation moved, without allocation
 * unless the bytes changed; `set` installs masks directly (tests/tools without a config space).
 */
import { loadTable, readField, type CompiledTable } from '@pyxis/codec';
import { loadMemoryMap, type MemoryMapRegion } from '../../../common/memoryMap.js';
import type { UieConfig } from '../config.js';

export class ZeroMasks {
  /** masks[entry * 8 + hlane] = hlane_zero_mask[hlane] of entry 0..3. */
  readonly masks = new Uint16Array(32);
  private gen = -1;
  private direct = false;
  private raw = new Uint8Array(0);
  private scratch = new Uint8Array(0);
  private region: MemoryMapRegion | undefined;
  private table: CompiledTable | undefined;

  /** Installs masks directly (entry 0..3, 8 H-lane masks); the config space is no longer read for them. */
  set(entry: number, hlaneMasks: ArrayLike<number>): void {
    for (let h = 0; h < 8; h++) this.masks[entry * 8 + h] = (hlaneMasks[h] ?? 0) & 0xffff;
    this.direct = true;
  }

  /** Re-reads the table from the config space when its generation moved and the bytes differ. */
  sync(cfg: UieConfig): void {
    const space = cfg.cfg;
    if (this.direct || !space) return;
    const g = space.generation ?? -2;
    if (g === this.gen && g !== -2) return;
    this.gen = g;
    if (!this.region) {
      this.region = loadMemoryMap().regions.get('wdp.zero_mask');
      this.table = loadTable('pyxis', this.region?.table ?? 'wdp_zero_mask');
    }
    const r = this.region;
    const t = this.table!;
    if (!r) return;
    const len = r.stride * r.words;
    if (this.scratch.length !== len) this.scratch = new Uint8Array(len);
    space.read(cfg.base + r.offset, this.scratch, 0, len);
    if (this.raw.length === len) {
      let same = true;
      for (let i = 0; i < len && same; i++) if (this.raw[i] !== this.scratch[i]) same = false;
      if (same) return;
    } else this.raw = new Uint8Array(len);
    this.raw.set(this.scratch);
    const n = Math.min(r.words, 4);
    for (let e = 0; e < n; e++) for (let h = 0; h < 8; h++) this.masks[e * 8 + h] = Number(readField(t, this.raw, 'hlane_zero_mask', h, e * r.stride));
  }
}
