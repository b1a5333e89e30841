/**
 * 3x3 convolution generator, stride 1 or 2, zero padding 1 (chip §6.1.1; the flow of samples/pyxis/conv3x3_pad.pasm, whose
 * comments derive every field): Y[n] = conv3x3(X[n], W) (+ R[n]) for a batch of images [Cin, H, 128], 16 output
 * channels (one filter per grid-row of the 16, the linker's conv3x3 database, chip §15.1), over UIEs and clusters.
 * One trip computes one row-group of 8 output rows of one image (seq §1.3 rule 1), reading 10 input rows per input
 * channel (seq §1.2 rule 1: 8N + 2 including padding): the first and last row-groups of an image replace the row
 * outside the image by a Read_Const(0) row; columns 0 and 127 see zeros west / east (log2_ptns_per_filter 3).
 *   h2a: image j of a UIE into buffer j mod 2 (and R into the Y buffer)   after the last trip of image j-2
 *   uie: its H/8 row-group trips                                          after the load (and the store of j-2)
 *   a2h: Y of image j                                                     after its last trip
 * x_hbm [N*Cin, H, 128] RFP8 eb -12, y_hbm / r_hbm [N*16, H, 128] RFP16 eb -8 (stride 2: y_hbm [N*16, H/2, 64] RFP8
 * eb -8, the native stride-2 row flow of seq §1.2, 17 input rows per trip of 8 output rows, see stride2Code); the weight database (LnsI4F3 eb -12) is
 * placed in each cluster's AMEM by the image.
 */
import { GenError, requireName, requireInt, requireScale, requireMultiple, workers } from './errors.js';
import { floatValues, lnsValues } from './inputs.js';
import type { GenKernel } from './kernel.js';
import { assignImages, checkAmem, streamImages } from './convPlan.js';
import { errorOf } from './reference.js';
import { conv3x3Wide } from './convWide.js';

export interface ConvParams {
  name?: string;
  images: number;
  cin: number;
  height: number;
  residual?: boolean;
  /** 1 (default) or 2: stride 2 computes the outputs centred on the even rows and columns (native flow, stride2Code). */
  stride?: number;
  /** Columns of the images (default 128, one grid pass); wider: the width-wise tiles of chip §17.2.1 (convWide.ts). */
  width?: number;
  clusters?: number[];
  uies?: number;
  seed?: number;
}

export const COUT = 16;
export const WIDTH = 128;

/** The input channels of a 3x3 flow (one pass or width-wise tiles): GEN0001-0009 as the Hbuf's kernel load needs. */
export function conv3x3Cin(cin: number): number {
  const CIN = requireInt('cin', cin, 1, 4096);
  // CIN * 9 bytes per grid-row in 8-byte chunks loaded two per Hbuf word (LD_2ROWS_8B): CIN a multiple of 16 keeps
  // the chunk count even (one 16-byte Hbuf word = two chunks)
  requireMultiple('cin', CIN, 16, 'the 9-byte kernels of the input channels fill whole 16-byte Hbuf words (2 chunks of 8, seq §9.2.1 LD_2ROWS_8B)');
  // the trip's kernels are one Hbuf block written by LD_2ROWS_8B at consecutive 8-byte addresses: 256 words x 8 bytes =
  // 2048 bytes per grid-row (the Hbuf is 2 banks x 256 words x 8 bytes, chip §6.2.4; docs/spec-notes.md)
  if (CIN * 9 > 2048) throw new GenError('GEN0009', 'cin', `${CIN} input channels need ${CIN * 9} bytes of 3x3 kernels per grid-row; the LD_2ROWS_8B flow addresses 2048 (256 Hbuf words x 8 bytes, chip §6.2.4, seq §9.2.1): at most 224 input channels per trip`);
  return CIN;
}

