/**
 * Order-flow imbalance from top-of-book updates (Cont, Kukanov & Stoikov 2014, "The price impact
 * of order book events"). Each update n of the best bid/ask contributes
 *
 *   eₙ = qᵇₙ·1{Pᵇₙ ≥ Pᵇₙ₋₁} − qᵇₙ₋₁·1{Pᵇₙ ≤ Pᵇₙ₋₁} − qᵃₙ·1{Pᵃₙ ≤ Pᵃₙ₋₁} + qᵃₙ₋₁·1{Pᵃₙ ≥ Pᵃₙ₋₁}
 *
 * (size added at or above the bid and size removed at or below the ask push the price up). The
 * signal is Σ eₙ over the last `windowMs`, divided by the mean touch depth (qᵇ + qᵃ)/2 of the
 * updates in that window: CKS find the price change ≈ OFI / depth, so the ratio is a number of
 * "touches' worth" of net pressure, comparable across instruments and sizes.
 */

/** The best bid and ask with their sizes (price in quote tokens, size in base tokens). */
export interface SignalTop {
  readonly bidPrice: number;
  readonly bidSize: number;
  readonly askPrice: number;
  readonly askSize: number;
}

/** One top-of-book update's contribution eₙ, given the previous top. */
export function orderFlowContribution(previous: SignalTop, next: SignalTop): number {
  let e = 0;
  if (next.bidPrice >= previous.bidPrice) e += next.bidSize;
  if (next.bidPrice <= previous.bidPrice) e -= previous.bidSize;
  if (next.askPrice <= previous.askPrice) e -= next.askSize;
  if (next.askPrice >= previous.askPrice) e += previous.askSize;
  return e;
}

/** OFI over a sliding window of time, normalised by the window's mean touch depth. */
export class OrderFlowImbalance {
  private previous: SignalTop | undefined;
  /** Updates inside the window, oldest first from `head` (a queue without shifting). */
  private times: number[] = [];
  private contributions: number[] = [];
  private depths: number[] = [];
  private head = 0;
  private sumContribution = 0;
  private sumDepth = 0;

  /**
   * @param windowMs how far back updates count, ms (> 0).
   * @throws RangeError for a window that is not a positive number of ms.
   */
  constructor(readonly windowMs: number) {
    if (!(windowMs > 0) || !Number.isFinite(windowMs)) throw new RangeError(`windowMs must be a positive number of ms, got ${windowMs}`);
  }

  /** A new top of book at `timeMs` (both sides present, not crossed; others are skipped and break the chain). */
  onTop(timeMs: number, top: SignalTop): void {
    if (!(top.bidPrice > 0 && top.askPrice > top.bidPrice && Number.isFinite(top.askPrice))) {
      this.previous = undefined;
      return;
    }
    const previous = this.previous;
    this.previous = top;
    if (previous === undefined) return;
    const e = orderFlowContribution(previous, top);
    const depth = (top.bidSize + top.askSize) / 2;
    if (!Number.isFinite(e) || !Number.isFinite(depth)) return;
    this.times.push(timeMs);
    this.contributions.push(e);
    this.depths.push(depth);
    this.sumContribution += e;
    this.sumDepth += depth;
    this.prune(timeMs);
  }

  /** Σ eₙ over the window ending at `timeMs`, in base tokens (not normalised). */
  sum(timeMs: number): number {
    this.prune(timeMs);
    return this.count() === 0 ? 0 : this.sumContribution;
  }

  /** Σ eₙ / mean touch depth over the window ending at `timeMs`; 0 with no update in it. */
  value(timeMs: number): number {
    this.prune(timeMs);
    const count = this.count();
    if (count === 0) return 0;
    const meanDepth = this.sumDepth / count;
    return meanDepth > 0 ? this.sumContribution / meanDepth : 0;
  }

  private count(): number {
    return this.times.length - this.head;
  }

  private prune(timeMs: number): void {
    const since = timeMs - this.windowMs;
    while (this.head < this.times.length && (this.times[this.head] as number) <= since) {
      this.sumContribution -= this.contributions[this.head] as number;
      this.sumDepth -= this.depths[this.head] as number;
      this.head++;
    }
    if (this.head === this.times.length) {
      // Empty: start the sums afresh so float drift from adding and removing never accumulates.
      this.times = [];
      this.contributions = [];
      this.depths = [];
      this.head = 0;
      this.sumContribution = 0;
      this.sumDepth = 0;
    } else if (this.head > 1024 && this.head * 2 > this.times.length) {
      this.times = this.times.slice(this.head);
      this.contributions = this.contributions.slice(this.head);
      this.depths = this.depths.slice(this.head);
      this.head = 0;
    }
  }
}
