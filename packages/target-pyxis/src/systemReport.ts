/**
 * The HTML run report of a Pyxis system (docs/report.md "Systems", docs/system.md): from a system run's stats
 * (`chips[]`, `links[]`, `fabric`, `failed_jobs[]`, systemMachine.ts) and its trace (one process per chip,
 * systemTrace.ts): a chip x time utilisation heatmap, per-chip fabric pipe utilisation, per-link bytes,
 * utilisation and grant waits, fabric totals and failed RDMA jobs.
 */
import type { Chart, ReportInput, ReportSection } from '@pyxis/report';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : undefined);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** Columns of the chip x time heatmap. */
export const SYSTEM_TIME_COLUMNS = 48;

/** Whether `stats` are a system run's (systemMachine.ts). */
export function isSystemStats(stats: Obj): boolean {
  return Array.isArray(stats['links']) && Array.isArray(stats['chips']) && !!obj(stats['fabric']);
}

/**
 * Busy fraction of each chip's engine tracks per time column: the trace's per-track busy histogram (exact, trace.ts)
 * redistributed onto a common grid, summed over the chip's engine tracks (not its `fabric` pipe tracks), divided by
 * the number of those tracks and the column width. 1 = every engine track of the chip busy the whole column.
 */
function chipHeatmap(input: ReportInput, chips: number): Chart | undefined {
  const trace = input.trace;
  if (!trace) return undefined;
  const tracks = trace.tracks.filter((t) => /^chip\d+$/.test(t.process) && !t.name.startsWith('fabric '));
  const end = Math.max(0, ...trace.tracks.map((t) => t.busy.length * t.binWidth), ...trace.tracks.flatMap((t) => t.slices.map((s) => s.end)));
  if (!tracks.length || !(end > 0)) return undefined;
  const w = end / SYSTEM_TIME_COLUMNS;
  const busy = Array.from({ length: chips }, () => new Float64Array(SYSTEM_TIME_COLUMNS));
  const count = new Array<number>(chips).fill(0);
  for (const t of tracks) {
    const k = Number(t.process.slice(4));
    if (!(k < chips)) continue;
    count[k]!++;
    const row = busy[k]!;
    // spread each bin's busy time over the columns it overlaps, in proportion to the overlap
    for (let i = 0; i < t.busy.length; i++) {
      const b = t.busy[i]!;
      if (b <= 0) continue;
      const a0 = i * t.binWidth;
      const a1 = a0 + t.binWidth;
      for (let c = Math.floor(a0 / w); c < SYSTEM_TIME_COLUMNS && c * w < a1; c++) {
        const ov = Math.min(a1, (c + 1) * w) - Math.max(a0, c * w);
        if (ov > 0) row[c]! += (b * ov) / t.binWidth;
      }
    }
  }
  return {
    kind: 'heatmap',
    title: 'Chips over time: engine utilisation (busy engine tracks / engine tracks)',
    rows: busy.map((_, k) => `chip${k}`),
    cols: Array.from({ length: SYSTEM_TIME_COLUMNS }, (_, c) => (c * w).toFixed(2)),
    values: busy.map((r, k) => [...r].map((v) => (count[k] ? Math.min(1, v / (count[k]! * w)) : 0))),
    unit: 'busy fraction',
    xLabel: 'time (µs, column start)',
    max: 1,
    note: `${SYSTEM_TIME_COLUMNS} columns of ${w.toFixed(3)} µs; a chip's row averages its engine tracks of the trace (trips, DMA, the fabric adapter's job tracks; not the wire's pipe tracks, which are in the links section). Needs --trace data (the report of a run with --report collects it).`,
  };
}

