/**
 * 1x1 convolution generator with the linker's 1x1 weight databases (chip §6.1.2, §15.2, §15.4): Y[n] = W x X[n]
 * (+ R[n]) for a batch of images [Cin, P, 128] (P rows of 128 pixels), 128 output channels (16 grid-rows x 8 virtual
 * grid-rows), one trip per pixel row. The microcode is that of samples/pyxis/conv1x1_residual.pasm (`linear8`,
 * uncompressed LnsI4F3) and conv1x1_compressed.pasm (`compressed`, cin_per_cout, block size 8: codebook word, then per
 * group of 8 input channels a scaling-factor word and 4 words of 4-bit indices); their comments derive every field.
 * `linear16` (LnsI5F10, chip §15.3): the same database shape with 4 input channels per 8-byte group, loaded by the
 * seq §9.2.1 flow with is_16bit, read by RD_1X1_MATMUL_FP16 with the 16-bit v_staging pattern of matmul_fp16.pasm.
 * Scheduling as conv.ts: images loaded by H2A into double-buffered AMEM tiles, P trips, A2H store.
 * x_hbm [N*Cin, P, 128] RFP8 eb -12, y_hbm / r_hbm [N*128, P, 128] RFP16 eb -8; the database is placed in each
 * cluster's AMEM by the image.
 */
import { GenError, requireName, requireInt, requireScale, requireMultiple, workers } from './errors.js';
import { floatValues, lnsValues, rng } from './inputs.js';
import type { GenKernel } from './kernel.js';
import { assignImages, checkAmem, streamImages } from './convPlan.js';
import { stride2Wpsw } from './conv.js';
import { errorOf } from './reference.js';

export type Weights1x1 = 'linear8' | 'linear16' | 'compressed';
export const WEIGHTS_1X1: readonly Weights1x1[] = ['linear8', 'linear16', 'compressed'];

export interface Conv1x1Params {
  name?: string;
  images: number;
  cin: number;
  rows: number;
  weights?: Weights1x1;
  residual?: boolean;
  /** 2: the output is the even rows and columns, [128, P/2, 64] RFP8 (the conv3x3 --stride 2 write; default 1). */
  stride?: number;
  clusters?: number[];
  uies?: number;
  seed?: number;
}

const COUT = 128;

