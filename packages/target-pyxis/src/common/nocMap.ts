import { loadGrammarJson } from '@pyxis/codec';

/**
 * Typed view of `grammars/pyxis/noc_map.json` (not a field table): the NoC
 * address map and default DPE/MPE remap windows (chip §12.7), the queue ids of
 * chip Table 11-1 and the ICDMA destinations of Table 12-1. The linker and the
 * simulator both read it through here, so neither restates the data.
 * 39-bit values are hex strings.
 */
export interface NocMapJson {
  noc_addr_w: number;
  regions: Array<{ name: string; base: string; stride: string; size?: string; width?: number; per_cluster: boolean }>;
  remap_windows: { windows: Array<{ window: number; region: string; offset: string; mask: string }> };
  icdma_destinations: { by_source: Array<{ cluster: number; targets: number[] }> };
  queues: { table: Array<{ kind: string; name: string; first: number; count: number; trip: boolean }> };
}

let nocJson: NocMapJson | undefined;

/** Loads (once) `grammars/pyxis/noc_map.json`. */
export function loadNocMap(): NocMapJson {
  return (nocJson ??= loadGrammarJson<NocMapJson>('pyxis', 'noc_map'));
}

/** One NoC region by name; a missing region is a broken grammar file, not user input. */
export function nocRegion(name: string): NocMapJson['regions'][number] {
  const r = loadNocMap().regions.find((x) => x.name === name);
  if (!r) throw new Error(`grammars/pyxis/noc_map.json has no NoC region \`${name}\``);
  return r;
}

/** A DPE/MPE remap window (chip §12.7): `noc = (eng[29:0] & mask) | (base & ~mask)`. */
export interface NocRemapWindow {
  base: bigint;
  mask: bigint;
}

/** The default four windows of `cluster` (`remap_windows` of noc_map.json), indexed by eng[31:30]. */
export function defaultRemapWindows(cluster: number): NocRemapWindow[] {
  return loadNocMap().remap_windows.windows.map((w) => {
    const r = nocRegion(w.region);
    return { base: BigInt(r.base) + (r.per_cluster ? BigInt(cluster) * BigInt(r.stride) : 0n) + BigInt(w.offset), mask: BigInt(w.mask) };
  });
}

/** chip §12.7 eng2noc_addr_remap: the window is selected by eng[31:30]; the result is a noc_addr_w-bit NoC address. */
export function remapEngineAddress(eng: number, windows: readonly NocRemapWindow[]): number {
  const e = BigInt(eng >>> 0);
  const w = windows[Number(e >> 30n)]!;
  const full = (1n << BigInt(loadNocMap().noc_addr_w)) - 1n;
  return Number((e & 0x3fff_ffffn & w.mask) | (w.base & ~w.mask & full));
}

/** One trip-descriptor queue id of chip Table 11-1 (`queues` of noc_map.json; datagram rings excluded). */
export interface TripQueueId {
  id: number;
  /** Engine kind as the simulator names it (`barrier_config` for the Barrier Config Engine). */
  kind: string;
  /** Toolchain name prefix (`barrier` for the Barrier Config Engine). */
  group: string;
  /** Instance index among queues of the same kind. */
  index: number;
  /** Queue name in link scripts: `<group><index>` when the group has several queues. */
  name: string;
}

let tripQueues: readonly TripQueueId[] | undefined;
/** Every trip-descriptor queue id of Table 11-1, in id order. */
export function tripQueueIds(): readonly TripQueueId[] {
  return (tripQueues ??= loadNocMap()
    .queues.table.filter((g) => g.trip)
    .flatMap((g) => Array.from({ length: g.count }, (_, i) => ({ id: g.first + i, kind: g.kind, group: g.name, index: i, name: g.count > 1 ? `${g.name}${i}` : g.name })))
    .sort((a, b) => a.id - b.id));
}

/** The trip-descriptor queue id of engine `index` of `kind` (Table 11-1, noc_map.json); throws when the table has none. */
export function tripQueueId(kind: string, index = 0): number {
  const q = tripQueueIds().find((x) => x.kind === kind && x.index === index);
  if (!q) throw new Error(`grammars/pyxis/noc_map.json has no trip-descriptor queue ${kind}${index}`);
  return q.id;
}

/**
 * Destination cluster of ICDMA engine `index` in source cluster `src` (chip
 * Table 12-1; `icdma_destinations` of noc_map.json). Outside the table is a
 * RangeError: callers validate clusters first.
 */
export function icdmaDestination(src: number, index: number): number {
  const row = loadNocMap().icdma_destinations.by_source.find((r) => r.cluster === src);
  const d = row && Number.isInteger(index) && index >= 0 ? row.targets[index] : undefined;
  if (d === undefined) throw new RangeError(`no ICDMA engine ${index} in cluster ${src} (chip Table 12-1)`);
  return d;
}

/** Clusters of the chip: the source rows of chip Table 12-1 (`icdma_destinations` of noc_map.json). */
export function clusterCount(): number {
  return loadNocMap().icdma_destinations.by_source.length;
}

/** Queue-id group of chip Table 11-1 by toolchain name (`queues.table` of noc_map.json; datagram rings included). */
export function queueGroup(name: string): { kind: string; name: string; first: number; count: number; trip: boolean } {
  const g = loadNocMap().queues.table.find((x) => x.name === name);
  if (!g) throw new Error(`grammars/pyxis/noc_map.json has no queue group \`${name}\``);
  return g;
}
