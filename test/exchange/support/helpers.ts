/** Test helpers: clocks that do not sleep, and quick constructors. */
import { createRng, createSilentLogger, getChain, ManualClock, type Clock, type Timer } from '../../../src/core/index.ts';
import { RestClient, type RestClientOptions } from '../../../src/exchange/client/index.ts';
import { FakeSigner } from './fake-signer.ts';

/**
 * A clock whose one-shot timers fire on the next real macrotask, with virtual time jumping to
 * their due time, and which records every delay asked for. Code that sleeps (retries, 429) runs
 * at full speed while tests still see the delays. Intervals never fire (use ManualClock).
 */
export class FastClock implements Clock {
  readonly delays: number[] = [];
  #nowMs: number;

  constructor(startMs = 1_700_000_000_000) {
    this.#nowMs = startMs;
  }

  nowMs(): number {
    return this.#nowMs;
  }

  setTimeout(callback: () => void, delayMs: number): Timer {
    this.delays.push(delayMs);
    const dueMs = this.#nowMs + delayMs;
    let cancelled = false;
    setTimeout(() => {
      if (cancelled) return;
      if (dueMs > this.#nowMs) this.#nowMs = dueMs;
      callback();
    }, 0);
    return { cancel: () => (cancelled = true) };
  }

  setInterval(): Timer {
    return { cancel: () => undefined };
  }
}

/** Lets real I/O happen: one macrotask turn. */
export function tick(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Waits until `check` returns a value (not undefined/false), advancing a ManualClock by
 * `stepMs` between real I/O turns when one is given. Fails after `timeoutMs` of real time.
 */
export async function eventually<T>(check: () => T | undefined | false, options: { clock?: ManualClock; stepMs?: number; timeoutMs?: number } = {}): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 5_000);
  for (;;) {
    const value = check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    if (options.clock !== undefined) await options.clock.advanceAsync(options.stepMs ?? 0);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** Settles a promise while advancing a ManualClock (for code that sleeps between requests). */
export async function drive<T>(clock: ManualClock, pending: Promise<T>, stepMs = 100): Promise<T> {
  let settled = false;
  const tracked = pending.finally(() => {
    settled = true;
  });
  tracked.catch(() => undefined);
  const deadline = Date.now() + 5_000;
  while (!settled && Date.now() < deadline) {
    await clock.advanceAsync(stepMs);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  return tracked;
}

export const ACCOUNT = 0xacc0n;
export const CHAIN = getChain('mainnet');

/** A REST client for the loopback venue. */
export function makeRest(baseUrl: string, overrides: Partial<RestClientOptions> = {}): { rest: RestClient; signer: FakeSigner; clock: Clock } {
  const signer = new FakeSigner();
  const clock = overrides.clock ?? new FastClock();
  const rest = new RestClient({
    baseUrl,
    chain: CHAIN,
    account: ACCOUNT,
    signer,
    clock,
    rng: createRng(1),
    logger: createSilentLogger(),
    ...overrides,
  });
  return { rest, signer, clock };
}
