/**
 * VPFE numbering of a system (chip §10.2): each VPFE is one target cluster on one chip, VPFE[10:0] with
 * VPFE[1:0] != 3. Default assignment (MODEL, docs/spec-notes.md): cluster k of chip c is the n-th legal VPFE
 * for n = c * clustersPerChip + k, i.e. VPFE = 4 * floor(n / 3) + n % 3 (0, 1, 2, 4, 5, 6, 8, ...).
 */
export function legalVpfe(n: number): number {
  return 4 * Math.floor(n / 3) + (n % 3);
}

export function isLegalVpfe(v: number, bits = 11): boolean {
  return Number.isInteger(v) && v >= 0 && v < 1 << bits && (v & 3) !== 3;
}

/** VPFE -> chip * clustersPerChip + cluster (-1: none) from each chip's cluster VPFEs. */
export function vpfeRoute(vpfes: number[][], clustersPerChip: number, bits = 11): Int32Array {
  const r = new Int32Array(1 << bits).fill(-1);
  vpfes.forEach((cl, c) => cl.forEach((v, k) => (r[v] = c * clustersPerChip + k)));
  return r;
}
