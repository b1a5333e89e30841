/**
 * Functional execution of one instruction on the memories (HBM, SBUF, PSUM) - the numbers
 * of docs/neuroncore.md "Numbers". Access patterns become element index lists (scratch
 * buffers grown on demand, reused); hot loops run on typed arrays and allocate nothing per
 * element.
 *
 * Matmul definition (Tensor Engine, Near-memory accumulation in PSUM): for each output
 * element, starting from the PSUM value (accumulate) or +0 (overwrite), add the products
 * stationary[k][m] * moving[k][n] for k = 0..K-1 in order, rounding to FP32 after every add.
 * For BF16/FP16/TF32/FP8 inputs the products are exact, so this is the exact FP32 sequence;
 * for FP32 inputs each step rounds the exact double sum (docs/spec-notes.md).
 */
import type { AP, Insn, NcProgram } from './ir.js';
import { freeSize } from './ir.js';
import { ACTIVATIONS, activate, alu, aluCode, decodeTables, dtypeBytes, encodeValue, type DType } from './numerics.js';
import { loadMachine } from './isa.js';

export class Memories {
  readonly sbuf: Uint8Array;
  readonly psum: Uint8Array;
  readonly hbm: Uint8Array;
  /** Shadow "written" maps (one byte per byte) when uninitialised reads are watched. */
  readonly shadow?: { sbuf: Uint8Array; psum: Uint8Array; hbm: Uint8Array };
  readonly sbufP: number;
  readonly psumP: number;

  constructor(hbmBytes: number, watch: boolean) {
    const m = loadMachine();
    this.sbufP = m.sbufPartitionBytes;
    this.psumP = m.psumPartitionBytes;
    // Never-written memory reads as NaN in every format (0xFF.. is a NaN pattern of BF16, FP16,
    // FP32 and both FP8s): visible instead of a plausible zero.
    this.sbuf = new Uint8Array(m.sbufPartitions * m.sbufPartitionBytes).fill(0xff);
    this.psum = new Uint8Array(m.psumPartitions * m.psumPartitionBytes).fill(0xff);
    this.hbm = new Uint8Array(hbmBytes).fill(0xff);
    if (watch) this.shadow = { sbuf: new Uint8Array(this.sbuf.length), psum: new Uint8Array(this.psum.length), hbm: new Uint8Array(this.hbm.length) };
  }
}

export interface UninitRead {
  mem: string;
  address: number;
}

/** Element index lists and decoded values of access patterns (scratch reused across calls). */
class Scratch {
  idx: Int32Array[] = [new Int32Array(1024), new Int32Array(1024), new Int32Array(1024), new Int32Array(1024)];
  val: Float32Array[] = [new Float32Array(1024), new Float32Array(1024), new Float32Array(1024), new Float32Array(1024)];
  grow(slot: number, n: number): void {
    if (this.idx[slot]!.length < n) {
      this.idx[slot] = new Int32Array(n);
      this.val[slot] = new Float32Array(n);
    }
  }
}

export class Executor {
  private readonly s = new Scratch();
  private readonly t = decodeTables();
  private readonly v8: Record<'sbuf' | 'psum' | 'hbm', Uint8Array>;
  private readonly v16: Record<'sbuf' | 'psum' | 'hbm', Uint16Array>;
  private readonly v32: Record<'sbuf' | 'psum' | 'hbm', Float32Array>;
  private readonly vi32: Record<'sbuf' | 'psum' | 'hbm', Int32Array>;
  private stat = new Float32Array(128 * 128);
  private statK = 0;
  private statM = 0;
  private accRow = new Float32Array(512);
  readonly uninit: UninitRead[] = [];

