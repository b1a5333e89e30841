/**
 * What the tools need to know of the NeuronCore target before loading it (no imports, so
 * registering it costs nothing at start-up); `target.ts` is loaded on first use.
 */
import type { OptionSpec, Target, TargetEntry, ToolKind } from '@pyxis/target';

export const NC_TARGET_NAME = 'neuroncore';
export const NC_TITLE = 'NeuronCore-v2 (Trainium/Inferentia2): TensorE, VectorE, ScalarE, GpSimd, 16 DMA queues; cost-model timing';

export const ncOptions = {
  as: [] as readonly OptionSpec[],
  ld: [] as readonly OptionSpec[],
  sim: [
    { flags: '--timing-only', description: 'run the cost model without arithmetic (no memories: shapes too large to compute on a host)' },
    { flags: '--dump <SYMBOL[:f32]=FILE.npy>', description: 'dump a tensor symbol after the run (repeatable; NeuronCore: HBM tensors, always as float32 values, int32 as int32)', repeatable: true },
    { flags: '--warn-uninit', description: 'warn about reads of never-written SBUF/PSUM/HBM (they read as NaN either way)' },
  ] as readonly OptionSpec[],
  inspect: [] as readonly OptionSpec[],
};

export const neuroncoreEntry: TargetEntry = {
  name: NC_TARGET_NAME,
  title: NC_TITLE,
  sourceExtensions: ['.ncasm'],
  options: ncOptions,
  // `pyxis-sim` loads the machine alone (no assembler or linker, no @pyxis/asm, @pyxis/ld or Chevrotain); the rest the whole target.
  load: async (tool?: ToolKind): Promise<Target> => {
    if (tool === 'inspect') {
      const [m, d] = await Promise.all([import('./machine-part.js'), import('./docs.js')]);
      return { ...m.ncMeta, inspect: d.ncInspect };
    }
    if (tool === 'sim') {
      const m = await import('./machine-part.js');
      return { ...m.ncMeta, machine: m.ncMachine };
    }
    return (await import('./target.js')).neuroncoreTarget;
  },
};
