/** `weights` statements: weight databases packed from float weights (chip §14, §15; packers in ./weights). */
import { DiagnosticError, didYouMean, warning } from '@pyxis/diagnostics';
import { alignUp } from '@pyxis/container';
import { CHIP, type LinkContext } from './context.js';
import { loadFloats } from './dataFiles.js';
import type { Placed } from './placement.js';
import { defaultRegion, hbmBytes, regionRef } from './regions.js';
import * as W from './weights/index.js';

export function declareWeights(ctx: LinkContext): void {
  const { err, attrsOf, num, ident, named } = ctx.r;
  const { bag, placements, weightDbs } = ctx;
  for (const b of ctx.blocks('weights')) {
    const name = named(b, '`weights`');
    if (!name) continue;
    const a = attrsOf(b, ['kind', 'data', 'key', 'beta', 'beta_key', 'eb', 'beta_eb', 'filters_per_grid_row', 'grid_rows', 'organisation', 'block_size', 'region', 'address'], `weights \`${name}\``);
    const kinds = ['conv3x3', 'linear8', 'linear16', 'compressed'];
    const kind = ident(a.get('kind')?.value, '`kind`');
    if (!kind || !kinds.includes(kind)) {
      err('LD0140', `weights \`${name}\` needs \`kind\` = ${kinds.join(' | ')}`, a.get('kind')?.value.span ?? b.nameSpan, { notes: kind ? didYouMean(kind, kinds) : [] });
      continue;
    }
    if (!a.get('data')) {
      err('LD0110', `weights \`${name}\` needs \`data\``, b.nameSpan);
      continue;
    }
    const w = loadFloats(ctx, a.get('data')!.value, a.get('key')?.value, '`data`');
    const beta = a.get('beta') ? loadFloats(ctx, a.get('beta')!.value, a.get('beta_key')?.value, '`beta`') : undefined;
    const eb = num(a.get('eb')?.value, '`eb`', -63, 63);
    const region = a.has('region') ? regionRef(ctx, a.get('region')!.value, '`region`') : defaultRegion(ctx, 0);
    const fixed = num(a.get('address')?.value, '`address`', 0, hbmBytes());
    if (!w || !region) continue;
    const source = { file: (a.get('data')!.value as { value: string }).value, name };
    try {
      let bytes: Uint8Array;
      let report: Record<string, unknown> = {};
      const parts: W.DbRegion[] = []; // named byte ranges, symbols `<name>.<part>`
      let web = 0; // EB of the stored weights: given, or fitted to the largest weight (W.fittedEb)
      if (kind === 'conv3x3') {
        const fpg = num(a.get('filters_per_grid_row')?.value, '`filters_per_grid_row`', 1, 8) ?? 1;
        const gr = num(a.get('grid_rows')?.value, '`grid_rows`', 1, 16);
        const r = W.pack3x3DatabaseFromFloats(w.data, w.shape, { eb: (web = eb ?? W.fittedEb('LnsI4F3', w.data, beta?.data)), filtersPerGridRow: fpg, ...(gr !== undefined ? { gridRows: gr } : {}), ...(beta ? { beta: beta.data } : {}), source });
        bytes = r.bytes;
        report = { layout: r.layout.kind, eb: web, ...r.report, ...(r.betaMaxRelError !== undefined ? { betaMaxRelError: r.betaMaxRelError } : {}) };
      } else if (kind === 'linear8') {
        const betaEb = num(a.get('beta_eb')?.value, '`beta_eb`', -63, 63);
        const r = W.pack1x1I4F3DatabaseFromFloats(w.data, w.shape, { eb: (web = eb ?? W.fittedEb('LnsI4F3', w.data)), ...(beta ? { beta: beta.data } : {}), ...(betaEb !== undefined ? { betaEb } : {}), source });
        bytes = r.bytes;
        report = { layout: r.layout.kind, eb: web, ...r.report, ...(r.betaMaxRelError !== undefined ? { betaMaxRelError: r.betaMaxRelError } : {}) };
      } else if (kind === 'linear16') {
        const r = W.pack1x1I5F10DatabaseFromFloats(w.data, w.shape, { eb: (web = eb ?? W.fittedEb('LnsI5F10', w.data, beta?.data)), ...(beta ? { beta: beta.data } : {}), source });
        bytes = r.bytes;
        report = { layout: r.layout.kind, eb: web, ...r.report, ...(r.betaMaxRelError !== undefined ? { betaMaxRelError: r.betaMaxRelError } : {}) };
      } else {
        const orgName = ident(a.get('organisation')?.value, '`organisation`') ?? 'cin_per_cout';
        const organisation = orgName === 'cout_per_cin' ? 'coutPerCin' : orgName === 'cin_per_cout' ? 'cinPerCout' : undefined;
        if (!organisation) {
          err('LD0141', `\`organisation\` must be cin_per_cout or cout_per_cin`, a.get('organisation')!.value.span, { spec: `${CHIP} §15.4` });
          continue;
        }
        const bs = num(a.get('block_size')?.value, '`block_size`', 4, 32) ?? 32;
        const r = W.compressWeights(w.data, w.shape, { organisation, blockSize: bs, ...(eb !== undefined ? { eb } : {}), source });
        bytes = r.bytes;
        report = { layout: 'compressed', organisation: orgName, block_size: bs, eb: r.eb, ...r.report };
        parts.push({ name: 'codebook', offset: 0, size: 128 }, { name: 'superblocks', offset: 128, size: r.bytes.length - 128 });
        if (beta) {
          // Beta is not inside the superblocks (4-bit indices only): a trailing 16-bit group
          // (pack1x1BetaGroup), 128-byte aligned after them, symbol `<name>.beta` (chip §15.5).
          const betaEb = num(a.get('beta_eb')?.value, '`beta_eb`', -63, 63) ?? r.eb;
          const g = W.betaGroupFromFloats(beta.data, w.shape[0]!, betaEb, source);
          const at = alignUp(r.bytes.length, 128);
          bytes = new Uint8Array(at + g.bytes.length);
          bytes.set(r.bytes);
          bytes.set(g.bytes, at);
          parts.push({ name: 'beta', offset: at, size: g.bytes.length });
          report = { ...report, beta_offset: at, beta_eb: betaEb, betaMaxRelError: g.report.maxRelError };
        }
      }
      if (typeof report['saturated'] === 'number' && report['saturated'] > 0)
        bag.add(warning('LD0706', `weights \`${name}\`: ${report['saturated']} of ${report['weights']} weights exceed the largest ${kind === 'linear16' ? 'LnsI5F10' : 'LnsI4F3'} magnitude at EB ${report['eb']} and were saturated (raise \`eb\`)`, { span: (a.get('eb') ?? a.get('data'))!.value.span, spec: `${CHIP} §4, §14.1` }));
      const nz = (report['weights'] as number) - (report['zeroWeights'] as number);
      if (kind !== 'compressed' && typeof report['flushedToZero'] === 'number' && report['flushedToZero'] * 100 > nz)
        bag.add(warning('LD0707', `weights \`${name}\`: ${report['flushedToZero']} of ${nz} non-zero weights are below the smallest ${kind === 'linear16' ? 'LnsI5F10' : 'LnsI4F3'} magnitude at EB ${report['eb']} and became zero (lower \`eb\`, or omit it to fit it to the weights)`, { span: (a.get('eb') ?? a.get('data'))!.value.span, spec: `${CHIP} §4` }));
      const placed: Placed = { name, what: 'weight database', region, size: bytes.length, align: 128, address: 0, span: b.nameSpan!, ...(fixed !== undefined ? { fixed } : {}) };
      placements.push(placed);
      weightDbs.push({ name, kind, bytes, placed, report, parts });
    } catch (e) {
      if (e instanceof DiagnosticError) bag.addAll(e.diagnostics.map((d) => ({ ...d, span: b.nameSpan!, notes: [...(d.notes ?? []), `note: from weights \`${name}\``] })));
      else throw e;
    }
  }
}
