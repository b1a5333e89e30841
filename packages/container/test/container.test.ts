import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DiagnosticError, isByteSpan } from '@pyxis/diagnostics';
import {
  hexdump,
  inspectJson,
  inspectText,
  readContainer,
  readContainerFile,
  writeContainer,
  writeContainerFile,
  writeFileAtomic,
  checkOutputPaths,
  readInputFile,
  type Container,
} from '@pyxis/container';
import { arbContainer, catchDiagnosticError as diagOf, fromHexLines, sampleContainer, toHexLines } from './fixtures.js';

const GOLDEN = fileURLToPath(new URL('./golden/small.pobj.hex', import.meta.url));

function u32(b: Uint8Array, o: number): number {
  return new DataView(b.buffer, b.byteOffset).getUint32(o, true);
}
function u64(b: Uint8Array, o: number): number {
  return Number(new DataView(b.buffer, b.byteOffset).getBigUint64(o, true));
}
/** The model without the reader's `fileOffset`s (not part of the format; absent from models built in memory). */
function withoutOffsets(c: Container): Container {
  const { metadataOffset: _m, fileLayout: _l, ...rest } = c;
  return { ...rest, sections: c.sections.map(({ fileOffset: _, ...s }) => s) };
}

describe('container golden', () => {
  const bytes = writeContainer(sampleContainer());

  it('matches the checked-in bytes (regenerate: PYXIS_UPDATE_GOLDEN=1 npx vitest run packages/container)', () => {
    if (process.env['PYXIS_UPDATE_GOLDEN']) writeFileSync(GOLDEN, toHexLines(bytes));
    expect(toHexLines(bytes)).toBe(readFileSync(GOLDEN, 'utf8'));
  });

  it('has the layout derived by hand in docs/container-format.md', () => {
    // header 144 | sections 2*64 @144 | symbols 2*48 @272 | relocs 48 @368 | tensor rec 24+2*16 @416
    // | strings 57 @472 | metadata 23 @536 | .text data @560 | .bss (no bytes) @568 | end 568
    expect(new TextDecoder().decode(bytes.subarray(0, 8))).toBe('PYXOBJ\0\0');
    expect(bytes.length).toBe(568);
    expect(u64(bytes, 16)).toBe(568);
    const regions = [0, 1, 2, 3, 4, 5].map((k) => [u64(bytes, 48 + 16 * k), u64(bytes, 56 + 16 * k)]);
    expect(regions).toEqual([[144, 128], [272, 96], [368, 48], [416, 56], [472, 57], [536, 23]]);
    expect(u32(bytes, 32)).toBe(2);
    expect(u32(bytes, 24)).toBe(0); // target "pyxis" is string 0
    expect(u32(bytes, 28)).toBe(5);
    expect([...bytes.subarray(560, 564)]).toEqual([0xde, 0xad, 0xbe, 0xef]);
    expect(u64(bytes, 144 + 48)).toBe(560); // .text data offset
    expect(u64(bytes, 208 + 32)).toBe(64); // .bss size
    expect(u64(bytes, 208 + 56)).toBe(0); // .bss stores nothing
    expect(new DataView(bytes.buffer).getInt32(208 + 44, true)).toBe(2); // cluster
    expect(new DataView(bytes.buffer).getInt32(416 + 8, true)).toBe(-3); // eb
    expect(new DataView(bytes.buffer).getBigInt64(368 + 32, true)).toBe(-1n); // addend
    expect(new TextDecoder().decode(bytes.subarray(472 + 45, 472 + 57))).toBe('pyxis.sol_pc');
    expect(new TextDecoder().decode(bytes.subarray(536, 559))).toBe('{"producer":"pyxis-as"}');
  });

  it('reads back the golden file to the same model', () => {
    const c = readContainer(fromHexLines(readFileSync(GOLDEN, 'utf8')), 'small.pobj');
    expect(withoutOffsets(c)).toEqual(sampleContainer());
    // fileOffset = where each section's data lies in the file (layout above: .text data @560; .bss stores none)
    expect(c.sections.map((s) => s.fileOffset)).toEqual([560, undefined]);
  });

  it('inspects as text and JSON', () => {
    const c = sampleContainer();
    const text = inspectText(c);
    expect(text).toContain('pobj version 1, target pyxis');
    expect(text).toMatch(/0\s+\.text\s+code\s+uie\.amem_read\.ctrl\s+-\s+00000000\s+00000004\s+2\*\*2\s+relocatable/);
    expect(text).toMatch(/1\s+\.bss\s+zero\s+amem\s+2\s+00000100\s+00000040\s+2\*\*6/);
    expect(text).toContain('RFP8[8x8] eb=-3 strides=(8,1)');
    expect(text).toMatch(/\.text\s+00000000\s+pyxis\.sol_pc\s+main\s+-0x1\s+7/);
    expect(inspectText(c, { data: true })).toContain('Contents of section .text:\n 00000000 deadbeef');
    expect(hexdump(new Uint8Array([0x41, 0x42, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]), 16, 17)).toEqual([
      ' 00000010 41420001 02030405 06070809 0a0b0c0d  AB..............',
      ' 00000020 0e                                   .',
    ]);
    const j = inspectJson(c);
    expect(JSON.parse(JSON.stringify(j))).toEqual(j);
    expect((j['sections'] as Array<Record<string, unknown>>)[0]).toMatchObject({ name: '.text', dataBytes: 4, flagNames: ['relocatable'] });
    expect((inspectJson(c, { data: true })['sections'] as Array<Record<string, unknown>>)[0]!['data']).toBe('deadbeef');
  });
});

