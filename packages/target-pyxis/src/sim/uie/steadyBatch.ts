/**
 * The steady-state batch path (fast paths, inside `Uie.runAhead` only; docs/uie-model.md "Performance"): K cycles of
 * a pure strided AMEM Read -> AMEM Write copy done without per-cycle decoder records, with exactly the effects of K
 * `tick`s (checked against `tick` by uie-fastpath.test.ts and against lockstep by quantum.test.ts).
 */
import * as amemGeometry from '../../common/amem.js';
import { SCHED_MAX } from '../amem/banks.js';
import { fillSchedule, moveBatch, type OdometerSnaps } from './batchMove.js';
import * as codes from './codes.js';
import * as convert from './convert.js';
import * as addressGen from './addressGen.js';
import * as records from './records.js';
import { NUM_ITERS } from './sequencerCore.js';
import * as switchbox from './switchbox.js';
import type { Uie } from './uie.js';
import { dbl } from '@pyxis/sim';

// Hot-path bindings as module-local constants: V8 checks every read of an imported binding for TDZ (a measured
// +13% instructions per flit); destructured once at load, they cost nothing. Cycle-free: no import below imports this file.
const { AMEM_PARTITIONS } = amemGeometry;
const { RD_SRAM_RELU, readsSram, SRC_AMEM, TGT_AMEM, WR_WRITE, ZSW_NOP } = codes;
const { compositeKey, compositeTable, is16bit } = convert;
const { decodeFast } = addressGen;
const { A_CSW_VLD, A_ENDPAD, A_FLAGS, A_INDIR, A_OFFSET, A_OPCD, A_PADMASK, A_STARTPAD, A_STRIDE, AUX_WORDS, R_ADDR, R_COLOFF, R_CSW, R_DT, R_EB, R_FIFO, R_FLAGS, R_MASK, R_N, R_OP, R_PSWBASE, R_SLOT, R_VIEW, R_ZSW, REC_WORDS, SEQ_AMEM_READ, SEQ_AMEM_WRITE } = records;
const { SB_META } = switchbox;

/** The state of one UIE's steady-state batches (speed only: any value gives the same results). */
export class SteadyBatchState {
  /** `runAhead` tries a batch again from this cycle (after a failed check). */
  retryAt = dbl(0);
  /** Cycle from which a UIE that failed to publish its bank schedule tries again. */
  publishRetry = dbl(0);
  /** Cycles simulated by batches (diagnostics for tests and benchmarks; not a statistic of the model). */
  cycles = 0;
  /** Odometer copies of the AMEM Read / Write cores' counts during a batch. */
  readonly cntR = new Int32Array(NUM_ITERS);
  readonly cntW = new Int32Array(NUM_ITERS);
  /**
   * batchMove.ts: the AMEM Read / Write addresses `fillSchedule` computed at cycle `addrAt` for the next `addrLen`
   * cycles, valid while the UIE's `stateGen` (bumped by every `tick`, trip start and batch) is `addrGen`.
   */
  addrR: Int32Array | undefined;
  addrW: Int32Array | undefined;
  addrAt = dbl(-1);
  addrLen = dbl(0);
  addrGen = -1;
  /** Starts of the runs of equal addresses in addrR / addrW (`runs` form: runsR[nRunsR] = addrLen). */
  runsR: Int32Array | undefined;
  runsW: Int32Array | undefined;
  nRunsR = 0;
  nRunsW = 0;
  /** The AMEM Read / Write cores' counts after the addrLen steps of addrR / addrW (`fillAddrs`' odometers). */
  readonly endCntR = new Int32Array(NUM_ITERS);
  readonly endCntW = new Int32Array(NUM_ITERS);
  /**
   * A joint batch's check of the next window (`steadyBatch`) passed at cycle `okAt` for `okLen` cycles from the state
   * of `stateGen` `okGen`: the check at the start of that window, from the same state, needs only its length.
   */
  okAt = dbl(-1);
  okGen = -1;
  okLen = dbl(0);
  /** The odometers at the starts of the runs of addrR / addrW (a `moveBatch` of fewer than addrLen cycles). */
  snapsR: OdometerSnaps | undefined;
  snapsW: OdometerSnaps | undefined;
}

