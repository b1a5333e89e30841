/**
 * An independent reading of the golden map samples/pyxis/weights_1x1.expected.map:
 * its tables are parsed here (never with the linker's map code) and checked
 * against the image serialised and read back with @pyxis/container, the
 * descriptor sizes of the grammar JSON files, the enqueue records and the
 * UIE/H2A descriptors' barrier fields (chip §11.4.1, §11.5.1, §11.6).
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { decode, loadTable } from '@pyxis/codec';
import { readContainer, writeContainer, type Container } from '@pyxis/container';
import { assemble, loadPyxisIsa } from '@pyxis/target-pyxis/asm';
import { link } from '@pyxis/target-pyxis/ld';

const samples = fileURLToPath(new URL('../../../../samples/pyxis/', import.meta.url));
const grammars = fileURLToPath(new URL('../../../../grammars/pyxis/', import.meta.url));

/** Rows of the table under `title` (after its column header), split on runs of spaces. */
function table(text: string, title: string): string[][] {
  const lines = text.split('\n');
  const at = lines.indexOf(title);
  if (at < 0) throw new Error(`no ${title}`);
  const rows: string[][] = [];
  // title, blank, [column header], rows..., blank
  let i = at + 2;
  if (!lines[i]!.startsWith('  ')) i++; // tables with a column header
  for (; i < lines.length && lines[i]!.trim() !== ''; i++) rows.push(lines[i]!.trim().split(/\s+/));
  return rows;
}

/** Bytes of a descriptor table from its JSON (sum of field widths, rounded up to bytes), not via the codec. */
function tableBytes(name: string): number {
  const t = JSON.parse(readFileSync(`${grammars}${name}.json`, 'utf8')) as { width?: number; fields: Array<{ width: number; count?: number }> };
  return (t.width ?? t.fields.reduce((s, f) => s + f.width * (f.count ?? 1), 0)) / 8;
}

