/**
 * A pool of worker threads that sign bursts of orders on every core without blocking the event
 * loop (hashing and signing an order is ~0.5 ms of synchronous CPU). A batch is split evenly
 * across workers, each hashes its share in lockstep (`Signer.signOrders`), and the results come
 * back in order. Workers start in the background; until they are ready, or for a single order,
 * the pool signs inline with its own signer, so callers never wait for start-up. With a policy,
 * a batch is checked (and a refusal logged and counted) before any worker sees it, and each worker
 * enforces the same policy again on what it hashes.
 */
import { Worker } from 'node:worker_threads';
import type { ChainInfo, Secret } from '../../core/index.ts';
import type { OrderRequest } from '../wire/requests.ts';
import type { WithdrawHashScheme } from './hasher.ts';
import type { SigningPolicy } from './policy.ts';
import { Signer, type Signed } from './signer.ts';

export interface SigningPoolOptions {
  readonly privateKey: Secret;
  readonly account: bigint;
  readonly chain: ChainInfo;
  readonly withdrawHash?: WithdrawHashScheme;
  /** Worker threads; default 2 (the machines have 2 cores). */
  readonly size?: number;
  /** What the pool agrees to sign; none = anything. */
  readonly policy?: SigningPolicy;
}

interface PendingJob {
  resolve(signed: Signed<OrderRequest>[]): void;
  reject(error: Error): void;
}

interface PoolWorker {
  readonly worker: Worker;
  ready: boolean;
}

export class SigningPool {
  readonly signer: Signer;
  readonly #workers: PoolWorker[] = [];
  readonly #pending = new Map<number, PendingJob>();
  readonly #ready: Promise<void>;
  #nextId = 1;
  #closed = false;

  constructor(options: SigningPoolOptions) {
    this.signer = new Signer(options);
    const setup = {
      privateKey: options.privateKey.reveal(),
      account: options.account,
      chain: options.chain.name,
      withdrawHash: options.withdrawHash ?? 'snip12',
      policy: options.policy?.spec,
    };
    const starts: Promise<void>[] = [];
    for (let i = 0; i < (options.size ?? 2); i++) {
      const worker = new Worker(new URL('./pool-worker.mjs', import.meta.url), { workerData: setup });
      const entry: PoolWorker = { worker, ready: false };
      this.#workers.push(entry);
      starts.push(
        new Promise<void>((resolve, reject) => {
          worker.once('error', reject);
          worker.on('message', (message: { ready?: boolean; id?: number; signed?: Signed<OrderRequest>[]; error?: string }) => {
            if (message.ready === true) {
              entry.ready = true;
              resolve();
              return;
            }
            const job = message.id === undefined ? undefined : this.#pending.get(message.id);
            if (job === undefined || message.id === undefined) return;
            this.#pending.delete(message.id);
            if (message.signed !== undefined) job.resolve(message.signed);
            else job.reject(new Error(`signing worker failed: ${message.error ?? 'unknown error'}`));
          });
        }),
      );
    }
    this.#ready = Promise.all(starts).then(() => undefined);
    // A failed start is reported by ready(); signing falls back to inline meanwhile.
    this.#ready.catch(() => undefined);
  }

  /** Resolves when every worker has built its tables. */
  ready(): Promise<void> {
    return this.#ready;
  }

  /** True when the policy would sign this order (speculative pre-signing skips the others). */
  allows(order: OrderRequest): boolean {
    return this.signer.policy?.allowsOrder(order) ?? true;
  }

  /**
   * Signs the orders, in order, on all ready workers (inline when none is ready or for one order).
   * @throws SigningRefusedError when the policy forbids one of them: none is signed.
   */
  async signOrders(orders: readonly OrderRequest[]): Promise<Signed<OrderRequest>[]> {
    if (this.#closed) throw new Error('signing pool is closed');
    this.signer.assertOrdersAllowed(orders);
    const ready = this.#workers.filter((entry) => entry.ready);
    if (orders.length <= 1 || ready.length === 0) return this.signer.signOrders(orders);
    const chunk = Math.ceil(orders.length / ready.length);
    const parts = ready.map((entry, i) => orders.slice(i * chunk, (i + 1) * chunk)).filter((part) => part.length > 0);
    const results = await Promise.all(parts.map((part, i) => this.#run(ready[i]!.worker, part)));
    return results.flat();
  }

  #run(worker: Worker, orders: OrderRequest[]): Promise<Signed<OrderRequest>[]> {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      worker.postMessage({ id, orders });
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const job of this.#pending.values()) job.reject(new Error('signing pool closed'));
    this.#pending.clear();
    await Promise.all(this.#workers.map((entry) => entry.worker.terminate()));
  }
}
