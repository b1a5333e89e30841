/** Test fixture: a UIE with its own AMEM and a flat cfg space, programmed with words encoded by @pyxis/codec from grammars/pyxis. */
import { encode, loadGrammarJson, loadTable, type FieldValues } from '@pyxis/codec';
import { Amem, AMEM_VIEW_BIT } from '../../src/sim/amem/index.js';
import { Uie, type UieCfgSpace, type UieTripParams, type UieOptions } from '../../src/sim/uie/index.js';

interface Region {
  name: string;
  offset: number;
  stride: number;
  words: number;
  table?: string;
}
interface MM {
  sequencers: Array<{ id: number; name: string; control: Region; op: Region }>;
  regions: Region[];
}
export const mm = loadGrammarJson<MM>('pyxis', 'memory_map');

export class FlatCfg implements UieCfgSpace {
  readonly mem = new Uint8Array(1 << 17);
  generation = 0;
  read(addr: number, dst: Uint8Array, off: number, len: number): void {
    dst.set(this.mem.subarray(addr, addr + len), off);
  }
  write(addr: number, data: Uint8Array): void {
    this.mem.set(data, addr);
    this.generation++;
  }
}

export type Ctl = FieldValues;

export class Rig {
  readonly amem: Amem;
  readonly cfg = new FlatCfg();
  readonly uie: Uie;
  readonly done: Array<{ trip: number; cycle: number }> = [];
  now = 0;
  /** `opts.amem`: the UIE's AMEM (e.g. with a read pipeline), else a fresh idealised one. */
  constructor(opts: Partial<UieOptions> = {}) {
    this.amem = opts.amem ?? new Amem();
    this.uie = new Uie({ cluster: 0, index: 0, cfg: this.cfg, writeCommitLatency: 10, onTripDone: (t, c) => this.done.push({ trip: t, cycle: c }), ...opts, amem: this.amem });
  }
  /** Writes one microinstruction (control + op word) of sequencer `name` at `pc`. */
  prog(name: string, pc: number, control: Ctl, op: FieldValues): void {
    const s = mm.sequencers.find((q) => q.name === name)!;
    const ct = loadTable('pyxis', s.control.table!);
    const ot = loadTable('pyxis', s.op.table!);
    this.cfg.write(s.control.offset + pc * s.control.stride, encode(ct, control));
    this.cfg.write(s.op.offset + pc * s.op.stride, encode(ot, op));
  }
  table(region: string, entry: number, values: FieldValues): void {
    const r = mm.regions.find((q) => q.name === region)!;
    this.cfg.write(r.offset + entry * r.stride, encode(loadTable('pyxis', r.table!), values));
  }
  trip(p: Partial<UieTripParams> & { start_pc?: number[] }): boolean {
    return this.uie.startTrip({
      trip_id: 1,
      trip_valid_mask: 0b11,
      start_pc: new Array(13).fill(0),
      amem_read_base_address: 0,
      amem_weights_base_address: 0,
      amem_write_base_address: 0,
      amem_read_bank_hash_dsbl: 0,
      amem_write_bank_hash_dsbl: 0,
      amem_weights_bank_hash_dsbl: 0,
      amem_read_indirect_vld: 0,
      amem_write_indirect_vld: 0,
      amem_read_indirect_cmd_index: 0,
      amem_write_indirect_cmd_index: 0,
      ...p,
    });
  }
  run(max = 100000): number {
    const start = this.now;
    while (this.uie.busy) {
      this.uie.tick(this.now);
      if (!this.uie.busy) {
        this.now++;
        break;
      }
      const w = this.uie.nextWake(this.now + 1);
      if (w === Infinity) throw new Error(`stuck: ${this.uie.blockedReason()}`);
      this.now = Math.max(this.now + 1, w);
      if (this.now - start > max) throw new Error('runaway');
    }
    return this.now - start;
  }
}

