/**
 * The float64 3x3 convolution shared by test/gen/conv.test.ts and resnet.test.ts (an independent reference: it imports
 * nothing from packages/<name>/src).
 */

/**
 * 3x3 convolution, zero padding 1, `cin` -> 16 channels, stride s (1 or 2), of `images` images [cin, height, width]
 * (w [16, cin, 3, 3]): y[b, o, r, q] = sum_{i, dy, dx} w[o, i, dy + 1, dx + 1] x[b, i, s r + dy, s q + dx], rows
 * 0..height/s-1, columns 0..width/s-1, summed per output in the order (i, dy, dx); a = the same sum of |w x| (the
 * normwise scale of the error bounds).
 */
export function conv3x3Ref(x: ArrayLike<number>, w: ArrayLike<number>, o: { images: number; cin: number; height: number; width: number; stride?: number }): { y: Float64Array; a: Float64Array } {
  const { images: n, cin, height: hIn, width: wIn } = o;
  const s = o.stride ?? 1;
  const hO = hIn / s;
  const wO = wIn / s;
  const y = new Float64Array(n * 16 * hO * wO);
  const a = new Float64Array(y.length);
  for (let b = 0; b < n; b++)
    for (let oc = 0; oc < 16; oc++)
      for (let i = 0; i < cin; i++)
        for (let t = 0; t < 9; t++) {
          const wt = w[(oc * cin + i) * 9 + t]!;
          const dy = Math.floor(t / 3) - 1;
          const dx = (t % 3) - 1;
          for (let r = 0; r < hO; r++) {
            const yy = s * r + dy;
            if (yy < 0 || yy >= hIn) continue;
            for (let q = 0; q < wO; q++) {
              const xx = s * q + dx;
              if (xx < 0 || xx >= wIn) continue;
              const p = wt * x[((b * cin + i) * hIn + yy) * wIn + xx]!;
              y[((b * 16 + oc) * hO + r) * wO + q]! += p;
              a[((b * 16 + oc) * hO + r) * wO + q]! += Math.abs(p);
            }
          }
        }
  return { y, a };
}
