/**
 * The decode of a cluster's CSR/config window (chip §12.7; PROJECT-DEFINED map grammars/pyxis/memory_map.json;
 * docs/simulator.md "CSRs"): an address no region maps ignores writes (SIM0863) and reads 0 (SIM0864); a CSR write
 * setting bits the register does not have is stored without them (SIM0865). Each reported once per address.
 * Expected addresses, masks and "nearest register" names are derived here from memory_map.json and the field tables.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '@pyxis/diagnostics';
import { CsrCfgSpace, defaultUieFactory, simulateImage } from '@pyxis/target-pyxis/sim';
import { bytesOf, copyProgram, ImageBuilder } from './pyxisImage.js';

const grammars = fileURLToPath(new URL('../../../../grammars/pyxis/', import.meta.url));
interface Region { name: string; kind: string; offset: number; stride: number; words: number; bits?: number; table?: string; access?: string }
const MM = JSON.parse(readFileSync(grammars + 'memory_map.json', 'utf8')) as { uie_stride: number; uies_per_cluster: number; regions: Region[] };
const CFG = MM.regions.find((r) => r.name === 'cluster.enqueue')!;
const CFG_BASE = (MM as unknown as { window: { base: number } }).window.base;
const hex = (n: number | bigint) => `0x${n.toString(16)}`;
const region = (name: string) => MM.regions.find((r) => r.name === name)!;

/** Independent reference decode: [lo, hi, label] of every mapped span of a cluster window. */
const SPANS: Array<[number, number, string]> = [];
for (const r of MM.regions) {
  const n = r.words * r.stride;
  if (r.kind === 'cluster_csr') SPANS.push([r.offset, r.offset + n, r.name]);
  else for (let u = 0; u < MM.uies_per_cluster; u++) SPANS.push([u * MM.uie_stride + r.offset, u * MM.uie_stride + r.offset + n, `uie${u} ${r.name}`]);
}
SPANS.sort((a, b) => a[0] - b[0]);
const mapped = (off: number) => SPANS.some(([lo, hi]) => off >= lo && off < hi);
/** The first unmapped 8-byte word after region `name` (cluster-level regions; UIE 0 for per-UIE ones). */
function gapAfter(name: string): number {
  const r = region(name);
  let a = r.offset + r.words * r.stride;
  while (mapped(a)) a += 8;
  return a;
}
/** Name of the register nearest to unmapped `off`: the last word before it or the first after it, whichever is closer. */
function nearest(off: number): string {
  const before = SPANS.filter(([, hi]) => hi <= off).sort((a, b) => b[1] - a[1])[0];
  const after = SPANS.filter(([lo]) => lo > off).sort((a, b) => a[0] - b[0])[0];
  return before && (!after || off - (before[1] - 1) <= after[0] - off) ? before[2] : after![2];
}
const le64 = (v: bigint) => {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, v, true);
  return b;
};
const codes = (ws: readonly Diagnostic[]) => ws.filter((w) => /^SIM086[345]$/.test(w.code ?? ''));

/** A one-row copy trip in UIE 0 (valid CSR preloads) plus `actions` and extra cfg sections. */
function image(actions: unknown[], extra: Array<[number, Uint8Array]> = []) {
  const b = new ImageBuilder();
  b.data('amem', 0x10000, bytesOf(128, (i) => i + 1));
  for (const [off, bytes] of copyProgram(1)) b.data('cfg', CFG_BASE + off, bytes);
  for (const [off, bytes] of extra) b.data('cfg', CFG_BASE + off, bytes);
  b.metadata = { host_actions: actions };
  return b.build();
}

