/**
 * The §10.6 fabric page header (grammars/pyxis/fabric_page_header.json: field layout project-defined): encapsulation
 * on the Tx side (§10.7.9: fields + CRC-32 of bytes 0-11 in bytes 12-15) and decapsulation on the Rx side (§10.8.7:
 * CRC checked; a page whose header fails it is dropped).
 */
import { decode, encode, loadTable, type CompiledTable } from '@pyxis/codec';
import type { FabricPageType } from './port.js';

const TABLE: CompiledTable = loadTable('pyxis', 'fabric_page_header');
export const HEADER_BYTES = TABLE.bytes;
const CRC_BYTE = TABLE.byName.get('crc')!.lsb / 8;
const TYPE_NAMES = TABLE.byName.get('page_type')!.enumNames!;

export interface PageHeader {
  page_type: FabricPageType;
  tjid: number;
  rjid: number;
  epoch: number;
  retry: number;
  last_page: number;
  rxq_index: number;
  page_size_bytes: number;
  page_seq_num: number;
}

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/** CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320, init and final xor 0xFFFFFFFF) of bytes [0, n). */
export function crc32(b: Uint8Array, n: number): number {
  let c = 0xffffffff;
  for (let i = 0; i < n; i++) c = CRC_TABLE[(c ^ b[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** Encodes a header with its CRC (§10.7.9). */
export function encodeHeader(h: PageHeader): Uint8Array {
  const out = encode(TABLE, { ...h, crc: 0 });
  const crc = crc32(out, CRC_BYTE);
  new DataView(out.buffer, out.byteOffset).setUint32(CRC_BYTE, crc, true);
  return out;
}

/** Decodes a header (§10.8.7); null when its CRC does not match (the fields cannot be trusted). */
export function decodeHeader(b: Uint8Array): PageHeader | null {
  if (b.length < HEADER_BYTES) return null;
  const stored = new DataView(b.buffer, b.byteOffset).getUint32(CRC_BYTE, true);
  if (crc32(b, CRC_BYTE) !== stored) return null;
  const v = decode(TABLE, b);
  const type = TYPE_NAMES.get(Number(v['page_type']));
  if (!type) return null;
  return {
    page_type: type as FabricPageType,
    tjid: Number(v['tjid']),
    rjid: Number(v['rjid']),
    epoch: Number(v['epoch']),
    retry: Number(v['retry']),
    last_page: Number(v['last_page']),
    rxq_index: Number(v['rxq_index']),
    page_size_bytes: Number(v['page_size_bytes']),
    page_seq_num: Number(v['page_seq_num']),
  };
}
