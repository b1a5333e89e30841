/**
 * Width-wise tiling of a 3x3, stride 1, pad 1 convolution wider than one grid pass (chip §17.2, §17.2.1, Table 17-1;
 * `pyxis-gen conv3x3 --width W`, W > 128): Y[n] = conv3x3(X[n], W) for images [Cin, H, W] -> [16, H, W] RFP16.
 * The grid computes 128 columns per trip (8 partitions per filter, zeros west of grid column 0 and east of 127, seq
 * §10.3), so each row-group of 8 output rows (seq §1.3 rule 1) is computed in T tiles stepping 7 partitions (112
 * columns) and overlapping one partition (wideTiles):
 *   read   tile t reads input partitions 7t .. 7t+7 (the last tile: to the image's last partition, `num_logical_ptns`,
 *          the partitions it does not read are zeros, i.e. the image's east pad) of every row: the trip's `read` view
 *          starts at column 112t, the descriptor's base address therefore at partition offset 7t, and the RPSW rotates
 *          the access's lanes back to grid partitions 0..7 (entries 0..7 through `rpsw_rot_enbl`, seq §5.4)
 *   grid   the stride-1 programs of conv3x3 unchanged (2 Exec_Bubble + 8 Exec_Valid per input channel)
 *   write  the columns Table 17-1 writes, masked by `logical_col_offset` / `num_logical_cols` (seq §6.4; a partial
 *          write, chip §7.4): tile 0 grid columns 0-126, the middle tiles 15-126, the last 15 to its last column;
 *          the RFP16 rows start at partition offset 14t, so the FP16 storage swizzle (chip §7.3.1) is selected
 *          per rotation (WPSW entries 0..7, `wpsw_rot_enbl`, seq §6.7; wideWpsw)
 * Grid column 127 of a non-final tile and columns 0-14 of a later tile see the grid's edge zero instead of the
 * neighbouring pixel (or recompute the previous tile's columns): they are the masked ones. The tiles of an image run
 * on one UIE in queue order, so the partial writes of neighbouring tiles to their shared partition (chip §7.4.2) come
 * from one client. Streaming, HBM layouts and weights as conv3x3 (convPlan.ts); y_hbm [N*16, H, W] RFP16 EB -8.
 * `residual`: R [N*16, H, W] RFP16 preloaded into the Y buffer, each tile's write a masked RMW_Add (chip §7.4).
 */
import { chipLimits, GenError, requireInt, requireMultiple, requireName, requireScale, workers } from './errors.js';
import type { GenKernel } from './kernel.js';
import { assignImages, checkAmem, streamImages } from './convPlan.js';
import { errorOf } from './reference.js';
import { COUT, WIDTH, conv3x3Cin, conv3x3Inputs, conv3x3GridPrograms, conv3x3HeadPrograms, conv3x3Reference, type ConvParams } from './conv.js';

/** Partitions a tile steps by (chip §17.2.1: a full partition of overlap on each edge of a 128-column pass). */
export const TILE_STEP_PTNS = 7;
/** Trips a UIE holds at once (three tracking IDs, chip §11.7.1; docs/spec-notes.md "uie: two trackers"). */
const CHAIN_LAG = 3;

/** One width-wise tile: input partitions [ptn0, ptn0 + ptns), and the grid columns it writes [colOff, colOff + cols). */
export interface WideTile {
  ptn0: number;
  ptns: number;
  colOff: number;
  cols: number;
}

/**
 * The tiles of chip §17.2.1 for a tensor of W columns (W a multiple of 16, > 128): tile t reads partitions 7t ..
 * min(7t + 7, W/16 - 1); the first writes grid columns 0-126, a middle one 15-126, the last 15 .. its last column.
 */
export function wideTiles(W: number): WideTile[] {
  const P = W / 16;
  const T = 1 + Math.ceil((P - 8) / TILE_STEP_PTNS);
  return Array.from({ length: T }, (_, t) => {
    const ptn0 = TILE_STEP_PTNS * t;
    const ptns = Math.min(8, P - ptn0);
    const colOff = t === 0 ? 0 : 15;
    const end = t === T - 1 ? ptns * 16 : 127;
    return { ptn0, ptns, colOff, cols: end - colOff };
  });
}

/** RPSW entry d (FP8 read at partition offset d): the access's partition j arrives on lane (d + j) mod 8 (docs/spec-notes.md "uie: AMEM port lanes"); route it to grid partition j. */
export function wideRpsw(): number[][] {
  return Array.from({ length: 8 }, (_, d) => Array.from({ length: 8 }, (_, j) => (d + j) % 8));
}

