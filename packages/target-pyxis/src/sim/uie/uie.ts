/**
 * One UIE's sequencers and data-movement datapath (pyxis-uie-sequencers-fspec.md
 * §2-§8; pyxis-chip-fspec.md §6.2.1-§6.2.3, §7, §11.7.1):
 *
 *   13 sequencer cores (§2.1.4) -> per-sequencer decoder-metadata FIFO (§3)
 *   AMEM Read: address calc (§5.2, ITFE §8) -> AMEM (§7) -> RPSW -> 8b->16b
 *              -> RZSW -> RCSW + column mask -> switchbox FIFO (chip §6.2.3)
 *   AMEM Write: switchbox FIFO -> WZSW -> WCSW + mask -> 16b->8b -> WPSW
 *              -> AMEM write / partial merge / RMW_Add (§6) -> completion tracking (§6.8)
 *
 * The grid and VPU are not modelled yet: flits sent to them are counted and
 * dropped (warning), their sequencers run their loop programs without a
 * datapath (warning), and AMEM Write reading from their switchbox FIFOs waits
 * forever (reported by `blockedReason`, so the kernel's deadlock report names it).
 */
import { loadGrammarJson, loadTable, readField, type CompiledTable } from '@pyxis/codec';
import { DiagnosticError, error, warning, type Diagnostic } from '@pyxis/diagnostics';
import type { SimEngine } from '@pyxis/sim';
import { Fifo } from '@pyxis/sim';
import { Amem, AMEM_VIEW_BIT } from '../amem/amem.js';
import { addCodes, compositeKey, compositeTable, from16Table, is16bit, to16Table, type CompositeTable } from './convert.js';
import { Itfe, type ItfeCommand } from './itfe.js';
import { ControlStore, decodeControlStore, emptyControlStore, NUM_ITERS, SEQ_DEPTH, SequencerCore } from './sequencerCore.js';
import { convertLanesTo16, SB_META, SwitchboxFifo } from './switchbox.js';
import { decodeOpStore, decodeSwitchTables, identitySwitchTables, OpStore, updateSwitchSummaries, type SwitchTables } from './tables.js';

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
  noTracker: 'SIM0610',
  weightsAlign: 'SIM0611',
} as const;

/** Sequencer ids (grammars/pyxis/isa.json; index in trip_valid_mask / start_pc). */
export const SEQ_AMEM_READ = 0;
export const SEQ_AMEM_WRITE = 1;
export const SEQ_AMEM_WEIGHTS_READ = 2;
export const NUM_SEQUENCERS = 13;

/** Switchbox FIFO codes: AMEM Read `tgt_fifo` / AMEM Write `src_fifo` (seq §5.1, §6.1). */
export const SB_GRID = 0;
export const SB_VBUFFER = 1;
export const SB_AMEM = 2;

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

interface MemoryMapRegion {
  name: string;
  offset: number;
  stride: number;
  words: number;
  table?: string;
}
interface MemoryMap {
  uie_stride: number;
  sequencers: Array<{ id: number; name: string; control: MemoryMapRegion; op: MemoryMapRegion }>;
  regions: MemoryMapRegion[];
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
  /**
   * A grid model consumes `sbReadToGrid` and fills `sbGridToWrite` (next issue). Default false: flits sent to
   * the grid are counted and dropped, and AMEM Write waiting on the grid FIFO blocks (reported by blockedReason).
   */
  attachGrid?: boolean;
  /** Same for the VPU / vbuffer side (`sbReadToVbuffer`, `sbVbufferToWrite`). */
  attachVbuffer?: boolean;
  switchboxFifoDepth?: number;
  indexFifoDepth?: number;
  /** Called when a trip retires (all valid sequencers done and its writes committed, chip §11.7.1). */
  onTripDone?: (tripId: number, cycle: number) => void;
  /** Receives every diagnostic; default: errors are thrown as DiagnosticError, warnings kept in `warnings`. */
  onDiagnostic?: (d: Diagnostic) => void;
  /**
   * Called for every partition written partially (read-merge-write, seq §6.4, chip §7.4.2) with its byte
   * address (view bit included), the trip id and the cycle, so the chip model can check the rule that
   * overlapping partial writes from different UIEs must be serialised by a barrier (chip §7.4.2, §11.7).
   */
  onPartialWrite?: (byteAddr: number, tripId: number, cycle: number) => void;
  /**
   * Datapath fast paths (default true): deferred switchbox flits, composed conversion tables, identity
   * RPSW/RCSW/WPSW/WCSW entries skipped, whole AMEM words moved as blocks. `false` runs the general path
   * (every flit converted to RFP16 columns on read and back on write, every switch applied); results and
   * statistics are identical, which the tests check.
   */
  fastPaths?: boolean;
}

// Decoder-metadata record layout (Int32 words).
const R_OP = 0;
const R_ADDR = 1;
const R_VIEW = 2;
const R_DT = 3;
const R_FIFO = 4;
const R_CONST = 5;
const R_N = 6;
const R_FLAGS = 7;
const R_PSWBASE = 8;
const R_PSWITER = 9;
const R_CSW = 10;
const R_MASK = 11;
const R_ZSW = 12;
const R_EB = 13;
const R_SLOT = 14;
const R_COLOFF = 15;
const R_SX = 16;
const R_SY = 17;
const R_PC = 18;
const R_RMW = 19;
const REC_WORDS = 20;
/** Steady-state batches (`Uie.steadyBatch`): at least this many cycles; after a failed check, retry this many cycles later. */
const BATCH_MIN = 16;
const BATCH_RETRY = 32;
const F_INDIR = 1;
const F_POP = 8;
const F_EOP = 16;
const F_PAD = 32;
const F_ROT = 64;
const F_PF = 128;
const MODE_SHIFT = 1;

const PTN_MASK = (1 << 22) - 1;
/** Lane -> logical partition for serialized FP16 (chip §7.3.1 READ table); SIGMA_INV = logical -> lane (WRITE table). */
const SIGMA_INV = [0, 2, 4, 6, 1, 3, 5, 7] as const;
/** 16-bit access at lane offset 0: 4-word lane chunk (cycle * 8 + lane) of memory partition j of the first / second word. */
const WIDE_PERM_LO = Uint8Array.from({ length: 8 }, (_, j) => (j & 1) * 8 + SIGMA_INV[j >> 1]!);
const WIDE_PERM_HI = Uint8Array.from({ length: 8 }, (_, j) => (j & 1) * 8 + SIGMA_INV[4 + (j >> 1)]!);

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

interface TripSlot {
  active: boolean;
  tripId: number;
  params: UieTripParams | undefined;
  /** Valid sequencers not yet done (bit = sequencer id). */
  pending: number;
  /** Outstanding (posted, uncommitted) AMEM writes (the tracker counter of §6.8). */
  writes: number;
}

interface SeqState {
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

let tmplSerial = 0;

const READ_FIELDS = [
  'opcd', 'data_type', 'tgt_fifo', 'amem_addr_offset', 'iter_stride', 'indir_vld', 'indir_mode', 'indir_fifo_pop_enbl', 'rd_const_value',
  'num_logical_ptns', 'start_row_pad', 'end_row_pad', 'pad_row_iter_mask', 'rpsw_config_idx_base', 'rpsw_rot_enbl', 'rpsw_config_iter_id',
  'rpsw_config_iter_stride', 'rpsw_config_vld', 'rcsw_switch_config_idx_base', 'rcsw_switch_config_iter_id', 'rcsw_switch_config_iter_stride',
  'rcsw_switch_config_vld', 'rcsw_col_mask_config_idx', 'rzsw_config', 'eb_adj',
] as const;
const WRITE_FIELDS = [
  'opcd', 'data_type', 'src_fifo', 'amem_addr_offset', 'iter_stride', 'indir_vld', 'indir_mode', 'indir_fifo_pop_enbl', 'rmw_rd_addr_offset',
  'logical_col_offset', 'num_logical_cols', 'wpsw_config_idx_base', 'wpsw_rot_enbl', 'wpsw_config_iter_id', 'wpsw_config_iter_stride', 'wpsw_config_vld',
  'wcsw_switch_config_idx_base', 'wcsw_switch_config_iter_id', 'wcsw_switch_config_iter_stride', 'wcsw_switch_config_vld', 'wcsw_col_mask_config_idx',
  'wzsw_config', 'eb_adj',
] as const;
const WEIGHTS_FIELDS = ['opcd', 'num_ptns', 'is_16bit', 'amem_addr_offset', 'iter_stride', 'wdc_type'] as const;

const NO_FIELD = new Int32Array(0);
/*
 * Op-memory field arrays bound once per decode so the per-instruction decoders do plain property loads. Classes with
 * declared fields keep V8's fast (in-object) property layout; an object filled by keyed stores goes to dictionary mode.
 */
class ReadFieldArrays {
  opcd = NO_FIELD;
  data_type = NO_FIELD;
  tgt_fifo = NO_FIELD;
  amem_addr_offset = NO_FIELD;
  iter_stride = NO_FIELD;
  indir_vld = NO_FIELD;
  indir_mode = NO_FIELD;
  indir_fifo_pop_enbl = NO_FIELD;
  rd_const_value = NO_FIELD;
  num_logical_ptns = NO_FIELD;
  start_row_pad = NO_FIELD;
  end_row_pad = NO_FIELD;
  pad_row_iter_mask = NO_FIELD;
  rpsw_config_idx_base = NO_FIELD;
  rpsw_rot_enbl = NO_FIELD;
  rpsw_config_iter_id = NO_FIELD;
  rpsw_config_iter_stride = NO_FIELD;
  rpsw_config_vld = NO_FIELD;
  rcsw_switch_config_idx_base = NO_FIELD;
  rcsw_switch_config_iter_id = NO_FIELD;
  rcsw_switch_config_iter_stride = NO_FIELD;
  rcsw_switch_config_vld = NO_FIELD;
  rcsw_col_mask_config_idx = NO_FIELD;
  rzsw_config = NO_FIELD;
  eb_adj = NO_FIELD;
}
class WriteFieldArrays {
  opcd = NO_FIELD;
  data_type = NO_FIELD;
  src_fifo = NO_FIELD;
  amem_addr_offset = NO_FIELD;
  iter_stride = NO_FIELD;
  indir_vld = NO_FIELD;
  indir_mode = NO_FIELD;
  indir_fifo_pop_enbl = NO_FIELD;
  rmw_rd_addr_offset = NO_FIELD;
  logical_col_offset = NO_FIELD;
  num_logical_cols = NO_FIELD;
  wpsw_config_idx_base = NO_FIELD;
  wpsw_rot_enbl = NO_FIELD;
  wpsw_config_iter_id = NO_FIELD;
  wpsw_config_iter_stride = NO_FIELD;
  wpsw_config_vld = NO_FIELD;
  wcsw_switch_config_idx_base = NO_FIELD;
  wcsw_switch_config_iter_id = NO_FIELD;
  wcsw_switch_config_iter_stride = NO_FIELD;
  wcsw_switch_config_vld = NO_FIELD;
  wcsw_col_mask_config_idx = NO_FIELD;
  wzsw_config = NO_FIELD;
  eb_adj = NO_FIELD;
}
class WeightsFieldArrays {
  opcd = NO_FIELD;
  num_ptns = NO_FIELD;
  is_16bit = NO_FIELD;
  amem_addr_offset = NO_FIELD;
  iter_stride = NO_FIELD;
  wdc_type = NO_FIELD;
}

function bindFields<T extends object>(op: OpStore, names: readonly string[], o: T): T {
  for (const n of names) (o as Record<string, Int32Array>)[n] = op.field(n);
  return o;
}

interface SwitchLayout {
  psw: MemoryMapRegion;
  csw: MemoryMapRegion;
  mask: MemoryMapRegion;
  tp: CompiledTable;
  tc: CompiledTable;
  tm: CompiledTable;
}

const TRIP_SLOTS = 3;
const SEQ_QUEUE = 2;

let memoryMapCache: MemoryMap | undefined;
function memoryMap(): MemoryMap | undefined {
  if (memoryMapCache) return memoryMapCache;
  try {
    memoryMapCache = loadGrammarJson<MemoryMap>('pyxis', 'memory_map');
  } catch {
    memoryMapCache = undefined;
  }
  return memoryMapCache;
}

function tryTable(name: string | undefined): CompiledTable | undefined {
  if (!name) return undefined;
  try {
    return loadTable('pyxis', name);
  } catch {
    return undefined;
  }
}

export class Uie implements SimEngine {
  readonly name: string;
  readonly cluster: number;
  readonly index: number;
  readonly amem: Amem;
  readonly stats: UieStats;
  readonly warnings: Diagnostic[] = [];
  readonly seqs: SeqState[] = [];
  /** Switchbox FIFO AMEM Read -> AMEM Write (chip §6.2.3), 128 x FP16 per entry. */
  /** Switchbox FIFOs (chip §6.2.3), 128 x RFP16 per entry. */
  readonly sbReadToWrite: SwitchboxFifo;
  readonly sbReadToGrid: SwitchboxFifo;
  readonly sbReadToVbuffer: SwitchboxFifo;
  readonly sbGridToWrite: SwitchboxFifo;
  readonly sbVbufferToWrite: SwitchboxFifo;
  /** Whether a grid / VPU model consumes and produces the grid / vbuffer FIFOs (else: dropped / never filled). */
  private readonly attachGrid: boolean;
  private readonly attachVbuffer: boolean;
  /** See UieOptions.fastPaths. */
  readonly fastPaths: boolean;
  // last composed conversion (read dt/eb/relu x write dt/eb), so the hot path does no Map lookup per flit
  private compKey = -1;
  private comp: CompositeTable | undefined;
  readonly readDec: Fifo;
  readonly writeDec: Fifo;
  readonly itfeRead: Itfe;
  readonly itfeWrite: Itfe;
  /** Applied switch tables (decoded from cfg at trip start). */
  readonly readSw: SwitchTables = identitySwitchTables();
  readonly writeSw: SwitchTables = identitySwitchTables();
  private readonly cfg: UieCfgSpace | undefined;
  private readonly cfgBase: number;
  private readonly mm: MemoryMap | undefined;
  private readonly commitLatency: number;
  private readonly onTripDone: ((tripId: number, cycle: number) => void) | undefined;
  private readonly onDiagnostic: ((d: Diagnostic) => void) | undefined;
  private readonly onPartialWrite: ((byteAddr: number, tripId: number, cycle: number) => void) | undefined;
  private readonly slots: TripSlot[] = [];
  private nextSlot = 0;
  private oldestSlot = 0;
  private activeTrips = 0;
  // commit ring (posted writes in issue order; constant latency keeps it ordered)
  private readonly commitAt: Float64Array;
  private readonly commitSlot: Int8Array;
  private readonly commitMask: number;
  private cHead = 0;
  private cCount = 0;
  private readPortFree = 0;
  private writePortFree = 0;
  // applied (held) switch configuration indexes
  private rpswCur = -1;
  private rcswCur = -1;
  private wpswCur = -1;
  private wcswCur = -1;
  // indirect bookkeeping per side: index pops in the current trip
  private readPops = 0;
  private readTripIndirect = false;
  private writeTripIndirect = false;
  private writePops = 0;
  private lastDidWork = false;
  /** `runAhead` tries a steady-state batch again from this cycle (after a failed check; any value gives the same results). */
  private batchRetry = 0;
  /** Cycles simulated by steady-state batches (diagnostics for tests and benchmarks; not a statistic of the model). */
  batchedCycles = 0;
  /** Odometer copies of the AMEM Read / Write cores' counts during a batch. */
  private readonly batchCntR = new Int32Array(NUM_ITERS);
  private readonly batchCntW = new Int32Array(NUM_ITERS);
  /** Bit id set while sequencer id has a running core or a queued trip (the tick loop visits only these). */
  private seqActive = 0;
  /** Bit tgt set once the dropped-flit warning for switchbox target tgt was issued (no string building per flit). */
  private dropWarned = 0;
  private portWake = Infinity;
  private now = 0;
  /** Per decoder FIFO slot: template id * 65536 + pc whose static record words the slot holds (decodeFast skips rewriting them). */
  private readonly decKeyRead: Float64Array;
  private readonly decKeyWrite: Float64Array;
  // run-ahead (temporal decoupling, docs/simulator.md "Quantum"): retirements captured instead of reported
  private deferring = false;
  private readonly deferredIds = new Float64Array(TRIP_SLOTS);
  private deferredAt = 0;
  private deferredN = 0;
  /** Set by a retirement (always) or a descriptor-FIFO pop (when `stopOnPop`) during run-ahead: ends the run-ahead after the cycle. */
  private visible = false;
  private stopOnPop = false;
  private blocked: string | undefined;
  private swGen = -1;
  /** Last decoded raw bytes and cfg generation of the switch-table parts, index side * 3 + [psw, csw, mask]. */
  private readonly rawSw: Array<Uint8Array | undefined> = [];
  private readonly swGens = new Float64Array(6).fill(-1);
  // scratch buffers (no per-cycle allocation)
  private readonly lanes = new Uint8Array(256);
  private readonly lanes2 = new Uint8Array(256);
  private readonly lanes32 = new Uint32Array(this.lanes.buffer);
  private readonly lanes2_32 = new Uint32Array(this.lanes2.buffer);
  /** 32-word views of the first 128 lane bytes (whole-word AMEM writes by `set`). */
  private readonly lanesWord = this.lanes32.subarray(0, 32);
  private readonly lanes2Word = this.lanes2_32.subarray(0, 32);
  private readonly weights32 = new Uint32Array(32);
  private readonly cols = new Uint16Array(128);
  private readonly cols2 = new Uint16Array(128);
  private readonly ptnBuf = new Uint8Array(16);
  private readonly rmwBuf = new Uint8Array(16);
  private readonly warned = new Set<string>();

