import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { writeNpy } from '@pyxis/container';
import { DiagnosticError } from '@pyxis/diagnostics';
import { assembleXnu, disassembleXnu, jobsOf, linkXnu, phaseCycles, runXnu, jobCycles, decodeJob } from '@pyxis/target-xnu';

const asm = (text: string) => assembleXnu([{ file: 't.xasm', text }]);
const codes = (text: string) => asm(text).diagnostics.map((d) => d.code);

describe('the cycle table is the spec\'s (validation cycles for PEx8)', () => {
  it('startup 1, init 1, operation 15/10/10/15, aggregation 56/53/53/56, addition 2, output 1', () => {
    const rows = [0, 1, 2, 3].map((op) => phaseCycles(op, 'spec'));
    expect(rows.map((r) => [r.startup, r.init, r.operation, r.aggregation, r.addition, r.output])).toEqual([
      [1, 1, 15, 56, 2, 1],
      [1, 1, 10, 53, 2, 1],
      [1, 1, 10, 53, 2, 1],
      [1, 1, 15, 56, 2, 1],
    ]);
    // The controller's own count: one start_aggr cycle + a 38-cycle counter.
    expect([0, 1, 2, 3].map((op) => phaseCycles(op, 'rtl').aggregation)).toEqual([39, 39, 39, 39]);
  });
});

describe('assembler', () => {
  it('encodes the job descriptor at the table positions (op_type 1:0, use_int 2, rounding 5:3, tininess 6, l1_mode 7, vec_len 23:8)', () => {
    const r = asm('.program p pex8 { job op_type=DOT, use_int=1, rounding=round_odd, tininess=before_rounding, vec_len=0x30, num_vectors=0x01020304, top_k=0 }');
    expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const b = r.programs[0]!.bytes;
    // byte 0 = op_type 2 | use_int 1<<2 | rounding 6<<3 | tininess 0<<6 = 0x36; vec_len 0x30 in bits 23:8; num_vectors at bit 40.
    expect(Array.from(b)).toEqual([0x36, 0x30, 0x00, 0x00, 0x00, 0x04, 0x03, 0x02, 0x01, 0, 0, 0]);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['XNU0115', 'XNU0115']); // rounding and tininess given for an integer job
  });

  it('disassembly assembles back to the same bytes', () => {
    const job = fc.record({
      op: fc.constantFrom('L2', 'L1', 'DOT', 'SV'),
      int: fc.integer({ min: 0, max: 1 }),
      rm: fc.constantFrom('round_near_even', 'round_minMag', 'round_min', 'round_max', 'round_near_maxMag', 'round_odd'),
      tin: fc.constantFrom('before_rounding', 'after_rounding'),
      beats: fc.integer({ min: 1, max: 4095 }),
      n: fc.integer({ min: 1, max: 2 ** 32 - 1 }),
    });
    fc.assert(
      fc.property(job, (j) => {
        const src = `.program p pex8 { job op_type=${j.op}, use_int=${j.int}, rounding=${j.rm}, tininess=${j.tin}, vec_len=${16 * j.beats}, num_vectors=${j.n} }`;
        const a = asm(src);
        expect(a.programs.length).toBe(1);
        const b = asm(disassembleXnu(a.object, 't.pobj'));
        expect(Array.from(b.programs[0]!.bytes)).toEqual(Array.from(a.programs[0]!.bytes));
        expect(decodeJob(a.programs[0]!.bytes).vec_len).toBe(16 * j.beats);
      }),
      { numRuns: 100 },
    );
  });

  it('takes a top-level job as the implicit program `main`, the same descriptor as a named program', () => {
    const top = asm('.const N = 4\njob op_type=L1, vec_len=16 * 2, num_vectors=N');
    const named = asm('.program p pex8 { job op_type=L1, vec_len=32, num_vectors=4 }');
    expect(top.diagnostics).toEqual([]);
    expect(top.programs.map((p) => p.name)).toEqual(['main']);
    expect(Buffer.from(top.programs[0]!.bytes).equals(Buffer.from(named.programs[0]!.bytes))).toBe(true);
    expect(disassembleXnu(top.object, 'x.pobj')).toContain('\njob op_type=L1');
    expect(disassembleXnu(top.object, 'x.pobj')).not.toContain('.program');
    // two top-level jobs are two jobs of one program
    expect(codes('job op_type=L1, vec_len=16, num_vectors=1\njob op_type=L2, vec_len=16, num_vectors=1')).toEqual(['XNU0116']);
  });

  it('--listing is the shared flat listing: the descriptor word most significant byte first, then the source line', () => {
    const src = 'job op_type=L1, use_int=1, vec_len=32, num_vectors=4';
    const r = assembleXnu([{ file: 't.xasm', text: src }], { listing: true });
    const word = Array.from(r.programs[0]!.bytes).reverse().map((b) => b.toString(16).padStart(2, '0')).join('');
    // op_type 1 (bits 1:0), use_int (bit 2), tininess after_rounding (bit 6), vec_len 32 at bit 8, num_vectors 4 at bit 40
    expect(BigInt('0x' + word)).toBe(1n | 4n | 64n | (32n << 8n) | (4n << 40n));
    expect(r.listing).toBe(`; main: 1 instruction of xnu_job (96 bits)\n0  ${word}  job\n`);
  });

  it('reports bad programs with a code each', () => {
    expect(codes('.program p amem { job op_type=L2, vec_len=16, num_vectors=1 }')).toEqual(['XNU0101']);
    expect(codes('.program p pex8 { job op_typ=L2, vec_len=16, num_vectors=1 }')).toEqual(['AS0206']); // unknown field (shared binder, did-you-mean)
    expect(codes('.program p pex8 { job op_type=L2, op_type=L1, vec_len=16, num_vectors=1 }')).toEqual(['AS0208']); // set twice
    expect(codes('.program p pex8 { job op_type=L2, num_vectors=1 }')).toEqual(['XNU0106']);
    expect(codes('.program p pex8 { job op_type=L2, vec_len=70000, num_vectors=1 }')).toEqual(['AS0401']); // out of the 16-bit field
    expect(codes('.program p pex8 { job op_type=L2, vec_len=16, num_vectors=1\n job op_type=L1, vec_len=16, num_vectors=1 }')).toEqual(['XNU0116']);
    expect(codes('.program p pex8 { job op_type=DOT, vec_len=16, num_vectors=1, top_k=1 }')).toEqual(['XNU0112']);
    expect(codes('.program p pex8 { job op_type=L2, vec_len=16, num_vectors=2, top_k=3 }')).toEqual(['XNU0113']);
    expect(codes('.program p pex8 { job op_type=L2, vec_len=16, num_vectors=2 }\n.program p pex8 { job op_type=L2, vec_len=16, num_vectors=2 }')).toEqual(['XNU0108']);
    expect(codes('.program p pex8 { nop }')).toEqual(['AS0217']); // unknown mnemonic
    expect(codes('.program p pex8 { loop 2 { job op_type=L2, vec_len=16, num_vectors=1 } }')).toEqual(['AS0315', 'AS0317']);
    expect(codes('.program p pex8 { }')).toEqual(['AS0315']);
    expect(codes('.const N = 32\n.program p pex8 { job op_type=MANHATTAN, vec_len=N * 2, num_vectors=N }')).toEqual([]);
    expect(codes('.program p pex8 { job op_type=L1, vec_len=16, num_vectors=4, top_k=2 }')).toEqual(['XNU0117']);
    expect(codes('.program p pex8 { job op_type=L1, l1_mode=abs, vec_len=16, num_vectors=4, top_k=2 }')).toEqual([]);
  });
});

