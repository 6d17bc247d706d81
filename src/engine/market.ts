/**
 * The engine's picture of the market: the best bid/offer in exact units, and the estimators
 * behind the strategy's `MarketView` (volatility, trade rates, arrival intensity), which the
 * engine owns and feeds (src/core/strategy.ts).
 */
import { unitsToNumber, type BestBidOffer, type GasQuote, type MarketView, type VenueInfo, type VenueTrade } from '../core/index.ts';
import { MarketEstimators, buildMarketView, type TickerNumbers, type TopLevel } from '../../strategies/index.ts';

/** Tracks the top of book and feeds the estimators. */
export class MarketTracker {
  private top: BestBidOffer | undefined;
  private midNumber: number | undefined;
  private midIsCurrent = false;
  private topLevels: { readonly bid: TopLevel | undefined; readonly ask: TopLevel | undefined } | undefined;
  private readonly estimators: MarketEstimators;
  private readonly ticker: TickerNumbers;

  constructor(private readonly info: VenueInfo) {
    const rules = info.rules;
    this.ticker = {
      tickSize: unitsToNumber(rules.priceTick, rules.quoteDecimals),
      lotSize: unitsToNumber(rules.qtyStep, rules.baseDecimals),
      minSize: unitsToNumber(rules.minQty, rules.baseDecimals),
      makerFee: info.makerFeePbips / 1_000_000,
      takerFee: info.takerFeePbips / 1_000_000,
    };
    // Depth buckets of half a tick, as hftbacktest's GLFT notebook measures arrivals.
    this.estimators = new MarketEstimators({ arrival: { bucketWidth: this.ticker.tickSize / 2 } });
  }

  /** Records a new top of book; false when nothing changed. */
  onTopOfBook(top: BestBidOffer): boolean {
    const previous = this.top;
    this.top = top;
    this.topLevels = undefined;
    this.midIsCurrent = false;
    const changed =
      previous === undefined ||
      previous.bidPriceUnits !== top.bidPriceUnits ||
      previous.askPriceUnits !== top.askPriceUnits ||
      previous.bidQtyUnits !== top.bidQtyUnits ||
      previous.askQtyUnits !== top.askQtyUnits;
    if (changed) this.estimators.onMid(top.timeMs, this.mid());
    return changed;
  }

  /** A public trade (fed before the book change it caused, when the venue delivers it so). */
  onTrade(trade: VenueTrade): void {
    this.estimators.onTrade(trade.timeMs, unitsToNumber(trade.priceUnits, this.info.rules.quoteDecimals), trade.aggressor);
  }

  bestBidUnits(): bigint | undefined {
    return this.top?.bidPriceUnits;
  }

  bestAskUnits(): bigint | undefined {
    return this.top?.askPriceUnits;
  }

  /** Mid in quote units; undefined when a side is empty or the book is crossed (no fair price). */
  midUnits(): bigint | undefined {
    const bid = this.top?.bidPriceUnits;
    const ask = this.top?.askPriceUnits;
    return bid === undefined || ask === undefined || bid >= ask ? undefined : (bid + ask) / 2n;
  }

  mid(): number | undefined {
    if (this.midIsCurrent) return this.midNumber;
    const mid = this.midUnits();
    this.midNumber = mid === undefined ? undefined : unitsToNumber(mid, this.info.rules.quoteDecimals);
    this.midIsCurrent = true;
    return this.midNumber;
  }

  /** The strategy's view at `nowMs`. Gas does not enter the view: the engine prices it itself. */
  view(nowMs: number, _gas: GasQuote | undefined): MarketView {
    const top = this.top;
    // The top as numbers is converted once per book change; requotes between changes reuse it.
    let levels = this.topLevels;
    if (levels === undefined && top !== undefined) {
      levels = { bid: this.level(top.bidPriceUnits, top.bidQtyUnits), ask: this.level(top.askPriceUnits, top.askQtyUnits) };
      this.topLevels = levels;
    }
    const values = this.estimators.values(nowMs);
    return buildMarketView({
      timeMs: nowMs,
      bid: levels?.bid,
      ask: levels?.ask,
      ticker: this.ticker,
      volatility: values.volatility,
      tradeRate: values.tradeRate,
      arrival: values.arrival,
    });
  }

  private level(price: bigint | undefined, qty: bigint): TopLevel | undefined {
    const rules = this.info.rules;
    return price === undefined ? undefined : { price: unitsToNumber(price, rules.quoteDecimals), size: unitsToNumber(qty, rules.baseDecimals) };
  }
}
