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
import { DecayingSum } from './decaying-sum.ts';

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
    const last = this.lastMid;
    this.lastMid = mid;
    if (last === undefined || last === mid) return;
    const returnBps = 10_000 * Math.log(mid / last);
    this.short.add(timeMs, returnBps * returnBps);
    this.long.add(timeMs, returnBps * returnBps);
  }

  /** The values at `timeMs`. */
  value(timeMs: number): VolatilityRegimeValue {
    const shortBps = Math.sqrt(this.short.ratePerSecond(timeMs));
    const longBps = Math.sqrt(this.long.ratePerSecond(timeMs));
    return { shortBps, longBps, ratio: longBps > 0 ? shortBps / longBps : 1 };
  }
}
