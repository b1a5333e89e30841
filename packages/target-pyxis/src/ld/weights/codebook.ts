/**
 * The codebook of a compressed weights database (chip §14.1, §15.4): 16 LnsI4F3 entries (EB -15) chosen to
 * minimise the histogram's squared error — the optimal bin assignment for a codebook, and the refinement sweeps
 * that move single entries one code up or down (compress.ts step 4).
 */
import { NB, p8 } from './histogram.js';

/** Value of codebook code c in normalised units (EB -15). */
export function cbValue(c: number): number {
  const m = c & 0x7f;
  if (m === 0) return 0;
  const v = p8(m - 120);
  return c & 0x80 ? -v : v;
}

/** Indices of the non-empty histogram bins (the only ones any weight maps to). */
export function nonEmptyBins(hn: Float64Array): Int32Array {
  let n = 0;
  for (let b = 0; b < hn.length; b++) if (hn[b]! > 0) n++;
  const out = new Int32Array(n);
  for (let b = 0, k = 0; b < hn.length; b++) if (hn[b]! > 0) out[k++] = b;
  return out;
}

/**
 * Optimal assignment of the non-empty bins to the 16 entries; returns the objective.
 * (LUT entries of empty bins are never used: pass 3 puts every weight in the same bin as pass 2.)
 */
export function assign(cb: Uint8Array, bins: Int32Array, hn: Float64Array, hs: Float64Array, hss: Float64Array, lut: Uint8Array): number {
  const vals = new Float64Array(16);
  for (let i = 0; i < 16; i++) vals[i] = cbValue(cb[i]!);
  let J = 0;
  for (let t = 0; t < bins.length; t++) {
    const b = bins[t]!;
    const n = hn[b]!, s = hs[b]!;
    let best = Infinity, bi = 0;
    for (let i = 0; i < 16; i++) {
      const v = vals[i]!;
      const c = v * (n * v - 2 * s);
      if (c < best) { best = c; bi = i; }
    }
    lut[b] = bi;
    J += hss[b]! + best;
  }
  return J < 0 ? 0 : J;
}

/** Best LnsI4F3 code (magnitude 1..127, given sign) for a cluster with n points and signed sum a. */
export function bestCode(n: number, a: number): number {
  const vstar = a / n;
  const sign = vstar < 0 ? 0x80 : 0;
  const mag = vstar < 0 ? -vstar : vstar;
  let c0 = mag > 0 ? Math.floor(8 * (Math.log2(mag) + 15)) : 1;
  if (c0 < 1) c0 = 1; else if (c0 > 127) c0 = 127;
  const c1 = c0 < 127 ? c0 + 1 : 127;
  const v0 = p8(c0 - 120) * (sign ? -1 : 1), v1 = p8(c1 - 120) * (sign ? -1 : 1);
  return v0 * (n * v0 - 2 * a) <= v1 * (n * v1 - 2 * a) ? sign | c0 : sign | c1;
}

export function optimiseCodebook(hn: Float64Array, hs: Float64Array, hss: Float64Array, zeroEntry: boolean, maxIter: number, cb: Uint8Array, lut: Uint8Array): { iterations: number; initial: number; objective: number } {
  // Initial codebook: count quantiles along the signed axis (most negative .. most positive).
  const order: number[] = [];
  for (let b = 2 * NB - 1; b >= NB; b--) if (hn[b]! > 0) order.push(b);
  for (let b = 0; b < NB; b++) if (hn[b]! > 0) order.push(b);
  let total = 0;
  for (const b of order) total += hn[b]!;
  const free = zeroEntry ? 15 : 16;
  const used = new Set<number>();
  let ne = 0;
  if (zeroEntry) { cb[ne++] = 0; used.add(0); }
  if (total > 0) {
    let cum = 0, oi = 0;
    for (let q = 0; q < free; q++) {
      const target = ((q + 0.5) / free) * total;
      while (oi < order.length - 1 && cum + hn[order[oi]!]! < target) cum += hn[order[oi++]!]!;
      const b = order[oi]!;
      let c = bestCode(hn[b]!, hs[b]!);
      // Avoid duplicates: step the magnitude away (same sign).
      for (let d = 1; used.has(c) && d < 128; d++) {
        const sign = c & 0x80, m = c & 0x7f;
        const up = m + d, dn = m - d;
        if (up <= 127 && !used.has(sign | up)) { c = sign | up; break; }
        if (dn >= 1 && !used.has(sign | dn)) { c = sign | dn; break; }
      }
      used.add(c);
      cb[ne++] = c;
    }
  } else {
    for (; ne < 16; ne++) cb[ne] = ne === 0 && zeroEntry ? 0 : 120 - ne; // all-zero tensor: anything valid
  }
  const bins = nonEmptyBins(hn);
  const initial = assign(cb, bins, hn, hs, hss, lut);
  let J = initial, it = 0;
  const cn = new Float64Array(16), ca = new Float64Array(16);
  const trial = new Uint8Array(16), tlut = new Uint8Array(lut.length);
  while (it < maxIter) {
    cn.fill(0); ca.fill(0);
    for (let t = 0; t < bins.length; t++) { const b = bins[t]!, i = lut[b]!; cn[i] += hn[b]!; ca[i] += hs[b]!; }
    for (let i = 0; i < 16; i++) {
      trial[i] = cb[i]!;
      if (zeroEntry && i === 0) continue;
      if (cn[i]! > 0) trial[i] = bestCode(cn[i]!, ca[i]!);
    }
    const J2 = assign(trial, bins, hn, hs, hss, tlut);
    it++;
    if (!(J2 < J * (1 - 1e-12))) {
      if (J2 <= J) { cb.set(trial); lut.set(tlut); J = J2; }
      break;
    }
    cb.set(trial); lut.set(tlut); J = J2;
  }
  // Discrete refinement: Lloyd stops when no centroid crosses to another LnsI4F3 code; then try
  // moving single entries one code up/down (with re-assignment) while that lowers J.
  if (maxIter > 0) {
    for (let sweep = 0; sweep < 32; sweep++) {
      let improved = false;
      for (let i = zeroEntry ? 1 : 0; i < 16; i++) {
        const c = cb[i]!, sign = c & 0x80, m = c & 0x7f;
        for (const d of [-1, 1]) {
          const m2 = m + d;
          if (m2 < 1 || m2 > 127) continue;
          const c2 = sign | m2;
          if (cb.includes(c2)) continue;
          trial.set(cb);
          trial[i] = c2;
          const J2 = assign(trial, bins, hn, hs, hss, tlut);
          if (J2 < J * (1 - 1e-12)) { cb.set(trial); lut.set(tlut); J = J2; improved = true; break; }
        }
      }
      it++;
      if (!improved) break;
    }
  }
  // Sort entries by value (zero entry stays first); remap the LUT.
  const idx = Array.from({ length: 16 }, (_, i) => i);
  const start = zeroEntry ? 1 : 0;
  const tail = idx.slice(start).sort((a, b) => cbValue(cb[a]!) - cbValue(cb[b]!));
  const perm = idx.slice(0, start).concat(tail);
  const inv = new Uint8Array(16);
  const sorted = new Uint8Array(16);
  for (let i = 0; i < 16; i++) { sorted[i] = cb[perm[i]!]!; inv[perm[i]!] = i; }
  cb.set(sorted);
  for (let b = 0; b < lut.length; b++) lut[b] = inv[lut[b]!]!;
  return { iterations: it, initial, objective: J };
}
