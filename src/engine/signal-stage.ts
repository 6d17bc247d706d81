/**
 * The signals stage of the pipeline (issue 24), beside the fair-price stage (`market.ts`): it
 * feeds one `SignalSet` (strategies/signals) from the book the signals read, and gives the fair
 * price its alpha term. The signals read the reference market when the pair reads one (a deep
 * book says more than a thin venue, whose touch is often our own quotes), else the venue's top
 * of book; the venue shows only its top, so the book imbalance there is the touch's.
 * With every ALPHA_* weight 0 (the defaults) the fair price is left exactly as it was; the
 * signals are still computed, for the metrics and the status, unless nothing reads them (a
 * backtest's summary and report never do): then the stage does only the work a consumer needs
 * (the book's signals for the alpha term, the toxicity for TOXICITY_WIDEN_RATIO) and none at all
 * with both off. Each book update is taken as numbers: no object per update.
 */
import { unitsToNumber, type DesiredQuote, type MarketView, type ReferenceFeed, type ReferenceTop, type ReferenceTrade, type Side, type SignalSettings, type VenueTrade } from '../core/index.ts';
import { ReferenceMove, SideHold, SignalSet, Toxicity, alphaBps, isAlphaOn, laggingSide, placeInQueue, predictedMoveBps, regimeSizeFactor, regimeWidenFactor, shrinkByRegime, shrinkToxicSides, staleSide, toxicSizeFactor, widenByRegime, widenToxicSides, type QueueTouch, type SignalValues, type TopLevel } from '../../strategies/index.ts';

/** The signals as the status and the metrics show them. */
export interface SignalStatus extends SignalValues {
  /** Which book the signals read. */
  readonly source: 'reference' | 'venue';
  /** The alpha term now, bps of the fair price (0 while it is off). */
  readonly alphaBps: number;
  /** The reference mid's move since our quotes were last set, bps (0 without a reference). */
  readonly referenceMoveBps: number;
  /** Toxicity of our buy and sell fills, bps (positive = that side is picked off). */
  readonly toxicityBuyBps: number;
  readonly toxicitySellBps: number;
  /** The move the signals predict (Σ ALPHA_* weight·signal before the clamp), bps. */
  readonly predictedMoveBps: number;
  /** How much VOL_REGIME_WIDEN widens each quote's distance from its centre now (0.2 = 20 % further; 0 while off or calm). */
  readonly volRegimeWiden: number;
  /** Which side queue placement moved to the touch at the last requote: +1 the bid, −1 the ask, 0 none. */
  readonly queueJoin: number;
  /** The side REFERENCE_PULL_BPS finds stale now: +1 the asks (the reference rose), −1 the bids, 0 none. */
  readonly referenceStale: number;
  /** The side left out at the last requote because the fair price has not followed the reference past REFERENCE_PULL_BPS (for at most REFERENCE_PULL_HOLD_MS): +1 the asks, −1 the bids, 0 none. */
  readonly referenceHeld: number;
  /** The share of its size TOXICITY_SIZE_RATIO leaves each buy and sell quote now (1 while off or that side is not toxic). */
  readonly toxicitySizeBuy: number;
  readonly toxicitySizeSell: number;
  /** The share of its size VOL_REGIME_SIZE leaves every quote now (1 while off or calm). */
  readonly volRegimeSize: number;
}

/** What queue placement reads of the strategy's view: the venue's touch, its tick and the maker fee (a fraction). */
export type QuoteMarket = QueueTouch & Pick<MarketView, 'makerFee'>;

/** The signals of one pair and its alpha term. */
export class SignalStage {
  private readonly signals: SignalSet;
  private readonly toxicity: Toxicity;
  private readonly referenceMove = new ReferenceMove();
  /** True when the alpha term can move the fair price (ALPHA_MAX_BPS > 0 and a weight ≠ 0). */
  readonly isAlphaOn: boolean;
  readonly source: 'reference' | 'venue';
  /** True when the status shows the signals (someone reads them): every signal is tracked. */
  readonly isRead: boolean;
  /** The book's signals are fed (they are read, or the alpha term weighs them). */
  private readonly tracksBook: boolean;
  /** The venue's top and trades feed the signals (they read the venue, and something uses them): the engine asks before building the levels. */
  readonly readsVenue: boolean;
  /** Our fills' toxicity is tracked (it is read, or it widens or shrinks the quotes). */
  private readonly tracksToxicity: boolean;
  /** The reference's move since each side was set is tracked (it is read, or REFERENCE_PULL_BPS pulls on it). */
  private readonly tracksReferenceMove: boolean;
  /** Which side queue placement last moved to the touch (+1 bid, −1 ask, 0 none). */
  private queueJoin: -1 | 0 | 1 = 0;
  private readonly hold = new SideHold();
  /** The side REFERENCE_PULL_BPS left out at the last requote. */
  private heldNow: Side | undefined;

