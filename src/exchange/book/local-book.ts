/**
 * A local copy of one venue book kept from a REST snapshot plus `snap` deltas (REFERENCE §3.3),
 * in exact integers: prices in quote base units, volumes in base units (bigint, as the wire
 * decimals parse). Deltas carry the NEW ABSOLUTE volume of each level they touch (0 deletes), and
 * the id range `msg_ids_start..msg_ids_end`; a delta that does not follow the last applied id is
 * a gap, and the caller must resync from a fresh snapshot (SPEC §4).
 */
import type { Side } from '../../core/index.ts';

/** One level of the local book. */
export interface BookLevelUnits {
  readonly price: bigint;
  readonly qty: bigint;
  readonly orders: number;
}

/** A delta as the `snap` stream sends it. */
export interface BookDelta {
  readonly bids: readonly BookLevelUnits[];
  readonly asks: readonly BookLevelUnits[];
  readonly msgIdStart: bigint;
  readonly msgIdEnd: bigint;
}

/** What applying a delta did. */
export type DeltaResult =
  /** Applied; the book is current to `msgIdEnd`. */
  | { readonly kind: 'applied' }
  /** Entirely older than the book (a duplicate, or covered by the snapshot): ignored. */
  | { readonly kind: 'stale' }
  /** Ids are missing between the book and this delta: resync from a snapshot. */
  | { readonly kind: 'gap'; readonly expected: bigint; readonly got: bigint }
  /** No snapshot yet: the caller buffers the delta. */
  | { readonly kind: 'unsynced' };

class BookSideLevels {
  readonly #levels = new Map<bigint, BookLevelUnits>();
  /** Prices best first. */
  #sorted: bigint[] = [];
  #dirty = false;

  constructor(private readonly isBid: boolean) {}

  set(level: BookLevelUnits): void {
    if (level.qty <= 0n) {
      if (this.#levels.delete(level.price)) this.#dirty = true;
      return;
    }
    if (!this.#levels.has(level.price)) this.#dirty = true;
    this.#levels.set(level.price, level);
  }

  clear(): void {
    this.#levels.clear();
    this.#sorted = [];
    this.#dirty = false;
  }

  /** Levels best first; sorting is lazy so a burst of updates sorts once. */
  levels(): readonly bigint[] {
    if (this.#dirty) {
      this.#sorted = [...this.#levels.keys()].sort((a, b) => (this.isBid ? compare(b, a) : compare(a, b)));
      this.#dirty = false;
    }
    return this.#sorted;
  }

  get(price: bigint): BookLevelUnits | undefined {
    return this.#levels.get(price);
  }

  best(): BookLevelUnits | undefined {
    const price = this.levels()[0];
    return price === undefined ? undefined : this.#levels.get(price);
  }

  size(): number {
    return this.#levels.size;
  }
}

function compare(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** One book (pair × ecosystem/router) with sequence tracking. */
export class LocalBook {
  readonly #bids = new BookSideLevels(true);
  readonly #asks = new BookSideLevels(false);
  #msgId: bigint | undefined;

  /** Id of the last message the book includes; undefined before the first snapshot. */
  get msgId(): bigint | undefined {
    return this.#msgId;
  }

  /** True once a snapshot was applied. */
  isSynced(): boolean {
    return this.#msgId !== undefined;
  }

  /** Replaces the book with a snapshot current to `msgId`. */
  applySnapshot(bids: readonly BookLevelUnits[], asks: readonly BookLevelUnits[], msgId: bigint): void {
    this.#bids.clear();
    this.#asks.clear();
    for (const level of bids) this.#bids.set(level);
    for (const level of asks) this.#asks.set(level);
    this.#msgId = msgId;
  }

  /**
   * Applies a delta when it continues the book. A delta that overlaps the book (starts at or
   * before the next id but ends after the current one) is applied too: its levels carry absolute
   * volumes as of its end, so re-setting them is exact.
   */
  applyDelta(delta: BookDelta): DeltaResult {
    const current = this.#msgId;
    if (current === undefined) return { kind: 'unsynced' };
    if (delta.msgIdEnd <= current) return { kind: 'stale' };
    if (delta.msgIdStart > current + 1n) return { kind: 'gap', expected: current + 1n, got: delta.msgIdStart };
    for (const level of delta.bids) this.#bids.set(level);
    for (const level of delta.asks) this.#asks.set(level);
    this.#msgId = delta.msgIdEnd;
    return { kind: 'applied' };
  }

  /** Forgets everything (a resync is coming). */
  reset(): void {
    this.#bids.clear();
    this.#asks.clear();
    this.#msgId = undefined;
  }

  bestBid(): BookLevelUnits | undefined {
    return this.#bids.best();
  }

  bestAsk(): BookLevelUnits | undefined {
    return this.#asks.best();
  }

  /** Up to `count` levels of a side, best first (all when omitted). */
  levels(side: Side, count?: number): BookLevelUnits[] {
    const book = side === 'buy' ? this.#bids : this.#asks;
    const prices = book.levels();
    const take = count === undefined || count < 0 ? prices.length : Math.min(count, prices.length);
    const result: BookLevelUnits[] = [];
    for (let i = 0; i < take; i++) {
      const level = book.get(prices[i] as bigint);
      if (level !== undefined) result.push(level);
    }
    return result;
  }

  /** Number of levels on a side. */
  depth(side: Side): number {
    return (side === 'buy' ? this.#bids : this.#asks).size();
  }

  /** True when the best bid is at or above the best ask: the copy is wrong, resync. */
  isCrossed(): boolean {
    const bid = this.#bids.best();
    const ask = this.#asks.best();
    return bid !== undefined && ask !== undefined && bid.price >= ask.price;
  }

  /** Mid price in quote units (rounded down), when both sides exist. */
  midPrice(): bigint | undefined {
    const bid = this.#bids.best();
    const ask = this.#asks.best();
    if (bid === undefined || ask === undefined) return undefined;
    return (bid.price + ask.price) / 2n;
  }
}
