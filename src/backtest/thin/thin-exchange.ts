/**
 * The exchange side of a thin venue priced off a deep one (issue 23, MM-NOTES §7,
 * docs/thin-venue.md). The recorded market is the *reference*: its depth and trades arrive as a
 * replay's recorded events, and it is never the book we quote on. The venue's book is our orders
 * plus a background maker quoting the reference mid (as it saw it `lagMs` ago) ± a half-spread.
 * Two kinds of takers act on it:
 * - uninformed: each reference trade, with probability `share`, has a venue twin with its time,
 *   its side and a scaled size, which takes the venue's best prices (ours and the background's, in
 *   price-time order) within a limit set from the reference trade's price;
 * - arbitrageurs: when the reference's touch moves through a quote by more than the venue's taker
 *   fee + gas + their edge, their order reaches the venue `latencyMs` later and takes every quote
 *   that is still a target against the touch they saw, whole.
 * Every fill of ours carries who took it and what it lost against the reference mid then.
 * Their delayed actions (re-quotes, arbitrage orders) run at their due time (`VenueAgenda`).
 */
import {
  arbitrageCost,
  backgroundAskTicks,
  backgroundBidTicks,
  backgroundLots,
  isArbitrageTarget,
  mayBeArbitrageTarget,
  uninformedLimitTicks,
  uninformedTwinLots,
  ReferenceTouch,
  unitsToNumber,
  VenueAgenda,
  type Side,
} from '../../core/index.ts';
import { OrderTable } from '../order-table.ts';
import { ReplayBook } from '../replay-book.ts';
import { fillQuoteUnits, type ExchangeFactory, type ExchangeHost, type FillTag, type ReplayOrder, type VenueExchange } from '../venue-exchange.ts';
import { BackgroundQuotes } from './background-quotes.ts';
import { checkThinExchangeOptions, type ThinExchangeOptions } from './thin-options.ts';
import type { ThinExchangeStats } from './thin-summary.ts';

/** One of our orders on the thin venue, with its time-priority rank. */
interface ThinOrder extends ReplayOrder {
  readonly rank: number;
}

type Counterparty = FillTag['counterparty'];

function opposite(side: Side): Side {
  return side === 'buy' ? 'sell' : 'buy';
}

/** Whether a resting price is better for a taker than another: lower for sells, higher for buys. */
function isBetterFor(restingSide: Side, priceTicks: number, thanTicks: number): boolean {
  return restingSide === 'sell' ? priceTicks < thanTicks : priceTicks > thanTicks;
}

/** A simulated thin venue over a recorded reference market. */
export class ThinExchange implements VenueExchange {
  /** The venue's book without us: the background maker's quotes. */
  readonly book = new BackgroundQuotes();
  /** The reference market as recorded. */
  readonly reference = new ReplayBook();
  private readonly table = new OrderTable<ThinOrder>();
  private readonly options: ThinExchangeOptions;
  /** The reference's touch the agents watch, in this venue's ticks. */
  private readonly touch = new ReferenceTouch();
  /** Sum of the touch the background maker was last told of (its re-quotes run on it). */
  private pushedMidTwice = 0;
  private hasPushedMid = false;
  private readonly agenda: VenueAgenda;
  private nextRank = 1;
  /** Quote tokens one price tick is worth on one lot, and per base token. */
  private readonly quotePerTickLot: number;
  private readonly quotePerTick: number;
  private readonly counts = { referenceTrades: 0, referenceLots: 0, uninformedTakers: 0, uninformedLots: 0, uninformedTradedLots: 0, arbitrageOrders: 0, arbitrageTakenLots: 0 };
  /** @throws MmError `CORE_INVALID_OPTION` / `CORE_INVALID_RULES` for bad options. */
  constructor(
    options: ThinExchangeOptions,
    private readonly host: ExchangeHost,
  ) {
    this.options = checkThinExchangeOptions(options);
    const rules = options.rules;
    this.quotePerTick = unitsToNumber(rules.priceTick, rules.quoteDecimals);
    this.quotePerTickLot = this.quotePerTick * unitsToNumber(rules.qtyStep, rules.baseDecimals);
    this.agenda = new VenueAgenda(host, {
      requote: (midTwice, nowMs) => this.requote(midTwice, nowMs),
      arbitrage: (bid, ask) => this.arbitrage(bid, ask),
    });
  }

  /** What the takers did so far. */
  stats(): ThinExchangeStats {
    return { ...this.counts };
  }

