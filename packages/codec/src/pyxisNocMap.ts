import { loadGrammarJson } from './grammars.js';

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