/** The system sections of the report. */
export function systemSections(input: ReportInput): ReportSection[] {
  const stats = input.stats;
  const chips = arr(stats['chips']).map(obj).filter((c): c is Obj => !!c);
  const links = arr(stats['links']).map(obj).filter((l): l is Obj => !!l);
  const fabric = obj(stats['fabric']) ?? {};
  const cycles = num(stats['cycles']);
  const out: ReportSection[] = [];
  const chipCharts: Chart[] = [];
  const hm = chipHeatmap(input, chips.length);
  if (hm) chipCharts.push(hm);
  const fo = chips.map((c) => arr(obj(c['fabric'])?.['fo_utilization']).map(num));
  const fi = chips.map((c) => arr(obj(c['fabric'])?.['fi_utilization']).map(num));
  const mean = (v: number[]) => (v.length ? v.reduce((a, b) => a + b, 0) / v.length : 0);
  if (chips.length)
    chipCharts.push({
      kind: 'bars',
      title: 'Fabric pipes per chip: mean FO (egress) and FI (ingress) utilisation',
      unit: 'busy fraction',
      categories: chips.map((_, k) => `chip${k}`),
      series: [
        { name: 'FO (to the fabric)', values: fo.map(mean) },
        { name: 'FI (from the fabric)', values: fi.map(mean) },
      ],
      note: 'busy cycles of each pipe / run cycles, averaged over the chip\'s pipes (chip §5.3: 4 pipes each direction); cell-exact occupancy.',
    });
  if (chips.length)
    chipCharts.push({
      kind: 'table',
      title: 'Chips',
      headers: ['chip', 'trips', 'stop', 'FO util. (mean)', 'FI util. (mean)'],
      rows: chips.map((c, k) => [`chip${k}`, num(c['trips_total']), String(c['stop'] ?? ''), mean(fo[k]!).toFixed(4), mean(fi[k]!).toFixed(4)]),
    });
  // the fabric adapter's counters (chips[k].fabric_adapter, docs/system.md; chip §10.9 is TBD: the project's set)
  const adapterRows = chips.flatMap((c, k) =>
    arr(obj(c['fabric_adapter'])?.['clusters']).map(obj).filter((x): x is Obj => !!x).map((x) => {
      const drops = Object.values(obj(x['rx_drops']) ?? {}).reduce((a: number, b) => a + num(b), 0);
      return [`chip${k}.c${num(x['cluster'])}`, num(x['tx_jobs_completed']), num(x['tx_jobs_failed']), num(x['tx_retries']), num(x['tx_pages']), num(x['rx_jobs_completed']), num(x['rx_jobs_failed']), num(x['rx_pages']), num(x['rx_nacks_sent']), num(x['rx_cts_retries']), drops, num(x['qpages_max']), num(x['xoff_cycles'])];
    }),
  );
  if (adapterRows.length)
    chipCharts.push({
      kind: 'table',
      title: 'Fabric adapter per cluster',
      headers: ['cluster', 'Tx jobs done', 'Tx failed', 'Tx retries', 'Tx data pages', 'Rx jobs done', 'Rx failed', 'Rx data pages', 'NACKs sent', 'CTS retries', 'Rx drops', 'QPages max', 'XOFF cycles'],
      rows: adapterRows,
      note: 'counters of the fabric adapter (chip §10.7-10.8; §10.9 is TBD, the set is the project\'s: docs/system.md `fabric_adapter`). Retries and NACKs are the reliable transport of §10.3.1 at work.',
    });
  if (chipCharts.length) out.push({ title: 'Chips of the system', model: 'each chip cycle-level as in a single-chip run; pipe occupancy from the wire model (transaction-level per page, cell-exact)', charts: chipCharts });
  const linkCharts: Chart[] = [];
  if (links.length) {
    const name = (l: Obj) => `chip${num(l['src'])} → chip${num(l['dst'])}`;
    linkCharts.push({
      kind: 'bars',
      title: 'Links: utilisation (busy pipe cycles / (run cycles x pipes))',
      unit: 'busy fraction',
      categories: links.map(name),
      series: [{ name: 'utilisation', values: links.map((l) => num(l['utilization'])) }],
    });
    linkCharts.push({
      kind: 'table',
      title: 'Links',
      headers: ['link', 'pages', 'bytes', 'cells', 'busy pipe cycles', 'utilisation', 'grant wait cycles'],
      rows: links.map((l) => [name(l), num(l['pages']), num(l['bytes']), num(l['cells']), num(l['busyCycles']), num(l['utilization']).toFixed(4), num(l['grant_wait_cycles'])]),
      note: 'grant wait: cycles the link\'s pages waited at the destination\'s output queues for a grant (request/grant model, docs/system.md).',
    });
  }
  linkCharts.push({
    kind: 'table',
    title: 'Fabric totals',
    headers: ['figure', 'value'],
    rows: [
      ['run cycles', cycles],
      ['pages', num(fabric['pages'])],
      ['bytes on the wire', num(fabric['bytes'])],
      ['cells', num(fabric['cells'])],
      ['RTT (cycles)', num(fabric['rtt_cycles'])],
      ['one-way latency (cycles)', num(fabric['one_way_cycles'])],
      ['partition windows', num(fabric['windows'])],
      ['injected faults: dropped', num(fabric['faults_dropped'])],
      ['injected faults: corrupted', num(fabric['faults_corrupted'])],
      ['Rx drops (pages and datagrams)', Object.values(obj(stats['rx_drops']) ?? {}).reduce((a: number, b) => a + num(b), 0)],
    ],
  });
  const failed = arr(stats['failed_jobs']).map(obj).filter((f): f is Obj => !!f);
  if (failed.length)
    linkCharts.push({
      kind: 'table',
      title: 'Failed RDMA jobs (chip §10.7.1.2, §10.8.1.2)',
      headers: ['chip', 'cluster', 'side', 'TJID', 'RJID', 'cycle', 'reason', 'recovered'],
      rows: failed.map((f) => [num(f['chip']), num(f['cluster']), String(f['side']), num(f['tjid']), num(f['rjid']), num(f['cycle']), String(f['reason']), f['recovered'] ? 'yes' : 'no']),
    });
  out.push({ title: 'Fabric links', model: 'the wire: transaction-level per page with cell-exact pipe occupancy and a request/grant handshake (docs/timing-model.md "Fabric (wire)")', charts: linkCharts });
  return out;
}
