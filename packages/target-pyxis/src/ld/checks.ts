/**
 * Static rule checks on resolved trips (seq §1.2-1.3 grid tensor-size rules; partition rotation, seq §5.4, §6.7;
 * 32-bit integer index tensors kept away from the grid and the VPU, chip §7.6).
 */
import { decode, enumName, loadTable } from '@pyxis/codec';
import { error, warning, type DiagnosticBag, type SourceSpan } from '@pyxis/diagnostics';
import type { TensorDef, TripDef } from './linkTypes.js';
import { viewAddress } from './slices.js';
import { gridRows } from './footprint.js';

const SEQ = 'pyxis-uie-sequencers-fspec.md';

/**
 * Grid tensor-size rules of seq §1.2-1.3 for a trip that declares its
 * operation (`op = ...`). Tensors are [C, H, W] (leading dims folded into C):
 * `read` is the vertical input, `write` the output, `weights` the horizontal
 * operand (for matmul the first matrix, [rows, inner]).
 */
export function checkSizeRules(t: TripDef, bag: DiagnosticBag): void {
  const op = t.op!;
  // a slice is checked with its own [C, H, W] (slices.ts)
  const of = (k: string): TensorDef | undefined => {
    const x = t.tensors.get(k);
    return x?.view ? { ...x.t, name: x.t.name + x.view.text, layout: x.view.layout } : x?.t;
  };
  const rd = of('read');
  const wr = of('write');
  const wt = of('weights');
  const fail = (rule: string, msg: string, spec: string) => bag.add(error('LD0820', `trip \`${t.name}\` (${op.name}): ${msg}`, { span: op.span, spec: `${SEQ} ${spec}`, notes: [`note: ${rule}`, 'help: pad the tensors (or generate pads with post-final reads/discards)'] }));
  const wide = (x?: TensorDef) => (x ? x.elemBytes === 2 : false);
  switch (op.name) {
    case 'conv3x3_s1':
    case 'conv3x3_s2': {
      const s2 = op.name === 'conv3x3_s2';
      if (rd) {
        const r = gridRowsOf(t, 'amem_read', rd);
        if (s2 ? (r.rows - 1) % 16 : (r.rows - 2) % 8)
          fail(s2 ? 'input rows = 16N + 1 for 3x3 stride 2, inclusive of any padding' : 'input rows = 8N + 2 for 3x3 stride 1, inclusive of any padding', `input \`${rd.name}\` has ${rd.layout.H} rows${r.text}`, '§1.2');
      }
      if (wr) {
        const r = gridRowsOf(t, 'amem_write', wr);
        if (r.rows % 8) fail('output rows computed in the grid must be a multiple of 8', `output \`${wr.name}\` has ${wr.layout.H} rows${r.text}`, '§1.3');
        // rule 2: output channels a multiple of the filters per grid-row (GH log2_filters_per_row, seq §10.1)
        const f = filtersPerGridRow(t);
        if (f && f.n > 1 && wr.layout.C % f.n)
          fail(
            `output channels must be a multiple of the filters per grid-row (pad the weights with fake output channels)`,
            `output \`${wr.name}\` has ${wr.layout.C} channels, not a multiple of the ${f.n} filters per grid-row of GH program \`${f.prog}\` (log2_filters_per_row = ${Math.log2(f.n)})`,
            '§1.3',
          );
      }
      break;
    }
    case 'conv1x1': {
      const m = wide(wt) ? 4 : 8;
      if (rd && rd.layout.C % m) fail(`input channels must be a multiple of ${m} with ${m === 4 ? '16' : '8'}-bit weights`, `input \`${rd.name}\` has ${rd.layout.C} channels`, '§1.2');
      if (wr && wr.layout.C % 8) fail('output channels must be a multiple of 8', `output \`${wr.name}\` has ${wr.layout.C} channels`, '§1.3');
      break;
    }
    case 'matmul': {
      const m = wide(wt) ? 4 : 8;
      if (!wt) break;
      // A stored transposed (the WDP transposes it, seq §9.4): the tensor is A^T [inner, rows]
      const tr = transposesWeights(t);
      const inner = tr ? wt.layout.C * wt.layout.H : wt.layout.W;
      const rows = tr ? wt.layout.W : wt.layout.C * wt.layout.H;
      const what = tr ? ` (stored transposed: \`${wt.name}\` is A^T)` : '';
      if (inner % m) fail(`the inner dimension must be a multiple of ${m} with ${m === 4 ? 'FP16' : 'FP8'} horizontal data`, `horizontal matrix \`${wt.name}\` has inner dimension ${inner}${what}`, '§1.2');
      if (rows % 8) fail('output rows must be a multiple of 8', `horizontal matrix \`${wt.name}\` has ${rows} rows${what}`, '§1.3');
      break;
    }
  }
}

