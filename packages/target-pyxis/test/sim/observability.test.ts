/**
 * Observability of issue 6: trace-event JSON structure (processes per
 * cluster, tracks, trip/sequencer slices with trip_id, barrier instants,
 * counters, pending work at a stop), the stats memory counters, the human
 * summary, and the opt-in uninitialised-read warnings with addresses.
 */
import { describe, expect, it } from 'vitest';
import { defaultUieFactory, formatSummary, loadSimConfig, simulateImage, stopDiagnostic, StringSink, type SimReport } from '@pyxis/target-pyxis/sim';
import { ImageBuilder, bytesOf, copyProgram, gid, seqWord } from './pyxisImage.js';

const CFG = 0x4000_0000;
const desc = ImageBuilder.desc;

interface Ev {
  ph: string;
  name: string;
  pid: number;
  tid: number;
  ts?: number;
  dur?: number;
  cat?: string;
  args?: Record<string, unknown>;
}

/**
 * H2A (HBM 0x8000 -> AMEM 0x10000) -> UIE 0 copy of `rows` rows (AMEM `readAt` -> 0x20000) -> A2H, chained by
 * barriers 1 and 2; `h2a = false` drops the load (the UIE then reads AMEM the image never wrote).
 */
function copyImage(rows: number, readAt = 0x10000, h2a = true) {
  const b = new ImageBuilder();
  b.data('hbm', 0x8000, bytesOf(rows * 128, (i) => i * 7 + 3));
  for (const [off, bytes] of copyProgram(rows)) b.data('cfg', CFG + off, bytes);
  b.list(0x22, 0x1000, [desc('desc_barrier_config', { barrier_id: 1, notify_count: 1, wait_count: 1 }), desc('desc_barrier_config', { barrier_id: 2, notify_count: 1, wait_count: 1 })]);
  if (h2a) b.list(0x10, 0x1100, [desc('desc_h2a', { amem_start_address: readAt >> 7, hbm_base_address: 0x8000 >> 10, length: (rows * 128) / 1024, notify_list: [gid(0, 1)], trip_id: 1 })]);
  b.list(0x00, 0x1200, [
    desc('desc_uie', { trip_valid_mask: 0b11, amem_read_base_address: readAt >> 4, amem_write_base_address: 0x20000 >> 4, wait_barrier_id: h2a ? 1 : 0, notify_list: [gid(0, 2)], trip_id: 2, trip_power: 8 }),
    desc('desc_uie', { trip_valid_mask: 0b11, amem_read_base_address: 0x20000 >> 4, amem_write_base_address: 0x30000 >> 4, trip_id: 7, trip_power: 8 }),
  ]);
  b.list(0x11, 0x1300, [desc('desc_a2h', { amem_start_address: 0x30000 >> 7, hbm_base_address: 0x40, length: (rows * 128) / 1024, wait_barrier_id: 2, trip_id: 3 })]);
  b.metadata = { barriers: [{ cluster: 0, id: 1 }, { cluster: 0, id: 2 }] };
  return b.build();
}

function events(sink: StringSink): Ev[] {
  const t = JSON.parse(sink.text) as { traceEvents: Ev[]; otherData: Record<string, unknown> };
  expect(Array.isArray(t.traceEvents)).toBe(true);
  return t.traceEvents;
}

/** Track (thread) names by tid. */
function trackNames(ev: Ev[]): Map<number, string> {
  return new Map(ev.filter((e) => e.ph === 'M' && e.name === 'thread_name').map((e) => [e.tid, e.args!['name'] as string]));
}

