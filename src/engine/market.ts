/**
 * The engine's picture of the market: the best bid/offer in exact units, the fair price (the
 * pipeline's first stage: `FAIR_PRICE` picks mid or microprice; the reference issue adds a deep
 * market's), and the estimators behind the strategy's `MarketView` (volatility, trade rates,
 * arrival intensity), which the engine owns and feeds (src/core/strategy.ts).
 */
import { numberToUnits, unitsToNumber, type BestBidOffer, type MarketView, type VenueInfo, type VenueTrade } from '../core/index.ts';
import { MarketEstimators, buildMarketView, type TickerNumbers, type TopLevel } from '../../strategies/index.ts';
import { DEFAULT_ENGINE_SETTINGS, type FairPriceSource } from './settings.ts';

/** The order-arrival fit's grid (`ARRIVAL_GRID_STEP_BPS`, `ARRIVAL_GRID_POINTS`). */
export interface ArrivalGrid {
  readonly stepBps: number;
  readonly points: number;
}

const DEFAULT_ARRIVAL_GRID: ArrivalGrid = { stepBps: DEFAULT_ENGINE_SETTINGS.arrivalGridStepBps, points: DEFAULT_ENGINE_SETTINGS.arrivalGridPoints };

const NO_TRADES = { buy: 0, sell: 0 };

/** Tracks the top of book and feeds the estimators. */
export class MarketTracker {
  private top: BestBidOffer | undefined;
  private midNumber: number | undefined;
  private midIsCurrent = false;
  private topLevels: { readonly bid: TopLevel | undefined; readonly ask: TopLevel | undefined } | undefined;
  private readonly estimators: MarketEstimators;
  private readonly ticker: TickerNumbers;
  private readonly bidLevel: TopLevelMemo;
  private readonly askLevel: TopLevelMemo;

  private fairNumber: number | undefined;
  private fairUnitsValue: bigint | undefined;
  private fairIsCurrent = false;
  /** The last fair price the book gave: it outlives a flicker of the book for `fairHoldMs`. */
  private lastFair: { readonly value: number; readonly units: bigint } | undefined;
  /** When the book stopped giving a fair price (undefined while it gives one). */
  private fairLostAtMs: number | undefined;

  /**
   * The fair price from outside the venue book (FAIR_PRICE=reference|blend), given the venue's
   * mid and the base size at its touch; when set, σ, trade rates and the arrival fit are also fed
   * from the reference (`onReferencePrice`, `onReferenceTrade`), not from the venue's thin book.
   */
  private readonly externalFair: ((venueMid: number | undefined, venueSizeAtTouch: number) => number | undefined) | undefined;

  /**
   * @param fairSource which of the book's prices is fair (FAIR_PRICE).
   * @param fairHoldMs how long the last fair price stands when the book stops giving one (a side
   *   empty for a moment, e.g. while the only other maker re-quotes): quotes stay put instead of
   *   being pulled and re-placed. 0 = none.
   * @param nowMs the engine's clock (the hold ends on time, not on the next book event).
   * @param arrivalGrid the arrival fit's grid, in bps of the mid (the keys' defaults unless given).
   */
  constructor(
    private readonly info: VenueInfo,
    private readonly fairSource: FairPriceSource = 'mid',
    private readonly fairHoldMs = 0,
    private readonly nowMs: () => number = () => this.top?.timeMs ?? 0,
    externalFair?: (venueMid: number | undefined, venueSizeAtTouch: number) => number | undefined,
    arrivalGrid: ArrivalGrid = DEFAULT_ARRIVAL_GRID,
  ) {
    this.externalFair = externalFair;
    const rules = info.rules;
    this.bidLevel = new TopLevelMemo(rules);
    this.askLevel = new TopLevelMemo(rules);
    this.ticker = {
      tickSize: unitsToNumber(rules.priceTick, rules.quoteDecimals),
      lotSize: unitsToNumber(rules.qtyStep, rules.baseDecimals),
      minSize: unitsToNumber(rules.minQty, rules.baseDecimals),
      makerFee: info.makerFeePbips / 1_000_000,
      takerFee: info.takerFeePbips / 1_000_000,
    };
    // Depth buckets in bps of the mid, not half a tick as hftbacktest's GLFT notebook has them:
    // the fit then means the same on every instrument.
    this.estimators = new MarketEstimators({ arrival: { bucketWidthBps: arrivalGrid.stepBps, maxBuckets: arrivalGrid.points } });
  }

  /** Records a new top of book; false when nothing changed. */
  onTopOfBook(top: BestBidOffer): boolean {
    const previous = this.top;
    this.top = top;
    this.topLevels = undefined;
    this.midIsCurrent = false;
    this.fairIsCurrent = false;
    const changed =
      previous === undefined ||
      previous.bidPriceUnits !== top.bidPriceUnits ||
      previous.askPriceUnits !== top.askPriceUnits ||
      previous.bidQtyUnits !== top.bidQtyUnits ||
      previous.askQtyUnits !== top.askQtyUnits;
    if (changed && this.externalFair === undefined) this.estimators.onMid(top.timeMs, this.mid());
    // The hold counts from the moment the book stopped giving a fair price, not from the next time one is asked for.
    if (this.fairHoldMs > 0) this.computeFair();
    return changed;
  }

