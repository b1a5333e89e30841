/**
 * Test helper: a small stub of the system fabric (not the fsys wire model) joining Pyxis chips built directly with
 * `new PyxisChip({..., fabric})`: every VOQ enqueue is granted after a fixed delay (a local TimedLink of the source
 * chip, FO pipes 0..3 in grant order), every transmitted page reaches its destination chip after a fixed latency over
 * a cross-partition TimedLink (the lookahead of the partitioned run), and is dequeued at the source one cycle after
 * its transmission. Faults: `deliver` may drop, corrupt, duplicate or delay pages.
 *
 * VOQ convention of the tests: VPFE = 4 * chip + cluster (clusters 0..2: VPFE[1:0] != 3, chip §10.2), and
 * VOQ = 4 * VPFE + oq, so the Pyxis_VOQ_to_VPFE_map is the identity on the entries used.
 */
import type { Container } from '@pyxis/container';
import {
  inspectImage, loadImage, loadSimConfig, PHASE, PyxisChip, runPartitioned, TimedLink,
  type FabricAdapterOverrides, type FabricEnqueue, type FabricPage, type PyxisObserver, type UieFactory,
} from '@pyxis/target-pyxis/sim';

export interface StubOptions {
  grantDelay: number;
  latency: number;
  clusters?: number;
  adapter?: FabricAdapterOverrides;
  timingOnly?: boolean;
  registrationSeed?: number;
  /** Chip order of the partitions given to runPartitioned (a permutation of 0..n-1). */
  partitionOrder?: number[];
  /** Fault hook: the copies of page number `n` (in transmit order on its source chip) to deliver, each with an extra delay. */
  deliver?: (page: FabricPage, n: number, src: number, now: number) => Array<{ page: FabricPage; delay: number }>;
  maxCycles?: number;
  /** UIEs per cluster (default 0) and their model factory (makeUieFactory for real microcode). */
  uies?: number;
  uieFactory?: UieFactory;
  /** Per chip: its own Pyxis_VOQ_to_VPFE_map (default: the identity convention above). */
  maps?: Uint16Array[];
  /** Report each page dequeued when it is granted (the CLIST dequeue of §10.7 [5b]) instead of after its transmission. */
  dequeueAtGrant?: boolean;
  /** Pyxis_VOQ_to_VPFE_map entries to override (entry -> VPFE). */
  mapPatch?: Record<number, number>;
  /** Per chip: a trace observer (Perfetto tracks of the job managers). */
  observers?: PyxisObserver[];
}

export const voqOf = (chip: number, cluster: number, oq = 0): number => 4 * (4 * chip + cluster) + oq;

export interface StubSystem {
  chips: PyxisChip[];
  /** Pages transmitted, per source chip, in order. */
  sent: FabricPage[][];
  /** Granted pages of failed jobs flushed instead of sent (§11.8), per source chip. */
  flushed: FabricEnqueue[][];
  /** VOQ enqueues and dequeues as the fabric saw them, per source chip, in order (cycle, +1 / -1, VOQ, cluster, type). */
  log: Array<Array<{ t: number; d: 1 | -1; voq: number; cluster: number; type: string }>>;
  run(): { reason: string; cycles: number };
}

export function buildSystem(images: Container[], o: StubOptions): StubSystem {
  const config = loadSimConfig();
  const n = images.length;
  const map = new Uint16Array(2048).fill(0xffff);
  for (let k = 0; k < n * 4; k++) if ((k & 3) !== 3) map[k] = k;
  for (const [e, v] of Object.entries(o.mapPatch ?? {})) map[Number(e)] = v;
  const chips: PyxisChip[] = [];
  const sent: FabricPage[][] = [];
  const flushed: FabricEnqueue[][] = [];
  const log: StubSystem['log'] = [];
  const dataLinks: Array<TimedLink<FabricPage>> = [];
  const grantLinks: Array<TimedLink<FabricEnqueue>> = [];
  const dequeueLinks: Array<TimedLink<FabricPage>> = [];
  for (let k = 0; k < n; k++) {
    sent.push([]);
    flushed.push([]);
    log.push([]);
    const chip = k;
    const egress = {
      enqueue: (now: number, req: FabricEnqueue) => {
        log[chip]!.push({ t: now, d: 1, voq: req.voq, cluster: req.srcCluster, type: req.type });
        grantLinks[chip]!.send(now, now + o.grantDelay, 0, req);
      },
      // the VOQ flush of a failed job's granted page (§10.7.1.1, §11.8): nothing is delivered, dequeued as if sent
      discard: (now: number, req: FabricEnqueue) => {
        flushed[chip]!.push(req);
        if (!o.dequeueAtGrant) dequeueLinks[chip]!.send(now, now + 1, 0, req as FabricPage);
      },
      transmit: (now: number, page: FabricPage) => {
        const idx = sent[chip]!.length;
        sent[chip]!.push(page);
        if (!o.dequeueAtGrant) dequeueLinks[chip]!.send(now, now + 1, 0, page);
        const copies = o.deliver ? o.deliver(page, idx, chip, now) : [{ page, delay: 0 }];
        for (const c of copies) dataLinks[c.page.dest.vpfe >> 2]!.send(now, now + o.latency + c.delay, chip, c.page);
      },
    };
    chips.push(new PyxisChip({
      clusters: o.clusters ?? 1, uies: o.uies ?? 0, config,
      ...(o.uieFactory ? { uieFactory: o.uieFactory } : {}),
      ...(o.observers?.[k] ? { observer: o.observers[k] } : {}),
      fabric: { chip: k, egress, voqToVpfe: o.maps?.[k] ?? map, ...(o.adapter ? { adapter: o.adapter } : {}), ...(o.timingOnly ? { timingOnly: true } : {}) },
      ...(o.registrationSeed !== undefined ? { registrationSeed: o.registrationSeed + k } : {}),
    }));
  }
  for (let k = 0; k < n; k++) {
    const chip = chips[k]!;
    let pipe = 0;
    grantLinks.push(chip.sim.addLink(new TimedLink<FabricEnqueue>(`chip${k}.grant`, o.grantDelay, PHASE.engines, (req, now) => {
      chip.fabric!.tx.granted(now, req.srcCluster, req.qpage, pipe++ % 4);
      if (o.dequeueAtGrant) chip.fabric!.tx.dequeued(now, req.srcCluster, req.qpage);
    })));
    dequeueLinks.push(chip.sim.addLink(new TimedLink<FabricPage>(`chip${k}.dequeue`, 1, PHASE.engines, (p, now) => {
      log[k]!.push({ t: now, d: -1, voq: p.voq, cluster: p.srcCluster, type: p.type });
      chip.fabric!.tx.dequeued(now, p.srcCluster, p.qpage);
    })));
    const l = new TimedLink<FabricPage>(`chip${k}.fabric_in`, o.latency, PHASE.engines, (p, now) => chip.fabric!.rx.receive(now, p.dest.vpfe & 3, p));
    l.crossPartition = true;
    dataLinks.push(chip.sim.addLink(l));
  }
  images.forEach((img, k) => loadImage(chips[k]!, inspectImage(img, `chip${k}.pimg`)));
  return {
    chips,
    sent,
    flushed,
    log,
    run() {
      const order = o.partitionOrder ?? chips.map((_, i) => i);
      const r = runPartitioned(order.map((i) => chips[i]!.sim), order.map((i) => dataLinks[i]!) as Array<TimedLink<unknown>>, { lookahead: o.latency, maxCycles: o.maxCycles ?? 50_000_000 });
      return { reason: r.reason, cycles: r.cycles };
    },
  };
}
