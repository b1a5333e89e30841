/**
 * Row kernels on the VPU: softmax, RMSNorm, LayerNorm of rows of 128 FP16 values (one value per VPU lane; the
 * programs of samples/pyxis/vpu_softmax.pasm, vpu_rmsnorm.pasm and vpu_layernorm.pasm, whose comments derive every
 * step and error bound), over many rows, tiled across UIEs and clusters with the rows streamed from HBM:
 *   h2a: load tile j (64 rows, 16 KiB) into buffer j mod 2   after the UIE trip of tile j-2
 *   uie: the VPU trip of tile j                               after its load and the store of tile j-2
 *   a2h: store tile j                                         after its trip
 * x_hbm / y_hbm are [R, 128] RFP16 at the VPU's EB -15; gamma (RMSNorm) or gamma, beta (LayerNorm) are [1|2, 128] in
 * each cluster's AMEM, loaded into the Vbuffer scratchpad once per UIE.
 */
import { GenError, requireName, requireInt, requireMultiple, workers } from './errors.js';
import { rng } from './inputs.js';
import type { GenKernel } from './kernel.js';
import { errorOf } from './reference.js';
import { LUT_TABLE } from './ldparts.js';

/**
 * VPU lines: y = 1/sqrt(v + 2^-14) by the rsqrt LUT and one Newton step y (3/2 - (v/2) y^2) (vpu_rmsnorm.pasm derives
 * it; 0x0400 = 2^-14, 0x3e00 = 1.5 in FP16); `h` and `t` are scratch registers. Shared with colnorm.ts.
 */
export function rsqrtNewton(v: string, y: string, h: string, t: string): string {
  return [
    `  ADD   rd=${v} rs1=${v} src2_sel=IMM imm=0x0400 wr_gpr_en=1`,
    `  LUT   rd=${y} rs1=${v} lut_idx=${LUT_TABLE.rsqrt} wr_gpr_en=1`,
    `  SCALE rd=${h} rs1=${v} eb_adj=-1 wr_gpr_en=1`,
    `  MUL   rd=${t} rs1=${y} rs2=${y} wr_gpr_en=1`,
    `  MUL   rd=${t} rs1=${t} rs2=${h} wr_gpr_en=1`,
    `  SUB   rd=${t} src1_sel=IMM imm=0x3e00 rs2=${t} wr_gpr_en=1`,
    `  MUL   rd=${y} rs1=${y} rs2=${t} wr_gpr_en=1`,
  ].join('\n');
}

export type RowOp = 'softmax' | 'rmsnorm' | 'layernorm';
export const ROW_OPS: readonly RowOp[] = ['softmax', 'rmsnorm', 'layernorm'];
/** Rows per trip (the samples' 64; 16 KiB of FP16 per tile). */
export const ROW_TILE = 64;

export interface RowsParams {
  name?: string;
  op: RowOp;
  rows: number;
  clusters?: number[];
  uies?: number;
  seed?: number;
}

