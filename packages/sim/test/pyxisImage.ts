/** Test helper: builds small Pyxis images (Container objects) programmatically, without the linker. */
import { encode, loadTable, type FieldValues } from '@pyxis/codec';
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
