/**
 * The AMEM Weights Read sequencer's port (seq §7): address calculation of §7.2 (no indirection), post-final ->
 * Read_Const(0) (§7.3), alignment rules of §1.1 / §7.1. The weights decompressor and WDP side are not modelled yet:
 * the AMEM words are read (bank statistics, bytes) and dropped.
 */
import * as amemGeometry from '../../common/amem.js';
import { CLIENTS_PER_UIE, PORT_WEIGHTS } from '../amem/banks.js';
import * as codes from './codes.js';
import type { WeightsFieldArrays } from './opFields.js';
import type { SeqState } from './records.js';
import * as records from './records.js';
import { NUM_ITERS } from './sequencerCore.js';
import type { Uie } from './uie.js';

// Hot-path bindings as module-local constants: V8 checks every read of an imported binding for TDZ (a measured
// +13% instructions per flit); destructured once at load, they cost nothing. Cycle-free: no import below imports this file.
const { AMEM_VIEW_BIT } = amemGeometry;
const { WT_SRAM, WT_SRAM_RELU, WT_UNCOMPRESSED } = codes;
const { PTN_MASK, SEQ_SPEC, UieCodes } = records;

/**
 * AMEM Weights Read (seq §7): address calculation of §7.2 (no indirection), post-final -> Read_Const(0)
 * (§7.3), alignment rules of §1.1 / §7.1; the AMEM words are read (bank statistics, bytes) and dropped,
 * since the weights decompressor / WDP side is not modelled yet.
 */
export function weightsRead(u: Uie, s: SeqState, f: WeightsFieldArrays): void {
  const core = s.core;
  const pc = core.execPc;
  const op = f.opcd[pc]!;
  if ((op !== WT_SRAM && op !== WT_SRAM_RELU) || core.postFinal) return;
  let a = s.base + f.amem_addr_offset[pc]!;
  for (let i = 0; i < NUM_ITERS; i++) a += (core.execCount[i]! & 0xfff) * (f.iter_stride[pc * NUM_ITERS + i]! & 0xffff);
  a &= PTN_MASK;
  if (f.wdc_type[pc]! !== WT_UNCOMPRESSED && a & 7)
    u.ruleError(UieCodes.weightsAlign, `compressed-weights read (wdc_type ${f.wdc_type[pc]}) at 0x${(a * 16).toString(16)} is not 128-byte aligned`, `${SEQ_SPEC} §1.1, §7.1`, s, pc);
  else if (f.is_16bit[pc]! && a & 1)
    u.ruleError(UieCodes.oddPartition16, `16-bit weights read at odd partition address 0x${(a * 16).toString(16)}`, `${SEQ_SPEC} §1.1, §7.1`, s, pc);
  const n = f.num_ptns[pc]!;
  const view = s.view ? AMEM_VIEW_BIT : 0;
  // bank occupancy (amem/banks.ts); a held port does not stall Weights Read yet (no FIFO to the decompressor)
  u.amem.banks.claim(u.index * CLIENTS_PER_UIE + PORT_WEIGHTS, u.now, (a << 4) | view, n);
  for (let j = 0; j < n; j++) u.amem.readPartition32((((a + j) & PTN_MASK) << 4) | view, u.weights32, (j & 7) * 4);
  u.stats.bytesRead += n * 16;
  u.stats.weightsBytesRead += n * 16;
}
