/**
 * The XNU linker back end: binds each job of the objects to its vectors and
 * packs an image.
 *
 *   input "nn.pobj";
 *   job nn_l2 { query = "query.npy"; database = "db.npy"; }
 *
 * `query` is the vector XNU local memory holds (Y: a query, or the weights of
 * a scalar-vector product), shape [vec_len] or [1, vec_len]; `database` the
 * vectors streamed from DDR (X), shape [num_vectors, vec_len]. Element type:
 * float32 for fp32 jobs, int32 (int8/int16 widen) for `use_int` jobs. Every
 * mismatch is a diagnostic at the script's file:line:col.
 */
import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { DiagnosticError, didYouMean, error, type Diagnostic, type SourceSpan } from '@pyxis/diagnostics';
import { FORMAT_VERSION, alignUp, readContainer, readInputFile, readNpy, type Container, type Section, type SymbolEntry, type Tensor } from '@pyxis/container';
import { parseLinkScript, type ScriptBlock, type ScriptValue } from '@pyxis/ld';
import { DDR_SPACE, JOB_SPACE, LMEM_SPACE, jobsOf } from './jobs.js';
import { SPEC, XNU, jobTable, jobText, opName, unnamedRoundingWarning, type Job } from './grammar.js';
import { encode } from '@pyxis/codec';

export { LMEM_SPACE, DDR_SPACE };
/** DDR bursts: 64 bytes = one beat of 16 fp32 words (two 64-bit channels x 4 beats). */
const DDR_ALIGN = 64;

export interface LinkedJob {
  name: string;
  job: Job;
  query: string;
  database: string;
  lmemAddress: number;
  ddrAddress: number;
}

export interface XnuLinkResult {
  image: Container;
  jobs: LinkedJob[];
  diagnostics: Diagnostic[];
}

export interface XnuLinkOptions {
  script: string;
  scriptFile: string;
  objects: Array<{ file: string; container: Container }>;
  readObject?: (path: string) => Container;
  readFile?: (path: string) => Uint8Array | undefined;
}

function defaultRead(p: string): Uint8Array | undefined {
  return existsSync(p) ? readInputFile(p) : undefined; // regular files only, size-capped
}

/** The words of a tensor as uint32 bit patterns, checked against the job; undefined after a diagnostic. */
function words(t: Tensor, j: Job, what: 'query' | 'database', v: ScriptValue, shown: string, diags: Diagnostic[]): Uint32Array | undefined {
  const span = v.span;
  const want = j.use_int ? 'int32' : 'float32';
  const intOk = j.use_int && (t.dtype === 'int8' || t.dtype === 'int16' || t.dtype === 'int32');
  if (!(t.dtype === want || intOk)) {
    diags.push(error('XNU0203', `${what} \`${shown}\` holds ${t.dtype}; a ${j.use_int ? 'use_int=1 job takes int32 (or int8/int16)' : 'fp32 job takes float32'}`, { span, notes: ['convert it first (numpy: a.astype(np.float32)); the linker never rounds values'], spec: `${SPEC} "use_int"` }));
    return undefined;
  }
  const shape = t.shape;
  if (what === 'query') {
    const okShape = (shape.length === 1 && shape[0] === j.vec_len) || (shape.length === 2 && shape[0] === 1 && shape[1] === j.vec_len);
    if (!okShape) {
      diags.push(error('XNU0204', `query \`${shown}\` has shape [${shape.join(', ')}]; the job wants [${j.vec_len}] (vec_len)`, { span }));
      return undefined;
    }
  } else {
    if (shape.length === 2 && shape[0] === 0) {
      diags.push(error('XNU0206', `database \`${shown}\` is empty (shape [${shape.join(', ')}])`, { span }));
      return undefined;
    }
    if (!(shape.length === 2 && shape[0] === j.num_vectors && shape[1] === j.vec_len)) {
      diags.push(error('XNU0205', `database \`${shown}\` has shape [${shape.join(', ')}]; the job wants [${j.num_vectors}, ${j.vec_len}] (num_vectors, vec_len)`, { span }));
      return undefined;
    }
  }
  const out = new Uint32Array(t.data.length);
  if (t.dtype === 'float32') out.set(new Uint32Array(t.data.buffer, t.data.byteOffset, t.data.length));
  else for (let i = 0; i < out.length; i++) out[i] = Number(t.data[i]) >>> 0;
  return out;
}

