/**
 * The hedger's failure policy: failures in a row, the retry they wait for, and when they become a
 * halt. A failure schedules a retry after a backoff (250 ms doubling to 10 s, at least the
 * venue's `Retry-After`); one past `maxRetries` in a row is a halt; any success clears the streak.
 */
import type { Clock, Timer } from '../../core/index.ts';

const RETRY_BASE_MS = 250;
const RETRY_MAX_MS = 10_000;

/** How the hedger stands. */
export type HedgeHealth = 'ok' | 'failing' | 'halted';

/** What a failure led to. */
export type FailureOutcome = { readonly kind: 'retry'; readonly delayMs: number; readonly attempt: number } | { readonly kind: 'halt'; readonly attempts: number };

/** Failures in a row and the retry they wait for. */
export class HedgeFailures {
  private streak = 0;
  private timer: Timer | undefined;
  health: HedgeHealth = 'ok';
  /** The last failure, for the status and /health; undefined while healthy. */
  reason: string | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly maxRetries: number,
  ) {}

  /** True while a retry is scheduled. */
  isWaiting(): boolean {
    return this.timer !== undefined;
  }

  /**
   * Counts a failure. Below the limit, `retry` runs after the backoff; past it, nothing is
   * scheduled and the caller halts.
   */
  failed(reason: string, detail: string, retryAfterMs: number | undefined, retry: () => void): FailureOutcome {
    this.streak++;
    this.reason = `hedge ${reason}: ${detail}`;
    if (this.streak > this.maxRetries) return { kind: 'halt', attempts: this.streak };
    this.health = 'failing';
    const delayMs = Math.max(retryAfterMs ?? 0, Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** (this.streak - 1)));
    this.timer?.cancel();
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      retry();
    }, delayMs);
    return { kind: 'retry', delayMs, attempt: this.streak };
  }

  /** A hedge went through: true when that ended a run of failures. */
  succeeded(): boolean {
    if (this.health !== 'failing') return false;
    this.streak = 0;
    this.health = 'ok';
    this.reason = undefined;
    return true;
  }

  /** Quoting halted for good: no retry any more. */
  halted(message: string): void {
    this.health = 'halted';
    this.reason = message;
    this.cancel();
  }

  cancel(): void {
    this.timer?.cancel();
    this.timer = undefined;
  }
}
