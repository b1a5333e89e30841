/**
 * Sequencing of one UIE's 13 sequencers (seq §2.1.4, §3): per cycle, each active sequencer takes its next trip from
 * its descriptor FIFO when idle (program decode, switch tables, ITFE command, base address and view of the trip),
 * then issues one microinstruction — into its decoder FIFO (AMEM Read / Write, stalling when it is full), into the
 * weights port (AMEM Weights Read) or nowhere (the sequencers without a datapath model yet).
 */
import * as addressGen from './addressGen.js';
import * as opFields from './opFields.js';
import * as records from './records.js';
import { OpStore } from './tables.js';
import type { SeqState } from './records.js';
import { SEQ_DEPTH } from './sequencerCore.js';
import type { Uie } from './uie.js';
import * as weightsReadM from './weightsRead.js';
import { H_LAST, H_PC, H_POSTFINAL, H_SLOT } from './compute/unit.js';

// Hot-path bindings as module-local constants (V8 checks every read of an imported binding for TDZ; see uie.ts).
const { decodeFast, decodeRead, decodeWrite } = addressGen;
const { bindSeq } = opFields;
const { SEQ_AMEM_READ, SEQ_AMEM_WEIGHTS_READ, SEQ_AMEM_WRITE, SEQ_QUEUE, SEQ_SPEC, UieCodes } = records;
const { weightsRead } = weightsReadM;