/** Steady-state batches: at least this many cycles; after a failed check, `runAhead` retries this many cycles later. */
export const BATCH_MIN = 16;
export const BATCH_RETRY = 32;
/** Shortest joint (multi-UIE) batch: the schedules are already computed, so even short windows beat lockstep. */
export const JOINT_MIN = 1;
/** Cycles before a UIE that could not publish a schedule tries again. */
export const PUBLISH_RETRY = 4;
/**
 * Longest schedule a UIE without one publishes (cycles): while claims still conflict (a cluster's start-up) a schedule
 * is soon broken by a stall and published again, so only its first cycles matter; after a batch the next schedule is
 * a whole window long. Speed only (a schedule decides which cycles are batched, never their results).
 */
export const PUBLISH_FIRST = 64;
/**
 * Speed only, like the constants above: a batcher keeps its schedule after a joint batch shorter than KEEP_MIN cycles
 * while it covers KEEP_MIN more; a follower keeps its schedule while it covers FOLLOW_KEEP more cycles and its claims
 * lag its list by at most FOLLOW_LAG entries (`BankSchedules.coverLeft`).
 */
export const KEEP_MIN = 64;
export const FOLLOW_KEEP = 16;
export const FOLLOW_LAG = 8;

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
export function steadyCheck(u: Uie, c: number, limit: number, min = BATCH_MIN, relaxed = false, sync = true): number {
  // (a non-default csr.convert_mode takes the general path: the composed tables below are the mode-0 ones)
  if (u.rd.itfe.active || u.wr.itfe.active || u.trips.active !== 1 || u.convertMode !== 0) return 0;
  const rdec = u.rd.dec;
  const wdec = u.wr.dec;
  const sb = u.sbReadToWrite;
  const dr = rdec.occupancy;
  const dw = wdec.occupancy;
  // `relaxed` (a follower's schedule, amem/schedules.ts jointWindow): only the structure that fixes the order of the
  // coming AMEM addresses is checked, not the timing (ports, switchbox readiness) that a batch also needs
  if (!relaxed) {
    if (u.rd.portFree > c || u.wr.portFree > c) return 0;
    const banks = u.amem.banks;
    // (`sync` false: c is past the global cycle, whose claims by UIEs still in lockstep must not be resolved yet)
    if (sync) banks.sync(c);
    if (banks.freeAt[u.rd.client]! > c || banks.freeAt[u.wr.client]! > c) return 0;
    // (the head's ready cycle read on every call, index 0 when empty, unused then: see the switchbox check below)
    const h = sb.peekSlot();
    const late = u.sbReadyAt[h < 0 ? 0 : h]! > c;
    if (dr === 0 || dw === 0 || sb.empty || sb.occupancy < u.rd.latency || late) return 0;
  }
  const rs = u.seqs[SEQ_AMEM_READ]!;
  const ws = u.seqs[SEQ_AMEM_WRITE]!;
  const tripSlot = u.trips.oldest;
  if (rs.slot !== tripSlot || ws.slot !== tripSlot || !rs.tmpl || !ws.tmpl) return 0;
  let k = rs.core.repeatable(limit - c);
  if (k === 0) return 0;
  k = ws.core.repeatable(k);
  if (k < min || k < dr || k < dw) return 0;
  // read template at the read core's pc
  const rsw = u.rd.sw;
  const wsw = u.wr.sw;
  if (u.rd.cswCur >= 0 && rsw.cswIdentity![u.rd.cswCur] !== 1) return 0;
  if (u.rd.pswCur >= 0 && rsw.pswIdentity![u.rd.pswCur] !== 1) return 0;
  if (u.wr.cswCur >= 0 && wsw.cswIdentity![u.wr.cswCur] !== 1) return 0;
  if (u.wr.pswCur >= 0 && wsw.pswIdentity![u.wr.pswCur] !== 1) return 0;
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
  if (!readsSram(rOp) || rx[rb + A_INDIR]! !== 0 || rx[rb + A_CSW_VLD]! !== 0) return 0;
  if (rx[rb + A_PADMASK]! !== 0 && (rx[rb + A_STARTPAD]! !== 0 || rx[rb + A_ENDPAD]! !== 0)) return 0;
  if (rt[rto + R_PSWBASE]! >= 0 || rt[rto + R_FIFO]! !== TGT_AMEM || rt[rto + R_N]! !== AMEM_PARTITIONS || rt[rto + R_ZSW]! !== ZSW_NOP || is16bit(rDt)) return 0;
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
  if (wx[wb + A_OPCD]! !== WR_WRITE || wx[wb + A_INDIR]! !== 0 || wx[wb + A_CSW_VLD]! !== 0) return 0;
  if (wt[wto + R_PSWBASE]! >= 0 || wt[wto + R_FIFO]! !== SRC_AMEM || wt[wto + R_N]! !== 128 || wt[wto + R_COLOFF]! !== 0 || wt[wto + R_ZSW]! !== ZSW_NOP || is16bit(wDt)) return 0;
  if (wsw.colMaskActive![wMask & 3]! !== 0) return 0;
  const relu = rOp === RD_SRAM_RELU;
  const comp = compositeTable(rDt, rEb, relu, wDt, wEb);
  if (!comp.identity) return 0;
  // the records still to be produced: decodeFast's address of each step's counts (an odometer copy of the core's),
  // all 128-byte aligned when the offset and every stride are multiples of 8 partitions
  if (((rs.base + rx[rb + A_OFFSET]!) & 7) !== 0 || ((ws.base + wx[wb + A_OFFSET]!) & 7) !== 0) return 0;
  for (let i = 0; i < NUM_ITERS; i++) if ((rx[rb + A_STRIDE + i]! & 7) !== 0 || (wx[wb + A_STRIDE + i]! & 7) !== 0) return 0;
  // the queued records and switchbox entries must take the same path
  const rd = rdec.data;
  for (let j = 0, at = rdec.peekSlot(); j < dr; j++) {
    if (rd[at + R_OP] !== rOp || rd[at + R_FLAGS] !== rFlags || rd[at + R_FIFO] !== TGT_AMEM || rd[at + R_N] !== AMEM_PARTITIONS || rd[at + R_ZSW] !== ZSW_NOP) return 0;
    if (rd[at + R_PSWBASE]! >= 0 || rd[at + R_CSW]! >= 0 || rd[at + R_MASK] !== rMask || rd[at + R_DT] !== rDt || rd[at + R_EB] !== rEb) return 0;
    if (rd[at + R_VIEW] !== rs.view || rd[at + R_SLOT] !== tripSlot || (rd[at + R_ADDR]! & 7) !== 0) return 0;
    at += REC_WORDS;
    if (at >= rd.length) at = 0;
  }
  const wd = wdec.data;
  for (let j = 0, at = wdec.peekSlot(); j < dw; j++) {
    if (wd[at + R_OP] !== WR_WRITE || wd[at + R_FLAGS] !== wFlags || wd[at + R_FIFO] !== SRC_AMEM || wd[at + R_N] !== 128 || wd[at + R_COLOFF] !== 0 || wd[at + R_ZSW] !== ZSW_NOP) return 0;
    if (wd[at + R_PSWBASE]! >= 0 || wd[at + R_CSW]! >= 0 || wd[at + R_MASK] !== wMask || wd[at + R_DT] !== wDt || wd[at + R_EB] !== wEb) return 0;
    if (wd[at + R_VIEW] !== ws.view || wd[at + R_SLOT] !== tripSlot || (wd[at + R_ADDR]! & 7) !== 0) return 0;
    at += REC_WORDS;
    if (at >= wd.length) at = 0;
  }
  const meta = sb.meta;
  // read pipeline (sim_config amem): the j-th queued entry is popped at c + j, and an entry pushed at c + j at
  // c + j + occupancy, so every pop finds its data ready iff the queued ones are and occupancy >= the latency.
  // Checked in both modes, only the strict one uses it: V8 optimises steadyCheck while only relaxed calls get this far,
  // and code first run by the first steady state deoptimised and recompiled it (the costliest compilation of a run)
  let ready = sb.occupancy >= u.rd.latency;
  for (let j = 0, e = sb.peekSlot(); j < sb.occupancy; j++) {
    const m = e * SB_META;
    if (meta[m] !== 1 || meta[m + 1] !== rDt || meta[m + 2] !== rEb || meta[m + 3] !== (relu ? 1 : 0) || u.sbReadyAt[e]! > c + j) ready = false;
    if (++e >= sb.capacity) e = 0;
  }
  return relaxed || ready ? k : 0;
}

