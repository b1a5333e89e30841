/**
 * The metadata of Pyxis containers, one schema per kind (docs/container-format.md
 * "Pyxis metadata"): what pyxis-as writes into a `.pobj` and pyxis-ld into a
 * `.pimg`. The tools validate the metadata against these before reading any
 * property of it (linker inputs, disassembler inputs, simulator images), so a
 * malformed file is a CT0015 diagnostic with its JSON path, never a crash.
 * Members the tools only report (queues, relocations, weights) are checked for
 * their shape only.
 */
import { validateMetadata, type Container, type JsonSchema } from '@pyxis/container';

const uint: JsonSchema = { type: 'integer', minimum: 0 };
const str: JsonSchema = { type: 'string' };
const strings: JsonSchema = { type: 'array', items: str };
/** A number written as a hex/decimal string (`"0x40f01008"`) or a JSON integer. */
const bigNumber: JsonSchema = { anyOf: [{ type: 'string', pattern: '^(0[xX][0-9a-fA-F]{1,16}|[0-9]{1,20})$', description: 'a hex ("0x...") or decimal number' }, uint] };
const objects: JsonSchema = { type: 'array', items: { type: 'object' } };

/** `.pobj` metadata (pyxis-as). */
export const PYXIS_OBJECT_METADATA: JsonSchema = {
  type: 'object',
  properties: {
    producer: str,
    sources: strings,
    programs: {
      type: 'array',
      description: 'one entry per sequencer program',
      items: {
        type: 'object',
        required: ['name', 'sequencer', 'symbol', 'words'],
        properties: { name: str, sequencer: str, symbol: str, words: uint, start_pc: uint },
      },
    },
    vpu_programs: {
      type: 'array',
      items: { type: 'object', required: ['name', 'symbol', 'words'], properties: { name: str, symbol: str, words: uint, start_addr: uint } },
    },
  },
};

const window: JsonSchema = { type: 'object', required: ['base', 'mask'], properties: { base: bigNumber, mask: bigNumber } };
const windows: JsonSchema = { type: 'array', items: window, minItems: 4, maxItems: 4 };
const cluster: JsonSchema = { type: 'integer', minimum: 0, maximum: 3 };

/** `.pimg` metadata (pyxis-ld); the simulator reads `pyxis.{clusters,uies,remap,barriers,trips,host_actions}`. */
export const PYXIS_IMAGE_METADATA: JsonSchema = {
  type: 'object',
  properties: {
    producer: str,
    script: str,
    pyxis: {
      type: 'object',
      properties: {
        clusters: { type: 'integer', minimum: 0, maximum: 4 },
        uies: { type: 'integer', minimum: 0, maximum: 12 },
        noc: { type: 'object', additionalProperties: bigNumber },
        remap: { type: 'array', maxItems: 4, items: { type: 'object', required: ['cluster', 'dpe', 'mpe'], properties: { cluster, dpe: windows, mpe: windows } } },
        queues: objects,
        trips: { type: 'array', items: { type: 'object', required: ['trip_id', 'name'], properties: { trip_id: uint, name: str, cluster, queue_id: uint } } },
        barriers: {
          type: 'array',
          items: { type: 'object', required: ['cluster', 'id'], properties: { cluster, id: uint, producers: strings, consumers: strings } },
        },
        programs: objects,
        relocations: objects,
        weights: objects,
        host_actions: {
          type: 'array',
          items: {
            type: 'object',
            required: ['address', 'value'],
            additionalProperties: false,
            properties: {
              cluster,
              address: bigNumber,
              value: bigNumber,
              at_cycle: uint,
              after_interrupt: {
                type: 'object',
                required: ['entry'],
                additionalProperties: false,
                properties: { entry: { anyOf: [{ type: 'integer', minimum: 0, maximum: 7 }, { enum: ['timeout', 'fabric_job_failed', 'dgram_tx0', 'dgram_tx1', 'dgram_rx0', 'dgram_rx1'] }] }, count: { type: 'integer', minimum: 1 } },
              },
              // software polling a CSR (chip §11.8): wait until (word & mask) == value
              poll: { type: 'object', required: ['address', 'value'], additionalProperties: false, properties: { address: bigNumber, mask: bigNumber, value: bigNumber } },
            },
          },
        },
      },
    },
  },
};

/** Validates a Pyxis container's metadata against the schema of its kind (CT0015 with the JSON path). */
export function checkPyxisMetadata(c: Container, file: string): void {
  validateMetadata(c, c.kind === 'pobj' ? PYXIS_OBJECT_METADATA : PYXIS_IMAGE_METADATA, file);
}