/** The seeded inputs of a 3x3 flow: x [N·Cin, H, W], the kernels [16, Cin, 3, 3], the residual R [N·16, H, W]. */
export function conv3x3Inputs(name: string, N: number, CIN: number, H: number, W: number, seed: number, residual: boolean): { x: ReturnType<typeof floatValues>; w: ReturnType<typeof lnsValues>; r: ReturnType<typeof floatValues> | undefined; inputs: GenKernel['inputs'] } {
  const x = floatValues(N * CIN * H * W, seed);
  const w = lnsValues(COUT * CIN * 9, seed + 1, -3, 0);
  const inputs: GenKernel['inputs'] = [
    { file: `${name}_x.npy`, shape: [N * CIN, H, W], data: x },
    { file: `${name}_w.npy`, shape: [COUT, CIN, 3, 3], data: w },
  ];
  const r = residual ? floatValues(N * COUT * H * W, seed + 2, 10, -2, 2) : undefined;
  if (r) inputs.push({ file: `${name}_r.npy`, shape: [N * COUT, H, W], data: r });
  return { x, w, r, inputs };
}

export function conv3x3(p: ConvParams): GenKernel {
  if (p.width !== undefined && p.width !== WIDTH) return conv3x3Wide({ ...p, width: p.width });
  const name = p.name ?? 'conv3x3';
  requireName(name);
  const N = requireInt('images', p.images, 1, 65536);
  const CIN = conv3x3Cin(p.cin);
  // the store of an image waits for its H/8 row-group trips: one barrier, notify_count <= 31 (docs/linker.md)
  const H = requireInt('height', p.height, 8, 31 * 8);
  requireMultiple('height', H, 8, 'seq §1.3 rule 1: every trip computes a multiple of 8 output rows (pad the image)');
  const S = p.stride ?? 1;
  if (S !== 1 && S !== 2) throw new GenError('GEN0002', 'stride', `must be 1 or 2 (got ${S}; seq §1.2 gives the 3x3 size rules for strides 1 and 2)`);
  if (S === 2 && p.residual) throw new GenError('GEN0007', 'residual', 'the stride-2 flow writes RFP8 [16, H/2, 64]; an InMemAdd needs the RFP16 output of stride 1 (a projection shortcut is a separate kernel)');
  const HO = H / S;
  const WO = WIDTH / S;
  const ws = workers(p.clusters ?? [0], p.uies ?? 1);
  requireScale('images, height', N * Math.ceil(H / 8 / S), `${N} image(s) x ${Math.ceil(H / 8 / S)} row-group(s)`, N * (CIN + (p.residual ? COUT : 0)) * H * WIDTH);
  const seed = p.seed ?? 1;
  const plan = assignImages(ws, N);
  // x{i}_{0,1} RFP8 [Cin, H, 128] and y{i}_{0,1}; the 3x3 database is 16 x Cin x 9 bytes rounded up (chip §15.1)
  checkAmem(plan, 2 * (CIN * H * 128 + COUT * HO * WO * (S === 2 ? 1 : 2)), 16 * CIN * 16, 'height', 'use a smaller height or Cin, or fewer UIEs per cluster');
  const { x, w, r, inputs } = conv3x3Inputs(name, N, CIN, H, WIDTH, seed, !!p.residual);

  const code = conv3x3Code({ name, cin: CIN, height: H, out: S === 2 ? 's2fp8' : p.residual ? 'rmw16' : 'fp16' });
  const G = code.groups;
  const pasm = `# Generated by pyxis-gen conv3x3 (packages/target-pyxis/src/gen/conv.ts; docs/generators.md): 3x3, stride ${S}, pad 1,\n# Cin ${CIN} -> Cout 16, one row-group of 8 output rows per trip (samples/pyxis/conv3x3_pad.pasm).\n${code.pasm}`;
  const yFmt = S === 2 ? 'RFP8' : 'RFP16';

  const D: string[] = [];
  D.push(`/* Generated by pyxis-gen conv3x3 (docs/generators.md): ${N} image(s) [${CIN}, ${H}, 128] -> [16, ${HO}, ${WO}] (stride ${S}) on ${plan.busy.length} UIE(s). */`);
  for (const c of plan.clusters) D.push(`memory amem${c} { space = amem; cluster = ${c}; view = hashed; origin = 0; length = 64M; }`);
  D.push(`memory hbm { space = hbm; origin = 0; length = 16G; }`);
  D.push(`tensor x_hbm { format = RFP8; shape = [${N * CIN}, ${H}, 128]; eb = -12; region = hbm; data = "${name}_x.npy"; }`);
  D.push(`tensor y_hbm { format = ${yFmt}; shape = [${N * COUT}, ${HO}, ${WO}]; eb = -8; region = hbm; zero = true; }`);
  if (r) D.push(`tensor r_hbm { format = RFP16; shape = [${N * COUT}, ${H}, 128]; eb = -8; region = hbm; data = "${name}_r.npy"; }`);
  for (const c of plan.clusters) D.push(`weights w${c} { kind = conv3x3; data = "${name}_w.npy"; filters_per_grid_row = 1; grid_rows = 16; eb = -12; region = amem${c}; }`);
  for (const { w: w0, i } of plan.busy) {
    for (const s of [0, 1]) D.push(`tensor x${i}_${s} { format = RFP8; shape = [${CIN}, ${H}, 128]; eb = -12; region = amem${w0.cluster}; zero = true; }`);
    for (const s of [0, 1]) D.push(`tensor y${i}_${s} { format = ${yFmt}; shape = [16, ${HO}, ${WO}]; eb = -8; region = amem${w0.cluster}; zero = true; }`);
    // stride 1: the FP16 storage swizzle (chip §7.3.1)
    if (S === 1) D.push(`config wpsw.config { cluster = ${w0.cluster}; uie = ${w0.uie}; index = 0; entry { src_ptn = [0, 4, 1, 5, 2, 6, 3, 7]; } }`);
    else for (const [d, e] of stride2Wpsw().entries()) D.push(`config wpsw.config { cluster = ${w0.cluster}; uie = ${w0.uie}; index = ${d}; entry { src_ptn = [${e.join(', ')}]; } }`);
  }
  D.push(
    ...streamImages(plan, {
      xRows: CIN,
      yRows: COUT,
      residual: !!r,
      trips: ({ i, s, id, cluster: c }) => ({
        trips: Array.from({ length: G }, (_, g) => ({
          name: `cv${id}_${g}`,
          text: `  trip cv${id}_${g} { ${code.trip(g)} weights = w${c}; read = x${i}_${s}[:, ${code.rows(g)[0]}:${code.rows(g)[1]}]; write = y${i}_${s}[:, ${code.outRows(g)[0]}:${code.outRows(g)[1]}];${r ? ` rmw_source = y${i}_${s}[:, ${8 * g}:${8 * g + 8}];` : ''} trip_power = 32; }`,
        })),
      }),
    }),
  );
  const ld = D.join('\n') + '\n';

  const check = (read: (s: string) => Float32Array) => {
    const { ref, abs } = conv3x3Reference(x, w, N, CIN, H, S);
    if (r) for (let i = 0; i < ref.length; i++) ref[i]! += r[i]!;
    // stride 2: the RFP8 output adds one rounding of 2^-4 |y| <= 2^-4 sum |w x| to the FP8 bound
    return { ...errorOf(read('y_hbm'), ref, abs), bound: S === 2 ? 0.125 : 0.06, what: 'max |y - ref| / sum|w x| (normwise, per element)' };
  };
  return {
    name,
    pasm,
    ld,
    inputs,
    luts: [],
    check,
    meta: {
      kind: 'conv3x3', images: N, cin: CIN, cout: COUT, height: H, width: WIDTH, stride: S, residual: !!p.residual, dtype: 'fp8',
      workers: plan.busy.map(({ w: w0 }) => `c${w0.cluster}.uie${w0.uie}`),
      // useful FLOPs: stride 2 counts the H/2 x 64 outputs (the grid computes the even columns of 8 rows per trip,
      // pad rows of the last group included; stride2Code)
      flops: 2 * N * COUT * CIN * 9 * HO * WO,
      hbmBytes: N * (CIN * H * 128 + COUT * HO * WO * (S === 2 ? 1 : 2) * (r ? 2 : 1)),
      outputs: ['y_hbm'],
      layout: { y_hbm: `[N*16, ${HO}, ${WO}] ${yFmt} eb -8` },
    },
  };
}

