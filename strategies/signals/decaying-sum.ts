/**
 * A sum whose terms fade with a half-life: value(t) = Σ xⱼ · 0.5^((t − tⱼ) / H). Divided by
 * H / ln 2 it is an exponentially weighted rate per unit of time, which is what the trade-flow and
 * volatility signals need: a burst counts at once, a quiet spell lets it fade, with no window edge
 * where a term falls out all at once.
 */

/** One faded sum; times in ms, never going back (an older time counts as the last one). */
export class DecayingSum {
  private sum = 0;
  private atMs: number | undefined;

  /**
   * @param halfLifeMs the half-life H, ms (> 0).
   * @throws RangeError when the half-life is not a positive finite number.
   */
  constructor(readonly halfLifeMs: number) {
    if (!(halfLifeMs > 0) || !Number.isFinite(halfLifeMs)) throw new RangeError(`halfLifeMs must be a positive number of ms, got ${halfLifeMs}`);
  }

  /** Adds `x` at `timeMs`. */
  add(timeMs: number, x: number): void {
    this.sum = this.value(timeMs) + x;
    this.atMs = Math.max(timeMs, this.atMs ?? timeMs);
  }

  /** The sum as seen at `timeMs` (faded since the last term). */
  value(timeMs: number): number {
    if (this.atMs === undefined) return 0;
    const elapsedMs = timeMs - this.atMs;
    return elapsedMs > 0 ? this.sum * 0.5 ** (elapsedMs / this.halfLifeMs) : this.sum;
  }

  /** The sum as a rate per second: value / (H / ln 2), H in seconds. */
  ratePerSecond(timeMs: number): number {
    return (this.value(timeMs) * Math.LN2 * 1000) / this.halfLifeMs;
  }
}
