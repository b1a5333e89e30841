/**
 * Microcode relocations (packages/target-pyxis/src/asm/object.ts): kind
 * `<table>.<field>` names a field of a sequencer control/op word or of a VPU
 * instruction word; applying one writes `addend + value` into that field
 * through the table (@pyxis/codec), so a value the field cannot hold is an
 * error, never a wrapped field. The tables are the ones memory_map.json names
 * for the sequencer memories and `vpu.imem`.
 */
import { decode, encode, loadTable, type CompiledTable } from '@pyxis/codec';
import { loadMemoryMap } from './memoryMap.js';

let relocTables: Map<string, CompiledTable> | undefined;

/** Tables a relocation kind may name: every sequencer control/op table and the VPU instruction table. */
function tables(): Map<string, CompiledTable> {
  if (relocTables) return relocTables;
  const mm = loadMemoryMap();
  const names = new Set<string>();
  for (const s of mm.sequencers) names.add(s.ctrl.table).add(s.op.table);
  const imem = mm.regions.get('vpu.imem')?.table;
  if (imem) names.add(imem);
  relocTables = new Map([...names].map((n) => [n, loadTable('pyxis', n)] as [string, CompiledTable]));
  for (const t of [...relocTables.values()]) relocTables.set(t.name, t);
  return relocTables;
}

/**
 * Applies relocation `kind` at byte `offset` of `data` in place: field =
 * addend + value. Returns undefined, or what is wrong (unknown kind, value
 * outside the field's range).
 */
export function applyFieldRelocation(data: Uint8Array, offset: number, kind: string, symbol: string, addend: number, value: number): string | undefined {
  const dot = kind.indexOf('.');
  const t = dot > 0 ? tables().get(kind.slice(0, dot)) : undefined;
  const fname = kind.slice(dot + 1);
  const f = t?.byName.get(fname);
  if (!t || !f) return `unknown relocation kind \`${kind}\``;
  const vals = decode(t, data, offset, { includeReserved: false });
  const v = addend + value;
  if (v < Number(f.min) || v > Number(f.max)) return `relocation ${kind} for \`${symbol}\`: value ${v} does not fit ${f.width} bits`;
  vals[fname] = v;
  encode(t, vals as never, data, offset);
  return undefined;
}
