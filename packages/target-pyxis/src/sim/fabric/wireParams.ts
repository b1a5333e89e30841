/**
 * The system fabric's parameters (grammars/pyxis/fabric.json, chip §10.1, §10.7 [5a], §10.8.3): loaded once,
 * validated, converted to cycles at the chip clock; and the §10.1 cellification of a page, read from the file's
 * table (never written again in code).
 */
import { loadGrammarJson } from '@pyxis/codec';
import { DiagnosticError, error } from '@pyxis/diagnostics';
import { FabricCodes } from './codes.js';

export interface FabricJson {
  name: string;
  rtt_ns: number;
  pipes_per_chip: number;
  pipe_bytes_per_cycle: number;
  cell: { chunk_bytes: number; min_chunks: number; max_chunks: number };
  last_two_cells: { rows: Array<{ mod: number; next_to_last: number; last: number }> };
  page_header_bytes: number;
  max_page_payload_bytes: number;
  min_packet_bytes: number;
  rx_cbuf_cells: number;
  rx_oq_pages: number;
  grant: { scheduler: 'round_robin' | 'fifo'; messages_first: boolean };
  system: { max_chips: number; clusters_per_chip: number; oqs_per_cluster: number; voq_map_entries: number; vpfe_bits: number };
}

/** Parameters in cycles, ready for the wire model. */
export interface FabricParams {
  json: FabricJson;
  clockHz: number;
  /** Fabric RTT in cycles (= 2 x oneWay). */
  rttCycles: number;
  /** One-way flight latency in cycles (request, grant, data): the lookahead of a partitioned system run. */
  oneWayCycles: number;
  pipes: number;
  pipeBytesPerCycle: number;
  /** Per §10.1 mod-11 residue: [next-to-last, last] chunks. */
  lastTwo: Array<[number, number]>;
}

/**
 * Paths a system may override (docs/system.md "fabric"), with their bounds. The upper bounds keep every derived
 * figure a finite cycle count and every per-pipe array small (an RTT of 1e308 ns was Infinity cycles; 1e8 pipes
 * never finished allocating): at most 1 ms of RTT (500x the spec's ~2 us, §10.1), 64 pipes (the spec: 4, §10.7 [5a]).
 */
export const FABRIC_OVERRIDABLE: Record<string, { min: number; max?: number; integer: boolean }> = {
  rtt_ns: { min: 2, max: 1_000_000, integer: false },
  pipes_per_chip: { min: 1, max: 64, integer: true },
  pipe_bytes_per_cycle: { min: 1, max: 65536, integer: true },
  'grant.scheduler': { min: 0, integer: false },
  'grant.messages_first': { min: 0, integer: false },
  // at least the cells of one maximum page (16 + 16384 B = 1025 chunks = 94 cells, §10.1): the grant scheduler must
  // be able to grant every page (§10.8.3)
  rx_cbuf_cells: { min: 94, max: 1 << 24, integer: true },
  rx_oq_pages: { min: 1, max: 65536, integer: true },
};

/**
 * fabric.json entries the wire model does not read, so a system may not set them (an override would change
 * nothing): why, for the diagnostic (docs/spec-notes.md, audit).
 */
export const FABRIC_NOT_MODELLED: Record<string, string> = {
  min_packet_bytes:
    'CTS / ACK / NACK are fabric_adapter.json `messages.page_bytes` (64 B, chip §10.7.9) on the wire, padded to one minimum cell (§10.1 table); `min_packet_bytes` is not read by the model',
};

function bad(path: string, msg: string): never {
  throw new DiagnosticError(error(FabricCodes.badFabricConfig, `fabric.json: \`${path}\` ${msg}`));
}

function int(v: unknown, path: string, min: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min) bad(path, `must be an integer >= ${min}, got ${JSON.stringify(v)}`);
  return v;
}