  /**
   * Markouts on a thin venue are taken against the reference mid (the last complete reference
   * touch), never the venue's own, which our quotes and the lagging background maker set.
   */
  markoutMid(): number | undefined {
    return this.hasPushedMid ? ((this.touch.bid + this.touch.ask) / 2) * this.quotePerTick : undefined;
  }

  // ── the reference market (recorded events) ───────────────────────────────────────────────

  applyDepth(side: Side, priceTicks: number, qtyLots: number): void {
    this.reference.setLevel(side, priceTicks, qtyLots);
  }

  /** A reference message is complete: a moved touch re-quotes the background maker (after its lag) and may send arbitrageurs. */
  settleCrossings(): void {
    this.agenda.catchUp();
    const bid = this.reference.bestBidPrice();
    const ask = this.reference.bestAskPrice();
    if (!this.touch.update(bid, ask)) return;
    const now = this.host.clock.nowMs();
    const midTwice = this.touch.bid + this.touch.ask;
    if (!this.hasPushedMid || midTwice !== this.pushedMidTwice) {
      this.hasPushedMid = true;
      this.pushedMidTwice = midTwice;
      this.agenda.requoteAt(now + this.options.background.lagMs, midTwice);
    }
    this.watchForArbitrage(now);
    this.agenda.runDue();
  }

  clearBook(): void {
    this.reference.clear();
  }

  /** A reference trade: maybe an uninformed twin at the venue (one draw per trade with a known side). */
  applyTrade(aggressor: Side | undefined, priceTicks: number, qtyLots: number): void {
    this.agenda.catchUp();
    if (aggressor === undefined) return;
    const counts = this.counts;
    counts.referenceTrades++;
    counts.referenceLots += qtyLots;
    const uninformed = this.options.uninformed;
    const lots = uninformedTwinLots(qtyLots, this.options.rng.next(), uninformed);
    if (lots <= 0) return;
    counts.uninformedTakers++;
    counts.uninformedLots += lots;
    counts.uninformedTradedLots += this.sweep(aggressor, lots, uninformedLimitTicks(aggressor, priceTicks, uninformed.limitBps));
  }

  // ── our orders ────────────────────────────────────────────────────────────────────────────

  submit(orderId: string, side: Side, priceTicks: number, qtyLots: number, postOnly: boolean): void {
    this.agenda.catchUp();
    const order: ThinOrder = { orderId, side, priceTicks, qtyLots, postOnly, filledLots: 0, filledQuoteUnits: 0n, front: 0, status: 'ACC', rank: this.nextRank++ };
    this.table.add(order);
    const against = opposite(side);
    const bestOpposite = against === 'sell' ? this.book.bestAskPrice() : this.book.bestBidPrice();
    const crosses = bestOpposite !== undefined && (side === 'buy' ? priceTicks >= bestOpposite : priceTicks <= bestOpposite);
    if (crosses && postOnly) {
      order.status = 'NOT_PROCESSED';
      this.host.report({ order, lastFillPriceTicks: undefined, lastFillIsMaker: undefined, matcherResult: 'FAILED_VALIDATION' });
      return;
    }
    if (crosses) {
      // Our order takes the background maker's level (self-trades with our own resting orders are not simulated, as on a replay).
      const lots = Math.min(qtyLots, this.book.lotsOn(against));
      this.fill(order, lots, bestOpposite, false, 'background-maker');
      if (lots > 0) this.takeBackground(side, lots);
      if (order.filledLots >= order.qtyLots) return;
    }
    order.status = order.filledLots > 0 ? 'PARTIALLY_FILLED' : 'OPEN';
    this.table.rest(order);
    this.host.report({ order, lastFillPriceTicks: undefined, lastFillIsMaker: undefined, matcherResult: 'OK' });
    this.watchForArbitrage(this.host.clock.nowMs());
    this.agenda.runDue();
  }

  cancel(orderId: string): boolean {
    this.agenda.catchUp();
    const order = this.table.cancel(orderId);
    if (order === undefined) return false;
    this.host.report({ order, lastFillPriceTicks: undefined, lastFillIsMaker: undefined, matcherResult: 'OK' });
    return true;
  }

  cancelAll(): number {
    this.agenda.catchUp();
    const all = this.table.restingOrders();
    for (const order of all) this.cancel(order.orderId);
    return all.length;
  }

  get(orderId: string): ReplayOrder | undefined {
    return this.table.get(orderId);
  }

  restingOrders(): ReplayOrder[] {
    return this.table.restingOrders();
  }

  bestRestingPrice(side: Side): number | undefined {
    return this.table.bestRestingPrice(side);
  }

