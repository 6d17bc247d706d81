/**
 * Strategy prices (floats) → exact integer ticks, once. Strategies may think in numbers; here each
 * price is rounded to the tick grid a single time (bids down, asks up, so rounding can widen a
 * quote but never cross it) and clamped to the book in integers: a bid at or above the best ask
 * becomes exactly one tick under it, an ask at or below the best bid exactly one tick over it.
 *
 * Float noise is snapped first: a price within a millionth of a tick of the grid is taken as that
 * tick, so "join the best bid" (a strategy returning the best bid, or best ask − tick computed in
 * floats, 2500.1299999999997) lands exactly on it instead of a tick behind.
 */
import { clampPassivePrice, fitQuantityNumber, quotePriceToUnits, unitsToNumber, type DesiredQuote, type Side, type TickerRules } from '../../core/index.ts';
import type { RoundedQuote } from './diff.ts';

/** The best prices of the book without our own orders; a side is undefined when empty. */
export interface Touch {
  readonly bestBidUnits: bigint | undefined;
  readonly bestAskUnits: bigint | undefined;
}

/** A float within this many ticks of the grid is on it. */
const SNAP_TICKS = 1e-6;
/** Above this many ticks a double cannot resolve a millionth of a tick: the exact decimal path decides. */
const FAST_PATH_MAX_TICKS = 1e9;

/** The tick size as a number, for the fast path. */
export function tickSizeNumber(rules: TickerRules): number {
  return unitsToNumber(rules.priceTick, rules.quoteDecimals);
}

/**
 * Rounds a strategy price to the tick grid, passively for `side` (bids down, asks up) after
 * snapping float noise. Undefined for a bid that would round to zero or any non-positive,
 * non-finite price.
 */
export function roundPriceToTick(price: number, side: Side, rules: TickerRules, tickSize: number = tickSizeNumber(rules)): bigint | undefined {
  if (!(price > 0) || !Number.isFinite(price)) return undefined;
  const ticks = price / tickSize;
  if (ticks < FAST_PATH_MAX_TICKS) {
    const nearest = Math.round(ticks);
    const whole = Math.abs(ticks - nearest) <= SNAP_TICKS ? nearest : side === 'buy' ? Math.floor(ticks) : Math.ceil(ticks);
    return whole >= 1 ? BigInt(whole) * rules.priceTick : undefined;
  }
  return quotePriceToUnits(price, side, rules);
}

/**
 * Rounds and clamps one price: the tick-exact, never-crossing price of a quote on this book, or
 * undefined when no passive price exists (a bid under a one-tick ask).
 */
export function quotePriceInTicks(price: number, side: Side, touch: Touch, rules: TickerRules, tickSize?: number): bigint | undefined {
  const rounded = roundPriceToTick(price, side, rules, tickSize);
  if (rounded === undefined) return undefined;
  return clampPassivePrice(rounded, side, side === 'buy' ? touch.bestAskUnits : touch.bestBidUnits, rules);
}

/**
 * Rounds every strategy quote to ticks and lots and clamps it to the touch. Sizes round down to
 * the lot (never above what was asked); quotes under the minimum size are dropped.
 */
export function quotesToTicks(quotes: readonly DesiredQuote[], touch: Touch, rules: TickerRules, tickSize: number = tickSizeNumber(rules)): RoundedQuote[] {
  const result: RoundedQuote[] = [];
  for (const quote of quotes) {
    const size = fitQuantityNumber(quote.size, rules);
    if (size.kind !== 'ok') continue;
    const priceUnits = quotePriceInTicks(quote.price, quote.side, touch, rules, tickSize);
    if (priceUnits === undefined) continue;
    result.push(
      quote.reference === undefined
        ? { side: quote.side, priceUnits, qtyUnits: size.qty, level: quote.level }
        : { side: quote.side, priceUnits, qtyUnits: size.qty, level: quote.level, reference: quote.reference },
    );
  }
  return result;
}
