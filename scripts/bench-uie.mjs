#!/usr/bin/env node
// UIE sequencer/datapath throughput: a busy copy trip (AMEM Read -> switchbox -> AMEM Write)
// on one UIE and on 48 UIEs, in simulated UIE-cycles per CPU-second of this process; small trips; the bare sequencer core.
// `fastPaths: false` shows the general datapath path (every flit converted and switched) for comparison.
// Run after `npx tsc -b`: node scripts/bench-uie.mjs
import { encode, loadGrammarJson, loadTable } from '../packages/codec/dist/index.js';
import { uie as U, amem as A } from '../packages/target-pyxis/dist/sim/index.js';

const mm = loadGrammarJson('pyxis', 'memory_map');
class FlatCfg {
  mem = new Uint8Array(1 << 17);
  generation = 0;
  read(addr, dst, off, len) { dst.set(this.mem.subarray(addr, addr + len), off); }
  write(addr, data) { this.mem.set(data, addr); this.generation++; }
}
function prog(cfg, name, pc, control, op) {
  const s = mm.sequencers.find((q) => q.name === name);
  cfg.write(s.control.offset + pc * s.control.stride, encode(loadTable('pyxis', s.control.table), control));
  cfg.write(s.op.offset + pc * s.op.stride, encode(loadTable('pyxis', s.op.table), op));
}
const loops = (n1, n0) => ({ eopgm: 1, iter0_is_eol: 1, iter0_numloops: n0, iter1_is_eol: 1, iter1_numloops: n1 });

const tripFor = (writeBase) => ({
  trip_id: 1, trip_valid_mask: 3, start_pc: new Array(13).fill(0), amem_read_base_address: 0, amem_weights_base_address: 0,
  amem_write_base_address: writeBase, amem_read_bank_hash_dsbl: 0, amem_write_bank_hash_dsbl: 0, amem_weights_bank_hash_dsbl: 0,
  amem_read_indirect_vld: 0, amem_write_indirect_vld: 0, amem_read_indirect_cmd_index: 0, amem_write_indirect_cmd_index: 0,
});

/** One UIE (or `nUie` UIEs of one cluster-sized group sharing an AMEM) running the same busy copy trip; best of `runs`. */
function copyBench(label, dtype, rows, reps, { nUie = 1, runs = 3, fastPaths = true, ebAdj = 0, quiet = false, quantum = 1 } = {}) {
  let best;
  for (let run = 0; run < runs; run++) {
    const amems = [];
    const uies = [];
    let done = 0;
    for (let i = 0; i < nUie; i++) {
      // 12 UIEs per cluster share one AMEM (chip §6); each UIE has its own cfg space block
      if (i % 12 === 0) amems.push(new A.Amem(`c${i / 12}.amem`));
      const cfg = new FlatCfg();
      const u = new U.Uie({ cluster: Math.floor(i / 12), index: 0, amem: amems[amems.length - 1], cfg, writeCommitLatency: 100, fastPaths, onTripDone: () => done++ });
      const wide = dtype.includes('16');
      const st = [0, wide ? 16 : 8, 0, 0, 0, 0];
      prog(cfg, 'amem_read', 0, loops(rows, reps), { opcd: 'Read_SRAM', data_type: dtype, tgt_fifo: 'AMEM_write', iter_stride: st });
      prog(cfg, 'amem_write', 0, loops(rows, reps), { opcd: 'Write', data_type: dtype, src_fifo: 'AMEM_read', eb_adj: ebAdj, iter_stride: st });
      uies.push(u);
    }
    let now = 0;
    const c0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    uies.forEach((u, i) => u.startTrip(tripFor(0x100000 + (i % 12) * 0x10000)));
    let busy = nUie;
    if (quantum > 1) {
      // temporal decoupling (Uie.runAhead, docs/simulator.md "Quantum"): each UIE runs a window of `quantum` cycles alone
      const ring = new Uint8Array(quantum);
      const local = new Float64Array(nUie);
      let end = 0;
      while (busy > 0) {
        busy = 0;
        const lim = now + quantum;
        for (let i = 0; i < nUie; i++) {
          const u = uies[i];
          while (u.busy && local[i] < lim) {
            local[i] = u.runAhead(Math.max(local[i], now), lim, ring, quantum - 1, false);
            u.flushDeferred();
          }
          if (u.busy) busy++;
          if (local[i] > end) end = local[i];
        }
        now = lim;
      }
      now = end;
    }
    while (busy > 0) {
      busy = 0;
      for (let i = 0; i < nUie; i++) {
        const u = uies[i];
        if (!u.busy) continue;
        u.tick(now);
        if (u.busy) busy++;
      }
      now++;
    }
    const wall = Number(process.hrtime.bigint() - t0) / 1e9;
    const cu = process.cpuUsage(c0);
    const s = (cu.user + cu.system) / 1e6; // CPU seconds: robust when the machine is shared
    if (done !== nUie) throw new Error('trip did not retire');
    const r = { now, s, wall, flits: rows * reps };
    if (!best || r.s < best.s) best = r;
  }
  const { now, s, wall, flits } = best;
  if (quiet) return;
  const uieCycles = now * nUie;
  console.log(
    `${label.padEnd(34)} ${nUie} UIE x ${flits} flits / ${now} cycles  ${(uieCycles / s / 1e6).toFixed(2)} M UIE-cycles per CPU-s (${(uieCycles / wall / 1e6).toFixed(2)} per wall-s)  ` +
      `=> ${(now / s / 1e3 / (nUie === 48 ? 1 : 48 / nUie)).toFixed(0)} k ${nUie === 48 ? '' : 'extrapolated '}48-UIE chip-cycles per CPU-s`,
  );
}

