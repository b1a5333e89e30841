/**
 * `pyxis-ld --target systolic`: the link script is a Tensil `.tmodel`. Its
 * program (the manifest's `.tprog`, or the one `.pobj` given), its constants
 * (`.tdata` raw, or `.npy` quantised to the data type) and the `--input`
 * tensors (`.npy` quantised, or `.tdata` raw) are placed at their manifest
 * bases (consts in DRAM1, or local memory with `load_consts_to_local`; inputs
 * in DRAM0) into a `.pimg`. Each quantised tensor's error (largest absolute,
 * RMS, saturated elements) is logged and listed in the map. `--dram0` /
 * `--dram1` write the raw memory images (vector 0 to the last packed vector,
 * zeros between), `--tmodel OUT.tmodel` a Tensil manifest with its `.tprog`
 * and one `.tdata` holding every constant. Overlaps are errors.
 */
import { basename, dirname, join } from 'node:path';
import { DiagnosticError, UsageError, unknownName, type Diagnostic } from '@pyxis/diagnostics';
import { checkOutputPaths, readInputFile, writeFileAtomic } from '@pyxis/container';
import type { LinkOutput, LinkRequest } from '@pyxis/target';
import { SYSTOLIC_TARGET_NAME } from './entry.js';
import { fixedType } from './fixed.js';
import { decodeProgram } from './isa.js';
import { loadTModel, overlaps, type PackedRef } from './model.js';
import { archOption, parsePairs } from './machine-part.js';
import { packFile } from './pack.js';

const str = (o: LinkRequest['options'], k: string) => (o[k] === undefined ? undefined : String(o[k]));

/** The program of the one systolic `.pobj` given, if any. */
function objectProgram(req: LinkRequest): { bytes: Uint8Array; file: string; offset: number; arch: unknown } | undefined {
  if (req.objects.length > 1) throw new UsageError(`the systolic linker takes at most one object (the program), got ${req.objects.length}`);
  const o = req.objects[0];
  if (!o) return undefined;
  if (o.container.target !== SYSTOLIC_TARGET_NAME) throw new UsageError(`${o.file} is a ${o.container.target} object, not systolic`);
  const prog = o.container.sections.find((s) => s.name === 'program');
  if (!prog) throw new DiagnosticError({ severity: 'error', code: 'SYS0203', message: `${o.file} has no program section`, span: { file: o.file, offset: 0 } });
  return { bytes: prog.data, file: o.file, offset: prog.fileOffset ?? 0, arch: (o.container.metadata as Record<string, unknown>)['arch'] };
}

/** Raw image of one memory: every packed item at its base, zeros between, up to the last vector used. */
export function memoryImage(items: PackedRef[], vbytes: number): Uint8Array {
  const end = items.reduce((m, r) => Math.max(m, r.base + r.packed.vectors), 0);
  const img = new Uint8Array(end * vbytes);
  for (const r of items) img.set(r.packed.bytes, r.base * vbytes);
  return img;
}

/** Two items of one memory sharing a vector (model.ts `overlaps`). */
function packedOverlaps(items: PackedRef[], file: string): Diagnostic[] {
  return overlaps(items.map((r) => ({ name: r.name, space: r.space, base: r.base, vectors: r.packed.vectors })), file);
}

const fmt = (x: number) => (x === 0 ? '0' : x.toPrecision(4));