  /** A public trade (fed before the book change it caused, when the venue delivers it so). */
  onTrade(trade: VenueTrade): void {
    if (this.externalFair !== undefined) return;
    this.estimators.onTrade(trade.timeMs, unitsToNumber(trade.priceUnits, this.info.rules.quoteDecimals), trade.aggressor);
  }

  /** The reference moved (its price in the venue's units): the fair price is looked at again, σ fed. */
  onReferencePrice(timeMs: number, price: number | undefined): void {
    this.fairIsCurrent = false;
    if (this.externalFair !== undefined) this.estimators.onMid(timeMs, price);
  }

  /** A reference trade, its price in the venue's units: trade rates and the arrival fit. */
  onReferenceTrade(timeMs: number, price: number, aggressor: 'buy' | 'sell'): void {
    if (this.externalFair !== undefined) this.estimators.onTrade(timeMs, price, aggressor);
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

  /**
   * The fair price every strategy quotes around (quote tokens per base token), or undefined when
   * the book gives none (a side missing, crossed or locked).
   */
  fair(): number | undefined {
    if (!this.fairIsCurrent) this.computeFair();
    return this.fairNumber;
  }

  /** The fair price in quote units (rounded down), for the price band and the `auto` limits. */
  fairUnits(): bigint | undefined {
    if (!this.fairIsCurrent) this.computeFair();
    return this.fairUnitsValue;
  }

  private computeFair(): void {
    let fair: number | undefined;
    let units: bigint | undefined;
    if (this.externalFair !== undefined) {
      const levels = this.levels();
      fair = this.externalFair(this.mid(), (levels?.bid?.size ?? 0) + (levels?.ask?.size ?? 0));
      units = fair === undefined || !(fair > 0) || !Number.isFinite(fair) ? undefined : numberToUnits(fair, this.info.rules.quoteDecimals, 'down');
      if (units === undefined) fair = undefined;
    } else if (this.fairSource === 'mid') {
      fair = this.mid();
      units = this.midUnits();
    } else {
      const levels = this.levels();
      fair = buildMarketView({ timeMs: 0, bid: levels?.bid, ask: levels?.ask, ticker: this.ticker, volatility: 0, tradeRate: NO_TRADES, arrival: undefined, fairSource: 'microprice' }).fair;
      units = fair === undefined ? undefined : numberToUnits(fair, this.info.rules.quoteDecimals, 'down');
    }
    const nowMs = this.nowMs();
    let isHeld = false;
    if (fair !== undefined && units !== undefined) {
      this.lastFair = { value: fair, units };
      this.fairLostAtMs = undefined;
    } else if (this.lastFair !== undefined) {
      this.fairLostAtMs ??= nowMs;
      if (nowMs - this.fairLostAtMs <= this.fairHoldMs) {
        fair = this.lastFair.value;
        units = this.lastFair.units;
        isHeld = true;
      }
    }
    this.fairNumber = fair;
    this.fairUnitsValue = units;
    // A held price expires with time: it is looked at again on every call, not cached.
    this.fairIsCurrent = !isHeld;
  }

  /** The strategy's view at `nowMs`, with the fair price and the expected gas per maker fill (quote tokens). */
  view(nowMs: number, gasPerFill: number): MarketView {
    const levels = this.levels();
    const values = this.estimators.values(nowMs);
    return buildMarketView({
      timeMs: nowMs,
      bid: levels?.bid,
      ask: levels?.ask,
      ticker: this.ticker,
      volatility: values.volatility,
      tradeRate: values.tradeRate,
      arrival: values.arrival,
      fair: this.fair() ?? null,
      gasPerFill,
    });
  }

  /** The top as numbers, converted once per book change; requotes between changes reuse it. */
  private levels(): { readonly bid: TopLevel | undefined; readonly ask: TopLevel | undefined } | undefined {
    const top = this.top;
    if (this.topLevels === undefined && top !== undefined) {
      this.topLevels = { bid: this.bidLevel.of(top.bidPriceUnits, top.bidQtyUnits), ask: this.askLevel.of(top.askPriceUnits, top.askQtyUnits) };
    }
    return this.topLevels;
  }
}

/**
 * One side's top as numbers, remembering the last conversion: a book change usually moves one
 * side, or only a size, and converting an 18-decimal size exactly (`unitsToNumber` beyond 2^53
 * units) cost more than the rest of a view.
 */
class TopLevelMemo {
  private priceUnits: bigint | undefined;
  private qtyUnits: bigint | undefined;
  private last: TopLevel | undefined;

  constructor(private readonly rules: VenueInfo['rules']) {}

  of(priceUnits: bigint | undefined, qtyUnits: bigint): TopLevel | undefined {
    if (priceUnits === undefined) return undefined;
    const last = this.last;
    if (last !== undefined && priceUnits === this.priceUnits && qtyUnits === this.qtyUnits) return last;
    const level: TopLevel = {
      price: last !== undefined && priceUnits === this.priceUnits ? last.price : unitsToNumber(priceUnits, this.rules.quoteDecimals),
      size: last !== undefined && qtyUnits === this.qtyUnits ? last.size : unitsToNumber(qtyUnits, this.rules.baseDecimals),
    };
    this.priceUnits = priceUnits;
    this.qtyUnits = qtyUnits;
    this.last = level;
    return level;
  }
}
