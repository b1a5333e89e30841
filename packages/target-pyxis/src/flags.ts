/**
 * What the Pyxis chip means by the container's target-defined section flags
 * (@pyxis/container SectionFlags.target0..3). One flag so far: the section's
 * AMEM address is in the unhashed view (chip §7.5).
 */
import { SectionFlags, type TargetFlagNames } from '@pyxis/container';

export const PyxisSectionFlags = {
  /** The AMEM address is in the unhashed view (chip §7.5). */
  unhashed: SectionFlags.target0,
} as const;

/** The names `inspect` prints for them. */
export const pyxisSectionFlagNames: TargetFlagNames = { target0: 'unhashed' };
