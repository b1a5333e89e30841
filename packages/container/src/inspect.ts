/** Human (objdump -h/-t style) and JSON views of a container. */
import { HEADER_SIZE, REGIONS } from './layout.js';
import { SECTION_FLAG_NAMES, type Container, type TargetFlagNames } from './model.js';

function hex(n: number, width = 8): string {
  return n.toString(16).padStart(width, '0');
}

/** Names of the set flag bits; a target's own bits by the target's names when given. */
export function sectionFlagNames(flags: number, targetNames: TargetFlagNames = {}): string[] {
  const names: string[] = [];
  for (const [name, bit] of SECTION_FLAG_NAMES) if (flags & bit) names.push(targetNames[name as keyof TargetFlagNames] ?? name);
  const known = SECTION_FLAG_NAMES.reduce((a, [, b]) => a | b, 0);
  if (flags & ~known) names.push(`0x${(flags & ~known).toString(16)}`);
  return names;
}

function table(head: string[], rows: string[][]): string[] {
  const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(w[i]!))).join('  ').trimEnd();
  return [line(head), ...rows.map(line)];
}

/**
 * One record inside a section that a target names for `inspect` (a descriptor of a descriptor list, an enqueue
 * record): `offset` is within the section; the printout adds the section's file offset.
 */
export interface InspectRecord {
  section: number;
  offset: number;
  size: number;
  /** What the record is (`enqueue record 0: cluster 0 queue 0x10 ...`). */
  what: string;
}

/** File offset of a record (undefined when the section was not read from a file). */
function recordFileOffset(c: Container, r: InspectRecord): number | undefined {
  const base = c.sections[r.section]?.fileOffset;
  return base === undefined ? undefined : base + r.offset;
}

const fileHex = (n: number | undefined): string => (n === undefined ? '-' : hex(n));

export interface InspectTextOptions {
  /** Append an `objdump -s` style hex dump of each section's contents (at most `maxBytes` per section, default 256). */
  data?: boolean;
  maxBytes?: number;
  /** The container target's names for its own section flag bits. */
  flagNames?: TargetFlagNames;
  /** Records inside sections the container's target names (printed with their file offsets). */
  records?: readonly InspectRecord[];
}

/** `objdump -s` style: offset, 16 bytes in 4-byte groups, printable ASCII. */
export function hexdump(b: Uint8Array, base = 0, maxBytes = Infinity): string[] {
  const lines: string[] = [];
  const n = Math.min(b.length, maxBytes);
  for (let i = 0; i < n; i += 16) {
    let hexPart = '';
    let text = '';
    for (let k = 0; k < 16; k++) {
      if (k && k % 4 === 0) hexPart += ' ';
      if (i + k < n) {
        const x = b[i + k]!;
        hexPart += hex(x, 2);
        text += x >= 0x20 && x < 0x7f ? String.fromCharCode(x) : '.';
      } else hexPart += '  ';
    }
    lines.push(` ${hex(base + i, 8)} ${hexPart}  ${text}`);
  }
  if (n < b.length) lines.push(` ... ${b.length - n} more bytes`);
  return lines;
}

