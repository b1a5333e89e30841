/**
 * `inspect <file>`: prints a .pobj/.pimg container (or an .npy/.safetensors
 * tensor file, or an MPE patch blob) as text, or as JSON with --json. Shared
 * by the tools; the work lives in @pyxis/container and @pyxis/asm.
 */
import { extname } from 'node:path';
import type { Command } from 'commander';
import { hexdump, inspectJson, inspectText, readContainer, readInputFile, readNpy, readSafetensorsWithMetadata, type Tensor } from '@pyxis/container';
import { decodePatchBlob, loadPyxisIsa, type Isa, type MemoryRegion, type MicroPatch } from '@pyxis/asm';
import { DiagnosticError, error } from '@pyxis/diagnostics';
import type { ToolContext } from './tool.js';

interface InspectOptions {
  json?: boolean;
  data?: boolean;
  patchBlob?: boolean;
}

const PATCH_SPEC = 'pyxis-chip-fspec.md §12.6.1';
/** Extensions under which a file without magic is tried as a patch blob. */
const PATCH_BLOB_EXTS = new Set(['.blob', '.bin']);

/**
 * Decodes an MPE patch blob (chip §12.6.1: `micro_patch_t` headers, each
 * followed by its 8-byte-padded data; no magic), also checking what the
 * format requires and decodePatchBlob does not: a non-empty blob, whole blob
 * 8-byte aligned, 8-byte aligned target addresses. Throws DiagnosticError.
 */
export function readPatchBlob(bytes: Uint8Array, file: string, isa: Isa = loadPyxisIsa()): MicroPatch[] {
  if (bytes.length === 0) throw new DiagnosticError(error('AS0613', 'empty file: a patch blob holds at least one micro_patch_t', { span: { file, offset: 0 }, spec: PATCH_SPEC }));
  if (bytes.length % 8) throw new DiagnosticError(error('AS0613', `${bytes.length} bytes: a patch blob is a multiple of 8 bytes`, { span: { file, offset: bytes.length }, spec: PATCH_SPEC }));
  const patches = decodePatchBlob(bytes, isa, file);
  let off = 0;
  for (const p of patches) {
    if (p.target_address % 8) throw new DiagnosticError(error('AS0614', `target_address 0x${p.target_address.toString(16)} is not 8-byte aligned`, { span: { file, offset: off }, spec: `${PATCH_SPEC}.2` }));
    off += isa.patchHeader.bytes + p.data.length;
  }
  return patches;
}

/** `amem_read.op pc 0..3`: which microcode memory of the ISA's memory map a patch writes (undefined: none). */
export function patchRegion(isa: Isa, p: MicroPatch): string | undefined {
  const end = p.target_address + p.data.length;
  const within = (name: string, r: MemoryRegion | undefined, tableBytes: number): string | undefined => {
    if (!r) return undefined;
    const stride = r.stride ?? Math.ceil(tableBytes / 8) * 8;
    const words = r.words ?? isa.programWords;
    if (p.target_address < r.address || end > r.address + stride * words) return undefined;
    const first = Math.floor((p.target_address - r.address) / stride);
    const last = Math.ceil((end - r.address) / stride) - 1;
    return `${name} ${first === last ? first : `${first}..${last}`}`;
  };
  for (const s of isa.sequencers.values()) {
    const hit = within(`${s.name}.control pc`, s.ctrlMem, s.control.bytes) ?? within(`${s.name}.op pc`, s.opMem, s.op.bytes);
    if (hit) return hit;
  }
  return isa.vpu ? within('vpu.imem word', isa.vpu.mem, isa.vpu.op.bytes) : undefined;
}

/** Tries `bytes` as a patch blob: undefined unless it decodes cleanly. */
function tryPatchBlob(bytes: Uint8Array, path: string): MicroPatch[] | undefined {
  try {
    return readPatchBlob(bytes, path);
  } catch (e) {
    if (e instanceof DiagnosticError) return undefined;
    throw e;
  }
}

function hex32(n: number): string {
  return `0x${n.toString(16).padStart(8, '0')}`;
}

function inspectPatchBlob(path: string, bytes: Uint8Array, patches: MicroPatch[], opts: InspectOptions): string {
  const isa = loadPyxisIsa();
  if (opts.json) {
    return (
      JSON.stringify(
        {
          file: path,
          format: 'patch-blob',
          bytes: bytes.length,
          patches: patches.map((p) => {
            const region = patchRegion(isa, p);
            return {
              target_address: p.target_address,
              reg_size: p.reg_size,
              reg_repeat: p.reg_repeat,
              data_bytes: p.data.length,
              ...(region ? { region } : {}),
              ...(opts.data ? { data: Buffer.from(p.data).toString('hex') } : {}),
            };
          }),
        },
        null,
        2,
      ) + '\n'
    );
  }
  const lines = [`${path}: MPE patch blob (${PATCH_SPEC}), ${patches.length} patch${patches.length === 1 ? '' : 'es'}, ${bytes.length} bytes`];
  lines.push('  #  target_address  reg_size  reg_repeat  data bytes  writes');
  patches.forEach((p, i) => {
    lines.push(`  ${String(i).padStart(2)}  ${hex32(p.target_address)}      ${String(p.reg_size).padStart(8)}  ${String(p.reg_repeat).padStart(10)}  ${String(p.data.length).padStart(10)}  ${patchRegion(isa, p) ?? '(outside the microcode memories)'}`);
    if (opts.data) lines.push(...hexdump(p.data, p.target_address));
  });
  return lines.join('\n') + '\n';
}

