/**
 * `config` statements: config tables and CSRs preloaded in cfg space (the
 * regions of grammars/pyxis/memory_map.json), encoded through their field
 * tables; fields naming tensors are filled after placement (SYMBOL_FIELDS).
 */
import { didYouMean, warning, type SourceSpan } from '@pyxis/diagnostics';
import { encode, loadGrammarJson, loadTable, reservedBitsSet, validate, type FieldValues } from '@pyxis/codec';
import type { ScriptValue } from '@pyxis/ld';
import { clusterCount, queueGroup } from '../common/nocMap.js';
import { configDataEntries } from './configData.js';
import { CHIP, SEQ, tensorNames, tensorOrDb, type CfgFixup, type LinkContext } from './context.js';
import type { TensorDef } from './linkTypes.js';

/**
 * Config-table fields that may name a tensor (or weight database) instead of a
 * number: field -> address shift (the field holds AMEM address bits [25:shift]).
 * The linker fills them after placement, raises the tensor's alignment to
 * 2^shift and, when the table has `bank_hash_dsbl` and the entry does not give
 * it, sets it from the tensor's region view (chip §7.5, §7.6; seq §8).
 */
const SYMBOL_FIELDS: Record<string, Record<string, number>> = {
  itfe_command: { x_table_base_addr: 7, y_table_base_addr: 7 },
};

