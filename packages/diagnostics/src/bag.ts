import { DiagnosticError, type Diagnostic } from './diagnostic.js';

/**
 * Collects diagnostics during a pass so one run reports many problems.
 * `throwIfErrors()` ends the pass when anything fatal was seen. Adding is O(1):
 * a pass may report tens of thousands of warnings.
 */
export class DiagnosticBag {
  readonly items: Diagnostic[] = [];
  private errors = 0;
  /** Errors not collected once the limit was reached (said in a note on the first error, so the count stays honest). */
  private dropped = 0;
  /** Stop collecting after this many errors (keeps output readable on garbage input). */
  constructor(readonly errorLimit = 200) {}

  add(d: Diagnostic): void {
    if (d.severity === 'error') {
      if (this.errors >= this.errorLimit) {
        this.dropped++;
        return;
      }
      this.errors++;
    }
    this.items.push(d);
  }
  addAll(ds: Iterable<Diagnostic>): void {
    for (const d of ds) this.add(d);
  }
  get errorCount(): number {
    return this.errors;
  }
  /** Errors reported past the limit and not collected. */
  get droppedErrors(): number {
    return this.dropped;
  }
  get hasErrors(): boolean {
    return this.errors > 0;
  }
  throwIfErrors(): void {
    if (!this.hasErrors) return;
    if (this.dropped) {
      // the first error (always printed) says how many more there were
      const i = this.items.findIndex((d) => d.severity === 'error');
      const first = this.items[i]!;
      this.items[i] = { ...first, notes: [...(first.notes ?? []), `${this.dropped} more error${this.dropped === 1 ? '' : 's'} after the first ${this.errorLimit} were not collected (this pass stops collecting at ${this.errorLimit})`] };
      this.dropped = 0;
    }
    throw new DiagnosticError(this.items);
  }
}

/**
 * The same cap as `DiagnosticBag` for a pass that collects into a plain array (`diags.push(...)`): at most
 * `errorLimit` errors are kept, the rest counted; `finish()` notes the count on the first error. `full` lets
 * a pass skip building diagnostics nobody will see (did-you-mean searches on garbage input).
 */
export class CappedDiagnostics extends Array<Diagnostic> {
  static override get [Symbol.species](): ArrayConstructor {
    return Array;
  }
  private errorsKept = 0;
  private dropped = 0;
  constructor(readonly errorLimit = 200) {
    super();
  }
  override push(...ds: Diagnostic[]): number {
    for (const d of ds) {
      if (d.severity === 'error') {
        if (this.errorsKept >= this.errorLimit) {
          this.dropped++;
          continue;
        }
        this.errorsKept++;
      }
      super.push(d);
    }
    return this.length;
  }
  get full(): boolean {
    return this.errorsKept >= this.errorLimit;
  }
  /** The kept diagnostics as a plain array, the first error noting the errors not collected. */
  finish(): Diagnostic[] {
    const out = [...this];
    if (this.dropped) {
      const i = out.findIndex((d) => d.severity === 'error');
      const first = out[i]!;
      out[i] = { ...first, notes: [...(first.notes ?? []), `${this.dropped} more error${this.dropped === 1 ? '' : 's'} after the first ${this.errorLimit} were not collected (this pass stops collecting at ${this.errorLimit})`] };
    }
    return out;
  }
}
