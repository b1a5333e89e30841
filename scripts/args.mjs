/**
 * Command-line arguments of the scripts: `--name N` as a positive integer, or the default when the flag is
 * absent; anything else stops the script with a usage message (exit 2).
 */
export function intArg(argv, name, dflt) {
  const i = argv.indexOf(name);
  if (i < 0) return dflt;
  const v = argv[i + 1];
  const n = Number(v);
  if (v === undefined || !Number.isInteger(n) || n < 1) {
    const e = new Error(`${name} expects a positive integer, got ${v === undefined ? 'nothing' : `\`${v}\``}`);
    e.usage = true;
    throw e;
  }
  return n;
}