const VPU: Record<RowOp, { params: number; luts: Array<'exp' | 'recip' | 'rsqrt'>; text: (nm: string) => string }> = {
  // vpu_softmax.pasm: max-subtracted exp by two LUT lookups (high byte, low byte), 1/sum by LUT + one Newton step
  softmax: {
    params: 0,
    luts: ['exp', 'recip'],
    text: (nm) => `.vpu ${nm}_row {
  RMAX rd=r1 src1_sel=IN_FIFO wr_gpr_en=1
  SUB  rd=r2 src1_sel=IN_FIFO rs2=r1 wr_gpr_en=1 in_fifo_pop=1
  AND  dtype=INT16 rd=r3 rs1=r2 src2_sel=IMM imm=0xff00 wr_gpr_en=1
  SUB  rd=r4 rs1=r2 rs2=r3 wr_gpr_en=1
  LUT  rd=r3 rs1=r3 lut_idx=0 wr_gpr_en=1
  LUT  rd=r4 rs1=r4 lut_idx=0 wr_gpr_en=1
  MUL  rd=r5 rs1=r3 rs2=r4 wr_gpr_en=1
  RSUM rd=r6 rs1=r5 wr_gpr_en=1
  LUT  rd=r7 rs1=r6 lut_idx=1 wr_gpr_en=1
  MUL  rd=r8 rs1=r6 rs2=r7 wr_gpr_en=1
  SUB  rd=r8 src1_sel=IMM imm=0x4000 rs2=r8 wr_gpr_en=1
  MUL  rd=r7 rs1=r7 rs2=r8 wr_gpr_en=1
  MUL  rd=r9 rs1=r5 rs2=r7 out_fifo_push=1
}`,
  },
  // vpu_rmsnorm.pasm: 1/sqrt(mean x^2 + 2^-14) by LUT + one Newton step, times gamma (r15)
  rmsnorm: {
    params: 1,
    luts: ['rsqrt'],
    text: (nm) => `.vpu ${nm}_load {
  MOV   rd=r15 src1_sel=IN_FIFO wr_gpr_en=1 in_fifo_pop=1
}
.vpu ${nm}_row {
  MUL   rd=r1 src1_sel=IN_FIFO src2_sel=IN_FIFO wr_gpr_en=1
  RSUM  rd=r2 rs1=r1 wr_gpr_en=1
  SCALE rd=r2 rs1=r2 eb_adj=-7 wr_gpr_en=1
${rsqrtNewton('r2', 'r3', 'r4', 'r5')}
  MUL   rd=r6 src1_sel=IN_FIFO rs2=r3 wr_gpr_en=1 in_fifo_pop=1
  MUL   rd=r7 rs1=r6 rs2=r15 out_fifo_push=1
}`,
  },
  // vpu_layernorm.pasm: mean, variance (+2^-14), 1/sqrt by LUT + Newton, times gamma (r14) plus beta (r15)
  layernorm: {
    params: 2,
    luts: ['rsqrt'],
    text: (nm) => `.vpu ${nm}_load {
  MOV   rd=r14 src1_sel=IN_FIFO wr_gpr_en=1 in_fifo_pop=1
  MOV   rd=r15 src1_sel=IN_FIFO wr_gpr_en=1 in_fifo_pop=1
}
.vpu ${nm}_row {
  RSUM  rd=r1 src1_sel=IN_FIFO wr_gpr_en=1
  SCALE rd=r1 rs1=r1 eb_adj=-7 wr_gpr_en=1
  SUB   rd=r2 src1_sel=IN_FIFO rs2=r1 wr_gpr_en=1 in_fifo_pop=1
  MUL   rd=r3 rs1=r2 rs2=r2 wr_gpr_en=1
  RSUM  rd=r3 rs1=r3 wr_gpr_en=1
  SCALE rd=r3 rs1=r3 eb_adj=-7 wr_gpr_en=1
${rsqrtNewton('r3', 'r4', 'r5', 'r6')}
  MUL   rd=r7 rs1=r2 rs2=r4 wr_gpr_en=1
  MUL   rd=r8 rs1=r7 rs2=r14 wr_gpr_en=1
  ADD   rd=r9 rs1=r8 rs2=r15 out_fifo_push=1
}`,
  },
};

/** N(mean, sd) by Box-Muller on the seeded PRNG. */
function normals(n: number, r: () => number, mean: number, sd: number): Float32Array {
  return Float32Array.from({ length: n }, () => mean + sd * Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r()));
}

