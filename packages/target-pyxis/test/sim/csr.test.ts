/**
 * The CSRs of grammars/pyxis/memory_map.json (project-defined registers, docs/simulator.md "CSRs"): every documented
 * register acts or gives a diagnostic. Also the MPE 32-byte reg_size rule, which applies to CSR targets only (chip
 * §12.6.1.2: "Hardware imposes a maximum reg_size of 32 bytes for CSRs"), and the ICDMA plane mask (chip §11.4.5).
 */
import { describe, expect, it } from 'vitest';
import { DiagnosticError } from '@pyxis/diagnostics';
import { CSR_BT_MEM_DECREMENT, CSR_ENQUEUE, csrAt, defaultUieFactory, simulateImage, StringSink, uieCsr, uie as uieNs } from '@pyxis/target-pyxis/sim';
import { bytesOf, copyProgram, gid, ImageBuilder } from './pyxisImage.js';

const desc = ImageBuilder.desc;
const CFG = 0x4000_0000;
const hex = (n: number) => `0x${n.toString(16)}`;
const le64 = (v: number) => {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, BigInt(v), true);
  return b;
};
const csr = (name: string, i = 0, uie = 0) => uie * (1 << 20) + uieCsr(name).offset + i * uieCsr(name).stride;

function patch(target: number, regSize: number, elems: Uint8Array[]): Uint8Array {
  const pad = Math.ceil(regSize / 8) * 8;
  const out = new Uint8Array(8 + pad * elems.length);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, target, true);
  dv.setUint16(4, regSize - 1, true);
  dv.setUint16(6, elems.length - 1, true);
  elems.forEach((e, i) => out.set(e.subarray(0, regSize), 8 + i * pad));
  return out;
}

/** A copy program in UIE 0 and the CSRs of a CSR-launched trip (no descriptor queue involved). */
function csrTripImage(rows: number, actions: unknown[]) {
  const b = new ImageBuilder();
  b.data('amem', 0x10000, bytesOf(rows * 128, (i) => i * 5 + 1));
  for (const [off, bytes] of copyProgram(rows)) b.data('cfg', CFG + off, bytes);
  b.data('cfg', CFG + csr('csr.trip_valid_mask'), le64(0b11));
  b.data('cfg', CFG + csr('csr.amem_read_base'), le64(0x10000 >> 4));
  b.data('cfg', CFG + csr('csr.amem_write_base'), le64(0x20000 >> 4));
  b.metadata = { host_actions: actions };
  return b.build();
}

