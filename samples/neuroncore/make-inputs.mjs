#!/usr/bin/env node
// Writes the .npy inputs of the samples (deterministic, values exactly representable in the
// programs' input dtypes). Run from the repository root after `npm run build`:
//   node samples/neuroncore/make-inputs.mjs [outdir]
// The big ones (matmul: 4 MiB + 16 MiB) are not committed; the tests build the same data in memory.
import { writeNpyFile } from '../../packages/container/dist/index.js';
import { join, dirname } from 'node:path';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sampleInputs } from './inputs.mjs';

const out = process.argv[2] ?? dirname(fileURLToPath(import.meta.url));
mkdirSync(out, { recursive: true }); // a new output directory is created, not a stack trace
for (const [file, t] of Object.entries(sampleInputs())) {
  writeNpyFile(join(out, file), t);
  console.log(`${join(out, file)}: float32 [${t.shape.join(', ')}]`);
}
