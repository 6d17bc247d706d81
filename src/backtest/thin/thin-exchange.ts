/**
 * The exchange side of a thin venue priced off a deep one (issues 23 and 30, MM-NOTES §7,
 * docs/thin-venue.md). The recorded market is the *reference*: its depth and trades arrive as a
 * replay's recorded events, and it is never the book we quote on. The venue's book is our orders
 * plus two simulated makers, each one level a side: a background maker quoting the reference mid
 * (as it saw it `lagMs` ago) ± a half-spread, and a competing maker quoting near the reference's
 * touch with a share of the reference's queue there. Every resting quote, ours or theirs, holds a
 * rank from one counter: at one price whoever came first is filled first (strict price-time
 * priority), so we join a level behind a maker already there and move up only as it trades or
 * leaves. The makers only make (post-only): a re-quote that would cross a resting quote is
 * refused and tried again one lag later.
 * Two kinds of takers act on it:
 * - uninformed: each reference trade, with probability `share`, has a venue twin with its time,
 *   its side and a scaled size, which takes the venue's best prices in price-time order up to a
 *   limit: its reference trade's price plus a slack (drawn per twin with the elastic model);
 * - arbitrageurs: when the reference's touch moves through a quote by more than both legs' cost
 *   (the venue's taker fee + gas, the reference's taker fee, + their edge), their order reaches the
 *   venue `latencyMs` later and takes every quote that is still a target against the touch they
 *   saw, whole.
 * Every fill of ours carries who took it and what it lost against the reference mid then.
 * Their delayed actions (re-quotes, arbitrage orders) run at their due time (`VenueAgenda`).
 */
import {
  arbitrageCost,
  backgroundAskTicks,
  backgroundBidTicks,
  backgroundLots,
  competitorAskTicks,
  competitorBidTicks,
  competitorLots,
  drawsSlack,
  isArbitrageTarget,
  mayBeArbitrageTarget,
  uninformedLimitTicks,
  uninformedSlackBps,
  uninformedTwinLots,
  ReferenceTouch,
  unitsToNumber,
  VenueAgenda,
  type ArbitrageCost,
  type Side,
} from '../../core/index.ts';
import { OrderTable } from '../order-table.ts';
import { ReplayBook } from '../replay-book.ts';
import { fillQuoteUnits, type ExchangeFactory, type ExchangeHost, type FillTag, type ReplayOrder, type VenueExchange } from '../venue-exchange.ts';
import { BACKGROUND_MAKER, COMPETING_MAKER, MAKERS, MakerQuotes, type MakerIndex } from './maker-quotes.ts';
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

/** The next resting quote a taker meets on a side: one of ours, or a maker's. */
interface NextQuote {
  readonly order: ThinOrder | undefined;
  readonly maker: MakerIndex | undefined;
  readonly priceTicks: number;
}

/** A simulated thin venue over a recorded reference market. */
export class ThinExchange implements VenueExchange {
  /** The venue's book without us: the makers' quotes. */
  readonly book = new MakerQuotes();
  /** The reference market as recorded. */
  readonly reference = new ReplayBook();
  private readonly table = new OrderTable<ThinOrder>();
  private readonly options: ThinExchangeOptions;
  /** The reference's touch the agents watch, in this venue's ticks. */
  private readonly touch = new ReferenceTouch();
  /** What the makers were last told of: the touch's sum (the background maker's mid), and the touch with its lots (the competing maker's). */
  private readonly pushed = { midTwice: 0, bid: 0, ask: 0, bidLots: 0, askLots: 0 };
  private hasPushedMid = false;
  private readonly agenda: VenueAgenda;
  private nextRank = 1;
  /** Quote tokens one price tick is worth on one lot, and per base token. */
  private readonly quotePerTickLot: number;
  private readonly quotePerTick: number;
  /** The venue's smallest order, lots: a twin below it is refused, so it does not trade. */
  private readonly minLots: number;
  private readonly counts = { referenceTrades: 0, referenceLots: 0, uninformedTakers: 0, uninformedLots: 0, uninformedTradedLots: 0, arbitrageOrders: 0, arbitrageTakenLots: 0, makerRefusals: 0 };
  /** @throws MmError `CORE_INVALID_OPTION` / `CORE_INVALID_RULES` for bad options. */
  constructor(
    options: ThinExchangeOptions,
    private readonly host: ExchangeHost,
  ) {
    this.options = checkThinExchangeOptions(options);
    const rules = options.rules;
    this.quotePerTick = unitsToNumber(rules.priceTick, rules.quoteDecimals);
    this.quotePerTickLot = this.quotePerTick * unitsToNumber(rules.qtyStep, rules.baseDecimals);
    this.minLots = Number((rules.minQty + rules.qtyStep - 1n) / rules.qtyStep);
    this.agenda = new VenueAgenda(host, {
      requote: (midTwice, nowMs) => this.requoteBackground(midTwice, nowMs),
      competitorRequote: (bid, ask, bidLots, askLots, nowMs) => this.requoteCompetitor(bid, ask, bidLots, askLots, nowMs),
      arbitrage: (bid, ask) => this.arbitrage(bid, ask),
    });
  }

