/** The GWB, seq §11 (owner: writeback) unit. Placeholder: retires one record per cycle without a datapath. */
import type { Uie } from '../uie.js';
import type { Compute } from './index.js';
import { SimpleUnit } from './simpleUnit.js';
import { seqIdOf } from './seqIds.js';

export class GwbUnit extends SimpleUnit {
  constructor(u: Uie, readonly cmp: Compute) {
    super(u, seqIdOf('gwb'));
  }
}
