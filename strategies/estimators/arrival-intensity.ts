/**
 * Fits the order-arrival intensity λ(δ) = A·e^(−kδ) from public trades, for
 * `MarketView.arrival` (A per second, k per bp of the mid).
 *
 * Method (hftbacktest's GLFT notebook, MM-NOTES §3.3): for each trade, its depth δ is the distance
 * of the trade price from the mid just before it, on the aggressor's side, in bps of that mid. A
 * resting quote at distance δ from the mid would have been filled by every trade that went
 * strictly beyond it, so on a grid δⱼ = (j + ½)·bucketWidthBps, λ(δⱼ) = (number of trades deeper
 * than δⱼ in the window) / (window seconds). Then ln λ = ln A − k·δ is a straight line, fitted by
 * least squares.
 * Differences from the notebook, and why:
 * - depths and the grid are in bps of the mid, not in ticks: the notebook's half-tick grid reaches
 *   1.1 bp deep on ETHUSDT (tick 0.01 at 2,700) and 0.05 bp on BTCUSDT (tick 0.01 at 60,000), so a
 *   grid, a k and the keys tuned on one instrument meant something else on the other; in bps they
 *   mean the same on both;
 * - trades of one aggressor at one timestamp are one arrival at their deepest price (a sweep that
 *   prints several levels fills a resting quote once, not once per print); the notebook gets the
 *   same effect by keeping the deepest trade per 100 ms step;
 * - the regression is weighted by each point's count: a Poisson count N has Var(ln N) ≈ 1/N, so
 *   deep, sparse points would otherwise dominate the slope;
 * - the grid stops at the first point with fewer than `minPointCount` arrivals (ln 0 is −∞).
 * Degenerate fits (no decay across the grid, k ≤ 0, non-finite A or k, too few points or
 * arrivals) give `undefined`, and
 * strategies fall back to their configured A and k. Stateful but free of I/O: every call carries
 * its event time. A trade with a negative depth (it printed through a stale mid) is skipped, as
 * in the notebook.
 */
import type { ArrivalIntensity, Side } from '../../src/core/index.ts';

/** Options of `ArrivalIntensityEstimator`. */
export interface ArrivalIntensityOptions {
  /** Grid step of δ, bps of the mid (`ARRIVAL_GRID_STEP_BPS`). Required. */
  readonly bucketWidthBps: number;
  /** Window of trades used by a fit, ms. Default 600 000 (10 min, as the notebook). */
  readonly windowMs?: number;
  /** Grid points at most (`ARRIVAL_GRID_POINTS`). Default 60. */
  readonly maxBuckets?: number;
  /** Arrivals in the window needed before fitting. Default 30. */
  readonly minArrivals?: number;
  /** Grid points (with enough arrivals) needed for a fit. Default 3. */
  readonly minPoints?: number;
  /** A grid point needs at least this many deeper arrivals to be used. Default 5. */
  readonly minPointCount?: number;
  /** A fit is reused for this long before refitting, ms. Default 5 000 (as the notebook). */
  readonly refitIntervalMs?: number;
}

/** A public trade as the estimator needs it. */
export interface ArrivalTrade {
  readonly timeMs: number;
  /** Trade price, quote per base. */
  readonly price: number;
  /** Taker side; undefined when the feed does not say (depth is then |price − mid|). */
  readonly aggressor: Side | undefined;
}

interface Arrival {
  readonly timeMs: number;
  readonly side: Side | undefined;
  /** bps of the mid. */
  depth: number;
  /** Grid points this arrival is deeper than, capped at maxBuckets (its slot in `held`). */
  beyond: number;
}

