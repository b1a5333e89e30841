/** Test helper: builds small Pyxis images (Container objects) programmatically, without the linker. */
import { encode, loadGrammarJson, loadTable, type FieldValues } from '@pyxis/codec';
import { FORMAT_VERSION, type Container, type Section, type SymbolEntry } from '@pyxis/container';

export interface Desc {
  table: string;
  values: FieldValues;
}

export class ImageBuilder {
  readonly sections: Section[] = [];
  readonly symbols: SymbolEntry[] = [];
  private records: Uint8Array[] = [];
  metadata: Record<string, unknown> = {};

  /** Encodes a descriptor (padded to the table's at-rest size). */
  static desc(table: string, values: FieldValues): Uint8Array {
    const t = loadTable('pyxis', table);
    const size = (t.meta?.['bytes'] as number | undefined) ?? Math.ceil(t.bytes / 8) * 8;
    const out = new Uint8Array(size);
    encode(t, values, out, 0);
    return out;
  }

  data(space: 'amem' | 'hbm' | 'cfg', address: number, data: Uint8Array, cluster = space === 'hbm' ? -1 : 0, name = `.data.${this.sections.length}`): number {
    this.sections.push({ name, kind: 'data', space, address, size: data.length, align: 8, flags: 0, data, cluster });
    return this.sections.length - 1;
  }

  tensor(name: string, space: 'amem' | 'hbm', address: number, data: Uint8Array, shape: number[], format: string, eb = 0, cluster = 0): void {
    const s = this.data(space, address, data, space === 'hbm' ? -1 : cluster, `.tensor.${name}`);
    this.symbols.push({ name, kind: 'tensor', section: s, offset: 0, size: data.length, global: true, tensor: { shape, format, eb } });
  }

  /** Places a descriptor list in AMEM of `cluster` at `address` and enqueues it on queue `qid`. */
  list(qid: number, address: number, descs: Uint8Array[], cluster = 0): void {
    const total = descs.reduce((a, d) => a + d.length, 0);
    const buf = new Uint8Array(total);
    let o = 0;
    for (const d of descs) {
      buf.set(d, o);
      o += d.length;
    }
    this.data('amem', address, buf, cluster, `.desc.c${cluster}.q${qid.toString(16).padStart(2, '0')}.${this.sections.length}`);
    this.enqueue(qid, address, total / 8, cluster);
  }

  enqueue(qid: number, engineAddress: number, length8: number, cluster = 0): void {
    const t = loadTable('pyxis', 'desc_enqueue_record');
    this.records.push(encode(t, { queue_id: qid, descriptor_list_address: engineAddress, descriptor_list_length: length8, cluster }));
  }

  build(): Container {
    const enq = new Uint8Array(this.records.length * 8);
    this.records.forEach((r, i) => enq.set(r, i * 8));
    const sections = [...this.sections, { name: '.enqueue', kind: 'meta' as const, space: 'none', address: 0, size: enq.length, align: 8, flags: 0, data: enq, cluster: -1 }];
    return { kind: 'pimg', version: FORMAT_VERSION, target: 'pyxis', sections, symbols: this.symbols, relocations: [], metadata: { pyxis: this.metadata } };
  }
}

export function bytesOf(n: number, f: (i: number) => number): Uint8Array {
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) b[i] = f(i) & 0xff;
  return b;
}

/** Global barrier id {cluster[1:0], id[9:0]} (chip §11.6.4). */
export function gid(cluster: number, id: number): number {
  return (cluster << 10) | id;
}

interface Region {
  offset: number;
  stride: number;
  table?: string;
}
const mm = loadGrammarJson<{ sequencers: Array<{ name: string; control: Region; op: Region }> }>('pyxis', 'memory_map');

/** (cfg offset, bytes) of one encoded word of sequencer `seq` at `pc` (`part` = control or op memory) of UIE `uie`. */
export function seqWord(seq: string, part: 'control' | 'op', pc: number, values: FieldValues, uie = 0): [number, Uint8Array] {
  const s = mm.sequencers.find((q) => q.name === seq)!;
  const r = s[part];
  const t = loadTable('pyxis', r.table!);
  const out = new Uint8Array(r.stride);
  encode(t, values, out, 0);
  return [uie * (1 << 20) + r.offset + pc * r.stride, out];
}

/** A one-instruction loop of n iterations, ending the program (seq §2.1). */
const loop = (n: number): FieldValues => ({ eopgm: 1, iter0_is_eol: 1, iter0_sol_pc: 0, iter0_numloops: n });
const st = (s0: number) => [s0, 0, 0, 0, 0, 0];

/** AMEM Read -> AMEM Write copy of `rows` 128-byte rows (8-bit data): the microcode words of UIE `uie` as (cfg offset, bytes). */
export function copyProgram(rows: number, uie = 0): Array<[number, Uint8Array]> {
  return [
    seqWord('amem_read', 'control', 0, loop(rows), uie),
    seqWord('amem_read', 'op', 0, { opcd: 'Read_SRAM', data_type: 'Opaque_8bit', tgt_fifo: 'AMEM_write', num_logical_ptns: 8, iter_stride: st(8) }, uie),
    seqWord('amem_write', 'control', 0, loop(rows), uie),
    seqWord('amem_write', 'op', 0, { opcd: 'Write', data_type: 'Opaque_8bit', src_fifo: 'AMEM_read', num_logical_cols: 128, iter_stride: st(8) }, uie),
  ];
}
