/** The UIE datapath model used by `pyxis-sim run`: targets/pyxis/uie's `Uie`. */
import { Uie } from './uie/index.js';
import type { UieFactory, UieModel } from './uieSlot.js';

export const defaultUieFactory: UieFactory = (o) => {
  const u = new Uie({ cluster: o.cluster, index: o.index, amem: o.amem, cfg: o.cfg, cfgBase: o.cfgBase, writeCommitLatency: o.writeCommitLatency, onTripDone: o.onTripDone });
  return u as unknown as UieModel;
};

/** Current PC per sequencer of a `Uie` (VCD probes), or undefined for other models. */
export function sequencerPcs(m: UieModel | undefined): Array<() => number> | undefined {
  if (!(m instanceof Uie)) return undefined;
  return m.seqs.map((s) => () => s.core.pc);
}
