/**
 * The system description (docs/system.md): N Pyxis chips (1..144), their images (one for all, SPMD, or one per
 * chip), every chip's Pyxis_VOQ_to_VPFE_map (chip §10.2) in explicit or compact (ring / neighbour / all-to-all)
 * notation, the VPFE of every cluster, and fabric parameter overrides (validated against grammars/pyxis/fabric.json).
 * Errors carry the JSON path and file:line:col (LD0900, LD0901). The result is plain data (serialisable: a worker
 * thread can build a chip from it).
 */
import { parseTree, findNodeAtLocation, type Node, type ParseError, printParseErrorCode } from 'jsonc-parser';
import { error, nearest, type Diagnostic, type SourceSpan } from '@pyxis/diagnostics';
import { FabricCodes } from './codes.js';
import { FABRIC_NOT_MODELLED, FABRIC_OVERRIDABLE, loadFabricJson, validateFabricJson, type FabricJson } from './wireParams.js';
import { isLegalVpfe, legalVpfe } from './vpfe.js';

export const VOQ_UNMAPPED = 0xffff;

export interface SystemDesc {
  file: string;
  chips: number;
  /** Per chip: the image path as written (relative to the system file's folder). */
  images: string[];
  /** Per chip: the VPFE of each cluster. */
  clusterVpfe: number[][];
  /** Per chip: Pyxis_VOQ_to_VPFE_map (2K entries, VOQ_UNMAPPED where not configured). */
  voqToVpfe: Uint16Array[];
  /** fabric.json with the system's overrides applied. */
  fabric: FabricJson;
  /** Where each voq_map rule came from (for the linker's diagnostics). */
  spans: {
    voqMap: SourceSpan | undefined;
    /** Per chip: where its image is named (`$.image` or `$.images[k]`), with that JSON path. */
    images: Array<{ path: string; span: SourceSpan }>;
  };
}

