/**
 * AMEM bank arbitration of one cluster (pyxis-chip-fspec.md §7, §7.4, §7.5; docs/timing-model.md "AMEM banks").
 *
 * Port model (MODEL, chip §7 gives none): every (partition, bank) SRAM — 8 partitions x 128 banks, 4K words each —
 * is single-ported: one access (read or write) per cycle. An access of n partitions at a partition-granular address
 * touches, per 128-byte word it spans, the bank [13:7] of that word's *physical* address (after the §7.5 hash for the
 * hashed view) in the partitions it covers. A read-modify-write (RMW_Add, partial write, chip §7.4) is two accesses
 * of the same resources (read, then write).
 *
 * Arbitration (MODEL): claims are made during a cycle and resolved as a whole at the start of the next cycle in
 * which anybody asks (`sync`), so the outcome never depends on the order in which engines ticked. Fixed-priority
 * clients (ICDMA ingress, MPE, DPE, host: `claimFirst`) are served first, delayed only by resources already granted;
 * the UIE ports and the bulk DMA clients (H2A, A2H, ICDMA source: `claimBurst`, one claim per word) are served
 * round-robin: at cycle t the client with id (t mod RR_CLIENTS) has the highest priority, then the following ids. A claim is
 * served at the first cycle >= t at which every resource it touches is free; the client's port is then held until
 * that cycle + accesses (`freeAt`), and the difference is counted as stall cycles for the client and for the bank
 * that was busy.
 */
import { AMEM_BYTES, AMEM_VIEW_BIT, amemPhysical } from '../../common/amem.js';
import { BANK_UIES, CLIENT_CONTROL, CLIENTS_PER_UIE, N_CLIENTS, RR_CLIENTS, clientName } from './clients.js';
import { BankSchedules } from './schedules.js';
import { dbl } from '@pyxis/sim';

export * from './clients.js';
export { SCHED_MAX } from './schedules.js';

const RES = 128 * 8;
const ADDR_MASK = AMEM_BYTES - 1;

/** Read latency and pipeline parameters (grammars/pyxis/sim_config.json `amem`, docs/timing-model.md). */
export interface AmemTiming {
  /** Cycles from the bank access to the data leaving AMEM. */
  read_latency_cycles?: number;
  /** Request-shim pipeline depth (address adjust for unaligned / 16-bit accesses, seq §5, §6). */
  request_shim_cycles?: number;
  /** RPSW -> converter -> RZSW -> RCSW pipeline depth (chip §6.2.1). */
  switch_convert_cycles?: number;
}

export interface BankStats {
  /** Partition accesses per bank index (all partitions), all clients. */
  readonly bankAccesses: Float64Array;
  /** Conflicts (claims served late) per bank index, and the stall cycles they cost. */
  readonly bankConflicts: Float64Array;
  readonly bankStallCycles: Float64Array;
  /** Per client (uieClient / CLIENT_CONTROL): claims, conflicts and stall cycles. */
  readonly clientClaims: Float64Array;
  readonly clientConflicts: Float64Array;
  readonly clientStallCycles: Float64Array;
}

