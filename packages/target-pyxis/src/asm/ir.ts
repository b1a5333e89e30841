/**
 * Canonical JSON IR of microcode (for compilers that generate it):
 *
 *   { "format": "pyxis-ir", "version": 1, "programs": [
 *     { "name", "sequencer", "start_pc"?, "instructions": [
 *       { "iters": [ {is_eol, sol_pc, numloops, numloops_final, [final_iter_mask, post_final_enbl]} x iterators ],
 *         "eopgm": 0|1,
 *         "op": { <op field>: number | enum name | [numbers] } } ] } ] }
 *
 * Keys are the tables' spec names (iterator keys without the `iter<i>_`
 * prefix), values user-visible (numloops = N, not N-1; sol_pc
 * program-relative). `emitIr` writes every field in table order, so
 * emit(assemble(ir)) == ir for canonical input; `irToPrograms` accepts
 * partial input (missing fields take table defaults).
 */
import { resolveScalar, type CompiledTable, type DecodedValues, type FieldValues } from '@pyxis/codec';
import { error, DiagnosticError, type Diagnostic } from '@pyxis/diagnostics';
import { iterField, type Isa } from './isa.js';
import type { JsonPositions } from '@pyxis/asm';
import type { DecodedProgram, DecodedVpuProgram } from './object.js';
import { vpuSymbol, type Program, type ProgramInsn, type VpuProgram } from './program.js';

export type IrScalar = number | string;
export interface IrInsn {
  iters: Record<string, number>[];
  eopgm: number;
  op: Record<string, IrScalar | IrScalar[]>;
}
export interface IrProgram {
  name: string;
  sequencer: string;
  start_pc?: number;
  instructions: IrInsn[];
}
/** A VPU instruction-memory program: op words only. */
export interface IrVpuProgram {
  name: string;
  start_addr?: number;
  instructions: { op: Record<string, IrScalar | IrScalar[]> }[];
}
export interface IrModule {
  format: 'pyxis-ir';
  version: 1;
  programs: IrProgram[];
  /** Present when there are VPU programs. Sequencer op fields refer to them by name (a string). */
  vpu_programs?: IrVpuProgram[];
}

function jsonNum(v: number | bigint): number | string {
  return typeof v === 'bigint' ? v.toString() : v;
}

function opToIr(t: CompiledTable, d: DecodedValues): Record<string, IrScalar | IrScalar[]> {
  const out: Record<string, IrScalar | IrScalar[]> = {};
  for (const f of t.fields) {
    if (f.reserved) continue;
    const v = d[f.name];
    if (v === undefined) continue;
    if (Array.isArray(v)) out[f.name] = v.map(jsonNum);
    else if (f.enumNames && typeof v === 'number' && f.enumNames.has(v)) out[f.name] = f.enumNames.get(v)!;
    else out[f.name] = jsonNum(v);
  }
  return out;
}

function ctrlToIr(t: CompiledTable, d: DecodedValues, iterators: number): { iters: Record<string, number>[]; eopgm: number } {
  const iters: Record<string, number>[] = [];
  for (let i = 0; i < iterators; i++) {
    const prefix = `iter${i}_`;
    const it: Record<string, number> = {};
    for (const f of t.fields) if (f.name.startsWith(prefix) && !f.reserved) it[f.name.slice(prefix.length)] = Number(d[f.name]);
    iters.push(it);
  }
  return { iters, eopgm: Number(d['eopgm'] ?? 0) };
}

export function emitIr(progs: DecodedProgram[], isa: Isa, vpuProgs: DecodedVpuProgram[] = []): IrModule {
  const ir: IrModule = {
    format: 'pyxis-ir',
    version: 1,
    programs: progs.map((p) => ({
      name: p.name,
      sequencer: p.seq.name,
      ...(p.startPc !== undefined ? { start_pc: p.startPc } : {}),
      instructions: p.ctrl.map((c, pc) => {
        const op = opToIr(p.seq.op, p.op[pc]!);
        for (const r of p.refs) if (r.pc === pc) op[r.field] = r.symbol.replace(/^vpu\./, '');
        return { ...ctrlToIr(p.seq.control, c, isa.iterators), op };
      }),
    })),
  };
  if (vpuProgs.length && isa.vpu) {
    const t = isa.vpu.op;
    ir.vpu_programs = vpuProgs.map((v) => ({ name: v.name, ...(v.startAddr !== undefined ? { start_addr: v.startAddr } : {}), instructions: v.op.map((d) => ({ op: opToIr(t, d) })) }));
  }
  return ir;
}

