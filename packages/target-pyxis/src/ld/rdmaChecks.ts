/**
 * Single-image checks of RDMA job ids (chip §10.4, §10.7.1, §10.8.1.1): a Tx (Rx) Job Table entry is indexed by
 * TJID (RJID) per cluster, and software must not hand the job manager a second job with the same id while the first
 * is active. Two RDMA Tx trips of one cluster with the same TJID (Rx trips with the same RJID) must therefore be
 * ordered by the dependency graph (`B after A`: B waits for A's completion notification); queue order alone is not
 * enough, the job manager takes the next descriptor as soon as the previous one is in its table. Codes LD0950 (Tx),
 * LD0951 (Rx); at run time the same mistake is SIM0753.
 */
import { CHIP, type LinkContext } from './context.js';
import type { TripGraph } from './tripGraph.js';

export function checkRdmaJobIds(ctx: LinkContext, graph: TripGraph): void {
  const { err } = ctx.r;
  const { orderedTrips, ordered } = graph;
  const groups = new Map<string, number[]>();
  orderedTrips.forEach((t, i) => {
    const kind = t.queue.kind;
    if (kind !== 'rdma_tx' && kind !== 'rdma_rx') return;
    const id = t.nums.get(kind === 'rdma_tx' ? 'tjid' : 'rjid')?.v ?? 0;
    const k = `${kind}:${t.cluster}:${id}`;
    const g = groups.get(k);
    if (g) g.push(i);
    else groups.set(k, [i]);
  });
  for (const [k, idx] of groups) {
    if (idx.length < 2) continue;
    const [kind, cluster, id] = k.split(':');
    const tx = kind === 'rdma_tx';
    let reported = 0;
    for (let x = 0; x < idx.length && reported < 4; x++)
      for (let y = x + 1; y < idx.length && reported < 4; y++) {
        if (ordered(idx[x]!, idx[y]!)) continue;
        const a = orderedTrips[idx[x]!]!;
        const b = orderedTrips[idx[y]!]!;
        reported++;
        err(tx ? 'LD0950' : 'LD0951', `RDMA ${tx ? 'Tx' : 'Rx'} trips \`${a.name}\` and \`${b.name}\` of cluster ${cluster} use ${tx ? 'TJID' : 'RJID'} ${id} with no dependency between them: the second job could reach the ${tx ? 'Tx' : 'Rx'} Job Table while the first is active`, b.span, {
          secondary: [{ span: a.span, label: 'first job' }],
          notes: [`help: add \`${b.name} after ${a.name};\` (the second job waits for the first one's completion), or give it another ${tx ? 'TJID' : 'RJID'}`],
          spec: `${CHIP} §10.4, ${tx ? '§10.7.1' : '§10.8.1.1'}`,
        });
      }
  }
}
