import { pino, type Logger } from 'pino';
import pretty from 'pino-pretty';

export type LogFormat = 'pretty' | 'json';

/**
 * Structured logging to stderr (stdout carries tool output). Human-readable on
 * a TTY by default, JSON lines otherwise or with `--log-format json`. Pretty
 * logs are coloured like diagnostics: on a TTY, unless `--no-color` or `NO_COLOR`.
 */
export function createLogger(opts: { level?: string; format?: LogFormat; name: string; color?: boolean }): Logger {
  const level = opts.level ?? 'warn';
  const format = opts.format ?? (process.stderr.isTTY ? 'pretty' : 'json');
  if (format === 'json') return pino({ name: opts.name, level }, pino.destination({ fd: 2, sync: true }));
  const stream = pretty({ destination: 2, sync: true, colorize: opts.color !== false && !!process.stderr.isTTY && !process.env['NO_COLOR'], ignore: 'pid,hostname' });
  return pino({ name: opts.name, level }, stream);
}
