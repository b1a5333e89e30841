/**
 * `inspect` prints the file offset of every table entry, section payload, tensor record, descriptor, enqueue
 * record and patch: each printed offset is checked against an independent parse of the bytes written here from
 * docs/container-format.md (header regions at 48 + 16·k, 64-byte section entries, 48-byte symbol and relocation
 * entries, string refs) and chip §11.5.1.1 / §12.6.1.2 (enqueue record and micro_patch_t bit layouts).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inspectJson, readContainer, writeContainer } from '@pyxis/container';
import { runAs, runLd } from '@pyxis/targets';
import { arbContainer, sampleContainer } from '../../container/test/fixtures.js';

async function capture(run: typeof runAs, argv: string[]) {
  let out = '';
  let err = '';
  const code = await run(['--no-color', ...argv], { stdout: (s) => void (out += s), stderr: (s) => void (err += s) });
  return { code, out, err };
}

const samples = fileURLToPath(new URL('../../../samples/', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'pyxis-inspect-offsets-'));

/** A little-endian view of the file, written from the container spec (not the reader). */
class Bytes {
  readonly dv: DataView;
  constructor(readonly b: Uint8Array) {
    this.dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  }
  u16 = (o: number) => this.dv.getUint16(o, true);
  u32 = (o: number) => this.dv.getUint32(o, true);
  i32 = (o: number) => this.dv.getInt32(o, true);
  u64 = (o: number) => Number(this.dv.getBigUint64(o, true));
  /** Region k of the header (sections, symbols, relocations, tensors, strings, metadata). */
  region = (k: number) => ({ offset: this.u64(48 + 16 * k), size: this.u64(48 + 16 * k + 8) });
  /** A string ref at `o`: u32 offset, u32 length into the string table. */
  str = (o: number) => {
    const s = this.region(4).offset + this.u32(o);
    return new TextDecoder().decode(this.b.subarray(s, s + this.u32(o + 4)));
  };
}

interface JsonView {
  layout: Record<string, { offset: number; size: number }>;
  sections: Array<{ name: string; kind: string; size: number; entryOffset: number; dataOffset: number | null; data?: string }>;
  symbols: Array<{ name: string; section: number; offset: number; entryOffset: number; tensor?: { shape: number[]; eb: number; recordOffset: number; recordSize: number } }>;
  relocations: Array<{ section: number; offset: number; symbol: string; entryOffset: number }>;
  records?: Array<{ section: number; offset: number; fileOffset: number; size: number; what: string }>;
  metadataOffset?: number;
}

/** Every offset of an `inspect --json` view against the bytes. */
function checkOffsets(bytes: Uint8Array, j: JsonView): void {
  const f = new Bytes(bytes);
  expect(String.fromCharCode(...bytes.subarray(0, 3))).toBe('PYX');
  ['sections', 'symbols', 'relocations', 'tensors', 'strings', 'metadata'].forEach((n, k) => expect(j.layout[n]).toEqual(f.region(k)));
  expect(j.layout['header']).toEqual({ offset: 0, size: f.u32(12) });
  j.sections.forEach((s, i) => {
    expect(s.entryOffset).toBe(f.region(0).offset + 64 * i);
    expect(f.str(s.entryOffset)).toBe(s.name);
    expect(f.u64(s.entryOffset + 32)).toBe(s.size);
    if (s.kind === 'zero' || s.size === 0) expect(s.dataOffset).toBeNull();
    else {
      expect(s.dataOffset).toBe(f.u64(s.entryOffset + 48));
      if (s.data !== undefined) expect(Buffer.from(bytes.subarray(s.dataOffset!, s.dataOffset! + s.size)).toString('hex')).toBe(s.data);
    }
  });
  j.symbols.forEach((y, i) => {
    expect(y.entryOffset).toBe(f.region(1).offset + 48 * i);
    expect(f.str(y.entryOffset)).toBe(y.name);
    expect(f.i32(y.entryOffset + 12)).toBe(y.section);
    expect(f.u64(y.entryOffset + 16)).toBe(y.offset);
    if (y.tensor) {
      expect(y.tensor.recordOffset).toBe(f.region(3).offset + f.u64(y.entryOffset + 32));
      expect(y.tensor.recordSize).toBe(f.u64(y.entryOffset + 40));
      expect(f.i32(y.tensor.recordOffset + 8)).toBe(y.tensor.eb);
      expect(f.u32(y.tensor.recordOffset + 12)).toBe(y.tensor.shape.length);
      y.tensor.shape.forEach((d, k) => expect(f.u64(y.tensor!.recordOffset + 24 + 8 * k)).toBe(d));
    }
  });
  j.relocations.forEach((r, i) => {
    expect(r.entryOffset).toBe(f.region(2).offset + 48 * i);
    expect(f.u32(r.entryOffset)).toBe(r.section);
    expect(f.u64(r.entryOffset + 8)).toBe(r.offset);
    expect(f.str(r.entryOffset + 24)).toBe(r.symbol);
  });
  if (f.region(5).size) expect(j.metadataOffset).toBe(f.region(5).offset);
  for (const r of j.records ?? []) expect(r.fileOffset).toBe(f.u64(j.sections[r.section]!.entryOffset + 48) + r.offset);
}

