import { runTool, type ToolIO } from './tool.js';

/** pyxis-sim: the simulator driver. The work lives in @pyxis/sim. */
export function runSim(argv: string[], io?: ToolIO): Promise<number> {
  return runTool('pyxis-sim', 'Pyxis chip simulator: run a .pimg image and report cycles, traces and memory dumps', (program, ctx) => {
    program.command('run').argument('<image>', '.pimg image').action(() => {
      void ctx;
    });
  }, argv, io);
}
