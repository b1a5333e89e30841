import { createRequire as __r } from 'node:module'; const require = __r(import.meta.url);
var __defProp = Object.defineProperty;
var __export = (target, all2) => {
  for (var name in all2)
    __defProp(target, name, { get: all2[name], enumerable: true });
};

// packages/target-pyxis/dist/sim/parallel/index.js
var parallel_exports = {};
__export(parallel_exports, {
  CHIP_PARTITION_BUILDER: () => CHIP_PARTITION_BUILDER,
  CHIP_PARTITION_MODULE: () => CHIP_PARTITION_MODULE,
  CLUSTER_PARTITION_BUILDER: () => CLUSTER_PARTITION_BUILDER,
  CLUSTER_PARTITION_MODULE: () => CLUSTER_PARTITION_MODULE,
  ONE_CLUSTER: () => ONE_CLUSTER,
  PROGRESS_WINDOW: () => PROGRESS_WINDOW,
  SplitViolation: () => SplitViolation,
  buildChipPartition: () => buildChipPartition,
  buildClusterPartition: () => buildClusterPartition,
  listTargets: () => listTargets,
  mergeClusterReports: () => mergeClusterReports,
  planClusterSplit: () => planClusterSplit,
  runChipThreaded: () => runChipThreaded,
  runSystemThreaded: () => runSystemThreaded
});

// packages/codec/dist/compile.js
var TableError = class extends Error {
  table;
  problem;
  /** The grammar file, when the table was read from one. */
  file;
  /** The offending field (spec name as written in the table). */
  field;
  /** 1-based position of the problem in `file`, when known. */
  line;
  column;
  constructor(table3, problem, where = {}) {
    super("");
    this.table = table3;
    this.problem = problem;
    this.name = "TableError";
    if (where.file !== void 0)
      this.file = where.file;
    if (where.field !== void 0)
      this.field = where.field;
    this.message = this.describe();
  }
  /** Attaches the file (and the field's position in its text) to an error raised while compiling it. */
  locate(file, text) {
    this.file = file;
    if (text !== void 0) {
      const from = Math.max(0, text.indexOf('"fields"'));
      const at2 = this.field !== void 0 ? new RegExp(`"name"\\s*:\\s*"${this.field.replace(/[^A-Za-z0-9_]/g, "")}"`).exec(text.slice(from)) : void 0;
      if (at2) {
        const before = text.slice(0, from + at2.index).split("\n");
        this.line = before.length;
        this.column = before[before.length - 1].length + 1;
      }
    }
    this.message = this.describe();
    return this;
  }
  describe() {
    const where = this.file !== void 0 ? `grammar file ${this.file}${this.table !== this.file ? ` (table \`${this.table}\`)` : ""}` : `field table \`${this.table}\``;
    return `${where}: ${this.field !== void 0 ? `field \`${this.field}\`: ` : ""}${this.problem}`;
  }
};
var NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
function compileTable(t, source) {
  const fail3 = (m) => {
    throw new TableError(typeof t.name === "string" ? t.name : "?", m);
  };
  const failF = (field, m) => {
    throw new TableError(typeof t.name === "string" ? t.name : "?", m, typeof field === "string" ? { field } : {});
  };
  if (typeof t.name !== "string" || !NAME.test(t.name))
    fail3("missing or invalid `name`");
  if (!Array.isArray(t.fields))
    fail3("`fields` must be an array");
  const fields = [];
  const byName = /* @__PURE__ */ new Map();
  const used = [];
  let cursor = 0;
  for (const f of t.fields) {
    if (f === null || typeof f !== "object" || Array.isArray(f))
      fail3(`every field must be an object, got ${JSON.stringify(f)}`);
    if (typeof f.name !== "string" || !NAME.test(f.name))
      failF(f.name, `invalid field name ${JSON.stringify(f.name)}`);
    if (byName.has(f.name))
      failF(f.name, "duplicate field name");
    if (!Number.isInteger(f.width) || f.width < 1 || f.width > 64)
      failF(f.name, `width must be 1..64, got ${f.width}`);
    const count = f.count ?? 1;
    if (!Number.isInteger(count) || count < 1 || count > 4096)
      failF(f.name, `count must be 1..4096`);
    const lsb = f.lsb ?? cursor;
    if (!Number.isInteger(lsb) || lsb < 0)
      failF(f.name, `invalid lsb ${f.lsb}`);
    const end = lsb + f.width * count;
    for (const [a, b, other] of used)
      if (lsb < b && a < end)
        failF(f.name, `(bits ${lsb}..${end - 1}) overlaps \`${other}\` (bits ${a}..${b - 1})`);
    used.push([lsb, end, f.name]);
    cursor = end;
    if (f.minus_one && f.zero_means_max)
      failF(f.name, `minus_one and zero_means_max are exclusive`);
    if ((f.minus_one || f.zero_means_max) && (f.signed || f.enum))
      failF(f.name, `N-1 encodings apply to plain unsigned fields only`);
    if (f.signed && f.enum)
      failF(f.name, `an enum field cannot be signed`);
    const w = BigInt(f.width);
    let min;
    let max;
    if (f.signed) {
      min = -(1n << w - 1n);
      max = (1n << w - 1n) - 1n;
    } else if (f.minus_one || f.zero_means_max) {
      min = 1n;
      max = 1n << w;
    } else {
      min = 0n;
      max = (1n << w) - 1n;
    }
    let enumNames;
    if (f.enum !== void 0) {
      if (f.enum === null || typeof f.enum !== "object" || Array.isArray(f.enum))
        failF(f.name, `enum must be an object of name: codepoint`);
      enumNames = /* @__PURE__ */ new Map();
      for (const [k, v] of Object.entries(f.enum)) {
        if (!NAME.test(k))
          failF(f.name, `invalid enum name ${JSON.stringify(k)}`);
        if (!Number.isInteger(v) || BigInt(v) < 0n || BigInt(v) > max)
          failF(f.name, `enum \`${k}\` = ${v} does not fit ${f.width} bits`);
        if (enumNames.has(v))
          failF(f.name, `enum codepoint ${v} named twice`);
        enumNames.set(v, k);
      }
    }
    if (f.enum_open !== void 0 && (typeof f.enum_open !== "boolean" || !f.enum))
      failF(f.name, `enum_open must be true or false, on an enum field`);
    if (f.enum_aliases !== void 0) {
      const ea = f.enum_aliases;
      if (ea === null || typeof ea !== "object" || Array.isArray(ea))
        failF(f.name, `enum_aliases must be an object of alias: enum name`);
      if (!f.enum)
        failF(f.name, `enum_aliases needs an enum`);
      for (const [a, target] of Object.entries(ea)) {
        if (!NAME.test(a))
          failF(f.name, `invalid enum alias ${JSON.stringify(a)}`);
        if (Object.hasOwn(f.enum, a))
          failF(f.name, `enum alias \`${a}\` collides with the enum name \`${a}\``);
        if (typeof target !== "string" || !Object.hasOwn(f.enum, target))
          failF(f.name, `enum alias \`${a}\` names ${JSON.stringify(target)}, which is not a value of the enum`);
      }
    }
    if (f.aliases !== void 0) {
      if (!Array.isArray(f.aliases))
        failF(f.name, `aliases must be a list of names`);
      if (f.reserved && f.aliases.length)
        failF(f.name, `a reserved field cannot have aliases`);
      for (const a of f.aliases)
        if (typeof a !== "string" || !NAME.test(a))
          failF(f.name, `invalid alias ${JSON.stringify(a)}`);
    }
    if (f.role !== void 0 && (typeof f.role !== "string" || !NAME.test(f.role)))
      failF(f.name, `role must be an identifier, got ${JSON.stringify(f.role)}`);
    const cf = { ...f, lsb, count, min, max, ...enumNames ? { enumNames } : {} };
    fields.push(cf);
    byName.set(f.name, cf);
  }
  let byAlias;
  for (const f of fields) {
    for (const a of f.aliases ?? []) {
      if (byName.has(a))
        failF(f.name, `alias \`${a}\` collides with the field \`${a}\``);
      const prev = byAlias?.get(a);
      if (prev)
        failF(f.name, `alias \`${a}\` is already an alias of \`${prev.name}\``);
      (byAlias ??= /* @__PURE__ */ new Map()).set(a, f);
    }
  }
  const width = t.width ?? cursor;
  const maxEnd = used.reduce((m, [, b]) => Math.max(m, b), 0);
  if (!Number.isInteger(width) || width < maxEnd)
    fail3(`declared width ${t.width} is smaller than the fields need (${maxEnd} bits)`);
  const compiled = {
    name: t.name,
    width,
    bytes: Math.ceil(width / 8),
    fields,
    byName,
    ...byAlias ? { byAlias } : {},
    ...t.title !== void 0 ? { title: t.title } : {},
    ...t.target !== void 0 ? { target: t.target } : {},
    ...t.spec !== void 0 ? { spec: t.spec } : {},
    ...t.doc !== void 0 ? { doc: t.doc } : {},
    ...t.meta !== void 0 ? { meta: t.meta } : {},
    ...source !== void 0 ? { source } : {}
  };
  for (const f of fields) {
    if (f.default === void 0)
      continue;
    const vals = Array.isArray(f.default) ? f.default : [f.default];
    if (Array.isArray(f.default) && f.default.length !== f.count)
      failF(f.name, `default has ${f.default.length} elements, field has ${f.count}`);
    for (const v of vals) {
      const r = resolveScalar(f, v);
      if (typeof r === "string")
        failF(f.name, `default ${JSON.stringify(v)}: ${r}`);
    }
  }
  return compiled;
}
function defaultUserValue(f) {
  if (f.default !== void 0 && !Array.isArray(f.default)) {
    const r = resolveScalar(f, f.default);
    if (typeof r !== "string")
      return r;
  }
  return f.minus_one || f.zero_means_max ? 1n : f.enum && !f.enumNames?.has(0) ? BigInt([...f.enumNames.keys()][0]) : 0n;
}
function legalRange(f) {
  if (f.enumNames)
    return `${f.enum_open ? `0..${f.max}, named` : "one of"} ${[...f.enumNames].map(([v, n2]) => `${n2}=${v}`).join(", ")} (${f.width}-bit enum)`;
  const kind = f.signed ? "signed" : f.minus_one ? "unsigned, encoded as N-1" : f.zero_means_max ? "unsigned, 0 encodes the maximum" : "unsigned";
  return `${f.min}..${f.max} (${f.width}-bit ${kind})`;
}
function enumCode(f, name) {
  if (!f.enum)
    return void 0;
  if (Object.hasOwn(f.enum, name))
    return f.enum[name];
  const canon = f.enum_aliases && Object.hasOwn(f.enum_aliases, name) ? f.enum_aliases[name] : void 0;
  return canon !== void 0 && Object.hasOwn(f.enum, canon) ? f.enum[canon] : void 0;
}
function resolveScalar(f, v) {
  let n2;
  if (typeof v === "string") {
    if (!f.enum)
      return `\`${v}\` is a name, but \`${f.name}\` takes a number (${legalRange(f)})`;
    const code2 = enumCode(f, v);
    if (code2 === void 0)
      return `\`${v}\` is not a value of \`${f.name}\`; expected ${legalRange(f)}`;
    return BigInt(code2);
  } else if (typeof v === "number") {
    if (!Number.isInteger(v))
      return `value ${v} of \`${f.name}\` is not an integer`;
    if (!Number.isSafeInteger(v))
      return `value ${v} of \`${f.name}\` is beyond 2^53; pass a bigint`;
    n2 = BigInt(v);
  } else if (typeof v === "bigint") {
    n2 = v;
  } else {
    return `value of \`${f.name}\` must be a number${f.enum ? " or enum name" : ""}, got ${typeof v}`;
  }
  if (f.enumNames && !f.enum_open && (n2 < 0n || n2 > f.max || n2 > BigInt(Number.MAX_SAFE_INTEGER) || !f.enumNames.has(Number(n2))))
    return `${n2} is not a codepoint of \`${f.name}\`; expected ${legalRange(f)}`;
  if (n2 < f.min || n2 > f.max)
    return `value ${n2} out of range for \`${f.name}\`: legal ${legalRange(f)}`;
  return n2;
}

// packages/codec/dist/codec.js
var CodecError = class extends Error {
  table;
  issues;
  constructor(table3, issues) {
    super(`${table3}: ${issues.map((i) => i.message).join("; ")}`);
    this.table = table3;
    this.issues = issues;
    this.name = "CodecError";
  }
};
function validate(t, values) {
  const issues = [];
  for (const key of Object.keys(values)) {
    const f = t.byName.get(key);
    if (!f)
      issues.push({ field: key, message: `\`${key}\` is not a field of \`${t.name}\`` });
    else if (f.reserved)
      issues.push({ field: key, message: `\`${key}\` is reserved in \`${t.name}\` and cannot be set` });
  }
  for (const f of t.fields) {
    const v = values[f.name];
    if (v === void 0 || f.reserved)
      continue;
    if (f.count > 1) {
      if (!Array.isArray(v)) {
        issues.push({ field: f.name, message: `\`${f.name}\` has ${f.count} elements; give a list` });
        continue;
      }
      if (v.length > f.count)
        issues.push({ field: f.name, message: `\`${f.name}\` has ${f.count} elements, got ${v.length}` });
      v.forEach((e, i) => {
        const r = resolveScalar(f, e);
        if (typeof r === "string")
          issues.push({ field: f.name, index: i, message: `${f.name}[${i}]: ${r}` });
      });
    } else {
      if (Array.isArray(v)) {
        issues.push({ field: f.name, message: `\`${f.name}\` is a scalar field; got a list` });
        continue;
      }
      const r = resolveScalar(f, v);
      if (typeof r === "string")
        issues.push({ field: f.name, message: r });
    }
  }
  return issues;
}
function toRaw(f, user) {
  const mask = (1n << BigInt(f.width)) - 1n;
  if (f.minus_one)
    return user - 1n;
  if (f.zero_means_max)
    return user & mask;
  return user & mask;
}
function fromRaw(f, raw) {
  const w = BigInt(f.width);
  if (f.minus_one)
    return raw + 1n;
  if (f.zero_means_max)
    return raw === 0n ? 1n << w : raw;
  if (f.signed && raw >> w - 1n)
    return raw - (1n << w);
  return raw;
}
var FAST_BITS = 52;
function writeBitsNum(out, base2, lsb, width, raw) {
  let bit = lsb;
  let left = width;
  let v = raw;
  while (left > 0) {
    const byte = base2 + (bit >> 3);
    const sh = bit & 7;
    const take = Math.min(8 - sh, left);
    const lim = 1 << take;
    const part = v % lim;
    const m = lim - 1 << sh;
    out[byte] = out[byte] & ~m | part << sh;
    v = (v - part) / lim;
    bit += take;
    left -= take;
  }
}
function writeBits(out, base2, lsb, width, raw) {
  let bit = lsb;
  let left = width;
  if (width <= FAST_BITS) {
    writeBitsNum(out, base2, lsb, width, Number(raw));
    return;
  }
  let v = raw;
  while (left > 0) {
    const byte = base2 + (bit >> 3);
    const sh = bit & 7;
    const take = Math.min(8 - sh, left);
    const m = (1 << take) - 1 << sh;
    out[byte] = out[byte] & ~m | Number(v & BigInt((1 << take) - 1)) << sh & m;
    v >>= BigInt(take);
    bit += take;
    left -= take;
  }
}
function readBitsNum(buf, base2, lsb, width) {
  let v = 0;
  let scale = 1;
  let got = 0;
  let bit = lsb;
  while (got < width) {
    const sh = bit & 7;
    const take = Math.min(8 - sh, width - got);
    v += (buf[base2 + (bit >> 3)] >> sh & (1 << take) - 1) * scale;
    scale *= 1 << take;
    got += take;
    bit += take;
  }
  return v;
}
function fromRawNum(f, raw) {
  if (f.minus_one)
    return raw + 1;
  if (f.zero_means_max)
    return raw === 0 ? 2 ** f.width : raw;
  if (f.signed && raw >= 2 ** (f.width - 1))
    return raw - 2 ** f.width;
  return raw;
}
function readElement(f, buf, base2, lsb) {
  if (f.width <= FAST_BITS)
    return fromRawNum(f, readBitsNum(buf, base2, lsb, f.width));
  return toDecoded(fromRaw(f, readBits(buf, base2, lsb, f.width)));
}
function readBits(buf, base2, lsb, width) {
  let v = 0n;
  let got = 0;
  let bit = lsb;
  while (got < width) {
    const sh = bit & 7;
    const take = Math.min(8 - sh, width - got);
    const part = buf[base2 + (bit >> 3)] >> sh & (1 << take) - 1;
    v |= BigInt(part) << BigInt(got);
    got += take;
    bit += take;
  }
  return v;
}
function userOf(f, v, index) {
  const r = resolveScalar(f, v);
  if (typeof r === "string")
    throw new CodecError("?", [{ field: f.name, index, message: r }]);
  return r;
}
function encode(t, values, out, offset = 0) {
  const fail3 = () => {
    throw new CodecError(t.name, validate(t, values));
  };
  for (const key in values) {
    if (!Object.hasOwn(values, key))
      continue;
    const f = t.byName.get(key);
    if (!f || f.reserved)
      fail3();
  }
  const users = scratch.length >= t.fields.length ? scratch : scratch = new Array(t.fields.length);
  for (let k = 0; k < t.fields.length; k++) {
    const f = t.fields[k];
    const v = f.reserved ? void 0 : values[f.name];
    const defs = defaultsOf(f);
    let row = users[k];
    if (!row || row.length < f.count)
      row = users[k] = new Array(f.count);
    if (v === void 0) {
      for (let i = 0; i < f.count; i++)
        row[i] = defs[i];
      continue;
    }
    if (Array.isArray(v) !== f.count > 1 || Array.isArray(v) && v.length > f.count)
      fail3();
    for (let i = 0; i < f.count; i++) {
      const elem = Array.isArray(v) ? v[i] : v;
      if (elem === void 0) {
        if (Array.isArray(v) && Object.hasOwn(v, i))
          fail3();
        row[i] = defs[i];
        continue;
      }
      const fast = fastUser(f, elem);
      if (fast !== void 0) {
        row[i] = fast;
        continue;
      }
      const r = resolveScalar(f, elem);
      if (typeof r === "string")
        fail3();
      row[i] = r;
    }
  }
  const buf = out ?? new Uint8Array(t.bytes);
  if (buf.length < offset + t.bytes)
    throw new RangeError(`encode ${t.name}: buffer too small`);
  buf.fill(0, offset, offset + t.bytes);
  for (let k = 0; k < t.fields.length; k++) {
    const f = t.fields[k];
    const row = users[k];
    for (let i = 0; i < f.count; i++) {
      const u = row[i];
      const lsb = f.lsb + i * f.width;
      if (typeof u === "number")
        writeBitsNum(buf, offset, lsb, f.width, toRawNum(f, u));
      else
        writeBits(buf, offset, lsb, f.width, toRaw(f, u));
    }
  }
  return buf;
}
function fastUser(f, elem) {
  if (f.width > FAST_BITS)
    return void 0;
  if (typeof elem === "string")
    return enumCode(f, elem);
  if (typeof elem !== "number" || !Number.isInteger(elem))
    return void 0;
  if (f.enumNames && !f.enum_open)
    return f.enumNames.has(elem) ? elem : void 0;
  const span = 2 ** f.width;
  if (f.signed)
    return elem >= -span / 2 && elem < span / 2 ? elem : void 0;
  if (f.minus_one || f.zero_means_max)
    return elem >= 1 && elem <= span ? elem : void 0;
  return elem >= 0 && elem < span ? elem : void 0;
}
function toRawNum(f, user) {
  if (f.minus_one)
    return user - 1;
  if (f.zero_means_max)
    return user === 2 ** f.width ? 0 : user;
  return user < 0 ? user + 2 ** f.width : user;
}
var scratch = [];
var defaultsCache = /* @__PURE__ */ new WeakMap();
function defaultsOf(f) {
  let d = defaultsCache.get(f);
  if (!d) {
    d = [];
    for (let i = 0; i < f.count; i++) {
      const u = Array.isArray(f.default) ? userOf(f, f.default[i], i) : defaultUserValue(f);
      d.push(f.width <= FAST_BITS ? Number(u) : u);
    }
    defaultsCache.set(f, d);
  }
  return d;
}
function toDecoded(v) {
  return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
}
function decode(t, buf, offset = 0, opts = {}) {
  if (buf.length < offset + t.bytes)
    throw new RangeError(`decode ${t.name}: need ${t.bytes} bytes at offset ${offset}, have ${buf.length - offset}`);
  const out = {};
  for (const f of t.fields) {
    if (f.reserved && !opts.includeReserved)
      continue;
    if (f.count > 1) {
      const arr = [];
      for (let i = 0; i < f.count; i++)
        arr.push(readElement(f, buf, offset, f.lsb + i * f.width));
      out[f.name] = arr;
    } else
      out[f.name] = readElement(f, buf, offset, f.lsb);
  }
  return out;
}
function readField(t, buf, name, index = 0, offset = 0) {
  const f = t.byName.get(name);
  if (!f)
    throw new Error(`${t.name}: no field ${name}`);
  if (!Number.isInteger(index) || index < 0 || index >= f.count)
    throw new RangeError(`${t.name}.${name}: element ${index} out of range 0..${f.count - 1}`);
  if (buf.length < offset + t.bytes)
    throw new RangeError(`readField ${t.name}: need ${t.bytes} bytes at offset ${offset}, have ${buf.length - offset}`);
  return readElement(f, buf, offset, f.lsb + index * f.width);
}

// packages/codec/dist/grammars.js
import { readFileSync, readdirSync, existsSync } from "node:fs";
import { join, relative, isAbsolute, resolve } from "node:path";
import { fileURLToPath } from "node:url";
function grammarsDir() {
  const env = process.env["PYXIS_GRAMMARS"];
  if (env)
    return env;
  return fileURLToPath(new URL("../../../grammars/", import.meta.url));
}
function targetGrammarsDir(target) {
  return join(grammarsDir(), target);
}
function shown(file) {
  const abs = resolve(file);
  const rel = relative(process.cwd(), abs);
  return rel && !rel.startsWith("..") && !isAbsolute(rel) ? rel : abs;
}
var cache = /* @__PURE__ */ new Map();
function loadTableFrom(dir, name) {
  const file = resolve(dir, `${name}.json`);
  const hit2 = cache.get(file);
  if (hit2)
    return hit2;
  const t = loadTableFile(file);
  cache.set(file, t);
  return t;
}
function loadTable(target, name) {
  return loadTableFrom(targetGrammarsDir(target), name);
}
function readText(file) {
  if (!existsSync(file))
    throw new TableError(shown(file), "no such grammar file", { file: shown(file) });
  return readFileSync(file, "utf8");
}
function parse(file, text) {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new TableError(shown(file), `not valid JSON: ${e.message}`, { file: shown(file) });
  }
}
function loadTableFile(file) {
  const text = readText(file);
  const json = parse(file, text);
  if (json === null || typeof json !== "object" || Array.isArray(json))
    throw new TableError(shown(file), "a field table must be a JSON object", { file: shown(file) });
  try {
    return compileTable(json, relative(grammarsDir(), file));
  } catch (e) {
    if (e instanceof TableError)
      throw e.locate(shown(file), text);
    throw e;
  }
}
function loadGrammarJsonFrom(dir, name) {
  const file = join(dir, `${name}.json`);
  return parse(file, readText(file));
}
function loadGrammarJson(target, name) {
  return loadGrammarJsonFrom(targetGrammarsDir(target), name);
}

// packages/diagnostics/dist/diagnostic.js
function isByteSpan(s) {
  return s.offset !== void 0;
}
var DiagnosticError = class extends Error {
  diagnostics;
  constructor(diagnostics) {
    const list = Array.isArray(diagnostics) ? diagnostics : [diagnostics];
    super(list.map((d) => d.message).join("; "));
    this.name = "DiagnosticError";
    this.diagnostics = list;
  }
};
var UsageError = class extends Error {
  notes;
  constructor(message, notes = []) {
    super(message);
    this.notes = notes;
    this.name = "UsageError";
  }
};
function error(code2, message, extra = {}) {
  return { severity: "error", code: code2, message, ...extra };
}
function warning(code2, message, extra = {}) {
  return { severity: "warning", code: code2, message, ...extra };
}
function failAt(file, offset, code2, message, extra = {}) {
  throw new DiagnosticError(error(code2, message, { span: { file, offset }, ...extra }));
}

// packages/diagnostics/dist/suggest.js
function editDistance(a, b) {
  const m = a.length;
  const n2 = b.length;
  let prev = new Array(n2 + 1);
  let cur = new Array(n2 + 1);
  for (let j = 0; j <= n2; j++)
    prev[j] = j;
  for (let i = 1; i <= m; i++) {
    cur[0] = i;
    for (let j = 1; j <= n2; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
    }
    [prev, cur] = [cur, prev];
  }
  return prev[n2];
}
function nearest(name, candidates) {
  let best;
  let bestD = Infinity;
  const lower = name.toLowerCase();
  for (const c of candidates) {
    const d = editDistance(lower, c.toLowerCase());
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  if (best === void 0)
    return void 0;
  const limit = Math.max(1, Math.floor(Math.max(name.length, best.length) / 3));
  return bestD <= limit ? best : void 0;
}
function didYouMean(name, candidates) {
  const n2 = nearest(name, candidates);
  return n2 ? [`help: did you mean \`${n2}\`?`] : [];
}

// packages/sim/dist/kernel/fifo.js
var Fifo = class {
  name;
  capacity;
  width;
  /** Entry storage: entry i occupies words [i*width, (i+1)*width). */
  data;
  head = 0;
  count = 0;
  /** Credits handed out by `reserve` and not yet filled by `push`. */
  reserved = 0;
  /** Statistics: entries pushed/popped, cycles a producer found no credit, high-water mark. */
  pushes = 0;
  pops = 0;
  fullStalls = 0;
  maxOccupancy = 0;
  constructor(name, capacity, width = 1) {
    this.name = name;
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError(`fifo ${name}: capacity must be >= 1`);
    if (!Number.isInteger(width) || width < 1)
      throw new RangeError(`fifo ${name}: width must be >= 1`);
    this.capacity = capacity;
    this.width = width;
    this.data = new Int32Array(capacity * width);
  }
  get occupancy() {
    return this.count;
  }
  get empty() {
    return this.count === 0;
  }
  get full() {
    return this.count + this.reserved >= this.capacity;
  }
  /** Free slots not promised to anybody: the producer's credits. */
  get credits() {
    return this.capacity - this.count - this.reserved;
  }
  /** Takes one credit now for an entry that will be pushed later (e.g. after a latency). */
  reserve() {
    if (this.count + this.reserved >= this.capacity) {
      this.fullStalls++;
      return false;
    }
    this.reserved++;
    return true;
  }
  /**
   * Appends an entry and returns the word offset of its slot in `data`, so the
   * producer can fill the remaining words in place; -1 (and a stall is counted)
   * when full. `fromReserved` consumes a credit taken earlier with `reserve`.
   */
  pushSlot(fromReserved = false) {
    if (fromReserved) {
      if (this.reserved <= 0)
        throw new Error(`fifo ${this.name}: push from reserve without a reservation`);
      this.reserved--;
    } else if (this.count + this.reserved >= this.capacity) {
      this.fullStalls++;
      return -1;
    }
    let tail = this.head + this.count;
    if (tail >= this.capacity)
      tail -= this.capacity;
    this.count++;
    this.pushes++;
    if (this.count > this.maxOccupancy)
      this.maxOccupancy = this.count;
    return tail * this.width;
  }
  /** Pushes a one-word value (word 0 of the entry). False when full. */
  push(value) {
    const at2 = this.pushSlot();
    if (at2 < 0)
      return false;
    this.data[at2] = value;
    return true;
  }
  /** Word offset of the head entry in `data`, or -1 when empty. */
  peekSlot() {
    return this.count === 0 ? -1 : this.head * this.width;
  }
  /** Word `word` of the head entry (undefined behaviour when empty: returns 0). */
  peek(word = 0) {
    return this.count === 0 ? 0 : this.data[this.head * this.width + word];
  }
  /** Removes the head entry; returns word 0 of it (0 when empty: check `empty` first). */
  pop() {
    if (this.count === 0)
      return 0;
    const v = this.data[this.head * this.width];
    this.head++;
    if (this.head === this.capacity)
      this.head = 0;
    this.count--;
    this.pops++;
    return v;
  }
  /**
   * `n` times one `pop` then one `pushSlot` (an entry streaming through at constant occupancy): the head moves by `n`,
   * `n` pops and `n` pushes are counted, occupancy and high-water mark stay. The entry pushed by the i-th pair
   * (i < n) is at word offset ((head + occupancy + i) mod capacity) * width with the head before the call; the caller
   * fills those slots. The FIFO must not be empty (a pop of an empty FIFO does nothing).
   */
  rotate(n2) {
    if (this.count === 0)
      throw new Error(`fifo ${this.name}: rotate of an empty FIFO`);
    this.head = (this.head + n2) % this.capacity;
    this.pops += n2;
    this.pushes += n2;
  }
  clear() {
    this.head = 0;
    this.count = 0;
    this.reserved = 0;
  }
};
var ObjectFifo = class {
  name;
  capacity;
  slots;
  head = 0;
  count = 0;
  pushes = 0;
  fullStalls = 0;
  maxOccupancy = 0;
  constructor(name, capacity) {
    this.name = name;
    this.capacity = capacity;
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError(`fifo ${name}: capacity must be >= 1`);
    this.slots = new Array(capacity).fill(void 0);
  }
  get occupancy() {
    return this.count;
  }
  get empty() {
    return this.count === 0;
  }
  get full() {
    return this.count >= this.capacity;
  }
  get credits() {
    return this.capacity - this.count;
  }
  push(v) {
    if (this.count >= this.capacity) {
      this.fullStalls++;
      return false;
    }
    let tail = this.head + this.count;
    if (tail >= this.capacity)
      tail -= this.capacity;
    this.slots[tail] = v;
    this.count++;
    this.pushes++;
    if (this.count > this.maxOccupancy)
      this.maxOccupancy = this.count;
    return true;
  }
  peek() {
    return this.count === 0 ? void 0 : this.slots[this.head];
  }
  pop() {
    if (this.count === 0)
      return void 0;
    const v = this.slots[this.head];
    this.slots[this.head] = void 0;
    this.head++;
    if (this.head === this.capacity)
      this.head = 0;
    this.count--;
    return v;
  }
};

// packages/sim/dist/kernel/port.js
var BandwidthPort = class {
  name;
  bytesPerCycle;
  /** Cycle (fractional) at which the port becomes free. */
  freeAt = 0;
  bytes = 0;
  transfers = 0;
  /** Cycles the port was occupied (sum of reservations). */
  busyCycles = 0;
  constructor(name, bytesPerCycle) {
    this.name = name;
    this.bytesPerCycle = bytesPerCycle;
    if (!(bytesPerCycle > 0))
      throw new RangeError(`port ${name}: bytesPerCycle must be > 0`);
  }
  /** Earliest whole cycle >= now at which a new transfer could start. */
  startCycle(now) {
    return Math.max(now, Math.ceil(this.freeAt - 1e-9));
  }
  /**
   * Reserves the port for `bytes`; returns the (whole) cycle at which the last
   * byte has passed the port. `scale` (0,1] models throttling (e.g. APM): the
   * transfer takes 1/scale as long.
   */
  reserve(now, bytes, scale = 1) {
    const start2 = Math.max(now, this.freeAt);
    const dur = bytes / (this.bytesPerCycle * scale);
    this.freeAt = start2 + dur;
    this.bytes += bytes;
    this.transfers++;
    this.busyCycles += dur;
    return Math.ceil(this.freeAt - 1e-9);
  }
};

// packages/sim/dist/kernel/trace.js
var TraceWriter = class {
  sink;
  first = true;
  groups = /* @__PURE__ */ new Map();
  tracks = /* @__PURE__ */ new Map();
  usPerCycle;
  closed = false;
  events = 0;
  constructor(sink, clockHz) {
    this.sink = sink;
    this.usPerCycle = 1e6 / clockHz;
    sink.write('{"displayTimeUnit":"ns","traceEvents":[\n');
  }
  emit(json) {
    if (this.closed)
      return;
    if (!this.first)
      this.sink.write(",\n");
    this.first = false;
    this.sink.write(json);
    this.events++;
  }
  ts(cycle) {
    return Math.round(cycle * this.usPerCycle * 1e6) / 1e6;
  }
  /**
   * A slice's `ts` and `dur`: start and end rounded to whole picoseconds (integers), the duration their difference,
   * so consecutive slices on one track never overlap through rounding (ts + dur of one <= ts of the next).
   */
  span(start2, end) {
    const a = Math.round(start2 * this.usPerCycle * 1e6);
    const b = Math.max(a, Math.round(end * this.usPerCycle * 1e6));
    return { ts: a / 1e6, dur: (b - a) / 1e6 };
  }
  /** The process id of a group (created with a process_name record on first use). */
  group(name) {
    let pid = this.groups.get(name);
    if (pid === void 0) {
      pid = this.groups.size + 1;
      this.groups.set(name, pid);
      this.emit(JSON.stringify({ ph: "M", name: "process_name", pid, tid: 0, args: { name } }));
      this.emit(JSON.stringify({ ph: "M", name: "process_sort_index", pid, tid: 0, args: { sort_index: pid } }));
    }
    return pid;
  }
  /** A thread track `name` inside group `group` (created once). */
  track(group, name) {
    const key = `${group}\0${name}`;
    let t = this.tracks.get(key);
    if (!t) {
      const pid = this.group(group);
      const tid = this.tracks.size + 1;
      t = { pid, tid };
      this.tracks.set(key, t);
      this.emit(JSON.stringify({ ph: "M", name: "thread_name", pid, tid, args: { name } }));
      this.emit(JSON.stringify({ ph: "M", name: "thread_sort_index", pid, tid, args: { sort_index: tid } }));
    }
    return t;
  }
  /** A complete slice ("X" event) from `start` to `end` cycles. */
  slice(track, start2, end, name, args, cat = "trip") {
    const a = { ...args ?? {}, start_cycle: start2, end_cycle: end };
    this.emit(JSON.stringify({ ph: "X", cat, name, pid: track.pid, tid: track.tid, ...this.span(start2, end), args: a }));
  }
  /** A thread-scoped instant event. */
  instant(track, cycle, name, args, cat = "barrier") {
    this.emit(JSON.stringify({ ph: "i", s: "t", cat, name, pid: track.pid, tid: track.tid, ts: this.ts(cycle), args: { ...args ?? {}, cycle } }));
  }
  /** A counter sample (one track per counter name within the group). */
  counter(group, cycle, name, values) {
    const pid = this.group(group);
    this.emit(JSON.stringify({ ph: "C", name, pid, tid: 0, ts: this.ts(cycle), args: values }));
  }
  close(extra = {}) {
    if (this.closed)
      return;
    this.closed = true;
    this.sink.write(`
],"otherData":${JSON.stringify(extra)}}
`);
    this.sink.close();
  }
  abort() {
    this.closed = true;
    this.sink.abort();
  }
};

// packages/sim/dist/kernel/vcd.js
function idCode(n2) {
  let s = "";
  do {
    s += String.fromCharCode(33 + n2 % 94);
    n2 = Math.floor(n2 / 94);
  } while (n2 > 0);
  return s;
}
function vcdDate() {
  const epoch2 = Number(process.env["SOURCE_DATE_EPOCH"]);
  return (Number.isFinite(epoch2) && process.env["SOURCE_DATE_EPOCH"] !== "" ? new Date(epoch2 * 1e3) : /* @__PURE__ */ new Date()).toUTCString();
}
var VcdWriter = class {
  sink;
  comment;
  unit;
  signals = [];
  last = new Float64Array(64);
  started = false;
  lastTime = -1;
  closed = false;
  psPerCycle;
  changes = 0;
  constructor(sink, clockHz, comment = "pyxis-sim", unit = "ps") {
    this.sink = sink;
    this.comment = comment;
    this.unit = unit;
    this.psPerCycle = unit === "cycle" ? 1 : 1e12 / clockHz;
    this.clockHz = clockHz;
  }
  clockHz;
  /** Declares a signal (before the first `set`); returns its handle. */
  signal(scope, name, width) {
    if (this.started)
      throw new Error("vcd: signals must be declared before the first value change");
    if (!(width >= 1 && width <= 52))
      throw new RangeError(`vcd: width ${width} of ${name} out of range 1..52`);
    const id = this.signals.length;
    this.signals.push({ scope, name: name.replace(/\s+/g, "_"), width, code: idCode(id) });
    if (id >= this.last.length) {
      const n2 = new Float64Array(this.last.length * 2);
      n2.set(this.last);
      this.last = n2;
    }
    this.last[id] = NaN;
    return id;
  }
  header() {
    this.started = true;
    const out = [];
    out.push(`$date ${vcdDate()} $end
`, `$version ${this.comment} $end
`);
    if (this.unit === "cycle")
      out.push(`$comment one time unit = one clock cycle (${this.clockHz} Hz); VCD has no cycle unit, so the timescale says 1ns $end
`, "$timescale 1ns $end\n");
    else
      out.push("$timescale 1ps $end\n");
    const root = { name: "", vars: [], kids: /* @__PURE__ */ new Map() };
    for (const s of this.signals) {
      let n2 = root;
      for (const p of s.scope) {
        let k = n2.kids.get(p);
        if (!k)
          n2.kids.set(p, k = { name: p, vars: [], kids: /* @__PURE__ */ new Map() });
        n2 = k;
      }
      n2.vars.push(s);
    }
    const emit = (n2) => {
      for (const v of n2.vars)
        out.push(`$var wire ${v.width} ${v.code} ${v.name} $end
`);
      for (const k of n2.kids.values()) {
        out.push(`$scope module ${k.name.replace(/\s+/g, "_")} $end
`);
        emit(k);
        out.push("$upscope $end\n");
      }
    };
    emit(root);
    out.push("$enddefinitions $end\n");
    out.push("#0\n$dumpvars\n");
    for (const v of this.signals)
      out.push(v.width === 1 ? `x${v.code}
` : `bx ${v.code}
`);
    out.push("$end\n");
    this.lastTime = 0;
    this.sink.write(out.join(""));
  }
  /** Records `value` (integer; negative values in two's complement of the width) at `cycle`. */
  set(id, value, cycle) {
    if (this.closed)
      return;
    if (this.last[id] === value)
      return;
    if (!this.started)
      this.header();
    const t = Math.round(cycle * this.psPerCycle);
    if (t > this.lastTime) {
      this.sink.write(`#${t}
`);
      this.lastTime = t;
    }
    this.last[id] = value;
    const s = this.signals[id];
    let v = Math.trunc(value);
    if (v < 0)
      v = 2 ** s.width + v;
    this.changes++;
    if (s.width === 1)
      this.sink.write(`${v & 1}${s.code}
`);
    else
      this.sink.write(`b${v.toString(2)} ${s.code}
`);
  }
  close(endCycle) {
    if (this.closed)
      return;
    if (!this.started)
      this.header();
    if (endCycle !== void 0) {
      const t = Math.round(endCycle * this.psPerCycle);
      if (t > this.lastTime)
        this.sink.write(`#${t}
`);
    }
    this.closed = true;
    this.sink.close();
  }
  abort() {
    this.closed = true;
    this.sink.abort();
  }
};

// packages/sim/dist/kernel/simulator.js
var ACTIVE = 0;
var ASLEEP = 1;
var TIMED = 2;
var SKIP = 3;
var Simulator = class {
  engines = [];
  /** The current cycle: the cycle being stepped during `run`, the final cycle after it. */
  now = 0;
  steps = 0;
  /**
   * The cycle limit of the current run (`maxCycles`, Infinity when none): engines that run ahead of the global
   * clock (temporal decoupling, docs/simulator.md "Quantum") never simulate a cycle at or beyond it.
   */
  runLimit = Infinity;
  busyC = new Float64Array(0);
  stallC = new Float64Array(0);
  idleC = new Float64Array(0);
  /** Stall reason counters: engine i's codes start at reasonBase[i]. */
  reasonBase = new Int32Array(0);
  reasonC = new Float64Array(0);
  explainers = [];
  passive = new Uint8Array(0);
  timed = new Uint8Array(0);
  /**
   * Per engine: ACTIVE (ticked when its position comes), ASLEEP (passive, until woken), TIMED (passive timedWake,
   * until `wakeAt` or woken), SKIP (replays promised progress until `wakeAt`, `attachSkip`). For the last three the
   * cycles from `acctFrom` on are not accounted yet (idle for ASLEEP / TIMED, busy for SKIP).
   */
  state = new Uint8Array(0);
  acctFrom = new Float64Array(0);
  wakeAt = new Float64Array(0);
  /** Engines in state ACTIVE, one bit per tick-order position. */
  act = new Int32Array(0);
  /** Each engine's position in `order`. */
  pos = new Int32Array(0);
  /** Min `wakeAt` over TIMED / SKIP engines (exact unless `timedStale`: a TIMED engine was woken early). */
  nextTimed = Infinity;
  timedStale = false;
  /** Engines in state SKIP (each promised progress in the current cycle). */
  skipping = 0;
  /** Tick-order position being run in the current cycle (-1: none yet or outside the loop; n: all done). */
  curPos = -1;
  links = [];
  /** Engine indexes in tick order: by phase, then registration. */
  order = new Int32Array(0);
  /** Per phase (ascending): its first and end position in `order`, and its links. */
  phaseStart = new Int32Array(0);
  phaseEnd = new Int32Array(0);
  phaseLinks = [];
  prepared = -1;
  /** Commits requested in the current phase (reused array; `commitN` entries valid). */
  commitQ = [];
  commitN = 0;
  /** Registers an engine; returns its index. Engines are ticked in registration order. */
  add(e) {
    this.engines.push(e);
    return this.engines.length - 1;
  }
  /** Registers a timed link: the kernel delivers its messages in the link's phase. */
  addLink(l) {
    this.links.push(l);
    this.prepared = -1;
    return l;
  }
  /**
   * Defers `c.commit(now)` to the end of the current phase, after every engine of the phase has ticked; the commits
   * of a phase run in `commitKey` order. Request at most once per cycle per committer.
   */
  requestCommit(c) {
    this.commitQ[this.commitN++] = c;
  }
  runCommits(now) {
    const q = this.commitQ;
    while (this.commitN > 0) {
      const n2 = this.commitN;
      for (let i = 1; i < n2; i++) {
        const c = q[i];
        let j = i - 1;
        while (j >= 0 && q[j].commitKey > c.commitKey) {
          q[j + 1] = q[j];
          j--;
        }
        q[j + 1] = c;
      }
      for (let i = 0; i < n2; i++)
        q[i].commit(now);
      const extra = this.commitN - n2;
      for (let i = 0; i < extra; i++)
        q[i] = q[n2 + i];
      this.commitN = extra;
    }
  }
  /** Extra wait-graph lines for deadlock/max-cycles reports (e.g. barrier table state). */
  addExplainer(f) {
    this.explainers.push(f);
  }
  preparePhases() {
    const n2 = this.engines.length;
    if (this.prepared === n2)
      return;
    this.prepared = n2;
    const phaseOf = (i) => this.engines[i].phase ?? 0;
    const idx = Array.from({ length: n2 }, (_, i) => i).sort((a, b) => phaseOf(a) - phaseOf(b) || a - b);
    this.order = Int32Array.from(idx);
    const phases = [.../* @__PURE__ */ new Set([...idx.map(phaseOf), ...this.links.map((l) => l.phase)])].sort((a, b) => a - b);
    this.phaseStart = new Int32Array(phases.length);
    this.phaseEnd = new Int32Array(phases.length);
    this.phaseLinks = phases.map((p) => this.links.filter((l) => l.phase === p));
    let k = 0;
    phases.forEach((p, pi) => {
      this.phaseStart[pi] = k;
      while (k < n2 && phaseOf(idx[k]) === p)
        k++;
      this.phaseEnd[pi] = k;
    });
  }
  prepare() {
    const n2 = this.engines.length;
    if (this.busyC.length === n2 && this.prepared === n2)
      return;
    this.settle(this.now);
    this.preparePhases();
    if (this.busyC.length === n2) {
      this.act.fill(0);
      for (let k = 0; k < n2; k++) {
        const i = this.order[k];
        this.pos[i] = k;
        if (this.state[i] === ACTIVE)
          this.act[k >>> 5] |= 1 << (k & 31);
      }
      return;
    }
    const grow = (a) => {
      const b = new Float64Array(n2);
      b.set(a.subarray(0, Math.min(a.length, n2)));
      return b;
    };
    this.busyC = grow(this.busyC);
    this.stallC = grow(this.stallC);
    this.idleC = grow(this.idleC);
    this.reasonBase = new Int32Array(n2);
    let total = 0;
    for (let i = 0; i < n2; i++) {
      this.reasonBase[i] = total;
      total += Math.max(1, this.engines[i].stallReasons?.length ?? 0);
    }
    this.passive = new Uint8Array(n2);
    this.timed = new Uint8Array(n2);
    this.state = new Uint8Array(n2);
    this.acctFrom = new Float64Array(n2);
    this.wakeAt = new Float64Array(n2);
    this.act = new Int32Array(n2 + 31 >>> 5);
    this.pos = new Int32Array(n2);
    for (let k = 0; k < n2; k++) {
      this.pos[this.order[k]] = k;
      this.act[k >>> 5] |= 1 << (k & 31);
    }
    this.nextTimed = Infinity;
    this.timedStale = false;
    this.skipping = 0;
    for (let i = 0; i < n2; i++) {
      const e = this.engines[i];
      this.passive[i] = e.passive ? 1 : 0;
      this.timed[i] = e.passive && e.timedWake ? 1 : 0;
      e.attachWake?.(() => this.wake(i));
      e.attachSkip?.((until) => this.skip(i, until));
    }
    const old = this.reasonC;
    this.reasonC = new Float64Array(total);
    if (old.length <= total)
      this.reasonC.set(old);
  }
  /**
   * A passive engine became busy (its wake function). Asleep since `acctFrom`: idle up to the current cycle, and the
   * current cycle too when its tick position has passed (it is ticked from the next cycle, as an engine found asleep
   * at its position is counted idle).
   */
  wake(i) {
    const st = this.state[i];
    if (st !== ASLEEP && st !== TIMED)
      return;
    const now = this.now;
    const k = this.pos[i];
    const to = k > this.curPos ? now : now + 1;
    this.idleC[i] += to - this.acctFrom[i];
    if (st === TIMED)
      this.timedStale = true;
    this.state[i] = ACTIVE;
    this.act[k >>> 5] |= 1 << (k & 31);
  }
  /** `attachSkip`: from inside engine i's tick at `now`, the cycles now < c < until replay progress. */
  skip(i, until) {
    const now = this.now;
    if (until <= now + 1 || this.state[i] !== ACTIVE)
      return;
    this.state[i] = SKIP;
    this.acctFrom[i] = now + 1;
    this.wakeAt[i] = until;
    if (until < this.nextTimed)
      this.nextTimed = until;
    this.skipping++;
    const k = this.pos[i];
    this.act[k >>> 5] &= ~(1 << (k & 31));
  }
  /** Engine i goes to sleep after its tick at `now` (not busy, no progress; counted idle at `now`). */
  sleep(i, e, now) {
    let st = ASLEEP;
    if (this.timed[i] === 1) {
      const w = e.nextWake(now + 1);
      if (w !== Infinity) {
        st = TIMED;
        const at2 = w > now + 1 ? w : now + 1;
        this.wakeAt[i] = at2;
        if (at2 < this.nextTimed)
          this.nextTimed = at2;
      }
    }
    if (this.state[i] === SKIP) {
      this.skipping--;
      this.timedStale = true;
    }
    this.state[i] = st;
    this.acctFrom[i] = now + 1;
    const k = this.pos[i];
    this.act[k >>> 5] &= ~(1 << (k & 31));
  }
  /** Brings back the TIMED / SKIP engines due at `now` (accounting their cycles before it); recomputes `nextTimed`. */
  reactivate(now) {
    const n2 = this.state.length;
    let next = Infinity;
    for (let i = 0; i < n2; i++) {
      const st = this.state[i];
      if (st !== TIMED && st !== SKIP)
        continue;
      const w = this.wakeAt[i];
      if (w > now) {
        if (w < next)
          next = w;
        continue;
      }
      const c = now - this.acctFrom[i];
      if (st === SKIP) {
        this.busyC[i] += c;
        this.skipping--;
      } else
        this.idleC[i] += c;
      this.state[i] = ACTIVE;
      const k = this.pos[i];
      this.act[k >>> 5] |= 1 << (k & 31);
    }
    this.nextTimed = next;
    this.timedStale = false;
  }
  /** The exact `nextTimed` (after early wakes of TIMED engines). */
  timedNext() {
    if (this.timedStale) {
      let next = Infinity;
      for (let i = 0; i < this.state.length; i++) {
        const st = this.state[i];
        if ((st === TIMED || st === SKIP) && this.wakeAt[i] < next)
          next = this.wakeAt[i];
      }
      this.nextTimed = next;
      this.timedStale = false;
    }
    return this.nextTimed;
  }
  /** Accounts every lazy engine's cycles before `to` (the loop's return; stats read outside a run). */
  settle(to) {
    const n2 = this.state.length;
    for (let i = 0; i < n2; i++) {
      const st = this.state[i];
      if (st === ACTIVE)
        continue;
      const from = this.acctFrom[i];
      const end = st === SKIP && this.wakeAt[i] < to ? this.wakeAt[i] : to;
      if (end === from)
        continue;
      if (st === SKIP)
        this.busyC[i] += end - from;
      else
        this.idleC[i] += end - from;
      this.acctFrom[i] = end;
    }
  }
  accountStall(i, e, cycles) {
    this.stallC[i] += cycles;
    let code2 = 0;
    if (e.stallCode && e.stallReasons) {
      code2 = e.stallCode();
      if (!(code2 >= 0 && code2 < e.stallReasons.length))
        code2 = 0;
    }
    this.reasonC[this.reasonBase[i] + code2] += cycles;
  }
  /** Runs until every engine is idle, a deadlock, or `maxCycles`. */
  run(opts = {}) {
    const maxCycles = opts.maxCycles ?? Infinity;
    const r = this.loop(maxCycles, Infinity, false, opts);
    if (r === "max-cycles")
      return { reason: "max-cycles", cycles: this.now, steps: this.steps, waitGraph: this.waitGraph() };
    if (r === "deadlock")
      return { reason: "deadlock", cycles: this.now, steps: this.steps, waitGraph: this.waitGraph() };
    return { reason: "done", cycles: this.now, steps: this.steps, waitGraph: [] };
  }
  /**
   * Partitioned runs (partitioned.ts): true when this simulator ran out of work at `now` (its own done cycle) and
   * waits only for messages from other partitions; none of its cycles from `now` on is accounted yet.
   */
  quiescent = false;
  /** Partitioned runs: the earliest cycle this simulator may act at, as its last pause found it (links aside). */
  pausedNext = 0;
  /** The earliest cycle at which this partition can change state (Infinity: none, unless a message comes). */
  nextEventAt() {
    let t = this.quiescent ? Infinity : Math.max(this.pausedNext, this.now);
    const links = this.links;
    for (let l = 0; l < links.length; l++) {
      const w = links[l].nextAt;
      if (w < t)
        t = w;
    }
    return t;
  }
  /** True when some engine is still busy (a quiescent partition with a busy engine is waiting for a message). */
  anyBusy() {
    for (const e of this.engines)
      if (e.busy)
        return true;
    return false;
  }
  /**
   * Partitioned runs: simulates every cycle < `limit` that this partition has to (a quiescent partition stays so
   * unless a message is due before `limit`); returns 'quiescent' or 'window'. `maxCycles` bounds run-ahead.
   */
  advance(limit, opts = {}) {
    this.prepare();
    const target = Math.min(this.nextEventAt(), limit);
    if (this.quiescent) {
      if (target >= limit)
        return "quiescent";
      this.quiescent = false;
    }
    if (target > this.now) {
      this.accountSkipped(target - this.now);
      this.now = target;
      if (target >= limit)
        return "window";
    }
    const r = this.loop(opts.maxCycles ?? Infinity, limit, true, opts);
    return r === "quiescent" ? "quiescent" : "window";
  }
  /** Partitioned runs: accounts the cycles from `now` to `end` (the run's end) as skipped ones. */
  finishAt(end) {
    this.prepare();
    if (end > this.now)
      this.accountSkipped(end - this.now);
    this.now = end;
    this.settle(end);
  }
  /** `cycles` cycles in which nothing moved: busy engines stall, the others idle (lazy engines: when settled). */
  accountSkipped(cycles) {
    const n2 = this.engines.length;
    for (let i = 0; i < n2; i++) {
      if (this.state[i] !== ACTIVE)
        continue;
      const e = this.engines[i];
      if (e.busy)
        this.accountStall(i, e, cycles);
      else
        this.idleC[i] += cycles;
    }
  }
  /**
   * The cycle loop, from `this.now`: stops at `maxCycles`, at `windowEnd` (partitioned runs: 'window'), or when
   * nothing can move any more ('done' / 'deadlock'; partitioned: 'quiescent', the undecided case).
   */
  loop(maxCycles, windowEnd, partitioned, opts) {
    this.prepare();
    this.runLimit = Math.min(maxCycles, windowEnd);
    const engines = this.engines;
    const n2 = engines.length;
    const every = opts.progressEvery ?? 1 << 14;
    const onProgress = opts.onProgress;
    let sinceProgress = 0;
    let now = this.now;
    const order = this.order;
    const nPhases = this.phaseStart.length;
    const phaseStart = this.phaseStart;
    const phaseEnd = this.phaseEnd;
    const phaseLinks = this.phaseLinks;
    const links = this.links;
    const busyC = this.busyC;
    const idleC = this.idleC;
    const passive = this.passive;
    const act = this.act;
    const nWords = act.length;
    let resumeAt = -1;
    let result;
    for (; ; ) {
      if (now >= maxCycles) {
        this.now = now;
        result = "max-cycles";
        break;
      }
      if (now >= windowEnd) {
        this.now = now;
        this.pausedNext = resumeAt > now ? resumeAt : now;
        result = "window";
        break;
      }
      if (now >= this.nextTimed)
        this.reactivate(now);
      let progressed = this.skipping > 0;
      if (progressed) {
        let idle = true;
        for (let w = 0; w < nWords; w++)
          if (act[w] !== 0) {
            idle = false;
            break;
          }
        if (idle) {
          let to = this.nextTimed;
          for (let l = 0; l < links.length; l++)
            if (links[l].nextAt < to)
              to = links[l].nextAt;
          if (to > maxCycles)
            to = maxCycles;
          if (to > windowEnd)
            to = windowEnd;
          if (to > now + 1) {
            let left = to - now;
            this.steps += left;
            if (onProgress) {
              let c = now;
              while (left > 0) {
                const k = every - sinceProgress <= left ? every - sinceProgress : left;
                c += k;
                left -= k;
                sinceProgress += k;
                if (sinceProgress >= every) {
                  sinceProgress = 0;
                  this.now = c - 1;
                  onProgress(c - 1);
                }
              }
            }
            now = to;
            continue;
          }
        }
      }
      this.steps++;
      this.now = now;
      for (let pi = 0; pi < nPhases; pi++) {
        const links2 = phaseLinks[pi];
        const start2 = phaseStart[pi];
        const end = phaseEnd[pi];
        this.curPos = start2 - 1;
        for (let l = 0; l < links2.length; l++)
          if (links2[l].nextAt <= now && links2[l].deliverDue(now) > 0)
            progressed = true;
        let k = start2;
        while (k < end) {
          let w = k >>> 5;
          let bits = act[w] & -1 << (k & 31);
          while (bits === 0 && ++w < nWords && w << 5 < end)
            bits = act[w];
          if (bits === 0)
            break;
          const p = (w << 5) + 31 - Math.clz32(bits & -bits);
          if (p >= end)
            break;
          this.curPos = p;
          const i = order[p];
          const e = engines[i];
          if (e.tick(now)) {
            busyC[i]++;
            progressed = true;
          } else if (e.busy)
            this.accountStall(i, e, 1);
          else {
            idleC[i]++;
            if (passive[i] === 1)
              this.sleep(i, e, now);
          }
          k = p + 1;
        }
        this.curPos = end - 1;
        if (this.commitN > 0) {
          this.runCommits(now);
          progressed = true;
        }
      }
      this.curPos = n2;
      if (onProgress && ++sinceProgress >= every) {
        sinceProgress = 0;
        onProgress(now);
      }
      if (progressed) {
        now++;
        continue;
      }
      let next = this.skipping > 0 ? now + 1 : this.timedNext();
      if (next <= now)
        next = now + 1;
      let anyBusy = false;
      for (let i = 0; i < n2; i++) {
        if (this.state[i] !== ACTIVE)
          continue;
        const e = engines[i];
        if (e.busy)
          anyBusy = true;
        else if (passive[i] === 1)
          continue;
        let w = e.nextWake(now + 1);
        if (w <= now)
          w = now + 1;
        if (w < next)
          next = w;
      }
      for (let l = 0; l < links.length; l++) {
        const w = links[l].nextAt;
        if (w < next)
          next = w <= now ? now + 1 : w;
      }
      if (next === Infinity) {
        this.now = now;
        for (let i = 0; i < n2; i++) {
          if (this.state[i] !== ACTIVE)
            continue;
          const e = engines[i];
          if (e.busy)
            this.accountStall(i, e, -1);
          else
            this.idleC[i]--;
        }
        if (partitioned) {
          this.quiescent = true;
          result = "quiescent";
        } else
          result = anyBusy ? "deadlock" : "done";
        break;
      }
      if (next > maxCycles)
        next = maxCycles;
      if (next > windowEnd) {
        resumeAt = next;
        next = windowEnd;
      }
      const skipped = next - now - 1;
      if (skipped > 0) {
        for (let i = 0; i < n2; i++) {
          if (this.state[i] !== ACTIVE)
            continue;
          const e = engines[i];
          if (e.busy)
            this.accountStall(i, e, skipped);
          else
            this.idleC[i] += skipped;
        }
      }
      now = next;
    }
    this.curPos = -1;
    this.settle(this.now);
    return result;
  }
  /** One line per busy engine with its blocked reason, then the explainers' lines. */
  waitGraph() {
    const lines = [];
    for (const e of this.engines) {
      if (!e.busy)
        continue;
      lines.push(`${e.name}: ${e.blockedReason() ?? "busy (no reason given)"}`);
    }
    for (const f of this.explainers)
      lines.push(...f());
    return lines;
  }
  engineStats() {
    this.prepare();
    this.settle(this.now);
    return this.engines.map((e, i) => {
      const reasons = {};
      const names = e.stallReasons ?? ["stalled"];
      for (let k = 0; k < Math.max(1, names.length); k++) {
        const c = this.reasonC[this.reasonBase[i] + k];
        if (c > 0)
          reasons[names[k] ?? "stalled"] = c;
      }
      return { name: e.name, busy: this.busyC[i], stall: this.stallC[i], idle: this.idleC[i], stallReasons: reasons };
    });
  }
};

// packages/sim/dist/kernel/link.js
var TimedLink = class {
  name;
  minLatency;
  phase;
  deliver;
  /** Binary min-heap over (at, key, seq); parallel arrays so that ordering allocates nothing per message. */
  at = [];
  key = [];
  seq = [];
  msg = [];
  nextSeq = 0;
  /** Messages delivered (stats). */
  delivered = 0;
  constructor(name, minLatency, phase, deliver) {
    this.name = name;
    this.minLatency = minLatency;
    this.phase = phase;
    this.deliver = deliver;
    if (!(Number.isInteger(minLatency) && minLatency >= 1))
      throw new RangeError(`link ${name}: minimum latency must be an integer >= 1 cycle, got ${minLatency}`);
  }
  /** Messages in flight. */
  get pending() {
    return this.at.length;
  }
  /** Cycle of the earliest pending delivery (Infinity when none). */
  get nextAt() {
    return this.at.length ? this.at[0] : Infinity;
  }
  /**
   * A link between two partitions (partitioned.ts): `send` only records the message in an outbox, which the
   * partitioned runner moves into the heap between windows (`flushOutbox`), so that what the receiving partition sees
   * inside a window never depends on which partition ran first (or on which thread). Sender keys must then name the
   * sender uniquely across partitions.
   */
  crossPartition = false;
  outbox = [];
  /** Sends `msg` from sender `key` at `now`, delivered at `deliverAt` (>= now + minLatency). */
  send(now, deliverAt, key, msg) {
    if (!(deliverAt >= now + this.minLatency))
      throw new RangeError(`link ${this.name}: message sent at cycle ${now} for cycle ${deliverAt} violates the minimum latency of ${this.minLatency}`);
    if (this.crossPartition) {
      this.outbox.push({ at: deliverAt, key, msg });
      return;
    }
    this.insert(deliverAt, key, msg);
  }
  /** Messages sent across partitions in the current window, not yet in the heap. */
  get outboxSize() {
    return this.outbox.length;
  }
  /**
   * Moves the window's cross-partition messages into the heap. Their order is (at, key, send order per key), as for
   * direct sends: the heap's sequence numbers are given here in the outbox order sorted by (at, key), and a stable
   * sort keeps each sender's own order.
   */
  flushOutbox() {
    const box = this.outbox;
    const n2 = box.length;
    if (n2 === 0)
      return 0;
    box.sort((a, b) => a.at - b.at || a.key - b.key);
    for (let i = 0; i < n2; i++)
      this.insert(box[i].at, box[i].key, box[i].msg);
    this.outbox = [];
    return n2;
  }
  /**
   * Threaded runs (threaded.ts): drains the window's outbox without delivering it, for a link that stands in, in the
   * sending partition, for another partition's inbound link (the messages cross to that partition's thread).
   */
  takeOutbox() {
    const box = this.outbox;
    this.outbox = [];
    return box;
  }
  /** Threaded runs: a message sent by another partition, placed in the outbox; `flushOutbox` orders it with the rest. */
  acceptRemote(at2, key, msg) {
    this.outbox.push({ at: at2, key, msg });
  }
  insert(deliverAt, key, msg) {
    const a = this.at;
    let i = a.length;
    a.push(deliverAt);
    this.key.push(key);
    this.seq.push(this.nextSeq++);
    this.msg.push(msg);
    while (i > 0) {
      const p = i - 1 >> 1;
      if (!this.less(i, p))
        break;
      this.swap(i, p);
      i = p;
    }
  }
  less(i, j) {
    const a = this.at;
    if (a[i] !== a[j])
      return a[i] < a[j];
    if (this.key[i] !== this.key[j])
      return this.key[i] < this.key[j];
    return this.seq[i] < this.seq[j];
  }
  swap(i, j) {
    let t = this.at[i];
    this.at[i] = this.at[j];
    this.at[j] = t;
    t = this.key[i];
    this.key[i] = this.key[j];
    this.key[j] = t;
    t = this.seq[i];
    this.seq[i] = this.seq[j];
    this.seq[j] = t;
    const m = this.msg[i];
    this.msg[i] = this.msg[j];
    this.msg[j] = m;
  }
  pop() {
    const m = this.msg[0];
    const last = this.at.length - 1;
    if (last > 0)
      this.swap(0, last);
    this.at.pop();
    this.key.pop();
    this.seq.pop();
    this.msg.pop();
    const n2 = this.at.length;
    let i = 0;
    for (; ; ) {
      const l = 2 * i + 1;
      const r = l + 1;
      let s = i;
      if (l < n2 && this.less(l, s))
        s = l;
      if (r < n2 && this.less(r, s))
        s = r;
      if (s === i)
        break;
      this.swap(i, s);
      i = s;
    }
    return m;
  }
  /** Delivers every message due at or before `now`; returns how many. Called by the kernel. */
  deliverDue(now) {
    let n2 = 0;
    while (this.at.length && this.at[0] <= now) {
      this.deliver(this.pop(), now);
      n2++;
    }
    this.delivered += n2;
    return n2;
  }
};

// packages/sim/dist/kernel/runAhead.js
var RunAheadWindow = class {
  quantum;
  clock;
  /** The model has simulated every cycle < `local`. */
  local = 0;
  /** True while the model is ahead of the global clock (between `open` and the window's last cycle). */
  ahead = false;
  did = new Uint8Array(1);
  mask = 0;
  constructor(quantum, clock) {
    this.quantum = quantum;
    this.clock = clock;
  }
  /** True when cycle `now` was already simulated by a window: call `replay`, not the model. */
  covers(now) {
    return now < this.local;
  }
  /** The progress flag of an already simulated cycle; at the window's last cycle the held-back events are flushed. */
  replay(now, model) {
    const r = this.did[now & this.mask] === 1;
    if (now === this.local - 1) {
      this.ahead = false;
      model.flushDeferred();
    }
    return r;
  }
  /** Opens a window at `now` (the gate allowed it); returns the progress flag of cycle `now`. */
  open(now, model, stopOnInput) {
    if (this.did.length < this.quantum) {
      let n2 = 1;
      while (n2 < this.quantum)
        n2 *= 2;
      this.did = new Uint8Array(n2);
      this.mask = n2 - 1;
    }
    let limit = now + this.quantum;
    const cap = this.clock?.runLimit ?? Infinity;
    if (limit > cap)
      limit = cap;
    const end = model.runAhead(now, limit, this.did, this.mask, stopOnInput);
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
  progressRun(now) {
    const last = this.local - 1;
    let c = now + 1;
    while (c < last && this.did[c & this.mask] === 1)
      c++;
    return c;
  }
  /** Next wake inside a window: the next cycle with recorded progress, else the model's own wake after it. */
  nextWake(now, model) {
    if (now < this.local) {
      for (let c = now; c < this.local; c++)
        if (this.did[c & this.mask] === 1)
          return c;
      return model.nextWake(this.local);
    }
    return model.nextWake(now);
  }
};

// packages/sim/dist/kernel/partitionHost.js
var PartitionFailure = class extends Error {
  partition;
  index;
  detail;
  stackText;
  diagnostics;
  constructor(partition, index, detail, stackText = "", diagnostics = null) {
    super(`partition ${partition}${index >= 0 ? ` (#${index})` : ""} failed: ${detail}`);
    this.partition = partition;
    this.index = index;
    this.detail = detail;
    this.stackText = stackText;
    this.diagnostics = diagnostics;
    this.name = "PartitionFailure";
  }
};
var loadBuilder = async (spec) => {
  const mod = await import(spec.module);
  const f = mod[spec.builder];
  if (typeof f !== "function")
    throw new Error(`module ${spec.module} exports no builder function \`${spec.builder}\``);
  return f;
};
var PartitionHost = class {
  parts = [];
  inboundById = /* @__PURE__ */ new Map();
  /** While a partition's code runs: its position (errors name it). */
  current = -1;
  /** Builds the partitions (in index order) and reports their links and the messages sent while building. */
  async start(specs) {
    for (const spec of specs) {
      this.current = -1;
      let build;
      try {
        build = await (await loadBuilder(spec))(spec.args, { index: spec.index, name: spec.name });
      } catch (e) {
        throw failure(spec.name, spec.index, e);
      }
      const outIds = Object.keys(build.outbound).sort();
      const inIds = Object.keys(build.inbound).sort();
      for (const id of inIds) {
        const l = build.inbound[id];
        if (!l.crossPartition)
          throw new PartitionFailure(spec.name, spec.index, `inbound link ${id} is not marked crossPartition`);
        if (this.inboundById.has(id))
          throw new PartitionFailure(spec.name, spec.index, `inbound link id ${id} is used twice`);
        this.inboundById.set(id, l);
      }
      for (const id of outIds) {
        if (!build.outbound[id].crossPartition)
          throw new PartitionFailure(spec.name, spec.index, `outbound link ${id} is not marked crossPartition`);
        if (build.inbound[id])
          throw new PartitionFailure(spec.name, spec.index, `link ${id} is both inbound and outbound (send on the inbound link itself)`);
      }
      this.parts.push({ index: spec.index, name: spec.name, build, inIds, inbound: inIds.map((id) => build.inbound[id]), outIds, outbound: outIds.map((id) => build.outbound[id]), busyMs: 0 });
    }
    const outbound = this.exchange();
    return {
      parts: this.parts.map((p) => ({
        index: p.index,
        inbound: p.inIds,
        outbound: p.outIds,
        minLatency: Math.min(...p.inbound.map((l) => l.minLatency), ...p.outbound.map((l) => l.minLatency))
      })),
      outbound,
      next: this.next(),
      clock: this.clock()
    };
  }
  /** One window: the messages from other hosts enter the heaps, every partition simulates its cycles < `end`. */
  window(end, inbound, opts) {
    this.accept(inbound);
    const busyMs = [];
    for (let k = 0; k < this.parts.length; k++) {
      const p = this.parts[k];
      this.current = k;
      const t0 = performance.now();
      try {
        p.build.sim.advance(end, opts);
      } catch (e) {
        throw failure(p.name, p.index, e);
      }
      const ms = performance.now() - t0;
      p.busyMs += ms;
      busyMs.push(ms);
    }
    this.current = -1;
    return { outbound: this.exchange(), next: this.next(), clock: this.clock(), busyMs };
  }
  /** The run ends at `end`: every partition accounts its remaining cycles; the results, in partition order. */
  finish(end, inbound) {
    this.accept(inbound);
    return this.parts.map((p) => {
      try {
        p.build.sim.finishAt(end);
        return {
          index: p.index,
          name: p.name,
          steps: p.build.sim.steps,
          busy: p.build.sim.anyBusy(),
          waitGraph: p.build.sim.anyBusy() ? p.build.sim.waitGraph() : [],
          stats: p.build.sim.engineStats(),
          collected: null,
          busyMs: p.busyMs
        };
      } catch (e) {
        throw failure(p.name, p.index, e);
      }
    });
  }
  /** After `finish`: every partition's `collect` (null without one), in partition order. */
  collect(end) {
    return this.parts.map((p) => {
      try {
        return p.build.collect?.(end) ?? null;
      } catch (e) {
        throw failure(p.name, p.index, e);
      }
    });
  }
  /** The partition whose code was running when an error escaped (for worker crash reports), or null. */
  running() {
    const p = this.parts[this.current];
    return p ? { name: p.name, index: p.index } : null;
  }
  accept(inbound) {
    for (const [id, at2, key, msg] of inbound) {
      const l = this.inboundById.get(id);
      if (!l)
        throw new Error(`cross message for link ${id}, which no partition of this host receives on`);
      l.acceptRemote(at2, key, msg);
    }
    for (const p of this.parts)
      for (const l of p.inbound)
        l.flushOutbox();
  }
  /** After a window: local cross sends enter their heaps; sends to other hosts are collected (link id order). */
  exchange() {
    const out = [];
    for (const p of this.parts) {
      for (const l of p.inbound)
        l.flushOutbox();
      for (let k = 0; k < p.outbound.length; k++) {
        const id = p.outIds[k];
        for (const m of p.outbound[k].takeOutbox())
          out.push([id, m.at, m.key, m.msg]);
      }
    }
    return out;
  }
  clock() {
    let t = 0;
    for (const p of this.parts)
      t = Math.max(t, p.build.sim.now);
    return t;
  }
  next() {
    let t = Infinity;
    for (const p of this.parts)
      t = Math.min(t, p.build.sim.nextEventAt());
    return t;
  }
};
function failure(name, index, e) {
  if (e instanceof PartitionFailure)
    return e;
  return new PartitionFailure(name, index, e instanceof Error ? e.message : String(e), e instanceof Error ? e.stack ?? "" : "", diagnosticsOf(e));
}
function diagnosticsOf(e) {
  const d = e?.diagnostics;
  return Array.isArray(d) ? structuredClone(d) : null;
}

// packages/sim/dist/kernel/threaded.js
import { existsSync as existsSync2 } from "node:fs";
import { fileURLToPath as fileURLToPath2 } from "node:url";
import { Worker } from "node:worker_threads";
var InProcessTransport = class {
  host = new PartitionHost();
  start(specs) {
    return this.host.start(specs);
  }
  window(end, inbound, opts) {
    return Promise.resolve(this.host.window(end, structuredClone(inbound), opts));
  }
  finish(end, inbound) {
    return Promise.resolve(this.host.finish(end, structuredClone(inbound)));
  }
  collect(end) {
    return Promise.resolve(structuredClone(this.host.collect(end)));
  }
  close() {
    return Promise.resolve();
  }
};
function partitionWorkerUrl() {
  const here = new URL("./partitionWorker.js", import.meta.url);
  if (existsSync2(fileURLToPath2(here)))
    return here;
  if (/\/src\/kernel\/threaded\.ts$/.test(import.meta.url))
    return new URL(import.meta.url.replace(/\/src\/kernel\/threaded\.ts$/, "/dist/kernel/partitionWorker.js"));
  return new URL("../../sim/dist/kernel/partitionWorker.js", import.meta.url);
}
function prestartWorkers(n2, modules) {
  return Array.from({ length: n2 }, () => {
    const p = { worker: new Worker(partitionWorkerUrl(), { workerData: { preload: modules } }), failure: null };
    p.worker.on("error", (e) => p.failure ??= e instanceof Error ? e : new Error(String(e)));
    p.worker.on("exit", (code2) => p.failure ??= new Error(`its worker thread exited (code ${code2}) before the run`));
    return p;
  });
}
async function releaseWorkers(ws) {
  await Promise.all(ws.map((p) => p.worker.terminate().catch(() => void 0)));
}
var WorkerTransport = class {
  pre;
  worker = null;
  pending = null;
  failed = null;
  names = "";
  constructor(pre) {
    this.pre = pre;
  }
  start(specs) {
    this.names = specs.map((s) => s.name).join(", ");
    const w = this.pre?.worker ?? new Worker(partitionWorkerUrl(), { workerData: { specs } });
    this.worker = w;
    if (this.pre?.failure) {
      this.failed = new PartitionFailure(this.names, -1, this.pre.failure.message, this.pre.failure.stack ?? "");
      return Promise.reject(this.failed);
    }
    if (this.pre)
      w.postMessage({ t: "start", specs });
    w.on("message", (m) => {
      const p = this.pending;
      this.pending = null;
      if (m.t === "error")
        this.fail(new PartitionFailure(m.partition, m.index, m.detail, m.stack, m.diagnostics), p);
      else
        p?.resolve(m);
    });
    w.on("error", (e) => this.fail(new PartitionFailure(this.names, -1, e instanceof Error ? e.message : String(e), e instanceof Error ? e.stack ?? "" : ""), this.pending));
    w.on("exit", (code2) => {
      this.worker = null;
      this.fail(new PartitionFailure(this.names, -1, `its worker thread exited (code ${code2}) during the run`), this.pending);
    });
    return this.call(null, (m) => m.t === "ready" ? m.ready : void 0);
  }
  window(end, inbound, opts) {
    return this.call({ t: "window", end, inbound, maxCycles: opts.maxCycles }, (m) => m.t === "window" ? m.reply : void 0);
  }
  finish(end, inbound) {
    return this.call({ t: "finish", end, inbound }, (m) => m.t === "results" ? m.results : void 0);
  }
  collect(end) {
    return this.call({ t: "collect", end }, (m) => m.t === "collected" ? m.collected : void 0);
  }
  async close() {
    const w = this.worker;
    this.worker = null;
    if (w)
      await w.terminate();
  }
  fail(e, p) {
    if (!this.failed)
      this.failed = e;
    this.pending = null;
    p?.reject(this.failed);
  }
  call(msg, pick) {
    if (this.failed)
      return Promise.reject(this.failed);
    if (!this.worker)
      return Promise.reject(new PartitionFailure(this.names, -1, "its worker thread is not running"));
    return new Promise((resolve2, reject) => {
      this.pending = {
        resolve: (m) => {
          const r = pick(m);
          if (r === void 0)
            reject(new PartitionFailure(this.names, -1, `unexpected reply ${m.t} from its worker thread`));
          else
            resolve2(r);
        },
        reject
      };
      if (msg !== null)
        this.worker.postMessage(msg);
    });
  }
};
async function runThreaded(specs, opts) {
  const P = specs.length;
  if (P === 0)
    throw new RangeError("threaded run: no partitions");
  if (!(Number.isInteger(opts.threads) && opts.threads >= 1))
    throw new RangeError(`threaded run: threads must be an integer >= 1, got ${opts.threads}`);
  const minUseful = opts.minUsefulLookahead ?? 8;
  let note = null;
  let H = Math.min(opts.threads, P);
  if (opts.threads > P)
    note = `${opts.threads} threads asked, ${P} partition${P === 1 ? "" : "s"} to run: ${H} thread${H === 1 ? "" : "s"} used`;
  const indexed = specs.map((s, index) => ({ ...s, index }));
  const assign = (h, hosts2) => indexed.filter((s) => Math.floor(s.index * hosts2 / P) === h);
  const pre = opts.workers ?? [];
  const main = opts.mainThreadHost ? 1 : 0;
  const make = (h, hosts2) => opts.transport ? opts.transport(h) : hosts2 === 1 || h < main ? new InProcessTransport() : new WorkerTransport(pre[h - main]);
  const calls = (f) => {
    const out = new Array(hosts.length);
    for (let h = hosts.length - 1; h >= 0; h--)
      out[h] = f(hosts[h], h);
    return Promise.all(out);
  };
  let hosts = [];
  try {
    hosts = Array.from({ length: H }, (_, h) => make(h, H));
    let readies = await calls((t, h) => t.start(assign(h, H)));
    let minLatency = Math.min(...readies.flatMap((r) => r.parts.map((p) => p.minLatency)));
    if (H > 1 && minLatency < minUseful) {
      note = `the cross-partition links allow a lookahead of ${minLatency} cycle${minLatency === 1 ? "" : "s"}, below the ${minUseful} a thread exchange needs to pay off: ran on 1 thread`;
      await Promise.all(hosts.map((t) => t.close()));
      H = 1;
      hosts = [make(0, 1)];
      readies = [await hosts[0].start(assign(0, 1))];
      minLatency = Math.min(...readies[0].parts.map((p) => p.minLatency));
    }
    const L = opts.lookahead ?? (minLatency === Infinity ? Number.MAX_SAFE_INTEGER : minLatency);
    if (!(Number.isInteger(L) && L >= 1))
      throw new RangeError(`threaded run: the lookahead must be an integer >= 1 cycle, got ${L}`);
    if (L > minLatency)
      throw new RangeError(`threaded run: a cross-partition link has a minimum latency of ${minLatency} cycles, below the lookahead ${L}`);
    const route = /* @__PURE__ */ new Map();
    readies.forEach((r, h) => r.parts.forEach((p) => p.inbound.forEach((id) => route.set(id, h))));
    for (const [h, r] of readies.entries())
      for (const p of r.parts)
        for (const id of p.outbound)
          if (!route.has(id))
            throw new PartitionFailure(specs[p.index].name, p.index, `sends on link ${id}, which no partition receives on`);
    const inbox = hosts.map(() => []);
    let crossMessages = 0;
    let inboxNext = Infinity;
    const post = (out) => {
      for (const m of out) {
        inbox[route.get(m[0])].push(m);
        if (m[1] < inboxNext)
          inboxNext = m[1];
      }
      crossMessages += out.length;
    };
    const next = readies.map((r) => r.next);
    const clock = readies.map((r) => r.clock);
    readies.forEach((r) => post(r.outbound));
    const maxCycles = opts.maxCycles ?? Infinity;
    const hostBusyMs = hosts.map(() => 0);
    let windows2 = 0;
    const t0 = performance.now();
    for (; ; ) {
      const T = Math.min(inboxNext, ...next);
      if (T === Infinity || T >= maxCycles) {
        const ended = T === Infinity;
        const end = ended ? Math.max(0, ...clock) : maxCycles;
        const perHost = await calls((t, h) => t.finish(end, takeInbox(inbox, h)));
        const reason = !ended ? "max-cycles" : perHost.flat().some((p) => p.busy) ? "deadlock" : "done";
        const collected = await calls((t) => t.collect({ reason, cycles: end }));
        perHost.forEach((ps, h) => ps.forEach((p, k) => p.collected = collected[h][k]));
        const parts = perHost.flat().sort((a, b) => a.index - b.index);
        const wallMs = performance.now() - t0;
        const busySum = hostBusyMs.reduce((a, b) => a + b, 0);
        return {
          reason,
          cycles: end,
          threads: H,
          lookahead: L,
          windows: windows2,
          crossMessages,
          parts,
          wallMs,
          hostBusyMs,
          hostWaitMs: hostBusyMs.map((b) => Math.max(0, wallMs - b)),
          efficiency: wallMs > 0 ? busySum / (H * wallMs) : 1,
          note
        };
      }
      const E = Math.min(T + L, maxCycles);
      const replies = await calls((t, h) => t.window(E, takeInbox(inbox, h), { maxCycles }));
      inboxNext = Infinity;
      replies.forEach((r, h) => {
        next[h] = r.next;
        clock[h] = r.clock;
        hostBusyMs[h] += r.busyMs.reduce((a, b) => a + b, 0);
        post(r.outbound);
      });
      windows2++;
      opts.onProgress?.(E);
    }
  } finally {
    await Promise.all(hosts.map((t) => t.close().catch(() => void 0)));
    await releaseWorkers(pre);
  }
}
function takeInbox(inbox, h) {
  const m = inbox[h];
  inbox[h] = [];
  return m;
}

// packages/sim/dist/kernel/parallelStats.js
import { availableParallelism, loadavg } from "node:os";
function defaultThreads(partitions, cores = availableParallelism(), load = loadavg()[0] ?? 0) {
  return Math.max(1, Math.min(partitions, cores, Math.round(cores - load)));
}

// packages/target-pyxis/dist/common/amem.js
var amem_exports = {};
__export(amem_exports, {
  AMEM_BANKS: () => AMEM_BANKS,
  AMEM_BLOCK_BYTES: () => AMEM_BLOCK_BYTES,
  AMEM_BYTES: () => AMEM_BYTES,
  AMEM_PARTITIONS: () => AMEM_PARTITIONS,
  AMEM_PARTITION_BYTES: () => AMEM_PARTITION_BYTES,
  AMEM_VIEW_BIT: () => AMEM_VIEW_BIT,
  AMEM_WORD_BYTES: () => AMEM_WORD_BYTES,
  amemBank: () => amemBank,
  amemPhysical: () => amemPhysical
});
var AMEM_BYTES = 64 * 1024 * 1024;
var AMEM_VIEW_BIT = 1 << 26;
var AMEM_PARTITION_BYTES = 16;
var AMEM_WORD_BYTES = 128;
var AMEM_PARTITIONS = 8;
var AMEM_BANKS = 128;
var AMEM_BLOCK_BYTES = 16 * 1024;
var ADDR_MASK = AMEM_BYTES - 1;
function amemPhysical(addr) {
  const a = addr & ADDR_MASK;
  if (addr & AMEM_VIEW_BIT)
    return a;
  return a ^ (a >>> 14 & 127) << 7;
}
function amemBank(phys) {
  return phys >>> 7 & 127;
}

// packages/target-pyxis/dist/sim/amem/clients.js
var PORT_READ = 0;
var PORT_WRITE = 1;
var PORT_WEIGHTS = 2;
var PORT_ITFE_READ = 3;
var PORT_ITFE_WRITE = 4;
var CLIENTS_PER_UIE = 5;
var PORT_NAMES = ["amem_read", "amem_write", "weights_read", "itfe_read", "itfe_write"];
var BANK_UIES = 12;
var UIE_CLIENTS = BANK_UIES * CLIENTS_PER_UIE;
var CLIENT_H2A = UIE_CLIENTS;
var CLIENT_A2H = UIE_CLIENTS + 1;
var CLIENT_ICDMA = UIE_CLIENTS + 2;
var RR_CLIENTS = UIE_CLIENTS + 5;
var CLIENT_ICDMA_IN = RR_CLIENTS;
var CLIENT_MPE = RR_CLIENTS + 1;
var CLIENT_DPE = RR_CLIENTS + 2;
var CLIENT_CONTROL = RR_CLIENTS + 3;
var CLIENT_TXDMA = RR_CLIENTS + 4;
var CLIENT_RXDMA = RR_CLIENTS + 5;
var N_CLIENTS = RR_CLIENTS + 6;
var DMA_NAMES = ["h2a", "a2h", "icdma0", "icdma1", "icdma2", "icdma_in", "mpe", "dpe", "control", "fabric_txdma", "fabric_rxdma"];
function uieClient(uie, port2) {
  return uie * CLIENTS_PER_UIE + port2;
}
function clientName(c) {
  if (c >= UIE_CLIENTS)
    return DMA_NAMES[c - UIE_CLIENTS] ?? `client${c}`;
  return `uie${Math.floor(c / CLIENTS_PER_UIE)}.${PORT_NAMES[c % CLIENTS_PER_UIE]}`;
}

// packages/target-pyxis/dist/sim/amem/schedules.js
var SCHED_MAX = 1024;
var BankSchedules = class {
  arb;
  /** Per bank: the cycle `jointWindow`'s scan last used it (-1 between calls). */
  stamp = new Float64Array(128).fill(-1);
  constructor(arb) {
    this.arb = arb;
  }
  /** A claim of port `port` of UIE `uie` at `cycle` (banks.ts `claim`): the next entry of its current schedules. */
  claimed(uie, port2, cycle) {
    for (let q = 2 * uie; q < 2 * uie + 2; q++)
      if (this.propAt[q] <= cycle) {
        if (port2 === PORT_READ)
          this.propDoneR[q]++;
        else if (port2 === PORT_WRITE)
          this.propDoneW[q]++;
      }
  }
  /** A claim of UIE `uie` was served after its cycle `t`: its schedules' timing no longer holds (their address order does). */
  servedLate(uie, t) {
    for (let q = 2 * uie; q < 2 * uie + 2; q++)
      if (this.propAt[q] <= t)
        this.propStalled[q] = 1;
  }
  /** Per UIE: 1 while it has a trip (a potential claimant). */
  active = new Uint8Array(BANK_UIES);
  activeUies = 0;
  // two schedule slots per UIE (q = 2 * uie + s; `cur` the newest): a UIE that batched publishes its next schedule
  // while its current one still describes the window others may join in the middle of
  cur = new Uint8Array(BANK_UIES);
  sel = new Int8Array(BANK_UIES).fill(-1);
  propPub = new Float64Array(2 * BANK_UIES).fill(Infinity);
  propAt = new Float64Array(2 * BANK_UIES);
  propLen = new Int32Array(2 * BANK_UIES);
  /** Per UIE: 1 once a claim of its schedule was served late (the schedule then bounds its claims, see jointWindow). */
  propStalled = new Uint8Array(2 * BANK_UIES);
  /** Per UIE: claims of its AMEM Read / AMEM Write ports since its schedule's first cycle (the next entry index). */
  propDoneR = new Int32Array(2 * BANK_UIES);
  propDoneW = new Int32Array(2 * BANK_UIES);
  batcher = new Uint8Array(BANK_UIES);
  /** Per UIE: the cycle from which it makes no more claims in its current trips (-1: it may claim). */
  quietAt = new Float64Array(BANK_UIES).fill(-1);
  skip = new Uint8Array(BANK_UIES);
  heldBank = new Float64Array(128);
  followMask = new Int32Array(4);
  listB = new Int32Array(BANK_UIES);
  listF = new Int32Array(BANK_UIES);
  /** Per UIE, per cycle of its schedule: read bank, write bank (whole aligned words). */
  propBank = new Int16Array(2 * BANK_UIES * SCHED_MAX * 2);
  jointAt = -1;
  jointLimit = -1;
  jointK = 0;
  /** A UIE of this cluster gained (`on`) or lost its last trip: it is (not) a potential claimant. */
  setActive(uie, on) {
    if (on)
      this.quietAt[uie] = -1;
    const v = on ? 1 : 0;
    if (this.active[uie] === v)
      return;
    this.active[uie] = v;
    this.activeUies += on ? 1 : -1;
    if (!on)
      this.propLen[2 * uie] = this.propLen[2 * uie + 1] = 0;
  }
  /**
   * Publishes UIE `uie`'s steady-state schedule (computed at global cycle `pub`): if none of its claims is served
   * late, its AMEM Read / Write ports access the whole aligned words of banks `propBank[(uie * SCHED_MAX + j) * 2]`
   * (read) and `[.. + 1]` (write) at cycle `at + j`, j < len (the caller filled them). A `follower` schedule gives
   * only the order of those accesses (its timing is not known: at cycle t a port claims one of entries [done, t - at]).
   */
  publish(uie, pub, at2, len, follower = false) {
    const q = 2 * uie + 1 - this.cur[uie];
    this.cur[uie] = q & 1;
    this.propPub[q] = pub;
    this.propAt[q] = at2;
    this.propLen[q] = len;
    this.propStalled[q] = follower ? 1 : 0;
    this.propDoneR[q] = 0;
    this.propDoneW[q] = 0;
  }
  /** Where the caller fills the schedule it is about to `publish` (propBank offset of UIE `uie`'s other slot). */
  schedOffset(uie) {
    return (2 * uie + 1 - this.cur[uie]) * SCHED_MAX * 2;
  }
  /** The slot of UIE `uie` that describes cycle `c`: the newest published before `maxPub` with at <= c, if it covers c; else -1. */
  slotFor(u, c, maxPub) {
    const a = 2 * u + this.cur[u];
    for (let i = 0; i < 2; i++) {
      const q = i === 0 ? a : a ^ 1;
      if (!(this.propPub[q] < maxPub) || this.propAt[q] > c)
        continue;
      return this.propLen[q] > 0 && c < this.propAt[q] + this.propLen[q] ? q : -1;
    }
    return -1;
  }
  /** No claim pending and no resource held at or after cycle `c` (a lone client's batch cannot meet an earlier access). */
  idleAt(c) {
    this.arb.sync(c);
    return this.arb.pendCycle < 0 && this.arb.heldUntil < c;
  }
  /**
   * UIE `uie` will make no more claims in its current trips (its AMEM Read / Write / Weights Read sequencers and ITFEs
   * are done, only write commits remain), as of the end of cycle `now`: `jointWindow` ignores it from `now + 1`.
   */
  setQuiet(uie, now) {
    if (this.quietAt[uie] < 0)
      this.quietAt[uie] = now;
  }
  /** True when UIE `uie` has a published schedule, not broken by a stall, usable at cycle `c`. */
  hasSchedule(uie, c) {
    const q = this.slotFor(uie, c, Infinity);
    return q >= 0 && this.propStalled[q] === 0;
  }
  /** After `jointWindow`: the schedule slot of UIE `uie` used for the window (for `countBatch`). */
  slotOf(uie) {
    return this.sel[uie];
  }
  /** The newest schedule slot of UIE `uie` (after `publish`). */
  newest(uie) {
    return 2 * uie + this.cur[uie];
  }
  /** After `jointWindow(c, ..)`: UIE `uie` batches the window (the others of its cluster run cycle by cycle). */
  batches(uie) {
    return this.batcher[uie] === 1;
  }
  /**
   * The steady-state batch condition (docs/uie-model.md "Performance"): the number of cycles from `c` (at most
   * `limit - c`) during which no claim of this cluster can conflict — every active UIE has a schedule published
   * before `c` that covers them, the schedules are pairwise (and read-vs-write) bank-disjoint in every cycle, no
   * earlier access still holds a resource, and (the caller's run-ahead gate) no control-plane client can act. The
   * same for every UIE asking at `c` (it reads only state fixed before `c`), so they all batch the same window.
   */
  jointWindow(c, limit, asker = -1) {
    this.arb.sync(c);
    if (this.jointAt === c && this.jointLimit === limit)
      return this.jointK;
    if (asker >= 0) {
      const q = this.slotFor(asker, c, c);
      if (q < 0 || this.propStalled[q] === 1)
        return 0;
    }
    let k = limit - c;
    if (this.arb.pendCycle >= 0)
      k = 0;
    let nb = 0;
    for (let u = 0; u < BANK_UIES; u++) {
      this.batcher[u] = 0;
      this.sel[u] = -1;
      this.skip[u] = this.active[u] === 0 || this.quietAt[u] >= 0 && this.quietAt[u] < c ? 1 : 0;
      if (this.skip[u] === 1 || k === 0)
        continue;
      const q = this.slotFor(u, c, c);
      this.sel[u] = q;
      if (q < 0)
        k = 0;
      else {
        k = Math.min(k, this.propAt[q] + this.propLen[q] - c);
        if (this.propStalled[q] === 0) {
          this.batcher[u] = 1;
          nb++;
        }
      }
    }
    if (nb === 0)
      k = 0;
    const P = this.propBank;
    const held = this.arb.heldUntil >= c;
    const hb = this.heldBank;
    if (held)
      for (let b = 0; b < 128; b++)
        hb[b] = this.arb.busyUntil(b, 255);
    const fm = this.followMask;
    fm.fill(0);
    for (let u = 0; u < BANK_UIES && k > 0; u++) {
      if (this.skip[u] === 1 || this.batcher[u] === 1)
        continue;
      const q = this.sel[u];
      const base2 = q * SCHED_MAX * 2;
      const hi = c - this.propAt[q];
      if (hi - this.propDoneR[q] > 64 || hi - this.propDoneW[q] > 64)
        k = 0;
      for (let i = this.propDoneR[q]; i < hi; i++)
        fm[P[base2 + 2 * i] >> 5] |= 1 << (P[base2 + 2 * i] & 31);
      for (let i = this.propDoneW[q]; i < hi; i++)
        fm[P[base2 + 2 * i + 1] >> 5] |= 1 << (P[base2 + 2 * i + 1] & 31);
    }
    const bo = this.listB;
    const fo = this.listF;
    let nbl = 0;
    let nfl = 0;
    for (let u = 0; u < BANK_UIES && k > 0; u++) {
      if (this.skip[u] === 1)
        continue;
      const q = this.sel[u];
      const o = (q * SCHED_MAX + (c - this.propAt[q])) * 2;
      if (this.batcher[u] === 1)
        bo[nbl++] = o;
      else
        fo[nfl++] = o;
    }
    const stamp = this.stamp;
    if (nfl === 0 && k > 0)
      k = this.batchersWindow(c, k, nbl, held);
    else
      for (let j = 0; j < k; j++) {
        const t = c + j;
        const d = 2 * j;
        for (let i = 0; i < nfl; i++) {
          const r = P[fo[i] + d];
          const w = P[fo[i] + d + 1];
          fm[r >> 5] |= 1 << (r & 31);
          fm[w >> 5] |= 1 << (w & 31);
        }
        let clash = false;
        for (let i = 0; i < nbl && !clash; i++) {
          for (let s2 = 0; s2 < 2; s2++) {
            const b = P[bo[i] + d + s2];
            if (stamp[b] === t || held && hb[b] >= t || fm[b >> 5] >>> (b & 31) & 1) {
              clash = true;
              break;
            }
            stamp[b] = t;
          }
        }
        if (clash) {
          k = j;
          break;
        }
      }
    for (let b = 0; b < 128; b++)
      this.stamp[b] = -1;
    if (k === 0)
      for (let u = 0; u < BANK_UIES; u++)
        this.batcher[u] = 0;
    this.jointAt = c;
    this.jointLimit = limit;
    this.jointK = k;
    return k;
  }
  /** Batchers using each bank in the cycle `batchersWindow` is at (all zero between calls). */
  useCnt = new Int32Array(128);
  /**
   * `jointWindow`'s scan when there are no followers (the only resources to avoid are the other batchers' and the
   * held ones, whose set only shrinks as t grows): the first cycle j < k at which two accesses of the batchers share
   * a bank or one meets a held bank, else k. Incremental: per bank the number of batcher accesses in the current
   * cycle; from one cycle to the next only the accesses whose bank changed are moved (and checked against held ones).
   */
  batchersWindow(c, k, nbl, held) {
    const P = this.propBank;
    const bo = this.listB;
    const hb = this.heldBank;
    const cnt = this.useCnt;
    let over = 0;
    let clashAt = k;
    for (let i = 0; i < nbl && clashAt === k; i++)
      for (let s2 = 0; s2 < 2; s2++) {
        const b = P[bo[i] + s2];
        if (held && hb[b] >= c)
          clashAt = 0;
        if (++cnt[b] === 2)
          over++;
      }
    if (over > 0)
      clashAt = 0;
    for (let j = 1; j < clashAt; j++) {
      const t = c + j;
      const d = 2 * j;
      for (let i = 0; i < nbl; i++) {
        const o = bo[i] + d;
        for (let s2 = 0; s2 < 2; s2++) {
          const nb = P[o + s2];
          const ob = P[o + s2 - 2];
          if (nb === ob)
            continue;
          if (--cnt[ob] === 1)
            over--;
          if (++cnt[nb] === 2)
            over++;
          if (held && hb[nb] >= t)
            clashAt = j;
        }
      }
      if (over > 0)
        clashAt = j;
    }
    cnt.fill(0);
    return clashAt;
  }
  /** Accounts the bank accesses of a batched window (whole words: 8 partitions each). */
  countBatch(uie, q, at2, k) {
    const o = q * SCHED_MAX * 2 + (at2 - this.propAt[q]) * 2;
    const P = this.propBank;
    const acc = this.arb.stats.bankAccesses;
    for (let side = 0; side < 2; side++) {
      let j = 0;
      while (j < k) {
        const b = P[o + 2 * j + side];
        let e = j + 1;
        while (e < k && P[o + 2 * e + side] === b)
          e++;
        acc[b] += 8 * (e - j);
        j = e;
      }
    }
    const st = this.arb.stats;
    st.clientClaims[uieClient(uie, PORT_READ)] += k;
    st.clientClaims[uieClient(uie, PORT_WRITE)] += k;
  }
};

// packages/target-pyxis/dist/sim/amem/banks.js
var RES = 128 * 8;
var ADDR_MASK2 = AMEM_BYTES - 1;
var AmemBanks = class {
  /** Per client: the first cycle at which its port may claim again (set by resolution; read after `sync`). */
  freeAt = new Float64Array(N_CLIENTS);
  stats = {
    bankAccesses: new Float64Array(128),
    bankConflicts: new Float64Array(128),
    bankStallCycles: new Float64Array(128),
    clientClaims: new Float64Array(N_CLIENTS),
    clientConflicts: new Float64Array(N_CLIENTS),
    clientStallCycles: new Float64Array(N_CLIENTS)
  };
  /** Per resource (bank * 8 + partition): last cycle it is occupied by an already served access. */
  busyAt = new Float64Array(RES).fill(-1);
  /** The last cycle any resource is held by a served access (-1: none). */
  heldUntil = -1;
  // pending claims of cycle `pendCycle`: client, accesses, up to 3 (bank, partition mask) words
  /** The cycle of the claims not yet resolved (-1: none). */
  pendCycle = -1;
  n = 0;
  cap = 64;
  cClient = new Int32Array(this.cap);
  cAcc = new Int32Array(this.cap);
  cWords = new Int32Array(this.cap * 3);
  // scratch for resolution
  order = new Int32Array(this.cap);
  stampAt = new Float64Array(128).fill(-1);
  stampMask = new Uint8Array(128);
  // control-plane occupancy of cycle ctrlAt (bank -> partition mask)
  ctrlAt = new Float64Array(128).fill(-1);
  ctrlMask = new Uint8Array(128);
  /** Cycles of the control plane's claims (the kernel's clock); claims are recorded only when set. */
  clock;
  /** The steady-state schedules of the cluster's UIEs (schedules.ts): they read the arbitration state, the claims update them. */
  sched = new BankSchedules(this);
  /**
   * THE claim API (one function for every AMEM client: UIE ports, Weights Read, the grid, ITFE): client `client`
   * accesses `nPtns` consecutive 16-byte partitions from byte address `byteAddr` (27-bit: view bit [26] honoured,
   * chip §7.1, §7.5) at cycle `cycle`, `accesses` times (2 for a read-modify-write, chip §7.4).
   * Returns false — nothing claimed — when the client's port is still held by an earlier claim that was served late
   * (`freeAt[client] > cycle`): the caller stalls and retries (it may sleep until `freeAt[client]`). Returns true
   * when the claim is recorded: the caller does the access now (functionally); a conflict with same-cycle claims is
   * resolved at the next `sync` and shows as `freeAt[client]` > cycle + 1 (the access is then counted as served late
   * and the port held until it is). Order-independent: resolution sees all claims of a cycle at once.
   */
  claim(client, cycle, byteAddr, nPtns, accesses = 1) {
    if (cycle !== this.pendCycle)
      this.sync(cycle);
    if (this.freeAt[client] > cycle)
      return false;
    if (this.n === this.cap)
      this.grow();
    const i = this.n++;
    this.cClient[i] = client;
    this.cAcc[i] = accesses;
    const view = byteAddr & AMEM_VIEW_BIT;
    let a = byteAddr & ADDR_MASK2 & ~15;
    let left = nPtns;
    for (let w = 0; w < 3; w++) {
      if (left <= 0) {
        this.cWords[i * 3 + w] = -1;
        continue;
      }
      const p0 = a >>> 4 & 7;
      const k = Math.min(left, 8 - p0);
      const bank = amemPhysical(a | view) >>> 7 & 127;
      const mask = (1 << k) - 1 << p0;
      this.cWords[i * 3 + w] = bank << 8 | mask;
      this.stats.bankAccesses[bank] += k * accesses;
      left -= k;
      a = a + k * 16 & ADDR_MASK2;
    }
    this.stats.clientClaims[client]++;
    this.pendCycle = cycle;
    const u = client / CLIENTS_PER_UIE | 0;
    if (u < BANK_UIES)
      this.sched.claimed(u, client - u * CLIENTS_PER_UIE, cycle);
    return true;
  }
  /**
   * A non-UIE access (`Amem.readBytes/writeBytes`: DMA engines, MPE, DPE, host) of `len` bytes at `byteAddr` by client
   * `client` at the clock's cycle. Round-robin DMA clients (< RR_CLIENTS): one claim per 128-byte word it touches
   * (`claimBurst`), resolved with the UIE ports at the next `sync`; the engine settles it (dmaBankPort.ts). Others:
   * `claimFirst`. Returns the cycle the access is served (the claim cycle for a round-robin client), -1 without clock.
   */
  access(client, byteAddr, len) {
    const clk = this.clock;
    if (!clk)
      return -1;
    const t = clk.now;
    if (len <= 0)
      return t;
    if (client < RR_CLIENTS) {
      this.claimBurst(client, t, byteAddr, len);
      return t;
    }
    if (client === CLIENT_CONTROL) {
      this.claimControl(t, byteAddr, len);
      return t;
    }
    return this.claimFirst(client, t, byteAddr, len);
  }
  /**
   * Host accesses, image load, dumps (functional, no timing of their own): the touched (bank, partition)s are taken
   * for cycle t only (UIE and DMA claims of t on them wait), ahead of everybody, never delayed.
   */
  claimControl(t, byteAddr, len) {
    if (t !== this.pendCycle)
      this.sync(t);
    this.pendCycle = t;
    const view = byteAddr & AMEM_VIEW_BIT;
    let a = byteAddr & ADDR_MASK2 & ~15;
    const end = (byteAddr & ADDR_MASK2) + len;
    let words = 0;
    while (a < end && words < 512) {
      const p0 = a >>> 4 & 7;
      const k = Math.min(Math.ceil((end - a) / 16), 8 - p0);
      const bank = amemPhysical(a | view) >>> 7 & 127;
      if (this.ctrlAt[bank] !== t) {
        this.ctrlAt[bank] = t;
        this.ctrlMask[bank] = 0;
      }
      this.ctrlMask[bank] |= (1 << k) - 1 << p0;
      this.stats.bankAccesses[bank] += k;
      a += k * 16;
      words++;
    }
    this.stats.clientClaims[CLIENT_CONTROL]++;
  }
  /**
   * Round-robin claims of a DMA burst: one `claim` per 128-byte word of [byteAddr, byteAddr + len) (each word is one
   * bank in the partitions it covers); the burst is served when its last word is (`freeAt[client]`). False (nothing
   * claimed) while the client's port is held by an earlier burst served late.
   */
  claimBurst(client, cycle, byteAddr, len) {
    if (cycle !== this.pendCycle)
      this.sync(cycle);
    if (this.freeAt[client] > cycle)
      return false;
    const view = byteAddr & AMEM_VIEW_BIT;
    let a = byteAddr & ADDR_MASK2 & ~15;
    const end = (byteAddr & ADDR_MASK2) + len;
    while (a < end) {
      const k = Math.min(Math.ceil((end - a) / 16), 8 - (a >>> 4 & 7));
      this.claim(client, cycle, a | view, k);
      a += k * 16;
    }
    return true;
  }
  /**
   * Fixed-priority access at cycle `t` (MODEL, docs/spec-notes.md): served before every round-robin claim of
   * its cycle, each word at the first cycle >= t at which its resources are not held by an access granted earlier (a
   * late-served access, the second half of a read-modify-write, another fixed-priority word of this cycle). Returns
   * the cycle its last word is served (known at once: it depends only on grants already made); late words count as
   * conflicts of the client and of the bank.
   */
  claimFirst(client, t, byteAddr, len) {
    if (t !== this.pendCycle)
      this.sync(t);
    this.pendCycle = t;
    const view = byteAddr & AMEM_VIEW_BIT;
    let a = byteAddr & ADDR_MASK2 & ~15;
    const end = (byteAddr & ADDR_MASK2) + len;
    let served = t;
    while (a < end) {
      const p0 = a >>> 4 & 7;
      const k = Math.min(Math.ceil((end - a) / 16), 8 - p0);
      const bank = amemPhysical(a | view) >>> 7 & 127;
      const mask = (1 << k) - 1 << p0;
      let f = this.busyUntil(bank, mask) + 1;
      if (f <= t)
        f = this.ctrlAt[bank] === t && (this.ctrlMask[bank] & mask) !== 0 ? t + 1 : t;
      if (f === t) {
        if (this.ctrlAt[bank] !== t) {
          this.ctrlAt[bank] = t;
          this.ctrlMask[bank] = 0;
        }
        this.ctrlMask[bank] |= mask;
      } else {
        for (let p = 0; p < 8; p++)
          if (mask >> p & 1 && this.busyAt[bank * 8 + p] < f)
            this.busyAt[bank * 8 + p] = f;
        if (f > this.heldUntil)
          this.heldUntil = f;
        this.stats.clientConflicts[client]++;
        this.stats.clientStallCycles[client] += f - t;
        this.stats.bankConflicts[bank]++;
        this.stats.bankStallCycles[bank] += f - t;
        if (f > served)
          served = f;
      }
      this.stats.bankAccesses[bank] += k;
      a += k * 16;
    }
    this.stats.clientClaims[client]++;
    return served;
  }
  /** Resolves the claims of every cycle before `now` (call at the start of a client's cycle; cheap when none). */
  sync(now) {
    if (this.pendCycle >= now || this.pendCycle < 0)
      return;
    if (this.n > 0)
      this.resolve(this.pendCycle);
    this.n = 0;
    this.pendCycle = -1;
  }
  grow() {
    const c = this.cap * 2;
    const g = (a, m) => {
      const b = new Int32Array(c * m);
      b.set(a);
      return b;
    };
    this.cClient = g(this.cClient, 1);
    this.cAcc = g(this.cAcc, 1);
    this.cWords = g(this.cWords, 3);
    this.order = new Int32Array(c);
    this.cap = c;
  }
  resolve(t) {
    const n2 = this.n;
    const W = this.cWords;
    let conflict = false;
    const checkBusy = this.heldUntil >= t;
    for (let i = 0; i < n2 && !conflict; i++) {
      for (let w = 0; w < 3; w++) {
        const x = W[i * 3 + w];
        if (x < 0)
          break;
        const b = x >>> 8;
        const m = x & 255;
        if (this.ctrlAt[b] === t && (this.ctrlMask[b] & m) !== 0)
          conflict = true;
        else if (this.stampAt[b] === t && (this.stampMask[b] & m) !== 0)
          conflict = true;
        else if (checkBusy && this.busyUntil(b, m) >= t)
          conflict = true;
        if (this.stampAt[b] !== t) {
          this.stampAt[b] = t;
          this.stampMask[b] = 0;
        }
        this.stampMask[b] |= m;
        if (conflict)
          break;
      }
    }
    for (let i = 0; i < n2; i++)
      for (let w = 0; w < 3; w++) {
        const x = W[i * 3 + w];
        if (x < 0)
          break;
        this.stampAt[x >>> 8] = -1;
      }
    if (!conflict) {
      for (let i = 0; i < n2; i++) {
        const acc = this.cAcc[i];
        const c = this.cClient[i];
        if (acc > 1) {
          this.occupy(i, t + acc - 1);
          this.freeAt[c] = t + acc;
        }
      }
      return;
    }
    const ord = this.order;
    const rot = t % RR_CLIENTS;
    for (let i = 0; i < n2; i++)
      ord[i] = i;
    const cl = this.cClient;
    for (let i = 1; i < n2; i++) {
      const v = ord[i];
      const kv = (cl[v] - rot + RR_CLIENTS) % RR_CLIENTS;
      let j = i - 1;
      while (j >= 0 && (cl[ord[j]] - rot + RR_CLIENTS) % RR_CLIENTS > kv) {
        ord[j + 1] = ord[j];
        j--;
      }
      ord[j + 1] = v;
    }
    for (let r = 0; r < n2; r++) {
      const i = ord[r];
      const c = this.cClient[i];
      const acc = this.cAcc[i];
      let s = t;
      let culprit = -1;
      for (let w = 0; w < 3; w++) {
        const x = W[i * 3 + w];
        if (x < 0)
          break;
        const b = x >>> 8;
        const m = x & 255;
        let f = this.busyUntil(b, m) + 1;
        if (this.ctrlAt[b] === t && (this.ctrlMask[b] & m) !== 0 && f <= t)
          f = t + 1;
        if (f > s) {
          s = f;
          culprit = b;
        }
      }
      this.occupy(i, s + acc - 1);
      if (s > t) {
        if (s + acc > this.freeAt[c])
          this.freeAt[c] = s + acc;
        this.stats.clientConflicts[c]++;
        this.stats.clientStallCycles[c] += s - t;
        this.stats.bankConflicts[culprit]++;
        this.stats.bankStallCycles[culprit] += s - t;
        const u = Math.floor(c / CLIENTS_PER_UIE);
        if (u < BANK_UIES)
          this.sched.servedLate(u, t);
      } else if (acc > 1)
        this.freeAt[c] = t + acc;
    }
  }
  /** The last cycle any partition of mask `m` of bank `b` is held by a served access (-1: none). */
  busyUntil(b, m) {
    let r = -1;
    for (let p = 0; p < 8; p++)
      if (m >> p & 1 && this.busyAt[b * 8 + p] > r)
        r = this.busyAt[b * 8 + p];
    return r;
  }
  occupy(i, until) {
    const W = this.cWords;
    for (let w = 0; w < 3; w++) {
      const x = W[i * 3 + w];
      if (x < 0)
        break;
      const b = x >>> 8;
      const m = x & 255;
      for (let p = 0; p < 8; p++)
        if (m >> p & 1 && this.busyAt[b * 8 + p] < until)
          this.busyAt[b * 8 + p] = until;
    }
    if (until > this.heldUntil)
      this.heldUntil = until;
  }
  /** Zeroes the statistics (after image load). */
  resetStats() {
    for (const a of Object.values(this.stats))
      a.fill(0);
  }
  /** Statistics for the report: per bank and per client, non-zero entries only; accesses of every bank. */
  report() {
    const st = this.stats;
    const banks = [];
    for (let b = 0; b < 128; b++)
      if (st.bankConflicts[b] > 0)
        banks.push({ bank: b, conflicts: st.bankConflicts[b], stall_cycles: st.bankStallCycles[b], accesses: st.bankAccesses[b] });
    const clients = [];
    for (let c = 0; c < N_CLIENTS; c++)
      if (st.clientClaims[c] > 0 || st.clientConflicts[c] > 0)
        clients.push({ client: clientName(c), claims: st.clientClaims[c], conflicts: st.clientConflicts[c], stall_cycles: st.clientStallCycles[c] });
    return { bank_conflicts: banks, clients, bank_accesses: Array.from(st.bankAccesses) };
  }
};

// packages/target-pyxis/dist/sim/amem/amem.js
var BLOCKS = AMEM_BYTES / AMEM_BLOCK_BYTES;
var ADDR_MASK3 = AMEM_BYTES - 1;
var SLAB_BLOCKS = 16;
var Amem = class {
  name;
  blocks = new Array(BLOCKS);
  /** 32-bit views of `blocks` (same buffers) for the UIE's word-wide partition copies. */
  blocks32 = new Array(BLOCKS);
  /** Per 16 KiB block: -1 never accessed, else the view bit (0/1) of the first access. */
  blockView = new Int8Array(BLOCKS).fill(-1);
  /** The slab new blocks are carved from (`block`) and the blocks of it handed out. */
  slab;
  slabUsed = SLAB_BLOCKS;
  stats = { bytesRead: 0, bytesWritten: 0, uninitReads: 0, viewConflicts: 0, bankAccesses: new Uint32Array(AMEM_BANKS) };
  /** First view conflict seen (message for diagnostics), if any. */
  firstViewConflict;
  /** Check the one-view-per-16K-block rule (chip §7.5). */
  checkViews = true;
  /** Bank arbitration of this AMEM's clients (chip §7; banks.ts): the one claim API is `banks.claim`. */
  banks = new AmemBanks();
  /**
   * Cycles from a UIE read claim to its data entering the switchbox FIFO: request shim + bank read latency +
   * switch/converter pipeline (sim_config.json `amem`, docs/timing-model.md). 0 = the idealised datapath (unit tests).
   */
  readPipelineCycles = 0;
  /**
   * `timing`: the sim_config.json `amem` parameters (read pipeline); `clock`: the kernel (its `now`), so that the
   * control-plane accessors (`readBytes` / `writeBytes`: DMA, MPE, DPE) claim banks at the current cycle.
   */
  constructor(name = "amem", timing, clock) {
    this.name = name;
    if (timing)
      this.readPipelineCycles = (timing.request_shim_cycles ?? 0) + (timing.read_latency_cycles ?? 0) + (timing.switch_convert_cycles ?? 0);
    this.banks.clock = clock;
  }
  /** Number of 16 KiB blocks materialised so far. */
  get allocatedBlocks() {
    let n2 = 0;
    for (const b of this.blocks)
      if (b)
        n2++;
    return n2;
  }
  noteView(addr, accesses = 1) {
    if (!this.checkViews)
      return;
    const blk = (addr & ADDR_MASK3) >>> 14;
    const v = addr & AMEM_VIEW_BIT ? 1 : 0;
    const prev = this.blockView[blk];
    if (prev < 0)
      this.blockView[blk] = v;
    else if (prev !== v) {
      this.stats.viewConflicts += accesses;
      this.firstViewConflict ??= `16 KiB block at 0x${(blk << 14).toString(16)} accessed through both the hashed and the unhashed view (chip \xA77.5)`;
    }
  }
  /** Materialises the 16 KiB block holding `phys` (kept out of the hot write paths). */
  newBlock32(phys) {
    this.block(phys, true);
    return this.blocks32[phys >>> 14];
  }
  block(phys, create) {
    const i = phys >>> 14;
    let b = this.blocks[i];
    if (!b && create) {
      if (this.slabUsed === SLAB_BLOCKS) {
        this.slab = new ArrayBuffer(SLAB_BLOCKS * AMEM_BLOCK_BYTES);
        this.slabUsed = 0;
      }
      const off = this.slabUsed++ * AMEM_BLOCK_BYTES;
      b = new Uint8Array(this.slab, off, AMEM_BLOCK_BYTES);
      this.blocks[i] = b;
      this.blocks32[i] = new Uint32Array(this.slab, off, AMEM_BLOCK_BYTES >> 2);
    }
    return b;
  }
  /** Reads one 16-byte partition at byte address `addr` (must be 16-aligned; view bit honoured) into out[off..off+16). */
  readPartition(addr, out, off) {
    this.noteView(addr);
    const phys = amemPhysical(addr & ~15);
    this.stats.bankAccesses[amemBank(phys)]++;
    this.stats.bytesRead += 16;
    const b = this.block(phys, false);
    if (!b) {
      this.stats.uninitReads++;
      out.fill(0, off, off + 16);
      return;
    }
    const o = phys & AMEM_BLOCK_BYTES - 1;
    for (let i = 0; i < 16; i++)
      out[off + i] = b[o + i];
  }
  /**
   * `readPartition` into a 32-bit view: partition at `addr` -> out32[w..w+4)
   * (the UIE datapath's lanes are 16-byte aligned, so partitions move as 4 words).
   */
  readPartition32(addr, out32, w) {
    this.noteView(addr);
    const phys = amemPhysical(addr & ~15);
    this.stats.bankAccesses[amemBank(phys)]++;
    this.stats.bytesRead += 16;
    const b = this.blocks32[phys >>> 14];
    if (!b) {
      this.stats.uninitReads++;
      out32[w] = out32[w + 1] = out32[w + 2] = out32[w + 3] = 0;
      return;
    }
    const o = (phys & AMEM_BLOCK_BYTES - 1) >> 2;
    out32[w] = b[o];
    out32[w + 1] = b[o + 1];
    out32[w + 2] = b[o + 2];
    out32[w + 3] = b[o + 3];
  }
  /**
   * Reads one whole 128-byte AMEM word (8 partitions, `addr` 128-aligned, view bit honoured) into
   * out32[w..w+32): the same bytes and statistics as 8 `readPartition32` calls (one word is one bank
   * row across the 8 partitions and stays contiguous under hashing, chip §7.5), as one block move.
   */
  readWord32(addr, out32, w) {
    this.noteView(addr, AMEM_PARTITIONS);
    const phys = amemPhysical(addr & ~127);
    this.stats.bankAccesses[amemBank(phys)] += AMEM_PARTITIONS;
    this.stats.bytesRead += AMEM_WORD_BYTES;
    const b = this.blocks32[phys >>> 14];
    if (!b) {
      this.stats.uninitReads += AMEM_PARTITIONS;
      for (let i = 0; i < 32; i += 4)
        out32[w + i] = out32[w + i + 1] = out32[w + i + 2] = out32[w + i + 3] = 0;
      return;
    }
    const o = (phys & AMEM_BLOCK_BYTES - 1) >> 2;
    for (let i = 0; i < 32; i += 4) {
      out32[w + i] = b[o + i];
      out32[w + i + 1] = b[o + i + 1];
      out32[w + i + 2] = b[o + i + 2];
      out32[w + i + 3] = b[o + i + 3];
    }
  }
  /** Writes one whole 128-byte word from src32[w..w+32) (as 8 `writePartition32` calls, one block move). */
  writeWord32(addr, src32, w) {
    this.noteView(addr, AMEM_PARTITIONS);
    const phys = amemPhysical(addr & ~127);
    this.stats.bankAccesses[amemBank(phys)] += AMEM_PARTITIONS;
    const b = this.blocks32[phys >>> 14] ?? this.newBlock32(phys);
    const o = (phys & AMEM_BLOCK_BYTES - 1) >> 2;
    for (let i = 0; i < 32; i += 4) {
      b[o + i] = src32[w + i];
      b[o + i + 1] = src32[w + i + 1];
      b[o + i + 2] = src32[w + i + 2];
      b[o + i + 3] = src32[w + i + 3];
    }
    this.stats.bytesWritten += AMEM_WORD_BYTES;
  }
  /**
   * Reads one whole 128-byte word, partition j going to out32[w + 4*perm[j] ..+4) (the lane permutation of a
   * serialised 16-bit access, chip §7.3.1): the same bytes and statistics as 8 `readPartition32` calls.
   */
  readWordPerm32(addr, out32, w, perm) {
    this.noteView(addr, AMEM_PARTITIONS);
    const phys = amemPhysical(addr & ~127);
    this.stats.bankAccesses[amemBank(phys)] += AMEM_PARTITIONS;
    this.stats.bytesRead += AMEM_WORD_BYTES;
    const b = this.blocks32[phys >>> 14];
    if (!b) {
      this.stats.uninitReads += AMEM_PARTITIONS;
      for (let j = 0; j < 8; j++) {
        const d = w + perm[j] * 4;
        out32[d] = out32[d + 1] = out32[d + 2] = out32[d + 3] = 0;
      }
      return;
    }
    const o = (phys & AMEM_BLOCK_BYTES - 1) >> 2;
    for (let j = 0; j < 8; j++) {
      const d = w + perm[j] * 4;
      const s = o + j * 4;
      out32[d] = b[s];
      out32[d + 1] = b[s + 1];
      out32[d + 2] = b[s + 2];
      out32[d + 3] = b[s + 3];
    }
  }
  /** Writes one whole word, partition j from src32[w + 4*perm[j] ..+4) (as 8 `writePartition32` calls). */
  writeWordPerm32(addr, src32, w, perm) {
    this.noteView(addr, AMEM_PARTITIONS);
    const phys = amemPhysical(addr & ~127);
    this.stats.bankAccesses[amemBank(phys)] += AMEM_PARTITIONS;
    const b = this.blocks32[phys >>> 14] ?? this.newBlock32(phys);
    const o = (phys & AMEM_BLOCK_BYTES - 1) >> 2;
    for (let j = 0; j < 8; j++) {
      const sr = w + perm[j] * 4;
      const d = o + j * 4;
      b[d] = src32[sr];
      b[d + 1] = src32[sr + 1];
      b[d + 2] = src32[sr + 2];
      b[d + 3] = src32[sr + 3];
    }
    this.stats.bytesWritten += AMEM_WORD_BYTES;
  }
  /** `writeWord32` from a 32-word view (`src32w.length === 32`): the copy is one typed-array `set` (a memcpy). */
  writeWordView(addr, src32w) {
    this.noteView(addr, AMEM_PARTITIONS);
    const phys = amemPhysical(addr & ~127);
    this.stats.bankAccesses[amemBank(phys)] += AMEM_PARTITIONS;
    (this.blocks32[phys >>> 14] ?? this.newBlock32(phys)).set(src32w, (phys & AMEM_BLOCK_BYTES - 1) >> 2);
    this.stats.bytesWritten += AMEM_WORD_BYTES;
  }
  /**
   * Batch fast path (uie/batchMove.ts): the bookkeeping of `readWord32` (view rule, statistics) of the whole word at
   * physical byte address `phys` (128-aligned) read through view `view` (AMEM_VIEW_BIT or 0), without moving data.
   * Returns the word's 32-bit block (word offset `(phys & 16383) >> 2`), undefined when never written (reads as zeros).
   */
  readWordAt(phys, view) {
    this.noteView(phys | view, AMEM_PARTITIONS);
    this.stats.bankAccesses[phys >>> 7 & 127] += AMEM_PARTITIONS;
    this.stats.bytesRead += AMEM_WORD_BYTES;
    const b = this.blocks32[phys >>> 14];
    if (!b)
      this.stats.uninitReads += AMEM_PARTITIONS;
    return b;
  }
  /** Batch fast path: the bookkeeping of `writeWord32` at physical `phys` (see `readWordAt`); returns the block to write. */
  writeWordAt(phys, view) {
    this.noteView(phys | view, AMEM_PARTITIONS);
    this.stats.bankAccesses[phys >>> 7 & 127] += AMEM_PARTITIONS;
    this.stats.bytesWritten += AMEM_WORD_BYTES;
    return this.blocks32[phys >>> 14] ?? this.newBlock32(phys);
  }
  /** Batch fast path: the 32-bit block holding physical `phys`, undefined when never written (no bookkeeping). */
  blockAt(phys) {
    return this.blocks32[phys >>> 14];
  }
  /**
   * Batch fast path: the bookkeeping of `n` whole-word accesses in a row of physical `phys` through `view` — `n`
   * `writeWordAt` (write) or `readWordAt` calls, `uninit` of the reads finding no block — without moving data or
   * creating blocks. One view-rule note for the run: the accesses after the first find the view the first left.
   */
  noteWords(phys, view, n2, write, uninit) {
    this.noteView(phys | view, AMEM_PARTITIONS * n2);
    this.stats.bankAccesses[phys >>> 7 & 127] += AMEM_PARTITIONS * n2;
    if (write)
      this.stats.bytesWritten += AMEM_WORD_BYTES * n2;
    else {
      this.stats.bytesRead += AMEM_WORD_BYTES * n2;
      if (uninit > 0)
        this.stats.uninitReads += AMEM_PARTITIONS * uninit;
    }
  }
  /** Batch fast path: the 32-bit block holding physical `phys`, created when never written (no bookkeeping). */
  writeBlockAt(phys) {
    return this.blocks32[phys >>> 14] ?? this.newBlock32(phys);
  }
  /** Full-partition write from a 32-bit view (see `readPartition32`). */
  writePartition32(addr, src32, w) {
    this.noteView(addr);
    const phys = amemPhysical(addr & ~15);
    this.stats.bankAccesses[amemBank(phys)]++;
    const b = this.blocks32[phys >>> 14] ?? this.newBlock32(phys);
    const o = (phys & AMEM_BLOCK_BYTES - 1) >> 2;
    b[o] = src32[w];
    b[o + 1] = src32[w + 1];
    b[o + 2] = src32[w + 2];
    b[o + 3] = src32[w + 3];
    this.stats.bytesWritten += 16;
  }
  /**
   * Writes one partition; `byteMask` (bit i = byte i) selects merged bytes,
   * the others keep memory contents (the RMW merge of chip §7.4).
   */
  writePartition(addr, src, off, byteMask = 65535) {
    this.noteView(addr);
    const phys = amemPhysical(addr & ~15);
    this.stats.bankAccesses[amemBank(phys)]++;
    const b = this.block(phys, true);
    const o = phys & AMEM_BLOCK_BYTES - 1;
    if (byteMask === 65535) {
      for (let i = 0; i < 16; i++)
        b[o + i] = src[off + i];
      this.stats.bytesWritten += 16;
      return;
    }
    for (let i = 0; i < 16; i++)
      if (byteMask >> i & 1) {
        b[o + i] = src[off + i];
        this.stats.bytesWritten++;
      }
  }
  /** The cycle the last `readBytes` / `writeBytes` was served (`AmemBanks.access`), -1 without a clock. */
  servedAt = -1;
  /**
   * Byte-granular read of `len` bytes from `addr` (view bit honoured), for hosts, DMA and dumps (not checked against
   * the one-view rule, so dumps may use either view), as bank client `client` (amem/banks.ts `access`; `servedAt`).
   */
  readBytes(addr, len, client = CLIENT_CONTROL) {
    this.servedAt = this.banks.access(client, addr, len);
    const out = new Uint8Array(len);
    const view = addr & AMEM_VIEW_BIT;
    let a = addr & ADDR_MASK3;
    for (let i = 0; i < len; ) {
      const phys = amemPhysical(a | view);
      const run2 = Math.min(len - i, 128 - (a & 127));
      const b = this.block(phys, false);
      if (b)
        out.set(b.subarray(phys & AMEM_BLOCK_BYTES - 1, (phys & AMEM_BLOCK_BYTES - 1) + run2), i);
      i += run2;
      a = a + run2 & ADDR_MASK3;
    }
    this.stats.bytesRead += len;
    return out;
  }
  /** Byte-granular write (view bit honoured), as bank client `client` (see `readBytes`). */
  writeBytes(addr, data2, client = CLIENT_CONTROL) {
    this.servedAt = this.banks.access(client, addr, data2.length);
    const view = addr & AMEM_VIEW_BIT;
    let a = addr & ADDR_MASK3;
    for (let i = 0; i < data2.length; ) {
      const phys = amemPhysical(a | view);
      const run2 = Math.min(data2.length - i, 128 - (a & 127));
      this.noteView(a | view);
      const b = this.block(phys, true);
      b.set(data2.subarray(i, i + run2), phys & AMEM_BLOCK_BYTES - 1);
      i += run2;
      a = a + run2 & ADDR_MASK3;
    }
    this.stats.bytesWritten += data2.length;
  }
  /** `AmemAccess` (control-plane) interface: byte read into `dst[off..off+len)`. */
  read(addr, dst, off, len) {
    dst.set(this.readBytes(addr, len), off);
  }
  /** `AmemAccess` (control-plane) interface: byte write from `src[off..off+len)`. */
  write(addr, src, off, len) {
    this.writeBytes(addr, src.subarray(off, off + len));
  }
  read32(addr) {
    const b = this.readBytes(addr, 4);
    return (b[0] | b[1] << 8 | b[2] << 16 | b[3] << 24) >>> 0;
  }
};

// packages/target-pyxis/dist/sim/apm.js
var Apm = class {
  cfg;
  name = "apm";
  group = "chip";
  /** After every trip engine (chip PHASE.apm). */
  phase = 4;
  /** Last among the commits of a phase: the engines' own commits (DMA issue) use the utilization of the phase start. */
  commitKey = Number.MAX_SAFE_INTEGER;
  passive = true;
  timedWake = true;
  wake;
  attachWake(wake) {
    this.wake = wake;
  }
  kernel;
  commitAt = -1;
  requested = 0;
  granted;
  utilization = 1;
  nextUpdate = 0;
  acc;
  /** Stats: bubbles inserted, sum of utilization-limited cycles, peak requested power. */
  bubbles = 0;
  peakRequested = 0;
  energy = 0;
  lastEnergyAt = 0;
  onChange;
  constructor(cfg, slots) {
    this.cfg = cfg;
    this.granted = cfg.min_granted_power;
    this.acc = new Float64Array(slots);
  }
  get busy() {
    return false;
  }
  accountEnergy(now) {
    this.energy += this.requested * this.utilization * (now - this.lastEnergyAt);
    this.lastEnergyAt = now;
  }
  /** A trip with power `p` starts (p > 0) or ends (pass -p). */
  request(p, now) {
    if (!this.cfg.enabled || p === 0)
      return;
    this.accountEnergy(now);
    this.requested += p;
    if (this.nextUpdate <= now)
      this.nextUpdate = now + this.cfg.power_update_period;
    this.wake?.();
    if (!this.kernel) {
      this.commit(now);
      return;
    }
    if (this.commitAt !== now) {
      this.commitAt = now;
      this.kernel.requestCommit(this);
    }
  }
  /** End of the phase in which trips started or ended: the new RequestedPower takes effect. */
  commit(now) {
    this.commitAt = -1;
    this.accountEnergy(now);
    if (this.requested > this.peakRequested)
      this.peakRequested = this.requested;
    this.recompute();
    this.onChange?.(now);
  }
  recompute() {
    this.utilization = this.requested > this.granted && this.requested > 0 ? this.granted / this.requested : 1;
  }
  /** Whether engine `slot` may run this cycle (false = insert a bubble). */
  allow(slot) {
    if (this.utilization >= 1)
      return true;
    const a = this.acc[slot] + this.utilization;
    if (a >= 1) {
      this.acc[slot] = a - 1;
      return true;
    }
    this.acc[slot] = a;
    this.bubbles++;
    return false;
  }
  target() {
    return Math.min(this.cfg.max_granted_power, Math.max(this.cfg.min_granted_power, this.requested));
  }
  tick(now) {
    if (!this.cfg.enabled || now < this.nextUpdate)
      return false;
    const t = this.target();
    if (t === this.granted)
      return false;
    this.accountEnergy(now);
    const d = this.cfg.max_delta_power;
    this.granted = t > this.granted ? Math.min(t, this.granted + d) : Math.max(t, this.granted - d);
    this.recompute();
    this.nextUpdate = now + this.cfg.power_update_period;
    this.onChange?.(now);
    return true;
  }
  nextWake(now) {
    if (!this.cfg.enabled || this.target() === this.granted)
      return Infinity;
    return Math.max(now, this.nextUpdate);
  }
  blockedReason() {
    return void 0;
  }
  finish(now) {
    this.accountEnergy(now);
  }
};

// packages/target-pyxis/dist/sim/diagnostics.js
var SimCodes = {
  /** Image is not a pyxis .pimg / malformed section or metadata. */
  badImage: "SIM0001",
  badEnqueue: "SIM0002",
  badDescriptor: "SIM0003",
  noEngine: "SIM0004",
  badAddress: "SIM0005",
  badPatch: "SIM0006",
  barrierOverflow: "SIM0007",
  barrierReuse: "SIM0008",
  barrierTimeout: "SIM0009",
  deadlock: "SIM0010",
  maxCycles: "SIM0011",
  misaligned: "SIM0012",
  badDump: "SIM0013",
  uninitRead: "SIM0014",
  overlapWrite: "SIM0015",
  badConfig: "SIM0016",
  queueFull: "SIM0017"
  /** An output file (trace, VCD, stats, dump) cannot be created. */
};
var CHIP_SPEC = "pyxis-chip-fspec.md";
var SimRuntimeError = class extends DiagnosticError {
  at;
  length;
  constructor(d, at2, length) {
    super(d);
    this.at = at2;
    this.length = length;
  }
};
function runtimeError(code2, message, section, cycle, notes = [], at2, length) {
  return new SimRuntimeError(error(code2, `cycle ${cycle}: ${message}`, { spec: `${CHIP_SPEC} ${section}`, notes }), at2, length);
}
function tripError(code2, message, section, cycle, trip) {
  return runtimeError(code2, message, section, cycle, [], trip.source, trip.sourceBytes);
}
function imageError(file, code2, message, offset = 0, extra = {}) {
  return new DiagnosticError(error(code2, message, { span: { file, offset }, ...extra }));
}

// packages/target-pyxis/dist/sim/barriers.js
var BARRIERS_PER_CLUSTER = 1024;
var BARRIER_COUNT_RANGE = (() => {
  const t = loadTable("pyxis", "barrier_bt_barrier");
  const w = t.byName.get("notify_count")?.width;
  if (w === void 0 || t.byName.get("wait_count")?.width !== w)
    throw new Error("grammars/pyxis/barrier_bt_barrier.json: notify_count and wait_count must exist with one width");
  return { min: -(2 ** (w - 1)), max: 2 ** (w - 1) - 1 };
})();
var COUNT_MIN = BARRIER_COUNT_RANGE.min;
var COUNT_MAX = BARRIER_COUNT_RANGE.max;
var BarrierTable = class {
  cluster;
  observer;
  timeoutCycles;
  notifyCount = new Int32Array(BARRIERS_PER_CLUSTER);
  waitCount = new Int32Array(BARRIERS_PER_CLUSTER);
  refCountsValid = new Uint8Array(BARRIERS_PER_CLUSTER);
  /** Cycle of the first operation since the barrier was last freed (-1: untouched/free). */
  activeSince = new Float64Array(BARRIERS_PER_CLUSTER).fill(-1);
  waiting = Array.from({ length: BARRIERS_PER_CLUSTER }, () => []);
  /** barrier_interrupt_config (§11.6.5): 8 entries of {interrupt_valid, barrier_id}. */
  interruptValid = new Uint8Array(8);
  interruptBarrier = new Int32Array(8);
  interruptCount = new Int32Array(8);
  /** Statistics. */
  setups = 0;
  notifies = 0;
  waits = 0;
  releases = 0;
  frees = 0;
  /** Called when a barrier is freed (§11.6.2 free()). */
  onFree;
  /** Barrier timeouts detected by the marking walk (§11.6.7), in detection order once `syncTimeouts` ran. */
  timeouts = [];
  /** Interrupts raised so far (§11.6.5 entries and the §11.6.7 timeout interrupt). */
  interruptLog = [];
  /** Timeout interrupts raised (one per timed-out barrier). */
  timeoutInterrupts = 0;
  /**
   * The software-readable register of §11.6.7: barrier id of the first timeout detected since software last cleared
   * it (-1 = none). Read/cleared through the `cluster.barrier_timeout_status` CSR (timeoutStatus / clearTimeoutStatus).
   */
  timeoutBarrierId = -1;
  timeoutAt = Infinity;
  timeoutClearedAt = -1;
  /** Per barrier: 1 once its current activation has timed out (recorded). */
  timedOut = new Uint8Array(BARRIERS_PER_CLUSTER);
  /** Walks up to the end of cycle `syncedTo - 1` have been evaluated for the barriers still active. */
  syncedTo = 0;
  constructor(cluster2, observer, timeoutCycles = 0) {
    this.cluster = cluster2;
    this.observer = observer;
    this.timeoutCycles = timeoutCycles;
  }
  check(id, now) {
    if (!(Number.isInteger(id) && id >= 1 && id < BARRIERS_PER_CLUSTER))
      throw runtimeError(SimCodes.badDescriptor, `barrier id ${id} out of range 1..1023 in cluster ${this.cluster}`, "\xA711.6.3", now);
  }
  touch(id, now) {
    if (this.activeSince[id] < 0)
      this.activeSince[id] = now;
  }
  range(id, now, what) {
    const n2 = this.notifyCount[id];
    const w = this.waitCount[id];
    if (n2 < COUNT_MIN || n2 > COUNT_MAX || w < COUNT_MIN || w > COUNT_MAX)
      throw runtimeError(SimCodes.barrierOverflow, `barrier ${this.cluster}:${id} ${what} leaves notify_count=${n2} wait_count=${w}, outside the 6-bit signed range -32..31`, "\xA711.6.1", now);
  }
  event(kind, id, engine, tripId, now) {
    this.observer?.barrierEvent(this.cluster, kind, id, this.notifyCount[id], this.waitCount[id], engine, tripId, now);
  }
  /** §11.6.2 set_ref_counts(): increments the counts; may release waiters and free the barrier. */
  setRefCounts(id, notifyCount, waitCount, now, engine = "barrier_config", tripId = 0) {
    this.check(id, now);
    if (this.refCountsValid[id])
      throw runtimeError(SimCodes.barrierReuse, `barrier ${this.cluster}:${id} set up again before it was freed (notify_count=${this.notifyCount[id]}, wait_count=${this.waitCount[id]})`, "\xA711.6.2", now, ["a barrier must be freed (all notifications and waits done) before it is re-used"]);
    this.touch(id, now);
    this.setups++;
    this.refCountsValid[id] = 1;
    this.notifyCount[id] += notifyCount;
    this.waitCount[id] += waitCount;
    this.range(id, now, "set_ref_counts");
    this.event("setup", id, engine, tripId, now);
    if (this.notifyCount[id] === 0)
      this.releaseWaitingConsumers(id, now);
    if (this.notifyCount[id] === 0 && this.waitCount[id] === 0)
      this.free(id, now);
  }
  /** §11.6.2 notify(). */
  notify(id, now, engine = "", tripId = 0) {
    if (id === 0)
      return;
    this.check(id, now);
    this.touch(id, now);
    this.notifies++;
    this.notifyCount[id] -= 1;
    this.range(id, now, "notify");
    this.event("notify", id, engine, tripId, now);
    if (this.notifyCount[id] === 0)
      this.interrupts(id, now);
    if (this.notifyCount[id] === 0 && this.refCountsValid[id]) {
      this.releaseWaitingConsumers(id, now);
      if (this.waitCount[id] === 0)
        this.free(id, now);
    }
  }
  /** §11.6.2 wait(consumer): true when the consumer may go at once (it is also told through `go`). */
  wait(id, consumer, now, engine = "", tripId = 0) {
    if (id === 0) {
      consumer.go(0, now);
      return true;
    }
    this.check(id, now);
    this.touch(id, now);
    this.waits++;
    this.waitCount[id] -= 1;
    this.range(id, now, "wait");
    this.event("wait", id, engine, tripId, now);
    if (this.notifyCount[id] === 0 && this.refCountsValid[id]) {
      consumer.go(id, now);
      if (this.waitCount[id] === 0)
        this.free(id, now);
      return true;
    }
    this.waiting[id].push(consumer);
    return false;
  }
  /**
   * Software `bt_mem_decrement[id]` write (§11.6.6): exactly one of
   * `wait_decr` / `notif_decr` must be set. A notify decrement behaves as
   * notify(); a wait decrement is a consumer (the CPU) that has already
   * been released, so it decrements wait_count and may free the barrier.
   */
  softwareDecrement(id, waitDecr, notifDecr, tripId, now) {
    if (waitDecr && notifDecr)
      throw runtimeError(SimCodes.badDescriptor, `bt_mem_decrement[${id}] with both wait_decr and notif_decr set`, "\xA711.6.6", now);
    if (notifDecr) {
      this.notify(id, now, "software", tripId);
      return;
    }
    if (!waitDecr)
      return;
    this.check(id, now);
    this.touch(id, now);
    this.waitCount[id] -= 1;
    this.range(id, now, "bt_mem_decrement wait_decr");
    this.event("sw_decrement", id, "software", tripId, now);
    if (this.notifyCount[id] === 0 && this.waitCount[id] === 0 && this.refCountsValid[id])
      this.free(id, now);
  }
  /** Writes one barrier_interrupt_config entry (§11.6.5). */
  configureInterrupt(entry, valid, barrierId) {
    this.interruptValid[entry] = valid ? 1 : 0;
    this.interruptBarrier[entry] = barrierId;
  }
  interrupts(id, now) {
    for (let e = 0; e < 8; e++) {
      if (this.interruptValid[e] && this.interruptBarrier[e] === id) {
        this.interruptCount[e]++;
        this.interruptLog.push({ cycle: now, source: "barrier_interrupt_config", entry: e, barrierId: id });
        this.event("interrupt", id, `interrupt${e}`, 0, now);
      }
    }
  }
  // ------------------------------------------------------------------ §11.6.7 timeouts
  /** Cycle of the walk that detects a timeout of an activation that started at `since` (the walk of W1 + N). */
  timeoutWalk(since) {
    const n2 = this.timeoutCycles;
    const w1 = Math.max(n2, Math.ceil(since / n2) * n2);
    return w1 + n2;
  }
  recordTimeout(id, since, at2, freedAt) {
    this.timedOut[id] = 1;
    this.timeouts.push({ id, since, at: at2, freedAt });
    this.timeoutInterrupts++;
    this.interruptLog.push({ cycle: at2, source: "barrier_timeout", entry: -1, barrierId: id });
    if (at2 > this.timeoutClearedAt && (at2 < this.timeoutAt || at2 === this.timeoutAt && id < this.timeoutBarrierId)) {
      this.timeoutAt = at2;
      this.timeoutBarrierId = id;
    }
    this.observer?.barrierEvent(this.cluster, "timeout", id, this.notifyCount[id], this.waitCount[id], "timeout_walk", 0, at2);
  }
  /** Evaluates every timeout walk that ended before cycle `now` (walks at the end of cycles <= now - 1). */
  syncTimeouts(now) {
    if (this.timeoutCycles <= 0 || now <= this.syncedTo)
      return;
    this.syncedTo = now;
    for (let id = 1; id < BARRIERS_PER_CLUSTER; id++) {
      const since = this.activeSince[id];
      if (since < 0 || this.timedOut[id])
        continue;
      const at2 = this.timeoutWalk(since);
      if (at2 < now)
        this.recordTimeout(id, since, at2, -1);
    }
  }
  /** The earliest walk cycle at which a barrier active now would time out (Infinity: none). */
  nextTimeoutWalk() {
    if (this.timeoutCycles <= 0)
      return Infinity;
    let w = Infinity;
    for (let id = 1; id < BARRIERS_PER_CLUSTER; id++) {
      const since = this.activeSince[id];
      if (since < 0 || this.timedOut[id])
        continue;
      const at2 = this.timeoutWalk(since);
      if (at2 < w)
        w = at2;
    }
    return w;
  }
  /** Timeout interrupts raised before cycle `now` (the walks up to the end of cycle now - 1). */
  timeoutInterruptsBefore(now) {
    this.syncTimeouts(now);
    let n2 = 0;
    for (const t of this.timeouts)
      if (t.at < now)
        n2++;
    return n2;
  }
  /** `barrier_timeout_status` at cycle `now`: {valid, barrier id} of the first timeout since the last clear. */
  timeoutStatus(now) {
    this.syncTimeouts(now);
    return this.timeoutBarrierId >= 0 && this.timeoutAt < now ? { valid: true, barrierId: this.timeoutBarrierId } : { valid: false, barrierId: 0 };
  }
  /** Software clears the saved timeout register (write 1 to timeout_valid): the next timeout detected is saved. */
  clearTimeoutStatus(now) {
    this.syncTimeouts(now);
    this.timeoutBarrierId = -1;
    this.timeoutAt = Infinity;
    this.timeoutClearedAt = now - 1;
  }
  /**
   * Trip flush (chip §11.8): "The Barrier Table is also cleared and re-initialized by hardware as part of the
   * trip-flush process": every barrier back to the reset state (counts 0, ref_counts_valid 0, no waiters, no timeout
   * mark). barrier_interrupt_config and the saved timeout register are not part of the table and are kept.
   */
  reinitialize(now) {
    this.syncTimeouts(now);
    for (let id = 1; id < BARRIERS_PER_CLUSTER; id++) {
      if (this.activeSince[id] < 0 && this.waiting[id].length === 0)
        continue;
      if (this.timedOut[id]) {
        for (const t of this.timeouts)
          if (t.id === id && t.freedAt < 0)
            t.freedAt = now;
      }
      this.notifyCount[id] = 0;
      this.waitCount[id] = 0;
      this.refCountsValid[id] = 0;
      this.activeSince[id] = -1;
      this.timedOut[id] = 0;
      this.waiting[id] = [];
      this.onFree?.(id);
      this.event("reinit", id, "trip_flush", 0, now);
    }
  }
  /** A trip waiting on `id` is discarded by the trip flush (chip §11.8): its wait is cancelled. */
  cancelWait(id, consumer) {
    const list = this.waiting[id];
    if (!list)
      return;
    const i = list.indexOf(consumer);
    if (i >= 0)
      list.splice(i, 1);
  }
  releaseWaitingConsumers(id, now) {
    const list = this.waiting[id];
    if (list.length === 0)
      return;
    this.waiting[id] = [];
    this.releases += list.length;
    this.event("release", id, "", 0, now);
    for (const c of list)
      c.go(id, now);
  }
  free(id, now) {
    this.refCountsValid[id] = 0;
    this.frees++;
    const since = this.activeSince[id];
    if (this.timeoutCycles > 0 && since >= 0) {
      if (this.timedOut[id]) {
        for (let i = this.timeouts.length - 1; i >= 0; i--)
          if (this.timeouts[i].id === id && this.timeouts[i].freedAt < 0) {
            this.timeouts[i].freedAt = now;
            break;
          }
      } else {
        const at2 = this.timeoutWalk(since);
        if (at2 < now)
          this.recordTimeout(id, since, at2, now);
      }
    }
    this.timedOut[id] = 0;
    this.activeSince[id] = -1;
    this.onFree?.(id);
    this.event("free", id, "", 0, now);
  }
  /** Consumers currently blocked on `id`. */
  waiters(id) {
    return this.waiting[id];
  }
  /** Barriers not in the reset state (touched and not freed), for reports. */
  pending(now) {
    const out = [];
    for (let id = 1; id < BARRIERS_PER_CLUSTER; id++) {
      if (this.activeSince[id] < 0)
        continue;
      out.push({
        id,
        notifyCount: this.notifyCount[id],
        waitCount: this.waitCount[id],
        refCountsValid: this.refCountsValid[id] === 1,
        waiters: this.waiting[id].map((c) => c.label),
        age: now - this.activeSince[id]
      });
    }
    return out;
  }
  /** All timeouts detected by the walks up to the end of cycle `end` (inclusive), ordered by walk cycle then id. */
  timeoutsUpTo(end) {
    this.syncTimeouts(end + 1);
    return this.timeouts.filter((t) => t.at <= end).sort((a, b) => a.at - b.at || a.id - b.id);
  }
};

// packages/target-pyxis/dist/sim/ordering.js
var OrderingTracker = class {
  n;
  engineName;
  knowledge;
  count;
  barrierClock = /* @__PURE__ */ new Map();
  /** Last partial writer per partition key: engine index, trip sequence number, trip id. */
  lastWriter = /* @__PURE__ */ new Map();
  partialWrites = 0;
  constructor(n2, engineName) {
    this.n = n2;
    this.engineName = engineName;
    this.knowledge = Array.from({ length: n2 }, () => new Float64Array(n2));
    this.count = new Float64Array(n2);
  }
  /** A trip of engine `e` has been released from barrier `cluster:id` (id 0 = no wait). */
  released(trip, e, cluster2, id) {
    const k = this.knowledge[e];
    if (id !== 0) {
      const b = this.barrierClock.get(cluster2 * 1024 + id);
      if (b) {
        for (let i = 0; i < this.n; i++)
          if (b[i] > k[i])
            k[i] = b[i];
      }
    }
    trip.engineIndex = e;
    trip.seq = ++this.count[e];
    trip.vc = Float64Array.from(k);
  }
  /** Trip `trip` notifies global barrier `cluster:id`. */
  notified(trip, cluster2, id) {
    if (!trip.vc || trip.engineIndex === void 0)
      return;
    const key = cluster2 * 1024 + id;
    let b = this.barrierClock.get(key);
    if (!b)
      this.barrierClock.set(key, b = new Float64Array(this.n));
    const v = trip.vc;
    for (let i = 0; i < this.n; i++)
      if (v[i] > b[i])
        b[i] = v[i];
    if (trip.seq > b[trip.engineIndex])
      b[trip.engineIndex] = trip.seq;
  }
  /** The barrier was freed: its next use starts a new generation. */
  freed(cluster2, id) {
    this.barrierClock.delete(cluster2 * 1024 + id);
  }
  /** A partial write (fewer than 16 bytes of a partition) by `trip` at view address `byteAddr` of `cluster`'s AMEM. */
  partialWrite(trip, cluster2, byteAddr, now) {
    if (trip.engineIndex === void 0 || !trip.vc)
      return;
    this.partialWrites++;
    const key = cluster2 * (1 << 22) + (amemPhysical(byteAddr) >>> 4);
    const prev = this.lastWriter.get(key);
    const e = trip.engineIndex;
    if (prev && prev.engine !== e && trip.vc[prev.engine] < prev.seq)
      throw runtimeError(SimCodes.overlapWrite, `partial writes to AMEM partition 0x${(byteAddr & ~15).toString(16)} of cluster ${cluster2} by ${this.engineName(prev.engine)} trip ${prev.tripId} and ${this.engineName(e)} trip ${trip.tripId} are not separated by a barrier`, "\xA711.7, \xA77.4.2", now, ["partial writes are read-modify-writes and not atomic: overlapping ones from different clients need a barrier between their trips"]);
    if (prev) {
      prev.engine = e;
      prev.seq = trip.seq;
      prev.tripId = trip.tripId;
    } else
      this.lastWriter.set(key, { engine: e, seq: trip.seq, tripId: trip.tripId });
  }
};

// packages/target-pyxis/dist/sim/memory.js
var PAGE_BITS = 16;
var PAGE_SIZE = 1 << PAGE_BITS;
var PAGE_MASK = PAGE_SIZE - 1;
function allZero(src, off, n2) {
  for (let i = off, end = off + n2; i < end; i++)
    if (src[i] !== 0)
      return false;
  return true;
}
var SparseMemory = class {
  name;
  size;
  pages = /* @__PURE__ */ new Map();
  /**
   * Pages written with zeros only and never allocated: sorted, disjoint, non-adjacent
   * half-open page ranges, flattened [start0, end0, start1, end1, ...].
   */
  zeroRanges = [];
  /** Bytes read from pages never written. */
  uninitReads = 0;
  bytesRead = 0;
  bytesWritten = 0;
  constructor(name, size) {
    this.name = name;
    this.size = size;
  }
  page(p, create) {
    let pg = this.pages.get(p);
    if (!pg && create) {
      pg = new Uint8Array(PAGE_SIZE);
      this.pages.set(p, pg);
    }
    return pg;
  }
  /** Index of the last range starting at or before page `p` (-1 if none), in range units. */
  rangeAt(p) {
    const r = this.zeroRanges;
    let lo2 = 0;
    let hi = r.length / 2 - 1;
    let found = -1;
    while (lo2 <= hi) {
      const mid = lo2 + hi >> 1;
      if (r[2 * mid] <= p) {
        found = mid;
        lo2 = mid + 1;
      } else
        hi = mid - 1;
    }
    return found;
  }
  /** Whether page `p` (not allocated) was written with zeros only. */
  zeroPage(p) {
    const i = this.rangeAt(p);
    return i >= 0 && p < this.zeroRanges[2 * i + 1];
  }
  /** Marks pages [first, end) as written with zeros (merging with neighbouring ranges). */
  markZeroPages(first, end) {
    if (first >= end)
      return;
    const r = this.zeroRanges;
    let i = this.rangeAt(first);
    if (i < 0 || r[2 * i + 1] < first)
      i++;
    let j = i;
    let s = first;
    let e = end;
    while (2 * j < r.length && r[2 * j] <= end) {
      s = Math.min(s, r[2 * j]);
      e = Math.max(e, r[2 * j + 1]);
      j++;
    }
    r.splice(2 * i, 2 * (j - i), s, e);
  }
  inRange(addr, len) {
    return Number.isInteger(addr) && addr >= 0 && len >= 0 && addr + len <= this.size;
  }
  /** Copies `len` bytes at `addr` into `dst[off..]`. */
  read(addr, dst, off, len) {
    this.bytesRead += len;
    while (len > 0) {
      const p = Math.floor(addr / PAGE_SIZE);
      const o = addr - p * PAGE_SIZE;
      const n2 = Math.min(len, PAGE_SIZE - o);
      const pg = this.page(p, false);
      if (pg)
        dst.set(pg.subarray(o, o + n2), off);
      else {
        dst.fill(0, off, off + n2);
        if (!this.zeroPage(p))
          this.uninitReads += n2;
      }
      addr += n2;
      off += n2;
      len -= n2;
    }
  }
  /** Copies `len` bytes from `src[off..]` to `addr`. */
  write(addr, src, off, len) {
    this.bytesWritten += len;
    while (len > 0) {
      const p = Math.floor(addr / PAGE_SIZE);
      const o = addr - p * PAGE_SIZE;
      const n2 = Math.min(len, PAGE_SIZE - o);
      const pg = this.pages.get(p);
      if (pg)
        pg.set(src.subarray(off, off + n2), o);
      else if (allZero(src, off, n2))
        this.markZeroPages(p, p + 1);
      else
        this.page(p, true).set(src.subarray(off, off + n2), o);
      addr += n2;
      off += n2;
      len -= n2;
    }
  }
  readBytes(addr, len) {
    const out = new Uint8Array(len);
    this.read(addr, out, 0, len);
    return out;
  }
  writeBytes(addr, data2) {
    this.write(addr, data2, 0, data2.length);
  }
  /**
   * Sets `len` bytes at `addr` to `value`. Zero costs no RAM for pages not yet allocated (their range is
   * recorded); allocated pages are cleared byte-exactly. Counts as written.
   */
  fill(addr, len, value = 0) {
    if (len <= 0)
      return;
    if (value !== 0) {
      const z = new Uint8Array(Math.min(len, PAGE_SIZE)).fill(value);
      while (len > 0) {
        const n2 = Math.min(len, z.length);
        this.write(addr, z, 0, n2);
        addr += n2;
        len -= n2;
      }
      return;
    }
    this.bytesWritten += len;
    const first = Math.floor(addr / PAGE_SIZE);
    const end = Math.ceil((addr + len) / PAGE_SIZE);
    if (end - first <= this.pages.size) {
      for (let p = first; p < end; p++)
        this.clearIn(p, addr, len);
    } else
      for (const p of this.pages.keys())
        if (p >= first && p < end)
          this.clearIn(p, addr, len);
    this.markZeroPages(first, end);
  }
  clearIn(p, addr, len) {
    const pg = this.pages.get(p);
    if (!pg)
      return;
    const lo2 = Math.max(addr, p * PAGE_SIZE) - p * PAGE_SIZE;
    const hi = Math.min(addr + len, (p + 1) * PAGE_SIZE) - p * PAGE_SIZE;
    pg.fill(0, lo2, hi);
  }
  /** Byte at addr (0 when never written). */
  byte(addr) {
    const pg = this.pages.get(addr >>> 0 === addr ? addr >>> PAGE_BITS : Math.floor(addr / PAGE_SIZE));
    return pg ? pg[addr & PAGE_MASK] : 0;
  }
  /** Whether any byte of [addr, addr+len) lies in a page that holds non-zero data (false: all zero). */
  hasData(addr, len) {
    if (len <= 0)
      return false;
    const first = Math.floor(addr / PAGE_SIZE);
    const end = Math.ceil((addr + len) / PAGE_SIZE);
    if (end - first <= this.pages.size) {
      for (let p = first; p < end; p++)
        if (this.pages.has(p))
          return true;
      return false;
    }
    for (const p of this.pages.keys())
      if (p >= first && p < end)
        return true;
    return false;
  }
  /** Bytes allocated (for stats). */
  get allocated() {
    return this.pages.size * PAGE_SIZE;
  }
};
var HBM_SIZE = 2 ** 36;
var HbmMemory = class extends SparseMemory {
  constructor() {
    super("hbm", HBM_SIZE);
  }
};

// packages/target-pyxis/dist/sim/cfgSpace.js
var CFG_WINDOW_SIZE = 1 << 30;
var CFG_ENGINE_BASE = 1073741824;
var CfgSpace = class extends SparseMemory {
  cluster;
  /** Incremented on every write (cheap staleness check for decoded caches). */
  generation = 0;
  watches = [];
  constructor(cluster2) {
    super(`c${cluster2}.cfg`, CFG_WINDOW_SIZE);
    this.cluster = cluster2;
  }
  /** Calls `cb` after every write overlapping [lo, hi). */
  watch(lo2, hi, cb) {
    this.watches.push({ lo: lo2, hi, cb });
  }
  write(addr, src, off, len) {
    super.write(addr, src, off, len);
    this.generation++;
    for (const w of this.watches)
      if (addr < w.hi && addr + len > w.lo)
        w.cb(addr, src, off, len);
  }
  /** Zero-fills like SparseMemory (no RAM for untouched pages) and tells the watchers of the overlapped memories. */
  fill(addr, len, value = 0) {
    if (value !== 0)
      return super.fill(addr, len, value);
    super.fill(addr, len, 0);
    this.generation++;
    for (const w of this.watches) {
      const lo2 = Math.max(addr, w.lo);
      const hi = Math.min(addr + len, w.hi);
      if (lo2 < hi)
        w.cb(lo2, new Uint8Array(hi - lo2), 0, hi - lo2);
    }
  }
  read32(addr) {
    const b = new Uint8Array(4);
    this.read(addr, b, 0, 4);
    return (b[0] | b[1] << 8 | b[2] << 16 | b[3] << 24) >>> 0;
  }
  write32(addr, value) {
    const b = new Uint8Array([value & 255, value >>> 8 & 255, value >>> 16 & 255, value >>> 24 & 255]);
    this.write(addr, b, 0, 4);
  }
};

// packages/target-pyxis/dist/sim/csrSpace.js
var CsrCfgSpace = class extends CfgSpace {
  hooks = [];
  refreshing = false;
  /** Calls `cb` before every read overlapping [lo, hi). */
  onRead(lo2, hi, cb) {
    this.hooks.push({ lo: lo2, hi, cb });
  }
  read(addr, dst, off, len) {
    if (!this.refreshing && this.hooks.length > 0) {
      const end = addr + len;
      for (const h of this.hooks)
        if (addr < h.hi && end > h.lo) {
          this.refreshing = true;
          try {
            h.cb(addr, len);
          } finally {
            this.refreshing = false;
          }
        }
    }
    super.read(addr, dst, off, len);
  }
  /** Scratch word (no allocation per register access: software may poll a register every cycle). */
  word = new Uint8Array(8);
  wordView = new DataView(this.word.buffer);
  /** The two 32-bit halves of the last `readWord`. */
  lastWord = new Uint32Array(2);
  /** Stores a live register value (64-bit little-endian word at `addr`, value < 2^53) without write side effects. */
  storeWord(addr, value) {
    this.wordView.setUint32(0, value >>> 0, true);
    this.wordView.setUint32(4, Math.floor(value / 2 ** 32) >>> 0, true);
    SparseMemory.prototype.write.call(this, addr, this.word, 0, 8);
  }
  /** Stores a live 64-bit register value from its 32-bit halves (no write side effects). */
  storeHalves(addr, lo2, hi) {
    this.wordView.setUint32(0, lo2 >>> 0, true);
    this.wordView.setUint32(4, hi >>> 0, true);
    SparseMemory.prototype.write.call(this, addr, this.word, 0, 8);
  }
  /** Reads the 64-bit word at `addr` through the read hooks into `lastWord` (low, high halves). */
  readWord(addr) {
    this.read(addr, this.word, 0, 8);
    this.lastWord[0] = this.wordView.getUint32(0, true);
    this.lastWord[1] = this.wordView.getUint32(4, true);
    return this.lastWord;
  }
  /** The stored 64-bit word at `addr` (no read hooks, no statistics). */
  peek64(addr) {
    let v = 0n;
    for (let i = 7; i >= 0; i--)
      v = v << 8n | BigInt(this.byte(addr + i));
    return v;
  }
  /** Reads the 64-bit word at `addr` through the read hooks (a software CSR read). */
  read64(addr) {
    const b = new Uint8Array(8);
    this.read(addr, b, 0, 8);
    return new DataView(b.buffer).getBigUint64(0, true);
  }
};

// packages/target-pyxis/dist/common/memoryMap.js
var mmCache;
function loadMemoryMap() {
  if (mmCache)
    return mmCache;
  const raw = loadGrammarJson("pyxis", "memory_map");
  const sequencers = raw.sequencers.map((s) => ({ id: s.id, name: s.name, ctrl: s.control, op: s.op }));
  mmCache = {
    uieStride: raw.uie_stride,
    sequencers,
    byName: new Map(sequencers.map((s) => [s.name, s])),
    regions: new Map((raw.regions ?? []).map((r) => [r.name, r]))
  };
  return mmCache;
}

// packages/target-pyxis/dist/sim/clusterCsr.js
function clusterCsr(name) {
  const r = loadMemoryMap().regions.get(name);
  if (!r || r.kind !== "cluster_csr" || !r.table)
    throw new Error(`grammars/pyxis/memory_map.json has no cluster_csr region \`${name}\``);
  return { name: r.name, offset: r.address - CFG_ENGINE_BASE, stride: r.stride, words: r.words, table: r.table };
}
var CLUSTER_CSRS = {
  enqueue: clusterCsr("cluster.enqueue"),
  bt_mem_decrement: clusterCsr("cluster.bt_mem_decrement"),
  barrier_interrupt_config: clusterCsr("cluster.barrier_interrupt_config")
};
var CSR_ENQUEUE = CLUSTER_CSRS.enqueue.offset;
var CSR_BT_MEM_DECREMENT = CLUSTER_CSRS.bt_mem_decrement.offset;
var CSR_BARRIER_INTERRUPT_CONFIG = CLUSTER_CSRS.barrier_interrupt_config.offset;
var CLUSTER_CSR_BASE = Math.min(CSR_ENQUEUE, CSR_BT_MEM_DECREMENT, CSR_BARRIER_INTERRUPT_CONFIG);
var CSR_END = Math.max(...Object.values(CLUSTER_CSRS).map((r) => r.offset + r.words * r.stride));

// packages/target/dist/options.js
var MAX_COUNT = Number.MAX_SAFE_INTEGER;

// packages/target/dist/params.js
var DOC_KEYS = /* @__PURE__ */ new Set(["doc", "name", "spec", "title", "unit", "target"]);
function globRe(p) {
  return new RegExp("^" + p.split("*").map((s) => s.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join("[^.]*") + "$");
}
function tableError(where, msg) {
  const e = new Error(`${where}: ${msg}`);
  e.name = "TableError";
  return e;
}
function leaves(o, path, out) {
  if (o === null || typeof o !== "object" || Array.isArray(o)) {
    out.push([path, o]);
    return;
  }
  const r = o;
  if (typeof r["value"] === "number" || typeof r["value"] === "boolean") {
    out.push([path, r["value"]]);
    return;
  }
  for (const [k, v] of Object.entries(r)) {
    if (k.startsWith("$") || k.endsWith("_comment") || k.endsWith("_doc") || DOC_KEYS.has(k) && typeof v === "string")
      continue;
    leaves(v, path ? `${path}.${k}` : k, out);
  }
}
function at(o, path) {
  if (!path)
    return o;
  let cur = o;
  for (const k of path.split("."))
    cur = cur && typeof cur === "object" ? cur[k] : void 0;
  return cur;
}
function deriveParamTable(target, source, defaults2, desc) {
  const where = `the parameter description of target ${target}`;
  const rules = desc.params.map((r) => ({ r, re: globRe(r.match), used: false }));
  const fixed = (desc.not_parameters ?? []).map(globRe);
  const found = [];
  leaves(at(defaults2, desc.root), "", found);
  const params = [];
  const fixedValues = /* @__PURE__ */ new Map();
  for (const [key, v] of found) {
    if (typeof v !== "number" && typeof v !== "boolean")
      continue;
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
    const p = { key, type: r.type, default: v, spec: r.spec ?? "MODEL" };
    if (r.min !== void 0)
      p.min = r.min;
    if (r.max !== void 0)
      p.max = r.max;
    if (r.unit !== void 0)
      p.unit = r.unit;
    const bad4 = checkValue(p, v);
    if (bad4)
      throw tableError(where, `the default of \`${key}\` in ${source} ${bad4}`);
    params.push(p);
  }
  const unused = rules.find((x) => !x.used);
  if (unused)
    throw tableError(where, `rule \`${unused.r.match}\` matches no parameter of ${source}`);
  return { target, source, params, byKey: new Map(params.map((p) => [p.key, p])), fixed: fixedValues, ...desc.root ? { root: desc.root } : {} };
}
function paramRangeText(p) {
  if (p.type === "bool")
    return "boolean (true/false)";
  const kind = p.type === "int" ? "integer" : "number";
  const f = (n2, inf) => n2 === void 0 ? inf : Math.abs(n2) >= 1e6 && n2 % 10 ** Math.floor(Math.log10(Math.abs(n2))) === 0 ? n2.toExponential().replace("e+", "e") : String(n2);
  const r = p.min !== void 0 || p.max !== void 0 ? ` ${f(p.min, "-inf")}..${f(p.max, "inf")}` : "";
  return `${kind}${r}${p.unit ? ` ${p.unit}` : ""}`;
}
function checkValue(p, v) {
  const want = `must be ${p.type === "int" ? "an" : "a"} ${paramRangeText(p)}, got ${JSON.stringify(v)}`;
  if (p.type === "bool")
    return typeof v === "boolean" ? void 0 : want;
  if (typeof v !== "number" || !Number.isFinite(v))
    return want;
  if (p.type === "int" && !Number.isInteger(v))
    return want;
  if (p.min !== void 0 && v < p.min || p.max !== void 0 && v > p.max)
    return want;
  return void 0;
}
function unknownKey(table3, key, where) {
  const suffix = [...table3.byKey.keys()].filter((k) => k.endsWith(`.${key}`)).slice(0, 4);
  const n2 = nearest(key, table3.byKey.keys());
  const near = suffix.length ? suffix : n2 ? [n2] : [];
  const hint = near.length ? `; did you mean ${near.map((k) => `\`${k}\``).join(" or ")}?` : "";
  return new UsageError(`${where}unknown parameter \`${key}\` of target ${table3.target}${hint} (\`pyxis-sim params --target ${table3.target}\` lists them)`);
}
function defaultParams(table3) {
  const values = /* @__PURE__ */ new Map();
  const sources = /* @__PURE__ */ new Map();
  for (const p of table3.params) {
    values.set(p.key, p.default);
    sources.set(p.key, "default");
  }
  return { table: table3, values, sources };
}
function overrideParam(set, key, v, source = "option") {
  const p = set.table.byKey.get(key);
  if (!p)
    throw unknownKey(set.table, key, "");
  const bad4 = checkValue(p, v);
  if (bad4)
    throw new UsageError(`${key}: ${bad4}`);
  set.values.set(key, v);
  set.sources.set(key, source);
}
function paramTree(set, defaults2, root) {
  const copy = structuredClone(defaults2);
  const base2 = at(copy, root);
  for (const [key, v] of set.values) {
    const parts = key.split(".");
    let cur = base2;
    for (const k of parts.slice(0, -1))
      cur = cur[k];
    const last = parts[parts.length - 1];
    const node = cur[last];
    if (node && typeof node === "object")
      node["value"] = v;
    else
      cur[last] = v;
  }
  return copy;
}

// packages/target-pyxis/dist/sim/config.js
function hbmBytesPerCycle(c) {
  return c.hbm.bytes_per_second_per_stack / c.clock_hz;
}
function coreSwitchBytesPerCycle(c) {
  return c.core_switch.bytes_per_second_per_cluster_port / c.clock_hz;
}
var table;
var defaultsFile;
function defaults() {
  return defaultsFile ??= loadGrammarJson("pyxis", "sim_config");
}
function pyxisParamTable() {
  return table ??= deriveParamTable("pyxis", "sim_config.json", defaults(), loadGrammarJson("pyxis", "params"));
}
function checkRelations(c) {
  const a = c.apm;
  if (a.min_granted_power > a.max_granted_power)
    throw new UsageError(`apm.min_granted_power (${a.min_granted_power}) must not exceed apm.max_granted_power (${a.max_granted_power}) (pyxis-chip-fspec.md \xA713)`);
  const d = c.dpe;
  if (d.starving_level > d.hungry_level || d.hungry_level > d.prefetch_depth)
    throw new UsageError(`dpe.starving_level (${d.starving_level}) <= dpe.hungry_level (${d.hungry_level}) <= dpe.prefetch_depth (${d.prefetch_depth}) must hold (pyxis-chip-fspec.md \xA712.5)`);
}
function simConfigFrom(set) {
  const c = paramTree(set, defaults());
  checkRelations(c);
  return c;
}
var defaultConfig;
function defaultSimConfig() {
  return defaultConfig ??= deepFreeze(simConfigFrom(defaultParams(pyxisParamTable())));
}
function deepFreeze(o) {
  if (o && typeof o === "object") {
    for (const v of Object.values(o))
      deepFreeze(v);
    Object.freeze(o);
  }
  return o;
}
function loadSimConfig(overrides = {}) {
  const set = defaultParams(pyxisParamTable());
  if (overrides.clockHz !== void 0)
    overrideParam(set, "clock_hz", overrides.clockHz);
  return simConfigFrom(set);
}

// packages/container/dist/model.js
var SectionFlags = {
  /** Address not final: the linker places it. */
  relocatable: 1 << 0,
  target0: 1 << 1,
  readonly: 1 << 2,
  target1: 1 << 3,
  target2: 1 << 4,
  target3: 1 << 5
};
var SECTION_FLAG_NAMES = [
  ["relocatable", SectionFlags.relocatable],
  ["target0", SectionFlags.target0],
  ["readonly", SectionFlags.readonly],
  ["target1", SectionFlags.target1],
  ["target2", SectionFlags.target2],
  ["target3", SectionFlags.target3]
];
var FORMAT_VERSION = 1;

// packages/container/dist/codes.js
var ContainerCodes = {
  badMagic: "CT0001",
  badVersion: "CT0002",
  truncated: "CT0003",
  outOfRange: "CT0004",
  overlap: "CT0005",
  misaligned: "CT0006",
  badCount: "CT0007",
  badEnum: "CT0008",
  badString: "CT0009",
  badMetadata: "CT0010",
  badNumber: "CT0011",
  reservedSet: "CT0012",
  trailing: "CT0013",
  badIndex: "CT0014",
  /** Metadata JSON that breaks the target's schema for it (JSON path in the message). */
  badMetadataField: "CT0015",
  /** The in-memory model handed to the writer is not representable. */
  badModel: "CT0100"
};
var TensorCodes = {
  badMagic: "TF0001",
  badVersion: "TF0002",
  truncated: "TF0003",
  badHeader: "TF0004",
  unsupportedDtype: "TF0005",
  fortranOrder: "TF0006",
  bigEndian: "TF0007",
  badShape: "TF0008",
  sizeMismatch: "TF0009",
  badOffsets: "TF0010",
  trailing: "TF0011",
  badTensor: "TF0100"
};

// packages/container/dist/layout.js
var MAGIC = {
  pobj: "PYXOBJ\0\0",
  pimg: "PYXIMG\0\0"
};
var MAGIC_LEN = 8;
var HEADER_SIZE = 144;
var SECTION_ENTRY_SIZE = 64;
var SYMBOL_ENTRY_SIZE = 48;
var RELOC_ENTRY_SIZE = 48;
var TENSOR_RECORD_FIXED = 24;
var DATA_ALIGN = 8;
var REGIONS = ["sections", "symbols", "relocations", "tensors", "strings", "metadata"];
var REGION_TABLE_OFFSET = 48;
var SECTION_KINDS = ["code", "data", "zero", "descriptors", "patch", "table", "meta"];
var SYMBOL_KINDS = ["program", "tensor", "label", "data", "blob", "queue"];
var SECTION_HAS_CLUSTER = 1;
var SYMBOL_HAS_TENSOR = 1;
var RELOC_HAS_INFO = 1;
var TENSOR_HAS_STRIDES = 1;
function alignUp(n2, a = DATA_ALIGN) {
  return Math.ceil(n2 / a) * a;
}

// packages/container/dist/writer.js
var U32_MAX = 4294967295;
function bad(message) {
  throw new DiagnosticError(error(ContainerCodes.badModel, `cannot write container: ${message}`));
}
function checkUint(v, what, max = Number.MAX_SAFE_INTEGER) {
  if (typeof v !== "number" || !Number.isInteger(v) || v < 0 || v > max)
    bad(`${what} must be an integer in 0..${max}, got ${String(v)}`);
  return v;
}
function checkInt(v, what, min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER) {
  if (typeof v !== "number" || !Number.isInteger(v) || v < min || v > max)
    bad(`${what} must be an integer in ${min}..${max}, got ${String(v)}`);
  return v;
}
var StringTable = class {
  index = /* @__PURE__ */ new Map();
  list = [];
  offs = [];
  size = 0;
  add(s, what) {
    if (typeof s !== "string")
      bad(`${what} must be a string, got ${typeof s}`);
    if (this.index.has(s))
      return;
    this.index.set(s, this.list.length);
    this.list.push(s);
    this.offs.push(this.size);
    this.size += Buffer.byteLength(s, "utf8");
    if (this.size > U32_MAX)
      bad("string table exceeds 4 GiB");
  }
  /** Writes the (offset, length) reference of an added string at `o`. */
  ref(dv, o, s) {
    const k = this.index.get(s);
    const off = this.offs[k];
    const end = k + 1 < this.offs.length ? this.offs[k + 1] : this.size;
    dv.setUint32(o, off, true);
    dv.setUint32(o + 4, end - off, true);
  }
  /** Encodes the table at `at` in `out`. */
  write(out, at2) {
    const enc2 = new TextEncoder();
    this.list.forEach((s, k) => enc2.encodeInto(s, out.subarray(at2 + this.offs[k])));
  }
};
function tensorRecordSize(t) {
  return TENSOR_RECORD_FIXED + 8 * t.shape.length * (t.strides ? 2 : 1);
}
function writeContainer(c) {
  const magic = MAGIC[c.kind];
  if (!magic)
    bad(`kind must be 'pobj' or 'pimg', got ${String(c.kind)}`);
  if (c.version !== FORMAT_VERSION)
    bad(`version must be ${FORMAT_VERSION}, got ${String(c.version)}`);
  const strings2 = new StringTable();
  strings2.add(c.target, "target");
  const nSec = c.sections.length;
  for (const [i, s] of c.sections.entries()) {
    const w = `section ${i} (${String(s.name)})`;
    if (!SECTION_KINDS.includes(s.kind))
      bad(`${w}: unknown kind ${String(s.kind)}`);
    checkUint(s.address, `${w} address`);
    checkUint(s.size, `${w} size`);
    checkUint(s.align, `${w} align`, 2 ** 31);
    if (s.align === 0 || (s.align & s.align - 1) !== 0)
      bad(`${w}: align ${s.align} is not a power of two`);
    checkUint(s.flags, `${w} flags`, U32_MAX);
    if (s.cluster !== void 0)
      checkInt(s.cluster, `${w} cluster`, -(2 ** 31), 2 ** 31 - 1);
    if (!(s.data instanceof Uint8Array))
      bad(`${w}: data must be a Uint8Array`);
    if (s.kind === "zero" ? s.data.length !== 0 : s.data.length !== s.size)
      bad(s.kind === "zero" ? `${w}: a zero section stores no bytes (data has ${s.data.length})` : `${w}: size ${s.size} != data length ${s.data.length}`);
  }
  let tensorBytes2 = 0;
  for (const [i, y] of c.symbols.entries()) {
    const w = `symbol ${i} (${String(y.name)})`;
    if (!SYMBOL_KINDS.includes(y.kind))
      bad(`${w}: unknown kind ${String(y.kind)}`);
    checkInt(y.section, `${w} section`, -1, nSec - 1);
    checkUint(y.offset, `${w} offset`);
    checkUint(y.size, `${w} size`);
    if (typeof y.global !== "boolean")
      bad(`${w}: global must be a boolean`);
    if (y.section >= 0 && y.offset + y.size > c.sections[y.section].size)
      bad(`${w}: offset ${y.offset} + size ${y.size} exceeds section ${y.section} size ${c.sections[y.section].size}`);
    if (y.tensor) {
      const t = y.tensor;
      if (!Array.isArray(t.shape) || t.shape.length > 64)
        bad(`${w}: tensor shape must be an array of at most 64 dims`);
      t.shape.forEach((d, k) => checkUint(d, `${w} shape[${k}]`));
      checkInt(t.eb, `${w} eb`, -(2 ** 31), 2 ** 31 - 1);
      if (t.strides) {
        if (!Array.isArray(t.strides) || t.strides.length !== t.shape.length)
          bad(`${w}: strides must have one entry per dimension`);
        t.strides.forEach((d, k) => checkInt(d, `${w} strides[${k}]`));
      }
      tensorBytes2 += tensorRecordSize(t);
    }
  }
  for (const [i, r] of c.relocations.entries()) {
    const w = `relocation ${i}`;
    checkInt(r.section, `${w} section`, 0, nSec - 1);
    checkUint(r.offset, `${w} offset`);
    if (r.offset >= c.sections[r.section].size)
      bad(`${w}: offset ${r.offset} is outside section ${r.section} (size ${c.sections[r.section].size})`);
    checkInt(r.addend, `${w} addend`);
    if (r.info !== void 0)
      checkInt(r.info, `${w} info`);
  }
  if (c.metadata === null || typeof c.metadata !== "object" || Array.isArray(c.metadata))
    bad("metadata must be a JSON object");
  let metaText;
  try {
    metaText = JSON.stringify(c.metadata);
  } catch (e) {
    return bad(`metadata is not JSON-serialisable: ${e.message}`);
  }
  const metaBytes = new TextEncoder().encode(metaText);
  c.sections.forEach((s, i) => {
    strings2.add(s.name, `section ${i} name`);
    strings2.add(s.space, `section ${i} space`);
  });
  c.symbols.forEach((y, i) => strings2.add(y.name, `symbol ${i} name`));
  c.symbols.forEach((y, i) => y.tensor && strings2.add(y.tensor.format, `symbol ${i} tensor format`));
  c.relocations.forEach((r, i) => {
    strings2.add(r.kind, `relocation ${i} kind`);
    strings2.add(r.symbol, `relocation ${i} symbol`);
  });
  if (nSec > U32_MAX || c.symbols.length > U32_MAX || c.relocations.length > U32_MAX)
    bad("too many entries");
  const regions = [];
  let cursor = HEADER_SIZE;
  const place = (size) => {
    const off = cursor;
    regions.push([off, size]);
    cursor = alignUp(off + size, DATA_ALIGN);
    return off;
  };
  const secOff = place(nSec * SECTION_ENTRY_SIZE);
  const symOff = place(c.symbols.length * SYMBOL_ENTRY_SIZE);
  const relOff = place(c.relocations.length * RELOC_ENTRY_SIZE);
  const tenOff = place(tensorBytes2);
  const strOff = place(strings2.size);
  const metaOff = place(metaBytes.length);
  const dataOffs = c.sections.map((s) => {
    const off = cursor;
    cursor = alignUp(off + s.data.length, DATA_ALIGN);
    return off;
  });
  const fileSize = cursor;
  const out = new Uint8Array(fileSize);
  const dv = new DataView(out.buffer);
  const u64 = (o, v) => {
    dv.setUint32(o, v >>> 0, true);
    dv.setUint32(o + 4, Math.floor(v / 2 ** 32), true);
  };
  const i64 = (o, v) => {
    const hi = Math.floor(v / 2 ** 32);
    dv.setUint32(o, v - hi * 2 ** 32 >>> 0, true);
    dv.setInt32(o + 4, hi, true);
  };
  const ref = (o, s) => strings2.ref(dv, o, s);
  for (let k = 0; k < 8; k++)
    out[k] = magic.charCodeAt(k);
  dv.setUint16(8, c.version, true);
  dv.setUint16(10, 0, true);
  dv.setUint32(12, HEADER_SIZE, true);
  u64(16, fileSize);
  ref(24, c.target);
  dv.setUint32(32, nSec, true);
  dv.setUint32(36, c.symbols.length, true);
  dv.setUint32(40, c.relocations.length, true);
  regions.forEach(([off, size], k) => {
    u64(REGION_TABLE_OFFSET + 16 * k, off);
    u64(REGION_TABLE_OFFSET + 16 * k + 8, size);
  });
  c.sections.forEach((s, i) => {
    const o = secOff + i * SECTION_ENTRY_SIZE;
    ref(o, s.name);
    out[o + 8] = SECTION_KINDS.indexOf(s.kind);
    dv.setUint16(o + 10, s.cluster !== void 0 ? SECTION_HAS_CLUSTER : 0, true);
    dv.setUint32(o + 12, s.flags, true);
    ref(o + 16, s.space);
    u64(o + 24, s.address);
    u64(o + 32, s.size);
    dv.setUint32(o + 40, s.align, true);
    dv.setInt32(o + 44, s.cluster ?? 0, true);
    u64(o + 48, dataOffs[i]);
    u64(o + 56, s.data.length);
    out.set(s.data, dataOffs[i]);
  });
  let tCursor = 0;
  c.symbols.forEach((y, i) => {
    const o = symOff + i * SYMBOL_ENTRY_SIZE;
    ref(o, y.name);
    out[o + 8] = SYMBOL_KINDS.indexOf(y.kind);
    out[o + 9] = y.global ? 1 : 0;
    dv.setUint16(o + 10, y.tensor ? SYMBOL_HAS_TENSOR : 0, true);
    dv.setInt32(o + 12, y.section, true);
    u64(o + 16, y.offset);
    u64(o + 24, y.size);
    if (y.tensor) {
      const t = y.tensor;
      const len = tensorRecordSize(t);
      u64(o + 32, tCursor);
      u64(o + 40, len);
      const r = tenOff + tCursor;
      ref(r, t.format);
      dv.setInt32(r + 8, t.eb, true);
      dv.setUint32(r + 12, t.shape.length, true);
      dv.setUint32(r + 16, t.strides ? TENSOR_HAS_STRIDES : 0, true);
      t.shape.forEach((d, k) => u64(r + TENSOR_RECORD_FIXED + 8 * k, d));
      t.strides?.forEach((d, k) => i64(r + TENSOR_RECORD_FIXED + 8 * (t.shape.length + k), d));
      tCursor += len;
    }
  });
  c.relocations.forEach((r, i) => {
    const o = relOff + i * RELOC_ENTRY_SIZE;
    dv.setUint32(o, r.section, true);
    dv.setUint16(o + 4, r.info !== void 0 ? RELOC_HAS_INFO : 0, true);
    u64(o + 8, r.offset);
    ref(o + 16, r.kind);
    ref(o + 24, r.symbol);
    i64(o + 32, r.addend);
    i64(o + 40, r.info ?? 0);
  });
  strings2.write(out, strOff);
  out.set(metaBytes, metaOff);
  return out;
}

// packages/container/dist/reader.js
var utf8 = new TextDecoder("utf-8", { fatal: true });
function oneLine(text, max = 160) {
  const s = text.replace(/[\s\u0000-\u001f\u007f]+/g, " ").trim();
  return s.length > max ? s.slice(0, max - 1) + "\u2026" : s;
}
var Reader = class {
  bytes;
  file;
  dv;
  constructor(bytes, file) {
    this.bytes = bytes;
    this.file = file;
    this.dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  fail(offset, code2, message) {
    return failAt(this.file, offset, code2, message);
  }
  /** Checks that [off, off+len) lies inside the file. */
  need(off, len, what) {
    if (off + len > this.bytes.length)
      this.fail(Math.min(off, this.bytes.length), ContainerCodes.truncated, `truncated: ${what} needs bytes ${off}..${off + len - 1} but the file has ${this.bytes.length} bytes`);
  }
  u8(o) {
    return this.dv.getUint8(o);
  }
  u16(o) {
    return this.dv.getUint16(o, true);
  }
  u32(o) {
    return this.dv.getUint32(o, true);
  }
  i32(o) {
    return this.dv.getInt32(o, true);
  }
  u64(o, what) {
    const lo2 = this.dv.getUint32(o, true);
    const hi = this.dv.getUint32(o + 4, true);
    if (hi > 2097151)
      this.fail(o, ContainerCodes.badNumber, `${what} = ${this.dv.getBigUint64(o, true)} is larger than 2^53-1`);
    return hi * 2 ** 32 + lo2;
  }
  i64(o, what) {
    const lo2 = this.dv.getUint32(o, true);
    const hi = this.dv.getInt32(o + 4, true);
    const v = hi * 2 ** 32 + lo2;
    if (!Number.isSafeInteger(v))
      this.fail(o, ContainerCodes.badNumber, `${what} = ${this.dv.getBigInt64(o, true)} is outside \xB1(2^53-1)`);
    return v;
  }
  zero(o, len, what) {
    for (let k = 0; k < len; k++)
      if (this.bytes[o + k] !== 0)
        this.fail(o + k, ContainerCodes.reservedSet, `${what} is reserved and must be 0`);
  }
};
function readContainer(bytes, file) {
  const r = new Reader(bytes, file);
  r.need(0, MAGIC_LEN, "the magic number");
  let kind;
  for (const k of Object.keys(MAGIC)) {
    let ok = true;
    for (let i = 0; i < MAGIC_LEN; i++)
      if (bytes[i] !== MAGIC[k].charCodeAt(i))
        ok = false;
    if (ok)
      kind = k;
  }
  if (!kind)
    r.fail(0, ContainerCodes.badMagic, 'not a toolchain container (.pobj/.pimg): bad magic (expected "PYXOBJ\\0\\0" or "PYXIMG\\0\\0")');
  r.need(0, HEADER_SIZE, "the header");
  const version = r.u16(8);
  if (version !== FORMAT_VERSION)
    r.fail(8, ContainerCodes.badVersion, `unsupported container version ${version} (this reader supports ${FORMAT_VERSION})`);
  if (r.u16(10) !== 0)
    r.fail(10, ContainerCodes.reservedSet, `unknown header flags 0x${r.u16(10).toString(16)}`);
  if (r.u32(12) !== HEADER_SIZE)
    r.fail(12, ContainerCodes.outOfRange, `header size ${r.u32(12)} (expected ${HEADER_SIZE})`);
  const fileSize = r.u64(16, "file size");
  if (fileSize > bytes.length)
    r.fail(bytes.length, ContainerCodes.truncated, `truncated: header says the file has ${fileSize} bytes, got ${bytes.length}`);
  if (fileSize < bytes.length)
    r.fail(fileSize, ContainerCodes.trailing, `${bytes.length - fileSize} unexpected bytes after the end of the container (file size ${fileSize})`);
  const counts = { sections: r.u32(32), symbols: r.u32(36), relocations: r.u32(40) };
  r.zero(44, 4, "header bytes 44..47");
  const regions = {};
  const all2 = [{ off: 0, size: HEADER_SIZE, what: "header" }];
  REGIONS.forEach((name, k) => {
    const at2 = REGION_TABLE_OFFSET + 16 * k;
    const off = r.u64(at2, `${name} offset`);
    const size = r.u64(at2 + 8, `${name} size`);
    if (off % DATA_ALIGN !== 0)
      r.fail(at2, ContainerCodes.misaligned, `${name} table offset ${off} is not a multiple of ${DATA_ALIGN}`);
    if (off > fileSize || size > fileSize - off)
      r.fail(at2, ContainerCodes.outOfRange, `${name} table (offset ${off}, ${size} bytes) extends past the end of the file (${fileSize} bytes)`);
    regions[name] = { off, size, what: `${name} table` };
    all2.push(regions[name]);
  });
  const entrySize = { sections: SECTION_ENTRY_SIZE, symbols: SYMBOL_ENTRY_SIZE, relocations: RELOC_ENTRY_SIZE };
  for (const name of ["sections", "symbols", "relocations"]) {
    if (counts[name] * entrySize[name] !== regions[name].size)
      r.fail(REGION_TABLE_OFFSET + 16 * REGIONS.indexOf(name) + 8, ContainerCodes.badCount, `${name} table is ${regions[name].size} bytes but ${counts[name]} entries need ${counts[name] * entrySize[name]}`);
  }
  const str2 = regions.strings;
  const readString = (at2, what) => {
    const off = r.u32(at2);
    const len = r.u32(at2 + 4);
    if (off > str2.size || len > str2.size - off)
      r.fail(at2, ContainerCodes.outOfRange, `${what}: string (offset ${off}, ${len} bytes) is outside the string table (${str2.size} bytes)`);
    try {
      return utf8.decode(bytes.subarray(str2.off + off, str2.off + off + len));
    } catch {
      return r.fail(str2.off + off, ContainerCodes.badString, `${what}: string is not valid UTF-8`);
    }
  };
  const target = readString(24, "target");
  const layout = {
    regions: Object.fromEntries(REGIONS.map((n2) => [n2, { offset: regions[n2].off, size: regions[n2].size }])),
    sectionEntries: [],
    symbolEntries: [],
    tensorRecords: [],
    relocationEntries: []
  };
  const sections = [];
  for (let i = 0; i < counts.sections; i++) {
    const o = regions.sections.off + i * SECTION_ENTRY_SIZE;
    layout.sectionEntries.push(o);
    const w = `section ${i}`;
    const name = readString(o, `${w} name`);
    const kindCode = r.u8(o + 8);
    const skind = SECTION_KINDS[kindCode];
    if (!skind)
      r.fail(o + 8, ContainerCodes.badEnum, `${w} (${oneLine(name, 40)}): unknown section kind ${kindCode}`);
    r.zero(o + 9, 1, `${w} byte 9`);
    const eflags = r.u16(o + 10);
    if (eflags & ~SECTION_HAS_CLUSTER)
      r.fail(o + 10, ContainerCodes.reservedSet, `${w} (${oneLine(name, 40)}): unknown entry flags 0x${eflags.toString(16)}`);
    const flags = r.u32(o + 12);
    const space = readString(o + 16, `${w} space`);
    const address = r.u64(o + 24, `${w} address`);
    const size = r.u64(o + 32, `${w} size`);
    const align = r.u32(o + 40);
    if (align === 0 || (align & align - 1) !== 0 || align > 2 ** 31)
      r.fail(o + 40, ContainerCodes.misaligned, `${w} (${oneLine(name, 40)}): alignment ${align} is not a power of two`);
    const cluster2 = r.i32(o + 44);
    if (!(eflags & SECTION_HAS_CLUSTER) && cluster2 !== 0)
      r.fail(o + 44, ContainerCodes.reservedSet, `${w} (${oneLine(name, 40)}): cluster field set but the entry says it has none`);
    const dataOff = r.u64(o + 48, `${w} data offset`);
    const dataLen = r.u64(o + 56, `${w} data length`);
    if (skind === "zero" ? dataLen !== 0 : dataLen !== size)
      r.fail(o + 56, ContainerCodes.badCount, skind === "zero" ? `${w} (${oneLine(name, 40)}): zero section stores ${dataLen} bytes (must be 0)` : `${w} (${oneLine(name, 40)}): data length ${dataLen} != section size ${size}`);
    if (dataOff % DATA_ALIGN !== 0)
      r.fail(o + 48, ContainerCodes.misaligned, `${w} (${oneLine(name, 40)}): data offset ${dataOff} is not a multiple of ${DATA_ALIGN}`);
    if (dataOff > fileSize || dataLen > fileSize - dataOff)
      r.fail(o + 48, ContainerCodes.outOfRange, `${w} (${oneLine(name, 40)}): data (offset ${dataOff}, ${dataLen} bytes) extends past the end of the file (${fileSize} bytes)`);
    all2.push({ off: dataOff, size: dataLen, what: `${w} (${oneLine(name, 40)}) data` });
    const s = { name, kind: skind, space, address, size, align, flags, data: new Uint8Array(bytes.subarray(dataOff, dataOff + dataLen)) };
    if (eflags & SECTION_HAS_CLUSTER)
      s.cluster = cluster2;
    if (skind !== "zero")
      s.fileOffset = dataOff;
    sections.push(s);
  }
  const occupied = all2.filter((x) => x.size > 0).sort((a, b) => a.off - b.off);
  for (let k = 1; k < occupied.length; k++) {
    const a = occupied[k - 1];
    const b = occupied[k];
    if (a.off + a.size > b.off)
      r.fail(b.off, ContainerCodes.overlap, `${b.what} (offset ${b.off}) overlaps ${a.what} (bytes ${a.off}..${a.off + a.size - 1})`);
  }
  const ten = regions.tensors;
  const symbols = [];
  for (let i = 0; i < counts.symbols; i++) {
    const o = regions.symbols.off + i * SYMBOL_ENTRY_SIZE;
    layout.symbolEntries.push(o);
    let record;
    const w = `symbol ${i}`;
    const name = readString(o, `${w} name`);
    const kindCode = r.u8(o + 8);
    const ykind = SYMBOL_KINDS[kindCode];
    if (!ykind)
      r.fail(o + 8, ContainerCodes.badEnum, `${w} (${oneLine(name, 40)}): unknown symbol kind ${kindCode}`);
    const g = r.u8(o + 9);
    if (g > 1)
      r.fail(o + 9, ContainerCodes.badEnum, `${w} (${oneLine(name, 40)}): global flag must be 0 or 1, got ${g}`);
    const eflags = r.u16(o + 10);
    if (eflags & ~SYMBOL_HAS_TENSOR)
      r.fail(o + 10, ContainerCodes.reservedSet, `${w} (${oneLine(name, 40)}): unknown entry flags 0x${eflags.toString(16)}`);
    const section = r.i32(o + 12);
    if (section < -1 || section >= sections.length)
      r.fail(o + 12, ContainerCodes.badIndex, `${w} (${oneLine(name, 40)}): section index ${section} out of range (${sections.length} sections)`);
    const offset = r.u64(o + 16, `${w} offset`);
    const size = r.u64(o + 24, `${w} size`);
    if (section >= 0 && offset + size > sections[section].size)
      r.fail(o + 16, ContainerCodes.outOfRange, `${w} (${oneLine(name, 40)}): offset ${offset} + size ${size} exceeds section ${section} size ${sections[section].size}`);
    const y = { name, kind: ykind, section, offset, size, global: g === 1 };
    if (eflags & SYMBOL_HAS_TENSOR) {
      const toff = r.u64(o + 32, `${w} tensor record offset`);
      const tlen = r.u64(o + 40, `${w} tensor record length`);
      if (toff % DATA_ALIGN !== 0)
        r.fail(o + 32, ContainerCodes.misaligned, `${w} (${oneLine(name, 40)}): tensor record offset ${toff} is not a multiple of ${DATA_ALIGN}`);
      if (toff > ten.size || tlen > ten.size - toff || tlen < TENSOR_RECORD_FIXED)
        r.fail(o + 32, ContainerCodes.outOfRange, `${w} (${oneLine(name, 40)}): tensor record (offset ${toff}, ${tlen} bytes) is outside the tensor table (${ten.size} bytes)`);
      y.tensor = readTensor(r, ten.off + toff, tlen, `${w} (${oneLine(name, 40)})`, readString);
      record = { offset: ten.off + toff, size: tlen };
    } else
      r.zero(o + 32, 16, `${w} (${oneLine(name, 40)}): tensor record fields`);
    layout.tensorRecords.push(record);
    symbols.push(y);
  }
  const relocations = [];
  for (let i = 0; i < counts.relocations; i++) {
    const o = regions.relocations.off + i * RELOC_ENTRY_SIZE;
    layout.relocationEntries.push(o);
    const w = `relocation ${i}`;
    const section = r.u32(o);
    if (section >= sections.length)
      r.fail(o, ContainerCodes.badIndex, `${w}: section index ${section} out of range (${sections.length} sections)`);
    const eflags = r.u16(o + 4);
    if (eflags & ~RELOC_HAS_INFO)
      r.fail(o + 4, ContainerCodes.reservedSet, `${w}: unknown entry flags 0x${eflags.toString(16)}`);
    r.zero(o + 6, 2, `${w} bytes 6..7`);
    const offset = r.u64(o + 8, `${w} offset`);
    if (offset >= sections[section].size)
      r.fail(o + 8, ContainerCodes.outOfRange, `${w}: offset ${offset} is outside section ${section} (size ${sections[section].size})`);
    const kind2 = readString(o + 16, `${w} kind`);
    const symbol = readString(o + 24, `${w} symbol`);
    const addend = r.i64(o + 32, `${w} addend`);
    const rel = { section, offset, kind: kind2, symbol, addend };
    if (eflags & RELOC_HAS_INFO)
      rel.info = r.i64(o + 40, `${w} info`);
    else
      r.zero(o + 40, 8, `${w} info`);
    relocations.push(rel);
  }
  const meta = regions.metadata;
  let metadata = {};
  if (meta.size > 0) {
    let parsed;
    let text = "";
    try {
      text = utf8.decode(bytes.subarray(meta.off, meta.off + meta.size));
      parsed = JSON.parse(text);
    } catch (e) {
      r.fail(meta.off, ContainerCodes.badMetadata, `metadata is not valid UTF-8 JSON: ${oneLine(e.message)}`);
    }
    const deep = nestingBeyond(text, MAX_METADATA_DEPTH);
    if (deep >= 0)
      r.fail(meta.off + deep, ContainerCodes.badMetadata, `metadata nests deeper than ${MAX_METADATA_DEPTH} levels`);
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed))
      r.fail(meta.off, ContainerCodes.badMetadata, "metadata must be a JSON object");
    metadata = parsed;
  }
  return { kind, version, target, sections, symbols, relocations, metadata, ...meta.size > 0 ? { metadataOffset: meta.off } : {}, fileLayout: layout };
}
var MAX_METADATA_DEPTH = 64;
function nestingBeyond(text, max) {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 92)
        i++;
      else if (ch === 34)
        inString = false;
    } else if (ch === 34)
      inString = true;
    else if (ch === 91 || ch === 123) {
      if (++depth > max)
        return i;
    } else if (ch === 93 || ch === 125)
      depth--;
  }
  return -1;
}
function readTensor(r, o, len, w, readString) {
  const format = readString(o, `${w} tensor format`);
  const eb = r.i32(o + 8);
  const rank = r.u32(o + 12);
  const tflags = r.u32(o + 16);
  if (tflags & ~TENSOR_HAS_STRIDES)
    r.fail(o + 16, ContainerCodes.reservedSet, `${w}: unknown tensor flags 0x${tflags.toString(16)}`);
  r.zero(o + 20, 4, `${w}: tensor record bytes 20..23`);
  const hasStrides = (tflags & TENSOR_HAS_STRIDES) !== 0;
  const expect = TENSOR_RECORD_FIXED + 8 * rank * (hasStrides ? 2 : 1);
  if (expect !== len)
    r.fail(o + 12, ContainerCodes.badCount, `${w}: tensor rank ${rank} needs a ${expect}-byte record, the symbol gives ${len}`);
  const shape = [];
  for (let k = 0; k < rank; k++)
    shape.push(r.u64(o + TENSOR_RECORD_FIXED + 8 * k, `${w} shape[${k}]`));
  const t = { shape, format, eb };
  if (hasStrides) {
    const strides = [];
    for (let k = 0; k < rank; k++)
      strides.push(r.i64(o + TENSOR_RECORD_FIXED + 8 * (rank + k), `${w} strides[${k}]`));
    t.strides = strides;
  }
  return t;
}

// packages/container/dist/fileio.js
var MAX_INPUT_BYTES = 4 * 1024 ** 3;
var MAX_SOURCE_BYTES = 256 * 1024 ** 2;

// packages/container/dist/tensor.js
var DTYPES = {
  uint8: { size: 1, npy: "|u1", safetensors: "U8", make: (b, n2) => new Uint8Array(b, 0, n2), ctor: Uint8Array },
  int8: { size: 1, npy: "|i1", safetensors: "I8", make: (b, n2) => new Int8Array(b, 0, n2), ctor: Int8Array },
  uint16: { size: 2, npy: "<u2", safetensors: "U16", make: (b, n2) => new Uint16Array(b, 0, n2), ctor: Uint16Array },
  int16: { size: 2, npy: "<i2", safetensors: "I16", make: (b, n2) => new Int16Array(b, 0, n2), ctor: Int16Array },
  int32: { size: 4, npy: "<i4", safetensors: "I32", make: (b, n2) => new Int32Array(b, 0, n2), ctor: Int32Array },
  uint32: { size: 4, npy: "<u4", safetensors: "U32", make: (b, n2) => new Uint32Array(b, 0, n2), ctor: Uint32Array },
  float16: { size: 2, npy: "<f2", safetensors: "F16", make: (b, n2) => new Uint16Array(b, 0, n2), ctor: Uint16Array },
  bfloat16: { size: 2, safetensors: "BF16", make: (b, n2) => new Uint16Array(b, 0, n2), ctor: Uint16Array },
  float32: { size: 4, npy: "<f4", safetensors: "F32", make: (b, n2) => new Float32Array(b, 0, n2), ctor: Float32Array },
  float64: { size: 8, npy: "<f8", safetensors: "F64", make: (b, n2) => new Float64Array(b, 0, n2), ctor: Float64Array }
};
function elementCount(shape) {
  let n2 = 1;
  for (const d of shape)
    n2 *= d;
  return n2;
}
function tensorBytes(t) {
  return new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength);
}
function checkTensor(t, what) {
  const bad4 = (m) => {
    throw new DiagnosticError(error(TensorCodes.badTensor, `cannot write ${what}: ${m}`));
  };
  const info = DTYPES[t.dtype];
  if (!info)
    bad4(`unknown dtype ${String(t.dtype)}`);
  if (!Array.isArray(t.shape) || t.shape.some((d) => !Number.isSafeInteger(d) || d < 0))
    bad4(`shape must be a list of non-negative integers, got ${JSON.stringify(t.shape)}`);
  if (!(t.data instanceof info.ctor))
    bad4(`${t.dtype} data must be a ${info.ctor.name}, got ${t.data?.constructor?.name ?? typeof t.data}`);
  if (t.data.length !== elementCount(t.shape))
    bad4(`shape [${t.shape.join(", ")}] has ${elementCount(t.shape)} elements, data has ${t.data.length}`);
}

// packages/container/dist/npy.js
var MAGIC2 = [147, 78, 85, 77, 80, 89];
var ALIGN = 64;
var DESCR = {};
for (const [name, info] of Object.entries(DTYPES)) {
  if (!info.npy)
    continue;
  DESCR[info.npy] = name;
  if (info.size === 1)
    DESCR["<" + info.npy.slice(1)] = name;
}
function pyShape(shape) {
  return shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(", ")})`;
}
function writeNpy(t) {
  checkTensor(t, ".npy");
  const descr = DTYPES[t.dtype].npy;
  if (!descr)
    throw new DiagnosticError(error(TensorCodes.unsupportedDtype, `cannot write .npy: NumPy has no ${t.dtype} dtype (use .safetensors)`));
  const dict = `{'descr': '${descr}', 'fortran_order': False, 'shape': ${pyShape(t.shape)}, }`;
  let major = 1;
  let pre = 10;
  if (dict.length + 1 + pre > 65535) {
    major = 2;
    pre = 12;
  }
  const total = Math.ceil((pre + dict.length + 1) / ALIGN) * ALIGN;
  const hlen = total - pre;
  const data2 = tensorBytes(t);
  const out = new Uint8Array(total + data2.length);
  out.set(MAGIC2, 0);
  out[6] = major;
  out[7] = 0;
  const dv = new DataView(out.buffer);
  if (major === 1)
    dv.setUint16(8, hlen, true);
  else
    dv.setUint32(8, hlen, true);
  const header = dict.padEnd(hlen - 1, " ") + "\n";
  for (let k = 0; k < header.length; k++)
    out[pre + k] = header.charCodeAt(k);
  out.set(data2, total);
  return out;
}

// packages/container/dist/safetensors.js
var BY_NAME = Object.fromEntries(Object.entries(DTYPES).map(([k, v]) => [v.safetensors, k]));

// packages/container/dist/schema.js
var patterns = /* @__PURE__ */ new Map();
function typeOf(v) {
  if (v === null)
    return "null";
  if (Array.isArray(v))
    return "array";
  if (typeof v === "number")
    return Number.isInteger(v) ? "integer" : "number";
  return typeof v;
}
function describeJson(v) {
  const t = typeOf(v);
  if (t === "object" || t === "array")
    return `an ${t}`;
  if (t === "null")
    return "null";
  const s = JSON.stringify(v) ?? String(v);
  return `${t === "integer" ? "number" : t} ${s.length > 40 ? s.slice(0, 39) + "\u2026" : s}`;
}
function typeOk(t, want) {
  return t === want || want === "number" && t === "integer";
}
var member = (path, k) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(k) ? `${path}.${k}` : `${path}[${JSON.stringify(k)}]`;
function checkSchema(value, schema, root = "$", max = 10) {
  const out = [];
  const visit = (v, s, path) => {
    if (out.length >= max)
      return false;
    const bad4 = (message) => {
      out.push({ path, message });
      return false;
    };
    if (s.anyOf) {
      const ok = s.anyOf.some((alt) => checkSchema(v, alt, path, 1).length === 0);
      if (!ok) {
        const first = checkSchema(v, s.anyOf[0], path, 1)[0];
        return bad4(first ? first.message : "matches none of the allowed forms");
      }
    }
    const t = typeOf(v);
    if (s.type !== void 0) {
      const want = typeof s.type === "string" ? [s.type] : s.type;
      if (!want.some((w) => typeOk(t, w)))
        return bad4(`expected ${want.map((w) => w === "integer" ? "an integer" : w === "object" || w === "array" ? `an ${w}` : w === "null" ? "null" : `a ${w}`).join(" or ")}, got ${describeJson(v)}`);
    }
    if (s.enum && !s.enum.includes(v))
      return bad4(`expected one of ${s.enum.map((e) => JSON.stringify(e)).join(", ")}, got ${describeJson(v)}`);
    if (t === "integer" || t === "number") {
      const n2 = v;
      if (s.minimum !== void 0 && n2 < s.minimum)
        return bad4(`${n2} is below the minimum ${s.minimum}`);
      if (s.maximum !== void 0 && n2 > s.maximum)
        return bad4(`${n2} is above the maximum ${s.maximum}`);
    } else if (t === "string") {
      const str2 = v;
      if (s.maxLength !== void 0 && str2.length > s.maxLength)
        return bad4(`string of ${str2.length} characters is longer than ${s.maxLength}`);
      if (s.pattern !== void 0) {
        let re = patterns.get(s.pattern);
        if (!re)
          patterns.set(s.pattern, re = new RegExp(s.pattern));
        if (!re.test(str2))
          return bad4(`${describeJson(v)} does not match ${s.description ?? `/${s.pattern}/`}`);
      }
    } else if (t === "array") {
      const a = v;
      if (s.minItems !== void 0 && a.length < s.minItems)
        return bad4(`expected at least ${s.minItems} items, got ${a.length}`);
      if (s.maxItems !== void 0 && a.length > s.maxItems)
        return bad4(`expected at most ${s.maxItems} items, got ${a.length}`);
      if (s.items) {
        let ok = true;
        for (let i = 0; i < a.length && out.length < max; i++)
          ok = visit(a[i], s.items, `${path}[${i}]`) && ok;
        return ok;
      }
    } else if (t === "object") {
      const o = v;
      let ok = true;
      for (const k of s.required ?? [])
        if (!Object.prototype.hasOwnProperty.call(o, k))
          ok = bad4(`missing required member \`${k}\``);
      for (const k of Object.keys(o)) {
        if (out.length >= max)
          break;
        const sub = s.properties && Object.prototype.hasOwnProperty.call(s.properties, k) ? s.properties[k] : void 0;
        if (sub)
          ok = visit(o[k], sub, member(path, k)) && ok;
        else if (s.additionalProperties === false) {
          out.push({ path: member(path, k), message: `unknown member \`${k.length > 40 ? k.slice(0, 39) + "\u2026" : k}\`` });
          ok = false;
        } else if (typeof s.additionalProperties === "object")
          ok = visit(o[k], s.additionalProperties, member(path, k)) && ok;
      }
      return ok;
    }
    return true;
  };
  visit(value, schema, root);
  return out;
}
function validateMetadata(c, schema, file) {
  const found = checkSchema(c.metadata, schema, "$.metadata");
  if (!found.length)
    return;
  const diags = found.map((v) => ({
    severity: "error",
    code: ContainerCodes.badMetadataField,
    message: `${v.path}: ${v.message}`,
    span: { file, offset: c.metadataOffset ?? 0 },
    notes: [`the ${c.kind === "pobj" ? "object" : "image"} metadata of target \`${c.target}\` is documented in docs/container-format.md`]
  }));
  throw new DiagnosticError(diags);
}

// packages/container/dist/tensorPrint.js
var f32 = new Float32Array(1);
var u32 = new Uint32Array(f32.buffer);

// packages/target-pyxis/dist/common/nocMap.js
var nocJson;
function loadNocMap() {
  return nocJson ??= loadGrammarJson("pyxis", "noc_map");
}
function nocRegion(name) {
  const r = loadNocMap().regions.find((x) => x.name === name);
  if (!r)
    throw new Error(`grammars/pyxis/noc_map.json has no NoC region \`${name}\``);
  return r;
}
function defaultRemapWindows(cluster2) {
  return loadNocMap().remap_windows.windows.map((w) => {
    const r = nocRegion(w.region);
    return { base: BigInt(r.base) + (r.per_cluster ? BigInt(cluster2) * BigInt(r.stride) : 0n) + BigInt(w.offset), mask: BigInt(w.mask) };
  });
}
function remapEngineAddress(eng, windows2) {
  const e = BigInt(eng >>> 0);
  const w = windows2[Number(e >> 30n)];
  const full = (1n << BigInt(loadNocMap().noc_addr_w)) - 1n;
  return Number(e & 0x3fffffffn & w.mask | w.base & ~w.mask & full);
}
var tripQueues;
function tripQueueIds() {
  return tripQueues ??= loadNocMap().queues.table.filter((g) => g.trip).flatMap((g) => Array.from({ length: g.count }, (_, i) => ({ id: g.first + i, kind: g.kind, group: g.name, index: i, name: g.count > 1 ? `${g.name}${i}` : g.name }))).sort((a, b) => a.id - b.id);
}
function tripQueueId(kind, index = 0) {
  const q = tripQueueIds().find((x) => x.kind === kind && x.index === index);
  if (!q)
    throw new Error(`grammars/pyxis/noc_map.json has no trip-descriptor queue ${kind}${index}`);
  return q.id;
}
function icdmaDestination(src, index) {
  const row = loadNocMap().icdma_destinations.by_source.find((r) => r.cluster === src);
  const d = row && Number.isInteger(index) && index >= 0 ? row.targets[index] : void 0;
  if (d === void 0)
    throw new RangeError(`no ICDMA engine ${index} in cluster ${src} (chip Table 12-1)`);
  return d;
}

// packages/target-pyxis/dist/sim/noc.js
var NOC_ADDR_W = loadNocMap().noc_addr_w;
var NOC_HBM = Number(nocRegion("hbm").base);
var NOC_AMEM = Number(nocRegion("amem").base);
var NOC_AMEM_STRIDE = Number(nocRegion("amem").stride);
var NOC_AMEM_WIDTH = nocRegion("amem").width ?? 27;
var NOC_CFG = Number(nocRegion("cfg").base);
var NOC_CFG_STRIDE = Number(nocRegion("cfg").stride);
var defaultWindows = defaultRemapWindows;
var NocMap = class {
  hbm;
  amem;
  cfg;
  constructor(hbm, amem, cfg) {
    this.hbm = hbm;
    this.amem = amem;
    this.cfg = cfg;
  }
  /** Decodes a NoC address range; undefined when it is not inside one modelled memory. */
  resolve(noc, len) {
    if (noc < NOC_AMEM) {
      if (noc + len > this.hbm.size)
        return void 0;
      return { space: "hbm", cluster: -1, addr: noc };
    }
    if (noc < NOC_CFG) {
      const c2 = Math.floor((noc - NOC_AMEM) / NOC_AMEM_STRIDE);
      const a2 = noc - NOC_AMEM - c2 * NOC_AMEM_STRIDE;
      if (c2 >= this.amem.length || a2 + len > 2 ** NOC_AMEM_WIDTH)
        return void 0;
      if ((a2 & AMEM_VIEW_BIT - 1) + len > AMEM_BYTES)
        return void 0;
      return { space: "amem", cluster: c2, addr: a2 };
    }
    const c = Math.floor((noc - NOC_CFG) / NOC_CFG_STRIDE);
    const a = noc - NOC_CFG - c * NOC_CFG_STRIDE;
    if (c >= this.cfg.length || a + len > NOC_CFG_STRIDE)
      return void 0;
    return { space: "cfg", cluster: c, addr: a };
  }
  /**
   * The bytes at `t`; an AMEM access is made as bank client `client` (amem/banks.ts) and `servedAt` says when it was
   * served (the cycle the caller asked for anything that does not touch AMEM).
   */
  read(t, len, client) {
    this.servedAt = -1;
    if (t.space === "hbm")
      return this.hbm.readBytes(t.addr, len);
    if (t.space === "amem") {
      const a = this.amem[t.cluster];
      const r = a.readBytes(t.addr, len, client);
      this.servedAt = a.servedAt ?? -1;
      return r;
    }
    return this.cfg[t.cluster].readBytes(t.addr, len);
  }
  /** See `read`. */
  servedAt = -1;
  write(t, data2, client) {
    this.servedAt = -1;
    if (t.space === "hbm")
      this.hbm.writeBytes(t.addr, data2);
    else if (t.space === "amem") {
      const a = this.amem[t.cluster];
      a.writeBytes(t.addr, data2, client);
      this.servedAt = a.servedAt ?? -1;
    } else
      this.cfg[t.cluster].writeBytes(t.addr, data2);
  }
};

// packages/target-pyxis/dist/sim/queues.js
var RING_ENTRIES = 4;
var TRIP_KINDS = (() => {
  const out = [];
  for (const q of tripQueueIds())
    out[q.id] = { kind: q.kind, index: q.index };
  return out;
})();
var TRIP_QUEUES = TRIP_KINDS.length;
function queueKind(qid) {
  const k = Number.isInteger(qid) && qid >= 0 ? TRIP_KINDS[qid] : void 0;
  return k ? { kind: k.kind, index: k.index } : void 0;
}
var DescriptorQueue = class {
  cluster;
  qid;
  /** Ring registers: list engine address and length in 8-byte units (N, not N-1). */
  ringAddress = new Float64Array(RING_ENTRIES);
  ringLength = new Int32Array(RING_ENTRIES);
  /** 3-bit pointers: {wrap, q_idx[1:0]}. */
  head = 0;
  tail = 0;
  /** DPE cursor: bytes of the head list already fetched. */
  fetched = 0;
  lists = 0;
  constructor(cluster2, qid) {
    this.cluster = cluster2;
    this.qid = qid;
  }
  get empty() {
    return this.head === this.tail;
  }
  get full() {
    return (this.head ^ this.tail) === 4;
  }
  /** Lists in the ring (difference of the pointers, §11.5.1). */
  get count() {
    return this.tail - this.head & 7;
  }
  /** The enqueue CSR write (Table 11-2): false when the ring is full. */
  enqueue(address, length8) {
    if (this.full)
      return false;
    const i = this.tail & 3;
    this.ringAddress[i] = address;
    this.ringLength[i] = length8;
    this.tail = this.tail + 1 & 7;
    this.lists++;
    return true;
  }
  headAddress() {
    return this.ringAddress[this.head & 3];
  }
  headBytes() {
    return this.ringLength[this.head & 3] * 8;
  }
  /** The DPE has fetched the whole head list: advance the head pointer. */
  advanceHead() {
    this.head = this.head + 1 & 7;
    this.fetched = 0;
  }
};

// packages/target-pyxis/dist/sim/dmaBankPort.js
var DmaBankPort = class {
  amem;
  client;
  /** The cycle of the unsettled claim, -1 when none. */
  claimedAt = -1;
  constructor(amem, client) {
    this.amem = amem;
    this.client = client;
  }
  /** The first cycle the port may claim again (an access served late holds it; 0 without a bank model). */
  freeAt() {
    return this.amem.banks?.freeAt[this.client] ?? 0;
  }
  /** Records that the engine claimed through `amem` at `now` (the Amem accessor made the claim). */
  claimed(now) {
    if (this.amem.banks?.clock)
      this.claimedAt = now;
  }
  /** A claim waits for its resolution (at a tick after its cycle): the engine wakes at `claimedAt + 1`. */
  get pending() {
    return this.claimedAt >= 0;
  }
  /**
   * At `now` > claimedAt: resolves the arbiter and returns the cycles the claim was served late (0: in its cycle),
   * clearing it. A burst is served when its last word is: freeAt = that cycle + 1 (amem/banks.ts resolve).
   */
  settle(now) {
    const banks = this.amem.banks;
    banks.sync(now);
    const late = Math.max(0, banks.freeAt[this.client] - (this.claimedAt + 1));
    this.claimedAt = -1;
    return late;
  }
};

// packages/target-pyxis/dist/sim/csrs.js
var CtlCodes = {
  /** A write to a read-only CSR (ignored; the register keeps its hardware value). */
  csrReadOnly: "SIM0030",
  /** An access to a CSR of a block the simulator does not model yet (Hbuf, grid writeback, Vbuffer, VPU). */
  csrUnmodelled: "SIM0031",
  /** An ICDMA core_switch_plane_mask other than all planes: the model has no core-switch planes (chip §11.4.5, §12.2). */
  icdmaPlaneMask: "SIM0032",
  /** A live UIE register read while that UIE's model ran ahead of the global clock (--quantum > 1): value from a later cycle. */
  csrAhead: "SIM0033"
};
var RAW = loadGrammarJson("pyxis", "memory_map");
function toRegion(r) {
  return {
    name: r.name,
    kind: r.kind,
    offset: r.offset,
    stride: r.stride,
    words: r.words,
    ...r.bits !== void 0 ? { bits: r.bits } : {},
    access: r.access ?? "rw",
    ...r.table ? { table: r.table } : {},
    spec: r.spec ?? ""
  };
}
var UIE_STRIDE = RAW.uie_stride;
var UIES_PER_CLUSTER = RAW.uies_per_cluster;
var UIE_CSRS = RAW.regions.filter((r) => r.kind === "csr").map(toRegion).sort((a, b) => a.offset - b.offset);
var CLUSTER_CSR_REGIONS = RAW.regions.filter((r) => r.kind === "cluster_csr").map(toRegion).sort((a, b) => a.offset - b.offset);
var UIE_CSR_LO = Math.min(...UIE_CSRS.map((r) => r.offset));
var UIE_CSR_HI = Math.max(...UIE_CSRS.map((r) => r.offset + r.words * r.stride));
function uieCsr(name) {
  const r = UIE_CSRS.find((x) => x.name === name);
  if (!r)
    throw new Error(`grammars/pyxis/memory_map.json has no csr region \`${name}\``);
  return r;
}
function clusterCsrRegion(name) {
  const r = CLUSTER_CSR_REGIONS.find((x) => x.name === name);
  if (!r)
    throw new Error(`grammars/pyxis/memory_map.json has no cluster_csr region \`${name}\``);
  return r;
}
function csrAt(off) {
  const u = Math.floor(off / UIE_STRIDE);
  if (u < UIES_PER_CLUSTER) {
    const o = off - u * UIE_STRIDE;
    if (o < UIE_CSR_LO || o >= UIE_CSR_HI)
      return void 0;
    for (const r of UIE_CSRS)
      if (o >= r.offset && o < r.offset + r.words * r.stride)
        return { region: r, uie: u, index: Math.floor((o - r.offset) / r.stride) };
    return void 0;
  }
  for (const r of CLUSTER_CSR_REGIONS)
    if (off >= r.offset && off < r.offset + r.words * r.stride)
      return { region: r, uie: -1, index: Math.floor((off - r.offset) / r.stride) };
  return void 0;
}
function overlapsCsr(off, len) {
  const end = off + len;
  for (let u = 0; u < UIES_PER_CLUSTER; u++) {
    const lo2 = u * UIE_STRIDE + UIE_CSR_LO;
    const hi = u * UIE_STRIDE + UIE_CSR_HI;
    if (off < hi && end > lo2)
      return true;
  }
  for (const r of CLUSTER_CSR_REGIONS)
    if (off < r.offset + r.words * r.stride && end > r.offset)
      return true;
  return false;
}
var UNMODELLED_UIE_CSRS = /* @__PURE__ */ new Map([
  ["csr.hbuf_wr_base", "the Hbuf (WDP side, seq \xA79.1.4)"],
  ["csr.hbuf_rd_base", "the Hbuf (GH side, seq \xA710.1.1)"],
  ["csr.hbuf_wr_credits", "the Hbuf write credits (seq \xA79.1.5)"],
  ["csr.hbuf_rd_credits", "the Hbuf read credits (seq \xA710.1.2)"],
  ["csr.wb_credits", "the grid writeback credits (seq \xA710.3.2)"],
  ["csr.vbuf_wr_ptr", "the Vbuffer tile FIFOs (seq \xA713.1)"],
  ["csr.vbuf_rd_ptr", "the Vbuffer tile FIFOs (seq \xA713.1)"],
  ["csr.vbuf_scratchpad_count", "the Vbuffer scratchpads (seq \xA713.2)"],
  ["csr.vpu_cntr", "the VPU (seq \xA712.1)"]
]);

// packages/target-pyxis/dist/sim/engines.js
var AMEM_OFFSET_MASK = AMEM_VIEW_BIT - 1;
var PHASE = {
  /** The host agent: enqueue records and scripted CSR writes take effect for everything else in the same cycle. */
  host: 0,
  /** Descriptor prefetch engines (chip §12.5). */
  dpe: 1,
  /** Trip managers (chip §11.3): barrier notifications (links) are delivered at the start of this phase. */
  tripManager: 2,
  /** Trip engines (UIE, DMA, MPE, barrier config): ICDMA and remote MPE traffic is delivered at the start of this phase. */
  engines: 3,
  /** Active power management (chip §13): GrantedPower updates are seen by everything from the next cycle. */
  apm: 4,
  /** Trace/VCD samplers: read the state at the end of the cycle. */
  observe: 5
};
function engineKey(cluster2, qid) {
  return cluster2 * 64 + qid;
}
var BaseTripEngine = class {
  name;
  kind;
  cluster;
  done;
  apm;
  apmSlot;
  group;
  passive = true;
  phase = PHASE.engines;
  /** cluster * 64 + queue id: this engine's order among same-cycle commits and link messages. */
  commitKey = 0;
  /** The kernel, for deferred (commit-phase) work; set by the chip. */
  kernel;
  trip;
  tripsDone = 0;
  bytesMoved = 0;
  /** Sum over trips of trip_power x cycles (Trip Power report, §13). */
  powerCycles = 0;
  constructor(name, kind, cluster2, done, apm, apmSlot = 0) {
    this.name = name;
    this.kind = kind;
    this.cluster = cluster2;
    this.done = done;
    this.apm = apm;
    this.apmSlot = apmSlot;
    this.group = `cluster ${cluster2}`;
  }
  get busy() {
    return this.trip !== void 0;
  }
  canAccept() {
    return this.trip === void 0;
  }
  wake;
  attachWake(wake) {
    this.wake = wake;
  }
  start(trip, now) {
    this.wake?.();
    this.trip = trip;
    this.apm?.request(trip.trip_power, now);
    this.begin(trip, now);
  }
  finish(now) {
    const t = this.trip;
    this.trip = void 0;
    this.tripsDone++;
    this.powerCycles += t.trip_power * (now - t.startAt);
    this.apm?.request(-t.trip_power, now);
    this.done(t, now);
  }
  /** APM throttling factor for bandwidth reservations (§13). */
  scale() {
    return this.apm ? Math.max(this.apm.utilization, 1e-3) : 1;
  }
  commit(_now) {
  }
};
var BarrierConfigEngine = class extends BaseTripEngine {
  table;
  latency;
  readyAt = 0;
  stallReasons = ["set_ref_counts latency"];
  constructor(cluster2, done, table3, latency) {
    super(`c${cluster2}.barrier_config`, "barrier_config", cluster2, done);
    this.table = table3;
    this.latency = latency;
  }
  begin(_trip, now) {
    this.readyAt = now + this.latency;
  }
  tick(now) {
    const t = this.trip;
    if (!t || now < this.readyAt)
      return false;
    this.table.setRefCounts(Number(t.fields["barrier_id"]), Number(t.fields["notify_count"]), Number(t.fields["wait_count"]), now, this.name, t.tripId);
    this.finish(now);
    return true;
  }
  nextWake(now) {
    return this.trip ? Math.max(now, this.readyAt) : Infinity;
  }
  blockedReason() {
    return this.trip ? `set_ref_counts pending until cycle ${this.readyAt}` : void 0;
  }
};
var ChunkedDmaEngine = class extends BaseTripEngine {
  /** Chunks (H2A/A2H) or bytes (ICDMA) left to issue. */
  remaining = 0;
  lastCommit = 0;
  nextIssue = 0;
  code = 0;
  /** Chunks whose commit has not been reported yet. */
  unacked = 0;
  startTransfer(now) {
    this.lastCommit = now;
    this.nextIssue = now;
    this.unacked = 0;
  }
  /** A chunk's writes committed at `cycle` (delivered over a link at that cycle). */
  ackCommit(cycle) {
    this.unacked--;
    if (cycle > this.lastCommit)
      this.lastCommit = cycle;
  }
  /**
   * The AMEM stage of the units (bank arbitration, dmaBankPort.ts), run at the start of every tick before issuing:
   * settles last cycle's bank claim and charges its lateness; true when it moved data.
   */
  stage(_now) {
    return false;
  }
  /** The next cycle the AMEM stage needs a tick (Infinity: none). */
  stageWake() {
    return Infinity;
  }
  /** Units still in the AMEM stage (the trip is not done while there are). */
  stageBusy() {
    return false;
  }
  tick(now) {
    if (!this.trip)
      return false;
    const did = this.stage(now);
    if (this.remaining > 0) {
      if (now < this.nextIssue) {
        this.code = 0;
        return did;
      }
      this.nextIssue = Infinity;
      this.kernel.requestCommit(this);
      return true;
    }
    if (now >= this.lastCommit && this.unacked === 0 && !this.stageBusy()) {
      this.finish(now);
      return true;
    }
    this.code = 1;
    return did;
  }
  commit(now) {
    const commit = this.issue(now, this.scale());
    if (commit < 0)
      this.unacked++;
    else if (commit > this.lastCommit)
      this.lastCommit = commit;
    this.nextIssue = Math.max(now + 1, Math.floor(this.portFreeAt()));
  }
  nextWake(now) {
    if (!this.trip)
      return Infinity;
    let w = this.remaining > 0 ? this.nextIssue : this.unacked > 0 || this.stageBusy() ? Infinity : this.lastCommit;
    const s = this.stageWake();
    if (s < w)
      w = s;
    return Math.max(now, w);
  }
  stallCode() {
    return this.code;
  }
  blockedReason() {
    if (!this.trip)
      return void 0;
    if (this.remaining > 0)
      return this.pendingWork();
    return this.unacked > 0 ? `waiting for ${this.unacked} chunk commit report(s)` : `waiting for writes to commit at cycle ${this.lastCommit}`;
  }
};
var IcdmaEngine = class extends ChunkedDmaEngine {
  index;
  dest;
  cfg;
  srcAmem;
  toDest;
  enginePort;
  egress;
  src = 0;
  dst = 0;
  /** Reports a warning once per `key` for the whole run (set by the chip). */
  warn;
  /** The source read's bank port (round-robin client CLIENT_ICDMA + index) and the chunk waiting for it to settle. */
  port;
  held;
  heldAt = 0;
  /** Port busy includes the APM stretch of the reservations (chip §13). */
  stallReasons = ["core switch busy", "in flight (latency + write commit)"];
  constructor(cluster2, index, dest, done, cfg, srcAmem, toDest, enginePort, egress, apm, apmSlot = 0) {
    super(`c${cluster2}.icdma${index}`, "icdma", cluster2, done, apm, apmSlot);
    this.index = index;
    this.dest = dest;
    this.cfg = cfg;
    this.srcAmem = srcAmem;
    this.toDest = toDest;
    this.enginePort = enginePort;
    this.egress = egress;
    this.port = new DmaBankPort(srcAmem, CLIENT_ICDMA + index);
  }
  begin(trip, now) {
    this.src = Number(trip.fields["amem_source_start_address"]) * 128;
    this.dst = Number(trip.fields["amem_dest_start_address"]) * 128;
    this.remaining = Number(trip.fields["length"]) * 128;
    const mask = Number(trip.fields["core_switch_plane_mask"]);
    if (mask === 0)
      throw tripError(SimCodes.badDescriptor, `${this.name} trip ${trip.tripId}: Core Switch Plane Mask 0 is illegal`, "\xA711.4.5", now, trip);
    if (mask !== 15)
      this.warn?.(`${this.name}.plane-mask`, warning(CtlCodes.icdmaPlaneMask, `${this.name} trip ${trip.tripId}: core_switch_plane_mask 0x${mask.toString(16)} is not modelled; the transfer uses the whole core-switch port of the cluster, as with all four planes (0xf)`, { spec: "pyxis-chip-fspec.md \xA711.4.5, \xA712.2", notes: ["reported once per ICDMA engine, for its first trip with a mask other than 0xf"] }));
    if ((this.src & AMEM_OFFSET_MASK) + this.remaining > AMEM_BYTES || (this.dst & AMEM_OFFSET_MASK) + this.remaining > AMEM_BYTES)
      throw tripError(SimCodes.badAddress, `${this.name} trip ${trip.tripId}: transfer runs past the end of AMEM`, "\xA711.4.5", now, trip);
    this.startTransfer(now);
  }
  issue(now, sc) {
    const n2 = Math.min(this.remaining, this.cfg.icdma.chunk_bytes);
    const data2 = this.srcAmem.readBytes(this.src, n2, this.port.client);
    this.port.claimed(now);
    const t1 = this.enginePort.reserve(now, n2, sc);
    const t2 = this.egress.reserve(now, n2, sc);
    const chunk = { source: this, dst: this.dst, data: data2, scale: sc };
    const at2 = Math.max(t1, t2) + this.cfg.icdma.latency_cycles;
    if (this.port.pending) {
      this.held = chunk;
      this.heldAt = at2;
    } else
      this.toDest.send(now, at2, this.commitKey, chunk);
    this.bytesMoved += n2;
    this.src += n2;
    this.dst += n2;
    this.remaining -= n2;
    return -1;
  }
  portFreeAt() {
    return Math.min(this.enginePort.freeAt, this.egress.freeAt);
  }
  /** Settles the source read of the last chunk and sends it, as many cycles later as the read was served late. */
  stage(now) {
    const port2 = this.port;
    if (!port2.pending || now <= port2.claimedAt)
      return false;
    const at2 = port2.claimedAt;
    const late = port2.settle(now);
    if (at2 + 1 + late > this.nextIssue)
      this.nextIssue = at2 + 1 + late;
    this.toDest.send(now, Math.max(now + this.toDest.minLatency, this.heldAt + late), this.commitKey, this.held);
    this.held = void 0;
    return false;
  }
  stageWake() {
    return this.port.pending ? this.port.claimedAt + 1 : Infinity;
  }
  stageBusy() {
    return this.port.pending;
  }
  pendingWork() {
    return `${this.remaining} bytes left to cluster ${this.dest}`;
  }
};
function deliverIcdmaChunk(m, now, cfg, amem, ingress, back) {
  const t3 = ingress.reserve(now, m.data.length, m.scale);
  amem.writeBytes(m.dst, m.data, CLIENT_ICDMA_IN);
  const late = amem.servedAt !== void 0 && amem.servedAt > now ? amem.servedAt - now : 0;
  back.send(now, Math.max(now + back.minLatency, t3 + late + cfg.amem.write_commit_latency_cycles), m.source.commitKey, { source: m.source });
}
var MICRO_PATCH = loadTable("pyxis", "patch_micro_patch_t");
var MpeEngine = class extends BaseTripEngine {
  index;
  cfg;
  noc;
  nocPort;
  writePort;
  windows;
  remote;
  doneAt = 0;
  stallReasons = ["NoC transfer"];
  writes = [];
  patchesApplied = 0;
  constructor(cluster2, index, done, cfg, noc, nocPort, writePort, windows2, remote = []) {
    super(`c${cluster2}.mpe${index}`, "mpe", cluster2, done);
    this.index = index;
    this.cfg = cfg;
    this.noc = noc;
    this.nocPort = nocPort;
    this.writePort = writePort;
    this.windows = windows2;
    this.remote = remote;
  }
  target(eng, len, what, trip, now, localOnly) {
    const noc = remapEngineAddress(eng, this.windows);
    const t = this.noc.resolve(noc, len);
    if (!t)
      throw tripError(SimCodes.badAddress, `${this.name} trip ${trip.tripId}: ${what} 0x${(eng >>> 0).toString(16)} (+${len} bytes) remaps to NoC 0x${noc.toString(16)}, outside every modelled memory`, "\xA712.7", now, trip);
    if (localOnly && t.space !== "hbm" && t.cluster !== this.cluster)
      throw tripError(SimCodes.badAddress, `${this.name} trip ${trip.tripId}: ${what} 0x${(eng >>> 0).toString(16)} is not cluster-local`, "\xA712.6.1.1", now, trip);
    return t;
  }
  begin(trip, now) {
    const f = trip.fields;
    this.writes = [];
    let t = now;
    if (trip.table === "desc_mpe_dma") {
      const src = Number(f["source_address"]);
      const dst = Number(f["target_address"]);
      const len = Number(f["length"]) * 8;
      if (src % 8 || dst % 8)
        throw tripError(SimCodes.misaligned, `${this.name} trip ${trip.tripId}: DMA-mode addresses must be 8-byte aligned (source 0x${src.toString(16)}, target 0x${dst.toString(16)})`, "\xA712.6.2.2", now, trip);
      const s = this.target(src, len, "source_address", trip, now, false);
      const d = this.target(dst, len, "target_address", trip, now, false);
      const data2 = this.noc.read(s, len, CLIENT_MPE);
      t = this.nocPort.reserve(now, len) + this.cfg.noc.latency_cycles + this.late(now);
      t = Math.max(this.writePort.reserve(t, len), this.nocPort.reserve(t, len));
      if (d.space !== "hbm" && d.cluster !== this.cluster) {
        const link = this.remote[d.cluster];
        link.send(now, Math.max(now + link.minLatency, t), this.commitKey, { target: d, data: data2 });
      } else
        this.writes.push({ target: d, data: data2 });
      this.bytesMoved += len;
    } else {
      const addr = Number(f["blob_address"]);
      const len = Number(f["blob_length"]) * 8;
      const num = Number(f["num_patches"]);
      if (addr % 8)
        throw tripError(SimCodes.misaligned, `${this.name} trip ${trip.tripId}: blob_address 0x${addr.toString(16)} is not 8-byte aligned`, "\xA712.6.1.1", now, trip);
      const src = this.target(addr, len, "blob_address", trip, now, true);
      const blob = this.noc.read(src, len, CLIENT_MPE);
      t = this.nocPort.reserve(now, len) + this.cfg.noc.latency_cycles + this.late(now);
      let off = 0;
      const patchError = (code2, msg, section, at2, bytes) => runtimeError(code2, `${this.name} trip ${trip.tripId}: ${msg}`, section, now, [], { ...src, addr: src.addr + at2 }, bytes);
      for (let p = 0; p < num; p++) {
        if (off + 8 > len)
          throw patchError(SimCodes.badPatch, `blob of ${len} bytes ends inside patch ${p} of ${num} (num_patches)`, "\xA712.6.1.2", off, len - off);
        const h = decode(MICRO_PATCH, blob, off);
        const target = Number(h["target_address"]);
        const regSize = Number(h["reg_size"]);
        const regRepeat = Number(h["reg_repeat"]);
        const bytes = regRepeat * alignUp(regSize, 8);
        off += 8;
        if (off + bytes > len)
          throw patchError(SimCodes.badPatch, `patch ${p} (target 0x${target.toString(16)}, reg_size ${regSize}, reg_repeat ${regRepeat}) needs ${bytes} data bytes; the blob has ${len - off} left`, "\xA712.6.1.2", off - 8, 8);
        if (target % 8)
          throw patchError(SimCodes.misaligned, `patch ${p} target_address 0x${target.toString(16)} is not 8-byte aligned`, "\xA712.6.1.2", off - 8, 8);
        const d = this.target(target, bytes, `patch ${p} target_address`, trip, now, true);
        if (d.space === "cfg" && regSize > 32 && overlapsCsr(d.addr, bytes))
          throw patchError(SimCodes.badPatch, `patch ${p} reg_size ${regSize} exceeds the 32-byte CSR maximum (target 0x${target.toString(16)} is a CSR)`, "\xA712.6.1.2", off - 8, 8);
        this.writes.push({ target: d, data: blob.slice(off, off + bytes) });
        t = Math.max(this.writePort.reserve(t, bytes), this.nocPort.reserve(t, bytes));
        off += bytes;
        this.bytesMoved += bytes;
      }
      if (off !== len)
        throw tripError(SimCodes.badPatch, `${this.name} trip ${trip.tripId}: ${num} patches use ${off} bytes but blob_length is ${len} bytes`, "\xA712.6.1.1", now, trip);
      this.patchesApplied += num;
    }
    this.doneAt = Math.max(now + 1, t);
  }
  /** Cycles the last NoC access was served late by the AMEM banks (fixed-priority client, amem/banks.ts claimFirst). */
  late(now) {
    return this.noc.servedAt > now ? this.noc.servedAt - now : 0;
  }
  tick(now) {
    if (!this.trip || now < this.doneAt)
      return false;
    if (this.writes.length > 0) {
      let late = 0;
      for (const w of this.writes) {
        this.noc.write(w.target, w.data, CLIENT_MPE);
        late = Math.max(late, this.late(now));
      }
      this.writes = [];
      if (late > 0) {
        this.doneAt = now + late;
        return true;
      }
    }
    this.finish(now);
    return true;
  }
  nextWake(now) {
    return this.trip ? Math.max(now, this.doneAt) : Infinity;
  }
  blockedReason() {
    return this.trip ? `writing ${this.trip.table === "desc_mpe_dma" ? "DMA data" : "patches"} until cycle ${this.doneAt}` : void 0;
  }
};

// packages/target-pyxis/dist/sim/fabric/params.js
var FabricCodes = {
  /** A fabric_adapter.json parameter (or an override) is not valid. */
  badParam: "SIM0750",
  /** An RDMA / datagram descriptor names a VOQ that the chip's Pyxis_VOQ_to_VPFE_map does not map (§10.2). */
  unmappedVoq: "SIM0751",
  /** An RDMA descriptor field is outside its legal range (§11.4.6-11.4.7). */
  badRdmaDescriptor: "SIM0752",
  /** A TJID / RJID is re-used while its Job Table entry is still active (§10.4, §10.7.1, §10.8.1.1). */
  jobIdInUse: "SIM0753",
  /** An RDMA job failed (Job Failed state, §10.7.1.2 / §10.8.1.2): reported in the wait graph and the stats. */
  jobFailed: "SIM0754",
  /** The RDMA / datagram range runs past the 64 MiB AMEM (§11.4.6-11.4.9). */
  badRange: "SIM0755",
  /** An RDMA queue in a chip outside a system (no fabric to send to). */
  noFabric: "SIM0756"
};
var base;
function check(p) {
  const bad4 = (path, v, want) => {
    throw new DiagnosticError(error(FabricCodes.badParam, `fabric_adapter.json: \`${path}\` must be ${want}, got ${JSON.stringify(v)}`));
  };
  const int2 = (path, v, min) => {
    if (!(typeof v === "number" && Number.isInteger(v) && v >= min))
      bad4(path, v, `an integer >= ${min}`);
  };
  for (const [group, vals] of Object.entries(p)) {
    if (group === "occupancy")
      continue;
    for (const [k, v] of Object.entries(vals))
      if (k !== "doc")
        int2(`${group}.${k}`, v, k.endsWith("latency_cycles") || k === "message_channels_reserved" ? 0 : 1);
  }
  if (p.page_generator.message_channels_reserved >= p.page_generator.channels)
    bad4("page_generator.message_channels_reserved", p.page_generator.message_channels_reserved, "below page_generator.channels");
  if (p.job_tables.tx_jobs_per_cluster > 256 || p.job_tables.rx_jobs_per_cluster > 256)
    bad4("job_tables", p.job_tables, "at most 256 entries (8-bit job ids, \xA710.4)");
  const o = p.occupancy;
  if (!Array.isArray(o.profiles) || o.profiles.length !== 8)
    bad4("occupancy.profiles", o.profiles, "eight profiles (\xA710.7.3.1)");
  o.profiles.forEach((q, i) => {
    int2(`occupancy.profiles[${i}].xoff`, q.xoff, 1);
    int2(`occupancy.profiles[${i}].xon`, q.xon, 0);
    if (q.xon >= q.xoff)
      bad4(`occupancy.profiles[${i}].xon`, q.xon, `below xoff (${q.xoff}): hysteresis`);
  });
  for (const k of ["default_profile", "message_profile"])
    if (!(Number.isInteger(o[k]) && o[k] >= 0 && o[k] < 8))
      bad4(`occupancy.${k}`, o[k], "a profile index 0..7");
  int2("occupancy.high_group_limit", o.high_group_limit, 1);
  int2("occupancy.low_group_limit", o.low_group_limit, 1);
  if (o.default_priority !== "high" && o.default_priority !== "low")
    bad4("occupancy.default_priority", o.default_priority, '"high" or "low"');
  return p;
}
function merge(a, b) {
  if (b === void 0)
    return structuredClone(a);
  if (a && b && typeof a === "object" && typeof b === "object" && !Array.isArray(a) && !Array.isArray(b)) {
    const out = {};
    for (const k of /* @__PURE__ */ new Set([...Object.keys(a), ...Object.keys(b)]))
      out[k] = merge(a[k], b[k]);
    return out;
  }
  return structuredClone(b);
}
function loadFabricAdapterParams(overrides) {
  if (!base) {
    const raw = loadGrammarJson("pyxis", "fabric_adapter");
    const { name: _n, doc: _d, spec: _s, ...rest } = raw;
    base = check(rest);
  }
  return overrides ? check(merge(base, overrides)) : base;
}

// packages/target-pyxis/dist/sim/control.js
var KIND_TABLE = {
  uie: "desc_uie",
  rdma_tx: "desc_rdma_tx",
  rdma_rx: "desc_rdma_rx",
  h2a: "desc_h2a",
  a2h: "desc_a2h",
  icdma: "desc_icdma",
  mpe: "desc_mpe_patch",
  barrier_config: "desc_barrier_config"
};
function descriptorTable(kind) {
  const n2 = KIND_TABLE[kind];
  return n2 ? loadTable("pyxis", n2) : void 0;
}
function descriptorBytes(kind) {
  const t = descriptorTable(kind);
  if (!t)
    return 0;
  const meta = t.meta?.["bytes"];
  return typeof meta === "number" ? meta : alignUp(t.bytes, 8);
}
function decodeTrip(kind, cluster2, qid, bytes, address, now, source) {
  const where = { ...source ? { source, sourceBytes: bytes.length } : {} };
  let t = descriptorTable(kind);
  if (kind === "mpe") {
    const mode = Number(readField(t, bytes, "mode"));
    if (mode === 1)
      t = loadTable("pyxis", "desc_mpe_dma");
    else if (mode !== 0)
      throw tripError(SimCodes.badDescriptor, `MPE descriptor at 0x${address.toString(16)} (cluster ${cluster2}) has mode ${mode}; 0 = patch, 1 = DMA`, "\xA711.4.10", now, where);
  }
  const fields = decode(t, bytes);
  const fmt = Number(fields["descriptor_format"] ?? 0);
  if (fmt !== 0)
    throw tripError(SimCodes.badDescriptor, `descriptor at 0x${address.toString(16)} (cluster ${cluster2}, queue 0x${qid.toString(16)}) has Descriptor Format ${fmt}; must be 2'b00`, "\xA711.4.1", now, where);
  const notify = fields["notify_list"].filter((x) => Number(x) !== 0).map(Number);
  return {
    cluster: cluster2,
    qid,
    kind,
    fields,
    table: t.name,
    tripId: Number(fields["trip_id"]),
    waitBarrierId: Number(fields["wait_barrier_id"]),
    notifyList: notify,
    address,
    ...where,
    trip_power: Number(fields["trip_power"] ?? 0),
    fetchedAt: now,
    waitAt: -1,
    goAt: -1,
    startAt: -1,
    doneAt: -1
  };
}
var DescriptorPrefetchEngine = class {
  cluster;
  cfg;
  noc;
  nocPort;
  hasEngine;
  name;
  group;
  /** After the host (enqueue records seen in the same cycle), before the trip manager (which pops the prefetch queues). */
  phase = PHASE.dpe;
  /**
   * Passive (kernel skips it while idle): not busy means no list to fetch and no read in flight, so `tick` does
   * nothing and `nextWake` is Infinity; only `enqueue` makes it busy, and wakes it (issue 23 speed).
   */
  passive = true;
  wake = () => {
  };
  /** Also called when an enqueue or a delivered trip gives the trip manager work (it is passive too). */
  onWork = () => {
  };
  queues = [];
  prefetch = [];
  inflightCount = new Int32Array(TRIP_QUEUES);
  inflight = [];
  inflightHead = 0;
  rr = 0;
  descBytes = new Int32Array(TRIP_QUEUES);
  stallReasons = ["prefetch queues full", "waiting NoC data"];
  /** Trips waiting in the prefetch queues (all queues). */
  queued = 0;
  /** Set when an issue decision may have changed (enqueue, prefetch pop, delivery). */
  dirty = true;
  /** Descriptors fetched, bytes read (stats). */
  fetched = 0;
  bytesRead = 0;
  dequeueEvents = 0;
  /** Called when a list has been fully fetched (head advanced): the host may enqueue again. */
  onDequeue;
  windows;
  constructor(cluster2, cfg, noc, nocPort, windows2, hasEngine) {
    this.cluster = cluster2;
    this.cfg = cfg;
    this.noc = noc;
    this.nocPort = nocPort;
    this.hasEngine = hasEngine;
    this.name = `c${cluster2}.dpe`;
    this.group = `cluster ${cluster2}`;
    this.windows = windows2;
    for (let q = 0; q < TRIP_QUEUES; q++) {
      this.queues.push(new DescriptorQueue(cluster2, q));
      this.prefetch.push(new ObjectFifo(`c${cluster2}.q${q}.prefetch`, Math.max(1, cfg.dpe.prefetch_depth)));
      const k = queueKind(q);
      this.descBytes[q] = k ? descriptorBytes(k.kind) : 0;
    }
  }
  /** Lists enqueued and not yet fully fetched, over all queues (O(1) `busy`). */
  lists = 0;
  get busy() {
    return this.lists > 0 || this.inflight.length > this.inflightHead;
  }
  /** Enqueue CSR write (§11.5.1.1) into queue q's ring; false when the ring is full. */
  enqueue(q, address, length8) {
    const ok = this.queues[q].enqueue(address, length8);
    if (ok) {
      this.lists++;
      this.dirty = true;
      this.wake();
      this.onWork();
    }
    return ok;
  }
  attachWake(wake) {
    this.wake = wake;
  }
  level(q) {
    return this.prefetch[q].occupancy + this.inflightCount[q];
  }
  /** Validates the head list of queue q when the DPE starts on it. */
  checkList(q, now) {
    const k = queueKind(q.qid);
    const where = `list at 0x${q.headAddress().toString(16)} in queue 0x${q.qid.toString(16)} of cluster ${this.cluster}`;
    const at2 = this.noc.resolve(remapEngineAddress(q.headAddress(), this.windows), q.headBytes());
    const fail3 = (code2, msg, section) => runtimeError(code2, `${where}: ${msg}`, section, now, [], at2, q.headBytes());
    if (!k || this.descBytes[q.qid] === 0)
      throw fail3(SimCodes.noEngine, `queue 0x${q.qid.toString(16)} (${k?.kind ?? "unknown"}) is not modelled by pyxis-sim`, "\xA711.5");
    if (!this.hasEngine(q.qid) && (k.kind === "rdma_tx" || k.kind === "rdma_rx"))
      throw fail3(FabricCodes.noFabric, `${k.kind}${k.index} is an RDMA queue: it needs the fabric adapter of a chip in a multi-chip system (pyxis-sim run SYSTEM, docs/system.md); a single-chip run has no fabric to send to or receive from`, k.kind === "rdma_tx" ? "\xA710.7.1" : "\xA710.8.1");
    if (!this.hasEngine(q.qid))
      throw fail3(SimCodes.noEngine, `no ${k.kind}${k.index} engine in the simulated chip (see --clusters/--uies)`, "\xA711.5");
    if (q.headAddress() % 8 !== 0)
      throw fail3(SimCodes.misaligned, "list address is not 8-byte aligned", "\xA711.5.1.1");
    if (q.headBytes() % this.descBytes[q.qid] !== 0)
      throw fail3(SimCodes.badDescriptor, `length ${q.headBytes()} bytes is not a multiple of the ${this.descBytes[q.qid]}-byte ${k.kind} descriptor`, "\xA711.5.1.1");
  }
  tick(now) {
    let did = false;
    while (this.inflightHead < this.inflight.length && this.inflight[this.inflightHead].ready <= now) {
      const f = this.inflight[this.inflightHead];
      const target = this.noc.resolve(f.noc, f.bytes);
      const bytes = f.data ?? this.noc.read(target, f.bytes, CLIENT_DPE);
      if (f.data === void 0 && this.noc.servedAt > now) {
        f.data = bytes;
        f.ready = this.noc.servedAt;
        break;
      }
      this.inflightHead++;
      const k = queueKind(f.qid);
      const trip = decodeTrip(k.kind, this.cluster, f.qid, bytes, f.address, now, target);
      this.inflightCount[f.qid]--;
      this.prefetch[f.qid].push(trip);
      this.queued++;
      this.onWork();
      this.fetched++;
      this.dirty = true;
      did = true;
    }
    if (this.inflightHead === this.inflight.length && this.inflightHead > 0) {
      this.inflight.length = 0;
      this.inflightHead = 0;
    }
    if (!this.dirty)
      return did;
    const depth = this.cfg.dpe.prefetch_depth;
    const hungry = Math.min(depth, this.cfg.dpe.hungry_level);
    const starving = Math.min(hungry, this.cfg.dpe.starving_level);
    let pick = -1;
    for (let pass = 0; pass < 2 && pick < 0; pass++) {
      const limit = pass === 0 ? starving : hungry;
      for (let i = 0; i < TRIP_QUEUES; i++) {
        const q = (this.rr + i) % TRIP_QUEUES;
        if (this.queues[q].empty || this.level(q) >= limit)
          continue;
        pick = q;
        break;
      }
    }
    if (pick >= 0) {
      this.rr = (pick + 1) % TRIP_QUEUES;
      const q = this.queues[pick];
      if (q.fetched === 0)
        this.checkList(q, now);
      const size = this.descBytes[pick];
      const address = q.headAddress() + q.fetched;
      const noc = remapEngineAddress(address, this.windows);
      if (!this.noc.resolve(noc, size))
        throw runtimeError(SimCodes.badAddress, `descriptor address 0x${address.toString(16)} (queue 0x${pick.toString(16)}, cluster ${this.cluster}) remaps to NoC 0x${noc.toString(16)}, outside every modelled memory`, "\xA712.7", now);
      const ready = this.nocPort.reserve(now, size) + this.cfg.noc.latency_cycles;
      this.inflight.push({ qid: pick, ready, noc, address, bytes: size });
      this.inflightCount[pick]++;
      this.bytesRead += size;
      q.fetched += size;
      if (q.fetched >= q.headBytes()) {
        q.advanceHead();
        this.lists--;
        this.dequeueEvents++;
        this.onDequeue?.(pick, now);
      }
      did = true;
    } else
      this.dirty = false;
    return did;
  }
  /** The trip manager takes the head trip of queue q's prefetch queue. */
  take(q) {
    const t = this.prefetch[q].pop();
    if (t) {
      this.queued--;
      this.dirty = true;
    }
    return t;
  }
  nextWake(now) {
    if (this.inflightHead < this.inflight.length)
      return Math.max(now, this.inflight[this.inflightHead].ready);
    return Infinity;
  }
  stallCode() {
    return this.inflightHead < this.inflight.length ? 1 : 0;
  }
  blockedReason() {
    const waiting = this.queues.filter((q) => !q.empty).map((q) => `0x${q.qid.toString(16)}`);
    if (this.inflightHead < this.inflight.length)
      return `waiting for ${this.inflight.length - this.inflightHead} descriptor read(s) on the NoC`;
    if (waiting.length)
      return `prefetch queues full for queue(s) ${waiting.join(", ")} (trip manager not consuming)`;
    return void 0;
  }
};
var TripSlot = class {
  tm;
  qid;
  engine;
  state = 0;
  trip;
  readyAt = 0;
  label;
  constructor(tm, qid, engine) {
    this.tm = tm;
    this.qid = qid;
    this.engine = engine;
    this.label = engine ? engine.name : `queue 0x${qid.toString(16)}`;
  }
  go(barrierId, now) {
    if (this.state !== 1 || !this.trip)
      return;
    this.state = 2;
    this.trip.goAt = now;
    this.tm.onRelease?.(this.trip, this.qid, barrierId);
    this.readyAt = now + this.tm.launchLatency;
  }
};
var TripManager = class {
  cluster;
  dpe;
  barriers;
  sendNotify;
  observer;
  name;
  group;
  /** After the DPE (takes the trips it delivered in the same cycle), before the engines (which start them at once). */
  phase = PHASE.tripManager;
  /**
   * Passive (kernel skips it while asleep): a tick that is not busy only does work when the DPE has trips or lists
   * (prefetched trips to take; in flush mode, lists to discard), so the DPE wakes it on enqueue and on each delivered
   * trip (`onWork`); completions, CSR launches and the flush CSR wake it too. Not busy: `nextWake` is Infinity.
   */
  passive = true;
  wake = () => {
  };
  slots = [];
  launchLatency;
  notifyLatency;
  pending = [];
  pendingHead = 0;
  stallReasons = ["waiting barrier", "engine busy", "launch latency"];
  tripsLaunched = 0;
  tripsCompleted = 0;
  /** Cycles each queue's trips spent between wait() and release (stats), by queue id. */
  barrierWait = new Float64Array(TRIP_QUEUES);
  /** Waits per barrier id of this cluster's table (stats): count, total and longest wait() -> release cycles. */
  waitsByBarrier = /* @__PURE__ */ new Map();
  /** Called when a trip of queue `qid` is released from barrier `barrierId` (0 = no wait). */
  onRelease;
  /** Optional trip-name lookup (image metadata) for reports. */
  tripName = () => void 0;
  /** Slots not idle (waiting on a barrier or released). */
  active = 0;
  /**
   * Trip Flush mode (chip §11.8), set and cleared by software through the `cluster.trip_flush` CSR. While set, every
   * trip that has not passed its barrier wait is discarded (prefetched trips and trips waiting on a barrier, whose
   * wait is cancelled), neither waiting nor notifying; released trips and running trips complete normally.
   */
  flushMode = false;
  /** The flush reached the quiescent state (queues empty, no outstanding trip, barrier table re-initialised). */
  flushDone = false;
  /** Trips discarded by trip flushes (stats), and the cycles at which flushes completed. */
  tripsFlushed = 0;
  flushDoneAt = [];
  /** Called once the flush is quiescent, before `flushDone` is set: re-initialises the barrier table (chip.ts). */
  onFlushQuiescent;
  /** UIE trips launched through the per-UIE `csr.trip_start` CSR (bring-up path), waiting for their UIE to accept them. */
  csrLaunches = [];
  constructor(cluster2, cfg, dpe, barriers, engines, sendNotify, observer) {
    this.cluster = cluster2;
    this.dpe = dpe;
    this.barriers = barriers;
    this.sendNotify = sendNotify;
    this.observer = observer;
    this.name = `c${cluster2}.trip_manager`;
    this.group = `cluster ${cluster2}`;
    this.launchLatency = cfg.trip_manager.launch_latency_cycles;
    this.notifyLatency = cfg.trip_manager.notify_latency_cycles;
    for (let q = 0; q < TRIP_QUEUES; q++)
      this.slots.push(new TripSlot(this, q, engines.get(q)));
    dpe.onWork = () => this.wake();
  }
  attachWake(wake) {
    this.wake = wake;
  }
  get busy() {
    return this.active > 0 || this.pendingHead < this.pending.length || this.csrLaunches.length > 0 || this.flushMode && !this.flushDone;
  }
  /** The `cluster.trip_flush` CSR (chip §11.8): software sets or clears Trip Flush mode. */
  setFlushMode(on, now) {
    if (on === this.flushMode)
      return;
    this.flushMode = on;
    this.flushDone = false;
    this.flushDiscarded = 0;
    this.wake();
    this.observer?.flushEvent?.(this.cluster, on ? "start" : "end", now, 0);
  }
  flushDiscarded = 0;
  /** Outstanding trips of this cluster: in the trip manager (waiting or released) or running on an engine (status CSR). */
  outstandingTrips() {
    let n2 = this.active + this.csrLaunches.length;
    for (const s of this.slots)
      if (s.engine?.busy)
        n2++;
    return n2;
  }
  /** CSR-launched trips not started yet (they can still start a trip on a UIE: no run-ahead, docs/simulator.md "Quantum"). */
  get csrLaunchesPending() {
    return this.csrLaunches.length > 0;
  }
  /** `csr.trip_start` of UIE queue `qid` (a per-UIE CSR, project-defined): the trip starts when the UIE accepts it. */
  launchFromCsr(qid, trip) {
    this.csrLaunches.push({ qid, trip });
    this.wake();
  }
  discard(s, trip, now) {
    this.tripsFlushed++;
    this.flushDiscarded++;
    this.observer?.tripFlushed?.(s?.label ?? `c${this.cluster}.q${trip.qid}`, trip, now);
  }
  /**
   * One cycle of Trip Flush mode (chip §11.8): discard the trips waiting on a barrier and everything the DPE delivers
   * (it keeps fetching until the descriptor queues are empty); once nothing is outstanding, the barrier table is
   * re-initialised and the flush is done (visible in `cluster.trip_flush_status`).
   */
  flushTick(now) {
    let did = false;
    for (let q = 0; q < TRIP_QUEUES; q++) {
      const s = this.slots[q];
      if (s.state === 1 && s.trip) {
        this.barriers.cancelWait(s.trip.waitBarrierId, s);
        this.discard(s, s.trip, now);
        s.trip = void 0;
        s.state = 0;
        this.active--;
        did = true;
      }
      if (s.state !== 0)
        continue;
      for (let t = this.dpe.take(q); t; t = this.dpe.take(q)) {
        this.discard(s, t, now);
        did = true;
      }
    }
    if (!this.flushDone && this.active === 0 && this.dpe.queued === 0 && !this.dpe.busy && this.pendingHead === this.pending.length && this.csrLaunches.length === 0) {
      let idle = true;
      for (const s of this.slots)
        if (s.engine?.busy)
          idle = false;
      if (idle) {
        this.onFlushQuiescent?.(now);
        this.flushDone = true;
        this.flushDoneAt.push(now);
        this.observer?.flushEvent?.(this.cluster, "done", now, this.flushDiscarded);
        did = true;
      }
    }
    return did;
  }
  /** Engines call this (through their TripDone callback) when a trip is complete and its writes committed. */
  complete(trip, now, engine) {
    trip.doneAt = now;
    const at2 = now + this.notifyLatency;
    for (const g of trip.notifyList)
      this.sendNotify(g, now, at2, engine, trip);
    const key = engineKey(trip.cluster, trip.qid);
    const p = this.pending;
    let i = p.length;
    p.push({ at: at2, key, trip, engine });
    while (i > this.pendingHead && (p[i - 1].at > at2 || p[i - 1].at === at2 && p[i - 1].key > key)) {
      p[i] = p[i - 1];
      i--;
    }
    p[i] = { at: at2, key, trip, engine };
    this.wake();
  }
  tick(now) {
    let did = false;
    while (this.pendingHead < this.pending.length && this.pending[this.pendingHead].at <= now) {
      const p = this.pending[this.pendingHead++];
      this.tripsCompleted++;
      this.observer?.tripDone(p.engine, p.trip, now);
      did = true;
    }
    if (this.pendingHead === this.pending.length && this.pendingHead > 0) {
      this.pending.length = 0;
      this.pendingHead = 0;
    }
    if (this.csrLaunches.length > 0)
      did = this.csrLaunch(now) || did;
    if (this.flushMode) {
      if (this.flushDone && (this.dpe.queued > 0 || this.dpe.busy))
        this.flushDone = false;
      if (!this.flushDone && this.flushTick(now))
        did = true;
    }
    if (this.active === 0 && this.dpe.queued === 0)
      return did;
    for (let q = 0; q < TRIP_QUEUES; q++) {
      const s = this.slots[q];
      if (s.state === 0) {
        if (this.dpe.prefetch[q].empty)
          continue;
        const trip = this.dpe.take(q);
        s.trip = trip;
        s.state = 1;
        this.active++;
        trip.waitAt = now;
        this.barriers.wait(trip.waitBarrierId, s, now, s.label, trip.tripId);
        did = true;
      }
      if (s.state === 2 && now >= s.readyAt && s.engine && s.engine.canAccept()) {
        const trip = s.trip;
        s.trip = void 0;
        s.state = 0;
        this.active--;
        this.barrierWait[q] += trip.goAt - trip.waitAt;
        if (trip.waitBarrierId !== 0) {
          const w = this.waitsByBarrier.get(trip.waitBarrierId);
          if (w) {
            w.waits++;
            w.cycles += trip.goAt - trip.waitAt;
            if (trip.goAt - trip.waitAt > w.max)
              w.max = trip.goAt - trip.waitAt;
          } else
            this.waitsByBarrier.set(trip.waitBarrierId, { waits: 1, cycles: trip.goAt - trip.waitAt, max: trip.goAt - trip.waitAt });
        }
        trip.startAt = now;
        this.tripsLaunched++;
        s.engine.start(trip, now);
        this.observer?.tripStarted?.(s.engine, trip, now);
        did = true;
      }
    }
    return did;
  }
  /** Starts the CSR-launched UIE trips whose UIE accepts a trip now (in order per UIE). */
  csrLaunch(now) {
    let did = false;
    let keep = 0;
    let seen = 0;
    for (const l of this.csrLaunches) {
      const e = this.slots[l.qid].engine;
      if (!(seen >>> l.qid & 1) && e && e.canAccept()) {
        l.trip.waitAt = l.trip.goAt = l.trip.startAt = now;
        this.tripsLaunched++;
        e.start(l.trip, now);
        this.observer?.tripStarted?.(e, l.trip, now);
        did = true;
      } else {
        seen |= 1 << l.qid;
        this.csrLaunches[keep++] = l;
      }
    }
    this.csrLaunches.length = keep;
    return did;
  }
  nextWake(now) {
    let w = Infinity;
    if (this.pendingHead < this.pending.length)
      w = this.pending[this.pendingHead].at;
    for (const s of this.slots)
      if (s.state === 2 && s.readyAt < w && s.engine?.canAccept())
        w = s.readyAt;
    return Math.max(now, w);
  }
  /** 0 waiting barrier, 1 released trip blocked by a busy engine, 2 launch latency (first released slot decides). */
  stallCode() {
    if (this.active === 0)
      return 0;
    for (const s of this.slots)
      if (s.state === 2)
        return s.engine && !s.engine.canAccept() ? 1 : 2;
    return 0;
  }
  named(id) {
    const n2 = this.tripName(id);
    return n2 ? ` (${n2})` : "";
  }
  blockedReason() {
    const parts = [];
    for (const s of this.slots) {
      if (s.state === 1 && s.trip) {
        const b = s.trip.waitBarrierId;
        parts.push(`${s.label} trip ${s.trip.tripId}${this.named(s.trip.tripId)} waits on barrier ${this.cluster}:${b} (notify_count=${this.barriers.notifyCount[b]}, wait_count=${this.barriers.waitCount[b]}, ref_counts_valid=${this.barriers.refCountsValid[b]})`);
      } else if (s.state === 2 && s.trip)
        parts.push(`${s.label} trip ${s.trip.tripId}${this.named(s.trip.tripId)} released, waiting for its engine to accept it`);
    }
    if (this.pendingHead < this.pending.length)
      parts.push(`${this.pending.length - this.pendingHead} notification(s) in flight`);
    for (const l of this.csrLaunches)
      parts.push(`csr.trip_start trip of ${this.slots[l.qid].label} waits for the UIE to accept it`);
    if (this.flushMode && !this.flushDone)
      parts.push(`trip flush in progress (${this.outstandingTrips()} outstanding trip(s), descriptor queues ${this.dpe.queued === 0 && !this.dpe.busy ? "empty" : "not empty"})`);
    return parts.length ? parts.join("; ") : void 0;
  }
};

// packages/target-pyxis/dist/sim/hbmDma.js
var AMEM_OFFSET_MASK2 = AMEM_VIEW_BIT - 1;
var UNIT = descUnit("length_unit_bytes");
var HBM_ADDRESS_UNIT = descUnit("hbm_address_unit_bytes");
function descUnit(key) {
  const v = ["desc_h2a", "desc_a2h"].map((n2) => loadTable("pyxis", n2).meta?.[key]);
  if (typeof v[0] !== "number" || !Number.isInteger(v[0]) || v[0] <= 0 || v[1] !== v[0])
    throw new Error(`grammars/pyxis/desc_h2a.json, desc_a2h.json: meta.${key} must be the same positive integer in both`);
  return v[0];
}
var HbmDmaEngine = class extends ChunkedDmaEngine {
  direction;
  cfg;
  hbm;
  amem;
  hbmPort;
  enginePort;
  amemAddr = 0;
  hbmAddr = 0;
  /** Port busy includes the APM stretch of the reservations (chip §13). */
  stallReasons = ["HBM port busy", "in flight (latency + write commit)"];
  port;
  /** A2H: the commit cycle of the unit whose AMEM read is being settled. */
  unitCommit = 0;
  // H2A: units between their HBM read and their AMEM write, a ring (arrival cycle, AMEM address, APM scale, data)
  qArrive = new Float64Array(32);
  qAddr = new Float64Array(32);
  qScale = new Float64Array(32);
  qData = new Uint8Array(32 * UNIT);
  qHead = 0;
  qCount = 0;
  constructor(cluster2, direction, done, cfg, hbm, amem, hbmPort, enginePort, apm, apmSlot = 0) {
    super(`c${cluster2}.${direction}`, direction, cluster2, done, apm, apmSlot);
    this.direction = direction;
    this.cfg = cfg;
    this.hbm = hbm;
    this.amem = amem;
    this.hbmPort = hbmPort;
    this.enginePort = enginePort;
    this.port = new DmaBankPort(amem, direction === "h2a" ? CLIENT_H2A : CLIENT_A2H);
  }
  begin(trip, now) {
    this.amemAddr = Number(trip.fields["amem_start_address"]) * 128;
    this.hbmAddr = Number(trip.fields["hbm_base_address"]) * HBM_ADDRESS_UNIT;
    this.remaining = Number(trip.fields["length"]);
    const end = (this.amemAddr & AMEM_OFFSET_MASK2) + this.remaining * 1024;
    if (end > AMEM_BYTES)
      throw tripError(SimCodes.badAddress, `${this.name} trip ${trip.tripId}: AMEM range 0x${this.amemAddr.toString(16)} + ${this.remaining} KiB runs past the 64 MiB AMEM`, "\xA711.4.3", now, trip);
    if (this.hbmAddr + this.remaining * 1024 > this.hbm.size)
      throw tripError(SimCodes.badAddress, `${this.name} trip ${trip.tripId}: HBM range past 2^36 bytes`, "\xA711.4.3", now, trip);
    this.startTransfer(now);
  }
  issue(now, sc) {
    let commit;
    if (this.direction === "h2a") {
      if (this.qCount === this.qArrive.length)
        this.growQueue();
      const k = (this.qHead + this.qCount) % this.qArrive.length;
      this.hbm.read(this.hbmAddr, this.qData, k * UNIT, UNIT);
      this.qArrive[k] = this.hbmPort.reserve(now, UNIT, sc) + this.cfg.hbm.read_latency_cycles;
      this.qAddr[k] = this.amemAddr;
      this.qScale[k] = sc;
      this.qCount++;
      commit = -1;
    } else {
      const data2 = this.amem.readBytes(this.amemAddr, UNIT, CLIENT_A2H);
      this.port.claimed(now);
      const t1 = this.enginePort.reserve(now, UNIT, sc);
      const t2 = this.hbmPort.reserve(t1, UNIT, sc);
      this.hbm.write(this.hbmAddr, data2, 0, UNIT);
      commit = t2 + this.cfg.hbm.write_latency_cycles;
      this.unitCommit = commit;
    }
    this.bytesMoved += UNIT;
    this.amemAddr += UNIT;
    this.hbmAddr += UNIT;
    this.remaining--;
    return commit;
  }
  stage(now) {
    const port2 = this.port;
    if (this.direction === "a2h") {
      if (port2.pending && now > port2.claimedAt) {
        const at2 = port2.claimedAt;
        const late = port2.settle(now);
        if (late > 0) {
          if (this.unitCommit + late > this.lastCommit)
            this.lastCommit = this.unitCommit + late;
          if (at2 + 1 + late > this.nextIssue)
            this.nextIssue = at2 + 1 + late;
        }
      }
      return false;
    }
    if (port2.pending && now > port2.claimedAt) {
      const at2 = port2.claimedAt;
      this.written(at2 + port2.settle(now));
    }
    if (port2.pending || this.qCount === 0)
      return false;
    const k = this.qHead;
    if (this.qArrive[k] > now || port2.freeAt() > now || Math.floor(this.enginePort.freeAt) > now)
      return false;
    this.amem.writeBytes(this.qAddr[k], this.qData.subarray(k * UNIT, k * UNIT + UNIT), CLIENT_H2A);
    port2.claimed(now);
    if (!port2.pending)
      this.written(now);
    return true;
  }
  /** H2A: the head unit's AMEM write was served at `s`: its engine-port pass, then the commit (chip §11.7.2). */
  written(s) {
    const k = this.qHead;
    const t2 = this.enginePort.reserve(s, UNIT, this.qScale[k]);
    this.qHead = (k + 1) % this.qArrive.length;
    this.qCount--;
    this.ackCommit(t2 + this.cfg.amem.write_commit_latency_cycles);
  }
  stageWake() {
    const port2 = this.port;
    if (port2.pending)
      return port2.claimedAt + 1;
    if (this.direction === "a2h" || this.qCount === 0)
      return Infinity;
    return Math.max(this.qArrive[this.qHead], port2.freeAt(), Math.floor(this.enginePort.freeAt));
  }
  stageBusy() {
    return this.port.pending || this.qCount > 0;
  }
  growQueue() {
    const n2 = this.qArrive.length;
    const grow = (a) => {
      const b = new Float64Array(2 * n2);
      for (let i = 0; i < n2; i++)
        b[i] = a[(this.qHead + i) % n2];
      return b;
    };
    const d = new Uint8Array(2 * n2 * UNIT);
    for (let i = 0; i < n2; i++)
      d.set(this.qData.subarray((this.qHead + i) % n2 * UNIT, (this.qHead + i) % n2 * UNIT + UNIT), i * UNIT);
    this.qArrive = grow(this.qArrive);
    this.qAddr = grow(this.qAddr);
    this.qScale = grow(this.qScale);
    this.qData = d;
    this.qHead = 0;
  }
  /**
   * The next unit issues when the shared HBM port frees (keeps H2A and A2H interleaved fairly). H2A's first stage is
   * the HBM read; A2H's is the AMEM read (the engine port), so an A2H unit issues one engine-stage earlier, and its
   * HBM write starts as the previous one ends: the stack stays busy, as in H2A (chip §8.1.1, §12.1).
   */
  portFreeAt() {
    if (this.direction === "h2a")
      return this.hbmPort.freeAt;
    return Math.max(this.enginePort.freeAt, this.hbmPort.freeAt - UNIT / this.enginePort.bytesPerCycle);
  }
  pendingWork() {
    return `${this.remaining} KiB left, HBM port busy until ${Math.ceil(this.hbmPort.freeAt)}`;
  }
};

// packages/target-pyxis/dist/sim/observer.js
var PyxisObserver = class {
  trace;
  vcd;
  tracks = /* @__PURE__ */ new Map();
  /** Barrier event counts (stats), by kind. */
  barrierEvents = {};
  engineGroup = /* @__PURE__ */ new Map();
  constructor(trace, vcd) {
    this.trace = trace;
    this.vcd = vcd;
  }
  registerEngine(e) {
    const g = e.group ?? e.name.split(".")[0];
    this.engineGroup.set(e.name, g);
  }
  track(group, name) {
    let t = this.tracks.get(name);
    if (!t) {
      t = this.trace.track(group, name);
      this.tracks.set(name, t);
    }
    return t;
  }
  /** The link script's name of a trip (image metadata), for slice names in the user's words. */
  tripName;
  tripLabel(trip) {
    return this.tripName?.(trip.tripId) ?? `${trip.kind} trip ${trip.tripId}`;
  }
  /** Sequencer tracks of the UIEs (set when tracing with the UIE datapath model). */
  seqTracer;
  /** Per engine track name: end cycle of the last slice on each lane (lane 0 = the engine's own track). */
  lanes = /* @__PURE__ */ new Map();
  /**
   * The track for a slice [start, end] of `name`: trace viewers need the slices of one track properly nested, but an
   * engine with several trips in flight (a UIE tracks up to three, chip §11.7.1) has overlapping trips, so an
   * overlapping slice goes to the first extra lane track (`c0.uie0 #2`, ...) that is free at `start`.
   */
  laneTrack(group, name, start2, end) {
    let ends = this.lanes.get(name);
    if (!ends)
      this.lanes.set(name, ends = []);
    let k = 0;
    while (k < ends.length && ends[k] > start2)
      k++;
    ends[k] = end;
    return this.track(group, k === 0 ? name : `${name} #${k + 1}`);
  }
  tripStarted(engine, trip, _now) {
    if (this.seqTracer && engine.kind === "uie")
      this.seqTracer.tripStarted(engine.name, trip.tripId, Number(trip.fields["trip_valid_mask"] ?? 0));
  }
  /** A generic instant on an engine's track (e.g. the DPE's Descriptor Queue Dequeue Event, chip §12.5). */
  instant(group, trackName, now, name, args, cat = "queue") {
    if (this.trace)
      this.trace.instant(this.track(group, trackName), now, name, args, cat);
  }
  /** A fabric adapter job (Tx or Rx, chip §10.7-10.8) as a slice on its cluster's job-manager track (lanes for overlaps). */
  fabricSlice(group, trackName, start2, end, name, args) {
    if (this.trace)
      this.trace.slice(this.laneTrack(group, trackName, start2, end), start2, end, name, args, "fabric");
  }
  tripDone(engine, trip, now) {
    if (!this.trace)
      return;
    const g = this.engineGroup.get(engine) ?? `cluster ${trip.cluster}`;
    if (trip.waitBarrierId !== 0 && trip.goAt > trip.waitAt)
      this.trace.slice(this.laneTrack(g, `${engine} wait`, trip.waitAt, trip.goAt), trip.waitAt, trip.goAt, `wait barrier ${trip.waitBarrierId}`, { trip_id: trip.tripId, barrier_id: trip.waitBarrierId }, "barrier");
    this.trace.slice(this.laneTrack(g, engine, trip.startAt, trip.doneAt), trip.startAt, trip.doneAt, this.tripLabel(trip), {
      trip_id: trip.tripId,
      kind: trip.kind,
      queue_id: trip.qid,
      descriptor: trip.table,
      wait_barrier_id: trip.waitBarrierId,
      notify_list: trip.notifyList.map((g2) => `${g2 >> 10}:${g2 & 1023}`).join(" "),
      trip_power: trip.trip_power,
      notified_at: now
    });
  }
  /** A trip discarded by the trip flush (chip §11.8): an instant on the engine's track. */
  tripFlushed(engine, trip, now) {
    if (!this.trace)
      return;
    const g = this.engineGroup.get(engine) ?? `cluster ${trip.cluster}`;
    this.trace.instant(this.track(g, engine), now, `flushed ${this.tripLabel(trip)}`, { trip_id: trip.tripId, queue_id: trip.qid, wait_barrier_id: trip.waitBarrierId }, "trip");
  }
  /** Trip flush mode set / completed / cleared in a cluster (chip §11.8): an instant on the cluster's trip-manager track. */
  flushEvent(cluster2, what, now, discarded) {
    if (this.trace)
      this.trace.instant(this.track(`cluster ${cluster2}`, `c${cluster2}.trip_manager`), now, `trip flush ${what}`, { cluster: cluster2, discarded_trips: discarded }, "flush");
  }
  /**
   * At a deadlock / --max-cycles stop: slices up to `end` for the trips still running (`unfinished: 1`) and the
   * barrier waits never released, so the trace shows what was pending when the run stopped.
   */
  unfinished(engine, cluster2, trip, end, what) {
    if (!this.trace)
      return;
    const g = this.engineGroup.get(engine) ?? `cluster ${cluster2}`;
    if (what === "waiting")
      this.trace.slice(this.laneTrack(g, `${engine} wait`, trip.waitAt, end), trip.waitAt, end, `wait barrier ${trip.waitBarrierId} (not released)`, { trip_id: trip.tripId, barrier_id: trip.waitBarrierId, unfinished: 1 }, "barrier");
    else
      this.trace.slice(this.laneTrack(g, engine, trip.startAt, end), trip.startAt, end, `${this.tripLabel(trip)} (unfinished)`, {
        trip_id: trip.tripId,
        kind: trip.kind,
        queue_id: trip.qid,
        descriptor: trip.table,
        wait_barrier_id: trip.waitBarrierId,
        unfinished: 1
      });
  }
  barrierEvent(cluster2, kind, id, notifyCount, waitCount, engine, tripId, now) {
    this.barrierEvents[kind] = (this.barrierEvents[kind] ?? 0) + 1;
    if (this.trace)
      this.trace.instant(this.track(`cluster ${cluster2}`, `c${cluster2}.barriers`), now, `${kind} b${id}`, {
        event: kind,
        barrier_id: id,
        notify_count: notifyCount,
        wait_count: waitCount,
        engine,
        trip_id: tripId
      });
    const sig = this.barrierSignals.get(cluster2 * 1024 + id);
    if (sig && this.vcd && kind !== "timeout") {
      this.vcd.set(sig[0], notifyCount, now);
      this.vcd.set(sig[1], waitCount, now);
    }
  }
  /** VCD signal handles for barrier counts, keyed cluster*1024+id. */
  barrierSignals = /* @__PURE__ */ new Map();
};
var VcdProbe = class {
  vcd;
  name = "vcd_probe";
  /** Samples the state at the end of the cycle, after every phase of the chip (engines.ts PHASE.observe). */
  phase = 5;
  group = "chip";
  ids = [];
  getters = [];
  constructor(vcd) {
    this.vcd = vcd;
  }
  add(id, get) {
    this.ids.push(id);
    this.getters.push(get);
  }
  get busy() {
    return false;
  }
  tick(now) {
    for (let i = 0; i < this.ids.length; i++)
      this.vcd.set(this.ids[i], this.getters[i](), now);
    return false;
  }
  nextWake() {
    return Infinity;
  }
  blockedReason() {
    return void 0;
  }
};
var TraceSampler = class {
  trace;
  period;
  clockHz;
  ports;
  counters;
  name = "trace_sampler";
  /** Samples the state at the end of the cycle, after every phase of the chip (engines.ts PHASE.observe). */
  phase = 5;
  group = "chip";
  next = 0;
  lastAt = 0;
  lastBytes;
  constructor(trace, period, clockHz, ports, counters) {
    this.trace = trace;
    this.period = period;
    this.clockHz = clockHz;
    this.ports = ports;
    this.counters = counters;
    this.lastBytes = new Float64Array(ports.length);
  }
  get busy() {
    return false;
  }
  tick(now) {
    if (now >= this.next)
      this.sample(now);
    return false;
  }
  /** Final sample at the end of the run; the bandwidth counters then drop to zero (nothing moves after the end). */
  finish(now) {
    if (now > this.lastAt || this.next === 0)
      this.sample(now);
    const zero = {};
    this.ports.forEach((p) => {
      if (p.bytes > 0)
        zero[p.name] = 0;
    });
    if (Object.keys(zero).length)
      this.trace.counter("chip", now, "bandwidth GB/s", zero);
  }
  sample(now) {
    const dt = now - this.lastAt;
    if (dt > 0) {
      const bw = {};
      let any = false;
      this.ports.forEach((p, i) => {
        const d = p.bytes - this.lastBytes[i];
        this.lastBytes[i] = p.bytes;
        if (d > 0 || this.lastBytes[i] > 0) {
          bw[p.name] = Math.round(d / dt * this.clockHz / 1e6) / 1e3;
          any = true;
        }
      });
      if (any)
        this.trace.counter("chip", this.lastAt, "bandwidth GB/s", bw);
    }
    for (const c of this.counters) {
      const v = c.sample(now);
      if (v)
        this.trace.counter(c.group, c.rate ? this.lastAt : now, c.name, v);
    }
    this.lastAt = now;
    this.next = now + this.period;
  }
  nextWake() {
    return Infinity;
  }
  blockedReason() {
    return void 0;
  }
};
var SequencerTracer = class {
  trace;
  name = "sequencer_tracer";
  /** Samples the state at the end of the cycle, after every phase of the chip (engines.ts PHASE.observe). */
  phase = 5;
  group = "chip";
  items = [];
  byUie = /* @__PURE__ */ new Map();
  constructor(trace) {
    this.trace = trace;
  }
  /** Registers sequencer `seq` (bit `seq` of trip_valid_mask) of the UIE `uie`. */
  add(uie, seq, group, trackName, label, running, pc, slot, programAt2) {
    const it = { group, trackName, label, running, pc, slot, trips: [], since: -1, startPc: 0, lastSlot: -1, tripId: -1, ...programAt2 ? { programAt: programAt2 } : {} };
    this.items.push(it);
    let list = this.byUie.get(uie);
    if (!list)
      this.byUie.set(uie, list = []);
    list[seq] = it;
  }
  /** A trip was handed to the UIE `uie`: queue its id on every valid sequencer. */
  tripStarted(uie, tripId, validMask) {
    const list = this.byUie.get(uie);
    if (!list)
      return;
    for (let s = 0; s < list.length; s++)
      if (validMask >> s & 1 && list[s])
        list[s].trips.push(tripId);
  }
  get busy() {
    return false;
  }
  tick(now) {
    for (const it of this.items) {
      const r = it.running();
      if (r && it.since >= 0 && it.slot() !== it.lastSlot)
        this.emit(it, now);
      if (r && it.since < 0) {
        it.since = now;
        it.startPc = it.pc();
        it.lastSlot = it.slot();
        it.tripId = it.trips.shift() ?? -1;
      } else if (!r && it.since >= 0)
        this.emit(it, now);
    }
    return false;
  }
  nextWake() {
    return Infinity;
  }
  blockedReason() {
    return void 0;
  }
  finish(now) {
    for (const it of this.items)
      if (it.since >= 0)
        this.emit(it, now);
  }
  emit(it, now) {
    it.track ??= this.trace.track(it.group, it.trackName);
    const args = { start_pc: it.startPc };
    if (it.tripId >= 0)
      args["trip_id"] = it.tripId;
    const program = it.programAt?.(it.startPc);
    if (program !== void 0)
      args["sequencer"] = it.label;
    this.trace.slice(it.track, it.since, now, program ?? `${it.label} pc ${it.startPc}`, args, "sequencer");
    it.since = -1;
  }
};

// packages/target-pyxis/dist/sim/uieSlot.js
function uieTripParams(trip) {
  const f = trip.fields;
  const n2 = (k) => Number(f[k] ?? 0);
  return {
    trip_id: trip.tripId,
    trip_valid_mask: n2("trip_valid_mask"),
    start_pc: f["start_pc"].map(Number),
    amem_read_base_address: n2("amem_read_base_address"),
    amem_weights_base_address: n2("amem_weights_base_address"),
    amem_write_base_address: n2("amem_write_base_address"),
    amem_read_bank_hash_dsbl: n2("amem_read_bank_hash_dsbl"),
    amem_write_bank_hash_dsbl: n2("amem_write_bank_hash_dsbl"),
    amem_weights_bank_hash_dsbl: n2("amem_weights_bank_hash_dsbl"),
    amem_read_indirect_vld: n2("amem_read_indirect_vld"),
    amem_read_indirect_cmd_index: n2("amem_read_indirect_cmd_index"),
    amem_write_indirect_vld: n2("amem_write_indirect_vld"),
    amem_write_indirect_cmd_index: n2("amem_write_indirect_cmd_index"),
    trip_power: trip.trip_power
  };
}
var UieSlot = class extends BaseTripEngine {
  index;
  inflight = [];
  noopPending = [];
  bubble = false;
  model;
  /** Temporal decoupling (kernel RunAheadWindow); used only with `gate`, a quantum > 1 and a model with `runAhead`. */
  window = new RunAheadWindow(1);
  gate;
  /** What the trip manager sees of `canAccept` while the model is ahead: its value when the window opened. */
  frozenAccept = false;
  stallReasons = ["uie stalled", "APM bubble"];
  skip;
  attachSkip(skip) {
    this.skip = skip;
  }
  constructor(cluster2, index, done, apm, apmSlot = 0) {
    super(`c${cluster2}.uie${index}`, "uie", cluster2, done, apm, apmSlot);
    this.index = index;
  }
  /** Trips started on the model and not yet retired (oldest first). */
  get inflightTrips() {
    return this.inflight;
  }
  /** The in-flight trip with `tripId` (oldest first). */
  inflightTrip(tripId) {
    for (const t of this.inflight)
      if (t.tripId === tripId)
        return t;
    return void 0;
  }
  /** Called by the model when the trip with `tripId` retires. */
  retire(tripId, cycle) {
    const i = this.inflight.findIndex((t2) => t2.tripId === tripId);
    const t = this.inflight.splice(i < 0 ? 0 : i, 1)[0];
    if (t)
      this.complete(t, cycle);
  }
  complete(t, now) {
    this.tripsDone++;
    this.report(now);
    this.done(t, now);
  }
  /** The trip power this UIE reports to the APM (chip §13) and since when. */
  reported = 0;
  reportedSince = 0;
  /**
   * A UIE reports one trip power (chip §13: "the configured trip power is reported by every UIE"), the full-rate
   * power of the trips it holds: the largest `trip_power` among its started, unretired trips (docs/spec-notes.md
   * "APM: a UIE reports one trip power"). Trips queued behind the running one do not add: one engine runs at most
   * at full rate. `powerCycles` integrates the reported value.
   */
  report(now) {
    let p = 0;
    for (const t of this.inflight)
      if (t.trip_power > p)
        p = t.trip_power;
    for (const t of this.noopPending)
      if (t.trip_power > p)
        p = t.trip_power;
    if (p === this.reported)
      return;
    this.powerCycles += this.reported * (now - this.reportedSince);
    this.apm?.request(p - this.reported, now);
    this.reported = p;
    this.reportedSince = now;
  }
  canAccept() {
    if (this.window.ahead)
      return this.frozenAccept;
    if (!this.model)
      return this.inflight.length === 0;
    return this.model.canStartTrip ? this.model.canStartTrip() : !this.model.busy;
  }
  start(trip, now) {
    this.wake?.();
    this.begin(trip, now);
    this.report(now);
  }
  begin(trip, now) {
    if (this.window.covers(now))
      throw new Error(`${this.name}: trip ${trip.tripId} started at cycle ${now} while the UIE model runs ahead (cycle ${this.window.local})`);
    const p = uieTripParams(trip);
    if (p.trip_valid_mask === 0 && !p.amem_read_indirect_vld && !p.amem_write_indirect_vld) {
      this.noopPending.push(trip);
      return;
    }
    if (!this.model)
      throw runtimeError(SimCodes.noEngine, `${this.name} trip ${trip.tripId}: no UIE datapath model is available in this build`, "\xA711.4.2", now);
    if (p.amem_read_indirect_vld && !(p.trip_valid_mask & 1) || p.amem_write_indirect_vld && !(p.trip_valid_mask & 2))
      throw tripError(SimCodes.badDescriptor, `${this.name} trip ${trip.tripId}: an ITFE valid bit is set but the associated AMEM read/write sequencer is not valid`, "\xA711.4.2", now, trip);
    this.inflight.push(trip);
    if (this.model.startTrip(p) === false)
      throw new Error(`${this.name}: UIE refused a trip it said it could accept`);
  }
  tick(now) {
    let did = false;
    if (this.noopPending.length) {
      if (this.inflight.length === 0) {
        const noops = this.noopPending;
        this.noopPending = [];
        for (const t of noops)
          this.complete(t, now);
        did = true;
      }
    }
    const w = this.window;
    if (w.covers(now)) {
      return w.replay(now, this.model) || did;
    }
    w.ahead = false;
    if (!this.model || !this.model.busy)
      return did;
    if (w.quantum > 1 && this.gate && this.model.runAhead) {
      const g = this.gate(this, now);
      if (g !== 0) {
        this.frozenAccept = this.canAccept();
        this.bubble = false;
        const r = w.open(now, this.model, g === 2);
        if (w.ahead && this.skip && (this.inflight.length > 0 || this.noopPending.length === 0))
          this.skip(w.progressRun(now));
        return r || did;
      }
    }
    if (this.apm && !this.apm.allow(this.apmSlot)) {
      this.bubble = true;
      return did;
    }
    this.bubble = false;
    return this.model.tick(now) || did;
  }
  get busy() {
    return this.inflight.length > 0 || this.noopPending.length > 0 || (this.model?.busy ?? false);
  }
  nextWake(now) {
    if (this.noopPending.length && this.inflight.length === 0)
      return now;
    if (this.bubble)
      return now;
    if (!this.model)
      return Infinity;
    return this.window.covers(now) ? this.window.nextWake(now, this.model) : this.model.nextWake(now);
  }
  stallCode() {
    return this.bubble ? 1 : 0;
  }
  blockedReason() {
    const ids = this.inflight.map((t) => t.tripId).join(", ");
    const r = this.model?.blockedReason();
    return ids ? `trip(s) ${ids}: ${r ?? "running"}` : r;
  }
};

// packages/target-pyxis/dist/sim/uie/sequencerCore.js
var NUM_ITERS = 6;
var SEQ_DEPTH = 32;
function emptyControlStore(depth = SEQ_DEPTH) {
  const n2 = depth * NUM_ITERS;
  return {
    depth,
    isEol: new Uint8Array(n2),
    solPc: new Int32Array(n2),
    numloops: new Int32Array(n2).fill(1),
    numloopsFinal: new Int32Array(n2).fill(1),
    finalIterMask: new Int32Array(n2),
    postFinalEn: new Uint8Array(n2),
    eopgm: new Uint8Array(depth)
  };
}
function decodeControlStore(t, mem, depth = SEQ_DEPTH, stride = t.bytes, into) {
  const cs = into ?? emptyControlStore(depth);
  const d = Math.min(depth, Math.floor(mem.length / stride));
  const plan = controlPlan(t);
  const outs = [cs.isEol, cs.solPc, cs.numloops, cs.numloopsFinal, cs.finalIterMask, cs.postFinalEn];
  for (let pc = 0; pc < d; pc++) {
    const off = pc * stride;
    for (let i = 0; i < NUM_ITERS; i++) {
      const k = pc * NUM_ITERS + i;
      for (let f = 0; f < CONTROL_FIELDS.length; f++) {
        const loc = plan.loc[f * NUM_ITERS + i];
        outs[f][k] = loc && !(f === 4 && i === 0) ? Number(readField(t, mem, loc[0], loc[1], off)) : CONTROL_DEFAULTS[f];
      }
    }
    cs.eopgm[pc] = plan.eopgm ? Number(readField(t, mem, "eopgm", 0, off)) : 0;
  }
  return cs;
}
var CONTROL_FIELDS = ["is_eol", "sol_pc", "numloops", "numloops_final", "final_iter_mask", "post_final_enbl"];
var CONTROL_DEFAULTS = [0, 0, 1, 1, 0, 0];
var planCache = /* @__PURE__ */ new WeakMap();
function controlPlan(t) {
  let p = planCache.get(t);
  if (!p) {
    const loc = [];
    for (const name of CONTROL_FIELDS)
      for (let i = 0; i < NUM_ITERS; i++) {
        const scalar = `iter${i}_${name}`;
        const arr = t.byName.get(name);
        loc.push(t.byName.has(scalar) ? [scalar, 0] : arr && arr.count > i ? [name, i] : void 0);
      }
    p = { loc, eopgm: t.byName.has("eopgm") };
    planCache.set(t, p);
  }
  return p;
}
var SequencerCore = class {
  store;
  pc = 0;
  /** Hardware iterator counts (`iter[i].count`). */
  count = new Int32Array(NUM_ITERS);
  running = false;
  done = false;
  fault;
  // outputs of the last executed instruction
  execPc = 0;
  execCount = new Int32Array(NUM_ITERS);
  postFinal = false;
  eqZero = 0;
  eqN = 0;
  /** The last step had no final_iter_mask: `itersEqZero` / `itersEqNloops` are derived from `execCount` on demand. */
  lazyFlags = false;
  /** Bit i: iterator i count is 0 (seq §2.1.3). */
  get itersEqZero() {
    if (this.lazyFlags)
      this.flags();
    return this.eqZero;
  }
  /** Bit i: iterator i is at its effective last count (seq §2.1.3). */
  get itersEqNloops() {
    if (this.lazyFlags)
      this.flags();
    return this.eqN;
  }
  /** find_ending_loop_counts() of the executed instruction without final_iter_mask: no cascades, eff = numloops. */
  flags() {
    this.lazyFlags = false;
    const base2 = this.execPc * NUM_ITERS;
    const numloops = this.store.numloops;
    const ec = this.execCount;
    let z = 0;
    let n2 = 0;
    for (let i = 0; i < NUM_ITERS; i++) {
      const c = ec[i];
      const e = c - (numloops[base2 + i] - 1);
      z |= ((c | -c) >>> 31 ^ 1) << i;
      n2 |= ((e | -e) >>> 31 ^ 1) << i;
    }
    this.eqZero = z;
    this.eqN = n2;
  }
  /** Set when the executed instruction was the completing EOPGM instruction. */
  programDone = false;
  /** Instructions executed since start. */
  executed = 0;
  // scratch (no per-step allocation)
  effIgn = new Uint8Array(NUM_ITERS);
  /** Per pc of `store`: 1 when some iterator has a final_iter_mask (computed at `start`, so `step` can skip the cascade logic). */
  hasFinal = new Uint8Array(SEQ_DEPTH);
  /** Per pc of `store`: bit i set when iterator i is an end-of-loop iterator there (`is_eol`, computed at `start`). */
  /** Per pc: the end-of-loop iterators (bit i); read by steadyBatch.ts fillSchedule (runs of equal addresses). */
  eolMask = new Uint8Array(SEQ_DEPTH);
  constructor(store = emptyControlStore()) {
    this.store = store;
  }
  /** Starts a program at StartPC (seq §3 item 1); iterators start at zero. */
  start(startPc, store) {
    if (store)
      this.store = store;
    this.pc = startPc;
    this.count.fill(0);
    this.running = true;
    this.done = false;
    this.fault = void 0;
    this.programDone = false;
    this.executed = 0;
    const st = this.store;
    if (this.hasFinal.length < st.depth)
      this.hasFinal = new Uint8Array(st.depth);
    if (this.eolMask.length < st.depth)
      this.eolMask = new Uint8Array(st.depth);
    for (let pc = 0; pc < st.depth; pc++) {
      let any = 0;
      let eol = 0;
      for (let i = 1; i < NUM_ITERS; i++)
        if (st.finalIterMask[pc * NUM_ITERS + i] !== 0)
          any = 1;
      for (let i = 0; i < NUM_ITERS; i++)
        if (st.isEol[pc * NUM_ITERS + i] !== 0)
          eol |= 1 << i;
      this.hasFinal[pc] = any;
      this.eolMask[pc] = eol;
    }
  }
  /**
   * Steady-state batching (Uie.runAhead): how many of the next steps (at most `max`) stay at the current pc — no
   * final_iter_mask here (so no cascade or post-final), every end-of-loop iterator of the pc has this pc as sol_pc, and
   * the step is not the one where all of them are at their last count (which moves on to the next pc). Such steps
   * only advance the pc's end-of-loop iterators as an odometer (`advance`), exactly as `step` (Figure 2-7) would.
   */
  repeatable(max) {
    if (!this.running)
      return 0;
    const pc = this.pc;
    const s = this.store;
    if (pc < 0 || pc >= s.depth || this.hasFinal[pc] !== 0)
      return 0;
    let m = this.eolMask[pc];
    if (m === 0)
      return 0;
    const base2 = pc * NUM_ITERS;
    let left = 0;
    while (m !== 0) {
      const low = m & -m;
      m ^= low;
      const i = 31 - Math.clz32(low);
      const n2 = s.numloops[base2 + i];
      const c = this.count[i];
      if (s.solPc[base2 + i] !== pc || n2 < 1 || c > n2 - 1)
        return 0;
      left = left * n2 + (n2 - 1 - c);
      if (left > 1e12)
        left = 1e12;
    }
    return left < max ? left : max;
  }
  /** One step of the odometer of `repeatable` on `cnt` (the pc's end-of-loop iterators, innermost first). */
  advance(cnt) {
    const pc = this.pc;
    const base2 = pc * NUM_ITERS;
    const numloops = this.store.numloops;
    let m = this.eolMask[pc];
    while (m !== 0) {
      const i = 31 - Math.clz32(m);
      m ^= 1 << i;
      if (cnt[i] === numloops[base2 + i] - 1) {
        cnt[i] = 0;
        continue;
      }
      cnt[i] = cnt[i] + 1;
      return;
    }
  }
  /**
   * Performs `n` steps counted by `repeatable` without their outputs (execPc / execCount / flags are left as they
   * are): `cnt` is `count` advanced `n` times with `advance`. The caller consumes those outputs itself and runs at
   * least the last step with `step`.
   */
  skipTo(cnt, n2) {
    this.count.set(cnt);
    this.executed += n2;
  }
  /**
   * Executes one microinstruction (Figure 2-7). Returns false if the core is
   * not running (done, faulted or never started).
   */
  step() {
    if (!this.running)
      return false;
    const s = this.store;
    const pc = this.pc;
    if (pc < 0 || pc >= s.depth) {
      this.running = false;
      this.fault = "pc_overflow";
      return false;
    }
    const base2 = pc * NUM_ITERS;
    const count = this.count;
    const numloops = s.numloops;
    if (this.hasFinal[pc] === 0) {
      this.execPc = pc;
      const ec2 = this.execCount;
      ec2[0] = count[0];
      ec2[1] = count[1];
      ec2[2] = count[2];
      ec2[3] = count[3];
      ec2[4] = count[4];
      ec2[5] = count[5];
      this.postFinal = false;
      this.lazyFlags = true;
      this.programDone = false;
      this.executed++;
      let m2 = this.eolMask[pc];
      while (m2 !== 0) {
        const i = 31 - Math.clz32(m2);
        m2 ^= 1 << i;
        const c = count[i];
        if (c === numloops[base2 + i] - 1) {
          count[i] = 0;
          continue;
        }
        count[i] = c + 1;
        this.pc = s.solPc[base2 + i];
        return true;
      }
      this.pc = pc + 1;
      if (s.eopgm[pc]) {
        this.programDone = true;
        this.done = true;
        this.running = false;
      }
      return true;
    }
    let isPostFinal = false;
    let eqZero = 0;
    let eqN = 0;
    const effIgn = this.effIgn;
    const c0 = count[0];
    const last0 = c0 === numloops[base2] - 1 ? 1 : 0;
    effIgn[0] = last0;
    if (c0 === 0)
      eqZero |= 1;
    if (last0)
      eqN |= 1;
    for (let i = 1; i < NUM_ITERS; i++) {
      const k = base2 + i;
      const mask = s.finalIterMask[k];
      let isFinalOuter = mask !== 0;
      if (isFinalOuter) {
        for (let o = 0; o < i; o++) {
          if (mask >> o & 1 && !effIgn[o]) {
            isFinalOuter = false;
            break;
          }
        }
      }
      const c = count[i];
      const atN = c === numloops[k] - 1;
      const atFinal = isFinalOuter && c === s.numloopsFinal[k] - 1;
      const pf = s.postFinalEn[k] !== 0;
      effIgn[i] = atN || atFinal ? 1 : 0;
      if (isFinalOuter && pf && c > s.numloopsFinal[k] - 1)
        isPostFinal = true;
      if (c === 0)
        eqZero |= 1 << i;
      if (atN || atFinal && !pf)
        eqN |= 1 << i;
    }
    this.execPc = pc;
    const ec = this.execCount;
    ec[0] = count[0];
    ec[1] = count[1];
    ec[2] = count[2];
    ec[3] = count[3];
    ec[4] = count[4];
    ec[5] = count[5];
    this.postFinal = isPostFinal;
    this.lazyFlags = false;
    this.eqZero = eqZero;
    this.eqN = eqN;
    this.programDone = false;
    this.executed++;
    let m = this.eolMask[pc];
    while (m !== 0) {
      const i = 31 - Math.clz32(m);
      m ^= 1 << i;
      if (eqN >> i & 1) {
        count[i] = 0;
        continue;
      }
      count[i] = count[i] + 1;
      this.pc = s.solPc[base2 + i];
      return true;
    }
    this.pc = pc + 1;
    if (s.eopgm[pc]) {
      this.programDone = true;
      this.done = true;
      this.running = false;
    }
    return true;
  }
};

// packages/target-pyxis/dist/sim/uie/tables.js
var OpStore = class {
  table;
  depth;
  map = /* @__PURE__ */ new Map();
  constructor(table3, depth) {
    this.table = table3;
    this.depth = depth;
  }
  /**
   * The array of a field. Before any decode it holds the field's decoded value of an all-zero word (e.g. 8 for
   * `num_logical_ptns`, whose codepoint 0 means all 8 partitions — the codec's `zero_means_max`); zeros if the table
   * lacks the field.
   */
  field(name) {
    let a = this.map.get(name);
    if (!a) {
      const f = this.table.byName.get(name);
      a = new Int32Array(this.depth * (f?.count ?? 1));
      if (f && !f.reserved)
        a.fill(Number(readField(this.table, new Uint8Array(this.table.bytes), name)));
      this.map.set(name, a);
    }
    return a;
  }
  set(name, a) {
    this.map.set(name, a);
  }
};
function decodeOpStore(t, mem, depth, stride = t.bytes, into) {
  const st = into ?? new OpStore(t, depth);
  const d = Math.min(depth, Math.floor(mem.length / stride));
  for (const f of t.fields) {
    if (f.reserved)
      continue;
    const arr = st.field(f.name);
    for (let pc = 0; pc < d; pc++)
      for (let i = 0; i < f.count; i++)
        arr[pc * f.count + i] = Number(readField(t, mem, f.name, i, pc * stride));
  }
  return st;
}
var PSW_ENTRIES = 64;
var CSW_ENTRIES = 64;
var COL_MASK_ENTRIES = 4;
var identityTemplate;
function identitySwitchTables() {
  const tp = identityTemplate ??= buildIdentitySwitchTables();
  return {
    pswSrc: tp.pswSrc.slice(),
    pswZero: tp.pswZero.slice(),
    cswMux: tp.cswMux.slice(),
    cswSrc: tp.cswSrc.slice(),
    colMask: tp.colMask.slice(),
    colMaskActive: tp.colMaskActive.slice(),
    pswIdentity: tp.pswIdentity.slice(),
    cswIdentity: tp.cswIdentity.slice()
  };
}
function buildIdentitySwitchTables() {
  const t = {
    pswSrc: new Uint8Array(PSW_ENTRIES * 8),
    pswZero: new Uint8Array(PSW_ENTRIES * 8),
    cswMux: new Uint8Array(CSW_ENTRIES * 128),
    cswSrc: new Uint8Array(CSW_ENTRIES * 128),
    colMask: new Uint8Array(COL_MASK_ENTRIES * 128),
    colMaskActive: new Uint8Array(COL_MASK_ENTRIES),
    pswIdentity: new Uint8Array(PSW_ENTRIES),
    cswIdentity: new Uint8Array(CSW_ENTRIES)
  };
  for (let e = 0; e < PSW_ENTRIES; e++)
    for (let o = 0; o < 8; o++)
      t.pswSrc[e * 8 + o] = o;
  for (let e = 0; e < CSW_ENTRIES; e++)
    for (let c = 0; c < 128; c++)
      t.cswSrc[e * 128 + c] = c & 15;
  updateSwitchSummaries(t);
  return t;
}
function decodeArrayField(t, mem, entries, stride, name, out, per) {
  const f = t.byName.get(name);
  if (!f)
    return;
  const n2 = Math.min(entries, Math.floor(mem.length / stride));
  for (let e = 0; e < n2; e++)
    for (let i = 0; i < Math.min(per, f.count); i++)
      out[e * per + i] = Number(readField(t, mem, name, i, e * stride));
}
function decodeSwitchTables(tabs, mem, into = identitySwitchTables(), strides = {}) {
  if (mem.psw) {
    const s = strides.psw ?? tabs.psw.bytes;
    decodeArrayField(tabs.psw, mem.psw, PSW_ENTRIES, s, "src_ptn", into.pswSrc, 8);
    decodeArrayField(tabs.psw, mem.psw, PSW_ENTRIES, s, "ptn_zero", into.pswZero, 8);
  }
  if (mem.csw) {
    const s = strides.csw ?? tabs.csw.bytes;
    decodeArrayField(tabs.csw, mem.csw, CSW_ENTRIES, s, "col_mux_sel", into.cswMux, 128);
    decodeArrayField(tabs.csw, mem.csw, CSW_ENTRIES, s, "col_src", into.cswSrc, 128);
  }
  if (mem.mask)
    decodeArrayField(tabs.mask, mem.mask, COL_MASK_ENTRIES, strides.mask ?? tabs.mask.bytes, "col_override", into.colMask, 128);
  updateSwitchSummaries(into);
  return into;
}
function updateMaskActivity(t) {
  if (!t.colMaskActive)
    return;
  for (let m = 0; m < COL_MASK_ENTRIES; m++) {
    let any = 0;
    for (let c = 0; c < 128; c++)
      if (t.colMask[m * 128 + c])
        any = 1;
    t.colMaskActive[m] = any;
  }
}
function updateSwitchSummaries(t) {
  updateMaskActivity(t);
  if (t.pswIdentity)
    for (let e = 0; e < PSW_ENTRIES; e++) {
      let id = 1;
      for (let o = 0; o < 8; o++)
        if (t.pswSrc[e * 8 + o] !== o || t.pswZero[e * 8 + o])
          id = 0;
      t.pswIdentity[e] = id;
    }
  if (t.cswIdentity)
    for (let e = 0; e < CSW_ENTRIES; e++) {
      let id = 1;
      for (let c = 0; c < 128; c++) {
        const k = e * 128 + c;
        if ((t.cswSrc[k] & 15) !== (c & 15) || t.cswMux[k] !== 0)
          id = 0;
      }
      t.cswIdentity[e] = id;
    }
}

// packages/target-pyxis/dist/sim/uie/convert.js
var convert_exports = {};
__export(convert_exports, {
  DT_IEEE_FP16: () => DT_IEEE_FP16,
  DT_OCP_E4M3: () => DT_OCP_E4M3,
  DT_OCP_E5M2: () => DT_OCP_E5M2,
  DT_OPAQUE16: () => DT_OPAQUE16,
  DT_OPAQUE8: () => DT_OPAQUE8,
  DT_RFP16: () => DT_RFP16,
  DT_RFP8: () => DT_RFP8,
  addCodes: () => addCodes,
  compositeKey: () => compositeKey,
  compositeTable: () => compositeTable,
  convertFrom16: () => convertFrom16,
  convertTo16: () => convertTo16,
  from16Table: () => from16Table,
  is16bit: () => is16bit,
  reluCode: () => reluCode,
  to16Table: () => to16Table
});

// packages/formats/dist/errors.js
var FormatErrorCode = {
  unknownFormat: "FMT0001",
  ebAdjRange: "FMT0002",
  codeRange: "FMT0003",
  badOption: "FMT0004",
  badValue: "FMT0005",
  badArray: "FMT0006"
};
var CHIP = "pyxis-chip-fspec.md";
function fail(code2, message, spec, span, notes) {
  const extra = {};
  if (spec)
    extra.spec = spec;
  if (span)
    extra.span = span;
  if (notes && notes.length)
    extra.notes = notes;
  throw new DiagnosticError(error(code2, message, extra));
}
function checkEbAdj(ebAdj, what = "EB_adj") {
  if (!Number.isInteger(ebAdj) || ebAdj < -32 || ebAdj > 31) {
    fail(FormatErrorCode.ebAdjRange, `${what} = ${ebAdj} is outside the 6-bit signed range [-32, 31]`, `${CHIP} \xA76.5`);
  }
}
function checkEb(eb, what = "EB") {
  if (!Number.isInteger(eb) || Math.abs(eb) > 1e3) {
    fail(FormatErrorCode.badOption, `${what} = ${eb} is not an integer exponent bias in [-1000, 1000]`, `${CHIP} \xA74.5`);
  }
}
var LIMIT = new Float64Array(54);
for (let b = 0; b < 54; b++)
  LIMIT[b] = Math.pow(2, b);
function checkCode(code2, bits, fmt, span) {
  if (!(code2 >= 0 && code2 < LIMIT[bits] && Number.isInteger(code2))) {
    fail(FormatErrorCode.codeRange, `code ${code2} does not fit the ${bits}-bit format ${fmt}`, void 0, span);
  }
}
var OPTION_KEYS = {
  encode: ["eb", "saturate", "rounding"],
  convert: ["eb", "saturate", "rounding", "fromEb"],
  decode: ["eb", "out", "float32"],
  mapping: ["ebAdj", "mappingCorrection", "fbitsTruncateAmt"],
  fp8map: ["ebAdj", "mappingCorrection"],
  import: ["ebAdj", "saturate"],
  export: ["ebAdj", "saturate", "maxToInf"]
};
function checkNoEb(fmt, eb, fn, what = "eb") {
  if (!fmt.hasEb && eb !== void 0 && eb !== 0)
    fail(FormatErrorCode.badOption, `${fn}: ${fmt.name} has no exponent bias; \`${what}: ${String(eb)}\` would be ignored`, void 0, void 0, [`leave \`${what}\` out (or 0) for ${fmt.name}`]);
}
function checkOptions(opts, kind, fn) {
  if (opts === void 0)
    return;
  if (opts === null || typeof opts !== "object" || Array.isArray(opts) || ArrayBuffer.isView(opts))
    fail(FormatErrorCode.badOption, `${fn}: options must be an object like { ${OPTION_KEYS[kind].join(", ")} }, got ${typeof opts === "number" ? `the number ${opts}` : String(opts)}`, void 0, void 0, typeof opts === "number" && kind !== "decode" ? [`for an exponent bias write { eb: ${opts} }`] : []);
  const o = opts;
  for (const k of Object.keys(o)) {
    if (!OPTION_KEYS[kind].includes(k)) {
      const near = OPTION_KEYS[kind].find((x) => x.toLowerCase() === k.toLowerCase());
      fail(FormatErrorCode.badOption, `${fn}: unknown option \`${k}\` (options: ${OPTION_KEYS[kind].join(", ")})`, void 0, void 0, near ? [`did you mean \`${near}\`?`] : []);
    }
    const v = o[k];
    if (v === void 0)
      continue;
    const bad4 = (want) => fail(FormatErrorCode.badOption, `${fn}: option \`${k}\` must be ${want}, got ${JSON.stringify(v) ?? String(v)}`);
    if ((k === "eb" || k === "fromEb" || k === "ebAdj" || k === "fbitsTruncateAmt") && typeof v !== "number")
      bad4("an integer");
    if ((k === "saturate" || k === "float32" || k === "mappingCorrection" || k === "maxToInf") && typeof v !== "boolean")
      bad4("true or false");
    if (k === "rounding" && v !== "rne" && v !== "rtz")
      bad4("'rne' or 'rtz'");
    if (k === "out" && !(v instanceof Float64Array || v instanceof Float32Array))
      bad4("a Float64Array or Float32Array");
  }
}

// packages/formats/dist/bits.js
var POW2_OFF = 1100;
var POW2 = new Float64Array(2 * POW2_OFF + 1);
{
  POW2[POW2_OFF] = 1;
  for (let k = 1; k <= POW2_OFF; k++) {
    POW2[POW2_OFF + k] = POW2[POW2_OFF + k - 1] * 2;
    POW2[POW2_OFF - k] = POW2[POW2_OFF - k + 1] / 2;
  }
}
function pow2(k) {
  if (k >= -POW2_OFF && k <= POW2_OFF)
    return POW2[k + POW2_OFF];
  return k > 0 ? Infinity : 0;
}
var f64 = new Float64Array(1);
var u322 = new Uint32Array(f64.buffer);
var HI = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 1 : 0;
function ilogb(a) {
  f64[0] = a;
  const be = u322[HI] >>> 20 & 2047;
  if (be !== 0)
    return be - 1023;
  f64[0] = a * 18446744073709552e3;
  return (u322[HI] >>> 20 & 2047) - 1023 - 64;
}
function rne(s) {
  const r = Math.floor(s);
  const d = s - r;
  if (d > 0.5 || d === 0.5 && r % 2 !== 0)
    return r + 1;
  return r;
}
function rneShift(v, sh) {
  if (sh <= 0)
    return v * pow2(-sh);
  const q = v >>> sh;
  const rem = v & (1 << sh) - 1;
  const half = 1 << sh - 1;
  return rem > half || rem === half && (q & 1) === 1 ? q + 1 : q;
}
function rneDiv(n2, d) {
  const q = Math.floor(n2 / d);
  const r = n2 - q * d;
  if (2 * r > d || 2 * r === d && q % 2 !== 0)
    return q + 1;
  return q;
}

// packages/formats/dist/lnsBounds.js
var BP = 256n;
var BTWO = 2n << BP;
var ULP1 = 2 ** -52;
function powAtLeast(b, k, t) {
  let x = BigInt(b * 2 ** 52) << BP - 52n;
  let e = 0;
  if (x >= BTWO) {
    x >>= 1n;
    e = 1;
  }
  for (let i = 0; i < k; i++) {
    x = x * x >> BP;
    e *= 2;
    if (x >= BTWO) {
      x >>= 1n;
      e++;
    }
  }
  return e >= t;
}
function boundaryAtLeast(k, t) {
  let b = Math.pow(2, t / 2 ** k);
  if (b >= 2)
    return 2;
  if (powAtLeast(b, k, t))
    while (b > 1 && powAtLeast(b - ULP1, k, t))
      b -= ULP1;
  else
    do
      b += ULP1;
    while (!powAtLeast(b, k, t));
  return b;
}
function lnsBoundaries(fbits, buckets) {
  const one = 2 ** fbits;
  const mid = new Float64Array(one + 2);
  const cpt = new Float64Array(one + 2);
  for (let j = 1; j <= one; j++) {
    mid[j] = boundaryAtLeast(fbits + 1, 2 * j - 1);
    cpt[j] = j === one ? 2 : boundaryAtLeast(fbits, j);
  }
  mid[one + 1] = Infinity;
  cpt[one + 1] = Infinity;
  const midStart = new Uint16Array(buckets + 1);
  const cptStart = new Uint16Array(buckets + 1);
  for (const [b, st] of [[mid, midStart], [cpt, cptStart]]) {
    let q = 0;
    for (let k = 0; k <= buckets; k++) {
      const lo2 = 1 + k / buckets;
      while (q < one && b[q + 1] <= lo2)
        q++;
      st[k] = q;
    }
  }
  return { mid, cpt, midStart, cptStart };
}

// packages/formats/dist/formats.js
function roundWith(s, rtz) {
  return rtz ? Math.floor(s) : rne(s);
}
function pyxisReserved(ebits, fbits, kind) {
  const sign = 2 ** (ebits + fbits);
  const mag = sign - 1;
  const n2 = kind === "fp" ? "E" : "I";
  return [
    { code: 0, meaning: `zero (S=0 ${n2}=0 F=0)` },
    { code: sign, meaning: `NaN (S=1 ${n2}=0 F=0)` },
    { code: mag, meaning: "saturating maximum positive value" },
    { code: sign + mag, meaning: "saturating maximum negative value" }
  ];
}
function packSignMagnitude(t, s, signBit, saturate) {
  if (t >= signBit)
    return saturate ? s + signBit - 1 : signBit;
  if (t <= 0)
    return 0;
  return s + t;
}
function specialSignMagnitude(x, signBit, saturate) {
  if (x !== x)
    return signBit;
  if (x === 0)
    return 0;
  return saturate ? (x < 0 ? signBit : 0) + signBit - 1 : signBit;
}
var PyxisSignMagnitude = class {
  name;
  ebits;
  fbits;
  spec;
  hasEb = true;
  bits;
  codeLimit;
  reserved;
  nanCode;
  maxCode;
  signBit;
  /** 2^fbits: one unit of the exponent / integer field in magnitude codes. */
  one;
  constructor(name, ebits, fbits, spec, kind) {
    this.name = name;
    this.ebits = ebits;
    this.fbits = fbits;
    this.spec = spec;
    this.bits = 1 + ebits + fbits;
    this.codeLimit = 2 ** this.bits;
    this.signBit = 2 ** (ebits + fbits);
    this.maxCode = this.signBit - 1;
    this.nanCode = this.signBit;
    this.one = 2 ** fbits;
    this.reserved = pyxisReserved(ebits, fbits, kind);
  }
  isNaN(code2) {
    return code2 === this.signBit;
  }
  encode(x, opts) {
    checkOptions(opts, "encode", `${this.name}.encode`);
    const eb = opts?.eb ?? 0;
    checkEb(eb);
    return this.encodeWith(x, eb, opts?.saturate ?? true, opts?.rounding === "rtz");
  }
};
var PyxisFloat = class extends PyxisSignMagnitude {
  family = "pyxis-fp";
  emax;
  constructor(name, ebits, fbits, spec) {
    super(name, ebits, fbits, spec, "fp");
    this.emax = 2 ** ebits - 1;
  }
  decode(code2, eb = 0) {
    if (!(code2 >= 0 && code2 < this.codeLimit && Number.isInteger(code2)))
      checkCode(code2, this.bits, this.name);
    const mag = code2 & this.maxCode;
    if (mag === 0)
      return code2 === 0 ? 0 : NaN;
    const E = mag >>> this.fbits;
    const F = mag & this.one - 1;
    const v = (this.one + F) * pow2(E + eb - this.fbits);
    return code2 & this.signBit ? -v : v;
  }
  encodeWith(x, eb, saturate, rtz) {
    if (x === 0 || !(x > -Infinity && x < Infinity))
      return specialSignMagnitude(x, this.signBit, saturate);
    const s = x < 0 ? this.signBit : 0;
    const a = Math.abs(x);
    let e = ilogb(a);
    if (e < eb - 1)
      return 0;
    if (e > eb + this.emax + 1)
      return packSignMagnitude(this.signBit, s, this.signBit, saturate);
    let m = roundWith(a * pow2(this.fbits - e), rtz);
    if (m === 2 * this.one) {
      e++;
      m = this.one;
    }
    return packSignMagnitude((e - eb) * this.one + (m - this.one), s, this.signBit, saturate);
  }
};
var PyxisLns = class extends PyxisSignMagnitude {
  family = "pyxis-lns";
  /** 2^(F / 2^fbits) for every fraction F. */
  frac;
  /** Decision boundaries and their bucket index, built on the first encode (lnsBoundaries). */
  bounds;
  buckets;
  imax;
  constructor(name, ebits, fbits, spec) {
    super(name, ebits, fbits, spec, "lns");
    this.frac = new Float64Array(this.one);
    for (let f = 0; f < this.one; f++)
      this.frac[f] = Math.pow(2, f / this.one);
    this.imax = 2 ** ebits;
    this.buckets = 4 * this.one;
  }
  boundaries() {
    return this.bounds ??= lnsBoundaries(this.fbits, this.buckets);
  }
  decode(code2, eb = 0) {
    if (!(code2 >= 0 && code2 < this.codeLimit && Number.isInteger(code2)))
      checkCode(code2, this.bits, this.name);
    const mag = code2 & this.maxCode;
    if (mag === 0)
      return code2 === 0 ? 0 : NaN;
    const I = mag >>> this.fbits;
    const v = this.frac[mag & this.one - 1] * pow2(I + eb);
    return code2 & this.signBit ? -v : v;
  }
  /**
   * Nearest code in the log domain (|log2 x - (I.F+EB)| minimal), chip §4.3; see spec-notes.
   * Table-driven: x = m * 2^e with m in [1, 2); the fraction code is the number of
   * decision boundaries <= m (midpoints 2^((j-1/2)/2^F) for nearest, code points
   * 2^(j/2^F) for truncation). A bucket index on the top F+2 mantissa bits lands
   * within one boundary of the answer. No Math.log2, so results are deterministic.
   */
  encodeWith(x, eb, saturate, rtz) {
    if (x === 0 || !(x > -Infinity && x < Infinity))
      return specialSignMagnitude(x, this.signBit, saturate);
    const s = x < 0 ? this.signBit : 0;
    const a = Math.abs(x);
    const e = ilogb(a);
    const I = e - eb;
    if (I > this.imax)
      return packSignMagnitude(this.signBit, s, this.signBit, saturate);
    if (I < -1)
      return 0;
    const m = a * pow2(-e);
    const b = this.bounds ?? this.boundaries();
    const bounds = rtz ? b.cpt : b.mid;
    const start2 = rtz ? b.cptStart : b.midStart;
    let q = start2[Math.floor((m - 1) * this.buckets)];
    while (q < this.one && m >= bounds[q + 1])
      q++;
    return packSignMagnitude(I * this.one + q, s, this.signBit, saturate);
  }
};
var MnsFormat = class {
  name;
  fbits;
  spec;
  hasEb = true;
  family = "mns";
  ebits = 5;
  bits;
  codeLimit;
  reserved;
  nanCode;
  maxCode;
  /** Sticky maximum negative value code. */
  minCode;
  signBit;
  one;
  constructor(name, fbits, spec) {
    this.name = name;
    this.fbits = fbits;
    this.spec = spec;
    this.bits = 1 + 5 + fbits;
    this.codeLimit = 2 ** this.bits;
    this.one = 2 ** fbits;
    this.signBit = 2 ** (5 + fbits);
    this.maxCode = 31 * this.one + (this.one - 1);
    this.nanCode = this.signBit + 31 * this.one;
    this.minCode = this.nanCode + 1;
    this.reserved = [
      { code: 0, meaning: "zero" },
      { code: this.maxCode, meaning: "sticky maximum positive value 1.1..1 * 2^31 (nominal)" },
      { code: this.minCode, meaning: "sticky maximum negative value -(1.1..1 * 2^31) (nominal)" },
      { code: this.nanCode, meaning: "NaN (overloads -2.0 * 2^31)" }
    ];
  }
  isNaN(code2) {
    return code2 === this.nanCode;
  }
  isSticky(code2) {
    return code2 === this.maxCode || code2 === this.minCode;
  }
  decode(code2, eb = 0) {
    if (!(code2 >= 0 && code2 < this.codeLimit && Number.isInteger(code2)))
      checkCode(code2, this.bits, this.name);
    if (code2 === 0)
      return 0;
    if (code2 === this.nanCode)
      return NaN;
    const neg = code2 >= this.signBit;
    const rest = neg ? code2 - this.signBit : code2;
    const E = Math.floor(rest / this.one);
    const F = rest - E * this.one;
    const m = neg ? F - 2 * this.one : this.one + F;
    return m * pow2(E + eb - this.fbits);
  }
  /**
   * Normalise x into MNS (chip §4.6): nearest-even on the 2's complement mantissa,
   * exponent underflow -> zero, overflow -> sticky max of the sign (saturate=false: NaN).
   */
  encode(x, opts) {
    checkOptions(opts, "encode", `${this.name}.encode`);
    const eb = opts?.eb ?? 0;
    checkEb(eb);
    return this.encodeWith(x, eb, opts?.saturate ?? true, opts?.rounding === "rtz");
  }
  encodeWith(x, eb, saturate, rtz) {
    if (x !== x)
      return this.nanCode;
    if (x === 0)
      return 0;
    const neg = x < 0;
    const over = saturate ? neg ? this.minCode : this.maxCode : this.nanCode;
    if (x === Infinity || x === -Infinity)
      return over;
    const a = neg ? -x : x;
    let e = ilogb(a);
    if (neg && a === pow2(e))
      e -= 1;
    if (e < eb - 2)
      return 0;
    if (e > eb + 33)
      return over;
    const N = this.fbits;
    let m;
    if (!neg) {
      m = roundWith(a * pow2(N - e), rtz);
      if (m === 2 * this.one) {
        e++;
        m = this.one;
      }
    } else {
      m = roundWith(a * pow2(N - e), rtz);
      if (m === this.one) {
        e--;
        m = 2 * this.one;
      }
    }
    const E = e - eb;
    if (E < 0)
      return 0;
    if (E > 31)
      return over;
    if (!neg) {
      const F2 = m - this.one;
      if (E === 0 && F2 === 0)
        return 0;
      return E * this.one + F2;
    }
    const F = 2 * this.one - m;
    if (E === 31 && F === 0)
      return over;
    return this.signBit + E * this.one + F;
  }
};
var IeeeLike = class {
  name;
  ebits;
  fbits;
  bias;
  kind;
  spec;
  viaFp32;
  hasEb = false;
  family = "ieee";
  bits;
  codeLimit;
  reserved;
  nanCode;
  maxCode;
  infCode;
  signBit;
  emaxField;
  one;
  pad;
  emin;
  P;
  constructor(name, ebits, fbits, bias, kind, spec, pad = 0, viaFp32 = false) {
    this.name = name;
    this.ebits = ebits;
    this.fbits = fbits;
    this.bias = bias;
    this.kind = kind;
    this.spec = spec;
    this.viaFp32 = viaFp32;
    this.pad = pad;
    this.P = 2 ** pad;
    this.bits = 1 + ebits + fbits + pad;
    this.codeLimit = 2 ** this.bits;
    this.one = 2 ** fbits;
    this.signBit = 2 ** (ebits + fbits);
    this.emaxField = 2 ** ebits - 1;
    this.emin = 1 - bias;
    const P = 2 ** pad;
    if (kind === "ieee") {
      this.maxCode = ((this.emaxField - 1) * this.one + this.one - 1) * P;
      this.infCode = this.emaxField * this.one * P;
      this.nanCode = (this.emaxField * this.one + this.one / 2) * P;
      this.reserved = [
        { code: 0, meaning: "+0" },
        { code: this.signBit * P, meaning: "-0" },
        { code: this.infCode, meaning: "+infinity" },
        { code: (this.signBit + this.emaxField * this.one) * P, meaning: "-infinity" },
        { code: this.nanCode, meaning: "NaN (canonical quiet; every E=all-ones, F!=0 code is NaN)" }
      ];
    } else {
      this.maxCode = (this.emaxField * this.one + this.one - 2) * P;
      this.infCode = void 0;
      this.nanCode = (this.emaxField * this.one + this.one - 1) * P;
      this.reserved = [
        { code: 0, meaning: "+0" },
        { code: this.signBit * P, meaning: "-0" },
        { code: this.nanCode, meaning: "+NaN (S.1111.111)" },
        { code: (this.signBit + this.emaxField * this.one + this.one - 1) * P, meaning: "-NaN" }
      ];
    }
  }
  isNaN(code2) {
    const c = Math.floor(code2 / this.P);
    const mag = c % this.signBit;
    const E = Math.floor(mag / this.one);
    const F = mag - E * this.one;
    if (E !== this.emaxField)
      return false;
    return this.kind === "ieee" ? F !== 0 : F === this.one - 1;
  }
  decode(code2) {
    if (!(code2 >= 0 && code2 < this.codeLimit && Number.isInteger(code2)))
      checkCode(code2, this.bits, this.name);
    const c = this.pad ? Math.floor(code2 / this.P) : code2;
    const neg = c >= this.signBit;
    const mag = neg ? c - this.signBit : c;
    const E = Math.floor(mag / this.one);
    const F = mag - E * this.one;
    let v;
    if (E === 0)
      v = F * pow2(this.emin - this.fbits);
    else if (E === this.emaxField && this.kind === "ieee")
      v = F === 0 ? Infinity : NaN;
    else if (E === this.emaxField && F === this.one - 1)
      v = NaN;
    else
      v = (this.one + F) * pow2(E - this.bias - this.fbits);
    return neg ? -v : v;
  }
  encode(x, opts) {
    checkOptions(opts, "encode", `${this.name}.encode`);
    checkNoEb(this, opts?.eb, `${this.name}.encode`);
    return this.encodeWith(x, 0, opts?.saturate ?? false, opts?.rounding === "rtz");
  }
  encodeWith(x, _eb, saturate, rtz) {
    const P = this.P;
    if (this.viaFp32 && !rtz)
      x = Math.fround(x);
    if (x !== x)
      return this.nanCode;
    let s = 0;
    if (x < 0 || x === 0 && 1 / x < 0) {
      s = this.signBit * P;
      x = -x;
    }
    if (x === 0)
      return s;
    const over = saturate ? s + this.maxCode : this.kind === "ieee" ? s + this.infCode : s + this.nanCode;
    if (x === Infinity)
      return over;
    let e = ilogb(x);
    let code2;
    if (e < this.emin) {
      if (e < this.emin - this.fbits - 2)
        return s;
      code2 = roundWith(x * pow2(this.fbits - this.emin), rtz);
    } else {
      if (e > this.emaxField - this.bias + 1)
        return rtz ? s + this.maxCode : over;
      let m = roundWith(x * pow2(this.fbits - e), rtz);
      if (m === 2 * this.one) {
        e++;
        m = this.one;
      }
      code2 = (e + this.bias) * this.one + (m - this.one);
    }
    code2 *= P;
    if (code2 > this.maxCode)
      return rtz ? s + this.maxCode : over;
    return s + code2;
  }
};
function halfUp(sc) {
  const f = Math.floor(sc);
  return sc - f >= 0.5 ? f + 1 : f;
}
var FixedPoint = class {
  name;
  bits;
  fbits;
  spec;
  tiesUp;
  signed;
  hasEb = false;
  family = "fixed";
  reserved = [];
  nanCode = void 0;
  maxCode;
  ebits;
  minInt;
  codeLimit;
  maxInt;
  scale;
  constructor(name, bits, fbits, spec, tiesUp = false, signed = true) {
    this.name = name;
    this.bits = bits;
    this.fbits = fbits;
    this.spec = spec;
    this.tiesUp = tiesUp;
    this.signed = signed;
    this.ebits = bits - fbits;
    this.codeLimit = 2 ** bits;
    this.maxInt = signed ? 2 ** (bits - 1) - 1 : 2 ** bits - 1;
    this.minInt = signed ? -(2 ** (bits - 1)) : 0;
    this.maxCode = this.maxInt;
    this.scale = 2 ** fbits;
    this.range = 2 ** bits;
  }
  range;
  isNaN() {
    return false;
  }
  toSigned(code2) {
    return code2 > this.maxInt ? code2 - this.range : code2;
  }
  fromSigned(q) {
    return q < 0 ? q + this.range : q + 0;
  }
  /** The value of a signed integer (already sign-extended) of this format: q / 2^B. */
  decodeSigned(q) {
    return q / this.scale;
  }
  decode(code2) {
    if (!(code2 >= 0 && code2 < this.codeLimit && Number.isInteger(code2)))
      checkCode(code2, this.bits, this.name);
    return this.toSigned(code2) / this.scale;
  }
  /**
   * Nearest (ties to even, or half up for the Tensil types; see `tiesUp`) or truncation to a
   * multiple of 2^-B; saturating (default) or wrapping; NaN -> 0.
   */
  encode(x, opts) {
    checkOptions(opts, "encode", `${this.name}.encode`);
    checkNoEb(this, opts?.eb, `${this.name}.encode`);
    return this.encodeWith(x, 0, opts?.saturate ?? true, opts?.rounding === "rtz", opts?.rounding === "rne" ? true : void 0);
  }
  encodeWith(x, _eb, saturate, rtz, tiesEven = !this.tiesUp) {
    if (x !== x)
      return 0;
    if (x === Infinity)
      return saturate ? this.maxInt : 0;
    if (x === -Infinity)
      return saturate ? this.fromSigned(this.minInt) : 0;
    const sc = x * this.scale;
    if (saturate) {
      if (sc >= this.maxInt)
        return this.maxInt;
      if (sc <= this.minInt)
        return this.fromSigned(this.minInt);
    }
    if (!saturate) {
      const m = this.range;
      const r = x % (m / this.scale) * this.scale;
      const q2 = rtz ? Math.trunc(r) : tiesEven ? rne(r) : halfUp(r);
      return (q2 % m + m) % m;
    }
    let q = rtz ? Math.trunc(sc) : tiesEven ? rne(sc) : halfUp(sc);
    q = Math.min(this.maxInt, Math.max(this.minInt, q));
    return this.fromSigned(q);
  }
};
var NC = "neuroncore-v2-architecture.md (TensorE data types)";
var SEQ_SPEC = "pyxis-uie-sequencers-fspec.md";
var SYS = "systolic-fpga-hardware.md \xA71";
var RFP8 = new PyxisFloat("RFP8", 4, 3, `${CHIP} \xA74.1`);
var RFP16 = new PyxisFloat("RFP16", 5, 10, `${CHIP} \xA74.2`);
var LnsI4F3 = new PyxisLns("LnsI4F3", 4, 3, `${CHIP} \xA74.3`);
var LnsI5F3 = new PyxisLns("LnsI5F3", 5, 3, `${CHIP} \xA76.2.4.4`);
var LnsI5F10 = new PyxisLns("LnsI5F10", 5, 10, `${CHIP} \xA74.4`);
var MNS13 = new MnsFormat("MNS13", 13, `${CHIP} \xA74.6, \xA76.3.4 (active accumulator 5.1.13)`);
var MNS18 = new MnsFormat("MNS18", 18, `${CHIP} \xA74.6, \xA76.3.4 (writeback accumulator 5.1.18)`);
var Int16 = new FixedPoint("Int16", 16, 0, `${CHIP} \xA74 (VPU Int16)`);
var Int32 = new FixedPoint("Int32", 32, 0, `${CHIP} \xA77.6 (int32 indirection table); ${SEQ_SPEC} \xA78.1`);
var UInt32 = new FixedPoint("UInt32", 32, 0, `${CHIP} \xA77.6; ${SEQ_SPEC} \xA75.2.2 (x_fifo_entry[31:0], unsigned)`, false, false);
var OCP_E4M3 = new IeeeLike("OCP_E4M3", 4, 3, 7, "fn", `OFP8 rev 1.0; ${CHIP} \xA74.10`);
var OCP_E5M2 = new IeeeLike("OCP_E5M2", 5, 2, 15, "ieee", `OFP8 rev 1.0; ${CHIP} \xA74.10`);
var IEEE_FP16 = new IeeeLike("IEEE_FP16", 5, 10, 15, "ieee", `IEEE 754 binary16; ${CHIP} \xA74.9`);
var FP32 = new IeeeLike("FP32", 8, 23, 127, "ieee", `IEEE 754 binary32; ${NC}`);
var BF16 = new IeeeLike("BF16", 8, 7, 127, "ieee", NC, 0, true);
var TF32 = new IeeeLike("TF32", 8, 10, 127, "ieee", `${NC}; FP32 container, low 13 bits zero`, 13, true);
var FP8_E4M3 = new IeeeLike("FP8_E4M3", 4, 3, 7, "ieee", `${NC}; NKI float8_e4m3 (IEEE-style, max 240)`, 0, true);
var FP8_E5M2 = new IeeeLike("FP8_E5M2", 5, 2, 15, "ieee", `${NC}; NKI float8_e5m2`, 0, true);
var FP8BP4 = new FixedPoint("FP8BP4", 8, 4, SYS, true);
var FP16BP8 = new FixedPoint("FP16BP8", 16, 8, SYS, true);
var FP18BP10 = new FixedPoint("FP18BP10", 18, 10, SYS, true);
var FP32BP16 = new FixedPoint("FP32BP16", 32, 16, SYS, true);

// packages/formats/dist/registry.js
var formats = Object.freeze({
  RFP8,
  RFP16,
  LnsI4F3,
  LnsI5F3,
  LnsI5F10,
  MNS13,
  MNS18,
  Int16,
  Int32,
  UInt32,
  OCP_E4M3,
  OCP_E5M2,
  IEEE_FP16,
  FP32,
  BF16,
  TF32,
  FP8_E4M3,
  FP8_E5M2,
  FP8BP4,
  FP16BP8,
  FP18BP10,
  FP32BP16
});
var formatAliases = Object.freeze({
  "MNS5.1.13": "MNS13",
  "MNS5.1.18": "MNS18",
  "MNS E5M18": "MNS18",
  LNS16: "LnsI5F10",
  "LNS5.3": "LnsI5F3",
  OFP8_E4M3: "OCP_E4M3",
  OFP8_E5M2: "OCP_E5M2",
  OFP16: "IEEE_FP16",
  FP32B16: "FP32BP16"
});
var formatNames = Object.keys(formats);
function isFormatName(name) {
  return Object.prototype.hasOwnProperty.call(formats, name);
}
function getFormat(name) {
  if (typeof name !== "string")
    return name;
  if (isFormatName(name))
    return formats[name];
  const alias = formatAliases[name];
  if (alias)
    return formats[alias];
  return fail(FormatErrorCode.unknownFormat, `unknown number format \`${name}\``, void 0, void 0, didYouMean(name, [...formatNames, ...Object.keys(formatAliases)]));
}

// packages/formats/dist/hw.js
function packPyxis(sign, E, F, ebits, fbits) {
  const emax = (1 << ebits) - 1;
  const mag = (1 << ebits + fbits) - 1;
  const s = sign ? 1 << ebits + fbits : 0;
  if (E > emax)
    return s | mag;
  if (E < 0)
    return 0;
  if (E === 0 && F === 0)
    return 0;
  return s | E << fbits | F;
}
function pyxisEbAdjust(code2, ebAdj, ebits, fbits) {
  const magMask = (1 << ebits + fbits) - 1;
  const mag = code2 & magMask;
  if (mag === 0)
    return code2;
  return packPyxis(code2 >>> ebits + fbits, (mag >>> fbits) + ebAdj, mag & (1 << fbits) - 1, ebits, fbits);
}
var LAYOUT = {
  RFP8: [4, 3],
  RFP16: [5, 10],
  LnsI4F3: [4, 3],
  LnsI5F3: [5, 3],
  LnsI5F10: [5, 10]
};
function ebAdjust(format, code2, ebAdj) {
  checkEbAdj(ebAdj);
  const l = LAYOUT[format];
  if (!l)
    fail(FormatErrorCode.badOption, `ebAdjust: ${String(format)} is not a Pyxis FP/LNS format`, `${CHIP} \xA76.5`);
  checkCode(code2, 1 + l[0] + l[1], format);
  return pyxisEbAdjust(code2, ebAdj, l[0], l[1]);
}
function fp8ToFp16Raw(code2, ebAdj) {
  const mag = code2 & 127;
  if (mag === 0)
    return code2 === 0 ? 0 : 32768;
  return packPyxis(code2 >>> 7, (mag >>> 3) + ebAdj, (mag & 7) << 7, 5, 10);
}
function fp16ToFp8Raw(code2, ebAdj) {
  const mag = code2 & 32767;
  if (mag === 0)
    return code2 === 0 ? 0 : 128;
  const f10 = mag & 1023;
  let E = (mag >>> 10) + ebAdj;
  let f3 = f10 >>> 7;
  const b6 = f10 >>> 6 & 1;
  const low = f10 & 63;
  const b7 = f10 >>> 7 & 1;
  if (b6 && low !== 0 || b7 && b6 && low === 0) {
    f3 += 1;
    if (f3 === 8) {
      f3 = 0;
      E += 1;
    }
  }
  return packPyxis(code2 >>> 15, E, f3, 4, 3);
}
function fp16ToFp16(code2, ebAdj = 0) {
  return ebAdjust("RFP16", code2, ebAdj);
}
function lin2logFraction(k, mappingCorrection = true) {
  if (!mappingCorrection)
    return k;
  if (k < 192)
    return rneDiv(4 * k, 3);
  if (k < 424)
    return rneDiv(128 * k + 5 * 1024, 116);
  if (k < 696)
    return rneDiv(128 * k + 15 * 1024, 136);
  return rneDiv(32 * k + 9 * 1024, 41);
}
function log2linFraction(k, mappingCorrection = true) {
  if (!mappingCorrection)
    return k;
  if (k < 256)
    return rneDiv(3 * k, 4);
  if (k < 512)
    return rneDiv(116 * k - 5 * 1024, 128);
  if (k < 768)
    return rneDiv(136 * k - 15 * 1024, 128);
  return rneDiv(41 * k - 9 * 1024, 32);
}
var L2L = [new Uint16Array(1024), new Uint16Array(1024)];
var G2L = [new Uint16Array(1024), new Uint16Array(1024)];
for (let k = 0; k < 1024; k++) {
  L2L[0][k] = k;
  L2L[1][k] = lin2logFraction(k, true);
  G2L[0][k] = k;
  G2L[1][k] = log2linFraction(k, true);
}
function linToLogRaw(code2, ebAdj, corr, trunc) {
  const mag = code2 & 32767;
  if (mag === 0)
    return code2 === 0 ? 0 : 32768;
  let E = (mag >>> 10) + ebAdj;
  let f = L2L[corr ? 1 : 0][mag & 1023];
  if (f === 1024) {
    f = 0;
    E += 1;
  }
  f &= ~((1 << trunc) - 1) & 1023;
  return packPyxis(code2 >>> 15, E, f, 5, 10);
}
function fp8ToLnsI5F3Raw(code2, ebAdj, corr) {
  const mag = code2 & 127;
  if (mag === 0)
    return code2 === 0 ? 0 : 256;
  let E = (mag >>> 3) + ebAdj;
  const f10 = L2L[corr ? 1 : 0][(mag & 7) << 7];
  let f3 = rneShift(f10, 7);
  if (f3 >= 8) {
    f3 -= 8;
    E += 1;
  }
  return packPyxis(code2 >>> 7, E, f3, 5, 3);
}
function decompressWeight(codebookEntry, scale) {
  checkCode(codebookEntry, 8, "LnsI4F3");
  checkCode(scale, 8, "LnsI4F3");
  const cm = codebookEntry & 127;
  const sm = scale & 127;
  if (cm === 0 && codebookEntry & 128 || sm === 0 && scale & 128)
    return 128;
  if (cm === 0 || sm === 0)
    return 0;
  const sign = (codebookEntry ^ scale) >>> 7 & 1;
  const q = cm + sm - 15 * 8;
  if (q > 127)
    return sign << 7 | 127;
  if (q <= 0)
    return 0;
  return sign << 7 | q;
}
function mnsToFp16Raw(code2, ebAdj, fmt) {
  if (code2 === 0)
    return 0;
  if (code2 === fmt.nanCode)
    return 32768;
  const N = fmt.fbits;
  const one = 1 << N;
  const neg = code2 >>> N + 5;
  let E = code2 >>> N & 31;
  const F = code2 & one - 1;
  let mag = neg ? 2 * one - F : one + F;
  if (mag === 2 * one) {
    mag = one;
    E += 1;
  }
  const sh = N - 10;
  let m = mag >>> sh;
  const rem = mag & (1 << sh) - 1;
  const half = 1 << sh - 1;
  if (rem > half || rem === half && (m & 1) === 1)
    m += 1;
  if (m === 2048) {
    m = 1024;
    E += 1;
  }
  return packPyxis(neg, E + ebAdj, m - 1024, 5, 10);
}
var EXT = {
  IEEE_FP16: { ebits: 5, mbits: 10, fn: false, maxFinite: 31743, inf: 31744, nan: 32256 },
  OCP_E4M3: { ebits: 4, mbits: 3, fn: true, maxFinite: 126, inf: -1, nan: 127 },
  OCP_E5M2: { ebits: 5, mbits: 2, fn: false, maxFinite: 123, inf: 124, nan: 126 }
};
function extLayout(format) {
  const l = EXT[format];
  if (!l)
    fail(FormatErrorCode.badOption, `unknown import/export format ${String(format)}`, `${CHIP} \xA74.9-4.10`);
  return l;
}
function importToRfp16(format, code2, opts = {}) {
  checkOptions(opts, "import", "importToRfp16");
  const ebAdj = opts.ebAdj ?? 0;
  checkEbAdj(ebAdj);
  const l = extLayout(format);
  checkCode(code2, 1 + l.ebits + l.mbits, format);
  return importRaw(l, code2, ebAdj, opts.saturate ?? true);
}
function importRaw(l, code2, ebAdj, saturate) {
  const bits = 1 + l.ebits + l.mbits;
  const signBit = 1 << bits - 1;
  const sign = code2 & signBit ? 1 : 0;
  const mag = code2 & signBit - 1;
  const emaxF = (1 << l.ebits) - 1;
  let E = mag >>> l.mbits;
  let M = mag & (1 << l.mbits) - 1;
  if (mag === 0)
    return 0;
  if (l.fn) {
    if (E === emaxF && M === (1 << l.mbits) - 1)
      return 32768;
  } else if (E === emaxF) {
    if (M !== 0)
      return 32768;
    return saturate ? sign << 15 | 32767 : 32768;
  }
  if (E === 0) {
    E = 1;
    while ((M & 1 << l.mbits) === 0) {
      M <<= 1;
      E -= 1;
    }
    M &= (1 << l.mbits) - 1;
  }
  return packPyxis(sign, E + ebAdj, M << 10 - l.mbits, 5, 10);
}
function exportFromRfp16(format, code2, opts = {}) {
  checkOptions(opts, "export", "exportFromRfp16");
  if (format === "IEEE_FP16" && opts.saturate === true)
    fail(FormatErrorCode.badOption, "exportFromRfp16: IEEE_FP16 has no saturating mode (overflow is always +-infinity); saturate: true would be ignored", `${CHIP} \xA74.9.2`);
  if (format !== "IEEE_FP16" && opts.maxToInf === true)
    fail(FormatErrorCode.badOption, `exportFromRfp16: maxToInf is the IEEE FP16 option; ${format} would ignore it`, `${CHIP} \xA74.10.2`);
  const ebAdj = opts.ebAdj ?? 0;
  checkEbAdj(ebAdj);
  const l = extLayout(format);
  checkCode(code2, 16, "RFP16");
  return exportRaw(l, code2, ebAdj, format === "IEEE_FP16" ? false : opts.saturate ?? true, !!opts.maxToInf && format === "IEEE_FP16");
}
function exportRaw(l, code2, ebAdj, saturate, maxToInf) {
  const mag = code2 & 32767;
  if (mag === 0)
    return code2 === 0 ? 0 : l.nan;
  const bits = 1 + l.ebits + l.mbits;
  const s = code2 & 32768 ? 1 << bits - 1 : 0;
  const over = saturate ? s | l.maxFinite : l.fn ? s | l.nan : s | l.inf;
  if (maxToInf && mag === 32767)
    return s | l.inf;
  let Et = (mag >>> 10) + ebAdj;
  const mant = 1024 | mag & 1023;
  let r;
  if (Et >= 1) {
    r = rneShift(mant, 10 - l.mbits);
    if (r === 2 << l.mbits) {
      r >>>= 1;
      Et += 1;
    }
    if (Et >= (1 << l.ebits) + 1)
      return over;
    r = Et << l.mbits | r & (1 << l.mbits) - 1;
  } else {
    const sh = 10 - l.mbits + (1 - Et);
    if (sh > 11)
      return s;
    if (mant < 1 << sh)
      return s;
    r = rneShift(mant, sh);
  }
  if (r > l.maxFinite)
    return over;
  return s | r;
}

// packages/formats/dist/tables.js
var cache2 = /* @__PURE__ */ new Map();
var CACHE_MAX = 96;
function cached(key, build) {
  let t = cache2.get(key);
  if (t) {
    cache2.delete(key);
  } else {
    t = build();
    if (cache2.size >= CACHE_MAX)
      cache2.delete(cache2.keys().next().value);
  }
  cache2.set(key, t);
  return t;
}
function decodeTable(format, eb = 0) {
  const fmt = getFormat(format);
  if (fmt.bits > 16)
    fail(FormatErrorCode.badOption, `decodeTable: ${fmt.name} has ${fmt.bits} bits (tables are for <= 16-bit formats)`);
  checkEb(eb);
  const e = fmt.hasEb ? eb : 0;
  return cached(`dec:${fmt.name}:${e}`, () => {
    const n2 = 2 ** fmt.bits;
    const t = new Float64Array(n2);
    for (let c = 0; c < n2; c++)
      t[c] = fmt.decode(c, e);
    return t;
  });
}
function fp8ToFp16Table(ebAdj = 0) {
  checkEbAdj(ebAdj, "EB_Adj_FP8");
  return cached(`fp8to16:${ebAdj}`, () => {
    const t = new Uint16Array(256);
    for (let c = 0; c < 256; c++)
      t[c] = fp8ToFp16Raw(c, ebAdj);
    return t;
  });
}
function fp16ToFp8Table(ebAdj = 0) {
  checkEbAdj(ebAdj, "EB_Adj_FP8");
  return cached(`fp16to8:${ebAdj}`, () => {
    const t = new Uint8Array(65536);
    for (let c = 0; c < 65536; c++)
      t[c] = fp16ToFp8Raw(c, ebAdj);
    return t;
  });
}
function importTable(format, opts = {}) {
  importToRfp16(format, 0, opts);
  const n2 = format === "IEEE_FP16" ? 65536 : 256;
  return cached(`imp:${format}:${opts.ebAdj ?? 0}:${opts.saturate ?? true}`, () => {
    const t = new Uint16Array(n2);
    for (let x = 0; x < n2; x++)
      t[x] = importToRfp16(format, x, opts);
    return t;
  });
}
function exportTable(format, opts = {}) {
  exportFromRfp16(format, 0, opts);
  return cached(`exp:${format}:${opts.ebAdj ?? 0}:${opts.saturate ?? true}:${!!opts.maxToInf}`, () => {
    const t = format === "IEEE_FP16" ? new Uint16Array(65536) : new Uint8Array(65536);
    for (let x = 0; x < 65536; x++)
      t[x] = exportFromRfp16(format, x, opts);
    return t;
  });
}
function applyTable(table3, codes, out) {
  const n2 = codes.length;
  const o = out ?? new table3.constructor(n2);
  if (o.length < n2)
    fail(FormatErrorCode.badArray, `applyTable: output length ${o.length} < input length ${n2}`);
  const size = table3.length;
  if (size < 2 ** (codes.BYTES_PER_ELEMENT * 8)) {
    for (let i = 0; i < n2; i++) {
      if (codes[i] >= size) {
        fail(FormatErrorCode.codeRange, `code ${codes[i]} at index ${i} is outside the ${size}-entry table`, void 0, {
          file: "<codes>",
          offset: i * codes.BYTES_PER_ELEMENT
        });
      }
    }
  }
  lookup(table3, codes, o, n2);
  return o;
}
function lookupF64U8(t, c, o, n2) {
  for (let i = 0; i < n2; i++)
    o[i] = t[c[i]];
}
function lookupF64U16(t, c, o, n2) {
  for (let i = 0; i < n2; i++)
    o[i] = t[c[i]];
}
function lookupU8U16(t, c, o, n2) {
  for (let i = 0; i < n2; i++)
    o[i] = t[c[i]];
}
function lookupU8U8(t, c, o, n2) {
  for (let i = 0; i < n2; i++)
    o[i] = t[c[i]];
}
function lookupU16U8(t, c, o, n2) {
  for (let i = 0; i < n2; i++)
    o[i] = t[c[i]];
}
function lookupU16U16(t, c, o, n2) {
  for (let i = 0; i < n2; i++)
    o[i] = t[c[i]];
}
function lookupGeneric(t, c, o, n2) {
  for (let i = 0; i < n2; i++)
    o[i] = t[c[i]];
}
function lookup(t, c, o, n2) {
  const same = t.constructor === o.constructor;
  if (same && t instanceof Float64Array) {
    if (c instanceof Uint8Array)
      return lookupF64U8(t, c, o, n2);
    if (c instanceof Uint16Array)
      return lookupF64U16(t, c, o, n2);
  } else if (same && t instanceof Uint8Array) {
    if (c instanceof Uint16Array)
      return lookupU8U16(t, c, o, n2);
    if (c instanceof Uint8Array)
      return lookupU8U8(t, c, o, n2);
  } else if (same && t instanceof Uint16Array) {
    if (c instanceof Uint8Array)
      return lookupU16U8(t, c, o, n2);
    if (c instanceof Uint16Array)
      return lookupU16U16(t, c, o, n2);
  }
  lookupGeneric(t, c, o, n2);
}

// packages/formats/dist/arrays.js
function checkCodes(fmt, codes) {
  if (!ArrayBuffer.isView(codes))
    fail(FormatErrorCode.badArray, `${fmt.name} codes must be a Uint8Array, Uint16Array or Uint32Array`);
  const lim = 2 ** fmt.bits;
  const bpe = codes.BYTES_PER_ELEMENT ?? 1;
  if (bpe * 8 <= fmt.bits)
    return;
  for (let i = 0; i < codes.length; i++) {
    if (codes[i] >= lim) {
      fail(FormatErrorCode.codeRange, `code ${codes[i]} at index ${i} does not fit the ${fmt.bits}-bit format ${fmt.name}`, fmt.spec, {
        file: "<codes>",
        offset: i * bpe
      });
    }
  }
}
function decodeArray(format, codes, ebOrOpts, outArg) {
  const fmt = getFormat(format);
  const opts = typeof ebOrOpts === "number" ? { eb: ebOrOpts, ...outArg ? { out: outArg } : {} } : (checkOptions(ebOrOpts, "decode", "decodeArray"), ebOrOpts ?? {});
  checkCodes(fmt, codes);
  checkNoEb(fmt, opts.eb, "decodeArray");
  if (opts.eb === void 0 && fmt.hasEb)
    fail(FormatErrorCode.badOption, `decodeArray: ${fmt.name} codes need their exponent bias: decodeArray(${fmt.name}, codes, { eb })`, fmt.spec);
  const eb = opts.eb ?? 0;
  checkEb(eb);
  const n2 = codes.length;
  const want32 = opts.out instanceof Float32Array || opts.out === void 0 && opts.float32 === true;
  if (opts.out && opts.out.length < n2)
    fail(FormatErrorCode.badArray, `decodeArray: output length ${opts.out.length} < input length ${n2}`);
  if (!want32) {
    const o = opts.out;
    if (fmt.bits <= 16)
      return applyTable(decodeTable(fmt, eb), codes, o);
    const r2 = o ?? new Float64Array(n2);
    for (let i = 0; i < n2; i++)
      r2[i] = fmt.decode(codes[i], eb);
    return r2;
  }
  const r = opts.out ?? new Float32Array(n2);
  if (fmt.bits <= 16) {
    const t = decodeTable(fmt, eb);
    for (let i = 0; i < n2; i++)
      r[i] = t[codes[i]];
  } else
    for (let i = 0; i < n2; i++)
      r[i] = fmt.decode(codes[i], eb);
  return r;
}
var LITTLE = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

// packages/formats/dist/fixed.js
function fixedSaturate(fmt, v) {
  return v > fmt.maxInt ? fmt.maxInt : v < fmt.minInt ? fmt.minInt : v;
}
function fixedMacRaw(fmt, x, y, z) {
  if (fmt.bits > 26)
    return macBig(fmt, x, y, z);
  const one = fmt.scale;
  const m = x * y + z * one;
  const q = Math.floor(m / one);
  const r = m - q * one;
  const half = one / 2;
  const adj = r > half || r === half && q % 2 !== 0 ? 1 : 0;
  return fixedSaturate(fmt, q + adj);
}
function macBig(fmt, x, y, z) {
  const bp = BigInt(fmt.fbits);
  const m = BigInt(x) * BigInt(y) + (BigInt(z) << bp);
  const q = m >> bp;
  if (bp === 0n)
    return fixedSaturate(fmt, Number(q));
  const r = m - (q << bp);
  const half = 1n << bp - 1n;
  const adj = r > half || r === half && (q & 1n) !== 0n ? 1n : 0n;
  return fixedSaturate(fmt, Number(q + adj));
}

// packages/formats/dist/ops.js
function checkFixed(fmt, code2) {
  if (!(code2 >= 0 && code2 <= fmt.maxInt - fmt.minInt && Number.isInteger(code2))) {
    fail(FormatErrorCode.codeRange, `code ${code2} does not fit ${fmt.name}`, fmt.spec);
  }
  return fmt.toSigned(code2);
}
function clampCode(fmt, q) {
  return fmt.fromSigned(Math.min(fmt.maxInt, Math.max(fmt.minInt, q)));
}
function fixedAdd(fmt, a, b) {
  return clampCode(fmt, checkFixed(fmt, a) + checkFixed(fmt, b));
}
function fixedMul(fmt, a, b) {
  return fmt.fromSigned(fixedMacRaw(fmt, checkFixed(fmt, a), checkFixed(fmt, b), 0));
}
function isMax(fmt, c) {
  const sign = fmt.maxCode + 1;
  return c === fmt.maxCode ? 1 : c === sign + fmt.maxCode ? -1 : 0;
}
function rfpAdd(fmt, a, b, eb = 0) {
  const nan = fmt.nanCode;
  if (a === nan || b === nan)
    return nan;
  const ma = isMax(fmt, a);
  const mb = isMax(fmt, b);
  if (ma !== 0 && ma === -mb)
    return nan;
  checkEb(eb);
  return fmt.encodeWith(fmt.decode(a, eb) + fmt.decode(b, eb), eb, true, false);
}

// packages/formats/dist/mnsRound.js
var RC = [];
var MAXV = [];
var TWO32 = 4294967296;
function mnsGrid(fbits) {
  let t = RC[fbits];
  if (!t) {
    t = new Float64Array(32);
    for (let e = 0; e < 32; e++)
      t[e] = 1.5 * pow2(52 + e - fbits);
    RC[fbits] = t;
    MAXV[fbits] = (2 - pow2(-fbits)) * pow2(31);
  }
  return { rc: t, max: MAXV[fbits] };
}
function mnsRoundWith(s, err, rc, max) {
  const a = Math.abs(s);
  if (!(a >= 1))
    return s !== s ? NaN : 0;
  if (a >= TWO32)
    return s < 0 ? -Infinity : Infinity;
  const C = rc[31 - Math.clz32(a)];
  let v = s + C - C;
  if (err !== 0) {
    const d = s - v;
    const half = C / 3 * 2 ** -52;
    if ((d === half || d === -half) && d > 0 === err > 0)
      v = s + d;
  }
  const m = Math.abs(v);
  if (m <= 1)
    return 0;
  if (m >= max)
    return s < 0 ? -Infinity : Infinity;
  return v;
}

// packages/formats/dist/rfp16Fast.js
var f642 = new Float64Array(1);
var i32 = new Int32Array(f642.buffer);
var HI2 = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 1 : 0;
var LO = 1 - HI2;
function rfp16Encode(x, eb) {
  f642[0] = x;
  const hi = i32[HI2];
  const lo2 = i32[LO];
  const mag = (hi >>> 20 & 2047) - 1023 - eb << 10 | hi >>> 10 & 1023;
  const t = mag + ((hi & 1023) + ((lo2 | -lo2) >>> 31 | mag & 1) + 511 >>> 10);
  if (t <= 0)
    return 0;
  if (t >= 32768)
    return x !== x ? 32768 : hi >>> 16 & 32768 | 32767;
  return t | hi >>> 16 & 32768;
}

// packages/target-pyxis/dist/sim/uie/codes.js
var codes_exports = {};
__export(codes_exports, {
  DT_IS_16: () => DT_IS_16,
  GV_AMEM: () => GV_AMEM,
  GV_VPU: () => GV_VPU,
  GV_ZERO: () => GV_ZERO,
  GWB_COL_MAX_NEG: () => GWB_COL_MAX_NEG,
  GWB_COL_ZERO: () => GWB_COL_ZERO,
  GWB_DIAG: () => GWB_DIAG,
  GWB_OVR_MAX_NEG: () => GWB_OVR_MAX_NEG,
  GWB_READ_WBA: () => GWB_READ_WBA,
  GWB_TGT_VPU: () => GWB_TGT_VPU,
  GX_BUBBLE: () => GX_BUBBLE,
  GX_CONFIG: () => GX_CONFIG,
  GX_VALID: () => GX_VALID,
  INDIR_BASE_ITERS: () => INDIR_BASE_ITERS,
  INDIR_MODE_MASK: () => INDIR_MODE_MASK,
  INDIR_X32: () => INDIR_X32,
  INDIR_X_STRIDE_ITER: () => INDIR_X_STRIDE_ITER,
  INDIR_Y: () => INDIR_Y,
  INDIR_Y_2D: () => INDIR_Y_2D,
  INDIR_Y_MSBS: () => INDIR_Y_MSBS,
  INDIR_Y_NONE: () => INDIR_Y_NONE,
  INDIR_Y_STRIDE_ITER: () => INDIR_Y_STRIDE_ITER,
  MASK_MAX_NEG: () => MASK_MAX_NEG,
  MASK_NONE: () => MASK_NONE,
  MASK_ZERO: () => MASK_ZERO,
  MUX_NEXT: () => MUX_NEXT,
  MUX_PREV: () => MUX_PREV,
  MUX_SELF: () => MUX_SELF,
  RD_CONST: () => RD_CONST,
  RD_NOP: () => RD_NOP,
  RD_SRAM: () => RD_SRAM,
  RD_SRAM_RELU: () => RD_SRAM_RELU,
  SRC_AMEM: () => SRC_AMEM,
  SRC_GRID: () => SRC_GRID,
  SRC_VBUFFER: () => SRC_VBUFFER,
  TGT_AMEM: () => TGT_AMEM,
  TGT_GRID: () => TGT_GRID,
  TGT_VBUFFER: () => TGT_VBUFFER,
  VPU_CNTR_DECR: () => VPU_CNTR_DECR,
  VPU_CNTR_INCR: () => VPU_CNTR_INCR,
  VPU_CNTR_ZERO: () => VPU_CNTR_ZERO,
  VPU_SRC: () => VPU_SRC,
  WR_DISCARD: () => WR_DISCARD,
  WR_NOP: () => WR_NOP,
  WR_RMW_ADD: () => WR_RMW_ADD,
  WR_WRITE: () => WR_WRITE,
  WT_SRAM: () => WT_SRAM,
  WT_SRAM_RELU: () => WT_SRAM_RELU,
  WT_UNCOMPRESSED: () => WT_UNCOMPRESSED,
  ZSW_NOP: () => ZSW_NOP,
  ZSW_UNZIP: () => ZSW_UNZIP,
  ZSW_ZIP: () => ZSW_ZIP,
  code: () => code,
  dataType: () => dataType,
  readsSram: () => readsSram,
  writesSram: () => writesSram
});
function table2(name) {
  return loadTable("pyxis", name);
}
function code(t, field, value) {
  const f = t.byName.get(field);
  const c = f ? enumCode(f, value) : void 0;
  if (c === void 0)
    throw new Error(`grammars/pyxis/${t.name}.json: field \`${field}\` has no enum value \`${value}\` (the UIE model needs it)`);
  return c;
}
var readOp = table2("amem_read_op");
var writeOp = table2("amem_write_op");
var weightsOp = table2("amem_weights_read_op");
var RD_NOP = code(readOp, "opcd", "Nop");
var RD_CONST = code(readOp, "opcd", "Read_Const");
var RD_SRAM = code(readOp, "opcd", "Read_SRAM");
var RD_SRAM_RELU = code(readOp, "opcd", "Read_SRAM_with_ReLU");
function readsSram(opcd) {
  return opcd === RD_SRAM || opcd === RD_SRAM_RELU;
}
var WR_NOP = code(writeOp, "opcd", "Nop");
var WR_DISCARD = code(writeOp, "opcd", "Discard");
var WR_WRITE = code(writeOp, "opcd", "Write");
var WR_RMW_ADD = code(writeOp, "opcd", "RMW_Add");
function writesSram(opcd) {
  return opcd === WR_WRITE || opcd === WR_RMW_ADD;
}
var WT_SRAM = code(weightsOp, "opcd", "Read_SRAM");
var WT_SRAM_RELU = code(weightsOp, "opcd", "Read_SRAM_with_ReLU");
var WT_UNCOMPRESSED = code(weightsOp, "wdc_type", "Uncompressed");
var TGT_GRID = code(readOp, "tgt_fifo", "Grid");
var TGT_VBUFFER = code(readOp, "tgt_fifo", "Vbuffer");
var TGT_AMEM = code(readOp, "tgt_fifo", "AMEM_write");
var SRC_GRID = code(writeOp, "src_fifo", "Grid");
var SRC_VBUFFER = code(writeOp, "src_fifo", "Vbuffer");
var SRC_AMEM = code(writeOp, "src_fifo", "AMEM_read");
var ZSW_NOP = code(readOp, "rzsw_config", "NOP");
var ZSW_UNZIP = code(readOp, "rzsw_config", "Unzip");
var ZSW_ZIP = code(readOp, "rzsw_config", "Zip");
for (const [n2, v] of [["NOP", ZSW_NOP], ["Unzip", ZSW_UNZIP], ["Zip", ZSW_ZIP]])
  if (code(writeOp, "wzsw_config", n2) !== v)
    throw new Error(`grammars/pyxis: wzsw_config ${n2} differs from rzsw_config ${n2}; the UIE model shares one zipper switch`);
var csw = table2("rcsw_entry");
var colMask = table2("rcsw_col_mask");
var MUX_SELF = code(csw, "col_mux_sel", "Self");
var MUX_PREV = code(csw, "col_mux_sel", "Prev_Ptn");
var MUX_NEXT = code(csw, "col_mux_sel", "Next_Ptn");
var MASK_NONE = code(colMask, "col_override", "No_Mask");
var MASK_ZERO = code(colMask, "col_override", "Zero");
var MASK_MAX_NEG = code(colMask, "col_override", "Max_Negative");
var gxOp = table2("gx_op");
var gvOp = table2("gv_op");
var gwbOp = table2("gwb_op");
var gwbColMask = table2("gwb_col_mask");
var vpuInstr = table2("vpu_instr");
var GX_VALID = code(gxOp, "opcd", "Exec_Valid");
var GX_BUBBLE = code(gxOp, "opcd", "Exec_Bubble");
var GX_CONFIG = code(gxOp, "opcd", "Exec_Config");
var GV_ZERO = code(gvOp, "opcd", "Read_Zero");
var GV_AMEM = code(gvOp, "opcd", "Read_AMEM_FIFO");
var GV_VPU = code(gvOp, "opcd", "Read_VPU_FIFO");
var GWB_READ_WBA = code(gwbOp, "opcd", "Read_WBA");
var GWB_TGT_VPU = code(gwbOp, "tgt_fifo", "VPU");
var GWB_DIAG = {
  colLeRow: code(gwbOp, "diagonal_mask_mode", "Col_LE_Row"),
  colLtRow: code(gwbOp, "diagonal_mask_mode", "Col_LT_Row"),
  colEqRow: code(gwbOp, "diagonal_mask_mode", "Col_EQ_Row"),
  colNeRow: code(gwbOp, "diagonal_mask_mode", "Col_NE_Row"),
  colGeRow: code(gwbOp, "diagonal_mask_mode", "Col_GE_Row"),
  colGtRow: code(gwbOp, "diagonal_mask_mode", "Col_GT_Row")
};
var GWB_OVR_MAX_NEG = code(gwbOp, "diagonal_mask_override_sel", "Max_Negative");
var GWB_COL_ZERO = code(gwbColMask, "col_override", "Zero");
var GWB_COL_MAX_NEG = code(gwbColMask, "col_override", "Max_Negative");
var VPU_SRC = {
  gpr: code(vpuInstr, "src1_sel", "GPR"),
  imm: code(vpuInstr, "src1_sel", "IMM"),
  in: code(vpuInstr, "src1_sel", "IN_FIFO"),
  cntr: code(vpuInstr, "src1_sel", "CNTR")
};
for (const [k, v] of Object.entries({ GPR: VPU_SRC.gpr, IMM: VPU_SRC.imm, IN_FIFO: VPU_SRC.in, CNTR: VPU_SRC.cntr }))
  if (code(vpuInstr, "src2_sel", k) !== v)
    throw new Error(`grammars/pyxis/vpu_instr.json: src1_sel and src2_sel encode ${k} differently (the VPU model decodes both with one table)`);
var VPU_CNTR_INCR = code(vpuInstr, "cntr_ctrl", "CNTR_CTRL_INCR");
var VPU_CNTR_DECR = code(vpuInstr, "cntr_ctrl", "CNTR_CTRL_DECR");
var VPU_CNTR_ZERO = code(vpuInstr, "cntr_ctrl", "CNTR_CTRL_SET_TO_0");
function dataTypeBits(t) {
  const f = t.byName.get("data_type");
  const bits = t.meta?.["data_type_bits"] ?? {};
  if (!f?.enum)
    throw new Error(`grammars/pyxis/${t.name}.json: no data_type enum`);
  const out = new Uint8Array(1 << f.width);
  for (const [name, c] of Object.entries(f.enum)) {
    const b = bits[name];
    if (b !== 8 && b !== 16)
      throw new Error(`grammars/pyxis/${t.name}.json: meta.data_type_bits.${name} must be 8 or 16`);
    out[c] = b;
  }
  return out;
}
var READ_DT_BITS = dataTypeBits(readOp);
var WRITE_DT_BITS = dataTypeBits(writeOp);
for (let c = 0; c < READ_DT_BITS.length; c++)
  if (READ_DT_BITS[c] !== WRITE_DT_BITS[c])
    throw new Error("grammars/pyxis: amem_read_op and amem_write_op give data_type codepoint " + c + " different widths");
var DT_IS_16 = READ_DT_BITS.map((b) => b === 16 ? 1 : 0);
function dataType(name) {
  return code(readOp, "data_type", name);
}
var modes = readOp.meta?.["indir_modes"] ?? {};
var indirModeCount = 1 << (readOp.byName.get("indir_mode")?.width ?? 2);
var INDIR_X32 = new Uint8Array(indirModeCount);
var INDIR_Y = new Uint8Array(indirModeCount);
var INDIR_Y_NONE = 0;
var INDIR_Y_MSBS = 1;
var INDIR_Y_2D = 2;
var INDIR_BASE_ITERS = new Uint8Array(indirModeCount);
var INDIR_X_STRIDE_ITER = Number(modes["x_stride_iter"]);
var INDIR_Y_STRIDE_ITER = Number(modes["y_stride_iter"]);
for (let m = 0; m < indirModeCount; m++) {
  const e = modes[String(m)];
  if (!e || e.x_index_bits !== 16 && e.x_index_bits !== 32 || !["none", "msbs", "2d"].includes(e.y_index))
    throw new Error(`grammars/pyxis/amem_read_op.json: meta.indir_modes.${m} must give x_index_bits (16/32) and y_index (none/msbs/2d)`);
  INDIR_X32[m] = e.x_index_bits === 32 ? 1 : 0;
  INDIR_Y[m] = e.y_index === "none" ? INDIR_Y_NONE : e.y_index === "msbs" ? INDIR_Y_MSBS : INDIR_Y_2D;
  INDIR_BASE_ITERS[m] = e.y_index === "2d" ? Math.min(INDIR_X_STRIDE_ITER, INDIR_Y_STRIDE_ITER) : INDIR_X_STRIDE_ITER;
}
if (!Number.isInteger(INDIR_X_STRIDE_ITER) || !Number.isInteger(INDIR_Y_STRIDE_ITER))
  throw new Error("grammars/pyxis/amem_read_op.json: meta.indir_modes needs x_stride_iter and y_stride_iter");
var INDIR_MODE_MASK = indirModeCount - 1;

// packages/target-pyxis/dist/sim/uie/convert.js
var { dataType: dataType2, DT_IS_16: DT_IS_162 } = codes_exports;
var DT_RFP8 = dataType2("Recogni_FP8");
var DT_OCP_E4M3 = dataType2("OCP_FP8_E4M3");
var DT_OCP_E5M2 = dataType2("OCP_FP8_E5M2");
var DT_OPAQUE8 = dataType2("Opaque_8bit");
var DT_RFP16 = dataType2("Recogni_FP16");
var DT_IEEE_FP16 = dataType2("IEEE_FP16");
var DT_OPAQUE16 = dataType2("Opaque_16bit");
function is16bit(dt) {
  return DT_IS_162[dt] === 1;
}
function extFormat(dt) {
  return dt === DT_OCP_E4M3 ? "OCP_E4M3" : dt === DT_OCP_E5M2 ? "OCP_E5M2" : dt === DT_IEEE_FP16 ? "IEEE_FP16" : void 0;
}
var IMPORT_OPTS = { saturate: true };
var EXPORT_OPTS = { saturate: true, maxToInf: false };
var IEEE_EXPORT_OPTS = { maxToInf: false };
var exportOpts = (ext) => ext === "IEEE_FP16" ? IEEE_EXPORT_OPTS : EXPORT_OPTS;
function widen(t) {
  return t instanceof Uint16Array ? t : Uint16Array.from(t);
}
function identityTable(n2) {
  const t = new Uint16Array(n2);
  for (let c = 0; c < n2; c++)
    t[c] = c;
  return t;
}
function lowByteTable() {
  const t = new Uint16Array(65536);
  for (let c = 0; c < 65536; c++)
    t[c] = c & 255;
  return t;
}
var scaleCache = /* @__PURE__ */ new Map();
function fp16ScaleTable(ebAdj) {
  let t = scaleCache.get(ebAdj);
  if (!t) {
    t = ebAdj === 0 ? identityTable(65536) : new Uint16Array(65536);
    if (ebAdj !== 0)
      for (let c = 0; c < 65536; c++)
        t[c] = fp16ToFp16(c, ebAdj);
    scaleCache.set(ebAdj, t);
  }
  return t;
}
var reluCache = /* @__PURE__ */ new Map();
function reluTable(dt) {
  let t = reluCache.get(dt);
  if (!t) {
    const fmt = dt === DT_RFP8 ? RFP8 : dt === DT_RFP16 ? RFP16 : void 0;
    const n2 = is16bit(dt) ? 65536 : 256;
    t = identityTable(n2);
    if (fmt) {
      const v = decodeTable(fmt, 0);
      for (let c = 0; c < n2; c++)
        if (v[c] < 0)
          t[c] = 0;
    }
    reluCache.set(dt, t);
  }
  return t;
}
function reluCode(code2, dt) {
  return reluTable(dt)[code2];
}
var to16Cache = /* @__PURE__ */ new Map();
var from16Cache = /* @__PURE__ */ new Map();
function to16Table(dt, ebAdj, relu) {
  const key = (dt * 64 + (ebAdj & 63)) * 2 + (relu ? 1 : 0);
  let t = to16Cache.get(key);
  if (!t) {
    let base2;
    const ext = extFormat(dt);
    if (dt === DT_RFP8)
      base2 = fp8ToFp16Table(ebAdj);
    else if (dt === DT_RFP16)
      base2 = fp16ScaleTable(ebAdj);
    else if (ext)
      base2 = importTable(ext, { ebAdj, ...IMPORT_OPTS });
    else
      base2 = identityTable(is16bit(dt) ? 65536 : 256);
    if (relu) {
      const r = reluTable(dt);
      t = new Uint16Array(base2.length);
      for (let c = 0; c < base2.length; c++)
        t[c] = base2[r[c]];
    } else
      t = base2;
    to16Cache.set(key, t);
  }
  return t;
}
function from16Table(dt, ebAdj) {
  const key = dt * 64 + (ebAdj & 63);
  let t = from16Cache.get(key);
  if (!t) {
    const ext = extFormat(dt);
    if (dt === DT_RFP8)
      t = widen(fp16ToFp8Table(ebAdj));
    else if (dt === DT_RFP16)
      t = fp16ScaleTable(ebAdj);
    else if (ext)
      t = Uint16Array.from(exportTable(ext, { ebAdj, ...exportOpts(ext) }));
    else if (dt === DT_OPAQUE8)
      t = lowByteTable();
    else
      t = identityTable(65536);
    from16Cache.set(key, t);
  }
  return t;
}
function convertTo16(code2, dt, ebAdj) {
  return to16Table(dt, ebAdj, false)[code2 & (is16bit(dt) ? 65535 : 255)];
}
function convertFrom16(code2, dt, ebAdj) {
  return from16Table(dt, ebAdj)[code2 & 65535];
}
function addCodes(a, b, dt) {
  switch (dt) {
    case DT_RFP8:
      return rfpAdd(RFP8, a, b, 0);
    case DT_RFP16:
      return rfpAdd(RFP16, a, b, 0);
    case DT_OPAQUE8:
      return a + b & 255;
    case DT_OPAQUE16:
      return a + b & 65535;
    default: {
      const ext = extFormat(dt);
      if (!ext)
        return a + b & 65535;
      const s = rfpAdd(RFP16, importToRfp16(ext, a, IMPORT_OPTS), importToRfp16(ext, b, IMPORT_OPTS), 0);
      return exportFromRfp16(ext, s, exportOpts(ext));
    }
  }
}
var compCache = /* @__PURE__ */ new Map();
function compositeKey(rdDt, rdEb, relu, wrDt, wrEb) {
  return (((rdDt * 64 + (rdEb & 63)) * 2 + (relu ? 1 : 0)) * 8 + wrDt) * 64 + (wrEb & 63);
}
function compositeTable(rdDt, rdEb, relu, wrDt, wrEb) {
  const key = compositeKey(rdDt, rdEb, relu, wrDt, wrEb);
  let c = compCache.get(key);
  if (!c) {
    const a = to16Table(rdDt, rdEb, relu);
    const b = from16Table(wrDt, wrEb);
    const t = new Uint16Array(a.length);
    let identity = true;
    for (let i = 0; i < a.length; i++) {
      t[i] = b[a[i]];
      if (t[i] !== i)
        identity = false;
    }
    c = { table: t, identity };
    compCache.set(key, c);
  }
  return c;
}

// packages/target-pyxis/dist/sim/uie/itfe.js
var Itfe = class {
  name;
  amem;
  client;
  x;
  y;
  active = false;
  cmd = { indir_mode: 0, x_table_base_addr: 0, y_table_base_addr: 0, bank_hash_dsbl: 0, num_indices_per_table_m1: 0, repeat_count_m1: 0 };
  rep = 0;
  posX = 0;
  posY = 0;
  nextY = false;
  /** Index values pushed per table during the current command. */
  fetched = 0;
  /** 128-byte AMEM reads issued (stats). */
  reads = 0;
  bytesRead = 0;
  buf = new Uint8Array(128);
  /** Cycle at which a read refused for a held bank port may be retried (amem/banks.ts); 0 when none. */
  wakeAt = 0;
  constructor(name, amem, fifoDepth, client = -1) {
    this.name = name;
    this.amem = amem;
    this.client = client;
    this.x = new Fifo(`${name}.x_index`, fifoDepth, 1);
    this.y = new Fifo(`${name}.y_index`, fifoDepth, 1);
  }
  /** Index values each table supplies over the whole command: num_indices_per_table * repeat_count (§8.1 note). */
  get totalPerTable() {
    return (this.cmd.num_indices_per_table_m1 + 1) * (this.cmd.repeat_count_m1 + 1);
  }
  get usesY() {
    return INDIR_Y[this.cmd.indir_mode & INDIR_MODE_MASK] !== INDIR_Y_NONE;
  }
  get finished() {
    return !this.active;
  }
  /** Starts a command for a new trip; FIFOs are flushed (leftovers were diagnosed at the previous trip's end). */
  start(cmd) {
    this.cmd = cmd;
    this.rep = 0;
    this.posX = 0;
    this.posY = 0;
    this.nextY = false;
    this.fetched = 0;
    this.x.clear();
    this.y.clear();
    this.active = true;
  }
  stop() {
    this.active = false;
  }
  /** One cycle: at most one 128-byte table read. Returns true if it read. */
  tick(now = 0) {
    if (!this.active)
      return false;
    this.wakeAt = 0;
    const n2 = this.cmd.num_indices_per_table_m1 + 1;
    const elem = INDIR_X32[this.cmd.indir_mode & INDIR_MODE_MASK] ? 4 : 2;
    const perRead = 128 / elem;
    const useY = this.usesY && this.nextY && this.posY < n2;
    const fifo = useY ? this.y : this.x;
    const pos = useY ? this.posY : this.posX;
    if (pos >= n2) {
      this.nextY = !this.nextY;
      return this.advanceRep(n2);
    }
    const cnt = Math.min(perRead, n2 - pos);
    if (fifo.credits < cnt)
      return false;
    const base2 = ((useY ? this.cmd.y_table_base_addr : this.cmd.x_table_base_addr) << 7) + pos * elem;
    const addr = base2 | (this.cmd.bank_hash_dsbl ? AMEM_VIEW_BIT : 0);
    const bytes = cnt * elem;
    if (this.client >= 0 && !this.amem.banks.claim(this.client, now, addr, bytes + 15 >> 4)) {
      this.wakeAt = this.amem.banks.freeAt[this.client];
      return false;
    }
    for (let o = 0; o < bytes; o += 16)
      this.amem.readPartition(addr + o, this.buf, o);
    this.reads++;
    this.bytesRead += bytes;
    for (let i = 0; i < cnt; i++) {
      const v = elem === 4 ? this.buf[4 * i] | this.buf[4 * i + 1] << 8 | this.buf[4 * i + 2] << 16 | this.buf[4 * i + 3] << 24 : this.buf[2 * i] | this.buf[2 * i + 1] << 8;
      fifo.push(v);
    }
    if (useY)
      this.posY += cnt;
    else {
      this.posX += cnt;
      this.fetched += cnt;
    }
    if (this.usesY)
      this.nextY = !this.nextY;
    this.advanceRep(n2);
    return true;
  }
  advanceRep(n2) {
    if (this.posX >= n2 && (!this.usesY || this.posY >= n2)) {
      this.rep++;
      this.posX = 0;
      this.posY = 0;
      this.nextY = false;
      if (this.rep > this.cmd.repeat_count_m1)
        this.active = false;
    }
    return false;
  }
};

// packages/target-pyxis/dist/sim/uie/switchbox.js
var switchbox_exports = {};
__export(switchbox_exports, {
  SB_META: () => SB_META,
  SwitchboxFifo: () => SwitchboxFifo,
  convertLanesTo16: () => convertLanesTo16,
  headWaiting: () => headWaiting
});
var SB_META = 4;
var SwitchboxFifo = class extends Fifo {
  /** Entry k: 128 RFP16 columns at [k*128, k*128+128) (when not deferred). */
  flits;
  /** Entry k: 256 lane bytes at [k*256, k*256+256) (when deferred). */
  raw;
  raw32;
  meta;
  /** Per entry k: a view of raw32[k*64, k*64+32) (the 128 lane bytes of an 8-bit flit), for block moves without allocation. */
  rawWordView;
  /**
   * Per entry: the first cycle its data may be consumed (docs/timing-model.md "AMEM banks": an AMEM Read flit is pushed
   * in its issue cycle and is there request_shim + read_latency + switch_convert cycles after its bank access). The
   * one producer of the AMEM-read FIFOs stamps it (readPath.ts); every consumer asks `headReadyAt` (0: no latency).
   */
  readyAt;
  constructor(name, depth) {
    super(name, depth, 1);
    this.readyAt = new Float64Array(depth);
    this.flits = new Uint16Array(depth * 128);
    this.raw = new Uint8Array(depth * 256);
    this.raw32 = new Uint32Array(this.raw.buffer);
    this.meta = new Int32Array(depth * SB_META);
    this.rawWordView = [];
    for (let k = 0; k < depth; k++)
      this.rawWordView.push(this.raw32.subarray(k * 64, k * 64 + 32));
  }
  /** The cycle the head entry's data is there (`readyAt`); the FIFO must not be empty. */
  headReadyAt() {
    return this.readyAt[this.peekSlot()];
  }
  /** Pushes 128 RFP16 columns from src[base..]; false (stall counted) when there is no credit. */
  pushColumns(src, base2 = 0) {
    const slot = this.pushSlot();
    if (slot < 0)
      return false;
    for (let c = 0; c < 128; c++)
      this.flits[slot * 128 + c] = src[base2 + c];
    this.meta[slot * SB_META] = 0;
    return true;
  }
  /** The head entry's 128 RFP16 columns into dst[base..] (deferred conversions applied). Head must exist. */
  headColumns(dst, base2 = 0) {
    const slot = this.peekSlot();
    const m = slot * SB_META;
    if (this.meta[m] !== 1) {
      for (let c = 0; c < 128; c++)
        dst[base2 + c] = this.flits[slot * 128 + c];
      return;
    }
    const dt = this.meta[m + 1];
    convertLanesTo16(to16Table(dt, this.meta[m + 2], this.meta[m + 3] === 1), this.raw, slot * 256, is16bit(dt), dst, base2);
  }
};
function headWaiting(sb, now, w) {
  const r = sb.readyAt[sb.peekSlot()];
  if (r <= now)
    return false;
  if (r < w.portWake)
    w.portWake = r;
  return true;
}
function convertLanesTo16(tab, l, lb, wide, dst, base2) {
  if (!wide) {
    for (let c = 0; c < 128; c++)
      dst[base2 + c] = tab[l[lb + c]];
    return;
  }
  for (let o = 0; o < 8; o++) {
    const b0 = lb + o * 16;
    const d0 = base2 + o * 16;
    for (let i = 0; i < 8; i++) {
      dst[d0 + i] = tab[l[b0 + 2 * i] | l[b0 + 2 * i + 1] << 8];
      dst[d0 + 8 + i] = tab[l[128 + b0 + 2 * i] | l[128 + b0 + 2 * i + 1] << 8];
    }
  }
}

// packages/target-pyxis/dist/sim/uie/opFields.js
var opFields_exports = {};
__export(opFields_exports, {
  READ_FIELDS: () => READ_FIELDS,
  ReadFieldArrays: () => ReadFieldArrays,
  WEIGHTS_FIELDS: () => WEIGHTS_FIELDS,
  WRITE_FIELDS: () => WRITE_FIELDS,
  WeightsFieldArrays: () => WeightsFieldArrays,
  WriteFieldArrays: () => WriteFieldArrays,
  bindSeq: () => bindSeq,
  buildTemplates: () => buildTemplates,
  iterVal: () => iterVal
});

// packages/target-pyxis/dist/sim/uie/records.js
var records_exports = {};
__export(records_exports, {
  AUX_WORDS: () => AUX_WORDS,
  A_CONST: () => A_CONST,
  A_CSW_BASE: () => A_CSW_BASE,
  A_CSW_ITER_ID: () => A_CSW_ITER_ID,
  A_CSW_ITER_STRIDE: () => A_CSW_ITER_STRIDE,
  A_CSW_VLD: () => A_CSW_VLD,
  A_ENDPAD: () => A_ENDPAD,
  A_FLAGS: () => A_FLAGS,
  A_INDIR: () => A_INDIR,
  A_NBASE_INDIR: () => A_NBASE_INDIR,
  A_NZ: () => A_NZ,
  A_NZ_INDIR: () => A_NZ_INDIR,
  A_OFFSET: () => A_OFFSET,
  A_OPCD: () => A_OPCD,
  A_PADMASK: () => A_PADMASK,
  A_PSW_ITER_ID: () => A_PSW_ITER_ID,
  A_PSW_ITER_STRIDE: () => A_PSW_ITER_STRIDE,
  A_STARTPAD: () => A_STARTPAD,
  A_STRIDE: () => A_STRIDE,
  CHIP_SPEC_F: () => CHIP_SPEC_F,
  F_EOP: () => F_EOP,
  F_INDIR: () => F_INDIR,
  F_PAD: () => F_PAD,
  F_PF: () => F_PF,
  F_POP: () => F_POP,
  F_ROT: () => F_ROT,
  MODE_SHIFT: () => MODE_SHIFT,
  NUM_SEQUENCERS: () => NUM_SEQUENCERS,
  PTN_MASK: () => PTN_MASK,
  REC_WORDS: () => REC_WORDS,
  RW_ACTIVE: () => RW_ACTIVE,
  R_ADDR: () => R_ADDR,
  R_COLOFF: () => R_COLOFF,
  R_CONST: () => R_CONST,
  R_CSW: () => R_CSW,
  R_DT: () => R_DT,
  R_EB: () => R_EB,
  R_FIFO: () => R_FIFO,
  R_FLAGS: () => R_FLAGS,
  R_MASK: () => R_MASK,
  R_N: () => R_N,
  R_OP: () => R_OP,
  R_PC: () => R_PC,
  R_PSWBASE: () => R_PSWBASE,
  R_PSWITER: () => R_PSWITER,
  R_RMW: () => R_RMW,
  R_SLOT: () => R_SLOT,
  R_SX: () => R_SX,
  R_SY: () => R_SY,
  R_VIEW: () => R_VIEW,
  R_ZSW: () => R_ZSW,
  SB_AMEM: () => SB_AMEM,
  SB_GRID: () => SB_GRID,
  SB_VBUFFER: () => SB_VBUFFER,
  SEQ_AMEM_READ: () => SEQ_AMEM_READ,
  SEQ_AMEM_WEIGHTS_READ: () => SEQ_AMEM_WEIGHTS_READ,
  SEQ_AMEM_WRITE: () => SEQ_AMEM_WRITE,
  SEQ_QUEUE: () => SEQ_QUEUE,
  SEQ_SPEC: () => SEQ_SPEC2,
  SIGMA_INV: () => SIGMA_INV,
  TRIP_SLOTS: () => TRIP_SLOTS,
  UieCodes: () => UieCodes,
  WIDE_PERM_HI: () => WIDE_PERM_HI,
  WIDE_PERM_LO: () => WIDE_PERM_LO
});
var SEQ_SPEC2 = "pyxis-uie-sequencers-fspec.md";
var CHIP_SPEC_F = "pyxis-chip-fspec.md";
var UieCodes = {
  itfeCount: "SIM0601",
  oddPartition16: "SIM0602",
  colRange: "SIM0603",
  rmwBank: "SIM0604",
  pcOverflow: "SIM0605",
  itfeStarved: "SIM0606",
  viewConflict: "SIM0607",
  unmodelled: "SIM0608",
  indirMode: "SIM0609",
  weightsAlign: "SIM0611"
};
function seqId(name) {
  const s = loadMemoryMap().byName.get(name);
  if (!s)
    throw new Error(`grammars/pyxis/memory_map.json has no sequencer \`${name}\``);
  return s.id;
}
var SEQ_AMEM_READ = seqId("amem_read");
var SEQ_AMEM_WRITE = seqId("amem_write");
var SEQ_AMEM_WEIGHTS_READ = seqId("amem_weights_read");
var NUM_SEQUENCERS = loadMemoryMap().sequencers.length;
var RW_ACTIVE = 1 << SEQ_AMEM_READ | 1 << SEQ_AMEM_WRITE;
var SB_GRID = TGT_GRID;
var SB_VBUFFER = TGT_VBUFFER;
var SB_AMEM = TGT_AMEM;
var R_OP = 0;
var R_ADDR = 1;
var R_VIEW = 2;
var R_DT = 3;
var R_FIFO = 4;
var R_CONST = 5;
var R_N = 6;
var R_FLAGS = 7;
var R_PSWBASE = 8;
var R_PSWITER = 9;
var R_CSW = 10;
var R_MASK = 11;
var R_ZSW = 12;
var R_EB = 13;
var R_SLOT = 14;
var R_COLOFF = 15;
var R_SX = 16;
var R_SY = 17;
var R_PC = 18;
var R_RMW = 19;
var REC_WORDS = 20;
var F_INDIR = 1;
var F_POP = 8;
var F_EOP = 16;
var F_PAD = 32;
var F_ROT = 64;
var F_PF = 128;
var MODE_SHIFT = 1;
var PTN_MASK = AMEM_BYTES / AMEM_PARTITION_BYTES - 1;
var SIGMA_INV = [0, 2, 4, 6, 1, 3, 5, 7];
var WIDE_PERM_LO = Uint8Array.from({ length: 8 }, (_, j) => (j & 1) * 8 + SIGMA_INV[j >> 1]);
var WIDE_PERM_HI = Uint8Array.from({ length: 8 }, (_, j) => (j & 1) * 8 + SIGMA_INV[4 + (j >> 1)]);
var TRIP_SLOTS = 3;
var SEQ_QUEUE = 2;
var A_OPCD = 0;
var A_FLAGS = 1;
var A_CONST = 2;
var A_PADMASK = 3;
var A_STARTPAD = 4;
var A_ENDPAD = 5;
var A_INDIR = 6;
var A_NBASE_INDIR = 7;
var A_OFFSET = 8;
var A_PSW_ITER_ID = 9;
var A_PSW_ITER_STRIDE = 10;
var A_CSW_VLD = 11;
var A_CSW_BASE = 12;
var A_CSW_ITER_ID = 13;
var A_CSW_ITER_STRIDE = 14;
var A_STRIDE = 15;
var A_NZ = A_STRIDE + NUM_ITERS;
var A_NZ_INDIR = A_NZ + 1;
var AUX_WORDS = A_NZ_INDIR + 1;

// packages/target-pyxis/dist/sim/uie/opFields.js
var tmplSerial = 0;
var READ_FIELDS = [
  "opcd",
  "data_type",
  "tgt_fifo",
  "amem_addr_offset",
  "iter_stride",
  "indir_vld",
  "indir_mode",
  "indir_fifo_pop_enbl",
  "rd_const_value",
  "num_logical_ptns",
  "start_row_pad",
  "end_row_pad",
  "pad_row_iter_mask",
  "rpsw_config_idx_base",
  "rpsw_rot_enbl",
  "rpsw_config_iter_id",
  "rpsw_config_iter_stride",
  "rpsw_config_vld",
  "rcsw_switch_config_idx_base",
  "rcsw_switch_config_iter_id",
  "rcsw_switch_config_iter_stride",
  "rcsw_switch_config_vld",
  "rcsw_col_mask_config_idx",
  "rzsw_config",
  "eb_adj"
];
var WRITE_FIELDS = [
  "opcd",
  "data_type",
  "src_fifo",
  "amem_addr_offset",
  "iter_stride",
  "indir_vld",
  "indir_mode",
  "indir_fifo_pop_enbl",
  "rmw_rd_addr_offset",
  "logical_col_offset",
  "num_logical_cols",
  "wpsw_config_idx_base",
  "wpsw_rot_enbl",
  "wpsw_config_iter_id",
  "wpsw_config_iter_stride",
  "wpsw_config_vld",
  "wcsw_switch_config_idx_base",
  "wcsw_switch_config_iter_id",
  "wcsw_switch_config_iter_stride",
  "wcsw_switch_config_vld",
  "wcsw_col_mask_config_idx",
  "wzsw_config",
  "eb_adj"
];
var WEIGHTS_FIELDS = ["opcd", "num_ptns", "is_16bit", "amem_addr_offset", "iter_stride", "wdc_type"];
var NO_FIELD = new Int32Array(0);
var ReadFieldArrays = class {
  opcd = NO_FIELD;
  data_type = NO_FIELD;
  tgt_fifo = NO_FIELD;
  amem_addr_offset = NO_FIELD;
  iter_stride = NO_FIELD;
  indir_vld = NO_FIELD;
  indir_mode = NO_FIELD;
  indir_fifo_pop_enbl = NO_FIELD;
  rd_const_value = NO_FIELD;
  num_logical_ptns = NO_FIELD;
  start_row_pad = NO_FIELD;
  end_row_pad = NO_FIELD;
  pad_row_iter_mask = NO_FIELD;
  rpsw_config_idx_base = NO_FIELD;
  rpsw_rot_enbl = NO_FIELD;
  rpsw_config_iter_id = NO_FIELD;
  rpsw_config_iter_stride = NO_FIELD;
  rpsw_config_vld = NO_FIELD;
  rcsw_switch_config_idx_base = NO_FIELD;
  rcsw_switch_config_iter_id = NO_FIELD;
  rcsw_switch_config_iter_stride = NO_FIELD;
  rcsw_switch_config_vld = NO_FIELD;
  rcsw_col_mask_config_idx = NO_FIELD;
  rzsw_config = NO_FIELD;
  eb_adj = NO_FIELD;
};
var WriteFieldArrays = class {
  opcd = NO_FIELD;
  data_type = NO_FIELD;
  src_fifo = NO_FIELD;
  amem_addr_offset = NO_FIELD;
  iter_stride = NO_FIELD;
  indir_vld = NO_FIELD;
  indir_mode = NO_FIELD;
  indir_fifo_pop_enbl = NO_FIELD;
  rmw_rd_addr_offset = NO_FIELD;
  logical_col_offset = NO_FIELD;
  num_logical_cols = NO_FIELD;
  wpsw_config_idx_base = NO_FIELD;
  wpsw_rot_enbl = NO_FIELD;
  wpsw_config_iter_id = NO_FIELD;
  wpsw_config_iter_stride = NO_FIELD;
  wpsw_config_vld = NO_FIELD;
  wcsw_switch_config_idx_base = NO_FIELD;
  wcsw_switch_config_iter_id = NO_FIELD;
  wcsw_switch_config_iter_stride = NO_FIELD;
  wcsw_switch_config_vld = NO_FIELD;
  wcsw_col_mask_config_idx = NO_FIELD;
  wzsw_config = NO_FIELD;
  eb_adj = NO_FIELD;
};
var WeightsFieldArrays = class {
  opcd = NO_FIELD;
  num_ptns = NO_FIELD;
  is_16bit = NO_FIELD;
  amem_addr_offset = NO_FIELD;
  iter_stride = NO_FIELD;
  wdc_type = NO_FIELD;
};
function bindFields(op, names, o) {
  for (const n2 of names)
    o[n2] = op.field(n2);
  return o;
}
function bindSeq(s) {
  if (!s.op)
    return;
  if (s.id === SEQ_AMEM_READ) {
    const f = s.rf = bindFields(s.op, READ_FIELDS, new ReadFieldArrays());
    s.usesPsw = f.rpsw_config_vld.some((v) => v !== 0);
    s.usesCsw = f.rcsw_switch_config_vld.some((v) => v !== 0);
    buildTemplates(s, f, true);
  } else if (s.id === SEQ_AMEM_WRITE) {
    const f = s.wf = bindFields(s.op, WRITE_FIELDS, new WriteFieldArrays());
    s.usesPsw = f.wpsw_config_vld.some((v) => v !== 0);
    s.usesCsw = f.wcsw_switch_config_vld.some((v) => v !== 0);
    buildTemplates(s, f, false);
  } else if (s.id === SEQ_AMEM_WEIGHTS_READ)
    s.kf = bindFields(s.op, WEIGHTS_FIELDS, new WeightsFieldArrays());
}
function iterVal(counts, id) {
  return id < NUM_ITERS ? counts[id] : 0;
}
function buildTemplates(s, f, read) {
  const tmpl = new Int32Array(SEQ_DEPTH * REC_WORDS);
  const aux = new Int32Array(SEQ_DEPTH * AUX_WORDS);
  for (let pc = 0; pc < SEQ_DEPTH; pc++) {
    const t = pc * REC_WORDS;
    const b = pc * AUX_WORDS;
    const r = read ? f : void 0;
    const w = read ? void 0 : f;
    const strides = f.iter_stride;
    tmpl[t + R_DT] = f.data_type[pc];
    tmpl[t + R_FIFO] = r ? r.tgt_fifo[pc] : w.src_fifo[pc];
    tmpl[t + R_N] = r ? r.num_logical_ptns[pc] : w.num_logical_cols[pc];
    tmpl[t + R_COLOFF] = w ? w.logical_col_offset[pc] : 0;
    tmpl[t + R_PSWBASE] = r ? r.rpsw_config_vld[pc] ? r.rpsw_config_idx_base[pc] : -1 : w.wpsw_config_vld[pc] ? w.wpsw_config_idx_base[pc] : -1;
    tmpl[t + R_CSW] = -1;
    tmpl[t + R_MASK] = r ? r.rcsw_col_mask_config_idx[pc] : w.wcsw_col_mask_config_idx[pc];
    tmpl[t + R_ZSW] = r ? r.rzsw_config[pc] : w.wzsw_config[pc];
    tmpl[t + R_EB] = f.eb_adj[pc];
    tmpl[t + R_SX] = strides[pc * NUM_ITERS + INDIR_X_STRIDE_ITER] & 65535;
    tmpl[t + R_SY] = strides[pc * NUM_ITERS + INDIR_Y_STRIDE_ITER] & 65535;
    tmpl[t + R_PC] = pc;
    tmpl[t + R_RMW] = w ? w.rmw_rd_addr_offset[pc] : 0;
    aux[b + A_OPCD] = f.opcd[pc];
    aux[b + A_FLAGS] = (r ? r.rpsw_rot_enbl[pc] : w.wpsw_rot_enbl[pc]) ? F_ROT : 0;
    aux[b + A_CONST] = r ? r.rd_const_value[pc] : 0;
    aux[b + A_PADMASK] = r ? r.pad_row_iter_mask[pc] : 0;
    aux[b + A_STARTPAD] = r ? r.start_row_pad[pc] : 0;
    aux[b + A_ENDPAD] = r ? r.end_row_pad[pc] : 0;
    const mode = f.indir_mode[pc];
    aux[b + A_INDIR] = f.indir_vld[pc] !== 0 ? F_INDIR | mode << MODE_SHIFT | (f.indir_fifo_pop_enbl[pc] ? F_POP : 0) : 0;
    aux[b + A_NBASE_INDIR] = INDIR_BASE_ITERS[mode];
    aux[b + A_OFFSET] = f.amem_addr_offset[pc];
    aux[b + A_PSW_ITER_ID] = r ? r.rpsw_config_iter_id[pc] : w.wpsw_config_iter_id[pc];
    aux[b + A_PSW_ITER_STRIDE] = r ? r.rpsw_config_iter_stride[pc] : w.wpsw_config_iter_stride[pc];
    aux[b + A_CSW_VLD] = r ? r.rcsw_switch_config_vld[pc] : w.wcsw_switch_config_vld[pc];
    aux[b + A_CSW_BASE] = r ? r.rcsw_switch_config_idx_base[pc] : w.wcsw_switch_config_idx_base[pc];
    aux[b + A_CSW_ITER_ID] = r ? r.rcsw_switch_config_iter_id[pc] : w.wcsw_switch_config_iter_id[pc];
    aux[b + A_CSW_ITER_STRIDE] = r ? r.rcsw_switch_config_iter_stride[pc] : w.wcsw_switch_config_iter_stride[pc];
    let nz = 0;
    for (let i = 0; i < NUM_ITERS; i++) {
      aux[b + A_STRIDE + i] = strides[pc * NUM_ITERS + i] & 65535;
      if (aux[b + A_STRIDE + i] !== 0)
        nz |= 1 << i;
    }
    aux[b + A_NZ] = nz;
    aux[b + A_NZ_INDIR] = nz & (1 << aux[b + A_NBASE_INDIR]) - 1;
  }
  s.tmpl = tmpl;
  s.aux = aux;
  s.tmplId = ++tmplSerial;
}

// packages/target-pyxis/dist/sim/uie/decodeCache.js
var CACHE_ENTRIES = 16;
var cache3 = [];
var nextEntry = 0;
function sameBytes(a, b) {
  if (a.length !== b.length)
    return false;
  for (let i = 0; i < a.length; i++)
    if (a[i] !== b[i])
      return false;
  return true;
}
function copyControl(src, dst, d) {
  const n2 = d * NUM_ITERS;
  for (const k of ["isEol", "solPc", "numloops", "numloopsFinal", "finalIterMask", "postFinalEn"])
    dst[k].set(src[k].subarray(0, n2));
  dst.eopgm.set(src.eopgm.subarray(0, d));
}
function copyOp(t, src, dst, d) {
  for (const f of t.fields)
    if (!f.reserved)
      dst.field(f.name).set(src.field(f.name).subarray(0, d * f.count));
}
function decodeMicrocode(ct, ot, rawCtl, ctlStride, rawOp, opStride, control, op) {
  const dc = Math.min(SEQ_DEPTH, Math.floor(rawCtl.length / ctlStride));
  const dop = Math.min(SEQ_DEPTH, Math.floor(rawOp.length / opStride));
  if (control.depth === SEQ_DEPTH && (!op || op.depth === SEQ_DEPTH))
    for (const e2 of cache3) {
      if (e2.ct !== ct || e2.ot !== ot || e2.ctlStride !== ctlStride || e2.opStride !== opStride || !sameBytes(e2.ctl, rawCtl) || !sameBytes(e2.op, rawOp))
        continue;
      copyControl(e2.control, control, dc);
      if (!ot || !e2.opStore)
        return { control, op };
      const o2 = op ?? new OpStore(ot, SEQ_DEPTH);
      copyOp(ot, e2.opStore, o2, dop);
      return { control, op: o2 };
    }
  const c = decodeControlStore(ct, rawCtl, SEQ_DEPTH, ctlStride, control);
  const o = ot ? decodeOpStore(ot, rawOp, SEQ_DEPTH, opStride, op) : op;
  const e = { ct, ot, ctlStride, opStride, ctl: rawCtl.slice(), op: rawOp.slice(), control: emptyControlStore(SEQ_DEPTH), opStore: void 0 };
  copyControl(c, e.control, dc);
  if (ot && o) {
    e.opStore = new OpStore(ot, SEQ_DEPTH);
    copyOp(ot, o, e.opStore, dop);
  }
  cache3[nextEntry] = e;
  nextEntry = (nextEntry + 1) % CACHE_ENTRIES;
  return { control: c, op: o };
}

// packages/target-pyxis/dist/sim/uie/config.js
function tryTable(name) {
  if (!name)
    return void 0;
  try {
    return loadTable("pyxis", name);
  } catch {
    return void 0;
  }
}
function sameBytes2(a, b) {
  if (a.length !== b.length)
    return false;
  for (let i = 0; i < a.length; i++)
    if (a[i] !== b[i])
      return false;
  return true;
}
var UieConfig = class {
  cfg;
  /** Memory-map entries of the sequencers, by sequencer id. */
  seqMem = [];
  /** Byte offset of this UIE's block in the config space. */
  base;
  /** `Infinity` once switch tables were installed directly (`Uie.loadSwitchTables`): cfg is no longer read for them. */
  swGen = -1;
  /** ITFE command registers set directly (tests/tools without a cfg space), by side and index 0..3. */
  itfeOverride = { read: [], write: [] };
  scratch = new Uint8Array(0);
  /** Last decoded raw bytes and cfg generation of the switch-table parts, index side * 3 + [psw, csw, mask]. */
  rawSw = [];
  swGens = new Float64Array(6).fill(-1);
  /** Memory-map regions and codec tables of each side's switch configuration (looked up once). */
  swLayout = [void 0, void 0];
  constructor(cfg, index, cfgBase) {
    this.cfg = cfg;
    const mm = loadMemoryMap();
    for (const s of mm.sequencers)
      this.seqMem[s.id] = s;
    this.base = cfgBase ?? index * mm.uieStride;
  }
  /** Config-space address of sequencer `id`'s op memory (for diagnostics' spans) and its word stride. */
  opAddr(id) {
    return this.base + (this.seqMem[id]?.op.offset ?? 0);
  }
  opStride(id) {
    return this.seqMem[id]?.op.stride ?? 0;
  }
  region(name) {
    return loadMemoryMap().regions.get(name);
  }
  /** Reads `len` cfg bytes into a reusable scratch view (valid until the next call). */
  readInto(offset, len) {
    if (this.scratch.length < len)
      this.scratch = new Uint8Array(len);
    const v = this.scratch.subarray(0, len);
    this.cfg?.read(this.base + offset, v, 0, len);
    return v;
  }
  read(offset, len) {
    const b = new Uint8Array(len);
    this.cfg?.read(this.base + offset, b, 0, len);
    return b;
  }
  /** Decodes a sequencer's control/op memories from cfg when they changed (generation check), then rebinds it. */
  decodeSeq(s) {
    if (!this.cfg || s.gen === Number.POSITIVE_INFINITY)
      return;
    const gen = this.cfg.generation ?? -2;
    if (gen === s.gen && gen !== -2)
      return;
    const m = this.seqMem[s.id];
    if (!m || !s.controlTable)
      return;
    s.gen = gen;
    const ctl = this.readInto(m.ctrl.offset, m.ctrl.stride * m.ctrl.words);
    if (s.rawCtl && sameBytes2(ctl, s.rawCtl)) {
      const opb = this.readInto(m.op.offset, m.op.stride * m.op.words);
      if (s.rawOp && sameBytes2(opb, s.rawOp))
        return;
    }
    s.rawCtl = this.read(m.ctrl.offset, m.ctrl.stride * m.ctrl.words);
    s.rawOp = this.read(m.op.offset, m.op.stride * m.op.words);
    const d = decodeMicrocode(s.controlTable, s.opTable, s.rawCtl, m.ctrl.stride, s.rawOp, m.op.stride, s.control, s.op);
    s.control = d.control;
    if (s.opTable)
      s.op = d.op;
    bindSeq(s);
  }
  /**
   * Re-decodes one side's switch tables (0 = read: RPSW/RCSW/mask, 1 = write: WPSW/WCSW/mask) into `into`, part by
   * part, when the cfg generation moved and the bytes changed. The PSW/CSW tables (6.5 KiB) are only looked at when
   * the program can select an entry (`usesPsw` / `usesCsw`) or an entry selected earlier is still held (`pswHeld` /
   * `cswHeld`); the column masks (used by every flit) always.
   */
  decodeSwitches(side, usesPsw, usesCsw, pswHeld, cswHeld, into) {
    if (!this.cfg || this.swGen === Number.POSITIVE_INFINITY)
      return;
    const L = this.swLayout[side] ??= this.switchLayout(side === 0 ? "r" : "w");
    if (!L)
      return;
    const gen = this.cfg.generation ?? -2;
    if (usesPsw || pswHeld)
      this.syncSwitchPart(side * 3, L.psw, gen, L, into);
    if (usesCsw || cswHeld)
      this.syncSwitchPart(side * 3 + 1, L.csw, gen, L, into);
    this.syncSwitchPart(side * 3 + 2, L.mask, gen, L, into);
  }
  /** Part k (side * 3 + [psw, csw, mask]): compare cfg bytes with the last decoded ones (no allocation), decode if changed. */
  syncSwitchPart(k, r, gen, L, into) {
    if (gen === this.swGens[k] && gen !== -2)
      return;
    this.swGens[k] = gen;
    const len = r.stride * r.words;
    const prev = this.rawSw[k];
    if (prev && sameBytes2(this.readInto(r.offset, len), prev))
      return;
    const raw = this.read(r.offset, len);
    this.rawSw[k] = raw;
    const part = k % 3;
    decodeSwitchTables({ psw: L.tp, csw: L.tc, mask: L.tm }, part === 0 ? { psw: raw } : part === 1 ? { csw: raw } : { mask: raw }, into, { psw: L.psw.stride, csw: L.csw.stride, mask: L.mask.stride });
  }
  switchLayout(side) {
    const psw = this.region(`${side}psw.config`);
    const csw2 = this.region(`${side}csw.config`);
    const mask = this.region(`${side}csw.col_mask`);
    const tp = tryTable(psw?.table);
    const tc = tryTable(csw2?.table);
    const tm = tryTable(mask?.table);
    if (!psw || !csw2 || !mask || !tp || !tc || !tm)
      return null;
    return { psw, csw: csw2, mask, tp, tc, tm };
  }
  regionCache = /* @__PURE__ */ new Map();
  /**
   * A configuration table of this UIE's block (memory_map.json region `name`, e.g. `gwb.col_mask`, `wdp.zero_mask`):
   * its raw bytes, word stride, word count and codec table; re-read only when the cfg generation moved. Decode it with
   * @pyxis/codec's `readField(table, bytes, field, i, word * stride)`. Undefined without a cfg space or region.
   * `changed` is true on the first call and whenever the bytes were re-read (callers re-decode then).
   */
  regionBytes(name) {
    const r = this.region(name);
    const table3 = tryTable(r?.table);
    if (!r || !table3 || !this.cfg)
      return void 0;
    const gen = this.cfg.generation ?? -2;
    const c = this.regionCache.get(name);
    if (c && c.gen === gen && gen !== -2) {
      c.view.changed = false;
      return c.view;
    }
    const view = { bytes: this.read(r.offset, r.stride * r.words), stride: r.stride, words: r.words, table: table3, changed: true };
    this.regionCache.set(name, { gen, view });
    return view;
  }
  /** ITFE command register `idx` of one side (seq §8.1), decoded from cfg (or the direct override without cfg). */
  itfeCommand(side, idx) {
    const r = this.region(`itfe_${side}.cmd`);
    const t = tryTable(r?.table ?? "itfe_command");
    const cmd = { indir_mode: 0, x_table_base_addr: 0, y_table_base_addr: 0, bank_hash_dsbl: 0, num_indices_per_table_m1: 0, repeat_count_m1: 0 };
    if (!r || !t || !this.cfg)
      return this.itfeOverride[side][idx] ?? cmd;
    const buf = this.read(r.offset + idx * r.stride, r.stride);
    for (const k of Object.keys(cmd))
      if (t.byName.has(k))
        cmd[k] = Number(readField(t, buf, k));
    return cmd;
  }
};

// packages/target-pyxis/dist/sim/uie/commits.js
var CommitRing = class {
  latency;
  slots;
  /** Per ring entry: its commit cycle and its trip slot. */
  at;
  slot;
  mask;
  head = 0;
  /** Posted writes not yet committed. */
  count = 0;
  constructor(latency, slots) {
    this.latency = latency;
    this.slots = slots;
    let ring = 64;
    while (ring < 2 * latency + 16)
      ring *= 2;
    this.mask = ring - 1;
    this.at = new Float64Array(ring);
    this.slot = new Int8Array(ring);
  }
  /** The commit cycle of the oldest posted write (Infinity: none). */
  get nextAt() {
    return this.count > 0 ? this.at[this.head] : Infinity;
  }
  /** Commits the writes due at `now` (tick step 1); true when any did. */
  commitDue(now) {
    let did = false;
    while (this.count > 0 && this.at[this.head] <= now) {
      this.slots[this.slot[this.head]].writes--;
      this.head = this.head + 1 & this.mask;
      this.count--;
      did = true;
    }
    return did;
  }
  /** Posts `n` writes of trip slot `slot` issued at `now`. */
  post(slot, now, n2) {
    for (let i = 0; i < n2; i++) {
      if (this.count > this.mask) {
        this.slots[this.slot[this.head]].writes--;
        this.head = this.head + 1 & this.mask;
        this.count--;
      }
      const k = this.head + this.count & this.mask;
      this.at[k] = now + this.latency;
      this.slot[k] = slot;
      this.count++;
      this.slots[slot].writes++;
    }
  }
  /** The newest `n` posted writes commit `late` cycles later (their bank access was served late). */
  delayNewest(n2, late) {
    for (let i = 0; i < n2 && i < this.count; i++) {
      const k = this.head + this.count - 1 - i & this.mask;
      this.at[k] = this.at[k] + late;
    }
  }
  /**
   * K cycles c .. c + k - 1 of a steady-state batch (batchMove.ts): per cycle t the commits due at t, then one posted
   * write of trip slot `tripSlot`. Locals only; the trip's `writes` count takes the net of its pushes and pops at the
   * end (nothing reads it inside the window).
   */
  batch(c, k, tripSlot) {
    const commitAt = this.at;
    const commitSlot = this.slot;
    const cm = this.mask;
    const lat = this.latency;
    const slots = this.slots;
    let cHead = this.head;
    let cCount = this.count;
    let dTrip = k;
    let due = cCount > 0 ? commitAt[cHead] : Infinity;
    let pre = cCount;
    let j = 0;
    for (; j < k && pre > 0; j++) {
      const t = c + j;
      while (due <= t) {
        const s = commitSlot[cHead];
        if (s === tripSlot)
          dTrip--;
        else
          slots[s].writes--;
        cHead = cHead + 1 & cm;
        if (pre > 0)
          pre--;
        due = --cCount > 0 ? commitAt[cHead] : Infinity;
      }
      if (cCount > cm) {
        const s = commitSlot[cHead];
        if (s === tripSlot)
          dTrip--;
        else
          slots[s].writes--;
        cHead = cHead + 1 & cm;
        if (pre > 0)
          pre--;
        due = --cCount > 0 ? commitAt[cHead] : Infinity;
      }
      const q = cHead + cCount & cm;
      commitAt[q] = t + lat;
      commitSlot[q] = tripSlot;
      if (cCount++ === 0)
        due = t + lat;
    }
    if (j < k) {
      const L = lat > 1 ? lat : 1;
      const first = j - cCount;
      const from = k - L > first ? k - L : first;
      const popped = from - first;
      for (let i = from > j ? from : j; i < k; i++) {
        const q = cHead + (i - first) & cm;
        commitAt[q] = c + i + lat;
        commitSlot[q] = tripSlot;
      }
      dTrip -= popped;
      cHead = cHead + popped & cm;
      cCount = k - from;
    }
    slots[tripSlot].writes += dTrip;
    this.head = cHead;
    this.count = cCount;
  }
};

// packages/target-pyxis/dist/sim/uie/compute/hbuf.js
var GRID_ROWS = 16;
var HBUF_BYTES = 4096;
var Hbuf = class {
  /** Grid-row r, logical byte a: data[r * HBUF_BYTES + a]. */
  data = new Uint16Array(GRID_ROWS * HBUF_BYTES);
  /** hbuf_wr_credits (bytes per grid-row, seq §9.1.5); initialised to the full Hbuf size by hardware. */
  wrCredits = HBUF_BYTES;
  /** hbuf_rd_credits (bytes per grid-row, seq §10.1.2): blocks written and not yet consumed. */
  rdCredits = 0;
  /** hbuf_base of the writer (WDP) and of the reader (GH), bytes, wrapping modulo HBUF_BYTES. */
  wrBase = 0;
  rdBase = 0;
  /** Port-model check (tests, docs/timing-model.md "Pyxis weights path"); undefined in normal runs. */
  ports;
};

// packages/target-pyxis/dist/sim/uie/compute/accum.js
var SLOTS = 8;
var COLS = 128;
var ACC_WORDS = GRID_ROWS * SLOTS * COLS;
var Accumulators = class {
  /** Active accumulator (AA), MNS 5.1.13 values. */
  aa = new Float64Array(ACC_WORDS);
  /** Writeback accumulator (WBA), MNS 5.1.18 values. */
  wba = new Float64Array(ACC_WORDS);
  /**
   * Writebacks kicked by GX (a split with wb_kick) and not yet completed by GWB (wb_done). GX may not kick again,
   * nor run a split that writes the WBA, while one is pending, except through the writeback credits (seq §10.3.2).
   */
  wbPending = 0;
  /** Writeback credits GWB -> GX (seq §10.3.2): GX starts with 8; one per WBA slot a writeback-initiating split writes. */
  wbCredits = SLOTS;
  /** The next split is the first after a writeback: it reads the WBA as zero (seq §10.3.2, hardware-managed). */
  wbaReadsZero = true;
  /**
   * GX's view (docs/spec-notes.md "first split after a writeback"): the next split is the first after a
   * writeback kick (or the first ever), so it reads the WBA as zero and needs one writeback credit per slot it writes.
   * Set when a kicking split completes, cleared by the next split. GX uses this flag, not `wbaReadsZero`, because
   * the first split may overlap the tail of the offload (seq §10.3.2) and later splits must read the WBA.
   */
  firstSplit = true;
};

// packages/target-pyxis/dist/sim/uie/compute/llc.js
var ZERO_OP = 65536;
var NAN_OP = 98304;
var SIGN_OP = 262144;
var IDX_MASK = 262143;
var PX = SIGN_OP | IDX_MASK;
function buildTable(corr) {
  const t = new Float32Array(SIGN_OP + IDX_MASK + 1);
  const g = new Uint16Array(1024);
  for (let k = 0; k < 1024; k++)
    g[k] = log2linFraction(k, corr);
  for (let i = 0; i <= IDX_MASK; i++) {
    let v;
    if (i <= 65534)
      v = (1024 + g[i & 1023]) * pow2((i >>> 10) - 16 - 10);
    else if (i < 98304 || i === 131072)
      v = 0;
    else if (i < 131072 || i === 163840 || i === 196608)
      v = NaN;
    else
      v = 0;
    t[i] = v;
    t[SIGN_OP + i] = v === 0 ? 0 : -v;
  }
  return t;
}
var tables;
function productTables() {
  return tables ??= [buildTable(true), buildTable(false)];
}
function toOp(code2) {
  const mag = code2 & 32767;
  if (mag === 0)
    return code2 & 32768 ? NAN_OP : ZERO_OP;
  return code2 & 32768 ? mag | SIGN_OP : mag;
}
var I5F3_OP = new Int32Array(512);
for (let c = 0; c < 512; c++) {
  const mag = c & 255;
  I5F3_OP[c] = mag === 0 ? c & 256 ? NAN_OP : ZERO_OP : mag >>> 3 << 10 | (mag & 7) << 7 | (c & 256 ? SIGN_OP : 0);
}
var RI = 6755399441055744;
var G13 = mnsGrid(13);
var RC13 = G13.rc;
var MAX13 = G13.max;
var G18 = mnsGrid(18);
var RC18 = G18.rc;
var MAX18 = G18.max;
function finish(a, H, L) {
  if (a - a !== 0) {
    if (a !== a)
      return a;
    return H + L !== H + L ? NaN : a;
  }
  const fa = a + RI - RI;
  H += fa;
  L += a - fa;
  const s = H + L;
  const bv = s - H;
  const av = s - bv;
  const err = H - av + (L - bv);
  return mnsRoundWith(s, err, RC13, MAX13);
}
function finishS(a, S) {
  if (a - a !== 0) {
    if (a !== a)
      return a;
    return S !== S ? NaN : a;
  }
  const s = S + a;
  const bv = s - S;
  const av = s - bv;
  return mnsRoundWith(s, S - av + (a - bv), RC13, MAX13);
}
function opSpan(x, b, n2, st) {
  let lo2 = 99;
  let hi = -1;
  for (let i = 0; i < n2; i++) {
    const o = x[b + i * st];
    if ((o & 98304) !== 0)
      continue;
    const e = o >>> 10 & 31;
    if (e < lo2)
      lo2 = e;
    if (e > hi)
      hi = e;
  }
  return hi < 0 ? 0 : hi - lo2;
}
var SPAN_EXACT = 37;
function llcRow1x1(T, h, hb, nh, voff, v, vSpan, acc, ab, zero, c0, c1, step) {
  const lim = SPAN_EXACT - opSpan(h, hb, nh, 1);
  if (nh === 8) {
    const h02 = h[hb], h12 = h[hb + 1], h22 = h[hb + 2], h32 = h[hb + 3];
    const h4 = h[hb + 4], h5 = h[hb + 5], h6 = h[hb + 6], h7 = h[hb + 7];
    for (let c = c0; c < c1; c += step) {
      const vb = c << 3;
      let x = v[vb];
      if (vSpan[c] <= lim) {
        let S = T[h02 + x & PX];
        x = v[vb + 1];
        S += T[h12 + x & PX];
        x = v[vb + 2];
        S += T[h22 + x & PX];
        x = v[vb + 3];
        S += T[h32 + x & PX];
        x = v[vb + 4];
        S += T[h4 + x & PX];
        x = v[vb + 5];
        S += T[h5 + x & PX];
        x = v[vb + 6];
        S += T[h6 + x & PX];
        x = v[vb + 7];
        S += T[h7 + x & PX];
        acc[ab + c] = finishS(zero ? 0 : acc[ab + c], S);
        continue;
      }
      let t = T[h02 + x & PX];
      let f = t + RI - RI;
      let H = f;
      let L = t - f;
      x = v[vb + 1];
      t = T[h12 + x & PX];
      f = t + RI - RI;
      H += f;
      L += t - f;
      x = v[vb + 2];
      t = T[h22 + x & PX];
      f = t + RI - RI;
      H += f;
      L += t - f;
      x = v[vb + 3];
      t = T[h32 + x & PX];
      f = t + RI - RI;
      H += f;
      L += t - f;
      x = v[vb + 4];
      t = T[h4 + x & PX];
      f = t + RI - RI;
      H += f;
      L += t - f;
      x = v[vb + 5];
      t = T[h5 + x & PX];
      f = t + RI - RI;
      H += f;
      L += t - f;
      x = v[vb + 6];
      t = T[h6 + x & PX];
      f = t + RI - RI;
      H += f;
      L += t - f;
      x = v[vb + 7];
      t = T[h7 + x & PX];
      f = t + RI - RI;
      H += f;
      L += t - f;
      acc[ab + c] = finish(zero ? 0 : acc[ab + c], H, L);
    }
    return;
  }
  const h0 = h[hb], h1 = h[hb + 1], h2 = h[hb + 2], h3 = h[hb + 3];
  for (let c = c0; c < c1; c += step) {
    const vb = (c << 3) + voff;
    let x = v[vb];
    if (vSpan[c] <= lim) {
      let S = T[h0 + x & PX];
      x = v[vb + 1];
      S += T[h1 + x & PX];
      x = v[vb + 2];
      S += T[h2 + x & PX];
      x = v[vb + 3];
      S += T[h3 + x & PX];
      acc[ab + c] = finishS(zero ? 0 : acc[ab + c], S);
      continue;
    }
    let t = T[h0 + x & PX];
    let f = t + RI - RI;
    let H = f;
    let L = t - f;
    x = v[vb + 1];
    t = T[h1 + x & PX];
    f = t + RI - RI;
    H += f;
    L += t - f;
    x = v[vb + 2];
    t = T[h2 + x & PX];
    f = t + RI - RI;
    H += f;
    L += t - f;
    x = v[vb + 3];
    t = T[h3 + x & PX];
    f = t + RI - RI;
    H += f;
    L += t - f;
    acc[ab + c] = finish(zero ? 0 : acc[ab + c], H, L);
  }
}
var WIN_PTN = 18;
var WIN_ROW = 8 * WIN_PTN;
function llcRow3x3(T, k, kb, w, wSpan, acc, ab, zero, ptns, j0, step) {
  for (let p = 0; p < ptns; p++) {
    const q = kb + p * 9;
    const fast = opSpan(k, q, 9, 1) + wSpan[p] <= SPAN_EXACT;
    const k0 = k[q], k1 = k[q + 1], k2 = k[q + 2], k3 = k[q + 3], k4 = k[q + 4];
    const k5 = k[q + 5], k6 = k[q + 6], k7 = k[q + 7], k8 = k[q + 8];
    const wb = p * WIN_PTN;
    for (let j = j0; j < 16; j += step) {
      const n2 = wb + j;
      const cc = n2 + WIN_ROW;
      const s = cc + WIN_ROW;
      let x = w[n2];
      if (fast) {
        let S = T[k0 + x & PX];
        x = w[n2 + 1];
        S += T[k1 + x & PX];
        x = w[n2 + 2];
        S += T[k2 + x & PX];
        x = w[cc];
        S += T[k3 + x & PX];
        x = w[cc + 1];
        S += T[k4 + x & PX];
        x = w[cc + 2];
        S += T[k5 + x & PX];
        x = w[s];
        S += T[k6 + x & PX];
        x = w[s + 1];
        S += T[k7 + x & PX];
        x = w[s + 2];
        S += T[k8 + x & PX];
        acc[ab + p * 16 + j] = finishS(zero ? 0 : acc[ab + p * 16 + j], S);
        continue;
      }
      let t = T[k0 + x & PX];
      let f = t + RI - RI;
      let H = f;
      let L = t - f;
      x = w[n2 + 1];
      t = T[k1 + x & PX];
      f = t + RI - RI;
      H += f;
      L += t - f;
      x = w[n2 + 2];
      t = T[k2 + x & PX];
      f = t + RI - RI;
      H += f;
      L += t - f;
      x = w[cc];
      t = T[k3 + x & PX];
      f = t + RI - RI;
      H += f;
      L += t - f;
      x = w[cc + 1];
      t = T[k4 + x & PX];
      f = t + RI - RI;
      H += f;
      L += t - f;
      x = w[cc + 2];
      t = T[k5 + x & PX];
      f = t + RI - RI;
      H += f;
      L += t - f;
      x = w[s];
      t = T[k6 + x & PX];
      f = t + RI - RI;
      H += f;
      L += t - f;
      x = w[s + 1];
      t = T[k7 + x & PX];
      f = t + RI - RI;
      H += f;
      L += t - f;
      x = w[s + 2];
      t = T[k8 + x & PX];
      f = t + RI - RI;
      H += f;
      L += t - f;
      const c = p * 16 + j;
      acc[ab + c] = finish(zero ? 0 : acc[ab + c], H, L);
    }
  }
}
function splitSum(aa, wba) {
  const s = aa + wba;
  if (s - s !== 0) {
    if (aa !== aa || wba !== wba)
      return NaN;
    if (aa - aa !== 0 && wba - wba !== 0)
      return aa === wba ? aa : NaN;
    return aa - aa !== 0 ? aa : wba - wba !== 0 ? wba : s;
  }
  const bv = s - aa;
  const av = s - bv;
  return mnsRoundWith(s, aa - av + (wba - bv), RC18, MAX18);
}

// packages/target-pyxis/dist/sim/uie/compute/grid.js
var GridCodes = {
  /** conv3x3_mode changed within a trip, or GH/GV/GX disagree on the mode (seq §10.2, §10.3). */
  mode: "SIM0630",
  /** v_staging fill not a multiple of 8 entries: staging start inside a fill, or a trip ends mid-fill (seq §1.2 rule 2-3). */
  stagingFill: "SIM0631",
  /** accumulator slot outside 0..7 (seq §10.3 accum_idx_iter_id). */
  slot: "SIM0632",
  /** AA read port conflict: a split within 8 cycles of the previous one, or an AA read (no zero_accum) while a split runs (seq §10.3.1). */
  aaPort: "SIM0633",
  /** GH waits for hbuf_rd_credits that no WDP program can deliver (seq §10.1.2). */
  hbufCredits: "SIM0634",
  /** GX waits for writeback credits that no GWB program can return (seq §10.3.2). */
  wbCredits: "SIM0635",
  /** hbuf_block_size outside 1..256 units of 16 bytes (seq §9.1, §10.1). */
  blockSize: "SIM0636",
  /** A split after an accumulation that did not write all 8 accumulator slots (seq §1.3: multiples of 8 outputs). */
  slots: "SIM0637",
  /** 3x3 Exec_Valid with fewer than 3 data-rows in the window since the trip start (chip §6.1.1 item 8: 2 bubbles first). */
  window: "SIM0638",
  /** GH read command inconsistent with the grid mode (RD_3X3 outside 3x3 mode or a 1x1 read in 3x3 mode, seq §10.1). */
  readCmd: "SIM0639",
  /** An RD_3X3 kernel (9 logical bytes) not inside the current hbuf block, e.g. straddling its end (seq §10.1.2:
   * credits cover one block; docs/spec-notes.md "3x3 Hbuf layout" block rule). The SIM063x range is full. */
  kernelStraddle: "SIM0628"
};
var H_OPS = 8;
var KERNEL = 9;
var PTNS = 8;
var COLS2 = 128;
var PtnConfig = class {
  ptnEdgeWest = new Uint8Array(PTNS);
  ptnEdgeEast = new Uint8Array(PTNS);
  evenColExecEn = new Uint8Array(PTNS);
  oddColExecEn = new Uint8Array(PTNS);
};
function decodeExecConfig(log2ActivePtns, log2PtnsPerFilter, oddColExecEn, evenColExecEn, out) {
  const nPtnsPerFilter = 1 << log2PtnsPerFilter;
  for (let ptn = 0; ptn < PTNS; ptn++) {
    out.ptnEdgeWest[ptn] = ptn % nPtnsPerFilter === 0 ? 1 : 0;
    out.ptnEdgeEast[ptn] = ptn % nPtnsPerFilter === nPtnsPerFilter - 1 ? 1 : 0;
    const active = ptn < 1 << log2ActivePtns;
    out.evenColExecEn[ptn] = active && evenColExecEn ? 1 : 0;
    out.oddColExecEn[ptn] = active && oddColExecEn ? 1 : 0;
  }
  return out;
}
var GridState = class {
  p;
  timingOnly;
  // ---- h_data FIFO GH -> GX (1x1 / MatMul), seq §10.1: entry e, grid-row r, operand k at h[(e * 16 + r) * 8 + k]
  hDepth;
  h;
  /** Per entry: operands used (8 for FP8 reads, 4 for FP16 reads) and the cycle it becomes usable. */
  hN;
  /** Per entry: trip slot of the GH instruction that read it (mode checks stay within one trip). */
  hSlot;
  hReady;
  hHead = 0;
  hCount = 0;
  // ---- 3x3 kernels (seq §10.1 h_staging): [r * 8 + p] * 9 + t
  hkBack = new Int32Array(GRID_ROWS * PTNS * KERNEL).fill(ZERO_OP);
  hkFront = new Int32Array(GRID_ROWS * PTNS * KERNEL).fill(ZERO_OP);
  /** The back kernel buffer is complete (h_staging_done) and waits for the front to be free. */
  hkBackDone = false;
  /** Trip slot of the GH instruction that completed the back kernel buffer. */
  hkBackSlot = -1;
  hkBackReady = 0;
  hkFrontValid = false;
  /** Kernel back -> front moves so far (GX restarts its 3x3 window count at each). */
  hkSwaps = 0;
  // ---- 1x1 v_staging (chip §6.3.1): column c, entry k at [c * 8 + k]
  vBack = new Int32Array(COLS2 * 8).fill(ZERO_OP);
  vFront = new Int32Array(COLS2 * 8).fill(ZERO_OP);
  vBackCount = 0;
  vBackFull = false;
  vBackReady = 0;
  vFrontValid = false;
  /** Per column of the front buffer: exponent span of its real entries (llc.ts fast-path rule). */
  vSpan = new Uint8Array(COLS2);
  /** Cycle of the last GX Exec_Valid / Exec_Bubble: the grid is "running" (no fill latency) when it executed last cycle. */
  lastExec = -Infinity;
  // ---- 3x3 data-row FIFO GV -> GX (seq §10.2 conv3x3_mode = 1)
  vDepth;
  vRows;
  vReady;
  vHead = 0;
  vCount = 0;
  /**
   * `p`: the grid parameters of this machine instance (sim_config.json `grid`). `timingOnly` (`--timing-only`):
   * operand data are not kept (only GX's arithmetic reads them), only the handshakes.
   */
  constructor(p, timingOnly = false) {
    this.p = p;
    this.timingOnly = timingOnly;
    this.hDepth = this.p.h_fifo_depth;
    this.h = new Int32Array(this.hDepth * GRID_ROWS * H_OPS).fill(ZERO_OP);
    this.hN = new Int32Array(this.hDepth);
    this.hSlot = new Int32Array(this.hDepth);
    this.hReady = new Float64Array(this.hDepth);
    this.vDepth = this.p.v_fifo_depth;
    this.vRows = new Int32Array(this.vDepth * COLS2).fill(ZERO_OP);
    this.vReady = new Float64Array(this.vDepth);
  }
  /** Slot index of a new h entry (caller fills h[(slot * 16 + r) * 8 ..]); -1 when full. */
  hPushSlot() {
    if (this.hCount === this.hDepth)
      return -1;
    const e = (this.hHead + this.hCount) % this.hDepth;
    this.hCount++;
    return e;
  }
  hPop() {
    this.hHead = (this.hHead + 1) % this.hDepth;
    this.hCount--;
  }
  vPushSlot() {
    if (this.vCount === this.vDepth)
      return -1;
    const e = (this.vHead + this.vCount) % this.vDepth;
    this.vCount++;
    return e;
  }
  vPop() {
    this.vHead = (this.vHead + 1) % this.vDepth;
    this.vCount--;
  }
  /** Moves a complete v_staging back buffer to the front when the front is free (chip §6.3.1 double buffering). */
  trySwapV(now) {
    if (this.vFrontValid || !this.vBackFull || this.vBackReady > now)
      return false;
    const t = this.vFront;
    this.vFront = this.vBack;
    this.vBack = t;
    this.vBackFull = false;
    this.vBackCount = 0;
    this.vFrontValid = true;
    if (this.timingOnly)
      return true;
    const f = this.vFront;
    const sp = this.vSpan;
    for (let c = 0; c < COLS2; c++)
      sp[c] = opSpan(f, c * 8, 8, 1);
    return true;
  }
  /** Moves a complete 3x3 kernel back buffer to the front when the front is free (seq §10.1 h_staging_done_en). */
  trySwapH(now) {
    if (this.hkFrontValid || !this.hkBackDone || this.hkBackReady > now)
      return false;
    const t = this.hkFront;
    this.hkFront = this.hkBack;
    this.hkBack = t;
    this.hkBackDone = false;
    this.hkFrontValid = true;
    this.hkSwaps++;
    return true;
  }
  /** Earliest pending readiness > now (for nextEvent), or Infinity. */
  nextReady(now) {
    let w = Infinity;
    if (this.hCount > 0 && this.hReady[this.hHead] > now)
      w = this.hReady[this.hHead];
    if (this.vCount > 0 && this.vReady[this.vHead] > now)
      w = Math.min(w, this.vReady[this.vHead]);
    if (this.vBackFull && !this.vFrontValid && this.vBackReady > now)
      w = Math.min(w, this.vBackReady);
    if (this.hkBackDone && !this.hkFrontValid && this.hkBackReady > now)
      w = Math.min(w, this.hkBackReady);
    return w;
  }
};

// packages/target-pyxis/dist/sim/uie/compute/seqIds.js
function seqIdOf(name) {
  const s = loadMemoryMap().byName.get(name);
  if (!s)
    throw new Error(`grammars/pyxis/memory_map.json has no sequencer \`${name}\``);
  return s.id;
}
var SEQ_WDP = seqIdOf("wdp");
var SEQ_GH = seqIdOf("gh");
var SEQ_GV = seqIdOf("gv");
var SEQ_GX = seqIdOf("gx");
var SEQ_GWB = seqIdOf("gwb");

// packages/target-pyxis/dist/sim/uie/compute/unit.js
var H_SLOT = 0;
var H_LAST = 1;
var H_PC = 2;
var H_POSTFINAL = 3;
var HDR_WORDS = 4;
function retireHead(u, unit) {
  const dec = unit.dec;
  const r = dec.peekSlot();
  const last = dec.data[r + H_LAST] === 1;
  const slot = dec.data[r + H_SLOT];
  dec.pop();
  if (last)
    u.seqDone(unit.seqId, slot);
  return true;
}
var NO_OP_FIELD = new Int32Array(32);
function noOpFields(names) {
  const f = {};
  for (const n2 of names)
    f[n2] = NO_OP_FIELD;
  return f;
}
function opFieldArrays(op, names) {
  if (!op)
    return void 0;
  const f = {};
  for (const n2 of names)
    f[n2] = op.field(n2);
  return f;
}

// packages/target-pyxis/dist/sim/uie/compute/gh.js
var { SEQ_SPEC: SEQ_SPEC3 } = records_exports;
var RD_3X3 = 0;
var RD_FP16 = 2;
var RD_TRANS_FP8 = 3;
var RD_TRANS_FP16 = 4;
var W_OP = HDR_WORDS;
var W_CMD = HDR_WORDS + 1;
var W_END = HDR_WORDS + 2;
var W_ADDR = HDR_WORDS + 3;
var W_START = HDR_WORDS + 4;
var W_BEND = HDR_WORDS + 5;
var W_SIZE = HDR_WORDS + 6;
var W_FILT = HDR_WORDS + 7;
var W_LOG2F = HDR_WORDS + 8;
var W_DONE = HDR_WORDS + 9;
var WORDS = HDR_WORDS + 10;
var FIELDS = [
  "opcd",
  "hbuf_rd_cmd",
  "end_grid_row_idx",
  "log2_filters_per_row",
  "h_staging_filter_iter_id",
  "h_staging_done_en",
  "hbuf_block_size",
  "hbuf_block_start_en",
  "hbuf_block_end_en",
  "hbuf_block_iter_mask",
  "hbuf_addr_offset",
  "hbuf_stride_dim1",
  "hbuf_stride_dim2",
  "hbuf_stride_dim3",
  "hbuf_stride_iter_id_dim1",
  "hbuf_stride_iter_id_dim2",
  "hbuf_stride_iter_id_dim3"
];
var ZERO = ZERO_OP;
var GhUnit = class {
  u;
  cmp;
  seqId = seqIdOf("gh");
  dec;
  grid;
  f;
  seq;
  msgCredits;
  msgFull;
  msgKernel;
  /** Bytes of the hbuf block opened by the last block start (0: no block open, reads are not checked). */
  blockBytes = 0;
  constructor(u, cmp) {
    this.u = u;
    this.cmp = cmp;
    this.grid = new GridState(u.params.grid, cmp.timingOnly);
    this.dec = new Fifo(`${u.name}.gh.dec`, this.grid.p.gh_dec_fifo_depth, WORDS);
    this.f = noOpFields(FIELDS);
    this.msgCredits = "gh: HBUF_RD_VLD block start waits for hbuf_rd_credits from WDP (seq \xA710.1.2)";
    this.msgFull = "gh: h_data FIFO to GX full (seq \xA710)";
    this.msgKernel = "gh: 3x3 kernel back buffer full, waiting for GX front_staging_done (seq \xA710.1 h_staging_done_en)";
  }
  startTrip(s) {
    this.seq = s;
    this.f = opFieldArrays(s.op, FIELDS) ?? this.f;
  }
  decode(s, rec) {
    const d = this.dec.data;
    const f = this.f;
    const core = s.core;
    const pc = core.execPc;
    const op = f.opcd[pc];
    d[rec + W_OP] = op;
    if (op !== 1)
      return;
    d[rec + W_CMD] = f.hbuf_rd_cmd[pc];
    d[rec + W_END] = f.end_grid_row_idx[pc] & 15;
    const ec = core.execCount;
    const a = f.hbuf_addr_offset[pc] + (f.hbuf_stride_dim1[pc] * (ec[f.hbuf_stride_iter_id_dim1[pc] % 6] & 255) & 4095) + (f.hbuf_stride_dim2[pc] * (ec[f.hbuf_stride_iter_id_dim2[pc] % 6] & 255) & 4095) + (f.hbuf_stride_dim3[pc] * (ec[f.hbuf_stride_iter_id_dim3[pc] % 6] & 255) & 4095);
    d[rec + W_ADDR] = a;
    const m = f.hbuf_block_iter_mask[pc];
    d[rec + W_START] = f.hbuf_block_start_en[pc] && (core.itersEqZero & m) === m ? 1 : 0;
    d[rec + W_BEND] = f.hbuf_block_end_en[pc] && (core.itersEqNloops & m) === m ? 1 : 0;
    const size = f.hbuf_block_size[pc];
    d[rec + W_SIZE] = size;
    if ((d[rec + W_START] || d[rec + W_BEND]) && (size < 1 || size > 256)) {
      this.u.ruleError(GridCodes.blockSize, `GH hbuf_block_size ${size} is outside 1..256 (units of 16 bytes)`, `${SEQ_SPEC3} \xA710.1`, s, pc);
    }
    const fi = f.h_staging_filter_iter_id[pc] % 6;
    d[rec + W_FILT] = ec[fi];
    d[rec + W_LOG2F] = f.log2_filters_per_row[pc] & 3;
    d[rec + W_DONE] = f.h_staging_done_en[pc] && (core.itersEqNloops >>> fi & 1) === 1 ? 1 : 0;
  }
  tick(now) {
    const dec = this.dec;
    if (dec.empty)
      return false;
    const d = dec.data;
    const r = dec.peekSlot();
    if (d[r + W_OP] !== 1) {
      this.retire(r);
      return true;
    }
    const u = this.u;
    const hb = this.cmp.hbuf;
    const st = this.cmp.stats;
    const g = this.grid;
    if (d[r + W_START] === 1 && hb.rdCredits <= 0) {
      st.stallHbufRdCredits++;
      u.blocked ??= this.msgCredits;
      this.checkCreditSource(r);
      return false;
    }
    const cmd = d[r + W_CMD];
    const end = d[r + W_END];
    if (d[r + W_START] === 1)
      this.blockBytes = d[r + W_SIZE] * 16;
    const addr = (hb.rdBase & 4080) + d[r + W_ADDR];
    const data2 = hb.data;
    if (cmd === RD_3X3) {
      g.trySwapH(now);
      if (g.hkBackDone) {
        st.stallStaging++;
        u.blocked ??= this.msgKernel;
        return false;
      }
      const off = d[r + W_ADDR] & HBUF_BYTES - 1;
      if (this.blockBytes > 0 && off + KERNEL > this.blockBytes)
        this.straddle(r, off);
      const nf = 1 << d[r + W_LOG2F];
      const j = d[r + W_FILT] & nf - 1;
      const pp = PTNS / nf;
      const kb = g.hkBack;
      for (let row = 0; row <= end && !g.timingOnly; row++) {
        const rb = row * HBUF_BYTES;
        const k0 = (row * PTNS + j * pp) * KERNEL;
        for (let t = 0; t < KERNEL; t++) {
          const op = I5F3_OP[data2[rb + (addr + t & HBUF_BYTES - 1)] & 511];
          for (let p = 0; p < pp; p++)
            kb[k0 + p * KERNEL + t] = op;
        }
      }
      if (d[r + W_DONE] === 1) {
        g.hkBackDone = true;
        g.hkBackSlot = d[r + H_SLOT];
        g.hkBackReady = now + g.p.hbuf_read_latency_cycles;
      }
    } else if (cmd <= RD_TRANS_FP16) {
      const e = g.hPushSlot();
      if (e < 0) {
        st.stallStaging++;
        u.blocked ??= this.msgFull;
        return false;
      }
      const h = g.h;
      const wide = cmd === RD_FP16 || cmd === RD_TRANS_FP16;
      const trans = cmd >= RD_TRANS_FP8;
      g.hN[e] = wide ? 4 : 8;
      g.hSlot[e] = d[r + H_SLOT];
      g.hReady[e] = now + g.p.hbuf_read_latency_cycles;
      for (let row = 0; row < GRID_ROWS && !g.timingOnly; row++) {
        const o = (e * GRID_ROWS + row) * H_OPS;
        if (row > end) {
          for (let k = 0; k < H_OPS; k++)
            h[o + k] = ZERO;
          continue;
        }
        const rb = row * HBUF_BYTES;
        for (let b = 0; b < 8; b += wide ? 2 : 1) {
          const a = trans ? (addr & ~8) + (b & 3) + (b & 4 ? 8 : 0) : addr + b;
          const lo2 = data2[rb + (a & HBUF_BYTES - 1)];
          if (!wide)
            h[o + b] = I5F3_OP[lo2 & 511];
          else
            h[o + (b >> 1)] = toOp(lo2 & 255 | (data2[rb + (a + 1 & HBUF_BYTES - 1)] & 255) << 8);
        }
      }
    } else {
      u.ruleError(GridCodes.readCmd, `GH hbuf_rd_cmd ${cmd} is not a read command`, `${SEQ_SPEC3} \xA710.1`, this.seq, d[r + H_PC]);
    }
    st.hbufReads += end + 1;
    if (hb.ports)
      this.notePorts(cmd, addr, end, now);
    if (d[r + W_BEND] === 1) {
      const bytes = d[r + W_SIZE] * 16;
      hb.rdBase = (hb.rdBase + bytes) % HBUF_BYTES;
      hb.rdCredits -= bytes;
      hb.wrCredits += bytes;
      this.blockBytes = 0;
    }
    this.retire(r);
    return true;
  }
  /** GH waits for credits that no WDP program can deliver: an error, not a hang (seq §10.1.2). */
  checkCreditSource(r) {
    const u = this.u;
    const wdpSeq = u.seqs[this.cmp.wdp.seqId];
    if (wdpSeq.core.running || wdpSeq.qCount > 0 || !this.cmp.wdp.idle || u.trips.active > 1)
      return;
    u.ruleError(GridCodes.hbufCredits, "GH waits at an hbuf block start with hbuf_rd_credits = 0 and no WDP program is left to write the Hbufs", `${SEQ_SPEC3} \xA710.1.2`, this.seq, this.dec.data[r + H_PC]);
    this.cmp.hbuf.rdCredits = HBUF_BYTES;
  }
  /** Hbuf port check: the words of each active grid-row this read touches (at most one per bank, see the header). */
  notePorts(cmd, addr, end, now) {
    const ports = this.cmp.hbuf.ports;
    const a0 = cmd >= RD_TRANS_FP8 ? addr & ~8 : addr;
    const a1 = cmd === RD_3X3 ? addr + KERNEL - 1 : cmd >= RD_TRANS_FP8 ? addr | 8 : addr + 7;
    const two = a1 >> 3 !== a0 >> 3;
    for (let row = 0; row <= end; row++) {
      ports.note(row, a0 & HBUF_BYTES - 1, now, 0);
      if (two)
        ports.note(row, a1 & HBUF_BYTES - 1, now, 0);
    }
  }
  /** SIM0628: the kernel's bytes off .. off + 8 (from the block base) are not all inside the open block. */
  straddle(r, off) {
    const n2 = this.blockBytes;
    const what = off < n2 ? `straddles the end of the hbuf block (${n2} bytes): bytes ${n2}..${off + KERNEL - 1} are in the next block` : `lies outside the hbuf block (${n2} bytes)`;
    this.u.ruleError(GridCodes.kernelStraddle, `GH RD_3X3 kernel at block offset ${off}..${off + KERNEL - 1} ${what}, which GH holds no hbuf_rd_credits for`, `${SEQ_SPEC3} \xA710.1.2, \xA710.1.1`, this.seq, this.dec.data[r + H_PC]);
  }
  retire(_r) {
    retireHead(this.u, this);
  }
  nextEvent(_now) {
    return Infinity;
  }
  get idle() {
    return this.dec.empty;
  }
};

// packages/target-pyxis/dist/sim/uie/compute/gv.js
var { SEQ_SPEC: SEQ_SPEC4 } = records_exports;
var OP_ZERO = GV_ZERO;
var OP_AMEM = GV_AMEM;
var OP_VPU = GV_VPU;
var W_OP2 = HDR_WORDS;
var W_MODE = HDR_WORDS + 1;
var W_START2 = HDR_WORDS + 2;
var W_CORR = HDR_WORDS + 3;
var W_TRUNC = HDR_WORDS + 4;
var W_EB = HDR_WORDS + 5;
var WORDS2 = HDR_WORDS + 6;
var FIELDS2 = ["opcd", "conv3x3_mode", "staging_start_iter_mask", "dsbl_mapping_corr", "fbits_truncate_amt", "eb_adj"];
var GvUnit = class {
  u;
  cmp;
  seqId = seqIdOf("gv");
  dec;
  grid;
  f;
  seq;
  /** conv3x3_mode of the trip being executed (-1 before its first data instruction). */
  tripMode = -1;
  /** Trip slot the mode belongs to (tick-side: the sequencer may already have started the next trip). */
  modeSlot = -1;
  cols = new Uint16Array(COLS2);
  msgSb;
  msgLat;
  msgVpu;
  msgBack;
  msgRows;
  constructor(u, cmp) {
    this.u = u;
    this.cmp = cmp;
    this.grid = cmp.gh.grid;
    this.dec = new Fifo(`${u.name}.gv.dec`, this.grid.p.gv_dec_fifo_depth, WORDS2);
    this.f = noOpFields(FIELDS2);
    this.msgSb = `gv: Read_AMEM_FIFO waits for switchbox FIFO ${u.sbReadToGrid.name} (empty)`;
    this.msgLat = `gv: Read_AMEM_FIFO waits for the AMEM read pipeline (${u.sbReadToGrid.name})`;
    this.msgVpu = `gv: Read_VPU_FIFO waits for switchbox FIFO ${u.sbVbufferToGrid.name} (empty)`;
    this.msgBack = "gv: v_staging back buffer complete, waiting for GX front_staging_done (chip \xA76.3.1)";
    this.msgRows = "gv: 3x3 data-row FIFO to GX full";
  }
  startTrip(s) {
    this.seq = s;
    this.f = opFieldArrays(s.op, FIELDS2) ?? this.f;
  }
  decode(s, rec) {
    const d = this.dec.data;
    const f = this.f;
    const pc = s.core.execPc;
    d[rec + W_OP2] = f.opcd[pc];
    d[rec + W_MODE] = f.conv3x3_mode[pc];
    const m = f.staging_start_iter_mask[pc];
    d[rec + W_START2] = m !== 0 && (s.core.itersEqZero & m) === m ? 1 : 0;
    d[rec + W_CORR] = f.dsbl_mapping_corr[pc] ? 0 : 1;
    d[rec + W_TRUNC] = f.fbits_truncate_amt[pc] & 7;
    d[rec + W_EB] = f.eb_adj[pc];
  }
  tick(now) {
    const dec = this.dec;
    if (dec.empty)
      return false;
    const d = dec.data;
    const r = dec.peekSlot();
    const op = d[r + W_OP2];
    const u = this.u;
    if (op !== OP_ZERO && op !== OP_AMEM && op !== OP_VPU) {
      this.retire(r);
      return true;
    }
    const g = this.grid;
    const st = this.cmp.stats;
    const mode = d[r + W_MODE];
    if (d[r + H_SLOT] !== this.modeSlot) {
      this.modeSlot = d[r + H_SLOT];
      this.tripMode = mode;
    } else if (mode !== this.tripMode) {
      u.ruleError(GridCodes.mode, "GV conv3x3_mode changed within a trip", `${SEQ_SPEC4} \xA710.2`, this.seq, d[r + H_PC]);
      this.tripMode = mode;
    }
    const sb = op === OP_VPU ? u.sbVbufferToGrid : u.sbReadToGrid;
    if (op !== OP_ZERO && sb.empty) {
      u.blocked ??= op === OP_VPU ? this.msgVpu : this.msgSb;
      return false;
    }
    if (op !== OP_ZERO && headWaiting(sb, now, u)) {
      u.blocked ??= this.msgLat;
      return false;
    }
    if (mode === 1) {
      const e = g.vPushSlot();
      if (e < 0) {
        st.stallStaging++;
        u.blocked ??= this.msgRows;
        return false;
      }
      this.convert(op === OP_ZERO ? void 0 : sb, r, g.vRows, e * COLS2, 1);
      const running = g.vCount > 1 || now - g.lastExec <= 1;
      g.vReady[e] = now + 1 + (running ? 0 : g.p.grid_fill_latency_cycles);
    } else {
      g.trySwapV(now);
      if (g.vBackFull) {
        st.stallStaging++;
        u.blocked ??= this.msgBack;
        return false;
      }
      if (d[r + W_START2] === 1 && g.vBackCount !== 0) {
        u.ruleError(GridCodes.stagingFill, `GV staging start at v_staging entry ${g.vBackCount}: the previous fill has fewer than 8 entries (input channels / inner dimension must be a multiple of 8, 4 for 16-bit horizontal data padded to 8 rows)`, `${SEQ_SPEC4} \xA71.2, \xA710.2`, this.seq, d[r + H_PC]);
        g.vBackCount = 0;
      }
      this.convert(op === OP_ZERO ? void 0 : sb, r, g.vBack, g.vBackCount, 8);
      if (++g.vBackCount === 8) {
        g.vBackFull = true;
        const running = g.vFrontValid || now - g.lastExec <= 1;
        g.vBackReady = now + 1 + (running ? 0 : g.p.grid_fill_latency_cycles);
      }
    }
    if (op !== OP_ZERO)
      sb.pop();
    this.retire(r);
    return true;
  }
  /** One row of 128 columns (head of switchbox FIFO `sb`, or zeros) through Lin2Log into dst[base + c * stride]. */
  convert(sb, r, dst, base2, stride) {
    if (this.cmp.timingOnly)
      return;
    if (!sb) {
      for (let c = 0; c < COLS2; c++)
        dst[base2 + c * stride] = ZERO_OP;
      return;
    }
    const d = this.dec.data;
    const cols = this.cols;
    sb.headColumns(cols, 0);
    const corr = d[r + W_CORR] === 1;
    const trunc = d[r + W_TRUNC];
    const eb = d[r + W_EB];
    for (let c = 0; c < COLS2; c++)
      dst[base2 + c * stride] = toOp(linToLogRaw(cols[c], eb, corr, trunc));
  }
  retire(r) {
    const d = this.dec.data;
    const last = d[r + H_LAST] === 1;
    const slot = d[r + H_SLOT];
    this.dec.pop();
    if (last) {
      const g = this.grid;
      if (this.tripMode === 0 && g.vBackCount !== 0 && !g.vBackFull) {
        this.u.ruleError(GridCodes.stagingFill, `GV trip ends with a partial v_staging fill (${g.vBackCount} of 8 entries): pad to a multiple of 8 rows`, `${SEQ_SPEC4} \xA71.2, \xA71.3`, this.seq, d[r + H_PC]);
        g.vBackCount = 0;
      }
      this.u.seqDone(this.seqId, slot);
    }
  }
  nextEvent(_now) {
    return Infinity;
  }
  get idle() {
    return this.dec.empty;
  }
};

// packages/target-pyxis/dist/sim/uie/compute/gwb.js
var { SEQ_SPEC: SEQ_SPEC5, CHIP_SPEC_F: CHIP_SPEC_F2 } = records_exports;
var W_OP3 = HDR_WORDS;
var W_TGT = HDR_WORDS + 1;
var W_DIAG = HDR_WORDS + 2;
var W_OVR = HDR_WORDS + 3;
var W_CMASK = HDR_WORDS + 4;
var W_EB2 = HDR_WORDS + 5;
var W_ROW = HDR_WORDS + 6;
var W_DONE2 = HDR_WORDS + 7;
var WORDS3 = HDR_WORDS + 8;
var OP_READ_WBA = GWB_READ_WBA;
var TGT_VPU = GWB_TGT_VPU;
var COL_ZERO = GWB_COL_ZERO;
var COL_MAXNEG = GWB_COL_MAX_NEG;
var FP16_SIGN = 1 << RFP16.bits - 1;
var FP16_ZERO = 0;
var FP16_MAX_NEG = FP16_SIGN | RFP16.maxCode;
var FP16_NAN = FP16_SIGN;
var GwbCodes = { gridRowRange: "SIM0640", vpuTarget: "SIM0641" };
function diagonalMasked(mode, row, col) {
  if (mode === GWB_DIAG.colLeRow)
    return col <= row;
  if (mode === GWB_DIAG.colLtRow)
    return col < row;
  if (mode === GWB_DIAG.colEqRow)
    return col === row;
  if (mode === GWB_DIAG.colNeRow)
    return col !== row;
  if (mode === GWB_DIAG.colGeRow)
    return col >= row;
  if (mode === GWB_DIAG.colGtRow)
    return col > row;
  return false;
}
function wbaToFp16(v, ebAdj) {
  if (v !== v)
    return FP16_NAN;
  return mnsToFp16Raw(MNS18.encodeWith(v, 0, true, false), ebAdj, MNS18);
}
var GwbUnit = class {
  u;
  cmp;
  seqId = seqIdOf("gwb");
  dec;
  /** Column overrides of the 4 gwb_col_mask registers: colMask[idx * 128 + c] (decoded at trip start). */
  colMask = new Uint8Array(4 * COLS);
  /** Flit of the head instruction being sent (0..7), -1 when the head has not started. */
  flit = -1;
  out = new Uint16Array(COLS);
  // op-field arrays bound at trip start
  f = {};
  waitKickMsg;
  waitFifoMsg;
  constructor(u, cmp) {
    this.u = u;
    this.cmp = cmp;
    this.dec = new Fifo(`${u.name}.gwb.dec`, 4, WORDS3);
    this.waitKickMsg = `gwb: Read_WBA waits for a writeback kick from GX (seq \xA711.4)`;
    this.waitFifoMsg = `gwb: target switchbox FIFO full (seq \xA711.4)`;
  }
  startTrip(s) {
    this.f = opFieldArrays(s.op, ["opcd", "tgt_fifo", "diagonal_mask_mode", "diagonal_mask_override_sel", "col_mask_idx", "eb_adj", "grid_row_offset", "grid_row_iter_id", "wb_done_iter_mask"]) ?? this.f;
    const r = this.u.config.regionBytes("gwb.col_mask");
    if (r && r.changed) {
      for (let i = 0; i < 4 && i < r.words; i++)
        for (let c = 0; c < COLS; c++)
          this.colMask[i * COLS + c] = Number(readField(r.table, r.bytes, "col_override", c, i * r.stride));
    }
  }
  decode(s, rec) {
    const d = this.dec.data;
    const f = this.f;
    const pc = s.core.execPc;
    const op = f.opcd?.[pc] ?? 0;
    d[rec + W_OP3] = op;
    if (op !== OP_READ_WBA)
      return;
    d[rec + W_TGT] = f.tgt_fifo[pc];
    d[rec + W_DIAG] = f.diagonal_mask_mode[pc];
    d[rec + W_OVR] = f.diagonal_mask_override_sel[pc];
    d[rec + W_CMASK] = f.col_mask_idx[pc] & 3;
    d[rec + W_EB2] = f.eb_adj[pc];
    const row = f.grid_row_offset[pc] + (s.core.execCount[f.grid_row_iter_id[pc] % 6] & 15);
    if (row >= GRID_ROWS) {
      this.u.ruleError(GwbCodes.gridRowRange, `GWB grid-row index ${row} (grid_row_offset + iterator count) is outside 0..15`, `${SEQ_SPEC5} \xA711.3`, s, pc);
    }
    d[rec + W_ROW] = row & 15;
    const m = f.wb_done_iter_mask[pc];
    d[rec + W_DONE2] = m !== 0 && (s.core.itersEqNloops & m) === m ? 1 : 0;
  }
  tick(_now) {
    const dec = this.dec;
    if (dec.empty)
      return false;
    const u = this.u;
    const d = dec.data;
    const r = dec.peekSlot();
    if (d[r + W_OP3] !== OP_READ_WBA) {
      this.retire(r);
      return true;
    }
    const acc = this.cmp.acc;
    const st = this.cmp.stats;
    if (this.flit < 0) {
      if (acc.wbPending === 0) {
        st.stallWbKick++;
        u.blocked ??= this.waitKickMsg;
        return false;
      }
      this.flit = 0;
    }
    const toVpu = d[r + W_TGT] === TGT_VPU;
    const fifo = toVpu ? u.attachVbuffer ? u.sbGridToVbuffer : void 0 : u.sbGridToWrite;
    if (fifo && fifo.full) {
      st.stallSwitchboxFull++;
      u.blocked ??= this.waitFifoMsg;
      return false;
    }
    const slot = this.flit;
    const row = d[r + W_ROW];
    if (!this.cmp.timingOnly)
      this.convert(row, slot, d[r + W_EB2], d[r + W_DIAG], d[r + W_OVR], d[r + W_CMASK]);
    if (fifo)
      fifo.pushColumns(this.out);
    else {
      u.stats.flitsDropped++;
      u.warnOnce("gwb-vpu", GwbCodes.vpuTarget, `GWB tgt_fifo=VPU with the Vbuffer detached: writeback flits are dropped`, `${SEQ_SPEC5} \xA711.1, ${CHIP_SPEC_F2} \xA76.2.3`);
    }
    st.wbFlits++;
    const done = d[r + W_DONE2] === 1;
    if (done)
      acc.wbCredits++;
    if (++this.flit === SLOTS) {
      this.flit = -1;
      if (done) {
        acc.wbPending--;
        acc.wbaReadsZero = true;
        st.writebacks++;
      }
      this.retire(r);
    }
    return true;
  }
  /** MNS2FP + masks of one flit (grid-row `row`, WBA slot `slot`) into `out`. Matrix row = 8 * row + slot (seq §9.3 table). */
  convert(row, slot, eb, diag, ovr, cmask) {
    const wba = this.cmp.acc.wba;
    const base2 = (row * SLOTS + slot) * COLS;
    const out = this.out;
    const mrow = row * SLOTS + slot;
    const diagVal = ovr === GWB_OVR_MAX_NEG ? FP16_MAX_NEG : FP16_ZERO;
    const cm = this.colMask;
    const cmBase = cmask * COLS;
    for (let c = 0; c < COLS; c++) {
      const m = cm[cmBase + c];
      if (m === COL_ZERO)
        out[c] = FP16_ZERO;
      else if (m === COL_MAXNEG)
        out[c] = FP16_MAX_NEG;
      else if (diag !== 0 && diagonalMasked(diag, mrow, c))
        out[c] = diagVal;
      else
        out[c] = wbaToFp16(wba[base2 + c], eb);
    }
  }
  retire(_r) {
    retireHead(this.u, this);
  }
  nextEvent(_now) {
    return Infinity;
  }
  get idle() {
    return this.dec.empty && this.flit < 0;
  }
};

// packages/target-pyxis/dist/sim/uie/compute/gx.js
var { SEQ_SPEC: SEQ_SPEC6 } = records_exports;
var OP_VALID = GX_VALID;
var OP_BUBBLE = GX_BUBBLE;
var OP_CONFIG = GX_CONFIG;
var W_OP4 = HDR_WORDS;
var W_MODE2 = HDR_WORDS + 1;
var W_SLOT = HDR_WORDS + 2;
var W_FDONE = HDR_WORDS + 3;
var W_ZERO = HDR_WORDS + 4;
var W_SPLIT = HDR_WORDS + 5;
var W_KICK = HDR_WORDS + 6;
var W_CORR2 = HDR_WORDS + 7;
var W_END2 = HDR_WORDS + 8;
var W_ACT = HDR_WORDS + 9;
var W_PPF = HDR_WORDS + 10;
var W_ODD = HDR_WORDS + 11;
var W_EVEN = HDR_WORDS + 12;
var WORDS4 = HDR_WORDS + 13;
var FIELDS3 = [
  "opcd",
  "conv3x3_mode",
  "accum_idx_iter_id",
  "front_staging_done_iter_mask",
  "zero_accum_iter_mask",
  "split_accum_iter_mask",
  "wb_kick_iter_mask",
  "llc_dsbl_mapping_corr",
  "end_grid_row_idx",
  "log2_active_ptns",
  "log2_ptns_per_filter",
  "odd_col_exec_en",
  "even_col_exec_en"
];
function all(mask, flags) {
  return mask !== 0 && (flags & mask) === mask ? 1 : 0;
}
var GxUnit = class {
  u;
  cmp;
  seqId = seqIdOf("gx");
  dec;
  grid;
  f;
  seq;
  tripMode = -1;
  /** Trip slot the mode belongs to (tick-side: the sequencer may already have started the next trip). */
  modeSlot = -1;
  // ---- Exec_Config state (persists until the next Exec_Config, seq §10.3)
  endRow = 15;
  /** Decoded per-partition configuration (reset: full grid, one partition per filter). */
  ptn = decodeExecConfig(3, 0, 1, 1, new PtnConfig());
  /** Partitions 0 .. activePtns - 1 execute (derived from `ptn`: the §10.3 decode enables a prefix). */
  activePtns = 8;
  oddEn = 1;
  evenEn = 1;
  // ---- 3x3 window: data-row n at win[(n % 3) * 128 + c]; rows shifted in since the trip start
  win = new Int32Array(3 * COLS).fill(ZERO_OP);
  rowsIn = 0;
  /** Data-rows shifted in since the current 3x3 kernel became the front (a new input channel needs 3, chip §6.1.1 item 8). */
  rowsSinceKernel = 0;
  kernelSwaps = -1;
  pad = new Int32Array(3 * WIN_ROW).fill(ZERO_OP);
  wSpan = new Uint8Array(8);
  // ---- split accumulation (seq §10.3.1-§10.3.2)
  snap = new Float64Array(ACC_WORDS);
  /** Next slot the running split writes (0..7), -1 when no split runs. */
  splitStep = -1;
  /** A split accumulation (AA -> WBA, 8 slot steps) is running: the statistics attribute it to the trip that began it. */
  get splitRunning() {
    return this.splitStep >= 0;
  }
  splitFirst = false;
  splitKick = false;
  /** Exec_Valid instructions that must still zero their AA reads after the last split (seq §10.3.1). */
  zeroNeeded = 0;
  /** Accumulator slots written by Exec_Valid since the last split (bit per slot; seq §1.3: a split covers all 8). */
  slotsWritten = 0;
  // ---- the last GX record of a trip retires when the grid has drained (llc_pipeline_latency_cycles)
  doneSlot = -1;
  doneAt = 0;
  /** An Exec_Valid / Exec_Bubble ran since the last trip end (only then does the trip wait for the grid to drain). */
  executed = false;
  msgH;
  msgV;
  msgCredits;
  msgPending;
  constructor(u, cmp) {
    this.u = u;
    this.cmp = cmp;
    this.grid = cmp.gh.grid;
    this.dec = new Fifo(`${u.name}.gx.dec`, this.grid.p.gx_dec_fifo_depth, WORDS4);
    this.f = noOpFields(FIELDS3);
    this.msgH = "gx: Exec waits for h_data (GH h_data FIFO / 3x3 kernel front buffer, seq \xA710.3)";
    this.msgV = "gx: Exec waits for v_data (v_staging front buffer / 3x3 data row, seq \xA710.3)";
    this.msgCredits = "gx: split accumulation waits for writeback credits from GWB (seq \xA710.3.2)";
    this.msgPending = "gx: writeback kick waits for the pending writebacks (seq \xA710.3.2)";
  }
  startTrip(s) {
    this.seq = s;
    this.f = opFieldArrays(s.op, FIELDS3) ?? this.f;
  }
  decode(s, rec) {
    const d = this.dec.data;
    const f = this.f;
    const core = s.core;
    const pc = core.execPc;
    const op = f.opcd[pc];
    d[rec + W_OP4] = op;
    d[rec + W_MODE2] = f.conv3x3_mode[pc];
    if (op === OP_CONFIG) {
      d[rec + W_END2] = f.end_grid_row_idx[pc] & 15;
      d[rec + W_ACT] = f.log2_active_ptns[pc] & 3;
      d[rec + W_PPF] = f.log2_ptns_per_filter[pc] & 3;
      d[rec + W_ODD] = f.odd_col_exec_en[pc];
      d[rec + W_EVEN] = f.even_col_exec_en[pc];
      return;
    }
    if (op !== OP_VALID && op !== OP_BUBBLE)
      return;
    const slot = core.execCount[f.accum_idx_iter_id[pc] % 6];
    if (slot >= SLOTS && op === OP_VALID) {
      this.u.ruleError(GridCodes.slot, `GX accumulator slot ${slot} (count of accum_idx_iter_id) is outside 0..7`, `${SEQ_SPEC6} \xA710.3`, s, pc);
    }
    d[rec + W_SLOT] = slot & 7;
    const z = core.itersEqZero;
    const n2 = core.itersEqNloops;
    d[rec + W_FDONE] = all(f.front_staging_done_iter_mask[pc], n2);
    d[rec + W_ZERO] = all(f.zero_accum_iter_mask[pc], z);
    const split = all(f.split_accum_iter_mask[pc], n2);
    d[rec + W_SPLIT] = split;
    d[rec + W_KICK] = split & all(f.wb_kick_iter_mask[pc], n2);
    d[rec + W_CORR2] = f.llc_dsbl_mapping_corr[pc] ? 0 : 1;
  }
  tick(now) {
    let did = false;
    if (this.splitStep >= 0) {
      const r2 = this.stepSplit();
      if (r2 < 0)
        return false;
      did = true;
    }
    if (this.doneSlot >= 0 && this.splitStep < 0 && now >= this.doneAt) {
      this.u.seqDone(this.seqId, this.doneSlot);
      this.doneSlot = -1;
      did = true;
    }
    const dec = this.dec;
    if (dec.empty)
      return did;
    const d = dec.data;
    const r = dec.peekSlot();
    const op = d[r + W_OP4];
    const st = this.cmp.stats;
    const u = this.u;
    if (op === OP_CONFIG) {
      this.endRow = d[r + W_END2];
      const pc = decodeExecConfig(d[r + W_ACT], d[r + W_PPF], d[r + W_ODD], d[r + W_EVEN], this.ptn);
      let n2 = 0;
      while (n2 < 8 && (pc.evenColExecEn[n2] || pc.oddColExecEn[n2]))
        n2++;
      this.activePtns = n2;
      this.evenEn = pc.evenColExecEn[0];
      this.oddEn = pc.oddColExecEn[0];
      this.checkMode(r);
      st.execConfig++;
      this.retire(r, now, false);
      return true;
    }
    if (op !== OP_VALID && op !== OP_BUBBLE) {
      st.execNop++;
      this.retire(r, now, false);
      return true;
    }
    const g = this.grid;
    const mode = this.checkMode(r);
    const valid = op === OP_VALID;
    let hEntry = -1;
    if (mode === 0) {
      if (g.hkBackDone && g.hkBackSlot === d[r + H_SLOT])
        this.cmdError(r, "RD_3X3 kernels staged while GX runs 1x1/MatMul");
      g.trySwapV(now);
      if (g.hCount === 0 || g.hReady[g.hHead] > now) {
        st.stallHData++;
        u.blocked ??= this.msgH;
        return did;
      }
      if (!g.vFrontValid) {
        st.stallVData++;
        u.blocked ??= this.msgV;
        return did;
      }
      hEntry = g.hHead;
    } else {
      if (g.hCount > 0 && g.hSlot[g.hHead] === d[r + H_SLOT])
        this.cmdError(r, "a 1x1/MatMul h_data read while GX runs 3x3");
      g.trySwapH(now);
      if (g.vCount === 0 || g.vReady[g.vHead] > now) {
        st.stallVData++;
        u.blocked ??= this.msgV;
        return did;
      }
      if (!g.hkFrontValid) {
        st.stallHData++;
        u.blocked ??= this.msgH;
        return did;
      }
    }
    const split = d[r + W_SPLIT] === 1;
    const acc = this.cmp.acc;
    if (split && d[r + W_KICK] === 1 && acc.wbPending >= 2) {
      st.stallWbPending++;
      u.blocked ??= this.msgPending;
      return did;
    }
    const slot = d[r + W_SLOT];
    const zero = d[r + W_ZERO] === 1;
    if (valid) {
      if (this.zeroNeeded > 0) {
        if (!zero)
          this.portError(r, "an Exec_Valid reads the active accumulator (no zero_accum) within 8 executions after a split");
        this.zeroNeeded--;
      }
    }
    if (mode === 0) {
      if (valid)
        this.exec1x1(hEntry, slot, zero, d[r + W_CORR2] === 1);
      g.hPop();
      if (d[r + W_FDONE] === 1) {
        g.vFrontValid = false;
        g.trySwapV(now);
      }
    } else {
      this.shiftRow();
      if (valid) {
        if (this.rowsSinceKernel < 3)
          this.windowError(r);
        this.exec3x3(slot, zero, d[r + W_CORR2] === 1);
      }
      if (d[r + W_FDONE] === 1) {
        g.hkFrontValid = false;
        g.trySwapH(now);
      }
    }
    this.executed = true;
    if (valid) {
      st.execValid++;
      this.slotsWritten |= 1 << slot;
    } else
      st.execBubble++;
    g.lastExec = now;
    if (split)
      this.startSplit(r, d[r + W_KICK] === 1);
    this.retire(r, now, split);
    return true;
  }
  checkMode(r) {
    const mode = this.dec.data[r + W_MODE2];
    if (this.dec.data[r + H_SLOT] !== this.modeSlot) {
      this.modeSlot = this.dec.data[r + H_SLOT];
      this.tripMode = mode;
    } else if (mode !== this.tripMode) {
      this.u.ruleError(GridCodes.mode, "GX conv3x3_mode changed within a trip", `${SEQ_SPEC6} \xA710.3`, this.seq, this.dec.data[r + H_PC]);
      this.tripMode = mode;
    }
    return mode;
  }
  /** Column iteration of the enabled columns: [c0, 16 * activePtns) step `step`; step 0 = no column enabled. */
  colStart() {
    return this.evenEn ? 0 : 1;
  }
  colStep() {
    return this.evenEn && this.oddEn ? 1 : this.evenEn || this.oddEn ? 2 : 0;
  }
  exec1x1(e, slot, zero, corr) {
    const g = this.grid;
    const step = this.colStep();
    if (step === 0)
      return;
    const c0 = this.colStart();
    const c1 = this.activePtns * 16;
    const nh = g.hN[e];
    const rows = this.endRow + 1;
    this.cmp.stats.macs += rows * Math.ceil((c1 - c0) / step) * nh;
    if (this.cmp.timingOnly)
      return;
    const T = productTables()[corr ? 0 : 1];
    const aa = this.cmp.acc.aa;
    const voff = nh === 8 ? 0 : 3;
    for (let row = 0; row < rows; row++) {
      llcRow1x1(T, g.h, (e * GRID_ROWS + row) * 8, nh, voff, g.vFront, g.vSpan, aa, (row * SLOTS + slot) * COLS, zero, c0, c1, step);
    }
  }
  /** Shifts the head data row of the GV FIFO into the 3x3 window (chip §6.3.3.1: the window slides down one row). */
  shiftRow() {
    const g = this.grid;
    const src = g.vHead * COLS;
    const dst = this.rowsIn % 3 * COLS;
    const win = this.win;
    const rows = g.vRows;
    if (!this.cmp.timingOnly)
      for (let c = 0; c < COLS; c++)
        win[dst + c] = rows[src + c];
    g.vPop();
    this.rowsIn++;
    if (g.hkSwaps !== this.kernelSwaps) {
      this.kernelSwaps = g.hkSwaps;
      this.rowsSinceKernel = 0;
    }
    this.rowsSinceKernel++;
  }
  exec3x3(slot, zero, corr) {
    const step = this.colStep();
    if (step === 0)
      return;
    const rows = this.endRow + 1;
    const ptns = this.activePtns;
    this.cmp.stats.macs += rows * ptns * Math.ceil((16 - this.colStart()) / step) * 9;
    if (this.cmp.timingOnly)
      return;
    const pad = this.pad;
    const win = this.win;
    const edgeW = this.ptn.ptnEdgeWest;
    const edgeE = this.ptn.ptnEdgeEast;
    const n2 = this.rowsIn - 1;
    for (let w = 0; w < 3; w++) {
      const src = ((n2 - 2 + w) % 3 + 3) % 3 * COLS;
      const dst = w * WIN_ROW;
      for (let p = 0; p < 8; p++) {
        const o = dst + p * WIN_PTN;
        const c = src + p * 16;
        pad[o] = p === 0 || edgeW[p] ? ZERO_OP : win[c - 1];
        for (let j = 0; j < 16; j++)
          pad[o + 1 + j] = win[c + j];
        pad[o + 17] = p === 7 || edgeE[p] ? ZERO_OP : win[c + 16];
      }
    }
    const wSpan = this.wSpan;
    for (let p = 0; p < 8; p++) {
      let lo2 = 99;
      let hi = -1;
      for (let w = 0; w < 3; w++) {
        const b = w * WIN_ROW + p * WIN_PTN;
        for (let i = 0; i < WIN_PTN; i++) {
          const o = pad[b + i];
          if ((o & 98304) !== 0)
            continue;
          const e = o >>> 10 & 31;
          if (e < lo2)
            lo2 = e;
          if (e > hi)
            hi = e;
        }
      }
      wSpan[p] = hi < 0 ? 0 : hi - lo2;
    }
    const T = productTables()[corr ? 0 : 1];
    const aa = this.cmp.acc.aa;
    const k = this.grid.hkFront;
    for (let row = 0; row < rows; row++) {
      llcRow3x3(T, k, row * 8 * 9, pad, wSpan, aa, (row * SLOTS + slot) * COLS, zero, ptns, this.colStart(), step);
    }
  }
  startSplit(r, kick) {
    if (this.slotsWritten !== 255) {
      const missing = [];
      for (let k = 0; k < SLOTS; k++)
        if (!(this.slotsWritten >> k & 1))
          missing.push(k);
      this.u.ruleError(GridCodes.slots, `GX split accumulation after an accumulation that never wrote accumulator slot(s) ${missing.join(", ")}: every split covers all 8 slots (pad to a multiple of 8 output rows / channels)`, `${SEQ_SPEC6} \xA71.3, \xA710.3.1`, this.seq, this.dec.data[r + H_PC]);
    }
    this.slotsWritten = 0;
    if (this.splitStep >= 0)
      this.portError(r, "a split accumulation starts while the previous one still runs (fewer than 8 cycles apart)");
    const acc = this.cmp.acc;
    if (!this.cmp.timingOnly)
      this.snap.set(acc.aa);
    this.splitStep = 0;
    this.splitFirst = acc.firstSplit;
    acc.firstSplit = false;
    this.splitKick = kick;
    this.zeroNeeded = 8;
  }
  /** One slot of the running split; -1 when stalled on writeback credits. */
  stepSplit() {
    const acc = this.cmp.acc;
    const st = this.cmp.stats;
    if (this.splitFirst) {
      if (acc.wbCredits <= 0) {
        st.stallWbCredits++;
        this.u.blocked ??= this.msgCredits;
        this.checkCreditSource();
        return -1;
      }
      acc.wbCredits--;
    }
    const k = this.splitStep;
    if (!this.cmp.timingOnly) {
      const wba = acc.wba;
      const snap = this.snap;
      const first = this.splitFirst;
      for (let row = 0; row < GRID_ROWS; row++) {
        const b = (row * SLOTS + k) * COLS;
        for (let c = 0; c < COLS; c++)
          wba[b + c] = splitSum(snap[b + c], first ? 0 : wba[b + c]);
      }
    }
    if (++this.splitStep === SLOTS) {
      this.splitStep = -1;
      st.splits++;
      if (this.splitKick) {
        acc.wbPending++;
        acc.firstSplit = true;
      }
    }
    return 1;
  }
  /** Writeback credits that no GWB program can return: an error, not a hang (seq §10.3.2). */
  checkCreditSource() {
    const u = this.u;
    const gwb = this.cmp.gwb;
    const s = u.seqs[gwb.seqId];
    if (s.core.running || s.qCount > 0 || !gwb.idle || u.trips.active > 1)
      return;
    u.ruleError(GridCodes.wbCredits, "GX split accumulation needs a writeback credit and no GWB program is left to offload the WBA and return it", `${SEQ_SPEC6} \xA710.3.2`, this.seq, this.seq?.core.execPc ?? 0);
    this.cmp.acc.wbCredits = SLOTS;
  }
  portError(r, what) {
    this.u.ruleError(GridCodes.aaPort, `GX: ${what}; the split owns the AA read port for 8 cycles (set zero_accum_iter_mask)`, `${SEQ_SPEC6} \xA710.3.1`, this.seq, this.dec.data[r + H_PC]);
  }
  windowError(r) {
    this.u.ruleError(GridCodes.window, `GX 3x3 Exec_Valid with ${this.rowsSinceKernel} data-row(s) of the current input channel in the window (needs 3: start each channel's group with 2 Exec_Bubble)`, `${SEQ_SPEC6} \xA710.3; chip \xA76.1.1`, this.seq, this.dec.data[r + H_PC]);
  }
  cmdError(r, what) {
    this.u.ruleError(GridCodes.readCmd, `GH/GX mode mismatch: ${what}`, `${SEQ_SPEC6} \xA710.1, \xA710.3`, this.seq, this.dec.data[r + H_PC]);
    this.grid.hkBackDone = false;
    this.grid.hCount = 0;
  }
  retire(r, now, split) {
    const d = this.dec.data;
    const last = d[r + H_LAST] === 1;
    const slot = d[r + H_SLOT];
    this.dec.pop();
    if (!last)
      return;
    if (this.doneSlot >= 0)
      this.u.seqDone(this.seqId, this.doneSlot);
    this.doneSlot = -1;
    if (!this.executed) {
      this.u.seqDone(this.seqId, slot);
      return;
    }
    this.executed = false;
    this.doneSlot = slot;
    this.doneAt = now + this.grid.p.llc_pipeline_latency_cycles + (split ? SLOTS : 0);
  }
  nextEvent(now) {
    if (this.splitStep >= 0)
      return now + 1;
    let w = this.grid.nextReady(now);
    if (this.doneSlot >= 0 && this.doneAt > now)
      w = Math.min(w, this.doneAt);
    return w;
  }
  get idle() {
    return this.dec.empty && this.splitStep < 0 && this.doneSlot < 0;
  }
};

// packages/target-pyxis/dist/sim/uie/compute/stats.js
var ComputeStats = class {
  /** Multiply-accumulates performed by the LLC grid (products that entered an accumulator, zero operands included). */
  macs = 0;
  /** GX cycles by kind: Exec_Valid (computing), Exec_Bubble, Exec_Config, Exec_NOP. */
  execValid = 0;
  execBubble = 0;
  execConfig = 0;
  execNop = 0;
  /** Split accumulations (AA -> WBA) and writebacks (GWB tiles) completed. */
  splits = 0;
  writebacks = 0;
  /** Flits (one WBA slot of one grid-row, 128 columns) sent by GWB to a switchbox FIFO. */
  wbFlits = 0;
  /** Words through the weights decompressor and WDP; Hbuf bytes written and read (per grid-row logical bytes). */
  wdcWords = 0;
  wdpWords = 0;
  hbufBytesWritten = 0;
  hbufReads = 0;
  /** Stall cycles by reason (a cycle in which the unit at the head could not proceed, counted once per unit). */
  stallHbufWrCredits = 0;
  stallHbufRdCredits = 0;
  stallWdcEmpty = 0;
  stallStaging = 0;
  stallHData = 0;
  stallVData = 0;
  stallWbCredits = 0;
  stallWbPending = 0;
  /** Vbuffer rows written / read by the four Vbuffer sequencers, and their wait cycles (seq §13). */
  vbufRowsWritten = 0;
  vbufRowsRead = 0;
  vbufStalls = 0;
  /** VPU cycles executing an instruction, and cycles its next instruction waited for the InFIFO / OutFIFO. */
  vpuBusy = 0;
  /** VPU instructions executed (NOPs included), lane-operations (non-NOP instructions x 128 lanes), and
   * Generate_VPU_Program records started by VI (seq §12.1; docs/timing-model.md "Pyxis VPU and Vbuffer statistics"). */
  vpuInstructions = 0;
  vpuLaneOps = 0;
  vpuPrograms = 0;
  /**
   * Per Vbuffer sequencer (seq §13-§14): rows moved and wait cycles by reason. `Empty`: no source row (writers: the
   * switchbox FIFO or the VPU OutFIFO; readers: a FIFO-mode tile with count 0); `Full`: no room in the target
   * (writers: a FIFO-mode tile holding 128 rows; readers: the switchbox FIFO or the VPU InFIFO); `Scratchpad`: a
   * scratchpad read with the decrement enabled waiting for scratchpad_count > 0 (readers only, seq §13.2).
   * `vbufStalls` is their sum.
   */
  sb2vbRows = 0;
  sb2vbEmpty = 0;
  sb2vbFull = 0;
  vpu2vbRows = 0;
  vpu2vbEmpty = 0;
  vpu2vbFull = 0;
  vb2sbRows = 0;
  vb2sbEmpty = 0;
  vb2sbFull = 0;
  vb2sbScratchpad = 0;
  vb2vpuRows = 0;
  vb2vpuEmpty = 0;
  vb2vpuFull = 0;
  vb2vpuScratchpad = 0;
  stallVpuIn = 0;
  stallVpuOut = 0;
  /** GWB cycles a Read_WBA waited for a writeback kick from GX (seq §11.4). */
  stallWbKick = 0;
  stallSwitchboxFull = 0;
  /** AMEM Weights Read cycles its port was held by a bank access served late (amem/banks.ts). */
  stallAmemPort = 0;
  /** Weights path (docs/timing-model.md "Pyxis weights path"): words the decompressor put into wdc_fifo, compressed
   * words it consumed (2 cycles each), cycles it waited for room in wdc_fifo, WR_HBUF cycles waiting for an H-lane
   * unload buffer still draining (seq §9.1.1), tbuf-full pushes into the Hbufs (seq §9.1.2), Read_Const pads
   * issued for post-final Weights Read instructions (seq §7.3). `hbufBytesWritten` sums logical bytes over grid-rows. */
  wdcOutWords = 0;
  wdcCompressedWords = 0;
  stallWdcFull = 0;
  stallHlaneBusy = 0;
  tbufFlushes = 0;
  weightsPads = 0;
};

// packages/target-pyxis/dist/sim/uie/compute/vbuffer.js
var TILES = 8;
var TILE_ROWS = 128;
var VB_COLS = 128;
var SCRATCHPAD_MAX = TILE_ROWS;
var Vbuffer = class {
  /** Tile t, entry e, column c: data[(t * TILE_ROWS + e) * VB_COLS + c] (RFP16 codes). */
  data = new Uint16Array(TILES * TILE_ROWS * VB_COLS);
  /** FIFO mode pointers and occupancy per tile (seq §13.1). */
  wrPtr = new Int32Array(TILES);
  rdPtr = new Int32Array(TILES);
  count = new Int32Array(TILES);
  /** scratchpad_count per tile (seq §13.2). */
  spCount = new Int32Array(TILES);
  /**
   * Per tile: sequencer id and op-word pc of the last instruction that incremented (writers) / decremented (readers)
   * its scratchpad_count, -1 when none since the last trip end; named by the SIM0652 diagnostic (seq §13.2).
   */
  spIncSeq = new Int32Array(TILES).fill(-1);
  spIncPc = new Int32Array(TILES);
  spDecSeq = new Int32Array(TILES).fill(-1);
  spDecPc = new Int32Array(TILES);
  /** Tiles used in scratchpad mode by the trip in each trip slot (bit t), checked at trip end. */
  spTilesBySlot = new Int32Array(4);
  /** Bank ownership (seq §13.3): sequencer id of the current writer / reader of each bank, -1 when free. */
  bankWriter = new Int32Array(TILES / 2).fill(-1);
  bankReader = new Int32Array(TILES / 2).fill(-1);
  /** Max-value snooping register (seq §14.1): one FP16 code per column, and whether it holds data. */
  snoop = new Uint16Array(VB_COLS);
  snoopValid = false;
  /** Copies entry `e` of tile `t` into dst[base..base+128). */
  readRow(t, e, dst, base2 = 0) {
    const o = (t * TILE_ROWS + e) * VB_COLS;
    const d = this.data;
    for (let c = 0; c < VB_COLS; c++)
      dst[base2 + c] = d[o + c];
  }
  /** Writes src[base..base+128) to entry `e` of tile `t`. */
  writeRow(t, e, src, base2 = 0) {
    const o = (t * TILE_ROWS + e) * VB_COLS;
    const d = this.data;
    for (let c = 0; c < VB_COLS; c++)
      d[o + c] = src[base2 + c];
  }
};

// packages/target-pyxis/dist/sim/uie/compute/vbufferUnits.js
var { SEQ_SPEC: SEQ_SPEC7 } = records_exports;
var VbufCodes = { bankOwner: "SIM0650", scratchpadOverflow: "SIM0651", scratchpadNonZero: "SIM0652" };
var W_OP5 = HDR_WORDS;
var W_TILE = HDR_WORDS + 1;
var W_PORT = HDR_WORDS + 2;
var W_SP = HDR_WORDS + 3;
var W_ADDR2 = HDR_WORDS + 4;
var W_COUNT = HDR_WORDS + 5;
var W_SNOOP = HDR_WORDS + 6;
var WORDS5 = HDR_WORDS + 7;
var FP16_SIGN2 = 32768;
var FP16_NAN2 = 32768;
function counterKeys(kind) {
  const sp = kind === "vb2sb" || kind === "vb2vpu" ? `${kind}Scratchpad` : `${kind}Full`;
  return { waits: [`${kind}Empty`, `${kind}Full`, sp], rows: `${kind}Rows` };
}
function signedGreater(x, y) {
  if (x === FP16_NAN2)
    return false;
  if (y === FP16_NAN2)
    return true;
  const sx = x & FP16_SIGN2;
  const sy = y & FP16_SIGN2;
  if (sx !== sy)
    return sy !== 0;
  return sx === 0 ? x > y : (x & 32767) < (y & 32767);
}
var VbufUnit = class {
  u;
  cmp;
  kind;
  seqId;
  dec;
  writer;
  row = new Uint16Array(VB_COLS);
  f = {};
  msgs;
  keys;
  constructor(u, cmp, kind) {
    this.u = u;
    this.cmp = cmp;
    this.kind = kind;
    this.seqId = seqIdOf(kind);
    this.writer = kind === "sb2vb" || kind === "vpu2vb";
    this.dec = new Fifo(`${u.name}.${kind}.dec`, u.params.uie.vbuffer_dec_fifo_depth, WORDS5);
    this.keys = counterKeys(kind);
    this.msgs = [`${kind}: waiting for its source (empty FIFO or tile, seq \xA713.1)`, `${kind}: waiting for room in its target (full FIFO or tile, seq \xA713.1)`, `${kind}: waiting for scratchpad_count > 0 (seq \xA713.2)`];
  }
  get vb() {
    return this.cmp.vbuffer;
  }
  startTrip(s) {
    const names = this.writer ? ["opcd", "wr_tile_idx", "src_select", "scratchpad_mode", "scratchpad_count_iter_mask", "scratchpad_count_incr_amt", "wr_addr_base", "wr_addr_iter_id", "wr_addr_iter_vld", "snoop_vld", "snoop_signed", "snoop_start_iter_mask"] : ["opcd", "rd_tile_idx", "tgt_select", "scratchpad_mode", "scratchpad_count_iter_mask", "scratchpad_count_decr", "rd_addr_base", "rd_addr_iter_id", "rd_addr_iter_vld"];
    this.f = opFieldArrays(s.op, names) ?? this.f;
  }
  decode(s, rec) {
    const d = this.dec.data;
    const f = this.f;
    const pc = s.core.execPc;
    const c = s.core;
    d[rec + W_OP5] = f.opcd?.[pc] ?? 0;
    if (d[rec + W_OP5] === 0)
      return;
    const w = this.writer;
    const tile = (w ? f.wr_tile_idx : f.rd_tile_idx)[pc] & 7;
    d[rec + W_TILE] = tile;
    d[rec + W_PORT] = (w ? f.src_select : f.tgt_select)?.[pc] ?? 0;
    const sp = f.scratchpad_mode[pc];
    d[rec + W_SP] = sp;
    const base2 = (w ? f.wr_addr_base : f.rd_addr_base)[pc];
    const vld = (w ? f.wr_addr_iter_vld : f.rd_addr_iter_vld)[pc];
    const it = (w ? f.wr_addr_iter_id : f.rd_addr_iter_id)[pc] % 6;
    d[rec + W_ADDR2] = (base2 + (vld ? c.execCount[it] : 0)) % TILE_ROWS;
    const mask = f.scratchpad_count_iter_mask[pc];
    if (w) {
      const en = mask === 0 || (c.itersEqNloops & mask) === mask;
      d[rec + W_COUNT] = sp && en ? f.scratchpad_count_incr_amt[pc] : 0;
      const sm = f.snoop_start_iter_mask?.[pc] ?? 0;
      d[rec + W_SNOOP] = (f.snoop_vld?.[pc] ?? 0) | (f.snoop_signed?.[pc] ?? 0) << 1 | (sm !== 0 && (c.itersEqZero & sm) === sm ? 4 : 0);
    } else {
      const en = mask === 0 || (c.itersEqZero & mask) === mask;
      d[rec + W_COUNT] = sp && en && f.scratchpad_count_decr[pc] ? 1 : 0;
    }
    if (sp)
      this.vb.spTilesBySlot[s.slot & 3] |= 1 << tile;
  }
  /** Source / target switchbox FIFO of this unit's port, undefined for the VPU side or the snoop register. */
  fifo(port2) {
    const u = this.u;
    switch (this.kind) {
      case "sb2vb":
        return port2 === 0 ? u.sbReadToVbuffer : port2 === 1 ? u.sbGridToVbuffer : void 0;
      case "vb2sb":
        return port2 === 0 ? u.sbVbufferToWrite : u.sbVbufferToGrid;
      default:
        return void 0;
    }
  }
  tick(now) {
    const dec = this.dec;
    if (dec.empty)
      return false;
    const d = dec.data;
    const r = dec.peekSlot();
    if (d[r + W_OP5] === 0)
      return this.retire(r);
    const u = this.u;
    const vb = this.vb;
    const vpu = this.cmp.vpu;
    const tile = d[r + W_TILE];
    const sp = d[r + W_SP] === 1;
    const port2 = d[r + W_PORT];
    const st = this.cmp.stats;
    if (!this.own(tile, r))
      return this.retire(r);
    if (this.writer) {
      const src = this.kind === "vpu2vb" ? void 0 : this.fifo(port2);
      const fromSnoop = this.kind === "sb2vb" && port2 === 2;
      const hasSrc = this.kind === "vpu2vb" ? vpu.outCount > 0 : fromSnoop ? true : src !== void 0 && !src.empty;
      if (!hasSrc)
        return this.wait(0, st);
      if (src !== void 0 && !fromSnoop && headWaiting(src, now, u))
        return this.wait(0, st);
      if (!sp && vb.count[tile] >= TILE_ROWS)
        return this.wait(1, st);
      const row = this.row;
      if (this.kind === "vpu2vb")
        vpu.popOut(row);
      else if (fromSnoop)
        row.set(vb.snoop);
      else {
        src.headColumns(row);
        src.pop();
      }
      const sn = d[r + W_SNOOP];
      if (sn & 1)
        this.snoop(row, (sn & 2) !== 0, (sn & 4) !== 0);
      if (sp)
        vb.writeRow(tile, d[r + W_ADDR2], row);
      else {
        vb.writeRow(tile, vb.wrPtr[tile], row);
        vb.wrPtr[tile] = (vb.wrPtr[tile] + 1) % TILE_ROWS;
        vb.count[tile]++;
      }
      const inc = d[r + W_COUNT];
      if (inc) {
        vb.spCount[tile] += inc;
        vb.spIncSeq[tile] = this.seqId;
        vb.spIncPc[tile] = d[r + H_PC];
        if (vb.spCount[tile] > SCRATCHPAD_MAX)
          u.ruleError(VbufCodes.scratchpadOverflow, `${this.kind}: scratchpad_count of tile ${tile} exceeds ${SCRATCHPAD_MAX} (${vb.spCount[tile]})`, `${SEQ_SPEC7} \xA713.2`, u.seqs[this.seqId], d[r + 2]);
      }
      st.vbufRowsWritten++;
      st[this.keys.rows]++;
    } else {
      if (sp) {
        if (d[r + W_COUNT] === 1 && vb.spCount[tile] === 0)
          return this.wait(2, st);
      } else if (vb.count[tile] === 0)
        return this.wait(0, st);
      const tgt = this.fifo(port2);
      const full = this.kind === "vb2vpu" ? vpu.inFull : tgt.full;
      if (full)
        return this.wait(1, st);
      const row = this.row;
      if (sp) {
        vb.readRow(tile, d[r + W_ADDR2], row);
        if (d[r + W_COUNT] === 1) {
          vb.spCount[tile]--;
          vb.spDecSeq[tile] = this.seqId;
          vb.spDecPc[tile] = d[r + H_PC];
        }
      } else {
        vb.readRow(tile, vb.rdPtr[tile], row);
        vb.rdPtr[tile] = (vb.rdPtr[tile] + 1) % TILE_ROWS;
        vb.count[tile]--;
      }
      if (this.kind === "vb2vpu")
        vpu.pushIn(row);
      else
        tgt.pushColumns(row);
      st.vbufRowsRead++;
      st[this.keys.rows]++;
    }
    return this.retire(r);
  }
  /** Bank ownership (seq §13.3): the first access of a trip claims the bank for this sequencer until its trip ends. */
  own(tile, r) {
    const vb = this.vb;
    const bank = tile >> 1;
    const owners = this.writer ? vb.bankWriter : vb.bankReader;
    const cur = owners[bank];
    if (cur === -1)
      owners[bank] = this.seqId;
    else if (cur !== this.seqId) {
      const other = this.u.seqs[cur]?.name ?? `seq${cur}`;
      this.u.ruleError(VbufCodes.bankOwner, `${this.kind} ${this.writer ? "writes" : "reads"} Vbuffer bank ${bank} (tile ${tile}) while ${other} owns its ${this.writer ? "write" : "read"} port`, `${SEQ_SPEC7} \xA713.3`, this.u.seqs[this.seqId], this.dec.data[r + 2]);
      return false;
    }
    return true;
  }
  snoop(row, signed, start2) {
    const vb = this.vb;
    const s = vb.snoop;
    if (start2 || !vb.snoopValid) {
      for (let c = 0; c < VB_COLS; c++)
        s[c] = signed ? row[c] : row[c] === FP16_NAN2 ? FP16_NAN2 : row[c] & 32767;
      vb.snoopValid = true;
      return;
    }
    for (let c = 0; c < VB_COLS; c++) {
      const x = signed ? row[c] : row[c] === FP16_NAN2 ? FP16_NAN2 : row[c] & 32767;
      if (signedGreater(x, s[c]))
        s[c] = x;
    }
  }
  wait(kind, st) {
    st.vbufStalls++;
    st[this.keys.waits[kind]]++;
    this.u.blocked ??= this.msgs[kind];
    return false;
  }
  retire(r) {
    const d = this.dec.data;
    const last = d[r + H_LAST] === 1;
    const slot = d[r + H_SLOT];
    this.dec.pop();
    if (last) {
      const owners = this.writer ? this.vb.bankWriter : this.vb.bankReader;
      for (let b = 0; b < owners.length; b++)
        if (owners[b] === this.seqId)
          owners[b] = -1;
      this.u.seqDone(this.seqId, slot);
    }
    return true;
  }
  nextEvent(_now) {
    return Infinity;
  }
  get idle() {
    return this.dec.empty;
  }
};

// packages/target-pyxis/dist/sim/uie/compute/vpu.js
var META = loadGrammarJson("pyxis", "vpu_instr").meta;
var LN = META.lanes;
var EB = META.eb;
var LANES = LN;
var GPRS = META.gprs;
var IMEM_WORDS = loadMemoryMap().regions.get("vpu.imem")?.words ?? 1024;
var FP16_SIGN3 = 1 << RFP16.bits - 1;
var FP16_NAN3 = FP16_SIGN3;
var FP16_MAG = RFP16.maxCode;
var VpuOp = {
  NOP: 0,
  MOV: 1,
  ADD: 2,
  SUB: 3,
  MUL: 4,
  MAC: 5,
  MIN: 6,
  MAX: 7,
  ABS: 8,
  NEG: 9,
  RELU: 10,
  CMP: 11,
  SEL: 12,
  LUT: 13,
  CVT_F2I: 14,
  CVT_I2F: 15,
  SCALE: 16,
  AND: 17,
  OR: 18,
  XOR: 19,
  SHL: 20,
  SHR: 21,
  RMAX: 22,
  RSUM: 23
};
var SRC_GPR = VPU_SRC.gpr;
var SRC_IMM = VPU_SRC.imm;
var SRC_IN = VPU_SRC.in;
var SRC_CNTR = VPU_SRC.cntr;
var CNTR_INCR = VPU_CNTR_INCR;
var CNTR_DECR = VPU_CNTR_DECR;
var CNTR_ZERO = VPU_CNTR_ZERO;
var FIELDS4 = ["opcode", "dtype", "rd", "rs1", "rs2", "src1_sel", "src2_sel", "wr_gpr_en", "out_fifo_push", "in_fifo_pop", "pred_en", "cmp_cond", "lut_idx", "eb_adj", "cntr_ctrl", "imm"];
var DEC = new Float64Array(1 << 16);
for (let c = 0; c < 1 << 16; c++)
  DEC[c] = RFP16.decode(c, EB);
var enc = (x) => rfp16Encode(x, EB);
var FP16_MAXN = FP16_SIGN3 | FP16_MAG;
var s16 = (c) => c << 16 >> 16;
var u16 = (v) => v & 65535;
var i16 = (v) => Int16.fromSigned(Math.max(-32768, Math.min(32767, v)));
var NEEDS_B = new Uint8Array(32);
for (const o of [VpuOp.ADD, VpuOp.SUB, VpuOp.MUL, VpuOp.MAC, VpuOp.MIN, VpuOp.MAX, VpuOp.CMP, VpuOp.SEL, VpuOp.AND, VpuOp.OR, VpuOp.XOR, VpuOp.SHL, VpuOp.SHR])
  NEEDS_B[o] = 1;
var SHARED_TABLES = /* @__PURE__ */ new Map();
var SHARED_TABLES_MAX = 64;
var Vpu = class _Vpu {
  fifoDepth;
  gpr = new Uint16Array(GPRS * LN);
  /** Bit r set once GPR r was written (a read of an unwritten GPR is a program error). */
  written = 0;
  pred = new Uint8Array(LN);
  cntr = 0;
  /** Instruction memory decoded per field (vpu.imem, 1K words). */
  imem;
  /** LUT t entry e: base/slope RFP16 codes at lut[(t * 256 + e) * 2 + 0/1]. */
  lut = new Uint16Array(4 * 256 * 2);
  // FIFOs of rows (InFIFO from VB2VPU, OutFIFO to VPU2VB)
  inRows;
  outRows;
  inHead = 0;
  inCount = 0;
  outHead = 0;
  outCount = 0;
  a = new Uint16Array(LN);
  b = new Uint16Array(LN);
  d = new Uint16Array(LN);
  /** Lane-operations executed (instructions x 128), for stats. */
  laneOps = 0;
  instructions = 0;
  constructor(fifoDepth) {
    this.fifoDepth = fifoDepth;
    const m = {};
    for (const f of FIELDS4)
      m[f] = new Int32Array(IMEM_WORDS);
    this.imem = m;
    this.inRows = new Uint16Array(fifoDepth * LN);
    this.outRows = new Uint16Array(fifoDepth * LN);
  }
  /** Re-decodes the instruction memory and LUTs from the UIE config space when they changed. */
  load(cfg) {
    const im = cfg.regionBytes("vpu.imem");
    if (im && im.changed) {
      for (const f of FIELDS4) {
        const arr = this.imem[f];
        if (!im.table.byName.has(f))
          continue;
        for (let w = 0; w < IMEM_WORDS && w < im.words; w++)
          arr[w] = Number(readField(im.table, im.bytes, f, 0, w * im.stride));
      }
    }
    const lt = cfg.regionBytes("vpu.lut");
    if (lt && lt.changed) {
      this.lutChanged();
      for (let e = 0; e < 1024 && e < lt.words; e++) {
        this.lut[e * 2] = Number(readField(lt.table, lt.bytes, "base", 0, e * lt.stride));
        this.lut[e * 2 + 1] = Number(readField(lt.table, lt.bytes, "slope", 0, e * lt.stride));
      }
    }
  }
  /** The LUT contents changed (`load`, or a test writing `lut`): tables of LUT instructions are rebuilt. */
  lutChanged() {
    this.lutGen++;
    this.lutTabs.clear();
  }
  /** Pushes a row into the InFIFO; false when full. */
  pushIn(src, base2 = 0) {
    if (this.inCount === this.fifoDepth)
      return false;
    const slot = (this.inHead + this.inCount) % this.fifoDepth;
    const rows = this.inRows;
    const o = slot * LN;
    for (let l = 0; l < LN; l++)
      rows[o + l] = src[base2 + l];
    this.inCount++;
    return true;
  }
  get inFull() {
    return this.inCount === this.fifoDepth;
  }
  /** Pops the OutFIFO head into dst; false when empty. */
  popOut(dst, base2 = 0) {
    if (this.outCount === 0)
      return false;
    const rows = this.outRows;
    const o = this.outHead * LN;
    for (let l = 0; l < LN; l++)
      dst[base2 + l] = rows[o + l];
    this.outHead = (this.outHead + 1) % this.fifoDepth;
    this.outCount--;
    return true;
  }
  /** What instruction `pc` waits for (InFIFO data, OutFIFO room), or None when it can execute now. */
  waitsFor(pc) {
    const m = this.imem;
    const usesIn = m.src1_sel[pc] === SRC_IN || m.src2_sel[pc] === SRC_IN || m.in_fifo_pop[pc] === 1;
    if (m.opcode[pc] !== VpuOp.NOP && usesIn && this.inCount === 0)
      return 1;
    if (m.in_fifo_pop[pc] === 1 && this.inCount === 0)
      return 1;
    if (m.out_fifo_push[pc] === 1 && this.outCount === this.fifoDepth)
      return 2;
    return 0;
  }
  /**
   * Executes instruction `pc` on all lanes (call only when `waitsFor(pc)` is None). `forceCntrZero`: the VI
   * sequencer's counter_zero_iter_mask override (seq §12.1). Returns an error message for a program error (read of
   * an unwritten GPR, bit operation on FP16), else undefined.
   */
  execute(pc, forceCntrZero) {
    const m = this.imem;
    const op = m.opcode[pc];
    const fp = m.dtype[pc] === 0;
    const rd = m.rd[pc];
    if (op !== VpuOp.NOP) {
      const e1 = this.operand(m.src1_sel[pc], m.rs1[pc], m.imm[pc], fp, this.a);
      const ab = this.srcBase;
      const A = this.src;
      const readsRd = op === VpuOp.MAC || m.pred_en[pc] === 1;
      const e3 = readsRd && !(this.written >> rd & 1) ? `r${rd}` : void 0;
      const d = this.d;
      const T = e1 === void 0 && e3 === void 0 ? this.table(pc, op, fp) : void 0;
      if (T !== void 0) {
        for (let l = 0; l < LN; l++)
          d[l] = T[A[ab + l]];
      } else {
        const needsB = NEEDS_B[op] === 1;
        const e2 = needsB ? this.operand(m.src2_sel[pc], m.rs2[pc], m.imm[pc], fp, this.b) : void 0;
        const bb = needsB ? this.srcBase : 0;
        const B = needsB ? this.src : this.b;
        const err = e1 ?? e2 ?? e3;
        if (err)
          return `VPU instruction ${pc} reads GPR ${err} before any instruction wrote it`;
        if (fp && op >= VpuOp.AND && op <= VpuOp.SHR)
          return `VPU instruction ${pc}: ${Object.keys(VpuOp)[op]} is an Int16-only operation (dtype must be INT16)`;
        if (!fp || !fpRow(op, A, ab, B, bb, this.gpr, rd * LN, d))
          this.compute(op, fp, rd, m.cmp_cond[pc], m.lut_idx[pc], m.eb_adj[pc], A, ab, B, bb);
      }
      const g = rd * LN;
      const gpr = this.gpr;
      if (m.pred_en[pc] === 1) {
        for (let l = 0; l < LN; l++)
          if (!this.pred[l])
            d[l] = gpr[g + l];
      }
      if (m.wr_gpr_en[pc] === 1 && op !== VpuOp.CMP) {
        gpr.set(d, g);
        this.written |= 1 << rd;
      }
      if (m.out_fifo_push[pc] === 1) {
        const slot = (this.outHead + this.outCount) % this.fifoDepth;
        this.outRows.set(d, slot * LN);
        this.outCount++;
      }
      this.laneOps += LN;
    }
    if (m.in_fifo_pop[pc] === 1 && this.inCount > 0) {
      this.inHead = (this.inHead + 1) % this.fifoDepth;
      this.inCount--;
    }
    const cc = forceCntrZero ? CNTR_ZERO : m.cntr_ctrl[pc];
    if (cc === CNTR_INCR)
      this.cntr = this.cntr + 1 & 65535;
    else if (cc === CNTR_DECR)
      this.cntr = this.cntr - 1 & 65535;
    else if (cc === CNTR_ZERO)
      this.cntr = 0;
    this.instructions++;
    return void 0;
  }
  /**
   * Executions of an instruction before its lane function becomes a table (issue 23: a table costs 65,536 lane
   * operations to build, about 512 rows' worth; tests set 0 to put every eligible instruction on the table path).
   */
  static tableAfter = 256;
  /** Per pc: the table key of the instruction last executed there (-1 none), its executions, its table once built. */
  tabKey = new Float64Array(IMEM_WORDS).fill(-1);
  tabUses = new Int32Array(IMEM_WORDS);
  tabs = new Array(IMEM_WORDS).fill(void 0);
  /** LUT-instruction tables of this VPU (they depend on its LUT contents), dropped when `load` changes the LUTs. */
  lutTabs = /* @__PURE__ */ new Map();
  lutGen = 0;
  /**
   * The result table of instruction `pc` when its result in a lane is a function of the lane's operand a alone (a
   * from a GPR or the InFIFO): ADD / SUB / MUL / MIN / MAX with b the immediate, CVT_F2I / CVT_I2F / SCALE (eb_adj),
   * FP16 LUT; built from the lane functions fpOp / intOp themselves, so the results are the same bits. Undefined
   * for any other instruction or before `tableAfter` executions.
   */
  table(pc, op, fp) {
    const m = this.imem;
    const s1 = m.src1_sel[pc];
    if (s1 !== SRC_GPR && s1 !== SRC_IN)
      return void 0;
    let k;
    if (op <= VpuOp.MAX && op >= VpuOp.ADD && op !== VpuOp.MAC) {
      if (m.src2_sel[pc] !== SRC_IMM)
        return void 0;
      k = op + (fp ? 0 : 32) + (m.imm[pc] & 65535) * 64;
    } else if (op === VpuOp.CVT_F2I || op === VpuOp.CVT_I2F || op === VpuOp.SCALE)
      k = op + (fp ? 0 : 32) + (m.eb_adj[pc] + 1024) * 64 * 65536;
    else if (op === VpuOp.LUT && fp)
      k = op + m.lut_idx[pc] * 64 + this.lutGen * 256;
    else
      return void 0;
    if (this.tabKey[pc] === k) {
      const t2 = this.tabs[pc];
      if (t2 !== void 0 || ++this.tabUses[pc] <= _Vpu.tableAfter)
        return t2;
    } else {
      this.tabKey[pc] = k;
      this.tabs[pc] = void 0;
      this.tabUses[pc] = 1;
      if (_Vpu.tableAfter > 0)
        return void 0;
    }
    const lut = op === VpuOp.LUT;
    const cache4 = lut ? this.lutTabs : SHARED_TABLES;
    let t = cache4.get(k);
    if (t === void 0) {
      if (!lut && cache4.size >= SHARED_TABLES_MAX)
        cache4.clear();
      t = new Uint16Array(1 << 16);
      const y = m.imm[pc] & 65535;
      const eb = m.eb_adj[pc];
      const li = m.lut_idx[pc];
      for (let x = 0; x < 1 << 16; x++)
        t[x] = fp ? fpOp(op, x, y, 0, 0, this, 0, li, eb) : intOp(op, x, y, 0, 0, this, 0, eb);
      cache4.set(k, t);
    }
    this.tabs[pc] = t;
    return t;
  }
  /** Operand source of the last `operand` call: lanes at src[srcBase ..] (a GPR, the InFIFO head, or `tmp` filled). */
  src = this.a;
  srcBase = 0;
  /** Points `src`/`srcBase` at the operand's lanes (codes), filling `tmp` for an immediate or the counter; returns the GPR name when it reads an unwritten GPR. */
  operand(sel, r, imm, fp, tmp) {
    this.src = tmp;
    this.srcBase = 0;
    if (sel === SRC_GPR) {
      if (!(this.written >> r & 1))
        return `r${r}`;
      this.src = this.gpr;
      this.srcBase = r * LN;
    } else if (sel === SRC_IMM)
      tmp.fill(imm & 65535);
    else if (sel === SRC_IN) {
      this.src = this.inRows;
      this.srcBase = this.inHead * LN;
    } else if (sel === SRC_CNTR)
      tmp.fill(fp ? enc(s16(this.cntr)) : this.cntr & 65535);
    return void 0;
  }
  /** The lane loop of the operations without a specialised FP16 row (fpRow), one lane operation per call. */
  compute(op, fp, rd, cond, lutIdx, eb, A, ab, B, bb) {
    const d = this.d;
    if (op === VpuOp.RMAX || op === VpuOp.RSUM) {
      d.fill(op === VpuOp.RMAX ? reduceMax(A, ab, fp) : reduceSum(A, ab, fp));
      return;
    }
    const g = rd * LN;
    for (let l = 0; l < LN; l++) {
      const x = A[ab + l];
      const y = B[bb + l];
      d[l] = fp ? fpOp(op, x, y, this.gpr[g + l], cond, this, l, lutIdx, eb) : intOp(op, x, y, this.gpr[g + l], cond, this, l, eb);
    }
  }
};
function fpRow(op, A, ab, B, bb, G, gb, d) {
  switch (op) {
    case VpuOp.ADD:
      for (let l = 0; l < LN; l++)
        d[l] = add16(A[ab + l], B[bb + l]);
      return true;
    case VpuOp.SUB:
      for (let l = 0; l < LN; l++) {
        const y = B[bb + l];
        d[l] = y === FP16_NAN3 ? FP16_NAN3 : add16(A[ab + l], y === 0 ? 0 : y ^ FP16_SIGN3);
      }
      return true;
    case VpuOp.MUL:
      for (let l = 0; l < LN; l++)
        d[l] = mul16(A[ab + l], B[bb + l]);
      return true;
    case VpuOp.MAC:
      for (let l = 0; l < LN; l++)
        d[l] = add16(G[gb + l], mul16(A[ab + l], B[bb + l]));
      return true;
    case VpuOp.MIN:
    case VpuOp.MAX: {
      const min = op === VpuOp.MIN ? 1 : 0;
      for (let l = 0; l < LN; l++) {
        const x = A[ab + l];
        const y = B[bb + l];
        const kx = (x & FP16_MAG) * (1 - 2 * (x >>> 15));
        const ky = (y & FP16_MAG) * (1 - 2 * (y >>> 15));
        const takeX = ((min ? ky - kx : kx - ky) >>> 31 ^ 1) & 1;
        const nan = ((x ^ FP16_SIGN3) - 1 >>> 31 | (y ^ FP16_SIGN3) - 1 >>> 31) & 1;
        const r = y ^ (x ^ y) & -takeX;
        d[l] = r & nan - 1 | FP16_NAN3 & -nan;
      }
      return true;
    }
    case VpuOp.MOV:
      for (let l = 0; l < LN; l++)
        d[l] = A[ab + l];
      return true;
    case VpuOp.RELU:
      for (let l = 0; l < LN; l++) {
        const x = A[ab + l];
        const keep = 1 - (x >>> 15) | (x ^ FP16_SIGN3) - 1 >>> 31 & 1;
        d[l] = x & -keep;
      }
      return true;
    default:
      return false;
  }
}
function add16(x, y) {
  if (x === FP16_NAN3 || y === FP16_NAN3)
    return FP16_NAN3;
  if (x === FP16_MAG && y === FP16_MAXN || x === FP16_MAXN && y === FP16_MAG)
    return FP16_NAN3;
  return rfp16Encode(DEC[x] + DEC[y], EB);
}
function mul16(x, y) {
  if (x === FP16_NAN3 || y === FP16_NAN3)
    return FP16_NAN3;
  const mx = x & FP16_MAG;
  const my = y & FP16_MAG;
  const p = (mx & 1023 | 1024) * (my & 1023 | 1024);
  const hi = p >>> 21;
  const pn = p << 1 - hi;
  const t = ((mx >>> 10) + (my >>> 10) + EB + hi << 10 | pn >>> 11 & 1023) + ((pn & 2047) + (pn >>> 11 & 1) + 1023 >>> 11);
  const nz = mx + FP16_MAG >>> 15 & my + FP16_MAG >>> 15;
  if (t <= 0 || nz === 0)
    return 0;
  const sign = (x ^ y) & FP16_SIGN3;
  return t >= 32768 ? sign | FP16_MAG : sign | t;
}
function compareValues(cond, u, v) {
  if (u !== u || v !== v)
    return cond === 1;
  switch (cond) {
    case 0:
      return u === v;
    case 1:
      return u !== v;
    case 2:
      return u < v;
    case 3:
      return u <= v;
    case 4:
      return u > v;
    default:
      return u >= v;
  }
}
var fpCompare = (cond, x, y) => compareValues(cond, DEC[x], DEC[y]);
var intCompare = (cond, x, y) => compareValues(cond, s16(x), s16(y));
function fpOp(op, x, y, old, cond, vpu, lane, lutIdx, eb) {
  switch (op) {
    case VpuOp.MOV:
      return x;
    case VpuOp.ADD:
      return add16(x, y);
    case VpuOp.SUB:
      return y === FP16_NAN3 ? FP16_NAN3 : add16(x, y === 0 ? 0 : y ^ FP16_SIGN3);
    case VpuOp.MUL:
      return mul16(x, y);
    case VpuOp.MAC:
      return add16(old, mul16(x, y));
    case VpuOp.MIN:
    case VpuOp.MAX: {
      const u = DEC[x];
      const v = DEC[y];
      if (u !== u || v !== v)
        return FP16_NAN3;
      return (op === VpuOp.MIN ? u <= v : u >= v) ? x : y;
    }
    case VpuOp.ABS:
      return x === FP16_NAN3 ? x : x & FP16_MAG;
    case VpuOp.NEG:
      return x === FP16_NAN3 || x === 0 ? x : x ^ FP16_SIGN3;
    case VpuOp.RELU:
      return x === FP16_NAN3 ? x : x & FP16_SIGN3 ? 0 : x;
    case VpuOp.CMP:
      vpu.pred[lane] = fpCompare(cond, x, y) ? 1 : 0;
      return x;
    case VpuOp.SEL:
      return vpu.pred[lane] ? x : y;
    case VpuOp.LUT: {
      if (x === FP16_NAN3)
        return FP16_NAN3;
      const e = (lutIdx * 256 + (x >>> 8)) * 2;
      return enc(DEC[vpu.lut[e]] + DEC[vpu.lut[e + 1]] * ((x & 255) / 256));
    }
    case VpuOp.CVT_F2I: {
      const v = DEC[x];
      if (v !== v)
        return 0;
      return i16(roundEven(v * 2 ** eb));
    }
    case VpuOp.CVT_I2F:
      return enc(s16(x) * 2 ** eb);
    case VpuOp.SCALE:
      return x === FP16_NAN3 ? x : ebAdjust("RFP16", x, eb);
    default:
      return 0;
  }
}
function intOp(op, x, y, old, cond, vpu, lane, eb) {
  switch (op) {
    case VpuOp.MOV:
      return x;
    case VpuOp.ADD:
      return fixedAdd(Int16, x, y);
    case VpuOp.SUB:
      return i16(s16(x) - s16(y));
    case VpuOp.MUL:
      return fixedMul(Int16, x, y);
    case VpuOp.MAC:
      return fixedAdd(Int16, old, fixedMul(Int16, x, y));
    case VpuOp.MIN:
      return s16(x) <= s16(y) ? x : y;
    case VpuOp.MAX:
      return s16(x) >= s16(y) ? x : y;
    case VpuOp.ABS:
      return i16(Math.abs(s16(x)));
    case VpuOp.NEG:
      return i16(-s16(x));
    case VpuOp.RELU:
      return s16(x) < 0 ? 0 : x;
    case VpuOp.CMP:
      vpu.pred[lane] = intCompare(cond, x, y) ? 1 : 0;
      return x;
    case VpuOp.SEL:
      return vpu.pred[lane] ? x : y;
    case VpuOp.LUT:
      return x;
    // LUTs index FP16 operands; on Int16 the operand passes through (documented)
    case VpuOp.CVT_F2I: {
      const v = DEC[x];
      if (v !== v)
        return 0;
      return i16(roundEven(v * 2 ** eb));
    }
    case VpuOp.CVT_I2F:
      return enc(s16(x) * 2 ** eb);
    case VpuOp.SCALE:
      return i16(roundEven(s16(x) * 2 ** eb));
    case VpuOp.AND:
      return x & y;
    case VpuOp.OR:
      return x | y;
    case VpuOp.XOR:
      return x ^ y;
    case VpuOp.SHL:
      return u16(x << (y & 15));
    case VpuOp.SHR:
      return u16(s16(x) >> (y & 15));
    default:
      return 0;
  }
}
function reduceMax(a, ab, fp) {
  let best = a[ab];
  for (let l = 0; l < LN; l++) {
    const x = a[ab + l];
    if (fp) {
      if (x === FP16_NAN3)
        return FP16_NAN3;
      if (DEC[x] > DEC[best])
        best = x;
    } else if (s16(x) > s16(best))
      best = x;
  }
  return best;
}
function reduceSum(a, ab, fp) {
  if (!fp) {
    let s2 = 0;
    for (let l = 0; l < LN; l++)
      s2 += s16(a[ab + l]);
    return i16(s2);
  }
  let s = 0;
  let pmax = false;
  let nmax = false;
  for (let l = 0; l < LN; l++) {
    const x = a[ab + l];
    if (x === FP16_NAN3)
      return FP16_NAN3;
    if ((x & FP16_MAG) === FP16_MAG) {
      if (x & FP16_SIGN3)
        nmax = true;
      else
        pmax = true;
    }
    s += DEC[x];
  }
  if (pmax && nmax)
    return FP16_NAN3;
  return enc(s);
}
function roundEven(v) {
  const f = Math.floor(v);
  const r = v - f;
  if (r > 0.5)
    return f + 1;
  if (r < 0.5)
    return f;
  return f % 2 === 0 ? f : f + 1;
}

// packages/target-pyxis/dist/sim/uie/compute/vi.js
var { CHIP_SPEC_F: CHIP_SPEC_F3, SEQ_SPEC: SEQ_SPEC8 } = records_exports;
var SRC_IN2 = VPU_SRC.in;
var VpuCodes = { programError: "SIM0655", imemOverflow: "SIM0656" };
var W_OP6 = HDR_WORDS;
var W_START3 = HDR_WORDS + 1;
var W_COUNT2 = HDR_WORDS + 2;
var W_ZERO2 = HDR_WORDS + 3;
var WORDS6 = HDR_WORDS + 4;
var ViUnit = class {
  u;
  cmp;
  seqId = seqIdOf("vi");
  dec;
  f = {};
  /** Remaining instructions of the program being executed (0 = none started for the head record). */
  left = 0;
  pc = 0;
  msgIn;
  msgOut;
  constructor(u, cmp) {
    this.u = u;
    this.cmp = cmp;
    this.dec = new Fifo(`${u.name}.vi.dec`, u.params.uie.vi_dec_fifo_depth, WORDS6);
    this.msgIn = `vi: VPU instruction waits for the VPU InFIFO (VB2VPU, seq \xA714.4)`;
    this.msgOut = `vi: VPU instruction waits for room in the VPU OutFIFO (VPU2VB, seq \xA714.3)`;
  }
  startTrip(s) {
    this.f = opFieldArrays(s.op, ["opcd", "vpv_pgm_start_addr", "vpv_pgm_instr_count", "counter_zero_iter_mask"]) ?? this.f;
    this.cmp.vpu.load(this.u.config);
  }
  decode(s, rec) {
    const d = this.dec.data;
    const f = this.f;
    const pc = s.core.execPc;
    d[rec + W_OP6] = f.opcd?.[pc] ?? 0;
    d[rec + W_START3] = f.vpv_pgm_start_addr?.[pc] ?? 0;
    d[rec + W_COUNT2] = f.vpv_pgm_instr_count?.[pc] ?? 1;
    const m = f.counter_zero_iter_mask?.[pc] ?? 0;
    d[rec + W_ZERO2] = m !== 0 && (s.core.itersEqNloops & m) === m ? 1 : 0;
    if (d[rec + W_OP6] === 1 && d[rec + W_START3] + d[rec + W_COUNT2] > IMEM_WORDS)
      this.u.ruleError(VpuCodes.imemOverflow, `VPU program at ${d[rec + W_START3]} with ${d[rec + W_COUNT2]} instructions runs past the 1K-word instruction memory`, `${SEQ_SPEC8} \xA712, \xA712.1`, s, pc);
  }
  tick(_now) {
    const dec = this.dec;
    this.lastPure = false;
    if (dec.empty)
      return false;
    const d = dec.data;
    const r = dec.peekSlot();
    if (d[r + W_OP6] !== 1)
      return this.retire(r);
    const st = this.cmp.stats;
    if (this.left === 0) {
      this.left = d[r + W_COUNT2];
      this.pc = d[r + W_START3];
      st.vpuPrograms++;
    }
    const vpu = this.cmp.vpu;
    const pc = this.pc % IMEM_WORDS;
    const w = vpu.waitsFor(pc);
    if (w !== 0) {
      if (w === 1)
        st.stallVpuIn++;
      else
        st.stallVpuOut++;
      this.u.blocked ??= w === 1 ? this.msgIn : this.msgOut;
      return false;
    }
    const lastOfProgram = this.left === 1;
    this.lastPure = !lastOfProgram && this.pure(pc);
    this.exec(pc, lastOfProgram && d[r + W_ZERO2] === 1, d[r + H_PC]);
    this.pc++;
    if (--this.left === 0)
      return this.retire(r);
    return true;
  }
  /** One instruction executed (its statistics and a program error), by `tick` and `runPure`. */
  exec(pc, zero, seqPc) {
    const st = this.cmp.stats;
    const vpu = this.cmp.vpu;
    const laneOps = vpu.laneOps;
    const err = vpu.execute(pc, zero);
    st.vpuLaneOps += vpu.laneOps - laneOps;
    st.vpuInstructions++;
    if (err)
      this.u.ruleError(VpuCodes.programError, err, `${CHIP_SPEC_F3} \xA76.4 (VPU model ISA, grammars/pyxis/vpu_instr.json)`, this.u.seqs[this.seqId], seqPc);
    st.vpuBusy++;
  }
  /**
   * Whether the instruction at `pc` touches nothing outside the VPU's registers: no InFIFO operand or pop, no OutFIFO
   * push (vpuBatch.ts: such an instruction, not the last of its program, changes no state another unit reads).
   */
  pure(pc) {
    const m = this.cmp.vpu.imem;
    return m.in_fifo_pop[pc] !== 1 && m.out_fifo_push[pc] !== 1 && m.src1_sel[pc] !== SRC_IN2 && m.src2_sel[pc] !== SRC_IN2;
  }
  /** Set by `tick`: the instruction it executed was pure (`pure`) and not the last of its program. */
  lastPure = false;
  /** How many of the next instructions (at most `max`) are pure and not the last of the program (0 when none runs). */
  pureAhead(max) {
    if (this.left <= 1 || this.dec.empty)
      return 0;
    const n2 = Math.min(max, this.left - 1);
    let k = 0;
    while (k < n2 && this.pure((this.pc + k) % IMEM_WORDS))
      k++;
    return k;
  }
  /** Executes the next pure instruction (`pureAhead` > 0) at cycle `now`, exactly as `tick` would. */
  runPure(now) {
    const d = this.dec.data;
    const r = this.dec.peekSlot();
    this.u.now = now;
    this.exec(this.pc % IMEM_WORDS, false, d[r + H_PC]);
    this.pc++;
    this.left--;
  }
  retire(_r) {
    this.left = 0;
    return retireHead(this.u, this);
  }
  nextEvent(_now) {
    return Infinity;
  }
  get idle() {
    return this.dec.empty;
  }
};

// packages/target-pyxis/dist/sim/uie/compute/wdc.js
var CHIP_SPEC2 = "pyxis-chip-fspec.md";
var WeightsCodes = {
  /** hbuf_wr_control / log2_ptns_per_hlane combination not in Table 9-3. */
  wrCombo: "SIM0620",
  /** More compressed data words than the superblock's 128 blocks (chip §14.2). */
  superblockOverrun: "SIM0621",
  /** Compressed data before any codebook / scaling-factor word (chip §14.2). */
  noHeader: "SIM0622",
  /** WR_HBUF is_16bit differs from the word's (Weights Read is_16bit, or 8-bit for decompressed weights). */
  widthMismatch: "SIM0623",
  /** hbuf_block_size 0 or > 256 with block start/end enabled (seq §9.1). */
  blockSize: "SIM0624",
  /** A tbuf slot written twice before its tbuf was full (seq §9.1.2). */
  tbufOverwrite: "SIM0625",
  /** Weights Read words of a trip without a WDP program are dropped. */
  noWdp: "SIM0626",
  /** Read_SRAM_with_ReLU on a codebook / scaling-factor / compressed word (ReLU ignored). */
  reluCompressed: "SIM0627"
};
var WDC_UNCOMPRESSED = 0;
var WDC_CODEBOOK = 1;
var WDC_SCALES = 2;
var I_READY = 0;
var I_16 = 1;
var I_TYPE = 2;
var I_BSIZE = 3;
var I_ROT = 4;
var I_NPTNS = 5;
var I_CONST = 6;
var I_RELU = 7;
var I_SLOT = 8;
var I_PC = 9;
var I_WORDS = 10;
var O_READY = 0;
var O_16 = 1;
var O_ROT = 2;
var O_SLOT = 3;
var O_DECOMP = 4;
var O_WORDS = 5;
var Wdc = class {
  u;
  cmp;
  // ---- FIFO from the AMEM Weights Read port
  inDepth;
  in32;
  inBytes;
  inMeta;
  inHead = 0;
  inCount = 0;
  // ---- wdc_fifo (post-decompression), popped by WDP WR_HBUF
  outDepth;
  outBytes;
  /** 32-bit view of `outBytes` (whole-word copies without a `subarray` view per word). */
  out32;
  outMeta;
  outHead = 0;
  outCount = 0;
  // ---- decompressor registers (chip §6.2.4.1: codebook buffer and scale-factor buffer)
  codebook = new Uint8Array(16);
  scales = new Uint8Array(128);
  haveCodebook = false;
  haveScales = false;
  /** Blocks of the current superblock already decompressed (reset by a scaling-factor word). */
  block = 0;
  /** Output half (0/1) of the compressed word at the head. */
  phase = 0;
  /** lut[idx * 256 + scale] = decompressWeight(codebook[idx], scale), rebuilt when a codebook word is captured. */
  lut = new Uint8Array(16 * 256);
  latency;
  readLatency;
  fullMsg = "";
  constructor(u, cmp) {
    this.u = u;
    this.cmp = cmp;
    const p = u.params.weights_path;
    this.inDepth = p.wdc_in_fifo_depth;
    this.outDepth = p.wdc_fifo_depth;
    this.latency = p.wdc_latency_cycles;
    this.readLatency = p.amem_read_latency_cycles;
    this.in32 = new Uint32Array(this.inDepth * 32);
    this.inBytes = new Uint8Array(this.in32.buffer);
    this.inMeta = new Int32Array(this.inDepth * I_WORDS);
    this.out32 = new Uint32Array(this.outDepth * 32);
    this.outBytes = new Uint8Array(this.out32.buffer);
    this.outMeta = new Int32Array(this.outDepth * O_WORDS);
  }
  /** True when the Weights Read port may issue a word this cycle (room in the FIFO to the decompressor, seq §7). */
  canAccept() {
    return this.inCount < this.inDepth;
  }
  /** Word offset (into `in32`) of the entry the next `commitIn` publishes; the port fills its 32 words first. */
  inTail32() {
    return (this.inHead + this.inCount) % this.inDepth * 32;
  }
  /** Publishes the tail entry filled through `inTail32` (seq §7.1 metadata; ready after amem_read_latency_cycles). */
  commitIn(now, is16, type, bsize, rot, nptns, constV, relu, slot, pc) {
    const m = (this.inHead + this.inCount) % this.inDepth * I_WORDS;
    const d = this.inMeta;
    d[m + I_READY] = now + this.readLatency;
    d[m + I_16] = is16;
    d[m + I_TYPE] = type;
    d[m + I_BSIZE] = bsize;
    d[m + I_ROT] = rot;
    d[m + I_NPTNS] = nptns;
    d[m + I_CONST] = constV;
    d[m + I_RELU] = relu;
    d[m + I_SLOT] = slot;
    d[m + I_PC] = pc;
    this.inCount++;
  }
  /** Index of the entry the next `commitIn` publishes (for `delayIn`). */
  inTailIndex() {
    return (this.inHead + this.inCount) % this.inDepth;
  }
  /** Entry `e` of the input FIFO (still queued) arrives `late` cycles later: its bank access was served late. */
  delayIn(e, late) {
    this.inMeta[e * I_WORDS + I_READY] += late;
  }
  /** wdc_fifo head entry index when a word is visible at `now`, else -1 (WDP side). */
  outReady(now) {
    if (this.outCount === 0)
      return -1;
    return this.outMeta[this.outHead * O_WORDS + O_READY] <= now ? this.outHead : -1;
  }
  outMetaAt(e, w) {
    return this.outMeta[e * O_WORDS + w];
  }
  popOut() {
    this.outHead = (this.outHead + 1) % this.outDepth;
    this.outCount--;
  }
  buildLut() {
    for (let i = 0; i < 16; i++)
      for (let s = 0; s < 256; s++)
        this.lut[i * 256 + s] = decompressWeight(this.codebook[i], s);
  }
  popIn() {
    this.inHead = (this.inHead + 1) % this.inDepth;
    this.inCount--;
  }
  /** Reserves the wdc_fifo tail: returns its entry index (caller fills 128 bytes at entry * 128). */
  pushOut(now, is16, rot, slot, decomp) {
    const e = (this.outHead + this.outCount) % this.outDepth;
    const m = e * O_WORDS;
    this.outMeta[m + O_READY] = now + this.latency;
    this.outMeta[m + O_16] = is16;
    this.outMeta[m + O_ROT] = rot;
    this.outMeta[m + O_SLOT] = slot;
    this.outMeta[m + O_DECOMP] = decomp;
    this.outCount++;
    return e;
  }
  error(code2, msg, spec, pc) {
    this.u.ruleError(code2, msg, spec, this.u.seqs[SEQ_AMEM_WEIGHTS_READ], pc);
  }
  /** Decompressor step, once per cycle (after the WDP in the tick order, so its output is seen next cycle at the earliest). */
  tick(now) {
    if (this.inCount === 0)
      return false;
    const e = this.inHead;
    const m = e * I_WORDS;
    const meta = this.inMeta;
    if (meta[m + I_READY] > now)
      return false;
    const type = meta[m + I_TYPE];
    const src = e * 128;
    const inb = this.inBytes;
    const st = this.cmp.stats;
    if (type === WDC_CODEBOOK) {
      for (let i = 0; i < 16; i++)
        this.codebook[i] = inb[src + i];
      this.haveCodebook = true;
      this.buildLut();
      if (meta[m + I_RELU])
        this.u.warnOnce("wdcRelu", WeightsCodes.reluCompressed, "Read_SRAM_with_ReLU on a codebook word: ReLU ignored", `${SEQ_SPEC2} \xA77.1`);
      st.wdcWords++;
      this.popIn();
      return true;
    }
    if (type === WDC_SCALES) {
      for (let i = 0; i < 128; i++)
        this.scales[i] = inb[src + i];
      this.haveScales = true;
      this.block = 0;
      st.wdcWords++;
      this.popIn();
      return true;
    }
    if (this.outCount === this.outDepth) {
      st.stallWdcFull++;
      this.u.blocked ??= this.fullMsg ||= `${this.u.name}: weights decompressor waiting for room in wdc_fifo (WDP WR_HBUF)`;
      return false;
    }
    const slot = meta[m + I_SLOT];
    if (type === WDC_UNCOMPRESSED) {
      const o2 = this.pushOut(now, meta[m + I_16], meta[m + I_ROT], slot, 0) * 128;
      const out2 = this.outBytes;
      if (meta[m + I_RELU]) {
        if (meta[m + I_16]) {
          for (let i = 0; i < 128; i += 2) {
            const lo2 = inb[src + i];
            const hi = inb[src + i + 1];
            const neg = hi & 128 && (hi & 127 | lo2) !== 0;
            out2[o2 + i] = neg ? 0 : lo2;
            out2[o2 + i + 1] = neg ? 0 : hi;
          }
        } else
          for (let i = 0; i < 128; i++) {
            const b = inb[src + i];
            out2[o2 + i] = b & 128 && b & 127 ? 0 : b;
          }
      } else if (!this.cmp.timingOnly) {
        const i322 = this.in32;
        const o32 = this.out32;
        const a = src >> 2;
        const b = o2 >> 2;
        for (let i = 0; i < 32; i++)
          o32[b + i] = i322[a + i];
      }
      st.wdcWords++;
      st.wdcOutWords++;
      this.popIn();
      return true;
    }
    const B = 4 << meta[m + I_BSIZE];
    const pc = meta[m + I_PC];
    if (this.phase === 0) {
      if (!this.haveCodebook || !this.haveScales)
        this.error(WeightsCodes.noHeader, `compressed weights word before any ${this.haveCodebook ? "scaling-factor" : "codebook"} word`, `${CHIP_SPEC2} \xA714.2, \xA76.2.4.1`, pc);
      if (this.block + 256 / B > 128)
        this.error(WeightsCodes.superblockOverrun, `compressed weights word past the 128 blocks of its superblock (block size ${B}: ${B / 2} data words per scaling-factor word)`, `${CHIP_SPEC2} \xA714.2`, pc);
      if (meta[m + I_RELU])
        this.u.warnOnce("wdcRelu", WeightsCodes.reluCompressed, "Read_SRAM_with_ReLU on compressed weights: ReLU ignored", `${SEQ_SPEC2} \xA77.1`);
    }
    const h = this.phase;
    const o = this.pushOut(now, 0, 0, slot, 1) * 128;
    const out = this.outBytes;
    const lut = this.lut;
    const sc = this.scales;
    const shift = 2 + meta[m + I_BSIZE];
    const blk0 = this.block + (128 * h >>> shift);
    const ib = src + 64 * h;
    for (let i = 0; i < 64; i++) {
      const byte = inb[ib + i];
      const w0 = 2 * i;
      const s0 = sc[blk0 + (w0 >>> shift) & 127];
      const s1 = sc[blk0 + (w0 + 1 >>> shift) & 127];
      out[o + w0] = lut[(byte & 15) << 8 | s0];
      out[o + w0 + 1] = lut[byte >>> 4 << 8 | s1];
    }
    st.wdcOutWords++;
    if (h === 0)
      this.phase = 1;
    else {
      this.phase = 0;
      this.block += 256 >>> shift;
      st.wdcWords++;
      st.wdcCompressedWords++;
      this.popIn();
    }
    return true;
  }
  nextEvent(now) {
    let w = Infinity;
    if (this.inCount > 0) {
      const r = this.inMeta[this.inHead * I_WORDS + I_READY];
      if (r > now)
        w = r;
    }
    if (this.outCount > 0) {
      const r = this.outMeta[this.outHead * O_WORDS + O_READY];
      if (r > now && r < w)
        w = r;
    }
    return w;
  }
  get idle() {
    return this.inCount === 0 && this.outCount === 0;
  }
};

// packages/target-pyxis/dist/sim/uie/compute/wdpDatapath.js
var LD_1ROW_16B = 0;
var LD_2ROWS_8B = 1;
var LD_1ROW_16B_TRANS = 2;
var LD_2ROWS_8B_TRANS = 3;
var WdpOp = class {
  is16 = 0;
  log2 = 0;
  /** Value of the iterator selected by hlane_iter_id. */
  hlaneIter = 0;
  wrCtl = 0;
  grip = 0;
  tbufIdx = 0;
  tbufCol = 0;
  /** hbuf_addr[11:3] of seq §9.1.4 (9 bits, 8-byte units). */
  addr9 = 0;
  zmEn = 0;
  zmA = 0;
  zmB = 0;
  dsblCorr = 0;
  ebAdj = 0;
  /** Logical partition 0 is physical lane `rot` (ptn_rot when wsw_ptn_rot_en, else 0). */
  rot = 0;
  pc = 0;
  /** Cycle of the WR_HBUF (only read by the Hbuf port check, `Hbuf.ports`). */
  now = 0;
};
var WdpDatapath = class _WdpDatapath {
  u;
  hbuf;
  stats;
  zm;
  timingOnly;
  /** tbuf[(row * 2 + idx) * 32 + slot * 8 + byte] (logical bytes, 16 bits each). */
  tbuf = new Uint16Array(GRID_ROWS * 2 * 32);
  /** Filled-slot bits per (row, idx). */
  tbufFill = new Uint8Array(GRID_ROWS * 2);
  /** One partition after switch, mask and lin2log: 16 logical bytes. */
  lb = new Uint16Array(16);
  /** FP8 / LnsI4F3 -> LnsI5F3 lookup for the current (eb_adj, mapping correction). */
  lut8 = new Uint16Array(256);
  lutKey = -1;
  constructor(u, hbuf, stats, zm, timingOnly = false) {
    this.u = u;
    this.hbuf = hbuf;
    this.stats = stats;
    this.zm = zm;
    this.timingOnly = timingOnly;
  }
  /** H-lane of logical partition L (seq §9.6). */
  static hlane(log2, it, L) {
    return log2 === 0 ? L : log2 === 1 ? (it & 1) << 2 | L >> 1 : log2 === 2 ? (it & 3) << 1 | L >> 2 : it & 7;
  }
  /** Writes one 128-byte wdc_fifo word (`src` at `off`) to the Hbufs. */
  write(op, src, off, s) {
    const log2 = op.log2;
    const kMask = (1 << log2) - 1;
    const is16 = op.is16;
    const key = (op.ebAdj & 63) * 2 + (op.dsblCorr ? 1 : 0);
    const dataOn = !this.timingOnly;
    if (dataOn && !is16 && key !== this.lutKey) {
      for (let c = 0; c < 256; c++)
        this.lut8[c] = fp8ToLnsI5F3Raw(c, op.ebAdj, !op.dsblCorr);
      this.lutKey = key;
    }
    const data2 = this.hbuf.data;
    const lb = this.lb;
    const wr = op.wrCtl;
    const ports = this.hbuf.ports;
    for (let L = 0; L < 8; L++) {
      const lane = L + op.rot & 7;
      const h = _WdpDatapath.hlane(log2, op.hlaneIter, L);
      const k = L & kMask;
      const g = wr === LD_1ROW_16B ? op.grip & 1 : wr === LD_1ROW_16B_TRANS ? k & 1 : -1;
      const mask = op.zmEn ? this.zm.masks[(wr === LD_1ROW_16B_TRANS && g === 1 ? op.zmB : op.zmA) * 8 + h] : 0;
      const p = off + lane * 16;
      if (!dataOn) {
      } else if (is16) {
        for (let i = 0; i < 8; i++) {
          const bit = g >= 0 ? 8 * g + i : 8 * (i >> 2) + (i & 3);
          let v = src[p + 2 * i] | src[p + 2 * i + 1] << 8;
          v = mask >> bit & 1 ? 0 : linToLogRaw(v, op.ebAdj, !op.dsblCorr, 0);
          lb[2 * i] = v & 255;
          lb[2 * i + 1] = v >>> 8;
        }
      } else
        for (let b = 0; b < 16; b++)
          lb[b] = mask >> b & 1 ? 0 : this.lut8[src[p + b]];
      if (wr === LD_1ROW_16B) {
        const row = 2 * h + g;
        const d = row * HBUF_BYTES + (((op.addr9 >> 1) + k & 255) << 4);
        if (dataOn)
          for (let b = 0; b < 16; b++)
            data2[d + b] = lb[b];
        this.stats.hbufBytesWritten += 16;
        if (ports)
          for (let bank = 0; bank < 2; bank++)
            ports.note(row, d - row * HBUF_BYTES + 8 * bank, op.now + k, 1);
      } else if (wr === LD_2ROWS_8B) {
        const a = (op.addr9 + k & 511) << 3;
        const d0 = 2 * h * HBUF_BYTES + a;
        const d1 = d0 + HBUF_BYTES;
        for (let b = 0; b < 8 && dataOn; b++) {
          data2[d0 + b] = lb[b];
          data2[d1 + b] = lb[8 + b];
        }
        this.stats.hbufBytesWritten += 16;
        if (ports)
          for (let gg = 0; gg < 2; gg++)
            ports.note(2 * h + gg, a, op.now + k, 1);
      } else if (wr === LD_2ROWS_8B_TRANS) {
        for (let gg = 0; gg < 2; gg++)
          this.loadTbuf(2 * h + gg, op, op.tbufCol & 3, 1, lb, 8 * gg, s, k);
      } else
        this.loadTbuf(2 * h + g, op, op.tbufCol & 2, 2, lb, 0, s, k);
    }
  }
  /** Loads `n` 8-byte tbuf slots from `lb[from..]` into grid-row `row`'s tbuf; pushes a full tbuf into the Hbuf. */
  loadTbuf(row, op, slot, n2, lb, from, s, k) {
    const t = row * 2 + (op.tbufIdx & 1);
    const bits = (1 << n2) - 1 << slot;
    if (this.tbufFill[t] & bits)
      this.u.ruleError(WeightsCodes.tbufOverwrite, `tbuf ${op.tbufIdx & 1} slot ${slot} of grid-row ${row} written again before the tbuf was full`, `${SEQ_SPEC2} \xA79.1.2, \xA79.4`, s, op.pc);
    const tb = this.tbuf;
    const base2 = t * 32 + slot * 8;
    if (!this.timingOnly)
      for (let b = 0; b < 8 * n2; b++)
        tb[base2 + b] = lb[from + b];
    this.tbufFill[t] = this.tbufFill[t] | bits;
    if (this.tbufFill[t] !== 15)
      return;
    this.tbufFill[t] = 0;
    const aib = op.addr9 >> 1 & ~3;
    const bank = op.addr9 & 1;
    const data2 = this.hbuf.data;
    const t0 = t * 32;
    const ports = this.hbuf.ports;
    for (let w = 0; w < 4; w++) {
      const d = row * HBUF_BYTES + ((aib + w & 255) << 4 | bank << 3);
      if (ports)
        ports.note(row, d - row * HBUF_BYTES, op.now + k + 1 + w, 1);
      if (this.timingOnly)
        continue;
      if (op.wrCtl === LD_2ROWS_8B_TRANS)
        for (let b = 0; b < 8; b++)
          data2[d + b] = tb[t0 + (b & 3) * 8 + 2 * w + (b >> 2)];
      else
        for (let q = 0; q < 4; q++) {
          const src = t0 + (q & 1) * 16 + 2 * (w + 4 * (q >> 1));
          data2[d + 2 * q] = tb[src];
          data2[d + 2 * q + 1] = tb[src + 1];
        }
    }
    this.stats.hbufBytesWritten += 32;
    this.stats.tbufFlushes++;
  }
};

// packages/target-pyxis/dist/sim/uie/compute/zeroMask.js
var ZeroMasks = class {
  /** masks[entry * 8 + hlane] = hlane_zero_mask[hlane] of entry 0..3. */
  masks = new Uint16Array(32);
  gen = -1;
  direct = false;
  raw = new Uint8Array(0);
  scratch = new Uint8Array(0);
  region;
  table;
  /** Installs masks directly (entry 0..3, 8 H-lane masks); the config space is no longer read for them. */
  set(entry, hlaneMasks) {
    for (let h = 0; h < 8; h++)
      this.masks[entry * 8 + h] = (hlaneMasks[h] ?? 0) & 65535;
    this.direct = true;
  }
  /** Re-reads the table from the config space when its generation moved and the bytes differ. */
  sync(cfg) {
    const space = cfg.cfg;
    if (this.direct || !space)
      return;
    const g = space.generation ?? -2;
    if (g === this.gen && g !== -2)
      return;
    this.gen = g;
    if (!this.region) {
      this.region = loadMemoryMap().regions.get("wdp.zero_mask");
      this.table = loadTable("pyxis", this.region?.table ?? "wdp_zero_mask");
    }
    const r = this.region;
    const t = this.table;
    if (!r)
      return;
    const len = r.stride * r.words;
    if (this.scratch.length !== len)
      this.scratch = new Uint8Array(len);
    space.read(cfg.base + r.offset, this.scratch, 0, len);
    if (this.raw.length === len) {
      let same = true;
      for (let i = 0; i < len && same; i++)
        if (this.raw[i] !== this.scratch[i])
          same = false;
      if (same)
        return;
    } else
      this.raw = new Uint8Array(len);
    this.raw.set(this.scratch);
    const n2 = Math.min(r.words, 4);
    for (let e = 0; e < n2; e++)
      for (let h = 0; h < 8; h++)
        this.masks[e * 8 + h] = Number(readField(t, this.raw, "hlane_zero_mask", h, e * r.stride));
  }
};

// packages/target-pyxis/dist/sim/uie/compute/wdp.js
var wdpTable = loadTable("pyxis", "wdp_op");
for (const [name, v] of [["LD_1ROW_16B", LD_1ROW_16B], ["LD_2ROWS_8B", LD_2ROWS_8B], ["LD_1ROW_16B_TRANS", LD_1ROW_16B_TRANS], ["LD_2ROWS_8B_TRANS", LD_2ROWS_8B_TRANS]])
  if (enumCode(wdpTable.byName.get("hbuf_wr_control"), name) !== v)
    throw new Error(`grammars/pyxis/wdp_op.json: hbuf_wr_control ${name} is not ${v} (compute/wdpDatapath.ts)`);
var WR_HBUF = enumCode(wdpTable.byName.get("opcd"), "WR_HBUF");
var R_OP2 = HDR_WORDS;
var R_16 = HDR_WORDS + 1;
var R_ROTEN = HDR_WORDS + 2;
var R_LOG2 = HDR_WORDS + 3;
var R_HIT = HDR_WORDS + 4;
var R_ZEN = HDR_WORDS + 5;
var R_ZA = HDR_WORDS + 6;
var R_ZB = HDR_WORDS + 7;
var R_DSBL = HDR_WORDS + 8;
var R_EB2 = HDR_WORDS + 9;
var R_BSIZE = HDR_WORDS + 10;
var R_BSTART = HDR_WORDS + 11;
var R_BEND = HDR_WORDS + 12;
var R_WRCTL = HDR_WORDS + 13;
var R_OFF = HDR_WORDS + 14;
var R_GRIP = HDR_WORDS + 15;
var R_TBUF = HDR_WORDS + 16;
var R_TCOL = HDR_WORDS + 17;
var R_STARTED = HDR_WORDS + 18;
var REC = HDR_WORDS + 19;
var LEGAL = [15, 15, 2, 1];
var WR_NAMES = ["LD_1ROW_16B", "LD_2ROWS_8B", "LD_1ROW_16B_TRANS", "LD_2ROWS_8B_TRANS"];
var WdpFields = class {
  op;
  opcd;
  is_16bit;
  wsw_ptn_rot_en;
  log2_ptns_per_hlane;
  hlane_iter_id;
  zero_mask_idx_a;
  zero_mask_idx_b;
  zero_mask_en;
  zero_mask_config_vld;
  dsbl_mapping_corr;
  eb_adj;
  lin2log_config_vld;
  hbuf_block_size;
  hbuf_block_start_en;
  hbuf_block_end_en;
  hbuf_block_iter_mask;
  hbuf_wr_control;
  hbuf_addr_offset;
  stride;
  strideIter;
  grip_iter_id;
  tbuf_idx_iter_id;
  tbuf_col_idx_iter_id;
  constructor(op) {
    this.op = op;
    this.opcd = op.field("opcd");
    this.is_16bit = op.field("is_16bit");
    this.wsw_ptn_rot_en = op.field("wsw_ptn_rot_en");
    this.log2_ptns_per_hlane = op.field("log2_ptns_per_hlane");
    this.hlane_iter_id = op.field("hlane_iter_id");
    this.zero_mask_idx_a = op.field("zero_mask_idx_a");
    this.zero_mask_idx_b = op.field("zero_mask_idx_b");
    this.zero_mask_en = op.field("zero_mask_en");
    this.zero_mask_config_vld = op.field("zero_mask_config_vld");
    this.dsbl_mapping_corr = op.field("dsbl_mapping_corr");
    this.eb_adj = op.field("eb_adj");
    this.lin2log_config_vld = op.field("lin2log_config_vld");
    this.hbuf_block_size = op.field("hbuf_block_size");
    this.hbuf_block_start_en = op.field("hbuf_block_start_en");
    this.hbuf_block_end_en = op.field("hbuf_block_end_en");
    this.hbuf_block_iter_mask = op.field("hbuf_block_iter_mask");
    this.hbuf_wr_control = op.field("hbuf_wr_control");
    this.hbuf_addr_offset = op.field("hbuf_addr_offset");
    this.stride = [op.field("hbuf_stride_dim1"), op.field("hbuf_stride_dim2"), op.field("hbuf_stride_dim3")];
    this.strideIter = [op.field("hbuf_stride_iter_id_dim1"), op.field("hbuf_stride_iter_id_dim2"), op.field("hbuf_stride_iter_id_dim3")];
    this.grip_iter_id = op.field("grip_iter_id");
    this.tbuf_idx_iter_id = op.field("tbuf_idx_iter_id");
    this.tbuf_col_idx_iter_id = op.field("tbuf_col_idx_iter_id");
  }
};
var CREDIT_RING = 64;
var WdpUnit = class {
  u;
  cmp;
  seqId = SEQ_WDP;
  dec;
  zeroMasks = new ZeroMasks();
  datapath;
  // configuration registers (seq §9.1: *_config_vld updates them, else the prior values are retained)
  zmEn = 0;
  zmA = 0;
  zmB = 0;
  dsblCorr = 0;
  ebAdj = 0;
  /** Cycle from which H-lane h's unload buffer accepts a new word. */
  hlaneFree = new Float64Array(8);
  // hbuf_rd_credits on their way to GH: (cycle, bytes), in cycle order
  crAt = new Float64Array(CREDIT_RING);
  crBytes = new Int32Array(CREDIT_RING);
  crHead = 0;
  crCount = 0;
  op = new WdpOp();
  fields;
  warnedWidth = false;
  latency;
  msgCredits;
  msgData;
  msgHlane;
  constructor(u, cmp) {
    this.u = u;
    this.cmp = cmp;
    const p = u.params.weights_path;
    this.latency = p.wdp_latency_cycles;
    this.dec = new Fifo(`${u.name}.wdp.dec`, p.wdp_dec_fifo_depth, REC);
    this.datapath = new WdpDatapath(u, cmp.hbuf, cmp.stats, this.zeroMasks, cmp.timingOnly);
    this.msgCredits = `${u.name}: wdp: block start waits for hbuf_wr_credits (seq \xA79.1.5)`;
    this.msgData = `${u.name}: wdp: WR_HBUF waits for a word in wdc_fifo`;
    this.msgHlane = `${u.name}: wdp: WR_HBUF waits for an H-lane unload buffer (seq \xA79.1.1)`;
  }
  startTrip(_s) {
    this.zeroMasks.sync(this.u.config);
  }
  decode(s, rec) {
    const o = s.op;
    if (!o) {
      this.dec.data[rec + R_OP2] = 0;
      return;
    }
    const f = this.fields?.op === o ? this.fields : this.fields = new WdpFields(o);
    const core = s.core;
    const pc = core.execPc;
    const cnt = core.execCount;
    const d = this.dec.data;
    if (f.zero_mask_config_vld[pc]) {
      this.zmEn = f.zero_mask_en[pc];
      this.zmA = f.zero_mask_idx_a[pc];
      this.zmB = f.zero_mask_idx_b[pc];
    }
    if (f.lin2log_config_vld[pc]) {
      this.dsblCorr = f.dsbl_mapping_corr[pc];
      this.ebAdj = f.eb_adj[pc];
    }
    const op = f.opcd[pc];
    const wr = f.hbuf_wr_control[pc];
    const log2 = f.log2_ptns_per_hlane[pc];
    d[rec + R_OP2] = op;
    d[rec + R_16] = f.is_16bit[pc];
    d[rec + R_ROTEN] = f.wsw_ptn_rot_en[pc];
    d[rec + R_LOG2] = log2;
    d[rec + R_HIT] = iterVal(cnt, f.hlane_iter_id[pc]);
    d[rec + R_ZEN] = this.zmEn;
    d[rec + R_ZA] = this.zmA;
    d[rec + R_ZB] = this.zmB;
    d[rec + R_DSBL] = this.dsblCorr;
    d[rec + R_EB2] = this.ebAdj;
    d[rec + R_WRCTL] = wr;
    d[rec + R_STARTED] = 0;
    d[rec + R_BSTART] = 0;
    d[rec + R_BEND] = 0;
    if (op !== WR_HBUF)
      return;
    if (!(LEGAL[wr] >> log2 & 1))
      this.u.ruleError(WeightsCodes.wrCombo, `hbuf_wr_control ${WR_NAMES[wr]} with log2_ptns_per_hlane ${log2} is not a supported combination`, `${SEQ_SPEC2} \xA79.1.2 Table 9-3`, s, pc);
    let off = f.hbuf_addr_offset[pc];
    for (let k = 0; k < 3; k++)
      off += f.stride[k][pc] * (iterVal(cnt, f.strideIter[k][pc]) & 255) & 511;
    d[rec + R_OFF] = off & 511;
    d[rec + R_GRIP] = iterVal(cnt, f.grip_iter_id[pc]) & 1;
    d[rec + R_TBUF] = iterVal(cnt, f.tbuf_idx_iter_id[pc]) & 1;
    const tc = iterVal(cnt, f.tbuf_col_idx_iter_id[pc]);
    d[rec + R_TCOL] = wr === LD_1ROW_16B_TRANS ? (tc & 1) << 1 : tc & 3;
    const mask = f.hbuf_block_iter_mask[pc] & (1 << NUM_ITERS) - 1;
    const size = f.hbuf_block_size[pc];
    d[rec + R_BSIZE] = size * 16;
    if (mask !== 0) {
      const st = f.hbuf_block_start_en[pc] && (core.itersEqZero & mask) === mask ? 1 : 0;
      const en = f.hbuf_block_end_en[pc] && (core.itersEqNloops & mask) === mask ? 1 : 0;
      if ((st || en) && (size === 0 || size > 256))
        this.u.ruleError(WeightsCodes.blockSize, `hbuf_block_size ${size} (units of 16 bytes) must be 1..256`, `${SEQ_SPEC2} \xA79.1`, s, pc);
      d[rec + R_BSTART] = st;
      d[rec + R_BEND] = en;
    }
  }
  /** Moves credits whose time has come to GH (hbuf.rdCredits). */
  drainCredits(now) {
    let did = false;
    while (this.crCount > 0 && this.crAt[this.crHead] <= now) {
      this.cmp.hbuf.rdCredits += this.crBytes[this.crHead];
      this.crHead = (this.crHead + 1) % CREDIT_RING;
      this.crCount--;
      did = true;
    }
    return did;
  }
  sendCredits(at2, bytes) {
    if (this.crCount === CREDIT_RING) {
      this.cmp.hbuf.rdCredits += this.crBytes[this.crHead];
      this.crHead = (this.crHead + 1) % CREDIT_RING;
      this.crCount--;
    }
    const last = this.crCount > 0 ? this.crAt[(this.crHead + this.crCount - 1) % CREDIT_RING] : 0;
    const i = (this.crHead + this.crCount) % CREDIT_RING;
    this.crAt[i] = Math.max(at2, last);
    this.crBytes[i] = bytes;
    this.crCount++;
  }
  tick(now) {
    let did = this.drainCredits(now);
    const dec = this.dec;
    if (dec.empty)
      return did;
    const r = dec.peekSlot();
    const d = dec.data;
    const st = this.cmp.stats;
    const hb = this.cmp.hbuf;
    if (d[r + R_OP2] === WR_HBUF) {
      const size = d[r + R_BSIZE];
      if (d[r + R_BSTART] && !d[r + R_STARTED]) {
        if (hb.wrCredits < size) {
          st.stallHbufWrCredits++;
          this.u.blocked ??= this.msgCredits;
          return did;
        }
        hb.wrCredits -= size;
        d[r + R_STARTED] = 1;
        did = true;
      }
      const wdc = this.cmp.wdc;
      const e = wdc.outReady(now);
      if (e < 0) {
        st.stallWdcEmpty++;
        this.u.blocked ??= this.msgData;
        return did;
      }
      const log2 = d[r + R_LOG2];
      const hit2 = d[r + R_HIT];
      const per = 1 << log2;
      const h0 = log2 === 0 ? 0 : log2 === 1 ? (hit2 & 1) << 2 : log2 === 2 ? (hit2 & 3) << 1 : hit2 & 7;
      const nh = 8 >> log2;
      for (let h = h0; h < h0 + nh; h++)
        if (this.hlaneFree[h] > now) {
          st.stallHlaneBusy++;
          this.u.blocked ??= this.msgHlane;
          return did;
        }
      for (let h = h0; h < h0 + nh; h++)
        this.hlaneFree[h] = now + per;
      const is16 = d[r + R_16];
      const pc = d[r + H_PC];
      const s = this.u.seqs[SEQ_WDP];
      if (wdc.outMetaAt(e, O_16) !== is16 && !this.warnedWidth) {
        this.warnedWidth = true;
        this.u.warnOnce("wdpWidth", WeightsCodes.widthMismatch, `WR_HBUF is_16bit ${is16} on a ${wdc.outMetaAt(e, O_DECOMP) ? "decompressed (8-bit LnsI4F3)" : wdc.outMetaAt(e, O_16) ? "16-bit" : "8-bit"} word (pc ${pc})`, `${SEQ_SPEC2} \xA77.1, \xA79.1`);
      }
      const op = this.op;
      op.is16 = is16;
      op.log2 = log2;
      op.hlaneIter = hit2;
      op.wrCtl = d[r + R_WRCTL];
      op.grip = d[r + R_GRIP];
      op.tbufIdx = d[r + R_TBUF];
      op.tbufCol = d[r + R_TCOL];
      op.addr9 = (hb.wrBase >> 3) + d[r + R_OFF] & 511;
      op.zmEn = d[r + R_ZEN];
      op.zmA = d[r + R_ZA];
      op.zmB = d[r + R_ZB];
      op.dsblCorr = d[r + R_DSBL];
      op.ebAdj = d[r + R_EB2];
      op.rot = d[r + R_ROTEN] ? wdc.outMetaAt(e, O_ROT) : 0;
      op.pc = pc;
      op.now = now;
      this.datapath.write(op, wdc.outBytes, e * 128, s);
      wdc.popOut();
      st.wdpWords++;
      if (d[r + R_BEND]) {
        hb.wrBase = (hb.wrBase + size) % HBUF_BYTES;
        this.sendCredits(now + this.latency + per - 1, size);
      }
    }
    const last = d[r + H_LAST];
    const slot = d[r + H_SLOT];
    dec.pop();
    if (last)
      this.u.seqDone(this.seqId, slot);
    return true;
  }
  nextEvent(now) {
    if (this.crCount > 0) {
      const t = this.crAt[this.crHead];
      if (t > now)
        return t;
      return now + 1;
    }
    return Infinity;
  }
  get idle() {
    return this.dec.empty && this.crCount === 0;
  }
};

// packages/target-pyxis/dist/sim/uie/compute/index.js
var Compute = class {
  u;
  hbuf = new Hbuf();
  acc = new Accumulators();
  stats = new ComputeStats();
  vbuffer = new Vbuffer();
  vpu;
  timingOnly;
  wdc;
  wdp;
  gh;
  gv;
  gx;
  gwb;
  sb2vb;
  vb2sb;
  vb2vpu;
  vpu2vb;
  vi;
  /** Unit by sequencer id (undefined for sequencers that are not compute units). */
  bySeq = [];
  /** Tick order: downstream first. */
  order;
  constructor(u, opts = {}) {
    this.u = u;
    this.timingOnly = opts.timingOnly ?? false;
    this.vpu = new Vpu(u.params.uie.vpu_fifo_depth);
    this.wdc = new Wdc(u, this);
    this.wdp = new WdpUnit(u, this);
    this.gh = new GhUnit(u, this);
    this.gv = new GvUnit(u, this);
    this.gx = new GxUnit(u, this);
    this.gwb = new GwbUnit(u, this);
    this.sb2vb = new VbufUnit(u, this, "sb2vb");
    this.vb2sb = new VbufUnit(u, this, "vb2sb");
    this.vb2vpu = new VbufUnit(u, this, "vb2vpu");
    this.vpu2vb = new VbufUnit(u, this, "vpu2vb");
    this.vi = new ViUnit(u, this);
    this.order = [this.vb2sb, this.vpu2vb, this.vi, this.vb2vpu, this.sb2vb, this.gwb, this.gx, this.gh, this.gv, this.wdp];
    for (const x of this.order)
      this.bySeq[x.seqId] = x;
  }
  /**
   * A trip retired from trip slot `slot`: every Vbuffer tile it used in scratchpad mode must have its
   * scratchpad_count back at zero (seq §13.2 "At the end of a trip, the count must always return to zero"). The
   * diagnostic points at the last instruction that incremented the count and names the last one that decremented it.
   */
  tripRetired(slot) {
    const vb = this.vbuffer;
    const k = slot & 3;
    let m = vb.spTilesBySlot[k];
    vb.spTilesBySlot[k] = 0;
    while (m !== 0) {
      const t = 31 - Math.clz32(m);
      m ^= 1 << t;
      const inc = vb.spIncSeq[t];
      const dec = vb.spDecSeq[t];
      vb.spIncSeq[t] = vb.spDecSeq[t] = -1;
      if (vb.spCount[t] !== 0) {
        const name = (id) => this.u.seqs[id]?.name ?? `seq${id}`;
        const by = inc >= 0 ? `; last incremented by ${name(inc)} pc ${vb.spIncPc[t]}` : "";
        const rd = dec >= 0 ? `, last decremented by ${name(dec)} pc ${vb.spDecPc[t]}` : ", never decremented (no scratchpad read with scratchpad_count_decr enabled)";
        const count = vb.spCount[t];
        vb.spCount[t] = 0;
        this.u.ruleError(VbufCodes.scratchpadNonZero, `trip ${this.u.slots[slot]?.tripId ?? "?"} ended with scratchpad_count ${count} on Vbuffer tile ${t} (must return to zero)${by}${rd}`, `${SEQ_SPEC2} \xA713.2`, inc >= 0 ? this.u.seqs[inc] : void 0, inc >= 0 ? vb.spIncPc[t] : 0);
      }
    }
  }
  /** True when no unit holds work (set by `tick`); the UIE skips the compute half while it is quiet and no compute sequencer runs. */
  quiet = true;
  /** Set by `tick`: VI was the only unit that made progress (vpuBatch.ts). */
  viOnly = false;
  tick(now) {
    let did = false;
    let others = false;
    const o = this.order;
    const vi = this.vi;
    for (let i = 0; i < o.length; i++) {
      const x = o[i];
      if (x.tick(now)) {
        did = true;
        if (x !== vi)
          others = true;
      }
    }
    if (this.wdc.tick(now))
      did = others = true;
    this.quiet = this.idle;
    this.viOnly = did && !others;
    return did;
  }
  nextEvent(now) {
    let w = this.wdc.nextEvent(now);
    for (const x of this.order)
      w = Math.min(w, x.nextEvent(now));
    return w;
  }
  get idle() {
    if (!this.wdc.idle)
      return false;
    for (const x of this.order)
      if (!x.idle)
        return false;
    return true;
  }
};

// packages/target-pyxis/dist/sim/uie/addressGen.js
var addressGen_exports = {};
__export(addressGen_exports, {
  checkItfeCount: () => checkItfeCount,
  decodeCommon: () => decodeCommon,
  decodeFast: () => decodeFast,
  decodeRead: () => decodeRead,
  decodeWrite: () => decodeWrite,
  indirectAddr: () => indirectAddr,
  stridedAddr: () => stridedAddr,
  writeStatic: () => writeStatic
});
var { INDIR_BASE_ITERS: INDIR_BASE_ITERS2, INDIR_MODE_MASK: INDIR_MODE_MASK2, INDIR_X32: INDIR_X322, INDIR_X_STRIDE_ITER: INDIR_X_STRIDE_ITER2, INDIR_Y: INDIR_Y2, INDIR_Y_2D: INDIR_Y_2D2, INDIR_Y_MSBS: INDIR_Y_MSBS2, INDIR_Y_NONE: INDIR_Y_NONE2, INDIR_Y_STRIDE_ITER: INDIR_Y_STRIDE_ITER2, RD_CONST: RD_CONST2, RD_NOP: RD_NOP2, readsSram: readsSram2, WR_DISCARD: WR_DISCARD2, writesSram: writesSram2 } = codes_exports;
var { iterVal: iterVal2 } = opFields_exports;
var { A_CONST: A_CONST2, A_CSW_BASE: A_CSW_BASE2, A_CSW_ITER_ID: A_CSW_ITER_ID2, A_CSW_ITER_STRIDE: A_CSW_ITER_STRIDE2, A_CSW_VLD: A_CSW_VLD2, A_ENDPAD: A_ENDPAD2, A_FLAGS: A_FLAGS2, A_INDIR: A_INDIR2, A_NZ: A_NZ2, A_NZ_INDIR: A_NZ_INDIR2, A_OFFSET: A_OFFSET2, A_OPCD: A_OPCD2, A_PADMASK: A_PADMASK2, A_PSW_ITER_ID: A_PSW_ITER_ID2, A_PSW_ITER_STRIDE: A_PSW_ITER_STRIDE2, A_STARTPAD: A_STARTPAD2, A_STRIDE: A_STRIDE2, AUX_WORDS: AUX_WORDS2, F_EOP: F_EOP2, F_INDIR: F_INDIR2, F_PAD: F_PAD2, F_PF: F_PF2, F_POP: F_POP2, F_ROT: F_ROT2, MODE_SHIFT: MODE_SHIFT2, PTN_MASK: PTN_MASK2, R_ADDR: R_ADDR2, R_COLOFF: R_COLOFF2, R_CONST: R_CONST2, R_CSW: R_CSW2, R_DT: R_DT2, R_EB: R_EB3, R_FIFO: R_FIFO2, R_FLAGS: R_FLAGS2, R_MASK: R_MASK2, R_N: R_N2, R_OP: R_OP3, R_PC: R_PC2, R_PSWBASE: R_PSWBASE2, R_PSWITER: R_PSWITER2, R_RMW: R_RMW2, R_SLOT: R_SLOT2, R_SX: R_SX2, R_SY: R_SY2, R_VIEW: R_VIEW2, R_ZSW: R_ZSW2, REC_WORDS: REC_WORDS2, SEQ_AMEM_READ: SEQ_AMEM_READ2, SEQ_SPEC: SEQ_SPEC9, UieCodes: UieCodes2 } = records_exports;
function decodeRead(u, s, dec) {
  const core = s.core;
  const f = s.rf;
  const pc = core.execPc;
  const at2 = dec.pushSlot();
  const d = dec.data;
  let opcd = f.opcd[pc];
  let constV = f.rd_const_value[pc];
  let flags = 0;
  const padMask = f.pad_row_iter_mask[pc];
  let pad = false;
  if (padMask !== 0 && opcd !== RD_NOP2) {
    if (f.start_row_pad[pc] && (core.itersEqZero & padMask) === padMask)
      pad = true;
    if (f.end_row_pad[pc] && (core.itersEqNloops & padMask) === padMask)
      pad = true;
  }
  if (core.postFinal && opcd !== RD_NOP2) {
    pad = true;
    flags |= F_PF2;
  }
  if (pad) {
    opcd = RD_CONST2;
    constV = 0;
    flags |= F_PAD2;
  }
  flags |= decodeCommon(u, s, f, d, at2, pc, opcd, readsSram2(opcd));
  d[at2 + R_FIFO2] = f.tgt_fifo[pc];
  d[at2 + R_CONST2] = constV;
  d[at2 + R_N2] = f.num_logical_ptns[pc];
  if (f.rpsw_rot_enbl[pc])
    flags |= F_ROT2;
  d[at2 + R_FLAGS2] = flags;
  d[at2 + R_PSWBASE2] = f.rpsw_config_vld[pc] ? f.rpsw_config_idx_base[pc] : -1;
  d[at2 + R_PSWITER2] = (iterVal2(core.execCount, f.rpsw_config_iter_id[pc]) & 7) * f.rpsw_config_iter_stride[pc];
  d[at2 + R_CSW2] = f.rcsw_switch_config_vld[pc] ? f.rcsw_switch_config_idx_base[pc] + (iterVal2(core.execCount, f.rcsw_switch_config_iter_id[pc]) & 15) * f.rcsw_switch_config_iter_stride[pc] % 16 & 63 : -1;
  d[at2 + R_MASK2] = f.rcsw_col_mask_config_idx[pc];
  d[at2 + R_ZSW2] = f.rzsw_config[pc];
}
function decodeWrite(u, s, dec) {
  const core = s.core;
  const f = s.wf;
  const pc = core.execPc;
  const at2 = dec.pushSlot();
  const d = dec.data;
  let opcd = f.opcd[pc];
  let flags = 0;
  if (core.postFinal && writesSram2(opcd)) {
    opcd = WR_DISCARD2;
    flags |= F_PF2 | F_PAD2;
  }
  flags |= decodeCommon(u, s, f, d, at2, pc, opcd, writesSram2(opcd));
  d[at2 + R_FIFO2] = f.src_fifo[pc];
  d[at2 + R_N2] = f.num_logical_cols[pc];
  d[at2 + R_COLOFF2] = f.logical_col_offset[pc];
  if (f.wpsw_rot_enbl[pc])
    flags |= F_ROT2;
  d[at2 + R_FLAGS2] = flags;
  d[at2 + R_PSWBASE2] = f.wpsw_config_vld[pc] ? f.wpsw_config_idx_base[pc] : -1;
  d[at2 + R_PSWITER2] = (iterVal2(core.execCount, f.wpsw_config_iter_id[pc]) & 7) * f.wpsw_config_iter_stride[pc];
  d[at2 + R_CSW2] = f.wcsw_switch_config_vld[pc] ? f.wcsw_switch_config_idx_base[pc] + (iterVal2(core.execCount, f.wcsw_switch_config_iter_id[pc]) & 15) * f.wcsw_switch_config_iter_stride[pc] % 16 & 63 : -1;
  d[at2 + R_MASK2] = f.wcsw_col_mask_config_idx[pc];
  d[at2 + R_ZSW2] = f.wzsw_config[pc];
  d[at2 + R_RMW2] = f.rmw_rd_addr_offset[pc];
}
function decodeCommon(u, s, f, d, at2, pc, opcd, sram) {
  const core = s.core;
  const indir = f.indir_vld[pc] !== 0 && sram;
  const mode = f.indir_mode[pc];
  const strides = f.iter_stride;
  const nBase = indir ? INDIR_BASE_ITERS2[mode] : NUM_ITERS;
  let a = s.base + f.amem_addr_offset[pc];
  for (let i = 0; i < nBase; i++)
    a += (core.execCount[i] & 4095) * (strides[pc * NUM_ITERS + i] & 65535);
  d[at2 + R_OP3] = opcd;
  d[at2 + R_ADDR2] = a & PTN_MASK2;
  d[at2 + R_VIEW2] = s.view;
  d[at2 + R_DT2] = f.data_type[pc];
  d[at2 + R_EB3] = f.eb_adj[pc];
  d[at2 + R_SLOT2] = s.slot;
  d[at2 + R_SX2] = strides[pc * NUM_ITERS + INDIR_X_STRIDE_ITER2] & 65535;
  d[at2 + R_SY2] = strides[pc * NUM_ITERS + INDIR_Y_STRIDE_ITER2] & 65535;
  d[at2 + R_PC2] = pc;
  let flags = 0;
  if (indir)
    flags |= F_INDIR2 | mode << MODE_SHIFT2 | (f.indir_fifo_pop_enbl[pc] ? F_POP2 : 0);
  if (core.programDone)
    flags |= F_EOP2;
  return flags;
}
function writeStatic(u, s, d, at2, pc, keys, ki, key) {
  const t = s.tmpl;
  const to = pc * REC_WORDS2;
  d[at2 + R_DT2] = t[to + R_DT2];
  d[at2 + R_FIFO2] = t[to + R_FIFO2];
  d[at2 + R_N2] = t[to + R_N2];
  d[at2 + R_PSWBASE2] = t[to + R_PSWBASE2];
  d[at2 + R_CSW2] = t[to + R_CSW2];
  d[at2 + R_MASK2] = t[to + R_MASK2];
  d[at2 + R_ZSW2] = t[to + R_ZSW2];
  d[at2 + R_EB3] = t[to + R_EB3];
  d[at2 + R_COLOFF2] = t[to + R_COLOFF2];
  d[at2 + R_SX2] = t[to + R_SX2];
  d[at2 + R_SY2] = t[to + R_SY2];
  d[at2 + R_PC2] = pc;
  d[at2 + R_RMW2] = t[to + R_RMW2];
  keys[ki] = key;
}
function decodeFast(u, s, dec, isRead) {
  const core = s.core;
  const pc = core.execPc;
  const at2 = dec.pushSlot();
  const d = dec.data;
  const keys = isRead ? u.rd.decKey : u.wr.decKey;
  const key = s.tmplId * 65536 + pc;
  if (keys[at2] !== key)
    writeStatic(u, s, d, at2, pc, keys, at2, key);
  const x = s.aux;
  const b = pc * AUX_WORDS2;
  const cnt = core.execCount;
  let opcd = x[b + A_OPCD2];
  let flags = x[b + A_FLAGS2];
  let constV = x[b + A_CONST2];
  if (isRead) {
    let pad = false;
    const padMask = x[b + A_PADMASK2];
    if (padMask !== 0 && opcd !== RD_NOP2) {
      if (x[b + A_STARTPAD2] && (core.itersEqZero & padMask) === padMask)
        pad = true;
      if (x[b + A_ENDPAD2] && (core.itersEqNloops & padMask) === padMask)
        pad = true;
    }
    if (core.postFinal && opcd !== RD_NOP2) {
      pad = true;
      flags |= F_PF2;
    }
    if (pad) {
      opcd = RD_CONST2;
      constV = 0;
      flags |= F_PAD2;
    }
  } else if (core.postFinal && writesSram2(opcd)) {
    opcd = WR_DISCARD2;
    flags |= F_PF2 | F_PAD2;
  }
  const indir = x[b + A_INDIR2] !== 0 && (isRead ? readsSram2(opcd) : writesSram2(opcd));
  let nz = indir ? x[b + A_NZ_INDIR2] : x[b + A_NZ2];
  let a = s.base + x[b + A_OFFSET2];
  while (nz !== 0) {
    const i = 31 - Math.clz32(nz);
    nz ^= 1 << i;
    a += (cnt[i] & 4095) * x[b + A_STRIDE2 + i];
  }
  if (indir)
    flags |= x[b + A_INDIR2];
  if (core.programDone)
    flags |= F_EOP2;
  d[at2 + R_OP3] = opcd;
  d[at2 + R_ADDR2] = a & PTN_MASK2;
  d[at2 + R_VIEW2] = s.view;
  d[at2 + R_CONST2] = constV;
  d[at2 + R_FLAGS2] = flags;
  const pid = x[b + A_PSW_ITER_ID2];
  d[at2 + R_PSWITER2] = ((pid < NUM_ITERS ? cnt[pid] : 0) & 7) * x[b + A_PSW_ITER_STRIDE2];
  if (x[b + A_CSW_VLD2]) {
    const cid = x[b + A_CSW_ITER_ID2];
    d[at2 + R_CSW2] = x[b + A_CSW_BASE2] + ((cid < NUM_ITERS ? cnt[cid] : 0) & 15) * x[b + A_CSW_ITER_STRIDE2] % 16 & 63;
  }
  d[at2 + R_SLOT2] = s.slot;
}
function indirectAddr(u, itfe, d, at2, side) {
  const flags = d[at2 + R_FLAGS2];
  const mode = flags >> MODE_SHIFT2 & INDIR_MODE_MASK2;
  const yKind = INDIR_Y2[mode];
  const needY = yKind !== INDIR_Y_NONE2;
  if (itfe.x.empty || needY && itfe.y.empty) {
    if (itfe.finished) {
      u.ruleError(UieCodes2.itfeStarved, `${side.name} needs an index but its ITFE has fetched all ${itfe.totalPerTable} index value(s) of the trip: the ITFE index count must match the sequencer's indirect accesses`, `${SEQ_SPEC9} \xA78.1`, side, d[at2 + R_PC2]);
      return -2;
    }
    u.blocked ??= u.blockMsg(side, 2);
    u.stats.datapathStallCycles[side.id === SEQ_AMEM_READ2 ? 0 : 1]++;
    return -1;
  }
  if (itfe.cmd.indir_mode !== mode)
    u.ruleError(UieCodes2.indirMode, `${side.name} indir_mode ${mode} differs from its ITFE command indir_mode ${itfe.cmd.indir_mode}`, `${SEQ_SPEC9} \xA75.1, \xA78.1`, side, d[at2 + R_PC2]);
  const x = itfe.x.peek() >>> 0;
  const y = needY ? itfe.y.peek() & 65535 : 0;
  let off;
  const xi = INDIR_X322[mode] ? x : x & 65535;
  if (yKind === INDIR_Y_MSBS2)
    off = (xi + y * 65536) * d[at2 + R_SX2];
  else if (yKind === INDIR_Y_2D2)
    off = xi * d[at2 + R_SX2] + y * d[at2 + R_SY2];
  else
    off = xi * d[at2 + R_SX2];
  if (flags & F_POP2) {
    itfe.x.pop();
    if (needY)
      itfe.y.pop();
  }
  return d[at2 + R_ADDR2] + off % (PTN_MASK2 + 1) & PTN_MASK2;
}
function checkItfeCount(u, itfe, pops, s, pc, tripIndirect) {
  if (!tripIndirect && pops === 0)
    return;
  const expected = tripIndirect ? itfe.totalPerTable : 0;
  if (pops !== expected)
    u.ruleError(UieCodes2.itfeCount, `${s.name} popped ${pops} index value(s) in this trip but its ITFE supplies ${expected} (num_indices_per_table * repeat_count); they must match`, `${SEQ_SPEC9} \xA78.1`, s, pc);
}
function stridedAddr(base2, x, b, cnt) {
  let nz = x[b + A_NZ2];
  let a = base2 + x[b + A_OFFSET2];
  while (nz !== 0) {
    const i = 31 - Math.clz32(nz);
    nz ^= 1 << i;
    a += (cnt[i] & 4095) * x[b + A_STRIDE2 + i];
  }
  return a & PTN_MASK2;
}

// packages/target-pyxis/dist/sim/uie/switches.js
var switches_exports = {};
__export(switches_exports, {
  applyCsw: () => applyCsw,
  applyPsw: () => applyPsw,
  applyZsw: () => applyZsw
});
var { MASK_MAX_NEG: MASK_MAX_NEG2, MASK_ZERO: MASK_ZERO2, MUX_NEXT: MUX_NEXT2, MUX_PREV: MUX_PREV2, ZSW_UNZIP: ZSW_UNZIP2, ZSW_ZIP: ZSW_ZIP2 } = codes_exports;
function applyPsw(t, idx, src, dst, wide) {
  const cycles = wide ? 2 : 1;
  for (let c = 0; c < cycles; c++)
    for (let o = 0; o < 8; o++) {
      const base2 = c * 128 + o * 16;
      if (idx >= 0 && t.pswZero[idx * 8 + o]) {
        dst.fill(0, base2, base2 + 16);
        continue;
      }
      const sp = idx >= 0 ? t.pswSrc[idx * 8 + o] : o;
      dst.set(src.subarray(c * 128 + sp * 16, c * 128 + sp * 16 + 16), base2);
    }
  if (!wide)
    dst.fill(0, 128, 256);
}
function applyZsw(mode, cols, tmp) {
  if (mode !== ZSW_UNZIP2 && mode !== ZSW_ZIP2)
    return;
  tmp.set(cols);
  for (let pair = 0; pair < 4; pair++) {
    const b = pair * 32;
    for (let i = 0; i < 16; i++) {
      if (mode === ZSW_UNZIP2) {
        cols[b + i] = tmp[b + 2 * i];
        cols[b + 16 + i] = tmp[b + 2 * i + 1];
      } else {
        cols[b + 2 * i] = tmp[b + i];
        cols[b + 2 * i + 1] = tmp[b + 16 + i];
      }
    }
  }
}
function applyCsw(t, idx, maskIdx, cols, tmp) {
  if (idx >= 0) {
    tmp.set(cols);
    for (let p = 0; p < 8; p++)
      for (let c = 0; c < 16; c++) {
        const k = idx * 128 + p * 16 + c;
        const srcCol = t.cswSrc[k] & 15;
        const sel = t.cswMux[idx * 128 + p * 16 + srcCol];
        const sp = sel === MUX_PREV2 ? p - 1 : sel === MUX_NEXT2 ? p + 1 : p;
        cols[p * 16 + c] = sp < 0 || sp > 7 ? 0 : tmp[sp * 16 + srcCol];
      }
  }
  const mb = (maskIdx & 3) * 128;
  if (t.colMaskActive && !t.colMaskActive[maskIdx & 3])
    return;
  for (let c = 0; c < 128; c++) {
    const m = t.colMask[mb + c];
    if (m === MASK_ZERO2)
      cols[c] = 0;
    else if (m === MASK_MAX_NEG2)
      cols[c] = 65535;
  }
}

// packages/target-pyxis/dist/sim/uie/readPath.js
var { AMEM_PARTITIONS: AMEM_PARTITIONS2, AMEM_VIEW_BIT: AMEM_VIEW_BIT2 } = amem_exports;
var { RD_CONST: RD_CONST3, RD_NOP: RD_NOP3, RD_SRAM_RELU: RD_SRAM_RELU2, readsSram: readsSram3, TGT_AMEM: TGT_AMEM2, TGT_GRID: TGT_GRID2, TGT_VBUFFER: TGT_VBUFFER2, ZSW_NOP: ZSW_NOP2 } = codes_exports;
var { is16bit: is16bit2, to16Table: to16Table2 } = convert_exports;
var { indirectAddr: indirectAddr2, checkItfeCount: checkItfeCount2 } = addressGen_exports;
var { CHIP_SPEC_F: CHIP_SPEC_F4, F_EOP: F_EOP3, F_INDIR: F_INDIR3, F_PAD: F_PAD3, F_POP: F_POP3, F_ROT: F_ROT3, PTN_MASK: PTN_MASK3, R_ADDR: R_ADDR3, R_CONST: R_CONST3, R_CSW: R_CSW3, R_DT: R_DT3, R_EB: R_EB4, R_FIFO: R_FIFO3, R_FLAGS: R_FLAGS3, R_MASK: R_MASK3, R_N: R_N3, R_OP: R_OP4, R_PC: R_PC3, R_PSWBASE: R_PSWBASE3, R_PSWITER: R_PSWITER3, R_SLOT: R_SLOT3, R_VIEW: R_VIEW3, R_ZSW: R_ZSW3, REC_WORDS: REC_WORDS3, SEQ_AMEM_READ: SEQ_AMEM_READ3, SEQ_SPEC: SEQ_SPEC10, SIGMA_INV: SIGMA_INV2, UieCodes: UieCodes3, WIDE_PERM_HI: WIDE_PERM_HI2, WIDE_PERM_LO: WIDE_PERM_LO2 } = records_exports;
var { convertLanesTo16: convertLanesTo162, SB_META: SB_META2 } = switchbox_exports;
var { applyCsw: applyCsw2, applyPsw: applyPsw2, applyZsw: applyZsw2 } = switches_exports;
var ReadPath = class {
  u;
  /** Decoder-metadata FIFO from the AMEM Read sequencer (seq §3). */
  dec;
  /** Index-table fetch engine of the read side (seq §8). */
  itfe;
  /** Applied RPSW / RCSW / column-mask tables (decoded from cfg at trip start). */
  sw = identitySwitchTables();
  /** Per decoder FIFO slot: template id * 65536 + pc whose static record words the slot holds (addressGen.ts decodeFast). */
  decKey;
  /** AMEM bank client of the port (amem/clients.ts `uieClient`). */
  client;
  /** Cycles from a read claim to its data in a switchbox FIFO (`Amem.readPipelineCycles`). */
  latency;
  /** First cycle the port may issue again (serialized 16-bit data takes two cycles, chip §7.3). */
  portFree = 0;
  /** Held RPSW / RCSW configuration indexes (seq §5.4, §5.5; -1 none). */
  pswCur = -1;
  cswCur = -1;
  /** Index pops in the current trip (ITFE count rule, seq §8.1) and whether the current trip is indirect. */
  pops = 0;
  tripIndirect = false;
  /** The last bank claim (`settle`): cycle (-1 none), switchbox FIFO and slot of its data. */
  lastAt = -1;
  lastSlot = -1;
  lastFifo;
  /** Bit tgt set once the dropped-flit warning for switchbox target tgt was issued (no string building per flit). */
  dropWarned = 0;
  // scratch (no per-cycle allocation)
  lanes = new Uint8Array(256);
  lanes2 = new Uint8Array(256);
  lanes32 = new Uint32Array(this.lanes.buffer);
  lanes2_32 = new Uint32Array(this.lanes2.buffer);
  cols = new Uint16Array(128);
  cols2 = new Uint16Array(128);
  constructor(u, decDepth, indexDepth) {
    this.u = u;
    this.dec = new Fifo(`${u.name}.amem_read.dec`, decDepth, REC_WORDS3);
    this.decKey = new Float64Array(decDepth * REC_WORDS3).fill(-1);
    this.client = uieClient(u.index, PORT_READ);
    this.latency = u.amem.readPipelineCycles;
    this.itfe = new Itfe(`${u.name}.itfe_read`, u.amem, indexDepth, uieClient(u.index, PORT_ITFE_READ));
  }
  /**
   * Settles the bank claim of the previous cycle (after `AmemBanks.sync`; amem/banks.ts): a read served s > its issue
   * cycle delivers its data at s + the read pipeline.
   */
  settle() {
    const served = this.u.amem.banks.freeAt[this.client] - 1;
    const f = this.lastFifo;
    if (served > this.lastAt && this.lastSlot >= 0 && f !== void 0 && f.readyAt[this.lastSlot] < served + this.latency)
      f.readyAt[this.lastSlot] = served + this.latency;
    this.lastAt = -1;
  }
  issue(now) {
    const u = this.u;
    const dec = this.dec;
    if (dec.empty)
      return false;
    if (this.portFree > now) {
      if (this.portFree < u.portWake)
        u.portWake = this.portFree;
      return false;
    }
    const bankFree = u.amem.banks.freeAt[this.client];
    if (bankFree > now) {
      if (bankFree < u.portWake)
        u.portWake = bankFree;
      return false;
    }
    const d = dec.data;
    const at2 = dec.peekSlot();
    const seq = u.seqs[SEQ_AMEM_READ3];
    const opcd = d[at2 + R_OP4];
    const flags = d[at2 + R_FLAGS3];
    const slot = d[at2 + R_SLOT3];
    if (opcd !== RD_NOP3) {
      const tgt = d[at2 + R_FIFO3];
      const out = tgt === TGT_AMEM2 ? u.sbReadToWrite : tgt === TGT_GRID2 && u.attachGrid ? u.sbReadToGrid : tgt === TGT_VBUFFER2 && u.attachVbuffer ? u.sbReadToVbuffer : void 0;
      if (out && out.credits === 0) {
        out.fullStalls++;
        u.stats.datapathStallCycles[0]++;
        u.blocked ??= u.fifoMsg(out, true);
        return false;
      }
      let addr = d[at2 + R_ADDR3];
      const dt = d[at2 + R_DT3];
      const wide = is16bit2(dt);
      if (readsSram3(opcd) && flags & F_INDIR3) {
        const r = indirectAddr2(u, this.itfe, d, at2, seq);
        if (r === -1)
          return false;
        if (r >= 0) {
          addr = r;
          if (flags & F_POP3)
            this.pops++;
          u.stats.indirectReads++;
        }
      }
      if (wide && addr & 1 && readsSram3(opcd))
        u.ruleError(UieCodes3.oddPartition16, `16-bit read (data_type ${dt}) at odd partition address 0x${(addr * 16).toString(16)}`, `${SEQ_SPEC10} \xA71.1, \xA75.2.1; ${CHIP_SPEC_F4} \xA77.3`, seq, d[at2 + R_PC3]);
      const n2 = d[at2 + R_N3];
      const view = d[at2 + R_VIEW3] ? AMEM_VIEW_BIT2 : 0;
      const s0 = addr & 7;
      if (readsSram3(opcd)) {
        u.amem.banks.claim(this.client, now, (addr & PTN_MASK3) << 4 | view, wide ? 2 * n2 : n2);
        this.lastAt = now;
        this.lastSlot = -1;
      }
      if (d[at2 + R_PSWBASE3] >= 0)
        this.pswCur = d[at2 + R_PSWBASE3] + ((flags & F_ROT3 ? s0 : 0) + d[at2 + R_PSWITER3]) % 8 & 63;
      if (d[at2 + R_CSW3] >= 0)
        this.cswCur = d[at2 + R_CSW3];
      const fast = u.fastPaths;
      const sw = this.sw;
      const zsw = d[at2 + R_ZSW3];
      const maskIdx = d[at2 + R_MASK3] & 3;
      const direct = fast && out !== void 0 && zsw === ZSW_NOP2 && (this.cswCur < 0 || sw.cswIdentity[this.cswCur] === 1) && !sw.colMaskActive[maskIdx];
      if (direct && readsSram3(opcd) && n2 === AMEM_PARTITIONS2 && (this.pswCur < 0 || sw.pswIdentity[this.pswCur] === 1)) {
        const e = out.pushSlot();
        out.readyAt[e] = now + this.latency;
        this.lastSlot = e;
        this.lastFifo = out;
        this.readLanesInto(addr, view, wide, s0, out.raw32, e * 64);
        u.stats.bytesRead += wide ? 256 : 128;
        const m = e * SB_META2;
        out.meta[m] = 1;
        out.meta[m + 1] = dt;
        out.meta[m + 2] = d[at2 + R_EB4];
        out.meta[m + 3] = opcd === RD_SRAM_RELU2 ? 1 : 0;
        u.stats.flitsToAmemWrite += tgt === TGT_AMEM2 ? 1 : 0;
        if (flags & F_PAD3)
          u.stats.padsInserted++;
        this.portFree = now + (wide ? 2 : 1);
        dec.pop();
        if (flags & F_EOP3)
          this.eop(d, at2, slot);
        return true;
      }
      this.fillLanes(opcd, addr, view, n2, wide, d[at2 + R_CONST3], s0);
      let l2 = this.lanes;
      if (this.pswCur >= 0 && !(fast && sw.pswIdentity[this.pswCur] === 1)) {
        applyPsw2(sw, this.pswCur, this.lanes, this.lanes2, wide);
        l2 = this.lanes2;
      }
      if (out) {
        const slot2 = out.pushSlot();
        out.readyAt[slot2] = now + this.latency;
        this.lastSlot = slot2;
        this.lastFifo = out;
        const m = slot2 * SB_META2;
        if (direct) {
          const src32 = l2 === this.lanes ? this.lanes32 : this.lanes2_32;
          const w0 = slot2 * 64;
          const nw = wide ? 64 : 32;
          for (let w = 0; w < nw; w++)
            out.raw32[w0 + w] = src32[w];
          out.meta[m] = 1;
          out.meta[m + 1] = dt;
          out.meta[m + 2] = d[at2 + R_EB4];
          out.meta[m + 3] = opcd === RD_SRAM_RELU2 ? 1 : 0;
        } else {
          const cols = this.cols;
          convertLanesTo162(to16Table2(dt, d[at2 + R_EB4], opcd === RD_SRAM_RELU2), l2, 0, wide, cols, 0);
          applyZsw2(zsw, cols, this.cols2);
          applyCsw2(sw, this.cswCur, maskIdx, cols, this.cols2);
          out.flits.set(cols, slot2 * 128);
          out.meta[m] = 0;
        }
        if (tgt === TGT_AMEM2)
          u.stats.flitsToAmemWrite++;
      } else {
        u.stats.flitsDropped++;
        if (!(this.dropWarned >> tgt & 1)) {
          this.dropWarned |= 1 << tgt;
          u.warnOnce(`drop${tgt}`, UieCodes3.unmodelled, `AMEM Read sends flits to the ${tgt === TGT_GRID2 ? "grid" : "vbuffer"}, which is not modelled yet; they are counted and dropped`, `${CHIP_SPEC_F4} \xA76.2.3`);
        }
      }
      if (flags & F_PAD3)
        u.stats.padsInserted++;
      this.portFree = now + (wide ? 2 : 1);
    }
    dec.pop();
    if (flags & F_EOP3)
      this.eop(d, at2, slot);
    return true;
  }
  /** End of an AMEM Read program (its EOPGM instruction left the decoder FIFO): ITFE count rule, sequencer done. */
  eop(d, at2, slot) {
    const u = this.u;
    const p = u.trips.slots[slot].params;
    checkItfeCount2(u, this.itfe, this.pops, u.seqs[SEQ_AMEM_READ3], d[at2 + R_PC3], !!p?.amem_read_indirect_vld);
    u.seqDone(SEQ_AMEM_READ3, slot);
  }
  /**
   * `fillReadLanes` for a full Read_SRAM (all 8 logical partitions) written straight into a switchbox
   * entry (out32[w0..w0+64) in lane layout): an aligned 8-bit access is one AMEM word, moved as a block.
   */
  readLanesInto(addr, view, wide, s0, out32, w0) {
    const u = this.u;
    const amem = u.amem;
    if (!wide) {
      if (s0 === 0)
        amem.readWord32((addr & PTN_MASK3) << 4 | view, out32, w0);
      else
        for (let j = 0; j < 8; j++)
          amem.readPartition32((addr + j & PTN_MASK3) << 4 | view, out32, w0 + (s0 + j & 7) * 4);
      return;
    }
    if (s0 === 0) {
      amem.readWordPerm32((addr & PTN_MASK3) << 4 | view, out32, w0, WIDE_PERM_LO2);
      amem.readWordPerm32((addr + 8 & PTN_MASK3) << 4 | view, out32, w0, WIDE_PERM_HI2);
      return;
    }
    for (let p = 0; p < 8; p++) {
      const lane = s0 + SIGMA_INV2[p] & 7;
      amem.readPartition32((addr + 2 * p & PTN_MASK3) << 4 | view, out32, w0 + lane * 4);
      amem.readPartition32((addr + 2 * p + 1 & PTN_MASK3) << 4 | view, out32, w0 + 32 + lane * 4);
    }
  }
  /**
   * AMEM read port output lanes (chip §7, §7.3.1): 8-bit: memory partition j
   * of the access leaves on lane (s + j) % 8; 16-bit: logical partition p
   * (memory partitions 2p, 2p+1 in cycles 0, 1) leaves on lane
   * (s + SIGMA_INV[p]) % 8. Read_Const fills the same lanes with the constant.
   */
  fillLanes(opcd, addr, view, n2, wide, constV, s0) {
    const u = this.u;
    const lanes = this.lanes;
    lanes.fill(0);
    if (!wide) {
      for (let j = 0; j < n2; j++) {
        const lane = s0 + j & 7;
        if (opcd === RD_CONST3)
          lanes.fill(constV & 255, lane * 16, lane * 16 + 16);
        else
          u.amem.readPartition32((addr + j & PTN_MASK3) << 4 | view, this.lanes32, lane * 4);
      }
      if (readsSram3(opcd))
        u.stats.bytesRead += n2 * 16;
    } else {
      for (let p = 0; p < n2; p++) {
        const lane = s0 + SIGMA_INV2[p] & 7;
        for (let c = 0; c < 2; c++) {
          const off = c * 128 + lane * 16;
          if (opcd === RD_CONST3)
            for (let b = 0; b < 16; b += 2) {
              lanes[off + b] = constV & 255;
              lanes[off + b + 1] = constV >> 8 & 255;
            }
          else
            u.amem.readPartition32((addr + 2 * p + c & PTN_MASK3) << 4 | view, this.lanes32, off >> 2);
        }
      }
      if (readsSram3(opcd))
        u.stats.bytesRead += n2 * 32;
    }
  }
};

// packages/target-pyxis/dist/sim/uie/sequencing.js
var sequencing_exports = {};
__export(sequencing_exports, {
  coreFault: () => coreFault,
  stepSeq: () => stepSeq
});

// packages/target-pyxis/dist/sim/uie/weightsRead.js
var weightsRead_exports = {};
__export(weightsRead_exports, {
  WeightsPort: () => WeightsPort,
  weightsRead: () => weightsRead
});
var { AMEM_VIEW_BIT: AMEM_VIEW_BIT3 } = amem_exports;
var { WT_SRAM: WT_SRAM2, WT_SRAM_RELU: WT_SRAM_RELU2, WT_UNCOMPRESSED: WT_UNCOMPRESSED2 } = codes_exports;
var { PTN_MASK: PTN_MASK4, SEQ_SPEC: SEQ_SPEC11, UieCodes: UieCodes4 } = records_exports;
var boundOp;
var fConst = new Int32Array(0);
var fBsize = new Int32Array(0);
function weightsRead(u, s, f) {
  const core = s.core;
  const pc = core.execPc;
  let op = f.opcd[pc];
  if (op === 0)
    return;
  const opStore = s.op;
  if (opStore !== boundOp) {
    boundOp = opStore;
    fConst = opStore.field("rd_const_value");
    fBsize = opStore.field("wdc_block_size");
  }
  let constV = fConst[pc];
  if (core.postFinal) {
    op = -1;
    constV = 0;
    u.cmp.stats.weightsPads++;
  }
  const sram = op === WT_SRAM2 || op === WT_SRAM_RELU2;
  let a = s.base + f.amem_addr_offset[pc];
  for (let i = 0; i < NUM_ITERS; i++)
    a += (core.execCount[i] & 4095) * (f.iter_stride[pc * NUM_ITERS + i] & 65535);
  a &= PTN_MASK4;
  const type = f.wdc_type[pc];
  const is16 = f.is_16bit[pc];
  if (sram) {
    if (type !== WT_UNCOMPRESSED2 && a & 7)
      u.ruleError(UieCodes4.weightsAlign, `compressed-weights read (wdc_type ${type}) at 0x${(a * 16).toString(16)} is not 128-byte aligned`, `${SEQ_SPEC11} \xA71.1, \xA77.1`, s, pc);
    else if (is16 && a & 1)
      u.ruleError(UieCodes4.oddPartition16, `16-bit weights read at odd partition address 0x${(a * 16).toString(16)}`, `${SEQ_SPEC11} \xA71.1, \xA77.1`, s, pc);
  }
  const n2 = f.num_ptns[pc];
  const wdc = u.cmp.wdc;
  const params = u.trips.slots[s.slot]?.params;
  if (params && !(params.trip_valid_mask & 1 << SEQ_WDP)) {
    u.warnOnce("noWdp", WeightsCodes.noWdp, "AMEM Weights Read in a trip without a WDP program: its words are dropped", `${SEQ_SPEC11} \xA77, \xA79`);
    if (sram) {
      readWords(u, s, a, n2, void 0, 0);
      u.wt.lastEntry = -1;
    }
    return;
  }
  u.wt.lastEntry = wdc.inTailIndex();
  const w = wdc.inTail32();
  const d = wdc.in32;
  for (let i = 0; i < 32; i++)
    d[w + i] = 0;
  if (sram)
    readWords(u, s, a, n2, d, w);
  else {
    const c = is16 ? (constV & 65535) * 65537 : (constV & 255) * 16843009;
    for (let j = 0; j < n2; j++) {
      const l = w + (a + j & 7) * 4;
      d[l] = d[l + 1] = d[l + 2] = d[l + 3] = c >>> 0;
    }
  }
  wdc.commitIn(u.now, is16, type, fBsize[pc], a & 7, n2, constV, op === WT_SRAM_RELU2 ? 1 : 0, s.slot, pc);
}
function readWords(u, s, a, n2, dst, w) {
  const view = s.view ? AMEM_VIEW_BIT3 : 0;
  u.amem.banks.claim(u.wt.client, u.now, a << 4 | view, n2);
  u.wt.lastAt = u.now;
  const out = dst ?? u.wt.scratch;
  if (n2 === 8 && (a & 7) === 0) {
    u.amem.readWord32(a << 4 | view, out, w);
  } else
    for (let j = 0; j < n2; j++) {
      const p = a + j & PTN_MASK4;
      u.amem.readPartition32(p << 4 | view, out, w + (p & 7) * 4);
    }
  u.stats.bytesRead += n2 * 16;
  u.stats.weightsBytesRead += n2 * 16;
}
var WeightsPort = class {
  client;
  /** The last claim: cycle (-1 none) and its entry in the decompressor input FIFO (-1: a dropped word). */
  lastAt = -1;
  lastEntry = -1;
  /** Scratch for words nobody consumes (a trip without a WDP program). */
  scratch = new Uint32Array(32);
  constructor(client) {
    this.client = client;
  }
  /** Settles the claim of the previous cycle (amem/banks.ts): a word served late reaches the decompressor that much later. */
  settle(u) {
    const late = u.amem.banks.freeAt[this.client] - 1 - this.lastAt;
    if (late > 0 && this.lastEntry >= 0)
      u.cmp.wdc.delayIn(this.lastEntry, late);
    this.lastAt = -1;
  }
};

// packages/target-pyxis/dist/sim/uie/sequencing.js
var { decodeFast: decodeFast2, decodeRead: decodeRead2, decodeWrite: decodeWrite2 } = addressGen_exports;
var { bindSeq: bindSeq2 } = opFields_exports;
var { SEQ_AMEM_READ: SEQ_AMEM_READ4, SEQ_AMEM_WEIGHTS_READ: SEQ_AMEM_WEIGHTS_READ2, SEQ_AMEM_WRITE: SEQ_AMEM_WRITE2, SEQ_QUEUE: SEQ_QUEUE2, SEQ_SPEC: SEQ_SPEC12, UieCodes: UieCodes5 } = records_exports;
var { weightsRead: weightsRead2 } = weightsRead_exports;
function stepSeq(u, s) {
  const core = s.core;
  if (core.running && (s.id === SEQ_AMEM_READ4 || s.id === SEQ_AMEM_WRITE2) && u.fastPaths) {
    const isRead2 = s.id === SEQ_AMEM_READ4;
    const dec = isRead2 ? u.rd.dec : u.wr.dec;
    if (!dec.full) {
      if (!core.step())
        return coreFault(u, s);
      u.stats.busyCycles[s.id]++;
      u.stats.instructions[s.id]++;
      decodeFast2(u, s, dec, isRead2);
      return true;
    }
  }
  if (!core.running) {
    if (s.qCount === 0)
      return false;
    const slotId = s.queue[s.qHead];
    if (s.id === SEQ_AMEM_READ4 || s.id === SEQ_AMEM_WRITE2) {
      const rd = s.id === SEQ_AMEM_READ4;
      const np = u.trips.slots[slotId].params;
      const ind = rd ? np.amem_read_indirect_vld : np.amem_write_indirect_vld;
      if ((ind || (rd ? u.rd.tripIndirect : u.wr.tripIndirect)) && !(rd ? u.rd.dec : u.wr.dec).empty) {
        u.blocked ??= u.blockMsg(s, 0);
        return false;
      }
      if (rd)
        u.rd.tripIndirect = !!ind;
      else
        u.wr.tripIndirect = !!ind;
    }
    s.qHead = (s.qHead + 1) % SEQ_QUEUE2;
    s.qCount--;
    if (u.stopOnPop)
      u.visible = true;
    s.slot = slotId;
    const p = u.trips.slots[slotId].params;
    u.config.decodeSeq(s);
    if (!s.op && s.opTable) {
      s.op = new OpStore(s.opTable, SEQ_DEPTH);
      bindSeq2(s);
    }
    if (s.id === SEQ_AMEM_READ4)
      u.config.decodeSwitches(0, s.usesPsw, s.usesCsw, u.rd.pswCur >= 0, u.rd.cswCur >= 0, u.rd.sw);
    else if (s.id === SEQ_AMEM_WRITE2)
      u.config.decodeSwitches(1, s.usesPsw, s.usesCsw, u.wr.pswCur >= 0, u.wr.cswCur >= 0, u.wr.sw);
    core.start(p.start_pc[s.id] ?? 0, s.control);
    u.cmp.bySeq[s.id]?.startTrip(s);
    s.base = s.id === SEQ_AMEM_READ4 ? p.amem_read_base_address : s.id === SEQ_AMEM_WRITE2 ? p.amem_write_base_address : p.amem_weights_base_address;
    s.view = (s.id === SEQ_AMEM_READ4 ? p.amem_read_bank_hash_dsbl : s.id === SEQ_AMEM_WRITE2 ? p.amem_write_bank_hash_dsbl : p.amem_weights_bank_hash_dsbl) ? 1 : 0;
    if (s.id === SEQ_AMEM_READ4) {
      u.rd.pops = 0;
      if (p.amem_read_indirect_vld)
        u.rd.itfe.start(u.config.itfeCommand("read", p.amem_read_indirect_cmd_index));
      else
        u.rd.itfe.stop();
    } else if (s.id === SEQ_AMEM_WRITE2) {
      u.wr.pops = 0;
      if (p.amem_write_indirect_vld)
        u.wr.itfe.start(u.config.itfeCommand("write", p.amem_write_indirect_cmd_index));
      else
        u.wr.itfe.stop();
    }
  }
  const isRead = s.id === SEQ_AMEM_READ4;
  const isWrite = s.id === SEQ_AMEM_WRITE2;
  if (isRead || isWrite) {
    const dec = isRead ? u.rd.dec : u.wr.dec;
    if (!stepUnlessFull(u, s, dec.full))
      return false;
    if (u.fastPaths)
      decodeFast2(u, s, dec, isRead);
    else if (isRead)
      decodeRead2(u, s, dec);
    else
      decodeWrite2(u, s, dec);
    return true;
  }
  const unit = u.cmp.bySeq[s.id];
  if (unit !== void 0) {
    const dec = unit.dec;
    if (!stepUnlessFull(u, s, dec.full))
      return false;
    const rec = dec.pushSlot();
    const d = dec.data;
    d[rec + H_SLOT] = s.slot;
    d[rec + H_LAST] = core.done ? 1 : 0;
    d[rec + H_PC] = core.execPc;
    d[rec + H_POSTFINAL] = core.postFinal ? 1 : 0;
    unit.decode(s, rec);
    u.cmp.quiet = false;
    return true;
  }
  if (s.id === SEQ_AMEM_WEIGHTS_READ2) {
    const held = u.amem.banks.freeAt[u.wt.client];
    if (held > u.now) {
      u.stats.stallCycles[s.id]++;
      u.cmp.stats.stallAmemPort++;
      if (held < u.portWake)
        u.portWake = held;
      u.blocked ??= u.blockMsg(s, 3);
      return false;
    }
    if (!stepUnlessFull(u, s, !u.cmp.wdc.canAccept()))
      return false;
    if (s.kf)
      weightsRead2(u, s, s.kf);
    u.cmp.quiet = false;
    if (core.done)
      u.seqDone(s.id, s.slot);
    return true;
  }
  if (!s.warnedNoDatapath) {
    s.warnedNoDatapath = true;
    u.warnOnce(`nodp${s.id}`, UieCodes5.unmodelled, `sequencer ${s.name} has no datapath model yet; its program runs without effects`, `${SEQ_SPEC12} \xA74`);
  }
  if (!core.step())
    return coreFault(u, s);
  u.stats.busyCycles[s.id]++;
  u.stats.instructions[s.id]++;
  if (core.done)
    u.seqDone(s.id, s.slot);
  return true;
}
function stepUnlessFull(u, s, full) {
  if (full) {
    u.stats.stallCycles[s.id]++;
    u.blocked ??= u.blockMsg(s, 1);
    return false;
  }
  if (!s.core.step())
    return coreFault(u, s);
  u.stats.busyCycles[s.id]++;
  u.stats.instructions[s.id]++;
  return true;
}
function coreFault(u, s) {
  if (s.core.fault === "pc_overflow") {
    u.ruleError(UieCodes5.pcOverflow, `sequencer ${s.name} ran past the end of its 32-word microcode memory without EOPGM`, `${SEQ_SPEC12} \xA72.1`, s, s.core.pc);
    u.seqDone(s.id, s.slot);
  }
  return false;
}

// packages/target-pyxis/dist/sim/uie/steadyBatch.js
var steadyBatch_exports = {};
__export(steadyBatch_exports, {
  BATCH_MIN: () => BATCH_MIN,
  BATCH_RETRY: () => BATCH_RETRY,
  JOINT_MIN: () => JOINT_MIN,
  PUBLISH_FIRST: () => PUBLISH_FIRST,
  PUBLISH_RETRY: () => PUBLISH_RETRY,
  SteadyBatchState: () => SteadyBatchState,
  steadyBatch: () => steadyBatch,
  steadyCheck: () => steadyCheck
});

// packages/target-pyxis/dist/sim/uie/batchMove.js
var { AMEM_BLOCK_BYTES: AMEM_BLOCK_BYTES2, AMEM_BYTES: AMEM_BYTES2, AMEM_VIEW_BIT: AMEM_VIEW_BIT4, AMEM_WORD_BYTES: AMEM_WORD_BYTES2, amemPhysical: amemPhysical2 } = amem_exports;
var { stridedAddr: stridedAddr2 } = addressGen_exports;
var { A_NZ: A_NZ3, A_STRIDE: A_STRIDE3, AUX_WORDS: AUX_WORDS3, PTN_MASK: PTN_MASK5, R_ADDR: R_ADDR4, REC_WORDS: REC_WORDS4 } = records_exports;
var { SB_META: SB_META3 } = switchbox_exports;
var MOVE_MAX = SCHED_MAX;
var moveCounts = { direct: 0, staged: 0 };
function fillAddrs(s, dec, cnt, k, dst, off, step) {
  const core = s.core;
  const x = s.aux;
  const pc = core.pc;
  const b = pc * AUX_WORDS3;
  const view = s.view ? AMEM_VIEW_BIT4 : 0;
  cnt.set(core.count);
  const dn = dec.occupancy;
  const data2 = dec.data;
  let at2 = dec.peekSlot();
  let j = 0;
  if (dst === void 0)
    j = dn < k ? dn : k;
  else
    for (; j < dn && j < k; j++) {
      dst[off + step * j] = amemPhysical2((data2[at2 + R_ADDR4] & PTN_MASK5) << 4 | view);
      at2 += REC_WORDS4;
      if (at2 >= data2.length)
        at2 = 0;
    }
  const inner = 31 - Math.clz32(core.eolMask[pc]);
  const n2 = core.store.numloops[pc * NUM_ITERS + inner];
  const stride = (x[b + A_NZ3] >> inner & 1) === 0 ? 0 : x[b + A_STRIDE3 + inner];
  while (j < k) {
    const a = stridedAddr2(s.base, x, b, cnt);
    const c0 = cnt[inner];
    let run2 = n2 - c0;
    if (stride !== 0 && run2 > 4096 - (c0 & 4095))
      run2 = 4096 - (c0 & 4095);
    if (run2 > k - j)
      run2 = k - j;
    if (dst === void 0) {
    } else if (stride === 0) {
      const p = amemPhysical2((a & PTN_MASK5) << 4 | view);
      for (let t = 0; t < run2; t++)
        dst[off + step * (j + t)] = p;
    } else
      for (let t = 0; t < run2; t++)
        dst[off + step * (j + t)] = amemPhysical2((a + t * stride & PTN_MASK5) << 4 | view);
    j += run2;
    cnt[inner] = c0 + run2 - 1;
    core.advance(cnt);
  }
}
var scratchR = new Int32Array(MOVE_MAX);
var scratchW = new Int32Array(MOVE_MAX);
var written = new Int32Array(AMEM_BYTES2 / AMEM_WORD_BYTES2);
var epoch = 0;
var runW = new Int32Array(MOVE_MAX + 1);
var runR = new Int32Array(MOVE_MAX + 1);
var runUninit = new Int32Array(MOVE_MAX);
var blockStamp = new Int32Array(AMEM_BYTES2 / AMEM_BLOCK_BYTES2);
var blockFirstW = new Int32Array(AMEM_BYTES2 / AMEM_BLOCK_BYTES2);
function copyWord(dst, d, src, s) {
  if (src === void 0) {
    for (let i = 0; i < 32; i += 4)
      dst[d + i] = dst[d + i + 1] = dst[d + i + 2] = dst[d + i + 3] = 0;
    return;
  }
  for (let i = 0; i < 32; i += 4) {
    dst[d + i] = src[s + i];
    dst[d + i + 1] = src[s + i + 1];
    dst[d + i + 2] = src[s + i + 2];
    dst[d + i + 3] = src[s + i + 3];
  }
}
function moveBatch(u, c, k, rCnt, wCnt, rdt, reb, rl) {
  if (k > MOVE_MAX)
    throw new Error(`moveBatch: ${k} cycles > ${MOVE_MAX}`);
  const rs = u.seqs[SEQ_AMEM_READ];
  const ws = u.seqs[SEQ_AMEM_WRITE];
  const cached2 = u.batch.addrAt === c && u.batch.addrGen === u.stateGen && k <= u.batch.addrLen;
  const addrR = cached2 ? u.batch.addrR : scratchR;
  const addrW = cached2 ? u.batch.addrW : scratchW;
  fillAddrs(rs, u.rd.dec, rCnt, k, cached2 ? void 0 : addrR, 0, 1);
  fillAddrs(ws, u.wr.dec, wCnt, k, cached2 ? void 0 : addrW, 0, 1);
  const sb = u.sbReadToWrite;
  const occ = sb.occupancy;
  if (++epoch > 2147483647) {
    written.fill(0);
    blockStamp.fill(0);
    epoch = 1;
  }
  const nW = runs(addrW, k, runW);
  const nR = runs(addrR, k, runR);
  for (let i = 0; i < nW; i++)
    written[addrW[runW[i]] >>> 7] = epoch;
  let direct = true;
  for (let i = 0; i < nR && runR[i] < k - occ; i++)
    if (written[addrR[runR[i]] >>> 7] === epoch) {
      direct = false;
      break;
    }
  if (direct)
    moveCounts.direct++;
  else
    moveCounts.staged++;
  const rView = rs.view ? AMEM_VIEW_BIT4 : 0;
  const wView = ws.view ? AMEM_VIEW_BIT4 : 0;
  const tripSlot = u.trips.oldest;
  const fill = direct ? k - occ : 0;
  u.commits.batch(c, k, tripSlot);
  if (direct && rView === wView)
    directMoves(u, c, k, addrR, addrW, occ, nW, nR, wView, rdt, reb, rl);
  else
    stagedMoves(u, c, k, addrR, addrW, occ, fill, direct, rView, wView, rdt, reb, rl);
}
function runs(a, k, out) {
  let n2 = 0;
  let prev = -1;
  for (let j = 0; j < k; j++) {
    const x = a[j];
    if (x !== prev || j === 0)
      out[n2++] = j;
    prev = x;
  }
  out[n2] = k;
  return n2;
}
function directMoves(u, c, k, addrR, addrW, occ, nW, nR, view, rdt, reb, rl) {
  const amem = u.amem;
  for (let i = 0; i < nW; i++) {
    const blk = addrW[runW[i]] >>> 14;
    if (blockStamp[blk] !== epoch) {
      blockStamp[blk] = epoch;
      blockFirstW[blk] = runW[i];
    }
  }
  for (let i = 0; i < nR; i++) {
    const s = runR[i];
    const e = runR[i + 1];
    const rp = addrR[s];
    let un = 0;
    if (amem.blockAt(rp) === void 0) {
      const blk = rp >>> 14;
      const f = blockStamp[blk] === epoch ? blockFirstW[blk] : e;
      un = f <= s ? 0 : f >= e ? e - s : f - s;
    }
    runUninit[i] = un;
  }
  for (let iw = 0, ir = 0; iw < nW || ir < nR; ) {
    if (iw < nW && (ir >= nR || runW[iw] <= runR[ir])) {
      amem.noteWords(addrW[runW[iw]], view, runW[iw + 1] - runW[iw], true, 0);
      iw++;
    } else {
      amem.noteWords(addrR[runR[ir]], view, runR[ir + 1] - runR[ir], false, runUninit[ir]);
      ir++;
    }
  }
  const sb = u.sbReadToWrite;
  const raw32 = sb.raw32;
  const meta = sb.meta;
  const readyAt = u.sbReadyAt;
  const rlat = u.rd.latency;
  const cap = sb.capacity;
  const h0 = sb.peekSlot();
  const fill = k - occ;
  for (let i = 0; i < nW; i++) {
    const j = runW[i + 1] - 1;
    if (j >= fill)
      break;
    const wp = addrW[j];
    const dst = amem.writeBlockAt(wp);
    if (j >= occ) {
      const rp = addrR[j - occ];
      copyWord(dst, (wp & 16383) >> 2, amem.blockAt(rp), (rp & 16383) >> 2);
    } else
      copyWord(dst, (wp & 16383) >> 2, raw32, (h0 + j) % cap * 64);
  }
  for (let j = fill < 0 ? 0 : fill; j < k; j++) {
    const wp = addrW[j];
    const dst = amem.writeBlockAt(wp);
    if (j >= occ) {
      const rp2 = addrR[j - occ];
      copyWord(dst, (wp & 16383) >> 2, amem.blockAt(rp2), (rp2 & 16383) >> 2);
    } else
      copyWord(dst, (wp & 16383) >> 2, raw32, (h0 + j) % cap * 64);
    const rp = addrR[j];
    copyWord(raw32, (h0 + occ + j) % cap * 64, amem.blockAt(rp), (rp & 16383) >> 2);
  }
  for (let j = k > cap ? k - cap : 0; j < k; j++) {
    const e = (h0 + occ + j) % cap;
    readyAt[e] = c + j + rlat;
    const m = e * SB_META3;
    meta[m] = 1;
    meta[m + 1] = rdt;
    meta[m + 2] = reb;
    meta[m + 3] = rl;
  }
  sb.rotate(k);
}
function stagedMoves(u, c, k, addrR, addrW, occ, fill, direct, rView, wView, rdt, reb, rl) {
  const amem = u.amem;
  const sb = u.sbReadToWrite;
  const raw32 = sb.raw32;
  const meta = sb.meta;
  const readyAt = u.sbReadyAt;
  const rlat = u.rd.latency;
  const stamp = k - sb.capacity;
  for (let j = 0; j < k; j++) {
    const t = c + j;
    const wp = addrW[j];
    const dst = amem.writeWordAt(wp, wView);
    if (j < fill && j + 1 < k && addrW[j + 1] === wp) {
    } else if (direct && j >= occ) {
      const rp2 = addrR[j - occ];
      copyWord(dst, (wp & 16383) >> 2, amem.blockAt(rp2), (rp2 & 16383) >> 2);
    } else
      copyWord(dst, (wp & 16383) >> 2, raw32, sb.peekSlot() * 64);
    sb.pop();
    const rp = addrR[j];
    const src = amem.readWordAt(rp, rView);
    const e = sb.pushSlot();
    if (j >= fill)
      copyWord(raw32, e * 64, src, (rp & 16383) >> 2);
    if (j >= stamp) {
      readyAt[e] = t + rlat;
      const m = e * SB_META3;
      meta[m] = 1;
      meta[m + 1] = rdt;
      meta[m + 2] = reb;
      meta[m + 3] = rl;
    }
  }
}
var schedR = new Int32Array(NUM_ITERS);
var schedW = new Int32Array(NUM_ITERS);
function fillSchedule(u, k, dst, off, at2) {
  const aR = u.batch.addrR ??= new Int32Array(MOVE_MAX);
  const aW = u.batch.addrW ??= new Int32Array(MOVE_MAX);
  fillAddrs(u.seqs[SEQ_AMEM_READ], u.rd.dec, schedR, k, aR, 0, 1);
  fillAddrs(u.seqs[SEQ_AMEM_WRITE], u.wr.dec, schedW, k, aW, 0, 1);
  u.batch.addrAt = at2;
  u.batch.addrLen = k;
  u.batch.addrGen = u.stateGen;
  for (let j = 0; j < k; j++) {
    dst[off + 2 * j] = aR[j] >>> 7 & 127;
    dst[off + 2 * j + 1] = aW[j] >>> 7 & 127;
  }
}

// packages/target-pyxis/dist/sim/uie/steadyBatch.js
var { AMEM_PARTITIONS: AMEM_PARTITIONS3 } = amem_exports;
var { RD_SRAM_RELU: RD_SRAM_RELU3, readsSram: readsSram4, SRC_AMEM: SRC_AMEM2, TGT_AMEM: TGT_AMEM3, WR_WRITE: WR_WRITE2, ZSW_NOP: ZSW_NOP3 } = codes_exports;
var { compositeKey: compositeKey2, compositeTable: compositeTable2, is16bit: is16bit3 } = convert_exports;
var { decodeFast: decodeFast3 } = addressGen_exports;
var { A_CSW_VLD: A_CSW_VLD3, A_ENDPAD: A_ENDPAD3, A_FLAGS: A_FLAGS3, A_INDIR: A_INDIR3, A_OFFSET: A_OFFSET3, A_OPCD: A_OPCD3, A_PADMASK: A_PADMASK3, A_STARTPAD: A_STARTPAD3, A_STRIDE: A_STRIDE4, AUX_WORDS: AUX_WORDS4, R_ADDR: R_ADDR5, R_COLOFF: R_COLOFF3, R_CSW: R_CSW4, R_DT: R_DT4, R_EB: R_EB5, R_FIFO: R_FIFO4, R_FLAGS: R_FLAGS4, R_MASK: R_MASK4, R_N: R_N4, R_OP: R_OP5, R_PSWBASE: R_PSWBASE4, R_SLOT: R_SLOT4, R_VIEW: R_VIEW4, R_ZSW: R_ZSW4, REC_WORDS: REC_WORDS5, SEQ_AMEM_READ: SEQ_AMEM_READ5, SEQ_AMEM_WRITE: SEQ_AMEM_WRITE3 } = records_exports;
var { SB_META: SB_META4 } = switchbox_exports;
var SteadyBatchState = class {
  /** `runAhead` tries a batch again from this cycle (after a failed check). */
  retryAt = 0;
  /** Cycle from which a UIE that failed to publish its bank schedule tries again. */
  publishRetry = 0;
  /** Cycles simulated by batches (diagnostics for tests and benchmarks; not a statistic of the model). */
  cycles = 0;
  /** Odometer copies of the AMEM Read / Write cores' counts during a batch. */
  cntR = new Int32Array(NUM_ITERS);
  cntW = new Int32Array(NUM_ITERS);
  /**
   * batchMove.ts: the AMEM Read / Write addresses `fillSchedule` computed at cycle `addrAt` for the next `addrLen`
   * cycles, valid while the UIE's `stateGen` (bumped by every `tick`, trip start and batch) is `addrGen`.
   */
  addrR;
  addrW;
  addrAt = -1;
  addrLen = 0;
  addrGen = -1;
};
var BATCH_MIN = 16;
var BATCH_RETRY = 32;
var JOINT_MIN = 1;
var PUBLISH_RETRY = 4;
var PUBLISH_FIRST = 64;
function steadyCheck(u, c, limit, min = BATCH_MIN, relaxed = false) {
  if (u.rd.itfe.active || u.wr.itfe.active || u.trips.active !== 1)
    return 0;
  const rdec = u.rd.dec;
  const wdec = u.wr.dec;
  const sb = u.sbReadToWrite;
  const dr = rdec.occupancy;
  const dw = wdec.occupancy;
  if (!relaxed) {
    if (u.rd.portFree > c || u.wr.portFree > c)
      return 0;
    const banks = u.amem.banks;
    banks.sync(c);
    if (banks.freeAt[u.rd.client] > c || banks.freeAt[u.wr.client] > c)
      return 0;
    if (dr === 0 || dw === 0 || sb.empty || sb.occupancy < u.rd.latency || u.sbReadyAt[sb.peekSlot()] > c)
      return 0;
  }
  const rs = u.seqs[SEQ_AMEM_READ5];
  const ws = u.seqs[SEQ_AMEM_WRITE3];
  const tripSlot = u.trips.oldest;
  if (rs.slot !== tripSlot || ws.slot !== tripSlot || !rs.tmpl || !ws.tmpl)
    return 0;
  let k = rs.core.repeatable(limit - c);
  if (k === 0)
    return 0;
  k = ws.core.repeatable(k);
  if (k < min || k < dr || k < dw)
    return 0;
  const rsw = u.rd.sw;
  const wsw = u.wr.sw;
  if (u.rd.cswCur >= 0 && rsw.cswIdentity[u.rd.cswCur] !== 1)
    return 0;
  if (u.rd.pswCur >= 0 && rsw.pswIdentity[u.rd.pswCur] !== 1)
    return 0;
  if (u.wr.cswCur >= 0 && wsw.cswIdentity[u.wr.cswCur] !== 1)
    return 0;
  if (u.wr.pswCur >= 0 && wsw.pswIdentity[u.wr.pswCur] !== 1)
    return 0;
  const rpc = rs.core.pc;
  const rx = rs.aux;
  const rb = rpc * AUX_WORDS4;
  const rt = rs.tmpl;
  const rto = rpc * REC_WORDS5;
  const rOp = rx[rb + A_OPCD3];
  const rFlags = rx[rb + A_FLAGS3];
  const rDt = rt[rto + R_DT4];
  const rEb = rt[rto + R_EB5];
  const rMask = rt[rto + R_MASK4];
  if (!readsSram4(rOp) || rx[rb + A_INDIR3] !== 0 || rx[rb + A_CSW_VLD3] !== 0)
    return 0;
  if (rx[rb + A_PADMASK3] !== 0 && (rx[rb + A_STARTPAD3] !== 0 || rx[rb + A_ENDPAD3] !== 0))
    return 0;
  if (rt[rto + R_PSWBASE4] >= 0 || rt[rto + R_FIFO4] !== TGT_AMEM3 || rt[rto + R_N4] !== AMEM_PARTITIONS3 || rt[rto + R_ZSW4] !== ZSW_NOP3 || is16bit3(rDt))
    return 0;
  if (rsw.colMaskActive[rMask & 3] !== 0)
    return 0;
  const wpc = ws.core.pc;
  const wx = ws.aux;
  const wb = wpc * AUX_WORDS4;
  const wt = ws.tmpl;
  const wto = wpc * REC_WORDS5;
  const wFlags = wx[wb + A_FLAGS3];
  const wDt = wt[wto + R_DT4];
  const wEb = wt[wto + R_EB5];
  const wMask = wt[wto + R_MASK4];
  if (wx[wb + A_OPCD3] !== WR_WRITE2 || wx[wb + A_INDIR3] !== 0 || wx[wb + A_CSW_VLD3] !== 0)
    return 0;
  if (wt[wto + R_PSWBASE4] >= 0 || wt[wto + R_FIFO4] !== SRC_AMEM2 || wt[wto + R_N4] !== 128 || wt[wto + R_COLOFF3] !== 0 || wt[wto + R_ZSW4] !== ZSW_NOP3 || is16bit3(wDt))
    return 0;
  if (wsw.colMaskActive[wMask & 3] !== 0)
    return 0;
  const relu = rOp === RD_SRAM_RELU3;
  const comp = compositeTable2(rDt, rEb, relu, wDt, wEb);
  if (!comp.identity)
    return 0;
  if ((rs.base + rx[rb + A_OFFSET3] & 7) !== 0 || (ws.base + wx[wb + A_OFFSET3] & 7) !== 0)
    return 0;
  for (let i = 0; i < NUM_ITERS; i++)
    if ((rx[rb + A_STRIDE4 + i] & 7) !== 0 || (wx[wb + A_STRIDE4 + i] & 7) !== 0)
      return 0;
  const rd = rdec.data;
  for (let j = 0, at2 = rdec.peekSlot(); j < dr; j++) {
    if (rd[at2 + R_OP5] !== rOp || rd[at2 + R_FLAGS4] !== rFlags || rd[at2 + R_FIFO4] !== TGT_AMEM3 || rd[at2 + R_N4] !== AMEM_PARTITIONS3 || rd[at2 + R_ZSW4] !== ZSW_NOP3)
      return 0;
    if (rd[at2 + R_PSWBASE4] >= 0 || rd[at2 + R_CSW4] >= 0 || rd[at2 + R_MASK4] !== rMask || rd[at2 + R_DT4] !== rDt || rd[at2 + R_EB5] !== rEb)
      return 0;
    if (rd[at2 + R_VIEW4] !== rs.view || rd[at2 + R_SLOT4] !== tripSlot || (rd[at2 + R_ADDR5] & 7) !== 0)
      return 0;
    at2 += REC_WORDS5;
    if (at2 >= rd.length)
      at2 = 0;
  }
  const wd = wdec.data;
  for (let j = 0, at2 = wdec.peekSlot(); j < dw; j++) {
    if (wd[at2 + R_OP5] !== WR_WRITE2 || wd[at2 + R_FLAGS4] !== wFlags || wd[at2 + R_FIFO4] !== SRC_AMEM2 || wd[at2 + R_N4] !== 128 || wd[at2 + R_COLOFF3] !== 0 || wd[at2 + R_ZSW4] !== ZSW_NOP3)
      return 0;
    if (wd[at2 + R_PSWBASE4] >= 0 || wd[at2 + R_CSW4] >= 0 || wd[at2 + R_MASK4] !== wMask || wd[at2 + R_DT4] !== wDt || wd[at2 + R_EB5] !== wEb)
      return 0;
    if (wd[at2 + R_VIEW4] !== ws.view || wd[at2 + R_SLOT4] !== tripSlot || (wd[at2 + R_ADDR5] & 7) !== 0)
      return 0;
    at2 += REC_WORDS5;
    if (at2 >= wd.length)
      at2 = 0;
  }
  const meta = sb.meta;
  if (relaxed)
    return k;
  const lat = u.rd.latency;
  if (sb.occupancy < lat)
    return 0;
  for (let j = 0, e = sb.peekSlot(); j < sb.occupancy; j++) {
    const m = e * SB_META4;
    if (meta[m] !== 1 || meta[m + 1] !== rDt || meta[m + 2] !== rEb || meta[m + 3] !== (relu ? 1 : 0))
      return 0;
    if (u.sbReadyAt[e] > c + j)
      return 0;
    if (++e >= sb.capacity)
      e = 0;
  }
  return k;
}
function steadyBatch(u, c, limit) {
  const banks = u.amem.banks.sched;
  const me = u.index;
  if (banks.activeUies <= 1) {
    const k = steadyCheck(u, c, Math.min(limit, c + SCHED_MAX));
    if (k === 0 || !banks.idleAt(c))
      return 0;
    const off = banks.schedOffset(me);
    fillSchedule(u, k, banks.propBank, off, c);
    let j = 0;
    while (j < k && banks.propBank[off + 2 * j] !== banks.propBank[off + 2 * j + 1])
      j++;
    if (j < BATCH_MIN)
      return 0;
    banks.publish(me, c, c, j);
    banks.countBatch(me, banks.newest(me), c, j);
    runBatch(u, c, j);
    banks.publish(me, c, c, 0);
    return j;
  }
  const J = banks.jointWindow(c, limit, me);
  if (J >= JOINT_MIN && banks.batches(me) && steadyCheck(u, c, c + J, JOINT_MIN) === J) {
    banks.countBatch(me, banks.slotOf(me), c, J);
    runBatch(u, c, J);
    const k = steadyCheck(u, c + J, c + J + Math.min(SCHED_MAX, limit - c));
    if (k > 0) {
      fillSchedule(u, k, banks.propBank, banks.schedOffset(me), c + J);
      banks.publish(me, c, c + J, k);
    } else
      banks.publish(me, c, c + J, 0);
    return J;
  }
  if (!banks.hasSchedule(me, c) && c >= u.batch.publishRetry) {
    const end = c + Math.min(PUBLISH_FIRST, limit - c + 1);
    const k = steadyCheck(u, c, end);
    if (k > 0) {
      fillSchedule(u, k, banks.propBank, banks.schedOffset(me), c);
      banks.publish(me, c, c, k);
    } else {
      const f = steadyCheck(u, c, end, 1, true);
      if (f > 0) {
        fillSchedule(u, f, banks.propBank, banks.schedOffset(me), c);
        banks.publish(me, c, c, f, true);
      }
      u.batch.publishRetry = c + PUBLISH_RETRY;
    }
  }
  return 0;
}
function runBatch(u, c, k) {
  const rdec = u.rd.dec;
  const wdec = u.wr.dec;
  const dr = rdec.occupancy;
  const dw = wdec.occupancy;
  const rs = u.seqs[SEQ_AMEM_READ5];
  const ws = u.seqs[SEQ_AMEM_WRITE3];
  const rpc = rs.core.pc;
  const rx = rs.aux;
  const rb = rpc * AUX_WORDS4;
  const rt = rs.tmpl;
  const rto = rpc * REC_WORDS5;
  const rOp = rx[rb + A_OPCD3];
  const rDt = rt[rto + R_DT4];
  const rEb = rt[rto + R_EB5];
  const wpc = ws.core.pc;
  const wt = ws.tmpl;
  const wto = wpc * REC_WORDS5;
  const wDt = wt[wto + R_DT4];
  const wEb = wt[wto + R_EB5];
  const relu = rOp === RD_SRAM_RELU3;
  const comp = compositeTable2(rDt, rEb, relu, wDt, wEb);
  const stats = u.stats;
  const rCnt = u.batch.cntR;
  const wCnt = u.batch.cntW;
  moveBatch(u, c, k, rCnt, wCnt, rDt, rEb, relu ? 1 : 0);
  for (let j = 0; j < dr; j++)
    rdec.pop();
  for (let j = 0; j < dw; j++)
    wdec.pop();
  stats.bytesWritten += 128 * k;
  stats.bytesRead += 128 * k;
  stats.flitsToAmemWrite += k;
  u.wr.portFree = c + k;
  u.rd.portFree = c + k;
  rdec.pops += k - dr;
  rdec.pushes += k - dr;
  wdec.pops += k - dw;
  wdec.pushes += k - dw;
  rs.core.skipTo(rCnt, k - dr);
  ws.core.skipTo(wCnt, k - dw);
  stats.busyCycles[SEQ_AMEM_READ5] += k - dr;
  stats.instructions[SEQ_AMEM_READ5] += k - dr;
  stats.busyCycles[SEQ_AMEM_WRITE3] += k - dw;
  stats.instructions[SEQ_AMEM_WRITE3] += k - dw;
  for (let j = 0; j < dr; j++) {
    rs.core.step();
    stats.busyCycles[SEQ_AMEM_READ5]++;
    stats.instructions[SEQ_AMEM_READ5]++;
    decodeFast3(u, rs, rdec, true);
  }
  for (let j = 0; j < dw; j++) {
    ws.core.step();
    stats.busyCycles[SEQ_AMEM_WRITE3]++;
    stats.instructions[SEQ_AMEM_WRITE3]++;
    decodeFast3(u, ws, wdec, false);
  }
  u.wr.compKey = compositeKey2(rDt, rEb, relu, wDt, wEb);
  u.wr.comp = comp;
  u.now = c + k - 1;
  u.blocked = void 0;
  u.portWake = Infinity;
  u.lastDidWork = true;
  u.stateGen++;
}

// packages/target-pyxis/dist/sim/uie/vpuBatch.js
var VPU_OWN = /* @__PURE__ */ new Set(["vpuBusy", "vpuInstructions", "vpuLaneOps", "vpuPrograms"]);
var ADDERS_MAX = 64;
var VpuBatchState = class {
  /** Process-wide switch (benchmarks compare with and without; tests use UieOptions.fastPaths). */
  static enabled = true;
  keys = [];
  arrays = [];
  fifos = [];
  before = new Float64Array(0);
  delta = new Float64Array(0);
  bound = false;
  readStats = () => 0;
  /** Cycles replayed (diagnostics for tests and benchmarks; not a statistic of the model). */
  cycles = 0;
  bind(u) {
    const st = u.cmp.stats;
    this.keys = Object.keys(st).filter((k) => typeof st[k] === "number" && !VPU_OWN.has(k));
    this.readStats = new Function("st", "out", `${this.keys.map((k, i) => `out[${i}] = st.${k};`).join("\n")}
return ${this.keys.length};`);
    this.arrays = [u.stats.stallCycles, u.stats.datapathStallCycles];
    const fifos = [u.rd.dec, u.wr.dec, u.sbReadToWrite, u.sbReadToGrid, u.sbReadToVbuffer, u.sbGridToWrite, u.sbVbufferToWrite, u.sbGridToVbuffer, u.sbVbufferToGrid];
    for (const x of u.cmp.bySeq)
      if (x)
        fifos.push(x.dec);
    this.fifos = fifos;
    let n2 = this.keys.length + fifos.length;
    for (const a of this.arrays)
      n2 += a.length;
    this.before = new Float64Array(n2);
    this.delta = new Float64Array(n2);
    this.bound = true;
  }
  read(u, out) {
    let i = this.readStats(u.cmp.stats, out);
    const arrays = this.arrays;
    for (let a = 0; a < arrays.length; a++) {
      const x = arrays[a];
      for (let j = 0; j < x.length; j++)
        out[i++] = x[j];
    }
    const f = this.fifos;
    for (let j = 0; j < f.length; j++)
      out[i++] = f[j].fullStalls;
  }
  /** Before `tick(c)`: the counters as they are. */
  probe(u) {
    if (!this.bound)
      this.bind(u);
    this.read(u, this.before);
  }
  /** The probed cycle's increments (`delta[nz[j]]`, j < nzN: the counters that moved). */
  nz = new Int32Array(0);
  nzN = 0;
  lastNz = new Int32Array(0);
  adders = /* @__PURE__ */ new Map();
  add = () => {
  };
  /** Replays are valid while the UIE's `stateGen` is `gen` (no trip started, no other tick) and the cycle is < `until`. */
  gen = -1;
  until = 0;
  /**
   * After a probed `tick(now)`: when its only progress was a pure VPU instruction, records the stall counters'
   * increments and the cycle of the UIE's next timed event (Uie.nextWake without its progress and blocked shortcuts:
   * no stalled unit's input changes before it), so that the next cycles can be replayed (`replay`).
   */
  record(u, now) {
    this.gen = -1;
    if (!u.onlyVpu || !u.cmp.vi.lastPure || u.rd.lastAt >= 0 || u.wr.lastAt >= 0 || u.wt.lastAt >= 0)
      return;
    let w = u.portWake;
    if (u.commits.count > 0 && u.commits.nextAt < w)
      w = u.commits.nextAt;
    const ce = u.cmp.nextEvent(now + 1);
    if (ce < w)
      w = ce;
    if (w <= now + 1)
      return;
    const d = this.delta;
    this.read(u, d);
    const b = this.before;
    if (this.nz.length < d.length)
      this.nz = new Int32Array(d.length);
    let n2 = 0;
    for (let i = 0; i < d.length; i++) {
      d[i] = d[i] - b[i];
      if (d[i] !== 0)
        this.nz[n2++] = i;
    }
    this.nzN = n2;
    this.adder();
    this.until = w;
    this.gen = u.stateGen;
  }
  /** Whether cycle `now` repeats the recorded one outside the VPU (`record`; the caller checks the VPU's next instruction). */
  valid(u, now) {
    return this.gen === u.stateGen && now < this.until && now === u.now + 1;
  }
  /** Adds the recorded increments to the counters once (cycle `now` replayed; VI executes its instruction). */
  replay(u) {
    this.add(u.cmp.stats, this.arrays, this.fifos, this.delta);
    this.cycles++;
  }
  /**
   * The adder of the recorded pattern of moving counters: one unrolled function of plain property updates per
   * pattern (keyed updates over several names cost a stub-cache look-up each, more than the tick they replace); a
   * run has few patterns (one per kind of stall run), kept in `adders` (at most ADDERS_MAX).
   */
  adder() {
    const n2 = this.nzN;
    const nz = this.nz;
    const last = this.lastNz;
    if (last.length === n2) {
      let same = true;
      for (let j = 0; j < n2; j++)
        if (last[j] !== nz[j]) {
          same = false;
          break;
        }
      if (same)
        return;
    }
    this.lastNz = nz.slice(0, n2);
    const sig = this.lastNz.join(",");
    let f = this.adders.get(sig);
    if (f === void 0) {
      const nk = this.keys.length;
      const lines = [];
      for (let j = 0; j < n2; j++) {
        let i = nz[j];
        if (i < nk) {
          lines.push(`st.${this.keys[i]} += d[${i}];`);
          continue;
        }
        const di = i;
        i -= nk;
        let a = 0;
        while (a < this.arrays.length && i >= this.arrays[a].length)
          i -= this.arrays[a++].length;
        lines.push(a < this.arrays.length ? `arr[${a}][${i}] += d[${di}];` : `fifos[${i}].fullStalls += d[${di}];`);
      }
      if (this.adders.size >= ADDERS_MAX)
        this.adders.clear();
      f = new Function("st", "arr", "fifos", "d", lines.join("\n"));
      this.adders.set(sig, f);
    }
    this.add = f;
  }
};

// packages/target-pyxis/dist/sim/uie/trips.js
var TripTable = class {
  /** The tracking IDs; a slot's `params` are the trip's descriptor fields while it is active. */
  slots = [];
  /** The slot the next accepted trip takes. */
  next = 0;
  /** The oldest active trip's slot (retirement is in order). */
  oldest = 0;
  /** Trips accepted and not retired. */
  active = 0;
  constructor() {
    for (let i = 0; i < TRIP_SLOTS; i++)
      this.slots.push({ active: false, tripId: 0, params: void 0, pending: 0, writes: 0 });
  }
  /** A tracking ID is free for the next trip. */
  get free() {
    return !this.slots[this.next].active;
  }
  /** Takes the next tracking ID for `trip`, valid sequencers `mask`; returns the slot (the caller checked `free`). */
  accept(trip, mask) {
    const slotId = this.next;
    const slot = this.slots[slotId];
    slot.active = true;
    slot.tripId = trip.trip_id;
    slot.params = trip;
    slot.writes = 0;
    slot.pending = mask;
    this.next = (slotId + 1) % TRIP_SLOTS;
    this.active++;
    return slotId;
  }
  /** The oldest trip, if it can retire now (its sequencers done, its writes committed). */
  retirable() {
    if (this.active === 0)
      return void 0;
    const sl = this.slots[this.oldest];
    return sl.active && sl.pending === 0 && sl.writes === 0 ? sl : void 0;
  }
  /** Retires the oldest trip (after `retirable`). */
  retireOldest() {
    const sl = this.slots[this.oldest];
    sl.active = false;
    sl.params = void 0;
    this.active--;
    this.oldest = (this.oldest + 1) % TRIP_SLOTS;
  }
  /** Sequencer `id` finished its program of the trip in `slot`. */
  seqDone(id, slot) {
    this.slots[slot].pending &= ~(1 << id);
  }
};

// packages/target-pyxis/dist/sim/uie/writePath.js
var { AMEM_BYTES: AMEM_BYTES3, AMEM_VIEW_BIT: AMEM_VIEW_BIT5, amemBank: amemBank2, amemPhysical: amemPhysical3 } = amem_exports;
var { SRC_GRID: SRC_GRID2, SRC_VBUFFER: SRC_VBUFFER2, WR_DISCARD: WR_DISCARD3, WR_NOP: WR_NOP2, WR_RMW_ADD: WR_RMW_ADD2, ZSW_NOP: ZSW_NOP4 } = codes_exports;
var { addCodes: addCodes2, compositeKey: compositeKey3, compositeTable: compositeTable3, from16Table: from16Table2, is16bit: is16bit4 } = convert_exports;
var { checkItfeCount: checkItfeCount3, indirectAddr: indirectAddr3 } = addressGen_exports;
var { CHIP_SPEC_F: CHIP_SPEC_F5, F_EOP: F_EOP4, F_INDIR: F_INDIR4, F_POP: F_POP4, F_ROT: F_ROT4, PTN_MASK: PTN_MASK6, R_ADDR: R_ADDR6, R_COLOFF: R_COLOFF4, R_CSW: R_CSW5, R_DT: R_DT5, R_EB: R_EB6, R_FIFO: R_FIFO5, R_FLAGS: R_FLAGS5, R_MASK: R_MASK5, R_N: R_N5, R_OP: R_OP6, R_PC: R_PC4, R_PSWBASE: R_PSWBASE5, R_PSWITER: R_PSWITER4, R_RMW: R_RMW3, R_SLOT: R_SLOT5, R_VIEW: R_VIEW5, R_ZSW: R_ZSW5, REC_WORDS: REC_WORDS6, SEQ_AMEM_WRITE: SEQ_AMEM_WRITE4, SEQ_SPEC: SEQ_SPEC13, SIGMA_INV: SIGMA_INV3, UieCodes: UieCodes6, WIDE_PERM_HI: WIDE_PERM_HI3, WIDE_PERM_LO: WIDE_PERM_LO3 } = records_exports;
var { headWaiting: headWaiting2, SB_META: SB_META5 } = switchbox_exports;
var { applyCsw: applyCsw3, applyPsw: applyPsw3, applyZsw: applyZsw3 } = switches_exports;
function convert16ToLanes(tab, src, base2, wide, lanes) {
  if (!wide) {
    for (let c = 0; c < 128; c++)
      lanes[c] = tab[src[base2 + c]];
    return;
  }
  for (let o = 0; o < 8; o++) {
    const b0 = o * 16;
    for (let i = 0; i < 8; i++) {
      const v0 = tab[src[base2 + b0 + i]];
      const v1 = tab[src[base2 + b0 + 8 + i]];
      lanes[b0 + 2 * i] = v0 & 255;
      lanes[b0 + 2 * i + 1] = v0 >> 8;
      lanes[128 + b0 + 2 * i] = v1 & 255;
      lanes[128 + b0 + 2 * i + 1] = v1 >> 8;
    }
  }
}
var WritePath = class {
  u;
  /** Decoder-metadata FIFO from the AMEM Write sequencer (seq §3). */
  dec;
  /** Index-table fetch engine of the write side (seq §8). */
  itfe;
  /** Applied WPSW / WCSW / column-mask tables (decoded from cfg at trip start). */
  sw = identitySwitchTables();
  /** Per decoder FIFO slot: template id * 65536 + pc whose static record words the slot holds (addressGen.ts decodeFast). */
  decKey;
  /** AMEM bank client of the port (amem/clients.ts `uieClient`). */
  client;
  /** First cycle the port may issue again (16-bit data and read-modify-writes take more than one, chip §7.3, §7.4). */
  portFree = 0;
  /** Held WPSW / WCSW configuration indexes (seq §6.6, §6.7; -1 none). */
  pswCur = -1;
  cswCur = -1;
  /** Index pops in the current trip (ITFE count rule, seq §8.1) and whether the current trip is indirect. */
  pops = 0;
  tripIndirect = false;
  /** The last bank claim (`settle`): cycle (-1 none), accesses (2: read-modify-write) and posted writes. */
  lastAt = -1;
  lastAcc = 1;
  lastN = 0;
  /** The last composed conversion (read dt/eb/relu x write dt/eb): the hot path does no Map lookup per flit. */
  compKey = -1;
  comp;
  // scratch (no per-cycle allocation)
  lanes = new Uint8Array(256);
  lanes2 = new Uint8Array(256);
  lanes32 = new Uint32Array(this.lanes.buffer);
  lanes2_32 = new Uint32Array(this.lanes2.buffer);
  /** 32-word views of the first 128 lane bytes (whole-word AMEM writes by `set`). */
  lanesWord = this.lanes32.subarray(0, 32);
  lanes2Word = this.lanes2_32.subarray(0, 32);
  cols = new Uint16Array(128);
  cols2 = new Uint16Array(128);
  ptnBuf = new Uint8Array(16);
  rmwBuf = new Uint8Array(16);
  constructor(u, decDepth, indexDepth) {
    this.u = u;
    this.dec = new Fifo(`${u.name}.amem_write.dec`, decDepth, REC_WORDS6);
    this.decKey = new Float64Array(decDepth * REC_WORDS6).fill(-1);
    this.client = uieClient(u.index, PORT_WRITE);
    this.itfe = new Itfe(`${u.name}.itfe_write`, u.amem, indexDepth, uieClient(u.index, PORT_ITFE_WRITE));
  }
  /** Settles the bank claim of the previous cycle (amem/banks.ts): a write served late commits that much later (chip §11.7.1). */
  settle() {
    const late = this.u.amem.banks.freeAt[this.client] - this.lastAcc - this.lastAt;
    if (late > 0)
      this.u.commits.delayNewest(this.lastN, late);
    this.lastAt = -1;
  }
  issue(now) {
    const u = this.u;
    const dec = this.dec;
    if (dec.empty)
      return false;
    if (this.portFree > now) {
      if (this.portFree < u.portWake)
        u.portWake = this.portFree;
      return false;
    }
    const bankFree = u.amem.banks.freeAt[this.client];
    if (bankFree > now) {
      if (bankFree < u.portWake)
        u.portWake = bankFree;
      return false;
    }
    const d = dec.data;
    const at2 = dec.peekSlot();
    const seq = u.seqs[SEQ_AMEM_WRITE4];
    const opcd = d[at2 + R_OP6];
    const flags = d[at2 + R_FLAGS5];
    const slot = d[at2 + R_SLOT5];
    if (opcd !== WR_NOP2) {
      const src = d[at2 + R_FIFO5];
      const fifo = src === SRC_GRID2 ? u.sbGridToWrite : src === SRC_VBUFFER2 ? u.sbVbufferToWrite : u.sbReadToWrite;
      if (fifo.empty) {
        u.stats.datapathStallCycles[1]++;
        u.blocked ??= u.fifoMsg(fifo, false);
        return false;
      }
      if (headWaiting2(fifo, now, u))
        return false;
      if (opcd === WR_DISCARD3) {
        fifo.pop();
        u.stats.discards++;
      } else {
        let addr = d[at2 + R_ADDR6];
        if (flags & F_INDIR4) {
          const r = indirectAddr3(u, this.itfe, d, at2, seq);
          if (r === -1)
            return false;
          if (r >= 0) {
            addr = r;
            if (flags & F_POP4)
              this.pops++;
            u.stats.indirectWrites++;
          }
        }
        const acc = this.claim(opcd, addr, d, at2, now);
        this.lastAt = now;
        this.lastAcc = acc;
        const wide = this.write(opcd, addr, d, at2, seq, fifo);
        fifo.pop();
        this.portFree = now + (wide ? 2 : 1) * acc;
        u.commits.post(slot, now, wide ? 2 : 1);
        this.lastN = wide ? 2 : 1;
      }
    }
    dec.pop();
    if (flags & F_EOP4) {
      const p = u.trips.slots[slot].params;
      checkItfeCount3(u, this.itfe, this.pops, seq, d[at2 + R_PC4], !!p?.amem_write_indirect_vld);
      u.seqDone(SEQ_AMEM_WRITE4, slot);
    }
    return true;
  }
  /**
   * The bank claim of a write (amem/banks.ts): the partitions holding bytes [lo, hi) of the access (seq §6.4); RMW_Add
   * and partial writes (bytes of a partition left unwritten, merged after a read, chip §7.4) access them twice.
   * Returns the number of accesses (1 or 2).
   */
  claim(opcd, addr, d, at2, now) {
    const u = this.u;
    const bps = is16bit4(d[at2 + R_DT5]) ? 2 : 1;
    const colOff = d[at2 + R_COLOFF4];
    const lo2 = colOff * bps;
    const hi = (colOff + Math.min(d[at2 + R_N5], 128 - colOff)) * bps;
    if (hi <= lo2)
      return 1;
    const p0 = lo2 >> 4;
    const acc = opcd === WR_RMW_ADD2 || (lo2 & 15) !== 0 || (hi & 15) !== 0 ? 2 : 1;
    u.amem.banks.claim(this.client, now, (addr + p0 & PTN_MASK6) << 4 | (d[at2 + R_VIEW5] ? AMEM_VIEW_BIT5 : 0), (hi + 15 >> 4) - p0, acc);
    return acc;
  }
  /** Executes Write / RMW_Add of the head flit (seq §6, chip §6.2.2, §7.4). Returns true for 16-bit. */
  write(opcd, addr, d, at2, seq, sb) {
    const u = this.u;
    const dt = d[at2 + R_DT5];
    const wide = is16bit4(dt);
    const pc = d[at2 + R_PC4];
    const slot = sb.peekSlot();
    const colOff = d[at2 + R_COLOFF4];
    const nCols = d[at2 + R_N5];
    if (wide && addr & 1)
      u.ruleError(UieCodes6.oddPartition16, `16-bit write (data_type ${dt}) at odd partition address 0x${(addr * 16).toString(16)}`, `${SEQ_SPEC13} \xA71.1, \xA76.1; ${CHIP_SPEC_F5} \xA77.3`, seq, pc);
    if (colOff + nCols > 128)
      u.ruleError(UieCodes6.colRange, `logical_col_offset ${colOff} + num_logical_cols ${nCols} > 128`, `${SEQ_SPEC13} \xA76.4`, seq, pc);
    const flags = d[at2 + R_FLAGS5];
    const s0 = addr & 7;
    if (d[at2 + R_PSWBASE5] >= 0)
      this.pswCur = d[at2 + R_PSWBASE5] + ((flags & F_ROT4 ? s0 : 0) + d[at2 + R_PSWITER4]) % 8 & 63;
    if (d[at2 + R_CSW5] >= 0)
      this.cswCur = d[at2 + R_CSW5];
    const fast = u.fastPaths;
    const sw = this.sw;
    const zsw = d[at2 + R_ZSW5];
    const maskIdx = d[at2 + R_MASK5] & 3;
    const lanes = this.lanes;
    const m = slot * SB_META5;
    const raw = sb.meta[m] === 1;
    const switching = zsw !== ZSW_NOP4 || this.cswCur >= 0 && !(fast && sw.cswIdentity[this.cswCur] === 1) || sw.colMaskActive[maskIdx] === 1;
    const pswApplied = this.pswCur >= 0 && !(fast && sw.pswIdentity[this.pswCur] === 1);
    let src8 = lanes;
    let src32 = this.lanes32;
    let base8 = 0;
    if (raw && !switching && is16bit4(sb.meta[m + 1]) === wide) {
      const key = compositeKey3(sb.meta[m + 1], sb.meta[m + 2], sb.meta[m + 3] === 1, dt, d[at2 + R_EB6]);
      if (key !== this.compKey) {
        this.comp = compositeTable3(sb.meta[m + 1], sb.meta[m + 2], sb.meta[m + 3] === 1, dt, d[at2 + R_EB6]);
        this.compKey = key;
      }
      const comp = this.comp;
      if (comp.identity) {
        src8 = sb.raw;
        src32 = sb.raw32;
        base8 = slot * 256;
      } else {
        const t = comp.table;
        const rb = slot * 256;
        const r = sb.raw;
        if (!wide)
          for (let c = 0; c < 128; c++)
            lanes[c] = t[r[rb + c]];
        else
          for (let b = 0; b < 256; b += 2) {
            const v = t[r[rb + b] | r[rb + b + 1] << 8];
            lanes[b] = v & 255;
            lanes[b + 1] = v >> 8;
          }
      }
    } else {
      let src = sb.flits;
      let base2 = slot * 128;
      if (raw || switching) {
        sb.headColumns(this.cols, 0);
        src = this.cols;
        base2 = 0;
      }
      if (switching) {
        applyZsw3(zsw, this.cols, this.cols2);
        applyCsw3(sw, this.cswCur, maskIdx, this.cols, this.cols2);
      }
      convert16ToLanes(from16Table2(dt, d[at2 + R_EB6]), src, base2, wide, lanes);
    }
    if (pswApplied) {
      if (src8 !== lanes)
        for (let w = 0; w < (wide ? 64 : 32); w++)
          this.lanes32[w] = src32[(base8 >> 2) + w];
      applyPsw3(sw, this.pswCur, lanes, this.lanes2, wide);
      src8 = this.lanes2;
      src32 = this.lanes2_32;
      base8 = 0;
    }
    const bps = wide ? 2 : 1;
    const lo2 = colOff * bps;
    const hi = (colOff + Math.min(nCols, 128 - colOff)) * bps;
    const view = d[at2 + R_VIEW5] ? AMEM_VIEW_BIT5 : 0;
    const rmw = opcd === WR_RMW_ADD2;
    if (fast && !rmw && s0 === 0 && lo2 === 0 && hi === 128 * bps) {
      if (!wide)
        u.amem.writeWordView((addr & PTN_MASK6) << 4 | view, src8 === lanes ? this.lanesWord : src8 === this.lanes2 ? this.lanes2Word : sb.rawWordView[slot]);
      else {
        u.amem.writeWordPerm32((addr & PTN_MASK6) << 4 | view, src32, base8 >> 2, WIDE_PERM_LO3);
        u.amem.writeWordPerm32((addr + 8 & PTN_MASK6) << 4 | view, src32, base8 >> 2, WIDE_PERM_HI3);
      }
      u.stats.bytesWritten += 128 * bps;
      return wide;
    }
    const rmwOff = d[at2 + R_RMW3];
    let partial = false;
    for (let j = lo2 >> 4; j < hi + 15 >> 4; j++) {
      let off;
      if (!wide)
        off = base8 + (s0 + j & 7) * 16;
      else
        off = base8 + (j & 1) * 128 + (s0 + SIGMA_INV3[j >> 1] & 7) * 16;
      const pLo = Math.max(lo2 - j * 16, 0);
      const pHi = Math.min(hi - j * 16, 16);
      const mask = pLo === 0 && pHi === 16 ? 65535 : (1 << pHi) - 1 & ~((1 << pLo) - 1);
      if (mask !== 65535) {
        partial = true;
        u.onPartialWrite?.(((addr + j & PTN_MASK6) << 4 | view) >>> 0, u.trips.slots[d[at2 + R_SLOT5]].tripId, u.now);
      }
      const wAddr = (addr + j & PTN_MASK6) << 4 | view;
      if (rmw) {
        const rAddr = ((wAddr >>> 14) + rmwOff & 4095) << 14 | wAddr & 16383 | view;
        this.checkRmwBank(wAddr, rAddr, seq, pc);
        u.amem.readPartition(rAddr, this.rmwBuf, 0);
        const buf = this.ptnBuf;
        if (!wide)
          for (let b = 0; b < 16; b++)
            buf[b] = addCodes2(this.rmwBuf[b], src8[off + b], dt);
        else
          for (let b = 0; b < 16; b += 2) {
            const v = addCodes2(this.rmwBuf[b] | this.rmwBuf[b + 1] << 8, src8[off + b] | src8[off + b + 1] << 8, dt);
            buf[b] = v & 255;
            buf[b + 1] = v >> 8;
          }
        u.amem.writePartition(wAddr, buf, 0, mask);
      } else if (mask === 65535)
        u.amem.writePartition32(wAddr, src32, off >> 2);
      else
        u.amem.writePartition(wAddr, src8, off, mask);
      u.stats.bytesWritten += pHi - pLo;
    }
    if (rmw)
      u.stats.rmwAdds++;
    if (partial)
      u.stats.partialWrites++;
    return wide;
  }
  checkRmwBank(wAddr, rAddr, seq, pc) {
    const u = this.u;
    if (wAddr === rAddr)
      return;
    const wb = amemBank2(amemPhysical3(wAddr));
    const rb = amemBank2(amemPhysical3(rAddr));
    if (wb !== rb)
      u.ruleError(UieCodes6.rmwBank, `RMW_Add reads bank ${rb} (0x${(rAddr & AMEM_BYTES3 - 1).toString(16)}) but writes bank ${wb} (0x${(wAddr & AMEM_BYTES3 - 1).toString(16)}); read and write must be in the same AMEM bank \u2014 use the unhashed view or a 2 MiB-multiple offset`, `${SEQ_SPEC13} \xA76.5.1; ${CHIP_SPEC_F5} \xA77.4.1`, seq, pc);
  }
};

// packages/target-pyxis/dist/sim/uie/uie.js
var { CHIP_SPEC_F: CHIP_SPEC_F6, NUM_SEQUENCERS: NUM_SEQUENCERS2, RW_ACTIVE: RW_ACTIVE2, SEQ_AMEM_READ: SEQ_AMEM_READ6, SEQ_AMEM_WEIGHTS_READ: SEQ_AMEM_WEIGHTS_READ3, SEQ_AMEM_WRITE: SEQ_AMEM_WRITE5, SEQ_QUEUE: SEQ_QUEUE3, TRIP_SLOTS: TRIP_SLOTS2, UieCodes: UieCodes7 } = records_exports;
var COMPUTE_SEQS = (1 << NUM_SEQUENCERS2) - 1 & ~(1 << SEQ_AMEM_READ6 | 1 << SEQ_AMEM_WRITE5);
var CLAIM_SEQS = RW_ACTIVE2 | 1 << SEQ_AMEM_WEIGHTS_READ3;
var { BATCH_MIN: BATCH_MIN2, BATCH_RETRY: BATCH_RETRY2, SteadyBatchState: SteadyBatchState2, steadyBatch: steadyBatch2 } = steadyBatch_exports;
var { stepSeq: stepSeq2 } = sequencing_exports;
var Uie = class {
  name;
  cluster;
  index;
  amem;
  stats;
  warnings = [];
  seqs = [];
  /** Switchbox FIFO AMEM Read -> AMEM Write (chip §6.2.3), 128 x FP16 per entry. */
  /** Switchbox FIFOs (chip §6.2.3), 128 x RFP16 per entry. */
  sbReadToWrite;
  sbReadToGrid;
  sbReadToVbuffer;
  sbGridToWrite;
  sbVbufferToWrite;
  /** Grid writeback -> Vbuffer (GWB tgt_fifo=VPU, SB2VB src Grid) and Vbuffer -> Grid (VB2SB tgt Grid, GV Read_VPU_FIFO), chip Table 6-3. */
  sbGridToVbuffer;
  sbVbufferToGrid;
  /** Whether a grid / VPU model consumes and produces the grid / vbuffer FIFOs (else: dropped / never filled). */
  attachGrid;
  attachVbuffer;
  /** The compute half: weights path, grid, writeback (compute/index.ts). */
  cmp;
  /** See UieOptions.fastPaths. */
  fastPaths;
  /** The AMEM Read and AMEM Write datapaths with the state they own (readPath.ts, writePath.ts). */
  rd;
  wr;
  /** Per sbReadToWrite entry: the cycle its data is there (read pipeline, docs/timing-model.md; = sbReadToWrite.readyAt). */
  sbReadyAt;
  /** The AMEM Weights Read port (weightsRead.ts). */
  wt;
  /** Microcode, switch-table and ITFE-command loading from the config space (config.ts). */
  config;
  /** ITFE command registers set directly (tests/tools without a cfg space), by side and index 0..3. */
  itfeOverride;
  /** This machine instance's UIE parameters (sim_config.json `uie`, `grid`, `weights_path`). */
  params;
  /** Statistics and traces (observer.ts): called at trip acceptance, around every simulated cycle and at retirement; undefined: none (one flag check per cycle). */
  observer;
  onTripDone;
  onDiagnostic;
  onPartialWrite;
  /** Tracking IDs and in-order retirement (trips.ts). */
  trips = new TripTable();
  /** Posted AMEM writes until they commit (commits.ts). */
  commits;
  lastDidWork = false;
  /** Set by `tick`: the only progress of the cycle was VI executing a VPU instruction (vpuBatch.ts). */
  onlyVpu = false;
  /** Steady-state batches (steadyBatch.ts, batchMove.ts). */
  batch = new SteadyBatchState2();
  /** VPU-only batches (vpuBatch.ts). */
  vpuBatch = new VpuBatchState();
  /** Bumped by every `tick`, trip start and batch: the batch's cached addresses are valid while it is unchanged. */
  stateGen = 0;
  /** Bit id set while sequencer id has a running core or a queued trip (the tick loop visits only these). */
  seqActive = 0;
  portWake = Infinity;
  now = 0;
  // run-ahead (temporal decoupling, docs/simulator.md "Quantum"): retirements captured instead of reported
  deferring = false;
  deferredIds = new Float64Array(TRIP_SLOTS2);
  deferredAt = 0;
  deferredN = 0;
  /** Set by a retirement (always) or a descriptor-FIFO pop (when `stopOnPop`) during run-ahead: ends the run-ahead after the cycle. */
  visible = false;
  stopOnPop = false;
  blocked;
  warned = /* @__PURE__ */ new Set();
  constructor(opts) {
    this.cluster = opts.cluster;
    this.index = opts.index;
    this.name = `c${opts.cluster}.uie${opts.index}`;
    this.amem = opts.amem;
    this.config = new UieConfig(opts.cfg, opts.index, opts.cfgBase);
    this.itfeOverride = this.config.itfeOverride;
    this.onTripDone = opts.onTripDone;
    this.observer = opts.observer;
    this.onDiagnostic = opts.onDiagnostic;
    this.onPartialWrite = opts.onPartialWrite;
    this.params = opts.params ?? defaultSimConfig();
    const decDepth = opts.decoderFifoDepth ?? this.params.uie.amem_dec_fifo_depth;
    const sbDepth = opts.switchboxFifoDepth ?? this.params.uie.switchbox_fifo_depth;
    this.sbReadToWrite = new SwitchboxFifo(`${this.name}.sb.amem_read->amem_write`, sbDepth);
    this.sbReadyAt = this.sbReadToWrite.readyAt;
    this.wt = new WeightsPort(uieClient(opts.index, PORT_WEIGHTS));
    this.sbReadToGrid = new SwitchboxFifo(`${this.name}.sb.amem_read->grid`, sbDepth);
    this.sbReadToVbuffer = new SwitchboxFifo(`${this.name}.sb.amem_read->vbuffer`, sbDepth);
    this.sbGridToWrite = new SwitchboxFifo(`${this.name}.sb.grid->amem_write`, sbDepth);
    this.sbVbufferToWrite = new SwitchboxFifo(`${this.name}.sb.vbuffer->amem_write`, sbDepth);
    this.sbGridToVbuffer = new SwitchboxFifo(`${this.name}.sb.grid->vbuffer`, sbDepth);
    this.sbVbufferToGrid = new SwitchboxFifo(`${this.name}.sb.vbuffer->grid`, sbDepth);
    this.attachGrid = opts.attachGrid ?? true;
    this.attachVbuffer = opts.attachVbuffer ?? true;
    this.fastPaths = opts.fastPaths ?? true;
    const idxDepth = opts.indexFifoDepth ?? this.params.uie.itfe_index_fifo_depth;
    this.rd = new ReadPath(this, decDepth, idxDepth);
    this.wr = new WritePath(this, decDepth, idxDepth);
    this.commits = new CommitRing(opts.writeCommitLatency ?? defaultSimConfig().amem.write_commit_latency_cycles, this.trips.slots);
    for (let id = 0; id < NUM_SEQUENCERS2; id++) {
      const m = this.config.seqMem[id];
      this.seqs.push({
        id,
        name: m?.name ?? `seq${id}`,
        core: new SequencerCore(emptyControlStore()),
        control: emptyControlStore(),
        op: void 0,
        controlTable: tryTable(m?.ctrl.table),
        opTable: tryTable(m?.op.table),
        queue: new Int32Array(SEQ_QUEUE3),
        qHead: 0,
        qCount: 0,
        slot: -1,
        gen: -1,
        rawCtl: void 0,
        rawOp: void 0,
        rf: void 0,
        wf: void 0,
        kf: void 0,
        warnedNoDatapath: false,
        usesPsw: false,
        usesCsw: false,
        base: 0,
        view: 0,
        tmpl: void 0,
        aux: void 0,
        tmplId: 0
      });
    }
    this.cmp = new Compute(this, { timingOnly: opts.timingOnly ?? false });
    this.stats = {
      busyCycles: new Float64Array(NUM_SEQUENCERS2),
      stallCycles: new Float64Array(NUM_SEQUENCERS2),
      datapathStallCycles: new Float64Array(2),
      instructions: new Float64Array(NUM_SEQUENCERS2),
      bytesRead: 0,
      bytesWritten: 0,
      weightsBytesRead: 0,
      flitsToAmemWrite: 0,
      flitsDropped: 0,
      padsInserted: 0,
      discards: 0,
      rmwAdds: 0,
      partialWrites: 0,
      indirectReads: 0,
      indirectWrites: 0,
      tripsDone: 0
    };
    this.observer?.attach(this);
  }
  // ------------------------------------------------------------------ trips
  /** True when a new trip can be accepted (a free tracking ID / scoreboard entry, chip §11.7.1, and room in every sequencer's descriptor FIFO). */
  canStartTrip() {
    if (!this.trips.free)
      return false;
    for (const s of this.seqs)
      if (s.qCount >= SEQ_QUEUE3)
        return false;
    return true;
  }
  /**
   * Queues a trip (chip §11.4.2). Returns false (nothing queued) when
   * `canStartTrip()` is false; the caller retries later.
   */
  startTrip(trip) {
    if (!this.canStartTrip())
      return false;
    this.stateGen++;
    const mask = trip.trip_valid_mask & (1 << NUM_SEQUENCERS2) - 1;
    const slotId = this.trips.accept(trip, mask);
    for (let id = 0; id < NUM_SEQUENCERS2; id++) {
      if (!(mask >> id & 1))
        continue;
      const s = this.seqs[id];
      s.queue[(s.qHead + s.qCount) % SEQ_QUEUE3] = slotId;
      s.qCount++;
      this.seqActive |= 1 << id;
    }
    this.amem.banks.sched.setActive(this.index, true);
    this.lastDidWork = true;
    this.observer?.tripAccepted(trip.trip_id, slotId);
    return true;
  }
  get busy() {
    return this.trips.active > 0;
  }
  /** The trip slots (tracking IDs, chip §11.7.1), read-only for observers and probes. */
  get slots() {
    return this.trips.slots;
  }
  nextWake(now) {
    if (!this.busy)
      return Infinity;
    if (this.lastDidWork)
      return now;
    let w = Infinity;
    if (this.commits.count > 0)
      w = Math.max(now, this.commits.nextAt);
    if (this.portWake < w)
      w = Math.max(now, this.portWake);
    const ce = this.cmp.nextEvent(now);
    if (ce < w)
      w = Math.max(now, ce);
    if (this.blocked !== void 0 && w !== Infinity)
      return now;
    return w;
  }
  // blockedReason texts, built once (the tick records which one applies without building strings)
  seqMsgs = /* @__PURE__ */ new Map();
  sbMsgs = /* @__PURE__ */ new Map();
  blockMsg(s, kind) {
    let m = this.seqMsgs.get(s);
    if (!m) {
      m = [
        `${s.name}: next trip waits for the previous trip's indirect accesses to drain`,
        `${s.name}: decoder FIFO full (datapath backpressure)`,
        `${s.name}: waiting for ITFE index FIFO`,
        `${s.name}: AMEM port held by an access served late (bank conflict)`
      ];
      this.seqMsgs.set(s, m);
    }
    return m[kind];
  }
  fifoMsg(f, readSide) {
    let m = this.sbMsgs.get(f);
    if (!m) {
      if (readSide)
        m = `amem_read: switchbox FIFO ${f.name} full`;
      else {
        const grid = f === this.sbGridToWrite;
        const unmodelled = grid && !this.attachGrid || f === this.sbVbufferToWrite && !this.attachVbuffer;
        m = `amem_write: waiting switchbox FIFO ${f.name} (empty${unmodelled ? `; the ${grid ? "grid" : "VPU"} is not modelled yet` : ""})`;
      }
      this.sbMsgs.set(f, m);
    }
    return m;
  }
  blockedReason() {
    if (!this.busy)
      return void 0;
    if (this.blocked)
      return this.blocked;
    if (this.commits.count > 0)
      return `waiting for ${this.commits.count} AMEM write commit(s) (seq \xA76.8)`;
    return void 0;
  }
  // ---------------------------------------------------------- diagnostics
  report(d) {
    if (this.onDiagnostic) {
      this.onDiagnostic(d);
      return;
    }
    if (d.severity === "error")
      throw new DiagnosticError(d);
    this.warnings.push(d);
  }
  ruleError(code2, msg, spec, seq, pc) {
    const span = seq ? { file: `${this.name}.${seq.name}.op`, offset: this.config.opAddr(seq.id) + pc * this.config.opStride(seq.id) } : void 0;
    this.report(error(code2, `${this.name}: cycle ${this.now}: ${msg}`, { spec, ...span ? { span } : {}, ...seq ? { notes: [`sequencer ${seq.name}, pc ${pc}`] } : {} }));
  }
  warnOnce(key, code2, msg, spec) {
    if (this.warned.has(key))
      return;
    this.warned.add(key);
    this.report(warning(code2, `${this.name}: ${msg}`, spec ? { spec } : {}));
  }
  // ------------------------------------------------------------- microcode and tables
  /** Installs decoded microcode directly (tests/tools without a cfg space). */
  loadMicrocode(id, control, op) {
    const s = this.seqs[id];
    s.control = control;
    s.op = op;
    s.gen = Number.POSITIVE_INFINITY;
    bindSeq(s);
  }
  /** Installs switch tables directly (tests/tools without a cfg space). */
  loadSwitchTables(side, t) {
    const dst = side === "read" ? this.rd.sw : this.wr.sw;
    dst.pswSrc.set(t.pswSrc);
    dst.pswZero.set(t.pswZero);
    dst.cswMux.set(t.cswMux);
    dst.cswSrc.set(t.cswSrc);
    dst.colMask.set(t.colMask);
    updateSwitchSummaries(dst);
    this.config.swGen = Number.POSITIVE_INFINITY;
  }
  // ------------------------------------------------------------ the cycle
  tick(now) {
    const obs = this.observer;
    const vb = this.vpuBatch;
    const vi = this.cmp.vi;
    if (vb.gen === this.stateGen && vb.valid(this, now) && vi.pureAhead(1) === 1) {
      this.now = now;
      this.stateGen++;
      if (obs !== void 0 && obs.vpuCycle !== void 0) {
        const vpu = this.cmp.vpu;
        const l0 = vpu.laneOps;
        vb.replay(this);
        vi.runPure(now);
        obs.vpuCycle(now, vpu.laneOps - l0);
      } else {
        if (obs !== void 0)
          obs.beforeCycle(now);
        vb.replay(this);
        vi.runPure(now);
        if (obs !== void 0)
          obs.afterCycle(now);
      }
      vb.gen = this.stateGen;
      return true;
    }
    const probe = this.fastPaths && VpuBatchState.enabled && vi.pureAhead(2) === 2;
    if (probe)
      vb.probe(this);
    if (obs !== void 0)
      obs.beforeCycle(now);
    this.now = now;
    this.stateGen++;
    this.blocked = void 0;
    this.portWake = Infinity;
    this.amem.banks.sync(now);
    const rd = this.rd;
    const wr = this.wr;
    if (rd.lastAt >= 0 || wr.lastAt >= 0 || this.wt.lastAt >= 0)
      this.settleClaims();
    let other = false;
    let cmpDid = false;
    const commits = this.commits;
    if (commits.count > 0 && commits.commitDue(now))
      other = true;
    if (wr.issue(now))
      other = true;
    if ((this.seqActive & COMPUTE_SEQS) !== 0 || !this.cmp.quiet) {
      cmpDid = this.cmp.tick(now);
    }
    if (rd.issue(now))
      other = true;
    const ir = rd.itfe;
    const iw = wr.itfe;
    if (ir.active && ir.tick(now))
      other = true;
    else if (ir.wakeAt > now && ir.wakeAt < this.portWake)
      this.portWake = ir.wakeAt;
    if (iw.active && iw.tick(now))
      other = true;
    else if (iw.wakeAt > now && iw.wakeAt < this.portWake)
      this.portWake = iw.wakeAt;
    let act = this.seqActive;
    while (act !== 0) {
      const bit = act & -act;
      act ^= bit;
      const sq = this.seqs[31 - Math.clz32(bit)];
      if (stepSeq2(this, sq))
        other = true;
      if (!sq.core.running && sq.qCount === 0)
        this.seqActive &= ~bit;
    }
    const trips = this.trips;
    let observed = false;
    for (let sl = trips.retirable(); sl !== void 0; sl = trips.retirable()) {
      if (obs !== void 0 && !observed) {
        observed = true;
        obs.afterCycle(now);
      }
      this.cmp.tripRetired(trips.oldest);
      trips.retireOldest();
      if (trips.active === 0)
        this.amem.banks.sched.setActive(this.index, false);
      this.stats.tripsDone++;
      other = true;
      if (this.amem.stats.viewConflicts > 0 && this.amem.firstViewConflict)
        this.warnOnce("view", UieCodes7.viewConflict, this.amem.firstViewConflict, `${CHIP_SPEC_F6} \xA77.5`);
      if (this.deferring) {
        this.deferredIds[this.deferredN++] = sl.tripId;
        this.deferredAt = now;
        this.visible = true;
      } else {
        obs?.tripRetired(sl.tripId, now);
        this.onTripDone?.(sl.tripId, now);
      }
    }
    if ((this.seqActive & CLAIM_SEQS) === 0 && trips.active > 0 && rd.dec.empty && wr.dec.empty && !ir.active && !iw.active)
      this.amem.banks.sched.setQuiet(this.index, now);
    const did = other || cmpDid;
    this.onlyVpu = !other && cmpDid && this.cmp.viOnly;
    this.lastDidWork = did;
    if (probe)
      vb.record(this, now);
    if (obs !== void 0 && !observed)
      obs.afterCycle(now);
    return did;
  }
  /** The bank claims of the previous cycle, settled after `AmemBanks.sync` (amem/banks.ts) by the ports that made them. */
  settleClaims() {
    if (this.rd.lastAt >= 0)
      this.rd.settle();
    if (this.wt.lastAt >= 0)
      this.wt.settle(this);
    if (this.wr.lastAt >= 0)
      this.wr.settle();
  }
  /**
   * Temporal decoupling (docs/simulator.md "Quantum"): simulates this UIE alone for cycles `from` .. at most
   * `limit - 1`, exactly as `tick` would on each of them, and returns the next cycle to simulate. It stops after the
   * first cycle with an externally visible event: a trip retirement (held back and reported by `flushDeferred`, which
   * the caller invokes when the global clock reaches that cycle) and, with `stopOnPop`, a sequencer taking a trip from
   * its descriptor FIFO (which can change `canStartTrip`). `did[c & mask]` receives 1 for each cycle with progress.
   * Cycles in which the UIE would do nothing (waiting for write commits or an AMEM port, `nextWake`) are skipped
   * as the kernel skips them; a UIE stalled for good (nextWake Infinity while blocked) hands back to the kernel.
   * The caller guarantees that nothing outside can start a trip or change AMEM under it in the window (legal
   * programs, chip §11.7).
   */
  runAhead(from, limit, did, mask, stopOnPop) {
    this.deferring = true;
    this.visible = false;
    this.stopOnPop = stopOnPop;
    let c = from;
    const banks = this.amem.banks;
    const shared = banks.sched.activeUies > 1;
    if (stopOnPop)
      limit = from + 1;
    try {
      while (c < limit) {
        if (this.fastPaths && this.seqActive === RW_ACTIVE2 && this.cmp.quiet && (shared || c >= this.batch.retryAt && limit - c >= BATCH_MIN2)) {
          const k = steadyBatch2(this, c, limit);
          if (k > 0) {
            this.batch.cycles += k;
            const a = c & mask;
            const e = a + k;
            if (e <= mask + 1)
              did.fill(1, a, e);
            else {
              did.fill(1, a, mask + 1);
              did.fill(1, 0, e - mask - 1);
            }
            c += k;
            if (shared)
              break;
            continue;
          }
          this.batch.retryAt = c + BATCH_RETRY2;
        }
        if (shared)
          limit = c + 1;
        const d = this.tick(c);
        did[c & mask] = d ? 1 : 0;
        c++;
        if (this.visible)
          break;
        if (!d) {
          const w = this.nextWake(c);
          if (w > c) {
            if (w === Infinity && this.blocked !== void 0)
              break;
            const to = w < limit ? w : limit;
            while (c < to)
              did[c++ & mask] = 0;
          }
        }
      }
    } finally {
      this.deferring = false;
      this.stopOnPop = false;
    }
    return c;
  }
  /** Cycles simulated by steady-state batches (diagnostics for tests and benchmarks; not a statistic of the model). */
  get batchedCycles() {
    return this.batch.cycles;
  }
  /** The cycle of the retirements held back by `runAhead`, or -1 when there are none. */
  get deferredCycle() {
    return this.deferredN > 0 ? this.deferredAt : -1;
  }
  /** Reports the retirements held back by `runAhead` (through `onTripDone`, at their cycle). */
  flushDeferred() {
    const n2 = this.deferredN;
    this.deferredN = 0;
    for (let i = 0; i < n2; i++) {
      this.observer?.tripRetired(this.deferredIds[i], this.deferredAt);
      this.onTripDone?.(this.deferredIds[i], this.deferredAt);
    }
  }
  seqDone(id, slot) {
    this.trips.seqDone(id, slot);
  }
};

// packages/target-pyxis/dist/sim/uieCsr.js
var SEQ_MASK = (1 << NUM_SEQUENCERS) - 1;
var R = {
  startPc: uieCsr("csr.seq_start_pc"),
  validMask: uieCsr("csr.trip_valid_mask"),
  readBase: uieCsr("csr.amem_read_base"),
  weightsBase: uieCsr("csr.amem_weights_base"),
  writeBase: uieCsr("csr.amem_write_base"),
  itfe: uieCsr("csr.itfe_cmd_idx"),
  tripStart: uieCsr("csr.trip_start"),
  seqStatus: uieCsr("csr.seq_status"),
  seqPc: uieCsr("csr.seq_pc"),
  writeTracker: uieCsr("csr.write_tracker")
};
var FLUSH_CSR = clusterCsrRegion("cluster.trip_flush");
var FLUSH_STATUS_CSR = clusterCsrRegion("cluster.trip_flush_status");
var TIMEOUT_STATUS_CSR = clusterCsrRegion("cluster.barrier_timeout_status");
var lo = (v) => Number(v & 0xffffffffn);
function seqStatus(m) {
  if (!(m instanceof Uie))
    return 0;
  let busy = 0;
  let done = 0;
  for (const s of m.seqs) {
    if (s.core.running)
      busy |= 1 << s.id;
    else if (m.stats.instructions[s.id] > 0)
      done |= 1 << s.id;
  }
  return (busy | done << NUM_SEQUENCERS) >>> 0;
}
function writeTracker(m, k) {
  if (!(m instanceof Uie))
    return 0;
  const sl = m.slots[k];
  if (!sl || !sl.active)
    return 0;
  const eopgm = sl.pending >> SEQ_AMEM_WRITE & 1 ? 0 : 1;
  return Math.min(sl.writes, 65535) | eopgm << 16;
}
function installControlCsrs(d) {
  const { cfg, cluster: cluster2 } = d;
  const unmodelled = (slot, r, what) => d.warnOnce(`${slot.name}.${r.name}`, warning(CtlCodes.csrUnmodelled, `${slot.name}: ${what} of ${r.name}: ${UNMODELLED_UIE_CSRS.get(r.name)} is not modelled by pyxis-sim yet; the register is plain storage (reads return the last value written) and has no effect`, { spec: r.spec, notes: ['reported once per register and UIE; see docs/simulator.md "CSRs"'] }));
  for (const slot of d.uies) {
    const base2 = slot.index * UIE_STRIDE;
    const word = (r, i = 0) => base2 + r.offset + i * r.stride;
    cfg.watch(base2 + UIE_CSR_LO, base2 + UIE_CSR_HI, (addr, _src, _off, len) => {
      for (let a = addr - addr % 8; a < addr + len; a += 8) {
        const hit2 = csrAt(a);
        if (!hit2 || hit2.uie !== slot.index)
          continue;
        const r = hit2.region;
        if (UNMODELLED_UIE_CSRS.has(r.name))
          unmodelled(slot, r, "write");
        else if (r.access === "ro")
          d.warnOnce(`${slot.name}.${r.name}.ro`, warning(CtlCodes.csrReadOnly, `${slot.name}: write to read-only ${r.name} ignored (it reads the sequencers' state)`, { spec: r.spec }));
        else if (r === R.tripStart && (cfg.peek64(a) & 1n) === 1n)
          d.tm.launchFromCsr(slot.index, csrTrip(slot, cluster2, (rr, i) => cfg.peek64(word(rr, i)), d.now()));
      }
    });
    cfg.onRead(base2 + UIE_CSR_LO, base2 + UIE_CSR_HI, (addr, len) => {
      for (let a = addr - addr % 8; a < addr + len; a += 8) {
        const hit2 = csrAt(a);
        if (!hit2 || hit2.uie !== slot.index)
          continue;
        const r = hit2.region;
        const m = slot.model;
        if (slot.window.covers(d.now()) && r.access === "ro")
          d.warnOnce(`${slot.name}.csr-ahead`, warning(CtlCodes.csrAhead, `${slot.name}: ${r.name} read while the UIE model ran ahead of the global clock (--quantum): the value is from a later cycle; use --quantum 1 for exact reads`, {
            spec: r.spec,
            notes: ['host polls force lockstep; MPE reads of live UIE registers do not (docs/simulator.md "CSRs")']
          }));
        if (UNMODELLED_UIE_CSRS.has(r.name))
          unmodelled(slot, r, "read");
        else if (r === R.seqStatus)
          cfg.storeWord(a, seqStatus(m));
        else if (r === R.seqPc)
          cfg.storeWord(a, m instanceof Uie && hit2.index < m.seqs.length ? m.seqs[hit2.index].core.pc : 0);
        else if (r === R.writeTracker)
          cfg.storeWord(a, writeTracker(m, hit2.index));
        else if (r === R.tripStart)
          cfg.storeWord(a, 0);
      }
    });
  }
  for (const r of CLUSTER_CSR_REGIONS) {
    if (r.access !== "wo")
      continue;
    const end = r.offset + r.words * r.stride;
    cfg.onRead(r.offset, end, (addr, len) => {
      for (let a = Math.max(r.offset, addr - addr % 8); a < Math.min(end, addr + len); a += r.stride)
        cfg.storeWord(a, 0);
    });
  }
  const flushAt = FLUSH_CSR.offset;
  const statusAt = FLUSH_STATUS_CSR.offset;
  const timeoutAt = TIMEOUT_STATUS_CSR.offset;
  cfg.watch(flushAt, timeoutAt + 8, (addr, _src, _off, len) => {
    for (let a = addr - addr % 8; a < addr + len; a += 8) {
      if (a === flushAt)
        d.tm.setFlushMode((cfg.peek64(a) & 1n) === 1n, d.now());
      else if (a === statusAt)
        d.warnOnce(`c${cluster2}.trip_flush_status.ro`, warning(CtlCodes.csrReadOnly, `cluster ${cluster2}: write to read-only cluster.trip_flush_status ignored`, { spec: FLUSH_STATUS_CSR.spec }));
      else if (a === timeoutAt && (cfg.peek64(a) & 1n) === 1n)
        d.barriers.clearTimeoutStatus(d.now());
    }
  });
  cfg.onRead(flushAt, timeoutAt + 8, (addr, len) => {
    const now = d.now();
    if (addr < statusAt + 8 && addr + len > statusAt) {
      const n2 = Math.min(d.tm.outstandingTrips(), 65535);
      const empty = d.queuesEmpty() ? 1 : 0;
      const done = d.tm.flushMode && d.tm.flushDone ? 1 : 0;
      cfg.storeWord(statusAt, n2 | empty << 16 | done << 17);
    }
    if (addr < timeoutAt + 8 && addr + len > timeoutAt) {
      const s = d.barriers.timeoutStatus(now);
      cfg.storeWord(timeoutAt, s.valid ? 1 | s.barrierId << 1 : 0);
    }
    if (addr < flushAt + 8 && addr + len > flushAt)
      cfg.storeWord(flushAt, d.tm.flushMode ? 1 : 0);
  });
}
function csrTrip(slot, cluster2, get, now) {
  const vm = lo(get(R.validMask));
  const rb = lo(get(R.readBase));
  const wb = lo(get(R.writeBase));
  const kb = lo(get(R.weightsBase));
  const itfe = lo(get(R.itfe));
  const startPc = [];
  for (let i = 0; i < R.startPc.words; i++)
    startPc.push(lo(get(R.startPc, i)) & 31);
  const fields = {
    trip_id: 0,
    wait_barrier_id: 0,
    trip_valid_mask: vm & SEQ_MASK,
    amem_read_indirect_vld: vm >> 13 & 1,
    amem_write_indirect_vld: vm >> 14 & 1,
    start_pc: startPc,
    amem_read_base_address: rb & 4194303,
    amem_read_bank_hash_dsbl: rb >> 22 & 1,
    amem_weights_base_address: kb & 4194303,
    amem_weights_bank_hash_dsbl: kb >> 22 & 1,
    amem_write_base_address: wb & 4194303,
    amem_write_bank_hash_dsbl: wb >> 22 & 1,
    amem_read_indirect_cmd_index: itfe & 3,
    amem_write_indirect_cmd_index: itfe >> 2 & 3,
    trip_power: 0
  };
  return {
    cluster: cluster2,
    qid: slot.index,
    kind: "uie",
    fields,
    table: "csr.trip_start",
    tripId: 0,
    waitBarrierId: 0,
    notifyList: [],
    address: 0,
    trip_power: 0,
    fetchedAt: now,
    waitAt: -1,
    goAt: -1,
    startAt: -1,
    doneAt: -1
  };
}

// packages/target-pyxis/dist/sim/host.js
var FABRIC_JOB_FAILED_INTERRUPT = -2;
var HostAgent = class {
  chip;
  records;
  name = "host";
  group = "chip";
  /** First: what the host writes at cycle t is seen by the whole chip at t (as the CPU's writes precede the cycle). */
  phase = PHASE.host;
  /**
   * Passive: not busy means every record enqueued and every action done, so `tick` does nothing and `nextWake` is
   * Infinity; records and actions added later (`PyxisChip.addEnqueueRecords`, `addActions`) wake it.
   */
  passive = true;
  wake = () => {
  };
  attachWake(wake) {
    this.wake = wake;
  }
  /** Appends host actions (image load). */
  addActions(actions) {
    this.actions.push(...actions);
    this.wake();
  }
  /** Per (cluster, queue) in order of first appearance: record indexes and the next one to enqueue. */
  pending = [];
  byQueue = /* @__PURE__ */ new Map();
  /** Groups with records left (indexes into `pending`). */
  open = [];
  /** Records already sorted into groups (records may be appended after construction). */
  grouped = 0;
  nextAction = 0;
  enqueued = 0;
  actionsDone = 0;
  actions = [];
  constructor(chip, records) {
    this.chip = chip;
    this.records = records;
  }
  get busy() {
    return this.enqueued < this.records.length || this.nextAction < this.actions.length;
  }
  /** Whether an action still to come polls a CSR (live UIE registers must then be read in lockstep). */
  get polling() {
    for (let i = this.nextAction; i < this.actions.length; i++)
      if (this.actions[i].poll)
        return true;
    return false;
  }
  sortRecords() {
    for (; this.grouped < this.records.length; this.grouped++) {
      const r = this.records[this.grouped];
      const k = r.cluster * 256 + r.queue_id;
      let g = this.byQueue.get(k);
      if (!g) {
        this.byQueue.set(k, g = { recs: [], next: 0 });
        this.pending.push(g);
      }
      if (g.next === g.recs.length)
        this.open.push(this.pending.indexOf(g));
      g.recs.push(this.grouped);
    }
  }
  ready(a, now) {
    if (now < a.atCycle)
      return false;
    const bt = this.chip.barriers[a.cluster];
    if (a.afterInterrupt) {
      const { entry, count } = a.afterInterrupt;
      const n2 = entry === FABRIC_JOB_FAILED_INTERRUPT ? this.chip.fabricAdapter?.failedInterrupts[a.cluster] ?? 0 : entry < 0 ? bt.timeoutInterruptsBefore(now) : bt.interruptCount[entry];
      if (n2 < count)
        return false;
    }
    if (a.poll) {
      const p = a.poll;
      const m = p.m32 ??= Uint32Array.of(Number(p.mask & 0xffffffffn), Number(p.mask >> 32n), Number(p.value & 0xffffffffn), Number(p.value >> 32n));
      const w = this.chip.cfg[a.cluster].readWord(p.address - CFG_ENGINE_BASE);
      if ((w[0] & m[0]) >>> 0 !== m[2] || (w[1] & m[1]) >>> 0 !== m[3])
        return false;
    }
    return true;
  }
  tick(now) {
    let did = false;
    if (this.grouped < this.records.length)
      this.sortRecords();
    if (this.enqueued < this.records.length) {
      let keep = 0;
      for (const gi of this.open) {
        const g = this.pending[gi];
        while (g.next < g.recs.length && this.chip.enqueue(this.records[g.recs[g.next]], now)) {
          g.next++;
          this.enqueued++;
          did = true;
        }
        if (g.next < g.recs.length)
          this.open[keep++] = gi;
      }
      this.open.length = keep;
    }
    while (this.nextAction < this.actions.length && this.ready(this.actions[this.nextAction], now)) {
      const a = this.actions[this.nextAction++];
      const b = new Uint8Array(8);
      new DataView(b.buffer).setBigUint64(0, a.value, true);
      this.chip.cfg[a.cluster].write(a.address - CFG_ENGINE_BASE, b, 0, 8);
      this.actionsDone++;
      did = true;
    }
    return did;
  }
  nextWake(now) {
    const a = this.actions[this.nextAction];
    if (this.enqueued < this.records.length || !a)
      return Infinity;
    if (now < a.atCycle)
      return a.atCycle;
    if (a.afterInterrupt && a.afterInterrupt.entry === -1 || a.poll)
      return Math.max(now, this.chip.barriers[a.cluster].nextTimeoutWalk() + 1);
    if (a.afterInterrupt)
      return Infinity;
    return now;
  }
  blockedReason() {
    this.sortRecords();
    const g = this.open.length ? this.pending[this.open[0]] : void 0;
    const r = g ? this.records[g.recs[g.next]] : void 0;
    if (r)
      return `enqueue of list 0x${r.descriptor_list_address.toString(16)} waits: ring of queue 0x${r.queue_id.toString(16)} in cluster ${r.cluster} is full (4 lists)`;
    const a = this.actions[this.nextAction];
    if (a?.afterInterrupt)
      return `host action ${this.nextAction} waits for ${a.afterInterrupt.entry === FABRIC_JOB_FAILED_INTERRUPT ? "the fabric Job Failed interrupt" : a.afterInterrupt.entry < 0 ? "the barrier timeout interrupt" : `interrupt ${a.afterInterrupt.entry}`} of cluster ${a.cluster} (occurrence ${a.afterInterrupt.count})`;
    if (a?.poll)
      return `host action ${this.nextAction} polls CSR 0x${a.poll.address.toString(16)} of cluster ${a.cluster} until (value & 0x${a.poll.mask.toString(16)}) == 0x${a.poll.value.toString(16)}`;
    if (a)
      return `host action ${this.nextAction} scheduled at cycle ${a.atCycle}`;
    return void 0;
  }
};

// packages/target-pyxis/dist/flags.js
var PyxisSectionFlags = {
  /** The AMEM address is in the unhashed view (chip §7.5). */
  unhashed: SectionFlags.target0
};

// packages/target-pyxis/dist/common/metadata.js
var uint = { type: "integer", minimum: 0 };
var str = { type: "string" };
var strings = { type: "array", items: str };
var bigNumber = { anyOf: [{ type: "string", pattern: "^(0[xX][0-9a-fA-F]{1,16}|[0-9]{1,20})$", description: 'a hex ("0x...") or decimal number' }, uint] };
var objects = { type: "array", items: { type: "object" } };
var PYXIS_OBJECT_METADATA = {
  type: "object",
  properties: {
    producer: str,
    sources: strings,
    programs: {
      type: "array",
      description: "one entry per sequencer program",
      items: {
        type: "object",
        required: ["name", "sequencer", "symbol", "words"],
        properties: { name: str, sequencer: str, symbol: str, words: uint, start_pc: uint }
      }
    },
    vpu_programs: {
      type: "array",
      items: { type: "object", required: ["name", "symbol", "words"], properties: { name: str, symbol: str, words: uint, start_addr: uint } }
    }
  }
};
var window = { type: "object", required: ["base", "mask"], properties: { base: bigNumber, mask: bigNumber } };
var windows = { type: "array", items: window, minItems: 4, maxItems: 4 };
var cluster = { type: "integer", minimum: 0, maximum: 3 };
var PYXIS_IMAGE_METADATA = {
  type: "object",
  properties: {
    producer: str,
    script: str,
    pyxis: {
      type: "object",
      properties: {
        clusters: { type: "integer", minimum: 0, maximum: 4 },
        uies: { type: "integer", minimum: 0, maximum: 12 },
        noc: { type: "object", additionalProperties: bigNumber },
        remap: { type: "array", maxItems: 4, items: { type: "object", required: ["cluster", "dpe", "mpe"], properties: { cluster, dpe: windows, mpe: windows } } },
        queues: objects,
        trips: { type: "array", items: { type: "object", required: ["trip_id", "name"], properties: { trip_id: uint, name: str, cluster, queue_id: uint } } },
        barriers: {
          type: "array",
          items: { type: "object", required: ["cluster", "id"], properties: { cluster, id: uint, producers: strings, consumers: strings } }
        },
        programs: objects,
        relocations: objects,
        weights: objects,
        host_actions: {
          type: "array",
          items: {
            type: "object",
            required: ["address", "value"],
            additionalProperties: false,
            properties: {
              cluster,
              address: bigNumber,
              value: bigNumber,
              at_cycle: uint,
              after_interrupt: {
                type: "object",
                required: ["entry"],
                additionalProperties: false,
                properties: { entry: { anyOf: [{ type: "integer", minimum: 0, maximum: 7 }, { enum: ["timeout", "fabric_job_failed"] }] }, count: { type: "integer", minimum: 1 } }
              },
              // software polling a CSR (chip §11.8): wait until (word & mask) == value
              poll: { type: "object", required: ["address", "value"], additionalProperties: false, properties: { address: bigNumber, mask: bigNumber, value: bigNumber } }
            }
          }
        }
      }
    }
  }
};
function checkPyxisMetadata(c, file) {
  validateMetadata(c, c.kind === "pobj" ? PYXIS_OBJECT_METADATA : PYXIS_IMAGE_METADATA, file);
}

// packages/target-pyxis/dist/sim/imageMetadata.js
function parseHostActions(file, v, clusters) {
  if (v === void 0)
    return [];
  const bad4 = (i, m) => imageError(file, SimCodes.badImage, `metadata.pyxis.host_actions[${i}]: ${m}`, 0, { notes: ['format: { cluster, address: "0x40F01008", value: "0x2", at_cycle?, after_interrupt?: { entry: 0..7 | "timeout", count? }, poll?: { address, mask?, value } }'] });
  if (!Array.isArray(v))
    throw bad4(0, "must be a list");
  return v.map((x, i) => {
    const o = x ?? {};
    const cluster2 = o["cluster"] ?? 0;
    if (typeof cluster2 !== "number" || !(cluster2 >= 0 && cluster2 < Math.max(clusters, 4)))
      throw bad4(i, `bad cluster ${String(cluster2)}`);
    const address = big(o["address"]);
    if (address === void 0 || address < BigInt(CFG_ENGINE_BASE) || address >= 0x80000000n || address % 8n !== 0n)
      throw bad4(i, "address must be an 8-byte aligned engine address in the CSR window 0x40000000..0x7fffffff");
    const value = big(o["value"]);
    if (value === void 0 || value >= 1n << 64n)
      throw bad4(i, "value must be a 64-bit number or hex string");
    const at2 = o["at_cycle"] ?? 0;
    if (typeof at2 !== "number" || !Number.isInteger(at2) || at2 < 0)
      throw bad4(i, "at_cycle must be a cycle number");
    const a = { cluster: cluster2, address: Number(address), value, atCycle: at2 };
    const ai = o["after_interrupt"];
    if (ai !== void 0) {
      const entry = ai["entry"];
      const count = ai["count"] ?? 1;
      const timeout = entry === "timeout";
      const fabric = entry === "fabric_job_failed";
      if (!timeout && !fabric && (typeof entry !== "number" || !(entry >= 0 && entry < 8)))
        throw bad4(i, 'after_interrupt.entry must be 0..7 (barrier_interrupt_config, chip \xA711.6.5), "timeout" (the barrier timeout interrupt, chip \xA711.6.7) or "fabric_job_failed" (the RDMA Job Failed interrupt, chip \xA710.7.1.2, \xA710.8.1.2)');
      if (typeof count !== "number" || count < 1)
        throw bad4(i, "after_interrupt.count must be >= 1");
      a.afterInterrupt = { entry: timeout ? -1 : fabric ? -2 : entry, count };
    }
    const po = o["poll"];
    if (po !== void 0) {
      const pa = big(po["address"]);
      if (pa === void 0 || pa < BigInt(CFG_ENGINE_BASE) || pa >= 0x80000000n || pa % 8n !== 0n)
        throw bad4(i, "poll.address must be an 8-byte aligned engine address in the CSR window");
      const mask = po["mask"] === void 0 ? (1n << 64n) - 1n : big(po["mask"]);
      const pv = big(po["value"]);
      if (mask === void 0 || pv === void 0 || mask >= 1n << 64n || pv >= 1n << 64n)
        throw bad4(i, "poll.mask and poll.value must be 64-bit numbers or hex strings");
      a.poll = { address: Number(pa), mask, value: pv & mask };
    }
    return a;
  });
}
function big(v) {
  if (typeof v === "number" && Number.isInteger(v) && v >= 0)
    return BigInt(v);
  if (typeof v === "string" && /^(0x[0-9a-f]+|\d+)$/i.test(v))
    return BigInt(v);
  return void 0;
}
function parseWindows(file, v, what) {
  if (!Array.isArray(v) || v.length !== 4)
    throw imageError(file, SimCodes.badImage, `metadata.pyxis.remap: ${what} must list 4 windows`, 0, { spec: "pyxis-chip-fspec.md \xA712.7" });
  return v.map((w, i) => {
    const base2 = big(w?.["base"]);
    const mask = big(w?.["mask"]);
    if (base2 === void 0 || mask === void 0)
      throw imageError(file, SimCodes.badImage, `metadata.pyxis.remap: ${what}[${i}] needs hex string base and mask`);
    if ((mask & 0xfffn) !== 0xfffn)
      throw imageError(file, SimCodes.badImage, `metadata.pyxis.remap: ${what}[${i}] mask 0x${mask.toString(16)} does not pass address bits [11:0]`, 0, { spec: "pyxis-chip-fspec.md \xA712.7" });
    return { base: base2, mask };
  });
}

// packages/target-pyxis/dist/sim/imageModel.js
var MAX_CLUSTERS = 4;
var MAX_UIES = 12;
function sectionSpan(file, s, within = 0, length) {
  return { file, offset: s.fileOffset !== void 0 ? s.fileOffset + within : 0, ...length !== void 0 ? { length } : {} };
}
function sectionLocation(s) {
  if (s.space === "hbm")
    return { space: "hbm", cluster: -1, addr: s.address };
  if (s.space === "amem")
    return { space: "amem", cluster: s.cluster ?? 0, addr: s.address | (s.flags & PyxisSectionFlags.unhashed ? AMEM_VIEW_BIT : 0) };
  if (s.space === "cfg")
    return { space: "cfg", cluster: s.cluster ?? 0, addr: s.address - CFG_ENGINE_BASE };
  return void 0;
}
function readImage(container, file) {
  if (container.kind !== "pimg")
    throw imageError(file, SimCodes.badImage, `${file} is a .${container.kind} object, not a linked .pimg image (run pyxis-ld first)`);
  if (container.target !== "pyxis")
    throw imageError(file, SimCodes.badImage, `${file} targets \`${container.target}\`; pyxis-sim runs pyxis images`);
  checkPyxisMetadata(container, file);
  let clusters = 1;
  let uies = 0;
  const records = [];
  const placed = [];
  const enqT = loadTable("pyxis", "desc_enqueue_record");
  container.sections.forEach((s, i) => {
    const where = `section ${i} \`${s.name}\``;
    const fail3 = (msg, spec) => {
      throw new DiagnosticError({ severity: "error", code: SimCodes.badImage, message: `${where}: ${msg}`, span: sectionSpan(file, s), ...spec ? { spec } : {} });
    };
    if (s.kind !== "zero" && s.data.length !== s.size)
      fail3(`size ${s.size} but ${s.data.length} data bytes`);
    const c = s.cluster ?? -1;
    switch (s.space) {
      case "hbm":
        if (s.address < 0 || s.address + s.size > HBM_SIZE)
          fail3(`HBM range 0x${s.address.toString(16)}+${s.size} outside 2^36 bytes`, "pyxis-chip-fspec.md \xA78.2");
        break;
      case "amem":
        if (!(c >= 0 && c < MAX_CLUSTERS))
          fail3(`AMEM section needs a cluster 0..${MAX_CLUSTERS - 1}, has ${c}`);
        if (s.address < 0 || s.address + s.size > AMEM_BYTES)
          fail3(`AMEM range 0x${s.address.toString(16)}+${s.size} outside the 64 MiB AMEM`, "pyxis-chip-fspec.md \xA77.1");
        clusters = Math.max(clusters, c + 1);
        break;
      case "cfg": {
        if (!(c >= 0 && c < MAX_CLUSTERS))
          fail3(`cfg section needs a cluster 0..${MAX_CLUSTERS - 1}, has ${c}`);
        const off = s.address - CFG_ENGINE_BASE;
        if (off < 0 || off + s.size > CFG_WINDOW_SIZE)
          fail3(`cfg address 0x${s.address.toString(16)} is not in window 1 (0x40000000..0x7fffffff)`, "pyxis-chip-fspec.md \xA712.7");
        clusters = Math.max(clusters, c + 1);
        const u = Math.floor(off / loadMemoryMap().uieStride);
        if (u < MAX_UIES)
          uies = Math.max(uies, u + 1);
        break;
      }
      case "none":
        if (s.name === ".enqueue") {
          if (s.data.length % 8)
            fail3(`.enqueue holds ${s.data.length} bytes, not a multiple of the 8-byte record`, "pyxis-chip-fspec.md \xA711.5.1.1");
          for (let o = 0; o < s.data.length; o += 8) {
            const v = decode(enqT, s.data, o);
            const r = {
              cluster: Number(v["cluster"]),
              queue_id: Number(v["queue_id"]),
              descriptor_list_address: Number(v["descriptor_list_address"]),
              descriptor_list_length: Number(v["descriptor_list_length"])
            };
            const bad4 = (msg, spec) => new DiagnosticError({ severity: "error", code: SimCodes.badEnqueue, message: `.enqueue record ${o / 8}: ${msg}`, span: sectionSpan(file, s, o, 8), spec });
            if (r.queue_id >= TRIP_QUEUES)
              throw bad4(`queue_id 0x${r.queue_id.toString(16)} is not a trip descriptor queue (Table 11-1: 0x00-0x${(TRIP_QUEUES - 1).toString(16)})`, "pyxis-chip-fspec.md \xA711.5");
            if (r.descriptor_list_address % 8)
              throw bad4(`descriptor_list_address 0x${r.descriptor_list_address.toString(16)} is not 8-byte aligned`, "pyxis-chip-fspec.md \xA711.5.1.1");
            records.push(r);
          }
        }
        break;
      default:
        fail3(`unknown address space \`${s.space}\` (expected hbm, amem, cfg or none)`);
    }
    const loc = sectionLocation(s);
    if (loc)
      placed.push({ index: i, section: s, ...loc });
  });
  for (const r of records) {
    clusters = Math.max(clusters, r.cluster + 1);
    const k = queueKind(r.queue_id);
    if (k?.kind === "uie")
      uies = Math.max(uies, k.index + 1);
  }
  const meta = container.metadata["pyxis"] ?? {};
  if (typeof meta["clusters"] === "number")
    clusters = Math.max(clusters, meta["clusters"]);
  if (typeof meta["uies"] === "number")
    uies = Math.max(uies, meta["uies"]);
  let remap;
  if (Array.isArray(meta["remap"])) {
    remap = [];
    for (const e of meta["remap"]) {
      const c = Number(e["cluster"]);
      if (!(c >= 0 && c < MAX_CLUSTERS))
        throw imageError(file, SimCodes.badImage, `metadata.pyxis.remap: bad cluster ${String(e["cluster"])}`);
      remap[c] = { dpe: parseWindows(file, e["dpe"], `cluster ${c} dpe`), mpe: parseWindows(file, e["mpe"], `cluster ${c} mpe`) };
    }
  }
  const barriers = [];
  if (Array.isArray(meta["barriers"])) {
    for (const b of meta["barriers"])
      if (typeof b["cluster"] === "number" && typeof b["id"] === "number") {
        const names = (k) => Array.isArray(b[k]) ? b[k].map(String) : void 0;
        const p = names("producers");
        const c = names("consumers");
        barriers.push({ cluster: b["cluster"], id: b["id"], ...p ? { producers: p } : {}, ...c ? { consumers: c } : {} });
      }
  }
  const tripNames = /* @__PURE__ */ new Map();
  if (Array.isArray(meta["trips"])) {
    for (const t of meta["trips"])
      if (typeof t["trip_id"] === "number" && typeof t["name"] === "string")
        tripNames.set(t["trip_id"], t["name"]);
  }
  const programs = /* @__PURE__ */ new Map();
  if (Array.isArray(meta["programs"]))
    for (const p of meta["programs"]) {
      const name = p["name"] ?? p["program"];
      if (typeof p["cluster"] !== "number" || typeof p["uie"] !== "number" || typeof p["seq"] !== "string" || typeof p["pc"] !== "number" || typeof name !== "string")
        continue;
      const k = `c${p["cluster"]}.uie${p["uie"]}.${p["seq"]}`;
      let list = programs.get(k);
      if (!list)
        programs.set(k, list = []);
      list.push({ pc: p["pc"], words: typeof p["words"] === "number" ? p["words"] : 1, name });
    }
  let listedTrips = 0;
  for (const q of meta["queues"] ?? [])
    for (const l of q.lists ?? [])
      if (typeof l.descriptors === "number")
        listedTrips += l.descriptors;
  const hostActions = parseHostActions(file, meta["host_actions"], clusters);
  for (const a of hostActions)
    clusters = Math.max(clusters, a.cluster + 1);
  return {
    file,
    container,
    clusters: Math.min(MAX_CLUSTERS, clusters),
    uies: Math.min(MAX_UIES, uies),
    placed,
    records,
    ...remap ? { remap } : {},
    dgramRings: datagramRings(placed),
    barriers,
    barrierRoles: new Map(barriers.filter((b) => b.producers || b.consumers).map((b) => [b.cluster * 1024 + b.id, { producers: b.producers ?? [], consumers: b.consumers ?? [] }])),
    tripNames,
    programs,
    hostActions,
    listedTrips
  };
}
function datagramRings(placed) {
  const queues = loadNocMap().queues.table;
  const out = [];
  for (const p of placed) {
    const m = /^\.dgram\.c(\d+)\.(dgram_(?:tx|rx))(\d)$/.exec(p.section.name);
    const g = m ? queues.find((q) => q.name === m[2]) : void 0;
    if (!m || !g || Number(m[3]) >= g.count || p.space === "cfg" || p.section.size < 16)
      continue;
    out.push({ cluster: Number(m[1]), queueId: g.first + Number(m[3]), space: p.space, memCluster: p.cluster, address: p.addr, entries: p.section.size / 8 });
  }
  return out;
}
function locateInImage(image, at2) {
  const placed = "placed" in image ? image.placed : image.sections.flatMap((section, index) => {
    const l = sectionLocation(section);
    return l ? [{ index, section, ...l }] : [];
  });
  for (const p of placed) {
    if (p.space !== at2.space || p.space !== "hbm" && p.cluster !== at2.cluster)
      continue;
    if (at2.addr >= p.addr && at2.addr < p.addr + p.section.size)
      return { index: p.index, section: p.section, within: at2.addr - p.addr };
  }
  return void 0;
}
function programAt(image, key) {
  const list = image.programs.get(key);
  if (!list?.length)
    return void 0;
  return (pc) => {
    const hit2 = list.filter((p) => pc >= p.pc && pc < p.pc + Math.max(1, p.words)).map((p) => p.name);
    return hit2.length ? [...new Set(hit2)].join("/") : void 0;
  };
}
function listedBarriers(image) {
  const ids = /* @__PURE__ */ new Map();
  for (const b of image.barriers)
    ids.set(b.cluster * 1024 + b.id, b);
  return ids;
}
function chipSize(image, opts) {
  const clusters = sizeOf(opts.clusters, image.clusters, MAX_CLUSTERS, "clusters");
  const uies = sizeOf(opts.uies, image.uies, MAX_UIES, "uies");
  if (clusters < image.clusters)
    throw new DiagnosticError(error(SimCodes.noEngine, `${image.file} uses ${image.clusters} cluster(s); --clusters ${clusters} is too few`));
  if (uies < image.uies)
    throw new DiagnosticError(error(SimCodes.noEngine, `${image.file} uses ${image.uies} UIE(s) per cluster; --uies ${uies} is too few`));
  return { clusters, uies };
}
function sizeOf(opt, image, max, what) {
  const v = opt ?? image;
  if (!Number.isInteger(v) || v < (what === "clusters" ? 1 : 0) || v > max)
    throw new DiagnosticError(error(SimCodes.badConfig, `--${what} must be an integer in ${what === "clusters" ? 1 : 0}..${max}, got ${v}`));
  return v;
}

// packages/target-pyxis/dist/sim/fabric/header.js
var TABLE = loadTable("pyxis", "fabric_page_header");
var HEADER_BYTES = TABLE.bytes;
var CRC_BYTE = TABLE.byName.get("crc").lsb / 8;
var TYPE_NAMES = TABLE.byName.get("page_type").enumNames;
var CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n2 = 0; n2 < 256; n2++) {
    let c = n2;
    for (let k = 0; k < 8; k++)
      c = c & 1 ? 3988292384 ^ c >>> 1 : c >>> 1;
    t[n2] = c >>> 0;
  }
  return t;
})();
function crc32(b, n2) {
  let c = 4294967295;
  for (let i = 0; i < n2; i++)
    c = CRC_TABLE[(c ^ b[i]) & 255] ^ c >>> 8;
  return (c ^ 4294967295) >>> 0;
}
function encodeHeader(h) {
  const out = encode(TABLE, { ...h, crc: 0 });
  const crc = crc32(out, CRC_BYTE);
  new DataView(out.buffer, out.byteOffset).setUint32(CRC_BYTE, crc, true);
  return out;
}
function decodeHeader(b) {
  if (b.length < HEADER_BYTES)
    return null;
  const stored = new DataView(b.buffer, b.byteOffset).getUint32(CRC_BYTE, true);
  if (crc32(b, CRC_BYTE) !== stored)
    return null;
  const v = decode(TABLE, b);
  const type = TYPE_NAMES.get(Number(v["page_type"]));
  if (!type)
    return null;
  return {
    page_type: type,
    tjid: Number(v["tjid"]),
    rjid: Number(v["rjid"]),
    epoch: Number(v["epoch"]),
    retry: Number(v["retry"]),
    last_page: Number(v["last_page"]),
    rxq_index: Number(v["rxq_index"]),
    page_size_bytes: Number(v["page_size_bytes"]),
    page_seq_num: Number(v["page_seq_num"])
  };
}

// packages/target-pyxis/dist/sim/fabric/rings.js
var DGRAM_TX = loadTable("pyxis", "desc_dgram_tx");
var DGRAM_RX = loadTable("pyxis", "desc_dgram_rx");
var DGRAM_DESC_BYTES = 8;
var DatagramRing = class {
  name;
  at;
  amem;
  hbm;
  head = 0;
  tail;
  /** Prefetch pointer: descriptors in [head, prefetch) are in hardware (§11.5.2). */
  prefetch = 0;
  constructor(name, at2, amem, hbm) {
    this.name = name;
    this.at = at2;
    this.amem = amem;
    this.hbm = hbm;
    if (!(Number.isInteger(at2.entries) && at2.entries >= 2))
      throw new RangeError(`${name}: a ring needs at least 2 entries, got ${at2.entries}`);
    this.tail = at2.tail % at2.entries;
  }
  get entries() {
    return this.at.entries;
  }
  /** Descriptors software made valid that hardware has not fetched yet. */
  get unfetched() {
    return (this.tail - this.prefetch + this.entries) % this.entries;
  }
  /** Software advances the tail pointer (§11.5.2: one entry past the last valid descriptor). */
  setTail(tail) {
    this.tail = (tail % this.entries + this.entries) % this.entries;
  }
  bytes(i) {
    const a = this.at.address + i * DGRAM_DESC_BYTES;
    if (this.at.space === "amem")
      return this.amem(this.at.cluster).readBytes(a, DGRAM_DESC_BYTES);
    const out = new Uint8Array(DGRAM_DESC_BYTES);
    this.hbm.read(a, out, 0, DGRAM_DESC_BYTES);
    return out;
  }
  /** Fetches the descriptor at the prefetch pointer and advances it; its ring index and fields. */
  fetch(peek = false) {
    const index = this.prefetch;
    const v = decode(this.name.includes("tx") ? DGRAM_TX : DGRAM_RX, this.bytes(index));
    if (!peek)
      this.prefetch = (index + 1) % this.entries;
    const fields = {};
    for (const [k, x] of Object.entries(v))
      fields[k] = Number(x);
    return { index, fields };
  }
  /** Rx: hardware writes PacketSizeBytes into the descriptor (§11.4.9, §10.8.8). */
  writePacketSize(index, amemAddress, bytes) {
    const d = encode(DGRAM_RX, { amem_address: amemAddress, buffer_size_bytes: bytes });
    const a = this.at.address + index * DGRAM_DESC_BYTES;
    if (this.at.space === "amem")
      this.amem(this.at.cluster).writeBytes(a, d);
    else
      this.hbm.write(a, d, 0, DGRAM_DESC_BYTES);
  }
  /** Hardware advances the head pointer by one (in order). */
  advanceHead() {
    this.head = (this.head + 1) % this.entries;
  }
};

// packages/target-pyxis/dist/sim/fabric/rx.js
var STATE_NAMES = ["Rx data wait", "Rx data active", "committing (last page written)", "Job Failed"];
var RxCluster = class {
  cluster;
  core;
  commitLatency;
  jobs;
  epoch;
  failedVector;
  rdmaFifo = [[], []];
  rxq = [null, null];
  rxqFifo = [[], []];
  /** The cluster's four OQs (§10.8.5): pages whole in the Rx CBUF, waiting for the page reader / Rx DMA. */
  oq = [[], [], [], []];
  rrOq = 0;
  rrQueue = 0;
  nextAccept = 0;
  rxdmaFreeAt = 0;
  lastCommit = 0;
  trackingInUse = 0;
  active = /* @__PURE__ */ new Set();
  /** Per RJID: the last job completed (its TJID, epoch and message VOQ), to re-ACK a retried job whose ACK was lost. */
  lastDone;
  tx;
  constructor(cluster2, core, commitLatency) {
    this.cluster = cluster2;
    this.core = core;
    this.commitLatency = commitLatency;
    const n2 = core.params.job_tables.rx_jobs_per_cluster;
    this.jobs = new Array(n2).fill(null);
    this.epoch = new Uint8Array(n2);
    this.failedVector = new Uint8Array(n2);
    this.lastDone = new Array(n2).fill(null);
  }
  get busy() {
    return this.active.size > 0 || this.rdmaFifo[0].length + this.rdmaFifo[1].length > 0 || this.queuedPages() > 0 || this.trackingInUse > 0;
  }
  queuedPages() {
    return this.oq[0].length + this.oq[1].length + this.oq[2].length + this.oq[3].length;
  }
  canAccept(q) {
    return this.rdmaFifo[q].length < this.core.params.descriptor_fifos.rdma_rx_depth;
  }
  /** A whole page arrived for this cluster in OQ `page.dest.oq` (§10.8 [5]). */
  receive(page, now) {
    this.oq[page.dest.oq & 3].push({ page, at: now });
  }
  clearFailed(rjid) {
    const j = this.jobs[rjid];
    if (j && j.state === 3) {
      this.jobs[rjid] = null;
      this.epoch[rjid] ^= 1;
    }
    this.failedVector[rjid] = 0;
  }
  message(j, type, retry) {
    this.core.sendMessage(this.cluster, { type, tjid: j.tjid, rjid: j.rjid, epoch: j.epoch, retry, voq: j.msgVoq, dest: j.msgDest });
  }
  fail(j, now, reason) {
    j.state = 3;
    this.active.delete(j);
    this.failedVector[j.rjid] = 1;
    this.core.stats(this.cluster).rx_jobs_failed++;
    this.core.slice(this.cluster, "rx", j.startAt, now, `RJID ${j.rjid} FAILED`, { tjid: j.tjid, rjid: j.rjid, reason });
    this.core.failed({ chip: this.core.chip, cluster: this.cluster, side: "rx", tjid: j.tjid, rjid: j.rjid, epoch: j.epoch, tripId: j.trip.tripId, cycle: now, reason });
  }
  /** The end of an attempt with an error: NACK, then the retry (§10.8.1.1) or, on the retried job, Job Failed. */
  nack(j, now, why) {
    this.core.stats(this.cluster).rx_nacks_sent++;
    this.message(j, "nack", j.retry);
    if (j.retry === 1)
      return this.fail(j, now, `${why} on the retried job`);
    j.retry = 1;
    j.wordsReceived = 0;
    j.nextSeq = 0;
    j.error = false;
    j.errorWhy = "";
    j.state = 1;
    j.deadline = now + this.core.params.timers.rx_job_completion_timeout_cycles;
  }
  finish(j, now) {
    this.message(j, "ack", j.retry);
    this.active.delete(j);
    this.jobs[j.rjid] = null;
    this.epoch[j.rjid] ^= 1;
    this.lastDone[j.rjid] = { tjid: j.tjid, epoch: j.epoch, msgVoq: j.msgVoq, msgDest: j.msgDest };
    this.core.stats(this.cluster).rx_jobs_completed++;
    this.core.slice(this.cluster, "rx", j.startAt, now, `RJID ${j.rjid} <- TJID ${j.tjid}`, { tjid: j.tjid, rjid: j.rjid, epoch: j.epoch, retry: j.retry, words: j.totalWords, trip_id: j.trip.tripId });
    this.core.tripDone(j.trip, now);
  }
  acceptJob(now) {
    for (let i = 0; i < 2; i++) {
      const q = (this.rrQueue + i) % 2;
      const trip = this.rdmaFifo[q][0];
      if (!trip)
        continue;
      const f = trip.fields;
      const what = `c${this.cluster}.rdma_rx${q} trip ${trip.tripId}`;
      const rjid = Number(f["rjid"]);
      if (rjid >= this.jobs.length)
        throw runtimeError(FabricCodes.badRdmaDescriptor, `${what}: RJID ${rjid} beyond the ${this.jobs.length}-entry Rx Job Table`, "\xA710.8.2", now);
      const old = this.jobs[rjid];
      if (old && old.state !== 3)
        throw runtimeError(FabricCodes.jobIdInUse, `${what}: RJID ${rjid} is still active (${STATE_NAMES[old.state]}, trip ${old.trip.tripId}); software must not re-use an Rx Job ID before its job retires`, "\xA710.4", now);
      if (this.failedVector[rjid])
        continue;
      const words = Number(f["num_words"]);
      if (!(words >= 1 && words <= 65536))
        throw runtimeError(FabricCodes.badRdmaDescriptor, `${what}: NumWords ${words} is outside [1, 65536]`, "\xA711.4.7", now);
      const base2 = Number(f["amem_address"]) * 128;
      if ((base2 & AMEM_VIEW_BIT - 1) + words * 128 > AMEM_BYTES)
        throw runtimeError(FabricCodes.badRange, `${what}: AMEM range 0x${base2.toString(16)} + ${words} words runs past the 64 MiB AMEM`, "\xA711.4.7", now);
      const msgVoq = Number(f["msg_voq"]);
      const j = {
        trip,
        rjid,
        tjid: Number(f["tjid"]),
        msgVoq,
        msgDest: this.core.dest(msgVoq, what, now),
        base: base2,
        totalWords: words,
        epoch: this.epoch[rjid],
        retry: 0,
        state: 0,
        ctsRetried: false,
        deadline: now + this.core.params.timers.rx_data_wait_timeout_cycles,
        wordsReceived: 0,
        nextSeq: 0,
        error: false,
        errorWhy: "",
        otherEpochPages: 0,
        pendingCommits: 0,
        startAt: now
      };
      this.rdmaFifo[q].shift();
      this.rrQueue = (q + 1) % 2;
      this.jobs[rjid] = j;
      this.lastDone[rjid] = null;
      this.active.add(j);
      this.core.stats(this.cluster).rx_jobs_started++;
      this.message(j, "cts", 0);
      return true;
    }
    return false;
  }
  drop(reason) {
    this.core.stats(this.cluster).rx_drops[reason]++;
  }
  /** Writes `bytes` of the page at `addr` as the Rx DMA (bank client), returns the commit cycle (in order). */
  write(addr, page, words, now) {
    const amem = this.core.amem(this.cluster);
    let served = now;
    if (page.payload && !this.core.timingOnly) {
      amem.writeBytes(addr, page.payload.subarray(0, page.payloadBytes), CLIENT_RXDMA);
      served = Math.max(now, amem.servedAt ?? now);
    } else if (amem.banks?.clock)
      served = Math.max(now, amem.banks.access(CLIENT_RXDMA, addr, page.payloadBytes));
    const r = this.core.params.rxdma;
    const last = Math.max(served + r.decap_latency_cycles + Math.ceil(words / r.words_per_cycle), this.core.ingress(this.cluster, served + r.decap_latency_cycles, page.payloadBytes));
    const commit = Math.max(this.lastCommit, last + this.commitLatency);
    this.lastCommit = commit;
    this.core.stats(this.cluster).rxdma_words += words;
    return commit;
  }
  /** Round-robin over the OQs whose head page can go now (a data page needs a write-completion tracking id, §10.8.8); -1 if none. */
  eligibleOq() {
    const idFree = this.trackingInUse < this.core.params.rxdma.tracking_ids;
    for (let i = 0; i < 4; i++) {
      const k = (this.rrOq + i) % 4;
      const head = this.oq[k][0];
      if (head && (idFree || !(head.page.type === "rdma_data" || head.page.type === "datagram")))
        return k;
    }
    return -1;
  }
  /** The Rx DMA takes the next page from the OQs (round-robin, §10.8.5) and processes it (§10.8.7-10.8.8). */
  rxdma(now) {
    if (now < this.rxdmaFreeAt || this.queuedPages() === 0)
      return false;
    const q = this.eligibleOq();
    if (q < 0)
      return false;
    const { page, at: at2 } = this.oq[q][0];
    const could = Math.max(at2, this.rxdmaFreeAt);
    if (now > could)
      this.core.stats(this.cluster).rx_tracking_stall_cycles += now - could;
    this.oq[q].shift();
    this.rrOq = (q + 1) % 4;
    const words = Math.ceil(page.payloadBytes / 128);
    this.rxdmaFreeAt = now + Math.max(1, Math.ceil(words / this.core.params.rxdma.words_per_cycle));
    const h = page.corrupt ? null : decodeHeader(page.header);
    if (!h)
      return this.drop("crc"), true;
    if (h.page_type === "cts" || h.page_type === "ack" || h.page_type === "nack") {
      this.tx.onMessage(h.page_type, h.tjid, h.epoch, h.retry, now);
      return true;
    }
    if (h.page_type === "datagram")
      return this.datagram(page, h.rxq_index, now), true;
    const st = this.core.stats(this.cluster);
    const j = h.rjid < this.jobs.length ? this.jobs[h.rjid] : null;
    if (!j) {
      const d = h.rjid < this.jobs.length ? this.lastDone[h.rjid] : null;
      if (d && d.tjid === h.tjid && d.epoch === h.epoch) {
        if (h.last_page && h.retry === 1)
          this.core.sendMessage(this.cluster, { type: "ack", tjid: d.tjid, rjid: h.rjid, epoch: d.epoch, retry: 1, voq: d.msgVoq, dest: d.msgDest });
        return this.drop("stale"), true;
      }
      return this.drop("no_rx_job"), true;
    }
    if (h.retry === 1 && j.retry === 0 && j.tjid === h.tjid && j.epoch === h.epoch && (j.state === 0 || j.state === 1)) {
      j.retry = 1;
      j.wordsReceived = 0;
      j.nextSeq = 0;
      j.error = false;
      j.errorWhy = "";
    }
    if (j.state === 3 || j.state === 2 || j.tjid !== h.tjid || j.epoch !== h.epoch || j.retry !== h.retry) {
      if (j.tjid === h.tjid && j.epoch !== h.epoch)
        j.otherEpochPages++;
      return this.drop("stale"), true;
    }
    const pw = h.page_size_bytes / 128;
    j.state = 1;
    j.deadline = now + this.core.params.timers.rx_job_completion_timeout_cycles;
    if (h.page_seq_num !== j.nextSeq) {
      st.rx_sequence_gaps++;
      if (!j.error)
        j.errorWhy = `lost or out-of-sequence page (sequence number ${h.page_seq_num}, expected ${j.nextSeq})`;
      j.error = true;
    }
    j.nextSeq = h.page_seq_num + 1;
    if (j.wordsReceived + pw > j.totalWords) {
      if (!j.error)
        j.errorWhy = `overrun: the Tx job sends more than the Rx job's NumWords (${j.totalWords}) (\xA710.8.8)`;
      j.error = true;
      this.drop("overrun");
    } else if (j.error) {
      this.drop("after_error");
      j.wordsReceived += pw;
    } else {
      const commit = this.write(j.base + j.wordsReceived * 128, page, pw, now);
      j.wordsReceived += pw;
      j.pendingCommits++;
      this.trackingInUse++;
      st.rx_pages++;
      st.rx_data_bytes += page.payloadBytes;
      this.core.schedule(commit, (t) => {
        this.trackingInUse--;
        j.pendingCommits--;
        if (j.state === 2 && j.pendingCommits === 0)
          this.finish(j, t);
      });
    }
    if (h.last_page) {
      if (j.error || j.wordsReceived !== j.totalWords)
        this.nack(j, now, j.error ? j.errorWhy : `short job: the last page came after ${j.wordsReceived} of the Rx job's ${j.totalWords} words (lost pages, or the Tx job's NumWords is smaller)`);
      else {
        j.state = 2;
        j.deadline = Infinity;
        if (j.pendingCommits === 0)
          this.finish(j, now);
      }
    }
    return true;
  }
  /** A datagram page (§10.8.8 "For Datagram pages"): the RxQ's next prefetched descriptor, or a counted drop. */
  datagram(page, rxq, now) {
    const ring = this.rxq[rxq];
    const fifo = this.rxqFifo[rxq];
    if (ring)
      while (fifo.length < this.core.params.descriptor_fifos.dgram_rx_prefetch_depth && (ring.tail - ring.prefetch + ring.entries) % ring.entries > 0)
        fifo.push(ring.fetch());
    const d = fifo[0];
    if (!ring || !d)
      return this.drop("rxq_empty");
    if (page.payloadBytes > d.fields["buffer_size_bytes"])
      return this.drop("rxq_too_small");
    fifo.shift();
    const commit = this.write(d.fields["amem_address"] * 128, page, Math.ceil(page.payloadBytes / 128), now);
    this.trackingInUse++;
    const st = this.core.stats(this.cluster);
    st.rx_datagrams++;
    st.rx_data_bytes += page.payloadBytes;
    this.core.schedule(commit, () => {
      this.trackingInUse--;
      ring.writePacketSize(d.index, d.fields["amem_address"], page.payloadBytes);
      ring.advanceHead();
    });
  }
  timers(now) {
    let did = false;
    let due = false;
    for (const j of this.active)
      if (now >= j.deadline)
        due = true;
    if (!due)
      return false;
    for (const j of [...this.active]) {
      if (now < j.deadline)
        continue;
      did = true;
      if (j.state === 0) {
        if (!j.ctsRetried) {
          j.ctsRetried = true;
          this.core.stats(this.cluster).rx_cts_retries++;
          this.message(j, "cts", 1);
          j.deadline = now + this.core.params.timers.rx_data_wait_timeout_cycles;
        } else {
          const hint = j.otherEpochPages ? `; ${j.otherEpochPages} page(s) of TJID ${j.tjid} with epoch ${j.epoch ^ 1} arrived (this job has epoch ${j.epoch}): Tx and Rx used the TJID / RJID pair a different number of times (\xA710.4)` : "";
          this.fail(j, now, `second Rx data-wait timeout after the retried CTS (no data within timers.rx_data_wait_timeout_cycles = ${this.core.params.timers.rx_data_wait_timeout_cycles})${hint}`);
        }
      } else if (j.state === 1)
        this.nack(j, now, `job-completion timeout (no page within timers.rx_job_completion_timeout_cycles = ${this.core.params.timers.rx_job_completion_timeout_cycles})`);
      else
        j.deadline = Infinity;
    }
    return did;
  }
  tick(now) {
    let did = false;
    if (this.active.size > 0)
      did = this.timers(now);
    if (now >= this.nextAccept && this.acceptJob(now)) {
      this.nextAccept = now + this.core.params.page_generator.job_manager_cycles_per_job;
      did = true;
    }
    if (this.rxdma(now))
      did = true;
    return did;
  }
  wakeHint(now) {
    let w = Infinity;
    for (const j of this.active)
      if (j.deadline < w)
        w = j.deadline;
    if (this.rdmaFifo[0].length + this.rdmaFifo[1].length > 0 && this.nextAccept > now && this.nextAccept < w)
      w = this.nextAccept;
    if (this.queuedPages() > 0 && this.rxdmaFreeAt < w && this.eligibleOq() >= 0)
      w = Math.max(now, this.rxdmaFreeAt);
    return w;
  }
  blockedReason() {
    const out = [];
    for (const j of this.active)
      out.push(`c${this.cluster} Rx RJID ${j.rjid} <- TJID ${j.tjid} (msg VOQ ${j.msgVoq}, trip ${j.trip.tripId}): ${STATE_NAMES[j.state]}${j.retry ? " (retry)" : ""}, ${j.wordsReceived}/${j.totalWords} words received`);
    for (let q = 0; q < 2; q++) {
      const t = this.rdmaFifo[q][0];
      if (t)
        out.push(`c${this.cluster}.rdma_rx${q} trip ${t.tripId} waits: RJID ${Number(t.fields["rjid"])} is in the sticky Job Failed state`);
    }
    return out;
  }
};

// packages/target-pyxis/dist/sim/fabric/stats.js
var DROP_REASONS = ["crc", "stale", "overrun", "after_error", "no_rx_job", "rxq_empty", "rxq_too_small"];
function emptyClusterStats() {
  return {
    tx_jobs_started: 0,
    tx_jobs_completed: 0,
    tx_jobs_failed: 0,
    tx_retries: 0,
    tx_pages: 0,
    tx_data_bytes: 0,
    tx_messages: { cts: 0, ack: 0, nack: 0 },
    tx_datagrams: 0,
    rx_messages: { cts: 0, ack: 0, nack: 0, stale: 0 },
    rx_jobs_started: 0,
    rx_jobs_completed: 0,
    rx_jobs_failed: 0,
    rx_pages: 0,
    rx_data_bytes: 0,
    rx_sequence_gaps: 0,
    rx_nacks_sent: 0,
    rx_cts_retries: 0,
    rx_datagrams: 0,
    rx_drops: Object.fromEntries(DROP_REASONS.map((r) => [r, 0])),
    qpages_max: 0,
    xoff_events: 0,
    xoff_cycles: 0,
    txdma_words: 0,
    rxdma_words: 0,
    rx_tracking_stall_cycles: 0
  };
}
function describeFailure(f) {
  return `chip ${f.chip} cluster ${f.cluster} ${f.side === "tx" ? "Tx" : "Rx"} job TJID=${f.tjid} RJID=${f.rjid} (epoch ${f.epoch}, trip ${f.tripId}) failed at cycle ${f.cycle}: ${f.reason}`;
}

// packages/target-pyxis/dist/sim/fabric/tx.js
var STATE_NAMES2 = ["CTS wait", "PGen wait", "Tx active", "Tx active (draining)", "ACK wait", "Job Failed"];
var MSG_TYPES = { cts: "cts", ack: "ack", nack: "nack" };
var TxCluster = class {
  cluster;
  core;
  /** Tx Job Table by TJID (Table 10-1); null = idle. */
  jobs;
  /** Epoch of the next job per TJID (§10.4: starts at 0, toggled when a job retires). */
  epoch;
  /** CTS received before its job (§10.3: 'before or after'): the epoch + 1 of the CTS per TJID, 0 = none. */
  earlyCts;
  /** Per TJID: the last unexpected CTS (a duplicate, or one of the wrong epoch): cycle + 1 and epoch, for failure reports. */
  staleCtsAt;
  staleCtsEpoch;
  /** Sticky Job Failed vector (§10.7.1.2), one bit per TJID. */
  failedVector;
  /** The shallow descriptor FIFOs of the RDMA Tx queues (after the barrier wait, §10.7.1). */
  rdmaFifo = [[], []];
  /** The datagram TxQ rings (dgram_tx0/1), when configured. */
  txq = [null, null];
  /** Per TxQ: datagrams in PGen / in flight, and done flags by ring slot (§10.7.1.4 reorder). */
  dgOutstanding = [0, 0];
  dgDone = [new Uint8Array(0), new Uint8Array(0)];
  voqLock = new Uint8Array(8192);
  voqCount = new Int32Array(8192);
  voqXoff = new Uint8Array(8192);
  xoffSince = new Float64Array(8192);
  groupCount = [0, 0];
  total = 0;
  rrQueue = 0;
  nextAccept = 0;
  nextPage = 0;
  rrChannel = 0;
  rrPgen = 0;
  channels = [];
  messages = [];
  /** Jobs in the table that are not idle or failed (timers), in TJID order when scanned. */
  active = /* @__PURE__ */ new Set();
  constructor(cluster2, core) {
    this.cluster = cluster2;
    this.core = core;
    const n2 = core.params.job_tables.tx_jobs_per_cluster;
    this.jobs = new Array(n2).fill(null);
    this.epoch = new Uint8Array(n2);
    this.earlyCts = new Uint8Array(n2);
    this.staleCtsAt = new Float64Array(n2);
    this.staleCtsEpoch = new Uint8Array(n2);
    this.failedVector = new Uint8Array(n2);
  }
  get busy() {
    return this.active.size > 0 || this.rdmaFifo[0].length + this.rdmaFifo[1].length > 0 || this.messages.length > 0 || this.channels.length > 0 || this.dgOutstanding[0] + this.dgOutstanding[1] > 0 || this.dgPending();
  }
  dgPending() {
    for (const r of this.txq)
      if (r && r.unfetched > 0)
        return true;
    return false;
  }
  canAccept(q) {
    return this.rdmaFifo[q].length < this.core.params.descriptor_fifos.rdma_tx_depth;
  }
  queueMessage(m) {
    this.messages.push(m);
  }
  /** The earliest cycle at which a timer of this cluster expires. */
  nextDeadline() {
    let w = Infinity;
    for (const j of this.active)
      if (j.deadline < w)
        w = j.deadline;
    return w;
  }
  fail(j, now, reason) {
    this.core.stats(this.cluster).tx_jobs_failed++;
    this.releaseChannel(j);
    if (j.lockHeld) {
      this.voqLock[j.voq] = 0;
      j.lockHeld = false;
    }
    j.state = 5;
    this.active.delete(j);
    this.failedVector[j.tjid] = 1;
    this.core.slice(this.cluster, "tx", j.startAt, now, `TJID ${j.tjid} FAILED`, { tjid: j.tjid, rjid: j.rjid, reason });
    this.core.failed({ chip: this.core.chip, cluster: this.cluster, side: "tx", tjid: j.tjid, rjid: j.rjid, epoch: j.epoch, tripId: j.trip.tripId, cycle: now, reason });
  }
  /** Software clears the sticky Job Failed state of TJID `tjid` (§10.7.1.2): the entry goes back to Idle. */
  clearFailed(tjid) {
    const j = this.jobs[tjid];
    if (j && j.state === 5) {
      this.jobs[tjid] = null;
      this.epoch[tjid] ^= 1;
    }
    this.failedVector[tjid] = 0;
  }
  releaseChannel(j) {
    const i = this.channels.findIndex((c) => c.job === j);
    if (i >= 0)
      this.channels.splice(i, 1);
  }
  retire(j, now) {
    this.active.delete(j);
    this.jobs[j.tjid] = null;
    this.epoch[j.tjid] ^= 1;
    this.core.stats(this.cluster).tx_jobs_completed++;
    this.core.slice(this.cluster, "tx", j.startAt, now, `TJID ${j.tjid} -> RJID ${j.rjid}`, { tjid: j.tjid, rjid: j.rjid, epoch: j.epoch, retry: j.retry, words: j.totalWords, trip_id: j.trip.tripId });
    this.core.tripDone(j.trip, now);
  }
  /** A job's attempt failed (NACK or ACK-wait timeout): retry once (§10.7.1.1), then Job Failed. */
  retryOrFail(j, now, why) {
    if (j.retry === 1)
      return this.fail(j, now, `${why} on the retried job`);
    j.retry = 1;
    j.wordsGenerated = 0;
    j.seq = 0;
    j.state = 1;
    j.deadline = Infinity;
    this.core.stats(this.cluster).tx_retries++;
  }
  /** A CTS / ACK / NACK message for this cluster's Tx side (§10.8.8: relayed from the Rx DMA). */
  onMessage(type, tjid, epoch2, retry, now) {
    const s = this.core.stats(this.cluster).rx_messages;
    s[type]++;
    if (tjid >= this.jobs.length)
      return void s.stale++;
    const j = this.jobs[tjid];
    if (type === "cts") {
      if (j && j.state !== 5 && j.epoch === epoch2) {
        if (!j.ctsReceived) {
          j.ctsReceived = true;
          if (j.state === 0) {
            j.state = 1;
            j.deadline = Infinity;
          }
        } else
          this.unexpectedCts(tjid, epoch2, now);
        return;
      }
      if (!j && this.epoch[tjid] === epoch2)
        this.earlyCts[tjid] = epoch2 + 1;
      else
        this.unexpectedCts(tjid, epoch2, now);
      return;
    }
    if (!j || j.state === 5 || j.epoch !== epoch2 || type === "nack" && retry !== j.retry)
      return void s.stale++;
    if (type === "ack") {
      this.releaseChannel(j);
      if (j.lockHeld) {
        this.voqLock[j.voq] = 0;
        j.lockHeld = false;
      }
      this.retire(j, now);
      return;
    }
    if (j.state !== 4 && j.state !== 3)
      return void s.stale++;
    this.retryOrFail(j, now, "NACK received");
  }
  unexpectedCts(tjid, epoch2, now) {
    this.core.stats(this.cluster).rx_messages.stale++;
    this.staleCtsAt[tjid] = now + 1;
    this.staleCtsEpoch[tjid] = epoch2;
  }
  /** RDMA Tx descriptor -> Tx Job Table entry (§10.7.1.1), the VOQ-Active lock already taken. */
  admit(trip, voq, dest, now) {
    const f = trip.fields;
    const tjid = Number(f["tjid"]);
    const totalWords = Number(f["num_words"]);
    const pageWords = Number(f["page_size_words"]);
    const base2 = Number(f["amem_address"]) * 128;
    const high = this.core.params.occupancy.default_priority === "high";
    const epoch2 = this.epoch[tjid];
    const cts = this.earlyCts[tjid] === epoch2 + 1;
    this.earlyCts[tjid] = 0;
    const j = {
      trip,
      tjid,
      rjid: Number(f["rjid"]),
      voq,
      dest,
      base: base2,
      totalWords,
      pageWords,
      epoch: epoch2,
      retry: 0,
      state: cts ? 1 : 0,
      ctsReceived: cts,
      deadline: cts ? Infinity : now + this.core.params.timers.tx_cts_wait_timeout_cycles,
      wordsGenerated: 0,
      seq: 0,
      outstanding: 0,
      high,
      profile: this.core.params.occupancy.default_profile,
      lockHeld: true,
      startAt: now
    };
    this.jobs[tjid] = j;
    this.voqLock[voq] = 1;
    this.active.add(j);
    this.core.stats(this.cluster).tx_jobs_started++;
  }
  /** Checks an RDMA Tx descriptor (§11.4.6) when it reaches the job manager. */
  check(trip, now) {
    const f = trip.fields;
    const what = `c${this.cluster}.rdma_tx${trip.qid - 12} trip ${trip.tripId}`;
    const words = Number(f["num_words"]);
    const page = Number(f["page_size_words"]);
    const tjid = Number(f["tjid"]);
    if (!(words >= 1 && words <= 65536))
      throw runtimeError(FabricCodes.badRdmaDescriptor, `${what}: NumWords ${words} is outside [1, 65536]`, "\xA711.4.6", now);
    if (!(page >= 32 && page <= 127))
      throw runtimeError(FabricCodes.badRdmaDescriptor, `${what}: PageSizeWords ${page} is outside [32, 127]`, "\xA711.4.6", now);
    if (tjid >= this.jobs.length)
      throw runtimeError(FabricCodes.badRdmaDescriptor, `${what}: TJID ${tjid} beyond the ${this.jobs.length}-entry Tx Job Table`, "\xA710.7.2", now);
    const base2 = Number(f["amem_address"]) * 128;
    if ((base2 & AMEM_VIEW_BIT - 1) + words * 128 > AMEM_BYTES)
      throw runtimeError(FabricCodes.badRange, `${what}: AMEM range 0x${base2.toString(16)} + ${words} words runs past the 64 MiB AMEM`, "\xA711.4.6", now);
    const voq = Number(f["dest_voq"]);
    return { voq, dest: this.core.dest(voq, what, now) };
  }
  headBlocked(q, now) {
    if (q < 2) {
      const trip = this.rdmaFifo[q][0];
      if (!trip)
        return true;
      const tjid = Number(trip.fields["tjid"]);
      const j = this.jobs[tjid];
      if (j && j.state !== 5)
        throw runtimeError(FabricCodes.jobIdInUse, `c${this.cluster}.rdma_tx${q} trip ${trip.tripId}: TJID ${tjid} is still active (${STATE_NAMES2[j.state]}, trip ${j.trip.tripId}); software must not re-use a Tx Job ID before its job retires (its notify_list)`, "\xA710.4", now);
      if (this.failedVector[tjid])
        return true;
      const voq = Number(trip.fields["dest_voq"]);
      return this.voqLock[voq] === 1;
    }
    const r = this.txq[q - 2];
    if (!r || r.unfetched === 0)
      return true;
    if (this.dgOutstanding[q - 2] >= this.core.params.datagrams.tx_reorder_ids)
      return true;
    return this.voqLock[r.fetch(true).fields["dest_voq"]] === 1;
  }
  /** Job manager: one job from the four queues, round-robin (§10.7.1.1). */
  acceptJob(now) {
    for (let i = 0; i < 4; i++) {
      const q = (this.rrQueue + i) % 4;
      if (this.headBlocked(q, now))
        continue;
      this.rrQueue = (q + 1) % 4;
      if (q < 2) {
        const trip = this.rdmaFifo[q].shift();
        const { voq, dest } = this.check(trip, now);
        this.admit(trip, voq, dest, now);
      } else {
        const ring = this.txq[q - 2];
        const { index, fields } = ring.fetch();
        const voq = fields["dest_voq"];
        const bytes = fields["num_bytes"];
        const what = `c${this.cluster}.dgram_tx${q - 2} descriptor ${index}`;
        if (!(bytes >= 1 && bytes <= 16256))
          throw runtimeError(FabricCodes.badRdmaDescriptor, `${what}: NumBytes ${bytes} is outside [1, 16256]`, "\xA711.4.8", now);
        const addr = fields["amem_address"] * 128;
        if ((addr & AMEM_VIEW_BIT - 1) + bytes > AMEM_BYTES)
          throw runtimeError(FabricCodes.badRange, `${what}: AMEM range 0x${addr.toString(16)} + ${bytes} bytes runs past the 64 MiB AMEM`, "\xA711.4.8", now);
        const dest = this.core.dest(voq, what, now);
        const t = q - 2;
        if (this.dgDone[t].length !== ring.entries)
          this.dgDone[t] = new Uint8Array(ring.entries);
        this.dgOutstanding[t]++;
        this.voqLock[voq] = 1;
        this.channels.push({ job: null, msg: null, dg: { txq: t, slot: index, addr: fields["amem_address"] * 128, bytes, rxq: fields["rxq_index"], voq, dest } });
      }
      return true;
    }
    return false;
  }
  /** PGen channel allocation: retry jobs first, then round-robin over TJIDs (§10.7.1.1). */
  allocChannel() {
    const p = this.core.params.page_generator;
    let jobsOnChannels = 0;
    for (const c of this.channels)
      if (!c.msg)
        jobsOnChannels++;
    if (jobsOnChannels >= p.channels - p.message_channels_reserved)
      return false;
    const n2 = this.jobs.length;
    let pick = null;
    let best = Infinity;
    for (const j of this.active) {
      if (j.state !== 1)
        continue;
      const rank = (j.retry === 1 ? 0 : n2) + (j.tjid - this.rrPgen + n2) % n2;
      if (rank < best) {
        best = rank;
        pick = j;
      }
    }
    if (!pick)
      return false;
    this.rrPgen = (pick.tjid + 1) % n2;
    pick.state = 2;
    pick.deadline = Infinity;
    this.channels.push({ job: pick, dg: null, msg: null });
    return true;
  }
  inhibited(voq, high) {
    const o = this.core.params.occupancy;
    if (this.voqXoff[voq])
      return true;
    if (this.groupCount[high ? 1 : 0] >= (high ? o.high_group_limit : o.low_group_limit))
      return true;
    return this.total >= this.core.params.qpages.cluster_limit;
  }
  chanVoq(c) {
    if (c.msg)
      return { voq: c.msg.voq, high: true, profile: this.core.params.occupancy.message_profile };
    if (c.dg)
      return { voq: c.dg.voq, high: this.core.params.occupancy.default_priority === "high", profile: this.core.params.occupancy.default_profile };
    return { voq: c.job.voq, high: c.job.high, profile: c.job.profile };
  }
  /** Generates one page: high-priority channels first, round-robin within the priority (§10.7.3). */
  generate(now) {
    if (this.channels.length === 0)
      return false;
    let pick = -1;
    for (let pass = 0; pass < 2 && pick < 0; pass++)
      for (let i = 0; i < this.channels.length; i++) {
        const k = (this.rrChannel + i) % this.channels.length;
        const v2 = this.chanVoq(this.channels[k]);
        if (v2.high !== (pass === 0) || this.inhibited(v2.voq, v2.high))
          continue;
        pick = k;
        break;
      }
    if (pick < 0)
      return false;
    const qp = this.core.allocQPage();
    if (!qp)
      return false;
    this.rrChannel = pick + 1;
    const c = this.channels[pick];
    const v = this.chanVoq(c);
    qp.cluster = this.cluster;
    qp.voq = v.voq;
    qp.high = v.high;
    qp.profile = v.profile;
    qp.job = null;
    qp.txq = -1;
    qp.slot = -1;
    qp.rxq = 0;
    qp.seq = 0;
    qp.last = 0;
    const st = this.core.stats(this.cluster);
    if (c.msg) {
      const m = c.msg;
      Object.assign(qp, { type: MSG_TYPES[m.type], addr: 0, payloadBytes: 0, tjid: m.tjid, rjid: m.rjid, epoch: m.epoch, retry: m.retry, dest: m.dest });
      st.tx_messages[m.type]++;
      this.channels.splice(pick, 1);
    } else if (c.dg) {
      const d = c.dg;
      Object.assign(qp, { type: "datagram", addr: d.addr, payloadBytes: d.bytes, tjid: 0, rjid: 0, epoch: 0, retry: 0, rxq: d.rxq, txq: d.txq, slot: d.slot, dest: d.dest });
      st.tx_datagrams++;
      this.voqLock[d.voq] = 0;
      this.channels.splice(pick, 1);
    } else {
      const j = c.job;
      const words = Math.min(j.pageWords, j.totalWords - j.wordsGenerated);
      const last = j.wordsGenerated + words === j.totalWords ? 1 : 0;
      Object.assign(qp, { type: "rdma_data", job: j, addr: j.base + j.wordsGenerated * 128, payloadBytes: words * 128, tjid: j.tjid, rjid: j.rjid, epoch: j.epoch, retry: j.retry, last, seq: j.seq, dest: j.dest });
      j.wordsGenerated += words;
      j.seq++;
      j.outstanding++;
      j.deadline = now + this.core.params.timers.tx_active_timeout_cycles;
      if (last) {
        this.channels.splice(pick, 1);
        if (j.lockHeld) {
          this.voqLock[j.voq] = 0;
          j.lockHeld = false;
        }
        j.state = 3;
      }
      st.tx_pages++;
    }
    const cnt = ++this.voqCount[qp.voq];
    if (cnt >= this.core.params.occupancy.profiles[qp.profile].xoff && !this.voqXoff[qp.voq]) {
      this.voqXoff[qp.voq] = 1;
      this.xoffSince[qp.voq] = now;
      st.xoff_events++;
    }
    this.groupCount[qp.high ? 1 : 0]++;
    this.total++;
    if (this.total > st.qpages_max)
      st.qpages_max = this.total;
    this.core.egress.enqueue(now, {
      srcChip: this.core.chip,
      srcCluster: this.cluster,
      voq: qp.voq,
      dest: qp.dest,
      qpage: qp.id,
      wireBytes: qp.type === "rdma_data" || qp.type === "datagram" ? 16 + qp.payloadBytes : this.core.params.messages.page_bytes,
      type: qp.type
    });
    return true;
  }
  /** The page's QPage was dequeued (it left the chip): occupancy and the job's outstanding pages drop (§10.7.3.1). */
  dequeued(qp, now) {
    const cnt = --this.voqCount[qp.voq];
    if (this.voqXoff[qp.voq] && cnt <= this.core.params.occupancy.profiles[qp.profile].xon) {
      this.voqXoff[qp.voq] = 0;
      this.core.stats(this.cluster).xoff_cycles += now - this.xoffSince[qp.voq];
    }
    this.groupCount[qp.high ? 1 : 0]--;
    this.total--;
    const j = qp.job;
    if (j && this.jobs[j.tjid] === j && j.state !== 5) {
      j.outstanding--;
      if (j.state === 2 || j.state === 3)
        j.deadline = now + this.core.params.timers.tx_active_timeout_cycles;
      if (j.state === 3 && j.outstanding === 0) {
        j.state = 4;
        j.deadline = now + this.core.params.timers.tx_ack_wait_timeout_cycles;
      }
    } else if (j)
      j.outstanding--;
  }
  /** A datagram's data reached the Tx buffer: mark its reorder slot done and advance the TxQ head in order (§10.7.1.4). */
  datagramRead(txq, slot) {
    const ring = this.txq[txq];
    const done = this.dgDone[txq];
    done[slot] = 1;
    while (done[ring.head] === 1) {
      done[ring.head] = 0;
      ring.advanceHead();
      this.dgOutstanding[txq]--;
    }
  }
  tick(now) {
    let did = false;
    if (this.active.size > 0)
      did = this.timers(now) || did;
    const p = this.core.params.page_generator;
    if (now >= this.nextAccept && this.acceptJob(now)) {
      this.nextAccept = now + p.job_manager_cycles_per_job;
      did = true;
    }
    while (this.messages.length > 0 && this.channels.length < p.channels) {
      this.channels.push({ job: null, dg: null, msg: this.messages.shift() });
      did = true;
    }
    if (this.allocChannel())
      did = true;
    if (now >= this.nextPage && this.generate(now)) {
      this.nextPage = now + p.cycles_per_page;
      did = true;
    }
    return did;
  }
  timers(now) {
    let due = false;
    for (const j of this.active)
      if (now >= j.deadline)
        due = true;
    if (!due)
      return false;
    for (const j of [...this.active]) {
      if (now < j.deadline)
        continue;
      if (j.state === 0) {
        const at2 = this.staleCtsAt[j.tjid];
        const hint = at2 ? `; an unexpected CTS for TJID ${j.tjid} (epoch ${this.staleCtsEpoch[j.tjid]}) arrived at cycle ${at2 - 1} and this job has epoch ${j.epoch}: did Tx and Rx use the TJID / RJID pair a different number of times (a TJID re-used for another RJID or Rx chip? \xA710.4)` : "";
        this.fail(j, now, `CTS-wait timeout (no CTS from the Rx chip within timers.tx_cts_wait_timeout_cycles = ${this.core.params.timers.tx_cts_wait_timeout_cycles})${hint}`);
      } else if (j.state === 4)
        this.retryOrFail(j, now, `ACK-wait timeout (timers.tx_ack_wait_timeout_cycles = ${this.core.params.timers.tx_ack_wait_timeout_cycles})`);
      else if (j.state === 2 || j.state === 3)
        this.fail(j, now, `Tx-active timeout (the VOQ made no progress for timers.tx_active_timeout_cycles = ${this.core.params.timers.tx_active_timeout_cycles})`);
      else
        j.deadline = Infinity;
    }
    return true;
  }
  /** The next cycle the rate limits (one job, one page per interval) let pending work go on; Infinity when none. */
  wakeHint(now) {
    let w = this.nextDeadline();
    const pending = this.rdmaFifo[0].length + this.rdmaFifo[1].length > 0 || this.dgPending();
    if (pending && this.nextAccept > now && this.nextAccept < w)
      w = this.nextAccept;
    if (this.channels.length > 0 && this.nextPage > now && this.nextPage < w)
      w = this.nextPage;
    if (this.messages.length > 0)
      w = now;
    return w;
  }
  blockedReason() {
    const out = [];
    for (const j of this.active)
      out.push(`c${this.cluster} Tx TJID ${j.tjid} -> RJID ${j.rjid} (VOQ ${j.voq}, trip ${j.trip.tripId}): ${STATE_NAMES2[j.state]}${j.retry ? " (retry)" : ""}, ${j.wordsGenerated}/${j.totalWords} words generated, ${j.outstanding} page(s) outstanding`);
    for (let q = 0; q < 2; q++) {
      const t = this.rdmaFifo[q][0];
      if (t && this.failedVector[Number(t.fields["tjid"])])
        out.push(`c${this.cluster}.rdma_tx${q} trip ${t.tripId} waits: TJID ${Number(t.fields["tjid"])} is in the sticky Job Failed state`);
      else if (t)
        out.push(`c${this.cluster}.rdma_tx${q} trip ${t.tripId} waits for the VOQ-Active lock of VOQ ${Number(t.fields["dest_voq"])}`);
    }
    return out;
  }
};

// packages/target-pyxis/dist/sim/fabric/adapter.js
var RDMA_TX_QID = 12;
var RDMA_RX_QID = 14;
var DGRAM_TX_QID = 35;
var RdmaQueueEngine = class {
  cluster;
  kind;
  index;
  adapter;
  done;
  name;
  group;
  phase = PHASE.engines;
  passive = true;
  busy = false;
  tripsDone = 0;
  commitKey = 0;
  kernel;
  constructor(cluster2, kind, index, adapter, done) {
    this.cluster = cluster2;
    this.kind = kind;
    this.index = index;
    this.adapter = adapter;
    this.done = done;
    this.name = `c${cluster2}.${kind}${index}`;
    this.group = `cluster ${cluster2}`;
  }
  canAccept() {
    return this.kind === "rdma_tx" ? this.adapter.txc[this.cluster].canAccept(this.index) : this.adapter.rxc[this.cluster].canAccept(this.index);
  }
  start(trip) {
    (this.kind === "rdma_tx" ? this.adapter.txc : this.adapter.rxc)[this.cluster].rdmaFifo[this.index].push(trip);
  }
  finish(trip, now) {
    this.tripsDone++;
    this.done(trip, now);
  }
  tick() {
    return false;
  }
  nextWake() {
    return Infinity;
  }
  blockedReason() {
    return void 0;
  }
};
var FabricAdapter = class {
  deps;
  name = "fabric_adapter";
  group = "chip";
  phase = PHASE.engines;
  stallReasons = ["waiting for the fabric (grant, dequeue, pages, messages)"];
  chip;
  params;
  egress;
  timingOnly;
  txc = [];
  rxc = [];
  queueEngines = [];
  clusterStats = [];
  failures = [];
  /** Job-failed interrupts raised per cluster (§10.7.1.2, §10.8.1.2): host actions may wait on them. */
  failedInterrupts = [];
  qpages = [];
  freeQ = [];
  events = [];
  evSeq = 0;
  /** Per FO pipe: granted pages waiting for a Tx page context / TxBuf space, TxDMA free cycle, TxBuf words in use. */
  pipeQueue = [];
  pipeFreeAt = [];
  txbufUsed = [];
  txbufWords;
  rrCluster = 0;
  /**
   * Per (cluster, VOQ): granted pages in grant order, each with its ready cycle once its TxDMA has started, and the
   * cycle the last one was handed to the fabric: pages of one VOQ leave in grant order (MODEL, spec notes).
   */
  voqOrder = /* @__PURE__ */ new Map();
  voqToVpfe;
  tx;
  rx;
  constructor(deps) {
    this.deps = deps;
    const f = deps.fabric;
    this.chip = f.chip;
    this.egress = f.egress;
    this.voqToVpfe = f.voqToVpfe;
    this.timingOnly = !!f.timingOnly;
    this.params = loadFabricAdapterParams(f.adapter);
    for (let i = 0; i < this.params.qpages.table_entries; i++) {
      this.qpages.push({ id: i, inUse: false, cluster: 0, type: "rdma_data", job: null, txq: -1, slot: -1, addr: 0, payloadBytes: 0, tjid: 0, rjid: 0, epoch: 0, retry: 0, last: 0, seq: 0, rxq: 0, voq: 0, dest: { vpfe: 0, oq: 0 }, high: false, profile: 0 });
      this.freeQ.push(this.params.qpages.table_entries - 1 - i);
    }
    for (let p = 0; p < this.params.txdma.pipes; p++) {
      this.pipeQueue.push([]);
      this.pipeFreeAt.push(0);
      this.txbufUsed.push(0);
    }
    this.txbufWords = this.params.txdma.txbuf_pages_per_pipe * 127;
    for (let c = 0; c < deps.clusters; c++) {
      const tx = new TxCluster(c, this);
      const rx = new RxCluster(c, this, deps.commitLatency);
      rx.tx = tx;
      this.txc.push(tx);
      this.rxc.push(rx);
      this.clusterStats.push(emptyClusterStats());
      this.failedInterrupts.push(0);
    }
    this.tx = {
      granted: (now, cluster2, qpage, pipe) => this.granted(now, cluster2, qpage, pipe),
      dequeued: (now, cluster2, qpage) => this.dequeuedPage(now, cluster2, qpage)
    };
    this.rx = { receive: (now, cluster2, page) => this.receive(now, cluster2, page) };
  }
  /** The trip engines of a cluster's RDMA queues (registered by the chip for queue ids 0x0C-0x0F). */
  makeQueueEngines(cluster2, done) {
    const e = [
      new RdmaQueueEngine(cluster2, "rdma_tx", 0, this, done(RDMA_TX_QID)),
      new RdmaQueueEngine(cluster2, "rdma_tx", 1, this, done(RDMA_TX_QID + 1)),
      new RdmaQueueEngine(cluster2, "rdma_rx", 0, this, done(RDMA_RX_QID)),
      new RdmaQueueEngine(cluster2, "rdma_rx", 1, this, done(RDMA_RX_QID + 1))
    ];
    this.queueEngines[cluster2] = e;
    return e;
  }
  /** Configures datagram ring `qid` (0x23-0x26) of `cluster` (§11.5.2). */
  configureRing(cluster2, qid, at2) {
    const names = ["dgram_tx0", "dgram_tx1", "dgram_rx0", "dgram_rx1"];
    const k = qid - DGRAM_TX_QID;
    if (!(k >= 0 && k < 4) || cluster2 >= this.txc.length)
      throw new RangeError(`no datagram ring 0x${qid.toString(16)} in cluster ${cluster2}`);
    const ring = new DatagramRing(`c${cluster2}.${names[k]}`, at2, (c) => this.deps.amem[c], this.deps.hbm);
    if (k < 2)
      this.txc[cluster2].txq[k] = ring;
    else
      this.rxc[cluster2].rxq[k - 2] = ring;
    return ring;
  }
  // ---- AdapterCore ----
  amem(cluster2) {
    return this.deps.amem[cluster2];
  }
  ingress(cluster2, now, bytes) {
    return this.deps.coreSwitch ? this.deps.coreSwitch.ingress[cluster2].reserve(now, bytes) : now;
  }
  stats(cluster2) {
    return this.clusterStats[cluster2];
  }
  dest(voq, what, now) {
    const v = voq >> 2 < this.voqToVpfe.length ? this.voqToVpfe[voq >> 2] : 65535;
    if (v === 65535 || (v & 3) === 3)
      throw runtimeError(FabricCodes.unmappedVoq, `${what}: VOQ ${voq} (map entry ${voq >> 2}) ${v === 65535 ? "is not configured in" : `maps to VPFE ${v} (VPFE[1:0] = 3 is illegal) in`} chip ${this.chip}'s Pyxis_VOQ_to_VPFE_map`, "\xA710.2", now);
    return { vpfe: v, oq: voq & 3 };
  }
  allocQPage() {
    const id = this.freeQ.pop();
    if (id === void 0)
      return void 0;
    const q = this.qpages[id];
    q.inUse = true;
    return q;
  }
  schedule(at2, fn) {
    const e = this.events;
    const ev = { at: at2, seq: this.evSeq++, fn };
    e.push(ev);
    let i = e.length - 1;
    while (i > 0) {
      const p = i - 1 >> 1;
      if (e[p].at < at2 || e[p].at === at2 && e[p].seq < ev.seq)
        break;
      e[i] = e[p];
      i = p;
    }
    e[i] = ev;
  }
  popEvent() {
    const e = this.events;
    const top = e[0];
    const last = e.pop();
    if (e.length > 0) {
      let i = 0;
      for (; ; ) {
        const l = 2 * i + 1;
        if (l >= e.length)
          break;
        const r = l + 1;
        const c = r < e.length && (e[r].at < e[l].at || e[r].at === e[l].at && e[r].seq < e[l].seq) ? r : l;
        if (e[c].at > last.at || e[c].at === last.at && e[c].seq > last.seq)
          break;
        e[i] = e[c];
        i = c;
      }
      e[i] = last;
    }
    return top;
  }
  tripDone(trip, now) {
    this.queueEngines[trip.cluster][trip.qid - RDMA_TX_QID].finish(trip, now);
  }
  failed(f) {
    this.failures.push(f);
    this.failedInterrupts[f.cluster]++;
  }
  sendMessage(cluster2, m) {
    this.txc[cluster2].queueMessage(m);
  }
  slice(cluster2, side, start2, end, name, args) {
    this.deps.observer?.fabricSlice(`cluster ${cluster2}`, `c${cluster2}.fabric_${side}_jobs`, start2, end, name, args);
  }
  // ---- FabricAdapterTx / Rx ----
  qpage(cluster2, id, what) {
    const q = this.qpages[id];
    if (!q || !q.inUse || q.cluster !== cluster2)
      throw new RangeError(`chip ${this.chip}: fabric ${what} of QPage ${id} of cluster ${cluster2}, which is not outstanding`);
    return q;
  }
  granted(_now, cluster2, id, pipe) {
    const q = { ...this.qpage(cluster2, id, "grant") };
    const key = q.cluster * 8192 + q.voq;
    let o = this.voqOrder.get(key);
    if (!o)
      this.voqOrder.set(key, o = { pages: [], last: 0 });
    const slot = { ready: -1, pipe: pipe % this.pipeQueue.length, words: 0, page: null };
    o.pages.push(slot);
    this.slotOf.set(q, slot);
    this.pipeQueue[slot.pipe].push(q);
  }
  slotOf = /* @__PURE__ */ new Map();
  /** Hands the pages at the head of VOQ `key`'s grant order whose data are ready to the fabric, in order. */
  release(key) {
    const o = this.voqOrder.get(key);
    while (o.pages.length > 0 && o.pages[0].page) {
      const sl = o.pages.shift();
      const at2 = Math.max(sl.ready, o.last);
      o.last = at2;
      const page = sl.page;
      const p = sl.pipe;
      const words = sl.words;
      this.schedule(at2, (t) => {
        this.txbufUsed[p] -= words;
        this.egress.transmit(t, page);
      });
    }
  }
  dequeuedPage(now, cluster2, id) {
    const q = this.qpage(cluster2, id, "dequeue");
    this.txc[cluster2].dequeued(q, now);
    q.inUse = false;
    q.job = null;
    this.freeQ.push(id);
  }
  receive(now, cluster2, page) {
    if (cluster2 >= this.rxc.length)
      throw new RangeError(`chip ${this.chip}: a fabric page for cluster ${cluster2}, but the chip has ${this.rxc.length} cluster(s)`);
    this.rxc[cluster2].receive(page, now);
  }
  /** TxDMA of granted pages (§10.7.7, §12.3): a Tx page context and TxBuf space per page, one word per cycle per pipe. */
  txdma(now) {
    let did = false;
    const t = this.params.txdma;
    for (let p = 0; p < this.pipeQueue.length; p++) {
      const queue = this.pipeQueue[p];
      while (queue.length > 0 && this.pipeFreeAt[p] <= now) {
        const q = queue[0];
        const data2 = q.type === "rdma_data" || q.type === "datagram";
        const words = data2 ? Math.ceil(q.payloadBytes / 128) : 1;
        if (this.txbufUsed[p] + words > this.txbufWords)
          break;
        queue.shift();
        this.txbufUsed[p] += words;
        let payload = null;
        let ready = now + t.encap_latency_cycles;
        if (data2) {
          const amem = this.deps.amem[q.cluster];
          let served = now;
          if (!this.timingOnly) {
            payload = amem.readBytes(q.addr, q.payloadBytes, CLIENT_TXDMA);
            served = Math.max(now, amem.servedAt ?? now);
          } else if (amem.banks?.clock)
            served = Math.max(now, amem.banks.access(CLIENT_TXDMA, q.addr, q.payloadBytes));
          const dur = Math.ceil(words / t.words_per_cycle_per_pipe);
          this.pipeFreeAt[p] = served + dur;
          const out = this.deps.coreSwitch ? this.deps.coreSwitch.egress[q.cluster].reserve(served, q.payloadBytes) : served;
          ready = Math.max(served + dur, out) + t.latency_cycles + t.encap_latency_cycles;
          this.clusterStats[q.cluster].txdma_words += words;
          if (q.type === "rdma_data")
            this.clusterStats[q.cluster].tx_data_bytes += q.payloadBytes;
          if (q.type === "datagram") {
            const txq = q.txq;
            const slot = q.slot;
            const tx = this.txc[q.cluster];
            this.schedule(ready - t.encap_latency_cycles, () => tx.datagramRead(txq, slot));
          }
        }
        const header = encodeHeader({ page_type: q.type, tjid: q.tjid, rjid: q.rjid, epoch: q.epoch, retry: q.retry, last_page: q.last, rxq_index: q.rxq, page_size_bytes: data2 ? q.payloadBytes : 0, page_seq_num: q.seq & 2047 });
        const page = {
          srcChip: this.chip,
          srcCluster: q.cluster,
          voq: q.voq,
          dest: q.dest,
          qpage: q.id,
          wireBytes: data2 ? 16 + q.payloadBytes : this.params.messages.page_bytes,
          type: q.type,
          header,
          payload,
          payloadBytes: data2 ? q.payloadBytes : 0,
          tjid: q.tjid,
          rjid: q.rjid,
          seq: q.seq
        };
        const sl = this.slotOf.get(q);
        this.slotOf.delete(q);
        sl.ready = ready;
        sl.words = words;
        sl.page = page;
        this.release(q.cluster * 8192 + q.voq);
        did = true;
      }
    }
    return did;
  }
  get busy() {
    if (this.events.length > 0)
      return true;
    for (const q of this.pipeQueue)
      if (q.length > 0)
        return true;
    for (let c = 0; c < this.txc.length; c++)
      if (this.txc[c].busy || this.rxc[c].busy)
        return true;
    return false;
  }
  tick(now) {
    let did = false;
    while (this.events.length > 0 && this.events[0].at <= now) {
      this.popEvent().fn(now);
      did = true;
    }
    const n2 = this.txc.length;
    for (let i = 0; i < n2; i++)
      if (this.rxc[(this.rrCluster + i) % n2].tick(now))
        did = true;
    for (let i = 0; i < n2; i++)
      if (this.txc[(this.rrCluster + i) % n2].tick(now))
        did = true;
    this.rrCluster = (this.rrCluster + 1) % n2;
    if (this.txdma(now))
      did = true;
    return did;
  }
  nextWake(now) {
    let w = this.events.length > 0 ? this.events[0].at : Infinity;
    for (let p = 0; p < this.pipeQueue.length; p++)
      if (this.pipeQueue[p].length > 0 && this.pipeFreeAt[p] > now && this.pipeFreeAt[p] < w)
        w = this.pipeFreeAt[p];
    for (let c = 0; c < this.txc.length; c++)
      w = Math.min(w, this.txc[c].wakeHint(now), this.rxc[c].wakeHint(now));
    return Math.max(now, w);
  }
  stallCode() {
    return 0;
  }
  blockedReason() {
    const parts = [];
    for (let c = 0; c < this.txc.length; c++)
      parts.push(...this.txc[c].blockedReason(), ...this.rxc[c].blockedReason());
    const granted = this.pipeQueue.reduce((a, q) => a + q.length, 0);
    if (granted)
      parts.push(`${granted} granted page(s) waiting for TxBuf space`);
    return parts.length ? parts.join("; ") : void 0;
  }
  /** Wait-graph lines: every failed job (nothing is lost silently). */
  explain() {
    return this.failures.map((f) => `${FabricCodes.jobFailed}: ${describeFailure(f)}`);
  }
  /** Statistics for the report (per cluster; failures named). */
  report() {
    return { chip: this.chip, clusters: this.clusterStats, failures: this.failures, failed_interrupts: this.failedInterrupts, qpages_in_use: this.qpages.length - this.freeQ.length };
  }
};

// packages/target-pyxis/dist/sim/fabric/csr.js
var TX_FAILED = clusterCsrRegion("cluster.fabric_tx_failed");
var RX_FAILED = clusterCsrRegion("cluster.fabric_rx_failed");
var TAIL = clusterCsrRegion("cluster.dgram_tail");
var HEAD = clusterCsrRegion("cluster.dgram_head");
var LO2 = Math.min(TX_FAILED.offset, RX_FAILED.offset, TAIL.offset, HEAD.offset);
var HI3 = Math.max(...[TX_FAILED, RX_FAILED, TAIL, HEAD].map((r) => r.offset + r.words * r.stride));
function vectorHalves(v, word) {
  let lo2 = 0;
  let hi = 0;
  for (let j = 0; j < 32; j++)
    if (v[word * 64 + j])
      lo2 |= 1 << j;
  for (let j = 0; j < 32; j++)
    if (v[word * 64 + 32 + j])
      hi |= 1 << j;
  return [lo2 >>> 0, hi >>> 0];
}
function installFabricCsrs(cfg, cluster2, adapter) {
  const tx = adapter.txc[cluster2];
  const rx = adapter.rxc[cluster2];
  const ring = (k) => (k < 2 ? tx.txq[k] : rx.rxq[k - 2]) ?? null;
  cfg.watch(LO2, HI3, (addr, src, off, len) => {
    for (let a = addr - addr % 8; a < addr + len; a += 8) {
      const byte = (i) => a + i >= addr && a + i < addr + len ? src[off + a + i - addr] : cfg.byte(a + i);
      if (a >= TX_FAILED.offset && a < TX_FAILED.offset + 32) {
        const w = (a - TX_FAILED.offset) / 8;
        for (let i = 0; i < 8; i++)
          for (let j = 0; j < 8; j++)
            if (byte(i) >> j & 1)
              tx.clearFailed(w * 64 + i * 8 + j);
      } else if (a >= RX_FAILED.offset && a < RX_FAILED.offset + 32) {
        const w = (a - RX_FAILED.offset) / 8;
        for (let i = 0; i < 8; i++)
          for (let j = 0; j < 8; j++)
            if (byte(i) >> j & 1)
              rx.clearFailed(w * 64 + i * 8 + j);
      } else if (a >= TAIL.offset && a < TAIL.offset + 32)
        ring((a - TAIL.offset) / 8)?.setTail(byte(0) | byte(1) << 8);
    }
  });
  cfg.onRead(LO2, HI3, (addr, len) => {
    for (let a = Math.max(LO2, addr - addr % 8); a < Math.min(HI3, addr + len); a += 8) {
      if (a >= TX_FAILED.offset && a < TX_FAILED.offset + 32)
        cfg.storeHalves(a, ...vectorHalves(tx.failedVector, (a - TX_FAILED.offset) / 8));
      else if (a >= RX_FAILED.offset && a < RX_FAILED.offset + 32)
        cfg.storeHalves(a, ...vectorHalves(rx.failedVector, (a - RX_FAILED.offset) / 8));
      else if (a >= TAIL.offset && a < TAIL.offset + 32)
        cfg.storeWord(a, ring((a - TAIL.offset) / 8)?.tail ?? 0);
      else if (a >= HEAD.offset && a < HEAD.offset + 32)
        cfg.storeWord(a, ring((a - HEAD.offset) / 8)?.head ?? 0);
    }
  });
}

// packages/target-pyxis/dist/sim/chip.js
var MPES_PER_CLUSTER = 13;
var ICDMAS_PER_CLUSTER = 3;
var UIE_CFG_STRIDE = loadMemoryMap().uieStride;
var NO_NAMES = /* @__PURE__ */ new Map();
function shuffled(a, seed) {
  let x = seed >>> 0;
  const rnd = () => {
    x = x + 1831565813 >>> 0;
    let t = x;
    t = Math.imul(t ^ t >>> 15, t | 1);
    t ^= t + Math.imul(t ^ t >>> 7, t | 61);
    return ((t ^ t >>> 14) >>> 0) / 4294967296;
  };
  const out = [...a];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}
function linkLatency(v, key) {
  if (!(Number.isInteger(v) && v >= 1))
    throw new DiagnosticError(error(SimCodes.badConfig, `sim_config.json: \`${key}\` must be an integer >= 1 (it is the minimum latency of a cross-cluster link), got ${v}`));
  return v;
}
var PyxisChip = class {
  opts;
  sim = new Simulator();
  /** The fabric adapter's face to the system's fabric (chip §10); null outside a system. */
  fabric = null;
  /** The fabric adapter itself (fabric/adapter.ts: job managers, stats, failures); null outside a system. */
  fabricAdapter = null;
  hbm = new HbmMemory();
  amem = [];
  cfg = [];
  noc;
  barriers = [];
  dpe = [];
  tm = [];
  /** Trip engines by cluster, then queue id. */
  engines = [];
  allEngines = [];
  mpes = [];
  uies = [];
  apm;
  ports = [];
  host;
  observer;
  /** Trips completed per engine kind. */
  tripsByKind = {};
  records = [];
  /** §11.7 partial-write ordering checker (vector clocks over trip engines). */
  ordering;
  engineIndex = /* @__PURE__ */ new Map();
  /** The image loaded into the chip (image.ts `loadImage`); null for a chip built without one (tests). */
  image = null;
  /** Trip names by trip_id (the image's metadata), for reports. */
  get tripNames() {
    return this.image?.tripNames ?? NO_NAMES;
  }
  /** Run-time warnings of the control plane (CSR accesses, ICDMA plane masks), each key reported once. */
  warnings = [];
  warned = /* @__PURE__ */ new Set();
  warnOnce(key, d) {
    if (this.warned.has(key))
      return;
    this.warned.add(key);
    this.warnings.push(d);
  }
  /**
   * Per cluster, the timed links into it (kernel TimedLink): barrier notifications (min latency
   * trip_manager.notify_latency_cycles), ICDMA chunks through the core switch (icdma.latency_cycles), ICDMA commit
   * reports back to the source, and MPE writes across the NoC (noc.latency_cycles). Every effect of one cluster on
   * another goes through them.
   */
  notifyLinks = [];
  icdmaLinks = [];
  icdmaAckLinks = [];
  nocLinks = [];
  constructor(opts) {
    this.opts = opts;
    const { clusters, uies, config } = opts;
    if (!(clusters >= 1 && clusters <= MAX_CLUSTERS))
      throw new RangeError(`clusters must be 1..${MAX_CLUSTERS}`);
    if (!(uies >= 0 && uies <= MAX_UIES))
      throw new RangeError(`uies must be 0..${MAX_UIES}`);
    this.observer = opts.observer ?? new PyxisObserver();
    for (let c = 0; c < clusters; c++) {
      this.amem.push(new Amem(`c${c}.amem`, config.amem, this.sim));
      this.cfg.push(new CsrCfgSpace(c));
    }
    this.noc = new NocMap(this.hbm, this.amem, this.cfg);
    this.ordering = new OrderingTracker(clusters * (uies + 2 + ICDMAS_PER_CLUSTER + MPES_PER_CLUSTER + 1 + (opts.fabric ? 4 : 0)), (i) => this.allEngines[i]?.name ?? `engine ${i}`);
    const apmSlots = clusters * (uies + 5);
    this.apm = new Apm(config.apm, apmSlots);
    let apmSlot = 0;
    const port2 = (name, bpc) => {
      const p = new BandwidthPort(name, bpc);
      this.ports.push(p);
      return p;
    };
    const egress = [];
    const ingress = [];
    for (let c = 0; c < clusters; c++) {
      egress.push(port2(`c${c}.core_switch.egress`, coreSwitchBytesPerCycle(config)));
      ingress.push(port2(`c${c}.core_switch.ingress`, coreSwitchBytesPerCycle(config)));
    }
    const notifyLatency = linkLatency(config.trip_manager.notify_latency_cycles, "trip_manager.notify_latency_cycles");
    const icdmaLatency = linkLatency(config.icdma.latency_cycles, "icdma.latency_cycles");
    const nocLatency = linkLatency(config.noc.latency_cycles, "noc.latency_cycles");
    for (let c = 0; c < clusters; c++) {
      const cl = c;
      this.notifyLinks.push(this.sim.addLink(new TimedLink(`c${c}.barrier_notify`, notifyLatency, PHASE.tripManager, (m, now) => this.deliverNotify(cl, m, now))));
      this.icdmaAckLinks.push(this.sim.addLink(new TimedLink(`c${c}.icdma_commit`, 1, PHASE.engines, (m, now) => m.source.ackCommit(now))));
      this.nocLinks.push(this.sim.addLink(new TimedLink(`c${c}.noc_in`, nocLatency, PHASE.engines, (m) => this.noc.write(m.target, m.data, CLIENT_MPE))));
    }
    for (let c = 0; c < clusters; c++) {
      const amem = this.amem[c];
      const inPort = ingress[c];
      this.icdmaLinks.push(this.sim.addLink(new TimedLink(`c${c}.core_switch_in`, icdmaLatency, PHASE.engines, (m, now) => deliverIcdmaChunk(m, now, config, amem, inPort, this.icdmaAckLinks[m.source.cluster]))));
    }
    if (opts.fabric) {
      this.fabricAdapter = new FabricAdapter({ clusters, fabric: opts.fabric, amem: this.amem, hbm: this.hbm, commitLatency: config.amem.write_commit_latency_cycles, coreSwitch: { egress, ingress }, observer: this.observer });
      this.fabric = this.fabricAdapter;
    }
    for (let c = 0; c < clusters; c++) {
      const bt = new BarrierTable(c, this.observer, config.barrier_timeout_cycles);
      this.barriers.push(bt);
      const hbmPort = port2(`c${c}.hbm`, hbmBytesPerCycle(config));
      const nocPort = port2(`c${c}.noc`, config.noc.bytes_per_cycle);
      const engines = /* @__PURE__ */ new Map();
      this.engines.push(engines);
      let tm;
      const done = (engine) => (trip, now) => {
        this.tripsByKind[trip.kind] = (this.tripsByKind[trip.kind] ?? 0) + 1;
        tm.complete(trip, now, engine);
      };
      const add = (qid, e) => {
        e.commitKey = engineKey(c, qid);
        e.kernel = this.sim;
        engines.set(qid, e);
        this.engineIndex.set(e, this.allEngines.length);
        this.allEngines.push(e);
      };
      for (let u = 0; u < uies; u++) {
        const name = `c${c}.uie${u}`;
        const slot = new UieSlot(c, u, done(name), this.apm, apmSlot++);
        slot.model = opts.uieFactory?.({
          cluster: c,
          index: u,
          name,
          amem: this.amem[c],
          cfg: this.cfg[c],
          cfgBase: u * UIE_CFG_STRIDE,
          writeCommitLatency: config.amem.write_commit_latency_cycles,
          params: config,
          onTripDone: (tripId, cycle) => slot.retire(tripId, cycle),
          onPartialWrite: (byteAddr, tripId, cycle) => {
            const t = slot.inflightTrip(tripId);
            if (t)
              this.ordering.partialWrite(t, slot.cluster, byteAddr, cycle);
          }
        });
        slot.window = new RunAheadWindow(opts.quantum ?? 1, this.sim);
        slot.gate = this.runAheadGate;
        this.uies.push(slot);
        add(tripQueueId("uie", u), slot);
      }
      add(tripQueueId("h2a"), new HbmDmaEngine(c, "h2a", done(`c${c}.h2a`), config, this.hbm, this.amem[c], hbmPort, port2(`c${c}.h2a`, config.h2a.bytes_per_cycle), this.apm, apmSlot++));
      add(tripQueueId("a2h"), new HbmDmaEngine(c, "a2h", done(`c${c}.a2h`), config, this.hbm, this.amem[c], hbmPort, port2(`c${c}.a2h`, config.a2h.bytes_per_cycle), this.apm, apmSlot++));
      for (let i = 0; i < ICDMAS_PER_CLUSTER; i++) {
        const dest = icdmaDestination(c, i);
        if (dest >= clusters)
          continue;
        const icdma = new IcdmaEngine(c, i, dest, done(`c${c}.icdma${i}`), config, this.amem[c], this.icdmaLinks[dest], port2(`c${c}.icdma${i}`, config.icdma.bytes_per_cycle), egress[c], this.apm, apmSlot++);
        icdma.warn = (k, d2) => this.warnOnce(k, d2);
        add(tripQueueId("icdma", i), icdma);
      }
      const windows2 = opts.remap?.[c];
      const mpeWrite = port2(`c${c}.mpe_write`, config.mpe.write_bytes_per_cycle * MPES_PER_CLUSTER);
      for (let i = 0; i < MPES_PER_CLUSTER; i++) {
        const m = new MpeEngine(c, i, done(`c${c}.mpe${i}`), config, this.noc, nocPort, mpeWrite, windows2?.mpe ?? defaultWindows(c), this.nocLinks);
        this.mpes.push(m);
        add(tripQueueId("mpe", i), m);
      }
      add(tripQueueId("barrier_config"), new BarrierConfigEngine(c, done(`c${c}.barrier_config`), bt, config.barrier_config.latency_cycles));
      if (this.fabricAdapter)
        for (const e of this.fabricAdapter.makeQueueEngines(c, (qid) => done(`c${c}.${queueKind(qid).kind}${queueKind(qid).index}`)))
          add(tripQueueId(e.kind === "rdma_tx" ? "rdma_tx" : "rdma_rx", Number(e.name.slice(-1))), e);
      const dpe = new DescriptorPrefetchEngine(c, config, this.noc, nocPort, windows2?.dpe ?? defaultWindows(c), (q) => engines.has(q));
      this.dpe.push(dpe);
      tm = new TripManager(c, config, dpe, bt, engines, (g, now, at2, engine, trip) => this.sendNotify(g, now, at2, engine, trip), this.observer);
      tm.tripName = (id) => this.tripNames.get(id);
      const cl = c;
      tm.onRelease = (trip, qid, barrierId) => {
        const e = engines.get(qid);
        if (e)
          this.ordering.released(trip, this.engineIndex.get(e), cl, barrierId);
      };
      bt.onFree = (id) => this.ordering.freed(cl, id);
      tm.onFlushQuiescent = (now) => bt.reinitialize(now);
      this.tm.push(tm);
      this.installCsrHooks(c);
      if (this.fabricAdapter)
        installFabricCsrs(this.cfg[c], c, this.fabricAdapter);
      const d = dpe;
      installControlCsrs({
        cluster: c,
        cfg: this.cfg[c],
        uies: this.uies.filter((u) => u.cluster === c),
        tm,
        barriers: bt,
        queuesEmpty: () => !d.busy && d.queued === 0,
        now: () => this.sim.now,
        warnOnce: (k, w) => this.warnOnce(k, w)
      });
    }
    this.host = new HostAgent(this, this.records);
    this.apm.kernel = this.sim;
    const all2 = [this.host];
    for (let c = 0; c < clusters; c++)
      all2.push(this.dpe[c], this.tm[c]);
    all2.push(...this.allEngines, this.apm);
    if (this.fabricAdapter)
      all2.push(this.fabricAdapter);
    for (const e of opts.registrationSeed === void 0 ? all2 : shuffled(all2, opts.registrationSeed))
      this.register(e);
    this.sim.addExplainer(() => this.explainBarriers());
    if (this.fabricAdapter) {
      const fa = this.fabricAdapter;
      this.sim.addExplainer(() => fa.explain());
    }
  }
  /** Set once no trip can ever be started again on the chip (absorbing; re-checked at most once per cycle). */
  quiet = false;
  quietCheckedAt = -1;
  /**
   * No engine can ever start a trip again: the host has nothing left to enqueue or write, every DPE is idle with
   * empty prefetch queues, every trip-manager slot is idle and no MPE (the only engine that can write the enqueue
   * CSR, through the NoC) is running. Nothing can then enqueue a list again, so the state is final.
   */
  noMoreTrips() {
    if (this.host.busy)
      return false;
    for (const d of this.dpe)
      if (d.busy || d.queued !== 0)
        return false;
    for (const m of this.mpes)
      if (m.busy)
        return false;
    for (const t of this.tm) {
      if (t.csrLaunchesPending)
        return false;
      for (const s of t.slots)
        if (s.state !== 0)
          return false;
    }
    return true;
  }
  /**
   * The run-ahead gate of the UIE slots (docs/simulator.md "Quantum"). With APM enabled a UIE must be admitted on
   * every cycle of the window: utilisation 1 now, and no trip start anywhere (RequestedPower then only falls, §13).
   * Without APM it suffices that no trip can be started on this UIE: either never again, or not while its tracking
   * IDs / descriptor FIFOs are full (run-ahead then stops when that changes).
   */
  runAheadGate = (slot, now) => {
    const apmOn = this.opts.config.apm.enabled;
    if (apmOn && this.apm.utilization < 1)
      return 0;
    if (this.host.polling)
      return 0;
    if (!this.quiet && this.quietCheckedAt !== now) {
      this.quietCheckedAt = now;
      this.quiet = this.noMoreTrips();
    }
    if (!this.controlIdle(now))
      return 0;
    if (this.quiet)
      return 1;
    if (apmOn)
      return 0;
    return slot.canAccept() ? 0 : 2;
  };
  idleCheckedAt = -1;
  idle = false;
  /** No trip engine other than the UIEs is busy (evaluated once per cycle, so every UIE sees the same answer). */
  controlIdle(now) {
    if (this.idleCheckedAt !== now) {
      this.idleCheckedAt = now;
      if (this.controlEngines.length + this.uieCount !== this.allEngines.length) {
        this.controlEngines = this.allEngines.filter((e) => !(e instanceof UieSlot));
        this.uieCount = this.allEngines.length - this.controlEngines.length;
      }
      const ce = this.controlEngines;
      let idle = true;
      for (let i = 0; i < ce.length; i++)
        if (ce[i].busy) {
          idle = false;
          break;
        }
      this.idle = idle && !this.fabricAdapter?.busy;
    }
    return this.idle;
  }
  controlEngines = [];
  uieCount = 0;
  register(e) {
    this.sim.add(e);
    this.observer.registerEngine(e);
  }
  get clusters() {
    return this.opts.clusters;
  }
  /** Queues the image's enqueue records for the host agent. */
  addEnqueueRecords(records) {
    this.records.push(...records);
    this.host.wake();
  }
  /** The enqueue CSR (§11.5.1.1): false when the ring is full. */
  enqueue(r, now) {
    if (r.cluster >= this.clusters)
      throw runtimeError(SimCodes.noEngine, `enqueue to cluster ${r.cluster}, but only ${this.clusters} cluster(s) are simulated (see --clusters)`, "\xA711.5.1", now);
    if (r.queue_id >= TRIP_QUEUES || !queueKind(r.queue_id))
      throw runtimeError(SimCodes.badEnqueue, `enqueue to queue 0x${r.queue_id.toString(16)}: not a trip descriptor queue (Table 11-1: 0x00-0x${(TRIP_QUEUES - 1).toString(16)})`, "\xA711.5", now);
    if (r.descriptor_list_address % 8 !== 0)
      throw runtimeError(SimCodes.misaligned, `descriptor list address 0x${r.descriptor_list_address.toString(16)} is not 8-byte aligned`, "\xA711.5.1.1", now);
    return this.dpe[r.cluster].enqueue(r.queue_id, r.descriptor_list_address, r.descriptor_list_length);
  }
  /**
   * notify() of a global barrier id {cluster[1:0], local[9:0]} (§11.6.4) by a trip completed at `now`: sent over the
   * barrier link of that cluster (the own cluster's too, so that every notification reaches its table the same way),
   * applied at `at` before the trip managers tick.
   */
  sendNotify(g, now, at2, engine, trip) {
    const c = g >> 10;
    const id = g & 1023;
    if (c >= this.clusters)
      throw runtimeError(SimCodes.noEngine, `${engine} trip ${trip.tripId} notifies barrier ${c}:${id} of cluster ${c}, which is not simulated (see --clusters)`, "\xA711.6.4", now);
    this.notifyLinks[c].send(now, at2, engineKey(trip.cluster, trip.qid), { id, engine, trip });
  }
  deliverNotify(c, m, now) {
    this.ordering.notified(m.trip, c, m.id);
    this.barriers[c].notify(m.id, now, m.engine, m.trip.tripId);
  }
  installCsrHooks(c) {
    const cfg = this.cfg[c];
    const enq = loadTable("pyxis", CLUSTER_CSRS.enqueue.table);
    const decr = loadTable("pyxis", CLUSTER_CSRS.bt_mem_decrement.table);
    const intr = loadTable("pyxis", CLUSTER_CSRS.barrier_interrupt_config.table);
    const entry = (r, a) => a >= r.offset && a < r.offset + r.words * r.stride && (a - r.offset) % r.stride === 0 ? (a - r.offset) / r.stride : -1;
    let e;
    cfg.watch(CLUSTER_CSR_BASE, CSR_END, (addr, src, off, len) => {
      for (let a = addr - addr % 8; a < addr + len; a += 8) {
        const word = new Uint8Array(8);
        for (let i = 0; i < 8; i++) {
          const s = a + i - addr;
          word[i] = s >= 0 && s < len ? src[off + s] : cfg.byte(a + i);
        }
        const now = this.sim.now;
        if (entry(CLUSTER_CSRS.enqueue, a) === 0) {
          const v = decode(enq, word);
          const r = { cluster: c, queue_id: Number(v["queue_id"]), descriptor_list_address: Number(v["descriptor_list_address"]), descriptor_list_length: Number(v["descriptor_list_length"]) };
          if (!this.enqueue(r, now))
            throw runtimeError(SimCodes.queueFull, `enqueue CSR write to queue 0x${r.queue_id.toString(16)} of cluster ${c} while its 4-entry ring is full`, "\xA711.5.1", now);
        } else if ((e = entry(CLUSTER_CSRS.bt_mem_decrement, a)) >= 0) {
          const v = decode(decr, word);
          this.barriers[c].softwareDecrement(e, Number(v["wait_decr"]), Number(v["notif_decr"]), Number(v["trip_id"]), now);
        } else if ((e = entry(CLUSTER_CSRS.barrier_interrupt_config, a)) >= 0) {
          const v = decode(intr, word);
          this.barriers[c].configureInterrupt(e, Number(v["interrupt_valid"]) === 1, Number(v["barrier_id"]));
        }
      }
    });
  }
  /** Wait-graph lines for barriers that are not in the reset state. */
  explainBarriers() {
    const lines = [];
    const now = this.sim.now;
    for (const bt of this.barriers) {
      for (const b of bt.pending(now)) {
        const who = b.waiters.length ? `; blocked: ${b.waiters.join(", ")}` : "";
        const why = !b.refCountsValid ? "never set up (no set_ref_counts yet)" : b.notifyCount > 0 ? `${b.notifyCount} notification(s) missing` : b.waitCount > 0 ? `${b.waitCount} consumer wait(s) outstanding` : "complete";
        const roles = this.image?.barrierRoles.get(bt.cluster * 1024 + b.id);
        const exp = roles ? `; producers: ${roles.producers.join(", ") || "-"}; consumers: ${roles.consumers.join(", ") || "-"}` : "";
        lines.push(`barrier ${bt.cluster}:${b.id}: notify_count=${b.notifyCount} wait_count=${b.waitCount} ref_counts_valid=${b.refCountsValid ? 1 : 0} (${why})${who}${exp}`);
      }
    }
    return lines;
  }
};

// packages/target-pyxis/dist/sim/fabric/systemFailures.js
function chipFabricOutcome(chip) {
  const failures = [];
  const rx_drops = Object.fromEntries(DROP_REASONS.map((r) => [r, 0]));
  const fa = chip.fabricAdapter;
  if (!fa)
    return { failures, rx_drops };
  const host2 = chip.host;
  const waited = /* @__PURE__ */ new Map();
  for (let i = 0; i < host2.actionsDone; i++) {
    const a = host2.actions[i];
    if (a.afterInterrupt?.entry === FABRIC_JOB_FAILED_INTERRUPT)
      waited.set(a.cluster, Math.max(waited.get(a.cluster) ?? 0, a.afterInterrupt.count));
  }
  const seen = /* @__PURE__ */ new Map();
  for (const f of fa.failures) {
    const occ = (seen.get(f.cluster) ?? 0) + 1;
    seen.set(f.cluster, occ);
    failures.push({ ...f, recovered: (waited.get(f.cluster) ?? 0) >= occ, text: describeFailure(f) });
  }
  for (const c of fa.clusterStats)
    for (const r of DROP_REASONS)
      rx_drops[r] += c.rx_drops[r];
  return { failures, rx_drops };
}

// packages/target-pyxis/dist/sim/image.js
function inspectImage(container, file) {
  return readImage(container, file);
}
function attachImageSpan(e, image) {
  if (!(e instanceof DiagnosticError))
    return;
  const d = e.diagnostics[0];
  if (!d)
    return;
  let at2;
  let length;
  if (e instanceof SimRuntimeError && e.at && !d.span) {
    at2 = e.at;
    length = e.length;
  } else if (d.span && isByteSpan(d.span)) {
    const m = /^c(\d+)\.uie\d+\.\w+\.op$/.exec(d.span.file);
    if (m)
      at2 = { space: "cfg", cluster: Number(m[1]), addr: d.span.offset };
  }
  const hit2 = at2 ? locateInImage(image, at2) : void 0;
  if (!hit2)
    return;
  if (hit2.section.fileOffset !== void 0 || !d.span)
    d.span = sectionSpan(image.file, hit2.section, hit2.within, length);
  const zero = hit2.section.kind === "zero" ? " (zero-filled: the section stores no bytes in the file)" : "";
  d.notes = [...d.notes ?? [], `the bytes are image section ${hit2.index} \`${hit2.section.name}\` + 0x${hit2.within.toString(16)}, as the image loaded them${zero}`];
}
function loadImage(chip, image) {
  for (const p of image.placed) {
    const s = p.section;
    if (p.cluster >= chip.clusters)
      throw new DiagnosticError({
        severity: "error",
        code: SimCodes.noEngine,
        message: `section ${p.index} \`${s.name}\` is in cluster ${p.cluster}, but only ${chip.clusters} cluster(s) are simulated (see --clusters)`,
        span: sectionSpan(image.file, s)
      });
    if (s.kind === "zero" && p.space === "hbm")
      chip.hbm.fill(p.addr, s.size, 0);
    else if (s.kind === "zero" && p.space === "cfg")
      chip.cfg[p.cluster].fill(p.addr, s.size, 0);
    else {
      const data2 = s.kind === "zero" ? new Uint8Array(s.size) : s.data;
      if (p.space === "hbm")
        chip.hbm.writeBytes(p.addr, data2);
      else if (p.space === "amem")
        chip.amem[p.cluster].writeBytes(p.addr, data2);
      else
        chip.cfg[p.cluster].writeBytes(p.addr, data2);
    }
  }
  if (chip.fabricAdapter)
    for (const r of image.dgramRings)
      chip.fabricAdapter.configureRing(r.cluster, r.queueId, { space: r.space, cluster: r.memCluster, address: r.address, entries: r.entries, tail: r.entries - 1 });
  chip.addEnqueueRecords(image.records);
  for (const a of image.hostActions)
    if (a.cluster >= chip.clusters)
      throw imageError(image.file, SimCodes.noEngine, `metadata.pyxis.host_actions: cluster ${a.cluster} is not simulated (see --clusters)`);
  chip.host.addActions(image.hostActions);
  chip.image = image;
  chip.observer.tripName = (id) => image.tripNames.get(id);
}

// packages/target-pyxis/dist/sim/imageChip.js
function chipFor(image, opts) {
  const { clusters, uies } = chipSize(image, opts);
  const { clusters: _c, uies: _u, ...rest } = opts;
  return new PyxisChip({ ...rest, clusters, uies, ...image.remap ? { remap: image.remap } : {} });
}
function loadedChipFor(image, opts) {
  const chip = chipFor(image, opts);
  loadImage(chip, image);
  resetMemoryCounters(chip);
  return chip;
}
function resetMemoryCounters(chip) {
  chip.hbm.bytesRead = chip.hbm.bytesWritten = chip.hbm.uninitReads = 0;
  for (const a of chip.amem) {
    a.stats.bytesRead = a.stats.bytesWritten = a.stats.uninitReads = 0;
    a.stats.bankAccesses.fill(0);
    a.banks.resetStats();
  }
}

// packages/target-pyxis/dist/sim/uninit.js
var AMEM_READS = ["readPartition", "readPartition32", "readWord32", "readWordPerm32"];
var UninitWatch = class {
  now;
  limit;
  sites = /* @__PURE__ */ new Map();
  enabled = true;
  constructor(now, limit = 16) {
    this.now = now;
    this.limit = limit;
  }
  note(memory, unit, blockBits, addr, count) {
    const key = `${memory}:${Math.floor(addr / 2 ** blockBits)}`;
    const now = this.now();
    const s = this.sites.get(key);
    if (s) {
      s.count += count;
      s.lastCycle = now;
    } else
      this.sites.set(key, { memory, unit, addr, count, firstCycle: now, lastCycle: now });
  }
  /** Wraps the datapath reads of one AMEM instance (block = 16 KiB of the view address). */
  watchAmem(a) {
    const self = this;
    for (const m of AMEM_READS) {
      const orig = a[m];
      const wrapped = function(addr, ...rest) {
        const before = a.stats.uninitReads;
        orig.call(a, addr, ...rest);
        if (self.enabled && a.stats.uninitReads !== before)
          self.note(a.name, "16-byte partitions", 14, addr, a.stats.uninitReads - before);
      };
      Object.defineProperty(a, m, { value: wrapped, configurable: true, writable: true });
    }
  }
  /** Wraps the byte reads of a sparse memory (HBM; page = 64 KiB). */
  watchSparse(mem) {
    const self = this;
    const orig = mem.read;
    const wrapped = function(addr, dst, off, len) {
      const before = mem.uninitReads;
      orig.call(mem, addr, dst, off, len);
      if (self.enabled && mem.uninitReads !== before)
        self.note(mem.name, "bytes", 16, addr, mem.uninitReads - before);
    };
    Object.defineProperty(mem, "read", { value: wrapped, configurable: true, writable: true });
  }
  /** Stops recording (reads made after the run, e.g. by dumps, are not the program's). */
  stop() {
    this.enabled = false;
  }
  get count() {
    return this.sites.size;
  }
  /** One SIM0014 warning per block/page read while never written (first `limit`), in order of first read. */
  warnings() {
    const all2 = [...this.sites.values()].sort((x, y) => x.firstCycle - y.firstCycle || x.addr - y.addr);
    const out = all2.slice(0, this.limit).map((s) => warning(SimCodes.uninitRead, `cycle ${s.firstCycle}: read of uninitialised ${s.memory} at 0x${s.addr.toString(16)} (${s.count} ${s.unit} never written${s.lastCycle !== s.firstCycle ? `, until cycle ${s.lastCycle}` : ""})`, { notes: ["uninitialised memory reads as zero"] }));
    if (all2.length > this.limit)
      out.push(warning(SimCodes.uninitRead, `${all2.length - this.limit} more uninitialised block(s)/page(s) read (first ${this.limit} listed)`));
    return out;
  }
};

// packages/target-pyxis/dist/sim/vpuStats.js
var VBUF_SEQS = ["sb2vb", "vb2vpu", "vpu2vb", "vb2sb"];
var READERS = /* @__PURE__ */ new Set(["vb2vpu", "vb2sb"]);
var BY_VI = ["vpuBusy", "vpuInstructions", "vpuLaneOps", "vpuPrograms"];
var VBUF_COUNTERS = VBUF_SEQS.flatMap((k) => [`${k}Rows`, `${k}Empty`, `${k}Full`, ...READERS.has(k) ? [`${k}Scratchpad`] : []]);
var n = (c, k) => c[k] ?? 0;
function vpuFigures(c, cycles) {
  const busy = n(c, "vpuBusy");
  const laneOps = n(c, "vpuLaneOps");
  const inF = n(c, "stallVpuIn");
  const outF = n(c, "stallVpuOut");
  if (busy + n(c, "vpuInstructions") + n(c, "vpuPrograms") + inF + outF === 0)
    return void 0;
  return {
    busy_cycles: busy,
    utilisation: cycles > 0 ? busy / cycles : 0,
    instructions: n(c, "vpuInstructions"),
    programs: n(c, "vpuPrograms"),
    lane_ops: laneOps,
    lane_utilisation: cycles > 0 ? laneOps / (LANES * cycles) : 0,
    stall_cycles: { in_fifo: inF, out_fifo: outF }
  };
}
function vbufFigures(c) {
  const sequencers = {};
  let any = false;
  let sp = 0;
  for (const k of VBUF_SEQS) {
    const f = { rows: n(c, `${k}Rows`), empty: n(c, `${k}Empty`), full: n(c, `${k}Full`) };
    if (READERS.has(k)) {
      f.scratchpad = n(c, `${k}Scratchpad`);
      sp += f.scratchpad;
    }
    if (f.rows + f.empty + f.full + (f.scratchpad ?? 0) > 0)
      any = true;
    sequencers[k] = f;
  }
  if (!any)
    return void 0;
  return { rows_written: n(c, "sb2vbRows") + n(c, "vpu2vbRows"), rows_read: n(c, "vb2sbRows") + n(c, "vb2vpuRows"), scratchpad_waits: sp, sequencers };
}
function vpuWorked(c) {
  return n(c, "vpuInstructions") + n(c, "sb2vbRows") + n(c, "vpu2vbRows") + n(c, "vb2sbRows") + n(c, "vb2vpuRows") > 0;
}

// packages/target-pyxis/dist/sim/uieTripStats.js
var MAX_TRIP_RECORDS = 256;
var STALLS = [
  ["hbuf_write_credits", "stallHbufWrCredits"],
  ["hbuf_read_credits", "stallHbufRdCredits"],
  ["wdc_empty", "stallWdcEmpty"],
  ["wdc_full", "stallWdcFull"],
  ["hlane_busy", "stallHlaneBusy"],
  ["staging", "stallStaging"],
  ["h_data", "stallHData"],
  ["v_data", "stallVData"],
  ["writeback_credits", "stallWbCredits"],
  ["writeback_pending", "stallWbPending"],
  ["writeback_kick", "stallWbKick"],
  ["switchbox_full", "stallSwitchboxFull"],
  ["amem_port", "stallAmemPort"],
  ["vbuffer", "vbufStalls"],
  ["vpu_in_fifo", "stallVpuIn"],
  ["vpu_out_fifo", "stallVpuOut"]
];
var COUNTERS = ["macs", "execValid", "execBubble", "execConfig", "execNop", "splits", "writebacks", "wbFlits", ...STALLS.map(([, k]) => k), ...BY_VI, ...VBUF_COUNTERS];
var BY_GX = ["macs", "execValid", "execBubble", "execConfig", "execNop", "splits"];
var BY_GWB = ["writebacks", "wbFlits"];
var ATTRIBUTED = [...BY_GX, ...BY_GWB, ...BY_VI];
var ATTRIBUTED_ORDER = "macs execValid execBubble execConfig execNop splits writebacks wbFlits vpuBusy vpuInstructions vpuLaneOps vpuPrograms";
if (ATTRIBUTED.join(" ") !== ATTRIBUTED_ORDER)
  throw new Error(`uieDefault: ATTRIBUTED is not in the order of ComputeTrips.mark (${ATTRIBUTED.join(" ")})`);
var ComputeTrips = class {
  timingOnly;
  open = /* @__PURE__ */ new Map();
  /** Trips accepted whose programs have not started yet: [trip id, trip slot]. */
  pending = [];
  /** Per open trip: the ATTRIBUTED counters (BY_GX, BY_GWB, BY_VI) attributed to it. */
  own = /* @__PURE__ */ new Map();
  done = [];
  tripsDone = 0;
  /** Cycles with at least one trip in flight (union of the trip intervals). */
  activeCycles = 0;
  inflight = 0;
  since = 0;
  constructor(timingOnly) {
    this.timingOnly = timingOnly;
  }
  snapshot(s) {
    return COUNTERS.map((k) => s[k]);
  }
  start(tripId, slot, s, bytes) {
    this.open.set(tripId, { start: -1, snap: this.snapshot(s), bytes });
    this.own.set(tripId, new Float64Array(ATTRIBUTED.length));
    this.pending.push([tripId, slot]);
  }
  before = new Float64Array(ATTRIBUTED.length);
  /** Before the model simulates a cycle: remember the attributed counters (once per cycle: plain loads, no allocation). */
  mark(s) {
    const b = this.before;
    b[0] = s.macs;
    b[1] = s.execValid;
    b[2] = s.execBubble;
    b[3] = s.execConfig;
    b[4] = s.execNop;
    b[5] = s.splits;
    b[6] = s.writebacks;
    b[7] = s.wbFlits;
    b[8] = s.vpuBusy;
    b[9] = s.vpuInstructions;
    b[10] = s.vpuLaneOps;
    b[11] = s.vpuPrograms;
  }
  /** Whether any attributed counter moved since `mark`. */
  changed(s) {
    const b = this.before;
    return s.macs !== b[0] || s.execValid !== b[1] || s.execBubble !== b[2] || s.execConfig !== b[3] || s.execNop !== b[4] || s.splits !== b[5] || s.writebacks !== b[6] || s.wbFlits !== b[7] || s.vpuBusy !== b[8] || s.vpuInstructions !== b[9] || s.vpuLaneOps !== b[10] || s.vpuPrograms !== b[11];
  }
  /** Trip whose GX instruction began the running split (-1 none): the split is its work, whenever it completes. */
  splitTrip = -1;
  /**
   * After it: what changed goes to the trips whose instructions GX, GWB and VI executed (-1 = none). Plain field
   * reads in `mark`'s order (ATTRIBUTED): a keyed read per counter and a map look-up per unit cost more per cycle
   * than the rest of the bookkeeping; a unit's trip is looked up only when one of its counters moved.
   */
  attribute(s, gxTrip, gwbTrip, viTrip) {
    const b = this.before;
    const dMacs = s.macs - b[0];
    const dValid = s.execValid - b[1];
    const dBubble = s.execBubble - b[2];
    const dConfig = s.execConfig - b[3];
    const dNop = s.execNop - b[4];
    const dSplits = s.splits - b[5];
    if (dMacs !== 0 || dValid !== 0 || dBubble !== 0 || dConfig !== 0 || dNop !== 0) {
      const g = this.own.get(gxTrip);
      if (g) {
        g[0] += dMacs;
        g[1] += dValid;
        g[2] += dBubble;
        g[3] += dConfig;
        g[4] += dNop;
      }
    }
    if (dSplits !== 0) {
      const sp = this.own.get(this.splitTrip >= 0 ? this.splitTrip : gxTrip);
      if (sp)
        sp[5] += dSplits;
    }
    const dWb = s.writebacks - b[6];
    const dFlits = s.wbFlits - b[7];
    if (dWb !== 0 || dFlits !== 0) {
      const w = this.own.get(gwbTrip);
      if (w) {
        w[6] += dWb;
        w[7] += dFlits;
      }
    }
    const dBusy = s.vpuBusy - b[8];
    const dInstr = s.vpuInstructions - b[9];
    const dLanes = s.vpuLaneOps - b[10];
    const dProg = s.vpuPrograms - b[11];
    if (dBusy !== 0 || dInstr !== 0 || dLanes !== 0 || dProg !== 0) {
      const v = this.own.get(viTrip);
      if (v) {
        v[8] += dBusy;
        v[9] += dInstr;
        v[10] += dLanes;
        v[11] += dProg;
      }
    }
  }
  /**
   * After the model simulated cycle `now`: a pending trip starts at the first cycle one of its sequencers runs its
   * program (trips queued behind a running trip, chip §11.7.1 tracking IDs, are not counted while they wait).
   */
  resolve(now, running) {
    let n2 = 0;
    for (const p of this.pending) {
      if (!running(p[1])) {
        this.pending[n2++] = p;
        continue;
      }
      const o = this.open.get(p[0]);
      if (o)
        o.start = now;
      if (this.inflight++ === 0)
        this.since = now;
    }
    this.pending.length = n2;
  }
  /** A trip that retires without having been seen running (no program, or retired within a run-ahead window). */
  settle(tripId, cycle) {
    const i = this.pending.findIndex((p) => p[0] === tripId);
    if (i < 0)
      return;
    this.pending.splice(i, 1);
    const o = this.open.get(tripId);
    if (o)
      o.start = cycle;
    if (this.inflight++ === 0)
      this.since = cycle;
  }
  retire(tripId, cycle, s, bytes) {
    this.settle(tripId, cycle);
    if (this.inflight > 0 && --this.inflight === 0)
      this.activeCycles += cycle + 1 - this.since;
    const o = this.open.get(tripId);
    const own = this.own.get(tripId);
    this.open.delete(tripId);
    this.own.delete(tripId);
    this.tripsDone++;
    if (!o || this.done.length >= MAX_TRIP_RECORDS)
      return;
    const now = this.snapshot(s);
    const counters = {};
    COUNTERS.forEach((k, i) => counters[k] = now[i] - o.snap[i]);
    if (own)
      ATTRIBUTED.forEach((k, i) => counters[k] = own[i]);
    this.done.push({ trip_id: tripId, start_cycle: o.start, end_cycle: cycle, counters, amem_bytes: bytes - o.bytes });
  }
  /** Active cycles including a trip still in flight at `now`. */
  active(now) {
    return this.activeCycles + (this.inflight > 0 ? now + 1 - this.since : 0);
  }
};
function tripOf(u, x) {
  const at2 = x.dec.peekSlot();
  if (at2 < 0)
    return -1;
  const sl = u.trips.slots[x.dec.data[at2 + H_SLOT]];
  return sl?.active ? sl.tripId : -1;
}
var UieTripStats = class {
  book;
  u;
  st;
  // the units whose decoder FIFO heads name the trip of their work (fixed at attach: no look-up per cycle)
  gx;
  gwb;
  vi;
  lastGx = -1;
  lastGwb = -1;
  lastVi = -1;
  // this cycle's trips at the heads of GX, GWB, VI (beforeCycle) and whether a split was running then
  g = -1;
  w = -1;
  v = -1;
  splitBefore = false;
  running = (slot) => {
    for (const q of this.u.seqs)
      if (q.slot === slot && q.core.running)
        return true;
    return false;
  };
  constructor(timingOnly) {
    this.book = new ComputeTrips(timingOnly);
  }
  attach(u) {
    this.u = u;
    this.st = u.cmp.stats;
    this.gx = u.cmp.gx;
    this.gwb = u.cmp.gwb;
    this.vi = u.cmp.vi;
  }
  bytes() {
    return this.u.stats.bytesRead + this.u.stats.bytesWritten;
  }
  tripAccepted(tripId, slot) {
    this.book.start(tripId, slot, this.st, this.bytes());
  }
  beforeCycle(_now) {
    const u = this.u;
    const g = this.g = tripOf(u, this.gx);
    const w = this.w = tripOf(u, this.gwb);
    const v = this.v = tripOf(u, this.vi);
    if (g >= 0)
      this.lastGx = g;
    if (w >= 0)
      this.lastGwb = w;
    if (v >= 0)
      this.lastVi = v;
    this.book.mark(this.st);
    this.splitBefore = this.gx.splitRunning;
  }
  afterCycle(now) {
    const book = this.book;
    const u = this.u;
    const gx = this.gx;
    const gwb = this.gwb;
    const vi = this.vi;
    let g = this.g;
    let w = this.w;
    let v = this.v;
    if (!this.splitBefore && gx.splitRunning)
      book.splitTrip = g >= 0 ? g : this.lastGx;
    if (book.changed(this.st)) {
      if (g < 0)
        g = tripOf(u, gx) >= 0 ? tripOf(u, gx) : this.lastGx;
      if (w < 0)
        w = tripOf(u, gwb) >= 0 ? tripOf(u, gwb) : this.lastGwb;
      if (v < 0)
        v = tripOf(u, vi) >= 0 ? tripOf(u, vi) : this.lastVi;
      book.attribute(this.st, g, w, v);
    }
    if (book.pending.length)
      book.resolve(now, this.running);
  }
  vpuCycle(now, laneOps) {
    let v = tripOf(this.u, this.vi);
    if (v >= 0)
      this.lastVi = v;
    else
      v = this.lastVi;
    const o = this.book.own.get(v);
    if (o) {
      o[8] += 1;
      o[9] += 1;
      o[10] += laneOps;
    }
    if (this.book.pending.length)
      this.book.resolve(now, this.running);
  }
  tripRetired(tripId, cycle) {
    this.book.retire(tripId, cycle, this.st, this.bytes());
  }
};

// packages/target-pyxis/dist/sim/uieDefault.js
function makeUieFactory(opts = {}) {
  return (o) => new Uie({
    cluster: o.cluster,
    index: o.index,
    amem: o.amem,
    cfg: o.cfg,
    cfgBase: o.cfgBase,
    writeCommitLatency: o.writeCommitLatency,
    params: o.params,
    onTripDone: o.onTripDone,
    onPartialWrite: o.onPartialWrite,
    observer: new UieTripStats(opts.timingOnly ?? false),
    ...opts.timingOnly ? { timingOnly: true } : {}
  });
}
var defaultUieFactory = makeUieFactory();
function sequencerPcs(m) {
  if (!(m instanceof Uie))
    return void 0;
  return m.seqs.map((s) => () => s.core.pc);
}
function uieFifos(m) {
  if (!(m instanceof Uie))
    return void 0;
  const u = m;
  return [
    ["amem_read_decoder_fifo", () => u.rd.dec.occupancy],
    ["amem_write_decoder_fifo", () => u.wr.dec.occupancy],
    ["sb_amem_read_to_write", () => u.sbReadToWrite.occupancy]
  ];
}
function sequencerRunning(m) {
  if (!(m instanceof Uie))
    return void 0;
  return m.seqs.map((s) => ({ name: s.name, running: () => s.core.running, pc: () => s.core.pc, slot: () => s.slot }));
}
var FLOPS_PER_MAC = 2;
function figures(c, cycles, clockHz) {
  const stalls = {};
  for (const [name, k] of STALLS)
    if (c[k])
      stalls[name] = c[k];
  const seconds = cycles / clockHz;
  const vpu = vpuFigures(c, cycles);
  const vbuffer = vbufFigures(c);
  return {
    cycles,
    macs: c["macs"] ?? 0,
    tflops: seconds > 0 ? (c["macs"] ?? 0) * FLOPS_PER_MAC / seconds / 1e12 : 0,
    grid_utilisation: cycles > 0 ? (c["execValid"] ?? 0) / cycles : 0,
    exec_valid: c["execValid"] ?? 0,
    exec_bubble: c["execBubble"] ?? 0,
    exec_config: c["execConfig"] ?? 0,
    exec_nop: c["execNop"] ?? 0,
    splits: c["splits"] ?? 0,
    writebacks: c["writebacks"] ?? 0,
    wb_flits: c["wbFlits"] ?? 0,
    stall_cycles: stalls,
    ...vpu ? { vpu } : {},
    ...vbuffer ? { vbuffer } : {}
  };
}
function computeStats(u, clockHz) {
  const s = u.cmp.stats;
  const book = u.observer instanceof UieTripStats ? u.observer.book : void 0;
  const all2 = {};
  for (const k of COUNTERS)
    all2[k] = s[k];
  const used = COUNTERS.some((k) => s[k] > 0) || s.wdcWords + s.wdpWords + s.hbufReads > 0;
  if (!used && !u.cmp.timingOnly)
    return void 0;
  const active = book ? book.active(u.now) : u.now;
  return {
    timing_only: u.cmp.timingOnly,
    clock_hz: clockHz,
    ...figures(all2, active, clockHz),
    wdc_words: s.wdcWords,
    wdp_words: s.wdpWords,
    hbuf_bytes_written: s.hbufBytesWritten,
    hbuf_reads: s.hbufReads,
    trips: (book?.done ?? []).filter((t) => (t.counters["execValid"] ?? 0) + (t.counters["macs"] ?? 0) + (t.counters["wbFlits"] ?? 0) > 0 || vpuWorked(t.counters)).map((t) => ({ trip_id: t.trip_id, start_cycle: t.start_cycle, end_cycle: t.end_cycle, ...figures(t.counters, t.end_cycle + 1 - t.start_cycle, clockHz), amem_bytes: t.amem_bytes })),
    ...book && book.tripsDone > MAX_TRIP_RECORDS ? { trips_truncated: book.tripsDone - MAX_TRIP_RECORDS } : {}
  };
}
function uieStats(m, clockHz = 133e7) {
  if (!(m instanceof Uie))
    return void 0;
  const st = m.stats;
  const compute = computeStats(m, clockHz);
  return {
    instructions: Object.fromEntries(m.seqs.map((s) => [s.name, st.instructions[s.id]])),
    bytes_read: st.bytesRead,
    bytes_written: st.bytesWritten,
    pads_inserted: st.padsInserted,
    discards: st.discards,
    rmw_adds: st.rmwAdds,
    partial_writes: st.partialWrites,
    indirect_reads: st.indirectReads,
    indirect_writes: st.indirectWrites,
    flits_dropped: st.flitsDropped,
    ...compute ? { compute } : {}
  };
}

// packages/target-pyxis/dist/sim/vpuTrace.js
var VB_SEQS = ["sb2vb", "vb2vpu", "vpu2vb", "vb2sb"];
var VPU_KEYS = ["vpuPrograms", "vpuInstructions", "vpuBusy", "vpuLaneOps", "stallVpuIn", "stallVpuOut"];
var VPU_ARGS = ["programs", "instructions", "busy_cycles", "lane_ops", "in_fifo_waits", "out_fifo_waits"];
var vbKeys = (k) => [`${k}Rows`, `${k}Empty`, `${k}Full`, ...k === "vb2vpu" || k === "vb2sb" ? [`${k}Scratchpad`] : []];
var VB_ARGS = ["rows", "empty_waits", "full_waits", "scratchpad_waits"];
var VpuTracer = class {
  trace;
  name = "vpu_tracer";
  /** Samples the state at the end of the cycle, after every phase of the chip (engines.ts PHASE.observe). */
  phase = 5;
  group = "chip";
  spans = [];
  constructor(trace) {
    this.trace = trace;
  }
  /** Registers the VPU and the Vbuffer sequencers of a UIE model (ignored for other models). */
  add(m, uieName, group) {
    if (!(m instanceof Uie))
      return;
    const c = m.cmp;
    const mk = (unit, trackName, keys, args, label) => {
      const span = { group, trackName, unit, keys, args, label, since: -1, snap: new Float64Array(keys.length), diff: new Float64Array(keys.length) };
      this.spans.push({ span, stats: c.stats });
    };
    mk(c.vi, `${uieName}.vpu`, VPU_KEYS, VPU_ARGS, (d) => `vpu: ${d[1]} instructions`);
    for (const k of VB_SEQS)
      mk(c[k], `${uieName}.${k}.rows`, vbKeys(k), VB_ARGS, (d) => `${k}: ${d[0]} rows`);
  }
  get busy() {
    return false;
  }
  tick(now) {
    for (let i = 0; i < this.spans.length; i++) {
      const { span: s, stats } = this.spans[i];
      const work = !s.unit.dec.empty;
      if (work && s.since < 0) {
        s.since = now;
        for (let j = 0; j < s.keys.length; j++)
          s.snap[j] = stats[s.keys[j]];
      } else if (!work && s.since >= 0)
        this.emit(s, stats, now);
    }
    return false;
  }
  nextWake() {
    return Infinity;
  }
  blockedReason() {
    return void 0;
  }
  /** Closes the spans still open at the end of the run. */
  finish(now) {
    for (const { span, stats } of this.spans)
      if (span.since >= 0)
        this.emit(span, stats, now);
  }
  emit(s, stats, now) {
    for (let j = 0; j < s.keys.length; j++)
      s.diff[j] = stats[s.keys[j]] - s.snap[j];
    const args = {};
    for (let j = 0; j < s.keys.length; j++)
      args[s.args[j]] = s.diff[j];
    s.track ??= this.trace.track(s.group, s.trackName);
    this.trace.slice(s.track, s.since + 1, now + 1, s.label(s.diff), args, "vpu");
    s.since = -1;
  }
};
function vpuCounter(m, uieName, group) {
  if (!(m instanceof Uie))
    return void 0;
  const st = m.cmp.stats;
  let at2 = 0;
  let busy = 0;
  let lanes = 0;
  let wasZero = true;
  return {
    group,
    name: `${uieName} VPU utilisation`,
    rate: true,
    sample: (now) => {
      const dt = now - at2;
      const db = st.vpuBusy - busy;
      const dl = st.vpuLaneOps - lanes;
      at2 = now;
      busy = st.vpuBusy;
      lanes = st.vpuLaneOps;
      const zero = db === 0 && dl === 0;
      if (zero && wasZero)
        return void 0;
      wasZero = zero;
      return { busy_pct: dt > 0 ? Math.round(1e4 * db / dt) / 100 : 0, lanes_pct: dt > 0 ? Math.round(1e4 * dl / (LANES * dt)) / 100 : 0 };
    }
  };
}
function stateOf(st, a, b, c) {
  const last = new Float64Array(2 + c.length);
  const read = (i) => st[i === 0 ? a : i === 1 ? b : c[i - 2]];
  for (let i = 0; i < last.length; i++)
    last[i] = read(i);
  return () => {
    let s = 0;
    for (let i = last.length - 1; i >= 0; i--) {
      const v = read(i);
      if (v !== last[i])
        s = i === 0 ? 1 : i === 1 ? 2 : 3;
      last[i] = v;
    }
    return s;
  };
}
function vpuVcdProbes(m) {
  if (!(m instanceof Uie))
    return void 0;
  const st = m.cmp.stats;
  const vpu = m.cmp.vpu;
  const out = [
    ["vpu_state", 2, stateOf(st, "vpuBusy", "stallVpuIn", ["stallVpuOut"])],
    ["vpu_in_fifo", 3, () => vpu.inCount],
    ["vpu_out_fifo", 3, () => vpu.outCount]
  ];
  for (const k of VB_SEQS) {
    const [rows, empty, ...rest] = vbKeys(k);
    out.push([`${k}_state`, 2, stateOf(st, rows, empty, rest)]);
  }
  return out;
}

// packages/target-pyxis/dist/sim/gridTrace.js
function bankCounter(bankAccesses, cluster2, group) {
  const last = new Float64Array(bankAccesses.length);
  let wasZero = true;
  return {
    group,
    name: `c${cluster2} AMEM bank accesses`,
    rate: true,
    sample: () => {
      const out = {};
      let any = false;
      for (let b = 0; b < bankAccesses.length; b++) {
        const d = bankAccesses[b] - last[b];
        last[b] = bankAccesses[b];
        if (d > 0) {
          out[`b${b}`] = d;
          any = true;
        }
      }
      if (!any && wasZero)
        return void 0;
      wasZero = !any;
      return any ? out : { b0: 0 };
    }
  };
}
function gridCounter(m, uieName, group) {
  if (!(m instanceof Uie))
    return void 0;
  const st = m.cmp.stats;
  let at2 = 0;
  let valid = 0;
  let macs = 0;
  let wasZero = true;
  return {
    group,
    name: `${uieName} grid utilisation`,
    rate: true,
    sample: (now) => {
      const dt = now - at2;
      const dv = st.execValid - valid;
      const dm = st.macs - macs;
      at2 = now;
      valid = st.execValid;
      macs = st.macs;
      const zero = dv === 0 && dm === 0;
      if (zero && wasZero)
        return void 0;
      wasZero = zero;
      return { exec_valid_pct: dt > 0 ? Math.round(1e4 * dv / dt) / 100 : 0, macs_per_cycle: dt > 0 ? Math.round(100 * dm / dt) / 100 : 0 };
    }
  };
}
function stallCounter(m, uieName, group) {
  if (!(m instanceof Uie))
    return void 0;
  const st = m.cmp.stats;
  const last = new Float64Array(STALLS.length);
  let wasZero = true;
  return {
    group,
    name: `${uieName} compute stalls`,
    rate: true,
    sample: () => {
      const out = {};
      let any = false;
      STALLS.forEach(([name, k], i) => {
        const v = st[k];
        const d = v - last[i];
        last[i] = v;
        if (v > 0)
          out[name] = d;
        if (d > 0)
          any = true;
      });
      if (!any && wasZero)
        return void 0;
      wasZero = !any;
      return out;
    }
  };
}
function gridVcdProbes(m) {
  if (!(m instanceof Uie))
    return void 0;
  const st = m.cmp.stats;
  return [
    ["grid_state", 2, stateOf(st, "execValid", "execBubble", ["execConfig"])],
    ["weights_path", 2, stateOf(st, "wdcWords", "wdpWords", ["hbufBytesWritten"])],
    ["writeback", 2, stateOf(st, "wbFlits", "stallWbCredits", ["stallWbPending"])]
  ];
}

// packages/target-pyxis/dist/sim/run.js
var SEQUENCER_NAMES = (() => {
  const out = [];
  for (const q of loadMemoryMap().sequencers)
    out[q.id] = q.name;
  return out;
})();
var DEFAULT_QUANTUM = 256;
function simulateImage(container, file, opts = {}) {
  let image;
  let size;
  try {
    image = "placed" in container ? container : inspectImage(container, file);
    size = chipSize(image, opts);
  } catch (e) {
    opts.trace?.abort();
    opts.vcd?.abort();
    throw e;
  }
  return run(image, size, opts);
}
function run(info, size, opts) {
  let config;
  try {
    config = opts.config ?? loadSimConfig(opts.clockHz !== void 0 ? { clockHz: opts.clockHz } : {});
  } catch (e) {
    opts.trace?.abort();
    opts.vcd?.abort();
    throw e;
  }
  const trace = opts.trace ? new TraceWriter(opts.trace, config.clock_hz) : void 0;
  const vcd = opts.vcd ? new VcdWriter(opts.vcd, config.clock_hz, "pyxis-sim", opts.vcdTimeUnit ?? "ps") : void 0;
  const observer = new PyxisObserver(trace, vcd);
  try {
    const quantum = trace || vcd || opts.warnUninit ? 1 : opts.quantum ?? DEFAULT_QUANTUM;
    if (!(Number.isInteger(quantum) && quantum >= 1 && quantum <= 1 << 20))
      throw new DiagnosticError(error(SimCodes.badConfig, `--quantum must be an integer in 1..${1 << 20}, got ${quantum}`));
    const chip = chipFor(info, { ...size, config, observer, quantum, ...opts.registrationSeed !== void 0 ? { registrationSeed: opts.registrationSeed } : {}, ...opts.uieFactory ? { uieFactory: opts.uieFactory } : {} });
    let sampler;
    let seqTracer;
    let vpuTracer;
    if (trace) {
      chip.apm.onChange = (now) => trace.counter("chip", now, "APM power", { requested: chip.apm.requested, granted: chip.apm.granted });
      const counters = chip.dpe.map((d) => ({ group: d.group, name: "prefetch occupancy", sample: () => ({ descriptors: d.prefetch.reduce((a, f) => a + f.occupancy, 0) }) }));
      for (const u of chip.uies) {
        const fifos = uieFifos(u.model);
        if (fifos)
          counters.push({ group: u.group, name: `${u.name} FIFO occupancy`, sample: () => Object.fromEntries(fifos.map(([n2, get]) => [n2, get()])) });
        const vc = vpuCounter(u.model, u.name, u.group);
        if (vc)
          counters.push(vc);
        const gc = gridCounter(u.model, u.name, u.group);
        if (gc)
          counters.push(gc);
        const sc = stallCounter(u.model, u.name, u.group);
        if (sc)
          counters.push(sc);
      }
      chip.amem.forEach((a, c) => counters.push(bankCounter(a.banks.stats.bankAccesses, c, `cluster ${c}`)));
      sampler = new TraceSampler(trace, opts.traceSamplePeriod ?? 1024, config.clock_hz, chip.ports, counters);
      chip.sim.add(sampler);
      for (const d of chip.dpe)
        d.onDequeue = (qid, now) => observer.instant(d.group, d.name, now, `dequeue q0x${qid.toString(16)}`, { queue_id: qid, head: d.queues[qid].head });
      for (const u of chip.uies) {
        const seqs = sequencerRunning(u.model);
        if (!seqs)
          continue;
        seqTracer ??= new SequencerTracer(trace);
        seqs.forEach((q, i) => seqTracer.add(u.name, i, u.group, `${u.name}.${q.name}`, q.name, q.running, q.pc, q.slot, programAt(info, `${u.name}.${q.name}`)));
      }
      if (seqTracer) {
        chip.sim.add(seqTracer);
        observer.seqTracer = seqTracer;
      }
      vpuTracer = new VpuTracer(trace);
      for (const u of chip.uies)
        vpuTracer.add(u.model, u.name, u.group);
      chip.sim.add(vpuTracer);
    }
    loadImage(chip, info);
    if (vcd)
      declareVcd(chip, vcd, info);
    resetMemoryCounters(chip);
    const watch = opts.warnUninit ? new UninitWatch(() => chip.sim.now) : void 0;
    if (watch) {
      for (const a of chip.amem)
        watch.watchAmem(a);
      watch.watchSparse(chip.hbm);
    }
    const res = chip.sim.run({
      ...opts.maxCycles !== void 0 ? { maxCycles: opts.maxCycles } : {},
      ...opts.onProgress ? { onProgress: progress(chip, info, opts.onProgress), progressEvery: 1024 } : {}
    });
    watch?.stop();
    if (trace && res.reason !== "done")
      traceUnfinished(chip, observer, res.cycles);
    chip.apm.finish(res.cycles);
    seqTracer?.finish(res.cycles);
    vpuTracer?.finish(res.cycles);
    sampler?.finish(res.cycles);
    const report = buildReport(chip, config, res.reason, res.cycles, res.steps, res.waitGraph, watch);
    trace?.close({ cycles: res.cycles, stop: res.reason, clock_hz: config.clock_hz });
    vcd?.close(res.cycles);
    return { chip, info, report };
  } catch (e) {
    trace?.abort();
    vcd?.abort();
    attachImageSpan(e, info);
    throw e;
  }
}
function progress(chip, info, report) {
  const total = info.listedTrips;
  return (cycle) => {
    let done = 0;
    for (const k in chip.tripsByKind)
      done += chip.tripsByKind[k];
    report(cycle, total > 0 ? { done, total: Math.max(total, done), unit: "trips" } : void 0);
  };
}
function declareVcd(chip, vcd, info) {
  const probe = new VcdProbe(vcd);
  const usedQueues = new Set(info.records.map((r) => r.cluster * 64 + r.queue_id));
  for (let c = 0; c < chip.clusters; c++) {
    for (let q = 0; q < TRIP_QUEUES; q++) {
      if (!usedQueues.has(c * 64 + q))
        continue;
      const k = queueKind(q);
      const name = `${k.kind}${k.kind === "h2a" || k.kind === "a2h" || k.kind === "barrier_config" ? "" : k.index}`;
      const fifo = chip.dpe[c].prefetch[q];
      const dq = chip.dpe[c].queues[q];
      probe.add(vcd.signal([`cluster${c}`, "prefetch"], `${name}_occupancy`, 4), () => fifo.occupancy);
      probe.add(vcd.signal([`cluster${c}`, "rings"], `${name}_lists`, 3), () => dq.count);
    }
    for (const e of chip.allEngines)
      if (e.cluster === c)
        probe.add(vcd.signal([`cluster${c}`, "busy"], e.name.replace(/^c\d+\./, ""), 1), () => e.busy ? 1 : 0);
    for (const u of chip.uies) {
      const pcs = sequencerPcs(u.model);
      if (u.cluster !== c || !pcs)
        continue;
      pcs.forEach((get, s) => probe.add(vcd.signal([`cluster${c}`, `uie${u.index}`], `${SEQUENCER_NAMES[s] ?? `seq${s}`}_pc`, 5), get));
      for (const [name, get] of uieFifos(u.model) ?? [])
        probe.add(vcd.signal([`cluster${c}`, `uie${u.index}`], name, 8), get);
      for (const [name, width, get] of vpuVcdProbes(u.model) ?? [])
        probe.add(vcd.signal([`cluster${c}`, `uie${u.index}`], name, width), get);
      for (const [name, width, get] of gridVcdProbes(u.model) ?? [])
        probe.add(vcd.signal([`cluster${c}`, `uie${u.index}`], name, width), get);
    }
  }
  const ids = listedBarriers(info);
  const bc = loadTable("pyxis", "desc_barrier_config");
  const size = descriptorBytes("barrier_config");
  const barrierQueue = tripQueueId("barrier_config");
  for (const r of info.records) {
    if (r.queue_id !== barrierQueue || r.cluster >= chip.clusters)
      continue;
    const noc = remapEngineAddress(r.descriptor_list_address, chip.dpe[r.cluster].windows);
    const t = chip.noc.resolve(noc, r.descriptor_list_length * 8);
    if (!t)
      continue;
    const bytes = chip.noc.read(t, r.descriptor_list_length * 8);
    for (let o = 0; o + size <= bytes.length; o += size) {
      const id = Number(readField(bc, bytes, "barrier_id", 0, o));
      if (id > 0)
        ids.set(r.cluster * 1024 + id, { cluster: r.cluster, id });
    }
  }
  for (const b of [...ids.values()].sort((x, y) => x.cluster * 1024 + x.id - (y.cluster * 1024 + y.id))) {
    if (b.cluster >= chip.clusters)
      continue;
    const n2 = vcd.signal([`cluster${b.cluster}`, "barriers"], `b${b.id}_notify_count`, 6);
    const w = vcd.signal([`cluster${b.cluster}`, "barriers"], `b${b.id}_wait_count`, 6);
    chip.observer.barrierSignals.set(b.cluster * 1024 + b.id, [n2, w]);
  }
  chip.sim.add(probe);
}
function traceUnfinished(chip, observer, end) {
  for (const e of chip.allEngines) {
    const trips = e instanceof UieSlot ? e.inflightTrips : e instanceof BaseTripEngine && e.trip ? [e.trip] : [];
    for (const t of trips)
      if (t.startAt >= 0)
        observer.unfinished(e.name, e.cluster, t, end, "running");
  }
  for (const tm of chip.tm)
    for (const s of tm.slots)
      if (s.trip && s.trip.waitAt >= 0 && s.trip.goAt < 0 && s.engine)
        observer.unfinished(s.engine.name, tm.cluster, s.trip, end, "waiting");
}
function buildReport(chip, config, stop, cycles, steps, waitGraph2, watch) {
  const byName = new Map(chip.allEngines.map((e) => [e.name, e]));
  const engines = chip.sim.engineStats().filter((s) => s.name !== "vcd_probe" && s.name !== "trace_sampler" && s.name !== "sequencer_tracer" && s.name !== "vpu_tracer").map((s) => {
    const e = byName.get(s.name);
    const r = {
      name: s.name,
      busy: s.busy,
      stall: s.stall,
      idle: s.idle,
      utilization: cycles > 0 ? s.busy / cycles : 0,
      occupancy: cycles > 0 ? Math.min(1, (s.busy + s.stall) / cycles) : 0,
      stall_reasons: s.stallReasons
    };
    if (e) {
      r.trips = e.tripsDone;
      const qid = [...chip.engines[e.cluster]].find(([, x]) => x === e)?.[0];
      if (qid !== void 0)
        r.barrier_wait_cycles = chip.tm[e.cluster].barrierWait[qid];
      if (e.bytesMoved !== void 0)
        r.bytes = e.bytesMoved;
      const us = e instanceof UieSlot ? uieStats(e.model, config.clock_hz) : void 0;
      if (us) {
        r.bytes = us["bytes_read"] + us["bytes_written"];
        r.uie = us;
      }
    }
    return r;
  });
  const warnings = [];
  const walkEnd = stop === "deadlock" ? Infinity : cycles;
  for (const bt of chip.barriers)
    for (const t of bt.timeoutsUpTo(walkEnd))
      warnings.push(warning(SimCodes.barrierTimeout, `barrier ${bt.cluster}:${t.id} ${t.at > cycles ? `times out after the deadlock, at cycle ${t.at}` : `timed out at cycle ${t.at}`} (in use since cycle ${t.since}, still marked at the second walk; walk period ${config.barrier_timeout_cycles}); ${t.freedAt >= 0 ? `completed at cycle ${t.freedAt}` : "still incomplete at the end"}`, { spec: `${CHIP_SPEC} \xA711.6.7`, notes: ["the barrier timeout interrupt was raised; cluster.barrier_timeout_status holds the first timed-out barrier id"] }));
  warnings.push(...[...chip.warnings].sort((a, b) => a.message < b.message ? -1 : a.message > b.message ? 1 : 0));
  const flushed = chip.tm.filter((t) => t.tripsFlushed > 0 || t.flushDoneAt.length > 0);
  let uninit = 0;
  let conflicts = 0;
  const uninitNotes = watch ? ["uninitialised memory reads as zero"] : ["uninitialised memory reads as zero", "run with --warn-uninit for the addresses"];
  if (watch)
    warnings.push(...watch.warnings());
  for (const a of chip.amem) {
    uninit += a.stats.uninitReads;
    conflicts += a.stats.viewConflicts;
    if (a.stats.uninitReads > 0 && !watch)
      warnings.push(warning(SimCodes.uninitRead, `${a.name}: ${a.stats.uninitReads} partition read(s) of AMEM never written`, { notes: uninitNotes }));
    if (a.firstViewConflict)
      warnings.push(warning(SimCodes.badAddress, `${a.name}: ${a.firstViewConflict}`, { spec: `${CHIP_SPEC} \xA77.5` }));
  }
  for (const u of chip.uies)
    if (u.model?.warnings)
      warnings.push(...u.model.warnings);
  warnings.push(...chipWarnings(chip.host.records.length, Object.keys(chip.tripsByKind).length, watch ? 0 : chip.hbm.uninitReads));
  const tripsTotal = Object.values(chip.tripsByKind).reduce((a, b) => a + b, 0);
  return {
    stop,
    cycles,
    seconds: cycles / config.clock_hz,
    clock_hz: config.clock_hz,
    clusters: chip.clusters,
    uies: chip.opts.uies,
    kernel_steps: steps,
    trips_by_kind: sortedKeys(chip.tripsByKind),
    trips_total: tripsTotal,
    trip_names: Object.fromEntries(chip.tripNames),
    engines,
    ports: chip.ports.map((p) => ({ name: p.name, bytes: p.bytes, busy_cycles: Math.round(p.busyCycles), utilization: cycles > 0 ? Math.min(1, p.busyCycles / cycles) : 0 })),
    barriers: chip.barriers.map((b) => ({
      cluster: b.cluster,
      setups: b.setups,
      notifies: b.notifies,
      waits: b.waits,
      releases: b.releases,
      frees: b.frees,
      timeouts: b.timeoutsUpTo(walkEnd).length,
      interrupts: Array.from(b.interruptCount),
      timeout_interrupts: b.timeoutInterruptsBefore(walkEnd + 1),
      timeout_barrier_id: b.timeoutStatus(walkEnd + 1).valid ? b.timeoutStatus(walkEnd + 1).barrierId : -1,
      interrupt_log: b.interruptLog.filter((r) => r.cycle <= walkEnd).sort((x, y) => x.cycle - y.cycle || x.entry - y.entry || x.barrierId - y.barrierId).map((r) => ({ cycle: r.cycle, source: r.source, entry: r.entry, barrier_id: r.barrierId })),
      wait_cycles: [...chip.tm[b.cluster].waitsByBarrier].sort((x, y) => x[0] - y[0]).map(([id, w]) => ({ barrier_id: id, ...w }))
    })),
    barrier_events: sortedKeys(chip.observer.barrierEvents),
    trip_flush: flushed.map((t) => ({ cluster: t.cluster, trips_discarded: t.tripsFlushed, done_at: [...t.flushDoneAt], flush_mode: t.flushMode })),
    dpe: chip.dpe.map((d) => ({ cluster: d.cluster, descriptors: d.fetched, bytes: d.bytesRead, dequeue_events: d.dequeueEvents })),
    mpe: { patches: chip.mpes.reduce((a, m) => a + m.patchesApplied, 0), trips: chip.mpes.reduce((a, m) => a + m.tripsDone, 0) },
    apm: { enabled: config.apm.enabled, peak_requested_power: chip.apm.peakRequested, final_granted_power: chip.apm.granted, bubbles: chip.apm.bubbles, energy: chip.apm.energy },
    trip_power: chip.allEngines.filter((e) => "powerCycles" in e && e.powerCycles > 0).map((e) => ({ engine: e.name, power_cycles: e.powerCycles })),
    memory: {
      hbm_bytes_read: chip.hbm.bytesRead,
      hbm_bytes_written: chip.hbm.bytesWritten,
      hbm_uninit_bytes_read: chip.hbm.uninitReads,
      amem_uninit_reads: uninit,
      amem_view_conflicts: conflicts,
      amem: chip.amem.map((a, c) => ({ cluster: c, bytes_read: a.stats.bytesRead, bytes_written: a.stats.bytesWritten, uninit_partition_reads: a.stats.uninitReads, ...a.banks.report() }))
    },
    wait_graph: waitGraph2,
    warnings
  };
}
function chipWarnings(records, tripKinds, hbmUninitReads) {
  const out = [];
  if (records === 0 && tripKinds === 0)
    out.push(warning(SimCodes.badEnqueue, "the image has no enqueue records (.enqueue section): nothing was run", { spec: `${CHIP_SPEC} \xA711.5.1` }));
  if (hbmUninitReads > 0)
    out.push(warning(SimCodes.uninitRead, `${hbmUninitReads} byte(s) read from HBM locations never written`, { notes: ["uninitialised memory reads as zero", "run with --warn-uninit for the addresses"] }));
  return out;
}
function sortedKeys(o) {
  return Object.fromEntries(Object.keys(o).sort().map((k) => [k, o[k]]));
}

// packages/target-pyxis/dist/sim/dump.js
var bad2 = (msg, notes = []) => new DiagnosticError(error(SimCodes.badDump, msg, { notes }));
var DUMP_CHUNK_BYTES = 16 * 1024 * 1024;
var MAX_DUMP_TENSOR_BYTES = 1024 ** 3;
function elementBytes(bits) {
  return bits <= 8 ? 1 : bits <= 16 ? 2 : 4;
}
function resolveDump(container, name, clusters) {
  const sym = container.symbols.find((s) => s.name === name);
  if (!sym) {
    const tensors = container.symbols.filter((s) => s.tensor).map((s) => s.name);
    throw bad2(`--dump: no symbol \`${name}\` in the image`, tensors.length ? [`tensor symbols: ${tensors.slice(0, 20).join(", ")}`] : []);
  }
  if (!sym.tensor)
    throw bad2(`--dump: symbol \`${name}\` is a ${sym.kind}, not a tensor (no shape/format information)`);
  const sec = container.sections[sym.section];
  const loc = sec ? sectionLocation(sec) : void 0;
  if (!sec || !loc)
    throw bad2(`--dump: symbol \`${name}\` is not in a memory section`);
  if (loc.cluster >= clusters)
    throw bad2(`--dump: \`${name}\` lives in cluster ${loc.cluster}, which is not simulated (see --clusters)`);
  let fmt;
  try {
    fmt = getFormat(sym.tensor.format);
  } catch {
    throw bad2(`--dump: \`${name}\` has unknown element format \`${sym.tensor.format}\``);
  }
  const eb = elementBytes(fmt.bits);
  const shape = sym.tensor.shape;
  const strides = sym.tensor.strides ?? (() => {
    const s = new Array(shape.length);
    let acc = eb;
    for (let d = shape.length - 1; d >= 0; d--) {
      s[d] = acc;
      acc *= shape[d];
    }
    return s;
  })();
  let span = eb;
  for (let d = 0; d < shape.length; d++)
    span += (shape[d] - 1) * strides[d];
  return { loc: { ...loc, addr: loc.addr + sym.offset }, span, shape, strides, eb, fmt, expBias: sym.tensor.eb };
}
function dumpSymbol(chip, container, name, f322) {
  const { loc, span, shape, strides, eb, fmt, expBias } = resolveDump(container, name, chip.clusters);
  const n2 = shape.reduce((a, b) => a * b, 1);
  const bytes = loc.space === "hbm" ? chip.hbm.readBytes(loc.addr, span) : loc.space === "amem" ? chip.amem[loc.cluster].readBytes(loc.addr, span) : chip.cfg[loc.cluster].readBytes(loc.addr, span);
  const unsigned32 = eb === 4 && fmt.name === "UInt32";
  const codes = eb === 1 ? new Uint8Array(n2) : eb === 2 ? new Uint16Array(n2) : unsigned32 ? new Uint32Array(n2) : new Int32Array(n2);
  const idx = new Array(shape.length).fill(0);
  for (let i = 0; i < n2; i++) {
    let off = 0;
    for (let d = 0; d < shape.length; d++)
      off += idx[d] * strides[d];
    let v = 0;
    for (let b = eb - 1; b >= 0; b--)
      v = v * 256 + bytes[off + b];
    codes[i] = v;
    for (let d = shape.length - 1; d >= 0; d--) {
      if (++idx[d] < shape[d])
        break;
      idx[d] = 0;
    }
  }
  if (!f322)
    return { dtype: eb === 1 ? "uint8" : eb === 2 ? "uint16" : unsigned32 ? "uint32" : "int32", shape: [...shape], data: codes };
  const vals = decodeArray(fmt, codes instanceof Int32Array ? new Uint32Array(codes.buffer) : codes, expBias);
  return { dtype: "float32", shape: [...shape], data: Float32Array.from(vals) };
}

// packages/target-pyxis/dist/sim/fabric/codes.js
var FabricCodes2 = {
  /** grammars/pyxis/fabric.json or a system's fabric override is invalid. */
  badFabricConfig: "SIM0700",
  /** A page names a VPFE that no chip/cluster of the system is (§10.2). */
  unroutable: "SIM0701",
  /** A bad --fabric-faults SPEC (usage). */
  badFaultSpec: "SIM0702",
  /** An RDMA job of the system ended in Job Failed and no host action recovered it (§10.7.1.2, §10.8.1.2). */
  jobFailedUnrecovered: "SIM0720",
  /** The system description is invalid (JSON path). */
  badSystem: "LD0900",
  /** Pyxis_VOQ_to_VPFE_map entry with VPFE[1:0] == 3 or out of range (§10.2). */
  badVpfe: "LD0901",
  /** A Tx job's VOQ names no chip/cluster of the system (§10.2). */
  voqNoTarget: "LD0902",
  /** A TJID/RJID pair used twice at once (§10.4). */
  jobIdReuse: "LD0903",
  /** Tx/Rx NumWords disagree between the two chips (§10.3). */
  numWordsMismatch: "LD0904",
  /** PageSizeWords outside [32, 127] (§11.4.6). */
  badPageSize: "LD0905",
  /** Datagram size outside [1, 16256] (§10.6). */
  badDatagramSize: "LD0906",
  /** An image of the system cannot be read. */
  badImage: "LD0907"
};

// packages/target-pyxis/dist/sim/fabric/wireParams.js
function bad3(path, msg) {
  throw new DiagnosticError(error(FabricCodes2.badFabricConfig, `fabric.json: \`${path}\` ${msg}`));
}
function int(v, path, min) {
  if (typeof v !== "number" || !Number.isInteger(v) || v < min)
    bad3(path, `must be an integer >= ${min}, got ${JSON.stringify(v)}`);
  return v;
}
function validateFabricJson(j) {
  if (typeof j.rtt_ns !== "number" || !(j.rtt_ns > 0))
    bad3("rtt_ns", `must be a number > 0, got ${JSON.stringify(j.rtt_ns)}`);
  int(j.pipes_per_chip, "pipes_per_chip", 1);
  int(j.pipe_bytes_per_cycle, "pipe_bytes_per_cycle", 1);
  int(j.cell?.chunk_bytes, "cell.chunk_bytes", 1);
  int(j.cell.min_chunks, "cell.min_chunks", 1);
  int(j.cell.max_chunks, "cell.max_chunks", j.cell.min_chunks);
  int(j.page_header_bytes, "page_header_bytes", 0);
  int(j.max_page_payload_bytes, "max_page_payload_bytes", 1);
  int(j.min_packet_bytes, "min_packet_bytes", 1);
  int(j.rx_cbuf_cells, "rx_cbuf_cells", 1);
  if (j.grant?.scheduler !== "round_robin" && j.grant?.scheduler !== "fifo")
    bad3("grant.scheduler", `must be "round_robin" or "fifo", got ${JSON.stringify(j.grant?.scheduler)}`);
  if (typeof j.grant.messages_first !== "boolean")
    bad3("grant.messages_first", "must be true or false");
  for (const k of ["max_chips", "clusters_per_chip", "oqs_per_cluster", "voq_map_entries", "vpfe_bits"])
    int(j.system?.[k], `system.${k}`, 1);
  const rows = j.last_two_cells?.rows;
  const mod = j.cell.max_chunks;
  if (!Array.isArray(rows) || rows.length !== mod)
    bad3("last_two_cells.rows", `must have one row per residue 0..${mod - 1}`);
  const seen = /* @__PURE__ */ new Set();
  rows.forEach((r, i) => {
    const m = int(r.mod, `last_two_cells.rows[${i}].mod`, 0);
    if (m >= mod || seen.has(m))
      bad3(`last_two_cells.rows[${i}].mod`, `must be a distinct residue 0..${mod - 1}, got ${m}`);
    seen.add(m);
    const a = int(r.next_to_last, `last_two_cells.rows[${i}].next_to_last`, j.cell.min_chunks);
    const b = int(r.last, `last_two_cells.rows[${i}].last`, j.cell.min_chunks);
    if (a > mod || b > mod)
      bad3(`last_two_cells.rows[${i}]`, `cells carry at most ${mod} chunks`);
    if (a + b !== mod + (m === 0 ? mod : m))
      bad3(`last_two_cells.rows[${i}]`, `next_to_last + last must be ${mod + (m === 0 ? mod : m)} (11 + the residue)`);
  });
  return j;
}
function fabricParams(j, clockHz) {
  validateFabricJson(j);
  const oneWayCycles = Math.max(1, Math.ceil(j.rtt_ns / 2 * clockHz / 1e9));
  const lastTwo = [];
  for (const r of j.last_two_cells.rows)
    lastTwo[r.mod] = [r.next_to_last, r.last];
  return { json: j, clockHz, rttCycles: 2 * oneWayCycles, oneWayCycles, pipes: j.pipes_per_chip, pipeBytesPerCycle: j.pipe_bytes_per_cycle, lastTwo };
}
function cellify(p, wireBytes) {
  const c = p.json.cell;
  const chunks = Math.max(1, Math.ceil(wireBytes / c.chunk_bytes));
  const cellCycles = (k) => Math.ceil(k * c.chunk_bytes / p.pipeBytesPerCycle);
  if (chunks <= c.max_chunks) {
    const k = Math.max(chunks, c.min_chunks);
    return { cells: 1, chunks: k, nextToLast: 0, last: k, pipeCycles: cellCycles(k) };
  }
  const cells = Math.ceil(chunks / c.max_chunks);
  const [a, b] = p.lastTwo[chunks % c.max_chunks];
  return { cells, chunks, nextToLast: a, last: b, pipeCycles: (cells - 2) * cellCycles(c.max_chunks) + cellCycles(a) + cellCycles(b) };
}

// packages/target-pyxis/dist/sim/fabric/vpfe.js
function vpfeRoute(vpfes, clustersPerChip, bits = 11) {
  const r = new Int32Array(1 << bits).fill(-1);
  vpfes.forEach((cl, c) => cl.forEach((v, k) => r[v] = c * clustersPerChip + k));
  return r;
}

// packages/target-pyxis/dist/sim/fabric/wireStats.js
function emptyChipStats(chip, pipes) {
  return {
    chip,
    foBusy: new Array(pipes).fill(0),
    fiBusy: new Array(pipes).fill(0),
    grants: 0,
    grantWaitCycles: 0,
    grantWaitMax: 0,
    grantWaitFrom: {},
    unroutable: 0,
    faults: { dropped: {}, corrupted: {} }
  };
}

// packages/target-pyxis/dist/sim/fabric/wire.js
var WIRE_PHASE = 3;
var ChipWire = class {
  chip;
  p;
  route;
  sim;
  send;
  faults;
  trace;
  inLink;
  timer;
  side = null;
  out = /* @__PURE__ */ new Map();
  foFree;
  /**
   * Per FO pipe: the end of the work granted to it (a granted page's cycles are counted at its grant, before the
   * Tx DMA has read it): FO load-balances pages over the pipes at grant time (§10.7 [5a]), so the pages of one job
   * spread over the four pipes instead of all finding the same pipe idle.
   */
  foReserved;
  /**
   * Per destination chip: the latest cycle a page sent to it arrives there; per source chip: the latest cycle a page
   * from it is whole at this chip. The fabric delivers the pages of a chip pair in the order they were sent (the FI
   * reorder per chip pair, §10.8.3-10.8.4; docs/spec-notes.md): a page on a less busy pipe waits for the earlier ones.
   */
  lastArriveAt = /* @__PURE__ */ new Map();
  lastWholeFrom = /* @__PURE__ */ new Map();
  fiFree;
  pending = [];
  budgetFree = 0;
  wakeAt = -1;
  commitAt = -1;
  lastOq = -1;
  /** Pages enqueued and waiting for their grant / granted and not yet dequeued (trace counter). */
  waitingGrant = 0;
  granted = 0;
  lastSrc;
  stats;
  /** Per destination chip: the link from this chip. */
  links = /* @__PURE__ */ new Map();
  diagnostics = [];
  /** The commit that runs the grant scheduler once per cycle, after the cycle's deliveries. */
  scheduler;
  constructor(chip, p, route, sim, send, faults = null, trace = null) {
    this.chip = chip;
    this.p = p;
    this.route = route;
    this.sim = sim;
    this.send = send;
    this.faults = faults;
    this.trace = trace;
    this.foFree = new Float64Array(p.pipes);
    this.foReserved = new Float64Array(p.pipes);
    this.fiFree = new Float64Array(p.pipes);
    this.lastSrc = new Int32Array(p.json.system.clusters_per_chip * p.json.system.oqs_per_cluster).fill(-1);
    this.stats = emptyChipStats(chip, p.pipes);
    this.inLink = new TimedLink(`chip${chip}.fabric.in`, p.oneWayCycles, WIRE_PHASE, (m, now) => this.arrive(m, now));
    this.inLink.crossPartition = true;
    this.timer = new TimedLink(`chip${chip}.fabric.timer`, 1, WIRE_PHASE, (t, now) => this.fire(t, now));
    sim.addLink(this.inLink);
    sim.addLink(this.timer);
    this.scheduler = { commitKey: 1 << 20, commit: (now) => this.schedule(now) };
  }
  /** Pages enqueued and not yet dequeued (the deadlock explainer names them). */
  get outstanding() {
    return this.out.size;
  }
  key(srcCluster, qpage) {
    return srcCluster * 16777216 + qpage;
  }
  // ---- source side (FabricEgress) ----
  enqueue(now, req) {
    const cpc = this.p.json.system.clusters_per_chip;
    const r = req.dest.vpfe >= 0 && req.dest.vpfe < this.route.length ? this.route[req.dest.vpfe] : -1;
    if (r < 0) {
      this.stats.unroutable++;
      if (this.diagnostics.length < 100)
        this.diagnostics.push(warning(FabricCodes2.unroutable, `chip ${this.chip} cluster ${req.srcCluster}: VOQ ${req.voq} maps to VPFE ${req.dest.vpfe}, which no chip/cluster of the system is; the ${req.type} page is not delivered`, {
          spec: "pyxis-chip-fspec.md \xA710.2"
        }));
      return;
    }
    const dstChip = Math.floor(r / cpc);
    const dstCluster = r % cpc;
    const c = cellify(this.p, req.wireBytes);
    this.out.set(this.key(req.srcCluster, req.qpage), { req, dstChip, dstCluster, cells: c.cells, pipeCycles: c.pipeCycles, pipe: -1 });
    const msg = {
      t: 0,
      src: this.chip,
      srcCluster: req.srcCluster,
      qpage: req.qpage,
      oqIndex: dstCluster * this.p.json.system.oqs_per_cluster + req.dest.oq,
      message: req.type === "cts" || req.type === "ack" || req.type === "nack",
      pipeCycles: c.pipeCycles,
      arrived: 0
    };
    this.send(dstChip, now, now + this.p.oneWayCycles, msg);
    this.waitingGrant++;
    this.sampleVoq(now);
  }
  sampleVoq(now) {
    this.trace?.counter("fabric VOQ pages", now, { waiting_grant: this.waitingGrant, granted: this.granted });
  }
  transmit(now, page) {
    const k = this.key(page.srcCluster, page.qpage);
    const o = this.out.get(k);
    if (!o || o.pipe < 0)
      throw new Error(`fabric wire: chip ${this.chip} cluster ${page.srcCluster} transmitted QPage ${page.qpage}, which was not granted`);
    const start2 = Math.max(now, this.foFree[o.pipe]);
    const end = start2 + o.pipeCycles;
    this.foFree[o.pipe] = end;
    this.stats.foBusy[o.pipe] += o.pipeCycles;
    let l = this.links.get(o.dstChip);
    if (!l)
      this.links.set(o.dstChip, l = { src: this.chip, dst: o.dstChip, pages: 0, bytes: 0, cells: 0, busyCycles: 0, byType: {} });
    l.pages++;
    l.bytes += page.wireBytes;
    l.cells += o.cells;
    l.busyCycles += o.pipeCycles;
    l.byType[page.type] = (l.byType[page.type] ?? 0) + 1;
    const fate = this.faults ? this.faults.decide(this.chip, page) : null;
    this.trace?.span(`FO pipe ${o.pipe}`, `${page.type} ->chip${o.dstChip}`, start2, o.pipeCycles, { qpage: page.qpage, cells: o.cells, bytes: page.wireBytes, fault: fate ?? void 0 });
    if (fate === "drop")
      this.stats.faults.dropped[page.type] = (this.stats.faults.dropped[page.type] ?? 0) + 1;
    else {
      if (fate === "corrupt") {
        this.stats.faults.corrupted[page.type] = (this.stats.faults.corrupted[page.type] ?? 0) + 1;
        page.corrupt = true;
      }
      const arrive = Math.max(start2 + this.p.oneWayCycles, this.lastArriveAt.get(o.dstChip) ?? 0);
      this.lastArriveAt.set(o.dstChip, arrive);
      this.send(o.dstChip, now, arrive, { t: 2, page, dstCluster: o.dstCluster, pipeCycles: o.pipeCycles });
    }
    this.timer.send(now, end, this.chip, { kind: 0, srcCluster: page.srcCluster, qpage: page.qpage, dstCluster: 0, page: null });
  }
  // ---- deliveries ----
  arrive(m, now) {
    if (m.t === 0) {
      m.arrived = now;
      this.pending.push(m);
      this.requestSchedule(now);
    } else if (m.t === 1) {
      const o = this.out.get(this.key(m.srcCluster, m.qpage));
      if (!o)
        return;
      let pipe = 0;
      for (let i = 1; i < this.foReserved.length; i++)
        if (this.foReserved[i] < this.foReserved[pipe])
          pipe = i;
      this.foReserved[pipe] = Math.max(now, this.foReserved[pipe]) + o.pipeCycles;
      o.pipe = pipe;
      this.waitingGrant--;
      this.granted++;
      this.sampleVoq(now);
      this.side?.tx.granted(now, m.srcCluster, m.qpage, pipe);
    } else {
      let pipe = 0;
      for (let i = 1; i < this.fiFree.length; i++)
        if (this.fiFree[i] < this.fiFree[pipe])
          pipe = i;
      const start2 = Math.max(now, this.fiFree[pipe]);
      this.fiFree[pipe] = start2 + m.pipeCycles;
      const end = Math.max(start2 + m.pipeCycles, this.lastWholeFrom.get(m.page.srcChip) ?? 0);
      this.lastWholeFrom.set(m.page.srcChip, end);
      this.stats.fiBusy[pipe] += m.pipeCycles;
      this.trace?.span(`FI pipe ${pipe}`, `${m.page.type} chip${m.page.srcChip}->c${m.dstCluster}`, start2, m.pipeCycles, { qpage: m.page.qpage, corrupt: m.page.corrupt ?? false });
      this.timer.send(now, end, this.chip, { kind: 1, srcCluster: m.page.srcCluster, qpage: m.page.qpage, dstCluster: m.dstCluster, page: m.page });
    }
  }
  fire(t, now) {
    if (t.kind === 0) {
      this.out.delete(this.key(t.srcCluster, t.qpage));
      this.granted--;
      this.sampleVoq(now);
      this.side?.tx.dequeued(now, t.srcCluster, t.qpage);
    } else if (t.kind === 1)
      this.side?.rx.receive(now, t.dstCluster, t.page);
    else {
      this.wakeAt = -1;
      this.requestSchedule(now);
    }
  }
  requestSchedule(now) {
    if (this.commitAt === now)
      return;
    this.commitAt = now;
    this.sim.requestCommit(this.scheduler);
  }
  // ---- the destination's grant scheduler (§10.1; MODEL: fabric.json grant) ----
  schedule(now) {
    const perPipe = this.p.pipes;
    while (this.pending.length > 0 && this.budgetFree <= now) {
      const i = this.pick();
      const m = this.pending[i];
      this.pending.splice(i, 1);
      const wait = now - m.arrived;
      this.stats.grants++;
      this.stats.grantWaitCycles += wait;
      if (wait > this.stats.grantWaitMax)
        this.stats.grantWaitMax = wait;
      this.stats.grantWaitFrom[m.src] = (this.stats.grantWaitFrom[m.src] ?? 0) + wait;
      this.budgetFree = (this.budgetFree > now - 1 ? this.budgetFree : now) + m.pipeCycles / perPipe;
      this.send(m.src, now, now + this.p.oneWayCycles, { t: 1, srcCluster: m.srcCluster, qpage: m.qpage });
    }
    if (this.pending.length > 0) {
      const at2 = Math.max(now + 1, Math.ceil(this.budgetFree));
      if (this.wakeAt < 0 || at2 < this.wakeAt) {
        this.wakeAt = at2;
        this.timer.send(now, at2, this.chip, { kind: 2, srcCluster: 0, qpage: 0, dstCluster: 0, page: null });
      }
    }
  }
  /** The next request to grant: messages first (if set), then FIFO or round robin over OQs and source chips. */
  pick() {
    const q = this.pending;
    const g = this.p.json.grant;
    if (g.messages_first) {
      for (let i = 0; i < q.length; i++)
        if (q[i].message)
          return i;
    }
    if (g.scheduler === "fifo")
      return 0;
    const nOq = this.lastSrc.length;
    let bestOq = -1;
    let bestD = Infinity;
    for (const m of q) {
      const d = (m.oqIndex - this.lastOq - 1 + 2 * nOq) % nOq;
      if (d < bestD) {
        bestD = d;
        bestOq = m.oqIndex;
      }
    }
    const last = this.lastSrc[bestOq];
    let best = -1;
    let bestS = Infinity;
    const big2 = 1 << 16;
    for (let i = 0; i < q.length; i++) {
      const m = q[i];
      if (m.oqIndex !== bestOq)
        continue;
      const d = (m.src - last - 1 + 2 * big2) % big2;
      if (d < bestS) {
        bestS = d;
        best = i;
      }
    }
    this.lastOq = bestOq;
    this.lastSrc[bestOq] = q[best].src;
    return best;
  }
  /** Lines for the cross-chip deadlock explainer. */
  explain() {
    const lines = [];
    for (const o of this.out.values())
      lines.push(`chip${this.chip}: ${o.req.type} QPage ${o.req.qpage} of cluster ${o.req.srcCluster} to chip${o.dstChip} cluster ${o.dstCluster} ${o.pipe < 0 ? "waits for its grant" : "is granted, not yet transmitted by the adapter"}`);
    if (this.pending.length)
      lines.push(`chip${this.chip}: ${this.pending.length} request(s) wait for a grant at its OQs`);
    return lines;
  }
};

// packages/target-pyxis/dist/sim/fabric/faults.js
function mix(x) {
  x = x + 2654435769 | 0;
  let z = x;
  z = Math.imul(z ^ z >>> 16, 2246822507);
  z = Math.imul(z ^ z >>> 13, 3266489909);
  return (z ^ z >>> 16) >>> 0;
}
var FaultInjector = class {
  spec;
  state;
  /** Per rule: matching pages seen (for nth). */
  seen;
  constructor(spec, chip) {
    this.spec = spec;
    this.state = mix(spec.seed ^ mix(chip + 1));
    this.seen = new Int32Array(spec.rules.length);
  }
  random() {
    this.state = this.state + 1831565813 | 0;
    return mix(this.state) / 4294967296;
  }
  /** What happens to `page` sent by `chip`: null (delivered), 'drop' or 'corrupt'. */
  decide(chip, page) {
    const rules = this.spec.rules;
    const meta = page;
    let fate = null;
    for (let i = 0; i < rules.length; i++) {
      const r = rules[i];
      if (r.type !== "any" && r.type !== page.type)
        continue;
      if (r.chip !== null && r.chip !== chip)
        continue;
      if (r.tjid !== null && meta.tjid !== r.tjid)
        continue;
      if (r.rjid !== null && meta.rjid !== r.rjid)
        continue;
      if (r.seq !== null && meta.seq !== r.seq)
        continue;
      const n2 = this.seen[i]++;
      if (r.nth !== null && n2 !== r.nth)
        continue;
      if (r.rate !== null && !(this.random() < r.rate))
        continue;
      fate ??= r.action;
    }
    return fate;
  }
};

// packages/target-pyxis/dist/sim/fabric/systemRun.js
var DeferredEgress = class {
  target = null;
  enqueue(now, req) {
    this.target.enqueue(now, req);
  }
  transmit(now, page) {
    this.target.transmit(now, page);
  }
};
function buildSystemChip(input, egress, uieFactory, config, traceFor) {
  const cfg = config ?? loadSimConfig(input.clockHz !== void 0 ? { clockHz: input.clockHz } : {});
  const info = inspectImage(readContainer(input.image, input.imageFile), input.imageFile);
  const observer = new PyxisObserver(traceFor?.(cfg.clock_hz));
  const chip = loadedChipFor(info, {
    config: cfg,
    observer,
    quantum: input.quantum ?? (traceFor ? 1 : DEFAULT_QUANTUM),
    ...uieFactory ? { uieFactory } : {},
    fabric: { chip: input.chip, egress, voqToVpfe: input.voqToVpfe }
  });
  return { chip, info, config: cfg };
}

// packages/target-pyxis/dist/sim/parallel/chipPartition.js
var CHIP_PARTITION_MODULE = "@pyxis/target-pyxis/parallel";
var CHIP_PARTITION_BUILDER = "buildChipPartition";
function buildChipPartition(a) {
  const k = a.input.chip;
  const egress = new DeferredEgress();
  const { chip, info, config } = buildSystemChip(a.input, egress, makeUieFactory({ timingOnly: a.timingOnly }), a.config);
  const params = fabricParams(a.fabric, config.clock_hz);
  const route = vpfeRoute(a.clusterVpfe, a.fabric.system.clusters_per_chip, a.fabric.system.vpfe_bits);
  const outbound = {};
  const to = [];
  let wire = null;
  for (let d = 0; d < a.chips; d++) {
    if (d === k)
      continue;
    const stand = new TimedLink(`chip${d}.fabric.in`, params.oneWayCycles, WIRE_PHASE, () => {
      throw new Error(`chip${k}: a stand-in for chip${d}'s fabric link never delivers`);
    });
    stand.crossPartition = true;
    outbound[stand.name] = stand;
    to[d] = stand;
  }
  wire = new ChipWire(k, params, route, chip.sim, (dst, now, at2, msg) => (dst === k ? wire.inLink : to[dst]).send(now, at2, k, msg), a.faults ? new FaultInjector(a.faults, k) : null, null);
  egress.target = wire;
  wire.side = chip.fabric;
  const w = wire;
  return {
    sim: chip.sim,
    inbound: { [w.inLink.name]: w.inLink },
    outbound,
    collect: (end) => {
      const done = end.reason === "done";
      const container = done && a.dumps.length ? info.container : null;
      return {
        chip: k,
        clusters: info.clusters,
        uies: info.uies,
        fabric: chipFabricOutcome(chip),
        report: buildReport(chip, config, end.reason, end.cycles, chip.sim.steps, done ? [] : chip.sim.waitGraph()),
        wire: w.stats,
        links: [...w.links.values()],
        explain: done ? [] : [...chip.sim.waitGraph().map((l) => `chip${k}: ${l}`), ...w.explain()],
        diagnostics: w.diagnostics,
        dumps: container ? a.dumps.map((d) => [d.file, writeNpy(dumpSymbol(chip, container, d.symbol, d.f32))]) : []
      };
    }
  };
}

// packages/target-pyxis/dist/sim/parallel/threadedSystem.js
async function runSystemThreaded(inputs, o) {
  const specs = inputs.map((input, k) => {
    const args = { input, chips: inputs.length, fabric: o.fabric, clusterVpfe: o.clusterVpfe, faults: o.faults, timingOnly: o.timingOnly, dumps: o.dumps?.[k] ?? [], ...o.config ? { config: o.config } : {} };
    return { name: `chip${k}`, module: o.module ?? CHIP_PARTITION_MODULE, builder: CHIP_PARTITION_BUILDER, args };
  });
  const r = await runThreaded(specs, { threads: o.threads ?? defaultThreads(inputs.length), ...o.maxCycles !== void 0 ? { maxCycles: o.maxCycles } : {} });
  const chips = r.parts.map((p) => p.collected);
  return {
    stop: r.reason,
    cycles: r.cycles,
    chips,
    wire: chips.map((c) => c.wire),
    links: chips.flatMap((c) => c.links).sort((a, b) => a.src - b.src || a.dst - b.dst),
    waitGraph: r.reason === "done" ? [] : chips.flatMap((c) => c.explain),
    diagnostics: chips.flatMap((c) => c.diagnostics),
    parallel: r
  };
}

// packages/target-pyxis/dist/sim/parallel/clusterPlan.js
var hex = (n2) => `0x${n2.toString(16)}`;
function overlaps(a, b) {
  for (const x of a)
    for (const y of b)
      if (x[0] < y[1] && y[0] < x[1])
        return [Math.max(x[0], y[0]), Math.min(x[1], y[1])];
  return void 0;
}
function actionEnqueue(a) {
  if (a.address - CFG_ENGINE_BASE !== CLUSTER_CSRS.enqueue.offset)
    return void 0;
  const word = new Uint8Array(8);
  new DataView(word.buffer).setBigUint64(0, a.value, true);
  const v = decode(loadTable("pyxis", CLUSTER_CSRS.enqueue.table), word);
  return { cluster: a.cluster, queue_id: Number(v["queue_id"]), descriptor_list_address: Number(v["descriptor_list_address"]), descriptor_list_length: Number(v["descriptor_list_length"]) };
}
function listTargets(inp) {
  const out = [];
  for (const r of [...inp.records, ...inp.hostActions.flatMap((a) => actionEnqueue(a) ?? [])]) {
    const len = r.descriptor_list_length * 8;
    const t = r.cluster < inp.clusters ? inp.noc.resolve(remapEngineAddress(r.descriptor_list_address, inp.remap?.[r.cluster]?.dpe ?? defaultWindows(r.cluster)), len) : void 0;
    if (t)
      out.push({ space: t.space, cluster: t.cluster, addr: t.addr, len });
  }
  return out;
}
function planClusterSplit(inp) {
  const n2 = inp.clusters;
  if (n2 < 2)
    return { ok: false, reason: "one cluster" };
  const no = (reason) => ({ ok: false, reason });
  const hbmReads = Array.from({ length: n2 }, () => []);
  const hbmWrites = Array.from({ length: n2 }, () => []);
  const powered = /* @__PURE__ */ new Map();
  const power = /* @__PURE__ */ new Map();
  const actionClusters = [...new Set(inp.hostActions.map((a) => a.cluster))].sort((a, b) => a - b);
  if (actionClusters.length > 1)
    return no(`host actions touch clusters ${actionClusters.join(", ")} (the host performs them one after the other)`);
  const records = [...inp.records];
  for (const a of inp.hostActions) {
    const r = actionEnqueue(a);
    if (r)
      records.push(r);
  }
  for (const r of records) {
    const c = r.cluster;
    if (c >= n2)
      return no(`an enqueue record names cluster ${c}`);
    const qk = queueKind(r.queue_id);
    if (!qk)
      return no(`an enqueue record names queue ${hex(r.queue_id)}`);
    const where = `list ${hex(r.descriptor_list_address)} of queue ${hex(r.queue_id)} in cluster ${c}`;
    if (qk.kind === "icdma" || qk.kind === "mpe" || qk.kind === "rdma_tx" || qk.kind === "rdma_rx") {
      const why = qk.kind === "icdma" ? "ICDMA writes another cluster; its commit report returns after 1 cycle (chip \xA712.3), below a useful lookahead" : qk.kind === "mpe" ? "MPE trips read and write through the NoC synchronously (chip \xA712.6), not behind a timed link" : "RDMA trips use the fabric adapter of the chip";
      return no(`${where} holds ${qk.kind} trips: ${why}`);
    }
    const len = r.descriptor_list_length * 8;
    const windows2 = inp.remap?.[c]?.dpe ?? defaultWindows(c);
    const t = inp.noc.resolve(remapEngineAddress(r.descriptor_list_address, windows2), len);
    if (!t)
      return no(`${where} is not in a modelled memory`);
    if (t.space === "hbm")
      hbmReads[c].push([t.addr, t.addr + len]);
    else if (t.cluster !== c)
      return no(`${where} is read by the DPE from cluster ${t.cluster}'s ${t.space} (a synchronous NoC read, chip \xA712.5)`);
    const bytes = inp.noc.read(t, len);
    const size = descriptorBytes(qk.kind);
    if (size <= 0)
      return no(`${where}: queue kind ${qk.kind} has no descriptor table`);
    for (let o = 0; o + size <= bytes.length; o += size) {
      let trip;
      try {
        trip = decodeTrip(qk.kind, c, r.queue_id, bytes.subarray(o, o + size), r.descriptor_list_address + o, 0);
      } catch {
        return no(`${where}: descriptor ${o / size} does not decode (the single-partition run reports it)`);
      }
      const name = `trip ${trip.tripId} (${qk.kind}, cluster ${c})`;
      for (const g of trip.notifyList) {
        const d = g >> 10;
        if (d !== c)
          return no(`${name} notifies barrier ${d}:${g & 1023} of cluster ${d}: the barrier link's latency (trip_manager.notify_latency_cycles = ${inp.config.trip_manager.notify_latency_cycles}) is below a useful lookahead`);
      }
      if (inp.config.apm.enabled && trip.trip_power > 0) {
        if (!powered.has(c))
          powered.set(c, name);
        const q = c * 64 + r.queue_id;
        power.set(q, Math.max(power.get(q) ?? 0, trip.trip_power));
      }
      if (qk.kind === "h2a" || qk.kind === "a2h") {
        const h = Number(trip.fields["hbm_base_address"]) * 1024;
        const span = [h, h + Number(trip.fields["length"]) * 1024];
        (qk.kind === "h2a" ? hbmReads : hbmWrites)[c].push(span);
      }
    }
  }
  if (powered.size > 1) {
    const [a, b] = [...powered.values()];
    return no(`APM is enabled and ${a} and ${b} request power: RequestedPower is the chip's sum (chip \xA713); run with --set apm.enabled=false or TripPower 0 to split`);
  }
  const bound = [...power.values()].reduce((x, y) => x + y, 0);
  if (bound > inp.config.apm.min_granted_power)
    return no(`APM is enabled and ${[...powered.values()][0]} with the other trips of its cluster can request ${bound} > apm.min_granted_power = ${inp.config.apm.min_granted_power}: a throttle slows every cluster (chip \xA713); run with --set apm.enabled=false to split`);
  for (let c = 0; c < n2; c++)
    for (let d = 0; d < n2; d++) {
      if (c === d)
        continue;
      const w = overlaps(hbmWrites[c], [...hbmReads[d], ...d > c ? hbmWrites[d] : []]);
      if (w)
        return no(`HBM ${hex(w[0])}..${hex(w[1])} is written by cluster ${c} and used by cluster ${d} (HBM is one memory)`);
    }
  return { ok: true, clusters: n2, hbmReads, hbmWrites, apmCluster: powered.size ? [...powered.keys()][0] : 0 };
}

// packages/target-pyxis/dist/sim/parallel/clusterPartition.js
var CLUSTER_PARTITION_MODULE = "@pyxis/target-pyxis/parallel";
var CLUSTER_PARTITION_BUILDER = "buildClusterPartition";
var SplitViolation = class extends Error {
  constructor(cluster2, what) {
    super(`cluster ${cluster2} ${what} at run time: clusters are not independent`);
    this.name = "SplitViolation";
  }
};
var hit = (rs, a, b) => !!rs?.some((r) => r[0] < b && a < r[1]);
function merged(rs) {
  const out = [];
  for (const r of [...rs].sort((x, y) => x[0] - y[0])) {
    const last = out[out.length - 1];
    if (last && r[0] <= last[1])
      last[1] = Math.max(last[1], r[1]);
    else
      out.push([r[0], r[1]]);
  }
  return out;
}
function buildClusterPartition(a) {
  const k = a.cluster;
  const container = readContainer(a.image, a.file);
  const info = inspectImage(container, a.file);
  const chip = chipFor(info, { clusters: a.clusters, uies: a.uies, config: a.config, observer: new PyxisObserver(), quantum: a.quantum, uieFactory: ownUies(a.models, makeUieFactory({ timingOnly: a.timingOnly })) });
  const reads = a.hbmReads[k] ?? [];
  const placed = info.placed.filter((p) => p.space === "hbm" ? hit(reads, p.addr, p.addr + p.section.size) : p.cluster === k);
  loadImage(chip, { ...info, placed, records: info.records.filter((r) => r.cluster === k), hostActions: info.hostActions.filter((x) => x.cluster === k) });
  resetMemoryCounters(chip);
  const unguard = guard(chip, k, a);
  const host2 = chip.host;
  const progress2 = [];
  const tick = host2.tick.bind(host2);
  host2.tick = (now) => {
    const did = tick(now);
    if (did)
      progress2.push(now);
    return did;
  };
  return {
    sim: chip.sim,
    inbound: {},
    outbound: {},
    collect: (end) => {
      unguard();
      chip.apm.finish(end.cycles);
      const wait = end.reason === "done" ? [] : chip.sim.waitGraph();
      const report = buildReport(chip, a.config, end.reason, end.cycles, chip.sim.steps, wait);
      const walkEnd = end.reason === "deadlock" ? Infinity : end.cycles;
      const amem = chip.amem[k];
      return {
        cluster: k,
        report,
        segments: {
          timeouts: chip.barriers.reduce((s, b) => s + b.timeoutsUpTo(walkEnd).length, 0),
          chip: chip.warnings.length,
          amem: (amem.stats.uninitReads > 0 ? 1 : 0) + (amem.firstViewConflict ? 1 : 0),
          uie: chip.uies.reduce((s, u) => s + (u.model?.warnings?.length ?? 0), 0)
        },
        hostProgress: progress2,
        hostBusyAtEnd: host2.busy,
        hostBlocked: hostBlocked(host2, a.recordIndex),
        spans: a.spans.map((s) => s.space === "hbm" ? chip.hbm.readBytes(s.addr, s.len) : s.cluster !== k ? null : s.space === "amem" ? chip.amem[k].readBytes(s.addr, s.len) : chip.cfg[k].readBytes(s.addr, s.len))
      };
    }
  };
}
function ownUies(clusters, f) {
  return ((o) => clusters.includes(o.cluster) ? f(o) : void 0);
}
function hostBlocked(host2, recordIndex) {
  const line = host2.blockedReason();
  if (!line)
    return null;
  const h = host2;
  const g = h.open.length ? h.pending[h.open[0]] : void 0;
  return { line: `host: ${line}`, record: g ? recordIndex[g.recs[0]] : -1 };
}
function guard(chip, k, a) {
  for (let d = 0; d < a.clusters; d++) {
    if (d === k)
      continue;
    const stop = (what) => () => {
      throw new SplitViolation(k, what);
    };
    chip.notifyLinks[d].send = stop(`notifies a barrier of cluster ${d}`);
    chip.icdmaLinks[d].send = stop(`sends ICDMA data to cluster ${d}`);
    chip.nocLinks[d].send = stop(`writes cluster ${d} through the NoC`);
  }
  const others = (rs, also) => rs.flatMap((r, d) => d === k ? [] : [...r, ...also?.[d] ?? []]);
  const foreignWrites = others(a.hbmWrites);
  const foreignUse = others(a.hbmWrites, a.hbmReads);
  const hbm = chip.hbm;
  const read = hbm.read.bind(hbm);
  const write = hbm.write.bind(hbm);
  const mine = merged([...a.hbmReads[k] ?? [], ...a.hbmWrites[k] ?? []]);
  hbm.read = (addr, dst, off, len) => {
    if (hit(foreignWrites, addr, addr + len))
      throw new SplitViolation(k, `reads HBM 0x${addr.toString(16)} that another cluster writes`);
    if (!mine.some((r) => r[0] <= addr && addr + len <= r[1]))
      throw new SplitViolation(k, `reads HBM 0x${addr.toString(16)}, outside the ranges its descriptors name`);
    read(addr, dst, off, len);
  };
  hbm.write = (addr, src, off, len) => {
    if (hit(foreignUse, addr, addr + len))
      throw new SplitViolation(k, `writes HBM 0x${addr.toString(16)} that another cluster uses`);
    write(addr, src, off, len);
  };
  const noc = chip.noc;
  const nread = noc.read.bind(noc);
  const nwrite = noc.write.bind(noc);
  noc.read = (t, len, client) => {
    if (t.space !== "hbm" && t.cluster !== k)
      throw new SplitViolation(k, `reads cluster ${t.cluster}'s ${t.space} through the NoC`);
    return nread(t, len, client);
  };
  noc.write = (t, data2, client) => {
    if (t.space !== "hbm" && t.cluster !== k)
      throw new SplitViolation(k, `writes cluster ${t.cluster}'s ${t.space} through the NoC`);
    nwrite(t, data2, client);
  };
  return () => {
    hbm.read = read;
    hbm.write = write;
    noc.read = nread;
    noc.write = nwrite;
  };
}

// packages/target-pyxis/dist/sim/parallel/clusterMerge.js
var clusterOf = (name) => {
  const m = /^c(\d+)\./.exec(name);
  return m ? Number(m[1]) : -1;
};
function sum(parts) {
  const out = {};
  for (const p of parts)
    for (const [k, v] of Object.entries(p))
      out[k] = (out[k] ?? 0) + v;
  return sortedKeys(out);
}
function hostStats(parts, base2, cycles) {
  const progress2 = /* @__PURE__ */ new Set();
  let last = -1;
  let busyAtEnd = false;
  for (const p of parts) {
    for (const t of p.hostProgress)
      progress2.add(t);
    if (p.hostProgress.length)
      last = Math.max(last, p.hostProgress[p.hostProgress.length - 1]);
    if (p.hostBusyAtEnd)
      busyAtEnd = true;
  }
  const busy = progress2.size;
  const held = busyAtEnd ? cycles : last + 1;
  const stall = Math.max(0, held - busy);
  return {
    ...base2,
    busy,
    stall,
    idle: cycles - busy - stall,
    utilization: cycles > 0 ? busy / cycles : 0,
    occupancy: cycles > 0 ? Math.min(1, (busy + stall) / cycles) : 0,
    stall_reasons: stall > 0 ? { stalled: stall } : {}
  };
}
function mergeClusterReports(parts, m) {
  const first = parts[0].report;
  const of = (c) => (parts.find((p) => p.cluster === c) ?? parts[0]).report;
  const engineOrder = first.engines.map((e) => e.name);
  const engines = first.engines.map((e) => {
    const c = clusterOf(e.name);
    if (c >= 0)
      return of(c).engines.find((x) => x.name === e.name);
    if (e.name === "host")
      return hostStats(parts, e, m.cycles);
    if (e.name === "apm")
      return of(m.apmCluster).engines.find((x) => x.name === "apm");
    return e;
  });
  const seg = parts.map((p) => {
    const w = p.report.warnings;
    const s = p.segments;
    let i = 0;
    const take = (n2) => w.slice(i, i += n2);
    return { timeouts: take(s.timeouts), chip: take(s.chip), amem: take(s.amem), uie: take(s.uie) };
  });
  const chipW = /* @__PURE__ */ new Map();
  for (const s of seg)
    for (const d of s.chip)
      if (!chipW.has(d.message))
        chipW.set(d.message, d);
  const tripsByKind = sum(parts.map((p) => p.report.trips_by_kind));
  const hbmRead = parts.reduce((a, p) => a + p.report.memory.hbm_bytes_read, 0);
  const hbmUninit = parts.reduce((a, p) => a + p.report.memory.hbm_uninit_bytes_read, 0);
  const warnings = [
    ...seg.flatMap((s) => s.timeouts),
    ...[...chipW.values()].sort((a, b) => a.message < b.message ? -1 : a.message > b.message ? 1 : 0),
    ...seg.flatMap((s) => s.amem),
    ...seg.flatMap((s) => s.uie),
    ...chipWarnings(m.records, Object.keys(tripsByKind).length, hbmUninit)
  ];
  return {
    ...first,
    stop: m.stop,
    cycles: m.cycles,
    kernel_steps: parts.reduce((a, p) => a + p.report.kernel_steps, 0),
    trips_by_kind: tripsByKind,
    trips_total: Object.values(tripsByKind).reduce((a, b) => a + b, 0),
    engines,
    ports: first.ports.map((p) => of(clusterOf(p.name) >= 0 ? clusterOf(p.name) : 0).ports.find((x) => x.name === p.name)),
    barriers: first.barriers.map((b) => of(b.cluster).barriers[b.cluster]),
    barrier_events: sum(parts.map((p) => p.report.barrier_events)),
    trip_flush: parts.flatMap((p) => p.report.trip_flush.filter((t) => t.cluster === p.cluster)),
    dpe: first.dpe.map((d) => of(d.cluster).dpe[d.cluster]),
    mpe: { patches: parts.reduce((a, p) => a + p.report.mpe.patches, 0), trips: parts.reduce((a, p) => a + p.report.mpe.trips, 0) },
    apm: of(m.apmCluster).apm,
    trip_power: parts.flatMap((p) => p.report.trip_power.filter((t) => clusterOf(t.engine) === p.cluster)),
    memory: {
      hbm_bytes_read: hbmRead,
      hbm_bytes_written: parts.reduce((a, p) => a + p.report.memory.hbm_bytes_written, 0),
      hbm_uninit_bytes_read: hbmUninit,
      amem_uninit_reads: parts.reduce((a, p) => a + p.report.memory.amem_uninit_reads, 0),
      amem_view_conflicts: parts.reduce((a, p) => a + p.report.memory.amem_view_conflicts, 0),
      amem: first.memory.amem.map((a) => of(a.cluster).memory.amem[a.cluster])
    },
    wait_graph: m.stop === "done" ? [] : waitGraph(parts, engineOrder),
    warnings
  };
}
function waitGraph(parts, order) {
  const rank = new Map(order.map((n2, i) => [n2, i]));
  const engineLines = [];
  const explain = [];
  parts.forEach((p) => {
    const c = p.cluster;
    for (const l of p.report.wait_graph) {
      const name = l.slice(0, l.indexOf(": "));
      if (name === "host")
        continue;
      const r = rank.get(name);
      if (r !== void 0 && clusterOf(name) === c)
        engineLines.push([r, l]);
      else if (r === void 0)
        explain.push(l);
    }
  });
  const blocked = parts.map((p) => p.hostBlocked).filter((b) => !!b);
  const withRecord = blocked.filter((b) => b.record >= 0).sort((a, b) => a.record - b.record);
  const host2 = withRecord[0] ?? blocked[0];
  if (host2)
    engineLines.push([rank.get("host") ?? -1, host2.line]);
  engineLines.sort((a, b) => a[0] - b[0]);
  return [...engineLines.map((x) => x[1]), ...explain];
}

// packages/target-pyxis/dist/sim/parallel/threadedChip.js
var ONE_CLUSTER = "one partition (a single-chip image of one cluster)";
var PROGRESS_WINDOW = 1 << 16;
function onePartition(image, file, o, note) {
  const r = simulateImage(image, file, o);
  return { report: r.report, memory: r.chip, chip: r.chip, parallel: null, note };
}
async function runChipThreaded(image, file, o) {
  const info = "placed" in image ? image : inspectImage(image, file);
  const container = info.container;
  const clusters = o.clusters ?? info.clusters;
  const uies = o.uies ?? info.uies;
  if (clusters < 2)
    return onePartition(info, file, o, ONE_CLUSTER);
  if (o.trace || o.vcd || o.warnUninit)
    return onePartition(info, file, o, `${o.trace ? "--trace" : o.vcd ? "--vcd" : "--warn-uninit"} samples the whole chip`);
  if (o.regions)
    return onePartition(info, file, o, "--dump-region reads raw memory of the whole chip");
  const threads = o.threads ?? defaultThreads(clusters);
  const module = o.module ?? CLUSTER_PARTITION_MODULE;
  const config = o.config ?? loadSimConfig(o.clockHz !== void 0 ? { clockHz: o.clockHz } : {});
  const active = [.../* @__PURE__ */ new Set([...info.records.map((r2) => r2.cluster), ...info.hostActions.map((a) => a.cluster)])].sort((a, b) => a - b);
  if (active.length < 2)
    return onePartition(info, file, o, active.length ? `only cluster ${active[0]} has work` : "no cluster has work");
  let plan;
  try {
    const probe = imageChip(info, config, clusters, (noc) => listTargets({ clusters, records: info.records, hostActions: info.hostActions, noc, ...info.remap ? { remap: info.remap } : {} }));
    plan = planClusterSplit({ clusters, records: info.records, hostActions: info.hostActions, config, noc: probe.noc, ...info.remap ? { remap: info.remap } : {} });
  } catch {
    plan = { ok: false, reason: "the image does not load (the single-partition run reports why)" };
  }
  if (!plan.ok)
    return onePartition(info, file, o, `clusters are not independent: ${plan.reason}`);
  const spans = (o.symbols ?? []).map((s) => {
    const t = resolveDump(container, s, clusters);
    return { space: t.loc.space, cluster: t.loc.cluster, addr: t.loc.addr, len: t.span };
  });
  const imageView = spans.length ? imageChip(info, config, clusters, () => spans.filter((x) => x.space === "hbm" || !active.includes(x.cluster))) : void 0;
  const bytes = writeContainer(container);
  const specs = active.map((c) => {
    const recordIndex = [];
    info.records.forEach((r2, i) => r2.cluster === c && recordIndex.push(i));
    const args = {
      image: bytes,
      file,
      cluster: c,
      clusters,
      uies,
      config,
      timingOnly: !!o.timingOnly,
      quantum: o.quantum ?? DEFAULT_QUANTUM,
      hbmReads: plan.hbmReads,
      hbmWrites: plan.hbmWrites,
      recordIndex,
      spans,
      models: c === active[0] ? [c, ...Array.from({ length: clusters }, (_, d) => d).filter((d) => !active.includes(d))] : [c]
    };
    return { name: `cluster${c}`, module, builder: CLUSTER_PARTITION_BUILDER, args };
  });
  const workers = threads > 1 ? prestartWorkers(Math.min(threads, active.length) - 1, [module]) : [];
  let r;
  try {
    const progress2 = o.onProgress;
    r = await runThreaded(specs, {
      threads,
      workers,
      mainThreadHost: true,
      ...o.maxCycles !== void 0 ? { maxCycles: o.maxCycles } : {},
      ...progress2 ? { lookahead: o.progressWindow ?? PROGRESS_WINDOW, onProgress: (cycle) => progress2(cycle) } : {}
    });
  } catch (e) {
    if (!(e instanceof PartitionFailure))
      throw e;
    const why = e.detail.includes(SplitViolation.name) || /not independent/.test(e.detail) ? e.detail.slice(Math.max(0, e.detail.search(/cluster \d+ /))) : `partition ${e.partition} failed`;
    return onePartition(info, file, o, `${why}`);
  }
  const parts = r.parts.map((p) => p.collected);
  const report = mergeClusterReports(parts, { stop: r.reason, cycles: r.cycles, records: info.records.length, apmCluster: plan.apmCluster });
  return { report, memory: memoryView(parts, spans, plan, clusters, imageView), chip: null, parallel: r, note: r.note };
}
function imageChip(info, config, clusters, places) {
  const chip = chipFor(info, { clusters, config });
  const at2 = places(chip.noc);
  const whole = new Set(at2.filter((x) => x.space !== "hbm").map((x) => x.cluster));
  const hbm = at2.filter((x) => x.space === "hbm");
  const placed = info.placed.filter((p) => p.space !== "hbm" ? whole.has(p.cluster) : hbm.some((x) => x.addr < p.addr + p.section.size && p.addr < x.addr + x.len));
  loadImage(chip, { ...info, placed, records: [], hostActions: [] });
  return chip;
}
function memoryView(parts, spans, plan, clusters, image) {
  const bytes = spans.map((s, j) => {
    if (s.space !== "hbm") {
      const p = parts.find((x) => x.cluster === s.cluster);
      return p ? p.spans[j] : s.space === "amem" ? image.amem[s.cluster].readBytes(s.addr, s.len) : image.cfg[s.cluster].readBytes(s.addr, s.len);
    }
    const out = image.hbm.readBytes(s.addr, s.len);
    for (const p of parts)
      for (const [a, b] of plan.hbmWrites[p.cluster]) {
        const lo2 = Math.max(a, s.addr);
        const hi = Math.min(b, s.addr + s.len);
        if (lo2 < hi)
          out.set(p.spans[j].subarray(lo2 - s.addr, hi - s.addr), lo2 - s.addr);
      }
    return out;
  });
  const reader = (space, cluster2) => ({
    readBytes(addr, len) {
      const j = spans.findIndex((s) => s.space === space && (space === "hbm" || s.cluster === cluster2) && addr >= s.addr && addr + len <= s.addr + s.len);
      if (j < 0)
        throw new Error(`internal: ${space} 0x${addr.toString(16)} (+${len}) was not returned by the cluster partitions`);
      return bytes[j].slice(addr - spans[j].addr, addr - spans[j].addr + len);
    }
  });
  return {
    clusters,
    hbm: reader("hbm", -1),
    amem: Array.from({ length: clusters }, (_, c) => reader("amem", c)),
    cfg: Array.from({ length: clusters }, (_, c) => reader("cfg", c))
  };
}

// packages/sim/dist/kernel/partitionWorker.js
import { parentPort, workerData } from "node:worker_threads";
var port = parentPort;
var host = new PartitionHost();
function fail2(e) {
  const running = host.running();
  const f = e instanceof PartitionFailure ? e : new PartitionFailure(running?.name ?? "(this thread's partitions)", running?.index ?? -1, e instanceof Error ? e.message : String(e), e instanceof Error ? e.stack ?? "" : "", diagnosticsOf(e));
  port.postMessage({ t: "error", partition: f.partition, index: f.index, detail: f.detail, stack: f.stackText, diagnostics: f.diagnostics });
}
port.on("message", (r) => {
  if (r.t === "start")
    return;
  try {
    if (r.t === "window")
      port.postMessage({ t: "window", reply: host.window(r.end, r.inbound, { maxCycles: r.maxCycles }) });
    else if (r.t === "finish")
      port.postMessage({ t: "results", results: host.finish(r.end, r.inbound) });
    else
      port.postMessage({ t: "collected", collected: host.collect(r.end) });
  } catch (e) {
    fail2(e);
  }
});
var start = (specs) => host.start(specs).then((ready) => port.postMessage({ t: "ready", ready }), fail2);
var data = workerData;
if (data.specs)
  void start(data.specs);
else {
  const loaded = Promise.all((data.preload ?? []).map((m) => import(m)));
  loaded.catch(() => void 0);
  port.once("message", (m) => {
    void loaded.catch(() => void 0).then(() => start(m.specs));
  });
}

// ../../../tmp/par-b/entry.mjs
globalThis.__par = parallel_exports;