describe('container round trip', () => {
  it('read(write(c)) == c for random containers', () => {
    fc.assert(
      fc.property(arbContainer, (c) => {
        const bytes = writeContainer(c);
        expect(bytes.length % 8).toBe(0);
        const back = readContainer(bytes, 'x.pobj');
        expect(withoutOffsets(back)).toEqual(c);
        for (const s of back.sections) if (s.kind !== 'zero') expect(bytes.subarray(s.fileOffset!, s.fileOffset! + s.size)).toEqual(s.data);
        expect(writeContainer(readContainer(bytes, 'x.pobj'))).toEqual(bytes);
      }),
      { numRuns: 300 },
    );
  });

  it('reads from a Uint8Array view with a non-zero byteOffset', () => {
    const bytes = writeContainer(sampleContainer());
    const big = new Uint8Array(bytes.length + 3);
    big.set(bytes, 3);
    expect(withoutOffsets(readContainer(big.subarray(3), 'x'))).toEqual(sampleContainer());
  });

  it('rejects unrepresentable models with CT0100', () => {
    const bad = (f: (c: Container) => void) => {
      const c = sampleContainer();
      f(c);
      return diagOf(() => writeContainer(c)).diagnostics[0]!;
    };
    expect(bad((c) => (c.sections[0]!.align = 3)).message).toMatch(/power of two/);
    expect(bad((c) => (c.sections[0]!.size = 5)).message).toMatch(/size 5 != data length 4/);
    expect(bad((c) => (c.symbols[0]!.section = 9)).code).toBe('CT0100');
    expect(bad((c) => (c.relocations[0]!.offset = 4)).message).toMatch(/outside section 0/);
    expect(bad((c) => (c.version = 2)).message).toMatch(/version/);
    expect(bad((c) => (c.sections[0]!.address = 2 ** 60)).message).toMatch(/address/);
    expect(bad((c) => (c.metadata = { n: 1n })).message).toMatch(/metadata is not JSON-serialisable/);
    expect(bad((c) => (c.sections[0]!.kind = 'text' as never)).message).toMatch(/unknown kind/);
  });
});

