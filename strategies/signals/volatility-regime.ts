/**
 * A short- and a long-horizon volatility of the mid and their ratio, the regime signal: each is
 * the square root of an exponentially weighted rate of squared log returns,
 *
 *   σ_H = √( Σ rⱼ² · 0.5^((t − tⱼ)/H) / (H / ln 2) ),   rⱼ = 10⁴ · ln(midⱼ / midⱼ₋₁)   (bps per √s)
 *
 * and regime = σ_short / σ_long (1 until the long one is known): above 1 the market moves faster
 * than usual. Kept apart from the models' own σ (strategies/estimators/volatility.ts), which
 * prices their spread; this one is a signal with its own keys.
 */
import type { DesiredQuote } from '../../src/core/index.ts';
import { DecayingSum } from './decaying-sum.ts';
import { scaleSizes } from './scale-sizes.ts';

/** The three volatility signals at one moment. */
export interface VolatilityRegimeValue {
  /** σ over the short half-life, bps per √s. */
  readonly shortBps: number;
  /** σ over the long half-life, bps per √s. */
  readonly longBps: number;
  /** shortBps / longBps; 1 while longBps is 0. */
  readonly ratio: number;
}

/** Short and long volatility of the mid, fed with every mid change. */
export class VolatilityRegime {
  private readonly short: DecayingSum;
  private readonly long: DecayingSum;
  private lastMid: number | undefined;
  /** When the first mid came: the weighted sums have been filling since. */
  private firstMs: number | undefined;

  /** @throws RangeError for a half-life that is not a positive number of ms. */
  constructor(shortHalfLifeMs: number, longHalfLifeMs: number) {
    this.short = new DecayingSum(shortHalfLifeMs);
    this.long = new DecayingSum(longHalfLifeMs);
  }

  /** The mid at `timeMs`; undefined (no fair price) breaks the chain of returns. */
  onMid(timeMs: number, mid: number | undefined): void {
    if (mid === undefined || !(mid > 0) || !Number.isFinite(mid)) {
      this.lastMid = undefined;
      return;
    }
    this.firstMs ??= timeMs;
    const last = this.lastMid;
    this.lastMid = mid;
    if (last === undefined || last === mid) return;
    const returnBps = 10_000 * Math.log(mid / last);
    this.short.add(timeMs, returnBps * returnBps);
    this.long.add(timeMs, returnBps * returnBps);
  }

  /**
   * The values at `timeMs`. Each rate is divided by the weight its sum could have gathered since
   * the first mid, 1 − 0.5^(elapsed / H): a sum that began filling a moment ago holds a sliver of
   * what it holds in steady state, so without it the long σ reads far too low while it warms up
   * and the regime reads √(long H / short H) (≈ 5.5 at the default 300 s and 10 s) for the first
   * minutes of every run, in a market moving at its usual pace.
   */
  value(timeMs: number): VolatilityRegimeValue {
    const shortBps = Math.sqrt(this.short.ratePerSecond(timeMs) / this.filled(this.short, timeMs));
    const longBps = Math.sqrt(this.long.ratePerSecond(timeMs) / this.filled(this.long, timeMs));
    return { shortBps, longBps, ratio: longBps > 0 ? shortBps / longBps : 1 };
  }

  /** The share of its steady-state weight `sum` could have gathered by `timeMs`; 1 before any time passed (nothing to correct by then). */
  private filled(sum: DecayingSum, timeMs: number): number {
    const elapsedMs = this.firstMs === undefined ? 0 : timeMs - this.firstMs;
    return elapsedMs > 0 ? 1 - 0.5 ** (elapsedMs / sum.halfLifeMs) : 1;
  }
}

/**
 * The quotes widened by the regime: while it is above 1, each quote's distance from its model's
 * centre (its edge reference, else the fair price) grows by widen × (regime − 1), at most
 * `maxBps` of the fair price: the half-spread of every model follows how fast the market moves
 * now against how fast it usually does, and the model's skew (its centre) is kept. The same
 * quotes when the regime is at or under 1 or `widen` is 0.
 */
export function widenByRegime(quotes: DesiredQuote[], fair: number, regime: number, widen: number, maxBps: number): DesiredQuote[] {
  const factor = regimeWidenFactor(regime, widen);
  if (factor === 0) return quotes;
  const maxOffset = (fair * maxBps) / 10_000;
  return quotes.map((quote) => {
    const centre = quote.reference ?? fair;
    const offset = Math.min(Math.abs(quote.price - centre) * factor, maxOffset);
    if (!(offset > 0)) return quote;
    return { ...quote, price: quote.side === 'buy' ? quote.price - offset : quote.price + offset };
  });
}

/** widen × (regime − 1) while the regime is above 1, else 0 (and 0 for a non-finite regime). */
export function regimeWidenFactor(regime: number, widen: number): number {
  const excess = regime - 1;
  return widen > 0 && excess > 0 && Number.isFinite(excess) ? widen * excess : 0;
}

/** The share of its size every quote keeps at `regime`: 1 / (1 + k × (regime − 1)) while the regime is above 1, else 1. */
export function regimeSizeFactor(regime: number, k: number): number {
  return 1 / (1 + regimeWidenFactor(regime, k));
}

/**
 * The quotes made smaller by the regime: while it is above 1, every size (both sides) is
 * multiplied by 1 / (1 + k × (regime − 1)): a faster market than usual gets less of our
 * inventory at each price. The same quotes when the regime is at or under 1 or `k` is 0.
 */
export function shrinkByRegime(quotes: DesiredQuote[], regime: number, k: number): DesiredQuote[] {
  const factor = regimeSizeFactor(regime, k);
  return scaleSizes(quotes, factor, factor);
}
