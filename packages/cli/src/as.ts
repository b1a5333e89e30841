import { runTool, type ToolIO } from './tool.js';

/** pyxis-as: the assembler driver. The work lives in @pyxis/asm. */
export function runAs(argv: string[], io?: ToolIO): Promise<number> {
  return runTool('pyxis-as', 'Pyxis microcode assembler: .pasm source -> .pobj objects, listings, patch blobs, IR', (program, ctx) => {
    program.argument('[source...]', 'assembly source files').action(() => {
      void ctx;
    });
  }, argv, io);
}
