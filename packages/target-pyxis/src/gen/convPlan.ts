/**
 * The image-streaming plan shared by the convolution generators (conv.ts, conv1x1.ts, resnet.ts): images spread over
 * the workers in contiguous runs, each UIE's images double-buffered in its AMEM (buffer j mod 2 for its j-th image)
 *   h2a: image j of a UIE into buffer j mod 2 (and R into the Y buffer)   after the trips of image j-2 (all of them)
 *   uie: the image's trips                                                after the load (and the store of j-2)
 *   a2h: Y of image j                                                     after its last trip
 * Every trip of an image names its predecessors (the linker's race check, LD0813, does not follow queue order); they
 * share one barrier (same predecessor set); the store waits on one barrier for the image's trips (notify_count <= 31,
 * docs/linker.md).
 */
import { GenError, type Worker } from './errors.js';

export interface ImagePlan {
  /** Images of worker i, in order. */
  jobs: number[][];
  /** The workers with at least one image and their index in `ws`. */
  busy: Array<{ w: Worker; i: number }>;
  clusters: number[];
  rounds: number;
}

export function assignImages(ws: Worker[], images: number): ImagePlan {
  const jobs: number[][] = ws.map(() => []);
  for (let i = 0; i < ws.length; i++) for (let t = Math.floor((i * images) / ws.length); t < Math.floor(((i + 1) * images) / ws.length); t++) jobs[i]!.push(t);
  const busy = ws.map((w, i) => ({ w, i })).filter(({ i }) => jobs[i]!.length > 0);
  const clusters = [...new Set(busy.map(({ w }) => w.cluster))].sort((a, b) => a - b);
  return { jobs, busy, clusters, rounds: Math.max(...jobs.map((j) => j.length)) };
}

/**
 * GEN0008 when the double-buffered per-UIE tensors (`bytesPerUie`, both buffers) of a cluster's busy UIEs and the
 * cluster's weight databases (`shared`) exceed its AMEM (64 MiB less 1 MiB for descriptor lists, as gemm.ts).
 */
export function checkAmem(plan: ImagePlan, bytesPerUie: number, shared: number, param: string, hint: string): void {
  const budget = 63 * 1024 * 1024;
  for (const c of plan.clusters) {
    const n = plan.busy.filter(({ w }) => w.cluster === c).length;
    const need = n * bytesPerUie + shared;
    if (need > budget) throw new GenError('GEN0008', param, `${n} UIE(s) with double-buffered images need ${need} bytes of AMEM in cluster ${c} (limit ${budget}: 64 MiB less 1 MiB for descriptor lists); ${hint}`);
  }
}

/** One image on one UIE: worker index i, its j-th image n, buffer s = j mod 2, trip-name suffix id = `${i}_${j}`. */
export interface ImageSlot {
  i: number;
  j: number;
  n: number;
  s: number;
  id: string;
  cluster: number;
}

/**
 * Link-script lines of the per-round H2A / A2H trips, the UIE queues and the dependencies of a per-image kernel:
 * `x_hbm` rows [n*xRows, (n+1)*xRows) -> x{i}_{s}; with `residual`, r_hbm rows -> y{i}_{s}; out{i}_{s} (default y)
 * -> y_hbm rows [n*yRows, ...). `trips(slot)` gives the image's UIE trip names and texts (in queue order).
 */
export interface ImageTrips {
  /** UIE trips of the image in queue order. */
  trips: Array<{ name: string; text: string }>;
  /** The trips that wait for the load (default all); the others must follow them through `deps`. */
  entry?: string[];
  /** Dependencies among the image's own trips. */
  deps?: string[];
  /**
   * The trips the store and the next load of the image's buffers wait for (default: the last trip when `deps` is
   * given, else all of them); `deps` must order every other trip of the image before one of them.
   */
  exits?: string[];
}

export function streamImages(plan: ImagePlan, o: { xRows: number; yRows: number; residual: boolean; out?: string; trips: (slot: ImageSlot) => ImageTrips }): string[] {
  const D: string[] = [];
  const deps: string[] = [];
  const out = o.out ?? 'y';
  const uieTrips = new Map<number, string[]>(plan.busy.map(({ i }) => [i, []]));
  const lastOf = new Map<string, string>();
  for (const c of plan.clusters) {
    const h2a: string[] = [];
    const a2h: string[] = [];
    for (let j = 0; j < plan.rounds; j++)
      for (const { w, i } of plan.busy) {
        if (w.cluster !== c || j >= plan.jobs[i]!.length) continue;
        const n = plan.jobs[i]![j]!;
        const s = j % 2;
        const id = `${i}_${j}`;
        h2a.push(`  trip ld${id} { src = x_hbm[${n * o.xRows}:${(n + 1) * o.xRows}]; dst = x${i}_${s}; trip_power = 4; }`);
        if (o.residual) h2a.push(`  trip ldr${id} { src = r_hbm[${n * o.yRows}:${(n + 1) * o.yRows}]; dst = y${i}_${s}; trip_power = 4; }`);
        a2h.push(`  trip st${id} { src = ${out}${i}_${s}; dst = y_hbm[${n * o.yRows}:${(n + 1) * o.yRows}]; trip_power = 4; }`);
        const im = o.trips({ i, j, n, s, id, cluster: c });
        const all = im.trips.map((t) => t.name);
        // the load of image j waits for the trips of image j-2 that read its buffer: all of them (the linker orders a
        // queue's trips by their start only, LD0813), or the last where the image's own deps order the others before it
        const exits = (im.exits ?? (im.deps ? [all[all.length - 1]!] : all)).join(', ');
        lastOf.set(id, exits);
        if (j >= 2) deps.push(`ld${id} after ${lastOf.get(`${i}_${j - 2}`)!};`);
        if (j >= 2 && o.residual) deps.push(`ldr${id} after st${i}_${j - 2};`);
        deps.push(`${(im.entry ?? all).join(', ')} after ${[`ld${id}`, ...(o.residual ? [`ldr${id}`] : j >= 2 ? [`st${i}_${j - 2}`] : [])].join(', ')};`);
        deps.push(...(im.deps ?? []));
        deps.push(`st${id} after ${exits};`);
        uieTrips.get(i)!.push(...im.trips.map((t) => t.text));
      }
    D.push(`queue h2a { cluster = ${c};\n${h2a.join('\n')}\n}`);
    D.push(`queue a2h { cluster = ${c};\n${a2h.join('\n')}\n}`);
  }
  for (const { w, i } of plan.busy) D.push(`queue uie${w.uie} { cluster = ${w.cluster};\n${uieTrips.get(i)!.join('\n')}\n}`);
  D.push(deps.join('\n'));
  return D;
}
