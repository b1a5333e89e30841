/**
 * Link map: GNU-ld-style text (`--map`) and the same data as JSON
 * (`--map-json`), so CI never regex-parses the text.
 */
import type { TensorInfo } from '@pyxis/container';
import type { AppliedRelocation } from './link.js';

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
}

const hex = (n: number, w = 8) => '0x' + n.toString(16).padStart(w, '0');
const pad = (s: string, n: number) => (s.length >= n ? s + ' ' : s + ' '.repeat(n - s.length));

/** The map as JSON; non-finite numbers (an exact database's `snrDb`) become the strings "Infinity" / "-Infinity" / "NaN" instead of JSON's null. */
export function mapJson(m: LinkMap): string {
  return JSON.stringify(m, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v), 2) + '\n';
}

export function mapText(m: LinkMap): string {
  const out: string[] = [];
  out.push(`Link map of ${m.script}`, '');
  out.push('Memory Configuration', '');
  out.push(pad('Name', 12) + pad('Space', 8) + pad('Cluster', 8) + pad('View', 10) + pad('Origin', 12) + pad('Length', 12) + pad('Used', 12) + 'Used%');
  for (const r of m.regions)
    out.push(pad(r.name, 12) + pad(r.space, 8) + pad(r.cluster < 0 ? '-' : String(r.cluster), 8) + pad(r.space === 'amem' ? r.view : '-', 10) + pad(hex(r.origin), 12) + pad(hex(r.length), 12) + pad(hex(r.used), 12) + `${((100 * r.used) / r.length).toFixed(2)}%`);
  out.push('', 'Sections', '');
  out.push(pad('Name', 36) + pad('Kind', 12) + pad('Space', 8) + pad('Cl', 4) + pad('Address', 12) + 'Size');
  for (const s of [...m.sections].sort((a, b) => a.space.localeCompare(b.space) || a.cluster - b.cluster || a.address - b.address))
    out.push(pad(s.name, 36) + pad(s.kind, 12) + pad(s.space + (s.unhashed ? '/u' : ''), 8) + pad(s.cluster < 0 ? '-' : String(s.cluster), 4) + pad(hex(s.address), 12) + hex(s.size));
  out.push('', 'Symbols', '');
  for (const s of [...m.symbols].sort((a, b) => a.space.localeCompare(b.space) || a.cluster - b.cluster || a.address - b.address)) {
    const t = s.tensor ? `  ${s.tensor.format}${JSON.stringify(s.tensor.shape)} eb=${s.tensor.eb} strides=${JSON.stringify(s.tensor.strides ?? [])}` : '';
    out.push('  ' + pad(hex(s.address), 12) + pad(hex(s.size), 12) + pad(s.kind, 8) + pad(`${s.space}${s.cluster >= 0 ? ':' + s.cluster : ''}`, 8) + s.name + t);
  }
  out.push('', 'Descriptor lists', '');
  out.push(pad('Cluster', 8) + pad('Queue', 17) + pad('Section', 22) + pad('Address', 18) + pad('Engine addr', 12) + pad('Count', 7) + 'Bytes');
  for (const l of m.lists)
    out.push(pad(String(l.cluster), 8) + pad(`${l.engine}(${hex(l.queue_id, 2)})`, 17) + pad(l.section, 22) + pad(`${l.space}:${hex(l.address)}`, 18) + pad(hex(l.engine_address), 12) + pad(String(l.descriptors), 7) + l.bytes);
  out.push('', 'Trips', '');
  for (const t of m.trips) out.push(`  ${pad(String(t.trip_id), 6)}c${t.cluster} ${pad(t.kind, 8)} q${hex(t.queue_id, 2)} ${pad(t.name, 24)} wait=${t.wait} notify=[${t.notify.map((g) => `${g >> 10}:${g & 0x3ff}`).join(', ')}]${t.noop ? ' (no-op)' : ''}`);
  out.push('', 'Barrier allocation', '');
  out.push(pad('Cluster', 8) + pad('Id', 6) + pad('Notify', 8) + pad('Wait', 6) + 'Producers -> Consumers');
  for (const b of m.barriers) out.push(pad(String(b.cluster), 8) + pad(String(b.id), 6) + pad(String(b.notify_count), 8) + pad(String(b.wait_count), 6) + `${b.producers.join(', ')} -> ${b.consumers.join(', ')}${b.config_wait ? `  (id reused: configured after barrier ${b.config_wait})` : ''}`);
  if (m.weights.length) {
    out.push('', 'Weight databases', '');
    out.push('  ' + pad('Name', 20) + pad('Kind', 12) + pad('Address', 12) + pad('Size', 12) + 'Error against the float weights (relative errors over non-zero weights)');
    for (const w of m.weights) {
      const r = w.report;
      const n = (k: string) => (typeof r[k] === 'number' ? (r[k] as number) : undefined);
      let err = n('maxRelError') !== undefined ? `  eb=${n('eb') ?? 0} max_rel_err=${n('maxRelError')!.toExponential(3)} rms_rel_err=${n('rmsRelError')!.toExponential(3)} snr=${n('snrDb')!.toFixed(2)} dB` : '';
      if (n('flushedToZero')) err += ` flushed_to_zero=${n('flushedToZero')}`;
      if (n('saturated')) err += ` saturated=${n('saturated')}`;
      if (n('betaMaxRelError') !== undefined) err += ` beta_max_rel_err=${n('betaMaxRelError')!.toExponential(3)}`;
      out.push(`  ${pad(w.name, 20)}${pad(w.kind, 12)}${pad(hex(w.address), 12)}${pad(hex(w.bytes), 12)}${err}`);
    }
  }
  out.push('', 'Microcode placement', '');
  out.push(pad('Cluster', 8) + pad('UIE', 5) + pad('Sequencer', 20) + pad('PC', 5) + pad('Words', 7) + pad('Phase', 9) + 'Program');
  for (const p of m.microcode) out.push(pad(String(p.cluster), 8) + pad(String(p.uie), 5) + pad(p.seq, 20) + pad(String(p.pc), 5) + pad(String(p.words), 7) + pad(p.phase ? `patch ${p.phase}` : 'preload', 9) + p.program);
  if (m.relocations.length) {
    out.push('', 'Relocations', '');
    out.push(pad('Cluster', 8) + pad('UIE', 5) + pad('Sequencer', 20) + pad('PC', 5) + pad('Mem', 5) + pad('Phase', 9) + pad('Kind', 36) + pad('Value', 7) + 'Symbol');
    for (const r of m.relocations) out.push(pad(String(r.cluster), 8) + pad(String(r.uie), 5) + pad(r.seq, 20) + pad(String(r.pc), 5) + pad(r.mem, 5) + pad(r.phase ? `patch ${r.phase}` : 'preload', 9) + pad(r.kind, 36) + pad(String(r.value), 7) + r.symbol);
  }
  return out.join('\n') + '\n';
}
