/**
 * CPU seconds of this process per thread (Linux /proc/self/task/<tid>/stat utime + stime, 10 ms ticks), for the
 * parallel benchmark's breakdown (docs/dev/performance.md "Parallel runs"): the calling thread (tid = pid), the
 * other live threads (V8's platform pool: TurboFan's concurrent compilation, concurrent marking and sweeping; libuv),
 * and the threads that already ended (the process total minus the live ones: the partition workers, terminated before
 * the figures are read). Node 20 does not name its threads, so the pool is "every other live thread". null off Linux.
 */
import { readdirSync, readFileSync } from 'node:fs';

const ticks = (stat) => {
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
};

export function threadsCpu() {
  try {
    const total = ticks(readFileSync('/proc/self/stat', 'utf8'));
    let main = 0;
    let pool = 0;
    for (const tid of readdirSync('/proc/self/task')) {
      let c;
      try {
        c = ticks(readFileSync(`/proc/self/task/${tid}/stat`, 'utf8'));
      } catch {
        continue; // ended meanwhile: counted in `ended`
      }
      if (tid === String(process.pid)) main = c;
      else pool += c;
    }
    return { total, main, pool, ended: Math.max(0, total - main - pool) };
  } catch {
    return null;
  }
}
