/**
 * Linker back end: one NeuronCore object + a link script (the shared link-script language
 * of @pyxis/ld) -> an image with the program and the HBM tensors placed and initialised.
 *
 *   input "matmul.pobj";
 *   tensor A { data = "a.npy"; }     # .npy contents, cast to the tensor's dtype (nearest even)
 *   tensor C { zero = true; }        # zero-filled; tensors without either are never-written (NaN)
 *
 * HBM tensors are placed in declaration order at 64-byte aligned addresses.
 */
import { dirname, isAbsolute, join } from 'node:path';
import { DiagnosticError, error, type Diagnostic, type SourceSpan } from '@pyxis/diagnostics';
import { FORMAT_VERSION, readInputFile, readNpy, type Container, type Section, type Tensor } from '@pyxis/container';
import { parseLinkScript } from '@pyxis/ld';
import { BF16 } from '@pyxis/formats';
import { NC_PROGRAM_SECTION, ProgramError, programOf } from './assemble.js';
import { decodeTables, dtypeBytes, encodeValue, type DType } from './numerics.js';
import type { NcProgram } from './ir.js';
import { checkNcMetadata } from './validate.js';

export interface NcLinkResult {
  image: Container;
  diagnostics: Diagnostic[];
  map: { tensors: Array<{ name: string; address: number; bytes: number; dtype: string; shape: number[]; init: string }> };
}

const HBM_ALIGN = 64;

/** Values of a .npy tensor as doubles (float16 bit patterns decoded). */
function npyValues(t: Tensor): Float64Array {
  const n = t.data.length;
  const out = new Float64Array(n);
  if (t.dtype === 'float16') {
    const tab = decodeTables().fp16;
    for (let i = 0; i < n; i++) out[i] = tab[(t.data as Uint16Array)[i]!]!;
  } else if (t.dtype === 'bfloat16') for (let i = 0; i < n; i++) out[i] = BF16.decode((t.data as Uint16Array)[i]!);
  else for (let i = 0; i < n; i++) out[i] = Number(t.data[i]!);
  return out;
}

/** Encodes values into the bytes of a tensor of `dtype` (casts through FP32, nearest even). */
export function encodeTensor(dtype: DType, values: ArrayLike<number>): Uint8Array {
  const n = values.length;
  const bytes = new Uint8Array(n * dtypeBytes(dtype));
  const dv = new DataView(bytes.buffer);
  for (let i = 0; i < n; i++) {
    const x = Math.fround(values[i]!);
    switch (dtypeBytes(dtype)) {
      case 1:
        bytes[i] = encodeValue(dtype, x);
        break;
      case 2:
        dv.setUint16(i * 2, encodeValue(dtype, x), true);
        break;
      default:
        if (dtype === 'fp32') dv.setFloat32(i * 4, x, true);
        else if (dtype === 'int32') dv.setInt32(i * 4, encodeValue(dtype, x), true);
        else dv.setUint32(i * 4, encodeValue(dtype, x), true);
    }
  }
  return bytes;
}