  constructor(opts: UieOptions) {
    this.cluster = opts.cluster;
    this.index = opts.index;
    this.name = `c${opts.cluster}.uie${opts.index}`;
    this.amem = opts.amem;
    this.cfg = opts.cfg;
    this.mm = memoryMap();
    this.cfgBase = opts.cfgBase ?? opts.index * (this.mm?.uie_stride ?? 1 << 20);
    this.commitLatency = opts.writeCommitLatency ?? 100;
    this.onTripDone = opts.onTripDone;
    this.onDiagnostic = opts.onDiagnostic;
    this.onPartialWrite = opts.onPartialWrite;
    const decDepth = opts.decoderFifoDepth ?? 4;
    this.readDec = new Fifo(`${this.name}.amem_read.dec`, decDepth, REC_WORDS);
    this.writeDec = new Fifo(`${this.name}.amem_write.dec`, decDepth, REC_WORDS);
    // indexed by the slot's word offset in the FIFO's data (no division per decode)
    this.decKeyRead = new Float64Array(decDepth * REC_WORDS).fill(-1);
    this.decKeyWrite = new Float64Array(decDepth * REC_WORDS).fill(-1);
    const sbDepth = opts.switchboxFifoDepth ?? 4;
    this.sbReadToWrite = new SwitchboxFifo(`${this.name}.sb.amem_read->amem_write`, sbDepth);
    this.sbReadToGrid = new SwitchboxFifo(`${this.name}.sb.amem_read->grid`, sbDepth);
    this.sbReadToVbuffer = new SwitchboxFifo(`${this.name}.sb.amem_read->vbuffer`, sbDepth);
    this.sbGridToWrite = new SwitchboxFifo(`${this.name}.sb.grid->amem_write`, sbDepth);
    this.sbVbufferToWrite = new SwitchboxFifo(`${this.name}.sb.vbuffer->amem_write`, sbDepth);
    this.attachGrid = opts.attachGrid ?? false;
    this.attachVbuffer = opts.attachVbuffer ?? false;
    this.fastPaths = opts.fastPaths ?? true;
    this.itfeRead = new Itfe(`${this.name}.itfe_read`, this.amem, opts.indexFifoDepth ?? 128);
    this.itfeWrite = new Itfe(`${this.name}.itfe_write`, this.amem, opts.indexFifoDepth ?? 128);
    // at most 2 posted writes per cycle can be outstanding for `commitLatency` cycles
    let ring = 64; // small: the ring is walked every cycle, a 48-UIE chip keeps 48 of them hot
    while (ring < 2 * this.commitLatency + 16) ring *= 2;
    this.commitMask = ring - 1;
    this.commitAt = new Float64Array(ring);
    this.commitSlot = new Int8Array(ring);
    for (let i = 0; i < TRIP_SLOTS; i++) this.slots.push({ active: false, tripId: 0, params: undefined, pending: 0, writes: 0 });
    const names = this.mm?.sequencers.map((s) => s.name) ?? [];
    for (let id = 0; id < NUM_SEQUENCERS; id++) {
      const m = this.mm?.sequencers[id];
      this.seqs.push({
        id,
        name: names[id] ?? `seq${id}`,
        core: new SequencerCore(emptyControlStore()),
        control: emptyControlStore(),
        op: undefined,
        controlTable: tryTable(m?.control.table),
        opTable: tryTable(m?.op.table),
        queue: new Int32Array(SEQ_QUEUE),
        qHead: 0,
        qCount: 0,
        slot: -1,
        gen: -1,
        rawCtl: undefined,
        rawOp: undefined,
        rf: undefined,
        wf: undefined,
        kf: undefined,
        warnedNoDatapath: false,
        usesPsw: false,
        usesCsw: false,
        base: 0,
        view: 0,
        tmpl: undefined,
        aux: undefined,
        tmplId: 0,
      });
    }
    this.stats = {
      busyCycles: new Float64Array(NUM_SEQUENCERS),
      stallCycles: new Float64Array(NUM_SEQUENCERS),
      datapathStallCycles: new Float64Array(2),
      instructions: new Float64Array(NUM_SEQUENCERS),
      bytesRead: 0,
      bytesWritten: 0,
      weightsBytesRead: 0,
      flitsToAmemWrite: 0,
      flitsDropped: 0,
      padsInserted: 0,
      discards: 0,
      rmwAdds: 0,
      partialWrites: 0,
      indirectReads: 0,
      indirectWrites: 0,
      tripsDone: 0,
    };
  }

  // ------------------------------------------------------------------ trips

  /** True when a new trip can be accepted (a free tracking ID / scoreboard entry, chip §11.7.1, and room in every sequencer's descriptor FIFO). */
  canStartTrip(): boolean {
    if (this.slots[this.nextSlot]!.active) return false;
    for (const s of this.seqs) if (s.qCount >= SEQ_QUEUE) return false;
    return true;
  }

  /**
   * Queues a trip (chip §11.4.2). Returns false (nothing queued) when
   * `canStartTrip()` is false; the caller retries later.
   */
  startTrip(trip: UieTripParams): boolean {
    if (!this.canStartTrip()) return false;
    const slotId = this.nextSlot;
    const slot = this.slots[slotId]!;
    slot.active = true;
    slot.tripId = trip.trip_id;
    slot.params = trip;
    slot.writes = 0;
    const mask = trip.trip_valid_mask & ((1 << NUM_SEQUENCERS) - 1);
    slot.pending = mask;
    for (let id = 0; id < NUM_SEQUENCERS; id++) {
      if (!((mask >> id) & 1)) continue;
      const s = this.seqs[id]!;
      s.queue[(s.qHead + s.qCount) % SEQ_QUEUE] = slotId;
      s.qCount++;
      this.seqActive |= 1 << id;
    }
    this.nextSlot = (slotId + 1) % TRIP_SLOTS;
    this.activeTrips++;
    this.lastDidWork = true;
    return true;
  }

  get busy(): boolean {
    return this.activeTrips > 0;
  }

  nextWake(now: number): number {
    if (!this.busy) return Infinity;
    if (this.lastDidWork) return now;
    let w = Infinity;
    if (this.cCount > 0) w = Math.max(now, this.commitAt[this.cHead]!);
    // a datapath that waited for its AMEM port (16-bit serialization) wakes when the port frees
    if (this.portWake < w) w = Math.max(now, this.portWake);
    // A stalled tick counts stall statistics (decoder full, switchbox empty/full, index FIFO): such a UIE asks to be
    // ticked every cycle until it wakes, so its counters do not depend on whether other engines kept the kernel stepping
    // (and run-ahead, which ticks it alone, counts the same cycles). Blocked for good (Infinity): left to the deadlock check.
    if (this.blocked !== undefined && w !== Infinity) return now;
    return w;
  }

  // blockedReason texts, built once (the tick records which one applies without building strings)
  private readonly seqMsgs = new Map<SeqState, string[]>();
  private readonly sbMsgs = new Map<SwitchboxFifo, string>();
  private blockMsg(s: SeqState, kind: 0 | 1 | 2): string {
    let m = this.seqMsgs.get(s);
    if (!m) {
      m = [
        `${s.name}: next trip waits for the previous trip's indirect accesses to drain`,
        `${s.name}: decoder FIFO full (datapath backpressure)`,
        `${s.name}: waiting for ITFE index FIFO`,
      ];
      this.seqMsgs.set(s, m);
    }
    return m[kind]!;
  }
  private fifoMsg(f: SwitchboxFifo, readSide: boolean): string {
    let m = this.sbMsgs.get(f);
    if (!m) {
      if (readSide) m = `amem_read: switchbox FIFO ${f.name} full`;
      else {
        const src = f === this.sbGridToWrite ? SB_GRID : f === this.sbVbufferToWrite ? SB_VBUFFER : SB_AMEM;
        const unmodelled = (src === SB_GRID && !this.attachGrid) || (src === SB_VBUFFER && !this.attachVbuffer);
        m = `amem_write: waiting switchbox FIFO ${f.name} (empty${unmodelled ? `; the ${src === SB_GRID ? 'grid' : 'VPU'} is not modelled yet` : ''})`;
      }
      this.sbMsgs.set(f, m);
    }
    return m;
  }

