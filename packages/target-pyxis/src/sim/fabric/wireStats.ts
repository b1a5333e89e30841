/**
 * Figures of the wire model (fsys): per chip egress (FO pipes) and ingress (FI pipes), per directed link
 * (source chip -> destination chip), grant waits and injected faults. Plain data: a worker thread can post it.
 */
export interface WireLinkStats {
  src: number;
  dst: number;
  pages: number;
  /** Bytes on the wire: 16-byte header + payload (messages: padded to the minimum packet). */
  bytes: number;
  cells: number;
  /** Pipe cycles the link's pages occupied on the source's FO pipes. */
  busyCycles: number;
  /** By §10.6 page type. */
  byType: Record<string, number>;
}

export interface WireChipStats {
  chip: number;
  foBusy: number[];
  fiBusy: number[];
  /** Requests granted at this chip's OQs, and the cycles they waited there for a grant (contention). */
  grants: number;
  grantWaitCycles: number;
  grantWaitMax: number;
  /** Grant-wait cycles at this chip's OQs by source chip (the per-link figure). */
  grantWaitFrom: Record<number, number>;
  /** Pages whose VPFE named no chip of the system (SIM0701). */
  unroutable: number;
  /**
   * The Rx CBUF (§10.8.3): the most cells granted and not yet read out by the page reader at once, and the cycles
   * grant requests waited because the CBUF was full (§10.8 [8]).
   */
  rxCbufMaxCells: number;
  rxCbufFullCycles: number;
  /** The most pages granted to one destination cluster and not yet read out at once (its OQs, §10.8.5). */
  rxOqMaxPages: number;
  /** Granted pages of failed Tx jobs flushed from their VOQs instead of sent (§10.7.1.1, §11.8). */
  flushed: number;
  faults: { dropped: Record<string, number>; corrupted: Record<string, number> };
}

export function emptyChipStats(chip: number, pipes: number): WireChipStats {
  return {
    chip,
    foBusy: new Array<number>(pipes).fill(0),
    fiBusy: new Array<number>(pipes).fill(0),
    grants: 0,
    grantWaitCycles: 0,
    grantWaitMax: 0,
    grantWaitFrom: {},
    unroutable: 0,
    rxCbufMaxCells: 0,
    rxCbufFullCycles: 0,
    rxOqMaxPages: 0,
    flushed: 0,
    faults: { dropped: {}, corrupted: {} },
  };
}
