/**
 * What the tools need to know of the XNU target before loading it: name,
 * source extensions and command-line options. Free of imports so registering
 * the target costs nothing at start-up; `target.ts` is loaded on first use.
 */
import type { OptionSpec, Target, TargetEntry, ToolKind } from '@pyxis/target';

export const XNU_TARGET_NAME = 'xnu';
export const XNU_TITLE = 'XNU PEx8 similarity / dot-product engine (8 PEs, IEEE fp32 or int32, tree aggregation through PE_0)';

export const xnuOptions = {
  as: [] as readonly OptionSpec[],
  ld: [] as readonly OptionSpec[],
  sim: [
    // The flag string is shared with the other targets' --dump (the drivers declare each flag once): for XNU the
    // SYMBOL is a job name (its results, float32/int32 [num_vectors]) or JOB.topk (the top-k indices, int32 [k]).
    { flags: '--dump <SYMBOL[:f32]=FILE.npy>', description: "write a job's results (SYMBOL = JOB) or top-k indices (SYMBOL = JOB.topk) as .npy (repeatable)", repeatable: true },
    { flags: '--dump-all <DIR>', description: "write every job's results as DIR/JOB.npy and, for a job with top_k, its indices as DIR/JOB.topk.npy (DIR must exist)" },
    {
      flags: '--timing <model>',
      description: "aggregation cycles: `spec` = the spec's cycle table (56/53), `rtl` = the controller's own counter (39); see docs/timing-model.md",
      choices: ['spec', 'rtl'],
      default: 'spec',
    },
  ] as readonly OptionSpec[],
  inspect: [] as readonly OptionSpec[],
};

export const xnuEntry: TargetEntry = {
  name: XNU_TARGET_NAME,
  title: XNU_TITLE,
  sourceExtensions: ['.xasm'],
  options: xnuOptions,
  // `pyxis-sim` loads the machine alone (no assembler or linker, no @pyxis/asm, @pyxis/ld or Chevrotain); the rest the whole target.
  load: async (tool?: ToolKind): Promise<Target> => {
    if (tool === 'sim') {
      const m = await import('./machine-part.js');
      return { ...m.xnuMeta, machine: m.xnuMachine };
    }
    return (await import('./target.js')).xnuTarget;
  },
};