function tensorSummary(t: Tensor): Record<string, unknown> {
  return { dtype: t.dtype, shape: t.shape, elements: t.data.length, bytes: t.data.byteLength };
}

/**
 * Dispatches on the file's magic bytes, so the extension does not matter; a
 * file with no known magic is read as its extension says (`.npy`,
 * `.safetensors`, else a container), so the error comes from the right reader.
 */
function inspectFile(path: string, opts: InspectOptions): string {
  const bytes = readInputFile(path);
  // A patch blob has no magic: read one only when asked to (--patch-blob), or,
  // for a .blob/.bin file without any other format's magic, when it decodes cleanly.
  if (opts.patchBlob) return inspectPatchBlob(path, bytes, readPatchBlob(bytes, path), opts);
  const isContainer = bytes[0] === 0x50 && bytes[1] === 0x59 && bytes[2] === 0x58; // "PYX"
  const ext = extname(path).toLowerCase();
  const isNpy = bytes[0] === 0x93 && bytes[1] === 0x4e; // "\x93NUMPY"
  const isSafetensors = bytes.length >= 9 && bytes[8] === 0x7b; // u64 header length, then "{"
  if (!isContainer && (isNpy || (!isSafetensors && ext === '.npy'))) {
    const t = readNpy(bytes, path);
    return opts.json ? JSON.stringify({ file: path, format: 'npy', ...tensorSummary(t) }, null, 2) + '\n' : `${path}: npy ${t.dtype} [${t.shape.join(', ')}] (${t.data.byteLength} bytes)\n`;
  }
  if (!isContainer && !isNpy && PATCH_BLOB_EXTS.has(ext)) {
    const patches = tryPatchBlob(bytes, path);
    if (patches) return inspectPatchBlob(path, bytes, patches, opts);
  }
  if (!isContainer && (isSafetensors || ext === '.safetensors')) {
    const { tensors, metadata } = readSafetensorsWithMetadata(bytes, path);
    if (opts.json) return JSON.stringify({ file: path, format: 'safetensors', metadata, tensors: Object.fromEntries([...tensors].map(([n, t]) => [n, tensorSummary(t)])) }, null, 2) + '\n';
    const lines = [`${path}: safetensors, ${tensors.size} tensors`];
    for (const [n, t] of tensors) lines.push(`  ${n}  ${t.dtype} [${t.shape.join(', ')}] (${t.data.byteLength} bytes)`);
    if (Object.keys(metadata).length) lines.push(`metadata: ${JSON.stringify(metadata)}`);
    return lines.join('\n') + '\n';
  }
  let c;
  try {
    c = readContainer(bytes, path);
  } catch (e) {
    // not a container, but it would read as a patch blob: say how to ask for that
    if (e instanceof DiagnosticError && !isContainer && tryPatchBlob(bytes, path)) {
      const [d, ...rest] = e.diagnostics;
      throw new DiagnosticError([{ ...d!, notes: [...(d!.notes ?? []), `this file decodes as an MPE patch blob (${PATCH_SPEC}); patch blobs have no magic: use \`inspect --patch-blob ${path}\``] }, ...rest]);
    }
    throw e;
  }
  return opts.json ? JSON.stringify({ file: path, ...inspectJson(c, { data: !!opts.data }) }, null, 2) + '\n' : `${path}: ${inspectText(c, { data: !!opts.data })}`;
}

/** Adds `inspect <file> [--json] [--data]` to a tool. */
export function registerInspect(program: Command, ctx: () => ToolContext): Command {
  return program
    .command('inspect')
    .description('print a .pobj/.pimg container (or .npy/.safetensors tensor file, or MPE patch blob): sections, symbols, relocations, metadata')
    .argument('<file>', 'file to inspect')
    .option('--json', 'print JSON instead of text')
    .option('--data', 'include section contents (hex dump; full hex string with --json)')
    .option('--patch-blob', 'read the file as an MPE patch blob (micro_patch_t headers + data, chip §12.6.1); without it, only a .blob/.bin file that decodes cleanly is taken for one')
    .action((file: string, opts: InspectOptions) => {
      ctx().out(inspectFile(file, opts));
    });
}