export function conv1x1(p: Conv1x1Params): GenKernel {
  const name = p.name ?? 'conv1x1';
  requireName(name);
  const wk = p.weights ?? 'linear8';
  if (!WEIGHTS_1X1.includes(wk)) throw new GenError('GEN0006', 'weights', `must be one of ${WEIGHTS_1X1.join(', ')} (got ${String(wk)})`, 2);
  const N = requireInt('images', p.images, 1, 65536);
  const CIN = requireInt('cin', p.cin, 1, 4096);
  if (wk === 'linear16') requireMultiple('cin', CIN, 4, 'seq §1.2 rule 2: 16-bit weights need a multiple of 4 input channels');
  else requireMultiple('cin', CIN, 8, wk === 'compressed' ? 'seq §1.4 rule 1: the compression blocks hold 8 input channels (cin_per_cout, block size 8)' : 'seq §1.2 rule 2: 8-bit weights need a multiple of 8 input channels');
  // the store of an image waits for its P trips on one barrier (notify count <= 31, docs/linker.md)
  const P = requireInt('rows', p.rows, 1, 31);
  const S = p.stride ?? 1;
  if (S !== 1 && S !== 2) throw new GenError('GEN0002', 'stride', `must be 1 or 2 (got ${S})`);
  if (S === 2) requireMultiple('rows', P, 2, 'stride 2 keeps every other input row: the output has rows / 2 rows');
  if (S === 2 && p.residual) throw new GenError('GEN0007', 'residual', 'the stride-2 flow writes RFP8 [128, rows/2, 64]; an InMemAdd needs the RFP16 output of stride 1');
  // output rows (a trip per output row: input row S q) and their layout: RFP16 [128, P, 128], or RFP8 [128, P/2, 64]
  const PO = P / S;
  const WO = 128 / S;
  const yFmt = S === 2 ? 'RFP8' : 'RFP16';
  // an image's slice of x_hbm (Cin x P rows of 128 bytes) is one H2A transfer in whole 1 KiB units at a 1 KiB-aligned
  // HBM offset (chip §11.4.3; the linker's LD0509): with Cin = 4 mod 8 (linear16) P must be even
  if ((CIN * P) % 8 !== 0) throw new GenError('GEN0003', 'rows', `must be even when cin (${CIN}) is not a multiple of 8 (got ${P}): each image of x_hbm (cin x rows x 128 bytes) is moved by H2A in whole 1 KiB units from a 1 KiB-aligned HBM offset (chip §11.4.3)`);
  const ws = workers(p.clusters ?? [0], p.uies ?? 1);
  requireScale('images, rows', N * PO, `${N} image(s) x ${PO} row(s)`, N * (CIN + (p.residual ? COUT : 0)) * P * 128);
  const seed = p.seed ?? 1;
  const plan = assignImages(ws, N);
  // x{i}_{0,1} RFP8 [Cin, P, 128], y{i}_{0,1} RFP16 [128, P, 128]; the database is 128 x Cin (x 2 for linear16) bytes
  checkAmem(plan, 2 * (CIN * P * 128 + COUT * PO * WO * (S === 2 ? 1 : 2)), COUT * CIN * 2, 'cin', 'use fewer input channels or rows, or fewer UIEs per cluster');
  const x = floatValues(N * CIN * P * 128, seed);
  // linear16: ±2^(e + f/1024), exact in LnsI5F10 (10 fraction bits) but not in LnsI4F3
  const w = wk === 'linear16' ? lns16Values(COUT * CIN, seed + 1) : lnsValues(COUT * CIN, seed + 1);
  const inputs: GenKernel['inputs'] = [
    { file: `${name}_x.npy`, shape: [N * CIN, P, 128], data: x },
    { file: `${name}_w.npy`, shape: [COUT, CIN], data: w },
  ];
  const r = p.residual ? floatValues(N * COUT * P * 128, seed + 2, 10, -2, 2) : undefined;
  if (r) inputs.push({ file: `${name}_r.npy`, shape: [N * COUT, P, 128], data: r });

  const L: string[] = [];
  const e = (s: string) => L.push(s);
  e(`# Generated by pyxis-gen conv1x1 (packages/target-pyxis/src/gen/conv1x1.ts; docs/generators.md): Cin ${CIN} -> 128,`);
  e(`# ${wk} weights, one row of 128 pixels per trip (samples/pyxis/conv1x1_${wk === 'compressed' ? 'compressed' : 'residual'}.pasm${wk === 'linear16' ? '; 16-bit weights: seq §9.2.1 with is_16bit, the GH / GV / GX pattern of matmul_fp16.pasm' : ''}).`);
  e(conv1x1Code({ name, cin: CIN, xPitch: P * 8, weights: wk }));
  const op = r ? 'RMW_Add' : 'Write';
  if (S === 2)
    // stride 2: the trip of output row q reads input row 2q; the write keeps the even columns as conv3x3 --stride 2
    // does (Unzip, WPSW entries 0..7 of stride2Wpsw, chip §6.2.1.2.2) into RFP8 rows of 4 partitions (chip §7.2.3);
    // a row starting at partition offset 4 uses the rotated entry (wpsw_rot_enbl, seq §6.7)
    e(`# AMEM Write (stride 2): output channel c per flit, even columns, RFP8 (16b -> 8b, seq §6.1), channel pitch ${PO * 4} partitions\n.program ${name}_wr_y amem_write {\n  loop i0 128 {\n    Write src_fifo=Grid data_type=Recogni_FP8 eb_adj=0 num_logical_cols=64 wzsw_config=Unzip wpsw_config_vld=1 wpsw_config_idx_base=0 wpsw_rot_enbl=1 iter_stride[i0]=${PO * 4}\n  }\n}`);
  else e(`# AMEM Write: output channel c (128 FP16 pixels) per flit, channel pitch ${P * 16} partitions${r ? '; RMW_Add: Y = R + W x X (chip §7.4.1)' : ''}\n.program ${name}_wr_y amem_write {\n  loop i0 128 {\n    ${op} src_fifo=Grid data_type=Recogni_FP16${r ? ' rmw_rd_addr_offset=0' : ''} wpsw_config_vld=1 wpsw_config_idx_base=0 iter_stride[i0]=${P * 16}\n  }\n}`);
  const pasm = L.join('\n') + '\n';

  const D: string[] = [];
  D.push(`/* Generated by pyxis-gen conv1x1 (docs/generators.md): ${N} image(s) [${CIN}, ${P}, 128] -> [128, ${PO}, ${WO}]${S === 2 ? ' (stride 2)' : ''}, ${wk} weights, on ${plan.busy.length} UIE(s). */`);
  for (const c of plan.clusters) D.push(`memory amem${c} { space = amem; cluster = ${c}; view = hashed; origin = 0; length = 64M; }`);
  D.push(`memory hbm { space = hbm; origin = 0; length = 16G; }`);
  D.push(`tensor x_hbm { format = RFP8; shape = [${N * CIN}, ${P}, 128]; eb = -12; region = hbm; data = "${name}_x.npy"; }`);
  D.push(`tensor y_hbm { format = ${yFmt}; shape = [${N * COUT}, ${PO}, ${WO}]; eb = -8; region = hbm; zero = true; }`);
  if (r) D.push(`tensor r_hbm { format = RFP16; shape = [${N * COUT}, ${P}, 128]; eb = -8; region = hbm; data = "${name}_r.npy"; }`);
  for (const c of plan.clusters)
    D.push(wk === 'compressed' ? `weights w${c} { kind = compressed; data = "${name}_w.npy"; organisation = cin_per_cout; block_size = 8; eb = -12; region = amem${c}; }` : `weights w${c} { kind = ${wk}; data = "${name}_w.npy"; eb = -12; region = amem${c}; }`);
  for (const { w: w0, i } of plan.busy) {
    for (const s of [0, 1]) D.push(`tensor x${i}_${s} { format = RFP8; shape = [${CIN}, ${P}, 128]; eb = -12; region = amem${w0.cluster}; zero = true; }`);
    for (const s of [0, 1]) D.push(`tensor y${i}_${s} { format = ${yFmt}; shape = [128, ${PO}, ${WO}]; eb = -8; region = amem${w0.cluster}; zero = true; }`);
    if (S === 1) D.push(`config wpsw.config { cluster = ${w0.cluster}; uie = ${w0.uie}; index = 0; entry { src_ptn = [0, 4, 1, 5, 2, 6, 3, 7]; } }`);
    else for (const [d, e] of stride2Wpsw().entries()) D.push(`config wpsw.config { cluster = ${w0.cluster}; uie = ${w0.uie}; index = ${d}; entry { src_ptn = [${e.join(', ')}]; } }`);
  }
  // `op = conv1x1` lets the linker check seq §1.2-1.3 (LD0820; a linear16 database counts as 16-bit weights there)
  const sizeRule = ' op = conv1x1;';
  const progs = `amem_weights_read = ${name}_wr; wdp = ${name}_wdp; gh = ${name}_gh; amem_read = ${name}_rd; gv = ${name}_gv; gx = ${name}_gx; gwb = ${name}_gwb; amem_write = ${name}_wr_y;`;
  D.push(
    ...streamImages(plan, {
      xRows: CIN,
      yRows: COUT,
      residual: !!r,
      trips: ({ i, s, id, cluster: c }) => ({
        trips: Array.from({ length: PO }, (_, q) => ({
          name: `cv${id}_${q}`,
          text: `  trip cv${id}_${q} { ${progs} weights = w${c}; read = x${i}_${s}[:, ${S * q}]; write = y${i}_${s}[:, ${q}];${r ? ` rmw_source = y${i}_${s}[:, ${q}];` : ''}${sizeRule} trip_power = 32; }`,
        })),
      }),
    }),
  );

  // the CLI check compares with the float weights: exact for linear8 / linear16 (LnsI4F3 / LnsI5F10 inputs), the
  // quantised weights differ for `compressed` (the test decompresses the database instead)
  const check =
    wk !== 'compressed'
      ? (read: (s: string) => Float32Array) => {
          // output pixel (q, c) of a channel is input pixel (S q, S c)
          const ref = new Float64Array(N * COUT * PO * WO);
          const abs = new Float64Array(ref.length);
          for (let n = 0; n < N; n++)
            for (let o = 0; o < COUT; o++)
              for (let i = 0; i < CIN; i++) {
                const k = w[o * CIN + i]!;
                for (let q = 0; q < PO; q++)
                  for (let c = 0; c < WO; c++) {
                    const v = k * x[((n * CIN + i) * P + S * q) * 128 + S * c]!;
                    ref[((n * COUT + o) * PO + q) * WO + c]! += v;
                    abs[((n * COUT + o) * PO + q) * WO + c]! += Math.abs(v);
                  }
              }
          if (r) for (let i = 0; i < ref.length; i++) ref[i]! += r[i]!;
          // linear16: the FP16 bound (weights exact in LnsI5F10); linear8: the FP8 bound (docs/generators.md); stride 2
          // adds the RFP8 rounding of the output (2^-4 |y| <= 2^-4 sum |w x|), as conv3x3 --stride 2
          return { ...errorOf(read('y_hbm'), ref, abs), bound: (wk === 'linear16' ? 0.01 : 0.06) + (S === 2 ? 0.0625 : 0), what: 'max |y - ref| / sum|w x| (normwise, per element)' };
        }
      : undefined;
  return {
    name,
    pasm,
    ld: D.join('\n') + '\n',
    inputs,
    luts: [],
    ...(check ? { check } : { uncheckedWhy: 'the compressed database holds quantised weights, not the float inputs; packages/target-pyxis/test/gen/conv1x1.test.ts checks the output against the decompressed database' }),
    meta: {
      kind: 'conv1x1', images: N, cin: CIN, cout: COUT, rows: P, ...(S === 2 ? { stride: 2 } : {}), weights: wk, residual: !!r, dtype: wk === 'linear16' ? 'fp16' : 'fp8',
      workers: plan.busy.map(({ w: w0 }) => `c${w0.cluster}.uie${w0.uie}`),
      flops: 2 * N * COUT * CIN * PO * WO,
      hbmBytes: N * (CIN * P * 128 + COUT * PO * WO * (S === 2 ? 1 : 2) * (r ? 2 : 1)),
      outputs: ['y_hbm'],
      layout: { y_hbm: `[N*128, ${PO}, ${WO}] ${yFmt} eb -8` },
    },
  };
}

