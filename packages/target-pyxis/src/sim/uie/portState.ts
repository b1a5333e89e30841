/**
 * The state an AMEM Read or AMEM Write datapath (readPath.ts, writePath.ts) keeps about its port (chip §6.2.1, §6.2.2;
 * seq §5, §6): the decoder FIFO from its sequencer, its ITFE, the switch tables and the configuration held from the
 * last *_config_vld, its AMEM bank clients, and when the port may issue again. One class for both sides, which differ
 * only in the names and clients chosen here.
 */
import { Fifo } from '@pyxis/sim';
import { PORT_ITFE_READ, PORT_ITFE_WRITE, PORT_READ, PORT_WRITE, uieClient } from '../amem/clients.js';
import { Itfe } from './itfe.js';
import * as records from './records.js';
import { identitySwitchTables, type SwitchTables } from './tables.js';
import type { Uie } from './uie.js';
import { dbl } from '@pyxis/sim';

// Hot-path bindings as module-local constants (V8 checks every read of an imported binding for TDZ; see readPath.ts).
const { F_ROT, R_CSW, R_PSWBASE, R_PSWITER, REC_WORDS } = records;

export class PortState {
  /** Decoder-metadata FIFO from the side's sequencer (seq §3). */
  readonly dec: Fifo;
  /** Index-table fetch engine of the side (seq §8). */
  readonly itfe: Itfe;
  /** Applied PSW / CSW / column-mask tables (decoded from cfg at trip start). */
  readonly sw: SwitchTables = identitySwitchTables();
  /** Per decoder FIFO slot: template id * 65536 + pc whose static record words the slot holds (addressGen.ts decodeFast). */
  readonly decKey: Float64Array;
  /** AMEM bank client of the port (amem/clients.ts `uieClient`). */
  readonly client: number;
  /** First cycle the port may issue again (16-bit data and read-modify-writes take more than one, chip §7.3, §7.4). */
  portFree = dbl(0);
  /** Held PSW / CSW configuration indexes (seq §5.4, §5.5, §6.6, §6.7; -1 none). */
  pswCur = -1;
  cswCur = -1;
  /** Index pops in the current trip (ITFE count rule, seq §8.1) and whether the current trip is indirect. */
  pops = 0;
  tripIndirect = false;
  /** The cycle of the last bank claim, not yet settled (-1 none). */
  lastAt = dbl(-1);

  constructor(
    protected readonly u: Uie,
    write: boolean,
    decDepth: number,
    indexDepth: number,
  ) {
    this.dec = new Fifo(`${u.name}.amem_${write ? 'write' : 'read'}.dec`, decDepth, REC_WORDS);
    this.decKey = new Float64Array(decDepth * REC_WORDS).fill(-1);
    this.client = uieClient(u.index, write ? PORT_WRITE : PORT_READ);
    this.itfe = new Itfe(`${u.name}.itfe_${write ? 'write' : 'read'}`, u.amem, indexDepth, uieClient(u.index, write ? PORT_ITFE_WRITE : PORT_ITFE_READ));
  }

  /**
   * True while the port cannot issue at `now`: still busy with its last access, or held by an access served late or
   * by a read-modify-write (amem/banks.ts; the caller's tick synced the arbiter). The UIE then wakes at the earlier
   * of its `portWake` and the cycle the port is free.
   */
  held(now: number): boolean {
    const u = this.u;
    if (this.portFree > now) {
      if (this.portFree < u.portWake) u.portWake = this.portFree;
      return true;
    }
    const bankFree = u.amem.banks.freeAt[this.client]!;
    if (bankFree > now) {
      if (bankFree < u.portWake) u.portWake = bankFree;
      return true;
    }
    return false;
  }

  /** The PSW / CSW configuration a record's *_config_vld selects, held from then on (seq §5.4, §5.5, §6.6, §6.7). */
  holdConfig(d: Int32Array, at: number, flags: number, s0: number): void {
    if (d[at + R_PSWBASE]! >= 0) this.pswCur = (d[at + R_PSWBASE]! + (((flags & F_ROT ? s0 : 0) + d[at + R_PSWITER]!) % 8)) & 63;
    if (d[at + R_CSW]! >= 0) this.cswCur = d[at + R_CSW]!;
  }
}