export function linkXnu(opts: XnuLinkOptions): XnuLinkResult {
  const script = parseLinkScript(opts.script, opts.scriptFile);
  const baseDir = dirname(resolve(opts.scriptFile));
  const read = opts.readFile ?? defaultRead;
  const diags: Diagnostic[] = [];
  const show = (p: string) => (isAbsolute(p) ? p : relative(process.cwd(), join(baseDir, p)) || p);
  const objects = [...opts.objects];
  for (const inp of script.inputs) {
    const full = isAbsolute(inp.path) ? inp.path : join(baseDir, inp.path);
    if (!existsSync(full) && !opts.readObject) {
      diags.push(error('XNU0201', `cannot find input object "${inp.path}"`, { span: inp.span }));
      continue;
    }
    try {
      objects.push({ file: show(inp.path), container: opts.readObject ? opts.readObject(full) : readContainer(read(full)!, show(inp.path)) });
    } catch (e) {
      if (e instanceof DiagnosticError) diags.push(...e.diagnostics);
      else diags.push(error('XNU0201', `cannot read input object "${inp.path}": ${(e as Error).message}`, { span: inp.span }));
    }
  }
  const available = new Map<string, { job: Job; file: string }>();
  for (const o of objects) {
    if (o.container.target !== XNU) {
      diags.push(error('XNU0207', `${o.file} is an object for target \`${o.container.target}\`, not \`xnu\``, { span: { file: o.file, offset: 24 } }));
      continue;
    }
    for (const j of jobsOf(o.container)) {
      if (available.has(j.name)) diags.push(error('XNU0208', `program \`${j.name}\` is defined by ${available.get(j.name)!.file} and ${o.file}`, { span: { file: o.file, offset: 0 } }));
      else {
        available.set(j.name, { job: j.job, file: o.file });
        const rw = unnamedRoundingWarning('XNU0218', j.job, { file: o.file, offset: (o.container.sections[j.section]?.fileOffset ?? 0) + j.offset }, `program \`${j.name}\`: `);
        if (rw) diags.push(rw);
      }
    }
  }
  if (available.size === 0 && !diags.length) diags.push(error('XNU0209', 'no XNU program to link: give the objects on the command line or as `input "x.pobj";`', { span: { file: opts.scriptFile, line: 1, column: 1, length: 1 } }));
  const sections: Section[] = [];
  const symbols: SymbolEntry[] = [];
  const jobs: LinkedJob[] = [];
  const bound = new Set<string>();
  let lmem = 0;
  let ddr = 0;
  for (const b of script.blocks) {
    if (b.kind !== 'job') {
      diags.push(error('XNU0210', `unknown block \`${b.kind}\`; an XNU link script has \`input "x.pobj";\` and \`job NAME { query = "q.npy"; database = "db.npy"; }\``, { span: b.kindSpan }));
      continue;
    }
    const got = bindBlock(b, available, bound, diags, read, baseDir, show);
    if (!got) continue;
    const { name, job, q, db, qFile, dbFile } = got;
    lmem = alignUp(lmem, 4);
    ddr = alignUp(ddr, DDR_ALIGN);
    const jobSec = sections.length;
    sections.push(section(`job.${name}`, 'descriptors', JOB_SPACE, jobs.length * got.descriptor.length, got.descriptor));
    sections.push(section(`query.${name}`, 'data', LMEM_SPACE, lmem, u8(q)));
    sections.push(section(`database.${name}`, 'data', DDR_SPACE, ddr, u8(db)));
    const format = job.use_int ? 'int32' : 'float32';
    symbols.push({ name, kind: 'program', section: jobSec, offset: 0, size: got.descriptor.length, global: true });
    symbols.push({ name: `${name}.query`, kind: 'tensor', section: jobSec + 1, offset: 0, size: q.byteLength, global: true, tensor: { shape: [job.vec_len], format, eb: 0 } });
    symbols.push({ name: `${name}.database`, kind: 'tensor', section: jobSec + 2, offset: 0, size: db.byteLength, global: true, tensor: { shape: [job.num_vectors, job.vec_len], format, eb: 0 } });
    jobs.push({ name, job, query: qFile, database: dbFile, lmemAddress: lmem, ddrAddress: ddr });
    lmem += q.byteLength;
    ddr += db.byteLength;
  }
  for (const [name, a] of available)
    if (!bound.has(name)) diags.push(error('XNU0211', `program \`${name}\` (${a.file}) has no \`job ${name} { query = ...; database = ...; }\` block`, { span: { file: opts.scriptFile, line: 1, column: 1, length: 1 } }));
  const errors = diags.filter((d) => d.severity === 'error');
  if (errors.length) throw new DiagnosticError(errors);
  const image: Container = { kind: 'pimg', version: FORMAT_VERSION, target: XNU, sections, symbols, relocations: [], metadata: { producer: 'pyxis-ld --target xnu', script: opts.scriptFile, jobs: jobs.map((j) => j.name) } };
  return { image, jobs, diagnostics: diags.filter((d) => d.severity !== 'error') };
}

