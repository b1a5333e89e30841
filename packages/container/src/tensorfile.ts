/** Reads either tensor-file form by its magic bytes (the extension is not trusted). */
import { basename, extname } from 'node:path';
import { failAt } from '@pyxis/diagnostics';
import { TensorCodes } from './codes.js';
import { readInputFile } from './fileio.js';
import { readNpy } from './npy.js';
import { readSafetensorsWithMetadata } from './safetensors.js';
import type { Tensor } from './tensor.js';

export interface TensorFile {
  format: 'npy' | 'safetensors';
  /** For `.npy` one entry named after the file (basename without extension). */
  tensors: Map<string, Tensor>;
  metadata: Record<string, string>;
}

export function readTensorBytes(bytes: Uint8Array, file: string): TensorFile {
  if (bytes.length >= 6 && bytes[0] === 0x93 && bytes[1] === 0x4e && bytes[2] === 0x55) {
    const name = basename(file, extname(file));
    return { format: 'npy', tensors: new Map([[name, readNpy(bytes, file)]]), metadata: {} };
  }
  if (bytes.length >= 9 && bytes[8] === 0x7b) return { format: 'safetensors', ...readSafetensorsWithMetadata(bytes, file) };
  return failAt(file, 0, TensorCodes.badMagic, 'not a tensor file: expected .npy ("\\x93NUMPY") or .safetensors (8-byte length then "{")');
}

export function readTensorFile(path: string): TensorFile {
  return readTensorBytes(readInputFile(path), path);
}
