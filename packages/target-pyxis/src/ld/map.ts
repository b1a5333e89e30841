/**
 * Link map: GNU-ld-style text (`--map`) and the same data as JSON
 * (`--map-json`), so CI never regex-parses the text.
 */
import type { TensorInfo } from '@pyxis/container';
import { MapTextWriter, mapHex as hex, mapPad as pad } from '@pyxis/ld';
import type { AppliedRelocation } from './link.js';
import type { TensorQuantisation } from './quantReport.js';

export interface LinkMap {
  script: string;
  regions: Array<{ name: string; space: string; cluster: number; view: string; origin: number; length: number; used: number }>;
  sections: Array<{ name: string; kind: string; space: string; cluster: number; address: number; size: number; unhashed: boolean }>;
  symbols: Array<{ name: string; kind: string; address: number; size: number; space: string; cluster: number; tensor?: TensorInfo }>;
  barriers: Array<{ cluster: number; id: number; notify_count: number; wait_count: number; config_wait?: number; producers: string[]; consumers: string[] }>;
  /** Sequencer programs (PC in 32-word memories) and VPU programs (`seq` = `vpu`, `pc` = VPU instruction-memory address). */
  microcode: Array<{ cluster: number; uie: number; seq: string; program: string; pc: number; words: number; phase: number }>;
  /** Every relocation applied to placed microcode (sol_pc, vi_op.vpv_pgm_start_addr, ...). */
  relocations: AppliedRelocation[];
  lists: Array<{ cluster: number; queue_id: number; engine: string; section: string; space: string; address: number; engine_address: number; descriptors: number; bytes: number }>;
  trips: Array<{ cluster: number; queue_id: number; name: string; trip_id: number; kind: string; noop: boolean; wait: number; notify: number[] }>;
  weights: Array<{ name: string; kind: string; address: number; bytes: number; report: Record<string, unknown> }>;
  /** Float tensors converted to their element format: the error of the conversion (quantReport.ts). */
  quantisation: TensorQuantisation[];
  /** Tensor slices named by trips (slices.ts): the address a descriptor gets, the bytes it spans, the view's [C, H, W] and pitches. */
  slices: Array<{ trip: string; key: string; tensor: string; slice: string; address: number; bytes: number; shape: number[]; row_pitch: number; chan_pitch: number }>;
}

/** The map as JSON; non-finite numbers (an exact database's `snrDb`) become the strings "Infinity" / "-Infinity" / "NaN" instead of JSON's null. */
export function mapJson(m: LinkMap): string {
  return JSON.stringify(m, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v), 2) + '\n';
}