/**
 * WPSW entries 0..7 of the stride-2 write: a write at partition offset d puts datapath lane (d + j) mod 8 in memory
 * partition j (docs/spec-notes.md "uie: AMEM port lanes"), and after the Unzip the even columns of partition pair j
 * are on lane 2j: entry d routes lane 2j to output (d + j) mod 8 (j = 0..3) and the odd lanes to the rest.
 */
export function stride2Wpsw(): number[][] {
  return Array.from({ length: 8 }, (_, d) => {
    const e = new Array<number>(8);
    for (let j = 0; j < 4; j++) {
      e[(d + j) % 8] = 2 * j;
      e[(d + 4 + j) % 8] = 2 * j + 1;
    }
    return e;
  });
}

/** float64 3x3 convolution of [CIN, H, W] images (W = 128 for stride 2), stride 1 or 2 (even rows and columns kept), zero padding 1, and sum |w x| per output. */
export function conv3x3Reference(x: ArrayLike<number>, w: ArrayLike<number>, N: number, CIN: number, H: number, stride = 1, W = WIDTH): { ref: Float64Array; abs: Float64Array } {
  if (stride === 2) {
    const f = conv3x3Reference(x, w, N, CIN, H);
    const HO = H / 2;
    const ref = new Float64Array(N * COUT * HO * 64);
    const abs = new Float64Array(ref.length);
    for (let c = 0; c < N * COUT; c++)
      for (let r = 0; r < HO; r++)
        for (let q = 0; q < 64; q++) {
          ref[(c * HO + r) * 64 + q] = f.ref[(c * H + 2 * r) * WIDTH + 2 * q]!;
          abs[(c * HO + r) * 64 + q] = f.abs[(c * H + 2 * r) * WIDTH + 2 * q]!;
        }
    return { ref, abs };
  }
  const ref = new Float64Array(N * COUT * H * W);
  const abs = new Float64Array(ref.length);
  for (let n = 0; n < N; n++)
    for (let o = 0; o < COUT; o++)
      for (let i = 0; i < CIN; i++)
        for (let ky = 0; ky < 3; ky++)
          for (let kx = 0; kx < 3; kx++) {
            const k = w[((o * CIN + i) * 3 + ky) * 3 + kx]!;
            for (let row = 0; row < H; row++) {
              const sr = row + ky - 1;
              if (sr < 0 || sr >= H) continue;
              for (let col = 0; col < W; col++) {
                const sc = col + kx - 1;
                if (sc < 0 || sc >= W) continue;
                const v = x[((n * CIN + i) * H + sr) * W + sc]!;
                const o2 = ((n * COUT + o) * H + row) * W + col;
                ref[o2]! += k * v;
                abs[o2]! += Math.abs(k * v);
              }
            }
          }
  return { ref, abs };
}

