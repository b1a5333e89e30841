/**
 * What a simulator runs: the engines, timed links and wait-graph explainers registered with it, the tick order they
 * are run in, and the per-phase commit queue (docs/timing-model.md "Kernel semantics").
 *
 * Results never depend on the order of `add` calls: a cycle runs the engines' declared phases in ascending order
 * (SimEngine.phase); inside a phase it first delivers the due messages of the phase's timed links (link.ts), then
 * ticks the phase's engines, then runs the commits they requested in `commitKey` order (engine.ts `Committer`).
 * Registration order only decides the tick order inside a phase, where engines must not see each other's same-cycle
 * writes. This is the base of the Simulator class chain (registry -> engineCounters -> lazyEngines -> simulator): one
 * object, so the run loop reads these fields directly (no cross-object access in the per-cycle path).
 */
import type { Committer, SimEngine } from './engine.js';
import type { TimedLink } from './link.js';

export class EngineRegistry {
  readonly engines: SimEngine[] = [];
  protected readonly explainers: Array<() => string[]> = [];
  protected readonly links: Array<TimedLink<unknown>> = [];
  /** Engine indexes in tick order: by phase, then registration. */
  protected order = new Int32Array(0);
  /** Per phase (ascending): its first and end position in `order`, and its links. */
  protected phaseStart = new Int32Array(0);
  protected phaseEnd = new Int32Array(0);
  protected phaseLinks: Array<Array<TimedLink<unknown>>> = [];
  /** Engine count the tick order was built for (-1: links were added since). */
  protected prepared = -1;
  /** Commits requested in the current phase (reused array; `commitN` entries valid). */
  protected readonly commitQ: Committer[] = [];
  protected commitN = 0;

  /** Registers an engine; returns its index. Engines are ticked in registration order. */
  add(e: SimEngine): number {
    this.engines.push(e);
    return this.engines.length - 1;
  }

  /** Registers a timed link: the kernel delivers its messages in the link's phase. */
  addLink<T>(l: TimedLink<T>): TimedLink<T> {
    this.links.push(l as TimedLink<unknown>);
    this.prepared = -1;
    return l;
  }

  /** Extra wait-graph lines for deadlock/max-cycles reports (e.g. barrier table state). */
  addExplainer(f: () => string[]): void {
    this.explainers.push(f);
  }

  /**
   * Defers `c.commit(now)` to the end of the current phase, after every engine of the phase has ticked; the commits
   * of a phase run in `commitKey` order. Request at most once per cycle per committer.
   */
  requestCommit(c: Committer): void {
    this.commitQ[this.commitN++] = c;
  }

  protected runCommits(now: number): void {
    const q = this.commitQ;
    while (this.commitN > 0) {
      const n = this.commitN;
      // Insertion sort by key: a handful of entries per cycle.
      for (let i = 1; i < n; i++) {
        const c = q[i]!;
        let j = i - 1;
        while (j >= 0 && q[j]!.commitKey > c.commitKey) {
          q[j + 1] = q[j]!;
          j--;
        }
        q[j + 1] = c;
      }
      for (let i = 0; i < n; i++) q[i]!.commit(now);
      // Commits requested by commits run next, in their own key order.
      const extra = this.commitN - n;
      for (let i = 0; i < extra; i++) q[i] = q[n + i]!;
      this.commitN = extra;
    }
  }

  /** Builds the tick order and the phase table (when engines or links were added since the last build). */
  protected preparePhases(): void {
    const n = this.engines.length;
    if (this.prepared === n) return;
    this.prepared = n;
    const phaseOf = (i: number) => this.engines[i]!.phase ?? 0;
    const idx = Array.from({ length: n }, (_, i) => i).sort((a, b) => phaseOf(a) - phaseOf(b) || a - b);
    this.order = Int32Array.from(idx);
    const phases = [...new Set([...idx.map(phaseOf), ...this.links.map((l) => l.phase)])].sort((a, b) => a - b);
    this.phaseStart = new Int32Array(phases.length);
    this.phaseEnd = new Int32Array(phases.length);
    this.phaseLinks = phases.map((p) => this.links.filter((l) => l.phase === p));
    let k = 0;
    phases.forEach((p, pi) => {
      this.phaseStart[pi] = k;
      while (k < n && phaseOf(idx[k]!) === p) k++;
      this.phaseEnd[pi] = k;
    });
  }

  /** One line per busy engine with its blocked reason, then the explainers' lines. */
  waitGraph(): string[] {
    const lines: string[] = [];
    for (const e of this.engines) {
      if (!e.busy) continue;
      lines.push(`${e.name}: ${e.blockedReason() ?? 'busy (no reason given)'}`);
    }
    for (const f of this.explainers) lines.push(...f());
    return lines;
  }
}
