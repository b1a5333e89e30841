/**
 * Switchbox producers without a consumer (chip §6.2.3 Table 6-3): a UIE trip that runs a program pushing flits into a
 * switchbox FIFO (AMEM Read `tgt_fifo`, GWB `tgt_fifo`, VB2SB `tgt_select`) but no program on any sequencer that pops
 * that FIFO. The flits are dropped or the producer stalls on a full FIFO (a deadlock) with no other hint, most often
 * because `tgt_fifo` was left at its default (Grid) in a copy program. LD0831 (warning).
 *
 * The producer -> consumer relation is data: the `meta.switchbox` entry of each producer's op table
 * (grammars/pyxis/<seq>_op.json: `field`, and per enum value the `consumers` sequencers).
 */
import { decode, loadTable, type CompiledTable } from '@pyxis/codec';
import { warning } from '@pyxis/diagnostics';
import type { LinkContext } from './context.js';
import { CHIP } from './context.js';

interface Switchbox {
  field: string;
  consumers: Record<string, string[]>;
}

/** Producer tables: sequencer name -> op table and its switchbox routing (those with `meta.switchbox`). */
function producers(ctx: LinkContext): Map<string, { tab: CompiledTable; sb: Switchbox }> {
  const out = new Map<string, { tab: CompiledTable; sb: Switchbox }>();
  for (const s of ctx.memoryMap().sequencers) {
    const tab = loadTable('pyxis', s.op.table);
    const sb = tab.meta?.['switchbox'] as Switchbox | undefined;
    if (sb && tab.byName.has(sb.field)) out.set(s.name, { tab, sb });
  }
  return out;
}

export function checkFifoConsumers(ctx: LinkContext): void {
  const prod = producers(ctx);
  const seen = new Set<string>();
  for (const t of ctx.trips) {
    if (t.queue.kind !== 'uie') continue;
    for (const [seq, { prog, span }] of t.programs) {
      const p = prod.get(seq);
      if (!p) continue;
      const field = p.tab.byName.get(p.sb.field)!;
      const stride = prog.words > 0 ? prog.op.length / prog.words : 0;
      // FIFO values this program pushes to (words whose opcode is not Nop, codepoint 0)
      const targets = new Set<number>();
      for (let k = 0; k < prog.words; k++) {
        const v = decode(p.tab, prog.op, k * stride);
        if (Number(v['opcd']) !== 0) targets.add(Number(v[p.sb.field]));
      }
      for (const code of targets) {
        const name = field.enumNames?.get(code) ?? String(code);
        const consumers = p.sb.consumers[name] ?? [];
        if (!consumers.length || consumers.some((c) => t.programs.has(c))) continue;
        const key = `${t.name}\0${seq}\0${name}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const alternatives = Object.entries(p.sb.consumers)
          .filter(([, cs]) => cs.some((c) => t.programs.has(c)))
          .map(([v]) => `${p.sb.field}=${v}`);
        ctx.bag.add(
          warning('LD0831', `trip \`${t.name}\`: ${seq} program \`${prog.name}\` sends data to switchbox FIFO ${p.sb.field}=${name}, but the trip runs no ${consumers.join(' / ')} program to consume it: the flits are dropped or the trip deadlocks`, {
            span,
            spec: `${CHIP} §6.2.3 Table 6-3`,
            notes: [
              alternatives.length
                ? `help: set \`${alternatives.join('` or `')}\` in \`${prog.name}\` (${p.sb.field} defaults to ${String(field.default ?? field.enumNames?.get(0))})`
                : `help: add a ${consumers.join(' or ')} program to trip \`${t.name}\`, or set \`${p.sb.field}\` in \`${prog.name}\``,
            ],
          }),
        );
      }
    }
  }
}
