#!/usr/bin/env node
// Regenerates the assembler's golden files beside the samples, after an
// intentional behaviour change (review the diff!):
//   samples/pyxis/<x>.pasm         -> <x>.expected.txt (listing: PC, words, source)
//   samples/pyxis/errors/<x>.pasm  -> <x>.err          (diagnostics, plain text)
// Build first: npx tsc -b
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { goldenListing, goldenErrors } from '../packages/target-pyxis/dist/asm/golden.js';
import { loadPyxisIsa } from '../packages/target-pyxis/dist/asm/isa.js';

const isa = loadPyxisIsa();

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = join(root, 'samples/pyxis');
let n = 0;
for (const f of readdirSync(dir).sort()) {
  if (!f.endsWith('.pasm')) continue;
  const rel = relative(root, join(dir, f));
  writeFileSync(join(dir, f.replace(/\.pasm$/, '.expected.txt')), goldenListing(rel, readFileSync(join(dir, f), 'utf8'), isa));
  n++;
}
for (const f of readdirSync(join(dir, 'errors')).sort()) {
  if (!f.endsWith('.pasm')) continue;
  const rel = relative(root, join(dir, 'errors', f));
  writeFileSync(join(dir, 'errors', f.replace(/\.pasm$/, '.err')), goldenErrors(rel, readFileSync(join(dir, 'errors', f), 'utf8'), isa));
  n++;
}
console.log(`regenerated ${n} golden files`);