  constructor(
    readonly mem: Memories,
    private readonly program: NcProgram,
    /** HBM byte address of each tensor (the image's placement). */
    private readonly hbmAddr: number[],
  ) {
    const views = <T>(f: (b: Uint8Array) => T) => ({ sbuf: f(mem.sbuf), psum: f(mem.psum), hbm: f(mem.hbm) });
    this.v8 = views((b) => b);
    this.v16 = views((b) => new Uint16Array(b.buffer, b.byteOffset, b.length >> 1));
    this.v32 = views((b) => new Float32Array(b.buffer, b.byteOffset, b.length >> 2));
    this.vi32 = views((b) => new Int32Array(b.buffer, b.byteOffset, b.length >> 2));
  }

  /** Element indices (in units of the element size) of `ap`, partition-major, into scratch slot. Returns the count. */
  private index(ap: AP, slot: number): number {
    const eb = dtypeBytes(ap.dtype);
    const free = freeSize(ap);
    const n = ap.np * free;
    this.s.grow(slot, n);
    const idx = this.s.idx[slot]!;
    let pStride: number;
    let base: number;
    if (ap.mem === 'hbm') {
      pStride = ap.pstride;
      base = (this.hbmAddr[ap.tensor]! + ap.offset) / eb;
    } else {
      pStride = (ap.mem === 'sbuf' ? this.mem.sbufP : this.mem.psumP) / eb;
      base = ap.start * pStride + ap.offset / eb;
    }
    const d = ap.dims;
    const L = d.length;
    const s0 = L > 3 ? d[L - 4]! : [1, 0];
    const s1 = L > 2 ? d[L - 3]! : [1, 0];
    const s2 = L > 1 ? d[L - 2]! : [1, 0];
    const s3 = d[L - 1]!;
    let w = 0;
    for (let p = 0; p < ap.np; p++) {
      const bp = base + p * pStride;
      for (let a = 0; a < s0[0]; a++)
        for (let b = 0; b < s1[0]; b++)
          for (let c = 0; c < s2[0]; c++) {
            const bc = bp + a * s0[1] + b * s1[1] + c * s2[1];
            for (let e = 0; e < s3[0]; e++) idx[w++] = bc + e * s3[1];
          }
    }
    return n;
  }

  private watchRead(ap: AP, n: number, slot: number): void {
    const sh = this.mem.shadow;
    if (!sh || this.uninit.length >= 20) return;
    const eb = dtypeBytes(ap.dtype);
    const map = sh[ap.mem];
    const idx = this.s.idx[slot]!;
    for (let i = 0; i < n; i++)
      if (map[idx[i]! * eb] === 0) {
        this.uninit.push({ mem: ap.mem, address: idx[i]! * eb });
        return;
      }
  }

  /** Decodes `ap` into scratch slot (FP32 values, partition-major). Returns the element count. */
  read(ap: AP, slot: number): number {
    const n = this.index(ap, slot);
    this.watchRead(ap, n, slot);
    const idx = this.s.idx[slot]!;
    const out = this.s.val[slot]!;
    const m = ap.mem;
    switch (ap.dtype) {
      case 'bf16': {
        const v = this.v16[m];
        const t = this.t.bf16;
        for (let i = 0; i < n; i++) out[i] = t[v[idx[i]!]!]!;
        break;
      }
      case 'fp16': {
        const v = this.v16[m];
        const t = this.t.fp16;
        for (let i = 0; i < n; i++) out[i] = t[v[idx[i]!]!]!;
        break;
      }
      case 'fp8_e4m3':
      case 'fp8_e5m2': {
        const v = this.v8[m];
        const t = ap.dtype === 'fp8_e4m3' ? this.t.e4m3 : this.t.e5m2;
        for (let i = 0; i < n; i++) out[i] = t[v[idx[i]!]!]!;
        break;
      }
      case 'int32': {
        const v = this.vi32[m];
        for (let i = 0; i < n; i++) out[i] = v[idx[i]!]!;
        break;
      }
      default: {
        const v = this.v32[m];
        for (let i = 0; i < n; i++) out[i] = v[idx[i]!]!;
      }
    }
    return n;
  }

