/**
 * `inspect <file>`: prints a .pobj/.pimg container (or an .npy/.safetensors
 * tensor file, or a format of a target without magic, such as Pyxis MPE patch
 * blobs) as text, or as JSON with --json. Shared by the tools; the work lives
 * in @pyxis/container and the targets' inspect hooks.
 */
import { extname } from 'node:path';
import type { Command } from 'commander';
import {
  formatTensorStats,
  formatTensorValues,
  inspectJson,
  inspectText,
  isSummarised,
  peekContainerTarget,
  readContainer,
  readInputFile,
  readInputHead,
  readContainerInput,
  startsWithContainerMagic,
  readNpy,
  INPUT_HEAD_BYTES,
  MAX_SOURCE_BYTES,
  readSafetensorsWithMetadata,
  tensorJsonValues,
  tensorStats,
  PRINT_EDGE_ITEMS,
  type Tensor,
} from '@pyxis/container';
import { findTargetEntry, loadTarget, targetEntries, type InspectRequest } from '@pyxis/target';
import { addTargetOption, addTargetOptions, chooseTargetName, resolveTarget } from './targetOptions.js';
import { DiagnosticError } from '@pyxis/diagnostics';
import type { ToolContext } from './tool.js';

interface InspectOptions {
  json?: boolean;
  data?: boolean;
  full?: boolean;
  target?: string;
}

/** A tensor file's tensor: dtype and shape, with `--data` its values (docs/tensor-files.md, "Printing values"). */
function tensorSummary(t: Tensor, opts: InspectOptions): Record<string, unknown> {
  const head = { dtype: t.dtype, shape: t.shape, elements: t.data.length, bytes: t.data.byteLength };
  if (!opts.data) return head;
  const print = { full: !!opts.full };
  const values = tensorJsonValues(t, print);
  if (!isSummarised(t, print)) return { ...head, values };
  const s = tensorStats(t);
  const num = (v: number) => (Number.isNaN(v) ? null : v);
  return { ...head, summary: { edgeItems: PRINT_EDGE_ITEMS, count: s.count, min: num(s.min), max: num(s.max), mean: num(s.mean), nan: s.nan }, values };
}

/** Text lines of a tensor's values (`--data`): NumPy-style repr, and the statistics line when summarised. */
function tensorValueLines(t: Tensor, opts: InspectOptions, indent = ''): string[] {
  if (!opts.data) return [];
  const print = { full: !!opts.full };
  const lines = formatTensorValues(t, print).split('\n');
  if (isSummarised(t, print)) lines.push(formatTensorStats(tensorStats(t)));
  return lines.map((l) => (l ? indent + l : l));
}

/**
 * Dispatches on the file's magic bytes, so the extension does not matter; a
 * file with no known magic is read as its extension says (`.npy`,
 * `.safetensors`, else a container), so the error comes from the right reader.
 */
