/**
 * The contract between the simulation kernel and every modelled engine (a
 * UIE, a DMA engine, the trip manager, ...), for every target. The kernel
 * advances one global cycle counter; it ticks only engines that can make
 * progress and jumps over idle time when all are waiting on a future event.
 */
export interface SimEngine {
  /** Track name in traces/stats, e.g. `c0.uie3`, `c1.h2a`. */
  readonly name: string;
  /**
   * Advance by one cycle at cycle `now`. Returns true if the engine did work
   * (moved data, issued an instruction, changed state). Must not allocate.
   */
  tick(now: number): boolean;
  /**
   * The earliest cycle >= now at which ticking this engine could do work
   * without any other engine acting first (e.g. a DMA latency expiring);
   * `Infinity` when it waits on others (barrier, FIFO credit) or is idle.
   */
  nextWake(now: number): number;
  /** True while the engine holds unfinished work (a trip in flight, queued descriptors). */
  readonly busy: boolean;
  /** When busy but not progressing: a short human reason (`waiting barrier 7 (count 2)`, `amem_write FIFO full`). */
  blockedReason(): string | undefined;
  /**
   * Optional, allocation-free stall classification for the stats collector:
   * an index into `stallReasons` (called on cycles where the engine is busy
   * but `tick` returned false). Engines without it count as `stalled`. A query without side effects (the kernel
   * also calls it when it sizes its counters, result unused: engineCounters.ts).
   */
  stallCode?(): number;
  /** Names for the codes returned by `stallCode` (fixed for the engine's lifetime). */
  readonly stallReasons?: readonly string[];
  /**
   * Optional promise: while `busy` is false, `tick` does nothing and
   * `nextWake` is Infinity (work only arrives through a method call from
   * another engine, which makes it busy). The kernel then skips the calls.
   */
  readonly passive?: boolean;
  /**
   * Passive engines receive a wake function from the kernel; they must call
   * it whenever they become busy (e.g. in `start`). While asleep (not busy
   * and not woken) the kernel does not even read `busy`.
   */
  attachWake?(wake: () => void): void;
  /**
   * Optional, for passive engines: asked after a tick that returned false while `busy`. True promises that from the
   * next cycle on, until the engine calls its wake function (which it must do on every change that lets it act),
   * `tick` does nothing and returns false, `busy` stays true, `stallCode` keeps its present value and `nextWake` is
   * Infinity (it waits for others). The kernel then stops ticking it and counts those cycles as stalled with that
   * code (lazily, as the idle cycles of a sleeping engine); a run in which nothing else can move ends as a deadlock.
   * A query without side effects (the kernel also asks it before a run, answer unused: lazyEngines.ts `stallSleeps`).
   */
  stallSleep?(): boolean;
  /**
   * Optional, for passive engines: while `busy` is false, `tick(c)` does nothing for every c before its
   * `nextWake(now + 1)` (asked when the kernel puts it to sleep after an idle tick at `now`), unless `wake` is called
   * first; the kernel ticks it again at that cycle. Without it a sleeping passive engine waits for `wake` alone.
   */
  readonly timedWake?: boolean;
  /**
   * Optional (temporal decoupling, kernel/runAhead.ts): the kernel gives the engine `skip(until)`, by which the engine
   * promises, from within its `tick(now)`, that for every cycle c with now < c < until, `tick(c)` would return true
   * and change nothing (it only replays progress it already simulated): the kernel then counts those cycles as busy
   * with progress without calling `tick`. The promise ends early by `resume()`, which the engine calls (from a tick
   * or commit with progress of another engine) when an input changes under it (e.g. a trip started on it): the kernel
   * then ticks it from the current cycle when its position in the cycle has not come yet, else from the next cycle
   * (as `attachWake`), counts the promised cycles before that one as busy, and returns that cycle (-1: no promise ran).
   */
  attachSkip?(skip: (until: number) => void, resume: () => number): void;
  /** Optional: the engine's trace track group (process), e.g. `cluster 0`. Default: the name's prefix before the first dot. */
  readonly group?: string;
  /**
   * Kernel phase (default 0). Each cycle the kernel runs the phases in ascending order; in each it delivers the
   * due messages of the links of that phase, ticks the phase's engines, then runs the commits requested in the
   * phase in `commitKey` order. A write by a phase-p engine at cycle t is seen at t by engines of later phases and
   * at t+1 by engines of phases <= p. Engines of one phase must not observe each other's writes of the same cycle
   * (or only through commutative operations): that is what makes results independent of registration order.
   */
  readonly phase?: number;
}

/**
 * Work an engine defers to the end of its phase (see `Simulator.requestCommit`): e.g. reserving a shared port, so
 * that same-cycle requests of several engines are served in a fixed, model-given order (a fixed-priority arbiter)
 * rather than in tick order.
 */
export interface Committer {
  /** Order among the commits of one phase and cycle (lower first); unique per committer. */
  readonly commitKey: number;
  commit(now: number): void;
}
