/**
 * `pyxis-gen`'s command line (docs/generators.md "Options"), parsed with the conventions of pyxis-as/ld/sim
 * (packages/cli/src/tool.ts): usage errors name the mistake with a did-you-mean and the names there are, an option
 * that takes one value given twice is refused, `--diagnostics-format human|json` and `--no-color` may come before or
 * after the kind, `--version` / `--help` answer on stdout with exit 0.
 */
import { parseArgs } from 'node:util';
import { error, nearest, type Diagnostic, type DiagnosticsFormat } from '@pyxis/diagnostics';
import { KINDS } from './kinds.js';

export type Values = Record<string, string | boolean | undefined>;

/** What the command line asks for: a kernel, the usage or the version, or a mistake (exit 2). */
export type GenArgs =
  | { what: 'kernel'; kind: string; values: Values }
  | { what: 'help' | 'version' }
  | { what: 'usage-error'; message: string; notes: string[]; /** print the usage on stderr after it (no kind given) */ usage?: boolean }
  | { what: 'diagnostic'; diagnostic: Diagnostic };

/** Options every kind takes besides its own. */
const COMMON = {
  out: { type: 'string', short: 'o' },
  run: { type: 'boolean' },
  json: { type: 'boolean' },
  'timing-only': { type: 'boolean' },
  'max-cycles': { type: 'string' },
  'diagnostics-format': { type: 'string' },
  'no-color': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'V' },
} as const satisfies Record<string, { type: 'string' | 'boolean'; short?: string }>;

/** The diagnostics formats of every tool (packages/cli addGlobalOptions). */
const FORMATS: readonly DiagnosticsFormat[] = ['human', 'json'];

/**
 * The format the errors are printed in, read before the command line is parsed (as the tools do) so that a usage
 * error found while parsing is a JSON line too when `--diagnostics-format json` is given anywhere.
 */
export function diagnosticsFormatOf(argv: readonly string[]): DiagnosticsFormat {
  return argv.some((a, i) => a === '--diagnostics-format=json' || (a === '--diagnostics-format' && argv[i + 1] === 'json')) ? 'json' : 'human';
}

/** `--m -128`: node's parseArgs takes a value starting with '-' for an option; join it (`--m=-128`) so the range check names it. */
function joinNegative(args: readonly string[], stringOpts: Set<string>): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const next = args[i + 1];
    if (a.startsWith('--') && !a.includes('=') && stringOpts.has(a.slice(2)) && next !== undefined && /^-[\d.]/.test(next)) {
      out.push(`${a}=${next}`);
      i++;
    } else out.push(a);
  }
  return out;
}

const kindNames = (): string[] => Object.keys(KINDS);
const kindsNote = (): string => `kinds: ${kindNames().join(', ')}`;

/** The options before the kind that every tool takes first (`pyxis-gen --diagnostics-format json gemm ...`). */
function leadingGlobals(argv: readonly string[]): number {
  let i = 0;
  for (;;) {
    const a = argv[i];
    if (a === '--diagnostics-format' && argv[i + 1] !== undefined) i += 2;
    else if (a !== undefined && (a.startsWith('--diagnostics-format=') || a === '--no-color')) i++;
    else return i;
  }
}