/** The map as GNU-ld-style text (@pyxis/ld MapTextWriter): one block per table of the map. */
export function mapText(m: LinkMap): string {
  const w = new MapTextWriter();
  w.line(`Link map of ${m.script}`);
  w.heading('Memory Configuration');
  w.row([['Name', 12], ['Space', 8], ['Cluster', 8], ['View', 10], ['Origin', 12], ['Length', 12], ['Used', 12]], 'Used%');
  for (const r of m.regions)
    w.row([[r.name, 12], [r.space, 8], [r.cluster < 0 ? '-' : String(r.cluster), 8], [r.space === 'amem' ? r.view : '-', 10], [hex(r.origin), 12], [hex(r.length), 12], [hex(r.used), 12]], `${((100 * r.used) / r.length).toFixed(2)}%`);
  w.heading('Sections');
  w.table(
    [['Name', 36], ['Kind', 12], ['Space', 8], ['Cl', 4], ['Address', 12]],
    'Size',
    [...m.sections].sort((a, b) => a.space.localeCompare(b.space) || a.cluster - b.cluster || a.address - b.address).map((s) => [[s.name, s.kind, s.space + (s.unhashed ? '/u' : ''), s.cluster < 0 ? '-' : String(s.cluster), hex(s.address)], hex(s.size)] as const),
  );
  w.heading('Symbols');
  for (const s of [...m.symbols].sort((a, b) => a.space.localeCompare(b.space) || a.cluster - b.cluster || a.address - b.address)) {
    const t = s.tensor ? `  ${s.tensor.format}${JSON.stringify(s.tensor.shape)} eb=${s.tensor.eb} strides=${JSON.stringify(s.tensor.strides ?? [])}` : '';
    w.row([['', 2], [hex(s.address), 12], [hex(s.size), 12], [s.kind, 8], [`${s.space}${s.cluster >= 0 ? ':' + s.cluster : ''}`, 8]], s.name + t);
  }
  w.heading('Descriptor lists');
  w.table(
    [['Cluster', 8], ['Queue', 17], ['Section', 22], ['Address', 18], ['Engine addr', 12], ['Count', 7]],
    'Bytes',
    m.lists.map((l) => [[String(l.cluster), `${l.engine}(${hex(l.queue_id, 2)})`, l.section, `${l.space}:${hex(l.address)}`, hex(l.engine_address), String(l.descriptors)], String(l.bytes)] as const),
  );
  w.heading('Trips');
  for (const t of m.trips) w.line(`  ${pad(String(t.trip_id), 6)}c${t.cluster} ${pad(t.kind, 8)} q${hex(t.queue_id, 2)} ${pad(t.name, 24)} wait=${t.wait} notify=[${t.notify.map((g) => `${g >> 10}:${g & 0x3ff}`).join(', ')}]${t.noop ? ' (no-op)' : ''}`);
  if (m.slices.length) {
    w.heading('Slices');
    w.row([['', 2], ['Trip', 16], ['Key', 8], ['Address', 12], ['Bytes', 10], ['Shape [C,H,W]', 18], ['Row pitch', 10]], 'Slice');
    for (const s of m.slices) w.row([['', 2], [s.trip, 16], [s.key, 8], [hex(s.address), 12], [hex(s.bytes), 10], [JSON.stringify(s.shape), 18], [String(s.row_pitch), 10]], s.tensor + s.slice);
  }
  w.heading('Barrier allocation');
  w.row([['Cluster', 8], ['Id', 6], ['Notify', 8], ['Wait', 6]], 'Producers -> Consumers');
  for (const b of m.barriers) w.row([[String(b.cluster), 8], [String(b.id), 6], [String(b.notify_count), 8], [String(b.wait_count), 6]], `${b.producers.join(', ')} -> ${b.consumers.join(', ')}${b.config_wait ? `  (id reused: configured after barrier ${b.config_wait})` : ''}`);
  if (m.weights.length) {
    w.heading('Weight databases');
    w.row([['', 2], ['Name', 20], ['Kind', 12], ['Address', 12], ['Size', 12]], 'Error against the float weights (relative errors over non-zero weights)');
    for (const x of m.weights) {
      const r = x.report;
      const n = (k: string) => (typeof r[k] === 'number' ? (r[k] as number) : undefined);
      let err = n('maxRelError') !== undefined ? `  eb=${n('eb') ?? 0} max_rel_err=${n('maxRelError')!.toExponential(3)} rms_rel_err=${n('rmsRelError')!.toExponential(3)} snr=${n('snrDb')!.toFixed(2)} dB` : '';
      if (n('flushedToZero')) err += ` flushed_to_zero=${n('flushedToZero')}`;
      if (n('saturated')) err += ` saturated=${n('saturated')}`;
      if (n('betaMaxRelError') !== undefined) err += ` beta_max_rel_err=${n('betaMaxRelError')!.toExponential(3)}`;
      w.row([['', 2], [x.name, 20], [x.kind, 12], [hex(x.address), 12], [hex(x.bytes), 12]], err);
    }
  }
  if (m.quantisation.length) {
    w.heading('Float tensors converted');
    w.row([['', 2], ['Name', 20], ['Format', 10], ['EB', 5], ['Elements', 10]], 'Error against the float data (relative errors over non-zero values)');
    for (const q of m.quantisation)
      w.row(
        [['', 2], [q.name, 20], [q.format, 10], [String(q.eb), 5], [String(q.elements), 10]],
        `max_rel_err=${q.max_rel_error.toExponential(3)} rms_rel_err=${q.rms_rel_error.toExponential(3)} snr=${q.snr_db.toFixed(2)} dB saturated=${q.saturated} flushed_to_zero=${q.flushed_to_zero}`,
      );
  }
  w.heading('Microcode placement');
  w.row([['Cluster', 8], ['UIE', 5], ['Sequencer', 20], ['PC', 5], ['Words', 7], ['Phase', 9]], 'Program');
  for (const p of m.microcode) w.row([[String(p.cluster), 8], [String(p.uie), 5], [p.seq, 20], [String(p.pc), 5], [String(p.words), 7], [p.phase ? `patch ${p.phase}` : 'preload', 9]], p.program);
  if (m.relocations.length) {
    w.heading('Relocations');
    w.row([['Cluster', 8], ['UIE', 5], ['Sequencer', 20], ['PC', 5], ['Mem', 5], ['Phase', 9], ['Kind', 36], ['Value', 7]], 'Symbol');
    for (const r of m.relocations) w.row([[String(r.cluster), 8], [String(r.uie), 5], [r.seq, 20], [String(r.pc), 5], [r.mem, 5], [r.phase ? `patch ${r.phase}` : 'preload', 9], [r.kind, 36], [String(r.value), 7]], r.symbol);
  }
  return w.text();
}
