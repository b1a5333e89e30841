/** File-system helpers shared by every tool that writes outputs. */
import { accessSync, closeSync, constants, existsSync, mkdirSync, fstatSync, fsyncSync, ftruncateSync, openSync, readSync, realpathSync, renameSync, statSync, unlinkSync, writeSync, type Stats } from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { DiagnosticError, error, failAt, type Diagnostic } from '@pyxis/diagnostics';
import { ContainerCodes, FileCodes } from './codes.js';
import { peekContainerTarget, readContainer, startsWithContainerMagic } from './reader.js';
import { HEADER_SIZE, REGIONS, REGION_TABLE_OFFSET } from './layout.js';
import { writeContainer } from './writer.js';
import type { Container } from './model.js';

let counter = 0;

/**
 * What one tool run has read and which outputs it has declared (`beginRunFileLog`, the CLI driver, once per
 * invocation): every file read through `readInputFile`/`readInputHead`/`readInputText`/`readContainerInput`
 * (named on the command line, by a link script, a manifest or an option) is protected from being overwritten,
 * and outputs declared by `checkOutputPaths` (the driver's and a target's own) may not name one another.
 */
interface RunFileLog {
  reads: Array<{ p: string; id: { real: string; stat?: Stats } }>;
  outputs: Array<{ p: string; id: { real: string; stat?: Stats } }>;
}
let runLog: RunFileLog | undefined;

/** Starts the file log of a tool run (ending any previous one); returns the function that ends it. */
export function beginRunFileLog(): () => void {
  const log: RunFileLog = { reads: [], outputs: [] };
  runLog = log;
  return () => {
    if (runLog === log) runLog = undefined;
  };
}

function noteRead(path: string): void {
  if (!runLog) return;
  const id = fileIdentity(path);
  if (!runLog.reads.some((r) => sameFile(r.id, id))) runLog.reads.push({ p: path, id });
}

/** IO0003 for each output path (undefined and `-` skipped) that is a file this run has read. */
export function checkNotRead(paths: ReadonlyArray<string | undefined>): void {
  if (!runLog) return;
  const ds: Diagnostic[] = [];
  for (const p of paths) {
    if (p === undefined || p === '-') continue;
    const id = fileIdentity(p);
    const r = runLog.reads.find((x) => sameFile(x.id, id));
    if (r) ds.push(error(FileCodes.sameFile, `output \`${p}\` is the input \`${r.p}\` (read by this run): refusing to overwrite an input`));
  }
  if (ds.length) throw new DiagnosticError(ds);
}

/** Longest file name (one path component, in bytes) accepted for an output: POSIX NAME_MAX on common file systems. */
export const MAX_FILE_NAME_BYTES = 255;

