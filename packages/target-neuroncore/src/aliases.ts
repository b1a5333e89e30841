/**
 * Which declared tensors share SBUF/PSUM bytes (the auto-synchroniser orders instructions that touch aliased
 * tensors): for each tensor, the indices (ascending, itself included) of the tensors of the same on-chip memory
 * whose partitions and byte ranges both overlap it; an HBM tensor aliases only itself (its address is the
 * linker's). A sweep over the tensors sorted by offset: O(n log n + pairs), not n^2 (50,000 declarations).
 */
import type { TensorDecl } from './ir.js';

export function tensorAliases(tensors: readonly TensorDecl[]): number[][] {
  const out = tensors.map((_, i) => [i]);
  for (const mem of ['sbuf', 'psum'] as const) {
    const idx = tensors.flatMap((t, i) => (t.mem === mem && t.bytes > 0 ? [i] : [])).sort((a, b) => tensors[a]!.offset - tensors[b]!.offset || a - b);
    let active: number[] = []; // tensors whose byte range may still reach the next offsets
    for (const i of idx) {
      const t = tensors[i]!;
      active = active.filter((j) => tensors[j]!.offset + tensors[j]!.bytes > t.offset);
      for (const j of active) {
        const u = tensors[j]!;
        if (u.partition < t.partition + t.shape[0]! && t.partition < u.partition + u.shape[0]!) {
          out[i]!.push(j);
          out[j]!.push(i);
        }
      }
      active.push(i);
    }
  }
  for (const a of out) if (a.length > 1) a.sort((x, y) => x - y);
  return out;
}
