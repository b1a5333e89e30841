/**
 * Link-script pieces of a generated kernel, so that several kernels can be merged into one image (the chained
 * transformer layer, gen/transformer.ts): declarations (memories, tensors, configs), the trips of each queue in queue
 * order, and the dependencies. `renderLd` writes a standalone link script; `mergeParts` concatenates the queues of
 * several kernels (stage order = queue order) and drops repeated declarations.
 */
export interface LdParts {
  /** `memory`, `tensor`, `config` statements. */
  decls: string[];
  /** Queue key (`h2a c`, `a2h c`, `uie c u`) -> trip statements in queue order. */
  queues: Map<string, string[]>;
  /** `B after A;` statements. */
  deps: string[];
}

export const newParts = (): LdParts => ({ decls: [], queues: new Map(), deps: [] });

export function qkey(kind: 'h2a' | 'a2h', cluster: number): string;
export function qkey(kind: 'uie', cluster: number, uie: number): string;
export function qkey(kind: 'h2a' | 'a2h' | 'uie', cluster: number, uie?: number): string {
  return kind === 'uie' ? `uie ${cluster} ${uie}` : `${kind} ${cluster}`;
}

export function pushTrip(p: LdParts, key: string, trip: string): void {
  const q = p.queues.get(key);
  if (q) q.push(trip);
  else p.queues.set(key, [trip]);
}

/** Queue statements: DMA queues of each cluster first, then the UIE queues (cluster, UIE order). */
function renderQueues(queues: Map<string, string[]>): string[] {
  const keys = [...queues.keys()].sort((a, b) => {
    const pa = a.split(' ');
    const pb = b.split(' ');
    const rank = (p: string[]) => (p[0] === 'uie' ? 1 : 0);
    return rank(pa) - rank(pb) || Number(pa[1]) - Number(pb[1]) || (pa[0] === pb[0] ? Number(pa[2] ?? 0) - Number(pb[2] ?? 0) : pa[0]! < pb[0]! ? 1 : -1);
  });
  return keys.map((k) => {
    const [kind, c, u] = k.split(' ');
    return `queue ${kind === 'uie' ? `uie${u}` : kind} { cluster = ${c};\n${queues.get(k)!.join('\n')}\n}`;
  });
}

export function renderLd(header: string, p: LdParts): string {
  return [header, ...p.decls, ...renderQueues(p.queues), p.deps.join('\n')].join('\n') + '\n';
}

/**
 * The identity of a declaration: `config <table> { cluster; uie; index` (one preload per table entry), else the whole
 * statement text. A repeated identity is dropped (the first wins); the generators give a table entry the same content
 * in every kernel that uses it (switch tables, the VPU LUT assignment of `LUT_TABLE`).
 */
function declKey(d: string): string {
  const m = /^config\s+(\S+)\s*\{\s*cluster\s*=\s*(\d+);\s*uie\s*=\s*(\d+);\s*index\s*=\s*(\d+);/.exec(d);
  return m ? `config ${m[1]} ${m[2]} ${m[3]} ${m[4]}` : d;
}

export function mergeParts(list: LdParts[]): LdParts {
  const out = newParts();
  const seen = new Set<string>();
  for (const p of list) {
    for (const d of p.decls) {
      const k = declKey(d);
      if (seen.has(k)) continue;
      seen.add(k);
      out.decls.push(d);
    }
    for (const [k, trips] of p.queues) for (const t of trips) pushTrip(out, k, t);
    out.deps.push(...p.deps);
  }
  return out;
}

/** VPU lookup table of each function (4 tables of 256 entries, memory_map.json `vpu.lut`): one assignment for every kernel, so merged kernels agree. */
export const LUT_TABLE = { exp: 0, recip: 1, rsqrt: 2, gelu: 3 } as const;

/**
 * Switch tables shared by the chained kernels (chip §7.3.1; a UIE holds the last selected configuration across trips,
 * so every chained program selects one explicitly): index 0 = the FP16 (de-)interleave, index 1 = the identity that
 * FP8 rows use.
 */
export const identityRpsw = (w: { cluster: number; uie: number }) => `config rpsw.config { cluster = ${w.cluster}; uie = ${w.uie}; index = 1; entry { src_ptn = [0, 1, 2, 3, 4, 5, 6, 7]; } }`;
export const identityWpsw = (w: { cluster: number; uie: number }) => `config wpsw.config { cluster = ${w.cluster}; uie = ${w.uie}; index = 1; entry { src_ptn = [0, 1, 2, 3, 4, 5, 6, 7]; } }`;