export class AmemBanks {
  /** Per client: the first cycle at which its port may claim again (set by resolution; read after `sync`). */
  readonly freeAt = new Float64Array(N_CLIENTS);
  readonly stats: BankStats = {
    bankAccesses: new Float64Array(128),
    bankConflicts: new Float64Array(128),
    bankStallCycles: new Float64Array(128),
    clientClaims: new Float64Array(N_CLIENTS),
    clientConflicts: new Float64Array(N_CLIENTS),
    clientStallCycles: new Float64Array(N_CLIENTS),
  };
  /** Per resource (bank * 8 + partition): last cycle it is occupied by an already served access. */
  private readonly busyAt = new Float64Array(RES).fill(-1);
  /** The last cycle any resource is held by a served access (-1: none). */
  heldUntil = dbl(-1);
  // pending claims of cycle `pendCycle`: client, accesses, up to 3 (bank, partition mask) words
  /** The cycle of the claims not yet resolved (-1: none). */
  pendCycle = dbl(-1);
  private n = 0;
  private cap = 64;
  private cClient = new Int32Array(this.cap);
  private cAcc = new Int32Array(this.cap);
  private cWords = new Int32Array(this.cap * 3);
  // scratch for resolution
  private order = new Int32Array(this.cap);
  private readonly stampAt = new Float64Array(128).fill(-1);
  private readonly stampMask = new Uint8Array(128);
  // control-plane occupancy of cycle ctrlAt (bank -> partition mask)
  private readonly ctrlAt = new Float64Array(128).fill(-1);
  private readonly ctrlMask = new Uint8Array(128);
  /** Cycles of the control plane's claims (the kernel's clock); claims are recorded only when set. */
  clock: { readonly now: number } | undefined;

  /** The steady-state schedules of the cluster's UIEs (schedules.ts): they read the arbitration state, the claims update them. */
  readonly sched: BankSchedules = new BankSchedules(this);

  /**
   * THE claim API (one function for every AMEM client: UIE ports, Weights Read, the grid, ITFE): client `client`
   * accesses `nPtns` consecutive 16-byte partitions from byte address `byteAddr` (27-bit: view bit [26] honoured,
   * chip §7.1, §7.5) at cycle `cycle`, `accesses` times (2 for a read-modify-write, chip §7.4).
   * Returns false — nothing claimed — when the client's port is still held by an earlier claim that was served late
   * (`freeAt[client] > cycle`): the caller stalls and retries (it may sleep until `freeAt[client]`). Returns true
   * when the claim is recorded: the caller does the access now (functionally); a conflict with same-cycle claims is
   * resolved at the next `sync` and shows as `freeAt[client]` > cycle + 1 (the access is then counted as served late
   * and the port held until it is). Order-independent: resolution sees all claims of a cycle at once.
   */
  claim(client: number, cycle: number, byteAddr: number, nPtns: number, accesses = 1): boolean {
    if (cycle !== this.pendCycle) this.sync(cycle);
    if (this.freeAt[client]! > cycle) return false;
    if (this.n === this.cap) this.grow();
    const i = this.n++;
    this.cClient[i] = client;
    this.cAcc[i] = accesses;
    const view = byteAddr & AMEM_VIEW_BIT;
    let a = byteAddr & ADDR_MASK & ~15;
    let left = nPtns;
    for (let w = 0; w < 3; w++) {
      if (left <= 0) {
        this.cWords[i * 3 + w] = -1;
        continue;
      }
      const p0 = (a >>> 4) & 7;
      const k = Math.min(left, 8 - p0);
      const bank = (amemPhysical(a | view) >>> 7) & 0x7f;
      const mask = ((1 << k) - 1) << p0;
      this.cWords[i * 3 + w] = (bank << 8) | mask;
      this.stats.bankAccesses[bank]! += k * accesses;
      left -= k;
      a = (a + k * 16) & ADDR_MASK;
    }
    this.stats.clientClaims[client]!++;
    this.pendCycle = cycle;
    const u = (client / CLIENTS_PER_UIE) | 0;
    if (u < BANK_UIES) this.sched.claimed(u, client - u * CLIENTS_PER_UIE, cycle);
    return true;
  }

  /**
   * A non-UIE access (`Amem.readBytes/writeBytes`: DMA engines, MPE, DPE, host) of `len` bytes at `byteAddr` by client
   * `client` at the clock's cycle. Round-robin DMA clients (< RR_CLIENTS): one claim per 128-byte word it touches
   * (`claimBurst`), resolved with the UIE ports at the next `sync`; the engine settles it (dmaBankPort.ts). Others:
   * `claimFirst`. Returns the cycle the access is served (the claim cycle for a round-robin client), -1 without clock.
   */
  access(client: number, byteAddr: number, len: number): number {
    const clk = this.clock;
    if (!clk) return -1;
    const t = clk.now;
    if (len <= 0) return t;
    if (client < RR_CLIENTS) {
      this.claimBurst(client, t, byteAddr, len);
      return t;
    }
    if (client === CLIENT_CONTROL) {
      this.claimControl(t, byteAddr, len);
      return t;
    }
    return this.claimFirst(client, t, byteAddr, len);
  }