/**
 * The steady-state batch with bank arbitration (amem/banks.ts, amem/schedules.ts). Alone in its cluster (no other UIE has a trip; the
 * run-ahead gate keeps the control plane out), a UIE batches while its own read and write banks differ. With other
 * UIEs active it batches only the cluster's joint conflict-free window (`BankSchedules.jointWindow`, amem/schedules.ts, the same for every
 * UIE at `c`), and publishes its next schedule after the batch, or now when it has none. Returns the cycles batched.
 */
export function steadyBatch(u: Uie, c: number, limit: number): number {
  const banks = u.amem.banks.sched;
  const me = u.index;
  if (banks.activeUies <= 1) {
    const k = steadyCheck(u, c, Math.min(limit, c + SCHED_MAX));
    if (k === 0 || !banks.idleAt(c)) return 0;
    const off = banks.schedOffset(me);
    fillSchedule(u, k, banks, c);
    let j = 0;
    while (j < k && banks.propBank[off + 2 * j] !== banks.propBank[off + 2 * j + 1]) j++;
    if (j < BATCH_MIN) return 0;
    banks.publish(me, c, c, j);
    banks.countBatch(me, banks.newest(me), c, j);
    runBatch(u, c, j);
    banks.publish(me, c, c, 0);
    return j;
  }
  const J = banks.jointWindow(c, limit, me);
  if (J >= JOINT_MIN && banks.batches(me) && joinCheck(u, c, J) === J) {
    banks.countBatch(me, banks.slotOf(me), c, J);
    runBatch(u, c, J);
    // the next window (the caller's windows are `limit - c` long: publish no more than one of them). No `sync`: the
    // claims of cycle c by the UIEs of the cluster still in lockstep are pending (they may conflict with each other and
    // are resolved with all of that cycle's claims), and this UIE made none since its claims were synced at c
    // (a schedule still covering the next KEEP_MIN cycles is kept: the batch followed it, so it still holds; while
    // windows stay short — a cluster's start-up — republishing after each one would cost more than the windows)
    if (J < KEEP_MIN && banks.slotOf(me) === banks.newest(me) && banks.coverLeft(me, c + J, false, 0) >= KEEP_MIN) return J;
    const k = steadyCheck(u, c + J, c + J + Math.min(SCHED_MAX, limit - c), BATCH_MIN, false, false);
    if (k > 0) fillSchedule(u, k, banks, c + J);
    // one publish call for both cases (k is 0 or the schedule's length): V8 has its feedback before the trip's end
    // first publishes none (a separate call there deoptimised and recompiled steadyBatch)
    banks.publish(me, c, c + J, k);
    if (k > 0) {
      u.batch.okAt = c + J;
      u.batch.okGen = u.stateGen;
      u.batch.okLen = k;
    }
    return J;
  }
  // (publishing only affects which cycles are batched, never results: a failed check is not retried for a few cycles)
  if (!banks.hasSchedule(me, c) && c >= u.batch.publishRetry) {
    const end = c + Math.min(PUBLISH_FIRST, limit - c + 1);
    const k = steadyCheck(u, c, end);
    // not steady now (a port held, the switchbox refilling): publish its address order only (a follower), unless
    // its follower schedule still covers the coming cycles with its claims close behind its list. One fill and publish
    // call for both (V8: followers come first, the first steady schedule then deoptimised steadyBatch at its own call)
    const follow = k === 0;
    const f = !follow ? k : banks.coverLeft(me, c, true, FOLLOW_LAG) >= FOLLOW_KEEP ? 0 : steadyCheck(u, c, end, 1, true);
    if (f > 0) {
      fillSchedule(u, f, banks, c, follow);
      banks.publish(me, c, c, f, follow);
    }
    if (follow) u.batch.publishRetry = c + PUBLISH_RETRY;
  }
  return 0;
}

