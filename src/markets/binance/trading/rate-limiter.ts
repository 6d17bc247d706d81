/**
 * Keeps the client under the venue's request-weight and order-count limits as `exchangeInfo`
 * states them (rest-api.md "LIMITS"), so it never earns a 429, let alone a 418 ban: every
 * request reserves its weight (and orders) in each fixed window before it leaves, the counts the
 * venue reports in `X-MBX-USED-WEIGHT-*` / `X-MBX-ORDER-COUNT-*` headers (other processes on the
 * same IP or account count too) only ever raise ours, and a 429/418 blocks everything until its
 * `Retry-After` has passed. Windows are fixed intervals of the venue's clock, as Binance counts.
 */
import type { RateLimitRule } from './rules.ts';

/** What a request costs. */
export interface RequestCost {
  readonly weight: number;
  /** Orders it places (counts against ORDERS limits). */
  readonly orders: number;
}

interface Window {
  readonly rule: RateLimitRule;
  startMs: number;
  used: number;
}

/** Share of each limit the client allows itself: the rest is headroom for other clients on the IP. */
const USABLE_SHARE = 0.9;

/** Request-weight and order-count bookkeeping, on the venue's clock. */
export class RateLimiter {
  #windows: Window[] = [];
  #blockedUntilMs = 0;

  /** @param venueNowMs the venue's time (our clock plus the measured offset). */
  constructor(private readonly venueNowMs: () => number) {}

  /** Replaces the limits (from exchangeInfo). */
  setRules(rules: readonly RateLimitRule[]): void {
    this.#windows = rules.filter((rule) => rule.type !== 'RAW_REQUESTS').map((rule) => ({ rule, startMs: 0, used: 0 }));
  }

  /**
   * Reserves `cost` if every window has room: 0. Otherwise nothing is reserved and the result is
   * how long to wait, ms.
   */
  tryAcquire(cost: RequestCost): number {
    const now = this.venueNowMs();
    if (now < this.#blockedUntilMs) return this.#blockedUntilMs - now;
    let waitMs = 0;
    for (const window of this.#windows) {
      this.#roll(window, now);
      const amount = window.rule.type === 'ORDERS' ? cost.orders : cost.weight;
      if (amount <= 0) continue;
      if (window.used + amount > Math.floor(window.rule.limit * USABLE_SHARE)) waitMs = Math.max(waitMs, window.startMs + window.rule.windowMs - now + 1);
    }
    if (waitMs > 0) return waitMs;
    for (const window of this.#windows) window.used += window.rule.type === 'ORDERS' ? cost.orders : cost.weight;
    return 0;
  }

  /** Reads the venue's own counts from response headers (lower-case names). */
  observe(headers: Readonly<Record<string, string | string[] | undefined>>): void {
    const now = this.venueNowMs();
    for (const window of this.#windows) {
      const header = window.rule.header;
      if (header === undefined) continue;
      const raw = headers[header];
      const value = Number(Array.isArray(raw) ? raw[0] : raw);
      if (!Number.isFinite(value)) continue;
      this.#roll(window, now);
      window.used = Math.max(window.used, value);
    }
  }

  /** The venue said 429 or 418: nothing leaves before `retryAfterMs` has passed. */
  blockFor(retryAfterMs: number): void {
    this.#blockedUntilMs = Math.max(this.#blockedUntilMs, this.venueNowMs() + retryAfterMs);
  }

  /** Until when requests wait (venue time), undefined when they do not. */
  blockedUntilMs(): number | undefined {
    return this.#blockedUntilMs > this.venueNowMs() ? this.#blockedUntilMs : undefined;
  }

  /** Used and allowed in the shortest window of each kind, for metrics. */
  usage(): { weightUsed: number; weightLimit: number; ordersUsed: number; ordersLimit: number } {
    const now = this.venueNowMs();
    const usage = { weightUsed: 0, weightLimit: 0, ordersUsed: 0, ordersLimit: 0 };
    const shortest = { REQUEST_WEIGHT: Infinity, ORDERS: Infinity, RAW_REQUESTS: Infinity };
    for (const window of this.#windows) {
      this.#roll(window, now);
      const type = window.rule.type;
      if (window.rule.windowMs >= shortest[type]) continue;
      shortest[type] = window.rule.windowMs;
      if (type === 'REQUEST_WEIGHT') {
        usage.weightUsed = window.used;
        usage.weightLimit = window.rule.limit;
      } else if (type === 'ORDERS') {
        usage.ordersUsed = window.used;
        usage.ordersLimit = window.rule.limit;
      }
    }
    return usage;
  }

  #roll(window: Window, now: number): void {
    const start = Math.floor(now / window.rule.windowMs) * window.rule.windowMs;
    if (start !== window.startMs) {
      window.startMs = start;
      window.used = 0;
    }
  }
}
