import { DiagnosticError, type Diagnostic } from './diagnostic.js';

/**
 * Collects diagnostics during a pass so one run reports many problems.
 * `throwIfErrors()` ends the pass when anything fatal was seen.
 */
export class DiagnosticBag {
  readonly items: Diagnostic[] = [];
  /** Stop collecting after this many errors (keeps output readable on garbage input). */
  constructor(readonly errorLimit = 200) {}

  add(d: Diagnostic): void {
    if (d.severity === 'error' && this.errorCount >= this.errorLimit) return;
    this.items.push(d);
  }
  addAll(ds: Iterable<Diagnostic>): void {
    for (const d of ds) this.add(d);
  }
  get errorCount(): number {
    let n = 0;
    for (const d of this.items) if (d.severity === 'error') n++;
    return n;
  }
  get hasErrors(): boolean {
    return this.items.some((d) => d.severity === 'error');
  }
  throwIfErrors(): void {
    if (this.hasErrors) throw new DiagnosticError(this.items);
  }
}
