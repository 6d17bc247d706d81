/**
 * The venue's per-trader rate limit (REFERENCE §1.1: "Rate limits apply per trader"; 429 with
 * "Rate limit exceeded. Suggested sleep time: <N>ms"), so paper mode and tests see what a churny
 * bot would meet live. A token bucket per trading account over the state-changing requests
 * (place, cancel, cancel-all, increase-nonce, withdraw), refilled on the venue clock: `burst`
 * requests at once, then `perSecond` sustained. LayerAkira does not publish its numbers; the
 * default (20/s, burst 40) is twice the bot's own outbound budget (10/s, burst 20), so a
 * well-behaved bot never meets it and a runaway one does.
 */
import type { Clock } from '../core/index.ts';

/** Bucket size and refill; `perSecond` 0 switches the limit off. */
export interface RateLimitSettings {
  /** Sustained requests per second per trading account. Default 20; 0 = no limit. */
  readonly perSecond: number;
  /** Requests allowed at once after a quiet spell. Default 40. */
  readonly burst: number;
}

/** Defaults of {@link RateLimitSettings}. */
export const DEFAULT_RATE_LIMIT: RateLimitSettings = { perSecond: 20, burst: 40 };

/** No limit (tests that are not about it). */
export const NO_RATE_LIMIT: RateLimitSettings = { perSecond: 0, burst: 0 };

interface Bucket {
  tokens: number;
  updatedMs: number;
}

/** The per-account buckets. */
export class RateLimiter {
  readonly #buckets = new Map<bigint, Bucket>();
  readonly #denied = new Map<bigint, number>();

  constructor(
    private readonly clock: Clock,
    private readonly settings: RateLimitSettings,
  ) {}

  /** Takes one token for `account`: undefined when allowed, else the wait (ms) until one is free. */
  take(account: bigint): number | undefined {
    const { perSecond, burst } = this.settings;
    if (perSecond <= 0) return undefined;
    const nowMs = this.clock.nowMs();
    const capacity = Math.max(1, burst);
    let bucket = this.#buckets.get(account);
    if (bucket === undefined) {
      bucket = { tokens: capacity, updatedMs: nowMs };
      this.#buckets.set(account, bucket);
    }
    bucket.tokens = Math.min(capacity, bucket.tokens + ((nowMs - bucket.updatedMs) * perSecond) / 1000);
    bucket.updatedMs = nowMs;
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return undefined;
    }
    this.#denied.set(account, (this.#denied.get(account) ?? 0) + 1);
    return Math.max(1, Math.ceil(((1 - bucket.tokens) * 1000) / perSecond));
  }

  /** Requests of this account refused with a 429 so far (the limit's own, not fault injection). */
  deniedOf(account: bigint): number {
    return this.#denied.get(account) ?? 0;
  }
}

/** The venue's 429 text (swagger `RateLimitExceeded` example). */
export function rateLimitText(sleepMs: number): string {
  return `Rate limit exceeded. Suggested sleep time: ${sleepMs}ms`;
}