export function declareConfig(ctx: LinkContext): void {
  const { err, attrsOf, num, named } = ctx.r;
  const { cfgPreloads, cfgFixups, memoryMap } = ctx;
  for (const b of ctx.blocks('config')) {
    const rname = named(b, '`config`');
    if (!rname) continue;
    const region = memoryMap().regions.get(rname);
    if (!region) {
      err('LD0150', `no configuration region \`${rname}\` in grammars/pyxis/memory_map.json`, b.nameSpan, { notes: didYouMean(rname, memoryMap().regions.keys()) });
      continue;
    }
    const a = attrsOf(b, ['cluster', 'uie', 'index', 'values', 'data'], `config \`${rname}\``);
    const cluster = num(a.get('cluster')?.value, '`cluster`', 0, clusterCount() - 1) ?? 0;
    // cluster CSRs (memory_map.json kind cluster_csr) exist once per cluster: no `uie`
    const perCluster = region.scope === 'cluster';
    if (perCluster && a.has('uie')) err('LD0158', `\`${rname}\` is a cluster CSR (one per cluster); \`uie\` does not apply`, a.get('uie')!.keySpan);
    if (rname === 'cluster.enqueue') {
      err('LD0158', 'the linker writes the enqueue records itself (`.enqueue`); preloading the enqueue CSR would enqueue lists twice', b.nameSpan, { spec: `${CHIP} §11.5.1.1` });
      continue;
    }
    // LD0975: a preload is a write; hardware ignores writes to the registers it maintains (simulator: SIM0030)
    if (region.access === 'ro') {
      err('LD0975', `\`${rname}\` is a read-only register (maintained by the hardware): a preload would be ignored`, b.nameSpan, { spec: region.spec });
      continue;
    }
    const uie = perCluster ? 0 : num(a.get('uie')?.value, '`uie`', 0, queueGroup('uie').count - 1) ?? 0;
    const index = num(a.get('index')?.value, '`index`', 0, region.words - 1) ?? 0;
    const entries: Uint8Array[] = [];
    const table = region.table ? loadTable('pyxis', region.table) : undefined;
    // raw values (CSRs without a field table, or whole entries as integers)
    const vv = a.get('values')?.value;
    let refused = false; // a value refused (LD0104, LD0976): no follow-on LD0155
    if (vv) {
      const items = vv.kind === 'list' ? vv.items : [vv];
      for (const it of items) {
        const n = num(it, 'a register value', 0, Number.MAX_SAFE_INTEGER);
        if (n === undefined) {
          refused = true;
          continue;
        }
        // LD0976: bits the register does not have (its `bits`, or its field table's reserved bits)
        if (region.bits !== undefined && BigInt(n) >> BigInt(region.bits) !== 0n) {
          err('LD0976', `value ${n} does not fit \`${rname}\`: the register has ${region.bits} bit(s) (0..${2n ** BigInt(region.bits) - 1n})`, it.span, { spec: region.spec });
          refused = true;
          continue;
        }
        const e = new Uint8Array(region.stride);
        let x = BigInt(n);
        for (let k = 0; k < Math.min(8, region.stride); k++, x >>= 8n) e[k] = Number(x & 0xffn);
        const reserved = table && table.bytes <= region.stride ? reservedBitsSet(table, e, 0) : [];
        if (reserved.length) {
          err('LD0976', `value ${n} sets reserved bits of \`${rname}\` (${[...new Set(reserved)].join(', ')} of ${table!.name})`, it.span, { spec: region.spec });
          refused = true;
          continue;
        }
        entries.push(e);
      }
    }
    // entries from a tensor file, one row per entry (configData.ts)
    const dv = a.get('data')?.value;
    if (dv) {
      if (!table) err('LD0152', `region \`${rname}\` has no field table; give \`values = [...]\``, dv.span);
      else entries.push(...(configDataEntries(ctx, dv, table, region.stride, loadGrammarJson<{ meta?: Record<string, unknown> }>('pyxis', table.name).meta) ?? []));
    }
    for (const child of b.children) {
      if (child.kind !== 'entry') {
        err('LD0151', `expected \`entry { field = value; ... }\` inside config, found \`${child.kind}\``, child.kindSpan);
        continue;
      }
      if (!table) {
        err('LD0152', `region \`${rname}\` has no field table; give \`values = [...]\``, child.kindSpan);
        continue;
      }
      const values: FieldValues = {};
      const refs: Array<{ field: string; shift: number; t: TensorDef; span: SourceSpan }> = [];
      for (const at of child.attrs) {
        const f = table.byName.get(at.key);
        if (!f) {
          err('LD0153', `\`${at.key}\` is not a field of ${table.name}`, at.keySpan, { notes: didYouMean(at.key, table.fields.filter((x) => !x.reserved).map((x) => x.name)) });
          continue;
        }
        const shift = SYMBOL_FIELDS[table.name]?.[f.name];
        if (shift !== undefined && at.value.kind === 'ident') {
          const t = tensorOrDb(ctx, at.value.value);
          if (!t) {
            err('LD0126', `no tensor or weight database \`${at.value.value}\``, at.value.span, { notes: didYouMean(at.value.value, tensorNames(ctx)) });
            continue;
          }
          if (t.placed.fixed === undefined) t.placed.align = Math.max(t.placed.align, 2 ** shift);
          refs.push({ field: f.name, shift, t, span: at.value.span });
          values[f.name] = 0; // filled after placement
          continue;
        }
        const conv = (v: ScriptValue): number | string | undefined => (v.kind === 'number' ? v.value : v.kind === 'ident' || v.kind === 'string' ? v.value : undefined);
        if (at.value.kind === 'list') values[at.key] = at.value.items.map((x) => conv(x) ?? 0);
        else {
          const c = conv(at.value);
          if (c === undefined) err('LD0103', `\`${at.key}\` needs a number or a name`, at.value.span);
          else values[at.key] = c;
        }
      }
      const issues = validate(table, values);
      if (issues.length) {
        for (const is of issues) {
          const at = child.attrs.find((x) => x.key === is.field);
          err('LD0154', `${table.name}: ${is.message}`, at?.value.span ?? child.kindSpan);
        }
        continue;
      }
      const e = new Uint8Array(region.stride);
      encode(table, values, e, 0);
      if (refs.length)
        cfgFixups.push({ preload: cfgPreloads.length, entry: entries.length, stride: region.stride, table, values, cluster, refs, autoHash: table.byName.has('bank_hash_dsbl') && !child.attrs.some((x) => x.key === 'bank_hash_dsbl') });
      entries.push(e);
    }
    const dropFixups = () => { while (cfgFixups.length && cfgFixups[cfgFixups.length - 1]!.preload === cfgPreloads.length) cfgFixups.pop(); };
    if (!entries.length) {
      dropFixups();
      if (!refused) err('LD0155', `config \`${rname}\` writes nothing (give entry blocks or values)`, b.nameSpan);
      continue;
    }
    if (index + entries.length > region.words) {
      dropFixups();
      err('LD0156', `config \`${rname}\`: entries ${index}..${index + entries.length - 1} exceed its ${region.words} entries`, b.nameSpan);
      continue;
    }
    const data = new Uint8Array(entries.length * region.stride);
    entries.forEach((e, k) => data.set(e, k * region.stride));
    cfgPreloads.push({ name: perCluster ? `.cfg.c${cluster}.${rname}.${index}` : `.cfg.c${cluster}.uie${uie}.${rname}.${index}`, cluster, address: region.address + uie * memoryMap().uieStride + index * region.stride, data, span: b.nameSpan!, region: rname, index, entries: entries.length });
  }
  reportOverlaps(ctx);
}

