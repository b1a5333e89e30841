import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BandwidthPort, Fifo, Simulator, StringSink, TraceWriter, VcdWriter, type SimEngine } from '@pyxis/sim';

/** Emits `count` items into a FIFO, one per cycle when it has credit. */
class Producer implements SimEngine {
  sent = 0;
  stalls = 0;
  readonly stallReasons = ['fifo full'];
  constructor(
    readonly name: string,
    private readonly out: Fifo,
    private readonly count: number,
  ) {}
  get busy() {
    return this.sent < this.count;
  }
  tick(): boolean {
    if (!this.busy) return false;
    if (!this.out.push(this.sent)) {
      this.stalls++;
      return false;
    }
    this.sent++;
    return true;
  }
  nextWake() {
    return Infinity;
  }
  stallCode() {
    return 0;
  }
  blockedReason() {
    return this.busy ? `${this.out.name} full` : undefined;
  }
}

/** Pops one item every `period` cycles. */
class SlowConsumer implements SimEngine {
  got: number[] = [];
  private next = 0;
  constructor(
    readonly name: string,
    private readonly inp: Fifo,
    private readonly period: number,
    private readonly expect: number,
  ) {}
  get busy() {
    return this.got.length < this.expect;
  }
  tick(now: number): boolean {
    if (now < this.next || this.inp.empty) return false;
    this.got.push(this.inp.pop());
    this.next = now + this.period;
    return true;
  }
  nextWake(now: number) {
    return this.inp.empty ? Infinity : Math.max(now, this.next);
  }
  blockedReason() {
    return this.inp.empty ? `${this.inp.name} empty` : undefined;
  }
}

/** Waits a long latency then finishes. */
class Sleeper implements SimEngine {
  done = false;
  constructor(
    readonly name: string,
    private readonly until: number,
  ) {}
  get busy() {
    return !this.done;
  }
  tick(now: number) {
    if (this.done || now < this.until) return false;
    this.done = true;
    return true;
  }
  nextWake(now: number) {
    return this.done ? Infinity : Math.max(now, this.until);
  }
  blockedReason() {
    return undefined;
  }
}

