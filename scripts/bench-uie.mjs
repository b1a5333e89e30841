#!/usr/bin/env node
// UIE sequencer/datapath throughput: a busy copy trip (AMEM Read -> switchbox -> AMEM Write)
// on one UIE, in simulated UIE-cycles per host second; and the bare sequencer core.
// Run after `npx tsc -b packages/sim`: node scripts/bench-uie.mjs
import { encode, loadGrammarJson, loadTable } from '../packages/codec/dist/index.js';
import { uie as U, amem as A } from '../packages/sim/dist/index.js';

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

function copyBench(label, dtype, rows, reps) {
  const amem = new A.Amem();
  const cfg = new FlatCfg();
  let done = 0;
  const u = new U.Uie({ cluster: 0, index: 0, amem, cfg, writeCommitLatency: 100, onTripDone: () => done++ });
  const wide = dtype.includes('16');
  const st = [0, wide ? 16 : 8, 0, 0, 0, 0];
  prog(cfg, 'amem_read', 0, loops(rows, reps), { opcd: 'Read_SRAM', data_type: dtype, tgt_fifo: 'AMEM_write', iter_stride: st });
  prog(cfg, 'amem_write', 0, loops(rows, reps), { opcd: 'Write', data_type: dtype, src_fifo: 'AMEM_read', eb_adj: 0, iter_stride: st });
  const trip = {
    trip_id: 1, trip_valid_mask: 3, start_pc: new Array(13).fill(0), amem_read_base_address: 0, amem_weights_base_address: 0,
    amem_write_base_address: 0x100000, amem_read_bank_hash_dsbl: 0, amem_write_bank_hash_dsbl: 0, amem_weights_bank_hash_dsbl: 0,
    amem_read_indirect_vld: 0, amem_write_indirect_vld: 0, amem_read_indirect_cmd_index: 0, amem_write_indirect_cmd_index: 0,
  };
  let now = 0;
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  u.startTrip(trip);
  while (u.busy) {
    u.tick(now);
    now = u.busy ? Math.max(now + 1, u.nextWake(now + 1)) : now + 1;
  }
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  const cu = process.cpuUsage(c0);
  const s = (cu.user + cu.system) / 1e6; // CPU seconds: robust when the machine is shared
  const flits = rows * reps;
  console.log(`${label.padEnd(28)} ${flits} flits / ${now} cycles  ${(now / s / 1e6).toFixed(2)} M UIE-cycles per CPU-s (${(now / wall / 1e6).toFixed(2)} per wall-s)  ${(flits / s / 1e6).toFixed(2)} M flits/CPU-s  => 48 UIEs: ${(now / s / 48 / 1e3).toFixed(0)} k chip-cycles/CPU-s`);
  if (done !== 1) throw new Error('trip did not retire');
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

coreBench();
smallTrips(2000, 4);
smallTrips(2000, 4, true);
copyBench('copy trip, Opaque_8bit', 'Opaque_8bit', 2000, 50);
copyBench('copy trip, Recogni_FP8', 'Recogni_FP8', 2000, 50);
copyBench('copy trip, Recogni_FP16', 'Recogni_FP16', 1000, 50);
