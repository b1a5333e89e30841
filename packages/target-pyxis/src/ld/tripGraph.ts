/**
 * The trip graph: every trip in queue order, the `after` dependencies (and
 * the overlay-patch ordering) as edges, and the barrier plan allocated from
 * it (barriers.ts, chip §11.6).
 */
import { DiagnosticError, didYouMean, error } from '@pyxis/diagnostics';
import { allocateBarriers, ancestorBits, BarrierError, type BarrierPlan, type TripNode } from './barriers.js';
import { CHIP, type LinkContext } from './context.js';
import type { TripDef } from './linkTypes.js';

export interface TripGraph {
  /** Trips in queue order; plan trip `origin` and dependency indices refer to it. */
  orderedTrips: TripDef[];
  /** (consumer, producer) index pairs. */
  deps: Array<[number, number]>;
  plan: BarrierPlan;
  /** Whether trips a and b are ordered by the dependency DAG (either way). */
  ordered: (a: number, b: number) => boolean;
}

export function planTripGraph(ctx: LinkContext, extraDeps: ReadonlyArray<[TripDef, TripDef]>): TripGraph {
  const { err } = ctx.r;
  const { bag, queues, tripByName, opts } = ctx;
  const orderedTrips: TripDef[] = [];
  for (const qd of queues) for (const t of qd.trips) orderedTrips.push(t);
  const index = new Map(orderedTrips.map((t, i) => [t, i]));
  const deps: Array<[number, number]> = [];
  for (const t of orderedTrips)
    for (const p of t.afters) {
      const pt = tripByName.get(p.name);
      if (!pt) err('LD0133', `no trip \`${p.name}\``, p.span, { notes: didYouMean(p.name, tripByName.keys()) });
      else if (pt === t) err('LD0400', `trip \`${t.name}\` cannot run after itself`, p.span, { spec: `${CHIP} §11.6` });
      else deps.push([index.get(t)!, index.get(pt)!]);
    }
  for (const [c, p] of extraDeps) deps.push([index.get(c)!, index.get(p)!]);
  bag.throwIfErrors();
  const nodes: TripNode[] = orderedTrips.map((t) => ({ name: t.name, cluster: t.cluster, queue: t.queue.id, canNoop: t.queue.kind === 'uie' }));
  let plan: BarrierPlan;
  try {
    plan = allocateBarriers({ trips: nodes, deps }, opts.maxBarrierId ? { maxBarrierId: opts.maxBarrierId } : {});
  } catch (e) {
    if (e instanceof BarrierError) {
      const spans = e.trips.map((i) => orderedTrips[i]!.span);
      throw new DiagnosticError(error(e.code, e.message, { ...(spans[0] ? { span: spans[0] } : {}), secondary: spans.slice(1, 6).map((s) => ({ span: s, label: 'involved' })), spec: e.spec }));
    }
    throw e;
  }
  const anc = ancestorBits(orderedTrips.length, deps);
  return { orderedTrips, deps, plan, ordered: (a, b) => anc.has(a, b) || anc.has(b, a) };
}
