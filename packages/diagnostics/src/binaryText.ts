/** Binary input given where a text (a source, a link script) was expected: found in the decoded text, reported once. */

/** Characters of a source examined for binary content (NUL / invalid UTF-8). */
export const BINARY_SNIFF_CHARS = 8192;

/**
 * Detects binary input in already-decoded text: a NUL character, or U+FFFD
 * (what TextDecoder substitutes for invalid UTF-8), in the first
 * BINARY_SNIFF_CHARS characters. `offset` is the byte offset in the UTF-8
 * file (the prefix before the first hit is valid UTF-8, so it is exact).
 */
export function binaryTextProblem(text: string): { offset: number; what: 'NUL byte' | 'invalid UTF-8' } | undefined {
  const n = Math.min(text.length, BINARY_SNIFF_CHARS);
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0 || c === 0xfffd) {
      const offset = new TextEncoder().encode(text.slice(0, i)).length;
      return { offset, what: c === 0 ? 'NUL byte' : 'invalid UTF-8' };
    }
  }
  return undefined;
}

export function binaryMessage(file: string, bin: { offset: number; what: string }, expected: string): string {
  return bin.what === 'NUL byte'
    ? `\`${file}\` looks like a binary file (NUL byte at offset ${bin.offset}); expected ${expected}`
    : `\`${file}\` is not UTF-8 text (invalid UTF-8 at offset ${bin.offset}); expected ${expected} in UTF-8`;
}
