/** File-system helpers shared by every tool that writes outputs. */
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { readContainer } from './reader.js';
import { writeContainer } from './writer.js';
import type { Container } from './model.js';

let counter = 0;

/**
 * Writes `data` to `path` atomically: the bytes go to a temporary file in the
 * same directory which is then renamed over `path`. On any error the
 * temporary file is removed, so a failed run never leaves a partial output.
 */
export function writeFileAtomic(path: string, data: Uint8Array | string): void {
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${++counter}.tmp`);
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  let fd: number | undefined;
  try {
    fd = openSync(tmp, 'w');
    let done = 0;
    while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(tmp, path);
  } catch (e) {
    if (fd !== undefined) {
      try {
        closeSync(fd);
      } catch {
        /* already failing */
      }
    }
    try {
      unlinkSync(tmp);
    } catch {
      /* the temp file may not exist */
    }
    throw e;
  }
}

/** Reads and validates a container file (errors name `path` and the byte offset). */
export function readContainerFile(path: string): Container {
  return readContainer(new Uint8Array(readFileSync(path)), path);
}

/** Encodes and atomically writes a container (nothing is written if encoding fails). */
export function writeContainerFile(path: string, c: Container): void {
  writeFileAtomic(path, writeContainer(c));
}