  blockedReason(): string | undefined {
    if (!this.busy) return undefined;
    if (this.blocked) return this.blocked;
    if (this.cCount > 0) return `waiting for ${this.cCount} AMEM write commit(s) (seq §6.8)`;
    return undefined;
  }

  // ---------------------------------------------------------- diagnostics

  private report(d: Diagnostic): void {
    if (this.onDiagnostic) {
      this.onDiagnostic(d);
      return;
    }
    if (d.severity === 'error') throw new DiagnosticError(d);
    this.warnings.push(d);
  }

  private ruleError(code: string, msg: string, spec: string, seq: SeqState | undefined, pc: number): void {
    const span = seq ? { file: `${this.name}.${seq.name}.op`, offset: this.opAddr(seq.id) + pc * (this.mm?.sequencers[seq.id]?.op.stride ?? 0) } : undefined;
    this.report(error(code, `${this.name}: cycle ${this.now}: ${msg}`, { spec, ...(span ? { span } : {}), ...(seq ? { notes: [`sequencer ${seq.name}, pc ${pc}`] } : {}) }));
  }

  private warnOnce(key: string, code: string, msg: string, spec?: string): void {
    if (this.warned.has(key)) return;
    this.warned.add(key);
    this.report(warning(code, `${this.name}: ${msg}`, spec ? { spec } : {}));
  }

  // ------------------------------------------------------------- decoding

  private opAddr(id: number): number {
    return this.cfgBase + (this.mm?.sequencers[id]?.op.offset ?? 0);
  }

  private region(name: string): MemoryMapRegion | undefined {
    return this.mm?.regions.find((r) => r.name === name);
  }

  /** Reads `len` cfg bytes into a reusable scratch view (valid until the next call). */
  private readCfgInto(offset: number, len: number, _slot: number): Uint8Array {
    if (this.cfgScratch.length < len) this.cfgScratch = new Uint8Array(len);
    const v = this.cfgScratch.subarray(0, len);
    this.cfg?.read(this.cfgBase + offset, v, 0, len);
    return v;
  }
  private cfgScratch = new Uint8Array(0);

  private readCfg(offset: number, len: number): Uint8Array {
    const b = new Uint8Array(len);
    this.cfg?.read(this.cfgBase + offset, b, 0, len);
    return b;
  }

  /** Installs decoded microcode directly (tests/tools without a cfg space). */
  loadMicrocode(id: number, control: ControlStore, op?: OpStore): void {
    const s = this.seqs[id]!;
    s.control = control;
    s.op = op;
    s.gen = Number.POSITIVE_INFINITY;
    this.bind(s);
  }

  private bind(s: SeqState): void {
    if (!s.op) return;
    if (s.id === SEQ_AMEM_READ) {
      const f = (s.rf = bindFields(s.op, READ_FIELDS, new ReadFieldArrays()));
      s.usesPsw = f.rpsw_config_vld.some((v) => v !== 0);
      s.usesCsw = f.rcsw_switch_config_vld.some((v) => v !== 0);
      buildTemplates(s, f, true);
    } else if (s.id === SEQ_AMEM_WRITE) {
      const f = (s.wf = bindFields(s.op, WRITE_FIELDS, new WriteFieldArrays()));
      s.usesPsw = f.wpsw_config_vld.some((v) => v !== 0);
      s.usesCsw = f.wcsw_switch_config_vld.some((v) => v !== 0);
      buildTemplates(s, f, false);
    }
    else if (s.id === SEQ_AMEM_WEIGHTS_READ) s.kf = bindFields(s.op, WEIGHTS_FIELDS, new WeightsFieldArrays());
  }

  /** Installs switch tables directly (tests/tools without a cfg space). */
  loadSwitchTables(side: 'read' | 'write', t: SwitchTables): void {
    const dst = side === 'read' ? this.readSw : this.writeSw;
    dst.pswSrc.set(t.pswSrc);
    dst.pswZero.set(t.pswZero);
    dst.cswMux.set(t.cswMux);
    dst.cswSrc.set(t.cswSrc);
    dst.colMask.set(t.colMask);
    updateSwitchSummaries(dst);
    this.swGen = Number.POSITIVE_INFINITY;
  }

  /** Decodes a sequencer's control/op memories from cfg when they changed (generation check). */
  private decodeSeq(s: SeqState): void {
    if (!this.cfg || s.gen === Number.POSITIVE_INFINITY) return;
    const gen = this.cfg.generation ?? -2;
    if (gen === s.gen && gen !== -2) return;
    const m = this.mm?.sequencers[s.id];
    if (!m || !s.controlTable) return;
    s.gen = gen;
    // the generation moves on any cfg write (other UIEs, CSRs): re-decode only if this sequencer's bytes changed
    // compare in place against the last decoded bytes (scratch buffers: no allocation unless the bytes changed)
    const ctl = this.readCfgInto(m.control.offset, m.control.stride * m.control.words, 0);
    if (s.rawCtl && sameBytes(ctl, s.rawCtl)) {
      const opb = this.readCfgInto(m.op.offset, m.op.stride * m.op.words, 0);
      if (s.rawOp && sameBytes(opb, s.rawOp)) return;
    }
    s.rawCtl = this.readCfg(m.control.offset, m.control.stride * m.control.words);
    s.rawOp = this.readCfg(m.op.offset, m.op.stride * m.op.words);
    const opb = s.rawOp;
    s.control = decodeControlStore(s.controlTable, s.rawCtl, SEQ_DEPTH, m.control.stride, s.control);
    if (s.opTable) s.op = decodeOpStore(s.opTable, opb, SEQ_DEPTH, m.op.stride, s.op);
    this.bind(s);
  }

  /**
   * Re-decodes one side's switch tables (0 = read: RPSW/RCSW/mask, 1 = write: WPSW/WCSW/mask) from cfg at
   * that side's sequencer trip start, part by part, when the cfg generation moved and the bytes changed. The
   * PSW/CSW tables (6.5 KiB) are only looked at when the program can select an entry (`*_config_vld` at some
   * pc) or an entry selected earlier is still held; the column masks (used by every flit) always.
   */
  private decodeSwitches(side: 0 | 1, usesPsw: boolean, usesCsw: boolean): void {
    if (!this.cfg || this.swGen === Number.POSITIVE_INFINITY) return;
    const L = (this.swLayout[side] ??= this.switchLayout(side === 0 ? 'r' : 'w'));
    if (!L) return;
    const gen = this.cfg.generation ?? -2;
    const into = side === 0 ? this.readSw : this.writeSw;
    if (usesPsw || (side === 0 ? this.rpswCur : this.wpswCur) >= 0) this.syncSwitchPart(side * 3, L.psw, gen, L, into);
    if (usesCsw || (side === 0 ? this.rcswCur : this.wcswCur) >= 0) this.syncSwitchPart(side * 3 + 1, L.csw, gen, L, into);
    this.syncSwitchPart(side * 3 + 2, L.mask, gen, L, into);
  }

  /** Part k (side * 3 + [psw, csw, mask]): compare cfg bytes with the last decoded ones (no allocation), decode if changed. */
  private syncSwitchPart(k: number, r: MemoryMapRegion, gen: number, L: SwitchLayout, into: SwitchTables): void {
    if (gen === this.swGens[k] && gen !== -2) return;
    this.swGens[k] = gen;
    const len = r.stride * r.words;
    const prev = this.rawSw[k];
    if (prev && sameBytes(this.readCfgInto(r.offset, len, 0), prev)) return;
    const raw = this.readCfg(r.offset, len);
    this.rawSw[k] = raw;
    const part = k % 3;
    decodeSwitchTables(
      { psw: L.tp, csw: L.tc, mask: L.tm },
      part === 0 ? { psw: raw } : part === 1 ? { csw: raw } : { mask: raw },
      into,
      { psw: L.psw.stride, csw: L.csw.stride, mask: L.mask.stride },
    );
  }

  /** Memory-map regions and codec tables of one side's switch configuration (looked up once). */
  private readonly swLayout: Array<SwitchLayout | null | undefined> = [undefined, undefined];
  private switchLayout(side: 'r' | 'w'): SwitchLayout | null {
    const psw = this.region(`${side}psw.config`);
    const csw = this.region(`${side}csw.config`);
    const mask = this.region(`${side}csw.col_mask`);
    const tp = tryTable(psw?.table);
    const tc = tryTable(csw?.table);
    const tm = tryTable(mask?.table);
    if (!psw || !csw || !mask || !tp || !tc || !tm) return null;
    return { psw, csw, mask, tp, tc, tm };
  }

  private itfeCommand(side: 'read' | 'write', idx: number): ItfeCommand {
    const r = this.region(`itfe_${side}.cmd`);
    const t = tryTable(r?.table ?? 'itfe_command');
    const cmd: ItfeCommand = { indir_mode: 0, x_table_base_addr: 0, y_table_base_addr: 0, bank_hash_dsbl: 0, num_indices_per_table_m1: 0, repeat_count_m1: 0 };
    if (!r || !t || !this.cfg) return this.itfeOverride[side][idx] ?? cmd;
    const buf = this.readCfg(r.offset + idx * r.stride, r.stride);
    for (const k of Object.keys(cmd) as Array<keyof ItfeCommand>) if (t.byName.has(k)) cmd[k] = Number(readField(t, buf, k));
    return cmd;
  }

  /** ITFE command registers set directly (tests/tools without a cfg space), by side and index 0..3. */
  readonly itfeOverride: { read: Array<ItfeCommand | undefined>; write: Array<ItfeCommand | undefined> } = { read: [], write: [] };

  // ------------------------------------------------------------ the cycle

  tick(now: number): boolean {
    this.now = now;
    this.blocked = undefined;
    this.portWake = Infinity;
    let did = false;
    // 1. write commits (chip §11.7.1)
    while (this.cCount > 0 && this.commitAt[this.cHead]! <= now) {
      const sl = this.slots[this.commitSlot[this.cHead]!]!;
      sl.writes--;
      this.cHead = (this.cHead + 1) & this.commitMask;
      this.cCount--;
      did = true;
    }
    // 2. datapaths, downstream first
    if (this.issueWrite(now)) did = true;
    if (this.issueRead(now)) did = true;
    if (this.itfeRead.active && this.itfeRead.tick()) did = true;
    if (this.itfeWrite.active && this.itfeWrite.tick()) did = true;
    // 3. sequencer cores
    // (only sequencers with a running core or a queued trip: bit id of seqActive, visited in id order)
    let act = this.seqActive;
    while (act !== 0) {
      const bit = act & -act;
      act ^= bit;
      const sq = this.seqs[31 - Math.clz32(bit)]!;
      if (this.stepSeq(sq)) did = true;
      if (!sq.core.running && sq.qCount === 0) this.seqActive &= ~bit;
    }
    // 4. in-order trip retirement
    while (this.activeTrips > 0) {
      const sl = this.slots[this.oldestSlot]!;
      if (!sl.active || sl.pending !== 0 || sl.writes !== 0) break;
      sl.active = false;
      sl.params = undefined;
      this.activeTrips--;
      this.stats.tripsDone++;
      this.oldestSlot = (this.oldestSlot + 1) % TRIP_SLOTS;
      did = true;
      if (this.amem.stats.viewConflicts > 0 && this.amem.firstViewConflict)
        this.warnOnce('view', UieCodes.viewConflict, this.amem.firstViewConflict, `${CHIP_SPEC_F} §7.5`);
      if (this.deferring) {
        this.deferredIds[this.deferredN++] = sl.tripId;
        this.deferredAt = now;
        this.visible = true;
      } else this.onTripDone?.(sl.tripId, now);
    }
    this.lastDidWork = did;
    return did;
  }

  /**
   * Temporal decoupling (docs/simulator.md "Quantum"): simulates this UIE alone for cycles `from` .. at most
   * `limit - 1`, exactly as `tick` would on each of them, and returns the next cycle to simulate. It stops after the
   * first cycle with an externally visible event: a trip retirement (held back and reported by `flushDeferred`, which
   * the caller invokes when the global clock reaches that cycle) and, with `stopOnPop`, a sequencer taking a trip from
   * its descriptor FIFO (which can change `canStartTrip`). `did[c & mask]` receives 1 for each cycle with progress.
   * Cycles in which the UIE would do nothing (waiting for write commits or an AMEM port, `nextWake`) are skipped
   * as the kernel skips them; a UIE stalled for good (nextWake Infinity while blocked) hands back to the kernel.
   * The caller guarantees that nothing outside can start a trip or change AMEM under it in the window (legal
   * programs, chip §11.7).
   */
  runAhead(from: number, limit: number, did: Uint8Array, mask: number, stopOnPop: boolean): number {
    this.deferring = true;
    this.visible = false;
    this.stopOnPop = stopOnPop;
    let c = from;
    try {
      while (c < limit) {
        if (this.fastPaths && this.seqActive === 3 && c >= this.batchRetry && limit - c >= BATCH_MIN) {
          const k = this.steadyBatch(c, limit);
          if (k > 0) {
            this.batchedCycles += k;
            for (let j = 0; j < k; j++) did[(c + j) & mask] = 1;
            c += k;
            continue;
          }
          this.batchRetry = c + BATCH_RETRY;
        }
        const d = this.tick(c);
        did[c & mask] = d ? 1 : 0;
        c++;
        if (this.visible) break;
        if (!d) {
          const w = this.nextWake(c);
          if (w > c) {
            if (w === Infinity && this.blocked !== undefined) break;
            const to = w < limit ? w : limit;
            while (c < to) did[c++ & mask] = 0;
          }
        }
      }
    } finally {
      this.deferring = false;
      this.stopOnPop = false;
    }
    return c;
  }

