/**
 * Registry of source texts so the renderer can print the offending line under
 * `file:line:col`. Parsers register each file (including `.include`d ones).
 */
export class SourceMap {
  private readonly texts = new Map<string, string>();
  private readonly lineStarts = new Map<string, number[]>();

  add(file: string, text: string): void {
    this.texts.set(file, text);
    this.lineStarts.delete(file);
  }
  /** Every registered file, in registration order (the driver checks outputs against `.include`d files too). */
  files(): string[] {
    return [...this.texts.keys()];
  }
  has(file: string): boolean {
    return this.texts.has(file);
  }
  text(file: string): string | undefined {
    return this.texts.get(file);
  }
  /** The text of 1-based line `line` without its newline. */
  line(file: string, line: number): string | undefined {
    const text = this.texts.get(file);
    if (text === undefined) return undefined;
    const starts = this.starts(file, text);
    if (line < 1 || line > starts.length) return undefined;
    const begin = starts[line - 1]!;
    const end = line < starts.length ? starts[line]! - 1 : text.length;
    return text.slice(begin, end).replace(/\r$/, '');
  }
  /** Converts a 0-based character offset into a 1-based line/column. */
  position(file: string, offset: number): { line: number; column: number } {
    const text = this.texts.get(file) ?? '';
    const starts = this.starts(file, text);
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - starts[lo]! + 1 };
  }
  private starts(file: string, text: string): number[] {
    let s = this.lineStarts.get(file);
    if (!s) {
      s = [0];
      for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) s.push(i + 1);
      this.lineStarts.set(file, s);
    }
    return s;
  }
}