describe('CSR window decode: unmapped addresses (SIM0863 / SIM0864)', () => {
  // the gap after cluster.dpe_config (the brief's example 0x40F20000 lies in it)
  const gap = gapAfter('cluster.dpe_config');
  it('the example address of the audit is unmapped in the map', () => {
    expect(mapped(0xf2_0000)).toBe(false);
    expect(mapped(gap)).toBe(false);
    expect(mapped(gap - 8)).toBe(true);
  });

  it('a host write to an unmapped address is ignored, reported once with the nearest register; a read returns 0 (SIM0864)', () => {
    const at = hex(CFG_BASE + gap);
    const tfm = hex(CFG_BASE + region('cluster.trip_flush').offset);
    const actions = [
      { cluster: 0, address: at, value: '0x1234', at_cycle: 1 },
      { cluster: 0, address: at, value: '0x5678', at_cycle: 2 },
      // a poll of the unmapped address: it reads 0, so the poll for 0 completes
      { cluster: 0, address: tfm, value: '0x0', poll: { address: at, mask: '0xffffffff', value: '0x0' } },
    ];
    const { report, chip } = simulateImage(image(actions), 'gap.pimg', { uies: 1, uieFactory: defaultUieFactory });
    expect(report.stop).toBe('done');
    expect(chip.host.actionsDone).toBe(3);
    const w = codes(report.warnings).sort((a, b) => a.code!.localeCompare(b.code!));
    expect(w.map((d) => d.code)).toEqual(['SIM0863', 'SIM0864']); // once per address and access, not per write
    expect(w[0]!.message).toContain(at);
    expect(w[0]!.message).toContain('0x1234');
    expect(w[0]!.message).toContain(nearest(gap));
    expect(w[1]!.message).toContain(at);
    expect(w[1]!.message).toContain(nearest(gap));
    expect(chip.cfg[0]!.peek64(gap)).toBe(0n); // nothing stored
  });

  it('an image preload straddling a region end keeps the mapped bytes and drops the rest (SIM0863)', () => {
    const cm = region('csr.convert_mode'); // the last per-UIE CSR
    const end = cm.offset + cm.words * cm.stride;
    expect(mapped(end)).toBe(false);
    const bytes = new Uint8Array(16);
    bytes.set(le64(5n), 0); // convert_mode = 5 (3 bits)
    bytes.fill(0xaa, 8);
    const { report, chip } = simulateImage(image([], [[cm.offset, bytes]]), 'pre.pimg', { uies: 1, uieFactory: defaultUieFactory });
    expect(chip.cfg[0]!.peek64(cm.offset)).toBe(5n);
    expect(chip.cfg[0]!.peek64(end)).toBe(0n);
    const w = codes(report.warnings);
    expect(w.map((d) => d.code)).toEqual(['SIM0863']);
    expect(w[0]!.message).toContain(hex(CFG_BASE + end));
    expect(w[0]!.message).toContain('uie0 csr.convert_mode');
  });

  it('an MPE patch-mode write to an unmapped address is ignored (SIM0863)', () => {
    const b = new ImageBuilder();
    const blob = new Uint8Array(16);
    const dv = new DataView(blob.buffer);
    dv.setUint32(0, CFG_BASE + gap, true); // micro_patch: target, reg_size - 1, num_elements - 1 (chip §12.6.1.2)
    dv.setUint16(4, 7, true);
    blob.set(le64(0xdeadn), 8);
    b.data('amem', 0x2000, blob);
    b.list(0x15, 0x1000, [ImageBuilder.desc('desc_mpe_patch', { blob_address: 0x2000, blob_length: 2, num_patches: 1, mode: 0, trip_id: 5 })]);
    const { report, chip } = simulateImage(b.build(), 'mpe.pimg');
    expect(report.stop).toBe('done');
    expect(chip.cfg[0]!.peek64(gap)).toBe(0n);
    expect(codes(report.warnings).map((d) => [d.code, d.message.includes(hex(CFG_BASE + gap))])).toEqual([['SIM0863', true]]);
  });

  it('MPE DMA-mode transfers (chip §12.6.2): a write into a gap is ignored (SIM0863), a read of one returns 0 (SIM0864)', () => {
    const b = new ImageBuilder();
    b.data('amem', 0x3000, bytesOf(16, (i) => i + 1)); // source of the write into the window
    b.data('amem', 0x6000, bytesOf(16, () => 0xee)); // target of the read: overwritten with zeros
    b.list(0x21, 0x1200, [
      ImageBuilder.desc('desc_mpe_dma', { source_address: 0x3000, target_address: CFG_BASE + gap, length: 2, mode: 1, trip_id: 3 }),
      ImageBuilder.desc('desc_mpe_dma', { source_address: CFG_BASE + gap + 64, target_address: 0x6000, length: 2, mode: 1, trip_id: 4 }),
    ]);
    const { report, chip } = simulateImage(b.build(), 'dma.pimg');
    expect(report.stop).toBe('done');
    expect(chip.cfg[0]!.peek64(gap)).toBe(0n);
    expect(chip.cfg[0]!.peek64(gap + 8)).toBe(0n);
    expect(chip.amem[0]!.readBytes(0x6000, 16)).toEqual(new Uint8Array(16));
    // (the MPE overlaps the second transfer's read with the first one's write: compare as a set)
    const w = codes(report.warnings).map((d) => [d.code, d.message.match(/0x40[0-9a-f]{6}/)![0]]).sort();
    expect(w).toEqual([
      ['SIM0863', hex(CFG_BASE + gap)],
      ['SIM0864', hex(CFG_BASE + gap + 64)],
    ]);
  });

  it('property: after any 8-byte write, a mapped word without a width reads it back and an unmapped one reads 0', () => {
    const plain = MM.regions.filter((r) => r.kind === 'microcode' || r.kind === 'config');
    const cfg = new CsrCfgSpace(0);
    const seen: Diagnostic[] = [];
    cfg.warn = (_k, d) => void seen.push(d);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: (CFG.offset + (1 << 20)) / 8 }), fc.bigInt({ min: 1n, max: (1n << 64n) - 1n }), (w, v) => {
        const off = w * 8;
        const isPlain = plain.some((r) => Array.from({ length: MM.uies_per_cluster }, (_, u) => u * MM.uie_stride + r.offset).some((lo) => off >= lo && off + 8 <= lo + r.words * r.stride));
        const isMapped = mapped(off) && mapped(off + 7);
        seen.length = 0;
        cfg.write(off, le64(v), 0, 8);
        const back = cfg.peek64(off);
        if (isPlain) expect(back).toBe(v);
        if (!mapped(off) && !mapped(off + 7)) {
          expect(back).toBe(0n);
          expect(seen.map((d) => d.code)).toContain('SIM0863');
        }
        if (isMapped) expect(seen.filter((d) => d.code === 'SIM0863')).toEqual([]);
      }),
      { numRuns: Number(process.env['FC_RUNS'] ?? 300) },
    );
  });
});

