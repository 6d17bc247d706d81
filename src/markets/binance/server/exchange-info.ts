/**
 * The `exchangeInfo` answer of the one replayed symbol (rest-api.md "Exchange information"): it
 * advertises only what the venue serves: LIMIT, LIMIT_MAKER and MARKET orders (with
 * `quoteOrderQty`), no iceberg, OCO/OTO/OPO, trailing, cancel-replace, amend or pegged orders; the
 * tick and step inferred from the recording, Binance's NOTIONAL minimum by quote asset, and the
 * limits the server enforces.
 */
import { splitSymbol } from '../../../core/index.ts';
import { STP_MODES } from './order-requests.ts';
import { AVERAGE_PRICE_MINUTES } from './trade-tape.ts';

/** What the answer reads from the replay. */
export interface ExchangeInfoSource {
  /** Upper case. */
  readonly symbol: string;
  readonly rules: { readonly tickSize: string; readonly stepSize: string };
}

/** The limits `exchangeInfo` states (what the server enforces). */
export interface StatedLimits {
  readonly weightPerMinute: number;
  readonly ordersPer10s: number;
  readonly ordersPerDay: number;
}

/** Binance's NOTIONAL minimum by quote asset (ETHUSDT and BTCUSDT: 5 USDT); 0 = none. */
const MIN_NOTIONAL_BY_QUOTE: Readonly<Record<string, string>> = { USDT: '5.00000000', USDC: '5.00000000', FDUSD: '5.00000000', TUSD: '5.00000000', BTC: '0.00010000', ETH: '0.00100000', BNB: '0.01000000', EUR: '5.00000000', TRY: '10.00000000' };

/** The NOTIONAL minimum the loopback venue applies to `symbol` (decimal text, 8 places). */
export function minNotionalOf(symbol: string): string {
  const quote = splitSymbol(symbol)?.quote ?? '';
  return MIN_NOTIONAL_BY_QUOTE[quote] ?? '0.00000000';
}

/** The largest quantity LOT_SIZE and MARKET_LOT_SIZE allow on the loopback venue. */
export const MAX_QTY_TEXT = '9000.00000000';

/** The symbol's exchangeInfo entry, as Binance prints one. */
function symbolEntry(source: ExchangeInfoSource): Record<string, unknown> {
  const { symbol, rules } = source;
  const assets = splitSymbol(symbol) ?? { base: symbol, quote: '' };
  return {
    symbol,
    status: 'TRADING',
    baseAsset: assets.base,
    baseAssetPrecision: 8,
    quoteAsset: assets.quote,
    quotePrecision: 8,
    quoteAssetPrecision: 8,
    baseCommissionPrecision: 8,
    quoteCommissionPrecision: 8,
    orderTypes: ['LIMIT', 'LIMIT_MAKER', 'MARKET'],
    icebergAllowed: false,
    ocoAllowed: false,
    otoAllowed: false,
    opoAllowed: false,
    quoteOrderQtyMarketAllowed: true,
    allowTrailingStop: false,
    cancelReplaceAllowed: false,
    amendAllowed: false,
    pegInstructionsAllowed: false,
    isSpotTradingAllowed: true,
    isMarginTradingAllowed: false,
    filters: [
      { filterType: 'PRICE_FILTER', minPrice: rules.tickSize, maxPrice: '1000000.00000000', tickSize: rules.tickSize },
      { filterType: 'LOT_SIZE', minQty: rules.stepSize, maxQty: MAX_QTY_TEXT, stepSize: rules.stepSize },
      { filterType: 'MARKET_LOT_SIZE', minQty: rules.stepSize, maxQty: MAX_QTY_TEXT, stepSize: rules.stepSize },
      { filterType: 'NOTIONAL', minNotional: minNotionalOf(symbol), applyMinToMarket: true, maxNotional: '9000000.00000000', applyMaxToMarket: false, avgPriceMins: AVERAGE_PRICE_MINUTES },
    ],
    permissions: [],
    permissionSets: [['SPOT']],
    defaultSelfTradePreventionMode: STP_MODES[0],
    allowedSelfTradePreventionModes: [...STP_MODES],
  };
}

/** The whole answer at `nowMs`. */
export function exchangeInfoBody(source: ExchangeInfoSource, limits: StatedLimits, nowMs: number): Record<string, unknown> {
  return {
    timezone: 'UTC',
    serverTime: nowMs,
    rateLimits: [
      { rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', intervalNum: 1, limit: limits.weightPerMinute },
      { rateLimitType: 'ORDERS', interval: 'SECOND', intervalNum: 10, limit: limits.ordersPer10s },
      { rateLimitType: 'ORDERS', interval: 'DAY', intervalNum: 1, limit: limits.ordersPerDay },
      { rateLimitType: 'RAW_REQUESTS', interval: 'MINUTE', intervalNum: 5, limit: 61_000 },
    ],
    exchangeFilters: [],
    symbols: [symbolEntry(source)],
  };
}
