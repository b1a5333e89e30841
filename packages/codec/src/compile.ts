import type { CompiledField, CompiledTable, FieldSpec, FieldTable } from './table.js';

/**
 * A broken field table: one error naming the file (when the table came from
 * one), the table, the field and what is wrong. Tools print it as one
 * diagnostic (`file:line:col` of the field when it can be found in the file).
 */
export class TableError extends Error {
  /** The grammar file, when the table was read from one. */
  file?: string;
  /** The offending field (spec name as written in the table). */
  field?: string;
  /** 1-based position of the problem in `file`, when known. */
  line?: number;
  column?: number;
  constructor(
    readonly table: string,
    readonly problem: string,
    where: { file?: string; field?: string } = {},
  ) {
    super('');
    this.name = 'TableError';
    if (where.file !== undefined) this.file = where.file;
    if (where.field !== undefined) this.field = where.field;
    this.message = this.describe();
  }
  /** Attaches the file (and the field's position in its text) to an error raised while compiling it. */
  locate(file: string, text?: string): this {
    this.file = file;
    if (text !== undefined) {
      // the field's `"name": "..."` after the `fields` key (the table's own name may be the same word)
      const from = Math.max(0, text.indexOf('"fields"'));
      const at = this.field !== undefined ? new RegExp(`"name"\\s*:\\s*"${this.field.replace(/[^A-Za-z0-9_]/g, '')}"`).exec(text.slice(from)) : undefined;
      if (at) {
        const before = text.slice(0, from + at.index).split('\n');
        this.line = before.length;
        this.column = before[before.length - 1]!.length + 1;
      }
    }
    this.message = this.describe();
    return this;
  }
  private describe(): string {
    const where = this.file !== undefined ? `grammar file ${this.file}${this.table !== this.file ? ` (table \`${this.table}\`)` : ''}` : `field table \`${this.table}\``;
    return `${where}: ${this.field !== undefined ? `field \`${this.field}\`: ` : ''}${this.problem}`;
  }
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Lays out a table and checks it is self-consistent (widths, overlaps, defaults, enums). */
export function compileTable(t: FieldTable, source?: string): CompiledTable {
  const fail = (m: string): never => {
    throw new TableError(typeof t.name === 'string' ? t.name : '?', m);
  };
  /** A problem of one field: the error names it (and the loader finds its line). */
  const failF = (field: unknown, m: string): never => {
    throw new TableError(typeof t.name === 'string' ? t.name : '?', m, typeof field === 'string' ? { field } : {});
  };
  if (typeof t.name !== 'string' || !NAME.test(t.name)) fail('missing or invalid `name`');
  if (!Array.isArray(t.fields)) fail('`fields` must be an array');
  const fields: CompiledField[] = [];
  const byName = new Map<string, CompiledField>();
  const used: Array<[number, number, string]> = [];
  let cursor = 0;
  for (const f of t.fields) {
    if (f === null || typeof f !== 'object' || Array.isArray(f)) fail(`every field must be an object, got ${JSON.stringify(f)}`);
    if (typeof f.name !== 'string' || !NAME.test(f.name)) failF(f.name, `invalid field name ${JSON.stringify(f.name)}`);
    if (byName.has(f.name)) failF(f.name, 'duplicate field name');
    if (!Number.isInteger(f.width) || f.width < 1 || f.width > 64) failF(f.name, `width must be 1..64, got ${f.width}`);
    const count = f.count ?? 1;
    if (!Number.isInteger(count) || count < 1 || count > 4096) failF(f.name, `count must be 1..4096`);
    const lsb = f.lsb ?? cursor;
    if (!Number.isInteger(lsb) || lsb < 0) failF(f.name, `invalid lsb ${f.lsb}`);
    const end = lsb + f.width * count;
    for (const [a, b, other] of used) if (lsb < b && a < end) failF(f.name, `(bits ${lsb}..${end - 1}) overlaps \`${other}\` (bits ${a}..${b - 1})`);
    used.push([lsb, end, f.name]);
    cursor = end;
    if (f.minus_one && f.zero_means_max) failF(f.name, `minus_one and zero_means_max are exclusive`);
    if ((f.minus_one || f.zero_means_max) && (f.signed || f.enum)) failF(f.name, `N-1 encodings apply to plain unsigned fields only`);
    if (f.signed && f.enum) failF(f.name, `an enum field cannot be signed`);
    const w = BigInt(f.width);
    let min: bigint;
    let max: bigint;
    if (f.signed) {
      min = -(1n << (w - 1n));
      max = (1n << (w - 1n)) - 1n;
    } else if (f.minus_one || f.zero_means_max) {
      min = 1n;
      max = 1n << w;
    } else {
      min = 0n;
      max = (1n << w) - 1n;
    }
    let enumNames: Map<number, string> | undefined;
    if (f.enum !== undefined) {
      if (f.enum === null || typeof f.enum !== 'object' || Array.isArray(f.enum)) failF(f.name, `enum must be an object of name: codepoint`);
      enumNames = new Map();
      for (const [k, v] of Object.entries(f.enum)) {
        if (!NAME.test(k)) failF(f.name, `invalid enum name ${JSON.stringify(k)}`);
        if (!Number.isInteger(v) || BigInt(v) < 0n || BigInt(v) > max) failF(f.name, `enum \`${k}\` = ${v} does not fit ${f.width} bits`);
        if (enumNames.has(v)) failF(f.name, `enum codepoint ${v} named twice`);
        enumNames.set(v, k);
      }
    }
    if (f.enum_open !== undefined && (typeof f.enum_open !== 'boolean' || !f.enum)) failF(f.name, `enum_open must be true or false, on an enum field`);
    if (f.enum_aliases !== undefined) {
      const ea = f.enum_aliases;
      if (ea === null || typeof ea !== 'object' || Array.isArray(ea)) failF(f.name, `enum_aliases must be an object of alias: enum name`);
      if (!f.enum) failF(f.name, `enum_aliases needs an enum`);
      for (const [a, target] of Object.entries(ea)) {
        if (!NAME.test(a)) failF(f.name, `invalid enum alias ${JSON.stringify(a)}`);
        if (Object.hasOwn(f.enum!, a)) failF(f.name, `enum alias \`${a}\` collides with the enum name \`${a}\``);
        if (typeof target !== 'string' || !Object.hasOwn(f.enum!, target)) failF(f.name, `enum alias \`${a}\` names ${JSON.stringify(target)}, which is not a value of the enum`);
      }
    }
    if (f.aliases !== undefined) {
      if (!Array.isArray(f.aliases)) failF(f.name, `aliases must be a list of names`);
      if (f.reserved && f.aliases.length) failF(f.name, `a reserved field cannot have aliases`);
      for (const a of f.aliases) if (typeof a !== 'string' || !NAME.test(a)) failF(f.name, `invalid alias ${JSON.stringify(a)}`);
    }
    if (f.role !== undefined && (typeof f.role !== 'string' || !NAME.test(f.role))) failF(f.name, `role must be an identifier, got ${JSON.stringify(f.role)}`);
    const cf: CompiledField = { ...f, lsb, count, min, max, ...(enumNames ? { enumNames } : {}) };
    fields.push(cf);
    byName.set(f.name, cf);
  }
  // Aliases may not collide with any field name or with another alias (checked once every name is known).
  let byAlias: Map<string, CompiledField> | undefined;
  for (const f of fields) {
    for (const a of f.aliases ?? []) {
      if (byName.has(a)) failF(f.name, `alias \`${a}\` collides with the field \`${a}\``);
      const prev = byAlias?.get(a);
      if (prev) failF(f.name, `alias \`${a}\` is already an alias of \`${prev.name}\``);
      (byAlias ??= new Map()).set(a, f);
    }
  }
  const width = t.width ?? cursor;
  const maxEnd = used.reduce((m, [, b]) => Math.max(m, b), 0);
  if (!Number.isInteger(width) || width < maxEnd) fail(`declared width ${t.width} is smaller than the fields need (${maxEnd} bits)`);
  const compiled: CompiledTable = {
    name: t.name,
    width,
    bytes: Math.ceil(width / 8),
    fields,
    byName,
    ...(byAlias ? { byAlias } : {}),
    ...(t.title !== undefined ? { title: t.title } : {}),
    ...(t.target !== undefined ? { target: t.target } : {}),
    ...(t.spec !== undefined ? { spec: t.spec } : {}),
    ...(t.doc !== undefined ? { doc: t.doc } : {}),
    ...(t.meta !== undefined ? { meta: t.meta } : {}),
    ...(source !== undefined ? { source } : {}),
  };
  // Defaults must themselves be legal.
  for (const f of fields) {
    if (f.default === undefined) continue;
    const vals = Array.isArray(f.default) ? f.default : [f.default];
    if (Array.isArray(f.default) && f.default.length !== f.count) failF(f.name, `default has ${f.default.length} elements, field has ${f.count}`);
    for (const v of vals) {
      const r = resolveScalar(f, v);
      if (typeof r === 'string') failF(f.name, `default ${JSON.stringify(v)}: ${r}`);
    }
  }
  return compiled;
}

