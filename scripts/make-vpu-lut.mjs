#!/usr/bin/env node
// Builds a VPU lookup table (grammars/pyxis/vpu_lut_entry.json, the project's VPU model) for a function of one FP16
// value: 256 rows (base, slope), row i = the segment of FP16 codes whose 8 MSBs are i (sign, exponent, 2 fraction
// bits). Within a segment the value is linear in the 8 low bits, so base = f(x0) and slope = f(x1) - f(x0), with
// x0 the segment's first value and x1 = x0 + 256 ulp the next segment's first value: the LUT interpolates f linearly
// between the breakpoints x0 and is exact at them (up to the FP16 rounding of base and slope).
//   node scripts/make-vpu-lut.mjs --fn gelu|exp|recip|rsqrt|sigmoid|tanh|silu [--eb -15] -o FILE.npy
// Load it with `config vpu.lut { uie = U; index = 256 * TABLE; data = "FILE.npy"; }` in a link script.
import { writeFileSync } from 'node:fs';

const args = process.argv.slice(2);
const opt = (k, d) => (args.includes(k) ? args[args.indexOf(k) + 1] : d);
const fnName = opt('--fn', 'gelu');
const EB = Number(opt('--eb', '-15'));
const out = opt('-o', `${fnName}_lut.npy`);

/** erf, Abramowitz & Stegun 7.1.26 refined: W. J. Cody's rational approximation is overkill; |error| < 1.2e-7 here. */
function erf(x) {
  // series for small |x|, continued fraction via erfc for large (both to ~1e-12)
  const a = Math.abs(x);
  let r;
  if (a < 2.5) {
    let term = a;
    let sum = a;
    for (let n = 1; n < 80; n++) {
      term *= (-a * a) / n;
      sum += term / (2 * n + 1);
      if (Math.abs(term) < 1e-17) break;
    }
    r = (2 / Math.sqrt(Math.PI)) * sum;
  } else {
    let f = 0;
    for (let n = 60; n >= 1; n--) f = n / 2 / (a + f);
    r = 1 - Math.exp(-a * a) / Math.sqrt(Math.PI) / (a + f);
  }
  return x < 0 ? -r : r;
}
const FNS = {
  gelu: (x) => 0.5 * x * (1 + erf(x / Math.SQRT2)),
  exp: (x) => Math.exp(x),
  recip: (x) => 1 / x,
  rsqrt: (x) => (x > 0 ? 1 / Math.sqrt(x) : 0),
  sigmoid: (x) => 1 / (1 + Math.exp(-x)),
  tanh: (x) => Math.tanh(x),
  silu: (x) => x / (1 + Math.exp(-x)),
};
const f = FNS[fnName];
if (!f) {
  console.error(`make-vpu-lut: unknown --fn ${fnName} (${Object.keys(FNS).join(', ')})`);
  process.exit(2);
}
const MAXF = (2 - 2 ** -10) * 2 ** (31 + EB); // the largest FP16 magnitude at EB: clamp instead of saturating in the linker
const clamp = (y) => (Number.isFinite(y) ? Math.max(-MAXF, Math.min(MAXF, y)) : y > 0 ? MAXF : -MAXF);
const rows = new Float32Array(256 * 2);
for (let i = 0; i < 256; i++) {
  // the segment's nominal first value (sign, E, 2 fraction bits of i; low fraction bits 0), chip §4.2 — also for
  // segments 0 and 128, whose first codes are the zero / NaN codepoints (the LUT's linear map still starts there)
  const sign = i & 0x80 ? -1 : 1;
  const E = (i >> 2) & 31;
  const x0 = sign * (1 + ((i & 3) << 8) / 1024) * 2 ** (E + EB);
  const x1 = x0 + sign * 256 * 2 ** (E + EB - 10);
  const y0 = clamp(f(x0));
  rows[2 * i] = y0;
  rows[2 * i + 1] = clamp(clamp(f(x1)) - y0);
}
let h = "{'descr': '<f4', 'fortran_order': False, 'shape': (256, 2), }";
while ((10 + h.length + 1) % 64) h += ' ';
h += '\n';
const pre = Buffer.from([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0, h.length & 255, h.length >> 8]);
writeFileSync(out, Buffer.concat([pre, Buffer.from(h, 'latin1'), Buffer.from(rows.buffer)]));
console.log(`make-vpu-lut: ${fnName} at EB ${EB} -> ${out} (256 segments)`);