export function linkNc(script: string, scriptFile: string, objects: Array<{ file: string; container: Container }>, readObject: (p: string) => Container, readFile: (p: string) => Uint8Array = readInputFile): NcLinkResult {
  const ls = parseLinkScript(script, scriptFile);
  const rel = (p: string) => (isAbsolute(p) ? p : join(dirname(scriptFile), p));
  const objs = [...objects];
  for (const i of ls.inputs) objs.push({ file: i.path, container: readObject(rel(i.path)) });
  if (objs.length !== 1)
    throw new DiagnosticError(error('NC0701', objs.length ? `a NeuronCore image holds one program; ${objs.length} objects given (${objs.map((o) => o.file).join(', ')})` : 'no object given (name it on the command line or with `input "x.pobj";`)', { span: { file: scriptFile, line: 1, column: 1 } }));
  const { file, container } = objs[0]!;
  if (container.target !== 'neuroncore') throw new DiagnosticError(error('NC0702', `\`${file}\` is a \`${container.target}\` object, not a NeuronCore one`));
  let program: NcProgram;
  checkNcMetadata(container, file);
  try {
    program = programOf(container, file);
  } catch (e) {
    if (e instanceof ProgramError) throw new DiagnosticError(error('NC0703', e.message));
    throw e;
  }
  const byName = new Map(program.tensors.map((t, i) => [t.name, i]));
  const init = new Map<number, { kind: 'data' | 'zero'; data?: Uint8Array; span: SourceSpan; note?: string }>();
  const diags: Diagnostic[] = [];
  for (const b of ls.blocks) {
    if (b.kind !== 'tensor' || !b.name) {
      diags.push(error('NC0710', `unknown block \`${b.kind}\` (a NeuronCore link script has \`input\` and \`tensor NAME { data = "x.npy"; }\` / \`{ zero = true; }\`)`, { span: b.kindSpan }));
      continue;
    }
    const ti = byName.get(b.name);
    const span = b.nameSpan ?? b.kindSpan;
    if (ti === undefined || program.tensors[ti]!.mem !== 'hbm') {
      diags.push(error('NC0711', ti === undefined ? `the program declares no tensor \`${b.name}\`` : `\`${b.name}\` is in ${program.tensors[ti]!.mem.toUpperCase()}; only HBM tensors are initialised at link time (DMA moves them on chip)`, { span }));
      continue;
    }
    const t = program.tensors[ti]!;
    for (const a of b.attrs) {
      if (a.key === 'data' && a.value.kind === 'string') {
        const path = rel(a.value.value);
        let tensor: Tensor;
        try {
          tensor = readNpy(readFile(path), path);
        } catch (e) {
          if (e instanceof DiagnosticError) {
            diags.push(...e.diagnostics);
            continue;
          }
          throw e;
        }
        if (tensor.shape.join(',') !== t.shape.join(',')) {
          diags.push(error('NC0712', `\`${a.value.value}\` has shape [${tensor.shape.join(', ')}]; \`${t.name}\` is declared [${t.shape.join(', ')}]`, { span: a.value.span }));
          continue;
        }
        // A uint16 .npy for a bf16 tensor holds bf16 bit patterns (NumPy has no bfloat16; ml_dtypes/torch exports
        // store them so): its words are the tensor's bytes, not integers to convert (docs/neuroncore.md).
        if (t.dtype === 'bf16' && tensor.dtype === 'uint16') init.set(ti, { kind: 'data', note: 'uint16 read as bf16 bit patterns', data: new Uint8Array((tensor.data as Uint16Array).slice().buffer), span: a.value.span });
        else init.set(ti, { kind: 'data', data: encodeTensor(t.dtype, npyValues(tensor)), span: a.value.span });
      } else if (a.key === 'zero' && a.value.kind === 'ident' && a.value.value === 'true') init.set(ti, { kind: 'zero', span: a.value.span });
      else diags.push(error('NC0713', `unknown tensor attribute \`${a.key}\` (data = "file.npy"; zero = true;)`, { span: a.keySpan }));
    }
  }
  if (diags.some((d) => d.severity === 'error')) throw new DiagnosticError(diags);
  const sections: Section[] = [container.sections.find((s) => s.name === NC_PROGRAM_SECTION)!];
  const map: NcLinkResult['map'] = { tensors: [] };
  let addr = 0;
  const addresses: number[] = [];
  program.tensors.forEach((t, i) => {
    if (t.mem !== 'hbm') {
      addresses.push(-1);
      return;
    }
    addr = Math.ceil(addr / HBM_ALIGN) * HBM_ALIGN;
    addresses.push(addr);
    const it = init.get(i);
    if (it?.kind === 'data') sections.push({ name: `hbm.${t.name}`, kind: 'data', space: 'hbm', address: addr, size: t.bytes, align: HBM_ALIGN, flags: 0, data: it.data! });
    else if (it?.kind === 'zero') sections.push({ name: `hbm.${t.name}`, kind: 'zero', space: 'hbm', address: addr, size: t.bytes, align: HBM_ALIGN, flags: 0, data: new Uint8Array(0) });
    map.tensors.push({ name: t.name, address: addr, bytes: t.bytes, dtype: t.dtype, shape: t.shape, init: it ? (it.note ? `${it.kind} (${it.note})` : it.kind) : 'none (never written: reads are NaN)' });
    addr += t.bytes;
  });
  const image: Container = {
    kind: 'pimg',
    version: FORMAT_VERSION,
    target: 'neuroncore',
    sections,
    symbols: program.tensors.map((t, i) => ({ name: t.name, kind: 'tensor' as const, section: -1, offset: t.mem === 'hbm' ? addresses[i]! : t.offset, size: t.bytes, global: true, tensor: { shape: t.shape, format: t.dtype, eb: 0 } })),
    relocations: [],
    metadata: { producer: 'pyxis-ld --target neuroncore', object: file, hbm_bytes: addr, instructions: program.insns.length },
  };
  return { image, diagnostics: diags, map };
}