/** Why `path` cannot be written, or undefined if it is writable (checked before any output is produced). */
export function outputPathProblem(path: string): string | undefined {
  if (path === '') return 'empty file name';
  if (path.endsWith('/') || path.endsWith(sep)) return 'a file name cannot end in `/`';
  if (Buffer.byteLength(basename(path)) > MAX_FILE_NAME_BYTES) return `file name longer than ${MAX_FILE_NAME_BYTES} bytes`;
  const dir = dirname(path);
  let dirStat;
  try {
    dirStat = statSync(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENAMETOOLONG') return 'path too long';
    return `no such directory \`${dir}\``;
  }
  if (!dirStat.isDirectory()) return `\`${dir}\` is not a directory`;
  try {
    if (statSync(path).isDirectory()) return 'it is a directory';
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENAMETOOLONG') return 'path too long';
    if (code !== 'ENOENT') return writeErrorReason(e);
    /* does not exist yet: fine */
  }
  // a device or FIFO is written in place (writeFileAtomic): its own permission counts, not its directory's (/dev)
  if (isSpecialOutput(path))
    try {
      accessSync(path, constants.W_OK);
      return undefined;
    } catch {
      return 'permission denied';
    }
  try {
    accessSync(dir, constants.W_OK);
  } catch {
    return `directory \`${dir}\` is not writable`;
  }
  return undefined;
}

/** The identity of a path for "same file" checks: its real path (an absent file: its directory's real path + name), and device/inode when it exists. */
function fileIdentity(path: string): { real: string; stat?: Stats } {
  const abs = resolve(path);
  try {
    return { real: realpathSync(abs), stat: statSync(abs) };
  } catch {
    try {
      return { real: join(realpathSync(dirname(abs)), basename(abs)) };
    } catch {
      return { real: abs };
    }
  }
}

function sameFile(a: { real: string; stat?: Stats }, b: { real: string; stat?: Stats }): boolean {
  if (a.real === b.real) return true;
  return !!a.stat && !!b.stat && a.stat.dev === b.stat.dev && a.stat.ino === b.stat.ino;
}

/**
 * Checks every output path (undefined and `-` = stdout are skipped) before a
 * tool does any work, so that one bad path cannot leave the other outputs
 * behind: IO0002 for a path that cannot be written (missing directory, a
 * directory, a name too long, a trailing `/`), IO0003 for an output that is
 * the same file as an input (`inputs`) or as another output (compared by
 * resolved real path, and by device/inode for existing files).
 */
export function checkOutputPaths(paths: ReadonlyArray<string | undefined>, inputs: ReadonlyArray<string> = [], opts: { recheck?: boolean } = {}): void {
  const ds: Diagnostic[] = [];
  // the inputs given, and every file the run has read so far (a script's, a manifest's, an option's)
  const ins = [...inputs.filter((p) => p !== '-').map((p) => ({ p, id: fileIdentity(p) })), ...(runLog?.reads ?? [])];
  // outputs declared earlier in this run (the driver's, when a target checks its own) count as other outputs
  // (`recheck`: the same outputs checked again against inputs found since, e.g. `.include`d files)
  const earlier = opts.recheck ? [] : (runLog?.outputs ?? []);
  const outs: Array<{ p: string; id: { real: string; stat?: Stats } }> = [...earlier];
  for (const p of paths) {
    if (p === undefined || p === '-') continue;
    const problem = outputPathProblem(p);
    if (problem) {
      ds.push(error(FileCodes.cannotWrite, `cannot write \`${p}\`: ${problem}`));
      continue;
    }
    const id = fileIdentity(p);
    // a device (`-o /dev/null --map /dev/null`) is a sink, not a file two outputs would overwrite
    const device = id.stat !== undefined && isSpecialFile(id.stat);
    const input = ins.find((i) => sameFile(i.id, id));
    const other = device ? undefined : outs.find((o) => sameFile(o.id, id));
    if (input) ds.push(error(FileCodes.sameFile, `output \`${p}\` is the input \`${input.p}\`: refusing to overwrite an input`));
    else if (other) ds.push(error(FileCodes.sameFile, `output \`${p}\` is also the output \`${other.p}\`: give each output its own file`));
    outs.push({ p, id });
  }
  if (ds.length) throw new DiagnosticError(ds);
  if (runLog && !opts.recheck) runLog.outputs = outs;
}

/** Why a write failed, in the words of the IO0002 messages (`permission denied`, `no space left on device`, ...). */
export function writeErrorReason(e: unknown): string {
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
 * An output's bytes: all at once, or as chunks produced while they are written (a dump larger than is
 * sensible to hold in memory streams through `writeFileAtomic` this way). A number in the chunks stands for
 * that many zero bytes, left as a hole in the file where the file system supports it (a sparse file).
 */
export type OutputBytes = Uint8Array | Iterable<Uint8Array | number>;

/**
 * Writes `data` to `path` atomically: the bytes go to a temporary file in the
 * same directory which is then renamed over `path`. On any error the
 * temporary file is removed, so a failed run never leaves a partial output.
 * File-system failures are reported as an IO0002 `DiagnosticError` naming
 * `path` (not the temporary file).
 */
export function writeFileAtomic(path: string, data: OutputBytes | string): void {
  checkNotRead([path]); // the last line of defence: a file this run read is never replaced
  if (isSpecialOutput(path)) return writeSpecial(path, data);
  const suffix = `.${process.pid}.${++counter}.tmp`;
  // the temporary name must fit where the output's name fits
  const tmpName = Buffer.byteLength(basename(path)) + suffix.length + 1 <= MAX_FILE_NAME_BYTES ? `.${basename(path)}${suffix}` : `.pyxis${suffix}`;
  const tmp = join(dirname(path), tmpName);
  const chunks: Iterable<Uint8Array | number> = typeof data === 'string' ? [new TextEncoder().encode(data)] : data instanceof Uint8Array ? [data] : data;
  let fd: number | undefined;
  try {
    fd = openSync(tmp, 'w');
    let at = 0;
    for (const bytes of chunks) {
      if (typeof bytes === 'number') {
        at += bytes; // zeros: a hole (the file is extended to its size below)
        continue;
      }
      // write(2) moves at most 2^31-1 bytes per call: large chunks go in slices
      let done = 0;
      while (done < bytes.length) done += writeSync(fd, bytes, done, Math.min(bytes.length - done, 1 << 30), at + done);
      at += bytes.length;
    }
    if (fstatSync(fd).size < at) ftruncateSync(fd, at);
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

/** A file that is neither regular nor a directory: a device (`/dev/null`), a FIFO, a socket. */
function isSpecialFile(st: Stats): boolean {
  return !st.isFile() && !st.isDirectory();
}

/**
 * An output path naming an existing device, FIFO or socket (`-o /dev/null`, `--map /dev/stdout`, a named pipe):
 * written in place as GNU as and ld do. Renaming a temporary file over it would replace the device node with a
 * regular file (as root, /dev/null itself).
 */
export function isSpecialOutput(path: string): boolean {
  try {
    // `/dev/stdout` redirected to a file is a regular file behind a symbolic link: still written in place (a temporary
    // file renamed into /dev would replace the link itself); no tool ever creates a file under /dev or /proc
    const abs = resolve(path);
    return isSpecialFile(statSync(path)) || abs.startsWith('/dev/') || abs.startsWith('/proc/');
  } catch {
    return false;
  }
}

/** Zero bytes written for a hole on a device (which has no holes): 1 MiB at a time. */
const ZEROS = 1 << 20;

/** writeFileAtomic on a device: the bytes in order (holes as zeros); a failure is IO0002 naming the path. */
function writeSpecial(path: string, data: OutputBytes | string): void {
  const chunks: Iterable<Uint8Array | number> = typeof data === 'string' ? [new TextEncoder().encode(data)] : data instanceof Uint8Array ? [data] : data;
  let fd: number | undefined;
  try {
    fd = openSync(path, 'w');
    let zeros: Uint8Array | undefined;
    const put = (bytes: Uint8Array) => {
      for (let done = 0; done < bytes.length; ) done += writeSync(fd!, bytes, done, Math.min(bytes.length - done, 1 << 30));
    };
    for (const c of chunks) {
      if (typeof c !== 'number') put(c);
      else for (let left = c; left > 0; left -= ZEROS) put((zeros ??= new Uint8Array(ZEROS)).subarray(0, Math.min(left, ZEROS)));
    }
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== undefined) throw new DiagnosticError(error(FileCodes.cannotWrite, `cannot write \`${path}\`: ${writeErrorReason(e)}`));
    throw e;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Largest binary input (objects, images, tensors, data files) a tool reads: 4 GiB. */
export const MAX_INPUT_BYTES = 4 * 1024 ** 3;
/** Largest text input (sources, link scripts) a tool reads: 256 MiB. */
export const MAX_SOURCE_BYTES = 256 * 1024 ** 2;

/** An error of the checked reader: `code` as Node's (ENOENT, EACCES, ...) or EFBIG / ENOTREG with a readable message. */
function readError(code: string, message: string): NodeJS.ErrnoException {
  const e: NodeJS.ErrnoException = new Error(message);
  e.code = code;
  return e;
}

/**
 * Reads a regular file of at most `max` bytes. Devices, FIFOs and sockets are
 * refused before they are opened (`/dev/zero` never ends, a FIFO blocks), so
 * no read is unbounded. Throws Node-style errors (`code` ENOENT, EACCES, ...,
 * ENOTREG for a non-regular file, EFBIG for a file over `max`); tools use
 * `readInputFile`, which turns them into IO0001 diagnostics.
 */
export function readRegularFile(path: string, max: number = MAX_INPUT_BYTES): Uint8Array {
  return readRegularPart(path, Infinity, max).bytes;
}

/** The first `limit` bytes of a regular file of at most `max` bytes (all of it for Infinity) and its size. */
function readRegularPart(path: string, limit: number, max: number): { bytes: Uint8Array; size: number } {
  const st = statSync(path);
  if (st.isDirectory()) throw readError('EISDIR', 'it is a directory');
  if (!st.isFile()) throw readError('ENOTREG', 'not a regular file (a device, FIFO or socket)');
  if (st.size > max) throw readError('EFBIG', `file too large: ${st.size} bytes (the maximum is ${max} bytes)`);
  const fd = openSync(path, 'r');
  try {
    const fst = fstatSync(fd);
    if (!fst.isFile()) throw readError('ENOTREG', 'not a regular file (a device, FIFO or socket)');
    if (fst.size > max) throw readError('EFBIG', `file too large: ${fst.size} bytes (the maximum is ${max} bytes)`);
    const out = new Uint8Array(Math.min(fst.size, limit));
    let done = 0;
    while (done < out.length) {
      const n = readSync(fd, out, done, Math.min(out.length - done, 1 << 30), done);
      if (n === 0) break;
      done += n;
    }
    noteRead(path);
    return { bytes: done === out.length ? out : out.subarray(0, done), size: fst.size };
  } finally {
    closeSync(fd);
  }
}

/** A read error as the IO0001 diagnostic naming `path` (other exceptions pass through). */
function inputError(e: unknown, path: string): unknown {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === undefined) return e;
  const reason =
    code === 'EISDIR' ? 'it is a directory'
    : code === 'EACCES' || code === 'EPERM' ? 'permission denied'
    : code === 'ENAMETOOLONG' ? 'path too long'
    : (e as Error).message;
  // `-` is standard output for the text outputs only; an input is always a file (the readers check its size and kind)
  if (path === '-' && code === 'ENOENT') return new DiagnosticError(error(FileCodes.cannotRead, 'no such file: - (standard input is not read: give the input as a file)'));
  return new DiagnosticError(error(FileCodes.cannotRead, code === 'ENOENT' || code === 'ENOTDIR' ? `no such file: ${path}` : `cannot read \`${path}\`: ${reason}`));
}

/**
 * Reads an input file of at most `max` bytes (default MAX_INPUT_BYTES); a
 * missing, unreadable, non-regular (device, FIFO) or too large file, or a
 * directory, is an IO0001 `DiagnosticError` naming `path`.
 */
export function readInputFile(path: string, max: number = MAX_INPUT_BYTES): Uint8Array {
  try {
    return readRegularPart(path, Infinity, max).bytes;
  } catch (e) {
    throw inputError(e, path);
  }
}

/**
 * The first `n` bytes of an input file (all of it when shorter) and its size, with the checks and IO0001
 * errors of `readInputFile`: a tool identifies a binary input by its first bytes before it reads gigabytes.
 */
export function readInputHead(path: string, n: number, max: number = MAX_INPUT_BYTES): { head: Uint8Array; size: number } {
  try {
    const { bytes, size } = readRegularPart(path, n, max);
    return { head: bytes, size };
  } catch (e) {
    throw inputError(e, path);
  }
}

/** Bytes enough to tell the input kinds apart by magic (container header, .npy / .safetensors starts). */
export const INPUT_HEAD_BYTES = 4096;

/**
 * Reads an input that must be a container (`.pobj` / `.pimg`): a file whose first bytes are not a container
 * header is refused (CT0001, at offset 0) without reading the rest.
 */
export function readContainerInput(path: string): Uint8Array {
  const { head, size } = readInputHead(path, INPUT_HEAD_BYTES);
  if (size <= head.length) return head;
  if (!startsWithContainerMagic(head)) readContainer(head, path);
  // the header's file_size must be the file's: checked before the rest is read (a huge file with a small header)
  const dv = new DataView(head.buffer, head.byteOffset, head.byteLength);
  const fileSize = Number(dv.getBigUint64(16, true));
  if (fileSize < size) failAt(path, fileSize, ContainerCodes.trailing, `${size - fileSize} unexpected bytes after the end of the container (file size ${fileSize})`);
  if (fileSize > size) failAt(path, size, ContainerCodes.truncated, `truncated: header says the file has ${fileSize} bytes, got ${size}`);
  return readInputFile(path);
}

/**
 * The `target` of the container header of a file, reading the header and the string it names only (undefined:
 * not a container, or unreadable; the full read reports why).
 */
export function peekContainerTargetFile(path: string): string | undefined {
  try {
    const { head, size } = readInputHead(path, INPUT_HEAD_BYTES);
    if (head.length < HEADER_SIZE || !startsWithContainerMagic(head)) return undefined;
    const dv = new DataView(head.buffer, head.byteOffset, head.byteLength);
    const end = Number(dv.getBigUint64(REGION_TABLE_OFFSET + 16 * REGIONS.indexOf('strings'), true)) + dv.getUint32(24, true) + dv.getUint32(28, true);
    if (end <= head.length || end > size) return peekContainerTarget(head);
    return peekContainerTarget(readInputHead(path, end).head);
  } catch {
    return undefined;
  }
}

/** Reads an input text file (UTF-8) of at most MAX_SOURCE_BYTES; errors as `readInputFile`. */
export function readInputText(path: string): string {
  return new TextDecoder().decode(readInputFile(path, MAX_SOURCE_BYTES));
}

/** Reads and validates a container file (errors name `path` and the byte offset). */
export function readContainerFile(path: string): Container {
  return readContainer(readContainerInput(path), path);
}

/** Encodes and atomically writes a container (nothing is written if encoding fails). */
export function writeContainerFile(path: string, c: Container): void {
  writeFileAtomic(path, writeContainer(c));
}

/**
 * mkdir -p, one level at a time: node 20's recursive mkdirSync never returns for a path under /proc (it retries the
 * ENOENT), which would hang the command instead of an error.
 */
export function makeDirs(dir: string): void {
  if (existsSync(dir)) {
    if (statSync(dir).isDirectory()) return;
    throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${dir}'`), { code: 'ENOTDIR', syscall: 'mkdir', path: dir });
  }
  const up = dirname(dir);
  if (up !== dir) makeDirs(up);
  mkdirSync(dir);
}