  /**
   * @param reference the pair's reference feed, when it reads one: the signals read its book.
   * @param baseDecimals the venue's base token decimals (its trade sizes are in base units).
   * @param isRead false when nothing reads the signals from the status (a backtest): the stage then
   *   tracks only what quoting uses (the alpha term and the quote adjustments whose keys are on).
   * @throws RangeError for a window or half-life that is not positive (the keys' bounds prevent it).
   */
  constructor(
    readonly settings: SignalSettings,
    private readonly reference: Pick<ReferenceFeed, 'depth'> | undefined,
    private readonly baseDecimals: number,
    isRead = true,
  ) {
    this.signals = new SignalSet(settings);
    this.toxicity = new Toxicity(settings.toxicityHorizonMs, settings.toxicityHalfLifeMs);
    this.isAlphaOn = isAlphaOn(settings);
    this.source = reference === undefined ? 'venue' : 'reference';
    this.isRead = isRead;
    // Queue placement weighs the signals' predicted move and the regime widening and sizing their volatility, alpha term or not.
    this.tracksBook = isRead || this.isAlphaOn || settings.queueJoinThresholdBps !== 0 || settings.volRegimeWiden !== 0 || settings.volRegimeSize !== 0;
    this.readsVenue = this.tracksBook && this.source === 'venue';
    this.tracksToxicity = isRead || settings.toxicityWidenRatio !== 0 || settings.toxicitySizeRatio !== 0;
    this.tracksReferenceMove = isRead || settings.referencePullBps !== 0;
  }

  /** The venue's top changed (its levels as numbers); read only when the signals read the venue. */
  onVenueTop(timeMs: number, bid: TopLevel | undefined, ask: TopLevel | undefined): void {
    if (!this.readsVenue) return;
    if (bid === undefined || ask === undefined) this.signals.onNoTop(timeMs);
    else this.signals.onTopLevels(timeMs, bid.price, bid.size, ask.price, ask.size);
  }

  /** A venue trade; true when it moved a signal the alpha term reads (the fair price is then looked at again). */
  onVenueTrade(trade: VenueTrade): boolean {
    if (!this.readsVenue || trade.aggressor === undefined) return false;
    return this.onTrade(trade.timeMs, unitsToNumber(trade.qtyUnits, this.baseDecimals), trade.aggressor);
  }

  /** A new usable top of the reference. */
  onReferenceTop(nowMs: number, top: ReferenceTop): void {
    if (this.tracksBook) this.signals.onTopLevels(nowMs, top.bidPrice, top.bidQty, top.askPrice, top.askQty);
    if (this.tracksReferenceMove) this.referenceMove.onReferenceMid((top.bidPrice + top.askPrice) / 2);
  }

  /** The engine just sent placements (new or replacing) for `side`: the reference move counts from here. */
  onQuotesSet(side: Side): void {
    if (this.tracksReferenceMove) this.referenceMove.onQuotesSet(side);
  }

  /** A reference trade; true when it moved a signal the alpha term reads. */
  onReferenceTrade(nowMs: number, trade: ReferenceTrade): boolean {
    if (!this.tracksBook) return false;
    return this.onTrade(nowMs, trade.qty, trade.aggressor);
  }

  /** One of our fills (its price in quote tokens per base token). */
  onOwnFill(side: Side, price: number, timeMs: number): void {
    if (this.tracksToxicity) this.toxicity.onFill(side, price, timeMs);
  }

  /** The fair price now (or none): resolves the markouts due (untracked, no fill ever waits), and is what the reference's move is weighed against. */
  observeFair(fair: number | undefined, nowMs: number): void {
    this.toxicity.observe(fair, nowMs);
    this.referenceMove.onFair(fair);
  }