  /**
   * Steady-state batch (fast paths, inside `runAhead` only): when AMEM Read and AMEM Write are both in a pure strided
   * loop nest — each core repeating one pc whose steps only advance its end-of-loop iterators as an odometer
   * (`SequencerCore.repeatable` / `advance`: no final_iter_mask, every sol_pc this pc, not the nest's last step), every
   * decoder record queued or to be produced a full aligned 8-bit Read_SRAM / Write of 128 columns through the
   * AMEM Read -> AMEM Write switchbox FIFO with no padding, indirection, end of program, partition / column switching
   * or masking, and an identity composed conversion — the next K cycles are exactly: per cycle t, the write commits due
   * at t, one whole-word write of the switchbox head at the next write address, one whole-word read into the switchbox
   * at the next read address, and one step of each core. They are done here without the per-cycle decoder records:
   * the addresses are the records' (queued) or computed as `decodeFast` would (base + offset + sum of
   * (count & 0xfff) * stride); the decoder FIFOs are left holding exactly the records of the last steps (which are run
   * with `step` + `decodeFast`), with the same push/pop counts; the statistics, AMEM statistics, commit ring, ports and
   * switchbox state are those of K `tick`s (the AMEM and switchbox moves are the same calls). Returns K, or 0 when the
   * state is not such a steady state (then `tick` runs). Checked against `tick` by uie-fastpath.test.ts and against
   * lockstep by quantum.test.ts (docs/uie-model.md "Performance").
   */
  private steadyBatch(c: number, limit: number): number {
    if (this.itfeRead.active || this.itfeWrite.active || this.activeTrips !== 1) return 0;
    if (this.readPortFree > c || this.writePortFree > c) return 0;
    const rdec = this.readDec;
    const wdec = this.writeDec;
    const sb = this.sbReadToWrite;
    const dr = rdec.occupancy;
    const dw = wdec.occupancy;
    if (dr === 0 || dw === 0 || sb.empty) return 0;
    const rs = this.seqs[SEQ_AMEM_READ]!;
    const ws = this.seqs[SEQ_AMEM_WRITE]!;
    const tripSlot = this.oldestSlot;
    if (rs.slot !== tripSlot || ws.slot !== tripSlot || !rs.tmpl || !ws.tmpl) return 0;
    let k = rs.core.repeatable(limit - c);
    if (k === 0) return 0;
    k = ws.core.repeatable(k);
    if (k < BATCH_MIN || k < dr || k < dw) return 0;
    // read template at the read core's pc
    const rsw = this.readSw;
    const wsw = this.writeSw;
    if (this.rcswCur >= 0 && rsw.cswIdentity![this.rcswCur] !== 1) return 0;
    if (this.rpswCur >= 0 && rsw.pswIdentity![this.rpswCur] !== 1) return 0;
    if (this.wcswCur >= 0 && wsw.cswIdentity![this.wcswCur] !== 1) return 0;
    if (this.wpswCur >= 0 && wsw.pswIdentity![this.wpswCur] !== 1) return 0;
    const rpc = rs.core.pc;
    const rx = rs.aux!;
    const rb = rpc * AUX_WORDS;
    const rt = rs.tmpl;
    const rto = rpc * REC_WORDS;
    const rOp = rx[rb + A_OPCD]!;
    const rFlags = rx[rb + A_FLAGS]!;
    const rDt = rt[rto + R_DT]!;
    const rEb = rt[rto + R_EB]!;
    const rMask = rt[rto + R_MASK]!;
    if (rOp < 2 || rx[rb + A_INDIR]! !== 0 || rx[rb + A_CSW_VLD]! !== 0) return 0;
    if (rx[rb + A_PADMASK]! !== 0 && (rx[rb + A_STARTPAD]! !== 0 || rx[rb + A_ENDPAD]! !== 0)) return 0;
    if (rt[rto + R_PSWBASE]! >= 0 || rt[rto + R_FIFO]! !== SB_AMEM || rt[rto + R_N]! !== 8 || rt[rto + R_ZSW]! !== 0 || is16bit(rDt)) return 0;
    if (rsw.colMaskActive![rMask & 3]! !== 0) return 0;
    const wpc = ws.core.pc;
    const wx = ws.aux!;
    const wb = wpc * AUX_WORDS;
    const wt = ws.tmpl;
    const wto = wpc * REC_WORDS;
    const wFlags = wx[wb + A_FLAGS]!;
    const wDt = wt[wto + R_DT]!;
    const wEb = wt[wto + R_EB]!;
    const wMask = wt[wto + R_MASK]!;
    if (wx[wb + A_OPCD]! !== 2 || wx[wb + A_INDIR]! !== 0 || wx[wb + A_CSW_VLD]! !== 0) return 0;
    if (wt[wto + R_PSWBASE]! >= 0 || wt[wto + R_FIFO]! !== SB_AMEM || wt[wto + R_N]! !== 128 || wt[wto + R_COLOFF]! !== 0 || wt[wto + R_ZSW]! !== 0 || is16bit(wDt)) return 0;
    if (wsw.colMaskActive![wMask & 3]! !== 0) return 0;
    const relu = rOp === 3;
    const comp = compositeTable(rDt, rEb, relu, wDt, wEb);
    if (!comp.identity) return 0;
    // the records still to be produced: decodeFast's address of each step's counts (an odometer copy of the core's),
    // all 128-byte aligned when the offset and every stride are multiples of 8 partitions
    if (((rs.base + rx[rb + A_OFFSET]!) & 7) !== 0 || ((ws.base + wx[wb + A_OFFSET]!) & 7) !== 0) return 0;
    for (let i = 0; i < NUM_ITERS; i++) if ((rx[rb + A_STRIDE + i]! & 7) !== 0 || (wx[wb + A_STRIDE + i]! & 7) !== 0) return 0;
    // the queued records and switchbox entries must take the same path
    const rd = rdec.data;
    for (let j = 0, at = rdec.peekSlot(); j < dr; j++) {
      if (rd[at + R_OP] !== rOp || rd[at + R_FLAGS] !== rFlags || rd[at + R_FIFO] !== SB_AMEM || rd[at + R_N] !== 8 || rd[at + R_ZSW] !== 0) return 0;
      if (rd[at + R_PSWBASE]! >= 0 || rd[at + R_CSW]! >= 0 || rd[at + R_MASK] !== rMask || rd[at + R_DT] !== rDt || rd[at + R_EB] !== rEb) return 0;
      if (rd[at + R_VIEW] !== rs.view || rd[at + R_SLOT] !== tripSlot || (rd[at + R_ADDR]! & 7) !== 0) return 0;
      at += REC_WORDS;
      if (at >= rd.length) at = 0;
    }
    const wd = wdec.data;
    for (let j = 0, at = wdec.peekSlot(); j < dw; j++) {
      if (wd[at + R_OP] !== 2 || wd[at + R_FLAGS] !== wFlags || wd[at + R_FIFO] !== SB_AMEM || wd[at + R_N] !== 128 || wd[at + R_COLOFF] !== 0 || wd[at + R_ZSW] !== 0) return 0;
      if (wd[at + R_PSWBASE]! >= 0 || wd[at + R_CSW]! >= 0 || wd[at + R_MASK] !== wMask || wd[at + R_DT] !== wDt || wd[at + R_EB] !== wEb) return 0;
      if (wd[at + R_VIEW] !== ws.view || wd[at + R_SLOT] !== tripSlot || (wd[at + R_ADDR]! & 7) !== 0) return 0;
      at += REC_WORDS;
      if (at >= wd.length) at = 0;
    }
    const meta = sb.meta;
    for (let j = 0, e = sb.peekSlot(); j < sb.occupancy; j++) {
      const m = e * SB_META;
      if (meta[m] !== 1 || meta[m + 1] !== rDt || meta[m + 2] !== rEb || meta[m + 3] !== (relu ? 1 : 0)) return 0;
      if (++e >= sb.capacity) e = 0;
    }
    // K cycles, as `tick` would run them (commits, AMEM Write, AMEM Read; the cores below)
    const amem = this.amem;
    const stats = this.stats;
    const rView = rs.view ? AMEM_VIEW_BIT : 0;
    const wView = ws.view ? AMEM_VIEW_BIT : 0;
    const rCnt = this.batchCntR;
    const wCnt = this.batchCntW;
    rCnt.set(rs.core.count);
    wCnt.set(ws.core.count);
    const commitAt = this.commitAt;
    const commitSlot = this.commitSlot;
    const cm = this.commitMask;
    const lat = this.commitLatency;
    const tripRec = this.slots[tripSlot]!;
    const rdt = rDt;
    const reb = rEb;
    const rl = relu ? 1 : 0;
    let cHead = this.cHead;
    let cCount = this.cCount;
    for (let j = 0; j < k; j++) {
      const t = c + j;
      // 1. write commits due at t (tick)
      while (cCount > 0 && commitAt[cHead]! <= t) {
        this.slots[commitSlot[cHead]!]!.writes--;
        cHead = (cHead + 1) & cm;
        cCount--;
      }
      // 2. AMEM Write of the switchbox head (issueWrite / doWrite fast path, postWrite)
      let wa: number;
      if (j < dw) {
        wa = wd[wdec.peekSlot() + R_ADDR]!;
        wdec.pop();
      } else {
        wa = stridedAddr(ws.base, wx, wb, wCnt);
        ws.core.advance(wCnt);
      }
      amem.writeWordView(((wa & PTN_MASK) << 4) | wView, sb.rawWordView[sb.peekSlot()]!);
      sb.pop();
      if (cCount > cm) {
        this.slots[commitSlot[cHead]!]!.writes--;
        cHead = (cHead + 1) & cm;
        cCount--;
      }
      const q = (cHead + cCount) & cm;
      commitAt[q] = t + lat;
      commitSlot[q] = tripSlot;
      cCount++;
      tripRec.writes++;
      // 3. AMEM Read into the switchbox (issueRead fast path)
      let ra: number;
      if (j < dr) {
        ra = rd[rdec.peekSlot() + R_ADDR]!;
        rdec.pop();
      } else {
        ra = stridedAddr(rs.base, rx, rb, rCnt);
        rs.core.advance(rCnt);
      }
      const e = sb.pushSlot();
      amem.readWord32(((ra & PTN_MASK) << 4) | rView, sb.raw32, e * 64);
      const m = e * SB_META;
      meta[m] = 1;
      meta[m + 1] = rdt;
      meta[m + 2] = reb;
      meta[m + 3] = rl;
    }
    this.cHead = cHead;
    this.cCount = cCount;
    stats.bytesWritten += 128 * k;
    stats.bytesRead += 128 * k;
    stats.flitsToAmemWrite += k;
    this.writePortFree = c + k;
    this.readPortFree = c + k;
    // the decoder FIFOs: K records consumed (the queued ones popped above) and K produced, of which the last dr / dw are
    // still queued: count the others, then run the last steps for real (they write exactly those records)
    rdec.pops += k - dr;
    rdec.pushes += k - dr;
    wdec.pops += k - dw;
    wdec.pushes += k - dw;
    // the cores: the odometer copies have advanced by the steps whose records were consumed here
    rs.core.skipTo(rCnt, k - dr);
    ws.core.skipTo(wCnt, k - dw);
    stats.busyCycles[SEQ_AMEM_READ]! += k - dr;
    stats.instructions[SEQ_AMEM_READ]! += k - dr;
    stats.busyCycles[SEQ_AMEM_WRITE]! += k - dw;
    stats.instructions[SEQ_AMEM_WRITE]! += k - dw;
    for (let j = 0; j < dr; j++) {
      rs.core.step();
      stats.busyCycles[SEQ_AMEM_READ]!++;
      stats.instructions[SEQ_AMEM_READ]!++;
      this.decodeFast(rs, rdec, true);
    }
    for (let j = 0; j < dw; j++) {
      ws.core.step();
      stats.busyCycles[SEQ_AMEM_WRITE]!++;
      stats.instructions[SEQ_AMEM_WRITE]!++;
      this.decodeFast(ws, wdec, false);
    }
    this.compKey = compositeKey(rDt, rEb, relu, wDt, wEb);
    this.comp = comp;
    this.now = c + k - 1;
    this.blocked = undefined;
    this.portWake = Infinity;
    this.lastDidWork = true;
    return k;
  }

  /** The cycle of the retirements held back by `runAhead`, or -1 when there are none. */
  get deferredCycle(): number {
    return this.deferredN > 0 ? this.deferredAt : -1;
  }

