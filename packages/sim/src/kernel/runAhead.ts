/**
 * Temporal decoupling (SystemC TLM style "quantum"), target-independent: an
 * engine whose model can simulate a stretch of cycles alone may run up to
 * `quantum` cycles ahead of the global clock while its owner guarantees that
 * no input of the model can change inside the window (the owner's *gate*).
 * The kernel still steps every cycle it would step; for cycles already
 * simulated the engine replays the recorded per-cycle progress flag, so
 * busy/stall/idle statistics, idle skipping and deadlock detection see what
 * lockstep sees. Events the model must make visible to others (e.g. a trip
 * retirement) are held back by the model and flushed when the global clock
 * reaches the window's last cycle (`flushDeferred`), in the engine's own tick,
 * so they are delivered at their exact cycle and phase.
 */
import { dbl, smi } from './doubleField.js';
export interface RunAheadModel {
  /**
   * Simulates cycles `from` .. < `limit` alone, stopping after the first externally visible event (and, with
   * `stopOnInput`, after the first cycle in which the model could accept new input again); records progress of
   * cycle c in `did[c & mask]`; returns the next cycle to simulate.
   */
  runAhead(from: number, limit: number, did: Uint8Array, mask: number, stopOnInput: boolean): number;
  /** Reports the events `runAhead` held back (their cycle is the last one it simulated). */
  flushDeferred(): void;
  /** The model's own next wake-up at or after `now`. */
  nextWake(now: number): number;
}

/**
 * The kernel side of temporal decoupling for one engine (docs/simulator.md "Quantum"). The engine's `busy` and
 * `stallCode` must describe the model as of the global clock, not of the model's own (ahead) cycle: e.g. busy while
 * `covers(now + 1)` or while it holds events not yet flushed.
 */
export class RunAheadWindow {
  /** The model has simulated every cycle < `local`. */
  local = dbl(0);
  /** True while the model is ahead of the global clock (between `open` and the window's last cycle). */
  ahead = false;
  private did = new Uint8Array(1);
  private mask = 0;

  constructor(
    /** Window length in cycles (1 = lockstep: `open` is never worth calling). */
    public quantum: number,
    /** The kernel (its `runLimit`: a window never simulates a cycle at or beyond --max-cycles). */
    private readonly clock?: { readonly runLimit: number },
  ) {}

  /** The kernel's cycle limit of the current run (`Simulator.runLimit`; Infinity without a kernel). */
  get runLimit(): number {
    return this.clock?.runLimit ?? Infinity;
  }

  /** True when cycle `now` was already simulated by a window: call `replay`, not the model. */
  covers(now: number): boolean {
    return now < this.local;
  }

  /** The progress flag of an already simulated cycle; at the window's last cycle the held-back events are flushed. */
  replay(now: number, model: RunAheadModel): boolean {
    const r = this.did[now & this.mask] === 1;
    if (now === this.local - 1) {
      this.ahead = false;
      model.flushDeferred();
    }
    return r;
  }

  /** Opens a window at `now` (the gate allowed it); returns the progress flag of cycle `now`. */
  open(now: number, model: RunAheadModel, stopOnInput: boolean): boolean {
    if (this.did.length < this.quantum) {
      let n = 1;
      while (n < this.quantum) n *= 2;
      this.did = new Uint8Array(n);
      this.mask = n - 1;
    }
    let limit = now + this.quantum;
    const cap = this.clock?.runLimit ?? Infinity;
    if (limit > cap) limit = smi(cap); // runLimit is a double field (doubleField.ts)
    const end = smi(model.runAhead(now, limit, this.did, this.mask, stopOnInput));
    const r = this.did[now & this.mask] === 1;
    if (end <= now + 1) {
      model.flushDeferred();
      return r;
    }
    this.local = end;
    this.ahead = true;
    return r;
  }

  /**
   * After `open` at `now`: the end (exclusive) of the run of cycles after `now` that the window simulated with
   * progress, short of its last cycle (whose `replay` flushes the held-back events): the kernel may count them busy
   * without ticking the engine (`SimEngine.attachSkip`), since `replay` would only return true for each.
   */
  progressRun(now: number): number {
    const last = this.local - 1;
    let c = now + 1;
    while (c < last && this.did[c & this.mask] === 1) c++;
    return c;
  }

  /** Next wake inside a window: the next cycle with recorded progress, else the model's own wake after it. */
  nextWake(now: number, model: RunAheadModel): number {
    if (now < this.local) {
      for (let c = now; c < this.local; c++) if (this.did[c & this.mask] === 1) return c;
      return model.nextWake(this.local);
    }
    return model.nextWake(now);
  }
}