/** The trip's WDP program writes the Hbufs through the transpose buffers (hbuf_wr_control *_TRANS, seq §9.1.2, §9.4). */
function transposesWeights(t: TripDef): boolean {
  const p = t.programs.get('wdp')?.prog;
  if (!p) return false;
  let hit = transposing.get(p);
  if (hit === undefined) {
    const tab = loadTable('pyxis', 'wdp_op');
    hit = false;
    for (const v of opWords(p, 'wdp_op'))
      if (enumName(tab, 'opcd', v['opcd'] as number) === 'WR_HBUF' && enumName(tab, 'hbuf_wr_control', v['hbuf_wr_control'] as number).endsWith('_TRANS')) hit = true;
    transposing.set(p, hit);
  }
  return hit;
}
/**
 * Filters per grid-row of a 3x3 trip (seq §1.3 rule 2, §10.1): 2^log2_filters_per_row of its GH program's RD_3X3
 * reads (the largest, if the program mixes them); undefined without a GH program or RD_3X3 read.
 */
function filtersPerGridRow(t: TripDef): { n: number; prog: string } | undefined {
  const p = t.programs.get('gh')?.prog;
  if (!p) return undefined;
  const tab = loadTable('pyxis', 'gh_op');
  let k = -1;
  for (const v of opWords(p, 'gh_op'))
    if (enumName(tab, 'opcd', v['opcd'] as number) === 'HBUF_RD_VLD' && enumName(tab, 'hbuf_rd_cmd', v['hbuf_rd_cmd'] as number) === 'RD_3X3') k = Math.max(k, Number(v['log2_filters_per_row']));
  return k < 0 ? undefined : { n: 1 << k, prog: p.name };
}

/** Per WDP program (shared by the trips of a kernel): decoded once. */
const transposing = new WeakMap<object, boolean>();

/**
 * Rows per channel at the grid side of a 3x3 trip's `read` (`seq` = amem_read) or `write` (amem_write) tensor `x`,
 * "inclusive of any padding" (seq §1.2, §1.3): the tensor's rows plus the pad rows its program makes in microcode
 * (Read_Const / Discard, start/end_row_pad, post-final; footprint.ts `gridRows`) per channel. Pad accesses are
 * counted per channel (C), per access of a tensor row (distinct data addresses / (C x H): 1 for rows the grid takes
 * whole) and per pass over the tensor (data accesses / distinct addresses, rounded down: a program that reads the
 * tensor twice pads it twice; the overlapping 10-row groups of seq §2.1.1 re-read 2 rows a group and stay one
 * pass). `text` describes the pad rows for the message (empty when there are none or the program cannot be walked).
 */
function gridRowsOf(t: TripDef, seq: 'amem_read' | 'amem_write', x: TensorDef): { rows: number; text: string } {
  const { C, H } = x.layout;
  const p = t.programs.get(seq)?.prog;
  const g = p && gridRows(p, seq);
  if (!p || !g || !g.data || !g.pad || !C || !H) return { rows: H, text: '' };
  const perRow = Math.max(1, Math.round(g.distinct / (C * H)));
  const passes = Math.max(1, Math.floor(g.data / g.distinct));
  const pads = g.pad / (C * perRow * passes);
  const fmt = (v: number) => (Number.isInteger(v) ? String(v) : v.toFixed(2));
  const made = (n: number) => `${seq === 'amem_read' ? 'pad' : 'discarded'} row${n === 1 ? '' : 's'}`;
  return { rows: H + pads, text: ` + ${fmt(pads)} ${made(pads)} per channel made in microcode by program \`${p.name}\` (${g.pad} ${made(g.pad)} in ${C} channel${C === 1 ? '' : 's'}${passes > 1 ? ` and ${passes} passes` : ''}) = ${fmt(H + pads)} rows` };
}