describe('kernel', () => {
  it('skips idle time: a 1e9-cycle latency costs a handful of steps', () => {
    const sim = new Simulator();
    sim.add(new Sleeper('s', 1e9));
    const r = sim.run();
    expect(r.reason).toBe('done');
    expect(r.cycles).toBe(1e9 + 1);
    expect(r.steps).toBeLessThan(5);
    const st = sim.engineStats()[0]!;
    // every cycle of the run is busy, stalled or idle: exactly `cycles` of them
    expect(st.busy + st.stall + st.idle).toBe(r.cycles);
    expect(st.busy).toBe(1);
  });

  it('busy + stall + idle = cycles for every engine, on completion and on a deadlock (stall reasons too)', () => {
    const done = new Simulator();
    const f = new Fifo('f', 2);
    done.add(new Producer('p', f, 20));
    done.add(new SlowConsumer('c', f, 3, 20));
    done.add(new Sleeper('s', 7));
    const r = done.run();
    expect(r.reason).toBe('done');
    for (const st of done.engineStats()) expect(st.busy + st.stall + st.idle, st.name).toBe(r.cycles);
    // deadlock: the producer fills a FIFO nobody drains
    const dl = new Simulator();
    const g = new Fifo('g', 2);
    dl.add(new Producer('p', g, 5));
    dl.add(new Sleeper('s', 4));
    const d = dl.run();
    expect(d.reason).toBe('deadlock');
    for (const st of dl.engineStats()) {
      expect(st.busy + st.stall + st.idle, st.name).toBe(d.cycles);
      expect(Object.values(st.stallReasons).reduce((a, b) => a + b, 0)).toBe(st.stall);
    }
  });

  it('Fifo.rotate(n) is n pop + pushSlot pairs (head, counts, high-water mark, the slots the pushes land in)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 1, max: 3 }), fc.nat(20), fc.integer({ min: 1, max: 9 }), fc.nat(40), (cap, width, pre, fillTo, n) => {
        const a = new Fifo('a', cap, width);
        const b = new Fifo('b', cap, width);
        // some history (wrapped head), then `fillTo` entries queued
        for (const f of [a, b]) {
          for (let i = 0; i < pre; i++) {
            f.push(i);
            f.pop();
          }
          for (let i = 0; i < Math.min(fillTo, cap); i++) f.push(i);
        }
        const slots: number[] = [];
        for (let i = 0; i < n; i++) {
          b.pop();
          slots.push(b.pushSlot());
        }
        const head = a.peekSlot() / width;
        const occ = a.occupancy;
        a.rotate(n);
        expect(slots).toEqual(Array.from({ length: n }, (_, i) => ((head + occ + i) % cap) * width));
        expect([a.peekSlot(), a.occupancy, a.pushes, a.pops, a.maxOccupancy, a.fullStalls]).toEqual([b.peekSlot(), b.occupancy, b.pushes, b.pops, b.maxOccupancy, b.fullStalls]);
      }),
      { numRuns: Number(process.env.PYXIS_PROPERTY_RUNS ?? 200) },
    );
    expect(() => new Fifo('e', 2).rotate(1)).toThrow(/empty/);
  });

  it('models FIFO backpressure: the producer stalls at the consumer rate and nothing is lost', () => {
    const f = new Fifo('f', 2);
    const sim = new Simulator();
    const p = new Producer('p', f, 20);
    const c = new SlowConsumer('c', f, 5, 20);
    sim.add(p);
    sim.add(c);
    const r = sim.run();
    expect(r.reason).toBe('done');
    expect(c.got).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(f.maxOccupancy).toBe(2);
    // Consumer pops at cycles 0,5,10,...,95: the run lasts ~96 cycles; the producer spends most of it stalled.
    expect(r.cycles).toBeGreaterThanOrEqual(95);
    const ps = sim.engineStats()[0]!;
    expect(ps.busy).toBe(20);
    expect(ps.stallReasons['fifo full']).toBeGreaterThan(60);
  });

  it('detects a deadlock and explains it from blockedReason()', () => {
    const a = new Fifo('a', 1);
    const sim = new Simulator();
    sim.add(new SlowConsumer('waiter', a, 1, 1));
    sim.addExplainer(() => ['extra: nobody feeds a']);
    const r = sim.run();
    expect(r.reason).toBe('deadlock');
    expect(r.waitGraph).toEqual(['waiter: a empty', 'extra: nobody feeds a']);
  });

  it('stops at maxCycles', () => {
    const sim = new Simulator();
    sim.add(new Sleeper('s', 1000));
    const r = sim.run({ maxCycles: 100 });
    expect(r.reason).toBe('max-cycles');
    expect(r.cycles).toBe(100);
  });

  it('Fifo reserve/push slots keep ring order across wrap', () => {
    const f = new Fifo('w', 3, 2);
    for (let round = 0; round < 5; round++) {
      expect(f.reserve()).toBe(true);
      const s = f.pushSlot(true);
      f.data[s] = round;
      f.data[s + 1] = -round - 1;
      expect(f.peek(0)).toBe(round);
      expect(f.peek(1)).toBe(-round - 1);
      expect(f.pop()).toBe(round);
    }
    expect(f.push(1) && f.push(2) && f.push(3)).toBe(true);
    expect(f.push(4)).toBe(false);
    expect(f.fullStalls).toBe(1);
  });

  it('BandwidthPort serialises reservations at its rate', () => {
    const p = new BandwidthPort('p', 128);
    expect(p.reserve(0, 1024)).toBe(8);
    expect(p.reserve(0, 1024)).toBe(16);
    expect(p.reserve(100, 64)).toBe(101);
    expect(p.reserve(200, 128, 0.5)).toBe(202);
    expect(p.bytes).toBe(1024 + 1024 + 64 + 128);
  });
});