let lineCache: { text: string; starts: number[] } | null = null;
/** file:line:col of a JSON node (line starts computed once per text: many diagnostics stay linear). */
export function spanAt(file: string, text: string, offset: number, length = 1): SourceSpan {
  if (lineCache?.text !== text) {
    const starts = [0];
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
    lineCache = { text, starts };
  }
  const st = lineCache.starts;
  let lo = 0;
  let hi = st.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (st[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { file, line: lo + 1, column: offset - st[lo]! + 1, length };
}

type Path = Array<string | number>;
function pathText(p: Path): string {
  return '$' + p.map((k) => (typeof k === 'number' ? `[${k}]` : `.${k}`)).join('');
}

class Reader {
  readonly diags: Diagnostic[] = [];
  constructor(
    readonly file: string,
    readonly text: string,
    readonly root: Node,
  ) {}
  node(p: Path): Node | undefined {
    return findNodeAtLocation(this.root, p);
  }
  fail(p: Path, msg: string, code: string = FabricCodes.badSystem, spec?: string): void {
    // a missing key is reported at the nearest enclosing value that exists (the rule, not the file's first byte)
    let n = this.node(p);
    for (let up = p.length - 1; !n && up >= 0; up--) n = this.node(p.slice(0, up));
    this.diags.push(error(code, `${pathText(p)}: ${msg}`, { span: n ? spanAt(this.file, this.text, n.offset, Math.min(n.length, 80)) : spanAt(this.file, this.text, 0), ...(spec ? { spec } : {}) }));
  }
  value(p: Path): unknown {
    const n = this.node(p);
    return n ? nodeValue(n) : undefined;
  }
}

/** A node's value without recursion on the JS stack for deep inputs (jsonc-parser's getNodeValue recurses). */
function nodeValue(n: Node): unknown {
  if (n.type === 'object' || n.type === 'array') {
    // Only shallow structures are read as values here; deep nesting is refused by depth() first.
    if (n.type === 'array') return (n.children ?? []).map(nodeValue);
    const o: Record<string, unknown> = {};
    for (const prop of n.children ?? []) o[String(prop.children![0]!.value)] = prop.children![1] ? nodeValue(prop.children![1]) : undefined;
    return o;
  }
  return n.value;
}

function depth(root: Node): number {
  let max = 0;
  const stack: Array<[Node, number]> = [[root, 1]];
  while (stack.length) {
    const [n, d] = stack.pop()!;
    if (d > max) max = d;
    for (const c of n.children ?? []) stack.push([c, d + 1]);
  }
  return max;
}

const TOP_KEYS = ['chips', 'image', 'images', 'voq_map', 'cluster_vpfe', 'fabric', 'doc'];
const RULE_KEYS = ['group', 'chip', 'cluster', 'vpfe', 'on', 'doc'];

/** Every key given twice in one object (JSON leaves it open; here the later value would win silently). */
function duplicateKeys(root: Node): Array<{ path: Path; key: string; at: Node }> {
  const out: Array<{ path: Path; key: string; at: Node }> = [];
  const stack: Array<[Node, Path]> = [[root, []]];
  while (stack.length) {
    const [n, p] = stack.pop()!;
    if (n.type === 'object') {
      const seen = new Set<string>();
      for (const prop of n.children ?? []) {
        const k = String(prop.children![0]!.value);
        if (seen.has(k)) out.push({ path: [...p, k], key: k, at: prop.children![0]! });
        seen.add(k);
        if (prop.children![1]) stack.push([prop.children![1], [...p, k]]);
      }
    } else if (n.type === 'array') (n.children ?? []).forEach((c, i) => stack.push([c, [...p, i]]));
  }
  return out.sort((a, b) => a.at.offset - b.at.offset);
}

/** Parses and validates a system description; returns the system or the diagnostics. */
export function parseSystem(file: string, text: string): { system: SystemDesc | null; diagnostics: Diagnostic[] } {
  // jsonc-parser recurses per nesting level: refuse deep nesting first, by one linear scan (strings and the
  // accepted // and /* */ comments skipped).
  const MAX_DEPTH = 12;
  for (let i = 0, depth = 0, inStr = false; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inStr) {
      if (ch === 92) i++;
      else if (ch === 34) inStr = false;
    } else if (ch === 34) inStr = true;
    else if (ch === 47 && text.charCodeAt(i + 1) === 47) {
      const nl = text.indexOf('\n', i);
      i = nl < 0 ? text.length : nl;
    } else if (ch === 47 && text.charCodeAt(i + 1) === 42) {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 1;
    }
    else if (ch === 123 || ch === 91) {
      if (++depth > MAX_DEPTH) return { system: null, diagnostics: [error(FabricCodes.badSystem, `nested too deeply (at most ${MAX_DEPTH} levels)`, { span: spanAt(file, text, i) })] };
    } else if (ch === 125 || ch === 93) depth--;
  }
  const errs: ParseError[] = [];
  const root = parseTree(text, errs, { allowTrailingComma: false, disallowComments: false });
  if (errs.length || !root) {
    const e = errs[0];
    return {
      system: null,
      diagnostics: [error(FabricCodes.badSystem, `not valid JSON: ${e ? printParseErrorCode(e.error) : 'empty file'}`, { span: spanAt(file, text, e?.offset ?? 0) })],
    };
  }
  const r = new Reader(file, text, root);
  if (root.type !== 'object') {
    r.fail([], 'a system description is a JSON object');
    return { system: null, diagnostics: r.diags };
  }
  if (depth(root) > 12) {
    r.fail([], 'nested too deeply (at most 12 levels)');
    return { system: null, diagnostics: r.diags };
  }
  const dups = duplicateKeys(root);
  if (dups.length) {
    // pointed at by the repeated key itself (a path resolves to the first of the duplicates)
    for (const d of dups) r.diags.push(error(FabricCodes.badSystem, `${pathText(d.path)}: \`${d.key}\` is given twice in one object`, { span: spanAt(file, text, d.at.offset, Math.min(d.at.length, 80)) }));
    return { system: null, diagnostics: r.diags };
  }
  for (const prop of root.children ?? []) {
    const k = String(prop.children![0]!.value);
    if (!TOP_KEYS.includes(k)) r.fail([k], `unknown key \`${k}\` (expected one of ${TOP_KEYS.join(', ')})`);
  }
  const fabric = loadFabricJson();
  const maxChips = fabric.system.max_chips;
  const cpc = fabric.system.clusters_per_chip;
  const chips = r.value(['chips']);
  if (!(typeof chips === 'number' && Number.isInteger(chips) && chips >= 1 && chips <= maxChips)) {
    r.fail(r.node(['chips']) ? ['chips'] : [], `\`chips\` must be an integer 1..${maxChips} (chip §10.2: up to 144 Pyxis chips)`, FabricCodes.badSystem, 'pyxis-chip-fspec.md §10.2');
    return { system: null, diagnostics: r.diags };
  }
  // Images: one for all (SPMD) or one per chip.
  let images: string[] = [];
  const img = r.value(['image']);
  const imgs = r.value(['images']);
  if (img !== undefined && imgs !== undefined) r.fail(['images'], 'give either `image` (one image for every chip) or `images` (one per chip), not both');
  else if (typeof img === 'string' && img !== '') images = new Array<string>(chips).fill(img);
  else if (img !== undefined) r.fail(['image'], 'must be a file name');
  else if (Array.isArray(imgs)) {
    if (imgs.length !== chips) r.fail(['images'], `has ${imgs.length} entries for ${chips} chips`);
    imgs.forEach((v, i) => {
      if (typeof v !== 'string' || v === '') r.fail(['images', i], 'must be a file name');
    });
    images = imgs as string[];
  } else if (imgs !== undefined) r.fail(['images'], 'must be an array of file names, one per chip');
  else r.fail([], 'no `image` (one for every chip) or `images` (one per chip)');

  // Cluster VPFEs (§10.2: each VPFE is one target cluster on one chip).
  const clusterVpfe: number[][] = Array.from({ length: chips }, (_, c) => Array.from({ length: cpc }, (_, k) => legalVpfe(c * cpc + k)));
  const cv = r.value(['cluster_vpfe']);
  if (cv !== undefined) {
    const errorsBefore = r.diags.length;
    if (!Array.isArray(cv) || cv.length !== chips) r.fail(['cluster_vpfe'], `must be an array of ${chips} arrays (one per chip) of ${cpc} VPFEs`);
    else
      cv.forEach((row, c) => {
        if (!Array.isArray(row) || row.length !== cpc) return r.fail(['cluster_vpfe', c], `must be an array of ${cpc} VPFEs`);
        row.forEach((v, k) => {
          if (!isLegalVpfe(v as number, fabric.system.vpfe_bits))
            r.fail(['cluster_vpfe', c, k], `VPFE ${JSON.stringify(v)} is not legal: 0..2047 with VPFE[1:0] != 3`, FabricCodes.badVpfe, 'pyxis-chip-fspec.md §10.2');
          else clusterVpfe[c]![k] = v as number;
        });
      });
    const seen = new Map<number, string>();
    // Duplicates only among valid entries (an invalid one keeps its default and would be reported twice).
    if (r.diags.length === errorsBefore) clusterVpfe.forEach((row, c) =>
      row.forEach((v, k) => {
        const prev = seen.get(v);
        if (prev) r.fail(['cluster_vpfe', c, k], `VPFE ${v} is already ${prev}: each VPFE is one cluster of one chip`, FabricCodes.badVpfe, 'pyxis-chip-fspec.md §10.2');
        seen.set(v, `chip ${c} cluster ${k}`);
      }),
    );
  }

  // Pyxis_VOQ_to_VPFE_map (§10.2): 2K entries indexed by Pyxis_VOQ[12:2].
  const entries = fabric.system.voq_map_entries;
  const maps = Array.from({ length: chips }, () => new Uint16Array(entries).fill(VOQ_UNMAPPED));
  const vm = r.node(['voq_map']);
  if (vm && vm.type !== 'array') r.fail(['voq_map'], 'must be an array of rules (docs/system.md)');
  else if (vm)
    (vm.children ?? []).forEach((_, i) => {
      const p: Path = ['voq_map', i];
      const rule = r.value(p);
      if (!rule || typeof rule !== 'object' || Array.isArray(rule)) return r.fail(p, 'a rule is an object {group, chip, cluster} or {group, vpfe}');
      const o = rule as Record<string, unknown>;
      for (const k of Object.keys(o)) if (!RULE_KEYS.includes(k)) r.fail([...p, k], `unknown key \`${k}\` (expected one of ${RULE_KEYS.join(', ')})`);
      const group = o.group;
      if (!(typeof group === 'number' && Number.isInteger(group) && group >= 0 && group < entries))
        return r.fail([...p, 'group'], `must be the VOQ group Pyxis_VOQ[12:2], 0..${entries - 1}`, FabricCodes.badSystem, 'pyxis-chip-fspec.md §10.2');
      let on: number[] = [...Array(chips).keys()];
      if (o.on !== undefined) {
        const list = Array.isArray(o.on) ? o.on : [o.on];
        if (!list.every((c) => Number.isInteger(c) && (c as number) >= 0 && (c as number) < chips)) return r.fail([...p, 'on'], `must be a chip 0..${chips - 1} or an array of them`);
        on = list as number[];
      }
      if (o.vpfe !== undefined) {
        if (o.chip !== undefined || o.cluster !== undefined) return r.fail(p, 'give either `vpfe` or `chip` + `cluster`');
        if (!isLegalVpfe(o.vpfe as number, fabric.system.vpfe_bits))
          return r.fail([...p, 'vpfe'], `VPFE ${JSON.stringify(o.vpfe)} is not legal: 0..2047 with VPFE[1:0] != 3`, FabricCodes.badVpfe, 'pyxis-chip-fspec.md §10.2');
        for (const c of on) maps[c]![group] = o.vpfe as number;
        return;
      }
      const cluster = o.cluster ?? 0;
      if (!(Number.isInteger(cluster) && (cluster as number) >= 0 && (cluster as number) < cpc)) return r.fail([...p, 'cluster'], `must be a cluster 0..${cpc - 1}`);
      const ch = o.chip;
      if (ch === 'all') {
        // group + i -> chip i, for i = 0..chips-1 (all-to-all).
        if (group + chips > entries) return r.fail([...p, 'group'], `group ${group} + ${chips} chips passes the ${entries}-entry map`);
        for (const c of on) for (let i = 0; i < chips; i++) maps[c]![group + i] = clusterVpfe[i]![cluster as number]!;
        return;
      }
      let rel: number | null = null;
      let abs: number | null = null;
      if (typeof ch === 'string' && /^[+-]\d{1,4}$/.test(ch)) rel = Number(ch);
      else if (Number.isInteger(ch) && (ch as number) >= 0 && (ch as number) < chips) abs = ch as number;
      else return r.fail([...p, 'chip'], `must be a chip 0..${chips - 1}, a ring neighbour "+k" / "-k", or "all"`);
      for (const c of on) {
        const d = abs ?? (((c + rel!) % chips) + chips) % chips;
        maps[c]![group] = clusterVpfe[d]![cluster as number]!;
      }
    });

  // Fabric overrides.
  const fo = r.node(['fabric']);
  if (fo) {
    if (fo.type !== 'object') r.fail(['fabric'], 'must be an object of fabric.json overrides');
    else {
      const flat: Array<[string, Path]> = [];
      for (const prop of fo.children ?? []) {
        const k = String(prop.children![0]!.value);
        const v = prop.children![1];
        if (v?.type === 'object') for (const q of v.children ?? []) flat.push([`${k}.${String(q.children![0]!.value)}`, ['fabric', k, String(q.children![0]!.value)]]);
        else flat.push([k, ['fabric', k]]);
      }
      for (const [key, p] of flat) {
        const spec = FABRIC_OVERRIDABLE[key];
        const unused = FABRIC_NOT_MODELLED[key];
        if (unused) {
          r.fail(p, `\`${key}\` cannot be set: ${unused}`);
          continue;
        }
        const group = Object.keys(FABRIC_OVERRIDABLE).filter((k) => k.startsWith(`${key}.`));
        if (!spec && group.length) {
          // `"grant": 5`: a group given a value
          r.fail(p, `\`${key}\` must be an object of ${group.map((k) => `\`${k.slice(key.length + 1)}\``).join(', ')}`);
          continue;
        }
        if (!spec) {
          const near = nearest(key, Object.keys(FABRIC_OVERRIDABLE));
          r.fail(p, `\`${key}\` is not a fabric parameter a system may set${near ? ` (did you mean \`${near}\`?)` : ''} (one of ${Object.keys(FABRIC_OVERRIDABLE).join(', ')})`);
          continue;
        }
        const v = r.value(p);
        const parts = key.split('.');
        const tgt = (parts.length === 2 ? (fabric as unknown as Record<string, Record<string, unknown>>)[parts[0]!]! : (fabric as unknown as Record<string, unknown>)) as Record<string, unknown>;
        const leaf = parts[parts.length - 1]!;
        // the grant policy's two keys, checked where they are written (not at `$.fabric` by the whole-file check)
        if (key === 'grant.scheduler' && v !== 'round_robin' && v !== 'fifo') {
          r.fail(p, `must be "round_robin" or "fifo", got ${JSON.stringify(v)}`);
          continue;
        }
        if (key === 'grant.messages_first' && typeof v !== 'boolean') {
          r.fail(p, `must be true or false, got ${JSON.stringify(v)}`);
          continue;
        }
        if (typeof tgt[leaf] === 'number') {
          if (typeof v !== 'number' || !(v >= spec.min) || !(v <= (spec.max ?? Infinity)) || (spec.integer && !Number.isInteger(v))) {
            r.fail(p, `must be ${spec.integer ? 'an integer' : 'a number'} ${spec.max !== undefined ? `in ${spec.min}..${spec.max}` : `>= ${spec.min}`}, got ${JSON.stringify(v)}`);
            continue;
          }
        }
        tgt[leaf] = v;
      }
      try {
        validateFabricJson(fabric);
      } catch (e) {
        r.fail(['fabric'], (e as Error).message);
      }
    }
  }
  if (r.diags.length) return { system: null, diagnostics: r.diags };
  return {
    system: {
      file,
      chips,
      images,
      clusterVpfe,
      voqToVpfe: maps,
      fabric,
      spans: {
        voqMap: vm ? spanAt(file, text, vm.offset, 1) : undefined,
        images: images.map((_, c) => {
          const p: Path = img !== undefined ? ['image'] : ['images', c];
          const n = r.node(p)!;
          return { path: pathText(p), span: spanAt(file, text, n.offset, Math.min(n.length, 80)) };
        }),
      },
    },
    diagnostics: [],
  };
}
