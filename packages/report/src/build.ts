/** Assembles the document: the target's sections, then the kernel's engine figures and the trace's sections. */
import { engineSections, headerFacts } from './generic.js';
import { renderReport } from './html.js';
import type { ReportInput, ReportSection } from './model.js';
import { traceSections } from './html.js';
import type { TraceTrack } from './trace.js';

export interface BuildRequest extends ReportInput {
  /** The target's own sections (its report hook), first. */
  sections: ReportSection[];
  /** What the run's figures model, when the stats have no `model` field (the target's statement). */
  model?: string;
  /** Trace tracks the target's sections already draw (left out of the generic timeline). */
  skipTracks?: (t: TraceTrack) => boolean;
  /** Trace counters the target's sections already draw (left out of the generic counter charts). */
  skipCounters?: (name: string) => boolean;
  /** Leave out the generic engine bars (the target draws its own). */
  noEngineSection?: boolean;
}

export function buildReport(req: BuildRequest): string {
  const model = typeof req.stats['model'] === 'string' ? req.stats['model'] : (req.model ?? 'not stated by the target');
  const sections = [...req.sections];
  if (!req.noEngineSection) sections.push(...engineSections(req.stats, model));
  if (req.trace) sections.push(...traceSections(req.trace, { ...(req.skipTracks ? { skipTracks: req.skipTracks } : {}), ...(req.skipCounters ? { skipCounters: req.skipCounters } : {}) }));
  const target = typeof req.stats['target'] === 'string' ? req.stats['target'] : 'run';
  return renderReport({ title: `${target} run report${typeof req.stats['image'] === 'string' ? `: ${req.stats['image']}` : ''}`, facts: headerFacts(req.stats), model, sections });
}
