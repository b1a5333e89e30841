/**
 * Barrier allocation from a trip dependency DAG (chip §11.3, §11.4.1, §11.4.2,
 * §11.6). Pure algorithm: no I/O, no descriptor encoding.
 *
 * Rules implemented (all in this file):
 * - a consumer waits on at most one barrier (chip §11.6): all direct
 *   predecessors of a consumer (after transitive reduction) are merged into
 *   one barrier whose notify_count is their number; consumers with the same
 *   predecessor set and cluster share the barrier (wait_count = their number);
 * - counts <= 31 (chip §11.4.11): larger predecessor sets are split into
 *   chunks waited on by no-op trips inserted before the consumer in its (UIE)
 *   queue; larger consumer groups are split into several barriers;
 * - at most 8 notifies per trip (chip §11.4.1): extra notifications move to
 *   no-op trips inserted right after the producer in its UIE queue
 *   (chip §11.4.2: "effectively extend the Notify_list");
 * - ids 1..1023 per cluster, never reused in one image (chip §11.6.3);
 * - the barrier lives in the consumer's cluster (wait is local, notify global, chip §11.6.4).
 */
export const MAX_NOTIFY = 8;
export const MAX_COUNT = 31;
export const MAX_BARRIER_ID = 1023;

export interface TripNode {
  name: string;
  cluster: number;
  /** Queue id (chip Table 11-1). */
  queue: number;
  /** UIE queues accept no-op trips (chip §11.4.2); other engines do not. */
  canNoop: boolean;
}

export interface BarrierInput {
  /** Trips; within one (cluster, queue) the array order is the queue order. */
  trips: TripNode[];
  /** [consumer, producer]: trip `consumer` starts after trip `producer` completed. */
  deps: Array<[number, number]>;
}

export interface PlannedTrip {
  name: string;
  cluster: number;
  queue: number;
  /** Index into the input trips, or -1 for an inserted no-op trip. */
  origin: number;
  /** Local barrier id to wait on (0 = no wait). */
  wait: number;
  /** Global barrier ids {cluster[1:0], id[9:0]} (chip §11.6.4), at most 8. */
  notify: number[];
}

export interface AllocatedBarrier {
  cluster: number;
  id: number;
  notify_count: number;
  wait_count: number;
  /** Names of producer / consumer trips (planned-trip indices in `producers`/`consumers`). */
  producers: number[];
  consumers: number[];
  /** Local barrier id the barrier-config descriptor waits on before set_ref_counts (0 = none; only for reused ids). */
  config_wait: number;
}

export interface BarrierPlan {
  /** Every trip including inserted no-ops; per (cluster, queue) in queue order. */
  trips: PlannedTrip[];
  /** Barriers in barrier-config queue order (per cluster). */
  barriers: AllocatedBarrier[];
}

/** A rule the graph breaks. `trips` are input indices involved. */
export class BarrierError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly trips: number[],
    readonly spec: string,
  ) {
    super(message);
    this.name = 'BarrierError';
  }
}

/**
 * A notify_list entry {cluster_id[1:0], local barrier id[9:0]} (chip §11.4.1).
 * Not masked: an id or cluster out of range makes the entry too wide for the
 * descriptor's notify_list field, which the codec rejects (LD0506).
 */
export function globalBarrierId(cluster: number, id: number): number {
  return cluster * 1024 + id;
}

/** Finds a cycle in deps + queue order (a deadlock: chip §11.3 trips launch in queue order). */
export function findDeadlock(input: BarrierInput): number[] | undefined {
  const n = input.trips.length;
  const succ: number[][] = Array.from({ length: n }, () => []);
  for (const [c, p] of input.deps) succ[p]!.push(c);
  const last = new Map<string, number>();
  input.trips.forEach((t, i) => {
    const k = `${t.cluster}:${t.queue}`;
    const prev = last.get(k);
    if (prev !== undefined) succ[prev]!.push(i);
    last.set(k, i);
  });
  const state = new Uint8Array(n); // 0 new, 1 on stack, 2 done
  const parent = new Int32Array(n).fill(-1);
  for (let s = 0; s < n; s++) {
    if (state[s]) continue;
    const stack: Array<[number, number]> = [[s, 0]];
    state[s] = 1;
    while (stack.length) {
      const top = stack[stack.length - 1]!;
      const [v, k] = top;
      if (k < succ[v]!.length) {
        top[1]++;
        const w = succ[v]![k]!;
        if (state[w] === 1) {
          const cyc = [w];
          for (let x = v; x !== w && x >= 0; x = parent[x]!) cyc.push(x);
          return cyc.reverse();
        }
        if (state[w] === 0) {
          state[w] = 1;
          parent[w] = v;
          stack.push([w, 0]);
        }
      } else {
        state[v] = 2;
        stack.pop();
      }
    }
  }
  return undefined;
}

