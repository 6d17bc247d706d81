/**
 * Trades per second on each aggressor side over a sliding window, for `MarketView.tradeRate`.
 * A sliding window (not an exponential one) so the figure reads plainly: "trades in the last
 * `windowMs`, per second". Until a full window has passed the count is still divided by the whole
 * window, so early rates read low rather than jumpy. Stateful but free of I/O: every call carries
 * its event time; times are expected in order, and an earlier time is treated as the latest seen.
 */
import type { Side } from '../../src/core/index.ts';

/** Options of `TradeRateEstimator`. */
export interface TradeRateOptions {
  /** Window length, ms. Default 60 000. */
  readonly windowMs?: number;
}

/** Trades per second by aggressor side. */
export interface TradeRates {
  readonly buy: number;
  readonly sell: number;
}

/** Timestamps in a queue that drops from the front without shifting the array each time. */
class TimeQueue {
  private times: number[] = [];
  private head = 0;

  push(timeMs: number): void {
    this.times.push(timeMs);
  }

  /** Drops times ≤ cutoff; returns how many remain. */
  countAfter(cutoffMs: number): number {
    while (this.head < this.times.length && (this.times[this.head] as number) <= cutoffMs) this.head++;
    if (this.head > 1024 && this.head * 2 > this.times.length) {
      this.times = this.times.slice(this.head);
      this.head = 0;
    }
    return this.times.length - this.head;
  }
}

/** Sliding-window trade counter per aggressor side. */
export class TradeRateEstimator {
  private readonly windowMs: number;
  private readonly buys = new TimeQueue();
  private readonly sells = new TimeQueue();
  private latestMs = Number.NEGATIVE_INFINITY;

  /** @throws RangeError for a non-positive window. */
  constructor(options: TradeRateOptions = {}) {
    this.windowMs = options.windowMs ?? 60_000;
    if (!(this.windowMs > 0)) throw new RangeError(`windowMs must be > 0, got ${this.windowMs}`);
  }

  /** Records one trade by its aggressor (taker) side at `timeMs`. */
  onTrade(timeMs: number, aggressor: Side): void {
    if (!Number.isFinite(timeMs)) return;
    this.latestMs = Math.max(this.latestMs, timeMs);
    (aggressor === 'buy' ? this.buys : this.sells).push(this.latestMs);
  }

  /** Trades per second in the window (timeMs − windowMs, timeMs]. */
  rates(timeMs: number): TradeRates {
    const cutoffMs = timeMs - this.windowMs;
    const windowS = this.windowMs / 1000;
    return { buy: this.buys.countAfter(cutoffMs) / windowS, sell: this.sells.countAfter(cutoffMs) / windowS };
  }
}
