/**
 * Job Failed recovery through the tools (chip §11.8 with §10.7.1.2, §10.8.1.2): two linked images whose software
 * (image metadata `pyxis.host_actions`) answers the Job Failed interrupt with the §11.8 sequence (Trip Flush mode,
 * clear the failed job, wait for the flush and for idle Job Tables, leave flush mode), run by `pyxis-sim run` with
 * --fabric-faults losing a page of each attempt: the trips that depended on the failed job are discarded, the run
 * completes with the failures reported as recovered. And the inhibit CSR: failures go straight to Idle.
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readContainerFile, writeContainerFile, writeNpy } from '@pyxis/container';
import { runLd, runSim } from '@pyxis/targets';
import { call } from './cli-call.js';
import { linkPair } from './system-pair.js';

const ROWS = 48;
const MEM = `memory amem0 { space = amem; cluster = 0; origin = 0; length = 32M; }
memory hbm { space = hbm; origin = 0; length = 1G; }
`;
// engine addresses of the cluster-0 CSRs (grammars/pyxis/memory_map.json; docs/system.md "What software sees")
const hex = (n: bigint | number) => `0x${n.toString(16)}`;
const TRIP_FLUSH = 0x40f04000;
const TRIP_FLUSH_STATUS = 0x40f04008;
const TX_FAILED = 0x40f05000;
const RX_FAILED = 0x40f05020;
const INHIBIT = 0x40f05080;
const JOB_STATUS = 0x40f05088;

/** The §11.8 sequence of one chip whose failed job has bit `bit` in the failed vector at `vector`. */
function recovery(vector: number, bit: number) {
  return [
    { address: hex(TRIP_FLUSH), value: 1, after_interrupt: { entry: 'fabric_job_failed', count: 1 } },
    { address: hex(vector), value: hex(1n << BigInt(bit)) },
    // wait for the flush to be done (trip_flush_status bit 17); the write repeats the mode (no effect)
    { address: hex(TRIP_FLUSH), value: 1, poll: { address: hex(TRIP_FLUSH_STATUS), mask: hex(1 << 17), value: hex(1 << 17) } },
    // then for the Job Tables to be idle, and leave flush mode
    { address: hex(TRIP_FLUSH), value: 0, poll: { address: hex(JOB_STATUS), mask: '0xffffffff', value: 0 } },
  ];
}

function withActions(dir: string, from: string, to: string, actions: unknown[]): void {
  const c = readContainerFile(join(dir, from));
  (c.metadata as { pyxis: Record<string, unknown> }).pyxis['host_actions'] = actions;
  writeContainerFile(join(dir, to), c);
}