export function rows(p: RowsParams): GenKernel {
  const name = p.name ?? p.op;
  requireName(name);
  if (!ROW_OPS.includes(p.op)) throw new GenError('GEN0006', 'op', `must be one of ${ROW_OPS.join(', ')} (got ${String(p.op)})`, 2);
  const R = requireInt('rows', p.rows, 1, 1 << 20);
  requireMultiple('rows', R, ROW_TILE, `one VPU trip processes ${ROW_TILE} rows of 128 FP16 values (pad the rows)`);
  const ws = workers(p.clusters ?? [0], p.uies ?? 1);
  const spec = VPU[p.op];
  const r = rng(p.seed ?? 1);
  // the samples' distributions (make-norm-inputs.mjs): logits N(0, 3); RMSNorm rows N(0.5, sd 0.5..3); LayerNorm rows
  // N(mu ~ N(0, 2), sd 0.5..3); gamma N(1, 0.25), beta N(0, 0.5)
  const x = new Float32Array(R * 128);
  for (let i = 0; i < R; i++) {
    const mu = p.op === 'softmax' ? 0 : p.op === 'rmsnorm' ? 0.5 : normals(1, r, 0, 2)[0]!;
    const sd = p.op === 'softmax' ? 3 : 0.5 + 2.5 * r();
    x.set(normals(128, r, mu, sd), i * 128);
  }
  const inputs: GenKernel['inputs'] = [{ file: `${name}_x.npy`, shape: [R, 128], data: x }];
  if (spec.params) inputs.push({ file: `${name}_params.npy`, shape: [spec.params, 128], data: Float32Array.from([...normals(128, r, 1, 0.25), ...(spec.params > 1 ? normals(128, r, 0, 0.5) : [])]) });
  const luts: GenKernel['luts'] = spec.luts.map((fn) => ({ file: `${name}_${fn}_lut.npy`, fn }));

  const T = R / ROW_TILE;
  const jobs: number[][] = ws.map(() => []);
  for (let i = 0; i < ws.length; i++) for (let t = Math.floor((i * T) / ws.length); t < Math.floor(((i + 1) * T) / ws.length); t++) jobs[i]!.push(t);
  const busy = ws.map((w, i) => ({ w, i })).filter(({ i }) => jobs[i]!.length > 0);

  const L: string[] = [];
  L.push(`# Generated by pyxis-gen rows --op ${p.op} (packages/target-pyxis/src/gen/rows.ts; docs/generators.md): ${ROW_TILE} rows of 128 FP16 per trip.`);
  L.push(spec.text(name));
  if (spec.params) {
    L.push(`# parameter rows -> Vbuffer tile 1, scratchpad rows 0..${spec.params - 1} (once per UIE)`);
    L.push(`.program ${name}_p_rd amem_read {\n  loop i0 ${spec.params} {\n    Read_SRAM data_type=Recogni_FP16 tgt_fifo=Vbuffer iter_stride[i0]=16 rpsw_config_vld=1 rpsw_config_idx_base=0\n  }\n}`);
    L.push(`.program ${name}_p_in sb2vb {\n${Array.from({ length: spec.params }, (_, k) => `  WR_VLD wr_tile_idx=1 src_select=AMEM_FIFO scratchpad_mode=1 scratchpad_count_incr_amt=0 wr_addr_base=${k}`).join('\n')}\n}`);
  }
  // every trip reloads the parameters into GPRs from the scratchpad (the VPU's registers are not kept across trips)
  const loadParams = spec.params ? Array.from({ length: spec.params }, (_, k) => `  RD_VLD rd_tile_idx=1 scratchpad_mode=1 scratchpad_count_decr=0 rd_addr_base=${k}\n`).join('') : '';
  L.push(`.program ${name}_vi vi {\n${spec.params ? `  Generate_VPU_Program vpv_pgm_start_addr=${name}_load\n` : ''}  loop i0 ${ROW_TILE} {\n    Generate_VPU_Program vpv_pgm_start_addr=${name}_row\n  }\n}`);
  L.push(`.program ${name}_rd amem_read {\n  loop i0 ${ROW_TILE} {\n    Read_SRAM data_type=Recogni_FP16 tgt_fifo=Vbuffer iter_stride[i0]=16 rpsw_config_vld=1 rpsw_config_idx_base=0\n  }\n}`);
  L.push(`.program ${name}_in sb2vb {\n  loop i0 ${ROW_TILE} {\n    WR_VLD wr_tile_idx=0 src_select=AMEM_FIFO\n  }\n}`);
  L.push(`.program ${name}_feed vb2vpu {\n${loadParams}  loop i0 ${ROW_TILE} {\n    RD_VLD rd_tile_idx=0\n  }\n}`);
  L.push(`.program ${name}_out vpu2vb {\n  loop i0 ${ROW_TILE} {\n    WR_VLD wr_tile_idx=2\n  }\n}`);
  L.push(`.program ${name}_drain vb2sb {\n  loop i0 ${ROW_TILE} {\n    RD_VLD rd_tile_idx=2 tgt_select=AMEM_FIFO\n  }\n}`);
  L.push(`.program ${name}_wr amem_write {\n  loop i0 ${ROW_TILE} {\n    Write data_type=Recogni_FP16 src_fifo=Vbuffer iter_stride[i0]=16 wpsw_config_vld=1 wpsw_config_idx_base=0\n  }\n}`);
  const pasm = L.join('\n') + '\n';

  const D: string[] = [];
  D.push(`/* Generated by pyxis-gen rows --op ${p.op} (docs/generators.md): ${R} rows of 128 on ${busy.length} UIE(s), rows streamed from HBM. */`);
  const clusters = [...new Set(busy.map(({ w }) => w.cluster))].sort((a, b) => a - b);
  for (const c of clusters) D.push(`memory amem${c} { space = amem; cluster = ${c}; view = hashed; origin = 0; length = 64M; }`);
  D.push(`memory hbm { space = hbm; origin = 0; length = 16G; }`);
  D.push(`tensor x_hbm { format = RFP16; shape = [${R}, 128]; eb = -15; region = hbm; data = "${name}_x.npy"; }`);
  D.push(`tensor y_hbm { format = RFP16; shape = [${R}, 128]; eb = -15; region = hbm; zero = true; }`);
  for (const c of clusters) if (spec.params) D.push(`tensor prm${c} { format = RFP16; shape = [${spec.params}, 128]; eb = -15; region = amem${c}; data = "${name}_params.npy"; }`);
  for (const { w, i } of busy) {
    for (const s of [0, 1]) D.push(`tensor x${i}_${s} { format = RFP16; shape = [${ROW_TILE}, 128]; eb = -15; region = amem${w.cluster}; zero = true; }`);
    for (const s of [0, 1]) D.push(`tensor y${i}_${s} { format = RFP16; shape = [${ROW_TILE}, 128]; eb = -15; region = amem${w.cluster}; zero = true; }`);
    luts.forEach((l) => D.push(`config vpu.lut { cluster = ${w.cluster}; uie = ${w.uie}; index = ${256 * LUT_TABLE[l.fn]}; data = "${l.file}"; }`));
    D.push(`config rpsw.config { cluster = ${w.cluster}; uie = ${w.uie}; index = 0; entry { src_ptn = [0, 2, 4, 6, 1, 3, 5, 7]; } }`);
    D.push(`config wpsw.config { cluster = ${w.cluster}; uie = ${w.uie}; index = 0; entry { src_ptn = [0, 4, 1, 5, 2, 6, 3, 7]; } }`);
  }
  const deps: string[] = [];
  const rounds = Math.max(...jobs.map((j) => j.length));
  for (const c of clusters) {
    const h2a: string[] = [];
    const a2h: string[] = [];
    for (let j = 0; j < rounds; j++)
      for (const { w, i } of busy) {
        if (w.cluster !== c || j >= jobs[i]!.length) continue;
        const t = jobs[i]![j]!;
        const id = `${i}_${j}`;
        const rows = `${t * ROW_TILE}:${(t + 1) * ROW_TILE}`;
        h2a.push(`  trip ld${id} { src = x_hbm[${rows}]; dst = x${i}_${j % 2}; trip_power = 4; }`);
        a2h.push(`  trip st${id} { src = y${i}_${j % 2}; dst = y_hbm[${rows}]; trip_power = 4; }`);
        if (j >= 2) deps.push(`ld${id} after vp${i}_${j - 2};`);
        deps.push(`vp${id} after ld${id}${j >= 2 ? `, st${i}_${j - 2}` : ''};`);
        deps.push(`st${id} after vp${id};`);
      }
    D.push(`queue h2a { cluster = ${c};\n${h2a.join('\n')}\n}`);
    D.push(`queue a2h { cluster = ${c};\n${a2h.join('\n')}\n}`);
  }
  for (const { w, i } of busy) {
    const trips: string[] = [];
    // the scratchpad rows carry no count: the first tile waits for the parameter trip (vpu_layernorm.ld)
    if (spec.params) trips.push(`  trip prm${i} { amem_read = ${name}_p_rd; sb2vb = ${name}_p_in; read = prm${w.cluster}; trip_power = 4; }`);
    jobs[i]!.forEach((_, j) =>
      trips.push(`  trip vp${i}_${j} { amem_read = ${name}_rd; sb2vb = ${name}_in; vb2vpu = ${name}_feed; vi = ${name}_vi; vpu2vb = ${name}_out; vb2sb = ${name}_drain; amem_write = ${name}_wr; read = x${i}_${j % 2}; write = y${i}_${j % 2}; trip_power = 8;${spec.params ? ` after = [prm${i}];` : ''} }`),
    );
    D.push(`queue uie${w.uie} { cluster = ${w.cluster};\n${trips.join('\n')}\n}`);
  }
  D.push(deps.join('\n'));
  const ld = D.join('\n') + '\n';

  const params = inputs[1]?.data;
  const check = (read: (s: string) => Float32Array) => {
    const xs = read('x_hbm'); // the FP16 values the UIEs read
    const ref = rowsReference(p.op, xs, params ? Float64Array.from(read(`prm${clusters[0]}`)) : undefined);
    const scale = new Float64Array(ref.length).fill(p.op === 'softmax' ? 1 : 0);
    if (p.op !== 'softmax') for (let i = 0; i < ref.length; i++) scale[i] = 2 ** -11 * 16 * Math.max(1, Math.abs(ref[i]!));
    const e = errorOf(read('y_hbm'), ref, scale);
    return p.op === 'softmax'
      ? { ...e, bound: 2e-3, what: 'max |p - ref| (probabilities)' }
      : { ...e, bound: 1, what: 'max |y - ref| / (16 U max(1, |ref|)), U = 2^-11' };
  };
  return {
    name,
    pasm,
    ld,
    inputs,
    luts,
    check,
    meta: { kind: 'rows', op: p.op, rows: R, dtype: 'fp16', flops: 0, hbmBytes: 2 * R * 256, outputs: ['y_hbm'], workers: busy.map(({ w }) => `c${w.cluster}.uie${w.uie}`), layout: { y_hbm: `[${R}, 128] RFP16 eb -15` } },
  };
}

/** float64 softmax / RMSNorm (eps 2^-14) / LayerNorm (eps 2^-14) of rows of 128. */
export function rowsReference(op: RowOp, x: ArrayLike<number>, params?: Float64Array): Float64Array {
  const out = new Float64Array(x.length);
  for (let r = 0; r < x.length / 128; r++) {
    const row = Array.from({ length: 128 }, (_, c) => x[r * 128 + c]!);
    if (op === 'softmax') {
      const m = Math.max(...row);
      const e = row.map((v) => Math.exp(v - m));
      const s = e.reduce((a, b) => a + b, 0);
      e.forEach((v, c) => (out[r * 128 + c] = v / s));
    } else {
      const mean = op === 'layernorm' ? row.reduce((a, b) => a + b, 0) / 128 : 0;
      const v = row.reduce((a, b) => a + (b - mean) ** 2, 0) / 128;
      const inv = 1 / Math.sqrt(v + 2 ** -14);
      row.forEach((val, c) => (out[r * 128 + c] = (val - mean) * inv * params![c]! + (op === 'layernorm' ? params![128 + c]! : 0)));
    }
  }
  return out;
}
