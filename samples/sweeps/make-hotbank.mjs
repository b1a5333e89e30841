#!/usr/bin/env node
// Generator of samples/sweeps/hotbank.json: assembles samples/pyxis/hotbank.pasm and links it with the hashed or
// the unhashed link script (chip §7.5: the same bank-hot access pattern with bank hashing on or off).
//   node make-hotbank.mjs hashed|unhashed OUT.pimg
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const [view, out] = process.argv.slice(2);
if (view !== 'hashed' && view !== 'unhashed' || !out) {
  console.error('usage: node make-hotbank.mjs hashed|unhashed OUT.pimg');
  process.exit(2);
}
const tool = (name, args) => execFileSync(process.execPath, [join(here, '../../bin', name), ...args], { stdio: 'inherit' });
const img = resolve(out);
mkdirSync(dirname(img), { recursive: true });
tool('pyxis-as', [join(here, '../pyxis/hotbank.pasm'), '-o', `${img}.pobj`]);
tool('pyxis-ld', [join(here, `../pyxis/hotbank_${view}.ld`), `${img}.pobj`, '-o', img]);