/** Host calibration: CPU time of two plain loops, so figures from different machines can be compared. */
function calibrate() {
  const a = new Uint32Array(256);
  const b = new Uint32Array(4096);
  const t = new Uint16Array(256);
  const l = new Uint8Array(256);
  const o = new Uint8Array(256);
  let c0 = process.cpuUsage();
  for (let k = 0; k < 2e6; k++) {
    const w = (k & 63) * 32;
    const r = (k & 3) * 64;
    for (let i = 0; i < 32; i++) b[w + i] = a[r + i];
  }
  let cu = process.cpuUsage(c0);
  const copyNs = ((cu.user + cu.system) * 1000) / 2e6;
  c0 = process.cpuUsage();
  for (let k = 0; k < 1e6; k++) for (let c = 0; c < 128; c++) o[c] = t[l[c]];
  cu = process.cpuUsage(c0);
  const tabNs = ((cu.user + cu.system) * 1000) / 1e6;
  console.log(`host calibration: 32-word copy loop ${copyNs.toFixed(0)} ns, 128-entry table loop ${tabNs.toFixed(0)} ns (CPU time)`);
}

function coreBench() {
  const cs = U.controlStoreFrom([{ iters: [{ is_eol: 1, numloops: 1000 }, { is_eol: 1, numloops: 100, numloops_final: 30, final_iter_mask: 1, post_final_enbl: 1 }, { is_eol: 1, numloops: 10 }], eopgm: 1 }]);
  const core = new U.SequencerCore(cs);
  core.start(0);
  const c0 = process.cpuUsage();
  let n = 0;
  while (core.step()) n++;
  const cu = process.cpuUsage(c0);
  const s = (cu.user + cu.system) / 1e6;
  console.log(`${'sequencer core (3 iterators)'.padEnd(36)} ${n} instr  ${(n / s / 1e6).toFixed(1)} M instr per CPU-s`);
}

function smallTrips(n, rows, bumpCfg = false) {
  const amem = new A.Amem();
  const cfg = new FlatCfg();
  let done = 0;
  const u = new U.Uie({ cluster: 0, index: 0, amem, cfg, writeCommitLatency: 100, onTripDone: () => done++ });
  prog(cfg, 'amem_read', 0, loops(rows, 1), { opcd: 'Read_SRAM', data_type: 'Recogni_FP8', tgt_fifo: 'AMEM_write', iter_stride: [0, 8, 0, 0, 0, 0] });
  prog(cfg, 'amem_write', 0, loops(rows, 1), { opcd: 'Write', data_type: 'Recogni_FP8', src_fifo: 'AMEM_read', iter_stride: [0, 8, 0, 0, 0, 0] });
  let now = 0;
  let started = 0;
  const c0 = process.cpuUsage();
  while (done < n) {
    if (started < n && u.canStartTrip()) {
      if (bumpCfg) cfg.generation++; // another engine wrote the cfg space: forces the byte comparison path
      u.startTrip({
        trip_id: started, trip_valid_mask: 3, start_pc: new Array(13).fill(0), amem_read_base_address: 0, amem_weights_base_address: 0,
        amem_write_base_address: 0x100000, amem_read_bank_hash_dsbl: 0, amem_write_bank_hash_dsbl: 0, amem_weights_bank_hash_dsbl: 0,
        amem_read_indirect_vld: 0, amem_write_indirect_vld: 0, amem_read_indirect_cmd_index: 0, amem_write_indirect_cmd_index: 0,
      });
      started++;
    }
    u.tick(now);
    now++;
  }
  const cu = process.cpuUsage(c0);
  const s = (cu.user + cu.system) / 1e6;
  console.log(`${`${n} trips x ${rows} rows${bumpCfg ? ' +cfg' : ''}`.padEnd(28)} ${now} cycles  ${(n / s / 1e3).toFixed(1)} k trips per CPU-s  ${(now / s / 1e6).toFixed(2)} M UIE-cycles per CPU-s`);
}

calibrate();
// warm-up (JIT, heap growth: the first run's fresh AMEM pages cost system time) before anything is measured
copyBench('warm-up', 'Recogni_FP8', 2000, 100, { runs: 1, quiet: true });
coreBench();
smallTrips(2000, 4);
smallTrips(2000, 4, true);
copyBench('copy trip, Opaque_8bit', 'Opaque_8bit', 2000, 100);
copyBench('copy trip, Recogni_FP8', 'Recogni_FP8', 2000, 100);
copyBench('copy trip, Recogni_FP8 eb_adj +1 (table)', 'Recogni_FP8', 2000, 50, { ebAdj: 1 });
copyBench('copy trip, Recogni_FP16', 'Recogni_FP16', 1000, 100);
copyBench('copy trip, Recogni_FP8, general path', 'Recogni_FP8', 2000, 25, { fastPaths: false });
copyBench('48 UIEs (4 AMEMs), Recogni_FP8', 'Recogni_FP8', 500, 40, { nUie: 48, runs: 2 });
copyBench('48 UIEs, run-ahead windows of 256', 'Recogni_FP8', 500, 40, { nUie: 48, runs: 2, quantum: 256 });
