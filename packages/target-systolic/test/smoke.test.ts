import { readFileSync } from 'node:fs';
import { test } from 'vitest';
import { imageFromTModel, imageParts, decodeProgram, disassembleProgram, simulate, readOutput } from '../src/index.js';
const F = '/work/shared/fixtures/tensil/resnet20-zcu104-uram/resnet20v2_cifar_onnx_zcu104_uram.tmodel';
test('smoke', () => {
  const img = imageFromTModel(readFileSync(F, 'utf8'), F);
  const parts = imageParts(img, F);
  const p = decodeProgram(parts.program, parts.arch, F);
  const text = disassembleProgram(p, parts.arch);
  console.log(text.split('\n').slice(0, 60).join('\n'));
  const t0 = Date.now();
  const o = simulate({ parts, file: F, inputs: new Map() });
  console.log(Date.now() - t0, 'ms', o.summary, readOutput(o.machine, parts.outputs[0]!).data.slice(0, 10));
}, 60000);
