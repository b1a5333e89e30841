// The repository's fuzz harness (issue 15): structure-aware mutations of every input kind the tools read,
// each run through the real CLI functions (in-process) and classified. Used by the short run in the tests
// (packages/targets/test/fuzz.test.ts) and the long run (scripts/fuzz.mjs, PYXIS_FUZZ_CASES=10000).
//
//   kinds:   pasm (sources of every target), ld (link scripts), pobj (objects), pimg (images), npy (tensor
//            files), options (option values of the three tools), report (`pyxis-sim report`: mutated stats JSON,
//            trace JSON and sweep results tables), system (system descriptions, fault SPECs)
//   classes: ok (exit 0), diagnostic (exit 1 with a coded diagnostic), usage (exit 2), internal (exit 3, or
//            exit 1 without a diagnostic), hang (over the time limit), stack (a stack trace printed or an
//            exception out of the driver), partial (an output file left behind by a failed run, or a
//            temporary file by any run)
//
// Everything is deterministic from (kind, seed): a failure is reproduced with `node scripts/fuzz.mjs --kind K --seed S`.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readContainer, writeContainer } from '@pyxis/container';
import { runAs, runLd, runSim } from '@pyxis/targets';

export const KINDS = ['pasm', 'ld', 'pobj', 'pimg', 'npy', 'options', 'report', 'system'];
export const CLASSES = ['ok', 'diagnostic', 'usage', 'internal', 'hang', 'stack', 'partial'];
/** Classes that are failures. */
export const FAILURES = ['internal', 'hang', 'stack', 'partial'];

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SAMPLES = join(ROOT, 'samples');

/** mulberry32: a small deterministic generator. */
export function rng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const r = {
    next,
    int: (n) => Math.floor(next() * n),
    pick: (xs) => xs[Math.floor(next() * xs.length)],
    chance: (p) => next() < p,
  };
  return r;
}

// ------------------------------------------------------------------ base inputs

const quiet = { stdout: () => {}, stderr: () => {} };

/** The good inputs every mutation starts from: samples, and objects/images built from them. Built once per process. */
let base;
export async function baseInputs() {
  if (base) return base;
  const dir = mkdtempSync(join(tmpdir(), 'pyxis-fuzz-base-'));
  const pyxis = join(SAMPLES, 'pyxis');
  for (const f of readdirSync(pyxis)) if (/\.(pasm|ld|npy|bin|blob)$/.test(f)) copyFileSync(join(pyxis, f), join(dir, f));
  const build = async (pasm, ld, out) => {
    if ((await runAs([join(dir, `${pasm}.pasm`), '-o', join(dir, `${pasm}.pobj`)], quiet)) !== 0) throw new Error(`fuzz base: cannot assemble ${pasm}`);
    if (ld && (await runLd([join(dir, `${ld}.ld`), join(dir, `${pasm}.pobj`), '-o', join(dir, `${out}.pimg`)], quiet)) !== 0) throw new Error(`fuzz base: cannot link ${ld}`);
  };
  await build('copy', 'copy', 'copy');
  await build('gather', 'gather', 'gather');
  await build('vpu_relu', 'vpu_relu', 'vpu_relu');
  await runLd([join(dir, 'fork_join.ld'), join(dir, 'copy.pobj'), '-o', join(dir, 'fork_join.pimg')], quiet);
  // a NeuronCore object and image too (its metadata and program section have their own schemas)
  copyFileSync(join(SAMPLES, 'neuroncore', 'softmax.ncasm'), join(dir, 'softmax.ncasm'));
  writeFileSync(join(dir, 'nc_softmax.ld'), 'tensor X { zero = true; }\ntensor Y { zero = true; }\n');
  if ((await runAs([join(dir, 'softmax.ncasm'), '-o', join(dir, 'softmax.pobj')], quiet)) !== 0) throw new Error('fuzz base: cannot assemble softmax.ncasm');
  if ((await runLd([join(dir, 'nc_softmax.ld'), join(dir, 'softmax.pobj'), '-o', join(dir, 'softmax.pimg')], quiet)) !== 0) throw new Error('fuzz base: cannot link nc_softmax.ld');
  const sources = [];
  for (const t of ['pyxis', 'xnu', 'neuroncore', 'systolic'])
    for (const f of readdirSync(join(SAMPLES, t))) if (/\.(pasm|xasm|ncasm|tasm)$/.test(f) && !f.includes('_big')) sources.push({ name: f, text: readFileSync(join(SAMPLES, t, f), 'utf8'), extra: t === 'systolic' ? ['--arch', join(SAMPLES, 'systolic', 'arch4.tarch')] : [] });
  // a run's stats and trace for the `report` kind
  await runSim(['run', join(dir, 'copy.pimg'), '--stats', join(dir, 'copy.stats.json'), '--trace', join(dir, 'copy.trace.json')], quiet);
  const read = (f) => readFileSync(join(dir, f));
  base = {
    stats: read('copy.stats.json').toString(),
    trace: read('copy.trace.json').toString(),
    results: 'rows,clusters,cycles,tflops,label\n1024,1,5000,1.5,"a, b"\n2048,1,9800,1.6,c\n1024,2,2600,2.9,d\n2048,2,5100,3.0,e\n',
    sources,
    scripts: [
      { name: 'copy.ld', text: read('copy.ld').toString(), objects: ['copy.pobj'] },
      { name: 'fork_join.ld', text: read('fork_join.ld').toString(), objects: ['copy.pobj'] },
      { name: 'gather.ld', text: read('gather.ld').toString(), objects: ['gather.pobj'] },
      { name: 'vpu_relu.ld', text: read('vpu_relu.ld').toString(), objects: ['vpu_relu.pobj'] },
      { name: 'nc_softmax.ld', text: read('nc_softmax.ld').toString(), objects: ['softmax.pobj'] },
    ],
    objects: ['copy.pobj', 'gather.pobj', 'vpu_relu.pobj', 'softmax.pobj'].map((f) => ({ name: f, bytes: read(f) })),
    images: ['copy.pimg', 'gather.pimg', 'vpu_relu.pimg', 'fork_join.pimg', 'softmax.pimg'].map((f) => ({ name: f, bytes: read(f) })),
    npy: read('copy_src.npy'),
    data: Object.fromEntries(readdirSync(dir).filter((f) => /\.(npy|bin|blob)$/.test(f)).map((f) => [f, read(f)])),
  };
  rmSync(dir, { recursive: true, force: true }); // everything is in memory now
  return base;
}

