/**
 * System traces (docs/system.md "Traces"): one Perfetto process per chip holding that chip's own engine tracks
 * (trips, DMA, barriers, the fabric adapter's Tx/Rx job tracks: whatever its PyxisObserver writes) and the wire's
 * fabric tracks. Each chip writes into its own buffer with fixed ids (pid = chip + 1, tid = pid * 65536 + the
 * chip's n-th track), and the buffers are concatenated in chip order at the end, so the file is byte-identical
 * whatever order the chips were built or run in. The trace of a system is held in memory until the run ends.
 */
import { TraceWriter, type TextSink, type TraceTrack } from '@pyxis/sim';

class MemorySink implements TextSink {
  parts: string[] = [];
  write(s: string): void {
    this.parts.push(s);
  }
  close(): void {}
  abort(): void {
    this.parts = [];
  }
}

/** A TraceWriter whose groups all map to the chip's one process; group names become thread/counter prefixes. */
export class ChipTraceWriter extends TraceWriter {
  readonly pid: number;
  private readonly buf: MemorySink;
  private readonly own = new Map<string, TraceTrack>();
  private named = false;
  constructor(
    readonly chip: number,
    clockHz: number,
  ) {
    const s = new MemorySink();
    super(s, clockHz);
    this.buf = s;
    this.pid = chip + 1;
  }
  override group(_name: string): number {
    if (!this.named) {
      this.named = true;
      this.emit(JSON.stringify({ ph: 'M', name: 'process_name', pid: this.pid, tid: 0, args: { name: `chip${this.chip}` } }));
      this.emit(JSON.stringify({ ph: 'M', name: 'process_sort_index', pid: this.pid, tid: 0, args: { sort_index: this.pid } }));
    }
    return this.pid;
  }
  override track(group: string, name: string): TraceTrack {
    const key = `${group}\u0000${name}`;
    let t = this.own.get(key);
    if (!t) {
      const pid = this.group(group);
      const tid = pid * 65536 + this.own.size + 1;
      t = { pid, tid };
      this.own.set(key, t);
      const label = group === 'chip' ? name : `${group}: ${name}`;
      this.emit(JSON.stringify({ ph: 'M', name: 'thread_name', pid, tid, args: { name: label } }));
      this.emit(JSON.stringify({ ph: 'M', name: 'thread_sort_index', pid, tid, args: { sort_index: tid } }));
    }
    return t;
  }
  override counter(group: string, cycle: number, name: string, values: Record<string, number>): void {
    super.counter(group, cycle, group === 'chip' ? name : `${group} ${name}`, values);
  }
  /** The events written so far (comma-separated, without the file's header). */
  body(): string {
    return this.buf.parts.slice(1).join('');
  }
}

/** Writes the chips' traces to `sink` in chip order as one trace-event JSON file. */
export function writeSystemTrace(sink: TextSink, chips: readonly ChipTraceWriter[], extra: Record<string, unknown>): void {
  sink.write('{"displayTimeUnit":"ns","traceEvents":[\n');
  sink.write(
    chips
      .map((c) => c.body())
      .filter((b) => b.length > 0)
      .join(',\n'),
  );
  sink.write(`\n],"otherData":${JSON.stringify(extra)}}\n`);
  sink.close();
}
