/**
 * Value Change Dump (IEEE 1364 §18) writer for FIFO occupancies, sequencer
 * PCs, barrier counts. Signals are declared up front (`signal`), then `set`
 * records a change only when the value differs from the last one written; the
 * header is emitted at the first change. Time unit: picoseconds of simulated
 * time (one cycle = 1e12/clockHz ps, rounded), so waveform viewers show real
 * time; the cycle number is recoverable as time/period. With `unit: 'cycle'`
 * (`pyxis-sim run --vcd-time-unit cycle`) one time unit is one cycle: the
 * header says `$timescale 1ns` (VCD has no cycle unit) and a `$comment` says so. The header carries the
 * real `$date` (SOURCE_DATE_EPOCH when set) and a `$dumpvars` block at #0.
 */
import type { TextSink } from './sink.js';

interface Signal {
  scope: string[];
  name: string;
  width: number;
  code: string;
}

function idCode(n: number): string {
  // Printable ASCII 33..126, base 94, shortest first.
  let s = '';
  do {
    s += String.fromCharCode(33 + (n % 94));
    n = Math.floor(n / 94);
  } while (n > 0);
  return s;
}

/** When the dump was made: now, or SOURCE_DATE_EPOCH (seconds) for reproducible output. */
function vcdDate(): string {
  const epoch = Number(process.env['SOURCE_DATE_EPOCH']);
  return (Number.isFinite(epoch) && process.env['SOURCE_DATE_EPOCH'] !== '' ? new Date(epoch * 1000) : new Date()).toUTCString();
}

/** VCD time unit: picoseconds of simulated time (default), or one unit per clock cycle. */
export type VcdTimeUnit = 'ps' | 'cycle';

export class VcdWriter {
  private readonly signals: Signal[] = [];
  private last = new Float64Array(64);
  private started = false;
  private lastTime = -1;
  private closed = false;
  private readonly psPerCycle: number;
  changes = 0;

  constructor(
    private readonly sink: TextSink,
    clockHz: number,
    private readonly comment = 'pyxis-sim',
    private readonly unit: VcdTimeUnit = 'ps',
  ) {
    this.psPerCycle = unit === 'cycle' ? 1 : 1e12 / clockHz;
    this.clockHz = clockHz;
  }
  private readonly clockHz: number;

  /** Declares a signal (before the first `set`); returns its handle. */
  signal(scope: string[], name: string, width: number): number {
    if (this.started) throw new Error('vcd: signals must be declared before the first value change');
    if (!(width >= 1 && width <= 52)) throw new RangeError(`vcd: width ${width} of ${name} out of range 1..52`);
    const id = this.signals.length;
    this.signals.push({ scope, name: name.replace(/\s+/g, '_'), width, code: idCode(id) });
    if (id >= this.last.length) {
      const n = new Float64Array(this.last.length * 2);
      n.set(this.last);
      this.last = n;
    }
    this.last[id] = NaN;
    return id;
  }

  private header(): void {
    this.started = true;
    const out: string[] = [];
    out.push(`$date ${vcdDate()} $end\n`, `$version ${this.comment} $end\n`);
    if (this.unit === 'cycle') out.push(`$comment one time unit = one clock cycle (${this.clockHz} Hz); VCD has no cycle unit, so the timescale says 1ns $end\n`, '$timescale 1ns $end\n');
    else out.push('$timescale 1ps $end\n');
    // Build the scope tree (declaration order preserved) so each module is opened once.
    interface Node {
      name: string;
      vars: Signal[];
      kids: Map<string, Node>;
    }
    const root: Node = { name: '', vars: [], kids: new Map() };
    for (const s of this.signals) {
      let n = root;
      for (const p of s.scope) {
        let k = n.kids.get(p);
        if (!k) n.kids.set(p, (k = { name: p, vars: [], kids: new Map() }));
        n = k;
      }
      n.vars.push(s);
    }
    const emit = (n: Node): void => {
      for (const v of n.vars) out.push(`$var wire ${v.width} ${v.code} ${v.name} $end\n`);
      for (const k of n.kids.values()) {
        out.push(`$scope module ${k.name.replace(/\s+/g, '_')} $end\n`);
        emit(k);
        out.push('$upscope $end\n');
      }
    };
    emit(root);
    out.push('$enddefinitions $end\n');
    // Initial values (IEEE 1364 §18.2.3.4): unknown until a signal's first change, which may be at #0 too.
    out.push('#0\n$dumpvars\n');
    for (const v of this.signals) out.push(v.width === 1 ? `x${v.code}\n` : `bx ${v.code}\n`);
    out.push('$end\n');
    this.lastTime = 0;
    this.sink.write(out.join(''));
  }

  /** Records `value` (integer; negative values in two's complement of the width) at `cycle`. */
  set(id: number, value: number, cycle: number): void {
    if (this.closed) return;
    if (this.last[id] === value) return;
    if (!this.started) this.header();
    const t = Math.round(cycle * this.psPerCycle);
    if (t > this.lastTime) {
      this.sink.write(`#${t}\n`);
      this.lastTime = t;
    }
    this.last[id] = value;
    const s = this.signals[id]!;
    let v = Math.trunc(value);
    if (v < 0) v = 2 ** s.width + v;
    this.changes++;
    if (s.width === 1) this.sink.write(`${v & 1}${s.code}\n`);
    else this.sink.write(`b${v.toString(2)} ${s.code}\n`);
  }

  close(endCycle?: number): void {
    if (this.closed) return;
    if (!this.started) this.header();
    if (endCycle !== undefined) {
      const t = Math.round(endCycle * this.psPerCycle);
      if (t > this.lastTime) this.sink.write(`#${t}\n`);
    }
    this.closed = true;
    this.sink.close();
  }
  abort(): void {
    this.closed = true;
    this.sink.abort();
  }
}