export function linkSystolic(req: LinkRequest): LinkOutput {
  const program = objectProgram(req);
  const arch = archOption(req.options);
  const loaded = loadTModel(req.script, req.scriptFile, arch, program && { bytes: program.bytes, file: program.file });
  const { model: m, image } = loaded;
  if (program && !arch && program.arch !== undefined && JSON.stringify(program.arch) !== JSON.stringify(m.arch))
    throw new DiagnosticError({ severity: 'error', code: 'SYS0206', message: `${program.file} was assembled for another architecture than $.arch of ${req.scriptFile}`, span: { file: program.file, offset: 0 } });
  // refuse a program that does not decode, at the offset in the file that holds it (the object, or the manifest's .tprog)
  const progFile = (image.metadata as Record<string, unknown>)['program_file'];
  decodeProgram(image.sections[0]!.data, m.arch, program?.file ?? (typeof progFile === 'string' ? progFile : req.scriptFile), program?.offset ?? 0);
  const inputs: PackedRef[] = [];
  for (const inp of parsePairs(req.options, 'input', '--input')) {
    const ref = m.inputs.find((r) => r.name === inp.name);
    if (!ref) throw unknownName('--input', 'input', inp.name, 'the model', m.inputs.map((r) => r.name));
    const packed = packFile(readInputFile(inp.file), ref.size, m.arch, inp.file, `input ${ref.name}`);
    inputs.push({ name: `input:${ref.name}`, file: inp.file, space: 'dram0', base: ref.base, packed });
    image.sections.push({ name: `input:${ref.name}`, kind: 'data', space: 'dram0', address: ref.base, size: packed.bytes.length, align: 1, flags: 0, data: packed.bytes });
  }
  const all = [...loaded.consts, ...inputs];
  const bad = packedOverlaps(all, req.scriptFile);
  if (bad.length) throw new DiagnosticError(bad);
  const diagnostics: Diagnostic[] = [];
  for (const r of all) {
    const p = r.packed;
    if (p.source === 'npy-float') req.services.log.info({ tensor: r.name, file: r.file, elements: p.elements, max_abs_quantisation_error: p.maxAbsError, rms_quantisation_error: p.rmsError, saturated: p.saturated }, 'quantised');
    if (p.saturated)
      diagnostics.push({ severity: 'warning', code: 'SYS0305', message: `${r.name}: ${p.saturated} of ${p.elements} elements of ${basename(r.file)} are outside the ${m.arch.data_type} range and were saturated (max abs error ${fmt(p.maxAbsError)})`, span: { file: r.file, offset: 0 } });
  }
  writeImages(req, loaded, inputs);
  const quant = all.map((r) => ({ name: r.name, file: r.file, space: r.space, base_vectors: r.base, vectors: r.packed.vectors, source: r.packed.source, max_abs_error: r.packed.maxAbsError, rms_error: r.packed.rmsError, saturated: r.packed.saturated }));
  const map = { model: m.name, arch: m.arch, sections: image.sections.map((s) => ({ name: s.name, space: s.space, address_vectors: s.address, bytes: s.size })), inputs: m.inputs, outputs: m.outputs, packed: quant };
  return {
    image,
    diagnostics,
    mapText: () =>
      [
        `model ${map.model}`,
        ...map.sections.map((s) => `${s.name.padEnd(10)} ${s.space.padEnd(8)} vector ${s.address_vectors}  ${s.bytes} bytes`),
        ...map.inputs.map((r) => `input  ${r.name} dram0 vector ${r.base} (${r.size} vectors)`),
        ...map.outputs.map((r) => `output ${r.name} dram0 vector ${r.base} (${r.size} vectors)`),
        ...quant.map((q) => `packed ${q.name} from ${basename(q.file)} (${q.source})${q.source === 'npy-float' ? `: max abs error ${fmt(q.max_abs_error)}, RMS ${fmt(q.rms_error)}, ${q.saturated} saturated` : ''}`),
      ].join('\n') + '\n',
    mapJson: () => JSON.stringify(map, null, 2) + '\n',
  };
}

/** `--dram0`, `--dram1` and `--tmodel` (with its .tprog and .tdata), checked against the inputs before anything is written. */
function writeImages(req: LinkRequest, loaded: ReturnType<typeof loadTModel>, inputs: PackedRef[]): void {
  const { model: m, image } = loaded;
  const d0 = str(req.options, 'dram0');
  const d1 = str(req.options, 'dram1');
  const tm = str(req.options, 'tmodel');
  if (!d0 && !d1 && !tm) return;
  const stem = tm ? join(dirname(tm), basename(tm).replace(/\.[^.]*$/, '')) : '';
  if (tm && !tm.toLowerCase().endsWith('.tmodel')) throw new UsageError(`--tmodel ${tm}: the file name must end in .tmodel`);
  const outs = [d0, d1, ...(tm ? [tm, `${stem}.tprog`, `${stem}.tdata`] : [])];
  checkOutputPaths(outs, [req.scriptFile, ...req.objects.map((o) => o.file), ...loaded.consts.map((c) => c.file), ...inputs.map((i) => i.file)]);
  const vbytes = m.arch.array_size * fixedType(m.arch.data_type).bytes;
  const constImage = memoryImage(loaded.consts, vbytes);
  if (d0) writeFileAtomic(d0, memoryImage(inputs, vbytes));
  if (d1) writeFileAtomic(d1, m.load_consts_to_local ? new Uint8Array(0) : constImage);
  if (tm) {
    const prog = image.sections[0]!.data;
    const manifest = {
      name: m.name,
      prog: { file_name: `${basename(stem)}.tprog`, size: prog.length },
      consts: constImage.length ? [{ file_name: `${basename(stem)}.tdata`, base: 0, size: constImage.length / vbytes }] : [],
      inputs: m.inputs,
      outputs: m.outputs,
      arch: m.arch,
      load_consts_to_local: m.load_consts_to_local,
    };
    writeFileAtomic(`${stem}.tprog`, prog);
    if (constImage.length) writeFileAtomic(`${stem}.tdata`, constImage);
    writeFileAtomic(tm, JSON.stringify(manifest) + '\n');
  }
}

