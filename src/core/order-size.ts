/**
 * Order sizes that carry across instruments: a strategy's order is a fixed size in base tokens
 * (`*_ORDER_SIZE`), or a notional in quote tokens (`*_ORDER_NOTIONAL`) turned into base tokens at
 * the price it quotes around, at quote time. 0.05 ETH is 130 USDT; 0.05 BTC is 3,000: a pair file
 * that says "130 USDT" quotes the same money on both.
 *
 * The conversion rounds to the lot once, down (never more than asked), here in the strategy, so
 * the model's order size Δ is the size that is sent; the number it returns is the exact decimal
 * multiple of the lot, so the engine's own rounding to the lot (`fitQuantityNumber`) finds nothing
 * left to round. A fixed base size is passed through as it always was: the engine rounds it.
 */

/** An order's amount: base tokens, a quote notional, or both added (a base size plus a notional step per level). */
export interface OrderAmount {
  /** Base tokens, sent as they are (the engine rounds them to the lot). */
  readonly baseTokens: number;
  /** Quote tokens, turned into base tokens at the quote's price; 0 = none. */
  readonly notionalQuote: number;
}

/** The size of one order in base tokens, or why none is placed. */
export type SizeAtPrice =
  | { readonly kind: 'ok'; readonly size: number }
  /** The notional buys less than the venue's minimum size at this price: the side is not quoted (a desk quotes no more than it asked for). */
  | { readonly kind: 'below-minimum'; readonly size: 0 }
  /** No usable price to convert a notional at. */
  | { readonly kind: 'no-price'; readonly size: 0 };

/** The lot and the minimum size in base tokens (`MarketView.lotSize`, `.minSize`). */
export interface LotRules {
  readonly lotSize: number;
  readonly minSize: number;
}

/** A float within this share of a lot of a whole number of lots is that number (`notional / price` in floats). */
const SNAP_LOTS = 1e-9;

/**
 * An order's size in base tokens at `price` (quote per base): `baseTokens` as given when there is
 * no notional; else `baseTokens + notionalQuote / price` rounded down to the lot, once, and
 * skipped (`below-minimum`) under the venue's minimum size.
 */
export function orderSizeAt(amount: OrderAmount, price: number, lot: LotRules): SizeAtPrice {
  if (amount.notionalQuote === 0) return { kind: 'ok', size: amount.baseTokens };
  if (!(price > 0) || !Number.isFinite(price)) return { kind: 'no-price', size: 0 };
  if (!(lot.lotSize > 0) || !Number.isFinite(lot.lotSize)) return { kind: 'no-price', size: 0 };
  const lots = (amount.baseTokens + amount.notionalQuote / price) / lot.lotSize;
  const nearest = Math.round(lots);
  // Float noise is snapped first, so 0.03 / 0.01 = 2.9999999999999996 lots is 3 lots, not 2.
  const whole = Math.abs(lots - nearest) <= SNAP_LOTS * Math.max(1, nearest) ? nearest : Math.floor(lots);
  if (!(whole >= 1) || !Number.isFinite(whole)) return { kind: 'below-minimum', size: 0 };
  const size = lotMultiple(whole, lot.lotSize);
  return size < lot.minSize ? { kind: 'below-minimum', size: 0 } : { kind: 'ok', size };
}

/**
 * `lots × lotSize` as the double closest to the exact decimal product (3 × 0.1 is
 * 0.30000000000000004 in floats; this gives 0.3), so converting it to base units reads exactly
 * that many lots. 15 significant digits hold every product of a lot of up to 3 significant digits
 * (venues use 1, 2 or 5 × 10^−d) and up to 10¹² lots; beyond that a double cannot hold the size
 * to the unit anyway.
 */
function lotMultiple(lots: number, lotSize: number): number {
  return Number((lots * lotSize).toPrecision(15));
}