  /**
   * The strategy's quotes adjusted by the signals, in this order: each toxic side moved away
   * (TOXICITY_WIDEN_RATIO) and made smaller (TOXICITY_SIZE_RATIO), the half-spread widened by the
   * volatility regime (VOL_REGIME_WIDEN) and every size cut by it (VOL_REGIME_SIZE),
   * the side the predicted move favours placed at the touch (QUEUE_JOIN_THRESHOLD_BPS), after
   * leaving out a side the reference moved through while the fair price did not follow
   * (REFERENCE_PULL_BPS). The same array while every one of those keys is 0.
   */
  adjustQuotes(quotes: DesiredQuote[], fair: number, nowMs: number, market: QuoteMarket, minEdgeBps: number): DesiredQuote[] {
    const settings = this.settings;
    let adjusted = quotes;
    if (settings.referencePullBps !== 0) {
      const held = this.hold.held(laggingSide(this.referenceMove, settings.referencePullBps), settings.referencePullHoldMs, nowMs);
      this.heldNow = held;
      if (held !== undefined) adjusted = adjusted.filter((quote) => quote.side !== held);
    }
    // Sizes stay numbers: the pipeline rounds them down to the lot and drops one under the minimum.
    if (settings.toxicityWidenRatio !== 0 || settings.toxicitySizeRatio !== 0) {
      const toxicity = this.toxicity.value(nowMs);
      if (settings.toxicityWidenRatio !== 0) adjusted = widenToxicSides(adjusted, fair, toxicity, settings.toxicityWidenRatio, settings.toxicityMaxWidenBps);
      if (settings.toxicitySizeRatio !== 0) adjusted = shrinkToxicSides(adjusted, toxicity, settings.toxicitySizeRatio);
    }
    if (settings.volRegimeWiden !== 0 || settings.volRegimeSize !== 0) {
      const regime = this.signals.volatilityAt(nowMs).ratio;
      if (settings.volRegimeWiden !== 0) adjusted = widenByRegime(adjusted, fair, regime, settings.volRegimeWiden, settings.volRegimeMaxWidenBps);
      if (settings.volRegimeSize !== 0) adjusted = shrinkByRegime(adjusted, regime, settings.volRegimeSize);
    }
    if (settings.queueJoinThresholdBps !== 0) {
      const values = this.values(nowMs);
      const predicted = predictedMoveBps(values, settings);
      // The fair price already carries the clamped alpha: the price the move leads to adds only the rest.
      const expected = fair * (1 + (predicted - (this.isAlphaOn ? alphaBps(values, settings) : 0)) / 10_000);
      const placement = placeInQueue(adjusted, market, predicted, expected, {
        thresholdBps: settings.queueJoinThresholdBps,
        improve: settings.queueImprove,
        costBps: market.makerFee * 10_000 + minEdgeBps,
      });
      this.queueJoin = placement.joined;
      adjusted = placement.quotes;
    }
    return adjusted;
  }

  /** The side whose quotes the reference's move since they were set left stale (REFERENCE_PULL_BPS), or undefined. */
  staleSide(): Side | undefined {
    return staleSide(this.referenceMove, this.settings.referencePullBps);
  }

  /** The alpha term at `nowMs`, bps of the fair price; 0 while it is off. */
  alphaBps(nowMs: number): number {
    return this.isAlphaOn ? alphaBps(this.values(nowMs), this.settings) : 0;
  }

  /** Every signal and the alpha term at `nowMs` (all tracked only while `isRead`: the engine's status asks it first). */
  status(nowMs: number): SignalStatus {
    const values = this.values(nowMs);
    const toxicity = this.toxicity.value(nowMs);
    const stale = this.staleSide();
    return {
      ...values,
      source: this.source,
      alphaBps: this.isAlphaOn ? alphaBps(values, this.settings) : 0,
      referenceMoveBps: this.referenceMove.valueBps(),
      toxicityBuyBps: toxicity.buyBps,
      toxicitySellBps: toxicity.sellBps,
      predictedMoveBps: predictedMoveBps(values, this.settings),
      volRegimeWiden: regimeWidenFactor(values.volRatio, this.settings.volRegimeWiden),
      queueJoin: this.queueJoin,
      referenceStale: sideSign(stale),
      referenceHeld: sideSign(this.heldNow),
      toxicitySizeBuy: toxicSizeFactor(toxicity.buyBps, this.settings.toxicitySizeRatio),
      toxicitySizeSell: toxicSizeFactor(toxicity.sellBps, this.settings.toxicitySizeRatio),
      volRegimeSize: regimeSizeFactor(values.volRatio, this.settings.volRegimeSize),
    };
  }

  private onTrade(timeMs: number, size: number, aggressor: Side): boolean {
    this.signals.onTrade(timeMs, size, aggressor);
    return this.isAlphaOn && this.settings.alphaTradeFlowBps !== 0;
  }

  private values(nowMs: number): SignalValues {
    // The reference's depth is read only when asked (a requote with the alpha on, a scrape): its copy costs.
    const depth = this.reference?.depth(this.settings.obiLevels);
    return this.signals.values(nowMs, depth);
  }
}

/** +1 for the asks, −1 for the bids, 0 for none (how a side reads as a gauge). */
function sideSign(side: Side | undefined): number {
  return side === undefined ? 0 : side === 'sell' ? 1 : -1;
}
