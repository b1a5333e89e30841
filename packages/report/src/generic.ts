/**
 * Sections any run's statistics give without knowing the machine: the kernel's per-engine busy / stall / idle
 * cycles and stall reasons (`engines[]` of the stats JSON, @pyxis/sim), and the document's header facts.
 */
import type { Chart, ReportSection } from './model.js';
import { fmt } from './svg.js';

interface EngineStats {
  name: string;
  busy: number;
  stall: number;
  idle: number;
  stall_reasons?: Record<string, number>;
}

function isEngine(e: unknown): e is EngineStats {
  const o = e as Record<string, unknown>;
  return typeof o === 'object' && o !== null && typeof o['name'] === 'string' && typeof o['busy'] === 'number' && typeof o['stall'] === 'number' && typeof o['idle'] === 'number';
}

/** Busy/stall/idle bars and stall reasons per engine, from a kernel `engines` list (none when absent). */
export function engineSections(stats: Record<string, unknown>, model: string): ReportSection[] {
  const list = Array.isArray(stats['engines']) ? stats['engines'].filter(isEngine) : [];
  if (!list.length) return [];
  const shown = list.filter((e) => e.busy + e.stall > 0);
  const charts: Chart[] = [
    {
      kind: 'bars',
      title: 'Cycles per engine: busy, stalled, idle',
      unit: 'cycles',
      categories: shown.map((e) => e.name),
      series: [
        { name: 'busy', values: shown.map((e) => e.busy), color: '#59a14f' },
        { name: 'stall', values: shown.map((e) => e.stall), color: '#f28e2b' },
        { name: 'idle', values: shown.map((e) => e.idle), color: '#d9d9d9' },
      ],
      note: list.length > shown.length ? `${list.length - shown.length} engines never busy nor stalled are left out.` : undefined,
    },
  ];
  const reasons = [...new Set(shown.flatMap((e) => Object.keys(e.stall_reasons ?? {})))];
  const stalled = shown.filter((e) => e.stall > 0);
  if (reasons.length && stalled.length)
    charts.push({
      kind: 'bars',
      title: 'Stall cycles per engine by reason',
      unit: 'cycles',
      categories: stalled.map((e) => e.name),
      series: reasons.map((r) => ({ name: r, values: stalled.map((e) => e.stall_reasons?.[r] ?? 0) })),
    });
  return [{ title: 'Engines', model, charts }];
}

/** Header facts: image, target, cycles, clock, host time (whatever the stats have). */
export function headerFacts(stats: Record<string, unknown>): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  const add = (k: string, v: unknown, f = (x: unknown) => String(x)) => {
    if (v !== undefined && v !== null) out.push([k, f(v)]);
  };
  add('image', stats['image']);
  add('target', stats['target']);
  add('stop', stats['stop']);
  add('cycles', stats['cycles'], (v) => (typeof v === 'number' ? v.toLocaleString('en-US') : String(v)));
  add('clock', stats['clock_hz'], (v) => `${fmt(Number(v))}Hz`);
  add('host seconds', stats['host_seconds']);
  return out;
}
