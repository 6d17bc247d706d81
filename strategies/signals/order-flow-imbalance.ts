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
  return contribution(previous.bidPrice, previous.bidSize, previous.askPrice, previous.askSize, next.bidPrice, next.bidSize, next.askPrice, next.askSize);
}

/** eₙ from the two tops' numbers (the stage's per-update path keeps numbers, not objects). */
function contribution(bidPrice0: number, bidSize0: number, askPrice0: number, askSize0: number, bidPrice: number, bidSize: number, askPrice: number, askSize: number): number {
  let e = 0;
  if (bidPrice >= bidPrice0) e += bidSize;
  if (bidPrice <= bidPrice0) e -= bidSize0;
  if (askPrice <= askPrice0) e -= askSize;
  if (askPrice >= askPrice0) e += askSize0;
  return e;
}

/** OFI over a sliding window of time, normalised by the window's mean touch depth. */
export class OrderFlowImbalance {
  /** The previous usable top as numbers (fed once per book update: no object kept per update). */
  private hasPrevious = false;
  private bidPrice = 0;
  private bidSize = 0;
  private askPrice = 0;
  private askSize = 0;
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
    this.onTopLevels(timeMs, top.bidPrice, top.bidSize, top.askPrice, top.askSize);
  }

  /** `onTop` with the top's numbers. */
  onTopLevels(timeMs: number, bidPrice: number, bidSize: number, askPrice: number, askSize: number): void {
    if (!(bidPrice > 0 && askPrice > bidPrice && Number.isFinite(askPrice))) {
      this.hasPrevious = false;
      return;
    }
    const hadPrevious = this.hasPrevious;
    const e = hadPrevious ? contribution(this.bidPrice, this.bidSize, this.askPrice, this.askSize, bidPrice, bidSize, askPrice, askSize) : 0;
    this.hasPrevious = true;
    this.bidPrice = bidPrice;
    this.bidSize = bidSize;
    this.askPrice = askPrice;
    this.askSize = askSize;
    if (!hadPrevious) return;
    const depth = (bidSize + askSize) / 2;
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