// ------------------------------------------------------------------ text mutations (sources, link scripts)

const TOKEN_RE = /\s+|\/\/[^\n]*|#[^\n]*|;[^\n]*|"(?:[^"\\\n]|\\.)*"|0[xX][0-9a-fA-F_]+|\d[\d_]*(?:\.\d+)?(?:[eE][-+]?\d+)?[kKmMgG]?|[A-Za-z_.$][\w.$]*|[\s\S]/g;
const NUMBERS = ['0', '-1', '1', '7', '255', '256', '65535', '65536', '0x7fffffff', '0x80000000', '4294967296', '0xffffffffffffffff', '9007199254740993', '1e308', '1e-320', '0.5', '-0', '1_000', '99999999999999999999999999999', '0b101', '64G', '1K'];
const STRINGS = ['""', '"/dev/zero"', '"."', '"/"', '"nonexistent.npy"', '"../../../../etc/passwd"', `"${'a'.repeat(300)}"`, '"copy.pobj"', '"copy.pimg"', '"\\u0000"', '"x\\"y"'];
const JUNK = ['{', '}', '[', ']', '(', ')', ';', ',', '=', ':', '@', '\\', '\u0000', '\u00e9', '\ud83d\ude00', '\t', '\n', '+', '-', '*', '<<', '>>', '~', '.', '..'];

function tokens(text) {
  return text.match(TOKEN_RE) ?? [];
}

/** Sizes of the big edits (repeated lines, long lines, deep nesting); the short run in the tests divides them. */
let SCALE = 1;
export function setScale(s) {
  SCALE = s;
}
const big = (n) => Math.max(2, Math.round(n * SCALE));

