/** The GX, seq §10.3 (owner: grid) unit. Placeholder: retires one record per cycle without a datapath. */
import type { Uie } from '../uie.js';
import type { Compute } from './index.js';
import { SimpleUnit } from './simpleUnit.js';
import { seqIdOf } from './seqIds.js';

export class GxUnit extends SimpleUnit {
  constructor(u: Uie, readonly cmp: Compute) {
    super(u, seqIdOf('gx'));
  }
}
