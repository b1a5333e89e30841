/**
 * The AMEM bank port of a bulk DMA engine (H2A write, A2H read, ICDMA source read; docs/timing-model.md "AMEM banks",
 * docs/spec-notes.md). The engine's AMEM access of a unit is a round-robin bank claim (`AmemBanks.claimBurst`
 * through `Amem.readBytes/writeBytes` with this port's client) at the cycle the unit's AMEM stage runs; the claims of a
 * cycle are resolved together at the next cycle (`sync`), so the engine learns one cycle later (`settle`) how many
 * cycles the access was served late, and charges them to the unit (its commit, the next unit's issue).
 */
import type { AmemAccess } from './amemAccess.js';

export class DmaBankPort {
  /** The cycle of the unsettled claim, -1 when none. */
  claimedAt = -1;
  constructor(
    private readonly amem: AmemAccess,
    /** amem/banks.ts client id (CLIENT_H2A, CLIENT_A2H, CLIENT_ICDMA + i). */
    readonly client: number,
  ) {}

  /** The first cycle the port may claim again (an access served late holds it; 0 without a bank model). */
  freeAt(): number {
    return this.amem.banks?.freeAt[this.client] ?? 0;
  }

  /** Records that the engine claimed through `amem` at `now` (the Amem accessor made the claim). */
  claimed(now: number): void {
    if (this.amem.banks?.clock) this.claimedAt = now;
  }

  /** A claim waits for its resolution (at a tick after its cycle): the engine wakes at `claimedAt + 1`. */
  get pending(): boolean {
    return this.claimedAt >= 0;
  }

  /**
   * At `now` > claimedAt: resolves the arbiter and returns the cycles the claim was served late (0: in its cycle),
   * clearing it. A burst is served when its last word is: freeAt = that cycle + 1 (amem/banks.ts resolve).
   */
  settle(now: number): number {
    const banks = this.amem.banks!;
    banks.sync(now);
    const late = Math.max(0, banks.freeAt[this.client]! - (this.claimedAt + 1));
    this.claimedAt = -1;
    return late;
  }
}