  // ── the takers ────────────────────────────────────────────────────────────────────────────

  /**
   * A taker on `takerSide` takes up to `lots` from the venue's best prices (ours and the
   * background maker's, price then time priority) while they are within `limitTicks`; returns the
   * lots traded.
   */
  private sweep(takerSide: Side, lots: number, limitTicks: number): number {
    const restingSide = opposite(takerSide);
    const ours = this.table.restingOn(restingSide);
    const book = this.book;
    let remaining = lots;
    while (remaining > 0) {
      let best: ThinOrder | undefined;
      for (let i = 0; i < ours.length; i++) {
        const order = ours[i] as ThinOrder;
        if (best === undefined || isBetterFor(restingSide, order.priceTicks, best.priceTicks) || (order.priceTicks === best.priceTicks && order.rank < best.rank)) best = order;
      }
      const backgroundLeft = book.lotsOn(restingSide);
      const backgroundPrice = book.priceOn(restingSide);
      const isBackground =
        backgroundLeft > 0 &&
        (best === undefined || isBetterFor(restingSide, backgroundPrice, best.priceTicks) || (backgroundPrice === best.priceTicks && book.rankOn(restingSide) < best.rank));
      const priceTicks = isBackground ? backgroundPrice : best?.priceTicks;
      if (priceTicks === undefined || isBetterFor(restingSide, limitTicks, priceTicks)) break;
      if (isBackground) {
        const taken = Math.min(remaining, backgroundLeft);
        this.takeBackground(takerSide, taken);
        remaining -= taken;
      } else {
        const order = best as ThinOrder;
        const taken = Math.min(remaining, order.qtyLots - order.filledLots);
        this.fill(order, taken, order.priceTicks, true, 'uninformed');
        this.host.trade(takerSide, order.priceTicks, taken);
        remaining -= taken;
      }
    }
    return lots - remaining;
  }

  /**
   * A taker on `takerSide` takes `lots` of the background maker's level (which it re-posts after
   * its lag); the trade is published. Our own order taking it is filled by the caller first.
   */
  private takeBackground(takerSide: Side, lots: number): void {
    const restingSide = opposite(takerSide);
    const priceTicks = this.book.priceOn(restingSide);
    this.book.take(restingSide, lots);
    this.host.trade(takerSide, priceTicks, lots);
    this.host.bookChanged();
    this.agenda.requoteAt(this.host.clock.nowMs() + this.options.background.lagMs, this.pushedMidTwice);
  }

  /** Sends an arbitrage order (due after the latency) when some venue quote may be a target against the reference's touch now. */
  private watchForArbitrage(nowMs: number): void {
    const arbitrage = this.options.arbitrage;
    if (!arbitrage.enabled || !this.touch.isSet) return;
    const bid = this.touch.bid;
    const ask = this.touch.ask;
    const proportionalBps = this.options.takerFeePbips / 100 + arbitrage.edgeBps;
    const book = this.book;
    const ourAsk = this.table.bestRestingPrice('sell');
    const ourBid = this.table.bestRestingPrice('buy');
    const isWorthSending =
      (ourAsk !== undefined && mayBeArbitrageTarget('sell', ourAsk, bid, ask, proportionalBps)) ||
      (ourBid !== undefined && mayBeArbitrageTarget('buy', ourBid, bid, ask, proportionalBps)) ||
      (book.lotsOn('sell') > 0 && mayBeArbitrageTarget('sell', book.askTicks, bid, ask, proportionalBps)) ||
      (book.lotsOn('buy') > 0 && mayBeArbitrageTarget('buy', book.bidTicks, bid, ask, proportionalBps));
    if (!isWorthSending) return;
    this.agenda.arbitrageAt(nowMs + arbitrage.latencyMs, bid, ask);
  }