/** ±2^(e + f/1024), e in [-3, 0]: exact in LnsI5F10 at EB -12 (10 fraction bits); the largest magnitude 2 (no LD0706). */
function lns16Values(n: number, seed: number): Float32Array {
  const r = rng(seed);
  const v = new Float32Array(n);
  for (let i = 0; i < n; i++) v[i] = (r() < 0.5 ? -1 : 1) * 2 ** (-3 + Math.floor(r() * 4) + Math.floor(r() * 1024) / 1024);
  if (n > 0) v[0] = 2;
  return v;
}

/**
 * The microcode of a 1x1 convolution of Cin input channels (input channel pitch `xPitch` partitions, one pixel row of
 * 128 per trip) to 128 output channels with a `weights` database, without the AMEM Write program (the caller's):
 * programs `${name}_wr`, `_wdp`, `_gh`, `_rd`, `_gv`, `_gx`, `_gwb`. The compressed superblock is 128 + 64 x 8 bytes
 * = 40 partitions.
 */
export function conv1x1Code(o: { name: string; cin: number; xPitch: number; weights: Weights1x1; identitySwitch?: number }): string {
  const { name, cin: CIN, xPitch: XP, weights: wk } = o;
  // RPSW entry holding the identity (the configuration is held across trips, see conv3x3Code)
  const sw = o.identitySwitch === undefined ? '' : ` rpsw_config_vld=1 rpsw_config_idx_base=${o.identitySwitch}`;
  // input channels per 8-byte weight group of an output channel (chip §15.2 / §15.3): 8 LnsI4F3 or 4 LnsI5F10
  const GC = wk === 'linear16' ? 4 : 8;
  const L: string[] = [];
  const e = (s: string) => L.push(s);
  if (wk === 'compressed')
    e(`.program ${name}_wr amem_weights_read {\n  Read_SRAM wdc_type=Codebook amem_addr_offset=0\n  loop i0 ${CIN / 8} {\n    Read_SRAM wdc_type=Scaling_Factors amem_addr_offset=8 iter_stride[i0]=40\n    loop i1 4 {\n      Read_SRAM wdc_type=Compressed_Data wdc_block_size=Blocksize_8 amem_addr_offset=16 iter_stride[i0]=40 iter_stride[i1]=8\n    }\n  }\n}`);
  else e(`.program ${name}_wr amem_weights_read {\n  loop i0 ${CIN / GC} {\n    loop i1 8 {\n      Read_SRAM${GC === 4 ? ' is_16bit=1' : ''} wdc_type=Uncompressed iter_stride[i0]=64 iter_stride[i1]=8\n    }\n  }\n}`);
  // 16-bit: the LnsI5F10 codes pass the WDP's lin2log unchanged with the simple mapping (no mapping correction,
  // chip §6.2.1.5 Table 6-2: F = f; docs/spec-notes.md "gen conv1x1 linear16")
  e(`.program ${name}_wdp wdp {\n  loop i0 ${CIN / GC} {\n    loop i1 8 {\n      WR_HBUF${GC === 4 ? ' is_16bit=1' : ''} hbuf_wr_control=LD_2ROWS_8B log2_ptns_per_hlane=0 dsbl_mapping_corr=1 eb_adj=0 lin2log_config_vld=1 \\\n              hbuf_block_size=4 hbuf_block_start_en=1 hbuf_block_end_en=1 hbuf_block_iter_mask=[i1] \\\n              hbuf_stride_dim1=1 hbuf_stride_iter_id_dim1=i1\n    }\n  }\n}`);
  e(`.program ${name}_gh gh {\n  loop i0 ${CIN / GC} {\n    loop i1 8 {\n      HBUF_RD_VLD hbuf_rd_cmd=${GC === 4 ? 'RD_1X1_MATMUL_FP16' : 'RD_1X1_MATMUL_FP8'} end_grid_row_idx=15 hbuf_block_size=4 hbuf_block_start_en=1 hbuf_block_end_en=1 \\\n                  hbuf_block_iter_mask=[i1] hbuf_stride_dim1=8 hbuf_stride_iter_id_dim1=i1\n    }\n  }\n}`);
  e(`# AMEM Read: input channel c of the trip's pixel row per cycle (K/${GC} x ${GC}: 12-bit loop counts)\n.program ${name}_rd amem_read {\n  loop i0 ${CIN / GC} {\n    loop i1 ${GC} {\n      Read_SRAM data_type=Recogni_FP8 tgt_fifo=Grid${sw} iter_stride[i0]=${GC * XP} iter_stride[i1]=${XP}\n    }\n  }\n}`);
  if (GC === 4)
    // 16-bit weights: 4 input channels per staging in the 8-entry pattern of 16-bit horizontal data (3 zero rows, 4
    // data rows, 1 zero row; chip §6.3.1, docs/spec-notes.md "which v_staging entries feed the 16-bit multipliers")
    e(`.program ${name}_gv gv {\n  loop i0 ${CIN / 4} {\n    loop i1 3 {\n      Read_Zero conv3x3_mode=0 staging_start_iter_mask=[i1]\n    }\n    loop i1 4 {\n      Read_AMEM_FIFO conv3x3_mode=0 dsbl_mapping_corr=0 fbits_truncate_amt=0 eb_adj=0\n    }\n    Read_Zero conv3x3_mode=0\n  }\n}`);
  else e(`.program ${name}_gv gv {\n  loop i0 ${CIN / 8} {\n    loop i1 8 {\n      Read_AMEM_FIFO conv3x3_mode=0 staging_start_iter_mask=[i1] dsbl_mapping_corr=0 fbits_truncate_amt=0 eb_adj=0\n    }\n  }\n}`);
  e(`.program ${name}_gx gx {\n  Exec_Config conv3x3_mode=0 end_grid_row_idx=15 log2_active_ptns=3 odd_col_exec_en=1 even_col_exec_en=1\n  loop i0 ${CIN / GC} {\n    loop i1 8 {\n      Exec_Valid conv3x3_mode=0 accum_idx_iter_id=i1 front_staging_done_iter_mask=[i1] zero_accum_iter_mask=[i0] \\\n                 split_accum_iter_mask=[i0, i1] wb_kick_iter_mask=[i0, i1]\n    }\n  }\n}`);
  e(`.program ${name}_gwb gwb {\n  loop i0 16 {\n    Read_WBA tgt_fifo=AMEM diagonal_mask_mode=Disabled eb_adj=0 grid_row_offset=0 grid_row_iter_id=i0 wb_done_iter_mask=[i0]\n  }\n}`);
  return L.join('\n');
}
