/** Compute statistics of one UIE (reported per run and per trip by the stats writer; docs/timing-model.md). */
export class ComputeStats {
  /** Multiply-accumulates performed by the LLC grid (products that entered an accumulator, zero operands included). */
  macs = 0;
  /** GX cycles by kind: Exec_Valid (computing), Exec_Bubble, Exec_Config, Exec_NOP. */
  execValid = 0;
  execBubble = 0;
  execConfig = 0;
  execNop = 0;
  /** Split accumulations (AA -> WBA) and writebacks (GWB tiles) completed. */
  splits = 0;
  writebacks = 0;
  /** Flits (one WBA slot of one grid-row, 128 columns) sent by GWB to a switchbox FIFO. */
  wbFlits = 0;
  /** Words through the weights decompressor and WDP; Hbuf bytes written and read (per grid-row logical bytes). */
  wdcWords = 0;
  wdpWords = 0;
  hbufBytesWritten = 0;
  hbufReads = 0;
  /** Stall cycles by reason (a cycle in which the unit at the head could not proceed, counted once per unit). */
  stallHbufWrCredits = 0;
  stallHbufRdCredits = 0;
  stallWdcEmpty = 0;
  stallStaging = 0;
  stallHData = 0;
  stallVData = 0;
  stallWbCredits = 0;
  stallWbPending = 0;
  /** Vbuffer rows written / read by the four Vbuffer sequencers, and their wait cycles (seq §13). */
  vbufRowsWritten = 0;
  vbufRowsRead = 0;
  vbufStalls = 0;
  /** VPU cycles executing an instruction, and cycles its next instruction waited for the InFIFO / OutFIFO. */
  vpuBusy = 0;
  /** VPU instructions executed (NOPs included), lane-operations (non-NOP instructions x 128 lanes), and
   * Generate_VPU_Program records started by VI (seq §12.1; docs/timing-model.md "Pyxis VPU and Vbuffer statistics"). */
  vpuInstructions = 0;
  vpuLaneOps = 0;
  vpuPrograms = 0;
  /**
   * Per Vbuffer sequencer (seq §13-§14): rows moved and wait cycles by reason. `Empty`: no source row (writers: the
   * switchbox FIFO or the VPU OutFIFO; readers: a FIFO-mode tile with count 0); `Full`: no room in the target
   * (writers: a FIFO-mode tile holding 128 rows; readers: the switchbox FIFO or the VPU InFIFO); `Scratchpad`: a
   * scratchpad read with the decrement enabled waiting for scratchpad_count > 0 (readers only, seq §13.2).
   * `vbufStalls` is their sum.
   */
  sb2vbRows = 0;
  sb2vbEmpty = 0;
  sb2vbFull = 0;
  vpu2vbRows = 0;
  vpu2vbEmpty = 0;
  vpu2vbFull = 0;
  vb2sbRows = 0;
  vb2sbEmpty = 0;
  vb2sbFull = 0;
  vb2sbScratchpad = 0;
  vb2vpuRows = 0;
  vb2vpuEmpty = 0;
  vb2vpuFull = 0;
  vb2vpuScratchpad = 0;
  stallVpuIn = 0;
  stallVpuOut = 0;
  /** GWB cycles a Read_WBA waited for a writeback kick from GX (seq §11.4). */
  stallWbKick = 0;
  stallSwitchboxFull = 0;
  /** AMEM Weights Read cycles its port was held by a bank access served late (amem/banks.ts). */
  stallAmemPort = 0;
  /** Weights path (docs/timing-model.md "Pyxis weights path"): words the decompressor put into wdc_fifo, compressed
   * words it consumed (2 cycles each), cycles it waited for room in wdc_fifo, WR_HBUF cycles waiting for an H-lane
   * unload buffer still draining (seq §9.1.1), tbuf-full pushes into the Hbufs (seq §9.1.2), Read_Const pads
   * issued for post-final Weights Read instructions (seq §7.3). `hbufBytesWritten` sums logical bytes over grid-rows. */
  wdcOutWords = 0;
  wdcCompressedWords = 0;
  stallWdcFull = 0;
  stallHlaneBusy = 0;
  tbufFlushes = 0;
  weightsPads = 0;
}
