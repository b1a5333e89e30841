/** Human (objdump -h/-t style) and JSON views of a container. */
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

export interface InspectTextOptions {
  /** Append an `objdump -s` style hex dump of each section's contents (at most `maxBytes` per section, default 256). */
  data?: boolean;
  maxBytes?: number;
  /** The container target's names for its own section flag bits. */
  flagNames?: TargetFlagNames;
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
  out.push('Sections:');
  out.push(
    ...table(
      ['Idx', 'Name', 'Kind', 'Space', 'Cluster', 'Address', 'Size', 'Align', 'Flags'],
      c.sections.map((s, i) => [
        String(i),
        s.name,
        s.kind,
        s.space,
        s.cluster === undefined ? '-' : String(s.cluster),
        hex(s.address),
        hex(s.size),
        `2**${Math.log2(s.align)}`,
        sectionFlagNames(s.flags, opts.flagNames).join(',') || '-',
      ]),
    ),
    '',
  );
  out.push('Symbols:');
  out.push(
    ...table(
      ['Value', 'Bind', 'Kind', 'Section', 'Size', 'Name', 'Tensor'],
      c.symbols.map((y) => [
        hex(y.offset),
        y.global ? 'g' : 'l',
        y.kind,
        y.section < 0 ? '*ABS*' : (c.sections[y.section]?.name ?? `#${y.section}`),
        hex(y.size),
        y.name,
        y.tensor
          ? `${y.tensor.format}[${y.tensor.shape.join('x')}] eb=${y.tensor.eb}${y.tensor.strides ? ` strides=(${y.tensor.strides.join(',')})` : ''}`
          : '',
      ]),
    ),
    '',
  );
  out.push('Relocations:');
  out.push(
    ...table(
      ['Section', 'Offset', 'Kind', 'Symbol', 'Addend', 'Info'],
      c.relocations.map((r) => [
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
  out.push('Metadata:');
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
}

function toHex(b: Uint8Array): string {
  let s = '';
  for (let i = 0; i < b.length; i++) s += hex(b[i]!, 2);
  return s;
}

/** JSON-safe view of a container (section data as hex only with `{ data: true }`). */
export function inspectJson(c: Container, opts: InspectJsonOptions = {}): Record<string, unknown> {
  return {
    kind: c.kind,
    version: c.version,
    target: c.target,
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
      ...(opts.data ? { data: toHex(s.data) } : { dataBytes: s.data.length }),
    })),
    symbols: c.symbols.map((y) => ({ ...y, ...(y.tensor ? { tensor: { ...y.tensor } } : {}) })),
    relocations: c.relocations.map((r) => ({ ...r })),
    metadata: c.metadata,
  };
}