describe('UIE CSRs', () => {
  it('csr.trip_start launches a trip from the CSRs; seq_status / seq_pc / write_tracker read the live state', () => {
    const rows = 64;
    const status = hex(CFG + csr('csr.seq_status'));
    const vm = hex(CFG + csr('csr.trip_valid_mask'));
    const actions = [
      { cluster: 0, address: hex(CFG + csr('csr.trip_start')), value: '0x1', at_cycle: 10 },
      // software polls: AMEM Read busy (bit 0) while the trip runs, then AMEM Read and Write done (bits 13, 14)
      { cluster: 0, address: vm, value: '0x3', poll: { address: status, mask: '0x1', value: '0x1' } },
      { cluster: 0, address: vm, value: '0x3', poll: { address: status, mask: hex(0x3ffffff), value: hex(0b11 << 13) } },
    ];
    const trace = new StringSink();
    const { report, chip } = simulateImage(csrTripImage(rows, actions), 'csr.pimg', { uies: 1, uieFactory: defaultUieFactory, trace });
    expect(report.stop).toBe('done');
    expect(chip.host.actionsDone).toBe(3);
    expect(report.trips_by_kind).toEqual({ uie: 1 });
    // the trip starts in the cycle of the CSR write (no barrier wait, no descriptor, no launch latency)
    const t = JSON.parse(trace.text) as { traceEvents: Array<Record<string, unknown>> };
    const slice = t.traceEvents.find((e) => e['ph'] === 'X' && e['cat'] === 'trip')!;
    expect((slice['args'] as Record<string, unknown>)['start_cycle']).toBe(10);
    expect(chip.amem[0]!.readBytes(0x20000, rows * 128)).toEqual(bytesOf(rows * 128, (i) => i * 5 + 1));
    // reads after the run: through the cfg window (the path of MPE reads and --dump-region cfg)
    const cfg = chip.cfg[0]!;
    expect(cfg.read64(csr('csr.seq_status'))).toBe(BigInt(0b11 << 13));
    const m = chip.uies[0]!.model as InstanceType<typeof uieNs.Uie>;
    for (let s = 0; s < 13; s++) expect(cfg.read64(csr('csr.seq_pc', s))).toBe(BigInt(m.seqs[s]!.core.pc));
    expect(cfg.read64(csr('csr.write_tracker', 0))).toBe(0n);
    expect(cfg.read64(csr('csr.trip_start'))).toBe(0n); // write-only
    expect(cfg.read64(CSR_ENQUEUE)).toBe(0n); // write-only cluster CSRs too
    expect(report.warnings.filter((w) => /SIM003/.test(w.code ?? ''))).toEqual([]);
  });

  it('an MPE DMA-mode trip reads the live registers (chip §12.6.2): seq_status after a descriptor UIE trip', () => {
    const rows = 16;
    const b = new ImageBuilder();
    b.data('amem', 0x10000, bytesOf(rows * 128, (i) => i));
    for (const [off, bytes] of copyProgram(rows)) b.data('cfg', CFG + off, bytes);
    b.list(0x22, 0x1000, [desc('desc_barrier_config', { barrier_id: 1, notify_count: 1, wait_count: 1 })]);
    b.list(0x00, 0x1100, [desc('desc_uie', { trip_valid_mask: 0b11, amem_read_base_address: 0x10000 >> 4, amem_write_base_address: 0x20000 >> 4, notify_list: [gid(0, 1)], trip_id: 2 })]);
    // 16 bytes from csr.seq_status (and the next word, seq_pc[0]) into AMEM 0x6000, once the UIE trip is done
    b.list(0x21, 0x1200, [desc('desc_mpe_dma', { source_address: CFG + csr('csr.seq_status'), target_address: 0x6000, length: 2, mode: 1, wait_barrier_id: 1, trip_id: 3 })]);
    const { report, chip } = simulateImage(b.build(), 'mpe-read.pimg', { uies: 1, uieFactory: defaultUieFactory });
    expect(report.stop).toBe('done');
    const got = chip.amem[0]!.readBytes(0x6000, 16);
    const dv = new DataView(got.buffer);
    // AMEM Read (id 0) and AMEM Write (id 1) done, nothing busy (seq §3 via memory_map.json csr.seq_status)
    expect(dv.getUint32(0, true)).toBe(0b11 << 13);
    const m = chip.uies[0]!.model as InstanceType<typeof uieNs.Uie>;
    expect(dv.getUint32(8, true)).toBe(m.seqs[0]!.core.pc);
    expect(report.warnings.filter((w) => w.code === 'SIM0033')).toEqual([]);
  });

  it('CSR-launched trips and software polls give the same results at every --quantum', () => {
    const status = hex(CFG + csr('csr.seq_status'));
    const vm = hex(CFG + csr('csr.trip_valid_mask'));
    const actions = [
      { cluster: 0, address: hex(CFG + csr('csr.trip_start')), value: '0x1', at_cycle: 3 },
      { cluster: 0, address: vm, value: '0x3', poll: { address: status, mask: hex(0x3ffffff), value: hex(0b11 << 13) } },
      { cluster: 0, address: hex(CFG + csr('csr.trip_start')), value: '0x1' },
    ];
    const runs = [1, 7, 256].map((quantum) => simulateImage(csrTripImage(200, actions), 'q.pimg', { uies: 1, uieFactory: defaultUieFactory, quantum }).report);
    for (const r of runs) {
      expect(r.stop).toBe('done');
      expect(r.trips_by_kind).toEqual({ uie: 2 });
      expect(r.cycles).toBe(runs[0]!.cycles);
      expect(r.warnings).toEqual(runs[0]!.warnings);
    }
  });

  it('a write to a read-only CSR is ignored with SIM0030 once per register; the compute registers read the hardware state', () => {
    const actions = [
      { cluster: 0, address: hex(CFG + csr('csr.seq_status')), value: '0xfff' },
      { cluster: 0, address: hex(CFG + csr('csr.seq_status')), value: '0xfff' },
      { cluster: 0, address: hex(CFG + csr('csr.hbuf_wr_credits')), value: '0x80' },
      { cluster: 0, address: hex(CFG + csr('csr.hbuf_wr_credits')), value: '0x40' },
      { cluster: 0, address: hex(CFG + csr('csr.vbuf_wr_ptr', 3)), value: '0x7' },
      // bt_mem_decrement[5] { notif_decr } (write-only, chip §11.6.6)
      { cluster: 0, address: hex(CFG + CSR_BT_MEM_DECREMENT + 5 * 8), value: '0x2' },
    ];
    const { report, chip } = simulateImage(csrTripImage(1, actions), 'ro.pimg', { uies: 1, uieFactory: defaultUieFactory });
    expect(report.stop).toBe('done');
    expect(chip.cfg[0]!.read64(csr('csr.seq_status'))).toBe(0n); // the sequencers' state, not 0xfff
    // seq §9.1.5: "The credits are initialized to the full hbuf size by hardware": 4 KiB per grid-row = 256 x 16 bytes
    expect(chip.cfg[0]!.read64(csr('csr.hbuf_wr_credits'))).toBe(256n);
    expect(chip.cfg[0]!.read64(csr('csr.vbuf_wr_ptr', 3))).toBe(0n);
    expect(chip.barriers[0]!.notifyCount[5]).toBe(-1);
    expect(chip.cfg[0]!.read64(CSR_BT_MEM_DECREMENT + 5 * 8)).toBe(0n); // write-only: reads as 0
    const w = report.warnings.filter((d) => d.code === 'SIM0030' || d.code === 'SIM0031');
    expect(w.map((d) => [d.code, d.message.match(/csr\.\w+/)![0]]).sort()).toEqual([
      ['SIM0030', 'csr.hbuf_wr_credits'],
      ['SIM0030', 'csr.seq_status'],
      ['SIM0030', 'csr.vbuf_wr_ptr'],
    ]);
    expect(w.find((d) => d.message.includes('csr.hbuf_wr_credits'))!.spec).toMatch(/§9\.1\.5/);
  });

  it('every documented per-UIE CSR is implemented (no SIM0031 "not modelled" register is left)', () => {
    const names = ['csr.seq_start_pc', 'csr.trip_valid_mask', 'csr.amem_read_base', 'csr.amem_weights_base', 'csr.amem_write_base', 'csr.itfe_cmd_idx', 'csr.trip_start', 'csr.seq_status', 'csr.seq_pc', 'csr.write_tracker', 'csr.convert_mode'];
    const compute = ['csr.hbuf_wr_base', 'csr.hbuf_rd_base', 'csr.hbuf_wr_credits', 'csr.hbuf_rd_credits', 'csr.wb_credits', 'csr.vbuf_wr_ptr', 'csr.vbuf_rd_ptr', 'csr.vbuf_scratchpad_count', 'csr.vpu_cntr'];
    for (const n of [...names, ...compute]) expect(csrAt(uieCsr(n).offset)!.region.name).toBe(n);
    for (const n of compute) expect(uieCsr(n).access).toBe('ro'); // maintained by hardware (seq §9.1.4 ... §13.2)
    const actions = compute.map((n) => ({ cluster: 0, address: hex(CFG + csr(n, 0, 1)), value: '0x1' }));
    const { report } = simulateImage(csrTripImage(1, actions), 'all.pimg', { uies: 2, uieFactory: defaultUieFactory });
    expect(report.warnings.filter((d) => d.code === 'SIM0031')).toEqual([]);
    expect(report.warnings.filter((d) => d.code === 'SIM0030').map((d) => d.message.match(/csr\.\w+/)![0]).sort()).toEqual([...compute].sort());
  });
});

