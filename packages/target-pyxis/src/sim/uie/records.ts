/**
 * The records of one UIE model (pyxis-uie-sequencers-fspec.md §3-§6; pyxis-chip-fspec.md §11.4.2, §11.7.1): the
 * public parameter / option / statistics types, the per-sequencer and per-trip state records, and the word layouts of
 * the decoder-metadata record (one per issued microinstruction, seq §3) and of the per-pc decode templates.
 */
import type { CompiledTable } from '@pyxis/codec';
import { AMEM_BYTES, AMEM_PARTITION_BYTES } from '../../common/amem.js';
import { loadMemoryMap } from '../../common/memoryMap.js';
import type { ReadFieldArrays, WeightsFieldArrays, WriteFieldArrays } from './opFields.js';
import type { ControlStore, SequencerCore } from './sequencerCore.js';
import { NUM_ITERS } from './sequencerCore.js';
import type { OpStore } from './tables.js';
import { TGT_AMEM, TGT_GRID, TGT_VBUFFER } from './codes.js';
import type { Amem } from '../amem/amem.js';
import type { Diagnostic } from '@pyxis/diagnostics';
import type { UieParams } from '../config.js';
import type { UieObserver } from './observer.js';

export const SEQ_SPEC = 'pyxis-uie-sequencers-fspec.md';
export const CHIP_SPEC_F = 'pyxis-chip-fspec.md';

/** Diagnostic codes of the UIE datapath model. */
export const UieCodes = {
  itfeCount: 'SIM0601',
  oddPartition16: 'SIM0602',
  colRange: 'SIM0603',
  rmwBank: 'SIM0604',
  pcOverflow: 'SIM0605',
  itfeStarved: 'SIM0606',
  viewConflict: 'SIM0607',
  unmodelled: 'SIM0608',
  indirMode: 'SIM0609',
  weightsAlign: 'SIM0611',
} as const;

/** Sequencer ids (grammars/pyxis/isa.json; index in trip_valid_mask / start_pc). */

/** Sequencer ids (grammars/pyxis/memory_map.json, the order of isa.json; index in trip_valid_mask / start_pc). */
function seqId(name: string): number {
  const s = loadMemoryMap().byName.get(name);
  if (!s) throw new Error(`grammars/pyxis/memory_map.json has no sequencer \`${name}\``);
  return s.id;
}
export const SEQ_AMEM_READ = seqId('amem_read');
export const SEQ_AMEM_WRITE = seqId('amem_write');
export const SEQ_AMEM_WEIGHTS_READ = seqId('amem_weights_read');
export const NUM_SEQUENCERS = loadMemoryMap().sequencers.length;
/** `seqActive` bits of exactly the AMEM Read and AMEM Write sequencers (the steady-state batch case). */
export const RW_ACTIVE = (1 << SEQ_AMEM_READ) | (1 << SEQ_AMEM_WRITE);

/** Switchbox FIFO codes: AMEM Read `tgt_fifo` (seq §5.1), by name from amem_read_op (codes.ts). */
export const SB_GRID = TGT_GRID;
export const SB_VBUFFER = TGT_VBUFFER;
export const SB_AMEM = TGT_AMEM;


/** Decoded UIE trip descriptor fields (grammars/pyxis/desc_uie.json, chip §11.4.2). */
export interface UieTripParams {
  trip_id: number;
  trip_valid_mask: number;
  start_pc: ArrayLike<number>;
  amem_read_base_address: number;
  amem_weights_base_address: number;
  amem_write_base_address: number;
  amem_read_bank_hash_dsbl: number;
  amem_write_bank_hash_dsbl: number;
  amem_weights_bank_hash_dsbl: number;
  amem_read_indirect_vld: number;
  amem_write_indirect_vld: number;
  amem_read_indirect_cmd_index: number;
  amem_write_indirect_cmd_index: number;
  trip_power?: number;
}

/** The per-cluster config space as the UIE reads it (E's CfgSpace satisfies this). */
export interface UieCfgSpace {
  read(addr: number, dst: Uint8Array, off: number, len: number): void;
  readonly generation?: number;
}

