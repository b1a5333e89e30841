/** The Pyxis inspect hooks: MPE patch blobs (a format without magic) and the names of its section flags. */
import type { InspectHooks } from '@pyxis/target';
import { pyxisOptions } from './entry.js';
import { patchBlobHint, pyxisRecords, sniffPatchBlob } from './inspect.js';
import { pyxisSectionFlagNames } from './flags.js';

export const pyxisInspect: InspectHooks = {
  options: pyxisOptions.inspect,
  sniff: sniffPatchBlob,
  hint: patchBlobHint,
  records: pyxisRecords,
  sectionFlags: pyxisSectionFlagNames,
};
