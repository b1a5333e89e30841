/** The NeuronCore sections of the HTML run report (docs/report.md): engine activity and MFU; the timeline comes from the trace. */
import type { Chart, ReportInput, ReportSection } from '@pyxis/report';
import type { MachineReport } from '@pyxis/target';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : undefined);
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

export function neuroncoreReport(input: ReportInput): MachineReport {
  const s = input.stats;
  const charts: Chart[] = [];
  const engines = obj(s['engines']);
  const elapsed = num(s['elapsed_ns']);
  if (engines) {
    const names = Object.keys(engines);
    const e = (k: string, f: string) => num(obj(engines[k])?.[f]);
    charts.push({
      kind: 'bars',
      title: 'Engine time: active, waiting on semaphores, port conflicts',
      unit: 'ns',
      categories: names,
      series: [
        { name: 'active', values: names.map((k) => e(k, 'active_ns')), color: '#59a14f' },
        { name: 'semaphore wait', values: names.map((k) => e(k, 'semaphore_wait_ns')), color: '#f28e2b' },
        { name: 'port conflict', values: names.map((k) => e(k, 'port_conflict_ns')), color: '#e15759' },
      ],
      note: `elapsed ${elapsed.toFixed(0)} ns.`,
    });
    charts.push({ kind: 'table', title: 'Engines', headers: ['engine', 'instructions', 'utilisation'], rows: names.map((k) => [k, e(k, 'instructions'), `${(100 * e(k, 'utilization')).toFixed(1)}%`]) });
  }
  const mm = obj(s['matmul']);
  if (mm)
    charts.push({
      kind: 'bars',
      title: `MFU ${(100 * num(mm['mfu'])).toFixed(1)}%: achieved against peak TensorE TFLOPS`,
      unit: 'TFLOPS',
      categories: ['achieved', 'peak'],
      series: [{ name: 'TFLOPS', values: [num(mm['achieved_tflops']), num(mm['peak_tflops'])] }],
      note: typeof mm['note'] === 'string' ? mm['note'] : undefined,
    });
  const dma = obj(s['dma']);
  if (dma) charts.push({ kind: 'table', title: 'DMA', headers: ['queues used', 'bytes', 'GB/s'], rows: [[num(dma['queues_used']), num(dma['bytes']), num(dma['bandwidth_gbps'])]] });
  const sections: ReportSection[] = charts.length ? [{ title: 'Engines and MFU', model: typeof s['model'] === 'string' ? s['model'] : 'cost model', charts }] : [];
  return { sections, noEngineSection: true };
}
