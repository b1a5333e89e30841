import { legalRange } from './compile.js';
import type { CompiledTable } from './table.js';

/** Generates the Markdown reference for one table (docs are generated, never hand-edited). */
export function tableToMarkdown(t: CompiledTable): string {
  const lines: string[] = [];
  lines.push(`## \`${t.name}\`${t.title ? ` — ${t.title}` : ''}`, '');
  if (t.spec) lines.push(`Spec: ${t.spec}`, '');
  if (t.doc) lines.push(t.doc, '');
  lines.push(`Width: ${t.width} bits (${t.bytes} bytes, little-endian).`, '');
  lines.push('| bits | field | width | encoding | default | description |', '|---|---|---|---|---|---|');
  for (const f of t.fields) {
    const hi = f.lsb + f.width * f.count - 1;
    const bits = hi === f.lsb ? `${f.lsb}` : `${hi}:${f.lsb}`;
    const width = f.count > 1 ? `${f.count}×${f.width}` : `${f.width}`;
    const enc = f.reserved ? 'reserved (0)' : legalRange(f);
    const def = f.default === undefined ? '' : Array.isArray(f.default) ? `[${f.default.join(', ')}]` : String(f.default);
    const doc = (f.doc ?? '').replace(/\|/g, '\\|').replace(/\n/g, ' ');
    const spec = f.spec ? ` (${f.spec})` : '';
    const aliases = f.aliases?.length ? ` Also accepted in assembly source as ${f.aliases.map((a) => `\`${a}\``).join(', ')}.` : '';
    const ea = f.enum_aliases ? Object.entries(f.enum_aliases) : [];
    const enumAliases = ea.length ? ` Value aliases (accepted on input, never output): ${ea.map(([al, to]) => `\`${al}\` = \`${to}\``).join(', ')}.` : '';
    const role = f.role ? ` Role: \`${f.role}\` (docs/field-tables.md).` : '';
    lines.push(`| ${bits} | \`${f.name}\`${f.count > 1 ? `[0..${f.count - 1}]` : ''} | ${width} | ${enc.replace(/\|/g, '\\|')} | ${def} | ${doc}${spec}${aliases}${enumAliases}${role} |`);
  }
  lines.push('');
  return lines.join('\n');
}