describe('trace and VCD writers', () => {
  it('writes valid trace-event JSON with processes, tracks, slices, instants and counters', () => {
    const sink = new StringSink();
    const t = new TraceWriter(sink, 1e9);
    const tr = t.track('cluster 0', 'c0.uie0');
    t.slice(tr, 10, 1010, 'uie trip 1', { trip_id: 1 });
    t.instant(t.track('cluster 0', 'c0.barriers'), 1010, 'notify b3', { barrier_id: 3, notify_count: 0, wait_count: 1 });
    t.counter('cluster 0', 5, 'bytes', { h2a: 1024 });
    t.close({ cycles: 1010 });
    expect(sink.closed).toBe(true);
    const j = JSON.parse(sink.text) as { traceEvents: Array<Record<string, unknown>>; otherData: Record<string, unknown> };
    expect(j.otherData['cycles']).toBe(1010);
    for (const e of j.traceEvents) {
      for (const k of ['ph', 'name', 'pid']) expect(e).toHaveProperty(k);
      if (e['ph'] !== 'M') expect(typeof e['ts']).toBe('number');
    }
    const x = j.traceEvents.find((e) => e['ph'] === 'X')!;
    expect(x['ts']).toBe(0.01); // 10 cycles at 1 GHz = 0.01 us
    expect(x['dur']).toBe(1);
    expect((x['args'] as Record<string, number>)['trip_id']).toBe(1);
    const names = j.traceEvents.filter((e) => e['ph'] === 'M' && e['name'] === 'thread_name').map((e) => (e['args'] as Record<string, string>)['name']);
    expect(names).toEqual(['c0.uie0', 'c0.barriers']);
    expect(j.traceEvents.find((e) => e['ph'] === 'i')!['s']).toBe('t');
  });

  it('writes VCD with nested scopes, unique ids, monotone timestamps and only changes', () => {
    const sink = new StringSink();
    const v = new VcdWriter(sink, 1e9);
    const a = v.signal(['c0', 'fifo'], 'occ', 4);
    const b = v.signal(['c0', 'fifo'], 'full', 1);
    const c = v.signal(['c0', 'bar'], 'notify_count', 6);
    v.set(a, 1, 0);
    v.set(b, 0, 0);
    v.set(c, -1, 0);
    v.set(a, 1, 3); // no change: nothing written
    v.set(a, 3, 5);
    v.close(10);
    const text = sink.text;
    const lines = text.split('\n');
    expect(lines.filter((l) => l === '$scope module c0 $end').length).toBe(1);
    const vars = lines.filter((l) => l.startsWith('$var'));
    expect(vars.length).toBe(3);
    const ids = vars.map((l) => l.split(' ')[3]);
    expect(new Set(ids).size).toBe(3);
    const scopes = lines.filter((l) => l.startsWith('$scope')).length;
    expect(lines.filter((l) => l.startsWith('$upscope')).length).toBe(scopes);
    const times = lines.filter((l) => /^#\d+$/.test(l)).map((l) => Number(l.slice(1)));
    expect(times).toEqual([0, 5000, 10000]);
    expect(text).toContain(`b111111 ${ids[2]}`); // -1 in 6-bit two's complement
    expect(text).toContain(`b11 ${ids[0]}`);
    expect(text).toContain(`0${ids[1]}`);
    // after the definitions: #0, a $dumpvars block giving every signal an initial (unknown) value, then changes
    const body = lines.slice(lines.indexOf('$enddefinitions $end') + 1);
    expect(body.slice(0, 2)).toEqual(['#0', '$dumpvars']);
    const end = body.indexOf('$end');
    expect(body.slice(2, end).sort()).toEqual([`bx ${ids[0]}`, `bx ${ids[2]}`, `x${ids[1]}`].sort());
    for (const l of body.slice(end + 1)) if (l) expect(l).toMatch(/^(#\d+|[01][!-~]+|b[01]+ [!-~]+)$/);
    // a real date (or SOURCE_DATE_EPOCH): not the epoch
    expect(lines[0]).toMatch(/^\$date \w{3}, \d\d \w{3} (\d{4}) /);
    expect(lines[0]).not.toContain('1970');
  });
});
