/**
 * MPE patch blobs (chip §12.6.1): the concatenation of micro_patch_t headers
 * (the one layout: grammars/pyxis/patch_micro_patch_t.json, chip §12.6.1.2),
 * each followed by reg_repeat data elements of reg_size bytes padded to a
 * multiple of 8 bytes. One encoder/decoder for the assembler, the linker and
 * the inspect tools; malformed patches are reported, never wrapped.
 */
import { decode, encode, loadTable, type CompiledTable } from '@pyxis/codec';

const SPEC = 'pyxis-chip-fspec.md §12.6.1.2';

export interface MicroPatch {
  /** Byte address in the 32-bit MPE view (8-byte aligned). */
  target_address: number;
  /** Bytes per register element (1..65536). */
  reg_size: number;
  /** Number of elements (1..65536). */
  reg_repeat: number;
  /** reg_repeat elements, each padded to a multiple of 8 bytes. */
  data: Uint8Array;
}

/** A problem with one patch or the blob: `patch` is the patch index, `offset` its byte offset in the blob. */
export interface PatchBlobIssue {
  /** What is wrong, for callers that map issues to their own diagnostic codes. */
  kind: 'misaligned' | 'length' | 'empty' | 'range' | 'truncated' | 'overrun';
  message: string;
  patch?: number;
  offset?: number;
  spec: string;
}

/** Thrown by encodePatchBlob / decodePatchBlob; callers turn the issues into their own diagnostics. */
export class PatchBlobError extends Error {
  constructor(readonly issues: PatchBlobIssue[]) {
    super(issues.map((i) => i.message).join('; '));
  }
}

/** The micro_patch_t header table. */
export function patchHeaderTable(): CompiledTable {
  return loadTable('pyxis', 'patch_micro_patch_t');
}

const pad8 = (n: number) => Math.ceil(n / 8) * 8;

/** Serializes patches into one blob; header fields out of their table ranges are PatchBlobError issues. */
export function encodePatchBlob(patches: readonly MicroPatch[]): Uint8Array {
  const ht = patchHeaderTable();
  const issues: PatchBlobIssue[] = [];
  let size = 0;
  patches.forEach((p, k) => {
    const need = p.reg_repeat * pad8(p.reg_size);
    if (p.target_address % 8 !== 0) issues.push({ kind: 'misaligned', patch: k, message: `patch ${k}: target_address 0x${p.target_address.toString(16)} is not 8-byte aligned`, spec: SPEC });
    if (p.data.length !== need) issues.push({ kind: 'length', patch: k, message: `patch ${k}: data is ${p.data.length} bytes, reg_repeat * pad8(reg_size) = ${need}`, spec: SPEC });
    size += ht.bytes + pad8(p.data.length);
  });
  if (patches.length === 0) issues.push({ kind: 'empty', message: 'a patch blob needs at least one patch (num_patches is N-1 encoded)', spec: 'pyxis-chip-fspec.md §12.6.1.1' });
  if (issues.length) throw new PatchBlobError(issues);
  const blob = new Uint8Array(pad8(size));
  let off = 0;
  patches.forEach((p, k) => {
    try {
      encode(ht, { target_address: p.target_address, reg_size: p.reg_size, reg_repeat: p.reg_repeat }, blob, off);
    } catch (e) {
      issues.push({ kind: 'range', patch: k, offset: off, message: `patch ${k}: header out of range: ${(e as Error).message}`, spec: SPEC });
    }
    off += ht.bytes;
    blob.set(p.data, off);
    off += pad8(p.data.length);
  });
  if (issues.length) throw new PatchBlobError(issues);
  return blob;
}

/** Parses a blob back into patches; a truncated header or data is a PatchBlobError issue with its byte offset. */
export function decodePatchBlob(blob: Uint8Array): MicroPatch[] {
  const ht = patchHeaderTable();
  const out: MicroPatch[] = [];
  let off = 0;
  while (off < blob.length) {
    if (off + ht.bytes > blob.length) throw new PatchBlobError([{ kind: 'truncated', patch: out.length, offset: off, message: `truncated patch header at byte ${off}`, spec: SPEC }]);
    const h = decode(ht, blob, off);
    const reg_size = Number(h['reg_size']);
    const reg_repeat = Number(h['reg_repeat']);
    const n = reg_repeat * pad8(reg_size);
    if (off + ht.bytes + n > blob.length) throw new PatchBlobError([{ kind: 'overrun', patch: out.length, offset: off, message: `patch ${out.length} at byte ${off}: ${n} data bytes run past the end of the blob`, spec: SPEC }]);
    out.push({ target_address: Number(h['target_address']), reg_size, reg_repeat, data: blob.slice(off + ht.bytes, off + ht.bytes + n) });
    off += ht.bytes + n;
  }
  return out;
}

/**
 * Counts the patches of a blob, validating every length and alignment (chip
 * §12.6.1.2) and the 16-bit num_patches of the MPE patch descriptor (chip
 * §12.6.1.1); a string says what is wrong.
 */
export function countPatches(b: Uint8Array): number | string {
  if (b.length === 0) return 'empty blob';
  if (b.length % 8) return `length ${b.length} is not a multiple of 8 bytes`;
  const ht = patchHeaderTable();
  let off = 0;
  let n = 0;
  while (off < b.length) {
    if (off + ht.bytes > b.length) return `truncated patch header at byte ${off}`;
    const h = decode(ht, b, off);
    const target = Number(h['target_address']);
    if (target % 8) return `patch ${n} at byte ${off}: target_address 0x${target.toString(16)} is not 8-byte aligned`;
    const data = Number(h['reg_repeat']) * pad8(Number(h['reg_size']));
    if (off + ht.bytes + data > b.length) return `patch ${n} at byte ${off}: ${data} data bytes run past the end of the blob`;
    off += ht.bytes + data;
    n++;
  }
  if (n > 65536) return `${n} patches exceed num_patches (16 bits)`;
  return n;
}