/**
 * WPSW entry d (RFP16 write at partition offset d, d even): logical partition p is written from lane
 * (d + [0, 2, 4, 6, 1, 3, 5, 7][p]) mod 8 (chip §7.3.1 WRITE table, rotated); entry 0 is the unrotated FP16 swizzle
 * [0, 4, 1, 5, 2, 6, 3, 7] of the 128-column flows. Odd d (not reachable: 16-bit accesses are even, seq §1.1) use the
 * same formula.
 */
export function wideWpsw(): number[][] {
  const sigmaInv = [0, 2, 4, 6, 1, 3, 5, 7];
  return Array.from({ length: 8 }, (_, d) => {
    const e = new Array<number>(8);
    for (let p = 0; p < 8; p++) e[(d + sigmaInv[p]!) % 8] = p;
    return e;
  });
}

export function conv3x3Wide(p: ConvParams & { width: number }): GenKernel {
  const name = p.name ?? 'conv3x3';
  requireName(name);
  const W = p.width;
  if (!Number.isInteger(W)) throw new GenError('GEN0001', 'width', `must be an integer (got ${W})`, 2);
  if (W % 16 !== 0 || W < WIDTH)
    throw new GenError('GEN0090', 'width', `must be a multiple of 16 and at least 128 (got ${W}): the width-wise tiles step by AMEM partitions of 16 columns (chip §17.2.1), and the grid's 3x3 flow computes 128 columns per pass (chip §17.2)`);
  if ((p.stride ?? 1) !== 1) throw new GenError('GEN0091', 'stride', `--width ${W} tiles the stride-1 convolution only: chip §17.2.1 (Table 17-1) gives the width-wise tiling of stride 1`);
  const N = requireInt('images', p.images, 1, 65536);
  const CIN = conv3x3Cin(p.cin);
  const H = requireInt('height', p.height, 8, 4096);
  requireMultiple('height', H, 8, 'seq §1.3 rule 1: every trip computes a multiple of 8 output rows (pad the image)');
  // the RFP16 output's channel pitch, H rows of 2·W/16 partitions, is the AMEM Write's iter_stride[i0] (16 bits, seq §5.2.1)
  const maxStride = chipLimits().maxStride;
  if (H * (W / 8) > maxStride)
    throw new GenError('GEN0092', 'width, height', `the RFP16 output channel pitch is ${H} rows x ${W / 8} partitions = ${H * (W / 8)}; the AMEM Write's iter_stride has 16 bits (<= ${maxStride} partitions, seq §5.2.1, §6.2): ${Math.floor(maxStride / (W / 8)) >= 8 ? `at most ${Math.floor(maxStride / (W / 8) / 8) * 8} rows at width ${W}` : `at most ${Math.floor(maxStride / 16) * 16} columns (8 rows)`}`);
  // (checked before the tiles are listed: it bounds W)
  const tiles = wideTiles(W);
  const T = tiles.length;
  const G = H / 8;
  // the store (and the next load into the image's buffers) must follow every trip of the image; one barrier waits for
  // at most 31 trips, so trip k of the image waits for trip k - 3 (a chain per residue mod 3) and the store for the
  // last 3: a UIE holds at most 3 trips (tracking IDs, chip §11.7.1), so trip k - 3 has retired before trip k can
  // start anyway (measured: 22,979 against 22,980 cycles with the store waiting for all 30 trips, 512 x 48 x 64)
  const chain = G * T > CHAIN_LAG ? CHAIN_LAG : 0;
  const tripName = (id: string, k: number) => `cv${id}_${Math.floor(k / T)}_${k % T}`;
  const ws = workers(p.clusters ?? [0], p.uies ?? 1);
  requireScale('images, height, width', N * G * T, `${N} image(s) x ${G} row-group(s) x ${T} tiles`, N * CIN * H * W);
  const seed = p.seed ?? 1;
  const plan = assignImages(ws, N);
  checkAmem(plan, 2 * (CIN * H * W + COUT * H * W * 2), 16 * CIN * 16, 'height', 'use a smaller height, width or Cin, or fewer UIEs per cluster');
  // --residual: R preloaded into the Y buffer, each tile adds its written columns by a masked RMW_Add (InMemAdd of part
  // of a partition, chip §7.4), so every column gets R + conv once
  const { x, w, r, inputs } = conv3x3Inputs(name, N, CIN, H, W, seed, !!p.residual);
  const code = wideCode(name, CIN, H, W, tiles, !!r);
  const pasm = `# Generated by pyxis-gen conv3x3 --width ${W} (packages/target-pyxis/src/gen/convWide.ts; docs/generators.md): 3x3, stride 1, pad 1,\n# Cin ${CIN} -> Cout 16, width-wise tiles of chip §17.2.1 (${T} per row-group of 8 output rows).\n${code.pasm}`;
  const D: string[] = [];
  D.push(`/* Generated by pyxis-gen conv3x3 --width ${W} (docs/generators.md): ${N} image(s) [${CIN}, ${H}, ${W}] -> [16, ${H}, ${W}] in ${T} width-wise tiles (chip §17.2.1) on ${plan.busy.length} UIE(s). */`);
  for (const c of plan.clusters) D.push(`memory amem${c} { space = amem; cluster = ${c}; view = hashed; origin = 0; length = 64M; }`);
  D.push(`memory hbm { space = hbm; origin = 0; length = 16G; }`);
  D.push(`tensor x_hbm { format = RFP8; shape = [${N * CIN}, ${H}, ${W}]; eb = -12; region = hbm; data = "${name}_x.npy"; }`);
  D.push(`tensor y_hbm { format = RFP16; shape = [${N * COUT}, ${H}, ${W}]; eb = -8; region = hbm; zero = true; }`);
  if (r) D.push(`tensor r_hbm { format = RFP16; shape = [${N * COUT}, ${H}, ${W}]; eb = -8; region = hbm; data = "${name}_r.npy"; }`);
  for (const c of plan.clusters) D.push(`weights w${c} { kind = conv3x3; data = "${name}_w.npy"; filters_per_grid_row = 1; grid_rows = 16; eb = -12; region = amem${c}; }`);
  for (const { w: w0, i } of plan.busy) {
    for (const s of [0, 1]) D.push(`tensor x${i}_${s} { format = RFP8; shape = [${CIN}, ${H}, ${W}]; eb = -12; region = amem${w0.cluster}; zero = true; }`);
    for (const s of [0, 1]) D.push(`tensor y${i}_${s} { format = RFP16; shape = [16, ${H}, ${W}]; eb = -8; region = amem${w0.cluster}; zero = true; }`);
    for (const [d, e] of wideRpsw().entries()) D.push(`config rpsw.config { cluster = ${w0.cluster}; uie = ${w0.uie}; index = ${d}; entry { src_ptn = [${e.join(', ')}]; } }`);
    for (const [d, e] of wideWpsw().entries()) D.push(`config wpsw.config { cluster = ${w0.cluster}; uie = ${w0.uie}; index = ${d}; entry { src_ptn = [${e.join(', ')}]; } }`);
  }
  D.push(
    ...streamImages(plan, {
      xRows: CIN,
      yRows: COUT,
      residual: !!r,
      trips: ({ i, s, id, cluster: c }) => ({
        ...(chain && {
          deps: Array.from({ length: G * T - chain }, (_, k) => `${tripName(id, k + chain)} after ${tripName(id, k)};`),
          exits: Array.from({ length: chain }, (_, k) => tripName(id, G * T - chain + k)),
        }),
        trips: Array.from({ length: G * T }, (_, k) => {
          const g = Math.floor(k / T);
          const t = k % T;
          const tl = tiles[t]!;
          const cols = `${16 * tl.ptn0}:${16 * (tl.ptn0 + tl.ptns)}`;
          const [r0, r1] = [g === 0 ? 0 : 8 * g - 1, Math.min(H, 8 * g + 9)];
          return {
            name: tripName(id, k),
            text: `  trip cv${id}_${g}_${t} { ${code.trip(g, t)} weights = w${c}; read = x${i}_${s}[:, ${r0}:${r1}, ${cols}]; write = y${i}_${s}[:, ${8 * g}:${8 * g + 8}, ${cols}];${r ? ` rmw_source = y${i}_${s}[:, ${8 * g}:${8 * g + 8}, ${cols}];` : ''} trip_power = 32; }`,
          };
        }),
      }),
    }),
  );
  const ld = D.join('\n') + '\n';
  const check = (read: (s: string) => Float32Array) => {
    const { ref, abs } = conv3x3Reference(x, w, N, CIN, H, 1, W);
    if (r) for (let i = 0; i < ref.length; i++) ref[i]! += r[i]!;
    return { ...errorOf(read('y_hbm'), ref, abs), bound: 0.06, what: 'max |y - ref| / sum|w x| (normwise, per element)' };
  };
  return {
    name,
    pasm,
    ld,
    inputs,
    luts: [],
    check,
    notes: [`width-wise tiling (chip §17.2.1): ${T} tiles of input partitions ${tiles.map((tl) => `${tl.ptn0}-${tl.ptn0 + tl.ptns - 1}`).join(', ')}; written columns ${tiles.map((tl) => `${112 * (tl.ptn0 / 7) + tl.colOff}-${112 * (tl.ptn0 / 7) + tl.colOff + tl.cols - 1}`).join(', ')}`],
    meta: {
      kind: 'conv3x3', images: N, cin: CIN, cout: COUT, height: H, width: W, stride: 1, residual: !!r, dtype: 'fp8', tiles: T,
      workers: plan.busy.map(({ w: w0 }) => `c${w0.cluster}.uie${w0.uie}`),
      // useful FLOPs: the W output columns once (the grid also computes the masked columns: T x 128 per row)
      flops: 2 * N * COUT * CIN * 9 * H * W,
      hbmBytes: N * (CIN * H * W + COUT * H * W * 2 * (r ? 2 : 1)),
      outputs: ['y_hbm'],
      layout: { y_hbm: `[N*16, ${H}, ${W}] RFP16 eb -8` },
    },
  };
}