/**
 * The native stride-2 row flow (seq §1.2 rule 1, §1.3 rule 1; chip §6.1.1, §6.2.1.2.2; seq §10.3 Exec_Config): one
 * trip per row-group of 8 output rows = input rows 16g - 1 .. 16g + 15, 16N + 1 = 17 rows per input channel with the
 * padding. The AMEM Read sends them (Read_Const zero rows for the row above the image and, when H / 2 is not a
 * multiple of 8, for the missing rows below it); per input channel the GX runs Exec_Bubble, then 8 x (Exec_Bubble,
 * Exec_Valid): the Exec_Valid of input row 16g + 2y + 1 computes output row 8g + y (window 2y - 1 .. 2y + 1 of the
 * group), the even input rows shift through as bubbles (17 grid cycles per channel, stride 1: 10 per 8 rows); `even_col_exec_en 1, odd_col_exec_en 0` computes the even
 * columns only. The write zipper's Unzip moves each partition pair's even columns into its lower partition and the WPSW
 * concatenates them into 4 partitions = 64 RFP8 columns (chip §6.2.1.2.2, §6.2.2.3); rows of [16, H/2, 64] RFP8 are 4
 * partitions (chip §7.2.3), so every other row starts at partition offset 4 of an AMEM word: wpsw_rot_enbl selects
 * the entry of that rotation (seq §6.7; stride2Wpsw). Output rows past H / 2 (pad rows of the last group, seq §1.3)
 * are Discarded (seq §6.1).
 */
