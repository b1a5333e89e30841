/**
 * A compact validator for container metadata (the JSON block of a `.pobj` /
 * `.pimg`) over a declarative schema: a subset of JSON Schema (the keywords
 * keep their JSON Schema names and meaning), small enough to cost nothing at
 * start-up. A target declares one schema per container kind and validates the
 * metadata before reading any property of it; a violation is a diagnostic
 * (CT0015, exit 1) naming the file, the JSON path (`$.metadata.pyxis.remap[0]`)
 * and what was expected.
 *
 * The walk follows the schema, not the value, so its depth is the schema's:
 * free-form parts (`{}`) are not descended into, and deeply nested metadata
 * cannot exhaust the stack here.
 */
import { DiagnosticError, type Diagnostic } from '@pyxis/diagnostics';
import { ContainerCodes } from './codes.js';
import type { Container } from './model.js';

export type JsonType = 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean' | 'null';

/** A JSON Schema subset. `{}` accepts anything. */
export interface JsonSchema {
  type?: JsonType | readonly JsonType[];
  /** Object members by name (each validated when present). */
  properties?: Readonly<Record<string, JsonSchema>>;
  required?: readonly string[];
  /** Members not named in `properties`: `false` rejects them, a schema validates them; default: allowed, not checked. */
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
  /** Strings: a regular expression the whole value must match (anchor it). */
  pattern?: string;
  maxLength?: number;
  enum?: readonly unknown[];
  /** The value matches at least one of these (the message quotes the first one's expectation). */
  anyOf?: readonly JsonSchema[];
  /** What the value means, for messages and generated docs. */
  description?: string;
}

/** One schema violation: the JSON path and what was wrong. */
export interface SchemaViolation {
  path: string;
  message: string;
}

const patterns = new Map<string, RegExp>();

function typeOf(v: unknown): JsonType {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v as JsonType;
}

/** A short description of a JSON value for messages: its type and, for a scalar, its first 40 characters (never the whole of a huge or deeply nested value). */
export function describeJson(v: unknown): string {
  const t = typeOf(v);
  if (t === 'object' || t === 'array') return `an ${t}`;
  if (t === 'null') return 'null';
  const s = JSON.stringify(v) ?? String(v);
  return `${t === 'integer' ? 'number' : t} ${s.length > 40 ? s.slice(0, 39) + '…' : s}`;
}

function typeOk(t: JsonType, want: JsonType): boolean {
  return t === want || (want === 'number' && t === 'integer');
}

const member = (path: string, k: string) => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(k) ? `${path}.${k}` : `${path}[${JSON.stringify(k)}]`);

/**
 * Validates `value` against `schema`; returns the violations (at most `max`),
 * each with its JSON path under `root`.
 */
export function checkSchema(value: unknown, schema: JsonSchema, root = '$', max = 10): SchemaViolation[] {
  const out: SchemaViolation[] = [];
  const visit = (v: unknown, s: JsonSchema, path: string): boolean => {
    if (out.length >= max) return false;
    const bad = (message: string): false => {
      out.push({ path, message });
      return false;
    };
    if (s.anyOf) {
      const ok = s.anyOf.some((alt) => checkSchema(v, alt, path, 1).length === 0);
      if (!ok) {
        const first = checkSchema(v, s.anyOf[0]!, path, 1)[0];
        return bad(first ? first.message : 'matches none of the allowed forms');
      }
    }
    const t = typeOf(v);
    if (s.type !== undefined) {
      const want = typeof s.type === 'string' ? [s.type] : s.type;
      if (!want.some((w) => typeOk(t, w))) return bad(`expected ${want.map((w) => (w === 'integer' ? 'an integer' : w === 'object' || w === 'array' ? `an ${w}` : w === 'null' ? 'null' : `a ${w}`)).join(' or ')}, got ${describeJson(v)}`);
    }
    if (s.enum && !s.enum.includes(v)) return bad(`expected one of ${s.enum.map((e) => JSON.stringify(e)).join(', ')}, got ${describeJson(v)}`);
    if (t === 'integer' || t === 'number') {
      const n = v as number;
      if (s.minimum !== undefined && n < s.minimum) return bad(`${n} is below the minimum ${s.minimum}`);
      if (s.maximum !== undefined && n > s.maximum) return bad(`${n} is above the maximum ${s.maximum}`);
    } else if (t === 'string') {
      const str = v as string;
      if (s.maxLength !== undefined && str.length > s.maxLength) return bad(`string of ${str.length} characters is longer than ${s.maxLength}`);
      if (s.pattern !== undefined) {
        let re = patterns.get(s.pattern);
        if (!re) patterns.set(s.pattern, (re = new RegExp(s.pattern)));
        if (!re.test(str)) return bad(`${describeJson(v)} does not match ${s.description ?? `/${s.pattern}/`}`);
      }
    } else if (t === 'array') {
      const a = v as unknown[];
      if (s.minItems !== undefined && a.length < s.minItems) return bad(`expected at least ${s.minItems} items, got ${a.length}`);
      if (s.maxItems !== undefined && a.length > s.maxItems) return bad(`expected at most ${s.maxItems} items, got ${a.length}`);
      if (s.items) {
        let ok = true;
        for (let i = 0; i < a.length && out.length < max; i++) ok = visit(a[i], s.items, `${path}[${i}]`) && ok;
        return ok;
      }
    } else if (t === 'object') {
      const o = v as Record<string, unknown>;
      let ok = true;
      for (const k of s.required ?? []) if (!Object.prototype.hasOwnProperty.call(o, k)) ok = bad(`missing required member \`${k}\``);
      for (const k of Object.keys(o)) {
        if (out.length >= max) break;
        const sub = s.properties && Object.prototype.hasOwnProperty.call(s.properties, k) ? s.properties[k] : undefined;
        if (sub) ok = visit(o[k], sub, member(path, k)) && ok;
        else if (s.additionalProperties === false) {
          out.push({ path: member(path, k), message: `unknown member \`${k.length > 40 ? k.slice(0, 39) + '…' : k}\`` });
          ok = false;
        } else if (typeof s.additionalProperties === 'object') ok = visit(o[k], s.additionalProperties, member(path, k)) && ok;
      }
      return ok;
    }
    return true;
  };
  visit(value, schema, root);
  return out;
}

/** Throws CT0015 diagnostics (file, metadata offset, JSON path) when a container's metadata breaks `schema`. */
export function validateMetadata(c: Container, schema: JsonSchema, file: string): void {
  const found = checkSchema(c.metadata, schema, '$.metadata');
  if (!found.length) return;
  const diags: Diagnostic[] = found.map((v) => ({
    severity: 'error',
    code: ContainerCodes.badMetadataField,
    message: `${v.path}: ${v.message}`,
    span: { file, offset: c.metadataOffset ?? 0 },
    notes: [`the ${c.kind === 'pobj' ? 'object' : 'image'} metadata of target \`${c.target}\` is documented in docs/container-format.md`],
  }));
  throw new DiagnosticError(diags);
}
