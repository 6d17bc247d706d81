/**
 * The exchange side of a backtest: the replayed L2 book is the market, and our orders sit in
 * virtual queues inside it. Fills come from trades through or at our price (after the quantity
 * ahead of us) and from the book moving through us; nothing we do moves the recorded book (no
 * market impact, as in hftbacktest). Post-only orders that would cross are rejected; other
 * crossing orders take visible liquidity at the recorded levels. Ticks and lots are `number`s
 * here for speed; amounts leave as exact base units.
 */
import type { Side, TickerRules } from '../core/index.ts';
import { OrderTable } from './order-table.ts';
import { ReplayBook } from './replay-book.ts';
import type { QueueModel } from './queue-model.ts';
import { fillQuoteUnits, type FillSink, type ReplayOrder, type ReportSink, type TradeSink, type VenueExchange } from './venue-exchange.ts';

/** Declared with the exchange port (venue-exchange.ts), named here for this module's callers. */
export type { ExchangeReport, FillSink, ReplayOrder, ReportSink } from './venue-exchange.ts';

/** The simulated exchange for one pair over its recorded book. */
export class ReplayExchange implements VenueExchange {
  readonly book = new ReplayBook();
  /** Our orders; the resting ones are read through `restingOn` on every market event. */
  private readonly table = new OrderTable<ReplayOrder>();
  /** Lots traded at each price since that level's last depth update, so a depth drop that a trade already explains is not counted twice. */
  private readonly tradedSinceDepth = new Map<number, number>();

  constructor(
    private readonly rules: TickerRules,
    private readonly queue: QueueModel,
    private readonly report: ReportSink,
    private readonly onFill: FillSink,
    /** Hears every recorded trade once it is applied (the venue publishes it to the engine). */
    private readonly onTrade: TradeSink = () => undefined,
  ) {}

  // ── market data ───────────────────────────────────────────────────────────────────────────

  /** A recorded level update (absolute size). */
  applyDepth(side: Side, priceTicks: number, qtyLots: number): void {
    const previous = this.book.replaceLevel(side, priceTicks, qtyLots);
    const queued = this.restingOn(side);
    if (queued.length > 0) {
      // Usually empty: a depth update at a traded price clears that price's entry.
      const traded = this.tradedSinceDepth.size === 0 ? 0 : (this.tradedSinceDepth.get(priceTicks) ?? 0);
      for (let i = 0; i < queued.length; i++) {
        const order = queued[i] as ReplayOrder;
        if (order.priceTicks === priceTicks) order.front = this.queue.onLevelChange(order.front, previous, qtyLots, traded);
      }
      if (traded !== 0) this.tradedSinceDepth.delete(priceTicks);
    }
  }

  /**
   * Fills our resting orders that the book has moved through. Called once a whole venue message
   * has been applied: in the middle of a message the book can look crossed for a moment.
   */
  settleCrossings(): void {
    this.fillCrossedBy('buy');
    this.fillCrossedBy('sell');
  }

  /** The recorded book is about to be replaced by a snapshot. */
  clearBook(): void {
    this.book.clear();
    this.tradedSinceDepth.clear();
  }

  /** A recorded trade; `aggressor` undefined means unknown (then it fills nobody of ours). Then it is published. */
  applyTrade(aggressor: Side | undefined, priceTicks: number, qtyLots: number): void {
    this.fillFromTrade(aggressor, priceTicks, qtyLots);
    this.onTrade(aggressor, priceTicks, qtyLots);
  }

  private fillFromTrade(aggressor: Side | undefined, priceTicks: number, qtyLots: number): void {
    if (aggressor === undefined) return;
    const hitSide: Side = aggressor === 'sell' ? 'buy' : 'sell';
    const queued = this.restingOn(hitSide);
    if (queued.length === 0) return;
    this.tradedSinceDepth.set(priceTicks, (this.tradedSinceDepth.get(priceTicks) ?? 0) + qtyLots);
    // A fill may take the order out of `queued` (only that order): step past it only when it stayed.
    for (let i = 0; i < queued.length; ) {
      const order = queued[i] as ReplayOrder;
      const through = hitSide === 'buy' ? priceTicks < order.priceTicks : priceTicks > order.priceTicks;
      if (through) {
        this.fill(order, order.qtyLots - order.filledLots, order.priceTicks, true);
      } else if (priceTicks === order.priceTicks) {
        const before = order.front;
        order.front -= qtyLots;
        if (order.front < 0) {
          // Probabilistic queue models leave a fractional front; only whole lots can trade, and
          // rounding down never fills us with more than the trade left over.
          const available = Math.floor(Math.min(qtyLots, -order.front, qtyLots - Math.max(0, before)));
          order.front = 0;
          if (available > 0) this.fill(order, Math.min(available, order.qtyLots - order.filledLots), order.priceTicks, true);
        }
      }
      if (queued[i] === order) i++;
    }
  }

