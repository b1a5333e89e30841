// Regenerates the sample vectors (deterministic; `node samples/xnu/make-data.mjs`).
// Values are multiples of 1/16 so a float64 reference reproduces them exactly.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('./', import.meta.url));

function npy(file, descr, shape, data) {
  let header = `{'descr': '${descr}', 'fortran_order': False, 'shape': (${shape.join(', ')}${shape.length === 1 ? ',' : ''}), }`;
  const total = 10 + header.length + 1;
  header += ' '.repeat((64 - (total % 64)) % 64) + '\n';
  const h = Buffer.alloc(10);
  Buffer.from([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0]).copy(h);
  h.writeUInt16LE(header.length, 8);
  writeFileSync(dir + file, Buffer.concat([h, Buffer.from(header, 'latin1'), Buffer.from(data.buffer, data.byteOffset, data.byteLength)]));
}

let seed = 12345;
const rnd = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 8) / (1 << 24);
const q16 = (x) => Math.round(x * 16) / 16;

// Nearest-neighbour search: 12 database vectors of 32 elements, a query close to vector 7.
const N = 12, D = 32;
const db = new Float32Array(N * D);
for (let i = 0; i < db.length; i++) db[i] = q16(rnd() * 8 - 4);
const query = new Float32Array(D);
for (let k = 0; k < D; k++) query[k] = q16(db[7 * D + k] + (rnd() - 0.5) * 0.5);
npy('nn_db.npy', '<f4', [N, D], db);
npy('nn_query.npy', '<f4', [D], query);

// Weighted pooling: 16 items with 8-element embeddings; the engine streams the embedding columns
// (database [8, 16]) against the pooling weights (local memory [16]).
const items = 16, dim = 8;
const emb = new Float32Array(items * dim);
for (let i = 0; i < emb.length; i++) emb[i] = q16(rnd() * 2 - 1);
const cols = new Float32Array(dim * items);
for (let j = 0; j < items; j++) for (let k = 0; k < dim; k++) cols[k * items + j] = emb[j * dim + k];
const w = new Float32Array(items);
for (let j = 0; j < items; j++) w[j] = q16(rnd());
npy('pool_embeddings.npy', '<f4', [items, dim], emb);
npy('pool_columns.npy', '<f4', [dim, items], cols);
npy('pool_weights.npy', '<f4', [items], w);

// The spec's waveform inputs (int32), "ALL PE modules have the same set of inputs":
// set 1 Xi_0 23, Yi_0 11, Xi_1 -55, Yi_1 -11; set 2 Xi_0 9, Yi_0 -13, Xi_1 -19, Yi_1 -3.
for (const [name, x0, y0, x1, y1] of [['1', 23, 11, -55, -11], ['2', 9, -13, -19, -3]]) {
  const X = new Int32Array(16), Y = new Int32Array(16);
  for (let p = 0; p < 8; p++) {
    X.set([x0, x1], 2 * p);
    Y.set([y0, y1], 2 * p);
  }
  npy(`wave${name}_x.npy`, '<i4', [1, 16], X);
  npy(`wave${name}_y.npy`, '<i4', [16], Y);
}