  /** The seed the takers draw from, as the options state it. */
  get takerSeed(): number | undefined {
    return this.options.takerSeed;
  }

  /** What the takers did so far. */
  stats(): ThinExchangeStats {
    return { ...this.counts };
  }

  /**
   * Markouts on a thin venue are taken against the reference mid (the last complete reference
   * touch), never the venue's own, which our quotes and the lagging makers set.
   */
  markoutMid(): number | undefined {
    return this.hasPushedMid ? ((this.touch.bid + this.touch.ask) / 2) * this.quotePerTick : undefined;
  }

  // ── the reference market (recorded events) ───────────────────────────────────────────────

  applyDepth(side: Side, priceTicks: number, qtyLots: number): void {
    this.reference.setLevel(side, priceTicks, qtyLots);
  }

  /**
   * A reference message is complete: a moved touch re-quotes the makers (after their lags) and may
   * send arbitrageurs; a queue at the touch that changed size re-sizes the competing maker.
   */
  settleCrossings(): void {
    this.agenda.catchUp();
    const bid = this.reference.bestBidPrice();
    const ask = this.reference.bestAskPrice();
    const touch = this.touch;
    const moved = touch.update(bid, ask);
    if (!touch.isSet) return;
    const now = this.host.clock.nowMs();
    const pushed = this.pushed;
    if (moved) {
      const midTwice = touch.bid + touch.ask;
      if (!this.hasPushedMid || midTwice !== pushed.midTwice) this.agenda.requoteAt(now + this.options.background.lagMs, midTwice);
      this.hasPushedMid = true;
      pushed.midTwice = midTwice;
    }
    const competitor = this.options.competitor;
    if (competitor !== undefined && competitor.depthShare > 0) {
      // Whole lots of the venue's (a reference finer than the venue's lot is read in fractions of it), as the embedded exchange's flow counts them.
      const bidLots = Math.floor(this.reference.sizeAt('buy', touch.bid) + 1e-9);
      const askLots = Math.floor(this.reference.sizeAt('sell', touch.ask) + 1e-9);
      if (moved || bidLots !== pushed.bidLots || askLots !== pushed.askLots) {
        pushed.bid = touch.bid;
        pushed.ask = touch.ask;
        pushed.bidLots = bidLots;
        pushed.askLots = askLots;
        this.agenda.competitorRequoteAt(now + competitor.lagMs, touch.bid, touch.ask, bidLots, askLots);
      }
    }
    if (!moved) return;
    this.watchForArbitrage(now);
    this.agenda.runDue();
  }

  clearBook(): void {
    this.reference.clear();
  }

  /** A reference trade: maybe an uninformed twin at the venue (one draw per trade with a known side, one more for its slack). */
  applyTrade(aggressor: Side | undefined, priceTicks: number, qtyLots: number): void {
    this.agenda.catchUp();
    if (aggressor === undefined) return;
    const counts = this.counts;
    counts.referenceTrades++;
    counts.referenceLots += qtyLots;
    const uninformed = this.options.uninformed;
    const rng = this.options.rng;
    const lots = uninformedTwinLots(qtyLots, rng.next(), uninformed);
    if (lots <= 0) return;
    const slackBps = uninformedSlackBps(uninformed, drawsSlack(uninformed) ? rng.next() : 0);
    // The venue refuses an order below its minimum (after the draws, as the embedded exchange's flow draws them).
    if (lots < this.minLots) return;
    counts.uninformedTakers++;
    counts.uninformedLots += lots;
    counts.uninformedTradedLots += this.sweep(aggressor, lots, uninformedLimitTicks(aggressor, priceTicks, slackBps), 'uninformed');
  }

  // ── our orders ────────────────────────────────────────────────────────────────────────────