/** The hex offsets of the text view's section table: Entry@ and Data@ columns by section name. */
function textSectionOffsets(text: string): Map<string, [string, string]> {
  const lines = text.split('\n');
  const head = lines.findIndex((l) => l.startsWith('Idx  Name'));
  const m = new Map<string, [string, string]>();
  for (let i = head + 1; lines[i]; i++) {
    const c = lines[i]!.split(/\s+/);
    m.set(c[1]!, [c[8]!, c[9]!]);
  }
  return m;
}

describe('inspect: file offsets', () => {
  it('random containers: every offset of the JSON view is where the bytes say', () => {
    fc.assert(
      fc.property(arbContainer, (c) => {
        const bytes = writeContainer(c);
        checkOffsets(bytes, JSON.parse(JSON.stringify(inspectJson(readContainer(bytes, 'r.pobj'), { data: true }))) as JsonView);
      }),
      { numRuns: 150 },
    );
  });

  it('containers built in memory have no offsets to print', () => {
    const j = inspectJson(sampleContainer()) as unknown as JsonView;
    expect(j.layout).toBeUndefined();
    expect(j.sections[0]!.entryOffset).toBeUndefined();
  });

  it('a .pobj: text and JSON from the CLI', async () => {
    const obj = join(dir, 'copy.pobj');
    expect((await capture(runAs, [join(samples, 'pyxis/copy.pasm'), '-o', obj])).code).toBe(0);
    const bytes = readFileSync(obj);
    const j = await capture(runAs, ['inspect', '--json', '--data', obj]);
    checkOffsets(bytes, JSON.parse(j.out) as JsonView);
    const t = await capture(runAs, ['inspect', obj]);
    const f = new Bytes(bytes);
    expect(t.out).toMatch(new RegExp(`^symbols table\\s+${f.region(1).offset.toString(16).padStart(8, '0')}\\s+${f.region(1).size.toString(16).padStart(8, '0')}$`, 'm'));
    for (const [name, [entry, data]] of textSectionOffsets(t.out)) {
      const e = parseInt(entry, 16);
      expect(f.str(e)).toBe(name);
      expect(parseInt(data, 16)).toBe(f.u64(e + 48));
    }
  });

  it('a Pyxis .pimg: descriptors and enqueue records at their file offsets (chip §11.5.1.1)', async () => {
    const obj = join(dir, 'c.pobj');
    const img = join(dir, 'c.pimg');
    expect((await capture(runAs, [join(samples, 'pyxis/copy.pasm'), '-o', obj])).code).toBe(0);
    expect((await capture(runLd, [join(samples, 'pyxis/copy.ld'), obj, '-o', img])).code).toBe(0);
    const bytes = readFileSync(img);
    const j = JSON.parse((await capture(runLd, ['inspect', '--json', img])).out) as JsonView;
    checkOffsets(bytes, j);
    const f = new Bytes(bytes);
    const enq = j.records!.filter((r) => r.what.startsWith('enqueue record'));
    const descs = j.records!.filter((r) => r.what.includes('descriptor'));
    expect(enq).toHaveLength(4);
    expect(descs.length).toBeGreaterThanOrEqual(4);
    for (const r of enq) {
      // Table 11-2 (LSB first): queue_id [5:0], descriptor_list_address [37:6], descriptor_list_length-1 [53:38], cluster [55:54]
      const v = f.dv.getBigUint64(r.fileOffset, true);
      const qid = Number(v & 0x3fn);
      const addr = Number((v >> 6n) & 0xffff_ffffn);
      const len = Number((v >> 38n) & 0xffffn) + 1;
      expect(r.what).toContain(`(0x${qid.toString(16)}) list 0x${addr.toString(16)} length ${len}`);
      // the list it names is a descriptor section at that address whose records tile it
      const s = j.sections.findIndex((x) => x.kind === 'descriptors' && f.u64(x.entryOffset + 24) === addr);
      expect(s).toBeGreaterThanOrEqual(0);
      expect(len * 8).toBe(j.sections[s]!.size);
      const mine = descs.filter((d) => d.section === s);
      expect(mine.reduce((n, d) => n + d.size, 0)).toBe(len * 8);
      expect(mine[0]!.fileOffset).toBe(f.u64(j.sections[s]!.entryOffset + 48));
    }
    const t = (await capture(runLd, ['inspect', img])).out;
    for (const r of j.records!) expect(t).toContain(`${r.fileOffset.toString(16).padStart(8, '0')}  ${j.sections[r.section]!.name}`);
  });

  it('objects and images of the other targets', async () => {
    const cases: Array<[string, string[]]> = [
      ['systolic', ['--target', 'systolic', '--arch', join(samples, 'systolic/arch4.tarch'), join(samples, 'systolic/fc.tasm')]],
      ['xnu', [join(samples, 'xnu/pooling.xasm')]],
      ['neuroncore', [join(samples, 'neuroncore/softmax.ncasm')]],
    ];
    for (const [name, src] of cases) {
      const obj = join(dir, `${name}.pobj`);
      const r = await capture(runAs, [...src, '-o', obj]);
      expect(r.code, r.err).toBe(0);
      checkOffsets(readFileSync(obj), JSON.parse((await capture(runAs, ['inspect', '--json', '--data', obj])).out) as JsonView);
    }
    // systolic: each instruction record is the instruction of Tensil's own fc.tprog at the same pc
    const sys = readFileSync(join(dir, 'systolic.pobj'));
    const j = JSON.parse((await capture(runAs, ['inspect', '--json', join(dir, 'systolic.pobj')])).out) as JsonView;
    const tprog = readFileSync(join(samples, 'systolic/fc.tprog'));
    expect(j.records!.reduce((n, r) => n + r.size, 0)).toBe(tprog.length);
    for (const r of j.records!) expect(Buffer.from(sys.subarray(r.fileOffset, r.fileOffset + r.size))).toEqual(tprog.subarray(r.offset, r.offset + r.size));
    const img = join(dir, 'xnu.pimg');
    const l = await capture(runLd, [join(samples, 'xnu/pooling.ld'), join(dir, 'xnu.pobj'), '-o', img]);
    expect(l.code, l.err).toBe(0);
    const x = JSON.parse((await capture(runLd, ['inspect', '--json', '--data', img])).out) as JsonView;
    checkOffsets(readFileSync(img), x);
    // the pooling sample's one job descriptor: its section's bytes
    expect(x.records).toHaveLength(1);
    const job = x.sections[x.records![0]!.section]!;
    expect(Buffer.from(readFileSync(img).subarray(x.records![0]!.fileOffset, x.records![0]!.fileOffset + x.records![0]!.size)).toString('hex')).toBe(job.data!.slice(0, 2 * x.records![0]!.size));
  });

  it('patch blobs: each micro_patch_t header and its data (chip §12.6.1.2)', async () => {
    const blob = join(dir, 'c.blob');
    expect((await capture(runAs, [join(samples, 'pyxis/conv3x3_read.pasm'), '--emit', 'patch-blob', '-o', blob])).code).toBe(0);
    const f = new Bytes(readFileSync(blob));
    const j = JSON.parse((await capture(runAs, ['inspect', '--json', '--data', blob])).out) as {
      patches: Array<{ headerOffset: number; dataOffset: number; target_address: number; reg_size: number; reg_repeat: number; data: string }>;
    };
    let end = 0;
    for (const p of j.patches) {
      expect(p.headerOffset).toBe(end);
      expect(f.u32(p.headerOffset)).toBe(p.target_address);
      expect(f.u16(p.headerOffset + 4) + 1).toBe(p.reg_size);
      expect(f.u16(p.headerOffset + 6) + 1).toBe(p.reg_repeat);
      expect(p.dataOffset).toBe(p.headerOffset + 8);
      expect(Buffer.from(f.b.subarray(p.dataOffset, p.dataOffset + p.data.length / 2)).toString('hex')).toBe(p.data);
      end = p.dataOffset + p.data.length / 2;
    }
    expect(end).toBe(f.b.length);
    const t = (await capture(runAs, ['inspect', blob])).out;
    j.patches.forEach((p, i) => expect(t).toMatch(new RegExp(`^\\s+${i}\\s+${p.headerOffset.toString(16).padStart(8, '0')}\\s+${p.dataOffset.toString(16).padStart(8, '0')}\\s+0x`, 'm')));
  });
});
