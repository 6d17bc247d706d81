/**
 * Binance's spot trading REST endpoints on loopback, for the accounts of `--accounts FILE`
 * (rest-api.md "Trading endpoints", "Account Endpoints"), answered by {@link TradingService}:
 * `POST /api/v3/order`, `POST /api/v3/order/test`, `GET/DELETE /api/v3/order`,
 * `GET/DELETE /api/v3/openOrders`, `GET /api/v3/allOrders`, `GET /api/v3/myTrades`,
 * `GET /api/v3/account`, `GET /api/v3/account/commission`, `GET /api/v3/rateLimit/order`, with their weights, SIGNED checks (`trading-auth.ts`, the signature in
 * the query string or the body), the ORDERS limit per account (429 -1015 with `Retry-After`,
 * `X-MBX-ORDER-COUNT-10S/-1D` on every order answer), and faults for tests and chaos: delayed
 * answers, 503 -1007 answers with the order executed or not (an unknown outcome), 429 bursts and
 * connections reset.
 */
import { sleep, type Clock, type Logger } from '../../../core/index.ts';
import type { AccountSpec } from './accounts.ts';
import { binanceError, type BinanceRoute, type RouteRequest, type RouteResponse } from './http-server.ts';
import { isRefusal, restParams, type Outcome, type RequestParams } from './order-requests.ts';
import type { OrderCounts } from './rate-counters.ts';
import { authenticateRest } from './trading-auth.ts';
import type { TradingService } from './trading-service.ts';

export { DEFAULT_ORDER_LIMITS, type OrderLimits } from './rate-counters.ts';

/** Faults of the trading endpoints. */
export interface RouteFaults {
  /** Answer every trading request this much later (ms on the server's clock); 0 = at once. */
  delayAnswers(ms: number): void;
  /** The next `count` placements answer 503 -1007 (execution status unknown); `applied`: the order executed anyway. */
  unknownOutcomeNext(count: number, applied: boolean): void;
  /** The next `count` trading requests answer 429 with `Retry-After: 1`, unprocessed. */
  rateLimitNext(count: number): void;
  /** While on, every trading request has its connection reset unanswered (and unprocessed): the venue unreachable. */
  unreachable(on: boolean): void;
}

const UNKNOWN_OUTCOME = binanceError(503, -1007, 'Timeout waiting for response from backend server. Send status unknown; execution status unknown.');

function answer(outcome: Outcome, headers: Readonly<Record<string, string>> = {}): RouteResponse {
  return isRefusal(outcome) ? { ...binanceError(outcome.status, outcome.code, outcome.msg), headers } : { status: 200, body: outcome.body, headers };
}

const countHeaders = (counts: OrderCounts): Record<string, string> => ({ 'X-MBX-ORDER-COUNT-10S': String(counts.tenSeconds), 'X-MBX-ORDER-COUNT-1D': String(counts.day) });

/** The trading routes of one symbol's desk. */
export function tradingRoutes(service: TradingService, clock: Clock, logger: Logger): { routes: BinanceRoute[]; faults: RouteFaults } {
  const state = { delayMs: 0, unknown: { count: 0, applied: false }, rateLimited: 0, unreachable: false };
  const accountOf = (key: string): AccountSpec | undefined => service.account(key);

  /** Authenticates, applies the faults common to every trading request, then runs `handle`. */
  const signed =
    (handle: (account: AccountSpec, params: RequestParams) => RouteResponse) =>
    async (request: RouteRequest): Promise<RouteResponse> => {
      if (state.delayMs > 0) await sleep(clock, state.delayMs);
      if (state.unreachable) return { status: 0, body: null, reset: true };
      if (state.rateLimited > 0) {
        state.rateLimited--;
        return { ...binanceError(429, -1003, 'Too many requests; current limit of IP is 6000 requests per minute.'), headers: { 'Retry-After': '1' } };
      }
      const account = authenticateRest(request.headers['x-mbx-apikey'], { rawQuery: request.rawQuery, body: request.body, params: request.query }, accountOf, clock);
      if ('code' in account) return binanceError(account.status, account.code, account.msg);
      return handle(account, restParams(request.query));
    };
  const serve = (run: (account: AccountSpec, params: RequestParams) => Outcome) => signed((account, params) => answer(run(account, params)));

  const place = signed((account, params) => {
    const prepared = service.prepareOrder(account, params);
    if (isRefusal(prepared)) return answer(prepared, 'retryAfterS' in prepared ? { 'Retry-After': String(prepared.retryAfterS) } : {});
    const headers = countHeaders(prepared.counts);
    const unknown = state.unknown.count > 0;
    if (unknown) state.unknown.count--;
    if (unknown && !state.unknown.applied) return { ...UNKNOWN_OUTCOME, headers };
    const outcome = service.executeOrder(account, prepared);
    if (unknown && !isRefusal(outcome)) {
      logger.info({ clientOrderId: prepared.request.order.clientOrderId }, 'fault: order executed, answered 503 -1007');
      return { ...UNKNOWN_OUTCOME, headers };
    }
    return answer(outcome, headers);
  });

  const routes: BinanceRoute[] = [
    { method: 'POST', path: '/api/v3/order', weight: () => 1, handle: place },
    { method: 'POST', path: '/api/v3/order/test', weight: (params) => (params.get('computeCommissionRates') === 'true' ? 20 : 1), handle: serve((account, params) => service.testOrder(account, params)) },
    { method: 'GET', path: '/api/v3/order', weight: () => 4, handle: serve((account, params) => service.queryOrder(account, params)) },
    { method: 'DELETE', path: '/api/v3/order', weight: () => 1, handle: serve((account, params) => service.cancelOrder(account, params)) },
    { method: 'GET', path: '/api/v3/openOrders', weight: (params) => (params.get('symbol') === null ? 80 : 6), handle: serve((account, params) => service.openOrders(account, params)) },
    { method: 'DELETE', path: '/api/v3/openOrders', weight: () => 1, handle: serve((account, params) => service.cancelAll(account, params)) },
    { method: 'GET', path: '/api/v3/allOrders', weight: () => 20, handle: serve((account, params) => service.allOrders(account, params)) },
    { method: 'GET', path: '/api/v3/myTrades', weight: (params) => (params.get('orderId') === null ? 20 : 5), handle: serve((account, params) => service.myTrades(account, params)) },
    { method: 'GET', path: '/api/v3/account', weight: () => 20, handle: serve((account, params) => service.accountInfo(account, params)) },
    { method: 'GET', path: '/api/v3/account/commission', weight: () => 20, handle: serve((account, params) => service.commission(account, params)) },
    { method: 'GET', path: '/api/v3/rateLimit/order', weight: () => 40, handle: serve((account) => service.orderCount(account)) },
  ];
  return {
    routes,
    faults: {
      delayAnswers: (ms) => {
        state.delayMs = ms;
      },
      unknownOutcomeNext: (count, applied) => {
        state.unknown = { count, applied };
      },
      rateLimitNext: (count) => {
        state.rateLimited = count;
      },
      unreachable: (on) => {
        state.unreachable = on;
      },
    },
  };
}
