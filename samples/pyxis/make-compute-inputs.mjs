#!/usr/bin/env node
// Float inputs of the compute samples (samples/pyxis/*.ld), deterministic (seeded PRNG):
//   node samples/pyxis/make-compute-inputs.mjs [OUTDIR] [--k K]
// Every value is exactly representable in the sample's storage format (RFP8 S E4 F3 or RFP16 S E5 F10 with
// the EB of the link script), so the linker's float -> code conversion is exact and the float64 reference
// computed from these files is the product of exactly what the grid multiplies.
import { writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const kAt = args.indexOf('--k');
const K = kAt >= 0 ? Number(args[kAt + 1]) : 1024;
const out = args.find((a, i) => !a.startsWith('--') && (kAt < 0 || i !== kAt + 1)) ?? here;
mkdirSync(out, { recursive: true });

/** mulberry32: a small deterministic PRNG. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** ±(1 + F/2^fbits) * 2^e with e in [emin, emax]: exact in RFP8 (fbits 3) / RFP16 (fbits 10) for a fitting EB. */
function values(n, seed, { fbits = 3, emin = -3, emax = 1 } = {}) {
  const r = rng(seed);
  const v = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const s = r() < 0.5 ? -1 : 1;
    const e = emin + Math.floor(r() * (emax - emin + 1));
    const f = Math.floor(r() * (1 << fbits));
    v[i] = s * (1 + f / (1 << fbits)) * 2 ** e;
  }
  return v;
}

/** ±2^(e + f/8), e in [emin, emax], f in 0..7: exact in LnsI4F3 for a fitting EB. */
function lnsValues(n, seed, { emin = -3, emax = 1 } = {}) {
  const r = rng(seed);
  const v = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const s = r() < 0.5 ? -1 : 1;
    const e = emin + Math.floor(r() * (emax - emin + 1));
    v[i] = s * 2 ** (e + Math.floor(r() * 8) / 8);
  }
  return v;
}

function identity(n) {
  const v = new Float32Array(n * n);
  for (let i = 0; i < n; i++) v[i * n + i] = 1;
  return v;
}

/** A little-endian float32 .npy (format 1.0). */
function npy(file, shape, data) {
  let h = `{'descr': '<f4', 'fortran_order': False, 'shape': (${shape.join(', ')}${shape.length === 1 ? ',' : ''}), }`;
  const pad = 64 - ((10 + h.length + 1) % 64);
  h += ' '.repeat(pad % 64) + '\n';
  const head = Buffer.alloc(10);
  head.write('\x93NUMPY', 0, 'latin1');
  head[6] = 1;
  head[7] = 0;
  head.writeUInt16LE(h.length, 8);
  writeFileSync(join(out, file), Buffer.concat([head, Buffer.from(h, 'latin1'), Buffer.from(data.buffer, data.byteOffset, data.byteLength)]));
}

// FP8 MatMul (matmul_fp8.pasm / .ld): C[128,128] = A[128,K] x B[K,128]
npy(`mm_fp8_a${K === 1024 ? '' : `_k${K}`}.npy`, [128, K], values(128 * K, 1));
npy(`mm_fp8_b${K === 1024 ? '' : `_k${K}`}.npy`, [K, 128], values(K * 128, 2));
if (K === 1024) {
  // FP16 MatMul (matmul_fp16): K = 256, 10 fraction bits
  npy('mm_fp16_a.npy', [128, 256], values(128 * 256, 3, { fbits: 10 }));
  npy('mm_fp16_b.npy', [256, 128], values(256 * 128, 4, { fbits: 10 }));
  // transposed MatMul (matmul_transposed_fp8): A^T stored [K = 512, 128]
  npy('mm_tr_at.npy', [512, 128], values(512 * 128, 5));
  npy('mm_tr_b.npy', [512, 128], values(512 * 128, 6));
  // transposed FP16 MatMul (matmul_transposed_fp16): A^T stored [K = 260, 128], 10 fraction bits
  npy('mm_tr16_at.npy', [260, 128], values(260 * 128, 17, { fbits: 10 }));
  npy('mm_tr16_b.npy', [260, 128], values(260 * 128, 18, { fbits: 10 }));
  // transpose via identity (transpose_identity): A [128, 128], I [128, 128]
  npy('tr_a.npy', [128, 128], values(128 * 128, 7));
  npy('tr_i.npy', [128, 128], identity(128));
  // two-UIE pipeline (pipeline_2uie): D_t = (A_t x B) x B2 for two 128-row tiles A_0, A_1; K = 256 then 128
  npy('pl_a0.npy', [128, 256], values(128 * 256, 8));
  npy('pl_a1.npy', [128, 256], values(128 * 256, 11));
  npy('pl_b.npy', [256, 128], values(256 * 128, 9));
  npy('pl_b2.npy', [128, 128], values(128 * 128, 10, { emin: -5, emax: -3 }));
}
if (K === 1024) {
  // 1x1 convolution + residual (conv1x1_residual) and compressed 1x1 (conv1x1_compressed): X [Cin = 64, 1, 128] RFP8,
  // W [Cout = 128, Cin = 64] as LNS values +-2^(e + f/8) (exact in LnsI4F3 eb -12), R [128, 1, 128] exact in RFP16 eb -8
  npy('c1_x.npy', [64, 1, 128], values(64 * 128, 12));
  npy('c1_w.npy', [128, 64], lnsValues(128 * 64, 13, { emax: 0 }));
  // 3x3 convolution with padding (conv3x3_pad): X [Cin = 16, 8, 128] RFP8, W [Cout = 16, Cin = 16, 3, 3] LNS-exact
  npy('c3_x.npy', [16, 8, 128], values(16 * 8 * 128, 15));
  npy('c3_w.npy', [16, 16, 3, 3], lnsValues(16 * 16 * 9, 16, { emax: 0 }));
  npy('c1_r.npy', [128, 1, 128], values(128 * 128, 14, { fbits: 10, emin: 0, emax: 3 }));
}
console.log(`compute inputs written to ${out} (K = ${K})`);
