/**
 * The linked system container (`pyxis-ld SYSTEM.json -o x.psys`, docs/system.md): a `pimg` container of target
 * pyxis whose metadata holds the manifest (`pyxis_system`: chips, each chip's image index, cluster VPFEs, each
 * chip's configured Pyxis_VOQ_to_VPFE_map entries, the fabric parameters after the system's overrides) and whose
 * `system.image.N` meta sections hold the distinct chip images byte for byte (deduplicated: an SPMD system embeds
 * its image once). `pyxis-sim run x.psys` runs it.
 */
import { FORMAT_VERSION, readContainer, writeContainer, type Container } from '@pyxis/container';
import { DiagnosticError, error } from '@pyxis/diagnostics';
import { FabricCodes } from './codes.js';
import { VOQ_UNMAPPED, type SystemDesc } from './system.js';
import { loadFabricJson, validateFabricJson, type FabricJson } from './wireParams.js';
import { isDeepStrictEqual } from 'node:util';

export const SYSTEM_META_KEY = 'pyxis_system';

export interface SystemManifest {
  chips: number;
  /** Per chip: index of its image among the `system.image.N` sections. */
  image_of_chip: number[];
  /** Per image section: the file it was linked from. */
  image_files: string[];
  cluster_vpfe: number[][];
  /** Per chip: [Pyxis_VOQ[12:2], VPFE] of every configured entry. */
  voq_map: Array<Array<[number, number]>>;
  fabric: FabricJson;
}

export function isSystemContainer(c: Container): boolean {
  // the system.image.N sections alone make it one too: a .psys that lost its manifest is reported, not run as an
  // empty chip
  return c.metadata[SYSTEM_META_KEY] !== undefined || c.sections.some((s) => s.name.startsWith('system.image.'));
}

export function buildSystemContainer(sys: SystemDesc, images: Array<{ file: string; container: Container }>): Container {
  const files: string[] = [];
  const bytes: Uint8Array[] = [];
  const imageOfChip = sys.images.map((_, c) => {
    const img = images[c]!;
    let i = files.indexOf(img.file);
    if (i < 0) {
      i = files.length;
      files.push(img.file);
      bytes.push(writeContainer(img.container));
    }
    return i;
  });
  const manifest: SystemManifest = {
    chips: sys.chips,
    image_of_chip: imageOfChip,
    image_files: files,
    cluster_vpfe: sys.clusterVpfe,
    voq_map: sys.voqToVpfe.map((m) => {
      const out: Array<[number, number]> = [];
      m.forEach((v, g) => {
        if (v !== VOQ_UNMAPPED) out.push([g, v]);
      });
      return out;
    }),
    fabric: sys.fabric,
  };
  return {
    kind: 'pimg',
    version: FORMAT_VERSION,
    target: 'pyxis',
    sections: bytes.map((b, i) => ({ name: `system.image.${i}`, kind: 'meta', space: 'none', address: 0, size: b.length, align: 1, flags: 0, data: b })),
    symbols: [],
    relocations: [],
    metadata: { producer: 'pyxis-ld (system)', system_file: sys.file, [SYSTEM_META_KEY]: manifest },
  };
}