function section(name: string, kind: Section['kind'], space: string, address: number, data: Uint8Array): Section {
  return { name, kind, space, address, size: data.length, align: space === DDR_SPACE ? DDR_ALIGN : 4, flags: 0, data };
}

function u8(w: Uint32Array): Uint8Array {
  return new Uint8Array(w.buffer, w.byteOffset, w.byteLength);
}

function bindBlock(
  b: ScriptBlock,
  available: Map<string, { job: Job; file: string }>,
  bound: Set<string>,
  diags: Diagnostic[],
  read: (p: string) => Uint8Array | undefined,
  baseDir: string,
  show: (p: string) => string,
): { name: string; job: Job; q: Uint32Array; db: Uint32Array; qFile: string; dbFile: string; descriptor: Uint8Array } | undefined {
  const span: SourceSpan = b.nameSpan ?? b.kindSpan;
  if (!b.name) {
    diags.push(error('XNU0212', '`job` needs the program name: `job NAME { ... }`', { span }));
    return undefined;
  }
  const a = available.get(b.name);
  if (!a) {
    diags.push(error('XNU0213', `no program \`${b.name}\` in the objects`, { span, notes: didYouMean(b.name, available.keys()) }));
    return undefined;
  }
  if (bound.has(b.name)) {
    diags.push(error('XNU0214', `program \`${b.name}\` is bound twice`, { span }));
    return undefined;
  }
  bound.add(b.name);
  const attrs = new Map<string, ScriptValue>();
  for (const at of b.attrs) {
    if (at.key !== 'query' && at.key !== 'database') {
      diags.push(error('XNU0215', `unknown job attribute \`${at.key}\` (expected query, database)`, { span: at.keySpan, notes: didYouMean(at.key, ['query', 'database']) }));
      continue;
    }
    attrs.set(at.key, at.value);
  }
  for (const c of b.children) diags.push(error('XNU0215', `unexpected block \`${c.kind}\` inside a job`, { span: c.kindSpan }));
  const load = (what: 'query' | 'database'): { w: Uint32Array; file: string } | undefined => {
    const v = attrs.get(what);
    if (!v) {
      diags.push(error('XNU0216', `job \`${b.name}\` needs \`${what} = "file.npy";\``, { span }));
      return undefined;
    }
    if (v.kind !== 'string' || !v.value.toLowerCase().endsWith('.npy')) {
      diags.push(error('XNU0217', `\`${what}\` takes a quoted .npy file name`, { span: v.span }));
      return undefined;
    }
    const full = isAbsolute(v.value) ? v.value : join(baseDir, v.value);
    const bytes = read(full);
    if (!bytes) {
      diags.push(error('XNU0202', `cannot read ${what} file "${v.value}"`, { span: v.span, notes: [`looked for ${show(v.value)}`] }));
      return undefined;
    }
    let t: Tensor;
    try {
      t = readNpy(bytes, show(v.value));
    } catch (e) {
      if (e instanceof DiagnosticError) diags.push(...e.diagnostics);
      else throw e;
      return undefined;
    }
    const w = words(t, a.job, what, v, v.value, diags);
    return w ? { w, file: v.value } : undefined;
  };
  const q = load('query');
  const db = load('database');
  if (!q || !db) return undefined;
  return { name: b.name, job: a.job, q: q.w, db: db.w, qFile: q.file, dbFile: db.file, descriptor: encode(jobTable(), { ...a.job }) };
}


/** GNU-ld-style map. */
export function xnuMapText(r: XnuLinkResult): string {
  const lines = ['XNU PEx8 link map', '', 'Memory', `  ${'space'.padEnd(10)} ${'address'.padStart(10)} ${'size'.padStart(10)}  section`];
  for (const s of r.image.sections) lines.push(`  ${s.space.padEnd(10)} 0x${s.address.toString(16).padStart(8, '0')} ${String(s.size).padStart(10)}  ${s.name}`);
  lines.push('', 'Jobs');
  for (const j of r.jobs) lines.push(`  ${j.name}: ${jobText(j.job)}`, `    query    ${j.query} -> ${LMEM_SPACE}@0x${j.lmemAddress.toString(16)}`, `    database ${j.database} -> ${DDR_SPACE}@0x${j.ddrAddress.toString(16)}`);
  return lines.join('\n') + '\n';
}

export function xnuMapJson(r: XnuLinkResult): string {
  return (
    JSON.stringify(
      {
        target: XNU,
        sections: r.image.sections.map((s) => ({ name: s.name, space: s.space, address: s.address, size: s.size })),
        jobs: r.jobs.map((j) => ({ name: j.name, ...j.job, op_type: opName(j.job.op_type), query: j.query, database: j.database, lmem_address: j.lmemAddress, ddr_address: j.ddrAddress })),
      },
      null,
      2,
    ) + '\n'
  );
}
