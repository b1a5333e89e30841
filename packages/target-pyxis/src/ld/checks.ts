/** Static rule checks on resolved trips (seq §1.2-1.3 grid tensor-size rules; partition rotation, seq §5.4, §6.7). */
import { decode, loadTable } from '@pyxis/codec';
import { error, warning, type DiagnosticBag } from '@pyxis/diagnostics';
import type { TensorDef, TripDef } from './linkTypes.js';
import { viewAddress } from './slices.js';

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
      if (rd && (s2 ? (rd.layout.H - 1) % 16 : (rd.layout.H - 2) % 8))
        fail(s2 ? 'input rows = 16N + 1 for 3x3 stride 2' : 'input rows = 8N + 2 for 3x3 stride 1', `input \`${rd.name}\` has ${rd.layout.H} rows`, '§1.2');
      if (wr && wr.layout.H % 8) fail('output rows must be a multiple of 8', `output \`${wr.name}\` has ${wr.layout.H} rows`, '§1.3');
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
      if (wt && wt.layout.W % m) fail(`the inner dimension must be a multiple of ${m} with ${m === 4 ? 'FP16' : 'FP8'} horizontal data`, `horizontal matrix \`${wt.name}\` has inner dimension ${wt.layout.W}`, '§1.2');
      if (wt && wt.layout.C * wt.layout.H % 8) fail('output rows must be a multiple of 8', `horizontal matrix \`${wt.name}\` has ${wt.layout.C * wt.layout.H} rows`, '§1.3');
      break;
    }
  }
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
    const tab = loadTable('pyxis', table);
    const stride = p.words > 0 ? p.op.length / p.words : 0;
    let off: number | undefined;
    let strides: number[] | undefined;
    let switched = false;
    for (let k = 0; k < p.words; k++) {
      const v = decode(tab, p.op, k * stride) as Record<string, number | number[] | string>;
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
