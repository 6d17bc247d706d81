/**
 * σ of mid changes per √second, in quote price units, for `MarketView.volatility`.
 *
 * Method: the mid is sampled at most once per `sampleIntervalMs` (the first update after the
 * interval has passed closes a sample against the previous sampled mid), and each sample's
 * variance rate (Δmid)²/Δt is averaged with an exponential weight whose decay follows elapsed
 * time: α = 1 − 2^(−Δt/halfLife). Why this mix:
 * - normalising by Δt and decaying by Δt makes the estimate independent of how irregularly
 *   events arrive: for small Δt, α·(Δmid)²/Δt ≈ (ln 2/halfLife)·(Δmid)², so the estimate is the
 *   realised variance per second over roughly the last half-lives, however it was chopped up;
 * - a minimum sampling interval nets the bid/ask bounce of bursts of book updates, which would
 *   otherwise inflate realised variance at high frequency (hummingbot samples each 1 s tick,
 *   hftbacktest each 100 ms step; MM-NOTES §3.3);
 * - a long quiet gap is one sample over the whole gap, which is what a random walk predicts.
 * The weights are bias-corrected (divided by their own running sum) so the first samples are not
 * pulled towards 0. Until `minSamples` samples exist σ is 0, as `MarketView` documents.
 * Stateful but free of I/O: every update carries its event time.
 */

/** Options of `VolatilityEstimator`; every field has a default. */
export interface VolatilityOptions {
  /** Half-life of a sample's weight, ms. Default 120 000 (2 min). */
  readonly halfLifeMs?: number;
  /** Shortest time between two samples, ms. Default 1 000. */
  readonly sampleIntervalMs?: number;
  /** Samples needed before σ is reported (σ = 0 before). Default 10. */
  readonly minSamples?: number;
}

/** Exponentially weighted realised volatility of the mid. */
export class VolatilityEstimator {
  private readonly halfLifeMs: number;
  private readonly sampleIntervalMs: number;
  private readonly minSamples: number;
  private anchorTimeMs: number | undefined;
  private anchorMid = 0;
  private weightedVariance = 0;
  private weight = 0;
  private samples = 0;

  /** @throws RangeError for a non-positive half-life, a negative interval or minSamples < 1. */
  constructor(options: VolatilityOptions = {}) {
    this.halfLifeMs = options.halfLifeMs ?? 120_000;
    this.sampleIntervalMs = options.sampleIntervalMs ?? 1_000;
    this.minSamples = options.minSamples ?? 10;
    if (!(this.halfLifeMs > 0)) throw new RangeError(`halfLifeMs must be > 0, got ${this.halfLifeMs}`);
    if (!(this.sampleIntervalMs >= 0)) throw new RangeError(`sampleIntervalMs must be ≥ 0, got ${this.sampleIntervalMs}`);
    if (!(this.minSamples >= 1)) throw new RangeError(`minSamples must be ≥ 1, got ${this.minSamples}`);
  }

  /**
   * Records the mid at `timeMs`. A missing or non-positive mid (one-sided book) is skipped, as is
   * an update earlier than the last sample; updates inside the sampling interval only move the
   * mid that the next sample will close with.
   */
  update(timeMs: number, mid: number | undefined): void {
    if (mid === undefined || !(mid > 0) || !Number.isFinite(mid) || !Number.isFinite(timeMs)) return;
    if (this.anchorTimeMs === undefined) {
      this.anchorTimeMs = timeMs;
      this.anchorMid = mid;
      return;
    }
    const elapsedMs = timeMs - this.anchorTimeMs;
    if (elapsedMs <= 0 || elapsedMs < this.sampleIntervalMs) return;
    const change = mid - this.anchorMid;
    const varianceRate = (change * change) / (elapsedMs / 1000);
    const alpha = -Math.expm1((-elapsedMs * Math.LN2) / this.halfLifeMs);
    this.weightedVariance += alpha * (varianceRate - this.weightedVariance);
    this.weight += alpha * (1 - this.weight);
    this.samples++;
    this.anchorTimeMs = timeMs;
    this.anchorMid = mid;
  }

  /** σ in quote price units per √second; 0 until `minSamples` samples. */
  value(): number {
    if (this.samples < this.minSamples || !(this.weight > 0)) return 0;
    const sigma = Math.sqrt(this.weightedVariance / this.weight);
    return Number.isFinite(sigma) ? sigma : 0;
  }

  /** Samples taken so far. */
  sampleCount(): number {
    return this.samples;
  }
}