/** Reads a system container back: the manifest (validated) and each chip's image bytes. */
export function readSystemContainer(c: Container, file: string): { manifest: SystemManifest; images: Array<{ file: string; bytes: Uint8Array; container: Container }>; voqToVpfe: Uint16Array[] } {
  const m = c.metadata[SYSTEM_META_KEY] as SystemManifest;
  const bad = (msg: string): never => {
    throw new DiagnosticError(error(FabricCodes.badImage, `${file}: system manifest: ${msg}`, { span: { file, offset: c.metadataOffset ?? 0 } }));
  };
  if (!m || typeof m !== 'object') bad(`no \`${SYSTEM_META_KEY}\` object in the metadata (link the system again with pyxis-ld SYSTEM.json)`);
  if (!Number.isInteger(m.chips) || m.chips < 1 || m.chips > 144) bad('`chips` must be 1..144');
  if (!Array.isArray(m.image_of_chip) || m.image_of_chip.length !== m.chips) bad('`image_of_chip` must have one entry per chip');
  if (!Array.isArray(m.voq_map) || m.voq_map.length !== m.chips) bad('`voq_map` must have one entry per chip');
  if (!Array.isArray(m.cluster_vpfe) || m.cluster_vpfe.length !== m.chips) bad('`cluster_vpfe` must have one entry per chip');
  m.cluster_vpfe.forEach((row, c) => {
    if (!Array.isArray(row) || row.length !== 4 || !row.every((v) => Number.isInteger(v) && v >= 0 && v < 2048 && (v & 3) !== 3)) bad(`cluster_vpfe[${c}] must be 4 legal VPFEs (§10.2)`);
  });
  if (!Array.isArray(m.image_files)) bad('`image_files` must be an array');
  m.voq_map.forEach((pairs, c) => {
    if (!Array.isArray(pairs) || !pairs.every((p) => Array.isArray(p) && p.length === 2)) bad(`voq_map[${c}] must be an array of [group, VPFE] pairs`);
  });
  if (!m.fabric || typeof m.fabric !== 'object' || Array.isArray(m.fabric)) bad('`fabric` must be the object of fabric.json parameters');
  // The chip's own facts (cells, the §10.1 table, the header, the map sizes) are not a system's to change: they must be
  // grammars/pyxis/fabric.json's (a hand-edited 1e9-entry VOQ map would allocate gigabytes per chip).
  const ref = loadFabricJson();
  for (const k of ['cell', 'last_two_cells', 'page_header_bytes', 'max_page_payload_bytes', 'system'] as const) {
    const norm = (v: unknown) => (k === 'last_two_cells' ? (v as FabricJson['last_two_cells'] | undefined)?.rows : v);
    const strip = (v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).filter(([x]) => x !== 'doc')) : v);
    if (!isDeepStrictEqual(strip(norm(m.fabric[k])), strip(norm(ref[k])))) bad(`fabric.${k} is not grammars/pyxis/fabric.json's (chip facts of §10.1, §10.2, §10.6: not a system parameter)`);
  }
  try {
    validateFabricJson(m.fabric);
  } catch (e) {
    bad((e as Error).message);
  }
  const vpfes = m.cluster_vpfe.flat();
  if (new Set(vpfes).size !== vpfes.length) bad('`cluster_vpfe` gives one VPFE to two clusters (§10.2: each VPFE is one cluster of one chip)');
  const secs = c.sections.filter((s) => s.name.startsWith('system.image.'));
  const images = secs.map((s, i) => {
    const f = `${file}[${m.image_files?.[i] ?? s.name}]`;
    try {
      return { file: f, bytes: s.data, container: readContainer(s.data, f) };
    } catch (e) {
      // offsets in the message are inside the embedded image: say where it starts in the .psys
      if (!(e instanceof DiagnosticError) || s.fileOffset === undefined) throw e;
      const at = `the image is section ${s.name} of ${file}, at byte offset 0x${s.fileOffset.toString(16)} (${s.fileOffset}): add it to the offsets above`;
      throw new DiagnosticError(e.diagnostics.map((d) => ({ ...d, notes: [...(d.notes ?? []), at] })));
    }
  });
  for (const i of m.image_of_chip) if (!(Number.isInteger(i) && i >= 0 && i < images.length)) bad(`image index ${i} names no system.image section`);
  const voqToVpfe = m.voq_map.map((pairs) => {
    const t = new Uint16Array(m.fabric.system.voq_map_entries).fill(VOQ_UNMAPPED);
    for (const [g, v] of pairs) {
      if (!(Number.isInteger(g) && g >= 0 && g < t.length && Number.isInteger(v) && v >= 0 && v < 2048 && (v & 3) !== 3)) bad(`voq_map entry [${g}, ${v}] is not a legal (group, VPFE) pair (§10.2)`);
      t[g] = v;
    }
    return t;
  });
  return { manifest: m, images, voqToVpfe };
}