/**
 * LD0977: a `cluster.bt_mem` preload (the direct barrier-table view, chip §11.6.6: "writing barriers is not a normal
 * operation ... must be done under controlled circumstances") of barrier id 0 (no barrier, §11.6.3: the hardware
 * ignores the write) or of an id the linker allocates in that cluster: the barrier-config list's set_ref_counts
 * increments that entry's counts (§11.6.2), so a preloaded value would be added to the linker's and deadlock or
 * release its trips early. Needs the barrier plan: called after planTripGraph.
 */
export function checkBtMemPreloads(ctx: LinkContext, barriers: ReadonlyArray<{ cluster: number; id: number; producers: number[] }>, tripName: (plannedIndex: number) => string): void {
  const { err } = ctx.r;
  const owned = new Map<string, number>(); // "cluster:id" -> a producer trip of the barrier
  for (const b of barriers) if (!owned.has(`${b.cluster}:${b.id}`)) owned.set(`${b.cluster}:${b.id}`, b.producers[0] ?? -1);
  for (const p of ctx.cfgPreloads) {
    if (p.region !== 'cluster.bt_mem' || p.index === undefined || p.entries === undefined) continue;
    for (let id = p.index; id < p.index + p.entries; id++) {
      if (id === 0) {
        err('LD0977', '`cluster.bt_mem[0]` is not a barrier (id 0 means "no barrier"): the hardware ignores the write (pyxis-sim: SIM0860)', p.span, { spec: `${CHIP} §11.6.3, §11.6.6` });
        continue;
      }
      const producer = owned.get(`${p.cluster}:${id}`);
      if (producer !== undefined)
        err('LD0977', `barrier ${id} of cluster ${p.cluster} is allocated by the linker${producer >= 0 ? ` (notified by trip \`${tripName(producer)}\`)` : ''}: a preload of its \`cluster.bt_mem\` entry would be added to the reference counts its barrier-config descriptor sets (set_ref_counts increments them)`, p.span, {
          spec: `${CHIP} §11.6.2, §11.6.6`,
          notes: ['help: preload only ids the linker does not allocate (the map\'s "Barrier allocation" lists them), e.g. above the highest one'],
        });
    }
  }
}

/**
 * LD0157: preloads writing the same cfg bytes. One sweep over the preloads sorted by (cluster, address):
 * O(n log n), and at most one error per preload (the later-declared of the pair, naming the other), where
 * comparing every pair was quadratic in time and in the number of errors.
 */
function reportOverlaps(ctx: LinkContext): void {
  const { cfgPreloads } = ctx;
  const order = cfgPreloads.map((_, i) => i).sort((x, y) => cfgPreloads[x]!.cluster - cfgPreloads[y]!.cluster || cfgPreloads[x]!.address - cfgPreloads[y]!.address || x - y);
  let best = -1; // the preload reaching furthest among those swept in this cluster
  for (const i of order) {
    const A = cfgPreloads[i]!;
    const B = best >= 0 ? cfgPreloads[best]! : undefined;
    if (!B || B.cluster !== A.cluster) {
      best = i;
      continue;
    }
    const bEnd = B.address + B.data.length;
    if (A.data.length > 0 && A.address < bEnd) {
      const [later, earlier] = i > best ? [A, B] : [B, A];
      ctx.r.err('LD0157', `config ${later.name} overlaps ${earlier.name}`, later.span, { secondary: [{ span: earlier.span, label: 'overlapped' }] });
    }
    if (A.address + A.data.length > bEnd) best = i;
  }
}

