import { runTool, type ToolIO } from './tool.js';

/** pyxis-ld: the linker driver. The work lives in @pyxis/ld. */
export function runLd(argv: string[], io?: ToolIO): Promise<number> {
  return runTool('pyxis-ld', 'Pyxis linker: objects + tensors + link script -> loadable .pimg image', (program, ctx) => {
    program.argument('[inputs...]', 'object files and link scripts').action(() => {
      void ctx;
    });
  }, argv, io);
}
