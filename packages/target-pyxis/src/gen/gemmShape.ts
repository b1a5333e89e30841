/**
 * Sizes and HBM layouts of the GEMM generator for any legal M x K x N (docs/generators.md "GEMM", "HBM layouts"):
 * M a multiple of 8 (seq §1.3 rule 4), K a multiple of 8 FP8 / 4 FP16 (seq §1.2 rule 3), N any. A tile is always the
 * whole grid (128 virtual grid-rows x 128 columns); a partial tile is padded:
 * - rows (M): the last row block of each GEMM has Mt = M - 128 (MB - 1) rows; the grid computes 128, the AMEM Write
 *   sequencer discards the 128 - Mt pad rows (post-final, seq §6.3) and C in HBM has exactly M rows;
 * - columns (N): B's last column block is stored in HBM with zero columns up to 128 ("pad data", seq §1.2), so the
 *   grid's pad columns are exact zeros; C's (and R's) last column block keeps the 128-column pitch, its columns past
 *   N mod 128 are those zeros. An A2H descriptor moves whole 1 KiB blocks (chip §11.4.4), which an [M, N mod 128] tail
 *   block cannot be cut into (docs/spec-notes.md "gen gemm: any legal size");
 * - K, row-shifted A: a row of A fills 128-byte Hbuf blocks (seq §9.3), so A is stored [M, Kp] with Kp = K rounded up
 *   to 128 bytes (zero columns); GH reads only the K/8 (K/4) k-groups of the last block (numloops_final, seq §2.1.1),
 *   so the grid sees exactly K. The transposed flows need no K padding (seq §9.4).
 * The whole-tile case (M, N multiples of 128, K of 128 FP8 / 64 FP16) has the layouts it always had.
 */
export const TILE = 128;

export interface GemmShape {
  BT: number;
  M: number;
  K: number;
  N: number;
  /** Row / column blocks of one GEMM (ceil(M / 128), ceil(N / 128)). */
  MB: number;
  NB: number;
  /** Rows of the last row block (8..128) and columns of the last column block (1..128). */
  Mt: number;
  Nt: number;
  /** Row-shifted A: values per stored row (K rounded up to one 128-byte Hbuf block), Hbuf blocks, and the 8-byte GH reads of the last block (1..16); transposed: Kp = K. */
  Kp: number;
  kBlocks: number;
  kLast: number;
}

/** `tr`: A stored transposed (no K padding: Kp = K, one GH read per 8 FP8 / 4 FP16 rows of A^T). */
export function gemmShape(BT: number, M: number, K: number, N: number, fp16: boolean, tr: boolean): GemmShape {
  const eb = fp16 ? 2 : 1;
  const MB = Math.ceil(M / TILE);
  const NB = Math.ceil(N / TILE);
  const kBlocks = Math.ceil((K * eb) / 128);
  if (tr) return { BT, M, K, N, MB, NB, Mt: M - TILE * (MB - 1), Nt: N - TILE * (NB - 1), Kp: K, kBlocks, kLast: 16 };
  return { BT, M, K, N, MB, NB, Mt: M - TILE * (MB - 1), Nt: N - TILE * (NB - 1), Kp: (kBlocks * 128) / eb, kBlocks, kLast: (K * eb - 128 * (kBlocks - 1)) / 8 };
}

/** Rows of global row block g (= z * MB + mi). */
export const blockRows = (s: GemmShape, g: number): number => (g % s.MB === s.MB - 1 ? s.Mt : TILE);

/** batch x [rows, cols] row-major -> batch x [ceil(cols / 128), rows, 128] column blocks; columns past `cols` are zero. */
export function paddedColumnBlocks(x: Float32Array, bt: number, rows: number, cols: number): Float32Array {
  const nb = Math.ceil(cols / TILE);
  const out = new Float32Array(bt * nb * rows * TILE);
  for (let z = 0; z < bt; z++)
    for (let b = 0; b < nb; b++)
      for (let r = 0; r < rows; r++) {
        const o = ((z * nb + b) * rows + r) * TILE;
        const w = Math.min(TILE, cols - b * TILE);
        for (let c = 0; c < w; c++) out[o + c] = x[(z * rows + r) * cols + b * TILE + c]!;
      }
  return out;
}

/** [rows, cols] -> [rows, colsP] with zero columns past `cols` (identity when colsP = cols). */
export function padColumns(x: Float32Array, rows: number, cols: number, colsP: number): Float32Array {
  if (colsP === cols) return x;
  const out = new Float32Array(rows * colsP);
  for (let r = 0; r < rows; r++) out.set(x.subarray(r * cols, (r + 1) * cols), r * colsP);
  return out;
}

/** C as stored ([BT * NB, M, 128] column blocks) -> batch x [M, N] row-major (the pad columns dropped). */
export function cFromBlocks(c: ArrayLike<number>, s: GemmShape): Float64Array {
  const out = new Float64Array(s.BT * s.M * s.N);
  for (let z = 0; z < s.BT; z++)
    for (let b = 0; b < s.NB; b++) {
      const w = Math.min(TILE, s.N - b * TILE);
      for (let r = 0; r < s.M; r++) {
        const i = ((z * s.NB + b) * s.M + r) * TILE;
        const o = (z * s.M + r) * s.N + b * TILE;
        for (let q = 0; q < w; q++) out[o + q] = c[i + q]!;
      }
    }
  return out;
}
