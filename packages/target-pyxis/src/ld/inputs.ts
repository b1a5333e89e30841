/** Inputs besides tensors: `blob` statements (MPE patch blobs, chip §12.6.1) and the objects holding programs. */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { DiagnosticError } from '@pyxis/diagnostics';
import { readContainer, type Container } from '@pyxis/container';
import { checkPyxisMetadata } from '../common/metadata.js';
import { CHIP, type LinkContext, type LinkInputObject } from './context.js';
import { loadData } from './dataFiles.js';
import { countPatches, loadPrograms } from './microcode.js';
import type { Placed } from './placement.js';
import { defaultRegion, hbmBytes, regionRef } from './regions.js';

export function declareBlobs(ctx: LinkContext): void {
  const { err, attrsOf, num, ident, named } = ctx.r;
  const { blobs, placements } = ctx;
  for (const b of ctx.blocks('blob')) {
    const name = named(b, '`blob`');
    if (!name) continue;
    const a = attrsOf(b, ['file', 'region', 'address'], `blob \`${name}\``);
    const fv = a.get('file')?.value;
    if (!fv) {
      err('LD0110', `blob \`${name}\` needs a \`file\``, b.nameSpan);
      continue;
    }
    const p = ident(fv, '`file`');
    const bytes = p ? loadData(ctx, p, fv.span) : undefined;
    const region = a.has('region') ? regionRef(ctx, a.get('region')!.value, '`region`') : defaultRegion(ctx, 0);
    if (!bytes || !region) continue;
    const patches = countPatches(bytes);
    if (typeof patches === 'string') {
      err('LD0209', `patch blob ${p}: ${patches}`, fv.span, { spec: `${CHIP} §12.6.1.2, §12.6.1.3` });
      continue;
    }
    const fixed = num(a.get('address')?.value, '`address`', 0, hbmBytes());
    const placed: Placed = { name, what: 'patch blob', region, size: bytes.length, align: 8, address: 0, span: b.nameSpan!, ...(fixed !== undefined ? { fixed } : {}) };
    blobs.set(name, { name, span: b.nameSpan!, bytes, patches, placed });
    placements.push(placed);
  }
}

/** Objects from the command line and the script's `input` statements; their programs (microcode.ts loadPrograms). */
export function loadObjects(ctx: LinkContext): void {
  const { err } = ctx.r;
  const { opts, bag, baseDir, readFile } = ctx;
  const objects: LinkInputObject[] = [...(opts.objects ?? [])];
  for (const inp of ctx.script.inputs) {
    const full = resolve(baseDir, inp.path);
    if (!opts.readObject && !opts.readFile && !existsSync(full)) {
      err('LD0201', `no such file: ${inp.path}`, inp.span);
      continue;
    }
    try {
      const c = opts.readObject ? opts.readObject(full) : readObjectDefault(full, readFile);
      objects.push({ file: inp.path, container: c });
    } catch (e) {
      if (e instanceof DiagnosticError) bag.addAll(e.diagnostics);
      else if ((e as NodeJS.ErrnoException).code === 'ENOENT') err('LD0201', `no such file: ${inp.path}`, inp.span);
      else err('LD0210', `cannot read object ${inp.path}: ${(e as Error).message}`, inp.span);
    }
  }
  for (const o of objects) {
    // The metadata is validated before any of it is read (CT0015 with its JSON path).
    if (o.container.target === 'pyxis')
      try {
        checkPyxisMetadata(o.container, o.file);
      } catch (e) {
        if (!(e instanceof DiagnosticError)) throw e;
        bag.addAll(e.diagnostics);
        continue;
      }
    loadPrograms(o, ctx.programs, ctx.vpuPrograms, ctx.memoryMap, bag);
  }
}

function readObjectDefault(path: string, readFile: (p: string) => Uint8Array): Container {
  return readContainer(readFile(path), path);
}