function f32npy(shape: number[], data: number[]) {
  return writeNpy({ dtype: 'float32', shape, data: Float32Array.from(data) });
}

function image(src: string, script: string, files: Record<string, Uint8Array>) {
  const a = asm(src);
  expect(a.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return linkXnu({ script, scriptFile: '/x/s.ld', objects: [{ file: 'o.pobj', container: a.object }], readFile: (p) => files[p] });
}

describe('linker', () => {
  const files = { '/x/q.npy': f32npy([16], Array(16).fill(1)), '/x/db.npy': f32npy([2, 16], Array(32).fill(2)) };
  const src = '.program p pex8 { job op_type=DOT, vec_len=16, num_vectors=2 }';
  it('packs the query into local memory and the database into DDR with tensor symbols', () => {
    const r = image(src, 'job p { query = "q.npy"; database = "db.npy"; }', files);
    expect(r.image.sections.map((s) => [s.name, s.space, s.size])).toEqual([
      ['job.p', 'xnu.ctrl', 12],
      ['query.p', 'xnu.lmem', 64],
      ['database.p', 'ddr', 128],
    ]);
    expect(r.image.symbols.find((s) => s.name === 'p.database')!.tensor).toEqual({ shape: [2, 16], format: 'float32', eb: 0 });
    expect(jobsOf(r.image).map((j) => j.name)).toEqual(['p']);
  });
  const fails = (script: string, f = files): string[] => {
    try {
      image(src, script, f);
    } catch (e) {
      return (e as DiagnosticError).diagnostics.map((d) => `${d.code}@${(d.span as { line?: number }).line}`);
    }
    return [];
  };
  it('reports unknown programs, missing and bad attributes, wrong shapes', () => {
    expect(fails('job q { query = "q.npy"; database = "db.npy"; }')).toEqual(['XNU0213@1', 'XNU0211@1']);
    expect(fails('job p {\n query = "q.npy"; }')).toEqual(['XNU0216@1']);
    expect(fails('job p { query = "q.npy"; database = "nope.npy"; }')).toEqual(['XNU0202@1']);
    expect(fails('job p { query = "q.npy";\n database = "q.npy"; }')).toEqual(['XNU0205@2']);
    expect(fails('job p { query = "q.npy"; database = "db.npy"; weights = 1; }')).toEqual(['XNU0215@1']);
    expect(fails('tensor t { }\njob p { query = "q.npy"; database = "db.npy"; }')).toEqual(['XNU0210@1']);
  });
});

describe('machine', () => {
  it('simulated cycles follow the cycle table for any job mix (spec and rtl timing)', () => {
    const arb = fc.array(fc.record({ op: fc.integer({ min: 0, max: 3 }), beats: fc.integer({ min: 1, max: 3 }), n: fc.integer({ min: 1, max: 3 }) }), { minLength: 1, maxLength: 3 });
    fc.assert(
      fc.property(arb, fc.constantFrom('spec' as const, 'rtl' as const), (jobs, timing) => {
        const names = ['L2', 'L1', 'DOT', 'SV'];
        const src = jobs.map((j, i) => `.program j${i} pex8 { job op_type=${names[j.op]}, vec_len=${16 * j.beats}, num_vectors=${j.n} }`).join('\n');
        const files: Record<string, Uint8Array> = {};
        const script = jobs
          .map((j, i) => {
            files[`/x/q${i}.npy`] = f32npy([16 * j.beats], Array(16 * j.beats).fill(0.5));
            files[`/x/d${i}.npy`] = f32npy([j.n, 16 * j.beats], Array(j.n * 16 * j.beats).fill(0.25));
            return `job j${i} { query = "q${i}.npy"; database = "d${i}.npy"; }`;
          })
          .join('\n');
        const r = runXnu(image(src, script, files).image, 'x.pimg', { timing });
        const want = jobs.reduce((s, j, i) => s + jobCycles({ op_type: j.op, use_int: 0, rounding: 0, tininess: 1, l1_mode: 0, vec_len: 16 * j.beats, top_k: 0, num_vectors: j.n }, timing, i === 0), 0);
        expect(r.cycles).toBe(want);
        expect(r.stop).toBe('done');
        // 16 elements of 0.5 * 0.25 per beat (DOT/SV): 2 per beat.
        for (const [i, j] of jobs.entries())
          if (j.op >= 2) expect(Array.from(new Float32Array(r.jobs[i]!.results.buffer))).toEqual(Array(j.n).fill(2 * j.beats));
      }),
      { numRuns: 40 },
    );
  });

  it('--max-cycles stops the run (not done)', () => {
    const files = { '/x/q.npy': f32npy([16], Array(16).fill(1)), '/x/db.npy': f32npy([2, 16], Array(32).fill(2)) };
    const img = image('.program p pex8 { job op_type=DOT, vec_len=16, num_vectors=2 }', 'job p { query = "q.npy"; database = "db.npy"; }', files).image;
    const r = runXnu(img, 'x.pimg', { maxCycles: 50 });
    expect(r.stop).toBe('max-cycles');
    expect(r.cycles).toBe(50);
    // a stopped run processed not all its vectors: no rate (once 2 vectors / 50 cycles were printed as a throughput)
    expect(r.stats['vectors_per_second']).toBe(0);
    expect(r.summary).not.toMatch(/vectors\/s/);
    expect(r.summary).toMatch(/^xnu PEx8: 50 cycles \(max-cycles\), stopped before its 2 vectors were processed: no rate/);
    const done = runXnu(img, 'x.pimg');
    expect(done.stats['vectors_per_second']).toBeCloseTo(2 / (done.cycles / Number(done.stats['clock_hz'])), 6);
  });
});

describe('a corrupted image is a diagnostic at its byte offset, never a crash', () => {
  const files = { '/x/q.npy': f32npy([16], Array(16).fill(1)), '/x/db.npy': f32npy([1, 16], Array(16).fill(2)) };
  const fresh = () => image('.program p pex8 { job op_type=L2, vec_len=16, num_vectors=1 }', 'job p { query = "q.npy"; database = "db.npy"; }', files).image;
  const code = (img: ReturnType<typeof fresh>) => {
    try {
      runXnu(img, 'x.pimg');
    } catch (e) {
      return (e as DiagnosticError).diagnostics[0]!.code;
    }
    return 'ran';
  };
  it('a database shorter than the job', () => {
    const img = fresh();
    img.sections[2]!.data = img.sections[2]!.data.subarray(0, 32);
    expect(code(img)).toBe('XNU0302');
  });
  it('vec_len 8 in the descriptor', () => {
    const img = fresh();
    img.sections[0]!.data[1] = 8;
    expect(code(img)).toBe('XNU0303');
  });
});

describe('rounding codes 0b101 and 0b111 (no HardFloat name; the 3-bit port takes them)', () => {
  // RoundAnyRawFNToRecFN decodes its mode flags by equality with the six named codes; 5 and 7 set none of them,
  // so no increment, no odd jamming, overflow to the largest finite and +0 for exact cancellation: round_minMag.
  const files = { '/x/q.npy': f32npy([16], Array(16).fill(1 / 3)), '/x/db.npy': f32npy([2, 16], Array(32).fill(0.1)) };
  const src = (rm: string) => `.program p pex8 { job op_type=DOT, rounding=${rm}, vec_len=16, num_vectors=2 }`;
  const script = 'job p { query = "q.npy"; database = "db.npy"; }';
  for (const code of [5, 7])
    it(`rounding=${code}: assembled, linked and run as round_minMag, each tool warning once`, () => {
      const a = asm(src(String(code)));
      expect(a.diagnostics.map((d) => `${d.severity} ${d.code}`)).toEqual(['warning XNU0118']);
      expect(a.diagnostics[0]!.message).toMatch(/round_minMag/);
      expect(decodeJob(a.programs[0]!.bytes).rounding).toBe(code);
      expect(disassembleXnu(a.object, 't.pobj')).toMatch(new RegExp(`rounding=${code},`));
      const l = linkXnu({ script, scriptFile: '/x/s.ld', objects: [{ file: 'o.pobj', container: a.object }], readFile: (p) => files[p as keyof typeof files] });
      expect(l.diagnostics.map((d) => d.code)).toEqual(['XNU0218']);
      const r = runXnu(l.image, 'x.pimg');
      expect(r.warnings.map((d) => d.code)).toEqual(['XNU0305']);
      const ref = runXnu(image(src('round_minMag'), script, files).image, 'y.pimg');
      expect(Array.from(r.jobs[0]!.results)).toEqual(Array.from(ref.jobs[0]!.results));
      const near = runXnu(image(src('round_near_even'), script, files).image, 'z.pimg');
      expect(Array.from(r.jobs[0]!.results)).not.toEqual(Array.from(near.jobs[0]!.results)); // the case tells modes apart
    });
});

describe('fp_flags per job (the sticky flags of one job, as its results would be read)', () => {
  it('an overflowing job does not colour the next; the run-level flags are their union', () => {
    const files = {
      '/x/q0.npy': f32npy([16], Array(16).fill(3e38)),
      '/x/d0.npy': f32npy([1, 16], Array(16).fill(3e38)),
      '/x/q1.npy': f32npy([16], Array(16).fill(1)),
      '/x/d1.npy': f32npy([1, 16], Array(16).fill(2)),
    };
    const src = '.program big pex8 { job op_type=DOT, vec_len=16, num_vectors=1 }\n.program small pex8 { job op_type=DOT, vec_len=16, num_vectors=1 }';
    const script = 'job big { query = "q0.npy"; database = "d0.npy"; }\njob small { query = "q1.npy"; database = "d1.npy"; }';
    const r = runXnu(image(src, script, files).image, 'x.pimg');
    const jobs = r.stats['jobs'] as Array<{ name: string; fp_flags: Record<string, boolean> }>;
    // 3e38 * 3e38 overflows (and is inexact); 1 * 2 summed sixteen times is exact.
    expect(jobs.map((j) => [j.name, j.fp_flags])).toEqual([
      ['big', { invalid: false, overflow: true, underflow: false, inexact: true }],
      ['small', { invalid: false, overflow: false, underflow: false, inexact: false }],
    ]);
    expect(r.stats['fp_flags']).toMatchObject({ overflow: true, inexact: true, invalid: false, underflow: false });
    expect(r.summary).toMatch(/big .*\n\s+fp_flags: overflow, inexact/);
  });
});
