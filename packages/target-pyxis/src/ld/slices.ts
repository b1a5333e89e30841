/**
 * Tensor slices a trip may name (docs/linker.md "Slices"): `x[16:32]` (rows of the outermost dimension),
 * `x[:, 0:64]` (columns), any number of dimensions outermost first, and `x@bytes[0:4096]` (a byte range of the
 * tensor's storage). A slice resolves to a view: a byte offset from the tensor's base address and the layout
 * (rows, row pitch, channel pitch) of the part selected, with the tensor's own strides (chip §7.2, §7.3).
 *
 * What the hardware can address (checked by the trip kinds, `checkUieView` / `checkDmaView`):
 * - a UIE port's base address is partition granular (AMEM address [25:4], chip §11.4.2; 16-bit tensors on even
 *   partitions, chip §7.3): the view must start on such a boundary; its row pitch is the program's iter_stride
 *   (seq §5.2, §6.2), so columns and row ranges of a strided tensor are fine;
 * - a DMA descriptor moves one contiguous range (start address + length, chip §11.4.3-§11.4.5, §12.6.2): the view
 *   must be contiguous (a range of whole rows of a packed tensor, or a byte range).
 * The folded channel dimensions (all but the last two) must select one run of consecutive channels, so that one
 * channel pitch describes the view.
 */
import type { SourceSpan } from '@pyxis/diagnostics';
import { showSlice, type ScriptReader, type ScriptSlice } from '@pyxis/ld';
import { CHIP } from './context.js';
import type { TensorDef } from './linkTypes.js';
import type { Placed } from './placement.js';
import { PARTITION, rowIntervals, tensorLayout, type TensorLayout } from './tensors.js';

export interface TensorView {
  /** Bytes from the tensor's base address to the first selected element. */
  offset: number;
  /** Layout of the selected part (the tensor's strides); `size` = bytes from `offset` to the end of its last row. */
  layout: TensorLayout;
  /** Shape of the selected part ([C, H, W] folded; [n] for a byte range). */
  shape: number[];
  /** The slice as written, e.g. `[16:32]`. */
  text: string;
  span: SourceSpan;
}

/** Resolves `s` against tensor `t` (LD0136 bad dimension count / empty or out-of-range slice / non-uniform channels). */
export function resolveSlice(r: ScriptReader, t: TensorDef, s: ScriptSlice): TensorView | undefined {
  const text = showSlice(s);
  const bad = (msg: string, span: SourceSpan) => void r.err('LD0136', `slice \`${t.name}${text}\`: ${msg}`, span, { spec: `${CHIP} §7.2, §7.3` });
  const range = (d: ScriptSlice['dims'][number], n: number, what: string): [number, number] | undefined => {
    const a = d.start ?? 0;
    const b = d.end ?? n;
    if (a >= b || b > n) {
      bad(`${what} ${a}:${b} is ${a >= b ? 'empty' : `out of range (the ${what} has ${n})`}`, d.span);
      return undefined;
    }
    return [a, b];
  };
  if (s.unit === 'bytes') {
    if (s.dims.length !== 1) return bad('a byte range has one dimension, `@bytes[a:b]`', s.span);
    const size = t.placed.size > 0 ? Math.max(t.placed.size, t.layout.size) : t.layout.size;
    const br = range(s.dims[0]!, size, 'byte range');
    if (!br) return undefined;
    return { offset: br[0], layout: tensorLayout([br[1] - br[0]], 1), shape: [br[1] - br[0]], text, span: s.span };
  }
  const shape = t.shape.length ? t.shape : [1];
  if (s.dims.length > shape.length) return bad(`${s.dims.length} dimensions given, the tensor has ${shape.length} (shape [${shape.join(', ')}])`, s.span);
  const sel: Array<[number, number]> = [];
  for (let i = 0; i < shape.length; i++) {
    const d = s.dims[i];
    const rg = d ? range(d, shape[i]!, `dimension ${i}`) : [0, shape[i]!] as [number, number];
    if (!rg) return undefined;
    sel.push(rg);
  }
  const n = shape.length;
  const L = t.layout;
  const [w0, w1] = sel[n - 1]!;
  const [h0, h1] = n >= 2 ? sel[n - 2]! : [0, 1];
  // folded channels: from the innermost leading dimension out, full dimensions, then at most one partial one,
  // then dimensions of one index each -> one run of consecutive channels
  let c0 = 0;
  let cn = 1;
  let scale = 1;
  let partial = false;
  for (let i = n - 3; i >= 0; i--) {
    const [a, b] = sel[i]!;
    const len = b - a;
    if (partial && len !== 1) return bad(`the channel dimensions select more than one run of channels (dimension ${i} has ${len} indices outside a partial inner dimension): one channel pitch cannot describe it`, s.dims[i]?.span ?? s.span);
    if (len !== shape[i]) partial = true;
    c0 += a * scale;
    cn *= len;
    scale *= shape[i]!;
  }
  const layout = tensorLayout([cn, h1 - h0, w1 - w0], L.elemBytes, { row: L.rowStride, chan: L.chanStride });
  const offset = (c0 * L.chanStride + h0 * L.rowStride) * PARTITION + w0 * L.elemBytes;
  return { offset, layout, shape: [cn, h1 - h0, w1 - w0], text, span: s.span };
}

/** A UIE port's base address is partition granular, even partitions for 16-bit tensors (chip §11.4.2, §7.3). */
export function checkUieView(r: ScriptReader, t: TensorDef, v: TensorView): void {
  const g = t.elemBytes === 2 ? 2 * PARTITION : PARTITION;
  if (v.offset % g)
    r.err('LD0136', `slice \`${t.name}${v.text}\` starts ${v.offset} bytes into the tensor, not on a ${g}-byte (${t.elemBytes === 2 ? 'even ' : ''}partition) boundary: a UIE base address is AMEM address [25:4]`, v.span, {
      spec: `${CHIP} §11.4.2, §7.3`,
      notes: [`help: start the slice at a multiple of ${g / t.elemBytes} elements along the row`],
    });
}

/** A DMA descriptor moves one contiguous range (chip §11.4.3-§11.4.7, §12.6.2). */
export function checkDmaView(r: ScriptReader, t: TensorDef, v: TensorView, what: string): void {
  if (rowIntervals(v.layout).length > 1)
    r.err('LD0136', `slice \`${t.name}${v.text}\` is not one contiguous byte range (rows ${v.layout.rowStride * PARTITION} bytes apart, ${v.layout.rowBytes} bytes each): a ${what} descriptor moves start + length only`, v.span, {
      spec: `${CHIP} §11.4.3, §11.4.4, §11.4.5, §12.6.2`,
      notes: ['help: slice whole rows (`x[a:b]`), or move the columns with a UIE trip'],
    });
}

/** Address of a trip's tensor (base + slice offset) and its extent in bytes. */
export function viewAddress(x: { t: TensorDef; view?: TensorView }): number {
  return x.t.placed.address + (x.view?.offset ?? 0);
}
export function viewSize(x: { t: TensorDef; view?: TensorView }): number {
  return x.view ? x.view.layout.size : x.t.placed.size;
}
export function viewLayout(x: { t: TensorDef; view?: TensorView }): TensorLayout {
  return x.view ? x.view.layout : x.t.layout;
}

/** The placement a descriptor addresses: the tensor's, moved to the view (same region, the view's bytes). */
export function viewPlaced(x: { t: TensorDef; view?: TensorView }): Placed {
  return x.view ? { ...x.t.placed, name: `${x.t.placed.name}${x.view.text}`, address: viewAddress(x), size: x.view.layout.size } : x.t.placed;
}
