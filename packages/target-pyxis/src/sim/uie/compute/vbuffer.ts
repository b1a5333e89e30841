/**
 * The Vbuffer (chip §6.1.4, §6.4; seq §13): 4 banks x 2 logical tiles of 128 entries x 128 FP16 columns. Each tile is
 * used as a FIFO (shared read/write pointers, seq §13.1) or as a scratchpad (random access with the per-tile
 * `scratchpad_count` RAW protection, seq §13.2). Bank ownership (seq §13.3): one writing and one reading sequencer
 * per bank at a time. Also the max-value snooping register of SB2VB (seq §14.1; one FP16 value per column, see
 * docs/spec-notes.md "vbuffer: the max-value snooping register").
 */
export const TILES = 8;
export const TILE_ROWS = 128;
export const VB_COLS = 128;
/** Maximum value of a tile's scratchpad_count (seq §13.2: the tile depth). */
export const SCRATCHPAD_MAX = TILE_ROWS;

export class Vbuffer {
  /** Tile t, entry e, column c: data[(t * TILE_ROWS + e) * VB_COLS + c] (RFP16 codes). */
  readonly data = new Uint16Array(TILES * TILE_ROWS * VB_COLS);
  /** FIFO mode pointers and occupancy per tile (seq §13.1). */
  readonly wrPtr = new Int32Array(TILES);
  readonly rdPtr = new Int32Array(TILES);
  readonly count = new Int32Array(TILES);
  /** scratchpad_count per tile (seq §13.2). */
  readonly spCount = new Int32Array(TILES);
  /**
   * Per tile: sequencer id and op-word pc of the last instruction that incremented (writers) / decremented (readers)
   * its scratchpad_count, -1 when none since the last trip end; named by the SIM0652 diagnostic (seq §13.2).
   */
  readonly spIncSeq = new Int32Array(TILES).fill(-1);
  readonly spIncPc = new Int32Array(TILES);
  readonly spDecSeq = new Int32Array(TILES).fill(-1);
  readonly spDecPc = new Int32Array(TILES);
  /** Tiles used in scratchpad mode by the trip in each trip slot (bit t), checked at trip end. */
  readonly spTilesBySlot = new Int32Array(4);
  /** Bank ownership (seq §13.3): sequencer id of the current writer / reader of each bank, -1 when free. */
  readonly bankWriter = new Int32Array(TILES / 2).fill(-1);
  readonly bankReader = new Int32Array(TILES / 2).fill(-1);
  /** Max-value snooping register (seq §14.1): one FP16 code per column, and whether it holds data. */
  readonly snoop = new Uint16Array(VB_COLS);
  snoopValid = false;

  /** Where entry `e` of tile `t` starts in `data`. */
  rowAt(t: number, e: number): number {
    return (t * TILE_ROWS + e) * VB_COLS;
  }
}
