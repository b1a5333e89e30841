/**
 * Reading link-script statements: attribute sets with unknown/duplicate
 * diagnostics and did-you-mean notes, and typed values (integer, name,
 * boolean). Target-neutral: every back end reports the same LD01xx codes for
 * the same script mistakes (docs/linker.md, "Diagnostics").
 */
import { didYouMean, error, type Diagnostic, type DiagnosticBag, type SourceSpan } from '@pyxis/diagnostics';
import { showValue, type ScriptBlock, type ScriptValue } from './script.js';

/** The attributes of one statement that passed the allowed-name check, by key. */
export type ScriptAttrs = Map<string, { value: ScriptValue; keySpan: SourceSpan }>;

/** Value readers bound to one diagnostics bag; each returns undefined after reporting a bad value. */
export interface ScriptReader {
  /** Adds an error diagnostic (span optional). */
  err(code: string, message: string, span?: SourceSpan, extra?: Partial<Diagnostic>): void;
  /** LD0101 unknown attribute (with did-you-mean), LD0102 attribute given twice. */
  attrsOf(b: ScriptBlock, allowed: readonly string[], what: string): ScriptAttrs;
  /** LD0103 not an integer, LD0104 outside min..max. */
  num(v: ScriptValue | undefined, what: string, min?: number, max?: number): number | undefined;
  /** LD0103 not a name or string. */
  ident(v: ScriptValue | undefined, what: string): string | undefined;
  /** LD0103 not true/false/0/1. */
  bool(v: ScriptValue | undefined, what: string): boolean | undefined;
  /** LD0105 statement without a name. */
  named(b: ScriptBlock, what: string): string | undefined;
}

export function isNumberValue(v: ScriptValue): v is Extract<ScriptValue, { kind: 'number' }> {
  return v.kind === 'number';
}

export function scriptReader(bag: DiagnosticBag): ScriptReader {
  const err: ScriptReader['err'] = (code, message, span, extra = {}) => void bag.add(error(code, message, { ...(span ? { span } : {}), ...extra }));
  return {
    err,
    attrsOf(b, allowed, what) {
      const m: ScriptAttrs = new Map();
      for (const a of b.attrs) {
        if (!allowed.includes(a.key)) {
          err('LD0101', `unknown attribute \`${a.key}\` in ${what}`, a.keySpan, { notes: didYouMean(a.key, allowed).concat([`note: allowed: ${allowed.join(', ')}`]) });
          continue;
        }
        if (m.has(a.key)) err('LD0102', `attribute \`${a.key}\` given twice in ${what}`, a.keySpan);
        m.set(a.key, { value: a.value, keySpan: a.keySpan });
      }
      return m;
    },
    num(v, what, min = 0, max = Number.MAX_SAFE_INTEGER) {
      if (!v) return undefined;
      if (!isNumberValue(v) || !Number.isInteger(v.value)) {
        err('LD0103', `${what} must be an integer, got \`${showValue(v)}\``, v.span);
        return undefined;
      }
      if (v.value < min || v.value > max) {
        err('LD0104', `${what} ${v.value} is out of range ${min}..${max}`, v.span);
        return undefined;
      }
      return v.value;
    },
    ident(v, what) {
      if (!v) return undefined;
      if (v.kind !== 'ident' && v.kind !== 'string') {
        err('LD0103', `${what} must be a name, got \`${showValue(v)}\``, v.span);
        return undefined;
      }
      if (v.kind === 'ident' && v.slice) {
        err('LD0135', `${what} cannot take a slice (\`${showValue(v)}\`): slices are for the tensors a trip names`, v.slice.span);
        return undefined;
      }
      return v.value;
    },
    bool(v, what) {
      if (!v) return undefined;
      if (v.kind === 'ident' && (v.value === 'true' || v.value === 'false')) return v.value === 'true';
      if (isNumberValue(v) && (v.value === 0 || v.value === 1)) return v.value === 1;
      err('LD0103', `${what} must be true or false, got \`${showValue(v)}\``, v.span);
      return undefined;
    },
    named(b, what) {
      if (!b.name) err('LD0105', `${what} needs a name`, b.kindSpan);
      return b.name;
    },
  };
}
