/**
 * A symbol's trading rules and the venue's rate limits from `GET /api/v3/exchangeInfo`
 * (filters.md, rest-api.md "LIMITS"), parsed into exact integers, and the one function that fits
 * a hedge quantity to them before anything is sent: the step of MARKET_LOT_SIZE (or LOT_SIZE),
 * its minimum and maximum, and the NOTIONAL (or MIN_NOTIONAL) bounds at a reference price.
 * Binance prints every amount with 8 decimals; so do we.
 */
import { formatUnits, parseUnits, type HedgeOrderType, type HedgeRules } from '../../../core/index.ts';
import { BinanceError } from '../errors.ts';

/** Binance's decimals for quantities, prices and notionals. */
export const BINANCE_DECIMALS = 8;

/** One rate limit of `exchangeInfo.rateLimits`. */
export interface RateLimitRule {
  readonly type: 'REQUEST_WEIGHT' | 'ORDERS' | 'RAW_REQUESTS';
  /** Window length, ms. */
  readonly windowMs: number;
  readonly limit: number;
  /** The response header that reports the count (X-MBX-USED-WEIGHT-1M, X-MBX-ORDER-COUNT-10S …). */
  readonly header: string | undefined;
}

const INTERVAL_MS: Readonly<Record<string, number>> = { SECOND: 1_000, MINUTE: 60_000, HOUR: 3_600_000, DAY: 86_400_000 };
const INTERVAL_LETTER: Readonly<Record<string, string>> = { SECOND: 'S', MINUTE: 'M', HOUR: 'H', DAY: 'D' };

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

function malformed(what: string): BinanceError {
  return new BinanceError('BINANCE_MALFORMED', `exchangeInfo: ${what}`);
}

function amount(filter: Json | undefined, field: string, type: string): bigint {
  if (filter === undefined) return 0n;
  const text = filter[field];
  if (typeof text !== 'string') throw malformed(`${type}.${field} is not a decimal string`);
  try {
    return parseUnits(text, BINANCE_DECIMALS, { rounding: 'down' });
  } catch {
    throw malformed(`${type}.${field}=${text} is not a plain decimal`);
  }
}

/**
 * The rules of `symbol` in an exchangeInfo body.
 * @throws BinanceError `BINANCE_BAD_SYMBOL` when it is not listed, `BINANCE_MALFORMED` when a filter is unreadable.
 */
export function parseHedgeRules(body: unknown, symbol: string): HedgeRules {
  const symbols = isObject(body) && Array.isArray(body['symbols']) ? (body['symbols'] as unknown[]) : undefined;
  if (symbols === undefined) throw malformed('no symbols list');
  const entry = symbols.find((item): item is Json => isObject(item) && item['symbol'] === symbol);
  if (entry === undefined) throw new BinanceError('BINANCE_BAD_SYMBOL', `Binance does not list ${symbol}`);
  const filters = Array.isArray(entry['filters']) ? entry['filters'].filter(isObject) : [];
  const find = (type: string): Json | undefined => filters.find((filter) => filter['filterType'] === type);
  const price = find('PRICE_FILTER');
  const lot = find('LOT_SIZE');
  if (lot === undefined) throw malformed(`${symbol} has no LOT_SIZE filter`);
  const market = find('MARKET_LOT_SIZE');
  const notional = find('NOTIONAL');
  const minNotional = find('MIN_NOTIONAL');
  const text = (field: string): string => (typeof entry[field] === 'string' ? (entry[field] as string) : '');
  const lotStep = amount(lot, 'stepSize', 'LOT_SIZE');
  if (lotStep <= 0n) throw malformed(`${symbol} LOT_SIZE.stepSize must be positive`);
  return {
    symbol,
    base: text('baseAsset'),
    quote: text('quoteAsset'),
    status: text('status'),
    baseDecimals: BINANCE_DECIMALS,
    quoteDecimals: BINANCE_DECIMALS,
    priceTick: amount(price, 'tickSize', 'PRICE_FILTER'),
    minPrice: amount(price, 'minPrice', 'PRICE_FILTER'),
    maxPrice: amount(price, 'maxPrice', 'PRICE_FILTER'),
    lotStep,
    minQty: amount(lot, 'minQty', 'LOT_SIZE'),
    maxQty: amount(lot, 'maxQty', 'LOT_SIZE'),
    marketStep: amount(market, 'stepSize', 'MARKET_LOT_SIZE'),
    marketMinQty: amount(market, 'minQty', 'MARKET_LOT_SIZE'),
    marketMaxQty: amount(market, 'maxQty', 'MARKET_LOT_SIZE'),
    minNotional: notional !== undefined ? amount(notional, 'minNotional', 'NOTIONAL') : amount(minNotional, 'minNotional', 'MIN_NOTIONAL'),
    maxNotional: notional !== undefined ? amount(notional, 'maxNotional', 'NOTIONAL') : 0n,
    minNotionalForMarket: notional !== undefined ? notional['applyMinToMarket'] === true : minNotional?.['applyToMarket'] === true,
    maxNotionalForMarket: notional !== undefined && notional['applyMaxToMarket'] === true,
  };
}

/** `exchangeInfo.rateLimits` as rules; unknown entries are skipped. */
export function parseRateLimits(body: unknown): RateLimitRule[] {
  const list = isObject(body) && Array.isArray(body['rateLimits']) ? (body['rateLimits'] as unknown[]) : [];
  const rules: RateLimitRule[] = [];
  for (const item of list) {
    if (!isObject(item)) continue;
    const type = item['rateLimitType'];
    const interval = item['interval'];
    const count = item['intervalNum'];
    const limit = item['limit'];
    if ((type !== 'REQUEST_WEIGHT' && type !== 'ORDERS' && type !== 'RAW_REQUESTS') || typeof interval !== 'string' || typeof count !== 'number' || typeof limit !== 'number') continue;
    const unit = INTERVAL_MS[interval];
    if (unit === undefined || !(count > 0) || !(limit > 0)) continue;
    const letter = INTERVAL_LETTER[interval] as string;
    const header = type === 'REQUEST_WEIGHT' ? `x-mbx-used-weight-${count}${letter.toLowerCase()}` : type === 'ORDERS' ? `x-mbx-order-count-${count}${letter.toLowerCase()}` : undefined;
    rules.push({ type, windowMs: unit * count, limit, header });
  }
  return rules;
}

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