  /** Reports the retirements held back by `runAhead` (through `onTripDone`, at their cycle). */
  flushDeferred(): void {
    const n = this.deferredN;
    this.deferredN = 0;
    for (let i = 0; i < n; i++) this.onTripDone?.(this.deferredIds[i]!, this.deferredAt);
  }

  private seqDone(id: number, slot: number): void {
    this.slots[slot]!.pending &= ~(1 << id);
  }

  private stepSeq(s: SeqState): boolean {
    const core = s.core;
    // common case first: a running AMEM Read / Write core with room in its decoder FIFO (same steps as below)
    if (core.running && s.id <= SEQ_AMEM_WRITE && this.fastPaths) {
      const isRead = s.id === SEQ_AMEM_READ;
      const dec = isRead ? this.readDec : this.writeDec;
      if (!dec.full) {
        if (!core.step()) return this.coreFault(s);
        this.stats.busyCycles[s.id]!++;
        this.stats.instructions[s.id]!++;
        this.decodeFast(s, dec, isRead);
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
        const np = this.slots[slotId]!.params!;
        const ind = rd ? np.amem_read_indirect_vld : np.amem_write_indirect_vld;
        if ((ind || (rd ? this.readTripIndirect : this.writeTripIndirect)) && !(rd ? this.readDec : this.writeDec).empty) {
          this.blocked ??= this.blockMsg(s, 0);
          return false;
        }
        if (rd) this.readTripIndirect = !!ind;
        else this.writeTripIndirect = !!ind;
      }
      s.qHead = (s.qHead + 1) % SEQ_QUEUE;
      s.qCount--;
      if (this.stopOnPop) this.visible = true;
      s.slot = slotId;
      const p = this.slots[slotId]!.params!;
      this.decodeSeq(s);
      if (!s.op && s.opTable) {
        s.op = new OpStore(s.opTable, SEQ_DEPTH);
        this.bind(s);
      }
      if (s.id === SEQ_AMEM_READ || s.id === SEQ_AMEM_WRITE) this.decodeSwitches(s.id === SEQ_AMEM_READ ? 0 : 1, s.usesPsw, s.usesCsw);
      core.start(p.start_pc[s.id] ?? 0, s.control);
      // the trip's base address and view for this sequencer, read once (descriptor objects may be slow dictionaries)
      s.base = s.id === SEQ_AMEM_READ ? p.amem_read_base_address : s.id === SEQ_AMEM_WRITE ? p.amem_write_base_address : p.amem_weights_base_address;
      s.view = (s.id === SEQ_AMEM_READ ? p.amem_read_bank_hash_dsbl : s.id === SEQ_AMEM_WRITE ? p.amem_write_bank_hash_dsbl : p.amem_weights_bank_hash_dsbl) ? 1 : 0;
      if (s.id === SEQ_AMEM_READ) {
        this.readPops = 0;
        if (p.amem_read_indirect_vld) this.itfeRead.start(this.itfeCommand('read', p.amem_read_indirect_cmd_index));
        else this.itfeRead.stop();
      } else if (s.id === SEQ_AMEM_WRITE) {
        this.writePops = 0;
        if (p.amem_write_indirect_vld) this.itfeWrite.start(this.itfeCommand('write', p.amem_write_indirect_cmd_index));
        else this.itfeWrite.stop();
      }
    }
    const isRead = s.id === SEQ_AMEM_READ;
    const isWrite = s.id === SEQ_AMEM_WRITE;
    if (isRead || isWrite) {
      const dec = isRead ? this.readDec : this.writeDec;
      if (dec.full) {
        this.stats.stallCycles[s.id]!++;
        this.blocked ??= this.blockMsg(s, 1);
        return false;
      }
      if (!core.step()) return this.coreFault(s);
      this.stats.busyCycles[s.id]!++;
      this.stats.instructions[s.id]!++;
      if (this.fastPaths) this.decodeFast(s, dec, isRead);
      else if (isRead) this.decodeRead(s, dec);
      else this.decodeWrite(s, dec);
      return true;
    }
    // sequencers without a datapath model yet (grid, VPU, weights): run the loop program only
    if (!s.warnedNoDatapath) {
      s.warnedNoDatapath = true;
      this.warnOnce(
        `nodp${s.id}`,
        UieCodes.unmodelled,
        s.id === SEQ_AMEM_WEIGHTS_READ
          ? `sequencer ${s.name}: the weights decompressor / weights datapath are not modelled yet; AMEM words are read, counted and dropped`
          : `sequencer ${s.name} has no datapath model yet; its program runs without effects`,
        `${SEQ_SPEC} §4`,
      );
    }
    if (!core.step()) return this.coreFault(s);
    this.stats.busyCycles[s.id]!++;
    this.stats.instructions[s.id]!++;
    if (s.id === SEQ_AMEM_WEIGHTS_READ && s.kf) this.weightsRead(s, s.kf);
    if (core.done) this.seqDone(s.id, s.slot);
    return true;
  }

  /**
   * AMEM Weights Read (seq §7): address calculation of §7.2 (no indirection), post-final -> Read_Const(0)
   * (§7.3), alignment rules of §1.1 / §7.1; the AMEM words are read (bank statistics, bytes) and dropped,
   * since the weights decompressor / WDP side is not modelled yet.
   */
  private weightsRead(s: SeqState, f: WeightsFieldArrays): void {
    const core = s.core;
    const pc = core.execPc;
    const op = f.opcd[pc]!;
    if ((op !== 1 && op !== 2) || core.postFinal) return;
    let a = s.base + f.amem_addr_offset[pc]!;
    for (let i = 0; i < NUM_ITERS; i++) a += (core.execCount[i]! & 0xfff) * (f.iter_stride[pc * NUM_ITERS + i]! & 0xffff);
    a &= PTN_MASK;
    if (f.wdc_type[pc]! !== 0 && a & 7)
      this.ruleError(UieCodes.weightsAlign, `compressed-weights read (wdc_type ${f.wdc_type[pc]}) at 0x${(a * 16).toString(16)} is not 128-byte aligned`, `${SEQ_SPEC} §1.1, §7.1`, s, pc);
    else if (f.is_16bit[pc]! && a & 1)
      this.ruleError(UieCodes.oddPartition16, `16-bit weights read at odd partition address 0x${(a * 16).toString(16)}`, `${SEQ_SPEC} §1.1, §7.1`, s, pc);
    const n = f.num_ptns[pc]! || 8;
    const view = s.view ? AMEM_VIEW_BIT : 0;
    for (let j = 0; j < n; j++) this.amem.readPartition32((((a + j) & PTN_MASK) << 4) | view, this.weights32, (j & 7) * 4);
    this.stats.bytesRead += n * 16;
    this.stats.weightsBytesRead += n * 16;
  }

  private coreFault(s: SeqState): boolean {
    if (s.core.fault === 'pc_overflow') {
      this.ruleError(UieCodes.pcOverflow, `sequencer ${s.name} ran past the end of its 32-word microcode memory without EOPGM`, `${SEQ_SPEC} §2.1`, s, s.core.pc);
      // treat as done so the simulation can end
      this.seqDone(s.id, s.slot);
    }
    return false;
  }

  private decodeRead(s: SeqState, dec: Fifo): void {
    const core = s.core;
    const f = s.rf!;
    const pc = core.execPc;
    const at = dec.pushSlot();
    const d = dec.data;
    let opcd = f.opcd[pc]!;
    let constV = f.rd_const_value[pc]!;
    let flags = 0;
    // start/end row pad (seq §5.1) and post-final padding (seq §5.3)
    const padMask = f.pad_row_iter_mask[pc]!;
    let pad = false;
    if (padMask !== 0 && opcd !== 0) {
      if (f.start_row_pad[pc]! && (core.itersEqZero & padMask) === padMask) pad = true;
      if (f.end_row_pad[pc]! && (core.itersEqNloops & padMask) === padMask) pad = true;
    }
    if (core.postFinal && opcd !== 0) {
      pad = true;
      flags |= F_PF;
    }
    if (pad) {
      opcd = 1;
      constV = 0;
      flags |= F_PAD;
    }
    flags |= this.decodeCommon(s, f, d, at, pc, opcd);
    d[at + R_FIFO] = f.tgt_fifo[pc]!;
    d[at + R_CONST] = constV;
    d[at + R_N] = f.num_logical_ptns[pc]! || 8;
    if (f.rpsw_rot_enbl[pc]!) flags |= F_ROT;
    d[at + R_FLAGS] = flags;
    // RPSW index (seq §5.4): base + ((rot ? ptn : 0) + (iter & 7) * stride) % 8 — rot part added at issue
    d[at + R_PSWBASE] = f.rpsw_config_vld[pc]! ? f.rpsw_config_idx_base[pc]! : -1;
    d[at + R_PSWITER] = (iterVal(core.execCount, f.rpsw_config_iter_id[pc]!) & 7) * f.rpsw_config_iter_stride[pc]!;
    // RCSW index (seq §5.5): base + ((iter & 0xF) * stride) % 16
    d[at + R_CSW] = f.rcsw_switch_config_vld[pc]!
      ? (f.rcsw_switch_config_idx_base[pc]! + (((iterVal(core.execCount, f.rcsw_switch_config_iter_id[pc]!) & 15) * f.rcsw_switch_config_iter_stride[pc]!) % 16)) & 63
      : -1;
    d[at + R_MASK] = f.rcsw_col_mask_config_idx[pc]!;
    d[at + R_ZSW] = f.rzsw_config[pc]!;
  }

  private decodeWrite(s: SeqState, dec: Fifo): void {
    const core = s.core;
    const f = s.wf!;
    const pc = core.execPc;
    const at = dec.pushSlot();
    const d = dec.data;
    let opcd = f.opcd[pc]!;
    let flags = 0;
    // post-final Write / RMW_Add -> Discard (seq §6.3)
    if (core.postFinal && opcd >= 2) {
      opcd = 1;
      flags |= F_PF | F_PAD;
    }
    flags |= this.decodeCommon(s, f, d, at, pc, opcd);
    d[at + R_FIFO] = f.src_fifo[pc]!;
    d[at + R_N] = f.num_logical_cols[pc]! || 128;
    d[at + R_COLOFF] = f.logical_col_offset[pc]!;
    if (f.wpsw_rot_enbl[pc]!) flags |= F_ROT;
    d[at + R_FLAGS] = flags;
    d[at + R_PSWBASE] = f.wpsw_config_vld[pc]! ? f.wpsw_config_idx_base[pc]! : -1;
    d[at + R_PSWITER] = (iterVal(core.execCount, f.wpsw_config_iter_id[pc]!) & 7) * f.wpsw_config_iter_stride[pc]!;
    d[at + R_CSW] = f.wcsw_switch_config_vld[pc]!
      ? (f.wcsw_switch_config_idx_base[pc]! + (((iterVal(core.execCount, f.wcsw_switch_config_iter_id[pc]!) & 15) * f.wcsw_switch_config_iter_stride[pc]!) % 16)) & 63
      : -1;
    d[at + R_MASK] = f.wcsw_col_mask_config_idx[pc]!;
    d[at + R_ZSW] = f.wzsw_config[pc]!;
    d[at + R_RMW] = f.rmw_rd_addr_offset[pc]!;
  }

  /**
   * The record words `decodeRead` and `decodeWrite` share: the strided address (base + amem_addr_offset +
   * sum of count * iter_stride over the iterators not used for the indirect part, seq §5.2), opcode, view,
   * data type, EB adjust, slot, pc and the indirect strides; returns the flags this adds (indirect mode / pop, EOP).
   */
  private decodeCommon(s: SeqState, f: ReadFieldArrays | WriteFieldArrays, d: Int32Array, at: number, pc: number, opcd: number): number {
    const core = s.core;
    const indir = f.indir_vld[pc]! !== 0 && opcd >= 2;
    const mode = f.indir_mode[pc]!;
    const strides = f.iter_stride;
    const nBase = indir ? (mode === 3 ? 4 : 5) : NUM_ITERS;
    let a = s.base + f.amem_addr_offset[pc]!;
    for (let i = 0; i < nBase; i++) a += (core.execCount[i]! & 0xfff) * (strides[pc * NUM_ITERS + i]! & 0xffff);
    d[at + R_OP] = opcd;
    d[at + R_ADDR] = a & PTN_MASK;
    d[at + R_VIEW] = s.view;
    d[at + R_DT] = f.data_type[pc]!;
    d[at + R_EB] = f.eb_adj[pc]!;
    d[at + R_SLOT] = s.slot;
    d[at + R_SX] = strides[pc * NUM_ITERS + 5]! & 0xffff;
    d[at + R_SY] = strides[pc * NUM_ITERS + 4]! & 0xffff;
    d[at + R_PC] = pc;
    let flags = 0;
    if (indir) flags |= F_INDIR | (mode << MODE_SHIFT) | (f.indir_fifo_pop_enbl[pc]! ? F_POP : 0);
    if (core.programDone) flags |= F_EOP;
    return flags;
  }