function stride2Plan(H: number, g: number): { pre: number; r0: number; r1: number; post: number; out: number } {
  const r0 = Math.max(0, 16 * g - 1);
  const r1 = Math.min(H, 16 * g + 16);
  const pre = g === 0 ? 1 : 0;
  return { pre, r0, r1, post: 17 - pre - (r1 - r0), out: Math.min(8, H / 2 - 8 * g) };
}

function stride2Key(H: number, g: number): { rd: string; wr: string } {
  const s = stride2Plan(H, g);
  return { rd: `rd_s2_${s.pre}_${s.r1 - s.r0}`, wr: s.out === 8 ? 'wr_y' : `wr_y_${s.out}` };
}

function stride2Trips(o: { name: string; height: number }): { trip: (g: number) => string; rows: (g: number) => [number, number]; groups: number; outRows: (g: number) => [number, number] } {
  const { name, height: H } = o;
  const progs = `amem_weights_read = ${name}_wr; wdp = ${name}_wdp; gh = ${name}_gh; gv = ${name}_gv; gx = ${name}_gx; gwb = ${name}_gwb;`;
  return {
    // op = conv3x3_s2: the linker checks seq §1.2-1.3 (LD0820: 16N + 1 input rows with the Read_Const pad rows, a
    // multiple of 8 output rows with the Discarded pad rows)
    trip: (g) => `${progs} amem_read = ${name}_${stride2Key(H, g).rd}; amem_write = ${name}_${stride2Key(H, g).wr}; op = conv3x3_s2;`,
    rows: (g) => [stride2Plan(H, g).r0, stride2Plan(H, g).r1],
    groups: Math.ceil(H / 16),
    outRows: (g) => [8 * g, 8 * g + stride2Plan(H, g).out],
  };
}

function stride2Code(o: { name: string; cin: number; height: number; relu?: boolean; outEbAdj?: number; identitySwitch?: number; s2Wpsw?: number; s2RowPtns?: number }, e: (s: string) => void, L: string[]): string {
  const { name, height: H } = o;
  const rd = (o.relu ? 'Read_SRAM_with_ReLU' : 'Read_SRAM') + (o.identitySwitch === undefined ? '' : ` rpsw_config_vld=1 rpsw_config_idx_base=${o.identitySwitch}`);
  const cnst = (n: number) => (n === 0 ? '' : `    loop i1 ${n} {\n      Read_Const data_type=Recogni_FP8 tgt_fifo=Grid rd_const_value=0\n    }\n`);
  const done = new Set<string>();
  for (let g = 0; g < Math.ceil(H / 16); g++) {
    const s = stride2Plan(H, g);
    const k = stride2Key(H, g);
    if (done.has(k.rd)) continue;
    done.add(k.rd);
    e(`# AMEM Read (stride 2): per input channel ${s.pre ? 'a zero pad row, ' : ''}${s.r1 - s.r0} rows${s.post ? `, ${s.post} zero pad row(s)` : ''} = 17 (seq §1.2 rule 1)\n.program ${name}_${k.rd} amem_read {\n  loop i0 ${name}_CIN {\n${cnst(s.pre)}    loop i1 ${s.r1 - s.r0} {\n      ${rd} data_type=Recogni_FP8 tgt_fifo=Grid iter_stride[i0]=${name}_CPITCH iter_stride[i1]=8\n    }\n${cnst(s.post)}  }\n}`);
  }
  e(`.program ${name}_gv gv {\n  loop i0 ${name}_CIN {\n    loop i1 17 {\n      Read_AMEM_FIFO conv3x3_mode=1 dsbl_mapping_corr=0 fbits_truncate_amt=0 eb_adj=0\n    }\n  }\n}`);
  e(`# GX (stride 2): even columns only; per input channel Bubble, then 8 x (Bubble, Valid): Exec_Valid on the odd rows\n.program ${name}_gx gx {\n  Exec_Config conv3x3_mode=1 end_grid_row_idx=15 log2_active_ptns=3 log2_ptns_per_filter=3 odd_col_exec_en=0 even_col_exec_en=1\n  loop i0 ${name}_CIN {\n    Exec_Bubble conv3x3_mode=1\n    loop i1 8 {\n      Exec_Bubble conv3x3_mode=1\n      Exec_Valid conv3x3_mode=1 accum_idx_iter_id=i1 front_staging_done_iter_mask=[i1] zero_accum_iter_mask=[i0] \\\n                 split_accum_iter_mask=[i0, i1] wb_kick_iter_mask=[i0, i1]\n    }\n  }\n}`);
  e(`.program ${name}_gwb gwb {\n  loop i0 16 {\n    Read_WBA tgt_fifo=AMEM diagonal_mask_mode=Disabled eb_adj=0 grid_row_offset=0 grid_row_iter_id=i0 wb_done_iter_mask=[i0]\n  }\n}`);
  const rp = o.s2RowPtns ?? 4;
  const wr = `Write src_fifo=Grid data_type=Recogni_FP8 eb_adj=${o.outEbAdj ?? 0} num_logical_cols=64 wzsw_config=Unzip wpsw_config_vld=1 wpsw_config_idx_base=${o.s2Wpsw ?? 0} wpsw_rot_enbl=1 iter_stride[i0]=${(H / 2) * rp} iter_stride[i1]=${rp}`;
  const outs = new Set<number>();
  for (let g = 0; g < Math.ceil(H / 16); g++) outs.add(stride2Plan(H, g).out);
  for (const n of outs)
    e(`# AMEM Write (stride 2): per output channel q, ${n} output rows${n < 8 ? ` (the other ${8 - n} rows of the group are pad rows below the image: Discard, seq §1.3)` : ''}, even columns (Unzip + WPSW, chip §6.2.1.2.2)\n.program ${name}_${n === 8 ? 'wr_y' : `wr_y_${n}`} amem_write {\n  loop i0 16 {\n    loop i1 ${n} {\n      ${wr}\n    }\n${n < 8 ? `    loop i1 ${8 - n} {\n      Discard src_fifo=Grid\n    }\n` : ''}  }\n}`);
  return L.join('\n') + '\n';
}

