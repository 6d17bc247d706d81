/**
 * Turns a model's raw bid/ask prices into quotes the engine may post: a reference price from the
 * view, a spread floor that keeps the inventory skew, levels, and the post-only clamp that keeps a
 * bid below the best ask and an ask above the best bid. Prices stay raw (not rounded): the engine
 * rounds bids down and asks up (`src/core/rules.ts`), which can only widen them.
 */
import { MmError, type DesiredQuote, type MarketView, type Side } from '../src/core/index.ts';

/** Codes raised by `strategies/`. */
export type StrategyErrorCode = 'STRATEGY_CROSSED_QUOTES';

/** Which price the quotes are centred on. */
export type PriceSource = 'mid' | 'microprice';

/** Every allowed `PriceSource`, for env parsing. */
export const PRICE_SOURCES: readonly PriceSource[] = ['mid', 'microprice'];

/**
 * The reference price, or undefined when the book cannot give one (a side missing, crossed or
 * locked book: `buildMarketView` leaves `mid` undefined then) or the view's tick is unusable.
 * Microprice falls back to mid when the view has none, and is clamped into [best bid, best ask].
 */
export function referencePrice(view: MarketView, source: PriceSource): number | undefined {
  if (!(view.tickSize > 0) || !Number.isFinite(view.tickSize)) return undefined;
  const mid = view.mid;
  if (mid === undefined || !(mid > 0) || !Number.isFinite(mid)) return undefined;
  if (source === 'microprice') {
    const micro = view.microprice;
    // Kept inside the touch: float underflow with tiny sizes can push the formula outside it.
    if (micro !== undefined && micro > 0 && Number.isFinite(micro)) return Math.min(Math.max(micro, view.bestBid ?? micro), view.bestAsk ?? micro);
  }
  return mid;
}

/** Converts basis points of `price` to price units. */
export function bpsToPrice(bps: number, price: number): number {
  return (price * bps) / 10_000;
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
  readonly levels: number;
  /** Extra distance per level, in price units (each deeper level is this much further out). */
  readonly spacing: number;
  readonly bidSize: number;
  readonly askSize: number;
  readonly quoteBids: boolean;
  readonly quoteAsks: boolean;
}

/** Expands level-0 prices into `levels` quotes per side, constant size, evenly spaced. */
export function expandLevels(plan: LevelPlan): DesiredQuote[] {
  const quotes: DesiredQuote[] = [];
  for (let level = 0; level < plan.levels; level++) {
    if (plan.quoteBids) quotes.push({ side: 'buy', price: plan.bid - level * plan.spacing, size: plan.bidSize, level });
    if (plan.quoteAsks) quotes.push({ side: 'sell', price: plan.ask + level * plan.spacing, size: plan.askSize, level });
  }
  return quotes;
}

/**
 * The last step of every strategy: drops quotes with a non-finite or non-positive price or size,
 * then clamps each bid to at most one tick under the best ask and each ask to at least one tick
 * over the best bid, so a post-only quote can never cross. Clamping only lowers bids and raises
 * asks, so a pair with bid < ask stays that way; a result where a bid still reaches an ask means
 * the model itself is broken.
 * @throws MmError `STRATEGY_CROSSED_QUOTES` when some bid ≥ some ask (a bug, never a market state).
 */
export function finalizeQuotes(quotes: readonly DesiredQuote[], view: MarketView): DesiredQuote[] {
  const tick = view.tickSize;
  const maxBid = view.bestAsk === undefined ? Number.POSITIVE_INFINITY : view.bestAsk - tick;
  const minAsk = view.bestBid === undefined ? 0 : view.bestBid + tick;
  const result: DesiredQuote[] = [];
  let highestBid = Number.NEGATIVE_INFINITY;
  let lowestAsk = Number.POSITIVE_INFINITY;
  for (const quote of quotes) {
    if (!isPositiveFinite(quote.size) || !isPositiveFinite(quote.price)) continue;
    const price = quote.side === 'buy' ? Math.min(quote.price, maxBid) : Math.max(quote.price, minAsk);
    if (!isPositiveFinite(price)) continue;
    if (quote.side === 'buy') highestBid = Math.max(highestBid, price);
    else lowestAsk = Math.min(lowestAsk, price);
    result.push(price === quote.price ? quote : { ...quote, price });
  }
  if (highestBid >= lowestAsk) {
    throw new MmError<StrategyErrorCode>('STRATEGY_CROSSED_QUOTES', `own quotes cross: bid ${highestBid} ≥ ask ${lowestAsk}`);
  }
  return result;
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
