import { UsageError } from './diagnostic.js';

/**
 * Edit distance with adjacent transpositions counted as one edit (optimal string alignment: Levenshtein plus
 * swaps), small inputs only (names, mnemonics): `gleu` is one edit from `gelu`, the commonest typo of a short name.
 */
export function editDistance(a: string, b: string): number {
  const m = a.length;
  const n = b.length;
  let prev2 = new Array<number>(n + 1);
  let prev = new Array<number>(n + 1);
  let cur = new Array<number>(n + 1);
  for (let j = 0; j <= n; j++) prev[j] = j;
  for (let i = 1; i <= m; i++) {
    cur[0] = i;
    for (let j = 1; j <= n; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let d = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a.charCodeAt(i - 1) === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1)) d = Math.min(d, prev2[j - 2]! + 1);
      cur[j] = d;
    }
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return prev[n]!;
}

/** The candidate nearest to `name` if it is close enough to be a plausible typo. */
export function nearest(name: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  const lower = name.toLowerCase();
  for (const c of candidates) {
    const d = editDistance(lower, c.toLowerCase());
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  if (best === undefined) return undefined;
  const limit = Math.max(1, Math.floor(Math.max(name.length, best.length) / 3));
  // a whole-name substitution (`Q` for `X`) is no typo
  return bestD <= limit && bestD < Math.max(name.length, best.length) ? best : undefined;
}

/** "did you mean `x`?" note, or nothing. */
export function didYouMean(name: string, candidates: Iterable<string>): string[] {
  const n = nearest(name, candidates);
  return n ? [`help: did you mean \`${n}\`?`] : [];
}

/** At most this many names are listed after an unknown one (an image may hold thousands of symbols). */
const MAX_NAMES_LISTED = 20;

/**
 * A name given in a command-line option that the input does not hold (a tensor to `--dump`, a job, a model input or
 * output to `--compare`): a usage error (exit 2), like every other option value that cannot be used, in every target
 * alike. Its notes: did-you-mean, then the names there are (the first 20).
 * `unknownName('--dump', 'tensor', 'outt', 'the image', ['out', 'src'])` reads
 * "--dump: no tensor `outt` in the image" / "did you mean `out`?" / "tensors in the image: out, src".
 */
export function unknownName(option: string, what: string, name: string, where: string, candidates: readonly string[]): UsageError {
  // a name written without its suffix (Tensil's `y` for `y:0`) is no typo for the edit distance: the one name it begins
  const prefixed = candidates.filter((c) => c.startsWith(name));
  const near = nearest(name, candidates) ?? (name && prefixed.length === 1 ? prefixed[0] : undefined);
  const shown = candidates.slice(0, MAX_NAMES_LISTED).join(', ');
  const more = candidates.length > MAX_NAMES_LISTED ? `, ... (${candidates.length} in all)` : '';
  return new UsageError(`${option}: no ${what} \`${name}\` in ${where}`, [
    ...(near !== undefined ? [`did you mean \`${near}\`?`] : []),
    candidates.length ? `${what}s in ${where}: ${shown}${more}` : `${where} has no ${what}s`,
  ]);
}