/**
 * Partition rotation of an AMEM copy (seq §5.4, §6.7; chip §6.2.1, §7): AMEM Read puts memory partition j of an access
 * at partition offset s on datapath lane (s + j) mod 8, and AMEM Write puts lane (d + j) mod 8 at partition j of an
 * access at offset d. With identity partition switches a trip that reads `read` and writes `write` therefore moves
 * every row by (d - s) partitions when the two offsets differ — the tensor comes out rotated. Warns (LD0830) when the
 * placed offsets (tensor address + the first instruction's amem_addr_offset, modulo 8 partitions) or the per-iterator
 * strides modulo 8 differ and no instruction of either program configures a partition switch (rpsw_config_vld /
 * wpsw_config_vld: the link cannot evaluate the switch tables, so any configured switch counts as compensating).
 */
export function checkPartitionRotation(t: TripDef, bag: DiagnosticBag): void {
  const rd = t.tensors.get('read');
  const wr = t.tensors.get('write');
  const rp = t.programs.get('amem_read')?.prog;
  const wp = t.programs.get('amem_write')?.prog;
  if (!rd || !wr || !rp || !wp || rd.t.placed.region.space !== 'amem' || wr.t.placed.region.space !== 'amem') return;
  // opcd codepoints >= 2: Read_SRAM / Read_SRAM_with_ReLU, Write / RMW_Add (grammars/pyxis/amem_*_op.json)
  const scan = (p: { op: Uint8Array; words: number }, table: string, vld: string) => {
    let off: number | undefined;
    let strides: number[] | undefined;
    let switched = false;
    for (const v of opWords(p, table)) {
      if (Number(v[vld]) === 1) switched = true;
      if (off === undefined && Number(v['opcd']) >= 2) {
        off = Number(v['amem_addr_offset']) & 7;
        strides = (v['iter_stride'] as number[]).map((x) => x & 7);
      }
    }
    return { off, strides, switched };
  };
  const r = scan(rp, 'amem_read_op', 'rpsw_config_vld');
  const w = scan(wp, 'amem_write_op', 'wpsw_config_vld');
  if (r.switched || w.switched || r.off === undefined || w.off === undefined) return;
  const s = ((viewAddress(rd) >> 4) + r.off) & 7;
  const d = ((viewAddress(wr) >> 4) + w.off) & 7;
  const stridesDiffer = r.strides!.some((x, i) => x !== w.strides![i]);
  if (s === d && !stridesDiffer) return;
  const why = s !== d ? `starts at partition offset ${s} (mod 8) and \`${wr.t.name}\` at ${d}: every row moves by ${(d - s + 8) % 8} partition(s)` : 'has per-row partition offsets (iter_stride mod 8) that differ from the destination\'s';
  bag.add(
    warning('LD0830', `trip \`${t.name}\` copies \`${rd.t.name}\` to \`${wr.t.name}\` with identity partition switches, but \`${rd.t.name}\` ${why}; the data comes out rotated`, {
      span: rd.span,
      spec: `${SEQ} §5.4, §6.7; pyxis-chip-fspec.md §6.2.1, §7`,
      notes: ['help: place both tensors at the same partition offset, or program RPSW (rpsw_rot_enbl) / WPSW (wpsw_rot_enbl) rotation tables'],
    }),
  );
}

type OpRecord = Record<string, number | number[] | string>;

/** The decoded operation words of a sequencer program (`table`: its grammars/pyxis operation table). */
function* opWords(p: { op: Uint8Array; words: number }, table: string): Generator<OpRecord> {
  const tab = loadTable('pyxis', table);
  const stride = p.words > 0 ? p.op.length / p.words : 0;
  for (let k = 0; k < p.words; k++) yield decode(tab, p.op, k * stride) as OpRecord;
}