  /**
   * Host accesses, image load, dumps (functional, no timing of their own): the touched (bank, partition)s are taken
   * for cycle t only (UIE and DMA claims of t on them wait), ahead of everybody, never delayed.
   */
  private claimControl(t: number, byteAddr: number, len: number): void {
    if (t !== this.pendCycle) this.sync(t);
    this.pendCycle = t;
    const view = byteAddr & AMEM_VIEW_BIT;
    let a = byteAddr & ADDR_MASK & ~15;
    const end = (byteAddr & ADDR_MASK) + len;
    let words = 0;
    while (a < end && words < 512) {
      const p0 = (a >>> 4) & 7;
      const k = Math.min(Math.ceil((end - a) / 16), 8 - p0);
      const bank = (amemPhysical(a | view) >>> 7) & 0x7f;
      if (this.ctrlAt[bank] !== t) {
        this.ctrlAt[bank] = t;
        this.ctrlMask[bank] = 0;
      }
      this.ctrlMask[bank]! |= ((1 << k) - 1) << p0;
      this.stats.bankAccesses[bank]! += k;
      a += k * 16;
      words++;
    }
    this.stats.clientClaims[CLIENT_CONTROL]!++;
  }

  /**
   * Round-robin claims of a DMA burst: one `claim` per 128-byte word of [byteAddr, byteAddr + len) (each word is one
   * bank in the partitions it covers); the burst is served when its last word is (`freeAt[client]`). False (nothing
   * claimed) while the client's port is held by an earlier burst served late.
   */
  claimBurst(client: number, cycle: number, byteAddr: number, len: number): boolean {
    if (cycle !== this.pendCycle) this.sync(cycle);
    if (this.freeAt[client]! > cycle) return false;
    const view = byteAddr & AMEM_VIEW_BIT;
    let a = byteAddr & ADDR_MASK & ~15;
    const end = (byteAddr & ADDR_MASK) + len;
    while (a < end) {
      const k = Math.min(Math.ceil((end - a) / 16), 8 - ((a >>> 4) & 7));
      this.claim(client, cycle, a | view, k);
      a += k * 16;
    }
    return true;
  }

  /**
   * Fixed-priority access at cycle `t` (MODEL, docs/spec-notes.md): served before every round-robin claim of
   * its cycle, each word at the first cycle >= t at which its resources are not held by an access granted earlier (a
   * late-served access, the second half of a read-modify-write, another fixed-priority word of this cycle). Returns
   * the cycle its last word is served (known at once: it depends only on grants already made); late words count as
   * conflicts of the client and of the bank.
   */
  claimFirst(client: number, t: number, byteAddr: number, len: number): number {
    if (t !== this.pendCycle) this.sync(t);
    this.pendCycle = t;
    const view = byteAddr & AMEM_VIEW_BIT;
    let a = byteAddr & ADDR_MASK & ~15;
    const end = (byteAddr & ADDR_MASK) + len;
    let served = t;
    while (a < end) {
      const p0 = (a >>> 4) & 7;
      const k = Math.min(Math.ceil((end - a) / 16), 8 - p0);
      const bank = (amemPhysical(a | view) >>> 7) & 0x7f;
      const mask = ((1 << k) - 1) << p0;
      let f = this.busyUntil(bank, mask) + 1;
      if (f <= t) f = this.ctrlAt[bank] === t && (this.ctrlMask[bank]! & mask) !== 0 ? t + 1 : t;
      if (f === t) {
        if (this.ctrlAt[bank] !== t) {
          this.ctrlAt[bank] = t;
          this.ctrlMask[bank] = 0;
        }
        this.ctrlMask[bank]! |= mask;
      } else {
        for (let p = 0; p < 8; p++) if ((mask >> p) & 1 && this.busyAt[bank * 8 + p]! < f) this.busyAt[bank * 8 + p] = f;
        if (f > this.heldUntil) this.heldUntil = f;
        this.stats.clientConflicts[client]!++;
        this.stats.clientStallCycles[client]! += f - t;
        this.stats.bankConflicts[bank]!++;
        this.stats.bankStallCycles[bank]! += f - t;
        if (f > served) served = f;
      }
      this.stats.bankAccesses[bank]! += k;
      a += k * 16;
    }
    this.stats.clientClaims[client]!++;
    return served;
  }

