/**
 * Fused chains of unary VPU instructions (a fast path of compute/vpu.ts, UieOptions.fastPaths; issue 23): an
 * instruction whose lane result is a function of its own destination's lane alone (`Vpu.table`: rd = rs1 from a GPR,
 * the other operand an immediate or none, no predicate, no InFIFO pop) does not touch the lanes at its cycle; its
 * result table joins the register's pending chain, and the chain is applied to the register when anything reads it
 * (the next instruction that is not such a link, the OutFIFO push of the last link, or a reader of `Vpu.gpr`). Every
 * other effect of the instruction (statistics, `written`, the counter register, errors) happens at its cycle as
 * before; the lanes end up with the same bits, because applying the tables one after another is what the
 * instructions did. A chain seen often is applied as one composed table (`composeChain`), built once per process
 * from the same tables: the ~14 pure instructions of a VPU-bound row cost one table pass instead of 14.
 *
 * Chains are looked up in a trie keyed by the tables themselves (identity): no allocation once a chain is known.
 */

/** One chain prefix: its links' tables are the keys on the path from the root. */
export class ChainNode {
  readonly next = new Map<Uint16Array, ChainNode>();
  /** The composed table of the prefix (depth 1: the link's own table), once built. */
  composite: Uint16Array | undefined;
  /** Flushes of the prefix while it had no composed table. */
  uses = 0;
  constructor(composite: Uint16Array | undefined) {
    this.composite = composite;
  }
}

/** Longest chain (links) before a flush is forced. */
export const CHAIN_MAX = 64;
/** Trie nodes and composed tables (64K codes x 2 bytes each) kept per process before the trie starts over. */
const NODES_MAX = 4096;
const COMPOSITES_MAX = 64;

let root = new ChainNode(undefined);
let nodes = 0;
let composites = 0;

/** Counters for tests and benchmarks (not statistics of the model): composed tables built, chains flushed. */
export const chainDiag = { composed: 0, flushes: 0, links: 0 };

/** The empty chain. */
export function chainRoot(): ChainNode {
  return root;
}

/** The chain `n` followed by the link with table `t`. */
export function chainStep(n: ChainNode, t: Uint16Array): ChainNode {
  let c = n.next.get(t);
  if (c === undefined) {
    if (nodes >= NODES_MAX) {
      root = new ChainNode(undefined);
      nodes = 0;
      composites = 0;
    }
    c = new ChainNode(n === root ? t : undefined);
    n.next.set(t, c);
    nodes++;
  }
  return c;
}

/** The table of tabs[0], then tabs[1], ... tabs[n - 1] applied to every 16-bit code. */
export function composeChain(tabs: readonly Uint16Array[], n: number): Uint16Array {
  if (composites >= COMPOSITES_MAX) {
    root = new ChainNode(undefined);
    nodes = 0;
    composites = 0;
  }
  composites++;
  chainDiag.composed++;
  const t = new Uint16Array(1 << 16);
  for (let x = 0; x < 1 << 16; x++) t[x] = x;
  for (let s = 0; s < n; s++) {
    const f = tabs[s]!;
    for (let x = 0; x < 1 << 16; x++) t[x] = f[t[x]!]!;
  }
  return t;
}