/** Validates the file (every field the model reads) and the §10.1 table's shape. */
export function validateFabricJson(j: FabricJson): FabricJson {
  if (typeof j.rtt_ns !== 'number' || !(j.rtt_ns > 0)) bad('rtt_ns', `must be a number > 0, got ${JSON.stringify(j.rtt_ns)}`);
  int(j.pipes_per_chip, 'pipes_per_chip', 1);
  int(j.pipe_bytes_per_cycle, 'pipe_bytes_per_cycle', 1);
  // the overridable figures' upper bounds hold wherever the parameters come from (a system manifest read back too)
  for (const k of ['rtt_ns', 'pipes_per_chip', 'pipe_bytes_per_cycle'] as const) {
    const max = FABRIC_OVERRIDABLE[k]!.max!;
    if (!(j[k] <= max)) bad(k, `must be at most ${max}, got ${JSON.stringify(j[k])}`);
  }
  int(j.cell?.chunk_bytes, 'cell.chunk_bytes', 1);
  int(j.cell.min_chunks, 'cell.min_chunks', 1);
  int(j.cell.max_chunks, 'cell.max_chunks', j.cell.min_chunks);
  int(j.page_header_bytes, 'page_header_bytes', 0);
  int(j.max_page_payload_bytes, 'max_page_payload_bytes', 1);
  int(j.min_packet_bytes, 'min_packet_bytes', 1);
  int(j.rx_cbuf_cells, 'rx_cbuf_cells', 1);
  int(j.rx_oq_pages, 'rx_oq_pages', 1);
  if (j.grant?.scheduler !== 'round_robin' && j.grant?.scheduler !== 'fifo') bad('grant.scheduler', `must be "round_robin" or "fifo", got ${JSON.stringify(j.grant?.scheduler)}`);
  if (typeof j.grant.messages_first !== 'boolean') bad('grant.messages_first', 'must be true or false');
  for (const k of ['max_chips', 'clusters_per_chip', 'oqs_per_cluster', 'voq_map_entries', 'vpfe_bits'] as const) int(j.system?.[k], `system.${k}`, 1);
  const rows = j.last_two_cells?.rows;
  const mod = j.cell.max_chunks;
  if (!Array.isArray(rows) || rows.length !== mod) bad('last_two_cells.rows', `must have one row per residue 0..${mod - 1}`);
  const seen = new Set<number>();
  rows.forEach((r, i) => {
    const m = int(r.mod, `last_two_cells.rows[${i}].mod`, 0);
    if (m >= mod || seen.has(m)) bad(`last_two_cells.rows[${i}].mod`, `must be a distinct residue 0..${mod - 1}, got ${m}`);
    seen.add(m);
    const a = int(r.next_to_last, `last_two_cells.rows[${i}].next_to_last`, j.cell.min_chunks);
    const b = int(r.last, `last_two_cells.rows[${i}].last`, j.cell.min_chunks);
    if (a > mod || b > mod) bad(`last_two_cells.rows[${i}]`, `cells carry at most ${mod} chunks`);
    // The last two cells carry the page's remaining chunks: 11 + residue (residue 0: 22).
    if (a + b !== mod + (m === 0 ? mod : m)) bad(`last_two_cells.rows[${i}]`, `next_to_last + last must be ${mod + (m === 0 ? mod : m)} (11 + the residue)`);
  });
  return j;
}

/** Converts the (validated) file to cycles at `clockHz`. */
export function fabricParams(j: FabricJson, clockHz: number): FabricParams {
  validateFabricJson(j);
  const oneWayCycles = Math.max(1, Math.ceil(((j.rtt_ns / 2) * clockHz) / 1e9));
  const lastTwo: Array<[number, number]> = [];
  for (const r of j.last_two_cells.rows) lastTwo[r.mod] = [r.next_to_last, r.last];
  return { json: j, clockHz, rttCycles: 2 * oneWayCycles, oneWayCycles, pipes: j.pipes_per_chip, pipeBytesPerCycle: j.pipe_bytes_per_cycle, lastTwo };
}

let cached: FabricJson | null = null;
/** grammars/pyxis/fabric.json, read and validated once per process (a copy: callers may override fields). */
export function loadFabricJson(): FabricJson {
  if (!cached) cached = validateFabricJson(loadGrammarJson<FabricJson>('pyxis', 'fabric'));
  return structuredClone(cached);
}

/** A page's cells (§10.1): count, and the chunks of the next-to-last and last cells. */
export interface Cells {
  cells: number;
  chunks: number;
  nextToLast: number;
  last: number;
  /** Cycles the page occupies one 88-B/cycle pipe: each cell takes ceil(cell bytes / pipe bytes per cycle). */
  pipeCycles: number;
}

/** Cellifies a page of `wireBytes` (header + payload) per §10.1. */
export function cellify(p: FabricParams, wireBytes: number): Cells {
  const c = p.json.cell;
  const chunks = Math.max(1, Math.ceil(wireBytes / c.chunk_bytes));
  const cellCycles = (k: number) => Math.ceil((k * c.chunk_bytes) / p.pipeBytesPerCycle);
  if (chunks <= c.max_chunks) {
    const k = Math.max(chunks, c.min_chunks); // one cell, padded to the minimum cell (MODEL, spec-notes fsys)
    return { cells: 1, chunks: k, nextToLast: 0, last: k, pipeCycles: cellCycles(k) };
  }
  const cells = Math.ceil(chunks / c.max_chunks);
  const [a, b] = p.lastTwo[chunks % c.max_chunks]!;
  return { cells, chunks, nextToLast: a, last: b, pipeCycles: (cells - 2) * cellCycles(c.max_chunks) + cellCycles(a) + cellCycles(b) };
}
