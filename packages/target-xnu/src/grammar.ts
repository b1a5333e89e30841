/**
 * The XNU tables (grammars/xnu/*.json, docs/field-tables.md): the job
 * descriptor and the controller's dbg_fsm states with the spec's cycle table.
 * Nothing here hard-codes a field position or a cycle count.
 */
import { decode, encode, enumName, loadGrammarJson, loadTable, type CompiledTable } from '@pyxis/codec';
import { warning, type Diagnostic, type Span } from '@pyxis/diagnostics';
import { deriveParamTable, paramTree, type ParamDescription, type ParamSet, type ParamTable } from '@pyxis/target';

export const XNU = 'xnu';
export const SPEC = 'xnu-pe-similarity-engine.md';

export function jobTable(): CompiledTable {
  return loadTable(XNU, 'xnu_job');
}

export function fsmTable(): CompiledTable {
  return loadTable(XNU, 'pex8_fsm');
}

/** A decoded job descriptor (codepoints as numbers). */
export interface Job {
  op_type: number;
  use_int: number;
  rounding: number;
  tininess: number;
  l1_mode: number;
  vec_len: number;
  top_k: number;
  num_vectors: number;
}

export function decodeJob(bytes: Uint8Array, offset = 0): Job {
  const v = decode(jobTable(), bytes, offset);
  const n = (k: string) => Number(v[k] ?? 0);
  return { op_type: n('op_type'), use_int: n('use_int'), rounding: n('rounding'), tininess: n('tininess'), l1_mode: n('l1_mode'), vec_len: n('vec_len'), top_k: n('top_k'), num_vectors: n('num_vectors') };
}

export function encodeJob(j: Job): Uint8Array {
  return encode(jobTable(), { ...j });
}

/** The op_type name (`L2`, `L1`, `DOT`, `SV`). */
export function opName(op: number): string {
  return enumName(jobTable(), 'op_type', op);
}

/** `field=value` text of a job, enum fields by name (disassembly, listings, summaries). */
export function jobText(j: Job): string {
  const t = jobTable();
  const parts: string[] = [];
  for (const f of t.fields) {
    if (f.reserved) continue;
    const v = (j as unknown as Record<string, number>)[f.name]!;
    parts.push(`${f.name}=${f.enum ? enumName(t, f.name, v) : v}`);
  }
  return parts.join(', ');
}

export interface PhaseCycles {
  startup: number;
  init: number;
  operation: number;
  aggregation: number;
  addition: number;
  output: number;
}

export type TimingModel = 'spec' | 'rtl';

/** The timing parameters of one machine instance: pex8_fsm.json `meta` (clock, cycle table, RTL aggregation count). */
export interface XnuTimingParams {
  clock_hz: number;
  cycles: Record<string, PhaseCycles>;
  rtl_aggregation: number;
}

/** The shipped values (pex8_fsm.json `meta`). */
export function defaultXnuTiming(): XnuTimingParams {
  return fsmTable().meta as unknown as XnuTimingParams;
}

let table: ParamTable | undefined;
/** The machine parameter table: pex8_fsm.json `meta` (defaults) joined with params.json. */
export function xnuParamTable(): ParamTable {
  return (table ??= deriveParamTable(XNU, 'pex8_fsm.json', { meta: defaultXnuTiming() }, loadGrammarJson<ParamDescription>(XNU, 'params')));
}

/** The timing parameters of a resolved parameter set. */
export function xnuTimingFrom(set: ParamSet): XnuTimingParams {
  return paramTree<{ meta: XnuTimingParams }>(set, { meta: defaultXnuTiming() }, 'meta').meta;
}

/** The cycle table row of an op_type; `rtl` replaces the aggregation count by the controller's. */
export function phaseCycles(op: number, timing: TimingModel, meta: XnuTimingParams = defaultXnuTiming()): PhaseCycles {
  const row = meta.cycles[opName(op)];
  if (!row) throw new Error(`grammars/xnu/pex8_fsm.json: no cycle row for ${opName(op)}`);
  return timing === 'rtl' ? { ...row, aggregation: meta.rtl_aggregation } : { ...row };
}

export function defaultClockHz(): number {
  return Number(defaultXnuTiming().clock_hz);
}

/** dbg_fsm codepoint of a state name. */
export function dbgFsm(name: string): number {
  const f = fsmTable().byName.get('dbg_fsm')!;
  const v = f.enum?.[name];
  if (v === undefined) throw new Error(`grammars/xnu/pex8_fsm.json: no dbg_fsm state ${name}`);
  return v;
}

/** The enum name of a job field's codepoint. */
export function enumOf(field: string, code: number): string {
  return enumName(jobTable(), field, code);
}

/**
 * The warning for an fp32 job whose `rounding` has no HardFloat name (0b101, 0b111: the 3-bit port takes
 * them). RoundAnyRawFNToRecFN sets each mode flag by equality with a named code; none is set, so results
 * are those of round_minMag (docs/spec-notes.md "rounding codes 0b101/0b111"). Undefined for a named code.
 */
export function unnamedRoundingWarning(code: string, j: Job, span: Span, who: string): Diagnostic | undefined {
  if (j.use_int || jobTable().byName.get('rounding')!.enumNames?.has(j.rounding)) return undefined;
  const bits = `0b${j.rounding.toString(2).padStart(3, '0')}`;
  return warning(code, `${who}rounding ${j.rounding} (${bits}) names no HardFloat rounding mode: the PE's rounders set none of their mode flags and truncate, as round_minMag`, {
    span,
    notes: ['the model computes it as round_minMag (bit-exact with the RTL); write rounding=round_minMag to say so'],
    spec: `${SPEC} "Option to select different rounding types ( rounding )"`,
  });
}
