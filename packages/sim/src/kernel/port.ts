/**
 * A bandwidth-limited port (an HBM stack, a core-switch port, the NoC port,
 * an AMEM client port) modelled by reservation: a transfer of `bytes` starting
 * no earlier than `now` occupies the port for `bytes / bytesPerCycle` cycles
 * after the previous reservation ends. Engines use the returned completion
 * cycle as their `nextWake`, so bulk DMA costs one kernel step per chunk,
 * not one per cycle. Bytes are counted for the stats.
 */
import { dbl } from './doubleField.js';
export class BandwidthPort {
  /** Cycle (fractional) at which the port becomes free. */
  freeAt = dbl(0);
  bytes = 0;
  transfers = 0;
  /** Cycles the port was occupied (sum of reservations). */
  busyCycles = dbl(0);
  constructor(
    readonly name: string,
    public bytesPerCycle: number,
  ) {
    if (!(bytesPerCycle > 0)) throw new RangeError(`port ${name}: bytesPerCycle must be > 0`);
  }
  /** Earliest whole cycle >= now at which a new transfer could start. */
  startCycle(now: number): number {
    return Math.max(now, Math.ceil(this.freeAt - 1e-9));
  }
  /**
   * Reserves the port for `bytes`; returns the (whole) cycle at which the last
   * byte has passed the port. `scale` (0,1] models throttling (e.g. APM): the
   * transfer takes 1/scale as long.
   */
  reserve(now: number, bytes: number, scale = 1): number {
    const start = Math.max(now, this.freeAt);
    const dur = bytes / (this.bytesPerCycle * scale);
    this.freeAt = start + dur;
    this.bytes += bytes;
    this.transfers++;
    this.busyCycles += dur;
    return Math.ceil(this.freeAt - 1e-9);
  }
}
