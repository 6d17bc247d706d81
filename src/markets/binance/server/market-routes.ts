/**
 * Binance's public market-data REST endpoints for one replayed symbol (rest-api.md): `ping`,
 * `time`, `exchangeInfo`, `depth` and `ticker/bookTicker`, with the documented weights,
 * parameter checks and error codes (-1100 illegal characters, -1102 missing parameter, -1121
 * invalid symbol, -1128 bad combination). `depth` and `ticker/bookTicker` are the replay's live
 * book, so a depth's `lastUpdateId` bridges onto the diff stream exactly as Binance's does.
 * `exchangeInfo` advertises only what the venue serves: LIMIT, LIMIT_MAKER and MARKET orders
 * (with `quoteOrderQty`), no iceberg, OCO/OTO/OPO, trailing, cancel-replace, amend or pegged
 * orders.
 */
import { splitSymbol, type Clock } from '../../../core/index.ts';
import { binanceError, type BinanceRoute, type RouteResponse } from './http-server.ts';
import { STP_MODES } from './order-requests.ts';
import { WEIGHT_LIMIT_PER_MINUTE } from './rate-counters.ts';
import type { TextSnapshot } from './recording.ts';

/** What the routes read from the replay. */
export interface MarketSource {
  /** Upper case. */
  readonly symbol: string;
  readonly rules: { readonly tickSize: string; readonly stepSize: string };
  snapshot(limit: number): TextSnapshot | undefined;
}

/** Lets a test hold depth answers back (a snapshot that is slow to come). */
export interface SnapshotGate {
  /** Resolves when depth answers may go out. */
  wait(): Promise<void>;
}

/** Weight of `/api/v3/depth` by limit (rest-api.md). */
export function depthWeight(limit: number): number {
  if (limit <= 100) return 5;
  if (limit <= 500) return 25;
  if (limit <= 1000) return 50;
  return 250;
}

const MAX_DEPTH_LIMIT = 5000;
const DEFAULT_DEPTH_LIMIT = 100;

function parseLimit(text: string | null): number | RouteResponse {
  if (text === null) return DEFAULT_DEPTH_LIMIT;
  if (!/^[0-9]{1,20}$/.test(text)) return binanceError(400, -1100, "Illegal characters found in parameter 'limit'; legal range is '^[0-9]{1,20}$'.");
  const limit = Number(text);
  if (limit < 1) return binanceError(400, -1100, "Illegal characters found in parameter 'limit'; legal range is '^[0-9]{1,20}$'.");
  return Math.min(limit, MAX_DEPTH_LIMIT);
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
function symbolEntry(source: MarketSource): Record<string, unknown> {
  const assets = splitSymbol(source.symbol) ?? { base: source.symbol, quote: '' };
  return {
    symbol: source.symbol,
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
      { filterType: 'PRICE_FILTER', minPrice: source.rules.tickSize, maxPrice: '1000000.00000000', tickSize: source.rules.tickSize },
      { filterType: 'LOT_SIZE', minQty: source.rules.stepSize, maxQty: MAX_QTY_TEXT, stepSize: source.rules.stepSize },
      { filterType: 'MARKET_LOT_SIZE', minQty: source.rules.stepSize, maxQty: MAX_QTY_TEXT, stepSize: source.rules.stepSize },
      { filterType: 'NOTIONAL', minNotional: minNotionalOf(source.symbol), applyMinToMarket: true, maxNotional: '9000000.00000000', applyMaxToMarket: false, avgPriceMins: 5 },
    ],
    permissions: [],
    permissionSets: [['SPOT']],
    defaultSelfTradePreventionMode: STP_MODES[0],
    allowedSelfTradePreventionModes: [...STP_MODES],
  };
}

/** Which symbols a request names (`symbol`, or `symbols` as a JSON list); undefined = all. */
function requestedSymbols(query: URLSearchParams): string[] | RouteResponse | undefined {
  const one = query.get('symbol');
  const many = query.get('symbols');
  if (one !== null && many !== null) return binanceError(400, -1128, 'Combination of optional parameters invalid.');
  if (one !== null) return [one];
  if (many === null) return undefined;
  try {
    const list: unknown = JSON.parse(many);
    if (Array.isArray(list) && list.every((item) => typeof item === 'string')) return list as string[];
  } catch {
    // falls through to the error
  }
  return binanceError(400, -1100, "Illegal characters found in parameter 'symbols'; legal range is '^\\[(\"[A-Z0-9-_.]{1,20}\"(,\"[A-Z0-9-_.]{1,20}\"){0,}){0,1}\\]$'.");
}

