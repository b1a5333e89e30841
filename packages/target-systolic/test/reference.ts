/**
 * An independent reference of the systolic machine for the tests: written
 * from the spec (systolic-fpga-hardware.md §4) and Tensil's published
 * arithmetic, deliberately naive (BigInt instruction words, plain arrays, the
 * multiply-accumulate spelled out bit by bit) and importing nothing from the
 * package under test.
 */
export interface RefArch {
  data_type: string;
  array_size: number;
  dram0_depth: number;
  dram1_depth: number;
  local_depth: number;
  accumulator_depth: number;
  simd_registers_depth: number;
  stride0_depth: number;
  stride1_depth: number;
}

const bitsFor = (n: number) => (n <= 1 ? 0 : (n - 1).toString(2).length);
const bytesUp = (b: number) => Math.ceil(b / 8) * 8;

/** Spec §4 notes + the Tensil layout: [op0 | op1 | op2 | flags | opcode], little-endian. */
export function refLayout(a: RefArch) {
  const local = bitsFor(a.local_depth), acc = bitsFor(a.accumulator_depth), d0 = bitsFor(a.dram0_depth), d1 = bitsFor(a.dram1_depth);
  const st0 = bitsFor(a.stride0_depth), st1 = bitsFor(a.stride1_depth);
  const simdReg = bitsFor(a.simd_registers_depth + 1);
  const addr0 = Math.max(local, acc);
  const addr1 = Math.max(local, d0, d1, acc);
  const addr2 = Math.max(Math.min(local, acc), Math.min(local, d0), Math.min(local, d1), 4 + 3 * simdReg);
  const w0 = bytesUp(addr0 + st0), w1 = bytesUp(addr1 + st1), w2 = bytesUp(addr2);
  return { addr0, addr1, st0, st1, w0, w1, w2, simdReg, bytes: (w0 + w1 + w2 + 8) / 8 };
}

export interface RefInstr { opcode: number; flags: number; addr0: number; stride0: number; addr1: number; stride1: number; op2: number }

export function refDecode(bytes: Uint8Array, a: RefArch): RefInstr[] {
  const L = refLayout(a);
  const out: RefInstr[] = [];
  for (let off = 0; off + L.bytes <= bytes.length; off += L.bytes) {
    let w = 0n;
    for (let i = L.bytes - 1; i >= 0; i--) w = (w << 8n) | BigInt(bytes[off + i]!);
    const field = (lsb: number, width: number) => Number((w >> BigInt(lsb)) & ((1n << BigInt(width)) - 1n));
    const ops = L.w0 + L.w1 + L.w2;
    out.push({
      opcode: field(ops + 4, 4), flags: field(ops, 4),
      addr0: field(0, L.addr0), stride0: field(L.addr0, L.st0),
      addr1: field(L.w0, L.addr1), stride1: field(L.w0 + L.addr1, L.st1),
      op2: field(L.w0 + L.w1, L.w2),
    });
  }
  return out;
}

/**
 * Tensil FixedBase.mac: m = x*y + z*2^bp (exact: |m| < 2^53 for these widths), then m >> bp rounded to
 * nearest even using m's bits as Tensil tests them (bit bp-1 set, and a lower bit set or bit bp set), saturated.
 */
export function refMac(x: number, y: number, z: number, width = 16, bp = 8): number {
  const m = x * y + z * 2 ** bp;
  const mod = (v: number, k: number) => ((v % k) + k) % k; // non-negative remainder: two's complement low bits
  const bitBelow = mod(m, 2 ** bp) >= 2 ** (bp - 1);
  const lowerBits = mod(m, 2 ** (bp - 1)) !== 0;
  const shifted = (m - mod(m, 2 ** bp)) / 2 ** bp;
  const bitBp = mod(shifted, 2) === 1;
  const r = shifted + (bitBelow && (lowerBits || bitBp) ? 1 : 0);
  return Math.max(-(2 ** (width - 1)), Math.min(2 ** (width - 1) - 1, r));
}

