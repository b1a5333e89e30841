/**
 * AMEM Indirection Table Fetch Engine (seq §8, chip §7.6): fetches index
 * tables from AMEM in 128-byte reads into the X/Y index FIFOs of its AMEM
 * Read or AMEM Write sequencer. Modes (§8.1, table metadata `indir_modes`, codes.ts): 0 = X 16b; 1 = X 32b;
 * 2, 3 = X and Y tables of 16b, the engine alternating X and Y per 128-byte read.
 * The whole fetch repeats `repeat_count_m1 + 1` times.
 */
import { Fifo } from '@pyxis/sim';
import type { Amem } from '../amem/amem.js';
import { AMEM_VIEW_BIT } from '../../common/amem.js';
import { INDIR_MODE_MASK, INDIR_X32, INDIR_Y, INDIR_Y_NONE } from './codes.js';

/** Decoded ITFE command register (table `itfe_command`, seq §8.1). */
export interface ItfeCommand {
  indir_mode: number;
  /** [25:7] */
  x_table_base_addr: number;
  /** [25:7] */
  y_table_base_addr: number;
  bank_hash_dsbl: number;
  num_indices_per_table_m1: number;
  repeat_count_m1: number;
}

export class Itfe {
  readonly x: Fifo;
  readonly y: Fifo;
  active = false;
  cmd: ItfeCommand = { indir_mode: 0, x_table_base_addr: 0, y_table_base_addr: 0, bank_hash_dsbl: 0, num_indices_per_table_m1: 0, repeat_count_m1: 0 };
  private rep = 0;
  private posX = 0;
  private posY = 0;
  private nextY = false;
  /** Index values pushed per table during the current command. */
  fetched = 0;
  /** 128-byte AMEM reads issued (stats). */
  reads = 0;
  bytesRead = 0;
  private readonly buf = new Uint8Array(128);

  /** Cycle at which a read refused for a held bank port may be retried (amem/banks.ts); 0 when none. */
  wakeAt = 0;

  constructor(
    readonly name: string,
    private readonly amem: Amem,
    fifoDepth: number,
    /** Bank client id (amem/banks.ts `uieClient(uie, PORT_ITFE_*)`); -1: no bank claims (tests). */
    private readonly client = -1,
  ) {
    this.x = new Fifo(`${name}.x_index`, fifoDepth, 1);
    this.y = new Fifo(`${name}.y_index`, fifoDepth, 1);
  }

  /** Index values each table supplies over the whole command: num_indices_per_table * repeat_count (§8.1 note). */
  get totalPerTable(): number {
    return (this.cmd.num_indices_per_table_m1 + 1) * (this.cmd.repeat_count_m1 + 1);
  }
  get usesY(): boolean {
    return INDIR_Y[this.cmd.indir_mode & INDIR_MODE_MASK] !== INDIR_Y_NONE;
  }
  get finished(): boolean {
    return !this.active;
  }

  /** Starts a command for a new trip; FIFOs are flushed (leftovers were diagnosed at the previous trip's end). */
  start(cmd: ItfeCommand): void {
    this.cmd = cmd;
    this.rep = 0;
    this.posX = 0;
    this.posY = 0;
    this.nextY = false;
    this.fetched = 0;
    this.x.clear();
    this.y.clear();
    this.active = true;
  }

  stop(): void {
    this.active = false;
  }

  /** One cycle: at most one 128-byte table read. Returns true if it read. */
  tick(now = 0): boolean {
    if (!this.active) return false;
    this.wakeAt = 0;
    const n = this.cmd.num_indices_per_table_m1 + 1;
    const elem = INDIR_X32[this.cmd.indir_mode & INDIR_MODE_MASK] ? 4 : 2; // bytes per x index (seq §8.1; codes.ts)
    const perRead = 128 / elem;
    const useY = this.usesY && this.nextY && this.posY < n;
    const fifo = useY ? this.y : this.x;
    const pos = useY ? this.posY : this.posX;
    if (pos >= n) {
      // this table is done for the repetition (X done, Y pending or vice versa)
      this.nextY = !this.nextY;
      return this.advanceRep(n);
    }
    const cnt = Math.min(perRead, n - pos);
    if (fifo.credits < cnt) return false;
    const base = ((useY ? this.cmd.y_table_base_addr : this.cmd.x_table_base_addr) << 7) + pos * elem;
    const addr = base | (this.cmd.bank_hash_dsbl ? AMEM_VIEW_BIT : 0);
    // exactly the required bytes are fetched (§8.1)
    const bytes = cnt * elem;
    // the table read is an AMEM access of its own (chip §7.6, Figure 7-2): it claims its banks like any client
    if (this.client >= 0 && !this.amem.banks.claim(this.client, now, addr, (bytes + 15) >> 4)) {
      this.wakeAt = this.amem.banks.freeAt[this.client]!;
      return false;
    }
    for (let o = 0; o < bytes; o += 16) this.amem.readPartition(addr + o, this.buf, o);
    this.reads++;
    this.bytesRead += bytes;
    for (let i = 0; i < cnt; i++) {
      const v = elem === 4 ? (this.buf[4 * i]! | (this.buf[4 * i + 1]! << 8) | (this.buf[4 * i + 2]! << 16) | (this.buf[4 * i + 3]! << 24)) : this.buf[2 * i]! | (this.buf[2 * i + 1]! << 8);
      fifo.push(v);
    }
    if (useY) this.posY += cnt;
    else {
      this.posX += cnt;
      this.fetched += cnt;
    }
    if (this.usesY) this.nextY = !this.nextY;
    this.advanceRep(n);
    return true;
  }

  private advanceRep(n: number): boolean {
    if (this.posX >= n && (!this.usesY || this.posY >= n)) {
      this.rep++;
      this.posX = 0;
      this.posY = 0;
      this.nextY = false;
      if (this.rep > this.cmd.repeat_count_m1) this.active = false;
    }
    return false;
  }
}