describe('Job Failed recovery through pyxis-ld / pyxis-sim (chip §11.8)', () => {
  it('interrupt -> flush -> clear -> flush done, tables idle -> resume: dependent trips discarded, exit 0', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pyxis-sysrec-'));
    const data = new Float32Array(ROWS * 128).map((_, i) => ((i * 37) % 23) - 11);
    writeFileSync(join(dir, 'x.npy'), writeNpy({ dtype: 'float32', shape: [ROWS, 128], data }));
    // chip 0: H2A, RDMA send, then an A2H that needs the send's completion; chip 1: RDMA receive, then an A2H of it
    writeFileSync(join(dir, 'c0.ld'), MEM + `tensor x_hbm { format = RFP8; shape = [${ROWS}, 128]; region = hbm; data = "x.npy"; }
tensor x_out { format = RFP8; shape = [${ROWS}, 128]; region = hbm; zero = true; }
tensor x { format = RFP8; shape = [${ROWS}, 128]; region = amem0; zero = true; }
queue h2a { trip load { src = x_hbm; dst = x; } }
queue rdma_tx0 { trip send { src = x; tjid = 12; rjid = 34; dest_voq = 4; page_size_words = 32; } }
queue a2h { trip back { src = x; dst = x_out; } }
send after load;
back after send;
`);
    writeFileSync(join(dir, 'c1.ld'), MEM + `tensor y { format = RFP8; shape = [${ROWS}, 128]; region = amem0; zero = true; }
tensor y_out { format = RFP8; shape = [${ROWS}, 128]; region = hbm; zero = true; }
queue rdma_rx0 { trip recv { dst = y; tjid = 12; rjid = 34; msg_voq = 4; } }
queue a2h { trip store { src = y; dst = y_out; } }
store after recv;
`);
    for (const k of [0, 1]) {
      const l = await call(runLd, [join(dir, `c${k}.ld`), '-o', join(dir, `c${k}.pimg`)]);
      expect(l.code).toBe(0); // (a precision warning for RFP8 data is expected)
    }
    withActions(dir, 'c0.pimg', 'r0.pimg', recovery(TX_FAILED, 12));
    withActions(dir, 'c1.pimg', 'r1.pimg', recovery(RX_FAILED, 34));
    writeFileSync(join(dir, 'sys.json'), JSON.stringify({ chips: 2, images: ['r0.pimg', 'r1.pimg'], voq_map: [{ group: 1, chip: '+1' }] }));
    const l = await call(runLd, [join(dir, 'sys.json'), '-o', join(dir, 'sys.psys')]);
    expect(l.code).toBe(0);
    // 48 rows of 128 B at 32 words a page: 2 pages an attempt; pages 0 and 2 are the first of each attempt
    const r = await call(runSim, ['run', join(dir, 'sys.psys'), '--fabric-faults', 'drop:data:nth=0,drop:data:nth=2', '--stats', join(dir, 's.json')]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/system of 2 chip\(s\) completed/);
    expect(r.out).toMatch(/recovered \(a host action waited on the Job Failed interrupt\): chip 0 cluster 0 Tx job TJID=12 RJID=34/);
    expect(r.out).toMatch(/recovered \(a host action waited on the Job Failed interrupt\): chip 1 cluster 0 Rx job TJID=12 RJID=34/);
    const s = JSON.parse(readFileSync(join(dir, 's.json'), 'utf8'));
    expect(s.failed_jobs.map((f: { recovered: boolean }) => f.recovered)).toEqual([true, true]);
    for (const k of [0, 1]) {
      const tf = s.chips[k].trip_flush as Array<{ cluster: number; trips_discarded: number; done_at: number[]; flush_mode: boolean }>;
      // the A2H trip that waited on the failed job's barrier was discarded; the flush completed once, mode left
      expect(tf.map((t) => [t.cluster, t.trips_discarded, t.done_at.length, t.flush_mode])).toEqual([[0, 1, 1, false]]);
      expect(s.chips[k].trips_by_kind['a2h']).toBeUndefined();
    }
  }, 60_000);

  it('with cluster.fabric_failed_inhibit set from the start the failures go straight to Idle: exit 0, reported', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pyxis-sysinh-'));
    await linkPair(dir);
    for (const k of [0, 1]) withActions(dir, `chip${k}.pimg`, `i${k}.pimg`, [{ address: hex(INHIBIT), value: 1 }]);
    writeFileSync(join(dir, 'i.json'), JSON.stringify({ chips: 2, images: ['i0.pimg', 'i1.pimg'], voq_map: [{ group: 1, chip: '+1' }] }));
    expect((await call(runLd, [join(dir, 'i.json'), '-o', join(dir, 'i.psys')])).code).toBe(0);
    const r = await call(runSim, ['run', join(dir, 'i.psys'), '--fabric-faults', 'drop:data:nth=0,drop:data:nth=2', '--stats', join(dir, 's.json')]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/recovered \(the sticky Job Failed state was inhibited, cluster\.fabric_failed_inhibit\): chip 0 cluster 0 Tx job TJID=12 RJID=34/);
    const s = JSON.parse(readFileSync(join(dir, 's.json'), 'utf8'));
    expect(s.failed_jobs.map((f: { recovered: boolean; inhibited?: boolean }) => [f.recovered, f.inhibited])).toEqual([[true, true], [true, true]]);
  }, 60_000);
});
