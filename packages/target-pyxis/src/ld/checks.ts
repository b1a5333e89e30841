/** Static rule checks on resolved trips (seq §1.2-1.3 grid tensor-size rules). */
import { error, type DiagnosticBag } from '@pyxis/diagnostics';
import type { TensorDef, TripDef } from './linkTypes.js';

const SEQ = 'pyxis-uie-sequencers-fspec.md';

/**
 * Grid tensor-size rules of seq §1.2-1.3 for a trip that declares its
 * operation (`op = ...`). Tensors are [C, H, W] (leading dims folded into C):
 * `read` is the vertical input, `write` the output, `weights` the horizontal
 * operand (for matmul the first matrix, [rows, inner]).
 */
export function checkSizeRules(t: TripDef, bag: DiagnosticBag): void {
  const op = t.op!;
  const rd = t.tensors.get('read')?.t;
  const wr = t.tensors.get('write')?.t;
  const wt = t.tensors.get('weights')?.t;
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