/** Kahn topological order over `preds` (nodes on a cycle, and after them, are missing). */
function topoOrder(n: number, preds: ReadonlyArray<Iterable<number>>): number[] {
  const indeg = new Int32Array(n);
  const succ: number[][] = Array.from({ length: n }, () => []);
  for (let c = 0; c < n; c++) for (const p of preds[c]!) {
    succ[p]!.push(c);
    indeg[c]!++;
  }
  const order: number[] = [];
  for (let i = 0; i < n; i++) if (indeg[i] === 0) order.push(i);
  for (let h = 0; h < order.length; h++) for (const c of succ[order[h]!]!) if (--indeg[c]! === 0) order.push(c);
  return order;
}

/** Row v (`words` 32-bit words) = bitset of all ancestors of v, filled in topological `order`. */
function ancestorRows(n: number, order: readonly number[], preds: ReadonlyArray<Iterable<number>>): { words: number; bits: Uint32Array } {
  const words = (n + 31) >>> 5;
  const bits = new Uint32Array(n * words);
  for (const v of order) {
    const base = v * words;
    for (const p of preds[v]!) {
      const pb = p * words;
      for (let w = 0; w < words; w++) bits[base + w]! |= bits[pb + w]!;
      bits[base + (p >>> 5)]! |= 1 << (p & 31);
    }
  }
  return { words, bits };
}

/** Ancestor bitsets of an acyclic dependency graph: bit p of row v set when p must complete before v starts. */
export function ancestorBits(n: number, deps: Array<[number, number]>): { words: number; bits: Uint32Array; has(v: number, p: number): boolean } {
  const preds: number[][] = Array.from({ length: n }, () => []);
  for (const [c, p] of deps) preds[c]!.push(p);
  const { words, bits } = ancestorRows(n, topoOrder(n, preds), preds);
  return { words, bits, has: (v, p) => ((bits[v * words + (p >>> 5)]! >>> (p & 31)) & 1) === 1 };
}

/** Direct predecessors after transitive reduction (a predecessor reachable through another is dropped). */
export function reducedPredecessors(n: number, deps: Array<[number, number]>): number[][] {
  const preds: Set<number>[] = Array.from({ length: n }, () => new Set());
  for (const [c, p] of deps) if (c !== p) preds[c]!.add(p);
  // Topological order of the dependency DAG (deps alone must be acyclic).
  const order = topoOrder(n, preds);
  if (order.length !== n) return preds.map((s) => [...s]); // cyclic: caller reports the deadlock
  const { words, bits: anc } = ancestorRows(n, order, preds);
  const out: number[][] = [];
  for (let v = 0; v < n; v++) {
    const ps = [...preds[v]!];
    // p is redundant if it is an ancestor of another predecessor q.
    out.push(ps.filter((p) => !ps.some((q) => q !== p && (anc[q * words + (p >>> 5)]! >>> (p & 31)) & 1)).sort((a, b) => a - b));
  }
  return out;
}

function chunk<T>(xs: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += size) out.push(xs.slice(i, i + size));
  return out;
}

/**
 * Allocates barriers for `input`. Throws BarrierError when the graph cannot be
 * expressed (deadlock, too many notifies on a non-UIE engine, > 1023 barriers ...).
 */