describe('MPE reg_size limit applies to CSR targets only (chip §12.6.1.2)', () => {
  const run = (target: number, regSize: number) => {
    const b = new ImageBuilder();
    const blob = patch(CFG + target, regSize, [bytesOf(regSize, (i) => i + 1)]);
    b.data('amem', 0x2000, blob);
    b.list(0x15, 0x1000, [desc('desc_mpe_patch', { blob_address: 0x2000, blob_length: blob.length / 8, num_patches: 1, mode: 0, trip_id: 5 })]);
    return simulateImage(b.build(), 'p.pimg');
  };
  it('a 96-byte rcsw_entry is one element of a configuration table', () => {
    const rcsw = 53248; // memory_map.json rcsw.config offset (UIE 0)
    const { report, chip } = run(rcsw, 96);
    expect(report.stop).toBe('done');
    expect(chip.cfg[0]!.readBytes(rcsw, 96)).toEqual(bytesOf(96, (i) => i + 1));
  });
  it('a 40-byte element written at a CSR is rejected (SIM0006)', () => {
    let err: unknown;
    try {
      run(csr('csr.seq_start_pc'), 40);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DiagnosticError);
    expect((err as DiagnosticError).diagnostics[0]!.code).toBe('SIM0006');
    expect((err as DiagnosticError).diagnostics[0]!.message).toMatch(/32-byte CSR maximum/);
  });
});

describe('ICDMA core_switch_plane_mask (chip §11.4.5)', () => {
  const run = (masks: number[]) => {
    const b = new ImageBuilder();
    b.list(0x12, 0x1100, masks.map((m, i) => desc('desc_icdma', { amem_source_start_address: 0x20000 >> 7, amem_dest_start_address: 0x30000 >> 7, length: 16, core_switch_plane_mask: m, notify_list: [gid(0, 0)], trip_id: i + 1 })));
    return simulateImage(b.build(), 'ic.pimg', { clusters: 2 }).report;
  };
  it('a mask other than 0xf is not modelled: one warning per engine, timing as with all planes', () => {
    const all = run([0xf, 0xf]);
    const narrow = run([0x3, 0x1]);
    expect(all.warnings.filter((d) => d.code === 'SIM0032')).toEqual([]);
    const w = narrow.warnings.filter((d) => d.code === 'SIM0032');
    expect(w).toHaveLength(1);
    expect(w[0]!.message).toMatch(/core_switch_plane_mask 0x3 is not modelled/);
    expect(narrow.cycles).toBe(all.cycles);
  });
});