/**
 * The microcode of a 3x3, stride 1, pad 1 convolution of [cin, height, 128] RFP8 -> 16 output channels, one trip per
 * row-group of 8 output rows (programs named `${name}_*`). `relu` reads the input with Read_SRAM_with_ReLU (AMEM ReLU
 * on read, chip §7.7.2, seq §5.1.1). `out`: `fp16` writes RFP16 (EB of the grid output), `rmw16` adds into RFP16 by
 * RMW_Add (InMemAdd, chip §7.4.1, seq §6.2.1), `fp8` converts to RFP8 in the write datapath (16b -> 8b with
 * `eb_adj` = `outEbAdj`, seq §6.1, chip §6.2.2.2). `trip(g)` = the program keys of row-group g's trip, `rows(g)` = the
 * input rows it reads [r0, r1).
 */
export function conv3x3Code(o: {
  name: string;
  cin: number;
  height: number;
  relu?: boolean;
  out: 'fp16' | 'rmw16' | 'fp8' | 's2fp8';
  outEbAdj?: number;
  /**
   * RPSW / WPSW table entries holding the identity, selected by the AMEM Read and the RFP8 Write: the partition-switch
   * configuration is held from the previous instruction when `*psw_config_vld` is 0 (seq §5.1, §6.1), so on a UIE
   * whose other trips select the FP16 swizzle entries every program selects its own (docs/spec-notes.md).
   */
  identitySwitch?: number;
  /** Stride 2: first of the 8 WPSW entries of stride2Wpsw (default 0) and the output row pitch in partitions (4). */
  s2Wpsw?: number;
  s2RowPtns?: number;
}): {
  pasm: string;
  trip: (g: number) => string;
  rows: (g: number) => [number, number];
  /** Trips (row-groups of 8 output rows) and the output rows [r0, r1) of trip g that reach memory. */
  groups: number;
  outRows: (g: number) => [number, number];
} {
  const { name, cin: CIN, height: H } = o;
  const G = H / 8;
  const L: string[] = [];
  const e = (s: string) => L.push(s);
  e(conv3x3HeadPrograms(name, CIN, H));
  if (o.out === 's2fp8') return { pasm: stride2Code(o, e, L), ...stride2Trips(o) };
  // AMEM Read variants: rows of the trip's view (its first row is the row above the row-group, when inside the image)
  const variants: Record<string, { pre: boolean; rows: number; post: boolean }> =
    G === 1 ? { one: { pre: true, rows: 8, post: true } } : { top: { pre: true, rows: 9, post: false }, mid: { pre: false, rows: 10, post: false }, bot: { pre: false, rows: 9, post: true } };
  const cnst = `    Read_Const data_type=Recogni_FP8 tgt_fifo=Grid rd_const_value=0`;
  const sw = (k: 'rpsw' | 'wpsw') => (o.identitySwitch === undefined ? '' : ` ${k}_config_vld=1 ${k}_config_idx_base=${o.identitySwitch}`);
  const rd = (o.relu ? 'Read_SRAM_with_ReLU' : 'Read_SRAM') + sw('rpsw');
  for (const [v, d] of Object.entries(variants))
    e(`# AMEM Read (${v}): per input channel ${d.pre ? 'a zero pad row, ' : ''}${d.rows} rows${d.post ? ', a zero pad row' : ''}${o.relu ? ' (ReLU on read, chip §7.7.2)' : ''}\n.program ${name}_rd_${v} amem_read {\n  loop i0 ${name}_CIN {\n${d.pre ? cnst + '\n' : ''}    loop i1 ${d.rows} {\n      ${rd} data_type=Recogni_FP8 tgt_fifo=Grid iter_stride[i0]=${name}_CPITCH iter_stride[i1]=8\n    }\n${d.post ? cnst + '\n' : ''}  }\n}`);
  e(conv3x3GridPrograms(name));
  const fp8 = o.out === 'fp8';
  const op = o.out === 'rmw16' ? 'RMW_Add' : 'Write';
  // FP16 rows are 16 partitions and need the FP16 storage swizzle (WPSW entry 0, chip §7.3.1); RFP8 rows are 8
  const pitch = fp8 ? 8 : 16;
  const fields = fp8 ? `data_type=Recogni_FP8 eb_adj=${o.outEbAdj ?? 0}${sw('wpsw')}` : `data_type=Recogni_FP16${op === 'RMW_Add' ? ' rmw_rd_addr_offset=0' : ''} wpsw_config_vld=1 wpsw_config_idx_base=0`;
  const what = fp8 ? `RFP8 (16b -> 8b in the write datapath, eb_adj ${o.outEbAdj ?? 0}, seq §6.1)` : op === 'RMW_Add' ? 'RMW_Add: Y = R + conv (chip §7.4.1)' : 'RFP16';
  e(`# AMEM Write: grid-row q = output channel q (pitch H rows of ${pitch} partitions), slot s = output row s; ${what}\n.program ${name}_wr_y amem_write {\n  loop i0 16 {\n    loop i1 8 {\n      ${op} src_fifo=Grid ${fields} iter_stride[i0]=${H * pitch} iter_stride[i1]=${pitch}\n    }\n  }\n}`);
  const progs = `amem_weights_read = ${name}_wr; wdp = ${name}_wdp; gh = ${name}_gh; gv = ${name}_gv; gx = ${name}_gx; gwb = ${name}_gwb; amem_write = ${name}_wr_y;`;
  return {
    pasm: L.join('\n') + '\n',
    // stride 1 declares its operation so that the linker checks seq §1.2-1.3 (LD0820: 8N + 2 rows read, pad rows made
    // by Read_Const included; 8 output rows)
    trip: (g) => `${progs} amem_read = ${name}_rd_${G === 1 ? 'one' : g === 0 ? 'top' : g === G - 1 ? 'bot' : 'mid'}; op = conv3x3_s1;`,
    rows: (g) => [g === 0 ? 0 : 8 * g - 1, Math.min(H, 8 * g + 9)],
    groups: G,
    outRows: (g) => [8 * g, 8 * g + 8],
  };
}