async function inspectFile(path: string, opts: InspectOptions, cmd: Command): Promise<string> {
  // A file larger than any text format may be (MAX_SOURCE_BYTES) is a container or a tensor file, or nothing
  // this reads: identified by its first bytes, the rest read only then (a bad magic costs no gigabyte read).
  const { head, size } = readInputHead(path, INPUT_HEAD_BYTES);
  const binary = head[0] === 0x50 || head[0] === 0x93 || (head.length >= 9 && head[8] === 0x7b);
  const ext = extname(path).toLowerCase();
  if (size > MAX_SOURCE_BYTES && !binary) {
    // the reader the extension names reports the bad magic (TF0001 / CT0001); nothing else is read
    if (ext === '.npy') readNpy(head, path);
    if (ext === '.safetensors') readSafetensorsWithMetadata(head, path);
    readContainer(head, path);
  }
  const bytes = size <= head.length ? head : startsWithContainerMagic(head) ? readContainerInput(path) : readInputFile(path);
  const isContainer = bytes[0] === 0x50 && bytes[1] === 0x59 && bytes[2] === 0x58; // "PYX"
  // The target whose hooks apply: --target, else the container's own (when registered: any container prints), else the default.
  const fromHeader = peekContainerTarget(bytes);
  // without --target, an extension a target claims (`MODEL.tmodel`) names it, as for `run`
  const name = chooseTargetName(opts.target, [path], () => undefined);
  const { target, options } = await resolveTarget(opts.target === undefined && fromHeader && findTargetEntry(fromHeader) ? fromHeader : name, 'inspect', cmd);
  const req: InspectRequest = { file: path, bytes, json: !!opts.json, data: !!opts.data, options };
  const hooks = target.inspect;
  // A format without magic (Pyxis patch blobs) is read first when the target's own option asks for it.
  if (Object.keys(options).length && hooks?.sniff) {
    const text = hooks.sniff(req);
    if (text !== undefined) return text;
  }
  const isNpy = bytes[0] === 0x93 && bytes[1] === 0x4e; // "\x93NUMPY"
  const isSafetensors = bytes.length >= 9 && bytes[8] === 0x7b; // u64 header length, then "{"
  if (!isContainer && (isNpy || (!isSafetensors && ext === '.npy'))) {
    const t = readNpy(bytes, path);
    if (opts.json) return JSON.stringify({ file: path, format: 'npy', ...tensorSummary(t, opts) }, null, 2) + '\n';
    return [`${path}: npy ${t.dtype} [${t.shape.join(', ')}] (${t.data.byteLength} bytes)`, ...tensorValueLines(t, opts)].join('\n') + '\n';
  }
  if (!isContainer && !isNpy && hooks?.sniff) {
    const text = hooks.sniff(req);
    if (text !== undefined) return text;
  }
  if (!isContainer && (isSafetensors || ext === '.safetensors')) {
    const { tensors, metadata } = readSafetensorsWithMetadata(bytes, path);
    if (opts.json) return JSON.stringify({ file: path, format: 'safetensors', metadata, tensors: Object.fromEntries([...tensors].map(([n, t]) => [n, tensorSummary(t, opts)])) }, null, 2) + '\n';
    const lines = [`${path}: safetensors, ${tensors.size} tensors`];
    for (const [n, t] of tensors) lines.push(`  ${n}  ${t.dtype} [${t.shape.join(', ')}] (${t.data.byteLength} bytes)`, ...tensorValueLines(t, opts, '    '));
    if (Object.keys(metadata).length) lines.push(`metadata: ${JSON.stringify(metadata)}`);
    return lines.join('\n') + '\n';
  }
  let c;
  try {
    c = readContainer(bytes, path);
  } catch (e) {
    // not a container, but a target could read it: say how to ask for that
    let hint = e instanceof DiagnosticError && !isContainer ? hooks?.hint?.(bytes, path) : undefined;
    // no --target: another target may know the file (a bare Tensil .tprog): ask each, on this error path only
    if (e instanceof DiagnosticError && !isContainer && !hint && opts.target === undefined)
      for (const entry of targetEntries()) {
        if (entry.name === target.name) continue;
        hint = (await loadTarget(entry.name)).inspect?.hint?.(bytes, path);
        if (hint) break;
      }
    if (e instanceof DiagnosticError && hint) {
      const [d, ...rest] = e.diagnostics;
      throw new DiagnosticError([{ ...d!, notes: [...(d!.notes ?? []), hint] }, ...rest]);
    }
    throw e;
  }
  // The target's names for its own flag bits apply to its own containers only.
  const own = c.target === target.name;
  const flagNames = own ? hooks?.sectionFlags : undefined;
  const records = own ? hooks?.records?.(c) : undefined;
  const view = { data: !!opts.data, ...(flagNames ? { flagNames } : {}), ...(records ? { records } : {}) };
  if (opts.json) return JSON.stringify({ file: path, ...inspectJson(c, view) }, null, 2) + '\n';
  const extra = hooks?.describeContainer?.(c) ?? [];
  return `${path}: ${inspectText(c, view)}${extra.map((l) => l + '\n').join('')}`;
}

/** Adds `inspect <file> [--json] [--data]` to a tool. */
export function registerInspect(program: Command, ctx: () => ToolContext): Command {
  const cmd = program
    .command('inspect')
    .description("print a .pobj/.pimg container (or .npy/.safetensors tensor file, or a format of the target's own, see its options): sections, symbols, relocations, metadata")
    .argument('<file>', 'file to inspect')
    .option('--json', 'print JSON instead of text')
    .option('--data', 'include section contents (hex dump; full hex string with --json); for .npy/.safetensors the values, NumPy-style, summarised beyond 1000 elements')
    .option('--full', 'with --data on a tensor file: every value, never the summary');
  addTargetOption(cmd);
  addTargetOptions(cmd, 'inspect');
  return cmd.action(async (file: string, opts: InspectOptions) => {
    ctx().out(await inspectFile(file, opts, cmd));
  });
}
