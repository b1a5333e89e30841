/** File-system helpers shared by every tool that writes outputs. */
import { accessSync, closeSync, constants, fsyncSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { DiagnosticError, error, type Diagnostic } from '@pyxis/diagnostics';
import { FileCodes } from './codes.js';
import { readContainer } from './reader.js';
import { writeContainer } from './writer.js';
import type { Container } from './model.js';

let counter = 0;

/** Why `path` cannot be written, or undefined if it looks writable (checked before any output is produced). */
export function outputPathProblem(path: string): string | undefined {
  const dir = dirname(path);
  let dirStat;
  try {
    dirStat = statSync(dir);
  } catch {
    return `no such directory \`${dir}\``;
  }
  if (!dirStat.isDirectory()) return `\`${dir}\` is not a directory`;
  try {
    if (statSync(path).isDirectory()) return 'it is a directory';
  } catch {
    /* does not exist yet: fine */
  }
  try {
    accessSync(dir, constants.W_OK);
  } catch {
    return `directory \`${dir}\` is not writable`;
  }
  return undefined;
}

/**
 * Checks every output path (undefined and `-` = stdout are skipped) before a
 * tool writes anything, so that one bad path cannot leave the other outputs
 * behind. Throws one IO0002 diagnostic per bad path.
 */
export function checkOutputPaths(paths: ReadonlyArray<string | undefined>): void {
  const ds: Diagnostic[] = [];
  for (const p of paths) {
    if (p === undefined || p === '-') continue;
    const problem = outputPathProblem(p);
    if (problem) ds.push(error(FileCodes.cannotWrite, `cannot write \`${p}\`: ${problem}`));
  }
  if (ds.length) throw new DiagnosticError(ds);
}

function writeErrorReason(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  switch (code) {
    case 'ENOENT':
    case 'ENOTDIR':
      return 'no such directory';
    case 'EACCES':
    case 'EPERM':
    case 'EROFS':
      return 'permission denied';
    case 'EISDIR':
      return 'it is a directory';
    case 'ENOSPC':
      return 'no space left on device';
    default:
      return (e as Error).message ?? String(e);
  }
}

/**
 * Writes `data` to `path` atomically: the bytes go to a temporary file in the
 * same directory which is then renamed over `path`. On any error the
 * temporary file is removed, so a failed run never leaves a partial output.
 * File-system failures are reported as an IO0002 `DiagnosticError` naming
 * `path` (not the temporary file).
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
    if ((e as NodeJS.ErrnoException).code !== undefined) throw new DiagnosticError(error(FileCodes.cannotWrite, `cannot write \`${path}\`: ${writeErrorReason(e)}`));
    throw e;
  }
}

/**
 * Reads an input file; a missing, unreadable or directory path is an IO0001
 * `DiagnosticError` naming `path`.
 */
export function readInputFile(path: string): Uint8Array {
  try {
    return new Uint8Array(readFileSync(path));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === undefined) throw e;
    const reason = code === 'ENOENT' || code === 'ENOTDIR' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : (e as Error).message;
    throw new DiagnosticError(error(FileCodes.cannotRead, code === 'ENOENT' || code === 'ENOTDIR' ? `no such file: ${path}` : `cannot read \`${path}\`: ${reason}`));
  }
}

/** Reads an input text file (UTF-8); errors as `readInputFile`. */
export function readInputText(path: string): string {
  return new TextDecoder().decode(readInputFile(path));
}

/** Reads and validates a container file (errors name `path` and the byte offset). */
export function readContainerFile(path: string): Container {
  return readContainer(readInputFile(path), path);
}

/** Encodes and atomically writes a container (nothing is written if encoding fails). */
export function writeContainerFile(path: string, c: Container): void {
  writeFileAtomic(path, writeContainer(c));
}
