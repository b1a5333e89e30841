/**
 * `inspect <file>`: prints a .pobj/.pimg container (or an .npy/.safetensors
 * tensor file) as text, or as JSON with --json. Shared by the tools; the
 * work lives in @pyxis/container.
 */
import { extname } from 'node:path';
import type { Command } from 'commander';
import { inspectJson, inspectText, readContainer, readInputFile, readNpy, readSafetensorsWithMetadata, type Tensor } from '@pyxis/container';
import type { ToolContext } from './tool.js';

interface InspectOptions {
  json?: boolean;
  data?: boolean;
}

function tensorSummary(t: Tensor): Record<string, unknown> {
  return { dtype: t.dtype, shape: t.shape, elements: t.data.length, bytes: t.data.byteLength };
}

/**
 * Dispatches on the file's magic bytes, so the extension does not matter; a
 * file with no known magic is read as its extension says (`.npy`,
 * `.safetensors`, else a container), so the error comes from the right reader.
 */
function inspectFile(path: string, opts: InspectOptions): string {
  const bytes = readInputFile(path);
  const isContainer = bytes[0] === 0x50 && bytes[1] === 0x59 && bytes[2] === 0x58; // "PYX"
  const ext = extname(path).toLowerCase();
  const isNpy = bytes[0] === 0x93 && bytes[1] === 0x4e; // "\x93NUMPY"
  const isSafetensors = bytes.length >= 9 && bytes[8] === 0x7b; // u64 header length, then "{"
  if (!isContainer && (isNpy || (!isSafetensors && ext === '.npy'))) {
    const t = readNpy(bytes, path);
    return opts.json ? JSON.stringify({ file: path, format: 'npy', ...tensorSummary(t) }, null, 2) + '\n' : `${path}: npy ${t.dtype} [${t.shape.join(', ')}] (${t.data.byteLength} bytes)\n`;
  }
  if (!isContainer && (isSafetensors || ext === '.safetensors')) {
    const { tensors, metadata } = readSafetensorsWithMetadata(bytes, path);
    if (opts.json) return JSON.stringify({ file: path, format: 'safetensors', metadata, tensors: Object.fromEntries([...tensors].map(([n, t]) => [n, tensorSummary(t)])) }, null, 2) + '\n';
    const lines = [`${path}: safetensors, ${tensors.size} tensors`];
    for (const [n, t] of tensors) lines.push(`  ${n}  ${t.dtype} [${t.shape.join(', ')}] (${t.data.byteLength} bytes)`);
    if (Object.keys(metadata).length) lines.push(`metadata: ${JSON.stringify(metadata)}`);
    return lines.join('\n') + '\n';
  }
  const c = readContainer(bytes, path);
  return opts.json ? JSON.stringify({ file: path, ...inspectJson(c, { data: !!opts.data }) }, null, 2) + '\n' : `${path}: ${inspectText(c, { data: !!opts.data })}`;
}

/** Adds `inspect <file> [--json] [--data]` to a tool. */
export function registerInspect(program: Command, ctx: () => ToolContext): Command {
  return program
    .command('inspect')
    .description('print a .pobj/.pimg container (or .npy/.safetensors tensor file): sections, symbols, relocations, metadata')
    .argument('<file>', 'file to inspect')
    .option('--json', 'print JSON instead of text')
    .option('--data', 'include section contents (hex dump; full hex string with --json)')
    .action((file: string, opts: InspectOptions) => {
      ctx().out(inspectFile(file, opts));
    });
}