  /** Encodes `n` FP32 values from `src` into `ap` (casts round to nearest even). */
  write(ap: AP, src: Float32Array, slot: number): void {
    const n = this.index(ap, slot);
    const idx = this.s.idx[slot]!;
    const m = ap.mem;
    const dt: DType = ap.dtype;
    if (this.mem.shadow) {
      const map = this.mem.shadow[m];
      const eb = dtypeBytes(dt);
      for (let i = 0; i < n; i++) map.fill(1, idx[i]! * eb, idx[i]! * eb + eb);
    }
    if (dt === 'fp32' || dt === 'tf32') {
      const v = this.v32[m];
      if (dt === 'fp32') for (let i = 0; i < n; i++) v[idx[i]!] = src[i]!;
      else {
        const u = new Uint32Array(v.buffer, v.byteOffset, v.length);
        for (let i = 0; i < n; i++) u[idx[i]!] = encodeValue('tf32', src[i]!);
      }
    } else if (dt === 'int32') {
      const v = this.vi32[m];
      for (let i = 0; i < n; i++) v[idx[i]!] = encodeValue('int32', src[i]!);
    } else if (dt === 'bf16' || dt === 'fp16') {
      const v = this.v16[m];
      for (let i = 0; i < n; i++) v[idx[i]!] = encodeValue(dt, src[i]!);
    } else {
      const v = this.v8[m];
      for (let i = 0; i < n; i++) v[idx[i]!] = encodeValue(dt, src[i]!);
    }
  }

  /** Runs one instruction. Returns matmul FLOPs done (2·K·M·N for MultiplyMoving). */
  run(insn: Insn): number {
    const op = insn.op;
    const a = insn.attrs;
    const out = insn.out;
    const s = this.s;
    switch (op) {
      case 'tensor.load_stationary': {
        const st = insn.ins[0]!;
        const n = this.read(st, 0);
        if (this.stat.length < n) this.stat = new Float32Array(n);
        this.stat.set(s.val[0]!.subarray(0, n));
        this.statK = st.np;
        this.statM = freeSize(st);
        return 0;
      }
      case 'tensor.multiply_moving': {
        const K = this.statK;
        const M = this.statM;
        const ident = a['identity'];
        let N: number;
        let mov: Float32Array;
        if (typeof ident === 'number') {
          N = ident;
          s.grow(1, K * N);
          mov = s.val[1]!;
          mov.fill(0, 0, K * N);
          for (let k = 0; k < K; k++) mov[k * N + k] = 1;
        } else {
          const mv = insn.ins[0]!;
          this.read(mv, 1);
          N = freeSize(mv);
          mov = s.val[1]!;
        }
        const o = out!;
        const acc = typeof a['accumulate'] === 'number' && a['accumulate'] !== 0;
        this.index(o, 2);
        const oi = s.idx[2]!;
        const ps = this.v32[o.mem];
        if (this.accRow.length < N) this.accRow = new Float32Array(N);
        const row = this.accRow;
        const stat = this.stat;
        for (let m = 0; m < M; m++) {
          const ob = m * N;
          if (acc) for (let n = 0; n < N; n++) row[n] = ps[oi[ob + n]!]!;
          else row.fill(0, 0, N);
          for (let k = 0; k < K; k++) {
            const sv = stat[k * M + m]!;
            const mb = k * N;
            for (let n = 0; n < N; n++) row[n] += sv * mov[mb + n]!;
          }
          for (let n = 0; n < N; n++) ps[oi[ob + n]!] = row[n]!;
        }
        if (this.mem.shadow) {
          const map = this.mem.shadow[o.mem];
          for (let i = 0; i < M * N; i++) map.fill(1, oi[i]! * 4, oi[i]! * 4 + 4);
        }
        return typeof ident === 'number' ? 0 : 2 * K * M * N;
      }
      case 'dma.copy': {
        const src = insn.ins[0]!;
        const eb = dtypeBytes(src.dtype);
        const n = this.index(src, 0);
        this.watchRead(src, n, 0);
        this.index(out!, 1);
        const si = s.idx[0]!;
        const di = s.idx[1]!;
        const sv = eb === 1 ? this.v8[src.mem] : eb === 2 ? this.v16[src.mem] : this.vi32[src.mem];
        const dv = eb === 1 ? this.v8[out!.mem] : eb === 2 ? this.v16[out!.mem] : this.vi32[out!.mem];
        for (let i = 0; i < n; i++) dv[di[i]!] = sv[si[i]!]!;
        if (this.mem.shadow) {
          const map = this.mem.shadow[out!.mem];
          for (let i = 0; i < n; i++) map.fill(1, di[i]! * eb, di[i]! * eb + eb);
        }
        return 0;
      }
    }
    if (op.endsWith('sem_signal') || op.endsWith('sem_wait')) return 0;
    this.elementwise(insn);
    return 0;
  }

