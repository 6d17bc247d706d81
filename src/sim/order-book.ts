/**
 * One book of one pair: resting orders by price level, each level first-in first-out
 * (price-time priority). Levels are kept sorted best-first so the matcher reads the touch in O(1);
 * books in a simulator are shallow, so splicing arrays beats a tree here.
 */
import type { Side } from '../core/index.ts';
import { availableBase, type SimOrder } from './orders.ts';

/** A price level. */
export interface BookLevel {
  readonly price: bigint;
  readonly orders: SimOrder[];
}

/** Aggregated view of a level: price, total base and order count (REFERENCE §1.2 #5). */
export interface LevelView {
  readonly price: bigint;
  readonly volume: bigint;
  readonly count: number;
}

class BookSide {
  /** Sorted best first: bids descending, asks ascending. */
  readonly levels: BookLevel[] = [];

  constructor(private readonly isBid: boolean) {}

  private better(a: bigint, b: bigint): boolean {
    return this.isBid ? a > b : a < b;
  }

  add(order: SimOrder, price: bigint): void {
    let index = 0;
    while (index < this.levels.length) {
      const level = this.levels[index] as BookLevel;
      if (level.price === price) {
        level.orders.push(order);
        return;
      }
      if (this.better(price, level.price)) break;
      index++;
    }
    this.levels.splice(index, 0, { price, orders: [order] });
  }

  remove(order: SimOrder, price: bigint): boolean {
    const index = this.levels.findIndex((level) => level.price === price);
    if (index < 0) return false;
    const level = this.levels[index] as BookLevel;
    const position = level.orders.indexOf(order);
    if (position < 0) return false;
    level.orders.splice(position, 1);
    if (level.orders.length === 0) this.levels.splice(index, 1);
    return true;
  }

  view(level: BookLevel): LevelView {
    let volume = 0n;
    for (const order of level.orders) volume += availableBase(order, level.price);
    return { price: level.price, volume, count: level.orders.length };
  }
}

/** The two sides of one book. */
export class OrderBook {
  readonly bids = new BookSide(true);
  readonly asks = new BookSide(false);

  side(side: Side): BookSide {
    return side === 'buy' ? this.bids : this.asks;
  }

  /** The side a taker of `side` trades against. */
  opposite(side: Side): BookSide {
    return side === 'buy' ? this.asks : this.bids;
  }

  add(order: SimOrder, price: bigint): void {
    this.side(order.side).add(order, price);
  }

  remove(order: SimOrder): boolean {
    if (order.restingPrice === undefined) return false;
    return this.side(order.side).remove(order, order.restingPrice);
  }

  /** Best level of a side, if any. */
  best(side: Side): BookLevel | undefined {
    return this.side(side).levels[0];
  }

  /** Aggregated levels, best first; `depth` < 0 means all. */
  levels(side: Side, depth: number): LevelView[] {
    const bookSide = this.side(side);
    const levels = depth < 0 ? bookSide.levels : bookSide.levels.slice(0, depth);
    return levels.map((level) => bookSide.view(level));
  }

  /** The aggregated level at a price, or a zero-volume view when it is gone. */
  levelAt(side: Side, price: bigint): LevelView {
    const bookSide = this.side(side);
    const level = bookSide.levels.find((candidate) => candidate.price === price);
    return level === undefined ? { price, volume: 0n, count: 0 } : bookSide.view(level);
  }

  /** Every resting order (both sides). */
  *orders(): IterableIterator<SimOrder> {
    for (const level of this.bids.levels) yield* level.orders;
    for (const level of this.asks.levels) yield* level.orders;
  }
}