  submit(orderId: string, side: Side, priceTicks: number, qtyLots: number, postOnly: boolean): void {
    this.agenda.catchUp();
    const order: ThinOrder = { orderId, side, priceTicks, qtyLots, postOnly, filledLots: 0, filledQuoteUnits: 0n, front: 0, status: 'ACC', rank: this.nextRank++ };
    this.table.add(order);
    const bestOpposite = this.book.best(opposite(side));
    const crosses = bestOpposite !== undefined && (side === 'buy' ? priceTicks >= bestOpposite : priceTicks <= bestOpposite);
    if (crosses && postOnly) {
      order.status = 'NOT_PROCESSED';
      this.host.report({ order, lastFillPriceTicks: undefined, lastFillIsMaker: undefined, matcherResult: 'FAILED_VALIDATION' });
      return;
    }
    if (crosses) {
      // Our order takes the makers' levels up to its price (self-trades with our own resting orders are not simulated, as on a replay).
      this.takeMakers(order);
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

  // ── the book ──────────────────────────────────────────────────────────────────────────────

  /** The first quote a taker meets on `restingSide`: the best price, and at one price the lowest rank (who came first). */
  private nextQuote(restingSide: Side): NextQuote | undefined {
    let order: ThinOrder | undefined;
    let maker: MakerIndex | undefined;
    let price = 0;
    let rank = 0;
    const ours = this.table.restingOn(restingSide);
    for (let i = 0; i < ours.length; i++) {
      const candidate = ours[i] as ThinOrder;
      if ((order === undefined && maker === undefined) || isBetterFor(restingSide, candidate.priceTicks, price) || (candidate.priceTicks === price && candidate.rank < rank)) {
        order = candidate;
        price = candidate.priceTicks;
        rank = candidate.rank;
      }
    }
    const book = this.book;
    for (const index of MAKERS) {
      if (book.lotsOf(index, restingSide) <= 0) continue;
      const makerPrice = book.priceOf(index, restingSide);
      const makerRank = book.rankOf(index, restingSide);
      if ((order === undefined && maker === undefined) || isBetterFor(restingSide, makerPrice, price) || (makerPrice === price && makerRank < rank)) {
        order = undefined;
        maker = index;
        price = makerPrice;
        rank = makerRank;
      }
    }
    return order === undefined && maker === undefined ? undefined : { order, maker, priceTicks: price };
  }

  // ── the takers ────────────────────────────────────────────────────────────────────────────

  /**
   * A taker on `takerSide` takes up to `lots` from the venue's best prices (ours and the makers',
   * price then time priority) while they are within `limitTicks`; returns the lots traded.
   */
  private sweep(takerSide: Side, lots: number, limitTicks: number, counterparty: Counterparty): number {
    const restingSide = opposite(takerSide);
    let remaining = lots;
    while (remaining > 0) {
      const next = this.nextQuote(restingSide);
      if (next === undefined || isBetterFor(restingSide, limitTicks, next.priceTicks)) break;
      remaining -= this.takeQuote(takerSide, next, remaining, counterparty);
    }
    return lots - remaining;
  }

  /** A taker on `takerSide` takes up to `lots` of one resting quote; returns the lots taken. The trade is published. */
  private takeQuote(takerSide: Side, next: NextQuote, lots: number, counterparty: Counterparty): number {
    if (next.maker !== undefined) {
      const taken = Math.min(lots, this.book.lotsOf(next.maker, opposite(takerSide)));
      this.takeMaker(next.maker, takerSide, taken);
      return taken;
    }
    const order = next.order as ThinOrder;
    const taken = Math.min(lots, order.qtyLots - order.filledLots);
    this.fill(order, taken, order.priceTicks, true, counterparty);
    this.host.trade(takerSide, order.priceTicks, taken);
    return taken;
  }

  /** Our crossing order takes the makers' quotes, best first, up to its price and size. */
  private takeMakers(order: ThinOrder): void {
    const restingSide = opposite(order.side);
    const book = this.book;
    for (;;) {
      const left = order.qtyLots - order.filledLots;
      let maker: MakerIndex | undefined;
      for (const index of MAKERS) {
        if (book.lotsOf(index, restingSide) <= 0) continue;
        const price = book.priceOf(index, restingSide);
        if (isBetterFor(restingSide, order.priceTicks, price)) continue;
        if (maker === undefined || isBetterFor(restingSide, price, book.priceOf(maker, restingSide)) || (price === book.priceOf(maker, restingSide) && book.rankOf(index, restingSide) < book.rankOf(maker, restingSide))) maker = index;
      }
      if (left <= 0 || maker === undefined) return;
      const price = book.priceOf(maker, restingSide);
      const lots = Math.min(left, book.lotsOf(maker, restingSide));
      this.fill(order, lots, price, false, 'background-maker');
      this.takeMaker(maker, order.side, lots);
    }
  }

  /**
   * A taker on `takerSide` takes `lots` of a maker's quote (which it re-posts after its lag); the
   * trade is published. Our own order taking it is filled by the caller first.
   */
  private takeMaker(maker: MakerIndex, takerSide: Side, lots: number): void {
    const restingSide = opposite(takerSide);
    const priceTicks = this.book.priceOf(maker, restingSide);
    this.book.take(maker, restingSide, lots);
    this.host.trade(takerSide, priceTicks, lots);
    this.host.bookChanged();
    this.requoteLater(maker);
  }

  /**
   * A maker re-quotes one lag from now on what it was last told (after a take, or a refused
   * post-only quote). A maker with no lag that was refused waits for the reference's next move
   * instead: trying again in the same millisecond would be refused for ever.
   */
  private requoteLater(maker: MakerIndex, isRetry = false): void {
    const lagMs = maker === BACKGROUND_MAKER ? this.options.background.lagMs : (this.options.competitor?.lagMs ?? 0);
    if (isRetry && lagMs === 0) return;
    const now = this.host.clock.nowMs();
    const pushed = this.pushed;
    if (maker === BACKGROUND_MAKER) this.agenda.requoteAt(now + this.options.background.lagMs, pushed.midTwice);
    else if (this.options.competitor !== undefined) this.agenda.competitorRequoteAt(now + this.options.competitor.lagMs, pushed.bid, pushed.ask, pushed.bidLots, pushed.askLots);
  }

  /** What taking a quote costs an arbitrageur now (both legs' fees, their edge, the gas of one trade). */
  private arbitrageCostNow(): ArbitrageCost {
    const arbitrage = this.options.arbitrage;
    return arbitrageCost(this.options.takerFeePbips, arbitrage.edgeBps, this.host.takerGasQuote() / this.quotePerTickLot, arbitrage.referenceFeeBps);
  }

  /** Sends an arbitrage order (due after the latency) when some venue quote may be a target against the reference's touch now. */
  private watchForArbitrage(nowMs: number): void {
    const arbitrage = this.options.arbitrage;
    if (!arbitrage.enabled || !this.touch.isSet) return;
    const bid = this.touch.bid;
    const ask = this.touch.ask;
    // Gas only adds to the cost: the cheap test leaves it out and the order checks it on arrival.
    const cost = { proportionalBps: this.options.takerFeePbips / 100 + arbitrage.edgeBps, referenceBps: arbitrage.referenceFeeBps };
    const book = this.book;
    const ourAsk = this.table.bestRestingPrice('sell');
    const ourBid = this.table.bestRestingPrice('buy');
    const makerAsk = book.best('sell');
    const makerBid = book.best('buy');
    const isWorthSending =
      (ourAsk !== undefined && mayBeArbitrageTarget('sell', ourAsk, bid, ask, cost)) ||
      (ourBid !== undefined && mayBeArbitrageTarget('buy', ourBid, bid, ask, cost)) ||
      (makerAsk !== undefined && mayBeArbitrageTarget('sell', makerAsk, bid, ask, cost)) ||
      (makerBid !== undefined && mayBeArbitrageTarget('buy', makerBid, bid, ask, cost));
    if (!isWorthSending) return;
    this.agenda.arbitrageAt(nowMs + arbitrage.latencyMs, bid, ask);
  }

  /** An arbitrage order sent on the touch (bid, ask) reaches the venue: it takes every quote still a target, whole, in price-time order. */
  private arbitrage(bid: number, ask: number): void {
    this.counts.arbitrageOrders++;
    const cost = this.arbitrageCostNow();
    const book = this.book;
    for (const restingSide of ['sell', 'buy'] as const) {
      const takerSide = opposite(restingSide);
      const targets: NextQuote[] = [];
      const ranks = new Map<NextQuote, number>();
      for (const order of this.table.restingOn(restingSide)) {
        if (!isArbitrageTarget(restingSide, order.priceTicks, order.qtyLots - order.filledLots, bid, ask, cost)) continue;
        const target = { order, maker: undefined, priceTicks: order.priceTicks };
        targets.push(target);
        ranks.set(target, order.rank);
      }
      for (const maker of MAKERS) {
        const lots = book.lotsOf(maker, restingSide);
        if (lots <= 0 || !isArbitrageTarget(restingSide, book.priceOf(maker, restingSide), lots, bid, ask, cost)) continue;
        const target = { order: undefined, maker, priceTicks: book.priceOf(maker, restingSide) };
        targets.push(target);
        ranks.set(target, book.rankOf(maker, restingSide));
      }
      targets.sort((a, b) => (a.priceTicks === b.priceTicks ? (ranks.get(a) as number) - (ranks.get(b) as number) : isBetterFor(restingSide, a.priceTicks, b.priceTicks) ? -1 : 1));
      for (const target of targets) {
        const lots = target.maker !== undefined ? book.lotsOf(target.maker, restingSide) : (target.order as ThinOrder).qtyLots - (target.order as ThinOrder).filledLots;
        this.counts.arbitrageTakenLots += this.takeQuote(takerSide, target, lots, 'arbitrage');
      }
    }
  }

  // ── the makers ────────────────────────────────────────────────────────────────────────────

  /** The background maker re-posts both sides around the mid `midTwice`/2 it now sees. */
  private requoteBackground(midTwice: number, nowMs: number): void {
    const background = this.options.background;
    const bid = backgroundBidTicks(midTwice, background.halfSpreadBps);
    const ask = backgroundAskTicks(midTwice, background.halfSpreadBps);
    const changedBid = this.post(BACKGROUND_MAKER, 'buy', bid, bid > 0 ? backgroundLots(bid, background.depthQuote, this.quotePerTickLot) : 0);
    const changedAsk = this.post(BACKGROUND_MAKER, 'sell', ask, backgroundLots(ask, background.depthQuote, this.quotePerTickLot));
    if (changedBid || changedAsk) this.host.bookChanged();
    this.watchForArbitrage(nowMs);
  }

  /** The competing maker re-posts both sides on the reference touch (bid, ask) and the lots there it now sees. */
  private requoteCompetitor(bidTicks: number, askTicks: number, bidLots: number, askLots: number, nowMs: number): void {
    const competitor = this.options.competitor;
    if (competitor === undefined) return;
    const bid = competitorBidTicks(bidTicks, askTicks, competitor);
    const ask = competitorAskTicks(bidTicks, askTicks, competitor);
    const changedBid = this.post(COMPETING_MAKER, 'buy', bid, bid > 0 ? competitorLots(bidLots, competitor.depthShare) : 0);
    const changedAsk = this.post(COMPETING_MAKER, 'sell', ask, competitorLots(askLots, competitor.depthShare));
    if (changedBid || changedAsk) this.host.bookChanged();
    this.watchForArbitrage(nowMs);
  }

  /**
   * A maker posts `lots` on a side at a price, post-only: a quote that would cross a resting one
   * (ours or the other maker's) is refused, the side shows nothing, and it tries again one lag
   * later. At the same price it keeps its place in the queue when it shows the same or fewer lots
   * (orders ahead of us cancelled: we move up); a new price or more lots (a top-up) goes to the
   * back. Returns whether the book changed.
   */
  private post(maker: MakerIndex, side: Side, priceTicks: number, lots: number): boolean {
    const book = this.book;
    const before = book.lotsOf(maker, side);
    const beforePrice = book.priceOf(maker, side);
    if (lots > 0 && before === lots && beforePrice === priceTicks) return false;
    if (lots > 0 && this.wouldCross(maker, side, priceTicks)) {
      this.counts.makerRefusals++;
      book.quote(maker, side, priceTicks, 0, 0);
      this.requoteLater(maker, true);
      return before > 0;
    }
    const keepsPlace = before > 0 && lots > 0 && beforePrice === priceTicks && lots <= before;
    book.quote(maker, side, priceTicks, lots, keepsPlace ? book.rankOf(maker, side) : lots > 0 ? this.nextRank++ : 0);
    return before !== lots || beforePrice !== priceTicks;
  }

  /** Whether a maker's quote at `priceTicks` on `side` would cross a resting quote of the other side (ours or the other maker's). */
  private wouldCross(maker: MakerIndex, side: Side, priceTicks: number): boolean {
    const against = opposite(side);
    const crosses = (price: number | undefined): boolean => price !== undefined && (side === 'buy' ? priceTicks >= price : priceTicks <= price);
    if (crosses(this.table.bestRestingPrice(against))) return true;
    const book = this.book;
    for (const other of MAKERS) if (other !== maker && book.lotsOf(other, against) > 0 && crosses(book.priceOf(other, against))) return true;
    return false;
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