/** Online fit of λ(δ) = A·e^(−kδ). */
export class ArrivalIntensityEstimator {
  private readonly bucketWidthBps: number;
  private readonly windowMs: number;
  private readonly maxBuckets: number;
  private readonly minArrivals: number;
  private readonly minPoints: number;
  private readonly minPointCount: number;
  private readonly refitIntervalMs: number;
  private arrivals: Arrival[] = [];
  private head = 0;
  private firstSeenMs: number | undefined;
  private lastFitMs: number | undefined;
  private lastFit: ArrivalIntensity | undefined;
  private readonly counts: Float64Array;
  /**
   * Arrivals held, by `beyond`, kept as they come and go: a fit then sums 60 slots instead of
   * walking ten minutes of trades. Whole numbers in a Float64Array, so the sums are exact and the
   * fit is the same as counting afresh.
   */
  private readonly held: Float64Array;
  /** Latest arrival time held; a fit at an earlier time must skip the later ones, and counts afresh. */
  private latestArrivalMs = Number.NEGATIVE_INFINITY;

  /** @throws RangeError for a non-positive bucket width or window, or counts below 1 (minPoints below 2). */
  constructor(options: ArrivalIntensityOptions) {
    this.bucketWidthBps = options.bucketWidthBps;
    this.windowMs = options.windowMs ?? 600_000;
    this.maxBuckets = options.maxBuckets ?? 60;
    this.minArrivals = options.minArrivals ?? 30;
    this.minPoints = options.minPoints ?? 3;
    this.minPointCount = options.minPointCount ?? 5;
    this.refitIntervalMs = options.refitIntervalMs ?? 5_000;
    if (!(this.bucketWidthBps > 0) || !Number.isFinite(this.bucketWidthBps)) throw new RangeError(`bucketWidthBps must be > 0, got ${this.bucketWidthBps}`);
    if (!(this.windowMs > 0)) throw new RangeError(`windowMs must be > 0, got ${this.windowMs}`);
    if (!(this.maxBuckets >= 2) || !Number.isInteger(this.maxBuckets)) throw new RangeError(`maxBuckets must be an integer ≥ 2, got ${this.maxBuckets}`);
    if (!(this.minPoints >= 2)) throw new RangeError(`minPoints must be ≥ 2, got ${this.minPoints}`);
    if (!(this.minArrivals >= 1) || !(this.minPointCount >= 1)) throw new RangeError('minArrivals and minPointCount must be ≥ 1');
    if (!(this.refitIntervalMs >= 0)) throw new RangeError(`refitIntervalMs must be ≥ 0, got ${this.refitIntervalMs}`);
    this.counts = new Float64Array(this.maxBuckets + 1);
    this.held = new Float64Array(this.maxBuckets + 1);
  }

  /**
   * Records a trade against the mid just before it (undefined mid: the trade only starts the
   * observation clock). Non-finite input, a non-positive mid and negative depths are skipped.
   */
  onTrade(trade: ArrivalTrade, mid: number | undefined): void {
    if (!Number.isFinite(trade.timeMs)) return;
    this.firstSeenMs ??= trade.timeMs;
    if (mid === undefined || !(mid > 0) || !Number.isFinite(mid) || !Number.isFinite(trade.price)) return;
    const distance = trade.aggressor === 'buy' ? trade.price - mid : trade.aggressor === 'sell' ? mid - trade.price : Math.abs(trade.price - mid);
    const depth = (distance / mid) * 10_000;
    if (!(depth >= 0)) return;
    const last = this.arrivals[this.arrivals.length - 1];
    if (last !== undefined && this.arrivals.length > this.head && last.timeMs === trade.timeMs && last.side === trade.aggressor) {
      last.depth = Math.max(last.depth, depth);
      this.held[last.beyond]! -= 1;
      last.beyond = this.beyondOf(last.depth);
      this.held[last.beyond]! += 1;
      return;
    }
    const beyond = this.beyondOf(depth);
    this.held[beyond]! += 1;
    if (trade.timeMs > this.latestArrivalMs) this.latestArrivalMs = trade.timeMs;
    this.arrivals.push({ timeMs: trade.timeMs, side: trade.aggressor, depth, beyond });
  }