/** Config fields naming tensors (SYMBOL_FIELDS), now that the tensors are placed. */
export function resolveConfigFixups(ctx: LinkContext): void {
  const { err } = ctx.r;
  const { cfgPreloads, cfgFixups } = ctx;
  for (const fx of cfgFixups) {
    let ok = true;
    let unhashed: boolean | undefined;
    for (const r of fx.refs) {
      const p = r.t.placed;
      if (p.region.space !== 'amem' || p.region.cluster !== fx.cluster) {
        err('LD0159', `${fx.table.name}.${r.field}: \`${r.t.name}\` is in ${p.region.space === 'hbm' ? 'HBM' : `the AMEM of cluster ${p.region.cluster}`}; index tables are read from the AMEM of cluster ${fx.cluster}`, r.span, { spec: `${CHIP} §7.6` });
        ok = false;
      } else if (p.address % 2 ** r.shift) {
        err('LD0803', `${fx.table.name}.${r.field}: indirection table \`${r.t.name}\` at 0x${p.address.toString(16)} is not ${2 ** r.shift}-byte aligned`, r.span, { spec: `${SEQ} §1.1; ${CHIP} §7.6` });
        ok = false;
      } else if (unhashed !== undefined && unhashed !== p.region.unhashed) {
        err('LD0159', `${fx.table.name}: \`${r.t.name}\` is in the ${p.region.unhashed ? 'unhashed' : 'hashed'} view but the other index table is not; one command has one bank_hash_dsbl`, r.span, { spec: `${CHIP} §7.5` });
        ok = false;
      } else {
        unhashed = p.region.unhashed;
        fx.values[r.field] = p.address >> r.shift;
      }
    }
    if (!ok) continue;
    checkIndexWidths(ctx, fx);
    if (fx.autoHash && unhashed !== undefined) fx.values['bank_hash_dsbl'] = unhashed ? 1 : 0;
    const issues = validate(fx.table, fx.values);
    if (issues.length) {
      for (const is of issues) err('LD0154', `${fx.table.name}: ${is.message}`, fx.refs[0]!.span);
      continue;
    }
    encode(fx.table, fx.values, cfgPreloads[fx.preload]!.data, fx.entry * fx.stride);
  }
}

/**
 * An ITFE command naming int32 / uint32 index tables (seq §8.1): 32-bit entries are read only as the X table of
 * indirection mode 1; modes 0, 2 and 3 read 16-bit entries (LD0162), and mode 1 does not read a 16-bit tensor as
 * 32-bit indices (LD0162). 8-bit tensors holding raw index bytes stay accepted (the RFP8 compatibility form).
 * LD0163 warns when the command reads more indices than a 32-bit table holds.
 */
function checkIndexWidths(ctx: LinkContext, fx: CfgFixup): void {
  const mode = Number(fx.values['indir_mode'] ?? 0);
  if (!Number.isInteger(mode)) return;
  const n = Number(fx.values['num_indices_per_table_m1'] ?? 0) + 1;
  for (const r of fx.refs) {
    const x32 = mode === 1 && r.field === 'x_table_base_addr';
    const t = r.t;
    const spec = { spec: `${SEQ} §5.2.2, §8.1; ${CHIP} §7.6` };
    if (t.int && !x32)
      ctx.r.err('LD0162', `${fx.table.name}.${r.field}: \`${r.t.name}\` holds 32-bit indices (${t.format}) but indir_mode ${mode} reads ${r.field === 'y_table_base_addr' || mode !== 1 ? '16-bit' : '32-bit'} entries from this table`, r.span, { ...spec, notes: ['help: 32-bit index tables are the X table of indir_mode = 1; use an Int16 tensor for modes 0, 2 and 3'] });
    else if (x32 && t.elemBytes === 2)
      ctx.r.err('LD0162', `${fx.table.name}.${r.field}: indir_mode 1 reads 32-bit indices but \`${r.t.name}\` is a 16-bit ${t.format} tensor`, r.span, { ...spec, notes: ['help: declare the table with `format = int32` (or uint32), or use indir_mode = 0'] });
    else if (t.int && n > t.shape.reduce((a, b) => a * b, 1))
      ctx.bag.add(warning('LD0163', `${fx.table.name}: reads ${n} indices from \`${r.t.name}\`, which holds ${t.shape.reduce((a, b) => a * b, 1)}`, { span: r.span, ...spec }));
  }
}
