/**
 * Active Power Management (chip §13). Every running UIE/ICDMA/H2A/A2H trip
 * reports its TripPower; RequestedPower is their sum. GrantedPower follows
 * RequestedPower at most `max_delta_power` per `power_update_period` cycles,
 * clamped to [min_granted_power, max_granted_power]. When Requested >
 * Granted, AllowedUtilization = Granted / Requested and engines insert
 * bubbles: `allow(slot)` is a per-engine fractional accumulator that
 * admits exactly that fraction of cycles.
 *
 * Order-free (docs/timing-model.md "Kernel semantics"): trips start in the
 * trip-manager phase and end in the engine phase, and engines of one phase
 * must not see each other's same-cycle changes, so `request` only updates
 * RequestedPower; AllowedUtilization is recomputed at the end of the phase
 * (a commit with the largest key, after every other commit of the phase).
 * A trip start is therefore seen by the engines in the same cycle, a trip end
 * from the next cycle. The GrantedPower update runs in the APM's own phase,
 * after the engines: seen from the next cycle.
 *
 * Passive with a timed wake (kernel `timedWake`): between GrantedPower steps the kernel does not tick the APM; it
 * comes back at its next update cycle (`nextWake`) or when a `request` changes RequestedPower. Its tick does nothing
 * in between, so its statistics (one busy cycle per step, idle otherwise) are those of a tick every cycle.
 */
import type { Committer, SimEngine } from '@pyxis/sim';
import type { SimConfig } from './config.js';
import type { CommitSink } from './engines.js';

export class Apm implements SimEngine, Committer {
  readonly name = 'apm';
  readonly group = 'chip';
  /** After every trip engine (chip PHASE.apm). */
  readonly phase = 4;
  /** Last among the commits of a phase: the engines' own commits (DMA issue) use the utilization of the phase start. */
  readonly commitKey = Number.MAX_SAFE_INTEGER;
  readonly passive = true;
  readonly timedWake = true;
  private wake: (() => void) | undefined;
  attachWake(wake: () => void): void {
    this.wake = wake;
  }
  kernel: CommitSink | undefined;
  private commitAt = -1;
  requested = 0;
  granted: number;
  utilization = 1;
  private nextUpdate = 0;
  private readonly acc: Float64Array;
  /** Stats: bubbles inserted, sum of utilization-limited cycles, peak requested power. */
  bubbles = 0;
  peakRequested = 0;
  energy = 0;
  private lastEnergyAt = 0;
  onChange?: (now: number) => void;

  constructor(
    private readonly cfg: SimConfig['apm'],
    slots: number,
  ) {
    this.granted = cfg.min_granted_power;
    this.acc = new Float64Array(slots);
  }

  get busy(): boolean {
    return false;
  }

  /**
   * Called whenever AllowedUtilization is set below 1 (in the phase that changes it): engines that skip their ticks
   * while every cycle is admitted (uieSlot.ts, VPU-only cycles) take up ticking again.
   */
  readonly onDrop: Array<() => void> = [];

  private accountEnergy(now: number): void {
    this.energy += this.requested * this.utilization * (now - this.lastEnergyAt);
    this.lastEnergyAt = now;
  }

  /** A trip with power `p` starts (p > 0) or ends (pass -p). */
  request(p: number, now: number): void {
    if (!this.cfg.enabled || p === 0) return;
    this.accountEnergy(now);
    this.requested += p;
    if (this.nextUpdate <= now) this.nextUpdate = now + this.cfg.power_update_period;
    this.wake?.(); // the target moved: the next GrantedPower step may come earlier than the kernel was told
    if (!this.kernel) {
      this.commit(now);
      return;
    }
    if (this.commitAt !== now) {
      this.commitAt = now;
      this.kernel.requestCommit(this);
    }
  }

  /** End of the phase in which trips started or ended: the new RequestedPower takes effect. */
  commit(now: number): void {
    this.commitAt = -1;
    this.accountEnergy(now);
    if (this.requested > this.peakRequested) this.peakRequested = this.requested;
    this.recompute();
    this.onChange?.(now);
  }

  private recompute(): void {
    this.utilization = this.requested > this.granted && this.requested > 0 ? this.granted / this.requested : 1;
    if (this.utilization < 1) for (let i = 0; i < this.onDrop.length; i++) this.onDrop[i]!();
  }

  /** Whether engine `slot` may run this cycle (false = insert a bubble). */
  allow(slot: number): boolean {
    if (this.utilization >= 1) return true;
    const a = this.acc[slot]! + this.utilization;
    if (a >= 1) {
      this.acc[slot] = a - 1;
      return true;
    }
    this.acc[slot] = a;
    this.bubbles++;
    return false;
  }

  private target(): number {
    return Math.min(this.cfg.max_granted_power, Math.max(this.cfg.min_granted_power, this.requested));
  }

  tick(now: number): boolean {
    if (!this.cfg.enabled || now < this.nextUpdate) return false;
    const t = this.target();
    if (t === this.granted) return false;
    this.accountEnergy(now);
    const d = this.cfg.max_delta_power;
    this.granted = t > this.granted ? Math.min(t, this.granted + d) : Math.max(t, this.granted - d);
    this.recompute();
    this.nextUpdate = now + this.cfg.power_update_period;
    this.onChange?.(now);
    return true;
  }

  nextWake(now: number): number {
    if (!this.cfg.enabled || this.target() === this.granted) return Infinity;
    return Math.max(now, this.nextUpdate);
  }

  blockedReason(): string | undefined {
    return undefined;
  }

  finish(now: number): void {
    this.accountEnergy(now);
  }
}
