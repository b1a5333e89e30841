/** The UIE datapath model used by `pyxis-sim run`: targets/pyxis/uie's `Uie`. */
import { Uie } from './uie/index.js';
import type { UieFactory, UieModel } from './uieSlot.js';

export const defaultUieFactory: UieFactory = (o) => {
  const u = new Uie({ cluster: o.cluster, index: o.index, amem: o.amem, cfg: o.cfg, cfgBase: o.cfgBase, writeCommitLatency: o.writeCommitLatency, onTripDone: o.onTripDone, onPartialWrite: o.onPartialWrite });
  return u;
};

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
    ['amem_read_decoder_fifo', () => u.readDec.occupancy],
    ['amem_write_decoder_fifo', () => u.writeDec.occupancy],
    ['sb_amem_read_to_write', () => u.sbReadToWrite.occupancy],
  ];
}

/** Per-sequencer probes of a `Uie` for the sequencer trace tracks: name, running flag, PC, trip slot. */
export function sequencerRunning(m: UieModel | undefined): Array<{ name: string; running: () => boolean; pc: () => number; slot: () => number }> | undefined {
  if (!(m instanceof Uie)) return undefined;
  return m.seqs.map((s) => ({ name: s.name, running: () => s.core.running, pc: () => s.core.pc, slot: () => s.slot }));
}

/** Datapath statistics of a `Uie` for the stats JSON. */
export function uieStats(m: UieModel | undefined): Record<string, unknown> | undefined {
  if (!(m instanceof Uie)) return undefined;
  const st = m.stats;
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
  };
}
