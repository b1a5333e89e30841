/** The XNU sections of the HTML run report (docs/report.md): the FSM phases and the jobs, from the stats JSON. */
import type { Chart, ReportInput, ReportSection } from '@pyxis/report';
import type { MachineReport } from '@pyxis/target';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : undefined);
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

export function xnuReport(input: ReportInput): MachineReport {
  const s = input.stats;
  const charts: Chart[] = [];
  const phases = obj(s['phase_cycles']);
  if (phases) charts.push({ kind: 'bars', title: 'Cycles per controller phase (all jobs)', unit: 'cycles', categories: Object.keys(phases), series: [{ name: 'cycles', values: Object.values(phases).map(num) }] });
  const clock = num(s['clock_hz']) || 1e8;
  const jobs = (Array.isArray(s['jobs']) ? s['jobs'] : []).map(obj).filter((j): j is Obj => !!j);
  if (jobs.length) {
    charts.push({
      kind: 'gantt',
      title: 'Jobs',
      unit: 'µs',
      tracks: [{ name: 'PEx8', slices: jobs.map((j) => ({ start: (num(j['start_cycle']) / clock) * 1e6, end: (num(j['end_cycle']) / clock) * 1e6, label: String(j['name']), group: String(j['op_type'] ?? j['name']) })) }],
    });
    charts.push({
      kind: 'table',
      title: 'Jobs',
      headers: ['job', 'op', 'vectors', 'vector length', 'cycles per beat', 'cycles', 'vectors/s'],
      rows: jobs.map((j) => [String(j['name']), String(j['op_type']), num(j['num_vectors']), num(j['vec_len']), num(j['cycles_per_beat']), num(j['end_cycle']) - num(j['start_cycle']), num(j['vectors_per_second'])]),
    });
  }
  const sections: ReportSection[] = charts.length ? [{ title: 'Phases and jobs', model: typeof s['model'] === 'string' ? s['model'] : 'cycle-level controller FSM (spec phase cycle table)', charts }] : [];
  return { sections };
}