/**
 * 32-bit integer tensors (`format = int32` / `uint32`, index tables of indirection mode 1, chip §7.6, seq §8.1)
 * are data for the Indirection Table Fetch Engines and for byte moves only: no datapath of the chip takes int32
 * operands (the grid and the AMEM datapath operate on 8/16-bit Recogni, OCP and IEEE formats, chip §4, §6; the VPU
 * on its FP16/Int16 lanes, chip §4, §9). LD0821 for a UIE trip that would feed one to a compute consumer: as `weights`
 * (the weights read port feeds the grid, seq §7) or `rmw_source` (RMW_Add adds values, chip §7.4); as `read` when
 * its AMEM Read program sends rows to the grid or the Vbuffer (tgt_fifo) or applies ReLU; as `write` when its AMEM
 * Write program stores rows from the grid or the Vbuffer (src_fifo) or read-modify-writes them. AMEM-to-AMEM copies
 * (tgt_fifo = AMEM_write with src_fifo = AMEM_read) and DMA trips move bytes and are accepted.
 */
export function checkIntegerTensors(t: TripDef, bag: DiagnosticBag): void {
  if (t.queue.kind !== 'uie') return;
  const fail = (x: { t: TensorDef; span: SourceSpan }, why: string, spec: string) =>
    bag.add(
      error('LD0821', `trip \`${t.name}\`: \`${x.t.name}\` is a ${x.t.format} tensor (32-bit integers); ${why}`, {
        span: x.span,
        spec,
        notes: ['note: int32 / uint32 tensors are index tables for the ITFEs (indirection mode 1); the linker lets them be stored, copied AMEM-to-AMEM and moved by DMA only', 'help: declare the data in a format the consumer computes on (RFP8, RFP16, Int16, ...)'],
      }),
    );
  const port = (k: string) => {
    const x = t.tensors.get(k);
    return x?.t.int ? x : undefined;
  };
  const wt = port('weights');
  if (wt) fail(wt, 'the AMEM weights read port feeds the grid, which does not take 32-bit integers', `${SEQ} §7; pyxis-chip-fspec.md §4`);
  const rmw = port('rmw_source');
  if (rmw) fail(rmw, 'RMW_Add (InMemAdd) adds values; it does not take 32-bit integers', 'pyxis-chip-fspec.md §7.4');
  const rd = port('read');
  const rp = t.programs.get('amem_read')?.prog;
  if (rd && rp)
    for (const v of opWords(rp, 'amem_read_op')) {
      const op = Number(v['opcd']);
      if (op < 2) continue; // Nop, Read_Const: no data read
      if (op === 3) return void fail(rd, `program \`${rp.name}\` reads it with Read_SRAM_with_ReLU (ReLU is defined for Recogni FP8/FP16 only)`, `${SEQ} §5.1.1`);
      if (Number(v['tgt_fifo']) !== 2) return void fail(rd, `program \`${rp.name}\` sends its rows to the ${Number(v['tgt_fifo']) === 1 ? 'Vbuffer (VPU)' : 'grid'} (tgt_fifo), which does not take 32-bit integers`, `${SEQ} §5.1`);
    }
  const wr = port('write');
  const wp = t.programs.get('amem_write')?.prog;
  if (wr && wp)
    for (const v of opWords(wp, 'amem_write_op')) {
      const op = Number(v['opcd']);
      if (op < 2) continue; // Nop, Discard: nothing stored
      if (op === 3) return void fail(wr, `program \`${wp.name}\` read-modify-writes it (RMW_Add adds values)`, `${SEQ} §6.1; pyxis-chip-fspec.md §7.4`);
      if (Number(v['src_fifo']) !== 2) return void fail(wr, `program \`${wp.name}\` stores rows from the ${Number(v['src_fifo']) === 1 ? 'Vbuffer (VPU)' : 'grid'} (src_fifo), which produce no 32-bit integers`, `${SEQ} §6.1`);
    }
}