/** One to four structure-aware edits of a source or script text. */
export function mutateText(text, r) {
  let t = tokens(text);
  const idx = () => {
    const solid = [];
    t.forEach((x, i) => {
      if (!/^\s+$/.test(x)) solid.push(i);
    });
    return solid.length ? r.pick(solid) : 0;
  };
  const idents = t.filter((x) => /^[A-Za-z_.$][\w.$]*$/.test(x));
  const n = 1 + r.int(4);
  for (let k = 0; k < n; k++) {
    const i = idx();
    switch (r.int(14)) {
      case 0: t.splice(i, 1); break; // delete
      case 1: t.splice(i, 0, t[i] ?? ''); break; // duplicate
      case 2: { const j = idx(); [t[i], t[j]] = [t[j], t[i]]; break; } // swap
      case 3: { const nums = t.map((x, j) => (/^-?\d|^0[xX]/.test(x) ? j : -1)).filter((j) => j >= 0); if (nums.length) t[r.pick(nums)] = r.pick(NUMBERS); break; }
      case 4: if (idents.length) t[i] = r.pick(idents); break;
      case 5: t.splice(i, 0, r.pick(JUNK)); break;
      case 6: { const ss = t.map((x, j) => (x.startsWith('"') ? j : -1)).filter((j) => j >= 0); if (ss.length) t[r.pick(ss)] = r.pick(STRINGS); else t.splice(i, 0, r.pick(STRINGS)); break; }
      case 7: t = t.slice(0, r.int(t.length + 1)); break; // truncate
      case 8: { // repeat a line
        const lines = t.join('').split('\n');
        const l = r.int(lines.length);
        // at most ~1 MB more: stacked big edits (a 20,000-character line repeated 2,000 times) only measure the disk
        const times = Math.min(1 + r.int(r.chance(0.2) ? big(2000) : 20), Math.max(1, Math.floor(1e6 / (lines[l].length + 1))));
        lines.splice(l, 0, ...Array(times).fill(lines[l]));
        t = tokens(lines.join('\n'));
        break;
      }
      case 9: { const d = r.pick([10, 100, 1000, big(10000)]); const [o, c] = r.pick([['(', ')'], ['[', ']'], ['{', '}']]); t.splice(i, 0, o.repeat(d) + '1' + (r.chance(0.5) ? c.repeat(d) : '')); break; } // deep nesting
      case 10: t.splice(i, 0, r.pick(['x', '1+', 'a,', '" "']).repeat(r.pick([big(1000), big(20000)]))); break; // long line
      case 11: t.splice(i, 0, t[idx()] ?? ''); break; // move a copy
      case 12: if (idents.length) t.splice(i, 0, '\n', r.pick(['.include "/dev/zero"', '.include "."', '.include "copy.pasm"', 'input "copy.pimg";', 'input "/dev/null";', '.include "nonexistent.pasm"', r.pick(idents)]), '\n'); break;
      default: t[i] = (t[i] ?? '') + r.pick(JUNK); break;
    }
  }
  return t.join('');
}

// ------------------------------------------------------------------ binary mutations (containers, tensor files)

const JSON_VALUES = () => [null, -1, 0, 1e300, -1e300, 2 ** 53, 'x', '', '0xzz', [], {}, [null], [[[[[]]]]], { a: null }, true, Array(50).fill(0), 'A'.repeat(1000)];

function jsonPaths(v, path = [], out = []) {
  out.push(path);
  if (v && typeof v === 'object' && path.length < 8) for (const k of Object.keys(v).slice(0, 40)) jsonPaths(v[k], [...path, Array.isArray(v) ? Number(k) : k], out);
  return out;
}

function setPath(root, path, value) {
  if (!path.length) return value;
  let o = root;
  for (const k of path.slice(0, -1)) o = o[k];
  const last = path[path.length - 1];
  if (value === undefined) {
    if (Array.isArray(o)) o.splice(last, 1);
    else delete o[last];
  } else o[last] = value;
  return root;
}

function deep(depth) {
  let v = 1;
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}

