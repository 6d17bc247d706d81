/**
 * Retry delays: exponential backoff with full jitter (so a fleet of bots does not retry in step)
 * and the venue's suggested sleep on a 429 (REFERENCE §1.1: "Suggested sleep time: 1000ms"),
 * plus jitter. Pure functions of the attempt number and an injected RNG.
 */
import type { Rng } from '../../core/index.ts';

/** Exponential backoff bounds. */
export interface BackoffPolicy {
  /** First delay cap, ms. */
  readonly baseMs: number;
  /** Largest delay, ms. */
  readonly maxMs: number;
}

/**
 * Delay before retry number `attempt` (0 = first retry): uniform in [cap/2, cap] with
 * cap = min(maxMs, baseMs·2^attempt). Half the cap is kept so a retry never comes at once.
 */
export function backoffDelayMs(attempt: number, policy: BackoffPolicy, rng: Rng): number {
  const cap = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, attempt));
  return Math.round(cap / 2 + rng.next() * (cap / 2));
}

const SUGGESTED_SLEEP = /suggested sleep(?: time)?:?\s*(\d+(?:\.\d+)?)\s*(ms|s)?/i;

/**
 * The wait a 429 asks for, ms: the `Retry-After` header (seconds) or the "Suggested sleep time"
 * in the error text; undefined when neither says.
 */
export function suggestedSleepMs(errorText: string | undefined, retryAfterHeader: string | undefined): number | undefined {
  if (retryAfterHeader !== undefined && /^\d+(\.\d+)?$/.test(retryAfterHeader.trim())) {
    return Math.round(Number(retryAfterHeader.trim()) * 1000);
  }
  if (errorText === undefined) return undefined;
  const match = SUGGESTED_SLEEP.exec(errorText);
  if (match === null) return undefined;
  const value = Number(match[1]);
  return Math.round(match[2]?.toLowerCase() === 's' ? value * 1000 : value);
}

/** A 429 wait: the suggestion (or the backoff when none) plus up to 20 % jitter. */
export function rateLimitDelayMs(suggestedMs: number | undefined, attempt: number, policy: BackoffPolicy, rng: Rng): number {
  const base = suggestedMs ?? backoffDelayMs(attempt, policy, rng);
  return Math.round(base + rng.next() * base * 0.2);
}
