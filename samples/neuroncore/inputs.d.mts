export interface F32Tensor {
  dtype: 'float32';
  shape: number[];
  data: Float32Array;
}
export function prng(seed: number): () => number;
export function bf16Exact(x: number): number;
export function tensor(shape: number[], seed: number, scale?: number, bf16?: boolean): F32Tensor;
export function sampleInputs(): Record<string, F32Tensor>;
