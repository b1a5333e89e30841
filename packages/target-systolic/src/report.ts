/** The systolic sections of the HTML run report (docs/report.md): cycles and MAC efficiency per segment (layer), time per unit, DRAM time. */
import type { Chart, ReportInput, ReportSection } from '@pyxis/report';
import type { MachineReport } from '@pyxis/target';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : undefined);
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

export function systolicReport(input: ReportInput): MachineReport {
  const s = input.stats;
  const charts: Chart[] = [];
  const n = num(obj(s['arch'])?.['array_size']);
  const segments = (Array.isArray(s['segments']) ? s['segments'] : []).map(obj).filter((x): x is Obj => !!x);
  if (segments.length) {
    const names = segments.map((g) => `pc ${num(g['first_pc'])}-${num(g['last_pc'])}`);
    charts.push({ kind: 'bars', title: 'Cycles per layer (segment)', unit: 'cycles', categories: names, series: [{ name: 'cycles', values: segments.map((g) => num(g['cycles'])) }], note: typeof s['segments_note'] === 'string' ? s['segments_note'] : undefined });
    if (n > 0)
      charts.push({
        kind: 'bars',
        title: 'MAC efficiency per layer (MACs / (cycles x array_size²))',
        unit: 'MAC efficiency',
        categories: names,
        series: [{ name: 'efficiency', values: segments.map((g) => (num(g['cycles']) > 0 ? num(g['macs']) / (num(g['cycles']) * n * n) : 0)) }],
        note: `array ${n}x${n}; whole run: ${(100 * num(s['mac_efficiency'])).toFixed(2)}%.`,
      });
  }
  const units = obj(s['cycles_by_unit']);
  if (units) charts.push({ kind: 'bars', title: 'Cycles by unit (DRAM time included)', unit: 'cycles', categories: Object.keys(units), series: [{ name: 'cycles', values: Object.values(units).map(num) }], note: `DRAM: ${num(units['dram'])} of ${num(s['cycles'])} cycles (${num(s['cycles']) > 0 ? ((100 * num(units['dram'])) / num(s['cycles'])).toFixed(1) : 0}%).` });
  const mix = obj(s['instruction_mix']);
  if (mix)
    charts.push({
      kind: 'table',
      title: 'Instruction mix',
      headers: ['instruction', 'count', 'cycles'],
      rows: Object.entries(mix).map(([k, v]) => [k, num(obj(v)?.['count']), num(obj(v)?.['cycles'])]),
    });
  const sections: ReportSection[] = charts.length ? [{ title: 'Layers and units', model: typeof s['model'] === 'string' ? s['model'] : 'analytic per-instruction cycle model', charts }] : [];
  return { sections };
}