export interface UieOptions {
  cluster: number;
  index: number;
  amem: Amem;
  /** Config space holding microcode/config tables at memory_map.json offsets (UIE u at u*uie_stride). */
  cfg?: UieCfgSpace;
  /** Byte offset of this UIE's block in `cfg` (default index * uie_stride). */
  cfgBase?: number;
  /** Cycles from AMEM write issue to commit (sim_config amem.write_commit_latency_cycles). */
  writeCommitLatency?: number;
  decoderFifoDepth?: number;
  /** The machine instance's UIE parameters (default: the shipped sim_config.json). */
  params?: UieParams;
  /**
   * The grid model (compute/) consumes `sbReadToGrid` and fills `sbGridToWrite`. Default true; false drops the
   * flits sent to the grid (counted) and leaves AMEM Write waiting on the grid FIFO blocked (tests of the seams).
   */
  attachGrid?: boolean;
  /** Skip the LLC arithmetic (`pyxis-sim run --timing-only`): data movement and timing only. */
  timingOnly?: boolean;
  /** Same for the VPU / vbuffer side (`sbReadToVbuffer`, `sbVbufferToWrite`). */
  attachVbuffer?: boolean;
  switchboxFifoDepth?: number;
  indexFifoDepth?: number;
  /** Statistics / trace observer (observer.ts; default none). */
  observer?: UieObserver;
  /** Called when a trip retires (all valid sequencers done and its writes committed, chip §11.7.1). */
  onTripDone?: (tripId: number, cycle: number) => void;
  /** Receives every diagnostic; default: errors are thrown as DiagnosticError, warnings kept in `warnings`. */
  onDiagnostic?: (d: Diagnostic) => void;
  /**
   * Called for every partition written partially (read-merge-write, seq §6.4, chip §7.4.2) with its byte
   * address (view bit included), the trip id and the cycle, so the chip model can check the rule that
   * overlapping partial writes from different UIEs must be serialised by a barrier (chip §7.4.2, §11.7).
   */
  onPartialWrite?: (byteAddr: number, tripId: number, cycle: number, rmw?: boolean) => void;
  /**
   * Datapath fast paths (default true): deferred switchbox flits, composed conversion tables, identity
   * RPSW/RCSW/WPSW/WCSW entries skipped, whole AMEM words moved as blocks. `false` runs the general path
   * (every flit converted to RFP16 columns on read and back on write, every switch applied); results and
   * statistics are identical, which the tests check.
   */
  fastPaths?: boolean;
}

// Decoder-metadata record layout (Int32 words).
export const R_OP = 0;
export const R_ADDR = 1;
export const R_VIEW = 2;
export const R_DT = 3;
export const R_FIFO = 4;
export const R_CONST = 5;
export const R_N = 6;
export const R_FLAGS = 7;
export const R_PSWBASE = 8;
export const R_PSWITER = 9;
export const R_CSW = 10;
export const R_MASK = 11;
export const R_ZSW = 12;
export const R_EB = 13;
export const R_SLOT = 14;
export const R_COLOFF = 15;
export const R_SX = 16;
export const R_SY = 17;
export const R_PC = 18;
export const R_RMW = 19;
export const REC_WORDS = 20;
export const F_INDIR = 1;
export const F_POP = 8;
export const F_EOP = 16;
export const F_PAD = 32;
export const F_ROT = 64;
export const F_PF = 128;
export const MODE_SHIFT = 1;

/** Partition address mask: AMEM byte address [25:4] (chip §7), from the one AMEM geometry. */
export const PTN_MASK = AMEM_BYTES / AMEM_PARTITION_BYTES - 1;
/** Lane -> logical partition for serialized FP16 (chip §7.3.1 READ table); SIGMA_INV = logical -> lane (WRITE table). */
export const SIGMA_INV = [0, 2, 4, 6, 1, 3, 5, 7] as const;
/** 16-bit access at lane offset 0: 4-word lane chunk (cycle * 8 + lane) of memory partition j of the first / second word. */
export const WIDE_PERM_LO = Uint8Array.from({ length: 8 }, (_, j) => (j & 1) * 8 + SIGMA_INV[j >> 1]!);
export const WIDE_PERM_HI = Uint8Array.from({ length: 8 }, (_, j) => (j & 1) * 8 + SIGMA_INV[4 + (j >> 1)]!);

