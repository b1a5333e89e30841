/**
 * Source positions of the values in a JSON text, for IR diagnostics.
 *
 * `jsonPositions(text)` scans (already valid) JSON once and records, for
 * every value, its character offset and length, keyed by the same path
 * notation the IR reader uses in its messages: `programs[0].instructions[3].op.amem_addr_offset`
 * (the root value has the key ``). Objects and arrays record their opening
 * bracket (length 1); scalars their whole token. No dependency, one pass, no
 * recursion limit issues for the nesting IR uses (recursive, depth = JSON depth).
 */
import type { SourceSpan } from '@pyxis/diagnostics';

export interface JsonPos {
  offset: number;
  length: number;
}

export class JsonPositions {
  private readonly lineStarts: number[] = [0];
  constructor(
    readonly file: string,
    readonly text: string,
    readonly byPath: Map<string, JsonPos>,
  ) {
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) this.lineStarts.push(i + 1);
  }

  /** 1-based line/column of a character offset. */
  position(offset: number): { line: number; column: number } {
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - this.lineStarts[lo]! + 1 };
  }

  /**
   * The span of the value at `path`, or of its nearest recorded ancestor
   * (a missing key points at the object that lacks it); 1:1 as a last resort.
   */
  span(path: string): SourceSpan {
    let p = path;
    for (;;) {
      const v = this.byPath.get(p);
      if (v) {
        const { line, column } = this.position(v.offset);
        // a caret never runs past the end of its line
        const eol = this.text.indexOf('\n', v.offset);
        const length = Math.max(1, Math.min(v.length, (eol < 0 ? this.text.length : eol) - v.offset));
        return { file: this.file, line, column, length };
      }
      if (p === '') return { file: this.file, line: 1, column: 1 };
      p = parentPath(p);
    }
  }
}

/** `a.b[2].c` -> `a.b[2]` -> `a.b` -> `a` -> ``. */
export function parentPath(p: string): string {
  const m = /(\.[^.[\]]*|\[\d+\])$/.exec(p);
  if (!m) return '';
  return p.slice(0, p.length - m[0].length);
}

function isWs(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** Nesting depth below which `jsonPositions` records value positions (recursion stays shallow). */
export const JSON_POSITION_DEPTH = 256;

/** Scans `text` (must be valid JSON, e.g. after JSON.parse succeeded). */
export function jsonPositions(text: string, file = '<json>'): JsonPositions {
  const map = new Map<string, JsonPos>();
  let i = 0;
  const n = text.length;
  const ws = () => {
    while (i < n && isWs(text.charCodeAt(i))) i++;
  };
  const str = (): string => {
    const start = i;
    i++; // opening quote
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x5c) i += 2;
      else if (c === 0x22) {
        i++;
        break;
      } else i++;
    }
    return JSON.parse(text.slice(start, i)) as string;
  };
  /** Skips one value without recursion (beyond JSON_POSITION_DEPTH: no positions recorded inside). */
  const skip = (): void => {
    ws();
    let depth = 0;
    do {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        str();
        continue;
      }
      if (c === 0x7b || c === 0x5b) depth++;
      else if (c === 0x7d || c === 0x5d) depth--;
      i++;
    } while (i < n && depth > 0);
    // a scalar: to the next delimiter
    while (depth === 0 && i < n && !isWs(text.charCodeAt(i)) && !',]}'.includes(text[i]!)) i++;
  };
  const value = (path: string, level = 0): void => {
    ws();
    const start = i;
    const c = text.charCodeAt(i);
    if (level > JSON_POSITION_DEPTH) {
      // absurdly deep input (no IR is): positions stop here, diagnostics fall back to the parent path
      map.set(path, { offset: start, length: 1 });
      skip();
      return;
    }
    if (c === 0x7b /* { */) {
      map.set(path, { offset: start, length: 1 });
      i++;
      ws();
      if (text.charCodeAt(i) === 0x7d) {
        i++;
        return;
      }
      for (;;) {
        ws();
        const key = str();
        ws();
        i++; // ':'
        value(path === '' ? key : `${path}.${key}`, level + 1);
        ws();
        const d = text.charCodeAt(i++);
        if (d !== 0x2c) break; // '}' (or end on malformed input)
      }
      return;
    }
    if (c === 0x5b /* [ */) {
      map.set(path, { offset: start, length: 1 });
      i++;
      ws();
      if (text.charCodeAt(i) === 0x5d) {
        i++;
        return;
      }
      for (let k = 0; ; k++) {
        value(`${path}[${k}]`, level + 1);
        ws();
        const d = text.charCodeAt(i++);
        if (d !== 0x2c) break;
      }
      return;
    }
    if (c === 0x22) str();
    else while (i < n && !isWs(text.charCodeAt(i)) && !',]}'.includes(text[i]!)) i++;
    if (i === start) i++; // malformed input: always make progress
    map.set(path, { offset: start, length: i - start });
  };
  if (n) value('');
  return new JsonPositions(file, text, map);
}

/**
 * Offset of the first JSON syntax error in `text` (RFC 8259), or undefined
 * when it is valid JSON. V8's JSON.parse messages do not always name a
 * position; this does, so AS0512 can point at the offending character.
 */
export function jsonSyntaxErrorOffset(text: string): number | undefined {
  let i = 0;
  const n = text.length;
  class Bad {
    constructor(readonly at: number) {}
  }
  const fail = (at = i): never => {
    throw new Bad(Math.min(at, n));
  };
  const ws = () => {
    while (i < n && isWs(text.charCodeAt(i))) i++;
  };
  const lit = (w: string) => {
    for (let k = 0; k < w.length; k++) if (text[i + k] !== w[k]) fail(i + k);
    i += w.length;
  };
  const digits = () => {
    const s = i;
    while (i < n && text.charCodeAt(i) >= 0x30 && text.charCodeAt(i) <= 0x39) i++;
    if (i === s) fail();
  };
  const str = () => {
    i++; // opening quote (checked by the caller)
    for (;;) {
      if (i >= n) fail();
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return;
      }
      if (c < 0x20) fail();
      if (c === 0x5c) {
        const e = text[i + 1];
        if (e === 'u') {
          for (let k = 2; k < 6; k++) if (!/[0-9a-fA-F]/.test(text[i + k] ?? '')) fail(i + k);
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else fail(i + 1);
      } else i++;
    }
  };
  const value = (depth: number): void => {
    if (depth > 10000) fail();
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail();
        str();
        ws();
        if (text[i] !== ':') fail();
        i++;
        value(depth + 1);
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') {
          i++;
          return;
        } else fail();
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        value(depth + 1);
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') {
          i++;
          return;
        } else fail();
      }
    }
    if (c === '"') return str();
    if (c === 't') return lit('true');
    if (c === 'f') return lit('false');
    if (c === 'n') return lit('null');
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) {
      if (c === '-') i++;
      if (text[i] === '0') i++;
      else digits();
      if (text[i] === '.') {
        i++;
        digits();
      }
      if (text[i] === 'e' || text[i] === 'E') {
        i++;
        if (text[i] === '+' || text[i] === '-') i++;
        digits();
      }
      return;
    }
    fail();
  };
  try {
    value(0);
    ws();
    if (i < n) fail();
    return undefined;
  } catch (e) {
    if (e instanceof Bad) return e.at;
    throw e; // RangeError on absurd nesting: let the caller fall back
  }
}