/** Structural rules of the Chrome trace-event format that Perfetto relies on. */
function checkTraceShape(ev: Ev[]): void {
  const named = new Set(ev.filter((e) => e.ph === 'M' && e.name === 'thread_name').map((e) => `${e.pid}/${e.tid}`));
  const procs = new Set(ev.filter((e) => e.ph === 'M' && e.name === 'process_name').map((e) => e.pid));
  for (const e of ev) {
    expect(['M', 'X', 'i', 'C']).toContain(e.ph);
    expect(Number.isInteger(e.pid)).toBe(true);
    expect(procs.has(e.pid)).toBe(true); // every event's process is declared
    if (e.ph === 'X' || e.ph === 'i') expect(named.has(`${e.pid}/${e.tid}`)).toBe(true); // and its track named
    if (e.ph !== 'M') expect(e.ts).toBeGreaterThanOrEqual(0);
    if (e.ph === 'X') expect(e.dur).toBeGreaterThanOrEqual(0);
  }
  // Slices of one track must nest properly (trace viewers reject partial overlaps); compare in cycles (exact).
  const byTrack = new Map<string, Array<[number, number]>>();
  for (const e of ev.filter((x) => x.ph === 'X')) {
    const k = `${e.pid}/${e.tid}`;
    if (!byTrack.has(k)) byTrack.set(k, []);
    byTrack.get(k)!.push([e.args!['start_cycle'] as number, e.args!['end_cycle'] as number]);
  }
  for (const slices of byTrack.values())
    for (const [a0, a1] of slices)
      for (const [b0, b1] of slices) {
        const partial = a0 < b0 && b0 < a1 && a1 < b1;
        expect(partial).toBe(false);
      }
}

