/**
 * The order-size keys every strategy has: `<PREFIX>_ORDER_SIZE` in base tokens (the default, so
 * existing pair files quote as they did) or `<PREFIX>_ORDER_NOTIONAL` in quote tokens, which
 * carries across instruments (core `orderSizeAt` turns it into base tokens at quote time). A file
 * sets one of the two, not both.
 */
import { envKey, notBoth, orderSizeAt, values as v, type CrossCheck, type MarketView, type OrderAmount, type SizeAtPrice } from '../src/core/index.ts';

/** What each strategy says about its size key. */
export interface SizeKeyDefaults {
  readonly orderSize: string;
  /** The size key's doc (what one order is to this strategy). */
  readonly sizeDoc: string;
}

/** `<prefix>_ORDER_SIZE` and `<prefix>_ORDER_NOTIONAL`, in that order. */
export function buildSizeKeys(prefix: string, defaults: SizeKeyDefaults) {
  return {
    orderSize: envKey({
      key: `${prefix}_ORDER_SIZE`,
      default: defaults.orderSize,
      unit: 'base tokens',
      doc: `${defaults.sizeDoc}. Does not carry to another instrument (0.05 ETH ≈ 130 USDT, 0.05 BTC ≈ 3000): ${prefix}_ORDER_NOTIONAL does; set one of the two`,
      parse: v.numberIn({ min: 0, minExclusive: true, unit: 'base tokens' }),
    }),
    orderNotional: envKey({
      key: `${prefix}_ORDER_NOTIONAL`,
      default: 'off',
      unit: 'quote tokens',
      doc: `Instead of ${prefix}_ORDER_SIZE: each order's notional, turned into base tokens at the price the strategy quotes around when it quotes, rounded down to the lot; a side whose notional buys less than the venue's minimum size is not quoted. off = ${prefix}_ORDER_SIZE`,
      parse: v.keywordOrNumber('off', { min: 0, minExclusive: true, unit: 'quote tokens' }),
    }),
  };
}

/** The parsed size keys. */
export interface SizeParams {
  readonly orderSize: number;
  readonly orderNotional: 'off' | number;
}

/** Refuses a file that sets both size keys. */
export function checkSizeKeys(prefix: string): CrossCheck<unknown> {
  return notBoth(`${prefix}_ORDER_SIZE`, `${prefix}_ORDER_NOTIONAL`, 'the order size');
}

/** One order's amount: the notional when one is set, else the base size. */
export function orderAmountOf(params: SizeParams): OrderAmount {
  return params.orderNotional === 'off' ? { baseTokens: params.orderSize, notionalQuote: 0 } : { baseTokens: 0, notionalQuote: params.orderNotional };
}

/** One order's size in base tokens at `price`, with the view's lot and minimum. */
export function orderSizeOf(params: SizeParams, price: number, view: Pick<MarketView, 'lotSize' | 'minSize'>): SizeAtPrice {
  return orderSizeAt(orderAmountOf(params), price, view);
}

/**
 * Δ for a model that needs a size even when nothing is quoted: the order's size when it can be
 * placed, else the unrounded amount in base tokens (for the explanation) and why it cannot.
 */
export function modelSizeOf(params: SizeParams, price: number, view: Pick<MarketView, 'lotSize' | 'minSize'>): { readonly size: number; readonly skipped: 'below-minimum' | 'no-price' | undefined } {
  const sized = orderSizeOf(params, price, view);
  if (sized.kind === 'ok') return { size: sized.size, skipped: undefined };
  return { size: params.orderNotional === 'off' ? params.orderSize : params.orderNotional / price, skipped: sized.kind };
}

/** What `Strategy.orderSize` / `.orderNotional` say to the engine (it sizes the `auto` caps from them). */
export function strategySizeOf(params: SizeParams): { readonly orderSize?: number; readonly orderNotional?: number } {
  return params.orderNotional === 'off' ? { orderSize: params.orderSize } : { orderNotional: params.orderNotional };
}
