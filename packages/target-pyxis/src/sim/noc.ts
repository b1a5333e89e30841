/**
 * The NoC address map and the 32-bit engine-address remapping of the DPE and
 * MPE (chip §12.7; addresses per docs/image-layout.md): HBM at NoC
 * 0x00_0000_0000 (HBM byte address = NoC address), AMEM of cluster c at
 * 0x10_0000_0000 + c*0x1000_0000 (27 bits including the view bit), the
 * CSR/config window of cluster c at 0x20_0000_0000 + c*0x4000_0000. These
 * numbers are data in grammars/pyxis/noc_map.json, which the linker reads too.
 */
import { defaultRemapWindows, loadNocMap, nocRegion, remapEngineAddress, type NocRemapWindow } from '../common/nocMap.js';
import type { AmemAccess } from './amemAccess.js';
import type { CfgSpace } from './cfgSpace.js';
import type { HbmMemory } from './memory.js';
import { AMEM_BYTES, AMEM_VIEW_BIT } from '../common/amem.js';

export const NOC_ADDR_W: number = loadNocMap().noc_addr_w;
export const NOC_HBM: number = Number(nocRegion('hbm').base);
export const NOC_AMEM: number = Number(nocRegion('amem').base);
export const NOC_AMEM_STRIDE: number = Number(nocRegion('amem').stride);
/** Address bits of one cluster's AMEM region, the view bit included. */
export const NOC_AMEM_WIDTH: number = nocRegion('amem').width ?? 27;
export const NOC_CFG: number = Number(nocRegion('cfg').base);
export const NOC_CFG_STRIDE: number = Number(nocRegion('cfg').stride);

/** A remap window (chip §12.7); shared with the linker through @pyxis/codec. */
export type RemapWindow = NocRemapWindow;
export { remapEngineAddress };

/** The default windows of docs/image-layout.md for `cluster` (used when the image gives none). */
export const defaultWindows = defaultRemapWindows;

export type NocTarget = { space: 'hbm'; cluster: -1; addr: number } | { space: 'amem' | 'cfg'; cluster: number; addr: number };

export class NocMap {
  constructor(
    readonly hbm: HbmMemory,
    readonly amem: readonly AmemAccess[],
    readonly cfg: readonly CfgSpace[],
  ) {}

  /** Decodes a NoC address range; undefined when it is not inside one modelled memory. */
  resolve(noc: number, len: number): NocTarget | undefined {
    if (noc < NOC_AMEM) {
      if (noc + len > this.hbm.size) return undefined;
      return { space: 'hbm', cluster: -1, addr: noc };
    }
    if (noc < NOC_CFG) {
      const c = Math.floor((noc - NOC_AMEM) / NOC_AMEM_STRIDE);
      const a = noc - NOC_AMEM - c * NOC_AMEM_STRIDE;
      if (c >= this.amem.length || a + len > 2 ** NOC_AMEM_WIDTH) return undefined;
      if ((a & (AMEM_VIEW_BIT - 1)) + len > AMEM_BYTES) return undefined;
      return { space: 'amem', cluster: c, addr: a };
    }
    const c = Math.floor((noc - NOC_CFG) / NOC_CFG_STRIDE);
    const a = noc - NOC_CFG - c * NOC_CFG_STRIDE;
    if (c >= this.cfg.length || a + len > NOC_CFG_STRIDE) return undefined;
    return { space: 'cfg', cluster: c, addr: a };
  }

  /**
   * The bytes at `t`; an AMEM access is made as bank client `client` (amem/banks.ts) and `servedAt` says when it was
   * served (the cycle the caller asked for anything that does not touch AMEM).
   */
  read(t: NocTarget, len: number, client?: number): Uint8Array {
    this.servedAt = -1;
    if (t.space === 'hbm') return this.hbm.readBytes(t.addr, len);
    if (t.space === 'amem') {
      const a = this.amem[t.cluster]!;
      const r = a.readBytes(t.addr, len, client);
      this.servedAt = a.servedAt ?? -1;
      return r;
    }
    return this.cfg[t.cluster]!.readBytes(t.addr, len);
  }

  /** See `read`. */
  servedAt = -1;
  write(t: NocTarget, data: Uint8Array, client?: number): void {
    this.servedAt = -1;
    if (t.space === 'hbm') this.hbm.writeBytes(t.addr, data);
    else if (t.space === 'amem') {
      const a = this.amem[t.cluster]!;
      a.writeBytes(t.addr, data, client);
      this.servedAt = a.servedAt ?? -1;
    }
    else this.cfg[t.cluster]!.writeBytes(t.addr, data);
  }
}
