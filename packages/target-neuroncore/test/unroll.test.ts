/**
 * Loop unrolling is bounded (issue 15: loops nested 14-21 deep unrolled exponentially and never ended):
 * a loop whose trip counts multiply past the limit is refused before any unrolling (NC0090 at the loop),
 * a loop whose bounds depend on outer loop variables is stopped at the limit, and loops nested deeper than
 * 64 levels are a syntax error (NC0003). The estimate is checked against an independent brute-force count.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { runAs } from '@pyxis/targets';
import { assembleNc, parseNc, MAX_UNROLLED, MAX_LOOP_DEPTH } from '../src/index.js';
import { expansionLowerBound } from '../src/unroll.js';

const HDR = '.tensor x sbuf fp32 [128, 64]\n';
const nest = (depth: number, trips: number, body: string) => HDR + Array.from({ length: depth }, (_, i) => `loop i${i} ${trips} {\n`).join('') + body + '\n' + '}\n'.repeat(depth);
const diags = (text: string) => assembleNc([{ file: 'n.ncasm', text }]).diagnostics.map((d) => [d.code, sp(d)?.line, sp(d)?.column, d.message] as const);

/** The source position of a diagnostic (assembler diagnostics carry line/column spans). */
const sp = (d: { span?: unknown }) => d.span as { line: number; column: number; length: number } | undefined;

