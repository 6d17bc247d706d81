/**
 * A symbol's trading rules and the venue's rate limits from `GET /api/v3/exchangeInfo`
 * (filters.md, rest-api.md "LIMITS"), parsed into exact integers. Fitting a quantity to them is
 * the port's pure helper (`core/hedge-rules.ts`). Binance prints every amount with 8 decimals; so
 * do we.
 */
import { parseUnits, type HedgeRules } from '../../../core/index.ts';
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
    // Binance's standard spot rate until the account's own is read.
    takerFeeE8: 100_000n,
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

export { fitHedgeQuantity, lotRules, notionalOf, roundLimitPrice, type QuantityFit } from '../../../core/index.ts';
