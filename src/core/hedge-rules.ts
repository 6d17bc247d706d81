/**
 * The one place a hedge quantity is fitted to a hedge venue's rules before anything is sent: the
 * step of the market lot (or the lot), its minimum and maximum, and the notional bounds at the
 * price it is expected to execute at (Binance's filters.md: LOT_SIZE, MARKET_LOT_SIZE, NOTIONAL,
 * PRICE_FILTER). Pure and exact.
 */
import { formatUnits } from './money.ts';
import type { HedgeOrderType, HedgeRules } from './hedge-venue.ts';

/** Why a quantity cannot be sent as it is. */
export type QuantityFit =
  | { readonly kind: 'ok'; readonly qtyUnits: bigint }
  /** Below the lot minimum or the notional minimum: keep it (dust) until more joins it. */
  | { readonly kind: 'below-minimum'; readonly qtyUnits: bigint; readonly reason: string };

/** The lot rules an order of `type` must meet. */
export function lotRules(rules: HedgeRules, type: HedgeOrderType): { step: bigint; min: bigint; max: bigint } {
  if (type === 'market' && rules.marketStep > 0n) {
    return { step: rules.marketStep, min: rules.marketMinQty > rules.minQty ? rules.marketMinQty : rules.minQty, max: rules.marketMaxQty > 0n ? rules.marketMaxQty : rules.maxQty };
  }
  return { step: rules.lotStep, min: rules.minQty, max: rules.maxQty };
}

/** Notional of `qtyUnits` at `priceUnits`, quote units (8 decimals), rounded down. */
export function notionalOf(qtyUnits: bigint, priceUnits: bigint, rules: HedgeRules): bigint {
  return (qtyUnits * priceUnits) / 10n ** BigInt(rules.baseDecimals);
}

/**
 * Fits a hedge quantity to the rules: rounded down to the step (a hedge never grows past what is
 * uncovered), capped at the maximum quantity and notional, and checked against the minimums at
 * `priceUnits` (the price it is expected to execute at).
 */
export function fitHedgeQuantity(qtyUnits: bigint, priceUnits: bigint, rules: HedgeRules, type: HedgeOrderType): QuantityFit {
  const lot = lotRules(rules, type);
  let qty = qtyUnits <= 0n ? 0n : qtyUnits - (qtyUnits % lot.step);
  if (lot.max > 0n && qty > lot.max) qty = lot.max - (lot.max % lot.step);
  const appliesMax = type === 'ioc' || rules.maxNotionalForMarket;
  if (appliesMax && rules.maxNotional > 0n && priceUnits > 0n && notionalOf(qty, priceUnits, rules) > rules.maxNotional) {
    const most = (rules.maxNotional * 10n ** BigInt(rules.baseDecimals)) / priceUnits;
    qty = most - (most % lot.step);
  }
  if (qty <= 0n || qty < lot.min) return { kind: 'below-minimum', qtyUnits: qty, reason: `below the lot minimum ${formatUnits(lot.min, rules.baseDecimals)} ${rules.base}` };
  const appliesMin = type === 'ioc' || rules.minNotionalForMarket;
  if (appliesMin && rules.minNotional > 0n && priceUnits > 0n && notionalOf(qty, priceUnits, rules) < rules.minNotional) {
    return { kind: 'below-minimum', qtyUnits: qty, reason: `notional below the minimum ${formatUnits(rules.minNotional, rules.quoteDecimals)} ${rules.quote}` };
  }
  return { kind: 'ok', qtyUnits: qty };
}

/** A price rounded to the tick in the direction that keeps a taker's limit at least as permissive (buys up, sells down). */
export function roundLimitPrice(priceUnits: bigint, side: 'buy' | 'sell', rules: HedgeRules): bigint {
  const tick = rules.priceTick;
  if (tick <= 0n) return priceUnits;
  const remainder = priceUnits % tick;
  if (remainder === 0n) return priceUnits;
  return side === 'buy' ? priceUnits - remainder + tick : priceUnits - remainder;
}
