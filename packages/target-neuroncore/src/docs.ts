/**
 * The target's `docs` and `inspect` hooks. Docs: reference pages under docs/isa/neuroncore/
 * generated from grammars/neuroncore/ (instructions.json, machine.json, rules.json) by
 * scripts/gen-docs.mjs. Inspect: what `pyxis inspect` adds after the generic container
 * printout of a NeuronCore object or image (tensors, streams, the first instructions as source).
 */
import type { Container } from '@pyxis/container';
import type { DocsHooks, InspectHooks } from '@pyxis/target';
import { loadIsa, loadMachine, readJson, SPEC } from './isa.js';
import { STREAMS } from './ir.js';
import { NC_PROGRAM_SECTION, ProgramError, programOf } from './program.js';
import { sourceNc } from './source.js';

const cell = (s: unknown) => String(s ?? '').replace(/\|/g, '\\|').replace(/\n/g, ' ');
const ENGINE_TITLE: Record<string, string> = { tensor: 'TensorE', vector: 'VectorE', scalar: 'ScalarE', gpsimd: 'GpSimd', dma: 'DMA queues', sem: 'semaphores' };

function instructionsPage(): string {
  const isa = loadIsa();
  const raw = readJson('instructions.json') as { dtypes: Record<string, { bytes: number; format: string; tensor_rate: string }> };
  const L = ['# NeuronCore-v2 instructions', '', `Generated from \`grammars/neuroncore/instructions.json\`. Guide: \`${SPEC}\` (sections by title). Syntax: docs/neuroncore.md.`, ''];
  L.push('Operands are positional (the order below) or `name=`; attributes are `name=value`. An operand is an access pattern:', '');
  L.push('- slice form `t[0:128, 0:512]`, `t[:, k, 0:512:2]`, `t` (whole tensor): first index = partitions (SBUF/PSUM) or rows (HBM);');
  L.push('- ISA form `t{start, np, pstride, offset, [size, stride]...}` (what `pyxis-as --disassemble` writes): absolute start partition, partition count, HBM row stride in elements (0 for SBUF/PSUM), byte offset, up to four free dimensions [size, stride in elements].', '');
  const byEngine = new Map<string, Array<[string, (typeof isa.instructions)[string]]>>();
  for (const [mn, d] of Object.entries(isa.instructions)) {
    const e = mn.slice(0, mn.indexOf('.'));
    byEngine.set(e, [...(byEngine.get(e) ?? []), [mn, d]]);
  }
  for (const [e, list] of byEngine) {
    L.push(`## ${ENGINE_TITLE[e] ?? e}`, '', '| mnemonic | operands | attributes | inputs streamed | guide |', '|---|---|---|---|---|');
    for (const [mn, d] of list) L.push(`| \`${mn}\` | ${d.operands.map((o) => `\`${o}\``).join(', ') || '-'} | ${d.attrs.map((a) => `\`${a}\``).join(', ') || '-'} | ${d.inputs ?? '-'} | ${cell(d.spec)} |`);
    L.push('');
  }
  const sem = (readJson('instructions.json') as { semaphore_instructions: Record<string, { operands: string[]; attrs: string[]; spec: string }> & { engines: string[]; $comment: string } }).semaphore_instructions;
  L.push('## Semaphores', '', cell(sem.$comment), '', '| mnemonic | operands | attributes | guide |', '|---|---|---|---|');
  for (const op of ['sem_signal', 'sem_wait']) L.push(`| ${sem.engines.map((e) => `\`${e}.${op}\``).join(', ')} | ${sem[op]!.operands.map((o) => `\`${o}\``).join(', ')} | \`queue\` (dma only) | ${cell(sem[op]!.spec)} |`);
  L.push('');
  L.push('## Data types', '', '| dtype | bytes | format | TensorE rate |', '|---|---|---|---|');
  for (const [k, v] of Object.entries(raw.dtypes)) L.push(`| \`${k}\` | ${v.bytes} | ${v.format} | ${v.tensor_rate} |`);
  L.push('', '## Operation names', '');
  L.push(`- ALU ops (\`op=\`, \`op0=\`, \`op1=\`): ${isa.alu_ops.map((x) => `\`${x}\``).join(', ')}`);
  L.push(`- reduce ops (\`vector.tensor_reduce op=\`): ${isa.reduce_ops.map((x) => `\`${x}\``).join(', ')}`);
  L.push(`- compare ops (\`gpsimd.affine_select cmp=\`): ${isa.cmp_ops.map((x) => `\`${x}\``).join(', ')}`);
  L.push(`- activation functions (\`scalar.activation func=\`): ${isa.activation_functions.map((x) => `\`${x}\``).join(', ')}`, '');
  return L.join('\n');
}

function machinePage(): string {
  const m = loadMachine();
  const raw = readJson('machine.json') as {
    memories: Record<string, Record<string, unknown>>;
    engines: Record<string, Record<string, unknown>>;
    cost: Record<string, { value: number; unit?: string; spec: string }>;
    base_clock_comment?: string;
  };
  const L = ['# NeuronCore-v2 machine parameters', '', `Generated from \`grammars/neuroncore/machine.json\`. Every figure names its source: the guide (\`${SPEC}\`, sections by title) or "assumed" (see docs/spec-notes.md). How they combine: docs/timing-model.md "## neuroncore".`, ''];
  L.push('## Memories', '', '| memory | geometry | source |', '|---|---|---|');
  for (const [k, v] of Object.entries(raw.memories)) {
    const geo = Object.entries(v).filter(([f]) => f !== 'spec').map(([f, x]) => `${f} = ${String(x)}`).join(', ');
    L.push(`| ${k.toUpperCase()} | ${geo} | ${cell(v['spec'])} |`);
  }
  L.push('', '## Engines', '', `Kernel clock ${m.baseGhz} GHz: ${cell(raw.base_clock_comment)}.`, '', '| engine | clock (GHz) | kernel ticks per cycle | other | source |', '|---|---|---|---|---|');
  ['tensor', 'vector', 'scalar', 'gpsimd'].forEach((e, i) => {
    const v = raw.engines[e]!;
    const other = Object.entries(v).filter(([f]) => f !== 'spec' && f !== 'clock_ghz').map(([f, x]) => `${f} = ${String(x)}`).join(', ');
    L.push(`| ${ENGINE_TITLE[e]} | ${m.clockGhz[i]} | ${m.ticksPerCycle[i]} | ${other || '-'} | ${cell(v['spec'])} |`);
  });
  L.push('', '## Cost-model parameters', '', '| parameter | value | unit | source |', '|---|---|---|---|');
  for (const [k, v] of Object.entries(raw.cost)) L.push(`| \`${k}\` | ${v.value} | ${cell(v.unit ?? '')} | ${cell(v.spec)} |`);
  L.push('');
  return L.join('\n');
}

