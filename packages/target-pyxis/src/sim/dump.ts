/**
 * `--dump SYMBOL[:f32]=FILE.npy` and `--dump-region SPACE:ADDR:LEN=FILE.bin`:
 * read tensors / raw bytes from the final memory state.
 */
import { statfsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { DiagnosticError, UsageError, error, unknownName } from '@pyxis/diagnostics';
import type { Container, OutputBytes, Tensor } from '@pyxis/container';
import { decodeArray, getFormat } from '@pyxis/formats';
import type { PyxisChip } from './chip.js';
import { SimCodes } from './diagnostics.js';
import { CFG_ENGINE_BASE, sectionLocation } from './image.js';
import { HBM_SIZE, stripedToTensorMode } from './memory.js';
import { AMEM_BYTES, AMEM_VIEW_BIT } from '../common/amem.js';

const bad = (msg: string, notes: string[] = []) => new DiagnosticError(error(SimCodes.badDump, msg, { notes }));
/** A spec that does not parse is a usage error (exit 2, as every other malformed option value and the other targets' --dump); SIM0013 (exit 1) is a well-formed spec the image or the machine cannot serve. */
const usage = (msg: string) => new UsageError(msg);

export interface DumpSpec {
  symbol: string;
  f32: boolean;
  file: string;
}

export function parseDumpSpec(s: string): DumpSpec {
  const m = /^([^=:]+)(?::(f32|raw))?=(.+)$/.exec(s);
  if (!m) throw usage(`--dump expects SYMBOL=FILE.npy or SYMBOL:f32=FILE.npy, got \`${s}\``);
  return { symbol: m[1]!, f32: m[2] === 'f32', file: m[3]! };
}

export interface RegionSpec {
  space: 'hbm' | 'hbm_striped' | 'amem' | 'cfg';
  cluster: number;
  addr: number;
  len: number;
  file: string;
}

/** SPACE is `hbm`, `hbm_striped` (chip §8.2.2 addresses), `amem`/`amem<C>`, `cfg`/`cfg<C>` (engine address 0x4000_0000 + offset, as in the image). */
export function parseRegionSpec(s: string): RegionSpec {
  const m = /^(hbm_striped|hbm|amem|cfg)(\d?):((?:0x)?[0-9a-f_]+):((?:0x)?[0-9a-f_]+)=(.+)$/i.exec(s);
  if (!m) throw usage(`--dump-region expects SPACE:ADDR:LEN=FILE.bin (SPACE = hbm, hbm_striped, amem[C], cfg[C]), got \`${s}\``);
  const num = (t: string) => Number(t.replace(/_/g, ''));
  const space = m[1]!.toLowerCase() as RegionSpec['space'];
  const cluster = m[2] ? Number(m[2]) : 0;
  if (space.startsWith('hbm') && m[2]) throw usage(`--dump-region: HBM is one address space; drop the cluster digit in \`${m[1]}${m[2]}\``);
  const addr = num(m[3]!);
  const len = num(m[4]!);
  if (!Number.isSafeInteger(addr) || !Number.isSafeInteger(len) || len <= 0) throw usage(`--dump-region: bad address or length in \`${s}\``);
  return { space, cluster, addr, len, file: m[5]! };
}

/** Range checks of a region spec (before the run: a bad spec must not cost a simulation). */
export function checkRegion(r: RegionSpec, clusters: number): void {
  if (r.space !== 'hbm' && r.space !== 'hbm_striped' && r.cluster >= clusters) throw bad(`--dump-region: cluster ${r.cluster} is not simulated`);
  switch (r.space) {
    case 'hbm':
    case 'hbm_striped':
      if (r.addr + r.len > HBM_SIZE) throw bad('--dump-region: range outside HBM (2^36 bytes)');
      return;
    case 'amem':
      if ((r.addr & (AMEM_VIEW_BIT - 1)) + r.len > AMEM_BYTES || r.addr >= 2 * AMEM_VIEW_BIT) throw bad('--dump-region: range outside AMEM (26 address bits plus the view bit 26)');
      return;
    case 'cfg': {
      const off = r.addr - CFG_ENGINE_BASE;
      if (off < 0 || off + r.len > 1 << 30) throw bad('--dump-region: cfg addresses are engine addresses 0x40000000..0x7fffffff');
    }
  }
}

/** Regions up to this size are dumped from one buffer; larger ones stream in chunks of this size. */
export const DUMP_CHUNK_BYTES = 16 * 1024 * 1024;
/** Largest `--dump` output (.npy data bytes): bigger tensors are refused before the run (use --dump-region). */
export const MAX_DUMP_TENSOR_BYTES = 1024 ** 3;

/** `len` bytes of a region starting at `addr`. */
function regionBytes(chip: PyxisChip, r: RegionSpec, addr: number, len: number): Uint8Array {
  switch (r.space) {
    case 'hbm':
      return chip.hbm.readBytes(addr, len);
    case 'hbm_striped': {
      const out = new Uint8Array(len);
      // A stripe of 1 KiB is 128 runs of 8 consecutive tensor-mode bytes (chip §8.2): copy 8-byte runs.
      for (let i = 0; i < len; ) {
        const a = addr + i;
        const run = Math.min(8 - (a % 8), len - i);
        const t = stripedToTensorMode(a);
        if (chip.hbm.hasData(t, run)) for (let k = 0; k < run; k++) out[i + k] = chip.hbm.byte(t + k);
        i += run;
      }
      return out;
    }
    case 'amem':
      return chip.amem[r.cluster]!.readBytes(addr, len);
    case 'cfg':
      return chip.cfg[r.cluster]!.dumpBytes(addr - CFG_ENGINE_BASE, len);
  }
}

/** The bytes of a `--dump-region`: one buffer, or for a region over DUMP_CHUNK_BYTES chunks read as they are written. */
export function dumpRegion(chip: PyxisChip, r: RegionSpec): OutputBytes {
  checkRegion(r, chip.clusters);
  if (r.len <= DUMP_CHUNK_BYTES) return regionBytes(chip, r, r.addr, r.len);
  // Chunks of never-written (or zero-filled) HBM / cfg pages are holes in the file: no RAM, no disk where supported.
  const empty = (addr: number, len: number) =>
    r.space === 'hbm' ? !chip.hbm.hasData(addr, len) : r.space === 'cfg' ? !chip.cfg[r.cluster]!.hasData(addr - CFG_ENGINE_BASE, len) : false;
  return (function* () {
    for (let o = 0; o < r.len; o += DUMP_CHUNK_BYTES) {
      const n = Math.min(DUMP_CHUNK_BYTES, r.len - o);
      yield empty(r.addr + o, n) ? n : regionBytes(chip, r, r.addr + o, n);
    }
  })();
}

/** Free bytes for an unprivileged writer on the file system holding `file`'s directory (undefined when unknown). */
function freeBytes(file: string): number | undefined {
  try {
    const st = statfsSync(dirname(resolve(file)));
    return Number(st.bavail) * Number(st.bsize);
  } catch {
    return undefined; // a missing directory is reported by the output-path check
  }
}

/** Refuses (before the run) an output that the file system cannot hold. */
function checkRoom(file: string, bytes: number, what: string): void {
  if (bytes < DUMP_CHUNK_BYTES) return;
  const free = freeBytes(file);
  if (free !== undefined && free < bytes)
    throw bad(`${what}: \`${file}\` would need ${bytes} bytes but its file system has ${free} bytes free`, ['the check is made before the run so that no simulation is wasted']);
}

function elementBytes(bits: number): number {
  return bits <= 8 ? 1 : bits <= 16 ? 2 : 4;
}

/**
 * Reads tensor symbol `name` from the final memory state. Raw codes come out
 * as uint8/uint16/int32 (by the format's code width); with `f32` they are
 * decoded with the symbol's format and EB into float32. Strides (bytes per
 * dimension) are honoured when present; otherwise the tensor is contiguous.
 */
interface DumpTarget {
  loc: { space: 'hbm' | 'amem' | 'cfg'; cluster: number; addr: number };
  /** Bytes from the first to past the last element. */
  span: number;
  shape: number[];
  strides: number[];
  /** Bytes per element code. */
  eb: number;
  fmt: ReturnType<typeof getFormat>;
  expBias: number;
}

/**
 * Resolves and checks tensor symbol `name` for a dump (before the run: a bad spec must not cost a simulation).
 * A name the image has no tensor of is a usage error (exit 2, with did-you-mean), as in every target; a tensor the
 * run cannot serve (a cluster not simulated, too big) is SIM0013 (exit 1).
 */
export function resolveDump(container: Container, name: string, clusters: number, option = '--dump'): DumpTarget {
  const sym = container.symbols.find((s) => s.name === name);
  if (!sym?.tensor) {
    const tensors = container.symbols.filter((s) => s.tensor).map((s) => s.name);
    const e = unknownName(option, 'tensor', name, 'the image', tensors);
    throw sym ? new UsageError(`${option}: symbol \`${name}\` is a ${sym.kind}, not a tensor (no shape/format information)`, e.notes.slice(-1)) : e;
  }
  const sec = container.sections[sym.section];
  const loc = sec ? sectionLocation(sec) : undefined;
  if (!sec || !loc) throw bad(`--dump: symbol \`${name}\` is not in a memory section`);
  if (loc.cluster >= clusters) throw bad(`--dump: \`${name}\` lives in cluster ${loc.cluster}, which is not simulated (see --clusters)`);
  let fmt;
  try {
    fmt = getFormat(sym.tensor.format);
  } catch {
    throw bad(`--dump: \`${name}\` has unknown element format \`${sym.tensor.format}\``);
  }
  const eb = elementBytes(fmt.bits);
  const shape = sym.tensor.shape;
  const strides = sym.tensor.strides ?? (() => {
    const s: number[] = new Array(shape.length);
    let acc = eb;
    for (let d = shape.length - 1; d >= 0; d--) {
      s[d] = acc;
      acc *= shape[d]!;
    }
    return s;
  })();
  let span = eb;
  for (let d = 0; d < shape.length; d++) span += (shape[d]! - 1) * strides[d]!;
  return { loc: { ...loc, addr: loc.addr + sym.offset }, span, shape, strides, eb, fmt, expBias: sym.tensor.eb };
}

/** Checks every `--dump` / `--dump-region` spec against the image and the chip size, before the run. */
export function checkDumpSpecs(container: Container, clusters: number, dumps: readonly DumpSpec[], regions: readonly RegionSpec[], option = '--dump'): void {
  for (const d of dumps) {
    const t = resolveDump(container, d.symbol, clusters, option);
    const n = t.shape.reduce((a, b) => a * b, 1);
    const bytes = n * (d.f32 ? 4 : t.eb);
    if (bytes > MAX_DUMP_TENSOR_BYTES || t.span > MAX_DUMP_TENSOR_BYTES)
      throw bad(`--dump: \`${d.symbol}\` would be a ${bytes}-byte .npy (the maximum is ${MAX_DUMP_TENSOR_BYTES} bytes)`, [
        `dump its raw bytes with --dump-region ${t.loc.space === 'hbm' ? 'hbm' : `${t.loc.space}${t.loc.cluster}`}:0x${(t.loc.space === 'cfg' ? t.loc.addr + CFG_ENGINE_BASE : t.loc.addr).toString(16)}:${t.span}=FILE.bin (streamed to the file)`,
      ]);
    checkRoom(d.file, bytes, '--dump');
  }
  for (const r of regions) {
    checkRegion(r, clusters);
    checkRoom(r.file, r.len, '--dump-region');
  }
}

/**
 * Reads tensor symbol `name` from the final memory state. Raw codes come out
 * as uint8/uint16/int32 (by the format's code width; uint32 for UInt32); with `f32` they are
 * decoded with the symbol's format and EB into float32. Strides (bytes per
 * dimension) are honoured when present; otherwise the tensor is contiguous.
 */
export function dumpSymbol(chip: PyxisChip, container: Container, name: string, f32: boolean): Tensor {
  const { loc, span, shape, strides, eb, fmt, expBias } = resolveDump(container, name, chip.clusters);
  const n = shape.reduce((a, b) => a * b, 1);
  const bytes =
    loc.space === 'hbm' ? chip.hbm.readBytes(loc.addr, span) : loc.space === 'amem' ? chip.amem[loc.cluster]!.readBytes(loc.addr, span) : chip.cfg[loc.cluster]!.readBytes(loc.addr, span);
  const unsigned32 = eb === 4 && fmt.name === 'UInt32';
  const codes = eb === 1 ? new Uint8Array(n) : eb === 2 ? new Uint16Array(n) : unsigned32 ? new Uint32Array(n) : new Int32Array(n);
  const idx = new Array<number>(shape.length).fill(0);
  for (let i = 0; i < n; i++) {
    let off = 0;
    for (let d = 0; d < shape.length; d++) off += idx[d]! * strides[d]!;
    let v = 0;
    for (let b = eb - 1; b >= 0; b--) v = v * 256 + bytes[off + b]!;
    codes[i] = v;
    for (let d = shape.length - 1; d >= 0; d--) {
      if (++idx[d]! < shape[d]!) break;
      idx[d] = 0;
    }
  }
  if (!f32) return { dtype: eb === 1 ? 'uint8' : eb === 2 ? 'uint16' : unsigned32 ? 'uint32' : 'int32', shape: [...shape], data: codes };
  // codes are unsigned W-bit (@pyxis/formats): a 32-bit pattern held in an Int32Array is reinterpreted, not range-checked
  // an OCP / IEEE format has the standard bias: the symbol's recorded `eb` does not apply (LD0117 said so at link time)
  const vals = decodeArray(fmt, (codes instanceof Int32Array ? new Uint32Array(codes.buffer) : codes) as never, fmt.hasEb ? expBias : 0);
  return { dtype: 'float32', shape: [...shape], data: Float32Array.from(vals) };
}
