// Types of scripts/gen-collective.mjs (the collective generator, docs/collectives.md), for the tests that use it.
export interface CollectiveOptions {
  chips: number;
  algorithm: 'ring-allreduce' | 'ring-reducescatter' | 'ring-allgather' | 'hd-allreduce';
  rows: number;
  pageSizeWords: number;
  data: 'exact' | 'random' | 'none';
  seed: number;
  out: string;
}
export function parseArgs(argv: string[]): CollectiveOptions;
export function npyF32(values: Float32Array, rows: number): Buffer;
export function plan(o: CollectiveOptions, c: number): unknown;
export function peers(o: CollectiveOptions, c: number): Record<number, number>;
/** Writes the collective into o.out; `inputs[c][j]` = chip c's values of chunk j (float32, rows x 128). */
export function generate(o: CollectiveOptions): { out: string; plans: unknown[]; inputs: Float32Array[][] };
