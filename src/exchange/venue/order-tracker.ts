/**
 * Our orders' reported state, turned into the engine's {@link OrderReport}s. Execution reports
 * carry cumulative amounts (`acc_base_qty`), so a duplicate or a report that arrives after a
 * newer one is recognised and dropped: a report never moves an order backwards (fewer fills, an
 * earlier status, or out of a final state). REST snapshots of an order go through the same
 * merge, so healing and streaming cannot contradict each other.
 */
import { feltToHex } from '../wire/fields.ts';
import { isTerminalStatus, type MatcherResult, type OrderIntent, type OrderReport, type OrderStatus, type ReportedTrade, type Side } from '../../core/index.ts';
import type { ExecutionReport } from '../stream/messages.ts';
import type { VenueOrder } from '../client/responses.ts';

interface Tracked {
  readonly side: Side;
  readonly priceUnits: bigint;
  readonly qtyUnits: bigint;
  readonly postOnly: boolean | undefined;
  status: OrderStatus;
  filledQtyUnits: bigint;
  filledQuoteUnits: bigint;
  lastSeenMs: number;
  /** When it reached a final state (the book may still show it a moment longer). */
  endedAtMs?: number;
  /** Order of sending (1, 2, …); 0 for orders learnt from the venue (adopted). */
  readonly sentSeq: number;
  /** Cumulative base after each trade already reported (a trade's identity), to drop repeats only. */
  readonly tradeEnds: Set<bigint>;
}

/** Progress rank: a report of lower rank and no more fills is older than what we hold. */
function statusRank(status: OrderStatus): number {
  switch (status) {
    case 'ACC':
      return 0;
    case 'OPEN':
      return 1;
    case 'PARTIALLY_FILLED':
      return 2;
    case 'SCHEDULED_TO_CANCEL':
    case 'REIMBURSE':
      return 3;
    default:
      return 4;
  }
}

/** The order id the engine sees: the order hash as lowercase 0x-hex. */
export function orderIdOf(hash: bigint): string {
  return feltToHex(hash);
}

/**
 * An order id back to its hash; undefined when it is not a felt (then the venue cannot know it).
 */
export function hashOfOrderId(orderId: string): bigint | undefined {
  if (!/^0x[0-9a-fA-F]{1,64}$/.test(orderId)) return undefined;
  return BigInt(orderId);
}

/**
 * How long an order reported finished may still show in the local book: its execution report
 * and the depth delta that removes it travel on different streams, in either order.
 */
const BOOK_LAG_GRACE_MS = 1_000;

/** Tracks our orders and merges reports. */
export class OrderTracker {
  readonly #orders = new Map<string, Tracked>();
  /** Reports dropped as duplicates or out of order (metrics, tests). */
  dropped = 0;
  #sentSeq = 0;

