/**
 * `pyxis-ld SYSTEM.json -o x.psys [--map FILE]`: validates the system description (docs/system.md), reads every
 * chip's image, and writes one system container (systemImage.ts). The map lists the chips, their images, VPFEs and
 * VOQ maps.
 */
import { dirname, isAbsolute, join } from 'node:path';
import type { Container } from '@pyxis/container';
import { DiagnosticError, error, type Diagnostic, type SourceSpan } from '@pyxis/diagnostics';
import { FabricCodes } from './codes.js';
import { checkSystem, fabricDescriptors, type FabricDescriptor } from './systemChecks.js';
import { parseSystem, type SystemDesc } from './system.js';
import { buildSystemContainer, isSystemContainer } from './systemImage.js';

export interface SystemLinkResult {
  image: Container;
  system: SystemDesc;
  /** Warnings of the static checks (errors are thrown). */
  diagnostics: Diagnostic[];
  mapText(): string;
  mapJson(): string;
}

/**
 * Reads one chip's image; every error also names where the system file gives it (JSON path, file:line:col). A system
 * container (.psys) or another target's image is not a chip image (it would link as a chip with no descriptors).
 */
function readChipImage(path: string, at: { path: string; span: SourceSpan }, readObject: (path: string) => Container): Container {
  const where = `the image of ${at.path}, ${at.span.file}:${at.span.line}:${at.span.column}`;
  let c: Container;
  try {
    c = readObject(path);
  } catch (e) {
    if (e instanceof DiagnosticError) throw new DiagnosticError(e.diagnostics.map((d) => ({ ...d, notes: [...(d.notes ?? []), where] })));
    throw e;
  }
  const bad = (msg: string) => new DiagnosticError(error(FabricCodes.badSystem, `${at.path}: ${path} ${msg}`, { span: at.span }));
  if (c.kind !== 'pimg') throw bad(`is a .${c.kind} object, not a linked .pimg image (run pyxis-ld on it first)`);
  if (isSystemContainer(c)) throw bad('is a system container (.psys), not a chip image: give each chip its linked .pimg');
  if (c.target !== 'pyxis') throw bad(`is an image for target \`${c.target}\`, not a Pyxis chip image`);
  return c;
}

export function linkSystem(scriptFile: string, text: string, readObject: (path: string) => Container): SystemLinkResult {
  const { system, diagnostics } = parseSystem(scriptFile, text);
  if (!system) throw new DiagnosticError(diagnostics);
  const base = dirname(scriptFile);
  const cache = new Map<string, Container>();
  const images = system.images.map((f, k) => {
    const path = isAbsolute(f) ? f : join(base, f);
    let c = cache.get(path);
    if (!c) cache.set(path, (c = readChipImage(path, system.spans.images[k]!, readObject)));
    return { file: path, container: c };
  });
  // Static checks (systemChecks.ts): each distinct image's fabric descriptors are decoded once.
  const perImage = new Map<string, FabricDescriptor[]>();
  const descs = images.map((im) => {
    let x = perImage.get(im.file);
    if (!x) perImage.set(im.file, (x = fabricDescriptors(im.container, im.file)));
    return x;
  });
  const checks = checkSystem(system, descs);
  if (checks.some((d) => d.severity === 'error')) throw new DiagnosticError(checks);
  const image = buildSystemContainer(system, images);
  const rows = () =>
    system.images.map((_, c) => ({
      chip: c,
      image: images[c]!.file,
      cluster_vpfe: system.clusterVpfe[c]!,
      voq_map: [...system.voqToVpfe[c]!].flatMap((v, g) => (v === 0xffff ? [] : [{ group: g, vpfe: v }])),
    }));
  return {
    image,
    system,
    diagnostics: checks,
    mapText: () =>
      [
        `System ${scriptFile}: ${system.chips} chip(s), fabric RTT ${system.fabric.rtt_ns} ns, ${system.fabric.pipes_per_chip} pipes x ${system.fabric.pipe_bytes_per_cycle} B/cycle, grant ${system.fabric.grant.scheduler}`,
        '',
        'chip  image  cluster VPFEs  VOQ groups -> VPFE',
        ...rows().map((r) => `${String(r.chip).padStart(4)}  ${r.image}  [${r.cluster_vpfe.join(', ')}]  ${r.voq_map.map((e) => `${e.group}->${e.vpfe}`).join(' ') || '-'}`),
        '',
      ].join('\n'),
    mapJson: () => JSON.stringify({ system: scriptFile, chips: rows(), fabric: system.fabric }, null, 2) + '\n',
  };
}
