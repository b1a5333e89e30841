/**
 * `inspect` hooks of the Pyxis target: MPE patch blobs (chip §12.6.1:
 * `micro_patch_t` headers, each followed by its 8-byte-padded data; no magic).
 */
import { extname } from 'node:path';
import { decode, loadTable } from '@pyxis/codec';
import { hexdump, type Container, type InspectRecord } from '@pyxis/container';
import { DiagnosticError, error } from '@pyxis/diagnostics';
import type { InspectRequest } from '@pyxis/target';
import { decodePatchBlob, loadPyxisIsa, type Isa, type MemoryRegion, type MicroPatch } from './asm/index.js';
import { queueName } from './ld/image.js';

const PATCH_SPEC = 'pyxis-chip-fspec.md §12.6.1';
/** Extensions under which a file without magic is tried as a patch blob. */
const PATCH_BLOB_EXTS = new Set(['.blob', '.bin']);

/**
 * Decodes an MPE patch blob, also checking what the format requires and
 * decodePatchBlob does not: a non-empty blob, whole blob 8-byte aligned,
 * 8-byte aligned target addresses. Throws DiagnosticError.
 */
export function readPatchBlob(bytes: Uint8Array, file: string, isa: Isa): MicroPatch[] {
  if (bytes.length === 0) throw new DiagnosticError(error('AS0613', 'empty file: a patch blob holds at least one micro_patch_t', { span: { file, offset: 0 }, spec: PATCH_SPEC }));
  if (bytes.length % 8) throw new DiagnosticError(error('AS0613', `${bytes.length} bytes: a patch blob is a multiple of 8 bytes`, { span: { file, offset: bytes.length }, spec: PATCH_SPEC }));
  const patches = decodePatchBlob(bytes, file);
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

function hex32(n: number): string {
  return `0x${n.toString(16).padStart(8, '0')}`;
}

function printPatchBlob(req: InspectRequest, patches: MicroPatch[], isa: Isa): string {
  const { file, bytes } = req;
  // File offset of each patch's micro_patch_t header; its data follows the header (§12.6.1).
  const at: number[] = [];
  let off = 0;
  for (const p of patches) {
    at.push(off);
    off += isa.patchHeader.bytes + p.data.length;
  }
  if (req.json) {
    const list = patches.map((p, i) => {
      const region = patchRegion(isa, p);
      return {
        headerOffset: at[i]!,
        dataOffset: at[i]! + isa.patchHeader.bytes,
        target_address: p.target_address,
        reg_size: p.reg_size,
        reg_repeat: p.reg_repeat,
        data_bytes: p.data.length,
        ...(region ? { region } : {}),
        ...(req.data ? { data: Buffer.from(p.data).toString('hex') } : {}),
      };
    });
    return JSON.stringify({ file, format: 'patch-blob', bytes: bytes.length, patches: list }, null, 2) + '\n';
  }
  const lines = [`${file}: MPE patch blob (${PATCH_SPEC}), ${patches.length} patch${patches.length === 1 ? '' : 'es'}, ${bytes.length} bytes`];
  lines.push('  #  header@   data@     target_address  reg_size  reg_repeat  data bytes  writes');
  patches.forEach((p, i) => {
    const fileAt = `${at[i]!.toString(16).padStart(8, '0')}  ${(at[i]! + isa.patchHeader.bytes).toString(16).padStart(8, '0')}`;
    lines.push(`  ${String(i).padStart(2)}  ${fileAt}  ${hex32(p.target_address)}      ${String(p.reg_size).padStart(8)}  ${String(p.reg_repeat).padStart(10)}  ${String(p.data.length).padStart(10)}  ${patchRegion(isa, p) ?? '(outside the microcode memories)'}`);
    if (req.data) lines.push(...hexdump(p.data, p.target_address));
  });
  return lines.join('\n') + '\n';
}

/**
 * A patch blob has no magic: it is read when asked for (`--patch-blob`; errors
 * are then reported), or for a .blob/.bin file when it decodes cleanly.
 */
export function sniffPatchBlob(req: InspectRequest): string | undefined {
  const isa = loadPyxisIsa();
  if (req.options['patchBlob']) return printPatchBlob(req, readPatchBlob(req.bytes, req.file, isa), isa);
  if (!PATCH_BLOB_EXTS.has(extname(req.file).toLowerCase())) return undefined;
  try {
    return printPatchBlob(req, readPatchBlob(req.bytes, req.file, isa), isa);
  } catch (e) {
    if (e instanceof DiagnosticError) return undefined;
    throw e;
  }
}

/** For a file no reader accepts: a note when it would decode as a patch blob. */
export function patchBlobHint(bytes: Uint8Array, file: string): string | undefined {
  try {
    readPatchBlob(bytes, file, loadPyxisIsa());
    return `this file decodes as an MPE patch blob (${PATCH_SPEC}); patch blobs have no magic: use \`inspect --patch-blob ${file}\``;
  } catch (e) {
    if (e instanceof DiagnosticError) return undefined;
    throw e;
  }
}

/** A metadata member as a list of plain objects (metadata is only shape-checked for what the simulator reads). */
function objects(v: unknown): Array<Record<string, unknown>> {
  return Array.isArray(v) ? v.filter((x): x is Record<string, unknown> => x !== null && typeof x === 'object' && !Array.isArray(x)) : [];
}

/**
 * The records of a Pyxis image, each with its place in a section: the enqueue records of `.enqueue` (chip
 * §11.5.1.1, fields decoded with grammars/pyxis/desc_enqueue_record.json) and every descriptor of every
 * descriptor list (chip §11.5.1), split by the descriptor count the linker reports in `metadata.pyxis.queues`.
 */
export function pyxisRecords(c: Container): InspectRecord[] {
  if (c.target !== 'pyxis' || c.kind !== 'pimg') return [];
  const lists = new Map<string, Record<string, unknown>>();
  const pyxis = c.metadata['pyxis'];
  if (pyxis && typeof pyxis === 'object')
    for (const q of objects((pyxis as Record<string, unknown>)['queues'])) for (const l of objects(q['lists'])) if (typeof l['section'] === 'string') lists.set(l['section'], l);
  const out: InspectRecord[] = [];
  const enq = loadTable('pyxis', 'desc_enqueue_record');
  c.sections.forEach((s, section) => {
    if (s.name === '.enqueue' && s.kind !== 'zero') {
      for (let o = 0; o + enq.bytes <= s.data.length; o += enq.bytes) {
        const v = decode(enq, s.data, o);
        const q = Number(v['queue_id']);
        out.push({ section, offset: o, size: enq.bytes, what: `enqueue record ${o / enq.bytes}: cluster ${Number(v['cluster'])} queue ${queueName(q)} (0x${q.toString(16)}) list 0x${Number(v['descriptor_list_address']).toString(16)} length ${Number(v['descriptor_list_length'])}` });
      }
      return;
    }
    const l = lists.get(s.name);
    const n = l?.['descriptors'];
    if (s.kind !== 'descriptors' || typeof n !== 'number' || !Number.isSafeInteger(n) || n <= 0 || s.size % n) return;
    const size = s.size / n;
    for (let k = 0; k < n; k++) out.push({ section, offset: k * size, size, what: `${String(l!['engine'])} descriptor ${k}` });
  });
  return out;
}
