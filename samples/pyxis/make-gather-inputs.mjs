#!/usr/bin/env node
// Inputs of the gather/scatter sample (gather.ld):
//   node samples/pyxis/make-gather-inputs.mjs [OUTDIR]
// gather_idx.npy: the 1-D index table as int32 [1, 8] (indirection mode 1, chip §7.6, seq §8.1); the linker stores it
// as little-endian 32-bit words, the entry format the ITFE reads. gather_itfe.blob: the MPE patch records writing ITFE
// command register 0 of the read and of the write ITFE (indir_mode 1, x_table_base_addr 0x100000 >> 7, hashed view,
// num_indices_per_table_m1 7, seq §8.1 bit order: indir_mode [1:0], x_table_base_addr [20:2], y_table_base_addr
// [39:21], bank_hash_dsbl [40], num_indices_per_table_m1 [56:41], repeat_count_m1 [62:57]).
// gather_idx.bin (the same indices as raw int16 bytes, indirection mode 0) is kept for the raw-bytes RFP8 form.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeNpyFile } from '@pyxis/container';

const here = dirname(fileURLToPath(import.meta.url));
const out = process.argv[2] ?? here;
mkdirSync(out, { recursive: true });

const idx = [5, 2, 15, 0, 9, 9, 12, 7];
writeNpyFile(join(out, 'gather_idx.npy'), { dtype: 'int32', shape: [1, idx.length], data: Int32Array.from(idx) });

// ITFE command word (seq §8.1), then the two patch records: the 8-byte record headers are kept from the committed blob
const cmd = 1n | (BigInt(0x100000 >> 7) << 2n) | (BigInt(idx.length - 1) << 41n);
const blob = new Uint8Array(readFileSync(join(here, 'gather_itfe.blob')));
const dv = new DataView(blob.buffer);
for (let r = 0; r < blob.length; r += 16) dv.setBigUint64(r + 8, cmd, true);
writeFileSync(join(out, 'gather_itfe.blob'), blob);
