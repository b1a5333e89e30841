import { createRequire } from 'node:module';
import type { Logger } from 'pino';

export type LogFormat = 'pretty' | 'json';

/** The part of a pino logger the tools and back ends use. */
export type ToolLogger = Pick<Logger, 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal'> & { readonly level: string };

const LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const;
type Level = (typeof LEVELS)[number];

/**
 * Structured logging to stderr (stdout carries tool output). Human-readable on
 * a TTY by default, JSON lines otherwise or with `--log-format json`. Pretty
 * logs are coloured like diagnostics: on a TTY, unless `--no-color` or `NO_COLOR`.
 *
 * pino (and pino-pretty) are loaded on the first message at an enabled level:
 * at the default level (`warn`) a normal run logs nothing, and loading them
 * costs every invocation ~60 files (scripts/bench-startup.mjs). Both are
 * CommonJS, so they load synchronously where the first message is logged.
 */
export function createLogger(opts: { level?: string; format?: LogFormat; name: string; color?: boolean }): ToolLogger {
  const level = opts.level ?? 'warn';
  const threshold = level === 'silent' ? Infinity : LEVELS.indexOf(level as Level);
  let real: Logger | undefined;
  const load = (): Logger => {
    if (real) return real;
    const require = createRequire(import.meta.url);
    const { pino } = require('pino') as typeof import('pino');
    const format = opts.format ?? (process.stderr.isTTY ? 'pretty' : 'json');
    if (format === 'json') return (real = pino({ name: opts.name, level }, pino.destination({ fd: 2, sync: true })));
    const pretty = require('pino-pretty') as typeof import('pino-pretty');
    const stream = pretty({ destination: 2, sync: true, colorize: opts.color !== false && !!process.stderr.isTTY && !process.env['NO_COLOR'], ignore: 'pid,hostname' });
    return (real = pino({ name: opts.name, level }, stream));
  };
  const method = (l: Level) =>
    LEVELS.indexOf(l) < threshold
      ? () => undefined
      : (...args: unknown[]) => (load()[l] as (...a: unknown[]) => void)(...args);
  return {
    level,
    trace: method('trace'),
    debug: method('debug'),
    info: method('info'),
    warn: method('warn'),
    error: method('error'),
    fatal: method('fatal'),
  } as ToolLogger;
}
