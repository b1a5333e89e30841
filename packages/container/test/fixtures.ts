import fc from 'fast-check';
import { DiagnosticError } from '@pyxis/diagnostics';
import { FORMAT_VERSION, SECTION_KINDS, SYMBOL_KINDS, type Container, type Section, type SymbolEntry } from '@pyxis/container';

/** The small container whose bytes are checked into golden/small.pobj.hex. */
export function sampleContainer(): Container {
  return {
    kind: 'pobj',
    version: FORMAT_VERSION,
    target: 'pyxis',
    sections: [
      { name: '.text', kind: 'code', space: 'uie.amem_read.ctrl', address: 0, size: 4, align: 4, flags: 1, data: new Uint8Array([0xde, 0xad, 0xbe, 0xef]) },
      { name: '.bss', kind: 'zero', space: 'amem', address: 0x100, size: 64, align: 64, flags: 1, data: new Uint8Array(0), cluster: 2 },
    ],
    symbols: [
      { name: 'main', kind: 'program', section: 0, offset: 0, size: 4, global: true },
      { name: 'w', kind: 'tensor', section: 1, offset: 0, size: 64, global: false, tensor: { shape: [8, 8], format: 'RFP8', eb: -3, strides: [8, 1] } },
    ],
    relocations: [{ section: 0, offset: 0, kind: 'pyxis.sol_pc', symbol: 'main', addend: -1, info: 7 }],
    metadata: { producer: 'pyxis-as' },
  };
}

const name = fc.string({ maxLength: 12 });
const u53 = fc.oneof(fc.nat(1 << 20), fc.constantFrom(0, Number.MAX_SAFE_INTEGER));
const i53 = fc.oneof(fc.integer({ min: -(1 << 20), max: 1 << 20 }), fc.constantFrom(Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER));

const arbSection: fc.Arbitrary<Section> = fc
  .record({
    name,
    kind: fc.constantFrom(...SECTION_KINDS),
    space: fc.constantFrom('amem', 'hbm', 'dpe32', 'none', 'uie.amem_read.ctrl'),
    address: u53,
    align: fc.nat(31).map((k) => 2 ** k),
    flags: fc.nat(0xffff_ffff),
    bytes: fc.uint8Array({ maxLength: 40 }),
    zeroSize: fc.nat(1 << 20),
    cluster: fc.option(fc.integer({ min: -1, max: 63 }), { nil: undefined }),
  })
  .map(({ bytes, zeroSize, cluster, ...s }) => {
    const sec: Section = { ...s, data: s.kind === 'zero' ? new Uint8Array(0) : bytes, size: s.kind === 'zero' ? zeroSize : bytes.length };
    if (cluster !== undefined) sec.cluster = cluster;
    return sec;
  });

/** Random valid containers (every field exercised, including optional ones). */
export const arbContainer: fc.Arbitrary<Container> = fc
  .record({
    kind: fc.constantFrom('pobj' as const, 'pimg' as const),
    target: fc.constantFrom('pyxis', 'neuroncore', 'systolic', 'xnu', ''),
    sections: fc.array(arbSection, { maxLength: 5 }),
    symSeeds: fc.array(
      fc.record({
        name,
        kind: fc.constantFrom(...SYMBOL_KINDS),
        sec: fc.nat(),
        a: fc.nat(),
        b: fc.nat(),
        global: fc.boolean(),
        tensor: fc.option(
          fc.record({ shape: fc.array(fc.nat(1 << 16), { maxLength: 4 }), format: fc.constantFrom('RFP8', 'RFP16', 'LnsI4F3', 'Int16'), eb: fc.integer({ min: -128, max: 127 }), strided: fc.boolean(), s: fc.array(i53, { minLength: 4, maxLength: 4 }) }),
          { nil: undefined },
        ),
      }),
      { maxLength: 6 },
    ),
    relSeeds: fc.array(fc.record({ sec: fc.nat(), off: fc.nat(), kind: name, symbol: name, addend: i53, info: fc.option(i53, { nil: undefined }) }), { maxLength: 5 }),
    metadata: fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
  })
  .map(({ kind, target, sections, symSeeds, relSeeds, metadata }) => {
    const symbols: SymbolEntry[] = symSeeds.map((y) => {
      const section = sections.length ? (y.sec % (sections.length + 1)) - 1 : -1;
      const room = section >= 0 ? sections[section]!.size : Number.MAX_SAFE_INTEGER;
      const offset = y.a % (room + 1);
      const size = section >= 0 ? y.b % (room - offset + 1) : y.b;
      const e: SymbolEntry = { name: y.name, kind: y.kind, section, offset, size, global: y.global };
      if (y.tensor) {
        e.tensor = { shape: y.tensor.shape, format: y.tensor.format, eb: y.tensor.eb };
        if (y.tensor.strided) e.tensor.strides = y.tensor.s.slice(0, y.tensor.shape.length);
      }
      return e;
    });
    const withData = sections.map((s, i) => [s, i] as const).filter(([s]) => s.size > 0);
    const relocations = withData.length
      ? relSeeds.map((r) => {
          const [s, i] = withData[r.sec % withData.length]!;
          const rel = { section: i, offset: r.off % s.size, kind: r.kind, symbol: r.symbol, addend: r.addend } as Container['relocations'][number];
          if (r.info !== undefined) rel.info = r.info;
          return rel;
        })
      : [];
    // JSON round-trip normalises -0 and similar; metadata is JSON by contract.
    return { kind, version: FORMAT_VERSION, target, sections, symbols, relocations, metadata: JSON.parse(JSON.stringify(metadata)) as Record<string, unknown> };
  });

export function toHexLines(b: Uint8Array): string {
  const lines: string[] = [];
  for (let i = 0; i < b.length; i += 16) lines.push([...b.subarray(i, i + 16)].map((x) => x.toString(16).padStart(2, '0')).join(' '));
  return lines.join('\n') + '\n';
}
export function fromHexLines(s: string): Uint8Array {
  const hex = s.replace(/#.*$/gm, '').replace(/\s+/g, '');
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** The DiagnosticError that `f` throws (any other exception is rethrown; no exception fails the test). */
export function catchDiagnosticError(f: () => unknown): DiagnosticError {
  try {
    f();
  } catch (e) {
    if (e instanceof DiagnosticError) return e;
    throw e;
  }
  throw new Error('expected a DiagnosticError');
}
