/**
 * Static checks of a linked system (pyxis-ld SYSTEM.json): every chip's RDMA Tx / Rx and datagram Tx descriptors,
 * read from its image's enqueued descriptor lists (as the simulator would fetch them) and decoded with the grammar
 * tables desc_rdma_tx / desc_rdma_rx / desc_dgram_tx, against the system's VOQ maps and VPFEs:
 *   LD0902 a Tx job's VOQ names no chip/cluster (§10.2)          LD0903 a TJID / RJID bound to two partners (§10.4)
 *   LD0904 Tx and Rx NumWords disagree (§10.3, §11.4.6-7)         LD0905 PageSizeWords outside [32, 127] (§11.4.6)
 *   LD0906 datagram NumBytes outside [1, 16256] (§10.6)           LD0908 (warning) PageSizeWords * 128 + 16 not a
 *                                                                       multiple of 176 (§10.7.2 note)
 *   LD0960 (warning) an RDMA job whose partner job no image enqueues (§10.3.1: it can only time out)
 * "At once" for LD0903 is read statically: within one linked system every TJID-RJID mapping must stay one pair
 * (§10.4: "Each TJID - RJID mappings should be static"), so a TJID of one chip/cluster used with two different
 * (Rx chip, cluster, RJID) partners is reported wherever the two jobs are (spec-notes fsys).
 */
import { loadTable, readField, type CompiledTable } from '@pyxis/codec';
import { error, warning, type Diagnostic } from '@pyxis/diagnostics';
import type { Container } from '@pyxis/container';
import { loadSimConfig } from '../config.js';
import { inspectImage } from '../image.js';
import { loadedChipFor } from '../imageChip.js';
import { PyxisObserver } from '../observer.js';
import { remapEngineAddress } from '../noc.js';
import { queueKind } from '../queues.js';
import { descriptorBytes } from '../descriptors.js';
import { FabricCodes } from './codes.js';
import { VOQ_UNMAPPED, type SystemDesc } from './system.js';
import { vpfeRoute } from './vpfe.js';

export interface FabricDescriptor {
  kind: 'rdma_tx' | 'rdma_rx' | 'dgram_tx';
  cluster: number;
  /** Byte offset of the descriptor in its image file (for diagnostics), -1 when unknown. */
  where: string;
  f: Record<string, number>;
}

const KIND_TABLE: Record<string, [FabricDescriptor['kind'], string, string[]]> = {
  rdma_tx: ['rdma_tx', 'desc_rdma_tx', ['tjid', 'rjid', 'dest_voq', 'num_words', 'page_size_words', 'trip_id']],
  rdma_rx: ['rdma_rx', 'desc_rdma_rx', ['tjid', 'rjid', 'msg_voq', 'num_words', 'trip_id']],
  dgram_tx: ['dgram_tx', 'desc_dgram_tx', ['dest_voq', 'num_bytes']],
};

/** The fabric descriptors an image enqueues (its enqueue records' lists, read as the DPE would). */
export function fabricDescriptors(container: Container, file: string): FabricDescriptor[] {
  const info = inspectImage(container, file);
  const kinds = info.records.map((r) => queueKind(r.queue_id)?.kind as string | undefined);
  if (!kinds.some((k) => k !== undefined && k in KIND_TABLE)) return [];
  const chip = loadedChipFor(info, { config: loadSimConfig(), observer: new PyxisObserver() });
  const out: FabricDescriptor[] = [];
  const tables = new Map<string, CompiledTable>();
  info.records.forEach((r, i) => {
    const k = kinds[i];
    if (!k || !(k in KIND_TABLE) || r.cluster >= chip.clusters) return;
    const [kind, tname, fields] = KIND_TABLE[k]!;
    let t = tables.get(tname);
    if (!t) tables.set(tname, (t = loadTable('pyxis', tname)));
    // Descriptors at rest are 8-byte aligned (32 B for RDMA, 8 B for datagrams: the tables' widths).
    const size = descriptorBytes(k as never) || Math.ceil(t.bytes / 8) * 8;
    if (size <= 0) return;
    const noc = remapEngineAddress(r.descriptor_list_address, chip.dpe[r.cluster]!.windows);
    const len = r.descriptor_list_length * 8;
    const target = chip.noc.resolve(noc, len);
    if (!target) return; // the simulator reports an unreadable list when it runs
    const bytes = chip.noc.read(target, len);
    for (let o = 0; o + size <= bytes.length; o += size) {
      const f: Record<string, number> = {};
      for (const n of fields) f[n] = Number(readField(t, bytes, n, 0, o));
      out.push({ kind, cluster: r.cluster, where: `${file}: cluster ${r.cluster} queue 0x${r.queue_id.toString(16)} list 0x${r.descriptor_list_address.toString(16)} + ${o}`, f });
    }
  });
  return out;
}

