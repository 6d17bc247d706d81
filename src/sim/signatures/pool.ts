/**
 * Signature checks on worker threads, off the event loop (issue #3 "Speed"), so the HTTP server
 * keeps accepting while orders are hashed and verified on every core. Jobs that arrive in the same
 * event-loop turn go to a worker as one message (fewer postMessage round trips under load);
 * batches go to the worker with the fewest jobs in flight. Until the workers are ready the pool
 * checks inline, so the first requests never wait for thread start-up.
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
  }

  function flush(): void {
    isFlushScheduled = false;
    const jobs = queued;
    queued = [];
    const ready = workers.filter((entry) => entry.ready);
    if (ready.length === 0) {
      for (const { job, pending } of jobs) inline.check(job).then(pending.resolve, pending.reject);
      return;
    }
    // Split this turn's jobs evenly over the ready workers, least loaded first.
    ready.sort((a, b) => a.inFlight - b.inFlight);
    const per = Math.ceil(jobs.length / ready.length);
    ready.forEach((entry, index) => {
      const slice = jobs.slice(index * per, (index + 1) * per);
      if (slice.length === 0) return;
      const id = nextBatchId++;
      entry.batches.set(id, slice.map((item) => item.pending));
      entry.inFlight += slice.length;
      entry.worker.postMessage({ id, jobs: slice.map((item) => item.job) });
    });
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