  /**
   * `decodeRead` / `decodeWrite` from the per-pc templates: one block copy of the static record, then the
   * fields that depend on the iterator counts, the trip and the padding / post-final state. Same records
   * (the fast-path tests compare against the field-by-field decoders).
   */
  private writeStatic(s: SeqState, d: Int32Array, at: number, pc: number, keys: Float64Array, ki: number, key: number): void {
    const t = s.tmpl!;
    const to = pc * REC_WORDS;
    d[at + R_DT] = t[to + R_DT]!;
    d[at + R_FIFO] = t[to + R_FIFO]!;
    d[at + R_N] = t[to + R_N]!;
    d[at + R_PSWBASE] = t[to + R_PSWBASE]!;
    d[at + R_CSW] = t[to + R_CSW]!;
    d[at + R_MASK] = t[to + R_MASK]!;
    d[at + R_ZSW] = t[to + R_ZSW]!;
    d[at + R_EB] = t[to + R_EB]!;
    d[at + R_COLOFF] = t[to + R_COLOFF]!;
    d[at + R_SX] = t[to + R_SX]!;
    d[at + R_SY] = t[to + R_SY]!;
    d[at + R_PC] = pc;
    d[at + R_RMW] = t[to + R_RMW]!;
    keys[ki] = key;
  }

  private decodeFast(s: SeqState, dec: Fifo, isRead: boolean): void {
    const core = s.core;
    const pc = core.execPc;
    const at = dec.pushSlot();
    const d = dec.data;
    // static words of the record (the others are written below), unless this slot already holds them
    const keys = isRead ? this.decKeyRead : this.decKeyWrite;
    const key = s.tmplId * 65536 + pc;
    if (keys[at] !== key) this.writeStatic(s, d, at, pc, keys, at, key);
    const x = s.aux!;
    const b = pc * AUX_WORDS;
    const cnt = core.execCount;
    let opcd = x[b + A_OPCD]!;
    let flags = x[b + A_FLAGS]!;
    let constV = x[b + A_CONST]!;
    if (isRead) {
      // start/end row pad (seq §5.1) and post-final padding (seq §5.3)
      let pad = false;
      const padMask = x[b + A_PADMASK]!;
      if (padMask !== 0 && opcd !== 0) {
        if (x[b + A_STARTPAD]! && (core.itersEqZero & padMask) === padMask) pad = true;
        if (x[b + A_ENDPAD]! && (core.itersEqNloops & padMask) === padMask) pad = true;
      }
      if (core.postFinal && opcd !== 0) {
        pad = true;
        flags |= F_PF;
      }
      if (pad) {
        opcd = 1;
        constV = 0;
        flags |= F_PAD;
      }
    } else if (core.postFinal && opcd >= 2) {
      // post-final Write / RMW_Add -> Discard (seq §6.3)
      opcd = 1;
      flags |= F_PF | F_PAD;
    }
    const indir = x[b + A_INDIR]! !== 0 && opcd >= 2;
    // only the iterators with a non-zero stride (bit masks precomputed per pc)
    let nz = indir ? x[b + A_NZ_INDIR]! : x[b + A_NZ]!;
    let a = s.base + x[b + A_OFFSET]!;
    while (nz !== 0) {
      const i = 31 - Math.clz32(nz);
      nz ^= 1 << i;
      a += (cnt[i]! & 0xfff) * x[b + A_STRIDE + i]!;
    }
    if (indir) flags |= x[b + A_INDIR]!;
    if (core.programDone) flags |= F_EOP;
    d[at + R_OP] = opcd;
    d[at + R_ADDR] = a & PTN_MASK;
    d[at + R_VIEW] = s.view;
    d[at + R_CONST] = constV;
    d[at + R_FLAGS] = flags;
    const pid = x[b + A_PSW_ITER_ID]!;
    d[at + R_PSWITER] = ((pid < NUM_ITERS ? cnt[pid]! : 0) & 7) * x[b + A_PSW_ITER_STRIDE]!;
    if (x[b + A_CSW_VLD]!) {
      const cid = x[b + A_CSW_ITER_ID]!;
      d[at + R_CSW] = (x[b + A_CSW_BASE]! + ((((cid < NUM_ITERS ? cnt[cid]! : 0) & 15) * x[b + A_CSW_ITER_STRIDE]!) % 16)) & 63;
    }
    d[at + R_SLOT] = s.slot;
  }

  /** Resolves the indirect part of an address (seq §5.2.2); returns -1 if the index FIFOs are not ready. */
  private indirectAddr(itfe: Itfe, d: Int32Array, at: number, side: SeqState): number {
    const flags = d[at + R_FLAGS]!;
    const mode = (flags >> MODE_SHIFT) & 3;
    const needY = mode >= 2;
    if (itfe.x.empty || (needY && itfe.y.empty)) {
      if (itfe.finished) {
        this.ruleError(
          UieCodes.itfeStarved,
          `${side.name} needs an index but its ITFE has fetched all ${itfe.totalPerTable} index value(s) of the trip: the ITFE index count must match the sequencer's indirect accesses`,
          `${SEQ_SPEC} §8.1`,
          side,
          d[at + R_PC]!,
        );
        return -2;
      }
      this.blocked ??= this.blockMsg(side, 2);
      this.stats.datapathStallCycles[side.id === SEQ_AMEM_READ ? 0 : 1]!++;
      return -1;
    }
    if (itfe.cmd.indir_mode !== mode)
      this.ruleError(UieCodes.indirMode, `${side.name} indir_mode ${mode} differs from its ITFE command indir_mode ${itfe.cmd.indir_mode}`, `${SEQ_SPEC} §5.1, §8.1`, side, d[at + R_PC]!);
    const x = itfe.x.peek() >>> 0;
    const y = needY ? itfe.y.peek() & 0xffff : 0;
    let off: number;
    if (mode === 0) off = (x & 0xffff) * d[at + R_SX]!;
    else if (mode === 1) off = x * d[at + R_SX]!;
    else if (mode === 2) off = ((x & 0xffff) + y * 65536) * d[at + R_SX]!;
    else off = (x & 0xffff) * d[at + R_SX]! + y * d[at + R_SY]!;
    if (flags & F_POP) {
      itfe.x.pop();
      if (needY) itfe.y.pop();
    }
    return (d[at + R_ADDR]! + (off % (PTN_MASK + 1))) & PTN_MASK;
  }

  private checkItfeCount(itfe: Itfe, pops: number, s: SeqState, pc: number, tripIndirect: boolean): void {
    if (!tripIndirect && pops === 0) return;
    const expected = tripIndirect ? itfe.totalPerTable : 0;
    if (pops !== expected)
      this.ruleError(
        UieCodes.itfeCount,
        `${s.name} popped ${pops} index value(s) in this trip but its ITFE supplies ${expected} (num_indices_per_table * repeat_count); they must match`,
        `${SEQ_SPEC} §8.1`,
        s,
        pc,
      );
  }

  // -------------------------------------------------------------- read side

  private issueRead(now: number): boolean {
    const dec = this.readDec;
    if (dec.empty) return false;
    if (this.readPortFree > now) {
      if (this.readPortFree < this.portWake) this.portWake = this.readPortFree;
      return false;
    }
    const d = dec.data;
    const at = dec.peekSlot();
    const seq = this.seqs[SEQ_AMEM_READ]!;
    const opcd = d[at + R_OP]!;
    const flags = d[at + R_FLAGS]!;
    const slot = d[at + R_SLOT]!;
    if (opcd !== 0) {
      const tgt = d[at + R_FIFO]!;
      const out = tgt === SB_AMEM ? this.sbReadToWrite : tgt === SB_GRID && this.attachGrid ? this.sbReadToGrid : tgt === SB_VBUFFER && this.attachVbuffer ? this.sbReadToVbuffer : undefined;
      if (out && out.credits === 0) {
        out.fullStalls++;
        this.stats.datapathStallCycles[0]!++;
        this.blocked ??= this.fifoMsg(out, true);
        return false;
      }
      let addr = d[at + R_ADDR]!;
      const dt = d[at + R_DT]!;
      const wide = is16bit(dt);
      if (opcd >= 2 && flags & F_INDIR) {
        const r = this.indirectAddr(this.itfeRead, d, at, seq);
        if (r === -1) return false;
        if (r >= 0) {
          addr = r;
          if (flags & F_POP) this.readPops++;
          this.stats.indirectReads++;
        }
      }
      if (wide && addr & 1 && opcd >= 2)
        this.ruleError(UieCodes.oddPartition16, `16-bit read (data_type ${dt}) at odd partition address 0x${(addr * 16).toString(16)}`, `${SEQ_SPEC} §1.1, §5.2.1; ${CHIP_SPEC_F} §7.3`, seq, d[at + R_PC]!);
      const n = d[at + R_N]!;
      const view = d[at + R_VIEW]! ? AMEM_VIEW_BIT : 0;
      const s0 = addr & 7;
      // RPSW / RCSW configuration held from the last *_config_vld (seq §5.4, §5.5)
      if (d[at + R_PSWBASE]! >= 0) this.rpswCur = (d[at + R_PSWBASE]! + (((flags & F_ROT ? s0 : 0) + d[at + R_PSWITER]!) % 8)) & 63;
      if (d[at + R_CSW]! >= 0) this.rcswCur = d[at + R_CSW]!;
      const fast = this.fastPaths;
      const sw = this.readSw;
      const zsw = d[at + R_ZSW]!;
      const maskIdx = d[at + R_MASK]! & 3;
      // deferred flit: no column switching or masking -> keep the lanes, the consumer converts (bit-identical)
      const direct = fast && out !== undefined && zsw === 0 && (this.rcswCur < 0 || sw.cswIdentity![this.rcswCur] === 1) && !sw.colMaskActive![maskIdx];
      if (direct && opcd >= 2 && n === 8 && (this.rpswCur < 0 || sw.pswIdentity![this.rpswCur] === 1)) {
        // fast path: all partitions read, identity RPSW -> AMEM words straight into the switchbox entry's lanes
        const e = out.pushSlot();
        this.readLanesInto(addr, view, wide, s0, out.raw32, e * 64);
        this.stats.bytesRead += wide ? 256 : 128;
        const m = e * SB_META;
        out.meta[m] = 1;
        out.meta[m + 1] = dt;
        out.meta[m + 2] = d[at + R_EB]!;
        out.meta[m + 3] = opcd === 3 ? 1 : 0;
        this.stats.flitsToAmemWrite += tgt === SB_AMEM ? 1 : 0;
        if (flags & F_PAD) this.stats.padsInserted++;
        this.readPortFree = now + (wide ? 2 : 1);
        dec.pop();
        if (flags & F_EOP) this.readEop(d, at, slot);
        return true;
      }
      this.fillReadLanes(opcd, addr, view, n, wide, d[at + R_CONST]!, s0);
      let l2 = this.lanes;
      if (this.rpswCur >= 0 && !(fast && sw.pswIdentity![this.rpswCur] === 1)) {
        applyPsw(sw, this.rpswCur, this.lanes, this.lanes2, wide);
        l2 = this.lanes2;
      }
      // deserialize / promote (chip §6.2.1.4) with ReLU (seq §5.1.1) and EB adjust, as one table lookup per column
      if (out) {
        const slot = out.pushSlot();
        const m = slot * SB_META;
        if (direct) {
          const src32 = l2 === this.lanes ? this.lanes32 : this.lanes2_32;
          const w0 = slot * 64;
          const nw = wide ? 64 : 32;
          for (let w = 0; w < nw; w++) out.raw32[w0 + w] = src32[w]!;
          out.meta[m] = 1;
          out.meta[m + 1] = dt;
          out.meta[m + 2] = d[at + R_EB]!;
          out.meta[m + 3] = opcd === 3 ? 1 : 0;
        } else {
          const cols = this.cols;
          convertLanesTo16(to16Table(dt, d[at + R_EB]!, opcd === 3), l2, 0, wide, cols, 0);
          applyZsw(zsw, cols, this.cols2);
          applyCsw(sw, this.rcswCur, maskIdx, cols, this.cols2);
          out.flits.set(cols, slot * 128);
          out.meta[m] = 0;
        }
        if (tgt === SB_AMEM) this.stats.flitsToAmemWrite++;
      } else {
        this.stats.flitsDropped++;
        if (!((this.dropWarned >> tgt) & 1)) {
          this.dropWarned |= 1 << tgt;
          this.warnOnce(`drop${tgt}`, UieCodes.unmodelled, `AMEM Read sends flits to the ${tgt === SB_GRID ? 'grid' : 'vbuffer'}, which is not modelled yet; they are counted and dropped`, `${CHIP_SPEC_F} §6.2.3`);
        }
      }
      if (flags & F_PAD) this.stats.padsInserted++;
      // serialized 16-bit data takes the port for two cycles (chip §7.3)
      this.readPortFree = now + (wide ? 2 : 1);
    }
    dec.pop();
    if (flags & F_EOP) this.readEop(d, at, slot);
    return true;
  }

