/**
 * What the tools need to know of the systolic target before loading it: its
 * name, the extensions it claims (`.tasm` sources, Tensil `.tmodel` manifests,
 * which the linker takes as its script and the simulator runs directly) and
 * its options. Free of imports so registering it costs nothing.
 */
import type { OptionSpec, Target, TargetEntry, ToolKind } from '@pyxis/target';

export const SYSTOLIC_TARGET_NAME = 'systolic';
export const SYSTOLIC_TITLE = 'Systolic-array FPGA accelerator (Tensil-compatible: .tarch/.tprog/.tdata/.tmodel)';

const arch: OptionSpec = { flags: '--arch <file.tarch>', description: 'architecture (.tarch JSON); default: the one in the .tmodel / image' };

export const systolicOptions = {
  as: [{ ...arch, description: 'architecture (.tarch JSON) the program is encoded for (required to assemble)' }] as readonly OptionSpec[],
  ld: [
    arch,
    { flags: '--input <NAME=FILE>', description: 'pack an input tensor into the image (DRAM0 at the manifest\'s base): FILE.npy quantised to the data type (max abs and RMS error reported), or raw FILE.tdata (repeatable)', repeatable: true },
    { flags: '--dram0 <file>', description: 'also write the DRAM0 image (the packed inputs, raw fixed point from vector 0)' },
    { flags: '--dram1 <file>', description: 'also write the DRAM1 image (the constants, raw fixed point from vector 0)' },
    { flags: '--tmodel <file.tmodel>', description: 'also write a Tensil manifest with its .tprog and one .tdata of every constant next to it' },
  ] as readonly OptionSpec[],
  sim: [
    arch,
    { flags: '--input <NAME=FILE>', description: 'an input tensor by its manifest name (e.g. x:0=img.npy): .npy floats are converted to the data type, integer .npy and .tdata are raw fixed point (repeatable)', repeatable: true },
    { flags: '--output <NAME=FILE.npy>', description: 'write an output by its manifest name as float32 .npy after the run (repeatable)', repeatable: true },
    { flags: '--samples <file.bin>', description: 'write the performance samples (64-bit little-endian words, spec §5) taken at the Configure sample interval' },
  ] as readonly OptionSpec[],
  inspect: [{ ...arch, description: 'architecture to decode a bare .tprog with (a .tmodel carries its own)' }] as readonly OptionSpec[],
};

export const systolicEntry: TargetEntry = {
  name: SYSTOLIC_TARGET_NAME,
  title: SYSTOLIC_TITLE,
  sourceExtensions: ['.tasm', '.tmodel'],
  options: systolicOptions,
  // `pyxis-sim` loads the machine alone (no assembler, no @pyxis/asm or Chevrotain); the rest the whole target.
  load: async (tool?: ToolKind): Promise<Target> => {
    if (tool === 'sim') {
      const m = await import('./machine-part.js');
      return { ...m.systolicMeta, machine: m.systolicMachine };
    }
    return (await import('./target.js')).systolicTarget;
  },
};