describe('CSR window decode: bits a register does not have (SIM0865)', () => {
  it('a host write beyond csr.trip_valid_mask `bits` stores the implemented bits only, reported once', () => {
    const r = region('csr.trip_valid_mask');
    const over = (1n << BigInt(r.bits!)) | 3n;
    const at = hex(CFG_BASE + r.offset);
    const actions = [
      { cluster: 0, address: at, value: hex(over), at_cycle: 1 },
      { cluster: 0, address: at, value: hex(over), at_cycle: 2 },
    ];
    const { report, chip } = simulateImage(image(actions), 'w.pimg', { uies: 1, uieFactory: defaultUieFactory });
    expect(chip.cfg[0]!.read64(r.offset)).toBe(over & ((1n << BigInt(r.bits!)) - 1n));
    const w = codes(report.warnings);
    expect(w.map((d) => d.code)).toEqual(['SIM0865']);
    expect(w[0]!.message).toContain('csr.trip_valid_mask');
    expect(w[0]!.message).toContain(hex(over));
  });

  it('a preload setting a reserved field of cluster.dpe_config (its table) stores the fields only', () => {
    const r = region('cluster.dpe_config');
    const t = JSON.parse(readFileSync(grammars + `${r.table}.json`, 'utf8')) as { fields: Array<{ name: string; width: number; reserved?: boolean }> };
    // field positions from the table (consecutive from bit 0, the codec's default layout)
    let lsb = 0;
    let fieldMask = 0n;
    let padBit = -1;
    for (const f of t.fields) {
      if (f.reserved) padBit = padBit < 0 ? lsb : padBit;
      else fieldMask |= ((1n << BigInt(f.width)) - 1n) << BigInt(lsb);
      lsb += f.width;
    }
    expect(padBit).toBeGreaterThan(0);
    const v = (1n << BigInt(padBit)) | 0x01_02_04n; // hungry 4, starving 2, burst 1
    const { report, chip } = simulateImage(image([], [[r.offset, le64(v)]]), 'dpe.pimg', { uies: 1, uieFactory: defaultUieFactory });
    expect(chip.cfg[0]!.peek64(r.offset) & ~fieldMask).toBe(0n);
    expect(chip.cfg[0]!.read64(r.offset)).toBe(v & fieldMask);
    expect(codes(report.warnings).map((d) => [d.code, d.message.includes('cluster.dpe_config')])).toEqual([['SIM0865', true]]);
  });

  it('valid accesses give none of SIM0863-SIM0865', () => {
    const r = region('csr.trip_valid_mask');
    const actions = [{ cluster: 0, address: hex(CFG_BASE + r.offset), value: '0x3', poll: { address: hex(CFG_BASE + region('csr.seq_status').offset), mask: '0x0', value: '0x0' } }];
    const { report } = simulateImage(image(actions), 'ok.pimg', { uies: 1, uieFactory: defaultUieFactory });
    expect(codes(report.warnings)).toEqual([]);
  });
});