/** Canonical text of an IR module (stable key order, 2-space indent, trailing newline). */
export function irToText(ir: IrModule): string {
  return JSON.stringify(ir, null, 2) + '\n';
}

function isObj(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function scalarIn(v: unknown): number | bigint | string | undefined {
  if (typeof v === 'number') return v;
  if (typeof v === 'string') return /^-?\d+$/.test(v) ? BigInt(v) : v;
  return undefined;
}

/**
 * Reads IR (parsed JSON) into programs; every problem is a diagnostic naming
 * its JSON path. With `positions` (from `jsonPositions(text)`), diagnostics
 * and rule checks point at the line:col of the offending JSON value.
 */
export function irToPrograms(json: unknown, isa: Isa, file = '<ir>', positions?: JsonPositions): { programs: Program[]; vpuPrograms: VpuProgram[] } {
  const diags: Diagnostic[] = [];
  let refs: ProgramInsn['refs'] | undefined;
  const span = { file, line: 1, column: 1 };
  const at = (path: string) => (positions ? positions.span(path) : span);
  const bad = (path: string, msg: string, notes: string[] = []) => diags.push(error('AS0510', `${path}: ${msg}`, { span: at(path), notes }));
  const out: Program[] = [];
  if (!isObj(json) || json['format'] !== 'pyxis-ir' || !Array.isArray(json['programs'])) {
    throw new DiagnosticError(error('AS0511', 'not a Pyxis IR module: expected {"format": "pyxis-ir", "version": 1, "programs": [...]}', { span }));
  }
  if (json['version'] !== 1) bad('version', `unsupported IR version ${JSON.stringify(json['version'])} (this assembler reads version 1)`);
  (json['programs'] as unknown[]).forEach((pj, k) => {
    const P = `programs[${k}]`;
    if (!isObj(pj)) return bad(P, 'expected an object');
    const name = pj['name'];
    const seqName = pj['sequencer'];
    if (typeof name !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return bad(`${P}.name`, 'expected a program name');
    const seq = typeof seqName === 'string' ? isa.sequencers.get(seqName) : undefined;
    if (!seq) return bad(`${P}.sequencer`, `unknown sequencer ${JSON.stringify(seqName)}`, [`sequencers: ${[...isa.sequencers.keys()].join(', ')}`]);
    const insnsJ = pj['instructions'];
    if (!Array.isArray(insnsJ) || insnsJ.length === 0) return bad(`${P}.instructions`, 'expected a non-empty list');
    if (insnsJ.length > isa.programWords) bad(`${P}.instructions`, `${insnsJ.length} instructions; a sequencer holds ${isa.programWords}`);
    let startPc: number | undefined;
    if (pj['start_pc'] !== undefined) {
      const s = pj['start_pc'];
      if (typeof s !== 'number' || !Number.isInteger(s) || s < 0 || s + insnsJ.length > isa.programWords) bad(`${P}.start_pc`, `must be an integer with start_pc + length <= ${isa.programWords}`);
      else startPc = s;
    }
    // rule diagnostics point at the instruction / op value (with positions), and name the program and pc
    const prog: Program = { name, seq, ...(startPc !== undefined ? { startPc } : {}), insns: [], span: at(`${P}.name`) };
    insnsJ.forEach((ij, pc) => {
      const I = `${P}.instructions[${pc}]`;
      if (!isObj(ij)) return bad(I, 'expected an object');
      const ctrl: FieldValues = {};
      const setField = (t: CompiledTable, out: FieldValues, fname: string, v: unknown, path: string) => {
        const f = t.byName.get(fname);
        if (!f || f.reserved) {
          const viaAlias = t.byAlias?.get(fname);
          return bad(path, `unknown field \`${fname}\` of ${t.name}`, viaAlias ? [`\`${fname}\` is an alias of \`${viaAlias.name}\`; the IR uses spec names only`] : []);
        }
        if (f.count > 1) {
          if (!Array.isArray(v) || v.length !== f.count) return bad(path, `expected a list of ${f.count} values`);
          const arr: Array<number | bigint | string> = [];
          for (let i = 0; i < v.length; i++) {
            const s = scalarIn(v[i]);
            const r = s === undefined ? 'expected a number' : resolveScalar(f, s);
            if (typeof r === 'string') return bad(`${path}[${i}]`, r);
            arr.push(r);
          }
          out[fname] = arr;
          return;
        }
        const s = scalarIn(v);
        if (typeof s === 'string' && !f.enum && refs && /^[A-Za-z_][A-Za-z0-9_]*$/.test(s)) {
          refs.push({ field: fname, symbol: vpuSymbol(s) });
          out[fname] = 0;
          return;
        }
        const r = s === undefined ? 'expected a number or value name' : resolveScalar(f, s);
        if (typeof r === 'string') return bad(path, r);
        out[fname] = r;
      };
      const iters = ij['iters'] ?? [];
      if (!Array.isArray(iters) || iters.length > isa.iterators) bad(`${I}.iters`, `expected a list of at most ${isa.iterators} iterator specs`);
      else
        iters.forEach((itj, i) => {
          if (!isObj(itj)) return bad(`${I}.iters[${i}]`, 'expected an object');
          for (const [k, v] of Object.entries(itj)) setField(seq.control, ctrl, iterField(i, k), v, `${I}.iters[${i}].${k}`);
        });
      if (ij['eopgm'] !== undefined) setField(seq.control, ctrl, 'eopgm', ij['eopgm'], `${I}.eopgm`);
      const op: FieldValues = {};
      const opj = ij['op'] ?? {};
      const insnRefs: NonNullable<ProgramInsn['refs']> = [];
      refs = insnRefs;
      if (!isObj(opj)) bad(`${I}.op`, 'expected an object');
      else for (const [k, v] of Object.entries(opj)) setField(seq.op, op, k, v, `${I}.op.${k}`);
      refs = undefined;
      for (const k of Object.keys(ij)) if (!['iters', 'eopgm', 'op'].includes(k)) bad(`${I}.${k}`, 'unknown key (expected iters, eopgm, op)');
      const where = positions ? { span: at(I), fieldSpans: Object.fromEntries(Object.keys(op).map((k) => [k, at(`${I}.op.${k}`)])) } : {};
      prog.insns.push({ ctrl, op, ...where, ...(insnRefs.length ? { refs: insnRefs } : {}) });
    });
    out.push(prog);
  });
  const vpuPrograms: VpuProgram[] = [];
  const vj = json['vpu_programs'];
  if (vj !== undefined) {
    if (!Array.isArray(vj)) bad('vpu_programs', 'expected a list');
    else if (!isa.vpu) bad('vpu_programs', 'this ISA has no VPU instruction table');
    else {
      const vpu = isa.vpu;
      vj.forEach((pj, k) => {
        const P = `vpu_programs[${k}]`;
        if (!isObj(pj) || typeof pj['name'] !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(pj['name'])) return bad(P, 'expected {"name", "instructions"}');
        const ins = pj['instructions'];
        if (!Array.isArray(ins) || ins.length === 0 || ins.length > vpu.words) return bad(`${P}.instructions`, `expected 1..${vpu.words} instructions`);
        const sa = pj['start_addr'];
        if (sa !== undefined && (typeof sa !== 'number' || !Number.isInteger(sa) || sa < 0 || sa + ins.length > vpu.words)) return bad(`${P}.start_addr`, `must be an integer with start_addr + length <= ${vpu.words}`);
        const vp: VpuProgram = { name: pj['name'], vpu, ...(typeof sa === 'number' ? { startAddr: sa } : {}), insns: [], ...(positions ? { span: at(`${P}.name`) } : {}) };
        ins.forEach((ij, w) => {
          const I = `${P}.instructions[${w}]`;
          if (!isObj(ij) || !isObj(ij['op'] ?? {})) return bad(I, 'expected {"op": {...}}');
          const op: FieldValues = {};
          for (const [kk, v] of Object.entries((ij['op'] ?? {}) as Record<string, unknown>)) {
            const f = vpu.op.byName.get(kk);
            if (!f || f.reserved) {
              bad(`${I}.op.${kk}`, `unknown field \`${kk}\` of ${vpu.op.name}`);
              continue;
            }
            if (f.count > 1) {
              if (!Array.isArray(v) || v.length !== f.count) {
                bad(`${I}.op.${kk}`, `expected a list of ${f.count} values`);
                continue;
              }
              const arr: Array<number | bigint | string> = [];
              v.forEach((e, i) => {
                const s = scalarIn(e);
                const r = s === undefined ? 'expected a number' : resolveScalar(f, s);
                if (typeof r === 'string') bad(`${I}.op.${kk}[${i}]`, r);
                else arr.push(r);
              });
              op[kk] = arr;
              continue;
            }
            const s = scalarIn(v);
            const r = s === undefined ? 'expected a number or value name' : resolveScalar(f, s);
            if (typeof r === 'string') bad(`${I}.op.${kk}`, r);
            else op[kk] = r;
          }
          vp.insns.push({ ctrl: {}, op, ...(positions ? { span: at(I) } : {}) });
        });
        vpuPrograms.push(vp);
      });
    }
  }
  if (diags.length) throw new DiagnosticError(diags);
  return { programs: out, vpuPrograms };
}
