/**
 * `pyxis-ld SYSTEM.json -o x.psys [--map FILE]`: validates the system description (docs/system.md), reads every
 * chip's image, and writes one system container (systemImage.ts). The map lists the chips, their images, VPFEs and
 * VOQ maps.
 */
import { dirname, isAbsolute, join } from 'node:path';
import type { Container } from '@pyxis/container';
import { DiagnosticError, type Diagnostic } from '@pyxis/diagnostics';
import { checkSystem, fabricDescriptors, type FabricDescriptor } from './systemChecks.js';
import { parseSystem, type SystemDesc } from './system.js';
import { buildSystemContainer } from './systemImage.js';

export interface SystemLinkResult {
  image: Container;
  system: SystemDesc;
  /** Warnings of the static checks (errors are thrown). */
  diagnostics: Diagnostic[];
  mapText(): string;
  mapJson(): string;
}

export function linkSystem(scriptFile: string, text: string, readObject: (path: string) => Container): SystemLinkResult {
  const { system, diagnostics } = parseSystem(scriptFile, text);
  if (!system) throw new DiagnosticError(diagnostics);
  const base = dirname(scriptFile);
  const cache = new Map<string, Container>();
  const images = system.images.map((f) => {
    const path = isAbsolute(f) ? f : join(base, f);
    let c = cache.get(path);
    if (!c) cache.set(path, (c = readObject(path)));
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