/**
 * The weight-side programs every 3x3 flow shares (`${name}_wr`, `_wdp`, `_gh`: the trip's Cin x 9 kernel bytes per
 * grid-row through LD_2ROWS_8B into one Hbuf block, seq §9.2.1) and the constants `${name}_CIN`, `_CHUNKS` and
 * `_CPITCH` (the input channel pitch in partitions: H rows of `rowPtns`).
 */
export function conv3x3HeadPrograms(name: string, CIN: number, H: number, rowPtns = 8): string {
  const CHUNKS = (CIN * 9) / 8;
  return [
    `.const ${name}_CIN = ${CIN}\n.const ${name}_CHUNKS = ${CHUNKS}\n.const ${name}_CPITCH = ${H * rowPtns}          # input channel pitch in partitions (H rows of ${rowPtns})`,
    `.program ${name}_wr amem_weights_read {\n  loop i0 ${name}_CHUNKS {\n    Read_SRAM wdc_type=Uncompressed iter_stride[i0]=8\n  }\n}`,
    `.program ${name}_wdp wdp {\n  loop i0 ${name}_CHUNKS {\n    WR_HBUF hbuf_wr_control=LD_2ROWS_8B log2_ptns_per_hlane=0 dsbl_mapping_corr=1 eb_adj=0 lin2log_config_vld=1 \\\n            hbuf_block_size=${name}_CHUNKS/2 hbuf_block_start_en=1 hbuf_block_end_en=1 hbuf_block_iter_mask=[i0] \\\n            hbuf_stride_dim1=1 hbuf_stride_iter_id_dim1=i0\n  }\n}`,
    `.program ${name}_gh gh {\n  loop i0 ${name}_CIN {\n    loop i1 1 {\n      HBUF_RD_VLD hbuf_rd_cmd=RD_3X3 end_grid_row_idx=15 log2_filters_per_row=0 h_staging_filter_iter_id=i1 h_staging_done_en=1 \\\n                  hbuf_block_size=${name}_CHUNKS/2 hbuf_block_start_en=1 hbuf_block_end_en=1 hbuf_block_iter_mask=[i0, i1] \\\n                  hbuf_stride_dim1=9 hbuf_stride_iter_id_dim1=i0\n    }\n  }\n}`,
  ].join('\n');
}

