/** Calling a tool driver in-process with captured output (the CLI robustness tests). */
export type Run = (argv: string[], io?: { stdout(s: string): void; stderr(s: string): void }) => Promise<number>;

/** Runs `tool` with `--no-color` and `args`; its exit code and what it wrote. */
export async function call(tool: Run, args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await tool(['--no-color', ...args], { stdout: (s) => (out += s), stderr: (s) => (err += s) });
  return { code, out, err };
}
