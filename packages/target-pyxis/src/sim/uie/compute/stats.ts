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
  /** GWB cycles a Read_WBA waited for a writeback kick from GX (seq §11.4). */
  stallWbKick = 0;
  stallSwitchboxFull = 0;
  stallAmemPort = 0;
}
