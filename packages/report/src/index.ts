export * from './model.js';
export { TraceCollector, collectTraceText, mergePairs, MAX_SLICES, MAX_POINTS, BINS } from './trace.js';
export type { TraceModel, TraceTrack, TraceSlice, TraceCounter, CounterSeries } from './trace.js';
export { renderChart, boundGantt, downsample, fmt, esc, MAX_GANTT_MARKS, MAX_GANTT_ROWS, MAX_LINE_POINTS } from './svg.js';
export { renderReport, traceSections, MAX_COUNTER_CHARTS } from './html.js';
export { engineSections, headerFacts } from './generic.js';
export { buildReport } from './build.js';
export { readResults, sweepSection, type ResultsTable, type Cell } from './sweep.js';