interface RulesJson {
  rules: Array<{ code: string; severity: string; rule: string; section: string }>;
  runtime: Array<{ rule: string; section: string }>;
}
export function rulesCatalogue(): RulesJson {
  return readJson('rules.json') as unknown as RulesJson;
}

function rulesPage(): string {
  const r = rulesCatalogue();
  const L = ['# NeuronCore-v2 layout rules', '', `Generated from \`grammars/neuroncore/rules.json\`. Each diagnostic gives file:line:col with a caret under the operand and cites the guide section (\`${SPEC} §...\`).`, ''];
  L.push('| code | severity | rule | guide section |', '|---|---|---|---|');
  for (const x of r.rules) L.push(`| ${x.code} | ${x.severity} | ${cell(x.rule)} | ${cell(x.section)} |`);
  L.push('', '## Enforced by the machine', '', '| rule | guide section |', '|---|---|');
  for (const x of r.runtime) L.push(`| ${cell(x.rule)} | ${cell(x.section)} |`);
  L.push('');
  return L.join('\n');
}

export const ncDocs: DocsHooks = {
  generate: () =>
    new Map([
      ['instructions.md', instructionsPage()],
      ['machine.md', machinePage()],
      ['rules.md', rulesPage()],
    ]),
};

/** Lines `pyxis inspect` prints after the container of a NeuronCore object or image. */
export function describeNc(c: Container): string[] {
  if (c.target !== 'neuroncore' || !c.sections.some((s) => s.name === NC_PROGRAM_SECTION)) return [];
  try {
    const p = programOf(c, 'container');
    const per = new Map<string, number>();
    for (const i of p.insns) per.set(STREAMS[i.stream] ?? '?', (per.get(STREAMS[i.stream] ?? '?') ?? 0) + 1);
    const waits = p.insns.reduce((a, i) => a + i.waits.length, 0);
    const lines = [
      `neuroncore program: ${p.insns.length} instructions, sync ${p.sync}, ${waits} semaphore waits`,
      `  per stream: ${[...per].map(([s, n]) => `${s} ${n}`).join(', ') || 'none'}`,
      `  tensors: ${p.tensors.map((t) => `${t.name} ${t.mem} ${t.dtype} [${t.shape.join(', ')}]`).join('; ')}`,
      `  semaphores: ${p.semaphores.slice(0, p.autoBase).join(', ') || 'none'} (+ auto.<stream> per stream)`,
      '  source (pyxis-as --disassemble), first lines:',
    ];
    const src = sourceNc(p).split('\n').filter((l) => l && !l.startsWith('.loc') && !l.startsWith('#'));
    lines.push(...src.slice(0, 40).map((l) => `    ${l}`));
    if (src.length > 40) lines.push(`    ... ${src.length - 40} more lines`);
    return lines;
  } catch (e) {
    if (e instanceof ProgramError) return [`neuroncore program does not decode: ${e.message}`];
    throw e;
  }
}

export const ncInspect: InspectHooks = { describeContainer: describeNc };
