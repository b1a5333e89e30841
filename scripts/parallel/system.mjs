// The Pyxis system part of scripts/bench-parallel.mjs: an N-chip system whose chips each run the busy 48-UIE copy
// image of scripts/bench-sim.mjs (every UIE streaming AMEM -> AMEM, `rows` rows), no fabric traffic: the work that
// threads can share, with the fabric's one-way latency as the lookahead. Needs the system runner (docs/system.md).
import { encode, loadGrammarJson, loadTable } from '../../packages/codec/dist/index.js';
import { writeContainer } from '../../packages/container/dist/index.js';

const tables = new Map();
const table = (n) => tables.get(n) ?? (tables.set(n, loadTable('pyxis', n)), tables.get(n));
function desc(name, values) {
  const t = table(name);
  const out = new Uint8Array(t.meta?.bytes ?? Math.ceil(t.bytes / 8) * 8);
  encode(t, values, out, 0);
  return out;
}
const mmap = loadGrammarJson('pyxis', 'memory_map');
function word(seq, part, pc, values, uie) {
  const r = mmap.sequencers.find((q) => q.name === seq)[part];
  const out = new Uint8Array(r.stride);
  encode(table(r.table), values, out, 0);
  return [0x4000_0000 + uie * (1 << 20) + r.offset + pc * r.stride, out];
}

/** The busy48 image of bench-sim.mjs (48 UIEs, one long AMEM copy trip each), as container bytes; `clusters` < 4: only the first clusters (12 UIEs each). */
export function busyCopyImageBytes(rows, clusters = 4) {
  const sections = [];
  const records = [];
  const data = (space, address, bytes, cluster) => sections.push({ name: `.d${sections.length}`, kind: 'data', space, address, size: bytes.length, align: 8, flags: 0, data: bytes, cluster });
  const loop = { eopgm: 1, iter0_is_eol: 1, iter0_sol_pc: 0, iter0_numloops: Math.min(rows, 4096), iter1_is_eol: 1, iter1_sol_pc: 0, iter1_numloops: Math.ceil(rows / 4096) };
  for (let c = 0; c < clusters; c++) {
    let at = 0x100000;
    for (let u = 0; u < 12; u++) {
      const prog = [
        word('amem_read', 'control', 0, loop, u),
        word('amem_read', 'op', 0, { opcd: 'Read_SRAM', data_type: 'Opaque_8bit', tgt_fifo: 'AMEM_write', num_logical_ptns: 8, iter_stride: [8, 0, 0, 0, 0, 0] }, u),
        word('amem_write', 'control', 0, loop, u),
        word('amem_write', 'op', 0, { opcd: 'Write', data_type: 'Opaque_8bit', src_fifo: 'AMEM_read', num_logical_cols: 128, iter_stride: [8, 0, 0, 0, 0, 0] }, u),
      ];
      for (const [a, b] of prog) data('cfg', a, b, c);
      const base = u * 0x200000;
      const list = desc('desc_uie', { trip_valid_mask: 0b11, amem_read_base_address: base >> 4, amem_write_base_address: (base + 0x100000) >> 4, trip_id: u + 1, trip_power: 1 });
      data('amem', at, list, c);
      records.push(encode(table('desc_enqueue_record'), { queue_id: u, descriptor_list_address: at, descriptor_list_length: list.length / 8, cluster: c }));
      at += 128;
    }
  }
  const enq = new Uint8Array(records.reduce((a, r) => a + r.length, 0));
  let o = 0;
  for (const r of records) (enq.set(r, o), (o += r.length));
  sections.push({ name: '.enqueue', kind: 'meta', space: 'none', address: 0, size: enq.length, align: 8, flags: 0, data: enq, cluster: -1 });
  return writeContainer({ kind: 'pimg', version: 1, target: 'pyxis', sections, symbols: [], relocations: [], metadata: { pyxis: { clusters, uies: 12 } } });
}
