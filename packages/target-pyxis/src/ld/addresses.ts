/**
 * The address encodings descriptors carry, in one place: AMEM partition
 * addresses ([25:4], chip §11.4.2), AMEM word addresses with the view bit
 * ([26:7], chip §7.1, §11.4.3) and 32-bit engine addresses (chip §12.7).
 * Nothing is masked here: a value wider than its descriptor field reaches the
 * codec's range check and becomes a diagnostic (LD0506) instead of a wrapped field.
 */
import { AMEM_PARTITION_BYTES, AMEM_VIEW_BIT, AMEM_WORD_BYTES } from '../common/amem.js';
import { CHIP, type LinkContext } from './context.js';
import { amemEngineAddress, hbmEngineAddress, HBM_WINDOW_SIZE } from './image.js';
import type { Placed } from './placement.js';

const PARTITION_SHIFT = Math.log2(AMEM_PARTITION_BYTES);
const WORD_SHIFT = Math.log2(AMEM_WORD_BYTES);

/**
 * floor(a / 2^shift), exact for any non-negative a. Below 2^31 (every valid
 * AMEM address) an integer shift, so descriptor values stay small integers
 * (the codec's hot path); larger values are divided, not wrapped.
 */
function shiftDown(a: number, shift: number): number {
  return a >= 0 && a < 2 ** 31 ? a >> shift : Math.floor(a / 2 ** shift);
}

/** AMEM byte address / 16: the partition-granular base address of a UIE port (bits [25:4]). */
export function amemPartitionAddress(p: Pick<Placed, 'address'>): number {
  return shiftDown(p.address, PARTITION_SHIFT);
}

/** (AMEM byte address + view bit) / 128: the word address [26:7] of DMA and RDMA descriptors. */
export function amemWordAddress(p: Pick<Placed, 'address' | 'region'>): number {
  return shiftDown(p.address + (p.region.unhashed ? AMEM_VIEW_BIT : 0), WORD_SHIFT);
}

/** 32-bit engine address of a placement (LD0507 when HBM beyond the 2 GiB the windows reach; then 0). */
export function engineAddress(ctx: LinkContext, p: Placed): number {
  if (p.region.space === 'amem') return amemEngineAddress(p.address, p.region.unhashed);
  const a = hbmEngineAddress(p.address + Math.max(0, p.size - 1));
  if (a === undefined) {
    ctx.r.err('LD0507', `${p.what} \`${p.name}\` at HBM 0x${p.address.toString(16)} is beyond the ${HBM_WINDOW_SIZE / 2 ** 30} GiB the DPE/MPE windows reach`, p.span, { spec: `${CHIP} §12.7` });
    return 0;
  }
  return hbmEngineAddress(p.address)!;
}