describe('container reader rejects bad input', () => {
  const good = writeContainer(sampleContainer());
  const mutate = (f: (b: Uint8Array, dv: DataView) => void) => {
    const b = good.slice();
    f(b, new DataView(b.buffer));
    return diagOf(() => readContainer(b, 'bad.pobj')).diagnostics[0]!;
  };
  const offsetOf = (d: { span?: unknown }) => {
    const s = d.span as { offset: number; file: string };
    expect(isByteSpan(s as never)).toBe(true);
    expect(s.file).toBe('bad.pobj');
    return s.offset;
  };

  it('bad magic', () => {
    const d = mutate((b) => (b[3] = 0x41));
    expect(d.code).toBe('CT0001');
    expect(offsetOf(d)).toBe(0);
  });
  it('unsupported version', () => {
    const d = mutate((_, dv) => dv.setUint16(8, 9, true));
    expect([d.code, offsetOf(d)]).toEqual(['CT0002', 8]);
  });
  it('truncated file', () => {
    const d = diagOf(() => readContainer(good.subarray(0, 500), 'bad.pobj')).diagnostics[0]!;
    expect(d.code).toBe('CT0003');
    expect(d.message).toMatch(/header says the file has 568 bytes, got 500/);
    expect(diagOf(() => readContainer(good.subarray(0, 100), 'x')).diagnostics[0]!.code).toBe('CT0003');
    expect(diagOf(() => readContainer(new Uint8Array(0), 'x')).diagnostics[0]!.code).toBe('CT0003');
  });
  it('trailing bytes', () => {
    const long = new Uint8Array(good.length + 8);
    long.set(good);
    expect(diagOf(() => readContainer(long, 'x')).diagnostics[0]!.code).toBe('CT0013');
  });
  it('section data out of range', () => {
    const d = mutate((_, dv) => dv.setBigUint64(144 + 48, 4096n, true));
    expect([d.code, offsetOf(d)]).toEqual(['CT0004', 192]);
  });
  it('misaligned data', () => {
    const d = mutate((_, dv) => dv.setBigUint64(144 + 48, 561n, true));
    expect(d.code).toBe('CT0006');
  });
  it('section data overlapping a table', () => {
    const d = mutate((_, dv) => dv.setBigUint64(144 + 48, 536n, true));
    expect(d.code).toBe('CT0005');
    expect(d.message).toMatch(/overlaps metadata table/);
  });
  it('count that does not match the table size', () => {
    const d = mutate((_, dv) => dv.setUint32(36, 0x4000_0000, true));
    expect([d.code, offsetOf(d)]).toEqual(['CT0007', 72]);
  });
  it('string outside the string table', () => {
    const d = mutate((_, dv) => dv.setUint32(144 + 4, 1000, true));
    expect([d.code, offsetOf(d)]).toEqual(['CT0004', 144]);
  });
  it('invalid UTF-8 string', () => {
    const d = mutate((b) => (b[472] = 0xff));
    expect(d.code).toBe('CT0009');
  });
  it('unknown section kind', () => {
    const d = mutate((b) => (b[144 + 8] = 200));
    expect([d.code, offsetOf(d)]).toEqual(['CT0008', 152]);
  });
  it('symbol section index out of range', () => {
    const d = mutate((_, dv) => dv.setInt32(272 + 12, 5, true));
    expect([d.code, offsetOf(d)]).toEqual(['CT0014', 284]);
  });
  it('tensor rank inconsistent with the record length', () => {
    const d = mutate((_, dv) => dv.setUint32(416 + 12, 0xffff_ffff, true));
    expect(d.code).toBe('CT0007');
  });
  it('u64 beyond 2^53', () => {
    const d = mutate((_, dv) => dv.setBigUint64(144 + 24, 1n << 60n, true));
    expect([d.code, offsetOf(d)]).toEqual(['CT0011', 168]);
  });
  it('metadata that is not JSON', () => {
    const d = mutate((b) => (b[536] = 0x5b));
    expect(d.code).toBe('CT0010');
  });
  it('reserved bits', () => {
    expect(mutate((b) => (b[10] = 1)).code).toBe('CT0012');
    expect(mutate((b) => (b[272 + 10] = 4)).code).toBe('CT0012');
  });
});

describe('container corruption fuzz', () => {
  const seeds = fc.sample(arbContainer, { numRuns: 40, seed: 42 }).map((c) => writeContainer(c));
  seeds.push(writeContainer(sampleContainer()));
  const expectCleanOrValid = (b: Uint8Array) => {
    let c: Container;
    try {
      c = readContainer(b, 'fuzz.pobj');
    } catch (e) {
      expect(e).toBeInstanceOf(DiagnosticError);
      const d = (e as DiagnosticError).diagnostics[0]!;
      expect(d.code).toMatch(/^CT00\d\d$/);
      expect(isByteSpan(d.span!)).toBe(true);
      const off = (d.span as { offset: number }).offset;
      expect(off).toBeGreaterThanOrEqual(0);
      expect(off).toBeLessThanOrEqual(b.length);
      expect(d.message).not.toContain('\n');
      return;
    }
    // Whatever the reader accepts is a well-formed model: it writes and reads back identically.
    // (metadata is compared as JSON text: a flipped byte can produce `-0`, which JSON writes as 0)
    const again = readContainer(writeContainer(c), 'again');
    expect({ ...withoutOffsets(again), metadata: JSON.stringify(again.metadata) }).toEqual({ ...withoutOffsets(c), metadata: JSON.stringify(c.metadata) });
  };

  it('random truncation', () => {
    fc.assert(fc.property(fc.constantFrom(...seeds), fc.nat(), (b, n) => expectCleanOrValid(b.subarray(0, n % b.length))), { numRuns: 300 });
  });
  it('random byte flips', () => {
    fc.assert(
      fc.property(fc.constantFrom(...seeds), fc.array(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 255 })), { minLength: 1, maxLength: 4 }), (b0, flips) => {
        const b = b0.slice();
        for (const [at, x] of flips) b[at % b.length]! ^= x;
        expectCleanOrValid(b);
      }),
      { numRuns: 1500 },
    );
  });
  it('length/offset/count field mutations', () => {
    // Every 4- and 8-byte integer slot in the header and the fixed tables.
    fc.assert(
      fc.property(
        fc.constantFrom(...seeds),
        fc.nat(),
        fc.constantFrom(0n, 1n, 7n, 8n, 0xffff_ffffn, 0xffff_ffff_ffff_ffffn, 1n << 53n, 0x7fff_ffffn),
        fc.boolean(),
        (b0, slot, v, wide) => {
          const b = b0.slice();
          const dv = new DataView(b.buffer);
          const limit = Math.min(b.length, u64(b0, 48 + 16 * 4)) - 8; // up to the string table
          const at = (slot % Math.max(1, limit >> 2)) * 4;
          if (wide) dv.setBigUint64(at - (at % 8), v, true);
          else dv.setUint32(at, Number(v & 0xffff_ffffn), true);
          expectCleanOrValid(b);
        },
      ),
      { numRuns: 1500 },
    );
  });
});

