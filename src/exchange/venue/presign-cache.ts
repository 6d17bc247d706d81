/**
 * Orders signed ahead of time (issue 4 "pre-signed ladders"): keyed by side, price, size and
 * post-only, each used at most once (an order hash is an identity: sending it twice would be a
 * duplicate). An entry is usable only while it would still be accepted: same nonce, a
 * `max_gas_price` at least the current gas price, a conversion rate no less against us than the
 * current one, and young enough that `created_at` is fresh.
 */
import type { OrderIntent } from '../../core/index.ts';
import type { OrderRequest } from '../wire/requests.ts';

/** A signed order and its hash. */
export interface SignedRequest<T> {
  readonly hash: bigint;
  readonly request: T;
}

/** What the current state requires of a pre-signed order. */
export interface PresignValidity {
  readonly nonce: number;
  readonly gasPrice: bigint;
  /** The conversion rate's r1 we would sign now (r0 is fixed at one STRK). */
  readonly rateR1: bigint;
  readonly nowMs: number;
}

interface Entry {
  readonly signed: SignedRequest<OrderRequest>;
  readonly signedAtMs: number;
}

/** The key of an intent. */
export function intentKey(intent: OrderIntent): string {
  return `${intent.side}:${intent.priceUnits}:${intent.qtyUnits}:${intent.postOnly ? 'p' : 't'}`;
}

/** A bounded, single-use cache of pre-signed orders. */
export class PresignCache {
  readonly #entries = new Map<string, Entry>();
  readonly #maxEntries: number;
  readonly #maxAgeMs: number;
  /** Counters for metrics and tests. */
  readonly stats = { hits: 0, misses: 0, stored: 0 };

  /** @param maxAgeMs how long a signature stays usable (its created_at ages). */
  constructor(options: { maxEntries: number; maxAgeMs: number }) {
    this.#maxEntries = options.maxEntries;
    this.#maxAgeMs = options.maxAgeMs;
  }

  /** True when a usable entry exists for this intent. */
  has(intent: OrderIntent, validity: PresignValidity): boolean {
    const entry = this.#entries.get(intentKey(intent));
    return entry !== undefined && this.#isUsable(entry, validity);
  }

  /** Takes (and removes) a usable pre-signed order for this intent. */
  take(intent: OrderIntent, validity: PresignValidity): SignedRequest<OrderRequest> | undefined {
    const key = intentKey(intent);
    const entry = this.#entries.get(key);
    if (entry === undefined) {
      this.stats.misses++;
      return undefined;
    }
    this.#entries.delete(key);
    if (!this.#isUsable(entry, validity)) {
      this.stats.misses++;
      return undefined;
    }
    this.stats.hits++;
    return entry.signed;
  }

  /**
   * Stores a signed order; entries too old to use go first (a daemon that idles would otherwise
   * keep a full cache of dead signatures resident), then the oldest while still full. The map
   * holds entries in the order they were stored, so the old ones are at its front.
   */
  put(intent: OrderIntent, signed: SignedRequest<OrderRequest>, nowMs: number): void {
    const key = intentKey(intent);
    this.#entries.delete(key);
    for (const [oldKey, entry] of this.#entries) {
      if (nowMs - entry.signedAtMs <= this.#maxAgeMs) break;
      this.#entries.delete(oldKey);
    }
    this.#entries.set(key, { signed, signedAtMs: nowMs });
    this.stats.stored++;
    while (this.#entries.size > this.#maxEntries) {
      const oldest = this.#entries.keys().next().value;
      if (oldest === undefined) break;
      this.#entries.delete(oldest);
    }
  }

  /** Drops everything (nonce raised, stop). */
  clear(): void {
    this.#entries.clear();
  }

  get size(): number {
    return this.#entries.size;
  }

  #isUsable(entry: Entry, validity: PresignValidity): boolean {
    const request = entry.signed.request;
    return (
      request.constraints.nonce === validity.nonce &&
      request.fee.gasFee.maxGasPrice >= validity.gasPrice &&
      request.fee.gasFee.conversionRate[1] >= validity.rateR1 &&
      validity.nowMs - entry.signedAtMs <= this.#maxAgeMs
    );
  }
}
