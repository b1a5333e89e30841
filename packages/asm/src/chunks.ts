/**
 * Large text outputs (listings, disassemblies) as a stream of chunks instead of one string: a 1,000,000-line
 * listing is ~80 MB of text, which as one string (plus the array of its lines) costs several times that in
 * memory. Producers yield lines; `joinLines` batches them into chunks whose concatenation is exactly
 * `[...lines].join('\n')`, and the driver writes each chunk as it comes.
 */

/** Characters per chunk (about 64 KiB of text). */
export const CHUNK_CHARS = 1 << 16;

/** The lines joined with `\n` (as `Array.join`), yielded in chunks of about `size` characters. */
export function* joinLines(lines: Iterable<string>, size: number = CHUNK_CHARS): Generator<string> {
  let buf = '';
  let first = true;
  for (const l of lines) {
    buf += first ? l : '\n' + l;
    first = false;
    if (buf.length >= size) {
      yield buf;
      buf = '';
    }
  }
  if (buf.length) yield buf;
}

/** All chunks as one string (for callers that want the whole text, and tests). */
export function concatChunks(chunks: Iterable<string>): string {
  let s = '';
  for (const c of chunks) s += c;
  return s;
}
