/**
 * The replay's L2 book: `OrderBook`'s answers (sizes by integer tick, best prices, levels best
 * first) from flat arrays indexed by tick. A replay applies a level update per recorded event, and
 * a hash map plus a sorted price list cost more than the rest of the event; here an update is an
 * array write and a best-price check. Each side's array spans the prices seen so far (growing by
 * doubling, so memory follows the price range, not the data size); a recording whose prices span
 * more than `MAX_SPAN_TICKS` moves to the general `OrderBook` for good.
 */
import { OrderBook, type BookLevel, type Side } from '../core/index.ts';

/** Widest tick range kept in arrays: 2^21 ticks, 16 MiB per side. */
const MAX_SPAN_TICKS = 1 << 21;
const INITIAL_SPAN_TICKS = 4096;

/** One side over a tick window; the best price is tracked, and found again by a scan when it empties. */
class TickSide {
  private sizes = new Float64Array(0);
  /** Price of index 0. */
  private low = 0;
  private count = 0;
  /** Best price, meaningful when count > 0. */
  private best = 0;
  /** Indices that may hold a size since the last clear: clearing zeroes only these. */
  private usedFrom = Number.POSITIVE_INFINITY;
  private usedTo = Number.NEGATIVE_INFINITY;

  constructor(private readonly isBid: boolean) {}

  /**
   * Sets a level (0 or less removes it); returns the size it had, or -1 (nothing set) when the
   * price would need too wide a window.
   */
  set(priceTicks: number, qtyLots: number): number {
    let index = priceTicks - this.low;
    if (index < 0 || index >= this.sizes.length) {
      if (qtyLots <= 0) return 0;
      if (!this.cover(priceTicks)) return -1;
      index = priceTicks - this.low;
    }
    const sizes = this.sizes;
    const previous = sizes[index] as number;
    if (qtyLots > 0) {
      sizes[index] = qtyLots;
      if (index < this.usedFrom) this.usedFrom = index;
      if (index > this.usedTo) this.usedTo = index;
      if (previous === 0) {
        if (this.count === 0 || (this.isBid ? priceTicks > this.best : priceTicks < this.best)) this.best = priceTicks;
        this.count++;
      }
    } else if (previous !== 0) {
      sizes[index] = 0;
      this.count--;
      if (priceTicks === this.best && this.count > 0) this.best = this.nextBest(index);
    }
    return previous;
  }

  size(priceTicks: number): number {
    const index = priceTicks - this.low;
    return index >= 0 && index < this.sizes.length ? (this.sizes[index] as number) : 0;
  }

  bestPrice(): number | undefined {
    return this.count > 0 ? this.best : undefined;
  }

  /** Every level, best first. */
  levels(): BookLevel[] {
    const result: BookLevel[] = [];
    const sizes = this.sizes;
    let remaining = this.count;
    const step = this.isBid ? -1 : 1;
    for (let index = this.best - this.low; remaining > 0; index += step) {
      const qtyLots = sizes[index] as number;
      if (qtyLots === 0) continue;
      result.push({ priceTicks: this.low + index, qtyLots });
      remaining--;
    }
    return result;
  }

  clear(): void {
    // A snapshot's deep levels can stretch the window to millions of ticks; zero what was used.
    if (this.usedFrom <= this.usedTo) this.sizes.fill(0, this.usedFrom, this.usedTo + 1);
    this.usedFrom = Number.POSITIVE_INFINITY;
    this.usedTo = Number.NEGATIVE_INFINITY;
    this.count = 0;
  }

  /** The nearest non-empty level behind the removed best (count > 0, so one exists). */
  private nextBest(from: number): number {
    const sizes = this.sizes;
    const step = this.isBid ? -1 : 1;
    let index = from + step;
    while ((sizes[index] as number) === 0) index += step;
    return this.low + index;
  }

  /** Grows the window to include `priceTicks`; false when it would exceed the limit. */
  private cover(priceTicks: number): boolean {
    const length = this.sizes.length;
    if (length === 0) {
      this.sizes = new Float64Array(INITIAL_SPAN_TICKS);
      this.low = priceTicks - INITIAL_SPAN_TICKS / 2;
      return true;
    }
    const high = this.low + length;
    const needLow = Math.min(this.low, priceTicks);
    const needHigh = Math.max(high, priceTicks + 1);
    let span = length;
    while (span < needHigh - needLow) span *= 2;
    if (span > MAX_SPAN_TICKS) return false;
    // Room on both sides after growing, so a drifting price does not regrow at every new tick.
    const newLow = Math.floor((needLow + needHigh - span) / 2);
    const sizes = new Float64Array(span);
    const shift = this.low - newLow;
    sizes.set(this.sizes, shift);
    this.sizes = sizes;
    this.low = newLow;
    this.usedFrom += shift;
    this.usedTo += shift;
    return true;
  }
}

/** An L2 book by integer tick: absolute sizes per level, as recordings give them. */
export class ReplayBook {
  private readonly bids = new TickSide(true);
  private readonly asks = new TickSide(false);
  /** Set once the prices outgrow the arrays: everything is served from here after that. */
  private general: OrderBook | undefined;

  /** Sets the absolute size of a level (0 deletes it). */
  setLevel(side: Side, priceTicks: number, qtyLots: number): void {
    this.replaceLevel(side, priceTicks, qtyLots);
  }

  /**
   * Sets the absolute size of a level (0 deletes it) and returns the size it had: the exchange
   * needs both on every recorded update, and one lookup serves them.
   */
  replaceLevel(side: Side, priceTicks: number, qtyLots: number): number {
    const general = this.general;
    if (general !== undefined) {
      const previous = general.sizeAt(side, priceTicks);
      general.setLevel(side, priceTicks, qtyLots);
      return previous;
    }
    const previous = (side === 'buy' ? this.bids : this.asks).set(priceTicks, qtyLots);
    if (previous >= 0) return previous;
    const outgrown = new OrderBook();
    outgrown.reset(this.bids.levels(), this.asks.levels());
    const before = outgrown.sizeAt(side, priceTicks);
    outgrown.setLevel(side, priceTicks, qtyLots);
    this.general = outgrown;
    return before;
  }

  /** Size at a price on a side (0 when absent). */
  sizeAt(side: Side, priceTicks: number): number {
    if (this.general !== undefined) return this.general.sizeAt(side, priceTicks);
    return (side === 'buy' ? this.bids : this.asks).size(priceTicks);
  }

  bestBidPrice(): number | undefined {
    return this.general !== undefined ? this.general.bestBidPrice() : this.bids.bestPrice();
  }

  bestAskPrice(): number | undefined {
    return this.general !== undefined ? this.general.bestAskPrice() : this.asks.bestPrice();
  }

  /** Every level of a side, best first. */
  levels(side: Side): BookLevel[] {
    if (this.general !== undefined) return this.general.levels(side, -1);
    return (side === 'buy' ? this.bids : this.asks).levels();
  }

  clear(): void {
    this.general?.clear();
    this.bids.clear();
    this.asks.clear();
  }
}
