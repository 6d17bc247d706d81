/**
 * The engine's picture of the market: best bid/offer in exact units, and the estimators behind
 * the strategy's `MarketView` (volatility, trade rates, arrival intensity).
 */
import { unitsToNumber, type BestBidOffer, type GasQuote, type MarketView, type VenueInfo, type VenueTrade } from '../core/index.ts';

/** Tracks the top of book and feeds the estimators. */
export class MarketTracker {
  private top: BestBidOffer | undefined;

  constructor(
    private readonly info: VenueInfo,
    startMs: number,
  ) {
    void startMs;
  }

  /** Records a new top of book; false when nothing changed. */
  onTopOfBook(top: BestBidOffer): boolean {
    const previous = this.top;
    this.top = top;
    return (
      previous === undefined ||
      previous.bidPriceUnits !== top.bidPriceUnits ||
      previous.askPriceUnits !== top.askPriceUnits ||
      previous.bidQtyUnits !== top.bidQtyUnits ||
      previous.askQtyUnits !== top.askQtyUnits
    );
  }

  onTrade(trade: VenueTrade): void {
    void trade;
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

  view(nowMs: number, gas: GasQuote | undefined): MarketView {
    void gas;
    const rules = this.info.rules;
    const bid = this.top?.bidPriceUnits === undefined ? undefined : unitsToNumber(this.top.bidPriceUnits, rules.quoteDecimals);
    const ask = this.top?.askPriceUnits === undefined ? undefined : unitsToNumber(this.top.askPriceUnits, rules.quoteDecimals);
    const bidSize = this.top === undefined ? 0 : unitsToNumber(this.top.bidQtyUnits, rules.baseDecimals);
    const askSize = this.top === undefined ? 0 : unitsToNumber(this.top.askQtyUnits, rules.baseDecimals);
    const mid = bid === undefined || ask === undefined || bid >= ask ? undefined : (bid + ask) / 2;
    const microprice = mid === undefined || bidSize + askSize === 0 ? mid : ((bid as number) * askSize + (ask as number) * bidSize) / (bidSize + askSize);
    return {
      timeMs: nowMs,
      bestBid: bid,
      bestAsk: ask,
      bestBidSize: bidSize,
      bestAskSize: askSize,
      mid,
      microprice,
      volatility: 0,
      tradeRate: { buy: 0, sell: 0 },
      arrival: undefined,
      tickSize: unitsToNumber(rules.priceTick, rules.quoteDecimals),
      lotSize: unitsToNumber(rules.qtyStep, rules.baseDecimals),
      minSize: unitsToNumber(rules.minQty, rules.baseDecimals),
      makerFee: this.info.makerFeePbips / 1_000_000,
      takerFee: this.info.takerFeePbips / 1_000_000,
    };
  }
}