const sat16 = (v: number) => Math.max(-32768, Math.min(32767, v));

export class RefMachine {
  local: number[][];
  acc: number[][];
  dram0: number[][];
  dram1: number[][];
  weights: number[][];
  reg: number[];
  constructor(readonly a: RefArch, dram0Vectors: number, dram1Vectors: number) {
    const N = a.array_size;
    const mk = (n: number) => Array.from({ length: n }, () => new Array<number>(N).fill(0));
    this.local = mk(a.local_depth);
    this.acc = mk(a.accumulator_depth);
    this.dram0 = mk(dram0Vectors);
    this.dram1 = mk(dram1Vectors);
    this.weights = mk(N + 1);
    this.reg = new Array<number>(N).fill(0);
  }
  step(i: RefInstr): void {
    const N = this.a.array_size;
    const one = 256;
    switch (i.opcode) {
      case 1: { // MatMul
        for (let k = 0; k <= i.op2; k++) {
          const x = i.flags & 2 ? new Array<number>(N).fill(0) : this.local[i.addr0 + k * 2 ** i.stride0]!;
          const dst = this.acc[i.addr1 + k * 2 ** i.stride1]!;
          for (let j = 0; j < N; j++) {
            let s = refMac(one, this.weights[0]![j]!, 0);
            for (let r = 1; r <= N; r++) s = refMac(x[r - 1]!, this.weights[r]![j]!, s);
            dst[j] = i.flags & 1 ? sat16(dst[j]! + s) : s;
          }
        }
        break;
      }
      case 3: { // LoadWeight: vectors pushed in from the top, last one (k = 0) ends in the bias row
        for (let k = i.addr1; k >= 0; k--) {
          this.weights.pop();
          this.weights.unshift(i.flags & 1 ? new Array<number>(N).fill(0) : [...this.local[i.addr0 + k * 2 ** i.stride0]!]);
        }
        break;
      }
      case 2: { // DataMove
        for (let k = 0; k <= i.op2; k++) {
          const l = i.addr0 + k * 2 ** i.stride0;
          const o = i.addr1 + k * 2 ** i.stride1;
          const f = i.flags;
          if (f === 0) this.local[l] = [...this.dram0[o]!];
          else if (f === 1) this.dram0[o] = [...this.local[l]!];
          else if (f === 2) this.local[l] = [...this.dram1[o]!];
          else if (f === 3) this.dram1[o] = [...this.local[l]!];
          else if (f === 12) this.local[l] = [...this.acc[o]!];
          else if (f === 13) this.acc[o] = [...this.local[l]!];
          else if (f === 15) this.acc[o] = this.acc[o]!.map((v, j) => sat16(v + this.local[l]![j]!));
          else throw new Error(`reference: data flow ${f}`);
        }
        break;
      }
      case 4: { // SIMD, one register (the fixture's architecture)
        const w = refLayout(this.a).simdReg;
        const m = (1 << w) - 1;
        const dest = i.op2 & m, right = (i.op2 >> w) & m, left = (i.op2 >> (2 * w)) & m, op = i.op2 >> (3 * w);
        const input = i.flags & 1 ? this.acc[i.addr1]! : new Array<number>(N).fill(0);
        const out = input.map((x, j) => {
          const l = left ? this.reg[j]! : x;
          const r = right ? this.reg[j]! : x;
          switch (op) {
            case 0: return x;
            case 1: return 0;
            case 2: return l;
            case 8: return sat16(l + r);
            case 9: return sat16(l - r);
            case 10: return refMac(l, r, 0);
            case 14: return Math.min(l, r);
            case 15: return Math.max(l, r);
            default: throw new Error(`reference: SIMD op ${op}`);
          }
        });
        if (dest && op !== 0) this.reg = [...out];
        if (i.flags & 2) this.acc[i.addr0] = i.flags & 4 ? this.acc[i.addr0]!.map((v, j) => sat16(v + out[j]!)) : out;
        break;
      }
      case 0:
        break;
      default:
        throw new Error(`reference: opcode ${i.opcode}`);
    }
  }
}
