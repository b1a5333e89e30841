/**
 * Machine parameters as data: one table per target, derived from the target's own configuration file (its
 * defaults) joined with a description file (`grammars/<target>/params.json`: type, range, unit, spec section or
 * MODEL for every parameter), resolved ONCE per machine instance from the defaults, a `--sim-config FILE.json` and
 * `--set KEY=VALUE` overrides, and validated against the table. Nothing here names a target; the targets supply
 * the data (MachineBackend.parameters) and build their machine from the resolved values (MachineRequest.params).
 *
 * A parameter is a numeric or boolean leaf of the defaults file, named by its dotted key path
 * (`hbm.read_latency_cycles`). An object whose `value` is a number (`{ "value": 64, "unit": "...", "spec": "..." }`)
 * is one parameter named by the object's path. String leaves (doc, spec, name) are documentation.
 */
import { UsageError, nearest } from '@pyxis/diagnostics';

export type ParamType = 'int' | 'number' | 'bool';
export type ParamValue = number | boolean;
/** Where an effective value came from. */
export type ParamSource = 'default' | 'file' | 'set' | 'option';

export interface ParamSpec {
  /** Dotted key path (`hbm.read_latency_cycles`). */
  key: string;
  type: ParamType;
  default: ParamValue;
  /** Inclusive range (numbers only). */
  min?: number;
  max?: number;
  unit?: string;
  /** Spec section the value or its meaning comes from, or `MODEL` (a project assumption). */
  spec: string;
}

/** One rule of a description file: `match` is a key path where `*` matches within one segment. */
export interface ParamRule {
  match: string;
  type: ParamType;
  min?: number;
  max?: number;
  unit?: string;
  spec?: string;
}

/** `grammars/<target>/params.json`. */
export interface ParamDescription {
  doc?: string;
  /** The path inside the defaults file where the parameters live (`meta`), default the whole file. */
  root?: string;
  /** Rules, first match wins. */
  params: ParamRule[];
  /** Numeric leaves that are not parameters (geometry other tables depend on): patterns as in `match`. */
  not_parameters?: string[];
}

export interface ParamTable {
  /** Target name (messages). */
  target: string;
  /** The defaults file (messages, docs). */
  source: string;
  params: ParamSpec[];
  byKey: Map<string, ParamSpec>;
  /** Leaves of the defaults file that are not parameters, with their values (a copied file may keep them unchanged). */
  fixed: Map<string, unknown>;
  /** Where the parameters live in the defaults file (ParamDescription.root). */
  root?: string;
}

/** The resolved parameters of one machine instance. */
export interface ParamSet {
  table: ParamTable;
  values: Map<string, ParamValue>;
  sources: Map<string, ParamSource>;
}

/** What the user asked for: a parameter file (parsed JSON) and `--set` assignments, applied in that order. */
export interface ParamOverrides {
  file?: { name: string; data: unknown };
  sets?: readonly string[];
}

const DOC_KEYS = new Set(['doc', 'name', 'spec', 'title', 'unit', 'target']);

function globRe(p: string): RegExp {
  return new RegExp('^' + p.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('[^.]*') + '$');
}

/** A broken description file is a fault of the toolchain's data: a plain Error (exit 3, naming the file). */
function tableError(where: string, msg: string): Error {
  const e = new Error(`${where}: ${msg}`);
  e.name = 'TableError';
  return e;
}

/**
 * Deepest object nesting read from a parameter file: every target's keys are a few levels deep, so anything deeper
 * is an unknown key (a usage error naming it), never a recursion through a hostile file's 100,000 levels.
 */
const MAX_FILE_DEPTH = 32;

function leaves(o: unknown, path: string, out: Array<[string, unknown]>, depth = 0): void {
  if (o === null || typeof o !== 'object' || Array.isArray(o) || depth >= MAX_FILE_DEPTH) {
    out.push([path, o]);
    return;
  }
  const r = o as Record<string, unknown>;
  if (typeof r['value'] === 'number' || typeof r['value'] === 'boolean') {
    out.push([path, r['value']]);
    return;
  }
  for (const [k, v] of Object.entries(r)) {
    if (k.startsWith('$') || k.endsWith('_comment') || k.endsWith('_doc') || (DOC_KEYS.has(k) && typeof v === 'string')) continue;
    leaves(v, path ? `${path}.${k}` : k, out, depth + 1);
  }
}

function at(o: unknown, path: string | undefined): unknown {
  if (!path) return o;
  let cur = o;
  for (const k of path.split('.')) cur = cur && typeof cur === 'object' ? (cur as Record<string, unknown>)[k] : undefined;
  return cur;
}

/**
 * The table of a target: every numeric/boolean leaf of `defaults` (under `desc.root`) must match a rule or a
 * `fixed` pattern, every rule must match a leaf, and every default must satisfy its own rule.
 */
