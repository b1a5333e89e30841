/**
 * The worker-thread entry of a threaded run (threaded.ts, queued.ts): hosts its share of the partitions
 * (PartitionHost) and answers the coordinator's requests, one at a time, over the worker's port. Every failure is
 * reported as a message naming the partition whose code was running, so the coordinator ends the run instead of
 * waiting.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { diagnosticsOf, PartitionFailure, PartitionHost, partitionModuleRegistered, type CrossMessages, type PartitionSpec, type QueueGrant, type RunEnd } from './partitionHost.js';

type Request =
  | { t: 'start'; specs: Array<PartitionSpec & { index: number }> }
  | ({ t: 'queue' } & QueueGrant)
  | { t: 'window'; end: number; inbound: CrossMessages; maxCycles: number }
  | { t: 'finish'; end: number; inbound: CrossMessages }
  | { t: 'collect'; end: RunEnd };

const port = parentPort!;
const host = new PartitionHost();

function fail(e: unknown): void {
  const running = host.running();
  const f =
    e instanceof PartitionFailure
      ? e
      : new PartitionFailure(running?.name ?? "(this thread's partitions)", running?.index ?? -1, e instanceof Error ? e.message : String(e), e instanceof Error ? (e.stack ?? '') : '', diagnosticsOf(e));
  port.postMessage({ t: 'error', partition: f.partition, index: f.index, detail: f.detail, stack: f.stackText, diagnostics: f.diagnostics });
}

const start = (specs: Array<PartitionSpec & { index: number }>) =>
  host.start(specs).then(
    (ready) => port.postMessage({ t: 'ready', ready }),
    fail,
  );

function handle(r: Request): void {
  try {
    if (r.t === 'start') void start(r.specs);
    else if (r.t === 'queue')
      void host.drain(r, (e) => port.postMessage(e)).then(
        () => port.postMessage({ t: 'drained' }),
        fail,
      );
    else if (r.t === 'window') port.postMessage({ t: 'window', reply: host.window(r.end, r.inbound, { maxCycles: r.maxCycles }) });
    else if (r.t === 'finish') port.postMessage({ t: 'results', results: host.finish(r.end, r.inbound) });
    else port.postMessage({ t: 'collected', collected: host.collect(r.end) });
  } catch (e) {
    fail(e);
  }
}

const data = (workerData ?? {}) as { specs?: Array<PartitionSpec & { index: number }>; preload?: string[] };
if (data.specs) {
  void start(data.specs);
  port.on('message', handle);
} else {
  // Started ahead of the run (threaded.ts prestartWorkers) or for a work queue: the builders' modules load now (but
  // those a bundled entry carries, scripts/bundle.mjs); the requests wait for them (in arrival order). A module that fails to load fails again, with the partition named,
  // when a partition needs it.
  const loaded = Promise.all((data.preload ?? []).filter((m) => !partitionModuleRegistered(m)).map((m) => import(m))).catch(() => undefined);
  port.on('message', (r: Request) => void loaded.then(() => handle(r)));
}