describe('weights_1x1.expected.map against the image (independent parse)', () => {
  const file = samples + 'weights_1x1.ld';
  const obj = assemble(['wdp_1x1_weights.pasm', 'weights_1x1_rd.pasm'].map((f) => ({ file: f, text: readFileSync(samples + f, 'utf8') })), { isa: loadPyxisIsa(), listing: false }).object;
  const linked = link({ script: readFileSync(file, 'utf8'), scriptFile: file, objects: [{ file: 'wdp_1x1_weights.pobj', container: obj }] });
  const image: Container = readContainer(writeContainer(linked.image), 'weights_1x1.pimg');
  const text = readFileSync(samples + 'weights_1x1.expected.map', 'utf8');
  const num = (s: string) => Number(s);

  it('every Sections row is an image section with that kind, space, cluster, address and size', () => {
    const rows = table(text, 'Sections');
    expect(rows.length).toBe(image.sections.length);
    for (const [name, kind, space, cl, addr, size] of rows) {
      const s = image.sections.find((x) => x.name === name);
      expect(s, name).toBeDefined();
      expect([s!.kind, s!.space, s!.cluster ?? -1, s!.address, s!.size]).toEqual([kind, space!.replace('/u', ''), cl === '-' ? -1 : num(cl!), num(addr!), num(size!)]);
    }
  });

  it('Memory Configuration: Used is the sum of the allocations inside each region', () => {
    // Allocations are the section sizes, except that the HBM database is the source of an H2A
    // trip, whose length counts whole 1 KiB units (chip §11.4.3): the linker allocates the whole
    // transfer, so HBM items occupy their size rounded up to 1 KiB.
    const allocated = (s: { space: string; size: number }) => (s.space === 'hbm' ? Math.ceil(s.size / 1024) * 1024 : s.size);
    for (const [name, space, cl, , origin, length, used] of table(text, 'Memory Configuration')) {
      const o = num(origin!);
      const end = o + num(length!);
      const inside = image.sections.filter((s) => s.space === space && (cl === '-' || s.cluster === num(cl!)) && s.address >= o && s.address + s.size <= end);
      expect(inside.reduce((n, s) => n + allocated(s), 0), name).toBe(num(used!));
    }
  });

  it('every Symbols row is an image symbol of that name, kind and size, at that address inside its section', () => {
    const rows = table(text, 'Symbols');
    expect(rows.length).toBe(image.symbols.length);
    for (const [addr, size, kind, where, name] of rows) {
      const sym = name!.split(' ')[0]!;
      const e = image.symbols.find((x) => x.name === sym);
      expect(e, sym).toBeDefined();
      const sec = image.sections[e!.section]!;
      expect([e!.kind, sec.space, sec.address + e!.offset, e!.size], sym).toEqual([kind, where!.split(':')[0], num(addr!), num(size!)]);
      expect(e!.offset + e!.size, sym).toBeLessThanOrEqual(sec.size);
    }
  });

  it('Descriptor lists: bytes = count x descriptor size of the grammar table; one enqueue record each', () => {
    const size: Record<string, string> = { barrier: 'desc_barrier_config', uie: 'desc_uie', h2a: 'desc_h2a' };
    const lists = table(text, 'Descriptor lists');
    const enq = image.sections.find((s) => s.name === '.enqueue')!;
    const et = loadTable('pyxis', 'desc_enqueue_record');
    expect(enq.size).toBe(lists.length * et.bytes);
    lists.forEach(([cl, queue, section, addr, engine, count, bytes], k) => {
      const m = /^(\w+)\((0x[0-9a-f]+)\)$/.exec(queue!)!;
      expect(num(bytes!), section).toBe(num(count!) * tableBytes(size[m[1]!.replace(/(uie)\d+$/, '$1')]!));
      const s = image.sections.find((x) => x.name === section)!;
      expect(`amem:${'0x' + s.address.toString(16).padStart(8, '0')}`).toBe(addr);
      // hashed AMEM: the engine address is the byte address (chip §12.7 window 0)
      expect(num(engine!)).toBe(s.address);
      const r = decode(et, enq.data, k * et.bytes);
      expect([r['cluster'], r['queue_id'], r['descriptor_list_address'], r['descriptor_list_length']]).toEqual([num(cl!), num(m[2]!), num(engine!), num(bytes!) / 8]);
    });
  });

  it('Barrier allocation and Trips agree with each other and with the encoded descriptors', () => {
    const trips = table(text, 'Trips').map(([id, cl, kind, q, name, wait, ...notify]) => ({
      id: num(id!), cluster: num(cl!.slice(1)), kind: kind!, queue: num(q!.slice(1)), name: name!,
      wait: num(wait!.slice(5)), notify: notify.join(' ').replace(/^notify=\[|\]$/g, '').split(', ').filter(Boolean).map((g) => g.split(':').map(Number) as [number, number]),
    }));
    const barriers = table(text, 'Barrier allocation').map(([cl, id, nc, wc, ...rest]) => {
      const [p, c] = rest.join(' ').split(' -> ');
      return { cluster: num(cl!), id: num(id!), notify: num(nc!), wait: num(wc!), producers: p!.split(', '), consumers: c!.split(', ') };
    });
    for (const b of barriers) {
      const producers = trips.filter((t) => t.notify.some(([c, i]) => c === b.cluster && i === b.id)).map((t) => t.name);
      const consumers = trips.filter((t) => t.cluster === b.cluster && t.wait === b.id).map((t) => t.name);
      expect(producers).toEqual(b.producers);
      expect(consumers).toEqual(b.consumers);
      expect(b.notify).toBe(producers.length);
      expect(b.wait).toBe(consumers.length);
    }
    // the descriptors carry the same trip ids and barrier fields, in list order
    const tabs: Record<string, string> = { uie: 'desc_uie', h2a: 'desc_h2a' };
    for (const [kind, q] of [['uie', 0x00], ['h2a', 0x10]] as const) {
      const s = image.sections.find((x) => x.name === `.desc.c0.q${q.toString(16).padStart(2, '0')}.0`)!;
      const t = loadTable('pyxis', tabs[kind]!);
      trips.filter((x) => x.queue === q).forEach((x, k) => {
        const d = decode(t, s.data, k * t.bytes);
        expect(d['trip_id']).toBe(x.id);
        expect(d['wait_barrier_id']).toBe(x.wait);
        const nl = (d['notify_list'] as number[]).filter((g) => g !== 0);
        expect(nl.map((g) => [g >> 10, g & 0x3ff])).toEqual(x.notify);
      });
    }
  });
});