/** A structure-level edit of a container model (then re-encoded); undefined when the writer refuses it. */
function mutateModel(bytes, r) {
  const c = readContainer(bytes, 'x');
  const n = 1 + r.int(3);
  for (let k = 0; k < n; k++) {
    switch (r.int(6)) {
      case 0:
      case 1: { // metadata: any value at any path
        const paths = jsonPaths(c.metadata);
        const p = r.pick(paths);
        const v = r.chance(0.1) ? undefined : r.chance(0.05) ? deep(r.pick([20, 63, 70])) : r.pick(JSON_VALUES());
        if (!p.length) c.metadata = v && typeof v === 'object' && !Array.isArray(v) ? v : {};
        else setPath(c.metadata, p, v);
        break;
      }
      case 2: { // a section
        const s = r.pick(c.sections);
        if (!s) break;
        const f = r.int(7);
        if (f === 0) { s.kind = r.pick(['code', 'data', 'zero', 'descriptors', 'patch', 'table', 'meta']); if (s.kind === 'zero') s.data = new Uint8Array(0); else if (!s.data.length) s.data = new Uint8Array(s.size > 1 << 20 ? 16 : s.size); s.size = s.kind === 'zero' ? s.size : s.data.length; }
        else if (f === 1) s.address = r.pick([0, 1, 7, 0x3fffffff, 0x40000000, 2 ** 32, 2 ** 36 - 8, 2 ** 40, 2 ** 53 - 1]);
        else if (f === 2) s.space = r.pick(['hbm', 'amem', 'cfg', 'none', 'uie.amem_read.ctrl', 'uie.amem_write.op', 'vpu.imem', 'bogus', '']);
        else if (f === 3) s.cluster = r.pick([-1, 0, 1, 3, 4, 255]);
        else if (f === 4 && s.kind === 'zero') s.size = r.pick([0, 1, 2 ** 30, 2 ** 35, 2 ** 36, 2 ** 40]);
        else if (f === 5) { s.data = new Uint8Array(s.data); for (let i = 0; i < 1 + r.int(8) && s.data.length; i++) s.data[r.int(s.data.length)] = r.int(256); }
        else s.name = r.pick(['', '.enqueue', 'amem_read.x.ctrl', s.name + '.op', 'é'.repeat(10)]);
        break;
      }
      case 3: { // a symbol
        const s = r.pick(c.symbols);
        if (!s) break;
        const f = r.int(5);
        if (f === 0) s.section = r.pick([-1, 0, c.sections.length - 1]);
        else if (f === 1) s.offset = r.pick([0, 1, 2 ** 31, 2 ** 53 - 1]);
        else if (f === 2) s.size = r.pick([0, 1, 1000, 2 ** 40]);
        else if (f === 3) s.kind = r.pick(['program', 'tensor', 'label', 'data', 'blob', 'queue']);
        else s.tensor = r.pick([undefined, { shape: [], format: 'RFP8', eb: 0 }, { shape: [2 ** 30, 2 ** 30], format: 'RFP8', eb: 0 }, { shape: [8, 128], format: 'Bogus', eb: 0 }, { shape: [8, 128], format: 'RFP16', eb: -100000 }, { shape: [8, 128], format: 'RFP8', eb: 0, strides: [-1, 0] }]);
        if (s.tensor === undefined) delete s.tensor;
        break;
      }
      case 4: { // a relocation
        const x = r.pick(c.relocations);
        if (!x) break;
        const f = r.int(4);
        if (f === 0) x.kind = r.pick(['bogus', 'pyxis.sol_pc', x.kind + 'x']);
        else if (f === 1) x.symbol = r.pick(['', 'nope', x.symbol]);
        else if (f === 2) x.addend = r.pick([-1, 2 ** 40, 0]);
        else x.offset = r.pick([0, 8, Math.max(0, (c.sections[x.section]?.size ?? 1) - 1)]);
        break;
      }
      default: c.target = r.pick(['pyxis', 'xnu', 'neuroncore', 'systolic', 'toy', '']);
    }
  }
  try {
    return writeContainer(c);
  } catch {
    return undefined;
  }
}

/** Byte-level edits: flips, overwrites of 1/4/8-byte fields, truncation, extension. */
export function mutateBytes(bytes, r) {
  let b = new Uint8Array(bytes);
  const n = 1 + r.int(4);
  for (let k = 0; k < n; k++) {
    const i = r.int(Math.max(1, b.length));
    switch (r.int(6)) {
      case 0: if (b.length) b[i] ^= 1 << r.int(8); break;
      case 1: if (b.length) b[i] = r.pick([0, 0xff, 0x7f, 0x80, r.int(256)]); break;
      case 2: { const w = r.pick([4, 8]); const v = r.pick([0, 0xff]); for (let j = 0; j < w && i + j < b.length; j++) b[i + j] = j === w - 1 && r.chance(0.5) ? 0x7f : v; break; }
      case 3: b = b.slice(0, r.int(b.length + 1)); break;
      case 4: { const e = new Uint8Array(b.length + 1 + r.int(64)); e.set(b); for (let j = b.length; j < e.length; j++) e[j] = r.int(256); b = e; break; }
      default: if (b.length > 16) { const from = r.int(b.length - 8); b.copyWithin(i, from, from + 8); } break;
    }
  }
  return b;
}

