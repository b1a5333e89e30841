/**
 * What the tools need to know of the Pyxis target before loading it: its
 * name, source extensions and command-line options. Kept free of imports (but
 * node:url) so registering the target costs nothing at start-up; a tool then
 * loads only the back end it runs (`pyxis-sim` never loads the assembler and
 * its parser, scripts/bench-startup.mjs).
 */
import { fileURLToPath } from 'node:url';
import type { OptionSpec, Target, TargetEntry, ToolKind } from '@pyxis/target';

export const PYXIS_TARGET_NAME = 'pyxis';
export const PYXIS_TITLE = 'Pyxis chip (4 clusters x 12 UIEs, 13 microcoded sequencers per UIE)';

export const pyxisOptions = {
  as: [] as readonly OptionSpec[],
  ld: [
    {
      flags: '--max-list-descriptors <n>',
      description: 'most descriptors per descriptor list; longer queues get several lists (default: 4096; a list never exceeds what the 16-bit descriptor_list_length addresses)',
      range: { min: 1, max: 65536 },
    },
  ] as readonly OptionSpec[],
  sim: [
    { flags: '--clusters <n>', description: 'clusters to simulate (default: what the image uses; full chip 4)', range: { min: 1, max: 4 } },
    { flags: '--uies <n>', description: 'UIEs per cluster (default: what the image uses; full chip 12)', range: { min: 0, max: 12 } },
    { flags: '--dump <SYMBOL[:f32]=FILE.npy>', description: 'dump a tensor symbol after the run (repeatable; systems: chipK:SYMBOL=FILE.npy)', repeatable: true },
    { flags: '--dump-region <SPACE:ADDR:LEN=FILE.bin>', description: 'dump raw bytes (SPACE = hbm, hbm_striped, amem[C], cfg[C]; repeatable)', repeatable: true },
    {
      flags: '--fabric-faults <SPEC>',
      description: 'systems (.psys): seeded fabric faults, e.g. drop:data:rate=0.01 (docs/system.md "Faults")',
    },
    { flags: '--warn-uninit', description: 'report reads of uninitialised AMEM/HBM as warnings with their addresses' },
    {
      flags: '--timing-only',
      description: 'skip the LLC grid arithmetic (cycles and data movement only, accumulators stay zero: grid outputs are not computed); the report says so',
    },
    {
      flags: '--quantum <n>',
      description: 'cycles a UIE may run ahead of the global clock when no trip can reach it (default: 256; 1 = strict lockstep; results are identical, see docs/simulator.md)',
      range: { min: 1, max: 1 << 20, unit: 'cycles' },
    },
  ] as readonly OptionSpec[],
  inspect: [
    {
      flags: '--patch-blob',
      description: 'read the file as an MPE patch blob (micro_patch_t headers + data, chip §12.6.1); without it, only a .blob/.bin file that decodes cleanly is taken for one',
    },
  ] as readonly OptionSpec[],
};

/** Name, title, specs and grammar folder: the part of the Target every tool gets. */
export const pyxisMeta: Pick<Target, 'name' | 'title' | 'specs' | 'grammars'> = {
  name: PYXIS_TARGET_NAME,
  title: PYXIS_TITLE,
  specs: ['pyxis-chip-fspec.md', 'pyxis-uie-sequencers-fspec.md'],
  // src/ and dist/ are both three levels below the repository root
  grammars: fileURLToPath(new URL('../../../grammars/pyxis/', import.meta.url)),
};

/** The part of the Target one tool runs, loaded on first use; the whole Target without a tool. */
async function loadPyxis(tool?: ToolKind): Promise<Target> {
  switch (tool) {
    case 'as':
      return { ...pyxisMeta, assembler: (await import('./assembler.js')).pyxisAssembler };
    case 'ld':
      return { ...pyxisMeta, linker: (await import('./linker.js')).pyxisLinker };
    case 'sim':
      return { ...pyxisMeta, machine: (await import('./machine.js')).pyxisMachine };
    case 'inspect':
      return { ...pyxisMeta, inspect: (await import('./inspect-hooks.js')).pyxisInspect };
    default:
      return (await import('./target.js')).pyxisTarget;
  }
}

/** The lazily loaded registry entry. */
export const pyxisEntry: TargetEntry = {
  name: PYXIS_TARGET_NAME,
  title: PYXIS_TITLE,
  sourceExtensions: ['.pasm'],
  options: pyxisOptions,
  load: loadPyxis,
};
