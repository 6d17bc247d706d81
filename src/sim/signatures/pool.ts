/**
 * Signature checks on worker threads, off the event loop (issue #3 "Speed"), so the HTTP server
 * keeps accepting while orders are hashed and verified on every core. Each worker has at most one
 * batch in flight: jobs that arrive while the workers are busy queue up and leave as one batch,
 * which the worker hashes in lockstep (`runJobs`), so the busier the venue the cheaper each order.
 * Until the workers are ready the pool checks inline, so the first requests never wait for
 * thread start-up.
 */
import { Worker } from 'node:worker_threads';
import type { ChainInfo } from '../../core/index.ts';
import type { WithdrawHashScheme } from '../../exchange/signer/index.ts';
import { createInlineChecker } from './inline.ts';
import type { SignatureChecker, SignatureJob, SignatureResult } from './jobs.ts';

interface Pending {
  readonly resolve: (result: SignatureResult) => void;
  readonly reject: (error: Error) => void;
}

interface PoolWorker {
  readonly worker: Worker;
  ready: boolean;
  inFlight: number;
  readonly batches: Map<number, Pending[]>;
}

/** The most jobs sent to one worker at once (bounds the latency of the first job of a batch). */
const MAX_BATCH = 64;
/** The fewest jobs sent to an idle worker while another one is busy. */
const MIN_BATCH = 16;

type WorkerReply = { ready: true } | { id: number; results: Array<SignatureResult | { error: string }> };

/** A pool of `size` verification threads. */
export function createWorkerPoolChecker(chain: ChainInfo, withdrawHash: WithdrawHashScheme, size: number): SignatureChecker {
  const inline = createInlineChecker(chain, withdrawHash);
  const workers: PoolWorker[] = [];
  let nextBatchId = 1;
  let isClosed = false;
  let queued: Array<{ job: SignatureJob; pending: Pending }> = [];
  let isFlushScheduled = false;
  const readiness: Array<Promise<void>> = [];

  for (let i = 0; i < size; i++) {
    const worker = new Worker(new URL('./worker.mjs', import.meta.url), { workerData: { chain: chain.name, withdrawHash } });
    worker.unref();
    const entry: PoolWorker = { worker, ready: false, inFlight: 0, batches: new Map() };
    let markReady: () => void = () => undefined;
    readiness.push(new Promise<void>((resolve) => (markReady = resolve)));
    worker.on('message', (reply: WorkerReply) => {
      if ('ready' in reply) {
        entry.ready = true;
        markReady();
        return;
      }
      const batch = entry.batches.get(reply.id);
      if (batch === undefined) return;
      entry.batches.delete(reply.id);
      entry.inFlight -= batch.length;
      batch.forEach((pending, index) => {
        const result = reply.results[index];
        if (result === undefined || 'error' in result) pending.reject(new Error(result?.error ?? 'worker returned no result'));
        else pending.resolve(result);
      });
      if (queued.length > 0) flush();
    });
    worker.on('error', (error) => failWorker(entry, error));
    worker.on('exit', () => failWorker(entry, new Error('signature worker exited')));
    workers.push(entry);
  }

  function failWorker(entry: PoolWorker, error: Error): void {
    entry.ready = false;
    for (const batch of entry.batches.values()) for (const pending of batch) pending.reject(error);
    entry.batches.clear();
    entry.inFlight = 0;
    // Jobs waiting for a busy worker go to the others (or inline when none is left).
    if (queued.length > 0) flush();
  }

  function flush(): void {
    isFlushScheduled = false;
    const ready = workers.filter((entry) => entry.ready);
    if (ready.length === 0) {
      const jobs = queued;
      queued = [];
      for (const { job, pending } of jobs) inline.check(job).then(pending.resolve, pending.reject);
      return;
    }
    // Only idle workers take work: jobs that arrive while both are busy wait here and go out as
    // one batch when a worker answers, so the workers hash them in lockstep (one field inversion
    // per step for the whole batch) instead of one request at a time.
    const idle = ready.filter((entry) => entry.inFlight === 0);
    if (idle.length === 0 || queued.length === 0) return;
    // While another worker is busy, wait for a few jobs rather than send a tiny batch: a batch of
    // one costs about twice as much per job, and the busy worker's answer will flush again.
    if (idle.length < ready.length && queued.length < MIN_BATCH) return;
    const per = Math.min(MAX_BATCH, Math.ceil(queued.length / idle.length));
    for (const entry of idle) {
      const slice = queued.splice(0, per);
      if (slice.length === 0) break;
      const id = nextBatchId++;
      entry.batches.set(id, slice.map((item) => item.pending));
      entry.inFlight += slice.length;
      entry.worker.postMessage({ id, jobs: slice.map((item) => item.job) });
    }
  }

  return {
    check(job: SignatureJob): Promise<SignatureResult> {
      if (isClosed) return Promise.reject(new Error('signature pool closed'));
      return new Promise<SignatureResult>((resolve, reject) => {
        queued.push({ job, pending: { resolve, reject } });
        if (!isFlushScheduled) {
          isFlushScheduled = true;
          queueMicrotask(flush);
        }
      });
    },
    async ready(): Promise<void> {
      await Promise.all(readiness);
    },
    async close(): Promise<void> {
      if (isClosed) return;
      isClosed = true;
      await Promise.all(workers.map((entry) => entry.worker.terminate()));
    },
  };
}
