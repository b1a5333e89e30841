#!/usr/bin/env node
// NeuronCore lexer scaling (issue 15): one long line of each shape below lexed at 128 KiB and at 1 MiB;
// the time per byte must not grow with the line (a quadratic lexer takes 8x longer per byte at 8x the
// length). Next to it, in the same run, the reference: a loop that allocates one token-shaped object per
// byte of the same line (the allocation floor of any lexer that returns token objects). Each figure is
// the best of --runs N (default 3). Exit 1 when a shape's per-byte growth exceeds 4x (quadratic work grows 8x).
// Run after `npm run build`:  node scripts/bench-nc-lexer.mjs [--runs N]
import { lexLine } from '../packages/target-neuroncore/dist/index.js';

const arg = (k, d) => {
  const i = process.argv.indexOf(k);
  return i >= 0 ? process.argv[i + 1] : d;
};
const runs = Number(arg('--runs', '3'));
const SMALL = 128 * 1024;
const BIG = 1024 * 1024;

/** Line shapes: many small tokens, long tokens, blanks, strings with escapes, an unterminated string, a comment. */
const SHAPES = {
  'operands a,a,a': (n) => 'vector.memset ' + 'a,'.repeat(n / 2),
  'slices x[0:1, 2]': (n) => 'dma.copy ' + 'x[0:1, 2],'.repeat(n / 10),
  'dots ....': (n) => '.'.repeat(n),
  'one identifier': (n) => 'x'.repeat(n),
  'one number 1_1_': (n) => '1_'.repeat(n / 2),
  'blanks then @': (n) => ' '.repeat(n) + 'a',
  'strings "\\"x",': (n) => '"\\"x",'.repeat(n / 6),
  'unterminated "\\\\..': (n) => '"' + '\\\\'.repeat(n / 2),
  'comment # """': (n) => 'a # ' + '"'.repeat(n),
};

function best(fn) {
  fn();
  let t = Infinity;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    t = Math.min(t, performance.now() - t0);
  }
  return t;
}
const lex = (s) => () => {
  try {
    return lexLine(s).length;
  } catch {
    return 0; // a syntax error (an unterminated string) ends the scan where it is found
  }
};
const floor = (s) => () => {
  const out = [];
  for (let i = 0; i < s.length; i++) out.push({ t: 'p', v: s[i], n: 0, col: i + 1 });
  return out.length;
};

console.log(`lexLine, best of ${runs}: ns per byte at ${SMALL / 1024} KiB and ${BIG / 1024} KiB, growth = ratio of the two`);
console.log(`${'shape'.padEnd(22)} ${'128K ns/B'.padStart(10)} ${'1M ns/B'.padStart(10)} ${'growth'.padStart(7)}   reference 1M ns/B`);
let bad = 0;
for (const [name, make] of Object.entries(SHAPES)) {
  const small = make(SMALL);
  const big = make(BIG);
  const a = (best(lex(small)) * 1e6) / small.length;
  const b = (best(lex(big)) * 1e6) / big.length;
  const ref = (best(floor(big)) * 1e6) / big.length;
  const growth = b / Math.max(a, 1e-3);
  if (growth > 4) bad++;
  console.log(`${name.padEnd(22)} ${a.toFixed(1).padStart(10)} ${b.toFixed(1).padStart(10)} ${growth.toFixed(2).padStart(7)}   ${ref.toFixed(1).padStart(10)}`);
}
console.log(bad ? `${bad} shape(s) grow faster than linearly` : 'linear: no shape grows faster than linearly');
process.exit(bad ? 1 : 0);