  /** Resolves the claims of every cycle before `now` (call at the start of a client's cycle; cheap when none). */
  sync(now: number): void {
    if (this.pendCycle >= now || this.pendCycle < 0) return;
    if (this.n > 0) this.resolve(this.pendCycle);
    this.n = 0;
    this.pendCycle = -1;
  }

  private grow(): void {
    const c = this.cap * 2;
    const g = (a: Int32Array, m: number) => {
      const b = new Int32Array(c * m);
      b.set(a);
      return b;
    };
    this.cClient = g(this.cClient, 1);
    this.cAcc = g(this.cAcc, 1);
    this.cWords = g(this.cWords, 3);
    this.order = new Int32Array(c);
    this.cap = c;
  }

  private resolve(t: number): void {
    const n = this.n;
    const W = this.cWords;
    // 1. any conflict at all? (same-cycle overlap, control occupancy, or a resource still held by an earlier access)
    let conflict = false;
    const checkBusy = this.heldUntil >= t;
    for (let i = 0; i < n && !conflict; i++) {
      for (let w = 0; w < 3; w++) {
        const x = W[i * 3 + w]!;
        if (x < 0) break;
        const b = x >>> 8;
        const m = x & 0xff;
        if (this.ctrlAt[b] === t && (this.ctrlMask[b]! & m) !== 0) conflict = true;
        else if (this.stampAt[b] === t && (this.stampMask[b]! & m) !== 0) conflict = true;
        else if (checkBusy && this.busyUntil(b, m) >= t) conflict = true;
        if (this.stampAt[b] !== t) {
          this.stampAt[b] = t;
          this.stampMask[b] = 0;
        }
        this.stampMask[b]! |= m;
        if (conflict) break;
      }
    }
    // clear the stamps (a later resolution of the same cycle number cannot happen, but keep them exact)
    for (let i = 0; i < n; i++)
      for (let w = 0; w < 3; w++) {
        const x = W[i * 3 + w]!;
        if (x < 0) break;
        this.stampAt[x >>> 8] = -1;
      }
    if (!conflict) {
      for (let i = 0; i < n; i++) {
        const acc = this.cAcc[i]!;
        const c = this.cClient[i]!;
        if (acc > 1) {
          this.occupy(i, t + acc - 1);
          this.freeAt[c] = t + acc;
        }
      }
      return;
    }
    // 2. serve in priority order: round-robin over the UIE ports, starting at client (t mod UIE_CLIENTS)
    const ord = this.order;
    const rot = t % RR_CLIENTS;
    for (let i = 0; i < n; i++) ord[i] = i;
    // priority key (client - rot) mod RR_CLIENTS over the UIE ports and the bulk DMA clients (fixed-priority clients
    // are not in this list: claimFirst served them already); stable, so the words of one burst keep their order
    const cl = this.cClient;
    for (let i = 1; i < n; i++) {
      const v = ord[i]!;
      const kv = (cl[v]! - rot + RR_CLIENTS) % RR_CLIENTS;
      let j = i - 1;
      while (j >= 0 && (cl[ord[j]!]! - rot + RR_CLIENTS) % RR_CLIENTS > kv) {
        ord[j + 1] = ord[j]!;
        j--;
      }
      ord[j + 1] = v;
    }
    for (let r = 0; r < n; r++) {
      const i = ord[r]!;
      const c = this.cClient[i]!;
      const acc = this.cAcc[i]!;
      let s = t;
      let culprit = -1;
      for (let w = 0; w < 3; w++) {
        const x = W[i * 3 + w]!;
        if (x < 0) break;
        const b = x >>> 8;
        const m = x & 0xff;
        let f = this.busyUntil(b, m) + 1;
        if (this.ctrlAt[b] === t && (this.ctrlMask[b]! & m) !== 0 && f <= t) f = t + 1;
        if (f > s) {
          s = f;
          culprit = b;
        }
      }
      this.occupy(i, s + acc - 1);
      if (s > t) {
        // max: a DMA burst makes several claims of one client per cycle (claimBurst)
        if (s + acc > this.freeAt[c]!) this.freeAt[c] = s + acc;
        this.stats.clientConflicts[c]!++;
        this.stats.clientStallCycles[c]! += s - t;
        this.stats.bankConflicts[culprit]!++;
        this.stats.bankStallCycles[culprit]! += s - t;
        // an exact integer quotient: a fractional c / 5 met after only whole ones deoptimises (V8 'lost precision')
        const u = (c - (c % CLIENTS_PER_UIE)) / CLIENTS_PER_UIE;
        // its schedules' timing no longer holds (their address order does)
        if (u < BANK_UIES) this.sched.servedLate(u, t);
      } else if (acc > 1) this.freeAt[c] = t + acc;
    }
  }

