import { closeSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';

/** Where streamed trace/VCD text goes. Writers call `write` often with small strings. */
export interface TextSink {
  write(s: string): void;
  /** Flushes and finalises the output. */
  close(): void;
  /** Discards the output (no partial file is left behind). */
  abort(): void;
}

/**
 * Buffered file sink: text is batched into ~64 KiB chunks so memory stays
 * bounded however long the run, and written to `<path>.partial`, renamed onto
 * `path` only by `close()`; `abort()` removes it, so a failed run never leaves
 * a truncated file at the requested path.
 */
export class FileSink implements TextSink {
  private fd: number | undefined;
  private parts: string[] = [];
  private size = 0;
  private readonly tmp: string;
  constructor(
    readonly path: string,
    private readonly chunk = 1 << 16,
  ) {
    this.tmp = `${path}.partial`;
    this.fd = openSync(this.tmp, 'w');
  }
  write(s: string): void {
    this.parts.push(s);
    this.size += s.length;
    if (this.size >= this.chunk) this.flush();
  }
  flush(): void {
    if (this.fd === undefined || this.parts.length === 0) return;
    writeSync(this.fd, this.parts.join(''));
    this.parts = [];
    this.size = 0;
  }
  close(): void {
    if (this.fd === undefined) return;
    this.flush();
    closeSync(this.fd);
    this.fd = undefined;
    renameSync(this.tmp, this.path);
  }
  abort(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
    rmSync(this.tmp, { force: true });
  }
}

/** In-memory sink (tests, small runs). */
export class StringSink implements TextSink {
  private parts: string[] = [];
  closed = false;
  write(s: string): void {
    this.parts.push(s);
  }
  close(): void {
    this.closed = true;
  }
  abort(): void {
    this.parts = [];
    this.closed = true;
  }
  get text(): string {
    return this.parts.join('');
  }
}