/**
 * The stride-1 grid programs (chip §6.1.1): GV reads the 10 rows per input channel (`conv3x3_mode`), GX runs 2
 * Exec_Bubble + 8 Exec_Valid per input channel over 8 partitions per filter (zeros west of grid column 0 and east
 * of 127, seq §10.3), GWB offloads the 16 grid-rows.
 */
export function conv3x3GridPrograms(name: string): string {
  return [
    `.program ${name}_gv gv {\n  loop i0 ${name}_CIN {\n    loop i1 10 {\n      Read_AMEM_FIFO conv3x3_mode=1 dsbl_mapping_corr=0 fbits_truncate_amt=0 eb_adj=0\n    }\n  }\n}`,
    `.program ${name}_gx gx {\n  Exec_Config conv3x3_mode=1 end_grid_row_idx=15 log2_active_ptns=3 log2_ptns_per_filter=3 odd_col_exec_en=1 even_col_exec_en=1\n  loop i0 ${name}_CIN {\n    loop i1 2 {\n      Exec_Bubble conv3x3_mode=1\n    }\n    loop i1 8 {\n      Exec_Valid conv3x3_mode=1 accum_idx_iter_id=i1 front_staging_done_iter_mask=[i1] zero_accum_iter_mask=[i0] \\\n                 split_accum_iter_mask=[i0, i1] wb_kick_iter_mask=[i0, i1]\n    }\n  }\n}`,
    `.program ${name}_gwb gwb {\n  loop i0 16 {\n    Read_WBA tgt_fifo=AMEM diagonal_mask_mode=Disabled eb_adj=0 grid_row_offset=0 grid_row_iter_id=i0 wb_done_iter_mask=[i0]\n  }\n}`,
  ].join('\n');
}
