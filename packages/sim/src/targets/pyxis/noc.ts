/**
 * The NoC address map and the 32-bit engine-address remapping of the DPE and
 * MPE (chip §12.7; addresses per docs/image-layout.md): HBM at NoC
 * 0x00_0000_0000 (HBM byte address = NoC address), AMEM of cluster c at
 * 0x10_0000_0000 + c*0x1000_0000 (27 bits including the view bit), the
 * CSR/config window of cluster c at 0x20_0000_0000 + c*0x4000_0000.
 */
import type { AmemAccess } from './amemAccess.js';
import type { CfgSpace } from './cfgSpace.js';
import type { HbmMemory } from './memory.js';

export const NOC_ADDR_W = 39;
export const NOC_HBM = 0x00_0000_0000;
export const NOC_AMEM = 0x10_0000_0000;
export const NOC_AMEM_STRIDE = 0x1000_0000;
export const NOC_CFG = 0x20_0000_0000;
export const NOC_CFG_STRIDE = 0x4000_0000;

export interface RemapWindow {
  base: bigint;
  mask: bigint;
}

/** `noc = (eng[29:0] & mask) | (base & ~mask)` with base/mask selected by eng[31:30] (chip §12.7). */
export function remapEngineAddress(eng: number, windows: readonly RemapWindow[]): number {
  const e = BigInt(eng >>> 0);
  const w = windows[Number(e >> 30n)]!;
  const full = (1n << BigInt(NOC_ADDR_W)) - 1n;
  const noc = (e & 0x3fff_ffffn & w.mask) | (w.base & ~w.mask & full);
  return Number(noc);
}

/** The default windows of docs/image-layout.md for `cluster` (used when the image gives none). */
export function defaultWindows(cluster: number): RemapWindow[] {
  return [
    { base: BigInt(NOC_AMEM + cluster * NOC_AMEM_STRIDE), mask: 0x07ff_ffffn },
    { base: BigInt(NOC_CFG + cluster * NOC_CFG_STRIDE), mask: 0x3fff_ffffn },
    { base: 0n, mask: 0x3fff_ffffn },
    { base: 0x4000_0000n, mask: 0x3fff_ffffn },
  ];
}

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
      if (c >= this.amem.length || a + len > 1 << 27) return undefined;
      if ((a & ((1 << 26) - 1)) + len > 1 << 26) return undefined;
      return { space: 'amem', cluster: c, addr: a };
    }
    const c = Math.floor((noc - NOC_CFG) / NOC_CFG_STRIDE);
    const a = noc - NOC_CFG - c * NOC_CFG_STRIDE;
    if (c >= this.cfg.length || a + len > NOC_CFG_STRIDE) return undefined;
    return { space: 'cfg', cluster: c, addr: a };
  }

  read(t: NocTarget, len: number): Uint8Array {
    if (t.space === 'hbm') return this.hbm.readBytes(t.addr, len);
    if (t.space === 'amem') return this.amem[t.cluster]!.readBytes(t.addr, len);
    return this.cfg[t.cluster]!.readBytes(t.addr, len);
  }

  write(t: NocTarget, data: Uint8Array): void {
    if (t.space === 'hbm') this.hbm.writeBytes(t.addr, data);
    else if (t.space === 'amem') this.amem[t.cluster]!.writeBytes(t.addr, data);
    else this.cfg[t.cluster]!.writeBytes(t.addr, data);
  }
}