/** Multi-line human-readable dump: header, sections, symbols, relocations, metadata. */
export function inspectText(c: Container, opts: InspectTextOptions = {}): string {
  const out: string[] = [];
  out.push(`${c.kind} version ${c.version}, target ${c.target}`);
  out.push(`${c.sections.length} sections, ${c.symbols.length} symbols, ${c.relocations.length} relocations`, '');
  const L = c.fileLayout;
  // File-offset columns only for a container read from a file.
  const onFile = (...cells: string[]): string[] => (L ? cells : []);
  if (L) {
    out.push('File layout (byte offsets in the file, hex):');
    out.push(...table(['Block', 'Offset', 'Size'], [['header', hex(0), hex(HEADER_SIZE)], ...REGIONS.map((n) => [n === 'metadata' ? n : `${n} table`, hex(L.regions[n].offset), hex(L.regions[n].size)])]), '');
  }
  out.push('Sections:');
  out.push(
    ...table(
      ['Idx', 'Name', 'Kind', 'Space', 'Cluster', 'Address', 'Size', 'Align', ...onFile('Entry@', 'Data@'), 'Flags'],
      c.sections.map((s, i) => [
        String(i),
        s.name,
        s.kind,
        s.space,
        s.cluster === undefined ? '-' : String(s.cluster),
        hex(s.address),
        hex(s.size),
        `2**${Math.log2(s.align)}`,
        ...onFile(fileHex(L?.sectionEntries[i]), fileHex(s.data.length ? s.fileOffset : undefined)),
        sectionFlagNames(s.flags, opts.flagNames).join(',') || '-',
      ]),
    ),
    '',
  );
  out.push('Symbols:');
  out.push(
    ...table(
      [...onFile('Entry@'), 'Value', 'Bind', 'Kind', 'Section', 'Size', 'Name', 'Tensor'],
      c.symbols.map((y, i) => [
        ...onFile(fileHex(L?.symbolEntries[i])),
        hex(y.offset),
        y.global ? 'g' : 'l',
        y.kind,
        y.section < 0 ? '*ABS*' : (c.sections[y.section]?.name ?? `#${y.section}`),
        hex(y.size),
        y.name,
        y.tensor
          ? `${y.tensor.format}[${y.tensor.shape.join('x')}] eb=${y.tensor.eb}${y.tensor.strides ? ` strides=(${y.tensor.strides.join(',')})` : ''}${L?.tensorRecords[i] ? ` record@${hex(L.tensorRecords[i].offset)}` : ''}`
          : '',
      ]),
    ),
    '',
  );
  out.push('Relocations:');
  out.push(
    ...table(
      [...onFile('Entry@'), 'Section', 'Offset', 'Kind', 'Symbol', 'Addend', 'Info'],
      c.relocations.map((r, i) => [
        ...onFile(fileHex(L?.relocationEntries[i])),
        c.sections[r.section]?.name ?? `#${r.section}`,
        hex(r.offset),
        r.kind,
        r.symbol,
        r.addend < 0 ? `-0x${(-r.addend).toString(16)}` : `+0x${r.addend.toString(16)}`,
        r.info === undefined ? '' : String(r.info),
      ]),
    ),
    '',
  );
  if (opts.records?.length) {
    out.push('Records:');
    out.push(
      ...table(
        ['File@', 'Section', 'Offset', 'Size', 'Record'],
        opts.records.map((r) => [fileHex(recordFileOffset(c, r)), c.sections[r.section]?.name ?? `#${r.section}`, hex(r.offset), hex(r.size), r.what]),
      ),
      '',
    );
  }
  out.push(c.metadataOffset === undefined ? 'Metadata:' : `Metadata (at ${hex(c.metadataOffset)}):`);
  out.push(JSON.stringify(c.metadata, null, 2));
  if (opts.data) {
    for (const s of c.sections) {
      if (!s.data.length) continue;
      out.push('', `Contents of section ${s.name}:`, ...hexdump(s.data, s.address, opts.maxBytes ?? 256));
    }
  }
  return out.join('\n') + '\n';
}

export interface InspectJsonOptions {
  /** Include section bytes as lowercase hex (default false: only the size is given). */
  data?: boolean;
  /** The container target's names for its own section flag bits. */
  flagNames?: TargetFlagNames;
  /** Records inside sections the container's target names (listed with their file offsets). */
  records?: readonly InspectRecord[];
}

function toHex(b: Uint8Array): string {
  let s = '';
  for (let i = 0; i < b.length; i++) s += hex(b[i]!, 2);
  return s;
}

/** JSON-safe view of a container (section data as hex only with `{ data: true }`). */
export function inspectJson(c: Container, opts: InspectJsonOptions = {}): Record<string, unknown> {
  const L = c.fileLayout;
  const at = (n: number | undefined) => (n === undefined ? {} : { entryOffset: n });
  return {
    kind: c.kind,
    version: c.version,
    target: c.target,
    ...(L ? { layout: { header: { offset: 0, size: HEADER_SIZE }, ...Object.fromEntries(REGIONS.map((n) => [n, { ...L.regions[n] }])) } } : {}),
    sections: c.sections.map((s, index) => ({
      index,
      name: s.name,
      kind: s.kind,
      space: s.space,
      address: s.address,
      size: s.size,
      align: s.align,
      flags: s.flags,
      flagNames: sectionFlagNames(s.flags, opts.flagNames),
      ...(s.cluster !== undefined ? { cluster: s.cluster } : {}),
      ...at(L?.sectionEntries[index]),
      ...(L ? { dataOffset: s.data.length && s.fileOffset !== undefined ? s.fileOffset : null } : {}),
      ...(opts.data ? { data: toHex(s.data) } : { dataBytes: s.data.length }),
    })),
    symbols: c.symbols.map((y, i) => {
      const rec = L?.tensorRecords[i];
      return { ...y, ...(y.tensor ? { tensor: { ...y.tensor, ...(rec ? { recordOffset: rec.offset, recordSize: rec.size } : {}) } } : {}), ...at(L?.symbolEntries[i]) };
    }),
    relocations: c.relocations.map((r, i) => ({ ...r, ...at(L?.relocationEntries[i]) })),
    ...(opts.records ? { records: opts.records.map((r) => ({ section: r.section, sectionName: c.sections[r.section]?.name, offset: r.offset, fileOffset: recordFileOffset(c, r) ?? null, size: r.size, what: r.what })) } : {}),
    ...(c.metadataOffset !== undefined ? { metadataOffset: c.metadataOffset } : {}),
    metadata: c.metadata,
  };
}
