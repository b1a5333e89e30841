/** The UIE datapath model used by `pyxis-sim run`: targets/pyxis/uie's `Uie`, observed by its per-trip statistics (uieTripStats.ts). */
import { Uie } from './uie/index.js';
import type { UieFactory, UieModel, UieModelOptions } from './uieSlot.js';
import { COUNTERS, MAX_TRIP_RECORDS, STALLS, UieTripStats } from './uieTripStats.js';
import { vbufFigures, vpuFigures, vpuWorked } from './vpuStats.js';

export { STALLS };

/** Options of the default UIE model chosen on the command line. */
export interface DefaultUieOptions {
  /** `pyxis-sim run --timing-only`: skip the LLC arithmetic (compute/index.ts `timingOnly`). */
  timingOnly?: boolean;
}

/** The default factory with command-line options (`--timing-only`). */
export function makeUieFactory(opts: DefaultUieOptions = {}): UieFactory {
  return (o: UieModelOptions) =>
    new Uie({
      cluster: o.cluster, index: o.index, amem: o.amem, cfg: o.cfg, cfgBase: o.cfgBase, writeCommitLatency: o.writeCommitLatency, params: o.params, onTripDone: o.onTripDone, onPartialWrite: o.onPartialWrite,
      observer: new UieTripStats(opts.timingOnly ?? false),
      ...(opts.timingOnly ? { timingOnly: true } : {}),
    });
}

export const defaultUieFactory: UieFactory = makeUieFactory();

/** Current PC per sequencer of a `Uie` (VCD probes), or undefined for other models. */
export function sequencerPcs(m: UieModel | undefined): Array<() => number> | undefined {
  if (!(m instanceof Uie)) return undefined;
  return m.seqs.map((s) => () => s.core.pc);
}

/** VCD/trace probes of a `Uie`: decoder and switchbox FIFO occupancies. */
export function uieFifos(m: UieModel | undefined): Array<[string, () => number]> | undefined {
  if (!(m instanceof Uie)) return undefined;
  const u = m;
  return [
    ['amem_read_decoder_fifo', () => u.rd.dec.occupancy],
    ['amem_write_decoder_fifo', () => u.wr.dec.occupancy],
    ['sb_amem_read_to_write', () => u.sbReadToWrite.occupancy],
  ];
}

/** Per-sequencer probes of a `Uie` for the sequencer trace tracks: name, running flag, PC, trip slot. */
export function sequencerRunning(m: UieModel | undefined): Array<{ name: string; running: () => boolean; pc: () => number; slot: () => number }> | undefined {
  if (!(m instanceof Uie)) return undefined;
  return m.seqs.map((s) => ({ name: s.name, running: () => s.core.running, pc: () => s.core.pc, slot: () => s.slot }));
}

/** FLOPs per MAC (multiply + add), as in chip §1's 44 TFLOPS = 2048 LLC x 8 MAC x 2 x 1.33 GHz. */
const FLOPS_PER_MAC = 2;

function figures(c: Record<string, number>, cycles: number, clockHz: number) {
  const stalls: Record<string, number> = {};
  for (const [name, k] of STALLS) if (c[k]) stalls[name] = c[k]!;
  const seconds = cycles / clockHz;
  const vpu = vpuFigures(c, cycles);
  const vbuffer = vbufFigures(c);
  return {
    cycles,
    macs: c['macs'] ?? 0,
    tflops: seconds > 0 ? ((c['macs'] ?? 0) * FLOPS_PER_MAC) / seconds / 1e12 : 0,
    grid_utilisation: cycles > 0 ? (c['execValid'] ?? 0) / cycles : 0,
    exec_valid: c['execValid'] ?? 0,
    exec_bubble: c['execBubble'] ?? 0,
    exec_config: c['execConfig'] ?? 0,
    exec_nop: c['execNop'] ?? 0,
    splits: c['splits'] ?? 0,
    writebacks: c['writebacks'] ?? 0,
    wb_flits: c['wbFlits'] ?? 0,
    stall_cycles: stalls,
    ...(vpu ? { vpu } : {}),
    ...(vbuffer ? { vbuffer } : {}),
  };
}

/** Compute statistics of a `Uie` (docs/timing-model.md "Pyxis compute statistics"); undefined when the grid never ran. */
function computeStats(u: Uie, clockHz: number): Record<string, unknown> | undefined {
  const s = u.cmp.stats;
  const book = u.observer instanceof UieTripStats ? u.observer.book : undefined;
  const all: Record<string, number> = {};
  for (const k of COUNTERS) all[k] = s[k] as number;
  const used = COUNTERS.some((k) => (s[k] as number) > 0) || s.wdcWords + s.wdpWords + s.hbufReads > 0;
  if (!used && !u.cmp.timingOnly) return undefined;
  const active = book ? book.active(u.now) : u.now;
  return {
    timing_only: u.cmp.timingOnly,
    clock_hz: clockHz,
    ...figures(all, active, clockHz),
    wdc_words: s.wdcWords,
    wdp_words: s.wdpWords,
    hbuf_bytes_written: s.hbufBytesWritten,
    hbuf_reads: s.hbufReads,
    trips: (book?.done ?? [])
      .filter((t) => (t.counters['execValid'] ?? 0) + (t.counters['macs'] ?? 0) + (t.counters['wbFlits'] ?? 0) > 0 || vpuWorked(t.counters))
      .map((t) => ({ trip_id: t.trip_id, start_cycle: t.start_cycle, end_cycle: t.end_cycle, ...figures(t.counters, t.end_cycle + 1 - t.start_cycle, clockHz), amem_bytes: t.amem_bytes })),
    ...(book && book.tripsDone > MAX_TRIP_RECORDS ? { trips_truncated: book.tripsDone - MAX_TRIP_RECORDS } : {}),
  };
}

/** Datapath statistics of a `Uie` for the stats JSON (`compute` only when the compute half did something). */
export function uieStats(m: UieModel | undefined, clockHz = 1.33e9): Record<string, unknown> | undefined {
  if (!(m instanceof Uie)) return undefined;
  const st = m.stats;
  const compute = computeStats(m, clockHz);
  return {
    instructions: Object.fromEntries(m.seqs.map((s) => [s.name, st.instructions[s.id]])),
    bytes_read: st.bytesRead,
    bytes_written: st.bytesWritten,
    pads_inserted: st.padsInserted,
    discards: st.discards,
    rmw_adds: st.rmwAdds,
    partial_writes: st.partialWrites,
    indirect_reads: st.indirectReads,
    indirect_writes: st.indirectWrites,
    flits_dropped: st.flitsDropped,
    ...(compute ? { compute } : {}),
  };
}
