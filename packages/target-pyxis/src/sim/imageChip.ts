/**
 * The chip an image runs on: sized and remapped from the image model (imageModel.ts), then loaded from it. The
 * single-chip run (run.ts), the chips of a system (fabric/systemRun.ts, parallel/chipPartition.ts) and the static
 * system checks (fabric/systemChecks.ts) all build their chips here.
 */
import { PyxisChip, type ChipOptions } from './chip.js';
import { loadImage } from './image.js';
import { chipSize, type ImageModel } from './imageModel.js';

/** ChipOptions without what the image gives (size, remap windows); `clusters` / `uies` override the image's size. */
export type ImageChipOptions = Omit<ChipOptions, 'clusters' | 'uies' | 'remap'> & { clusters?: number | undefined; uies?: number | undefined };

/** A chip for `image` (its size checked by `chipSize`, its remap windows), not loaded yet. */
export function chipFor(image: ImageModel, opts: ImageChipOptions): PyxisChip {
  const { clusters, uies } = chipSize(image, opts);
  const { clusters: _c, uies: _u, ...rest } = opts;
  return new PyxisChip({ ...rest, clusters, uies, ...(image.remap ? { remap: image.remap } : {}) });
}

/** A chip for `image`, loaded, its memory counters zeroed (they describe the run, not the load). */
export function loadedChipFor(image: ImageModel, opts: ImageChipOptions): PyxisChip {
  const chip = chipFor(image, opts);
  loadImage(chip, image);
  resetMemoryCounters(chip);
  return chip;
}

/** Zeroes the memory traffic counters (HBM, AMEM, bank statistics). */
export function resetMemoryCounters(chip: PyxisChip): void {
  chip.hbm.bytesRead = chip.hbm.bytesWritten = chip.hbm.uninitReads = 0;
  for (const a of chip.amem) {
    a.stats.bytesRead = a.stats.bytesWritten = a.stats.uninitReads = 0;
    a.stats.bankAccesses.fill(0);
    a.banks.resetStats();
  }
}
