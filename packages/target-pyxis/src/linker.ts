/** The Pyxis linker back end: link script + objects -> image and map (./ld). */
import type { LinkerBackend, LinkRequest } from '@pyxis/target';
import { UsageError } from '@pyxis/diagnostics';
import { pyxisOptions } from './entry.js';
import { intOption } from './options.js';
import { link, mapJson, mapText } from './ld/index.js';
import { linkSystem } from './sim/fabric/systemLink.js';

function linkPyxis(req: LinkRequest) {
  // A system description (docs/system.md) links into one system container of chip images.
  if (req.scriptFile.toLowerCase().endsWith('.json')) {
    if (req.objects.length) throw new UsageError(`${req.scriptFile} is a system description: it names its chips' images itself and takes no objects (docs/system.md)`);
    const r = linkSystem(req.scriptFile, req.script, req.readObject);
    req.services.log.info({ chips: r.system.chips, images: r.image.sections.length }, 'linked system');
    return { image: r.image, diagnostics: r.diagnostics, mapText: r.mapText, mapJson: r.mapJson };
  }
  const maxList = intOption(req.options, 'maxListDescriptors', '--max-list-descriptors', 1, 65536);
  const result = link({
    script: req.script,
    scriptFile: req.scriptFile,
    objects: req.objects,
    readObject: req.readObject,
    ...(maxList !== undefined ? { maxListDescriptors: maxList } : {}),
  });
  for (const w of result.map.weights) req.services.log.info({ weights: w.name, kind: w.kind, bytes: w.bytes, ...w.report }, 'weight database');
  for (const { name, ...q } of result.map.quantisation) req.services.log.info({ tensor: name, ...q }, 'quantised');
  req.services.log.info({ sections: result.image.sections.length, trips: result.map.trips.length, barriers: result.map.barriers.length }, 'linked');
  return { image: result.image, diagnostics: result.diagnostics, mapText: () => mapText(result.map), mapJson: () => mapJson(result.map) };
}

export const pyxisLinker: LinkerBackend = {
  scriptExtensions: ['.ld', '.json'],
  // a system description links into a system container (docs/system.md)
  defaultOutputExtension: (scriptFile) => (scriptFile.toLowerCase().endsWith('.json') ? '.psys' : undefined),
  options: pyxisOptions.ld,
  link: linkPyxis,
};
