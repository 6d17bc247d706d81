/**
 * Settling POSTs whose outcome is unknown (SPEC §2, STYLE "blind POST retries"). Every signed
 * request's hash is computed before it is sent, so after a timeout, a reset or a 5xx we ask the
 * venue about that hash instead of sending again: found means it landed; not found after a few
 * looks stays "unknown" (the venue queues requests, so absence is not proof), and the engine's
 * healing settles it later.
 */
import { sleep, type Clock, type Rng } from '../../core/index.ts';
import { backoffDelayMs, type BackoffPolicy } from './backoff.ts';
import { ExchangeError, isOutcomeUnknown } from './errors.ts';

/** What became of a POST. */
export type PostOutcome<T> =
  | { readonly kind: 'accepted'; readonly value: T | undefined }
  | { readonly kind: 'rejected'; readonly error: ExchangeError }
  | { readonly kind: 'unknown'; readonly error: unknown };

/** Options of {@link postResolved}. */
export interface ResolveOptions {
  readonly clock: Clock;
  readonly rng: Rng;
  /** Looks after an unknown outcome. Default 3. */
  readonly lookups?: number;
  /** Spacing of the looks. Default 250 ms doubling, at most 2 s. */
  readonly backoff?: BackoffPolicy;
}

/**
 * Sends once; on an unknown outcome asks `lookup` (true = the venue has it, false = not yet,
 * undefined = cannot tell) up to `lookups` times. Errors that prove the request was not taken
 * (a venue rejection, 401/429 after retries, a refused connection) are `rejected`.
 */
export async function postResolved<T>(
  send: () => Promise<T>,
  lookup: () => Promise<boolean | undefined>,
  options: ResolveOptions,
): Promise<PostOutcome<T>> {
  let sendError: unknown;
  try {
    return { kind: 'accepted', value: await send() };
  } catch (error) {
    if (!isOutcomeUnknown(error)) {
      if (error instanceof ExchangeError) return { kind: 'rejected', error };
      throw error;
    }
    sendError = error;
  }
  const lookups = options.lookups ?? 3;
  const backoff = options.backoff ?? { baseMs: 250, maxMs: 2_000 };
  for (let attempt = 0; attempt < lookups; attempt++) {
    try {
      if ((await lookup()) === true) return { kind: 'accepted', value: undefined };
    } catch {
      // The look itself failed: try again, then report the original uncertainty.
    }
    if (attempt + 1 < lookups) await sleep(options.clock, backoffDelayMs(attempt, backoff, options.rng));
  }
  return { kind: 'unknown', error: sendError };
}
