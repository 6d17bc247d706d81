/**
 * Assembles the `MarketView` a strategy sees from the top of book, the estimators' current values
 * and the pair's rules, and bundles the three estimators the engine feeds.
 */
import type { ArrivalIntensity, MarketView, Side } from '../../src/core/index.ts';
import { ArrivalIntensityEstimator, type ArrivalIntensityOptions } from './arrival-intensity.ts';
import { TradeRateEstimator, type TradeRateOptions, type TradeRates } from './trade-rate.ts';
import { VolatilityEstimator, type VolatilityOptions } from './volatility.ts';

/** One side of the top of book, as numbers (quote per base, base tokens). */
export interface TopLevel {
  readonly price: number;
  readonly size: number;
}

/** The pair's rules as numbers: tick in quote tokens, lot and minimum in base tokens, fees as fractions. */
export interface TickerNumbers {
  readonly tickSize: number;
  readonly lotSize: number;
  readonly minSize: number;
  /** 1000 pbips = 0.001; negative for a maker rebate. */
  readonly makerFee: number;
  readonly takerFee: number;
}

/** Market values the estimators supply. */
export interface EstimatorValues {
  /** σ, quote price units per √second (0 until known). */
  readonly volatility: number;
  readonly tradeRate: TradeRates;
  readonly arrival: ArrivalIntensity | undefined;
}

/** Everything `buildMarketView` needs. */
export interface MarketViewInput extends EstimatorValues {
  readonly timeMs: number;
  /** Best bid and ask; undefined when the side is empty. */
  readonly bid: TopLevel | undefined;
  readonly ask: TopLevel | undefined;
  readonly ticker: TickerNumbers;
  /** Which of the venue book's prices is the fair price; default mid. */
  readonly fairSource?: 'mid' | 'microprice';
  /**
   * A fair price from outside the venue book (a reference market), overriding `fairSource`;
   * `null` means "no fair price now" (the reference is down), distinct from "not given".
   */
  readonly fair?: number | null;
  /** Expected gas per maker fill, quote tokens; default 0. */
  readonly gasPerFill?: number;
}

/**
 * Builds a `MarketView`. `mid` is (bid + ask)/2 and `microprice` the size-weighted mid
 * (bid·askSize + ask·bidSize)/(bidSize + askSize), falling back to mid when both sizes are 0.
 * Both are undefined unless both sides exist with positive prices and bid < ask: a crossed or
 * locked book has no fair price, so strategies quote nothing on it. A side with a non-finite or
 * non-positive price counts as empty; negative or non-finite sizes count as 0.
 */
export function buildMarketView(input: MarketViewInput): MarketView {
  const bid = usableLevel(input.bid);
  const ask = usableLevel(input.ask);
  const bidSize = bid === undefined ? 0 : cleanSize(bid.size);
  const askSize = ask === undefined ? 0 : cleanSize(ask.size);
  let mid: number | undefined;
  let microprice: number | undefined;
  if (bid !== undefined && ask !== undefined && bid.price < ask.price) {
    mid = (bid.price + ask.price) / 2;
    const weighted = bidSize + askSize > 0 ? (bid.price * askSize + ask.price * bidSize) / (bidSize + askSize) : mid;
    // Inside [bid, ask] by construction, except for float underflow with denormal sizes.
    microprice = Number.isFinite(weighted) ? Math.min(Math.max(weighted, bid.price), ask.price) : mid;
  }
  return {
    timeMs: input.timeMs,
    bestBid: bid?.price,
    bestAsk: ask?.price,
    bestBidSize: bidSize,
    bestAskSize: askSize,
    mid,
    microprice,
    fair: input.fair === null ? undefined : (input.fair ?? (input.fairSource === 'microprice' ? microprice : mid)),
    volatility: input.volatility,
    tradeRate: input.tradeRate,
    arrival: input.arrival,
    tickSize: input.ticker.tickSize,
    lotSize: input.ticker.lotSize,
    minSize: input.ticker.minSize,
    makerFee: input.ticker.makerFee,
    takerFee: input.ticker.takerFee,
    gasPerFill: input.gasPerFill ?? 0,
  };
}

function usableLevel(level: TopLevel | undefined): TopLevel | undefined {
  return level !== undefined && level.price > 0 && Number.isFinite(level.price) ? level : undefined;
}

function cleanSize(size: number): number {
  return size > 0 && Number.isFinite(size) ? size : 0;
}

/** Options of the three estimators. */
export interface MarketEstimatorOptions {
  readonly volatility?: VolatilityOptions;
  readonly tradeRate?: TradeRateOptions;
  readonly arrival: ArrivalIntensityOptions;
}

/**
 * The three estimators behind `MarketView`, fed together: the engine calls `onMid` on every book
 * change, `onTrade` on every public trade (before the book update the trade caused, so the mid is
 * the one the trade hit), and `values` when it builds a view.
 */
export class MarketEstimators {
  readonly volatility: VolatilityEstimator;
  readonly tradeRate: TradeRateEstimator;
  readonly arrival: ArrivalIntensityEstimator;
  private lastMid: number | undefined;

  /** @throws RangeError from an estimator's options. */
  constructor(options: MarketEstimatorOptions) {
    this.volatility = new VolatilityEstimator(options.volatility);
    this.tradeRate = new TradeRateEstimator(options.tradeRate);
    this.arrival = new ArrivalIntensityEstimator(options.arrival);
  }

  /** A new mid (undefined when the book has no fair price). */
  onMid(timeMs: number, mid: number | undefined): void {
    this.lastMid = mid;
    this.volatility.update(timeMs, mid);
  }

  /**
   * A public trade. Without an aggressor side the rate counter infers it from the price against
   * the last mid (at or above: buy); with neither, the trade is only counted by the arrival clock.
   */
  onTrade(timeMs: number, price: number, aggressor: Side | undefined): void {
    const mid = this.lastMid;
    const side = aggressor ?? (mid === undefined ? undefined : price >= mid ? 'buy' : 'sell');
    if (side !== undefined) this.tradeRate.onTrade(timeMs, side);
    this.arrival.onTrade({ timeMs, price, aggressor }, mid);
  }

  /** Current values for a view at `timeMs`. */
  values(timeMs: number): EstimatorValues {
    return { volatility: this.volatility.value(), tradeRate: this.tradeRate.rates(timeMs), arrival: this.arrival.fit(timeMs) };
  }
}