  /** Grid points a depth (bps) is beyond (0 when not beyond the first), capped at maxBuckets. */
  private beyondOf(depth: number): number {
    const beyond = Math.ceil(depth / this.bucketWidthBps - 0.5);
    return beyond > 0 ? Math.min(beyond, this.maxBuckets) : 0;
  }

  /** Arrivals currently held (after merging sweeps), including ones a later fit will expire. */
  arrivalCount(): number {
    return this.arrivals.length - this.head;
  }

  /**
   * The fit at `timeMs` over the window ending then, reused for `refitIntervalMs`; undefined until
   * there is enough data or when the fit is degenerate.
   */
  fit(timeMs: number): ArrivalIntensity | undefined {
    if (this.lastFitMs !== undefined && timeMs >= this.lastFitMs && timeMs - this.lastFitMs < this.refitIntervalMs) return this.lastFit;
    this.lastFitMs = timeMs;
    this.lastFit = this.computeFit(timeMs);
    return this.lastFit;
  }

  private computeFit(timeMs: number): ArrivalIntensity | undefined {
    this.expire(timeMs - this.windowMs);
    if (this.firstSeenMs === undefined) return undefined;
    const spanS = Math.min(this.windowMs, timeMs - this.firstSeenMs) / 1000;
    if (!(spanS > 0) || this.arrivalCount() < this.minArrivals) return undefined;

    // counts[n] = arrivals deeper than exactly n grid points; a suffix sum then gives, for each
    // point j, the arrivals deeper than δⱼ.
    const counts = this.counts;
    if (this.latestArrivalMs <= timeMs) {
      counts.set(this.held);
    } else {
      counts.fill(0);
      for (let i = this.head; i < this.arrivals.length; i++) {
        const arrival = this.arrivals[i] as Arrival;
        if (arrival.timeMs <= timeMs) counts[arrival.beyond]! += 1;
      }
    }
    // Slot 0 holds arrivals not beyond the first grid point: they count nowhere.
    counts[0] = 0;
    for (let n = this.maxBuckets - 1; n >= 1; n--) counts[n]! += counts[n + 1]!;

    let sumW = 0;
    let sumWx = 0;
    let sumWy = 0;
    let sumWxx = 0;
    let sumWxy = 0;
    let points = 0;
    for (let j = 0; j < this.maxBuckets; j++) {
      const count = counts[j + 1]!;
      if (count < this.minPointCount) break;
      const x = (j + 0.5) * this.bucketWidthBps;
      const y = Math.log(count / spanS);
      sumW += count;
      sumWx += count * x;
      sumWy += count * y;
      sumWxx += count * x * x;
      sumWxy += count * x * y;
      points++;
    }
    // No decay seen across the grid (e.g. every trade at one depth): k would be rounding noise.
    if (points < this.minPoints || !(counts[1]! > counts[points]!)) return undefined;
    const denominator = sumW * sumWxx - sumWx * sumWx;
    if (!(denominator > 0)) return undefined;
    const slope = (sumW * sumWxy - sumWx * sumWy) / denominator;
    const intercept = (sumWy - slope * sumWx) / sumW;
    const kPerBps = -slope;
    const a = Math.exp(intercept);
    if (!(kPerBps > 0) || !Number.isFinite(kPerBps) || !(a > 0) || !Number.isFinite(a)) return undefined;
    return { a, kPerBps };
  }

  private expire(cutoffMs: number): void {
    while (this.head < this.arrivals.length && (this.arrivals[this.head] as Arrival).timeMs <= cutoffMs) {
      this.held[(this.arrivals[this.head] as Arrival).beyond]! -= 1;
      this.head++;
    }
    if (this.head > 1024 && this.head * 2 > this.arrivals.length) {
      this.arrivals = this.arrivals.slice(this.head);
      this.head = 0;
    }
  }
}