  /** End of an AMEM Read program (its EOPGM instruction left the decoder FIFO): ITFE count rule, sequencer done. */
  private readEop(d: Int32Array, at: number, slot: number): void {
    const p = this.slots[slot]!.params;
    this.checkItfeCount(this.itfeRead, this.readPops, this.seqs[SEQ_AMEM_READ]!, d[at + R_PC]!, !!p?.amem_read_indirect_vld);
    this.seqDone(SEQ_AMEM_READ, slot);
  }

  /**
   * `fillReadLanes` for a full Read_SRAM (all 8 logical partitions) written straight into a switchbox
   * entry (out32[w0..w0+64) in lane layout): an aligned 8-bit access is one AMEM word, moved as a block.
   */
  private readLanesInto(addr: number, view: number, wide: boolean, s0: number, out32: Uint32Array, w0: number): void {
    const amem = this.amem;
    if (!wide) {
      if (s0 === 0) amem.readWord32(((addr & PTN_MASK) << 4) | view, out32, w0);
      else for (let j = 0; j < 8; j++) amem.readPartition32((((addr + j) & PTN_MASK) << 4) | view, out32, w0 + ((s0 + j) & 7) * 4);
      return;
    }
    if (s0 === 0) {
      // two whole words: memory partition j of the access -> lane chunk WIDE_PERM[j] (cycle (j & 1), lane SIGMA_INV[j >> 1])
      amem.readWordPerm32(((addr & PTN_MASK) << 4) | view, out32, w0, WIDE_PERM_LO);
      amem.readWordPerm32((((addr + 8) & PTN_MASK) << 4) | view, out32, w0, WIDE_PERM_HI);
      return;
    }
    for (let p = 0; p < 8; p++) {
      const lane = (s0 + SIGMA_INV[p]!) & 7;
      amem.readPartition32((((addr + 2 * p) & PTN_MASK) << 4) | view, out32, w0 + lane * 4);
      amem.readPartition32((((addr + 2 * p + 1) & PTN_MASK) << 4) | view, out32, w0 + 32 + lane * 4);
    }
  }

  /**
   * AMEM read port output lanes (chip §7, §7.3.1): 8-bit: memory partition j
   * of the access leaves on lane (s + j) % 8; 16-bit: logical partition p
   * (memory partitions 2p, 2p+1 in cycles 0, 1) leaves on lane
   * (s + SIGMA_INV[p]) % 8. Read_Const fills the same lanes with the constant.
   */
  private fillReadLanes(opcd: number, addr: number, view: number, n: number, wide: boolean, constV: number, s0: number): void {
    const lanes = this.lanes;
    lanes.fill(0);
    if (!wide) {
      for (let j = 0; j < n; j++) {
        const lane = (s0 + j) & 7;
        if (opcd === 1) lanes.fill(constV & 0xff, lane * 16, lane * 16 + 16);
        else this.amem.readPartition32((((addr + j) & PTN_MASK) << 4) | view, this.lanes32, lane * 4);
      }
      if (opcd >= 2) this.stats.bytesRead += n * 16;
    } else {
      for (let p = 0; p < n; p++) {
        const lane = (s0 + SIGMA_INV[p]!) & 7;
        for (let c = 0; c < 2; c++) {
          const off = c * 128 + lane * 16;
          if (opcd === 1) for (let b = 0; b < 16; b += 2) {
            lanes[off + b] = constV & 0xff;
            lanes[off + b + 1] = (constV >> 8) & 0xff;
          }
          else this.amem.readPartition32((((addr + 2 * p + c) & PTN_MASK) << 4) | view, this.lanes32, off >> 2);
        }
      }
      if (opcd >= 2) this.stats.bytesRead += n * 32;
    }
  }

  // ------------------------------------------------------------- write side

  private issueWrite(now: number): boolean {
    const dec = this.writeDec;
    if (dec.empty) return false;
    if (this.writePortFree > now) {
      if (this.writePortFree < this.portWake) this.portWake = this.writePortFree;
      return false;
    }
    const d = dec.data;
    const at = dec.peekSlot();
    const seq = this.seqs[SEQ_AMEM_WRITE]!;
    const opcd = d[at + R_OP]!;
    const flags = d[at + R_FLAGS]!;
    const slot = d[at + R_SLOT]!;
    if (opcd !== 0) {
      const src = d[at + R_FIFO]!;
      const fifo = src === SB_GRID ? this.sbGridToWrite : src === SB_VBUFFER ? this.sbVbufferToWrite : this.sbReadToWrite;
      if (fifo.empty) {
        this.stats.datapathStallCycles[1]!++;
        this.blocked ??= this.fifoMsg(fifo, false);
        return false;
      }
      if (opcd === 1) {
        fifo.pop();
        this.stats.discards++;
      } else {
        let addr = d[at + R_ADDR]!;
        if (flags & F_INDIR) {
          const r = this.indirectAddr(this.itfeWrite, d, at, seq);
          if (r === -1) return false;
          if (r >= 0) {
            addr = r;
            if (flags & F_POP) this.writePops++;
            this.stats.indirectWrites++;
          }
        }
        const wide = this.doWrite(opcd, addr, d, at, seq, fifo);
        fifo.pop();
        this.writePortFree = now + (wide ? 2 : 1);
        this.postWrite(slot, now, wide ? 2 : 1);
      }
    }
    dec.pop();
    if (flags & F_EOP) {
      const p = this.slots[slot]!.params;
      this.checkItfeCount(this.itfeWrite, this.writePops, seq, d[at + R_PC]!, !!p?.amem_write_indirect_vld);
      this.seqDone(SEQ_AMEM_WRITE, slot);
    }
    return true;
  }

  private postWrite(slot: number, now: number, n: number): void {
    for (let i = 0; i < n; i++) {
      if (this.cCount > this.commitMask) {
        // commit ring full: commit the oldest now (never expected with 100-cycle latency)
        this.slots[this.commitSlot[this.cHead]!]!.writes--;
        this.cHead = (this.cHead + 1) & this.commitMask;
        this.cCount--;
      }
      const k = (this.cHead + this.cCount) & this.commitMask;
      this.commitAt[k] = now + this.commitLatency;
      this.commitSlot[k] = slot;
      this.cCount++;
      this.slots[slot]!.writes++;
    }
  }

  /** Executes Write / RMW_Add of the head flit (seq §6, chip §6.2.2, §7.4). Returns true for 16-bit. */
  private doWrite(opcd: number, addr: number, d: Int32Array, at: number, seq: SeqState, sb: SwitchboxFifo): boolean {
    const dt = d[at + R_DT]!;
    const wide = is16bit(dt);
    const pc = d[at + R_PC]!;
    const slot = sb.peekSlot();
    const colOff = d[at + R_COLOFF]!;
    const nCols = d[at + R_N]!;
    if (wide && addr & 1)
      this.ruleError(UieCodes.oddPartition16, `16-bit write (data_type ${dt}) at odd partition address 0x${(addr * 16).toString(16)}`, `${SEQ_SPEC} §1.1, §6.1; ${CHIP_SPEC_F} §7.3`, seq, pc);
    if (colOff + nCols > 128) this.ruleError(UieCodes.colRange, `logical_col_offset ${colOff} + num_logical_cols ${nCols} > 128`, `${SEQ_SPEC} §6.4`, seq, pc);
    const flags = d[at + R_FLAGS]!;
    const s0 = addr & 7;
    if (d[at + R_PSWBASE]! >= 0) this.wpswCur = (d[at + R_PSWBASE]! + (((flags & F_ROT ? s0 : 0) + d[at + R_PSWITER]!) % 8)) & 63;
    if (d[at + R_CSW]! >= 0) this.wcswCur = d[at + R_CSW]!;
    const fast = this.fastPaths;
    const sw = this.writeSw;
    // WZSW -> WCSW + mask (on 16-bit columns), then 16b->8b (chip §6.2.2.2)
    const zsw = d[at + R_ZSW]!;
    const maskIdx = d[at + R_MASK]! & 3;
    const lanes = this.lanes;
    const m = slot * SB_META;
    const raw = sb.meta[m] === 1;
    const switching = zsw !== 0 || (this.wcswCur >= 0 && !(fast && sw.cswIdentity![this.wcswCur] === 1)) || sw.colMaskActive![maskIdx] === 1;
    const pswApplied = this.wpswCur >= 0 && !(fast && sw.pswIdentity![this.wpswCur] === 1);
    // the written lane bytes: src8[base8 ..] (= src32[base8/4 ..]); the switchbox entry itself when nothing changes them
    let src8: Uint8Array = lanes;
    let src32: Uint32Array = this.lanes32;
    let base8 = 0;
    if (raw && !switching && is16bit(sb.meta[m + 1]!) === wide) {
      // both conversions as one composed table (identity: the bytes move unchanged)
      const key = compositeKey(sb.meta[m + 1]!, sb.meta[m + 2]!, sb.meta[m + 3] === 1, dt, d[at + R_EB]!);
      if (key !== this.compKey) {
        this.comp = compositeTable(sb.meta[m + 1]!, sb.meta[m + 2]!, sb.meta[m + 3] === 1, dt, d[at + R_EB]!);
        this.compKey = key;
      }
      const comp = this.comp!;
      if (comp.identity) {
        src8 = sb.raw;
        src32 = sb.raw32;
        base8 = slot * 256;
      } else {
        const t = comp.table;
        const rb = slot * 256;
        const r = sb.raw;
        if (!wide) for (let c = 0; c < 128; c++) lanes[c] = t[r[rb + c]!]!;
        else
          for (let b = 0; b < 256; b += 2) {
            const v = t[r[rb + b]! | (r[rb + b + 1]! << 8)]!;
            lanes[b] = v & 0xff;
            lanes[b + 1] = v >> 8;
          }
      }
    } else {
      let src = sb.flits;
      let base = slot * 128;
      if (raw || switching) {
        sb.headColumns(this.cols, 0);
        src = this.cols;
        base = 0;
      }
      if (switching) {
        applyZsw(zsw, this.cols, this.cols2);
        applyCsw(sw, this.wcswCur, maskIdx, this.cols, this.cols2);
      }
      convert16ToLanes(from16Table(dt, d[at + R_EB]!), src, base, wide, lanes);
    }
    if (pswApplied) {
      if (src8 !== lanes) for (let w = 0; w < (wide ? 64 : 32); w++) this.lanes32[w] = src32[(base8 >> 2) + w]!;
      applyPsw(sw, this.wpswCur, lanes, this.lanes2, wide);
      src8 = this.lanes2;
      src32 = this.lanes2_32;
      base8 = 0;
    }
    // AMEM placement: the inverse of the read lanes; bytes [lo, hi) of the access are written (seq §6.4)
    const bps = wide ? 2 : 1;
    const lo = colOff * bps;
    const hi = (colOff + Math.min(nCols, 128 - colOff)) * bps;
    const view = d[at + R_VIEW]! ? AMEM_VIEW_BIT : 0;
    const rmw = opcd === 3;
    if (fast && !rmw && s0 === 0 && lo === 0 && hi === 128 * bps) {
      // whole aligned AMEM words: block moves (8-bit: lane order = memory order; 16-bit: the inverse swizzle per partition)
      if (!wide) this.amem.writeWordView(((addr & PTN_MASK) << 4) | view, src8 === lanes ? this.lanesWord : src8 === this.lanes2 ? this.lanes2Word : sb.rawWordView[slot]!);
      else {
        this.amem.writeWordPerm32(((addr & PTN_MASK) << 4) | view, src32, base8 >> 2, WIDE_PERM_LO);
        this.amem.writeWordPerm32((((addr + 8) & PTN_MASK) << 4) | view, src32, base8 >> 2, WIDE_PERM_HI);
      }
      this.stats.bytesWritten += 128 * bps;
      return wide;
    }
    const rmwOff = d[at + R_RMW]!;
    let partial = false;
    for (let j = lo >> 4; j < (hi + 15) >> 4; j++) {
      let off: number;
      if (!wide) off = base8 + ((s0 + j) & 7) * 16;
      else off = base8 + (j & 1) * 128 + ((s0 + SIGMA_INV[j >> 1]!) & 7) * 16;
      const pLo = Math.max(lo - j * 16, 0);
      const pHi = Math.min(hi - j * 16, 16);
      const mask = pLo === 0 && pHi === 16 ? 0xffff : ((1 << pHi) - 1) & ~((1 << pLo) - 1);
      if (mask !== 0xffff) {
        partial = true;
        this.onPartialWrite?.(((((addr + j) & PTN_MASK) << 4) | view) >>> 0, this.slots[d[at + R_SLOT]!]!.tripId, this.now);
      }
      const wAddr = (((addr + j) & PTN_MASK) << 4) | view;
      if (rmw) {
        // InMemAdd (seq §6.2.1): read at the write address + rmw_rd_addr_offset in [25:14]
        const rAddr = ((((wAddr >>> 14) + rmwOff) & 0xfff) << 14) | (wAddr & 0x3fff) | view;
        this.checkRmwBank(wAddr, rAddr, seq, pc);
        this.amem.readPartition(rAddr, this.rmwBuf, 0);
        const buf = this.ptnBuf;
        if (!wide) for (let b = 0; b < 16; b++) buf[b] = addCodes(this.rmwBuf[b]!, src8[off + b]!, dt);
        else
          for (let b = 0; b < 16; b += 2) {
            const v = addCodes(this.rmwBuf[b]! | (this.rmwBuf[b + 1]! << 8), src8[off + b]! | (src8[off + b + 1]! << 8), dt);
            buf[b] = v & 0xff;
            buf[b + 1] = v >> 8;
          }
        // merge happens after the add (chip §7.4, Figure 7-1): unmasked bytes keep the destination's memory value
        this.amem.writePartition(wAddr, buf, 0, mask);
      } else if (mask === 0xffff) this.amem.writePartition32(wAddr, src32, off >> 2);
      else this.amem.writePartition(wAddr, src8, off, mask);
      this.stats.bytesWritten += pHi - pLo;
    }
    if (rmw) this.stats.rmwAdds++;
    if (partial) this.stats.partialWrites++;
    return wide;
  }

