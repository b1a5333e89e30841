/** Compute sequencer ids by name (grammars/pyxis/memory_map.json, the one source of sequencer numbering). */
import { loadMemoryMap } from '../../../common/memoryMap.js';

export function seqIdOf(name: string): number {
  const s = loadMemoryMap().byName.get(name);
  if (!s) throw new Error(`grammars/pyxis/memory_map.json has no sequencer \`${name}\``);
  return s.id;
}
export const SEQ_WDP = seqIdOf('wdp');
export const SEQ_GH = seqIdOf('gh');
export const SEQ_GV = seqIdOf('gv');
export const SEQ_GX = seqIdOf('gx');
export const SEQ_GWB = seqIdOf('gwb');
