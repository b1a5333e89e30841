/**
 * The tools' version, and the start-up fast path of the `bin/` launchers:
 * `pyxis-as --version` (or `-V`) alone is answered here, before the drivers,
 * commander and the target registry are loaded (issue 15: CI scripts call the
 * tools thousands of times; scripts/bench-startup.mjs). This module imports nothing.
 */
export const VERSION = '0.1.0';

/** What `--version` prints: the tool, the version and the registered targets (first = the default). */
export function versionText(tool: string, targets: readonly string[]): string {
  return `${tool} ${VERSION}${targets.length ? ` (targets: ${targets.join(', ')})` : ''}`;
}

/**
 * Answers a command line that asks only for the version (exactly `--version`
 * or `-V`, as commander would) and returns true; any other command line is
 * left to the driver (false). `write` is stdout.
 */
export function answerVersion(
  argv: readonly string[],
  write: (s: string) => void = (s) => void process.stdout.write(s),
  tool = 'the tool',
  targets: readonly string[] = [],
): boolean {
  if (argv.length !== 1 || (argv[0] !== '--version' && argv[0] !== '-V')) return false;
  write(`${versionText(tool, targets)}\n`);
  return true;
}
