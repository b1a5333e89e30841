/** Constants the XNU code restates from its grammar (grammars/xnu/xnu_job.json) are the grammar's. */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { OP_DOT, OP_L1, OP_L2, OP_SV } from '@pyxis/target-xnu';
import { ROUND_MAX, ROUND_MIN, ROUND_MIN_MAG, ROUND_NEAR_EVEN, ROUND_NEAR_MAX_MAG, ROUND_ODD } from '../src/fp32.js';

const job = JSON.parse(readFileSync(fileURLToPath(new URL('../../../grammars/xnu/xnu_job.json', import.meta.url)), 'utf8')) as { fields: Array<{ name: string; enum?: Record<string, number> }> };
const en = (f: string) => job.fields.find((x) => x.name === f)!.enum!;

describe('xnu constants tied to the grammar', () => {
  it('rounding codepoints (fp32.ts) = the `rounding` enum', () => {
    expect({ round_near_even: ROUND_NEAR_EVEN, round_minMag: ROUND_MIN_MAG, round_min: ROUND_MIN, round_max: ROUND_MAX, round_near_maxMag: ROUND_NEAR_MAX_MAG, round_odd: ROUND_ODD }).toEqual(en('rounding'));
  });
  it('op_type codepoints (datapath.ts) = the `op_type` enum', () => {
    expect({ L2: OP_L2, L1: OP_L1, DOT: OP_DOT, SV: OP_SV }).toEqual(en('op_type'));
  });
});
