/**
 * The two limits Binance counts on every trading request, shared by the REST API and the
 * WebSocket API as Binance shares them (web-socket-api.md "IP limits": "Weight is accumulated per
 * IP address and is shared by all connections"; "Unfilled Order Count": "maintained per account"):
 * - request weight per minute, reset at each minute's start (rest-api.md "LIMITS");
 * - orders per account per 10 seconds (windows starting at 00, 10, 20… s) and per day.
 * Both also print themselves as the WebSocket API's `rateLimits` entries.
 */
import type { Clock } from '../../../core/index.ts';

/** Binance spot's request-weight limit per minute. */
export const WEIGHT_LIMIT_PER_MINUTE = 6_000;

/** The account order limits (rest-api.md: 100 per 10 s, 200 000 per day). */
export interface OrderLimits {
  readonly per10s: number;
  readonly perDay: number;
}

export const DEFAULT_ORDER_LIMITS: OrderLimits = { per10s: 100, perDay: 200_000 };

/** One `rateLimits` entry of a WebSocket API answer (web-socket-api.md "How to interpret rate limits"). */
export interface RateLimitStatus {
  readonly rateLimitType: 'REQUEST_WEIGHT' | 'ORDERS';
  readonly interval: 'SECOND' | 'MINUTE' | 'DAY';
  readonly intervalNum: number;
  readonly limit: number;
  readonly count: number;
}

/** Request weight used in the current minute. */
export class WeightMeter {
  readonly #clock: Clock;
  readonly limit: number;
  #minute = -1;
  #used = 0;

  constructor(clock: Clock, limit = WEIGHT_LIMIT_PER_MINUTE) {
    this.#clock = clock;
    this.limit = limit;
  }

  /** Weight used this minute. */
  used(): number {
    this.#roll();
    return this.#used;
  }

  /** Adds `weight` unless it would pass the limit; false (nothing added) when it would. */
  tryUse(weight: number): boolean {
    this.#roll();
    if (this.#used + weight > this.limit) return false;
    this.#used += weight;
    return true;
  }

  /** Seconds until the minute ends (a 429's `Retry-After`). */
  retryAfterS(): number {
    const now = this.#clock.nowMs();
    return Math.max(1, Math.ceil(((Math.floor(now / 60_000) + 1) * 60_000 - now) / 1000));
  }

  /** The `REQUEST_WEIGHT` entry. */
  status(): RateLimitStatus {
    return { rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', intervalNum: 1, limit: this.limit, count: this.used() };
  }

  #roll(): void {
    const minute = Math.floor(this.#clock.nowMs() / 60_000);
    if (minute === this.#minute) return;
    this.#minute = minute;
    this.#used = 0;
  }
}

/** Orders placed per account in the current 10-second window and the last day. */
export interface OrderCounts {
  readonly tenSeconds: number;
  readonly day: number;
  /** Seconds until the 10-second window ends. */
  readonly retryAfterS: number;
}

/** The ORDERS limits per account. */
export class OrderCounter {
  readonly #clock: Clock;
  readonly limits: OrderLimits;
  readonly #placedAt = new Map<string, number[]>();

  constructor(clock: Clock, limits: OrderLimits = DEFAULT_ORDER_LIMITS) {
    this.#clock = clock;
    this.limits = limits;
  }

  /** The account's counts now; `add` counts one more order first. */
  counts(apiKey: string, add = false): OrderCounts {
    const now = this.#clock.nowMs();
    const list = (this.#placedAt.get(apiKey) ?? []).filter((at) => at > now - 86_400_000);
    if (add) list.push(now);
    this.#placedAt.set(apiKey, list);
    const windowStart = Math.floor(now / 10_000) * 10_000;
    return { tenSeconds: list.filter((at) => at >= windowStart).length, day: list.length, retryAfterS: Math.max(1, Math.ceil((windowStart + 10_000 - now) / 1000)) };
  }

  /** The `ORDERS` entries for `counts`. */
  status(counts: OrderCounts): RateLimitStatus[] {
    return [
      { rateLimitType: 'ORDERS', interval: 'SECOND', intervalNum: 10, limit: this.limits.per10s, count: counts.tenSeconds },
      { rateLimitType: 'ORDERS', interval: 'DAY', intervalNum: 1, limit: this.limits.perDay, count: counts.day },
    ];
  }
}
