/**
 * Signed trade flow from the public trade stream: the exponentially weighted rate of buy minus
 * sell volume (half-life H), over the weighted rate of all volume with a ten times longer
 * half-life:
 *
 *   flow = rate_H(buy volume − sell volume) / rate_10H(buy volume + sell volume)
 *
 * Dividing by the long rate, not the short one, keeps a quiet spell near 0 (a lone small trade
 * is no "100 % buying") and lets a burst on one side read above 1. 0 before any trade.
 */
import type { Side } from '../../src/core/index.ts';
import { DecayingSum } from './decaying-sum.ts';

/** How much longer the normalising half-life is than the flow's own. */
const LONG_HALF_LIVES = 10;

/** Signed trade flow, a dimensionless ratio of rates. */
export class TradeFlow {
  private readonly signed: DecayingSum;
  private readonly total: DecayingSum;

  /** @throws RangeError for a half-life that is not a positive number of ms. */
  constructor(halfLifeMs: number) {
    this.signed = new DecayingSum(halfLifeMs);
    this.total = new DecayingSum(halfLifeMs * LONG_HALF_LIVES);
  }

  /** A trade of `size` base tokens whose aggressor (taker) was on `aggressor`'s side. */
  onTrade(timeMs: number, size: number, aggressor: Side): void {
    if (!(size > 0) || !Number.isFinite(size)) return;
    this.signed.add(timeMs, aggressor === 'buy' ? size : -size);
    this.total.add(timeMs, size);
  }

  /** The flow at `timeMs`. */
  value(timeMs: number): number {
    const total = this.total.ratePerSecond(timeMs);
    return total > 0 ? this.signed.ratePerSecond(timeMs) / total : 0;
  }
}
