/**
 * Fabric adapter diagnostics (SIM0750-SIM0756) and a two-cluster system: every bad descriptor or parameter stops the
 * run with its code and spec section, never a stack trace; two clusters of one chip send over the shared QPage table.
 */
import { describe, expect, it } from 'vitest';
import { loadFabricAdapterParams } from '@pyxis/target-pyxis/sim';
import { bytesOf, ImageBuilder } from './pyxisImage.js';
import { buildSystem, voqOf } from './fabric-stub.js';
import { firstDiagnostic, firstDiff } from './fabric-rdma-lib.js';

const desc = ImageBuilder.desc;

function code(f: () => unknown): { code: string; message: string; spec?: string } {
  const d = firstDiagnostic(f);
  return { code: d.code, message: d.message, ...(d.spec ? { spec: d.spec } : {}) };
}

function txOnly(fields: Record<string, number>, extra?: Record<string, number>, mapPatch?: Record<number, number>) {
  const tx = new ImageBuilder();
  tx.list(0x0c, 0x1000, [desc('desc_rdma_tx', { trip_id: 1, tjid: 1, rjid: 1, dest_voq: voqOf(1, 0), amem_address: 0x10000 >> 7, num_words: 64, page_size_words: 32, ...fields })].concat(extra ? [desc('desc_rdma_tx', { trip_id: 2, tjid: 1, rjid: 2, dest_voq: voqOf(1, 0, 1), amem_address: 0x10000 >> 7, num_words: 64, page_size_words: 32, ...extra })] : []));
  return buildSystem([tx.build(), new ImageBuilder().build()], { grantDelay: 100, latency: 500, ...(mapPatch ? { mapPatch } : {}) });
}

describe('fabric adapter diagnostics', () => {
  it('SIM0751: a VOQ the Pyxis_VOQ_to_VPFE_map does not configure, or a VPFE with VPFE[1:0] = 3 (§10.2)', () => {
    const a = code(() => txOnly({ dest_voq: 4000 }).run());
    expect(a.code).toBe('SIM0751');
    expect(a.message).toMatch(/VOQ 4000 \(map entry 1000\) is not configured/);
    expect(a.spec).toMatch(/§10.2/);
    const b = code(() => txOnly({ dest_voq: 4 * 5 }, undefined, { 5: 7 }).run()); // entry 5 -> VPFE 7: VPFE[1:0] = 3
    expect(b.code).toBe('SIM0751');
    expect(b.message).toMatch(/VPFE\[1:0\] = 3 is illegal/);
  });

  it('SIM0752: PageSizeWords outside [32, 127] (§11.4.6)', () => {
    const a = code(() => txOnly({ page_size_words: 31 }).run());
    expect(a.code).toBe('SIM0752');
    expect(a.message).toMatch(/PageSizeWords 31 is outside \[32, 127\]/);
  });

  it('SIM0753: a TJID re-used while its job is active (§10.4)', () => {
    const a = code(() => txOnly({}, {}).run());
    expect(a.code).toBe('SIM0753');
    expect(a.message).toMatch(/TJID 1 is still active \(CTS wait, trip 1\)/);
  });

  it('SIM0750: invalid adapter parameters name their JSON path', () => {
    expect(code(() => loadFabricAdapterParams({ timers: { tx_ack_wait_timeout_cycles: 0 } })).message).toMatch(/`timers.tx_ack_wait_timeout_cycles` must be an integer >= 1/);
    expect(code(() => loadFabricAdapterParams({ occupancy: { profiles: [{ xoff: 4, xon: 4 }, ...loadFabricAdapterParams().occupancy.profiles.slice(1)] } })).message).toMatch(/occupancy.profiles\[0\].xon.*hysteresis/);
    expect(code(() => loadFabricAdapterParams({ page_generator: { channels: 1, message_channels_reserved: 1 } })).code).toBe('SIM0750');
  });
});

describe('Tx / Rx NumWords that disagree between the chips (§10.8.8)', () => {
  for (const [txWords, rxWords, why] of [
    [300, 200, /overrun: the Tx job sends more than the Rx job's NumWords \(200\)/],
    [200, 300, /short job: the last page came after 200 of the Rx job's 300 words/],
  ] as const)
    it(`Tx ${txWords} words, Rx ${rxWords}: NACK, the retry fails the same way, Job Failed on both sides with the reason`, () => {
      const tx = new ImageBuilder();
      const rx = new ImageBuilder();
      tx.list(0x0c, 0x1000, [desc('desc_rdma_tx', { trip_id: 1, tjid: 1, rjid: 2, dest_voq: voqOf(1, 0), amem_address: 0x10000 >> 7, num_words: txWords, page_size_words: 100 })]);
      rx.list(0x0e, 0x1000, [desc('desc_rdma_rx', { trip_id: 2, tjid: 1, rjid: 2, msg_voq: voqOf(0, 0), amem_address: 0x40000 >> 7, num_words: rxWords })]);
      const sys = buildSystem([tx.build(), rx.build()], { grantDelay: 100, latency: 500 });
      expect(sys.run().reason).toBe('done');
      const rf = sys.chips[1]!.fabricAdapter!.failures;
      const tf = sys.chips[0]!.fabricAdapter!.failures;
      expect(rf.map((f) => [f.side, f.tjid, f.rjid])).toEqual([['rx', 1, 2]]);
      expect(rf[0]!.reason).toMatch(why);
      expect(tf.map((f) => [f.side, f.tjid, f.rjid])).toEqual([['tx', 1, 2]]);
      expect(sys.chips[1]!.fabricAdapter!.report().clusters[0]!.rx_nacks_sent).toBe(2);
    });
});

describe('two clusters per chip', () => {
  it('cluster 0 and cluster 1 of chip 0 each send to the same cluster of chip 1, byte-exact', () => {
    const d = (k: number) => bytesOf(300 * 128, (i) => (i * (k + 2)) & 0xff);
    const tx = new ImageBuilder();
    const rx = new ImageBuilder();
    for (const c of [0, 1]) {
      tx.data('amem', 0x10000, d(c), c);
      tx.list(0x0c, 0x1000, [desc('desc_rdma_tx', { trip_id: 1 + c, tjid: 7, rjid: 7, dest_voq: voqOf(1, c), amem_address: 0x10000 >> 7, num_words: 300, page_size_words: 100 })], c);
      rx.list(0x0e, 0x1000, [desc('desc_rdma_rx', { trip_id: 3 + c, tjid: 7, rjid: 7, msg_voq: voqOf(0, c), amem_address: 0x40000 >> 7, num_words: 300 })], c);
    }
    const sys = buildSystem([tx.build(), rx.build()], { grantDelay: 100, latency: 500, clusters: 2, adapter: { qpages: { table_entries: 4, cluster_limit: 4 } } });
    expect(sys.run().reason).toBe('done');
    for (const c of [0, 1]) expect(firstDiff(sys.chips[1]!.amem[c]!.readBytes(0x40000, 300 * 128), d(c))).toBe(-1);
    const r = sys.chips[0]!.fabricAdapter!.report();
    expect(r.clusters.map((s) => s.tx_jobs_completed)).toEqual([1, 1]);
    expect(r.clusters[0]!.qpages_max + r.clusters[1]!.qpages_max).toBeGreaterThan(0);
    expect(r.qpages_in_use).toBe(0);
  });
});
