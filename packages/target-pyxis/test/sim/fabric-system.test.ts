/**
 * Systems of 2-4 chips over the stub fabric: a 4-chip ring exchange delivered byte-exact, `--timing-only` (no
 * payload, the same cycles), and results that do not depend on the order in which chips are registered with the
 * partitioned runner nor on the engines' registration order inside each chip (fast-check over small RDMA plans).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Container } from '@pyxis/container';
import { bytesOf, ImageBuilder } from './pyxisImage.js';
import { buildSystem, voqOf, type StubOptions } from './fabric-stub.js';
import { firstDiff } from './fabric-rdma-lib.js';

interface Job { src: number; dst: number; words: number; page: number }

const desc = ImageBuilder.desc;
const srcAddr = (j: number) => 0x10000 + j * 0x400000;
const dstAddr = (j: number) => 0x1000000 + j * 0x400000;
const payload = (j: number, words: number) => bytesOf(words * 128, (i) => (i * (2 * j + 1) + j) & 0xff);

/** Images for `chips` chips running `jobs` (job index = TJID = RJID; each chip's Tx and Rx jobs in one list each). */
function images(chips: number, jobs: Job[]): Container[] {
  const b = Array.from({ length: chips }, () => new ImageBuilder());
  const txs: Uint8Array[][] = b.map(() => []);
  const rxs: Uint8Array[][] = b.map(() => []);
  jobs.forEach((j, k) => {
    b[j.src]!.data('amem', srcAddr(k), payload(k, j.words));
    txs[j.src]!.push(desc('desc_rdma_tx', { trip_id: 100 + k, tjid: k, rjid: k, dest_voq: voqOf(j.dst, 0), amem_address: srcAddr(k) >> 7, num_words: j.words, page_size_words: j.page }));
    rxs[j.dst]!.push(desc('desc_rdma_rx', { trip_id: 200 + k, tjid: k, rjid: k, msg_voq: voqOf(j.src, 0), amem_address: dstAddr(k) >> 7, num_words: j.words }));
  });
  b.forEach((x, c) => {
    if (txs[c]!.length) x.list(0x0c, 0x1000, txs[c]!);
    if (rxs[c]!.length) x.list(0x0e, 0x2000, rxs[c]!);
  });
  return b.map((x) => x.build());
}

function runPlan(chips: number, jobs: Job[], o: Partial<StubOptions> = {}) {
  const sys = buildSystem(images(chips, jobs), { grantDelay: 200, latency: 700, ...o });
  const res = sys.run();
  const exact = jobs.every((j, k) => firstDiff(sys.chips[j.dst]!.amem[0]!.readBytes(dstAddr(k), j.words * 128), payload(k, j.words)) === -1);
  const summary = {
    cycles: res.cycles,
    reason: res.reason,
    stats: sys.chips.map((c) => c.fabricAdapter!.report()),
    engines: sys.chips.map((c) => c.sim.engineStats().map((e) => [e.name, e.busy, e.idle]).sort((x, y) => String(x[0]).localeCompare(String(y[0])))),
  };
  return { sys, res, exact, summary };
}

describe('fabric systems', () => {
  const ring: Job[] = [0, 1, 2, 3].map((k) => ({ src: k, dst: (k + 1) % 4, words: 250 + 37 * k, page: 125 }));

  it('4 chips in a ring: every chip sends to the next and receives from the previous, byte-exact', () => {
    const { res, exact, sys } = runPlan(4, ring);
    expect(res.reason).toBe('done');
    expect(exact).toBe(true);
    for (const c of sys.chips) {
      expect(c.tripsByKind['rdma_tx']).toBe(1);
      expect(c.tripsByKind['rdma_rx']).toBe(1);
    }
  });

  it('all chips send and receive at once (4 MiB per job, 4 pipes, messages interleaved): pages of a VOQ stay in order', () => {
    const big: Job[] = [0, 1, 2].map((k) => ({ src: k, dst: (k + 1) % 3, words: 32768, page: 125 }));
    const { res, exact, summary } = runPlan(3, big, { timingOnly: false });
    expect(res.reason).toBe('done');
    expect(exact).toBe(true);
    for (const st of summary.stats) {
      expect(st.clusters[0]!.rx_sequence_gaps).toBe(0);
      expect(st.clusters[0]!.tx_retries).toBe(0);
    }
  });

  it('a fabric that reports the QPage dequeued at its grant (before the data left): still byte-exact', () => {
    const { res, exact, sys } = runPlan(4, ring, { dequeueAtGrant: true });
    expect(res.reason).toBe('done');
    expect(exact).toBe(true);
    for (const c of sys.chips) expect(c.fabricAdapter!.report().qpages_in_use).toBe(0);
  });

  it('--timing-only: no payload on the wire, nothing written, the same cycles and stats', () => {
    const full = runPlan(4, ring);
    const t = runPlan(4, ring, { timingOnly: true });
    expect(t.summary.cycles).toBe(full.summary.cycles);
    expect(t.summary.stats).toEqual(full.summary.stats);
    expect(t.sys.sent.flat().every((p) => p.payload === null)).toBe(true);
    expect(t.sys.chips[1]!.amem[0]!.readBytes(dstAddr(0), 16)).toEqual(new Uint8Array(16));
  });

  it('results do not depend on chip or engine registration order (property)', () => {
    const job = (n: number) => fc.record({ src: fc.nat(n - 1), dst: fc.nat(n - 2), words: fc.integer({ min: 1, max: 300 }), page: fc.integer({ min: 32, max: 127 }) });
    const plan = fc.integer({ min: 2, max: 3 }).chain((n) => fc.tuple(fc.constant(n), fc.array(job(n), { minLength: 1, maxLength: 3 })));
    fc.assert(
      fc.property(plan, fc.integer({ min: 1, max: 1000 }), ([n, raw], seed) => {
        // dst != src: pick among the other chips
        const jobs = raw.map((j) => ({ ...j, dst: (j.src + 1 + j.dst) % n }));
        const a = runPlan(n, jobs);
        const rev = Array.from({ length: n }, (_, i) => n - 1 - i);
        const b = runPlan(n, jobs, { partitionOrder: rev, registrationSeed: seed });
        expect(a.res.reason).toBe('done');
        expect(a.exact).toBe(true);
        expect(b.summary).toEqual(a.summary);
      }),
      { numRuns: Number(process.env.FC_RUNS ?? 12) },
    );
  });
});
