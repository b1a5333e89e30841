/**
 * Loading an image model (imageModel.ts) into the chip model: section contents into HBM / AMEM / CSR-config space,
 * datagram rings, enqueue records and host actions; and pointing runtime diagnostics about loaded bytes back at the
 * image (`attachImageSpan`).
 */
import type { Container } from '@pyxis/container';
import { DiagnosticError, isByteSpan } from '@pyxis/diagnostics';
import { imageError, SimCodes, SimRuntimeError, type MemLocation } from './diagnostics.js';
import type { PyxisChip } from './chip.js';
import { locateInImage, readImage, sectionSpan, type ImageModel } from './imageModel.js';

export { CFG_ENGINE_BASE } from './cfgSpace.js';
export {
  listedBarriers, locateInImage, MAX_CLUSTERS, MAX_UIES, programAt, readImage, sectionLocation, sectionSpan, chipSize,
  type BarrierInfo, type DatagramRingSection, type ImageInfo, type ImageModel, type PlacedSection,
} from './imageModel.js';

/** Reads and validates `container` into its image model (imageModel.ts `readImage`; the name the API has kept). */
export function inspectImage(container: Container, file: string): ImageModel {
  return readImage(container, file);
}

/**
 * Points a runtime error about bytes read from memory (a descriptor, a list, a patch) at those bytes in the
 * image: span = section file offset + offset inside the section, plus a note naming the section. Errors
 * about memory the image did not load are left as they are.
 */
export function attachImageSpan(e: unknown, image: ImageModel): void {
  if (!(e instanceof DiagnosticError)) return;
  const d = e.diagnostics[0];
  if (!d) return;
  let at: MemLocation | undefined;
  let length: number | undefined;
  if (e instanceof SimRuntimeError && e.at && !d.span) {
    at = e.at;
    length = e.length;
  } else if (d.span && isByteSpan(d.span)) {
    // UIE rule errors name the microcode op word as `c<C>.uie<U>.<sequencer>.op` + its cfg-window offset.
    const m = /^c(\d+)\.uie\d+\.\w+\.op$/.exec(d.span.file);
    if (m) at = { space: 'cfg', cluster: Number(m[1]), addr: d.span.offset };
  }
  const hit = at ? locateInImage(image, at) : undefined;
  if (!hit) return;
  // Keep a model span (e.g. the UIE's) when the image has no file offsets (built in memory).
  if (hit.section.fileOffset !== undefined || !d.span) d.span = sectionSpan(image.file, hit.section, hit.within, length);
  const zero = hit.section.kind === 'zero' ? ' (zero-filled: the section stores no bytes in the file)' : '';
  d.notes = [...(d.notes ?? []), `the bytes are image section ${hit.index} \`${hit.section.name}\` + 0x${hit.within.toString(16)}, as the image loaded them${zero}`];
}

/**
 * Copies every memory section into the chip, places the datagram rings (with a fabric adapter), and queues the
 * enqueue records and host actions; the chip then reads the image's names (trips, barrier roles) from the model.
 */
export function loadImage(chip: PyxisChip, image: ImageModel): void {
  for (const p of image.placed) {
    const s = p.section;
    if (p.cluster >= chip.clusters)
      throw new DiagnosticError({
        severity: 'error',
        code: SimCodes.noEngine,
        message: `section ${p.index} \`${s.name}\` is in cluster ${p.cluster}, but only ${chip.clusters} cluster(s) are simulated (see --clusters)`,
        span: sectionSpan(image.file, s),
      });
    // Zero sections cost no RAM in the sparse HBM and cfg memories (page ranges, memory.ts); AMEM is 64 MiB at most.
    if (s.kind === 'zero' && p.space === 'hbm') chip.hbm.fill(p.addr, s.size, 0);
    else if (s.kind === 'zero' && p.space === 'cfg') chip.cfg[p.cluster]!.fill(p.addr, s.size, 0);
    else {
      const data = s.kind === 'zero' ? new Uint8Array(s.size) : s.data;
      if (p.space === 'hbm') chip.hbm.load(p.addr, data); // borrowed pages: the image's bytes are not copied (memory.ts)
      else if (p.space === 'amem') chip.amem[p.cluster]!.writeBytes(p.addr, data);
      else chip.cfg[p.cluster]!.writeBytes(p.addr, data);
    }
  }
  if (chip.fabricAdapter)
    for (const r of image.dgramRings)
      chip.fabricAdapter.configureRing(r.cluster, r.queueId, { space: r.space, cluster: r.memCluster, address: r.address, entries: r.entries, tail: r.entries - 1 });
  chip.addEnqueueRecords(image.records);
  for (const a of image.hostActions)
    if (a.cluster >= chip.clusters) throw imageError(image.file, SimCodes.noEngine, `metadata.pyxis.host_actions: cluster ${a.cluster} is not simulated (see --clusters)`);
  chip.host.addActions(image.hostActions);
  chip.image = image;
  chip.observer.tripName = (id) => image.tripNames.get(id);
}
