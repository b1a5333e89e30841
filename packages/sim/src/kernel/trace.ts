/**
 * Chrome/Perfetto trace-event JSON writer (the "JSON Object Format" with a
 * `traceEvents` array; opens in ui.perfetto.dev and chrome://tracing).
 * One process per group (a cluster), one thread track per engine/sequencer.
 * Events are streamed to a TextSink as they happen; nothing is buffered
 * beyond the sink's chunk. Timestamps are microseconds derived from cycles
 * and the clock frequency; every event also carries the cycle in `args`.
 */
import type { TextSink } from './sink.js';

export type TraceArgs = Record<string, string | number | boolean>;

export interface TraceTrack {
  readonly pid: number;
  readonly tid: number;
}

export class TraceWriter {
  private first = true;
  private readonly groups = new Map<string, number>();
  private readonly tracks = new Map<string, TraceTrack>();
  private readonly usPerCycle: number;
  private closed = false;
  events = 0;

  constructor(
    private readonly sink: TextSink,
    clockHz: number,
  ) {
    this.usPerCycle = 1e6 / clockHz;
    sink.write('{"displayTimeUnit":"ns","traceEvents":[\n');
  }

  protected emit(json: string): void {
    if (this.closed) return;
    if (!this.first) this.sink.write(',\n');
    this.first = false;
    this.sink.write(json);
    this.events++;
  }

  private ts(cycle: number): number {
    return Math.round(cycle * this.usPerCycle * 1e6) / 1e6;
  }

  /**
   * A slice's `ts` and `dur`: start and end rounded to whole picoseconds (integers), the duration their difference,
   * so consecutive slices on one track never overlap through rounding (ts + dur of one <= ts of the next).
   */
  private span(start: number, end: number): { ts: number; dur: number } {
    const a = Math.round(start * this.usPerCycle * 1e6);
    const b = Math.max(a, Math.round(end * this.usPerCycle * 1e6));
    return { ts: a / 1e6, dur: (b - a) / 1e6 };
  }

  /** The process id of a group (created with a process_name record on first use). */
  group(name: string): number {
    let pid = this.groups.get(name);
    if (pid === undefined) {
      pid = this.groups.size + 1;
      this.groups.set(name, pid);
      this.emit(JSON.stringify({ ph: 'M', name: 'process_name', pid, tid: 0, args: { name } }));
      this.emit(JSON.stringify({ ph: 'M', name: 'process_sort_index', pid, tid: 0, args: { sort_index: pid } }));
    }
    return pid;
  }

  /** A thread track `name` inside group `group` (created once). */
  track(group: string, name: string): TraceTrack {
    const key = `${group}\u0000${name}`;
    let t = this.tracks.get(key);
    if (!t) {
      const pid = this.group(group);
      const tid = this.tracks.size + 1;
      t = { pid, tid };
      this.tracks.set(key, t);
      this.emit(JSON.stringify({ ph: 'M', name: 'thread_name', pid, tid, args: { name } }));
      this.emit(JSON.stringify({ ph: 'M', name: 'thread_sort_index', pid, tid, args: { sort_index: tid } }));
    }
    return t;
  }

  /** A complete slice ("X" event) from `start` to `end` cycles. */
  slice(track: TraceTrack, start: number, end: number, name: string, args?: TraceArgs, cat = 'trip'): void {
    const a = { ...(args ?? {}), start_cycle: start, end_cycle: end };
    this.emit(
      JSON.stringify({ ph: 'X', cat, name, pid: track.pid, tid: track.tid, ...this.span(start, end), args: a }),
    );
  }

  /** A thread-scoped instant event. */
  instant(track: TraceTrack, cycle: number, name: string, args?: TraceArgs, cat = 'barrier'): void {
    this.emit(JSON.stringify({ ph: 'i', s: 't', cat, name, pid: track.pid, tid: track.tid, ts: this.ts(cycle), args: { ...(args ?? {}), cycle } }));
  }

  /** A counter sample (one track per counter name within the group). */
  counter(group: string, cycle: number, name: string, values: Record<string, number>): void {
    const pid = this.group(group);
    this.emit(JSON.stringify({ ph: 'C', name, pid, tid: 0, ts: this.ts(cycle), args: values }));
  }

  close(extra: Record<string, unknown> = {}): void {
    if (this.closed) return;
    this.closed = true;
    this.sink.write(`\n],"otherData":${JSON.stringify(extra)}}\n`);
    this.sink.close();
  }
  abort(): void {
    this.closed = true;
    this.sink.abort();
  }
}