describe('trace-event JSON', () => {
  it('one process per cluster, engine/sequencer tracks, trip slices with trip_id, barrier instants, counters', () => {
    const trace = new StringSink();
    const { report } = simulateImage(copyImage(16), 'copy.pimg', { uieFactory: defaultUieFactory, trace, clusters: 2 });
    expect(report.stop).toBe('done');
    const ev = events(trace);
    checkTraceShape(ev);
    const procs = ev.filter((e) => e.ph === 'M' && e.name === 'process_name').map((e) => e.args!['name']);
    expect(procs).toEqual(expect.arrayContaining(['cluster 0', 'cluster 1', 'chip']));
    const pid0 = ev.find((e) => e.ph === 'M' && e.args!['name'] === 'cluster 0')!.pid;
    const tracks = trackNames(ev);
    const trips = ev.filter((e) => e.ph === 'X' && e.cat === 'trip');
    // (a lane suffix ` #2` marks a trip that overlapped the previous one on the same engine)
    expect(trips.map((e) => [tracks.get(e.tid)!.replace(/ #\d+$/, ''), e.args!['trip_id']]).sort()).toEqual(
      [['c0.a2h', 3], ['c0.barrier_config', 0], ['c0.barrier_config', 0], ['c0.h2a', 1], ['c0.uie0', 2], ['c0.uie0', 7]].sort(),
    );
    expect(trips.every((e) => e.pid === pid0)).toBe(true);
    // sequencer tracks: one slice per trip the sequencer ran, with its trip_id
    const seq = ev.filter((e) => e.cat === 'sequencer').map((e) => [tracks.get(e.tid), e.args!['trip_id']]);
    expect(seq).toEqual([
      ['c0.uie0.amem_read', 2],
      ['c0.uie0.amem_write', 2],
      ['c0.uie0.amem_read', 7],
      ['c0.uie0.amem_write', 7],
    ]);
    // barrier events (chip §18) as instants with engine / trip / counts
    const bar = ev.filter((e) => e.ph === 'i' && e.cat === 'barrier');
    expect(bar.map((e) => e.args!['event'])).toEqual(expect.arrayContaining(['setup', 'notify', 'wait', 'release', 'free']));
    for (const e of bar) expect(Object.keys(e.args!)).toEqual(expect.arrayContaining(['barrier_id', 'notify_count', 'wait_count', 'engine', 'trip_id']));
    const notify1 = bar.find((e) => e.args!['event'] === 'notify' && e.args!['barrier_id'] === 1)!;
    expect(notify1.args!['engine']).toBe('c0.h2a');
    expect(notify1.args!['trip_id']).toBe(1);
    // counters: bandwidth (even for a run shorter than the sample period), prefetch and UIE FIFO occupancy
    const counters = new Set(ev.filter((e) => e.ph === 'C').map((e) => e.name));
    expect([...counters]).toEqual(expect.arrayContaining(['bandwidth GB/s', 'prefetch occupancy', 'c0.uie0 FIFO occupancy', 'APM power']));
    const bw = ev.filter((e) => e.ph === 'C' && e.name === 'bandwidth GB/s');
    expect(bw.some((e) => (e.args!['c0.hbm'] as number) > 0)).toBe(true);
  });

  it('overlapping trips of one UIE (several in flight) go to extra lane tracks', () => {
    const b = new ImageBuilder();
    for (const [off, bytes] of copyProgram(16)) b.data('cfg', CFG + off, bytes);
    const ids = [10, 11, 12, 13];
    b.list(0x00, 0x1200, ids.map((id, i) => desc('desc_uie', { trip_valid_mask: 0b11, amem_read_base_address: (0x10000 + i * 0x1000) >> 4, amem_write_base_address: (0x40000 + i * 0x1000) >> 4, trip_id: id })));
    const trace = new StringSink();
    simulateImage(b.build(), 'pipe.pimg', { uieFactory: defaultUieFactory, trace });
    const ev = events(trace);
    checkTraceShape(ev);
    const tracks = trackNames(ev);
    const trips = ev.filter((e) => e.ph === 'X' && e.cat === 'trip');
    expect(trips.map((e) => e.args!['trip_id']).sort()).toEqual(ids);
    // the UIE retires trip 10 while 11 (and 12) are in flight: more than one lane is used
    const lanes = new Set(trips.map((e) => tracks.get(e.tid)));
    expect(lanes.has('c0.uie0')).toBe(true);
    expect(lanes.has('c0.uie0 #2')).toBe(true);
    const seq = ev.filter((e) => e.cat === 'sequencer' && tracks.get(e.tid) === 'c0.uie0.amem_read').map((e) => e.args!['trip_id']);
    expect(seq).toEqual(ids);
  });

  it('at --max-cycles the trace shows the running trips and the unreleased waits as unfinished slices', () => {
    const trace = new StringSink();
    const { report } = simulateImage(copyImage(16), 'copy.pimg', { uieFactory: defaultUieFactory, trace, maxCycles: 120 });
    expect(report.stop).toBe('max-cycles');
    const ev = events(trace);
    checkTraceShape(ev);
    const open = ev.filter((e) => e.ph === 'X' && e.args!['unfinished'] === 1);
    expect(open.map((e) => e.name).sort()).toEqual(['h2a trip 1 (unfinished)', 'wait barrier 1 (not released)', 'wait barrier 2 (not released)']);
    for (const e of open) expect(e.args!['end_cycle']).toBe(120);
  });
});

describe('stats and summary', () => {
  it('UIE bytes in the engine table; memory counters describe the run, not the image load', () => {
    const { report } = simulateImage(copyImage(16), 'copy.pimg', { uieFactory: defaultUieFactory });
    const uie = report.engines.find((e) => e.name === 'c0.uie0')!;
    // two copy trips of 16 rows x 128 B, each read once and written once
    expect(uie.bytes).toBe(2 * 2 * 16 * 128);
    // HBM: the H2A reads 2 KiB, the A2H writes 2 KiB (the image's own 2 KiB HBM section is not counted)
    expect(report.memory.hbm_bytes_read).toBe(2048);
    expect(report.memory.hbm_bytes_written).toBe(2048);
    // AMEM: H2A writes 2 KiB, the UIE reads 4 KiB and writes 4 KiB, the A2H reads 2 KiB, the DPE reads the descriptor lists
    const lists = 2 * 24 + 32 + 2 * 40 + 32;
    expect(report.memory.amem[0]).toMatchObject({ cluster: 0, bytes_read: 4096 + 2048 + lists, bytes_written: 2048 + 4096, uninit_partition_reads: 0 });
    // waits per barrier: trip 2 (uie0) on barrier 1, trip 3 (a2h) on barrier 2; trip 7 does not wait
    const a2h = report.engines.find((e) => e.name === 'c0.a2h')!;
    expect(report.barriers[0]!.wait_cycles).toEqual([
      { barrier_id: 1, waits: 1, cycles: uie.barrier_wait_cycles, max: uie.barrier_wait_cycles },
      { barrier_id: 2, waits: 1, cycles: a2h.barrier_wait_cycles, max: a2h.barrier_wait_cycles },
    ]);
    expect(uie.barrier_wait_cycles).toBeGreaterThan(300); // the H2A's HBM latency + write commit
    const text = formatSummary(report);
    expect(text).toMatch(/completed after \d+ cycles = [\d.]+ [mun]?s at 1\.33 GHz/);
    expect(text).toMatch(/c0\.uie0\s+2\s+[\d.]+\s+[\d.]+\s+8\.19 kB/);
    expect(text).toMatch(/bytes moved: c0\.hbm 4\.10 kB/);
    expect(text).toMatch(/AMEM traffic: c0 read/);
    // the A2H waits for the H2A and both copies: the longest wait
    expect(a2h.barrier_wait_cycles).toBeGreaterThan(uie.barrier_wait_cycles!);
    expect(text).toContain(`longest wait ${a2h.barrier_wait_cycles} cycles, barrier 0:2`);
  });

  it('lists the first warnings in the summary', () => {
    const r = { ...simulateImage(copyImage(8), 'copy.pimg', { uieFactory: defaultUieFactory }).report } as SimReport;
    r.warnings = Array.from({ length: 7 }, (_, i) => ({ severity: 'warning' as const, code: 'SIM0009', message: `w${i}` }));
    const text = formatSummary(r);
    expect(text).toMatch(/warnings: 7\n {2}SIM0009: w0\n/);
    expect(text).toMatch(/\.\.\. 2 more/);
  });
});

describe('barrier timeouts (chip §11.6.7) are warnings', () => {
  it('a barrier slower than barrier_timeout_cycles from first use to free, and one still pending at the end', () => {
    const config = { ...loadSimConfig(), barrier_timeout_cycles: 50 };
    const ok = simulateImage(copyImage(8), 'slow.pimg', { uieFactory: defaultUieFactory, config }).report;
    expect(ok.stop).toBe('done');
    const w = ok.warnings.filter((d) => d.code === 'SIM0009');
    // barrier 1 waits for the H2A (HBM latency + commit > 300 cycles), barrier 2 for the UIE copy after it
    // §11.6.7 marking walk every 50 cycles: both barriers are in use from the first cycles, marked by the walk of
    // cycle 50 and still marked at the walk of cycle 100 (the H2A alone takes > 300 cycles).
    expect(w.map((d) => d.message)).toEqual([
      expect.stringMatching(/^barrier 0:1 timed out at cycle 100 \(in use since cycle \d+, still marked at the second walk; walk period 50\); completed at cycle \d{3,}$/),
      expect.stringMatching(/^barrier 0:2 timed out at cycle 100 \(in use since cycle \d+, still marked at the second walk; walk period 50\); completed at cycle \d{3,}$/),
    ]);
    expect(w[0]!.spec).toMatch(/§11\.6\.7/);
    expect(ok.barriers[0]!.timeouts).toBe(2);
    // a barrier nobody notifies: the waiting H2A deadlocks at the end, the barrier is reported as still pending
    const b = new ImageBuilder();
    b.list(0x22, 0x1000, [desc('desc_barrier_config', { barrier_id: 9, notify_count: 1, wait_count: 1 })]);
    b.list(0x10, 0x1100, [desc('desc_h2a', { amem_start_address: 0x100, hbm_base_address: 0, length: 1, wait_barrier_id: 9, trip_id: 4 })]);
    const dl = simulateImage(b.build(), 'dl.pimg', { config: { ...config, barrier_timeout_cycles: 5 } }).report;
    expect(dl.stop).toBe('deadlock');
    expect(dl.warnings.filter((d) => d.code === 'SIM0009').map((d) => d.message)).toEqual([expect.stringMatching(/^barrier 0:9 (timed out|times out after the deadlock,) at cycle \d+ .*; still incomplete at the end$/)]);
  });
});

describe('deadlock report', () => {
  it('names the UIE sequencer and the FIFO it waits on, and the trip', () => {
    const b = new ImageBuilder();
    const loop = { eopgm: 1, iter0_is_eol: 1, iter0_sol_pc: 0, iter0_numloops: 64 };
    // AMEM Write takes its data from the grid, which nothing feeds: a deadlock inside the UIE.
    for (const [off, w] of [
      seqWord('amem_read', 'control', 0, loop),
      seqWord('amem_read', 'op', 0, { opcd: 'Read_SRAM', data_type: 'Opaque_8bit', tgt_fifo: 'AMEM_write', num_logical_ptns: 8 }),
      seqWord('amem_write', 'control', 0, loop),
      seqWord('amem_write', 'op', 0, { opcd: 'Write', data_type: 'Opaque_8bit', src_fifo: 'Grid', num_logical_cols: 128 }),
    ])
      b.data('cfg', CFG + off, w);
    b.list(0x00, 0x1200, [desc('desc_uie', { trip_valid_mask: 0b11, amem_read_base_address: 0x10000 >> 4, amem_write_base_address: 0x20000 >> 4, trip_id: 2 })]);
    const { report } = simulateImage(b.build(), 'dl.pimg', { uieFactory: defaultUieFactory });
    expect(report.stop).toBe('deadlock');
    const d = stopDiagnostic(report)!.diagnostics[0]!;
    expect(d.code).toBe('SIM0010');
    expect(d.notes!.join('\n')).toMatch(/c0\.uie0: trip\(s\) 2: amem_write: waiting switchbox FIFO \S*grid->amem_write/);
  });
});

describe('reads of uninitialised memory (--warn-uninit)', () => {
  it('by default: totals only, with a hint', () => {
    const { report } = simulateImage(copyImage(16, 0x50000, false), 'u.pimg', { uieFactory: defaultUieFactory });
    const w = report.warnings.filter((d) => d.code === 'SIM0014');
    expect(w.map((d) => d.message)).toEqual(['c0.amem: 128 partition read(s) of AMEM never written']);
    expect(w[0]!.notes).toContain('run with --warn-uninit for the addresses');
  });

  it('with warnUninit: one warning per never-written block, with address, cycle and count', () => {
    const b = copyImage(16, 0x50000, false);
    const { report } = simulateImage(b, 'u.pimg', { uieFactory: defaultUieFactory, warnUninit: true });
    const w = report.warnings.filter((d) => d.code === 'SIM0014').map((d) => d.message);
    // 16 rows x 8 partitions read from the 16 KiB block at 0x50000, which nothing ever wrote
    expect(w).toHaveLength(1);
    expect(w[0]).toMatch(/^cycle \d+: read of uninitialised c0\.amem at 0x50000 \(128 16-byte partitions never written, until cycle \d+\)$/);
    expect(report.memory.amem_uninit_reads).toBe(128);
  });

  it('reports HBM pages read by DMA before anything wrote them, and nothing for initialised runs', () => {
    const b = new ImageBuilder();
    b.list(0x10, 0x1000, [desc('desc_h2a', { amem_start_address: 0x10000 >> 7, hbm_base_address: 0x20_0000 >> 10, length: 2, trip_id: 9 })]);
    const { report } = simulateImage(b.build(), 'h.pimg', { warnUninit: true });
    expect(report.warnings.map((d) => d.message)).toEqual([expect.stringMatching(/read of uninitialised hbm at 0x200000 \(2048 bytes never written/)]);
    const ok = simulateImage(copyImage(8), 'copy.pimg', { uieFactory: defaultUieFactory, warnUninit: true }).report;
    expect(ok.warnings.filter((d) => d.code === 'SIM0014')).toEqual([]);
  });
});
