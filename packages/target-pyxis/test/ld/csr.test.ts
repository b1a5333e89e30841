import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CSR_BARRIER_INTERRUPT_CONFIG, CSR_BT_MEM_DECREMENT, CSR_ENQUEUE, simulateImage } from '@pyxis/target-pyxis/sim';
import { clusterCsrAddress, link, loadMemoryMap } from '@pyxis/target-pyxis/ld';
import { linkErr } from './helpers.js';

/**
 * Cluster CSR addresses have one source, the `cluster_csr` regions of
 * grammars/pyxis/memory_map.json, read by the simulator (clusterCsr.ts) and
 * by the linker (`config cluster.<csr> { ... }` preloads).
 */
const mmFile = fileURLToPath(new URL('../../../../grammars/pyxis/memory_map.json', import.meta.url));


describe('cluster CSRs from memory_map.json', () => {
  it('linker and simulator see the same addresses (engine address = 0x4000_0000 + CSR-window offset)', () => {
    const raw = JSON.parse(readFileSync(mmFile, 'utf8')) as { regions: Array<{ name: string; kind?: string; offset: number; address: number }> };
    const csr = raw.regions.filter((r) => r.kind === 'cluster_csr');
    expect(csr.map((r) => r.name)).toEqual([
      'cluster.enqueue',
      'cluster.bt_mem_decrement',
      'cluster.barrier_interrupt_config',
      'cluster.trip_flush',
      'cluster.trip_flush_status',
      'cluster.barrier_timeout_status',
      'cluster.bt_mem',
      'cluster.descr_q_head',
      'cluster.dpe_config',
      'cluster.fabric_tx_failed',
      'cluster.fabric_rx_failed',
      'cluster.dgram_tail',
      'cluster.dgram_head',
      'cluster.fabric_failed_inhibit',
      'cluster.fabric_job_status',
      'cluster.dgram_rxq_counts',
      'cluster.fabric_tx_job_table',
      'cluster.fabric_rx_job_table',
      'cluster.fabric_voq_config',
    ]);
    for (const r of csr) expect(r.address).toBe(0x4000_0000 + r.offset);
    expect(clusterCsrAddress('cluster.enqueue')).toBe(0x4000_0000 + CSR_ENQUEUE);
    expect(clusterCsrAddress('cluster.bt_mem_decrement', 6)).toBe(0x4000_0000 + CSR_BT_MEM_DECREMENT + 6 * 8);
    expect(clusterCsrAddress('cluster.barrier_interrupt_config', 7)).toBe(0x4000_0000 + CSR_BARRIER_INTERRUPT_CONFIG + 56);
    expect(() => clusterCsrAddress('cluster.barrier_interrupt_config', 8)).toThrow(RangeError);
    // the block lies above the 12 UIE blocks of the CSR window
    const mm = loadMemoryMap();
    expect(CSR_ENQUEUE).toBeGreaterThanOrEqual(12 * mm.uieStride);
  });

  it('`config cluster.barrier_interrupt_config` preloads the CSR; pyxis-sim applies it', () => {
    const script = `config cluster.barrier_interrupt_config { cluster = 0; index = 2; entry { interrupt_valid = 1; barrier_id = 13; } }
queue uie0 { trip a { } }`;
    const { image } = link({ script });
    const s = image.sections.find((x) => x.name === '.cfg.c0.cluster.barrier_interrupt_config.2')!;
    expect(s.address).toBe(clusterCsrAddress('cluster.barrier_interrupt_config', 2));
    // interrupt_valid bit 0, barrier_id bits 1..10: 1 | 13 << 1 = 27
    expect(Array.from(s.data)).toEqual([27, 0, 0, 0, 0, 0, 0, 0]);
    const r = simulateImage(image, 'csr.pimg');
    expect(r.report.stop).toBe('done');
    const bt = r.chip.barriers[0]! as unknown as { interruptValid: ArrayLike<number>; interruptBarrier: ArrayLike<number> };
    expect([bt.interruptValid[2], bt.interruptBarrier[2]]).toEqual([1, 13]);
  });

  it('rejects `uie` on a cluster CSR and preloading the enqueue CSR (LD0158)', () => {
    const d1 = linkErr({ script: 'config cluster.bt_mem_decrement { uie = 3; values = [1]; }\nqueue uie0 { trip a { } }', scriptFile: '/v/a.ld' });
    expect(d1.map((x) => x.code)).toEqual(['LD0158']);
    expect(d1[0]!.span).toMatchObject({ line: 1, column: 35 });
    const d2 = linkErr({ script: 'config cluster.enqueue { values = [1]; }', scriptFile: '/v/b.ld' });
    expect(d2.map((x) => x.code)).toEqual(['LD0158']);
    expect(d2[0]!.spec).toContain('§11.5.1.1');
  });

  it('LD0977: a `cluster.bt_mem` preload of barrier 0 or of a barrier the linker allocates; other ids link', () => {
    // a -> b -> c on two queues: the linker allocates barriers 1 and 2 of cluster 0 (ids from 1 in creation order)
    const trips = `queue uie0 { trip a { } trip c { } }\nqueue uie1 { trip b { } }\nb after a;\nc after b;`;
    const bt = (at: string) => `config cluster.bt_mem { ${at} }\n${trips}`;
    const d = linkErr({ script: bt('index = 1; values = [0, 0, 0];'), scriptFile: '/v/bt.ld' });
    expect(d.map((x) => [x.code, x.message.match(/barrier \d+/)![0]])).toEqual([
      ['LD0977', 'barrier 1'],
      ['LD0977', 'barrier 2'],
    ]);
    // each names its producer: a's barrier (b waits) and b's (c waits), in the allocator's order
    expect(d.map((x) => x.message.match(/notified by trip `(\w)`/)![1]).sort()).toEqual(['a', 'b']);
    expect(d[0]!.span).toMatchObject({ file: '/v/bt.ld', line: 1, column: 8 });
    expect(d[0]!.spec).toMatch(/§11\.6\.2, §11\.6\.6/);
    const zero = linkErr({ script: bt('index = 0; entry { notify_count = 1; }') });
    expect(zero.map((x) => x.code)).toEqual(['LD0977']);
    expect(zero[0]!.message).toMatch(/`cluster\.bt_mem\[0\]` is not a barrier/);
    // barrier 3 is not the linker's; another cluster's 1 neither
    expect(link({ script: bt('index = 3; entry { notify_count = 1; }') }).image.sections.some((x) => x.name === '.cfg.c0.cluster.bt_mem.3')).toBe(true);
    expect(link({ script: bt('cluster = 1; index = 1; entry { notify_count = 1; }') }).image.sections.some((x) => x.name === '.cfg.c1.cluster.bt_mem.1')).toBe(true);
  });
});
