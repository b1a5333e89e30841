/**
 * Opt-in report of reads of uninitialised memory (issue 6: "reads of
 * uninitialised memory (warning, optional)"; `pyxis-sim run --warn-uninit`).
 *
 * The memories count such reads themselves (AMEM: `stats.uninitReads`, per
 * 16-byte partition of a 16 KiB block never written, chip §7.5 blocks; HBM:
 * `uninitReads`, per byte of a 64 KiB page never written). Without the option
 * only those totals are reported. With it, the read methods of the memory
 * *instances* are wrapped (nothing changes for runs without the option): a
 * call that raised the counter is recorded with its address and the cycle,
 * merged per block/page, and reported as SIM0014 warnings naming the first
 * addresses. Granularity is the memories' own: a read of a never-written
 * byte inside a block/page that was written elsewhere is not detected.
 */
import { warning, type Diagnostic } from '@pyxis/diagnostics';
import type { Amem } from './amem/index.js';
import { SimCodes } from './diagnostics.js';
import type { SparseMemory } from './memory.js';

interface Site {
  memory: string;
  unit: string;
  /** First address read in this block/page (AMEM: view address, bit 26 = unhashed view). */
  addr: number;
  /** Units counted by the memory (AMEM partitions, HBM bytes). */
  count: number;
  firstCycle: number;
  lastCycle: number;
}

/** AMEM datapath read methods (first argument = view address) that count uninitialised reads. */
const AMEM_READS = ['readPartition', 'readPartition32', 'readWord32', 'readWordPerm32'] as const;

export class UninitWatch {
  private readonly sites = new Map<string, Site>();
  private enabled = true;
  constructor(
    /** The current cycle (the kernel's `now`). */
    private readonly now: () => number,
    /** Warnings listed individually; the rest are summarised in one line. */
    readonly limit = 16,
  ) {}

  private note(memory: string, unit: string, blockBits: number, addr: number, count: number): void {
    const key = `${memory}:${Math.floor(addr / 2 ** blockBits)}`;
    const now = this.now();
    const s = this.sites.get(key);
    if (s) {
      s.count += count;
      s.lastCycle = now;
    } else this.sites.set(key, { memory, unit, addr, count, firstCycle: now, lastCycle: now });
  }

  /** Wraps the datapath reads of one AMEM instance (block = 16 KiB of the view address). */
  watchAmem(a: Amem): void {
    const self = this;
    for (const m of AMEM_READS) {
      const orig = a[m] as (addr: number, ...rest: unknown[]) => void;
      const wrapped = function (this: Amem, addr: number, ...rest: unknown[]): void {
        const before = a.stats.uninitReads;
        orig.call(a, addr, ...rest);
        if (self.enabled && a.stats.uninitReads !== before) self.note(a.name, '16-byte partitions', 14, addr, a.stats.uninitReads - before);
      };
      Object.defineProperty(a, m, { value: wrapped, configurable: true, writable: true });
    }
  }

  /** Wraps the byte reads of a sparse memory (HBM; page = 64 KiB). */
  watchSparse(mem: SparseMemory): void {
    const self = this;
    const orig = mem.read;
    const wrapped = function (this: SparseMemory, addr: number, dst: Uint8Array, off: number, len: number): void {
      const before = mem.uninitReads;
      orig.call(mem, addr, dst, off, len);
      if (self.enabled && mem.uninitReads !== before) self.note(mem.name, 'bytes', 16, addr, mem.uninitReads - before);
    };
    Object.defineProperty(mem, 'read', { value: wrapped, configurable: true, writable: true });
  }

  /** Stops recording (reads made after the run, e.g. by dumps, are not the program's). */
  stop(): void {
    this.enabled = false;
  }

  get count(): number {
    return this.sites.size;
  }

  /** One SIM0014 warning per block/page read while never written (first `limit`), in order of first read. */
  warnings(): Diagnostic[] {
    const all = [...this.sites.values()].sort((x, y) => x.firstCycle - y.firstCycle || x.addr - y.addr);
    const out = all.slice(0, this.limit).map((s) =>
      warning(
        SimCodes.uninitRead,
        `cycle ${s.firstCycle}: read of uninitialised ${s.memory} at 0x${s.addr.toString(16)} (${s.count} ${s.unit} never written${s.lastCycle !== s.firstCycle ? `, until cycle ${s.lastCycle}` : ''})`,
        { notes: ['uninitialised memory reads as zero'] },
      ),
    );
    if (all.length > this.limit)
      out.push(warning(SimCodes.uninitRead, `${all.length - this.limit} more uninitialised block(s)/page(s) read (first ${this.limit} listed)`));
    return out;
  }
}
