/**
 * What the tools need to know of the Pyxis target before loading it: its
 * name, source extensions and command-line options. Kept free of imports so
 * registering the target costs nothing at start-up; `target.ts` is loaded on
 * first use.
 */
import type { OptionSpec, TargetEntry } from '@pyxis/target';

export const PYXIS_TARGET_NAME = 'pyxis';
export const PYXIS_TITLE = 'Pyxis chip (4 clusters x 12 UIEs, 13 microcoded sequencers per UIE)';

export const pyxisOptions = {
  as: [] as readonly OptionSpec[],
  ld: [
    { flags: '--max-list-descriptors <n>', description: 'most descriptors per descriptor list; longer queues get several lists (default: 4096)' },
  ] as readonly OptionSpec[],
  sim: [
    { flags: '--clusters <n>', description: 'clusters to simulate (default: what the image uses; full chip 4)' },
    { flags: '--uies <n>', description: 'UIEs per cluster (default: what the image uses; full chip 12)' },
    { flags: '--dump <SYMBOL[:f32]=FILE.npy>', description: 'dump a tensor symbol after the run (repeatable)', repeatable: true },
    { flags: '--dump-region <SPACE:ADDR:LEN=FILE.bin>', description: 'dump raw bytes (SPACE = hbm, hbm_striped, amem[C], cfg[C]; repeatable)', repeatable: true },
    { flags: '--warn-uninit', description: 'report reads of uninitialised AMEM/HBM as warnings with their addresses' },
    {
      flags: '--quantum <n>',
      description: 'cycles a UIE may run ahead of the global clock when no trip can reach it (default: 256; 1 = strict lockstep; results are identical, see docs/simulator.md)',
    },
  ] as readonly OptionSpec[],
  inspect: [
    {
      flags: '--patch-blob',
      description: 'read the file as an MPE patch blob (micro_patch_t headers + data, chip §12.6.1); without it, only a .blob/.bin file that decodes cleanly is taken for one',
    },
  ] as readonly OptionSpec[],
};

/** The lazily loaded registry entry. */
export const pyxisEntry: TargetEntry = {
  name: PYXIS_TARGET_NAME,
  title: PYXIS_TITLE,
  sourceExtensions: ['.pasm'],
  options: pyxisOptions,
  load: async () => (await import('./target.js')).pyxisTarget,
};
