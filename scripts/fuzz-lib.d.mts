// Types of scripts/fuzz-lib.mjs (the fuzz harness), for the tests that drive it.
export const KINDS: readonly string[];
export const CLASSES: readonly string[];
export const FAILURES: readonly string[];
export interface Rng {
  next(): number;
  int(n: number): number;
  pick<T>(xs: readonly T[]): T;
  chance(p: number): boolean;
}
export function rng(seed: number): Rng;
export interface FuzzCase {
  tool: 'as' | 'ld' | 'sim';
  files: Record<string, string | Uint8Array>;
  args: string[];
  outputs: string[];
  /** Files a stopped simulation (deadlock, cycle limit) may leave, or '*' for any. */
  stopOutputs?: string[] | '*';
}
export interface FuzzResult {
  cls: string;
  code?: number;
  ms: number;
  err: string;
  created?: string[];
}
export function baseInputs(): Promise<unknown>;
export function mutateText(text: string, r: Rng): string;
export function mutateBytes(bytes: Uint8Array, r: Rng): Uint8Array;
export function mutateContainer(bytes: Uint8Array, r: Rng): Uint8Array;
export function mutateNpy(bytes: Uint8Array, r: Rng): Uint8Array;
export function makeCase(kind: string, seed: number): Promise<FuzzCase>;
export function runCase(c: FuzzCase, root: string, timeoutMs?: number): Promise<FuzzResult>;
export function newRoot(): string;
export function cleanup(root: string): void;
export function setScale(s: number): void;