describe('container files', () => {
  it('writes atomically and reads back; failed writes leave nothing behind', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pyxis-ct-'));
    const path = join(dir, 'a.pobj');
    writeContainerFile(path, sampleContainer());
    expect(withoutOffsets(readContainerFile(path))).toEqual(sampleContainer());
    const bad = sampleContainer();
    bad.sections[0]!.align = 3;
    const out = join(dir, 'b.pobj');
    expect(() => writeContainerFile(out, bad)).toThrow(DiagnosticError);
    expect(existsSync(out)).toBe(false);
    expect(() => writeFileAtomic(join(dir, 'missing-dir', 'c.bin'), 'x')).toThrow();
    expect(readdirSync(dir).sort()).toEqual(['a.pobj']);
  });

  it('a failed write is an IO0002 diagnostic naming the requested path, not the temporary file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pyxis-ct-'));
    const target = join(dir, 'missing-dir', 'c.bin');
    let caught: unknown;
    try {
      writeFileAtomic(target, 'x');
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(DiagnosticError);
    const d = (caught as DiagnosticError).diagnostics[0]!;
    expect(d.code).toBe('IO0002');
    expect(d.message).toBe(`cannot write \`${target}\`: no such directory`);
    expect(d.message).not.toContain('.tmp');
    // a directory in place of the output file
    expect(() => writeFileAtomic(dir, 'x')).toThrow(DiagnosticError);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('unreadable inputs are IO0001 diagnostics naming the path', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pyxis-ct-'));
    const msg = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        expect(e).toBeInstanceOf(DiagnosticError);
        const d = (e as DiagnosticError).diagnostics[0]!;
        return `${d.code} ${d.message}`;
      }
      return 'no error';
    };
    expect(msg(() => readInputFile(join(dir, 'missing.pobj')))).toBe(`IO0001 no such file: ${join(dir, 'missing.pobj')}`);
    expect(msg(() => readContainerFile(dir))).toBe(`IO0001 cannot read \`${dir}\`: it is a directory`);
  });

  it('checkOutputPaths reports every unwritable output before anything is written', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pyxis-ct-'));
    expect(() => checkOutputPaths([join(dir, 'ok.pimg'), undefined, '-'])).not.toThrow();
    let caught: unknown;
    try {
      checkOutputPaths([join(dir, 'ok.pimg'), join(dir, 'nope', 'a.map'), dir, '/nonexistent/x/y.json']);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(DiagnosticError);
    const msgs = (caught as DiagnosticError).diagnostics.map((d) => `${d.code} ${d.message}`);
    expect(msgs).toEqual([
      `IO0002 cannot write \`${join(dir, 'nope', 'a.map')}\`: no such directory \`${join(dir, 'nope')}\``,
      `IO0002 cannot write \`${dir}\`: it is a directory`,
      'IO0002 cannot write `/nonexistent/x/y.json`: no such directory `/nonexistent/x`',
    ]);
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('container input buffers', () => {
  it('accepts a Node Buffer and returns plain, unaliased Uint8Arrays', () => {
    const buf = Buffer.from(writeContainer(sampleContainer()));
    const c = readContainer(buf, 'b.pobj');
    expect(withoutOffsets(c)).toEqual(sampleContainer());
    expect(Object.getPrototypeOf(c.sections[0]!.data)).toBe(Uint8Array.prototype);
    buf[560] = 0;
    expect(c.sections[0]!.data[0]).toBe(0xde);
  });
});
