/**
 * A price-level (L2) order book in integer ticks and integer lots, held as `number`s: exact as
 * long as they stay below 2^53, and much faster than bigint in replay loops. Conversion to and
 * from base units is the caller's (see `rules.ts`). Each side keeps its prices sorted with the
 * best price LAST, so the common updates near the touch splice near the end of the array.
 */
import type { Side } from './types.ts';

/** One aggregated price level. */
export interface BookLevel {
  readonly priceTicks: number;
  readonly qtyLots: number;
}

/** Best bid and ask; a side is `undefined` when empty. */
export interface TopOfBook {
  readonly bid: BookLevel | undefined;
  readonly ask: BookLevel | undefined;
}

class BookSide {
  /** Prices sorted so the best is last: bids ascending, asks descending. */
  private readonly prices: number[] = [];
  private readonly sizes = new Map<number, number>();

  constructor(private readonly isBid: boolean) {}

  /** Sets the absolute size at a price; 0 removes the level. */
  set(priceTicks: number, qtyLots: number): void {
    if (qtyLots <= 0) {
      if (this.sizes.delete(priceTicks)) {
        const index = this.indexOf(priceTicks);
        this.prices.splice(index, 1);
      }
      return;
    }
    if (!this.sizes.has(priceTicks)) {
      this.prices.splice(this.insertionIndex(priceTicks), 0, priceTicks);
    }
    this.sizes.set(priceTicks, qtyLots);
  }

  size(priceTicks: number): number {
    return this.sizes.get(priceTicks) ?? 0;
  }

  best(): BookLevel | undefined {
    const priceTicks = this.prices[this.prices.length - 1];
    if (priceTicks === undefined) return undefined;
    return { priceTicks, qtyLots: this.sizes.get(priceTicks) ?? 0 };
  }

  bestPrice(): number | undefined {
    return this.prices[this.prices.length - 1];
  }

  /** Up to `count` levels, best first (all when count < 0). */
  levels(count: number): BookLevel[] {
    const result: BookLevel[] = [];
    const last = this.prices.length - 1;
    const stop = count < 0 ? -1 : Math.max(-1, last - count);
    for (let i = last; i > stop; i--) {
      const priceTicks = this.prices[i] as number;
      result.push({ priceTicks, qtyLots: this.sizes.get(priceTicks) ?? 0 });
    }
    return result;
  }

  depth(): number {
    return this.prices.length;
  }

  clear(): void {
    this.prices.length = 0;
    this.sizes.clear();
  }

  /** Is `a` a worse price than `b` on this side (sorted earlier)? */
  private worse(a: number, b: number): boolean {
    return this.isBid ? a < b : a > b;
  }

  private insertionIndex(priceTicks: number): number {
    let low = 0;
    let high = this.prices.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.worse(this.prices[mid] as number, priceTicks)) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  private indexOf(priceTicks: number): number {
    return this.insertionIndex(priceTicks);
  }
}

/** An L2 book: absolute sizes per price level on each side. */
export class OrderBook {
  private readonly bids = new BookSide(true);
  private readonly asks = new BookSide(false);

  /** Sets the absolute size of a level (0 deletes it). */
  setLevel(side: Side, priceTicks: number, qtyLots: number): void {
    (side === 'buy' ? this.bids : this.asks).set(priceTicks, qtyLots);
  }

  /** Size at a price on a side (0 when absent). */
  sizeAt(side: Side, priceTicks: number): number {
    return (side === 'buy' ? this.bids : this.asks).size(priceTicks);
  }

  bestBid(): BookLevel | undefined {
    return this.bids.best();
  }

  bestAsk(): BookLevel | undefined {
    return this.asks.best();
  }

  bestBidPrice(): number | undefined {
    return this.bids.bestPrice();
  }

  bestAskPrice(): number | undefined {
    return this.asks.bestPrice();
  }

  top(): TopOfBook {
    return { bid: this.bids.best(), ask: this.asks.best() };
  }

  /** Up to `count` levels of a side, best first; a negative count returns all. */
  levels(side: Side, count: number): BookLevel[] {
    return (side === 'buy' ? this.bids : this.asks).levels(count);
  }

  /** Number of price levels on a side. */
  depth(side: Side): number {
    return (side === 'buy' ? this.bids : this.asks).depth();
  }

  /** True when the best bid is at or above the best ask (a broken feed or a race). */
  isCrossed(): boolean {
    const bid = this.bids.bestPrice();
    const ask = this.asks.bestPrice();
    return bid !== undefined && ask !== undefined && bid >= ask;
  }

  clear(): void {
    this.bids.clear();
    this.asks.clear();
  }

  /** Replaces the whole book with these levels. */
  reset(bids: readonly BookLevel[], asks: readonly BookLevel[]): void {
    this.clear();
    for (const level of bids) this.bids.set(level.priceTicks, level.qtyLots);
    for (const level of asks) this.asks.set(level.priceTicks, level.qtyLots);
  }
}