  /** The last cycle any partition of mask `m` of bank `b` is held by a served access (-1: none). */
  busyUntil(b: number, m: number): number {
    let r = -1;
    for (let p = 0; p < 8; p++) if ((m >> p) & 1 && this.busyAt[b * 8 + p]! > r) r = this.busyAt[b * 8 + p]!;
    return r;
  }

  private occupy(i: number, until: number): void {
    const W = this.cWords;
    for (let w = 0; w < 3; w++) {
      const x = W[i * 3 + w]!;
      if (x < 0) break;
      const b = x >>> 8;
      const m = x & 0xff;
      for (let p = 0; p < 8; p++) if ((m >> p) & 1 && this.busyAt[b * 8 + p]! < until) this.busyAt[b * 8 + p] = until;
    }
    if (until > this.heldUntil) this.heldUntil = until;
  }

  /** Zeroes the statistics (after image load). */
  resetStats(): void {
    for (const a of Object.values(this.stats) as Float64Array[]) a.fill(0);
  }

  /** Statistics for the report: per bank and per client, non-zero entries only; accesses of every bank. */
  report(): { bank_conflicts: Array<{ bank: number; conflicts: number; stall_cycles: number; accesses: number }>; clients: Array<{ client: string; claims: number; conflicts: number; stall_cycles: number }>; bank_accesses: number[] } {
    const st = this.stats;
    const banks = [];
    for (let b = 0; b < 128; b++) if (st.bankConflicts[b]! > 0) banks.push({ bank: b, conflicts: st.bankConflicts[b]!, stall_cycles: st.bankStallCycles[b]!, accesses: st.bankAccesses[b]! });
    const clients = [];
    for (let c = 0; c < N_CLIENTS; c++)
      if (st.clientClaims[c]! > 0 || st.clientConflicts[c]! > 0)
        clients.push({ client: clientName(c), claims: st.clientClaims[c]!, conflicts: st.clientConflicts[c]!, stall_cycles: st.clientStallCycles[c]! });
    // every bank's partition accesses (the report's bank heatmap), zeros included: 128 numbers
    return { bank_conflicts: banks, clients, bank_accesses: Array.from(st.bankAccesses) };
  }
}