/** Per-sequencer statistics (typed arrays indexed by sequencer id). */
export interface UieStats {
  busyCycles: Float64Array;
  /** Cycles the sequencer core could not issue because its decoder FIFO was full (§3 backpressure). */
  stallCycles: Float64Array;
  /** Cycles the head of the decoder FIFO waited (switchbox FIFO empty/full, index FIFO, AMEM port): [amem_read, amem_write]. */
  datapathStallCycles: Float64Array;
  instructions: Float64Array;
  /** AMEM bytes read by AMEM Read, AMEM Weights Read (also in `weightsBytesRead`) and written by AMEM Write. */
  bytesRead: number;
  bytesWritten: number;
  weightsBytesRead: number;
  flitsToAmemWrite: number;
  /** Flits sent to the (unmodelled) grid / vbuffer, dropped. */
  flitsDropped: number;
  padsInserted: number;
  discards: number;
  rmwAdds: number;
  partialWrites: number;
  indirectReads: number;
  indirectWrites: number;
  tripsDone: number;
}

export interface TripSlot {
  active: boolean;
  tripId: number;
  params: UieTripParams | undefined;
  /** Valid sequencers not yet done (bit = sequencer id). */
  pending: number;
  /** Outstanding (posted, uncommitted) AMEM writes (the tracker counter of §6.8). */
  writes: number;
}

export interface SeqState {
  readonly id: number;
  readonly name: string;
  readonly core: SequencerCore;
  control: ControlStore;
  op: OpStore | undefined;
  controlTable: CompiledTable | undefined;
  opTable: CompiledTable | undefined;
  /** Trip slots queued for this sequencer (its shallow descriptor FIFO, §3 item 1). */
  readonly queue: Int32Array;
  qHead: number;
  qCount: number;
  slot: number;
  /** Decoded-memory cache key. */
  gen: number;
  rawCtl: Uint8Array | undefined;
  rawOp: Uint8Array | undefined;
  rf: ReadFieldArrays | undefined;
  wf: WriteFieldArrays | undefined;
  kf: WeightsFieldArrays | undefined;
  warnedNoDatapath: boolean;
  /** Some pc of the decoded program sets *psw_config_vld / *csw_switch_config_vld (AMEM Read/Write only). */
  usesPsw: boolean;
  usesCsw: boolean;
  /** Current trip's AMEM base address (partition units) and view bit (1 = bank hashing disabled) for this sequencer. */
  base: number;
  view: number;
  /**
   * Decode templates (AMEM Read/Write, rebuilt whenever the op memory is (re)bound): `tmpl[pc * REC_WORDS ..]` is the
   * decoder record's static part for pc, `aux[pc * AUX_WORDS + A_*]` the
   * per-pc inputs of the dynamic part. Only used with fast paths; the general path decodes field by field.
   */
  tmpl: Int32Array | undefined;
  aux: Int32Array | undefined;
  /** Serial number of `tmpl` (a new one per rebuild): decoder slots remember which template's static words they hold. */
  tmplId: number;
}

/** Tracking IDs (trips in flight, chip §11.7.1) and the depth of each sequencer's descriptor FIFO (§3 item 1). */
export const TRIP_SLOTS = 3;
export const SEQ_QUEUE = 2;

// Decode-template aux words per pc (see SeqState.aux, Uie.decodeFast).
export const A_OPCD = 0;
export const A_FLAGS = 1; // static flags: F_ROT
export const A_CONST = 2;
export const A_PADMASK = 3;
export const A_STARTPAD = 4;
export const A_ENDPAD = 5;
export const A_INDIR = 6; // 0, or F_INDIR | mode << MODE_SHIFT | F_POP? when indir_vld
export const A_NBASE_INDIR = 7; // iterators in the direct part of an indirect address (seq §5.2.2)
export const A_OFFSET = 8;
export const A_PSW_ITER_ID = 9;
export const A_PSW_ITER_STRIDE = 10;
export const A_CSW_VLD = 11;
export const A_CSW_BASE = 12;
export const A_CSW_ITER_ID = 13;
export const A_CSW_ITER_STRIDE = 14;
export const A_STRIDE = 15; // 6 words: iter_stride[i] & 0xffff
export const A_NZ = A_STRIDE + NUM_ITERS; // bit i: iter_stride[i] & 0xffff is not 0 (direct address: all iterators)
export const A_NZ_INDIR = A_NZ + 1; // the same, restricted to the direct part of an indirect address (A_NBASE_INDIR)
export const AUX_WORDS = A_NZ_INDIR + 1;
