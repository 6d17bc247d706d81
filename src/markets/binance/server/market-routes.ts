/**
 * Binance's public market-data REST endpoints for one replayed symbol (rest-api.md "Market Data
 * endpoints"), answered by {@link MarketService} with the documented weights: `ping`, `time`,
 * `exchangeInfo`, `depth`, `trades`, `aggTrades`, `avgPrice`, `klines`, `ticker/24hr`, `ticker/price`,
 * `ticker/bookTicker`.
 */
import type { Clock } from '../../../core/index.ts';
import { binanceError, type BinanceRoute, type RouteResponse } from './http-server.ts';
import { dayTickerWeight, depthRequestWeight, topTickerWeight, type MarketService } from './market-service.ts';
import { isRefusal, restParams, type Outcome, type RequestParams } from './order-requests.ts';

// The symbol rules other modules read where they always have (src/cli/backtest-plan.ts).
export { MAX_QTY_TEXT, minNotionalOf } from './exchange-info.ts';
export { depthWeight } from './market-service.ts';

function answer(outcome: Outcome): RouteResponse {
  return isRefusal(outcome) ? binanceError(outcome.status, outcome.code, outcome.msg) : { status: 200, body: outcome.body };
}

/** The market-data routes. */
export function marketRoutes(market: MarketService, clock: Clock): BinanceRoute[] {
  const route = (path: string, weight: (params: RequestParams) => number, run: (params: RequestParams) => Outcome | Promise<Outcome>): BinanceRoute => ({
    method: 'GET',
    path: `/api/v3/${path}`,
    weight: (query) => weight(restParams(query)),
    handle: async ({ query }) => answer(await run(restParams(query))),
  });
  return [
    route('ping', () => 1, () => ({ status: 200, body: {} })),
    route('time', () => 1, () => ({ status: 200, body: { serverTime: Math.floor(clock.nowMs()) } })),
    route('exchangeInfo', () => 20, (params) => market.exchangeInfo(params)),
    route('depth', depthRequestWeight, (params) => market.depth(params)),
    route('trades', () => 25, (params) => market.recentTrades(params)),
    route('aggTrades', () => 4, (params) => market.aggregateTrades(params)),
    route('avgPrice', () => 2, (params) => market.averagePrice(params)),
    route('klines', () => 2, (params) => market.klines(params)),
    route('ticker/24hr', dayTickerWeight, (params) => market.dayTicker(params)),
    route('ticker/price', topTickerWeight, (params) => market.priceTicker(params)),
    route('ticker/bookTicker', topTickerWeight, (params) => market.bookTicker(params)),
  ];
}