  private checkRmwBank(wAddr: number, rAddr: number, seq: SeqState, pc: number): void {
    if (wAddr === rAddr) return;
    const wb = (amemPhys(wAddr) >>> 7) & 0x7f;
    const rb = (amemPhys(rAddr) >>> 7) & 0x7f;
    if (wb !== rb)
      this.ruleError(
        UieCodes.rmwBank,
        `RMW_Add reads bank ${rb} (0x${(rAddr & 0x3ffffff).toString(16)}) but writes bank ${wb} (0x${(wAddr & 0x3ffffff).toString(16)}); read and write must be in the same AMEM bank — use the unhashed view or a 2 MiB-multiple offset`,
        `${SEQ_SPEC} §6.5.1; ${CHIP_SPEC_F} §7.4.1`,
        seq,
        pc,
      );
  }
}

/** Count of iterator `id` (3-bit field; ids 6 and 7 name no iterator and read as 0). */
function iterVal(counts: Int32Array, id: number): number {
  return id < NUM_ITERS ? counts[id]! : 0;
}

// Decode-template aux words per pc (see SeqState.aux, Uie.decodeFast).
const A_OPCD = 0;
const A_FLAGS = 1; // static flags: F_ROT
const A_CONST = 2;
const A_PADMASK = 3;
const A_STARTPAD = 4;
const A_ENDPAD = 5;
const A_INDIR = 6; // 0, or F_INDIR | mode << MODE_SHIFT | F_POP? when indir_vld
const A_NBASE_INDIR = 7; // iterators in the direct part of an indirect address (seq §5.2.2)
const A_OFFSET = 8;
const A_PSW_ITER_ID = 9;
const A_PSW_ITER_STRIDE = 10;
const A_CSW_VLD = 11;
const A_CSW_BASE = 12;
const A_CSW_ITER_ID = 13;
const A_CSW_ITER_STRIDE = 14;
const A_STRIDE = 15; // 6 words: iter_stride[i] & 0xffff
const A_NZ = A_STRIDE + NUM_ITERS; // bit i: iter_stride[i] & 0xffff is not 0 (direct address: all iterators)
const A_NZ_INDIR = A_NZ + 1; // the same, restricted to the direct part of an indirect address (A_NBASE_INDIR)
const AUX_WORDS = A_NZ_INDIR + 1;

/** Builds the decode templates of an AMEM Read (`read`) or AMEM Write sequencer from its bound op fields. */
function buildTemplates(s: SeqState, f: ReadFieldArrays | WriteFieldArrays, read: boolean): void {
  const tmpl = new Int32Array(SEQ_DEPTH * REC_WORDS);
  const aux = new Int32Array(SEQ_DEPTH * AUX_WORDS);
  for (let pc = 0; pc < SEQ_DEPTH; pc++) {
    const t = pc * REC_WORDS;
    const b = pc * AUX_WORDS;
    const r = read ? (f as ReadFieldArrays) : undefined;
    const w = read ? undefined : (f as WriteFieldArrays);
    const strides = f.iter_stride;
    tmpl[t + R_DT] = f.data_type[pc]!;
    tmpl[t + R_FIFO] = r ? r.tgt_fifo[pc]! : w!.src_fifo[pc]!;
    tmpl[t + R_N] = r ? r.num_logical_ptns[pc]! || 8 : w!.num_logical_cols[pc]! || 128;
    tmpl[t + R_COLOFF] = w ? w.logical_col_offset[pc]! : 0;
    tmpl[t + R_PSWBASE] = r ? (r.rpsw_config_vld[pc]! ? r.rpsw_config_idx_base[pc]! : -1) : w!.wpsw_config_vld[pc]! ? w!.wpsw_config_idx_base[pc]! : -1;
    tmpl[t + R_CSW] = -1; // overwritten when *csw_switch_config_vld
    tmpl[t + R_MASK] = r ? r.rcsw_col_mask_config_idx[pc]! : w!.wcsw_col_mask_config_idx[pc]!;
    tmpl[t + R_ZSW] = r ? r.rzsw_config[pc]! : w!.wzsw_config[pc]!;
    tmpl[t + R_EB] = f.eb_adj[pc]!;
    tmpl[t + R_SX] = strides[pc * NUM_ITERS + 5]! & 0xffff;
    tmpl[t + R_SY] = strides[pc * NUM_ITERS + 4]! & 0xffff;
    tmpl[t + R_PC] = pc;
    tmpl[t + R_RMW] = w ? w.rmw_rd_addr_offset[pc]! : 0;
    aux[b + A_OPCD] = f.opcd[pc]!;
    aux[b + A_FLAGS] = (r ? r.rpsw_rot_enbl[pc]! : w!.wpsw_rot_enbl[pc]!) ? F_ROT : 0;
    aux[b + A_CONST] = r ? r.rd_const_value[pc]! : 0;
    aux[b + A_PADMASK] = r ? r.pad_row_iter_mask[pc]! : 0;
    aux[b + A_STARTPAD] = r ? r.start_row_pad[pc]! : 0;
    aux[b + A_ENDPAD] = r ? r.end_row_pad[pc]! : 0;
    const mode = f.indir_mode[pc]!;
    aux[b + A_INDIR] = f.indir_vld[pc]! !== 0 ? F_INDIR | (mode << MODE_SHIFT) | (f.indir_fifo_pop_enbl[pc]! ? F_POP : 0) : 0;
    aux[b + A_NBASE_INDIR] = mode === 3 ? 4 : 5;
    aux[b + A_OFFSET] = f.amem_addr_offset[pc]!;
    aux[b + A_PSW_ITER_ID] = r ? r.rpsw_config_iter_id[pc]! : w!.wpsw_config_iter_id[pc]!;
    aux[b + A_PSW_ITER_STRIDE] = r ? r.rpsw_config_iter_stride[pc]! : w!.wpsw_config_iter_stride[pc]!;
    aux[b + A_CSW_VLD] = r ? r.rcsw_switch_config_vld[pc]! : w!.wcsw_switch_config_vld[pc]!;
    aux[b + A_CSW_BASE] = r ? r.rcsw_switch_config_idx_base[pc]! : w!.wcsw_switch_config_idx_base[pc]!;
    aux[b + A_CSW_ITER_ID] = r ? r.rcsw_switch_config_iter_id[pc]! : w!.wcsw_switch_config_iter_id[pc]!;
    aux[b + A_CSW_ITER_STRIDE] = r ? r.rcsw_switch_config_iter_stride[pc]! : w!.wcsw_switch_config_iter_stride[pc]!;
    let nz = 0;
    for (let i = 0; i < NUM_ITERS; i++) {
      aux[b + A_STRIDE + i] = strides[pc * NUM_ITERS + i]! & 0xffff;
      if (aux[b + A_STRIDE + i] !== 0) nz |= 1 << i;
    }
    aux[b + A_NZ] = nz;
    aux[b + A_NZ_INDIR] = nz & ((1 << aux[b + A_NBASE_INDIR]!) - 1);
  }
  s.tmpl = tmpl;
  s.aux = aux;
  s.tmplId = ++tmplSerial;
}

/** decodeFast's direct address for iterator counts `cnt`: base + amem_addr_offset + sum of (count & 0xfff) * stride. */
function stridedAddr(base: number, x: Int32Array, b: number, cnt: Int32Array): number {
  let nz = x[b + A_NZ]!;
  let a = base + x[b + A_OFFSET]!;
  while (nz !== 0) {
    const i = 31 - Math.clz32(nz);
    nz ^= 1 << i;
    a += (cnt[i]! & 0xfff) * x[b + A_STRIDE + i]!;
  }
  return a & PTN_MASK;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function amemPhys(addr: number): number {
  const a = addr & ((1 << 26) - 1);
  if (addr & AMEM_VIEW_BIT) return a;
  return a ^ (((a >>> 14) & 0x7f) << 7);
}

/** 16b->8b converter and FP16 serializer (chip §6.2.2.2, §6.2.2.2.3: lane o cycle 0 = columns 16o..16o+7, LSByte first). */
function convert16ToLanes(tab: Uint16Array, src: Uint16Array, base: number, wide: boolean, lanes: Uint8Array): void {
  if (!wide) {
    for (let c = 0; c < 128; c++) lanes[c] = tab[src[base + c]!]!;
    return;
  }
  for (let o = 0; o < 8; o++) {
    const b0 = o * 16;
    for (let i = 0; i < 8; i++) {
      const v0 = tab[src[base + b0 + i]!]!;
      const v1 = tab[src[base + b0 + 8 + i]!]!;
      lanes[b0 + 2 * i] = v0 & 0xff;
      lanes[b0 + 2 * i + 1] = v0 >> 8;
      lanes[128 + b0 + 2 * i] = v1 & 0xff;
      lanes[128 + b0 + 2 * i + 1] = v1 >> 8;
    }
  }
}

/** Partition switch (chip §6.2.1.1): out[o] = ptn_zero[o] ? 0 : in[src_ptn[o]]; both serialization cycles for 16-bit. idx < 0: identity (reset state). */
export function applyPsw(t: SwitchTables, idx: number, src: Uint8Array, dst: Uint8Array, wide: boolean): void {
  const cycles = wide ? 2 : 1;
  for (let c = 0; c < cycles; c++)
    for (let o = 0; o < 8; o++) {
      const base = c * 128 + o * 16;
      if (idx >= 0 && t.pswZero[idx * 8 + o]) {
        dst.fill(0, base, base + 16);
        continue;
      }
      const sp = idx >= 0 ? t.pswSrc[idx * 8 + o]! : o;
      dst.set(src.subarray(c * 128 + sp * 16, c * 128 + sp * 16 + 16), base);
    }
  if (!wide) dst.fill(0, 128, 256);
}

/** Zipper switch (chip §6.2.1.2) per partition pair: 1 = Unzip (evens to the lower partition, odds to the upper), 2 = Zip (interleave). In place. */
export function applyZsw(mode: number, cols: Uint16Array, tmp: Uint16Array): void {
  if (mode !== 1 && mode !== 2) return;
  tmp.set(cols);
  for (let pair = 0; pair < 4; pair++) {
    const b = pair * 32;
    for (let i = 0; i < 16; i++) {
      if (mode === 1) {
        cols[b + i] = tmp[b + 2 * i]!;
        cols[b + 16 + i] = tmp[b + 2 * i + 1]!;
      } else {
        cols[b + 2 * i] = tmp[b + i]!;
        cols[b + 2 * i + 1] = tmp[b + 16 + i]!;
      }
    }
  }
}

/**
 * Column switch (chip §6.2.1.3): per output column 16p+c, the 3:1 mux picks
 * input column c of partition p, p-1 (Prev_Ptn) or p+1 (Next_Ptn) (zero beyond
 * the edges); the butterfly delivers mux column `col_src` to c; then the
 * column override mask (Zero / Max_Negative = RFP16 -max 0xFFFF). idx < 0: identity.
 */
export function applyCsw(t: SwitchTables, idx: number, maskIdx: number, cols: Uint16Array, tmp: Uint16Array): void {
  if (idx >= 0) {
    tmp.set(cols);
    for (let p = 0; p < 8; p++)
      for (let c = 0; c < 16; c++) {
        const k = idx * 128 + p * 16 + c;
        const srcCol = t.cswSrc[k]! & 15;
        // the mux select is per (partition, mux column): use the select of the column being picked
        const sel = t.cswMux[idx * 128 + p * 16 + srcCol]!;
        const sp = sel === 1 ? p - 1 : sel === 2 ? p + 1 : p;
        cols[p * 16 + c] = sp < 0 || sp > 7 ? 0 : tmp[sp * 16 + srcCol]!;
      }
  }
  const mb = (maskIdx & 3) * 128;
  if (t.colMaskActive && !t.colMaskActive[maskIdx & 3]) return;
  for (let c = 0; c < 128; c++) {
    const m = t.colMask[mb + c]!;
    if (m === 1) cols[c] = 0;
    else if (m === 2) cols[c] = 0xffff;
  }
}
