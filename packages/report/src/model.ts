/**
 * The report model: what a target gives the HTML run report (sections of charts as data) and what the report
 * package gives a target (the run's statistics and a bounded summary of its trace). Nothing here names a target:
 * each target's machine back end turns its own statistics into sections (`MachineBackend.report`).
 */
import type { TraceModel } from './trace.js';

export interface Series {
  name: string;
  /** [x, y] points in x order. */
  points: Array<[number, number]>;
}

export interface GanttSlice {
  start: number;
  end: number;
  label: string;
  /** Slices of one group share a colour (a trip name, an instruction kind). Default: the label. */
  group?: string;
}

export interface GanttTrack {
  name: string;
  slices: GanttSlice[];
}

/** A chart as data; rendered to inline SVG by svg.ts (no script, nothing fetched). */
export type Chart =
  | { kind: 'gantt'; title: string; unit: string; tracks: GanttTrack[]; note?: string }
  /** Step lines (counters hold their value), or straight lines through marked points (`style: 'points'`, sweeps). */
  | { kind: 'lines'; title: string; xLabel: string; yLabel: string; series: Series[]; yMax?: number; style?: 'step' | 'points'; note?: string }
  /** Horizontal stacked bars: one bar per category, one segment per series. */
  | { kind: 'bars'; title: string; unit: string; categories: string[]; series: Array<{ name: string; values: number[]; color?: string }>; note?: string }
  | { kind: 'heatmap'; title: string; rows: string[]; cols: string[]; values: number[][]; unit: string; xLabel?: string; max?: number; note?: string }
  /** Log-log roofline: attainable performance = min(peak, bandwidth x intensity) per roof; one dot per point. */
  | {
      kind: 'roofline';
      title: string;
      perfUnit: string;
      intensityUnit: string;
      roofs: Array<{ name: string; peak: number; bandwidth: number }>;
      points: Array<{ name: string; intensity: number; perf: number }>;
      note?: string;
    }
  | { kind: 'table'; title: string; headers: string[]; rows: Array<Array<string | number>>; note?: string };

export interface ReportSection {
  title: string;
  /** What the figures of this section model (cycle-level, transaction-level, cost model, functional). */
  model: string;
  charts: Chart[];
  notes?: string[];
}

/** What a target's report hook gets. */
export interface ReportInput {
  /** The run's statistics (the `--stats` JSON object). */
  stats: Record<string, unknown>;
  /** The run's trace, summarised and downsampled (trace.ts), when there is one. */
  trace?: TraceModel;
}

/** The whole document. */
export interface ReportDocument {
  title: string;
  /** Lines under the title (image, target, cycles). */
  facts: Array<[string, string]>;
  /** What the run's figures model, from the statistics' `model` field (or the target). */
  model: string;
  sections: ReportSection[];
}