export function parseGenArgs(argv: readonly string[]): GenArgs {
  const g = leadingGlobals(argv);
  const globals = argv.slice(0, g);
  const kind = argv[g];
  if (kind === undefined) return { what: 'usage-error', message: 'no kernel kind given', notes: [kindsNote()], usage: true };
  if (kind === '--help' || kind === '-h') return { what: 'help' };
  if (kind === '--version' || kind === '-V') return { what: 'version' };
  if (kind === 'help') {
    // `pyxis-gen help [KIND]`, as `TOOL help [command]`
    const topic = argv[g + 1];
    if (topic === undefined || KINDS[topic]) return { what: 'help' };
    return unknownKind(topic);
  }
  if (!KINDS[kind] && kind.startsWith('-')) {
    // `pyxis-gen --json gemm ...`: the options follow the kind (each kind has its own)
    const near = nearest(kind.replace(/^-+/, ''), kindNames());
    return { what: 'usage-error', message: `the kernel kind comes first, then its options (got \`${kind}\`)`, notes: [...(near ? [`did you mean \`${near}\`?`] : []), kindsNote()] };
  }
  const spec = KINDS[kind];
  if (!spec) return unknownKind(kind);
  const options = { ...COMMON, ...Object.fromEntries(Object.entries(spec.options).map(([k, o]) => [k, { type: o.type }])) } as Record<string, { type: 'string' | 'boolean'; short?: string }>;
  const strings = new Set(Object.entries(options).filter(([, o]) => o.type === 'string').map(([k]) => k));
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: joinNegative([...argv.slice(g + 1), ...globals], strings), options, strict: true, tokens: true });
  } catch (e) {
    return parseFailure(kind, e as Error & { code?: string }, options);
  }
  // an option given twice is a usage error (GEN0070), not "the last one wins": `--m 8 ... --m 16` is a typo or a
  // script bug, and a silently dropped value would generate another kernel than the one asked for
  const seen = new Map<string, string>();
  for (const t of parsed.tokens ?? []) {
    if (t.kind !== 'option') continue;
    const given = t.value !== undefined ? `${t.rawName} ${t.value}` : t.rawName;
    const prev = seen.get(t.name);
    if (prev !== undefined) {
      const why = t.value !== undefined ? 'it takes one value: give it once' : 'give it once';
      return { what: 'diagnostic', diagnostic: error('GEN0070', `--${t.name} given twice (\`${prev}\`, then \`${given}\`); ${why}`) };
    }
    seen.set(t.name, given);
  }
  const values = parsed.values as Values;
  const format = values['diagnostics-format'];
  if (format !== undefined && !FORMATS.includes(format as DiagnosticsFormat)) {
    const near = typeof format === 'string' ? nearest(format, FORMATS) : undefined;
    return { what: 'usage-error', message: `--diagnostics-format: must be ${FORMATS.join(' or ')} (got \`${String(format)}\`)`, notes: near ? [`did you mean \`${near}\`?`] : [] };
  }
  if (values['help']) return { what: 'help' };
  if (values['version']) return { what: 'version' };
  return { what: 'kernel', kind, values };
}

function unknownKind(kind: string): GenArgs {
  const near = nearest(kind, kindNames());
  return { what: 'usage-error', message: `unknown kernel kind \`${kind}\``, notes: [...(near ? [`did you mean \`${near}\`?`] : []), kindsNote()] };
}

/** node's parseArgs errors in the tools' words: the option named, a did-you-mean among the kind's options. */
function parseFailure(kind: string, e: Error & { code?: string }, options: Record<string, { short?: string }>): GenArgs {
  if (e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const name = /Unknown option '([^']+)'/.exec(e.message)?.[1] ?? e.message;
    const flags = Object.keys(options).map((k) => `--${k}`);
    const near = nearest(name.replace(/=.*$/, ''), flags);
    // an option of another kind (`rows --m 8`): say whose it is
    const bare = name.replace(/^--?/, '').replace(/=.*$/, '');
    const owners = Object.entries(KINDS).filter(([, s]) => bare in s.options).map(([k]) => k);
    return {
      what: 'usage-error',
      message: `unknown option \`${name}\` for \`${kind}\``,
      notes: near ? [`did you mean \`${near}\`?`] : owners.length ? [`\`--${bare}\` is an option of ${owners.join(', ')}`] : [],
    };
  }
  if (e.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
    const arg = /Unexpected argument '([^']*)'/.exec(e.message)?.[1] ?? '';
    return { what: 'usage-error', message: `unexpected argument \`${arg}\` (a kernel takes one kind, then options)`, notes: [] };
  }
  if (e.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    const name = /Option '(?:-\w, )?(--[\w-]+)/.exec(e.message)?.[1];
    if (name && /does not take an argument/.test(e.message)) return { what: 'usage-error', message: `${name}: takes no value (a flag)`, notes: [] };
    // `--m` last, or followed by another option (`--m --out DIR`: node calls it ambiguous)
    if (name) return { what: 'usage-error', message: `${name}: missing value`, notes: [] };
  }
  return { what: 'usage-error', message: e.message, notes: [] };
}
