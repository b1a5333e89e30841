/** The VPU opcodes the simulator switches on (vpu.ts VpuOp) are the grammar's (grammars/pyxis/vpu_instr.json). */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { VpuOp } from '../../src/sim/uie/compute/vpu.js';

const instr = JSON.parse(readFileSync(fileURLToPath(new URL('../../../../grammars/pyxis/vpu_instr.json', import.meta.url)), 'utf8')) as { fields: Array<{ name: string; enum?: Record<string, number> }> };

describe('VPU opcodes tied to vpu_instr.json', () => {
  it('every opcode name and codepoint, none missing, none extra', () => {
    expect({ ...VpuOp }).toEqual(instr.fields.find((f) => f.name === 'opcode')!.enum);
  });
});
