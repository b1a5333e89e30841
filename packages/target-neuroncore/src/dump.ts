/** `.npy` dumps of HBM tensors after a run: values decoded to float32 (exact for every format here), int32 kept. */
import type { Tensor } from '@pyxis/container';
import { decodeTables, dtypeBytes } from './numerics.js';
import type { NcRun } from './run.js';

export function dumpTensor(run: NcRun, name: string): Tensor {
  const ti = run.program.tensors.findIndex((t) => t.name === name);
  const t = run.program.tensors[ti]!;
  const n = t.shape.reduce((a, b) => a * b, 1);
  const base = run.hbmAddr[ti]!;
  const hbm = run.memories!.hbm;
  const dv = new DataView(hbm.buffer, hbm.byteOffset + base, n * dtypeBytes(t.dtype));
  if (t.dtype === 'int32') {
    const out = new Int32Array(n);
    for (let i = 0; i < n; i++) out[i] = dv.getInt32(i * 4, true);
    return { dtype: 'int32', shape: t.shape, data: out };
  }
  const tab = decodeTables();
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    switch (t.dtype) {
      case 'bf16': out[i] = tab.bf16[dv.getUint16(i * 2, true)]!; break;
      case 'fp16': out[i] = tab.fp16[dv.getUint16(i * 2, true)]!; break;
      case 'fp8_e4m3': out[i] = tab.e4m3[dv.getUint8(i)]!; break;
      case 'fp8_e5m2': out[i] = tab.e5m2[dv.getUint8(i)]!; break;
      default: out[i] = dv.getFloat32(i * 4, true);
    }
  }
  return { dtype: 'float32', shape: t.shape, data: out };
}
