// The sample inputs as data (shared by make-inputs.mjs and the tests): a small xorshift PRNG,
// values rounded to BF16 (so the BF16 cast at link time is exact) unless stated.
export function prng(seed) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13; s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5; s >>>= 0;
    return s / 4294967296;
  };
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
/** Truncates to a BF16-representable float (exact in BF16). */
export function bf16Exact(x) {
  f32[0] = x;
  u32[0] &= 0xffff0000;
  return f32[0];
}

export function tensor(shape, seed, scale = 1, bf16 = true) {
  const r = prng(seed);
  const n = shape.reduce((a, b) => a * b, 1);
  const data = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const v = (r() * 2 - 1) * scale;
    data[i] = bf16 ? bf16Exact(v) : v;
  }
  return { dtype: 'float32', shape, data };
}

export function sampleInputs() {
  return {
    'matmul_at.npy': tensor([2048, 512], 1),
    'matmul_b.npy': tensor([2048, 2048], 2),
    'mlp_xt.npy': tensor([256, 128], 3),
    'mlp_w.npy': tensor([256, 512], 4, 0.125),
    'mlp_bias.npy': tensor([128, 1], 5, 0.5),
    'softmax_x.npy': tensor([128, 512], 6, 4, false),
    'norm_x.npy': tensor([128, 1024], 7, 3, false),
    'attn_qt.npy': tensor([64, 128], 9),
    'attn_kt.npy': tensor([64, 128], 10),
    'attn_v.npy': tensor([128, 64], 11),
  };
}