describe('loop unrolling limits', () => {
  it('20 nested 2-trip loops: NC0090 at the outermost loop, from the trip counts, with nothing unrolled', () => {
    // iterations 2 + 4 + ... + 2^20, inner loop statements executed 2 + ... + 2^19, innermost statements 2^20
    const expected = 2 ** 21 - 2 + (2 ** 20 - 2) + 2 ** 20;
    const r = assembleNc([{ file: 'n.ncasm', text: nest(20, 2, 'vector.memset x[:, :], value=0') }]);
    expect(r.diagnostics.map((d) => [d.code, sp(d)?.line, sp(d)?.column, sp(d)?.length])).toEqual([['NC0090', 2, 1, 4]]);
    expect(r.diagnostics[0]!.message).toBe(`this loop expands to ${expected} statements or more (each iteration counts one); the limit is ${MAX_UNROLLED}`);
    expect(r.program.insns).toHaveLength(0);
  });

  it('the CLI prints file:line:col with a caret under `loop` and exits 1 without an object', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nc-unroll-'));
    const src = join(dir, 'deep.ncasm');
    writeFileSync(src, nest(20, 16, 'vector.memset x[:, :], value=0'));
    let err = '';
    const code = await runAs([src, '-o', join(dir, 'deep.pobj'), '--no-color'], { stdout: () => {}, stderr: (s) => void (err += s) });
    expect(code).toBe(1);
    expect(existsSync(join(dir, 'deep.pobj'))).toBe(false);
    expect(err).toContain('deep.ncasm:2:1: error[NC0090]: this loop expands to 2.58e+24 statements or more');
    expect(err).toContain('2 | loop i0 16 {\n  | ^^^^');
  });

  it('empty and constant-only bodies count: 16 nested 4-trip loops with nothing inside are refused', () => {
    expect(diags(nest(16, 4, '')).map((d) => d[0])).toEqual(['NC0090']);
    expect(diags(nest(20, 2, '.const q = 1')).map((d) => d[0])).toEqual(['NC0090']);
  });

  it('bounds that depend on outer loop variables are counted while unrolling and stopped at the limit', () => {
    // sum over i < 2000 of (1 + i + sum over j < i of j) grows as i^3/6: far past the limit; no estimate sees it
    const d = diags(HDR + 'loop i 300 {\nloop j 0 i {\nloop k 0 j {\n}\n}\n}\n');
    expect(d.map((x) => x[0])).toEqual(['NC0090']);
    expect(d[0]![3]).toBe(`more than ${MAX_UNROLLED} statements after unrolling loops (each iteration counts one)`);
    // a loop over a huge range with an empty body is refused at once
    expect(diags(HDR + 'loop i -1e15 1e15 {\n}\n')[0]![3]).toMatch(/^this loop expands to 2\.00e\+15 statements or more/);
  });

  it('ISA instructions are bounded too (a DMA copy becomes up to 16 transfers)', () => {
    // with the limit lowered to 1000 (the default is MAX_UNROLLED): 100 statements, 1600 transfers
    const text = '.tensor X hbm fp32 [2048, 512]\n.tensor x sbuf fp32 [128, 512]\nloop i 100 {\ndma.copy x, X[0:128, :], queues=16\n}\n';
    const d = assembleNc([{ file: 'n.ncasm', text }], undefined, { maxUnrolled: 1000 }).diagnostics;
    expect(d.map((x) => [x.code, sp(x)?.line, sp(x)?.column])).toEqual([['NC0090', 4, 1]]);
    expect(d[0]!.message).toBe('more than 1000 ISA instructions after unrolling loops');
    expect(assembleNc([{ file: 'n.ncasm', text }]).diagnostics).toEqual([]);
  });

  it('a program just under the limit assembles', () => {
    const r = assembleNc([{ file: 'ok.ncasm', text: HDR + 'loop i 50 {\nloop j 50 {\nvector.memset x[:, :], value=0\n}\n}\n' }]);
    expect(r.diagnostics).toEqual([]);
    expect(r.program.insns.length).toBeGreaterThanOrEqual(2500);
  });

  it(`loops nested ${MAX_LOOP_DEPTH} deep are fine; one level more is NC0003, reported once, even 100,000 levels deep`, () => {
    expect(diags(nest(MAX_LOOP_DEPTH, 1, 'vector.memset x[:, :], value=0'))).toEqual([]);
    expect(diags(nest(MAX_LOOP_DEPTH + 1, 1, ''))).toEqual([['NC0003', MAX_LOOP_DEPTH + 2, 1, `loops nested deeper than ${MAX_LOOP_DEPTH} levels`]]);
    expect(diags(nest(100_000, 1, '')).map((d) => d[0])).toEqual(['NC0003']);
  });

  it('property: the estimate never exceeds a brute-force count of the statements the loops expand to', () => {
    // random nests of loops (bounds from constants, outer variables or unknown names) and plain statements
    type Node = { loop?: { from: string; to: string; body: Node[] } };
    const bound = fc.oneof(fc.integer({ min: -2, max: 4 }).map((v) => `(${v})`), fc.constantFrom('v0', 'v1', 'v2', 'N', 'unknown'));
    const node: fc.Arbitrary<Node> = fc.letrec((tie) => ({
      n: fc.oneof({ depthSize: 'small', withCrossShrink: true }, fc.constant<Node>({}), fc.record({ loop: fc.record({ from: bound, to: bound, body: fc.array(tie('n') as fc.Arbitrary<Node>, { maxLength: 3 }) }) })),
    })).n as fc.Arbitrary<Node>;
    fc.assert(
      fc.property(fc.array(node, { minLength: 1, maxLength: 3 }), (nodes) => {
        const lines: string[] = [];
        const emit = (ns: Node[], depth: number) => {
          for (const n of ns) {
            if (!n.loop) lines.push('.sync auto');
            else {
              lines.push(`loop v${depth} ${n.loop.from} ${n.loop.to} {`);
              emit(n.loop.body, depth + 1);
              lines.push('}');
            }
          }
        };
        emit(nodes, 0);
        const env = new Map([['N', 3]]);
        // brute force: walk every iteration, as the unroller does (1 per statement, 1 per iteration)
        const count = (ns: Node[], depth: number, vars: Map<string, number>): number => {
          let c = 0;
          const val = (b: string) => (b.startsWith("(") ? Number(b.slice(1, -1)) : vars.get(b));
          for (const n of ns) {
            c++;
            if (!n.loop) continue;
            const from = val(n.loop.from);
            const to = val(n.loop.to);
            if (from === undefined || to === undefined) continue;
            for (let i = from; i < to; i++) c += 1 + count(n.loop.body, depth + 1, new Map([...vars, [`v${depth}`, i]]));
          }
          return c;
        };
        const stmts = parseNc(lines.join('\n'), 'p.ncasm', []);
        expect(expansionLowerBound(stmts, (n) => env.get(n))).toBeLessThanOrEqual(count(nodes, 0, env));
      }),
      { numRuns: 300 },
    );
  });
});