/** A field by its spec name or one of its `aliases`. */
export function lookupField(t: CompiledTable, name: string): CompiledField | undefined {
  return t.byName.get(name) ?? t.byAlias?.get(name);
}

/** The value a field takes when the user omits it. */
export function defaultUserValue(f: CompiledField): bigint {
  if (f.default !== undefined && !Array.isArray(f.default)) {
    const r = resolveScalar(f, f.default);
    if (typeof r !== 'string') return r;
  }
  return f.minus_one || f.zero_means_max ? 1n : f.enum && !f.enumNames?.has(0) ? BigInt([...f.enumNames!.keys()][0]!) : 0n;
}

/** Describes the legal values of a field, for messages. */
export function legalRange(f: CompiledField): string {
  if (f.enumNames) return `${f.enum_open ? `0..${f.max}, named` : 'one of'} ${[...f.enumNames].map(([v, n]) => `${n}=${v}`).join(', ')} (${f.width}-bit enum)`;
  const kind = f.signed ? 'signed' : f.minus_one ? 'unsigned, encoded as N-1' : f.zero_means_max ? 'unsigned, 0 encodes the maximum' : 'unsigned';
  return `${f.min}..${f.max} (${f.width}-bit ${kind})`;
}

/**
 * The codepoint of an enum name or enum alias (`enum_aliases`) of `f`;
 * undefined when `name` is neither (or `f` has no enum).
 */
