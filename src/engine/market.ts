/**
 * The engine's picture of the market: the best bid/offer in exact units, and the estimators
 * behind the strategy's `MarketView` (volatility, trade rates, arrival intensity), which the
 * engine owns and feeds (src/core/strategy.ts).
 */
import { unitsToNumber, type BestBidOffer, type GasQuote, type MarketView, type VenueInfo, type VenueTrade } from '../core/index.ts';
import { MarketEstimators, buildMarketView, type TickerNumbers } from '../../strategies/index.ts';

/** Tracks the top of book and feeds the estimators. */
export class MarketTracker {
  private top: BestBidOffer | undefined;
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
    const mid = this.midUnits();
    return mid === undefined ? undefined : unitsToNumber(mid, this.info.rules.quoteDecimals);
  }

  /** The strategy's view at `nowMs`. Gas does not enter the view: the engine prices it itself. */
  view(nowMs: number, _gas: GasQuote | undefined): MarketView {
    const rules = this.info.rules;
    const top = this.top;
    const level = (price: bigint | undefined, qty: bigint): { price: number; size: number } | undefined =>
      price === undefined ? undefined : { price: unitsToNumber(price, rules.quoteDecimals), size: unitsToNumber(qty, rules.baseDecimals) };
    return buildMarketView({
      timeMs: nowMs,
      bid: top === undefined ? undefined : level(top.bidPriceUnits, top.bidQtyUnits),
      ask: top === undefined ? undefined : level(top.askPriceUnits, top.askQtyUnits),
      ticker: this.ticker,
      ...this.estimators.values(nowMs),
    });
  }
}