export function deriveParamTable(target: string, source: string, defaults: unknown, desc: ParamDescription): ParamTable {
  const where = `the parameter description of target ${target}`;
  const rules = desc.params.map((r) => ({ r, re: globRe(r.match), used: false }));
  const fixed = (desc.not_parameters ?? []).map(globRe);
  const found: Array<[string, unknown]> = [];
  leaves(at(defaults, desc.root), '', found);
  const params: ParamSpec[] = [];
  const fixedValues = new Map<string, unknown>();
  for (const [key, v] of found) {
    if (typeof v !== 'number' && typeof v !== 'boolean') continue;
    const rule = rules.find((x) => x.re.test(key));
    if (!rule) {
      if (fixed.some((re) => re.test(key))) {
        fixedValues.set(key, v);
        continue;
      }
      throw tableError(where, `\`${key}\` of ${source} has no parameter rule (add one, or list it under "not_parameters")`);
    }
    rule.used = true;
    const { r } = rule;
    const p: ParamSpec = { key, type: r.type, default: v, spec: r.spec ?? 'MODEL' };
    if (r.min !== undefined) p.min = r.min;
    if (r.max !== undefined) p.max = r.max;
    if (r.unit !== undefined) p.unit = r.unit;
    const bad = checkValue(p, v);
    if (bad) throw tableError(where, `the default of \`${key}\` in ${source} ${bad}`);
    params.push(p);
  }
  const unused = rules.find((x) => !x.used);
  if (unused) throw tableError(where, `rule \`${unused.r.match}\` matches no parameter of ${source}`);
  return { target, source, params, byKey: new Map(params.map((p) => [p.key, p])), fixed: fixedValues, ...(desc.root ? { root: desc.root } : {}) };
}

/** `integer 1..1024 entries`, `boolean`: how messages and docs state what a parameter accepts. */
export function paramRangeText(p: ParamSpec): string {
  if (p.type === 'bool') return 'boolean (true/false)';
  const kind = p.type === 'int' ? 'integer' : 'number';
  const f = (n: number | undefined, inf: string) =>
    n === undefined ? inf : Math.abs(n) >= 1e6 && n % 10 ** Math.floor(Math.log10(Math.abs(n))) === 0 ? n.toExponential().replace('e+', 'e') : String(n);
  const r = p.min !== undefined || p.max !== undefined ? ` ${f(p.min, '-inf')}..${f(p.max, 'inf')}` : '';
  return `${kind}${r}${p.unit ? ` ${p.unit}` : ''}`;
}

/** Undefined when `v` is a valid value of `p`, else what is wrong. */
function checkValue(p: ParamSpec, v: unknown): string | undefined {
  const want = `must be ${p.type === 'int' ? 'an' : 'a'} ${paramRangeText(p)}, got ${JSON.stringify(v)}`;
  if (p.type === 'bool') return typeof v === 'boolean' ? undefined : want;
  if (typeof v !== 'number' || !Number.isFinite(v)) return want;
  if (p.type === 'int' && !Number.isInteger(v)) return want;
  if ((p.min !== undefined && v < p.min) || (p.max !== undefined && v > p.max)) return want;
  return undefined;
}

/** Parses the text of `--set KEY=VALUE` for a parameter: decimal/hex numbers, `true`/`false`. */
function parseText(p: ParamSpec, text: string): unknown {
  const t = text.trim();
  if (p.type === 'bool') return t === 'true' || t === '1' || t === 'on' ? true : t === 'false' || t === '0' || t === 'off' ? false : t;
  return /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$|^0[xX][0-9a-fA-F]+$/.test(t) ? Number(t) : t;
}

function unknownKey(table: ParamTable, key: string, where: string): UsageError {
  // a key given without its group (`read_latency_cycles`) names every key it ends; else the nearest typo
  const suffix = [...table.byKey.keys()].filter((k) => k.endsWith(`.${key}`)).slice(0, 4);
  const n = nearest(key, table.byKey.keys());
  const near = suffix.length ? suffix : n ? [n] : [];
  const hint = near.length ? `; did you mean ${near.map((k) => `\`${k}\``).join(' or ')}?` : '';
  return new UsageError(`${where}unknown parameter \`${key}\` of target ${table.target}${hint} (\`pyxis-sim params --target ${table.target}\` lists them)`);
}

/** The defaults of a table, before any override. */
export function defaultParams(table: ParamTable): ParamSet {
  const values = new Map<string, ParamValue>();
  const sources = new Map<string, ParamSource>();
  for (const p of table.params) {
    values.set(p.key, p.default);
    sources.set(p.key, 'default');
  }
  return { table, values, sources };
}