  // ── our orders ────────────────────────────────────────────────────────────────────────────

  /** An order reaches the exchange. */
  submit(orderId: string, side: Side, priceTicks: number, qtyLots: number, postOnly: boolean): void {
    const order: ReplayOrder = { orderId, side, priceTicks, qtyLots, postOnly, filledLots: 0, filledQuoteUnits: 0n, front: 0, status: 'ACC' };
    this.table.add(order);
    const bestOpposite = side === 'buy' ? this.book.bestAskPrice() : this.book.bestBidPrice();
    const crosses = bestOpposite !== undefined && (side === 'buy' ? priceTicks >= bestOpposite : priceTicks <= bestOpposite);
    if (crosses && postOnly) {
      order.status = 'NOT_PROCESSED';
      this.report({ order, lastFillPriceTicks: undefined, lastFillIsMaker: undefined, matcherResult: 'FAILED_VALIDATION' });
      return;
    }
    if (crosses) this.take(order);
    if (order.filledLots >= order.qtyLots) return;
    order.front = this.book.sizeAt(side, priceTicks);
    order.status = order.filledLots > 0 ? 'PARTIALLY_FILLED' : 'OPEN';
    this.table.rest(order);
    this.report({ order, lastFillPriceTicks: undefined, lastFillIsMaker: undefined, matcherResult: 'OK' });
  }

  /** A cancel reaches the exchange; false when there was nothing left to cancel. */
  cancel(orderId: string): boolean {
    const order = this.table.cancel(orderId);
    if (order === undefined) return false;
    this.report({ order, lastFillPriceTicks: undefined, lastFillIsMaker: undefined, matcherResult: 'OK' });
    return true;
  }

  /** Cancels every resting order of ours; returns how many. */
  cancelAll(): number {
    const all = this.table.restingOrders();
    for (const order of all) this.cancel(order.orderId);
    return all.length;
  }

  get(orderId: string): ReplayOrder | undefined {
    return this.table.get(orderId);
  }

  /** Our best resting price on a side (highest bid, lowest ask), in ticks; undefined when none rests. */
  bestRestingPrice(side: Side): number | undefined {
    return this.table.bestRestingPrice(side);
  }

  restingOrders(): ReplayOrder[] {
    return this.table.restingOrders();
  }

  private restingOn(side: Side): ReplayOrder[] {
    return this.table.restingOn(side);
  }

  /** A crossing order takes the visible levels up to its price (the recording is not changed). */
  private take(order: ReplayOrder): void {
    const opposite: Side = order.side === 'buy' ? 'sell' : 'buy';
    for (const level of this.book.levels(opposite)) {
      const reachable = order.side === 'buy' ? level.priceTicks <= order.priceTicks : level.priceTicks >= order.priceTicks;
      if (!reachable || order.filledLots >= order.qtyLots) break;
      this.fill(order, Math.min(level.qtyLots, order.qtyLots - order.filledLots), level.priceTicks, false);
    }
    if (order.filledLots >= order.qtyLots) order.status = 'CLOSED';
  }

  /** Our resting orders the other side's best price has moved through fill at their own price. */
  private fillCrossedBy(side: Side): void {
    const queued = this.restingOn(side === 'buy' ? 'sell' : 'buy');
    if (queued.length === 0) return;
    const best = side === 'buy' ? this.book.bestBidPrice() : this.book.bestAskPrice();
    if (best === undefined) return;
    for (let i = 0; i < queued.length; ) {
      const order = queued[i] as ReplayOrder;
      const crossed = order.side === 'buy' ? best <= order.priceTicks : best >= order.priceTicks;
      if (crossed) this.fill(order, order.qtyLots - order.filledLots, order.priceTicks, true);
      if (queued[i] === order) i++;
    }
  }

  private fill(order: ReplayOrder, lots: number, priceTicks: number, isMaker: boolean): void {
    if (lots <= 0) return;
    const quoteUnits = fillQuoteUnits(this.rules, priceTicks, lots);
    this.table.recordFill(order, lots, quoteUnits, isMaker);
    this.onFill(order, lots, priceTicks, quoteUnits, isMaker);
    this.report({ order, lastFillPriceTicks: priceTicks, lastFillIsMaker: isMaker, matcherResult: 'OK', lastFill: { lots, quoteUnits } });
  }
}