export function enumCode(f: FieldSpec, name: string): number | undefined {
  if (!f.enum) return undefined;
  if (Object.hasOwn(f.enum, name)) return f.enum[name];
  const canon = f.enum_aliases && Object.hasOwn(f.enum_aliases, name) ? f.enum_aliases[name] : undefined;
  return canon !== undefined && Object.hasOwn(f.enum, canon) ? f.enum[canon] : undefined;
}

/**
 * Turns a user scalar into the user-visible integer (enum names resolved) and
 * range-checks it; returns an error message instead of throwing so callers
 * can attach source spans.
 */
export function resolveScalar(f: CompiledField, v: unknown): bigint | string {
  let n: bigint;
  if (typeof v === 'string') {
    if (!f.enum) return `\`${v}\` is a name, but \`${f.name}\` takes a number (${legalRange(f)})`;
    const code = enumCode(f, v);
    if (code === undefined) return `\`${v}\` is not a value of \`${f.name}\`; expected ${legalRange(f)}`;
    return BigInt(code);
  } else if (typeof v === 'number') {
    if (!Number.isInteger(v)) return `value ${v} of \`${f.name}\` is not an integer`;
    if (!Number.isSafeInteger(v)) return `value ${v} of \`${f.name}\` is beyond 2^53; pass a bigint`;
    n = BigInt(v);
  } else if (typeof v === 'bigint') {
    n = v;
  } else {
    return `value of \`${f.name}\` must be a number${f.enum ? ' or enum name' : ''}, got ${typeof v}`;
  }
  if (f.enumNames && !f.enum_open && (n < 0n || n > f.max || n > BigInt(Number.MAX_SAFE_INTEGER) || !f.enumNames.has(Number(n)))) return `${n} is not a codepoint of \`${f.name}\`; expected ${legalRange(f)}`;
  if (n < f.min || n > f.max) return `value ${n} out of range for \`${f.name}\`: legal ${legalRange(f)}`;
  return n;
}