const S = (s: string) => ({ spec: `pyxis-chip-fspec.md ${s}` });

/** Checks the system's descriptors; `descs[c]` are chip c's. */
export function checkSystem(sys: SystemDesc, descs: FabricDescriptor[][]): Diagnostic[] {
  const d: Diagnostic[] = [];
  const cpc = sys.fabric.system.clusters_per_chip;
  const route = vpfeRoute(sys.clusterVpfe, cpc, sys.fabric.system.vpfe_bits);
  const target = (chip: number, voq: number): number => {
    const v = sys.voqToVpfe[chip]![voq >> 2]!;
    return v === VOQ_UNMAPPED ? -2 : route[v]!;
  };
  const txPartner = new Map<string, string>();
  const rxPartner = new Map<string, string>();
  const rxJobs = new Map<string, { nw: number; where: string }>();
  const txJobs: Array<{ key: string; nw: number; where: string; chip: number }> = [];
  const oddPages = new Map<number, { at: string; count: number }>();
  descs.forEach((list, chip) => {
    for (const x of list) {
      const at = `chip ${chip}: ${x.where}`;
      if (x.kind === 'rdma_tx' || x.kind === 'dgram_tx') {
        const t = target(chip, x.f['dest_voq']!);
        if (t < 0)
          d.push(error(FabricCodes.voqNoTarget, `${at}: ${x.kind === 'rdma_tx' ? 'RDMA Tx job' : 'datagram'} DestVOQ ${x.f['dest_voq']} (group ${x.f['dest_voq']! >> 2}) ${t === -2 ? 'is not in the chip\'s Pyxis_VOQ_to_VPFE_map' : `maps to VPFE ${sys.voqToVpfe[chip]![x.f['dest_voq']! >> 2]}, which no chip/cluster of the system is`}`, S('§10.2')));
        if (x.kind === 'dgram_tx') {
          const n = x.f['num_bytes']!;
          if (n < 1 || n > 16256) d.push(error(FabricCodes.badDatagramSize, `${at}: datagram NumBytes ${n} is outside [1, 16256]`, S('§10.6, §11.4.8')));
          continue;
        }
        const ps = x.f['page_size_words']!;
        if (ps < 32 || ps > 127) d.push(error(FabricCodes.badPageSize, `${at}: PageSizeWords ${ps} is outside [32, 127]`, S('§11.4.6')));
        else if ((ps * 128 + 16) % 176 !== 0) {
          // one warning per page size, not per descriptor (a 16-chip collective has hundreds of jobs)
          const seen = oddPages.get(ps);
          if (seen) seen.count++;
          else oddPages.set(ps, { at, count: 1 });
        }
        if (t < 0) continue;
        const partner = `chip ${Math.floor(t / cpc)} cluster ${t % cpc} RJID ${x.f['rjid']}`;
        const key = `${chip}.${x.cluster}.${x.f['tjid']}`;
        const prev = txPartner.get(key);
        if (prev !== undefined && prev !== partner)
          d.push(error(FabricCodes.jobIdReuse, `${at}: TJID ${x.f['tjid']} of chip ${chip} cluster ${x.cluster} is paired with ${partner} and also with ${prev}`, S('§10.4')));
        else txPartner.set(key, partner);
        txJobs.push({ key: `${Math.floor(t / cpc)}.${t % cpc}.${x.f['rjid']}.${chip}.${x.cluster}.${x.f['tjid']}`, nw: x.f['num_words']!, where: at, chip });
      } else {
        const t = target(chip, x.f['msg_voq']!);
        if (t < 0) {
          d.push(error(FabricCodes.voqNoTarget, `${at}: RDMA Rx job MsgVOQ ${x.f['msg_voq']} names no chip/cluster of the system (its CTS / ACK could not be sent)`, S('§10.2, §11.4.7')));
          continue;
        }
        const partner = `chip ${Math.floor(t / cpc)} cluster ${t % cpc} TJID ${x.f['tjid']}`;
        const key = `${chip}.${x.cluster}.${x.f['rjid']}`;
        const prev = rxPartner.get(key);
        if (prev !== undefined && prev !== partner)
          d.push(error(FabricCodes.jobIdReuse, `${at}: RJID ${x.f['rjid']} of chip ${chip} cluster ${x.cluster} is paired with ${partner} and also with ${prev}`, S('§10.4')));
        else rxPartner.set(key, partner);
        rxJobs.set(`${chip}.${x.cluster}.${x.f['rjid']}.${Math.floor(t / cpc)}.${t % cpc}.${x.f['tjid']}`, { nw: x.f['num_words']!, where: at });
      }
    }
  });
  for (const [ps, { at, count }] of oddPages)
    d.push(warning('LD0908', `${at}${count > 1 ? ` (and ${count - 1} more RDMA Tx job(s) of the system)` : ''}: PageSizeWords ${ps}: ${ps} * 128 + 16 = ${ps * 128 + 16} B is not a multiple of 176 (the §10.7.2 note; 125 is the recommended value)`, S('§10.7.2, §11.4.6')));
  // LD0960 (warning): a job whose partner no image of the system enqueues can never complete: the Tx job waits for a
  // CTS, the Rx job for data, until its timers fail it (§10.3.1). A warning: a list written at run time (by an MPE)
  // is not visible here.
  const txKeys = new Set(txJobs.map((t) => t.key));
  for (const tx of txJobs) {
    const rx = rxJobs.get(tx.key);
    if (rx && rx.nw !== tx.nw)
      d.push(error(FabricCodes.numWordsMismatch, `${tx.where}: RDMA Tx NumWords ${tx.nw} disagrees with the Rx job's NumWords ${rx.nw} (${rx.where})`, S('§10.3, §11.4.6, §11.4.7')));
    if (!rx) {
      const [rc, rcl, rjid, , , tjid] = tx.key.split('.');
      d.push(warning(FabricCodes.noPartnerJob, `${tx.where}: RDMA Tx job TJID ${tjid} RJID ${rjid} has no Rx job on chip ${rc} cluster ${rcl} with that RJID and TJID whose MsgVOQ names this chip and cluster: it waits for a CTS that never comes and fails`, S('§10.3, §10.3.1, §10.4')));
    }
  }
  for (const [key, rx] of rxJobs) {
    const [rc, rcl, rjid, tc, tcl, tjid] = key.split('.');
    if (!txKeys.has(key))
      d.push(warning(FabricCodes.noPartnerJob, `${rx.where}: RDMA Rx job TJID ${tjid} RJID ${rjid} (chip ${rc} cluster ${rcl}) has no Tx job on chip ${tc} cluster ${tcl} with that TJID whose DestVOQ names this chip and cluster: no data ever arrives and it fails`, S('§10.3, §10.3.1, §10.4')));
  }
  return d;
}
