// The synthetic partitioned workload of scripts/bench-parallel.mjs (Pyxis-free): partition k has `engines` engines
// each doing `macs` multiply-adds on a Float64Array per busy cycle (a stand-in for a UIE's datapath) for `cycles`
// cycles, and one courier that sends a message every `every` cycles to partition k + 1 (mod P) over a cross link of
// latency `lat`, and counts what it receives. A partition builder (kernel/partitionHost.ts): built inside the worker.
import { Simulator, TimedLink } from '../../packages/sim/dist/index.js';

class Worker {
  constructor(name, macs, cycles) {
    this.name = name;
    this.a = new Float64Array(macs).map((_, i) => (i % 7) * 0.5);
    this.acc = 0;
    this.left = cycles;
  }
  get busy() {
    return this.left > 0;
  }
  tick() {
    if (this.left <= 0) return false;
    const a = this.a;
    let s = this.acc;
    for (let i = 0; i < a.length; i++) s = s * 0.999 + a[i] * 1.001;
    this.acc = s;
    this.left--;
    return true;
  }
  nextWake() {
    return this.left > 0 ? 0 : Infinity;
  }
  blockedReason() {
    return undefined;
  }
}

class Courier {
  constructor(k, every, cycles, lat) {
    this.name = `courier${k}`;
    this.k = k;
    this.every = every;
    this.until = cycles;
    this.lat = lat;
    this.out = null;
    this.received = 0;
    this.sum = 0;
    this.sent = 0;
  }
  get busy() {
    return false;
  }
  tick(now) {
    if (now >= this.until || now % this.every !== 0) return false;
    this.out.send(now, now + this.lat, this.k, { from: this.k, seq: this.sent++ });
    return true;
  }
  nextWake(now) {
    if (now >= this.until) return Infinity;
    const r = now % this.every;
    return r === 0 ? now : now + this.every - r;
  }
  blockedReason() {
    return undefined;
  }
}

/** Partition `me` of `parts` (or, with `all`, every partition in one Simulator with plain links: the reference). */
export function buildSynthetic({ parts, me, all, engines, macs, cycles, every, lat }) {
  const sim = new Simulator();
  const mine = all ? [...Array(parts).keys()] : [me];
  const inLinks = new Map();
  const couriers = [];
  const workers = [];
  for (const k of mine) {
    for (let e = 0; e < engines; e++) {
      const w = new Worker(`p${k}.w${e}`, macs, cycles);
      sim.add(w);
      workers.push(w);
    }
    const c = new Courier(k, every, cycles, lat);
    sim.add(c);
    couriers.push(c);
    const link = new TimedLink(`to p${k}`, lat, 0, (m) => {
      c.received++;
      c.sum += m.from * 1000 + m.seq;
    });
    if (!all) link.crossPartition = true;
    sim.addLink(link);
    inLinks.set(k, link);
  }
  const outbound = {};
  for (const c of couriers) {
    const to = (c.k + 1) % parts;
    if (inLinks.has(to)) c.out = inLinks.get(to);
    else {
      c.out = new TimedLink(`to p${to}`, lat, 0, () => undefined);
      c.out.crossPartition = true;
      outbound[c.out.name] = c.out;
    }
  }
  const inbound = all ? {} : Object.fromEntries([...inLinks.values()].map((l) => [l.name, l]));
  return { sim, inbound, outbound, collect: () => couriers.map((c) => [c.k, c.received, c.sum, workers.length ? workers[0].acc : 0]) };
}