/**
 * The microcode of the tiled flow: conv3x3's weight-side and grid programs, AMEM Read programs per row variant (top,
 * middle, bottom; one when H = 8) and tile width (8 partitions, and the last tile's), AMEM Write programs per tile
 * kind (first, middle, last: the masked columns of Table 17-1). `trip(g, t)` = the program keys of row-group g, tile t.
 */
function wideCode(name: string, CIN: number, H: number, W: number, tiles: WideTile[], rmw: boolean): { pasm: string; trip: (g: number, t: number) => string } {
  const P = W / 16;
  const G = H / 8;
  const T = tiles.length;
  const L: string[] = [conv3x3HeadPrograms(name, CIN, H, P), conv3x3GridPrograms(name)];
  const variants: Record<string, { pre: boolean; rows: number; post: boolean }> =
    G === 1 ? { one: { pre: true, rows: 8, post: true } } : { top: { pre: true, rows: 9, post: false }, mid: { pre: false, rows: 10, post: false }, bot: { pre: false, rows: 9, post: true } };
  const cnst = `    Read_Const data_type=Recogni_FP8 tgt_fifo=Grid rd_const_value=0`;
  const widths = [...new Set(tiles.map((tl) => tl.ptns))];
  for (const n of widths)
    for (const [v, d] of Object.entries(variants))
      L.push(
        `# AMEM Read (${v}, ${n} partitions): per input channel ${d.pre ? 'a zero pad row, ' : ''}${d.rows} rows${d.post ? ', a zero pad row' : ''}; the view starts at\n# partition offset 7t, RPSW entry (offset mod 8) rotates the lanes back to grid partitions 0..${n - 1} (seq §5.4)\n` +
          `.program ${name}_rd_${v}_${n} amem_read {\n  loop i0 ${name}_CIN {\n${d.pre ? cnst + '\n' : ''}    loop i1 ${d.rows} {\n      Read_SRAM data_type=Recogni_FP8 tgt_fifo=Grid${n < 8 ? ` num_logical_ptns=${n}` : ''} rpsw_config_vld=1 rpsw_config_idx_base=0 rpsw_rot_enbl=1 iter_stride[i0]=${name}_CPITCH iter_stride[i1]=${P}\n    }\n${d.post ? cnst + '\n' : ''}  }\n}`,
      );
  const kinds: Record<string, WideTile> = { first: tiles[0]!, last: tiles[T - 1]! };
  if (T > 2) kinds['mid'] = tiles[1]!;
  for (const [k, tl] of Object.entries(kinds))
    L.push(
      `# AMEM Write (${k} tile): grid columns ${tl.colOff}..${tl.colOff + tl.cols - 1} of grid-row q = output channel q, slot s = output row s, RFP16${rmw ? ' (RMW_Add: Y = R + conv, chip §7.4.1)' : ''}\n# (pitch H rows of ${2 * P} partitions); the others are masked (chip §17.2.1, seq §6.4), WPSW entry (offset mod 8) swizzles (chip §7.3.1)\n` +
        `.program ${name}_wr_${k} amem_write {\n  loop i0 16 {\n    loop i1 8 {\n      ${rmw ? 'RMW_Add' : 'Write'} src_fifo=Grid data_type=Recogni_FP16${rmw ? ' rmw_rd_addr_offset=0' : ''} logical_col_offset=${tl.colOff} num_logical_cols=${tl.cols} wpsw_config_vld=1 wpsw_config_idx_base=0 wpsw_rot_enbl=1 iter_stride[i0]=${H * 2 * P} iter_stride[i1]=${2 * P}\n    }\n  }\n}`,
    );
  const progs = `amem_weights_read = ${name}_wr; wdp = ${name}_wdp; gh = ${name}_gh; gv = ${name}_gv; gx = ${name}_gx; gwb = ${name}_gwb;`;
  return {
    pasm: L.join('\n') + '\n',
    trip: (g, t) => {
      const v = G === 1 ? 'one' : g === 0 ? 'top' : g === G - 1 ? 'bot' : 'mid';
      const k = t === 0 ? 'first' : t === T - 1 ? 'last' : 'mid';
      return `${progs} amem_read = ${name}_rd_${v}_${tiles[t]!.ptns}; amem_write = ${name}_wr_${k}; op = conv3x3_s1;`;
    },
  };
}