  /** Registers an order before it is sent, so a report that beats the HTTP answer is known. */
  register(orderId: string, intent: OrderIntent, nowMs: number): void {
    if (this.#orders.has(orderId)) return;
    this.#orders.set(orderId, {
      side: intent.side,
      priceUnits: intent.priceUnits,
      qtyUnits: intent.qtyUnits,
      postOnly: intent.postOnly,
      status: 'ACC',
      filledQtyUnits: 0n,
      filledQuoteUnits: 0n,
      lastSeenMs: nowMs,
      sentSeq: ++this.#sentSeq,
      tradeEnds: new Set(),
    });
  }

  /** A mark of "now" in sending order, for {@link sentAfter}. */
  sendMark(): number {
    return this.#sentSeq;
  }

  /**
   * True when we sent this order after `mark`: a cancel-all sent at `mark` need not have removed
   * it. Orders we never sent ourselves (adopted, unknown) are never "after".
   */
  sentAfter(orderId: string, mark: number): boolean {
    const tracked = this.#orders.get(orderId);
    return tracked !== undefined && tracked.sentSeq > mark;
  }

  /** True when the order was registered or reported. */
  has(orderId: string): boolean {
    return this.#orders.has(orderId);
  }

  /** The merged report for an execution report, or undefined when it brings nothing new. */
  onExecution(report: ExecutionReport, nowMs: number): OrderReport | undefined {
    const orderId = orderIdOf(report.orderHash);
    const existing = this.#orders.get(orderId);
    const tracked = existing ?? this.#adopt(orderId, report.isSellSide ? 'sell' : 'buy', report.fillPrice, report.accBaseQty, undefined, nowMs);
    const hasFill = report.fillBaseQty > 0n;
    // A trade not seen before is news even when the report is older than what we hold (reports
    // reordered): the engine charges fees per trade, as the venue does.
    const isNewTrade = hasFill && !tracked.tradeEnds.has(report.accBaseQty);
    if (isNewTrade) tracked.tradeEnds.add(report.accBaseQty);
    if (!this.#advance(tracked, existing === undefined, report.status, report.accBaseQty, report.accQuoteQty, nowMs) && !isNewTrade) return undefined;
    return this.#report(orderId, tracked, {
      lastFillPriceUnits: hasFill ? report.fillPrice : undefined,
      lastFillIsMaker: hasFill ? isMaker(tracked) : undefined,
      matcherResult: report.matcherResult,
      timeMs: report.receivedMs,
      ...(hasFill
        ? { lastTrade: { qtyUnits: report.fillBaseQty, quoteUnits: report.fillQuoteQty, cumulativeQtyUnits: report.accBaseQty, cumulativeQuoteUnits: report.accQuoteQty } }
        : {}),
    });
  }

  /**
   * The merged report for an order read over REST (matched = filled − failed, REFERENCE §1.3).
   * Always returns a report (healing wants the current state even when nothing changed).
   */
  onVenueOrder(orderId: string, order: VenueOrder, nowMs: number): OrderReport {
    const existing = this.#orders.get(orderId);
    const tracked = existing ?? this.#adopt(orderId, order.isSellSide ? 'sell' : 'buy', order.price, order.baseQty, order.postOnly, nowMs);
    this.#advance(tracked, existing === undefined, order.status, order.filledBase - order.failedBase, order.filledQuote - order.failedQuote, nowMs);
    return this.#report(orderId, tracked, { lastFillPriceUnits: undefined, lastFillIsMaker: undefined, matcherResult: undefined, timeMs: nowMs });
  }

  /** Forgets final orders not seen for `retentionMs` (late duplicates of older ones are then new). */
  prune(nowMs: number, retentionMs: number): void {
    for (const [orderId, tracked] of this.#orders) {
      if (isTerminalStatus(tracked.status) && nowMs - tracked.lastSeenMs > retentionMs) this.#orders.delete(orderId);
    }
  }

  /** Forgets an order that was never accepted (a rejected placement). */
  forget(orderId: string): void {
    this.#orders.delete(orderId);
  }

  /**
   * Remaining size of our orders that are or may be resting at this price on this side (sent,
   * open, partly filled, being cancelled): what the feed must not count as someone else's liquidity.
   */
  restingQty(side: Side, priceUnits: bigint, nowMs: number): bigint {
    let total = 0n;
    for (const tracked of this.#orders.values()) {
      if (tracked.side !== side || tracked.priceUnits !== priceUnits) continue;
      // Sent but not yet reported open, being cancelled, or just reported gone while the depth
      // stream has yet to remove it, it may (still) rest in the book: left in, our own quote
      // would move "the market's" top and the bot would chase itself.
      const mayRest = !isTerminalStatus(tracked.status) || (tracked.endedAtMs !== undefined && nowMs - tracked.endedAtMs < BOOK_LAG_GRACE_MS);
      if (mayRest) total += tracked.qtyUnits - tracked.filledQtyUnits;
    }
    return total;
  }

  size(): number {
    return this.#orders.size;
  }

  #adopt(orderId: string, side: Side, priceUnits: bigint, qtyUnits: bigint, postOnly: boolean | undefined, nowMs: number): Tracked {
    const tracked: Tracked = { side, priceUnits, qtyUnits, postOnly, status: 'ACC', filledQtyUnits: 0n, filledQuoteUnits: 0n, lastSeenMs: nowMs, sentSeq: 0, tradeEnds: new Set() };
    this.#orders.set(orderId, tracked);
    return tracked;
  }

  /** Merges a reported state; false when it is a duplicate or older than what we hold. */
  #advance(tracked: Tracked, isNew: boolean, status: OrderStatus, filledQty: bigint, filledQuote: bigint, nowMs: number): boolean {
    tracked.lastSeenMs = nowMs;
    if (isTerminalStatus(status) && tracked.endedAtMs === undefined) tracked.endedAtMs = nowMs;
    if (isNew) {
      tracked.status = status;
      tracked.filledQtyUnits = filledQty;
      tracked.filledQuoteUnits = filledQuote;
      return true;
    }
    const moreFilled = filledQty > tracked.filledQtyUnits;
    const later = statusRank(status) > statusRank(tracked.status);
    // A final state is final: only a fill we had not counted can still be learnt.
    if ((isTerminalStatus(tracked.status) && !moreFilled) || (!moreFilled && !later)) {
      this.dropped++;
      return false;
    }
    if (moreFilled) {
      tracked.filledQtyUnits = filledQty;
      if (filledQuote > tracked.filledQuoteUnits) tracked.filledQuoteUnits = filledQuote;
    }
    if (later && !isTerminalStatus(tracked.status)) tracked.status = status;
    return true;
  }

  #report(
    orderId: string,
    tracked: Tracked,
    extra: { lastFillPriceUnits: bigint | undefined; lastFillIsMaker: boolean | undefined; matcherResult: MatcherResult | undefined; timeMs: number; lastTrade?: ReportedTrade },
  ): OrderReport {
    return {
      orderId,
      status: tracked.status,
      side: tracked.side,
      priceUnits: tracked.priceUnits,
      qtyUnits: tracked.qtyUnits,
      filledQtyUnits: tracked.filledQtyUnits,
      filledQuoteUnits: tracked.filledQuoteUnits,
      ...extra,
    };
  }
}

/** A post-only order is always the maker; for others the venue's report does not say. */
function isMaker(tracked: Tracked): boolean | undefined {
  return tracked.postOnly === true ? true : undefined;
}
