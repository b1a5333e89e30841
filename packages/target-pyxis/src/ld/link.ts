/**
 * The linker: link script + objects + tensor files -> `.pimg` Container
 * (docs/image-layout.md, docs/linker.md). A driver over one LinkContext
 * (context.ts); each phase is a module:
 *   1. statements: regions, tensors, weight databases, config preloads, blobs,
 *      objects, queues and trips; DMA endpoints;
 *   2. microcode placement and MPE overlay patches (overlays.ts);
 *   3. the trip graph and barrier allocation (tripGraph.ts, barriers.ts);
 *   4. descriptor lists, allocation (first-fit, @pyxis/ld), config fields naming tensors;
 *   5. checks on placed objects (hazards.ts);
 *   6. descriptors, sections, metadata and map (tripDescriptors.ts, emit.ts).
 * Bad input throws DiagnosticError; nothing is written here (the CLI writes atomically).
 */
import type { Diagnostic } from '@pyxis/diagnostics';
import type { Container } from '@pyxis/container';
import { checkBtMemPreloads, resolveConfigFixups, declareConfig } from './configPreloads.js';
import { createLinkContext, type LinkOptions } from './context.js';
import { checkRdmaJobIds } from './rdmaChecks.js';
import { planDescriptorLists } from './descriptorLists.js';
import { buildImageAndMap, emitDataSections, emitMicrocode, ImageBuilder } from './emit.js';
import { checkFifoConsumers } from './fifoConsumers.js';
import { checkPlacedObjects } from './hazards.js';
import { declareBlobs, loadObjects } from './inputs.js';
import type { LinkMap } from './map.js';
import { addOverlayTrips, placeMicrocode } from './overlays.js';
import { allocate } from './placement.js';
import { checkDmaEndpoints, declareQueues } from './queues.js';
import { declareRegions } from './regions.js';
import { declareTensors } from './tensorStatements.js';
import { encodeDescriptors } from './tripDescriptors.js';
import { planTripGraph } from './tripGraph.js';
import { declareWeights } from './weightStatements.js';

export { countPatches, microPatch } from './microcode.js';
export type { AppliedRelocation, MicrocodePlacement } from './microcode.js';
export type { LinkInputObject, LinkOptions } from './context.js';
export { DEFAULT_LIST_DESCRIPTORS } from './descriptorLists.js';
export { toFloats } from './dataFiles.js';

export interface LinkResult {
  image: Container;
  map: LinkMap;
  /** Warnings (errors are thrown). */
  diagnostics: Diagnostic[];
}

export function link(opts: LinkOptions): LinkResult {
  const ctx = createLinkContext(opts);
  const { bag } = ctx;
  // 1. statements (order matters: regions before what they hold, tensors before what names them)
  declareRegions(ctx);
  declareTensors(ctx);
  declareWeights(ctx);
  declareConfig(ctx);
  declareBlobs(ctx);
  loadObjects(ctx);
  declareQueues(ctx);
  checkDmaEndpoints(ctx);
  // 2. microcode and overlay patches
  const mc = placeMicrocode(ctx);
  const extraDeps = addOverlayTrips(ctx, mc);
  // 3. barriers
  const graph = planTripGraph(ctx, extraDeps);
  checkBtMemPreloads(ctx, graph.plan.barriers, (i) => graph.plan.trips[i]!.name);
  checkRdmaJobIds(ctx, graph);
  // 4. memory
  const lists = planDescriptorLists(ctx, graph);
  bag.throwIfErrors();
  allocate(ctx.placements, bag);
  bag.throwIfErrors();
  resolveConfigFixups(ctx);
  // 5. checks that need addresses and the DAG
  checkPlacedObjects(ctx, graph);
  checkFifoConsumers(ctx);
  // 6. encode and emit
  const out = new ImageBuilder();
  const desc = encodeDescriptors(ctx, graph, mc, lists, out);
  emitDataSections(ctx, out);
  const programMeta = emitMicrocode(ctx, mc, desc.enq, out);
  const { image, map } = buildImageAndMap(ctx, graph, mc, lists, desc, programMeta, out);
  return { image, map, diagnostics: bag.items.filter((d) => d.severity !== 'error') };
}