export function stepSeq(u: Uie, s: SeqState): boolean {
  const core = s.core;
  // common case first: a running AMEM Read / Write core with room in its decoder FIFO (same steps as below)
  if (core.running && (s.id === SEQ_AMEM_READ || s.id === SEQ_AMEM_WRITE) && u.fastPaths) {
    const isRead = s.id === SEQ_AMEM_READ;
    const dec = isRead ? u.rd.dec : u.wr.dec;
    if (!dec.full) {
      if (!core.step()) return coreFault(u, s);
      u.stats.busyCycles[s.id]!++;
      u.stats.instructions[s.id]!++;
      decodeFast(u, s, dec, isRead);
      return true;
    }
  }
  if (!core.running) {
    if (s.qCount === 0) return false;
    // start the next trip from the descriptor FIFO (§3 item 1)
    const slotId = s.queue[s.qHead]!;
    // The ITFE and the index-pop count belong to one trip at a time: a trip that uses (or follows a trip that
    // used) indirection starts only once the previous trip's decoder entries have drained (docs/spec-notes.md).
    if (s.id === SEQ_AMEM_READ || s.id === SEQ_AMEM_WRITE) {
      const rd = s.id === SEQ_AMEM_READ;
      const np = u.trips.slots[slotId]!.params!;
      const ind = rd ? np.amem_read_indirect_vld : np.amem_write_indirect_vld;
      if ((ind || (rd ? u.rd.tripIndirect : u.wr.tripIndirect)) && !(rd ? u.rd.dec : u.wr.dec).empty) {
        u.blocked ??= u.blockMsg(s, 0);
        return false;
      }
      if (rd) u.rd.tripIndirect = !!ind;
      else u.wr.tripIndirect = !!ind;
    }
    s.qHead = (s.qHead + 1) % SEQ_QUEUE;
    s.qCount--;
    if (u.stopOnPop) u.visible = true;
    s.slot = slotId;
    const p = u.trips.slots[slotId]!.params!;
    u.config.decodeSeq(s);
    if (!s.op && s.opTable) {
      s.op = new OpStore(s.opTable, SEQ_DEPTH);
      bindSeq(s);
    }
    if (s.id === SEQ_AMEM_READ) u.config.decodeSwitches(0, s.usesPsw, s.usesCsw, u.rd.pswCur >= 0, u.rd.cswCur >= 0, u.rd.sw);
    else if (s.id === SEQ_AMEM_WRITE) u.config.decodeSwitches(1, s.usesPsw, s.usesCsw, u.wr.pswCur >= 0, u.wr.cswCur >= 0, u.wr.sw);
    core.start(p.start_pc[s.id] ?? 0, s.control);
    u.cmp.bySeq[s.id]?.startTrip(s);
    // the trip's base address and view for this sequencer, read once (descriptor objects may be slow dictionaries)
    s.base = s.id === SEQ_AMEM_READ ? p.amem_read_base_address : s.id === SEQ_AMEM_WRITE ? p.amem_write_base_address : p.amem_weights_base_address;
    s.view = (s.id === SEQ_AMEM_READ ? p.amem_read_bank_hash_dsbl : s.id === SEQ_AMEM_WRITE ? p.amem_write_bank_hash_dsbl : p.amem_weights_bank_hash_dsbl) ? 1 : 0;
    if (s.id === SEQ_AMEM_READ) {
      u.rd.pops = 0;
      if (p.amem_read_indirect_vld) u.rd.itfe.start(u.config.itfeCommand('read', p.amem_read_indirect_cmd_index));
      else u.rd.itfe.stop();
    } else if (s.id === SEQ_AMEM_WRITE) {
      u.wr.pops = 0;
      if (p.amem_write_indirect_vld) u.wr.itfe.start(u.config.itfeCommand('write', p.amem_write_indirect_cmd_index));
      else u.wr.itfe.stop();
    }
  }
  const isRead = s.id === SEQ_AMEM_READ;
  const isWrite = s.id === SEQ_AMEM_WRITE;
  if (isRead || isWrite) {
    const dec = isRead ? u.rd.dec : u.wr.dec;
    if (!stepUnlessFull(u, s, dec.full)) return false;
    if (u.fastPaths) decodeFast(u, s, dec, isRead);
    else if (isRead) decodeRead(u, s, dec);
    else decodeWrite(u, s, dec);
    return true;
  }
  // compute sequencers (WDP, GH, GV, GX, GWB): issue into the unit's decoder FIFO (seq §3), stall when it is full
  const unit = u.cmp.bySeq[s.id];
  if (unit !== undefined) {
    const dec = unit.dec;
    if (!stepUnlessFull(u, s, dec.full)) return false;
    const rec = dec.pushSlot(); // word offset of the record in dec.data
    const d = dec.data;
    d[rec + H_SLOT] = s.slot;
    d[rec + H_LAST] = core.done ? 1 : 0;
    d[rec + H_PC] = core.execPc;
    d[rec + H_POSTFINAL] = core.postFinal ? 1 : 0;
    unit.decode(s, rec);
    u.cmp.quiet = false;
    return true;
  }
  // AMEM Weights Read: one word per cycle into the FIFO to the weights decompressor (seq §7), stalling when it is full
  if (s.id === SEQ_AMEM_WEIGHTS_READ) {
    // port held by an access served late (AMEM bank conflict, amem/banks.ts; tick synced the arbiter)
    const held = u.amem.banks.freeAt[u.wt.client]!;
    if (held > u.now) {
      u.stats.stallCycles[s.id]!++;
      u.cmp.stats.stallAmemPort++;
      if (held < u.portWake) u.portWake = held;
      u.blocked ??= u.blockMsg(s, 3);
      return false;
    }
    if (!stepUnlessFull(u, s, !u.cmp.wdc.canAccept())) return false;
    if (s.kf) weightsRead(u, s, s.kf);
    u.cmp.quiet = false;
    if (core.done) u.seqDone(s.id, s.slot);
    return true;
  }
  // sequencers without a datapath model yet (VPU side): run the loop program only
  if (!s.warnedNoDatapath) {
    s.warnedNoDatapath = true;
    u.warnOnce(`nodp${s.id}`, UieCodes.unmodelled, `sequencer ${s.name} has no datapath model yet; its program runs without effects`, `${SEQ_SPEC} §4`);
  }
  if (!core.step()) return coreFault(u, s);
  u.stats.busyCycles[s.id]!++;
  u.stats.instructions[s.id]!++;
  if (core.done) u.seqDone(s.id, s.slot);
  return true;
}

/**
 * Issue of one instruction (seq §3): while the sequencer's consumer (decoder FIFO, decompressor input) is full the
 * sequencer stalls (counted, with the block reason); otherwise its core steps, counted busy. False when nothing issued.
 */
function stepUnlessFull(u: Uie, s: SeqState, full: boolean): boolean {
  if (full) {
    u.stats.stallCycles[s.id]!++;
    u.blocked ??= u.blockMsg(s, 1);
    return false;
  }
  if (!s.core.step()) return coreFault(u, s);
  u.stats.busyCycles[s.id]!++;
  u.stats.instructions[s.id]!++;
  return true;
}

export function coreFault(u: Uie, s: SeqState): boolean {
  if (s.core.fault === 'pc_overflow') {
    u.ruleError(UieCodes.pcOverflow, `sequencer ${s.name} ran past the end of its 32-word microcode memory without EOPGM`, `${SEQ_SPEC} §2.1`, s, s.core.pc);
    // treat as done so the simulation can end
    u.seqDone(s.id, s.slot);
  }
  return false;
}
