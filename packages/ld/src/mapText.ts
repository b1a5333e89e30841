/**
 * GNU-ld-style map text: titled blocks of fixed-width columns. Target-neutral:
 * a back end decides the blocks and columns, this keeps the layout rules
 * (one blank line around each title, columns padded to a width and always
 * separated by at least one space, addresses as zero-padded hex).
 */

/** `0x` + `n` in hex, zero-padded to `digits`. */
export function mapHex(n: number, digits = 8): string {
  return '0x' + n.toString(16).padStart(digits, '0');
}

/** `s` padded to `width` columns, with at least one trailing space. */
export function mapPad(s: string, width: number): string {
  return s.length >= width ? s + ' ' : s + ' '.repeat(width - s.length);
}

export class MapTextWriter {
  private readonly lines: string[] = [];

  /** A block title, separated from what precedes and follows by one blank line. */
  heading(title: string): this {
    if (this.lines.length && this.lines[this.lines.length - 1] !== '') this.lines.push('');
    this.lines.push(title, '');
    return this;
  }

  /** One row: each `[text, width]` cell padded to its width, then `last` unpadded. */
  row(cells: ReadonlyArray<readonly [string, number]>, last = ''): this {
    this.lines.push(cells.map(([s, w]) => mapPad(s, w)).join('') + last);
    return this;
  }

  /**
   * A table: a header row (`columns`: title and minimum width, then `lastTitle` unpadded) and `rows` of cells and
   * a last unpadded cell; each column is as wide as its longest cell plus one space (at least its minimum), so a
   * long name shifts the whole column instead of one row.
   */
  table(columns: ReadonlyArray<readonly [string, number]>, lastTitle: string, rows: ReadonlyArray<readonly [readonly string[], string]>): this {
    const widths = columns.map(([t, min], i) => Math.max(min, t.length + 1, ...rows.map(([cells]) => (cells[i] ?? '').length + 1)));
    this.row(columns.map(([t], i) => [t, widths[i]!] as const), lastTitle);
    for (const [cells, last] of rows) this.row(cells.map((c, i) => [c, widths[i]!] as const), last);
    return this;
  }

  /** A free-form line. */
  line(text: string): this {
    this.lines.push(text);
    return this;
  }

  /** The text, newline-terminated. */
  text(): string {
    return this.lines.join('\n') + '\n';
  }
}