/**
 * `steadyCheck(u, c, c + J, JOINT_MIN)`, from the last joint batch's check of this window when the state is the one
 * it checked (same cycle and `stateGen`, J within its length): every condition but the length depends only on that
 * state and on the port clients' `freeAt` (this UIE made no claim since), and the length is then J when J covers the
 * queued decoder records (`steadyCheck`: k = min(J, the steps the cores can repeat) >= dr, dw).
 */
function joinCheck(u: Uie, c: number, J: number): number {
  const b = u.batch;
  if (b.okAt !== c || b.okGen !== u.stateGen || J > b.okLen) return steadyCheck(u, c, c + J, JOINT_MIN);
  return J >= JOINT_MIN && J >= u.rd.dec.occupancy && J >= u.wr.dec.occupancy ? J : 0;
}

/** K cycles of the steady state `steadyCheck` accepted at `c` (the effects of K `tick`s, see `steadyCheck`). */
function runBatch(u: Uie, c: number, k: number): void {
  const rdec = u.rd.dec;
  const wdec = u.wr.dec;
  const dr = rdec.occupancy;
  const dw = wdec.occupancy;
  const rs = u.seqs[SEQ_AMEM_READ]!;
  const ws = u.seqs[SEQ_AMEM_WRITE]!;
  const rpc = rs.core.pc;
  const rx = rs.aux!;
  const rb = rpc * AUX_WORDS;
  const rt = rs.tmpl!;
  const rto = rpc * REC_WORDS;
  const rOp = rx[rb + A_OPCD]!;
  const rDt = rt[rto + R_DT]!;
  const rEb = rt[rto + R_EB]!;
  const wpc = ws.core.pc;
  const wt = ws.tmpl!;
  const wto = wpc * REC_WORDS;
  const wDt = wt[wto + R_DT]!;
  const wEb = wt[wto + R_EB]!;
  const relu = rOp === RD_SRAM_RELU;
  const comp = compositeTable(rDt, rEb, relu, wDt, wEb);
  // K cycles of commits, AMEM Write and AMEM Read as `tick` would run them (batchMove.ts); the cores below
  const stats = u.stats;
  const rCnt = u.batch.cntR;
  const wCnt = u.batch.cntW;
  moveBatch(u, c, k, rCnt, wCnt, rDt, rEb, relu ? 1 : 0);
  // the queued decoder records were consumed (k >= dr, dw: steadyCheck)
  for (let j = 0; j < dr; j++) rdec.pop();
  for (let j = 0; j < dw; j++) wdec.pop();
  stats.bytesWritten += 128 * k;
  stats.bytesRead += 128 * k;
  stats.flitsToAmemWrite += k;
  u.wr.portFree = c + k;
  u.rd.portFree = c + k;
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
    decodeFast(u, rs, rdec, true);
  }
  for (let j = 0; j < dw; j++) {
    ws.core.step();
    stats.busyCycles[SEQ_AMEM_WRITE]!++;
    stats.instructions[SEQ_AMEM_WRITE]!++;
    decodeFast(u, ws, wdec, false);
  }
  u.wr.compKey = compositeKey(rDt, rEb, relu, wDt, wEb);
  u.wr.comp = comp;
  u.now = c + k - 1;
  u.blocked = undefined;
  u.portWake = Infinity;
  u.lastDidWork = true;
  u.stateGen++;
}