/** Control word for a single-instruction loop nest: iters[i] = {N, NF?, mask?, pf?}. */
export function loops(iters: Array<{ n: number; nf?: number; mask?: number; pf?: number } | undefined>, eopgm = 1, solPc = 0): Ctl {
  const v: Ctl = { eopgm };
  iters.forEach((it, i) => {
    if (!it) return;
    v[`iter${i}_is_eol`] = 1;
    v[`iter${i}_sol_pc`] = solPc;
    v[`iter${i}_numloops`] = it.n;
    if (i > 0) {
      v[`iter${i}_numloops_final`] = it.nf ?? 1;
      v[`iter${i}_final_iter_mask`] = it.mask ?? 0;
      v[`iter${i}_post_final_enbl`] = it.pf ?? 0;
    }
  });
  return v;
}

export function strides(...s: number[]): number[] {
  const a = new Array(6).fill(0);
  s.forEach((v, i) => (a[i] = v));
  return a;
}

/** Deterministic pseudo-random bytes. */
export function bytes(n: number, seed = 1): Uint8Array {
  const b = new Uint8Array(n);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    b[i] = x & 0xff;
  }
  return b;
}

/**
 * Programs RPSW entries base..base+7 to rotate data toward partition 0 and
 * WPSW entries base..base+7 to rotate it away (seq §5.4, §6.7), so that with
 * `*psw_rot_enbl` unaligned partition accesses land aligned in the datapath.
 */
export function rotationTables(r: Rig, base = 0): void {
  for (let e = 0; e < 8; e++) {
    r.table('rpsw.config', base + e, { src_ptn: Array.from({ length: 8 }, (_, o) => (o + e) % 8) });
    r.table('wpsw.config', base + e, { src_ptn: Array.from({ length: 8 }, (_, o) => (o - e + 8) % 8) });
  }
}

/** Op fields enabling the rotation tables of `rotationTables`. */
export const ROT_RD = { rpsw_config_vld: 1, rpsw_rot_enbl: 1, rpsw_config_idx_base: 0 };
export const ROT_WR = { wpsw_config_vld: 1, wpsw_rot_enbl: 1, wpsw_config_idx_base: 0 };

/** Runs the UIE in `runAhead` windows of `q` cycles (as the kernel's UieSlot does), like `Rig.run`. */
export function runWindows(r: Rig, q: number, max = 100000): number {
  const u = r.uie;
  const ring = new Uint8Array(q);
  const start = r.now;
  let c = r.now;
  while (u.busy) {
    c = u.runAhead(c, c + q, ring, q - 1, false);
    u.flushDeferred();
    if (u.busy && u.nextWake(c) === Infinity) throw new Error(`stuck: ${u.blockedReason()}`);
    if (c - start > max) throw new Error('runaway');
  }
  r.now = c;
  return c - start;
}

/**
 * Runs the rig (per cycle, or in run-ahead windows of `quantum` cycles) and returns everything a run is observed
 * by: cycles, trip completions, UIE / AMEM / FIFO statistics, warnings and the physical AMEM contents of the first
 * `memBytes` bytes (the unhashed view reads storage in place; hashing stays within 16 KiB blocks).
 */
export function observe(r: Rig, quantum = 0, memBytes = 0x14000): unknown {
  const cycles = quantum > 0 ? runWindows(r, quantum) : r.run();
  const u = r.uie;
  const st = u.stats;
  const a = r.amem.stats;
  const stats = {
    cycles,
    done: r.done,
    uie: { ...st, busyCycles: [...st.busyCycles], stallCycles: [...st.stallCycles], datapathStallCycles: [...st.datapathStallCycles], instructions: [...st.instructions] },
    amem: { ...a, bankAccesses: [...a.bankAccesses] },
    // the bank arbitration's statistics (claims, conflicts, stall cycles per bank and client; accesses per bank)
    banks: r.amem.banks.report(),
    fifos: [u.rd.dec, u.wr.dec, u.sbReadToWrite].map((f) => [f.pushes, f.pops, f.fullStalls, f.maxOccupancy]),
    warnings: u.warnings.map((w) => w.code),
  };
  return { stats, mem: Buffer.from(r.amem.readBytes(AMEM_VIEW_BIT, memBytes)).toString('base64') };
}