export function allocateBarriers(input: BarrierInput, opts: { maxBarrierId?: number } = {}): BarrierPlan {
  const n = input.trips.length;
  for (const [c, p] of input.deps) {
    if (!(c >= 0 && c < n && p >= 0 && p < n)) throw new RangeError(`allocateBarriers: dependency [${c}, ${p}] out of range`);
    if (c === p) throw new BarrierError('LD0400', `trip \`${input.trips[c]!.name}\` depends on itself`, [c], 'pyxis-chip-fspec.md §11.6');
  }
  const cyc = findDeadlock(input);
  if (cyc) {
    const names = cyc.map((i) => `\`${input.trips[i]!.name}\``).join(' -> ');
    throw new BarrierError('LD0401', `dependencies and queue order form a cycle (deadlock): ${names} -> \`${input.trips[cyc[0]!]!.name}\``, cyc, 'pyxis-chip-fspec.md §11.3, §11.5.1');
  }
  const preds = reducedPredecessors(n, input.deps);

  // Barrier requests: producers (input indices or planned no-op placeholders) and consumers.
  interface Req { cluster: number; producers: number[]; consumers: number[] }
  // Planned no-ops before a consumer: consumer -> list of chunk requests waited by no-ops.
  const preNoops = new Map<number, number>(); // consumer -> number of no-ops inserted before it
  const groups = new Map<string, { cluster: number; producers: number[]; consumers: number[] }>();
  // consumers encoded: >= 0 input trip; < 0: -(k+1) = k-th synthetic "pre no-op" (resolved later)
  const preNoopOwner: Array<{ consumer: number; k: number }> = [];
  const addGroup = (cluster: number, producers: number[], consumer: number) => {
    const key = `${cluster}|${producers.join(',')}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { cluster, producers, consumers: [] }));
    g.consumers.push(consumer);
  };
  for (let c = 0; c < n; c++) {
    const ps = preds[c]!;
    if (ps.length === 0) continue;
    const t = input.trips[c]!;
    if (ps.length <= MAX_COUNT) {
      addGroup(t.cluster, ps, c);
      continue;
    }
    if (!t.canNoop)
      throw new BarrierError('LD0402', `trip \`${t.name}\` waits for ${ps.length} producers; a barrier counts at most ${MAX_COUNT} (notify_count is 5 bits) and only UIE queues can take the no-op trips that split the join`, [c, ...ps], 'pyxis-chip-fspec.md §11.4.11, §11.4.2');
    const chunks = chunk(ps, MAX_COUNT);
    preNoops.set(c, chunks.length - 1);
    chunks.forEach((ch, k) => {
      if (k === chunks.length - 1) addGroup(t.cluster, ch, c);
      else {
        preNoopOwner.push({ consumer: c, k });
        addGroup(t.cluster, ch, -preNoopOwner.length);
      }
    });
  }
  // Split consumer groups larger than 31.
  const reqs: Req[] = [];
  for (const g of groups.values()) for (const cs of chunk(g.consumers, MAX_COUNT)) reqs.push({ cluster: g.cluster, producers: g.producers, consumers: cs });

  // Barriers (ids assigned below); waits and notifies reference barrier indices first.
  const barriers: AllocatedBarrier[] = [];
  const waitOf = new Map<number, number>(); // consumer code -> barrier index
  const notifyBarrierIdx: number[][] = Array.from({ length: n }, () => []);
  for (const r of reqs) {
    barriers.push({ cluster: r.cluster, id: 0, notify_count: r.producers.length, wait_count: r.consumers.length, producers: [], consumers: [], config_wait: 0 });
    const bi = barriers.length - 1;
    for (const c of r.consumers) waitOf.set(c, bi);
    for (const p of r.producers) notifyBarrierIdx[p]!.push(bi);
  }

  // Build the planned trip list: per input trip, pre no-ops, the trip, post no-ops.
  const out: PlannedTrip[] = [];
  const waitB: number[] = []; // planned trip -> barrier index or -1
  const notifyB: number[][] = []; // planned trip -> barrier indices
  const push = (t: PlannedTrip, w: number, nb: number[]) => {
    out.push(t);
    waitB.push(w);
    notifyB.push(nb);
    return out.length - 1;
  };
  const consumerIdx = new Map<number, number>(); // consumer code -> planned index
  for (let i = 0; i < n; i++) {
    const t = input.trips[i]!;
    const pre = preNoops.get(i) ?? 0;
    for (let k = 0; k < pre; k++) {
      const code = -(preNoopOwner.findIndex((o) => o.consumer === i && o.k === k) + 1);
      consumerIdx.set(code, push({ name: `${t.name}.join${k}`, cluster: t.cluster, queue: t.queue, origin: -1, wait: 0, notify: [] }, waitOf.get(code) ?? -1, []));
    }
    const bidx = notifyBarrierIdx[i]!;
    if (bidx.length > MAX_NOTIFY && !t.canNoop)
      throw new BarrierError('LD0404', `trip \`${t.name}\` must notify ${bidx.length} barriers; a descriptor holds ${MAX_NOTIFY} and only UIE queues can take the no-op trips that extend the notify_list`, [i], 'pyxis-chip-fspec.md §11.4.1, §11.4.2');
    consumerIdx.set(i, push({ name: t.name, cluster: t.cluster, queue: t.queue, origin: i, wait: 0, notify: [] }, waitOf.get(i) ?? -1, bidx.slice(0, MAX_NOTIFY)));
    for (let k = MAX_NOTIFY, e = 0; k < bidx.length; k += MAX_NOTIFY, e++)
      push({ name: `${t.name}.notify${e}`, cluster: t.cluster, queue: t.queue, origin: -1, wait: 0, notify: [] }, -1, bidx.slice(k, k + MAX_NOTIFY));
  }
  notifyB.forEach((bs, ti) => bs.forEach((b) => barriers[b]!.producers.push(ti)));
  reqs.forEach((r, bi) => {
    for (const c of r.consumers) barriers[bi]!.consumers.push(consumerIdx.get(c)!);
  });

  // Ids per cluster: 1, 2, 3 ... in creation order; beyond maxId, reuse freed ids (assignIds).
  const maxId = opts.maxBarrierId ?? MAX_BARRIER_ID;
  const byCluster = new Map<number, number[]>();
  barriers.forEach((b, i) => {
    if (!byCluster.has(b.cluster)) byCluster.set(b.cluster, []);
    byCluster.get(b.cluster)!.push(i);
  });
  let order: number[] = barriers.map((_, i) => i);
  if ([...byCluster.values()].some((l) => l.length > maxId)) order = reuseIds(out, waitB, barriers, byCluster, maxId, (bi) => {
    const involved = barriers[bi]!.consumers.map((c) => out[c]!.origin).filter((o) => o >= 0);
    throw new BarrierError('LD0403', `cluster ${barriers[bi]!.cluster} needs more than ${maxId} barriers live at once (ids 1..${maxId}; 0 is the no-op id) and no id can be safely reused for the barrier of ${involved.map((o) => `\`${input.trips[o]!.name}\``).join(', ')}`, involved, 'pyxis-chip-fspec.md §11.6.2, §11.6.3');
  });
  else for (const l of byCluster.values()) l.forEach((bi, k) => (barriers[bi]!.id = k + 1));
  out.forEach((t, i) => {
    const w = waitB[i]!;
    t.wait = w >= 0 ? barriers[w]!.id : 0;
    t.notify = notifyB[i]!.map((b) => globalBarrierId(barriers[b]!.cluster, barriers[b]!.id));
  });
  return { trips: out, barriers: order.map((i) => barriers[i]!) };
}

/**
 * Reuses barrier ids when a cluster needs more than `maxId` barriers. Id X of
 * barrier b1 may carry barrier b2 only when every operation on b2 is
 * guaranteed to happen after b1 was freed, i.e. after all consumers of b1
 * launched (chip §11.6.2: "as long as a barrier has been freed before it is
 * re-used"):
 *  - every producer of b2 launches no earlier than each consumer of b1;
 *  - every consumer of b2 has a queue predecessor launching no earlier than each consumer of b1
 *    (its wait() is issued when it reaches the head of its queue);
 *  - b2's barrier-config descriptor waits on a barrier G, configured earlier, whose producers
 *    launch no earlier than the consumers of b1 and all come before b2's first consumer in a
 *    topological order of the launch graph (so the in-order config queue cannot deadlock);
 *    G gains that config descriptor as a consumer (a later reuse of G's id also waits for it).
 * "launches no earlier" is the transitive closure of queue order and dependencies.
 * Returns the config-queue order (barrier indices sorted by first consumer).
 */
function reuseIds(out: PlannedTrip[], waitB: number[], barriers: AllocatedBarrier[], byCluster: Map<number, number[]>, maxId: number, fail: (bi: number) => never): number[] {
  const n = out.length;
  // Launch graph: queue order and barrier waits (producers complete before consumers launch).
  const preds: number[][] = Array.from({ length: n }, () => []);
  const qpred = new Int32Array(n).fill(-1);
  const last = new Map<string, number>();
  out.forEach((t, i) => {
    const k = `${t.cluster}:${t.queue}`;
    const p = last.get(k);
    if (p !== undefined) {
      preds[i]!.push(p);
      qpred[i] = p;
    }
    last.set(k, i);
    const w = waitB[i]!;
    if (w >= 0) for (const pr of barriers[w]!.producers) preds[i]!.push(pr);
  });
  const succ: number[][] = Array.from({ length: n }, () => []);
  const indeg = new Int32Array(n);
  preds.forEach((ps, i) => ps.forEach((p) => {
    succ[p]!.push(i);
    indeg[i]!++;
  }));
  const topo: number[] = [];
  for (let i = 0; i < n; i++) if (indeg[i] === 0) topo.push(i);
  for (let h = 0; h < topo.length; h++) for (const c of succ[topo[h]!]!) if (--indeg[c]! === 0) topo.push(c);
  const T = new Int32Array(n);
  topo.forEach((v, k) => (T[v] = k));
  // HL[v]: trips launched no later than v (v included).
  const words = (n + 31) >>> 5;
  const HL = new Uint32Array(n * words);
  for (const v of topo) {
    const base = v * words;
    HL[base + (v >>> 5)]! |= 1 << (v & 31);
    for (const p of preds[v]!) for (let w = 0; w < words; w++) HL[base + w]! |= HL[p * words + w]!;
  }
  const inHL = (v: number, x: number) => ((HL[v * words + (x >>> 5)]! >>> (x & 31)) & 1) === 1;
  const key = barriers.map((b) => Math.min(...b.consumers.map((c) => T[c]!)));
  const maxProdT = barriers.map((b) => Math.max(...b.producers.map((p) => T[p]!)));
  const order: number[] = [];
  for (const list of byCluster.values()) {
    const sorted = [...list].sort((a, b) => key[a]! - key[b]!);
    order.push(...sorted);
    const slots: Array<{ id: number; cur: number }> = [];
    const slotOf = new Map<number, number>(); // barrier -> slot index (current owner only)
    const cfgWaiters = new Map<number, number[]>(); // G -> barriers whose config descriptor waits on G
    const done: number[] = [];
    /** Everything that must have launched before barrier x is freed: its consumers, and the
     *  config descriptors waiting on it (each known launched once any consumer of its barrier launched). */
    const freedBy = (x: number, v: number) =>
      barriers[x]!.consumers.every((c1) => inHL(v, c1)) && (cfgWaiters.get(x) ?? []).every((b) => barriers[b]!.consumers.some((c) => inHL(v, c)));
    for (const b2 of sorted) {
      const B2 = barriers[b2]!;
      if (slots.length < maxId) {
        slots.push({ id: slots.length + 1, cur: b2 });
        slotOf.set(b2, slots.length - 1);
        B2.id = slots.length;
        done.push(b2);
        continue;
      }
      let placed = false;
      for (let si = 0; si < slots.length && !placed; si++) {
        const s = slots[si]!;
        const b1 = s.cur;
        if (!B2.producers.every((p) => freedBy(b1, p))) continue;
        if (!B2.consumers.every((c2) => qpred[c2]! >= 0 && freedBy(b1, qpred[c2]!))) continue;
        // a barrier G for the config descriptor to wait on; config descriptors waiting on b1
        // precede this one in the in-order config queue, so only b1's consumers matter here
        const C1 = barriers[b1]!.consumers;
        let g = -1;
        for (let k = done.length - 1; k >= 0 && g < 0; k--) {
          const G = done[k]!;
          const BG = barriers[G]!;
          if (G === b1 || !slotOf.has(G) || BG.wait_count >= MAX_COUNT || maxProdT[G]! >= key[b2]!) continue;
          if (C1.every((c1) => BG.producers.some((pg) => inHL(pg, c1)))) g = G;
        }
        if (g < 0) continue;
        const BG = barriers[g]!;
        BG.wait_count++;
        if (!cfgWaiters.has(g)) cfgWaiters.set(g, []);
        cfgWaiters.get(g)!.push(b2);
        slotOf.delete(b1);
        s.cur = b2;
        slotOf.set(b2, si);
        B2.id = s.id;
        B2.config_wait = BG.id;
        done.push(b2);
        placed = true;
      }
      if (!placed) fail(b2);
    }
  }
  return order;
}
