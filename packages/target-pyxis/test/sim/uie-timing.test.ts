/**
 * Exact cycle counts of UIE copy trips, derived in this file from the documented model parameters — never from the
 * model — so that changing a UIE latency fails a test:
 *
 *  - write commit latency: grammars/pyxis/sim_config.json `amem.write_commit_latency_cycles` (chip §11.7.2);
 *  - AMEM port occupancy: one 128-byte AMEM word per port per cycle (chip §7; sim_config.json `amem.doc`), so an 8-bit
 *    access of 8 partitions holds its port 1 cycle and a 16-bit access (128 columns x 2 bytes, serialized over two
 *    cycles, chip §7.3, §6.2.1.4) 2 cycles, on the read and on the write port alike;
 *  - pipeline (docs/uie-model.md "Pipeline per UIE"): a sequencer core issues one microinstruction per cycle into its
 *    decoder FIFO (seq §2.1.4, §3); the datapath takes a decoder record the cycle after it was issued; AMEM Write
 *    pops a switchbox flit the cycle after AMEM Read pushed it (the datapaths are evaluated downstream first); a
 *    trip retires in the cycle its last posted write commits (chip §11.7.1). Decoder FIFOs and switchbox FIFO are
 *    4 deep (docs/uie-model.md).
 *
 * The expected schedule is computed by a tiny event model written here (`schedule`), from those rules only.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Rig, loops, strides } from './uie-fixture.js';

const simConfig = JSON.parse(readFileSync(fileURLToPath(new URL('../../../../grammars/pyxis/sim_config.json', import.meta.url)), 'utf8')) as {
  amem: { write_commit_latency_cycles: number };
};
const COMMIT = simConfig.amem.write_commit_latency_cycles;
/** Port cycles per access: one 128-byte AMEM word per cycle (chip §7); bytes per column by data type width. */
const portCycles = (bitsPerColumn: number): number => (128 * (bitsPerColumn / 8)) / 128;
const DEPTH = 4;

/**
 * Reference schedule of an N-instruction copy (one read and one write instruction per row): returns the cycle the
 * trip retires. Read access i is issued by the core at cycle i (if its decoder FIFO has room), enters the read port at
 * the first cycle >= issue + 1 when the port is free and the switchbox has room; write access i takes the flit from
 * the cycle after it was pushed, when the write port is free; each write commits COMMIT cycles after it was issued.
 */
function schedule(n: number, readCycles: number, writeCycles: number, commit: number): number {
  const readAt: number[] = [];
  const writeAt: number[] = [];
  let readFree = 0;
  let writeFree = 0;
  for (let i = 0; i < n; i++) {
    // switchbox room: flit i - DEPTH must have been popped (by the write in an earlier-evaluated or same cycle)
    let r = Math.max(i + 1, readFree);
    if (i >= DEPTH) r = Math.max(r, writeAt[i - DEPTH]!);
    readAt.push(r);
    readFree = r + readCycles;
    const w = Math.max(r + 1, writeFree, i + 1);
    writeAt.push(w);
    writeFree = w + writeCycles;
  }
  return writeAt[n - 1]! + commit;
}

const rd = (dt: string, stride: number) => ({ opcd: 'Read_SRAM', data_type: dt, tgt_fifo: 'AMEM_write', iter_stride: strides(stride) });
const wr = (dt: string, stride: number) => ({ opcd: 'Write', data_type: dt, src_fifo: 'AMEM_read', iter_stride: strides(stride) });

/** Runs an n-row copy; returns the retirement cycle reported through onTripDone. */
function copy(n: number, readDt: string, writeDt: string, readBits: number, writeBits: number): number {
  const r = new Rig({ writeCommitLatency: COMMIT });
  // partition stride per row: 8 partitions of 16 bytes per 128-byte word, 2 words for 16-bit data
  r.prog('amem_read', 0, loops([{ n }]), rd(readDt, (8 * readBits) / 8));
  r.prog('amem_write', 0, loops([{ n }]), wr(writeDt, (8 * writeBits) / 8));
  r.trip({ trip_id: 9, amem_read_base_address: 0x10000 >> 4, amem_write_base_address: 0x80000 >> 4 });
  r.run();
  expect(r.done).toHaveLength(1);
  return r.done[0]!.cycle;
}

describe('UIE cycle counts from the documented parameters (chip §7, §7.3, §11.7.2)', () => {
  it('reference schedule sanity: an 8-bit copy streams one row per cycle', () => {
    // rows at cycles 1..n (read) and 2..n+1 (write): retirement = n + 1 + COMMIT
    expect(schedule(10, 1, 1, COMMIT)).toBe(10 + 1 + COMMIT);
  });

  for (const n of [1, 5, 37]) {
    it(`8-bit copy of ${n} rows retires at the reference cycle`, () => {
      expect(copy(n, 'Opaque_8bit', 'Opaque_8bit', 8, 8)).toBe(schedule(n, portCycles(8), portCycles(8), COMMIT));
    });
    it(`16-bit copy of ${n} rows retires at the reference cycle (two port cycles per access)`, () => {
      expect(copy(n, 'Opaque_16bit', 'Opaque_16bit', 16, 16)).toBe(schedule(n, portCycles(16), portCycles(16), COMMIT));
    });
    it(`8-bit read, 16-bit write of ${n} rows: the write port occupancy alone sets the pace`, () => {
      expect(copy(n, 'Recogni_FP8', 'Recogni_FP16', 8, 16)).toBe(schedule(n, portCycles(8), portCycles(16), COMMIT));
    });
    it(`16-bit read, 8-bit write of ${n} rows: the read port occupancy alone sets the pace`, () => {
      expect(copy(n, 'Recogni_FP16', 'Recogni_FP8', 16, 8)).toBe(schedule(n, portCycles(16), portCycles(8), COMMIT));
    });
  }

  it('a write commit takes exactly write_commit_latency_cycles: one row retires at 2 + COMMIT', () => {
    // core issues at 0, read at 1, write at 2, commit (and retirement) at 2 + COMMIT
    expect(copy(1, 'Opaque_8bit', 'Opaque_8bit', 8, 8)).toBe(2 + COMMIT);
  });
});