  /** An arbitrage order sent on the touch (bid, ask) reaches the venue: it takes every quote still a target, whole, best price first. */
  private arbitrage(bid: number, ask: number): void {
    this.counts.arbitrageOrders++;
    const cost = arbitrageCost(this.options.takerFeePbips, this.options.arbitrage.edgeBps, this.host.takerGasQuote() / this.quotePerTickLot);
    for (const restingSide of ['sell', 'buy'] as const) {
      const takerSide = opposite(restingSide);
      const targets = this.table
        .restingOn(restingSide)
        .filter((order) => isArbitrageTarget(restingSide, order.priceTicks, order.qtyLots - order.filledLots, bid, ask, cost))
        .sort((a, b) => (a.priceTicks === b.priceTicks ? a.rank - b.rank : isBetterFor(restingSide, a.priceTicks, b.priceTicks) ? -1 : 1));
      const book = this.book;
      const backgroundLeft = book.lotsOn(restingSide);
      let isBackgroundDue = backgroundLeft > 0 && isArbitrageTarget(restingSide, book.priceOn(restingSide), backgroundLeft, bid, ask, cost);
      for (const order of targets) {
        const price = book.priceOn(restingSide);
        if (isBackgroundDue && (isBetterFor(restingSide, price, order.priceTicks) || (price === order.priceTicks && book.rankOn(restingSide) < order.rank))) {
          this.counts.arbitrageTakenLots += backgroundLeft;
          this.takeBackground(takerSide, backgroundLeft);
          isBackgroundDue = false;
        }
        const lots = order.qtyLots - order.filledLots;
        this.counts.arbitrageTakenLots += lots;
        this.fill(order, lots, order.priceTicks, true, 'arbitrage');
        this.host.trade(takerSide, order.priceTicks, lots);
      }
      if (isBackgroundDue) {
        this.counts.arbitrageTakenLots += backgroundLeft;
        this.takeBackground(takerSide, backgroundLeft);
      }
    }
  }

  // ── the background maker ──────────────────────────────────────────────────────────────────

  /** Re-posts both sides around the mid `midTwice`/2 it now sees, never through our resting quotes (it only makes). */
  private requote(midTwice: number, nowMs: number): void {
    const background = this.options.background;
    let bid = backgroundBidTicks(midTwice, background.halfSpreadBps);
    let ask = backgroundAskTicks(midTwice, background.halfSpreadBps);
    const ourAsk = this.table.bestRestingPrice('sell');
    const ourBid = this.table.bestRestingPrice('buy');
    if (ourAsk !== undefined && bid >= ourAsk) bid = ourAsk - 1;
    if (ourBid !== undefined && ask <= ourBid) ask = ourBid + 1;
    const book = this.book;
    const bidRank = book.isQuoting && book.bidTicks === bid ? book.bidRank : this.nextRank++;
    const askRank = book.isQuoting && book.askTicks === ask ? book.askRank : this.nextRank++;
    book.quote('buy', bid, bid > 0 ? backgroundLots(bid, background.depthQuote, this.quotePerTickLot) : 0, bidRank);
    book.quote('sell', ask, backgroundLots(ask, background.depthQuote, this.quotePerTickLot), askRank);
    this.host.bookChanged();
    this.watchForArbitrage(nowMs);
  }

  // ── fills ─────────────────────────────────────────────────────────────────────────────────

  private fill(order: ThinOrder, lots: number, priceTicks: number, isMaker: boolean, counterparty: Counterparty): void {
    if (lots <= 0) return;
    const quoteUnits = fillQuoteUnits(this.options.rules, priceTicks, lots);
    this.table.recordFill(order, lots, quoteUnits, isMaker);
    this.host.fill(order, lots, priceTicks, quoteUnits, isMaker, this.tag(order.side, priceTicks, lots, counterparty));
    this.host.report({ order, lastFillPriceTicks: priceTicks, lastFillIsMaker: isMaker, matcherResult: 'OK', lastFill: { lots, quoteUnits } });
  }

  /** Who took the fill, and what it lost against the reference mid now (the last complete reference touch). */
  private tag(side: Side, priceTicks: number, lots: number, counterparty: Counterparty): FillTag {
    // Before the reference's first two-sided message there is no mid: the fill is valued at its own price.
    const midTwice = this.hasPushedMid ? this.touch.bid + this.touch.ask : 2 * priceTicks;
    const lossHalfTickLots = (side === 'buy' ? 2 * priceTicks - midTwice : midTwice - 2 * priceTicks) * lots;
    const rules = this.options.rules;
    return {
      counterparty,
      referenceMid: (midTwice / 2) * unitsToNumber(rules.priceTick, rules.quoteDecimals),
      referenceLossQuote: (lossHalfTickLots / 2) * this.quotePerTickLot,
    };
  }
}

/**
 * The `exchange` of a `ReplayVenue` that simulates a thin venue over the recording it replays.
 * Checks the options at once, so a bad one fails before a run starts.
 * @throws MmError `CORE_INVALID_OPTION` / `CORE_INVALID_RULES`.
 */
export function thinExchangeFactory(options: ThinExchangeOptions): ExchangeFactory {
  checkThinExchangeOptions(options);
  return (host) => new ThinExchange(options, host);
}
