/**
 * Turns a model's raw bid/ask prices into quotes the engine may post: a reference price from the
 * view, the costs of a fill, a spread floor that keeps the inventory skew, levels, and a last
 * sanity check. Prices stay raw numbers: the engine rounds them to ticks and clamps them to the
 * touch once, in integers (`src/engine/pipeline/ticks.ts`), so "join the best bid" lands exactly
 * on it; a float clamp here would land a tick behind after rounding.
 */
import { MmError, type DesiredQuote, type MarketView, type Side } from '../src/core/index.ts';

/** Codes raised by `strategies/`. */
export type StrategyErrorCode = 'STRATEGY_CROSSED_QUOTES';

/** Which price the quotes are centred on: the engine's fair price (`FAIR_PRICE`), or the venue's own mid or microprice. */
export type PriceSource = 'fair' | 'mid' | 'microprice';

/** Every allowed `PriceSource`, for env parsing. */
export const PRICE_SOURCES: readonly PriceSource[] = ['fair', 'mid', 'microprice'];

/**
 * The reference price, or undefined when the view cannot give one (no fair price; for mid and
 * microprice a side missing, crossed or locked book: `buildMarketView` leaves `mid` undefined
 * then) or the view's tick is unusable. Microprice falls back to mid when the view has none, and
 * is clamped into [best bid, best ask].
 */
export function referencePrice(view: MarketView, source: PriceSource): number | undefined {
  if (!(view.tickSize > 0) || !Number.isFinite(view.tickSize)) return undefined;
  if (source === 'fair') return view.fair !== undefined && isPositiveFinite(view.fair) ? view.fair : undefined;
  const mid = view.mid;
  if (mid === undefined || !(mid > 0) || !Number.isFinite(mid)) return undefined;
  if (source === 'microprice') {
    const micro = view.microprice;
    // Kept inside the touch: float underflow with tiny sizes can push the formula outside it.
    if (micro !== undefined && micro > 0 && Number.isFinite(micro)) return Math.min(Math.max(micro, view.bestBid ?? micro), view.bestAsk ?? micro);
  }
  return mid;
}

/**
 * What one maker fill of `size` base tokens at about `price` costs, per base token in quote
 * price units: the maker fee plus the expected gas per fill spread over the size. Strategies add
 * it to their half-spread, so a quote's distance from its reference is profit after costs. A maker
 * rebate (a negative fee) makes it negative: the quotes move in by the rebate, as the edge filter
 * counts it (their spread floor of a tick still keeps our bid under our ask).
 */
export function fillCostPerUnit(view: MarketView, price: number, size: number): number {
  const fee = Number.isFinite(view.makerFee) ? view.makerFee * price : 0;
  const gas = isPositiveFinite(view.gasPerFill) && isPositiveFinite(size) ? view.gasPerFill / size : 0;
  return fee + gas;
}

/** Converts basis points of `price` to price units. */
export function bpsToPrice(bps: number, price: number): number {
  return (price * bps) / 10_000;
}

/**
 * A decay per bp of `price` (an arrival k that carries across instruments) as a decay per quote
 * price unit (what the models' formulas take): e^(−k_bps·δ_bps) = e^(−k·δ) with δ_bps = δ·10⁴/price.
 */
export function perBpsToPerPrice(perBps: number, price: number): number {
  return (perBps * 10_000) / price;
}

/**
 * Widens a bid/ask pair around its own centre until it is at least `minSpread` wide. Centring on
 * the pair (not on the mid, as hummingbot's A-S does) keeps the inventory skew when the model's
 * spread is narrower than the floor.
 */
export function applySpreadFloor(bid: number, ask: number, minSpread: number): { bid: number; ask: number } {
  if (!(ask - bid < minSpread)) return { bid, ask };
  const centre = (bid + ask) / 2;
  return { bid: centre - minSpread / 2, ask: centre + minSpread / 2 };
}