/** The limits `exchangeInfo` states (what the server enforces). */
export interface StatedLimits {
  readonly weightPerMinute: number;
  readonly ordersPer10s: number;
  readonly ordersPerDay: number;
}

/** The market-data routes. */
export function marketRoutes(source: MarketSource, clock: Clock, gate: SnapshotGate, limits: StatedLimits = { weightPerMinute: WEIGHT_LIMIT_PER_MINUTE, ordersPer10s: 100, ordersPerDay: 200_000 }): BinanceRoute[] {
  const invalidSymbol = binanceError(400, -1121, 'Invalid symbol.');
  return [
    { method: 'GET', path: '/api/v3/ping', weight: () => 1, handle: () => ({ status: 200, body: {} }) },
    { method: 'GET', path: '/api/v3/time', weight: () => 1, handle: () => ({ status: 200, body: { serverTime: Math.floor(clock.nowMs()) } }) },
    {
      method: 'GET',
      path: '/api/v3/exchangeInfo',
      weight: () => 20,
      handle: ({ query }) => {
        const wanted = requestedSymbols(query);
        if (wanted !== undefined && !Array.isArray(wanted)) return wanted;
        if (wanted !== undefined && wanted.some((symbol) => symbol !== source.symbol)) return invalidSymbol;
        return {
          status: 200,
          body: {
            timezone: 'UTC',
            serverTime: Math.floor(clock.nowMs()),
            rateLimits: [
              { rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', intervalNum: 1, limit: limits.weightPerMinute },
              { rateLimitType: 'ORDERS', interval: 'SECOND', intervalNum: 10, limit: limits.ordersPer10s },
              { rateLimitType: 'ORDERS', interval: 'DAY', intervalNum: 1, limit: limits.ordersPerDay },
              { rateLimitType: 'RAW_REQUESTS', interval: 'MINUTE', intervalNum: 5, limit: 61_000 },
            ],
            exchangeFilters: [],
            symbols: [symbolEntry(source)],
          },
        };
      },
    },
    {
      method: 'GET',
      path: '/api/v3/depth',
      weight: (query) => {
        const limit = parseLimit(query.get('limit'));
        return depthWeight(typeof limit === 'number' ? limit : DEFAULT_DEPTH_LIMIT);
      },
      handle: async ({ query }) => {
        const symbol = query.get('symbol');
        if (symbol === null || symbol === '') return binanceError(400, -1102, "Mandatory parameter 'symbol' was not sent, was empty/null, or malformed.");
        if (symbol !== source.symbol) return invalidSymbol;
        const limit = parseLimit(query.get('limit'));
        if (typeof limit !== 'number') return limit;
        await gate.wait();
        const snapshot = source.snapshot(limit);
        // The recording's own gap leaves the server without a trustworthy book until its next snapshot.
        if (snapshot === undefined) return binanceError(503, -1001, 'Internal error; unable to process your request. Please try again.');
        return { status: 200, body: { lastUpdateId: snapshot.lastUpdateId, bids: snapshot.bids, asks: snapshot.asks } };
      },
    },
    {
      // Rest-api.md "Symbol order book ticker": one object for `symbol`, a list otherwise.
      method: 'GET',
      path: '/api/v3/ticker/bookTicker',
      weight: (query) => (query.get('symbol') === null ? 4 : 2),
      handle: ({ query }) => {
        const wanted = requestedSymbols(query);
        if (wanted !== undefined && !Array.isArray(wanted)) return wanted;
        if (wanted !== undefined && wanted.some((symbol) => symbol !== source.symbol)) return invalidSymbol;
        const top = source.snapshot(1);
        if (top === undefined) return binanceError(503, -1001, 'Internal error; unable to process your request. Please try again.');
        const [bidPrice, bidQty] = top.bids[0] ?? ['0.00000000', '0.00000000'];
        const [askPrice, askQty] = top.asks[0] ?? ['0.00000000', '0.00000000'];
        const ticker = { symbol: source.symbol, bidPrice, bidQty, askPrice, askQty };
        return { status: 200, body: query.get('symbol') === null ? [ticker] : ticker };
      },
    },
  ];
}
