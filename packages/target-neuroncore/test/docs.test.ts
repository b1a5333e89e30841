/**
 * The docs and inspect hooks: the generated reference pages (docs/isa/neuroncore/) are up to
 * date and complete, the rule catalogue (grammars/neuroncore/rules.json) matches the codes the
 * sources emit and every code has a test, and `inspect` describes a NeuronCore object.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as codec from '@pyxis/codec';
import { renderAll } from '../../../scripts/gen-docs.mjs';
import { assembleNc, neuroncoreTarget } from '../src/index.js';

const ROOT = new URL('../../../', import.meta.url);
const read = (rel: string) => readFileSync(new URL(rel, ROOT), 'utf8');
const json = (rel: string) => JSON.parse(read(rel)) as Record<string, unknown>;
const srcText = () => readdirSync(new URL('packages/target-neuroncore/src/', ROOT)).map((f) => read(`packages/target-neuroncore/src/${f}`)).join('\n');

describe('docs hook', () => {
  const files = renderAll(codec, codec.grammarsDir(), [neuroncoreTarget]);

  it('generates instructions, machine, parameters and rules pages, linked from the README, identical to docs/isa/neuroncore/', () => {
    expect([...files.keys()].filter((k) => k.startsWith('neuroncore/'))).toEqual(['neuroncore/README.md', 'neuroncore/instructions.md', 'neuroncore/machine.md', 'neuroncore/parameters.md', 'neuroncore/rules.md']);
    const readme = files.get('neuroncore/README.md')!;
    for (const p of ['instructions.md', 'machine.md', 'parameters.md', 'rules.md']) expect(readme).toContain(`](${p})`);
    for (const [rel, md] of files) if (rel.startsWith('neuroncore/')) expect(md, `${rel} is stale: run npm run docs`).toBe(read(`docs/isa/${rel}`));
  });

  it('the instruction page lists every mnemonic with its operands; the machine page every parameter with its value and source', () => {
    const isa = json('grammars/neuroncore/instructions.json') as { instructions: Record<string, { operands: string[] }> };
    const page = files.get('neuroncore/instructions.md')!;
    for (const [mn, d] of Object.entries(isa.instructions)) expect(page).toMatch(new RegExp(`\\| \`${mn.replace('.', '\\.')}\` \\| ${d.operands.map((o) => `\`${o}\``).join(', ') || '-'} \\|`));
    const m = json('grammars/neuroncore/machine.json') as { cost: Record<string, { value: number; spec: string }> };
    const mp = files.get('neuroncore/machine.md')!;
    for (const [k, v] of Object.entries(m.cost)) expect(mp).toContain(`| \`${k}\` | ${v.value} |`);
    expect(mp).toContain('| TensorE | 2.8 | 2 |');
    expect(mp).toContain('| VectorE | 1.12 | 5 |');
  });
});

describe('rule catalogue', () => {
  const cat = json('grammars/neuroncore/rules.json') as { rules: Array<{ code: string; section: string }> };
  const listed = cat.rules.map((r) => r.code);

  it('lists exactly the layout-rule codes (NC01xx..NC06xx) the sources emit', () => {
    const emitted = [...new Set(srcText().match(/'NC0[1-6]\d\d'/g)!.map((c) => c.slice(1, -1)))].sort();
    expect([...listed].sort()).toEqual(emitted);
  });

  it('every rule code is expected by some test', () => {
    const tests = readdirSync(new URL('packages/target-neuroncore/test/', ROOT))
      .filter((f) => f.endsWith('.ts') && f !== 'docs.test.ts')
      .map((f) => read(`packages/target-neuroncore/test/${f}`))
      .join('\n');
    expect(listed.filter((c) => !tests.includes(`'${c}'`))).toEqual([]);
  });

  // The guide lives beside the repository (../shared/spec), when it is there.
  const GUIDE = fileURLToPath(new URL('../shared/spec/neuroncore-v2-architecture.md', ROOT));
  it.skipIf(!existsSync(GUIDE))('names guide sections that exist', () => {
    const guide = readFileSync(GUIDE, 'utf8');
    for (const r of cat.rules)
      for (const s of r.section.split(';').map((x) => x.trim().replace(/ \(.*\)$/, '')))
        if (s !== '-') expect(guide.includes(`${s}#`) || guide.includes(`**${s}`) || guide.includes(s), `${r.code}: ${s}`).toBe(true);
  });
});

describe('inspect hook', () => {
  it('describes the program of a NeuronCore object: streams, tensors and the first source lines', () => {
    const a = assembleNc([{ file: 'i.ncasm', text: '.tensor H hbm bf16 [128, 64]\n.tensor a sbuf bf16 [128, 64]\ndma.copy a, H, queue=2\nvector.tensor_copy a, a' }]);
    const lines = neuroncoreTarget.inspect!.describeContainer!(a.object);
    expect(lines.slice(0, 4)).toEqual([
      'neuroncore program: 2 instructions, sync auto, 1 semaphore waits',
      '  per stream: dma2 1, vector 1',
      '  tensors: H hbm bf16 [128, 64]; a sbuf bf16 [128, 64]',
      '  semaphores: none (+ auto.<stream> per stream)',
    ]);
    expect(lines).toContain('    dma.copy a{0, 128, 0, 0, [64, 1]}, H{0, 128, 64, 0, [64, 1]}, queue=2');
    expect(neuroncoreTarget.inspect!.describeContainer!({ ...a.object, target: 'pyxis' })).toEqual([]);
  });
});