/** Shape of a symmetric ladder around a model's level-0 prices. */
export interface LevelPlan {
  /** Level-0 bid and ask (raw model prices). */
  readonly bid: number;
  readonly ask: number;
  /** Levels quoted on each side (0 = the side is off). */
  readonly bidLevels: number;
  readonly askLevels: number;
  /** Extra distance per level, in price units (each deeper level is this much further out). */
  readonly spacing: number;
  readonly bidSize: number;
  readonly askSize: number;
  /** The reservation price the quotes' edge is measured from. */
  readonly reference: number;
}

/** Expands level-0 prices into quotes per side, constant size, evenly spaced. */
export function expandLevels(plan: LevelPlan): DesiredQuote[] {
  const quotes: DesiredQuote[] = [];
  const levels = Math.max(plan.bidLevels, plan.askLevels);
  for (let level = 0; level < levels; level++) {
    if (level < plan.bidLevels) quotes.push({ side: 'buy', price: plan.bid - level * plan.spacing, size: plan.bidSize, level, reference: plan.reference });
    if (level < plan.askLevels) quotes.push({ side: 'sell', price: plan.ask + level * plan.spacing, size: plan.askSize, level, reference: plan.reference });
  }
  return quotes;
}

/**
 * How many levels of `size` a side may quote so that, if every one of them filled, the position
 * (base tokens, signed; positive = long) stays within `limit`: bids add to it, asks take from it.
 * Counts every level, not just the next order.
 */
export function levelsWithinPosition(side: Side, position: number, size: number, levels: number, limit: number | 'off'): number {
  if (limit === 'off') return levels;
  const room = side === 'buy' ? limit - position : limit + position;
  if (!(size > 0)) return 0;
  // A hair of slack so a room of exactly N sizes admits N levels despite float noise.
  return Math.max(0, Math.min(levels, Math.floor((room / size) * (1 + 1e-12) + 1e-12)));
}

/**
 * The last step of every strategy: drops quotes with a non-finite or non-positive price or size
 * and checks that no bid reaches any ask of ours. It does not clamp to the touch: the engine does
 * that once, in integer ticks, after rounding.
 * @throws MmError `STRATEGY_CROSSED_QUOTES` when some bid ≥ some ask (a bug, never a market state).
 */
export function finalizeQuotes(quotes: readonly DesiredQuote[]): DesiredQuote[] {
  const result: DesiredQuote[] = [];
  let highestBid = Number.NEGATIVE_INFINITY;
  let lowestAsk = Number.POSITIVE_INFINITY;
  for (const quote of quotes) {
    if (!isPositiveFinite(quote.size) || !isPositiveFinite(quote.price)) continue;
    if (quote.side === 'buy') highestBid = Math.max(highestBid, quote.price);
    else lowestAsk = Math.min(lowestAsk, quote.price);
    result.push(quote);
  }
  if (highestBid >= lowestAsk) {
    throw new MmError<StrategyErrorCode>('STRATEGY_CROSSED_QUOTES', `own quotes cross: bid ${highestBid} ≥ ask ${lowestAsk}`);
  }
  return result;
}

/**
 * Keeps a reservation price within `maxOffset` (price units) of the fair price: a large position
 * or a volatility spike may not drag the quotes arbitrarily far (the key `<PREFIX>_MAX_SKEW_BPS`).
 */
export function capOffset(reservation: number, fair: number, maxOffset: number): number {
  if (!(maxOffset >= 0)) return reservation;
  return Math.min(fair + maxOffset, Math.max(fair - maxOffset, reservation));
}

/** Drops the quotes of one side. */
export function withoutSide(quotes: readonly DesiredQuote[], side: Side): DesiredQuote[] {
  return quotes.filter((quote) => quote.side !== side);
}

/** A finite number > 0. */
export function isPositiveFinite(value: number): boolean {
  return value > 0 && Number.isFinite(value);
}

/** The value when it is a finite number ≥ 0, else 0 (estimators report 0 for "unknown"). */
export function nonNegativeOrZero(value: number): number {
  return value >= 0 && Number.isFinite(value) ? value : 0;
}