/**
 * Resolves defaults <- file <- `--set`, validating every value against the table. Errors are usage errors (exit 2)
 * naming the key (the JSON path for a file), the range and, for an unknown key, the nearest names.
 */
export function resolveParams(table: ParamTable, o: ParamOverrides = {}): ParamSet {
  const set = defaultParams(table);
  if (o.file) {
    const { name, data } = o.file;
    if (data === null || typeof data !== 'object' || Array.isArray(data)) throw new UsageError(`${name}: $: a parameter file must be a JSON object`);
    const found: Array<[string, unknown]> = [];
    // a copy of a defaults file whose parameters sit under a root (`meta`): only that part is read
    const sub = table.root ? at(data, table.root) : undefined;
    const rootPath = sub && typeof sub === 'object' && !Array.isArray(sub) ? `${table.root}.` : '';
    leaves(rootPath ? sub : data, '', found);
    for (const [path, v] of found) {
      // a flat file may name keys with dots (`{"hbm.read_latency_cycles": 300}`): the same path
      const key = table.byKey.has(path) ? path : path.endsWith('.value') && table.byKey.has(path.slice(0, -6)) ? path.slice(0, -6) : path;
      const p = table.byKey.get(key);
      if (!p) {
        // a copy of the defaults file may keep its fixed (non-parameter) entries, unchanged
        if (table.fixed.has(key)) {
          if (table.fixed.get(key) === v) continue;
          throw new UsageError(`${name}: $.${rootPath}${path}: \`${key}\` is not a parameter of target ${table.target} (fixed at ${JSON.stringify(table.fixed.get(key))})`);
        }
        if (typeof v === 'string') continue; // documentation strings of a copied file
        throw unknownKey(table, key, `${name}: $.${rootPath}${path}: `);
      }
      const bad = checkValue(p, v);
      if (bad) throw new UsageError(`${name}: $.${rootPath}${path}: \`${key}\` ${bad}`);
      set.values.set(key, v as ParamValue);
      set.sources.set(key, 'file');
    }
  }
  for (const s of o.sets ?? []) {
    const eq = s.indexOf('=');
    if (eq <= 0) throw new UsageError(`--set expects KEY=VALUE, got \`${s}\``);
    const key = s.slice(0, eq).trim();
    const p = table.byKey.get(key);
    if (!p) throw unknownKey(table, key, '--set: ');
    const v = parseText(p, s.slice(eq + 1));
    const bad = checkValue(p, v);
    if (bad) throw new UsageError(`--set ${key}: ${bad.replace(/got "(.*)"$/, 'got `$1`')}`);
    set.values.set(key, v as ParamValue);
    set.sources.set(key, 'set');
  }
  return set;
}

/** Sets one value from another option (`--clock-hz`), validated like `--set`. */
export function overrideParam(set: ParamSet, key: string, v: ParamValue, source: ParamSource = 'option'): void {
  const p = set.table.byKey.get(key);
  if (!p) throw unknownKey(set.table, key, '');
  const bad = checkValue(p, v);
  if (bad) throw new UsageError(`${key}: ${bad}`);
  set.values.set(key, v);
  set.sources.set(key, source);
}

/**
 * The values as a copy of the defaults file with every parameter replaced: the shape the target's code already
 * reads (`{ hbm: { read_latency_cycles: 300 }, ... }`; a `{ value }` object gets its value replaced).
 */
export function paramTree<T = Record<string, unknown>>(set: ParamSet, defaults: unknown, root?: string): T {
  const copy = structuredClone(defaults) as Record<string, unknown>;
  const base = at(copy, root) as Record<string, unknown>;
  for (const [key, v] of set.values) {
    const parts = key.split('.');
    let cur = base;
    for (const k of parts.slice(0, -1)) cur = cur[k] as Record<string, unknown>;
    const last = parts[parts.length - 1]!;
    const node = cur[last];
    if (node && typeof node === 'object') (node as Record<string, unknown>)['value'] = v;
    else cur[last] = v;
  }
  return copy as T;
}

/** For the stats JSON: every effective parameter with its source, in table order. */
export function paramRecord(set: ParamSet): Record<string, { value: ParamValue; source: ParamSource }> {
  const out: Record<string, { value: ParamValue; source: ParamSource }> = {};
  for (const p of set.table.params) out[p.key] = { value: set.values.get(p.key)!, source: set.sources.get(p.key)! };
  return out;
}

/** The table as Markdown (docs and `pyxis-sim params`). */
export function paramTableMarkdown(table: ParamTable): string {
  const cell = (s: string) => s.replace(/\|/g, '\\|');
  const L = [`| key | default | accepts | spec |`, `|---|---|---|---|`];
  for (const p of table.params) L.push(`| \`${p.key}\` | ${String(p.default)} | ${cell(paramRangeText(p))} | ${cell(p.spec)} |`);
  return L.join('\n') + '\n';
}