/** A container mutated at the structure level (mostly) or byte level. */
export function mutateContainer(bytes, r) {
  if (r.chance(0.65)) {
    const m = mutateModel(bytes, r);
    if (m) return r.chance(0.15) ? mutateBytes(m, r) : m;
  }
  return mutateBytes(bytes, r);
}

/** A .npy mutated in its header dict (dtype, shape, order, lengths) or its bytes. */
export function mutateNpy(bytes, r) {
  const buf = Buffer.from(bytes);
  const hlen = buf.readUInt16LE(8);
  const header = buf.subarray(10, 10 + hlen).toString('latin1');
  let data = buf.subarray(10 + hlen);
  if (r.chance(0.25)) return mutateBytes(bytes, r);
  let h = header;
  const n = 1 + r.int(3);
  for (let k = 0; k < n; k++) {
    switch (r.int(6)) {
      case 0: h = h.replace(/'descr': '[^']*'/, `'descr': '${r.pick(['<f4', '<f8', '|u1', '<i2', '>f4', '<c8', 'O', '|b1', '<U3', '<f2', '<i8', 'zz', ''])}'`); break;
      case 1: h = h.replace(/'shape': \([^)]*\)/, `'shape': ${r.pick(['()', '(0,)', '(8, 128)', '(1024, 1024, 1024)', '(-1,)', '(8, 128, 1)', '(2**40,)', '(1e3,)', '(', '(8, 128'])}`); break;
      case 2: h = h.replace(/'fortran_order': \w+/, `'fortran_order': ${r.pick(['True', 'False', '1', 'None'])}`); break;
      case 3: data = data.subarray(0, r.int(data.length + 1)); break;
      case 4: h = r.pick([h.replace('{', ''), h + '}', h.replace(/'/g, '"'), '{}', h.replace('shape', 'shap'), h.replace(/,\s*}/, ", 'extra': 1}")]); break;
      default: data = Buffer.concat([data, Buffer.alloc(1 + r.int(300))]); break;
    }
  }
  const hb = Buffer.from(h, 'latin1');
  const pre = Buffer.from(buf.subarray(0, 10));
  pre.writeUInt16LE(r.chance(0.1) ? r.int(65536) : hb.length, 8);
  return new Uint8Array(Buffer.concat([pre, hb, data]));
}

// ------------------------------------------------------------------ cases

const OPTION_VALUES = ['0', '-1', '1', '4', '13', '1e300', '1e6', 'NaN', 'Infinity', '0x10', '', ' ', 'abc', '9007199254740993', '-', '.', '/', '/nonexistent/dir/f', 'x'.repeat(300), 'a/'];
const SIM_OPTIONS = ['--clock-hz', '--max-cycles', '--trace', '--vcd', '--stats', '--report', '--compare', '--vcd-time-unit', '--clusters', '--uies', '--quantum', '--dump', '--dump-region', '--warn-uninit', '--target', '--timing', '--timing-only', '--arch', '--input', '--output', '--samples', '--diagnostics-format', '--log-level', '--set', '--sim-config', '--fabric-faults'];
const LD_OPTIONS = ['-o', '--map', '--map-json', '--max-list-descriptors', '--target', '--arch', '--input', '--diagnostics-format'];
const AS_OPTIONS = ['-o', '--listing', '--emit', '--input', '-I', '--disassemble', '--target', '--arch'];

/**
 * One case: files to write in a fresh directory, the tool and its arguments (paths relative to the
 * directory are made absolute by `runCase`), and the outputs a successful run may write.
 */
export async function makeCase(kind, seed) {
  const b = await baseInputs();
  const r = rng(seed * 7919 + KINDS.indexOf(kind) * 104729 + 1);
  const maxCycles = ['--max-cycles', '200000'];
  switch (kind) {
    case 'pasm': {
      const s = r.pick(b.sources);
      const name = s.name;
      const extra = r.chance(0.3) ? ['--listing', 'out.lst'] : [];
      return { tool: 'as', files: { [name]: mutateText(s.text, r), 'copy.pasm': b.sources.find((x) => x.name === 'copy.pasm').text }, args: [name, '-o', 'out.pobj', ...extra, ...s.extra], outputs: ['out.pobj', 'out.lst'] };
    }
    case 'ld': {
      const s = r.pick(b.scripts);
      const files = { [s.name]: mutateText(s.text, r), ...b.data };
      for (const o of s.objects) files[o] = b.objects.find((x) => x.name === o).bytes;
      files['copy.pimg'] = b.images[0].bytes;
      return { tool: 'ld', files, args: [s.name, ...s.objects, '-o', 'out.pimg', ...(r.chance(0.3) ? ['--map', 'out.map'] : [])], outputs: ['out.pimg', 'out.map'] };
    }
    case 'pobj': {
      const o = r.pick(b.objects);
      const bytes = mutateContainer(o.bytes, r);
      const script = b.scripts.find((s) => s.objects[0] === o.name);
      const mode = r.int(3);
      if (mode === 0) return { tool: 'as', files: { 'in.pobj': bytes }, args: ['--disassemble', 'in.pobj', '-o', 'out.pasm'], outputs: ['out.pasm'] };
      if (mode === 1) return { tool: 'sim', files: { 'in.pobj': bytes }, args: ['inspect', 'in.pobj', ...(r.chance(0.5) ? ['--json'] : []), ...(r.chance(0.3) ? ['--data'] : [])], outputs: [] };
      return { tool: 'ld', files: { [script.name]: script.text, 'in.pobj': bytes, ...b.data }, args: [script.name, 'in.pobj', '-o', 'out.pimg'], outputs: ['out.pimg'] };
    }
    case 'pimg': {
      const img = r.pick(b.images);
      const bytes = mutateContainer(img.bytes, r);
      if (r.chance(0.2)) return { tool: 'sim', files: { 'in.pimg': bytes }, args: ['inspect', 'in.pimg', ...(r.chance(0.5) ? ['--json'] : [])], outputs: [] };
      const outs = r.chance(0.4) ? ['--stats', 'out.json', '--trace', 'out.trace.json', '--vcd', 'out.vcd', '--dump-region', 'hbm:0:0x400=out.bin'] : [];
      return { tool: 'sim', files: { 'in.pimg': bytes }, args: ['run', 'in.pimg', ...maxCycles, '--no-progress', ...outs], outputs: ['out.json', 'out.trace.json', 'out.vcd', 'out.bin'], stopOutputs: ['out.json', 'out.trace.json', 'out.vcd'] };
    }
    case 'npy': {
      const bytes = mutateNpy(b.npy, r);
      if (r.chance(0.4)) return { tool: 'sim', files: { 'x.npy': bytes }, args: ['inspect', 'x.npy', ...(r.chance(0.5) ? ['--json'] : []), ...(r.chance(0.5) ? ['--data'] : [])], outputs: [] };
      const s = b.scripts[0];
      return { tool: 'ld', files: { [s.name]: s.text, 'copy.pobj': b.objects[0].bytes, ...b.data, 'copy_src.npy': bytes }, args: [s.name, 'copy.pobj', '-o', 'out.pimg'], outputs: ['out.pimg'] };
    }
    case 'report': {
      const mode = r.int(3);
      if (mode === 0) return { tool: 'sim', files: { 'in.stats.json': mutateText(b.stats, r) }, args: ['report', 'in.stats.json', '-o', 'out.html'], outputs: ['out.html'] };
      if (mode === 1) return { tool: 'sim', files: { 'in.stats.json': b.stats, 'in.trace.json': mutateText(b.trace, r) }, args: ['report', 'in.stats.json', 'in.trace.json', '-o', 'out.html'], outputs: ['out.html'] };
      const opts = r.chance(0.5) ? [r.pick(['--x', '--y', '--group']), r.pick(['rows', 'cycles', 'label', 'nope', '', 'rows,tflops'])] : [];
      return { tool: 'sim', files: { 'in.csv': mutateText(b.results, r) }, args: ['report', '--sweep', 'in.csv', ...opts, '-o', 'out.html'], outputs: ['out.html'] };
    }
    case 'system': {
      // a system description (docs/system.md), mutated, linked into a .psys; or a good one run with a mutated fault SPEC
      const sys = JSON.stringify({ chips: 3, image: 'copy.pimg', voq_map: [{ group: 1, chip: '+1', cluster: 0 }, { group: 2, chip: 'all' }, { group: 9, vpfe: 6, on: [0, 2] }], fabric: { rtt_ns: 1000, grant: { scheduler: 'fifo' } } }, null, 1);
      if (r.chance(0.7)) return { tool: 'ld', files: { 'sys.json': mutateText(sys, r), 'copy.pimg': b.images[0].bytes }, args: ['sys.json', '-o', 'out.psys', ...(r.chance(0.3) ? ['--map', 'out.map'] : [])], outputs: ['out.psys', 'out.map'] };
      const spec = mutateText('seed=7,drop:data:rate=0.5,corrupt:ack:chip=1:nth=0', r);
      return { tool: 'ld+sim', files: { 'sys.json': sys, 'copy.pimg': b.images[0].bytes }, pre: ['sys.json', '-o', 'in.psys'], args: ['run', 'in.psys', ...maxCycles, '--no-progress', '--fabric-faults', spec, '--stats', 'out.json'], outputs: ['out.json'], stopOutputs: ['out.json'] };
    }
    default: { // options
      const tool = r.pick(['as', 'ld', 'sim']);
      const pool = tool === 'as' ? AS_OPTIONS : tool === 'ld' ? LD_OPTIONS : SIM_OPTIONS;
      const extra = [];
      for (let k = 0; k < 1 + r.int(3); k++) {
        const o = r.pick(pool);
        const v = r.chance(0.7) ? r.pick(OPTION_VALUES) : r.pick(['in.pimg', 'copy.pasm', 'copy.ld', 'copy.pobj', 'out.x', 'hbm:0:16=out.bin', 'src_hbm=out.npy', 'pyxis', 'xnu', 'bogus', 'hbm.read_latency_cycles=300', 'grid.h_fifo_depth=0', 'apm.enabled=maybe', 'uie.vpu_fifo_depth=1', 'cost.HBM_GBPS=1', 'clock_hz=1e300', '=', 'x=']);
        if (['--warn-uninit', '--timing-only', '--disassemble'].includes(o)) extra.push(o);
        else if (r.chance(0.2)) extra.push(`${o}=${v}`);
        else extra.push(o, v);
      }
      const files = { 'copy.pasm': b.sources.find((x) => x.name === 'copy.pasm').text, 'copy.ld': b.scripts[0].text, 'copy.pobj': b.objects[0].bytes, 'in.pimg': b.images[0].bytes, ...b.data };
      const args = tool === 'as' ? ['copy.pasm', '-o', 'out.pobj', ...extra] : tool === 'ld' ? ['copy.ld', 'copy.pobj', '-o', 'out.pimg', ...extra] : ['run', 'in.pimg', ...maxCycles, '--no-progress', ...extra];
      // a stopped run (deadlock, --max-cycles) writes its stats, trace and VCD wherever the options said
      return { tool, files, args, outputs: ['out.pobj', 'out.pimg', 'out.x', 'out.bin', 'out.npy'], stopOutputs: '*' };
    }
  }
}

// ------------------------------------------------------------------ running and classifying

const TOOLS = { as: runAs, ld: runLd, sim: runSim, 'ld+sim': runSim };
const FILEISH = /^(?:[\w.-]+\.(?:pasm|ld|pobj|pimg|psys|npy|bin|blob|lst|map|json|vcd|x|xasm|ncasm|tasm|csv|html)|out\.[\w.]+)$/;

/** Options whose value is a path (an output or input file), and those whose value ends in `=FILE`. */
const PATH_OPTIONS = new Set(['-o', '--output', '--listing', '--map', '--map-json', '--trace', '--vcd', '--stats', '--report', '--sweep', '--samples', '--arch', '-I', '--include-dir']);
const SPEC_OPTIONS = new Set(['--dump', '--dump-region', '--input', '--output', '--compare']);

/**
 * Makes file arguments absolute inside `dir`: known file names, and every value of a path option (whatever
 * the fuzzer put there: `1`, `=x`, ...), so no case ever writes outside its directory. `-` stays stdout.
 */
function absolutize(args, dir) {
  const path = (v) => (v === '-' || v === '' || v.startsWith('/') ? v : join(dir, v));
  const spec = (v) => {
    const i = v.lastIndexOf('=');
    return i < 0 ? path(v) : v.slice(0, i + 1) + path(v.slice(i + 1));
  };
  const out = [];
  for (let k = 0; k < args.length; k++) {
    const a = args[k];
    const eq = /^(--?[\w-]+)=([\s\S]*)$/.exec(a);
    if (eq && /^-\w$/.test(eq[1]) && PATH_OPTIONS.has(eq[1])) out.push(eq[1] + path(`=${eq[2]}`)); // `-o=x`: the value is `=x`
    else if (eq && PATH_OPTIONS.has(eq[1])) out.push(`${eq[1]}=${eq[1] === '--output' ? spec(eq[2]) : path(eq[2])}`);
    else if (eq && SPEC_OPTIONS.has(eq[1])) out.push(`${eq[1]}=${spec(eq[2])}`);
    else if ((PATH_OPTIONS.has(a) || SPEC_OPTIONS.has(a)) && k + 1 < args.length) {
      const v = args[++k];
      out.push(a, a === '--output' || SPEC_OPTIONS.has(a) && !PATH_OPTIONS.has(a) ? spec(v) : path(v));
    } else if (FILEISH.test(a)) out.push(join(dir, a));
    else out.push(a);
  }
  return out;
}

/** A simulation that stopped (deadlock, cycle limit): its stats and trace are complete files, written on purpose (docs/simulator.md). */
const stopped = (err) => /error\[(?:SIM0010|SIM0011)\]|deadlock|max-cycles|cycle limit/i.test(err);

/**
 * Runs one case in a fresh directory under `root` and classifies it. `timeoutMs` only marks slow runs as a
 * hang here (an in-process run cannot be interrupted); scripts/fuzz.mjs runs cases in workers it can stop.
 */
export async function runCase(c, root, timeoutMs = 20_000) {
  const dir = mkdtempSync(join(root, 'case-'));
  for (const [f, data] of Object.entries(c.files)) writeFileSync(join(dir, f), data);
  // a case that needs a linked input first (system: pyxis-ld sys.json -o in.psys)
  if (c.pre) await runLd(['--no-color', ...absolutize(c.pre, dir)], { stdout: () => {}, stderr: () => {} });
  const before = new Set(readdirSync(dir));
  const cwdBefore = new Set(readdirSync(process.cwd()));
  let out = '';
  let err = '';
  let code;
  let thrown;
  const t0 = Date.now();
  try {
    code = await TOOLS[c.tool](['--no-color', ...absolutize(c.args, dir)], { stdout: (s) => void (out.length < 1e6 && (out += s)), stderr: (s) => void (err.length < 1e6 && (err += s)) });
  } catch (e) {
    thrown = e;
  }
  const ms = Date.now() - t0;
  const after = readdirSync(dir).filter((f) => !before.has(f));
  rmSync(dir, { recursive: true, force: true });
  // a file written outside the case directory (the harness must make every path absolute; with cases running
  // in parallel workers this may also name another case's stray file: any of them is a failure to look at)
  const stray = readdirSync(process.cwd()).filter((f) => !cwdBefore.has(f));
  let cls;
  if (stray.length) {
    cls = 'partial';
    err = `wrote outside its directory: ${stray.join(', ')}\n${err}`;
  } else if (thrown) cls = 'stack';
  else if (/\n\s+at .+[(:]\d+:\d+\)?\n/.test(err)) cls = 'stack';
  else if (after.some((f) => f.endsWith('.tmp') || f.endsWith('.partial'))) cls = 'partial';
  else if (code !== 0 && after.some((f) => !(stopped(err) && (c.stopOutputs === '*' || (c.stopOutputs ?? []).includes(f))))) cls = 'partial';
  else if (ms > timeoutMs) cls = 'hang';
  else if (code === 0) cls = 'ok';
  else if (code === 1) cls = /error\[[A-Z]+\d+\]|"severity":"error"/.test(err) ? 'diagnostic' : 'internal';
  else if (code === 2) cls = 'usage';
  else cls = 'internal';
  return { cls, code, ms, err: thrown ? String(thrown?.stack ?? thrown) : err.slice(0, 2000), created: after };
}

export function newRoot() {
  const root = join(tmpdir(), `pyxis-fuzz-${process.pid}-${Date.now()}`);
  mkdirSync(root, { recursive: true });
  return root;
}

export function cleanup(root) {
  if (existsSync(root)) rmSync(root, { recursive: true, force: true });
}