  /** Per-partition scalar operand: a number (rounded to FP32) or a [P, 1] access read into `slot`. */
  private scalarOperand(v: unknown, slot: number): number | undefined {
    if (v === undefined) return undefined;
    if (typeof v === 'number') return Math.fround(v);
    this.read(v as AP, slot);
    return NaN; // marker: per-partition values are in scratch `slot`
  }

  private elementwise(insn: Insn): void {
    const op = insn.op.slice(insn.op.indexOf('.') + 1);
    const a = insn.attrs;
    const out = insn.out!;
    const s = this.s;
    const np = out.np;
    const in0 = insn.ins[0];
    const n = in0 ? this.read(in0, 0) : np * freeSize(out);
    const x = s.val[0]!;
    const F = in0 ? n / np : freeSize(out);
    s.grow(3, np * freeSize(out));
    const r = s.val[3]!;
    switch (op) {
      case 'tensor_tensor': {
        this.read(insn.ins[1]!, 1);
        const y = s.val[1]!;
        const c = aluCode(String(a['op']));
        for (let i = 0; i < n; i++) r[i] = alu(c, x[i]!, y[i]!);
        break;
      }
      case 'tensor_scalar': {
        const c0 = aluCode(String(a['op0']));
        const k0 = this.scalarOperand(a['operand0'], 1);
        const c1 = a['op1'] !== undefined ? aluCode(String(a['op1'])) : -1;
        const k1 = this.scalarOperand(a['operand1'], 2);
        const v1 = s.val[1]!;
        const v2 = s.val[2]!;
        for (let p = 0; p < np; p++) {
          const s0 = k0 !== k0 ? v1[p]! : k0!;
          const s1 = k1 !== k1 ? v2[p]! : (k1 ?? 0);
          for (let i = p * F; i < (p + 1) * F; i++) {
            let v = alu(c0, x[i]!, s0);
            if (c1 >= 0) v = alu(c1, v, s1);
            r[i] = v;
          }
        }
        break;
      }
      case 'activation': {
        const fc = (ACTIVATIONS as readonly string[]).indexOf(String(a['func']));
        const k = this.scalarOperand(a['scale'] ?? 1, 1);
        const hasBias = a['bias'] !== undefined;
        if (hasBias) this.read(a['bias'] as AP, 2);
        const v1 = s.val[1]!;
        const v2 = s.val[2]!;
        for (let p = 0; p < np; p++) {
          const sc = k !== k ? v1[p]! : k!;
          const b = hasBias ? v2[p]! : 0;
          for (let i = p * F; i < (p + 1) * F; i++) r[i] = Math.fround(activate(fc, Math.fround(Math.fround(x[i]! * sc) + b)));
        }
        break;
      }
      case 'tensor_copy':
        for (let i = 0; i < n; i++) r[i] = x[i]!;
        break;
      case 'tensor_reduce': {
        const c = aluCode(String(a['op']) === 'mult' ? 'mult' : String(a['op']));
        const dims = in0!.dims;
        const axes = typeof a['axes'] === 'number' ? Math.min(a['axes'], dims.length) : dims.length;
        let R = 1;
        for (let i = dims.length - axes; i < dims.length; i++) R *= dims[i]![0];
        const neg = a['negate'] === 1;
        for (let g = 0; g < n / R; g++) {
          let v = x[g * R]!;
          for (let i = 1; i < R; i++) v = alu(c, v, x[g * R + i]!);
          r[g] = neg ? -v : v;
        }
        break;
      }
      case 'bn_stats':
        for (let p = 0; p < np; p++) {
          for (let par = 0; par < 2; par++) {
            let cnt = 0;
            let sum = 0;
            for (let i = par; i < F; i += 2) {
              sum = Math.fround(sum + x[p * F + i]!);
              cnt++;
            }
            const mean = cnt ? Math.fround(sum / cnt) : 0;
            let m2 = 0;
            for (let i = par; i < F; i += 2) {
              const d = Math.fround(x[p * F + i]! - mean);
              m2 = Math.fround(m2 + Math.fround(d * d));
            }
            r[p * 6 + par * 3] = cnt;
            r[p * 6 + par * 3 + 1] = mean;
            r[p * 6 + par * 3 + 2] = m2;
          }
        }
        break;
      case 'bn_aggr':
        for (let p = 0; p < np; p++) {
          let cnt = 0;
          let sum = 0;
          for (let i = 0; i < F; i += 3) {
            cnt = Math.fround(cnt + x[p * F + i]!);
            sum = Math.fround(sum + Math.fround(x[p * F + i]! * x[p * F + i + 1]!));
          }
          const mean = cnt ? Math.fround(sum / cnt) : 0;
          let m2 = 0;
          for (let i = 0; i < F; i += 3) {
            const d = Math.fround(x[p * F + i + 1]! - mean);
            m2 = Math.fround(Math.fround(m2 + x[p * F + i + 2]!) + Math.fround(x[p * F + i]! * Math.fround(d * d)));
          }
          r[p * 2] = mean;
          r[p * 2 + 1] = cnt ? Math.fround(m2 / cnt) : 0;
        }
        break;
      case 'memset': {
        const v = Math.fround(Number(a['value'] ?? 0));
        r.fill(v, 0, n);
        break;
      }
      case 'iota':
      case 'affine_select': {
        const pat = Array.isArray(a['pattern']) ? (a['pattern'] as number[]) : [1, F];
        const base = Number(a['base'] ?? 0);
        const cm = Number(a['channel_multiplier'] ?? 0);
        const cmp = String(a['cmp'] ?? 'is_ge');
        const cc = cmp === 'not_equal' ? aluCode('not_equal') : aluCode(cmp);
        const fv = Math.fround(Number(a['value'] ?? 0));
        for (let p = 0; p < np; p++) {
          // Mixed-radix counter over the pattern's [step, count] pairs (outermost first).
          let i = 0;
          const rec = (d: number, acc: number): void => {
            if (d >= pat.length) {
              const at = p * F + i++;
              if (op === 'iota') r[at] = acc;
              else r[at] = alu(cc, acc, 0) === 1 ? x[at]! : fv;
              return;
            }
            for (let j = 0; j < pat[d + 1]!; j++) rec(d + 2, acc + j * pat[d]!);
          };
          rec(0, base + p * cm);
        }
        break;
      }
      case 'transpose':
        // 32x32 blocks inside each group of 32 partitions (Reshape Bank).
        for (let g = 0; g < np; g += 32) for (let i = 0; i < 32; i++) for (let j = 0; j < 32; j++) r[(g + j) * 32 + i] = x[(g + i) * 32 + j]!;
        break;
      case 'shuffle': {
        const mask = a['mask'] as number[];
        for (let p = 0; p < np; p++) {
          const src = (p & ~31) + mask[p & 31]!;
          for (let i = 0; i < F; i++) r[p * F + i] = x[src * F + i]!;
        }
        break;
      }
      default:
        throw new Error(`no functional model for ${insn.op}`);
    }
    this.write(out, r, 0);
  }
}

export { dtypeBytes };
export type { NcProgram };
