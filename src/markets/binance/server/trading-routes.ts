/**
 * Binance's spot trading REST endpoints on loopback, for the accounts of `--accounts FILE`
 * (rest-api.md "Trading endpoints", "Account Endpoints"): `POST/GET/DELETE /api/v3/order`,
 * `GET /api/v3/openOrders`, `GET /api/v3/account`, with their weights, SIGNED checks
 * (`trading-auth.ts`), parameter errors, the ORDERS limit per account (429 -1015 with
 * `Retry-After`, `X-MBX-ORDER-COUNT-10S/-1D` on every order answer), and faults for tests and
 * chaos: delayed answers, 503 -1007 answers with the order executed or not (an unknown outcome),
 * and 429 bursts.
 */
import { sleep, type Clock, type Logger } from '../../../core/index.ts';
import { authenticateRest, type AuthError } from './trading-auth.ts';
import type { DeskError, DeskOrder, NewOrder, TradingDesk } from './trading-desk.ts';
import { formatUnits8, orderBody, parseAmount8 } from './trading-format.ts';
import { binanceError, type BinanceRoute, type RouteRequest, type RouteResponse } from './http-server.ts';
import type { AccountSpec } from './accounts.ts';

/** The account order limits (rest-api.md: 100 per 10 s, 200 000 per day). */
export interface OrderLimits {
  readonly per10s: number;
  readonly perDay: number;
}

export const DEFAULT_ORDER_LIMITS: OrderLimits = { per10s: 100, perDay: 200_000 };

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

const CLIENT_ID = /^[a-zA-Z0-9_-]{1,36}$/;

function isError(value: AccountSpec | AuthError): value is AuthError {
  return 'code' in value;
}

function fromError(error: DeskError | AuthError): RouteResponse {
  return binanceError(error.status, error.code, error.msg);
}

function mandatory(name: string): RouteResponse {
  return binanceError(400, -1102, `Mandatory parameter '${name}' was not sent, was empty/null, or malformed.`);
}

/** The trading routes of one symbol's desk. */
export function tradingRoutes(desk: TradingDesk, clock: Clock, logger: Logger, limits: OrderLimits = DEFAULT_ORDER_LIMITS): { routes: BinanceRoute[]; faults: RouteFaults } {
  const state = { delayMs: 0, unknown: { count: 0, applied: false }, rateLimited: 0, unreachable: false };
  const placedAt = new Map<string, number[]>();
  const symbol = desk.rules.symbol;

  /** Authenticates, applies the faults common to every trading request, then runs `handle`. */
  const signed =
    (handle: (account: AccountSpec, request: RouteRequest) => RouteResponse | Promise<RouteResponse>) =>
    async (request: RouteRequest): Promise<RouteResponse> => {
      if (state.delayMs > 0) await sleep(clock, state.delayMs);
      if (state.unreachable) return { status: 0, body: null, reset: true };
      if (state.rateLimited > 0) {
        state.rateLimited--;
        return { ...binanceError(429, -1003, 'Too many requests; current limit of IP is 6000 requests per minute.'), headers: { 'Retry-After': '1' } };
      }
      const account = authenticateRest(request.headers['x-mbx-apikey'], request.rawQuery, request.body, (key) => desk.account(key), clock);
      if (isError(account)) return fromError(account);
      const symbolParam = request.query.get('symbol');
      if (symbolParam !== null && symbolParam !== symbol) return binanceError(400, -1121, 'Invalid symbol.');
      return handle(account, request);
    };

  const orderCounts = (apiKey: string, add: boolean): { tenSeconds: number; day: number; retryAfterS: number } => {
    const now = clock.nowMs();
    const list = (placedAt.get(apiKey) ?? []).filter((at) => at > now - 86_400_000);
    if (add) list.push(now);
    placedAt.set(apiKey, list);
    const windowStart = Math.floor(now / 10_000) * 10_000;
    return { tenSeconds: list.filter((at) => at >= windowStart).length, day: list.length, retryAfterS: Math.max(1, Math.ceil((windowStart + 10_000 - now) / 1000)) };
  };

  const place = signed((account, { query }) => {
    if (query.get('symbol') === null) return mandatory('symbol');
    const sideText = query.get('side');
    if (sideText === null) return mandatory('side');
    if (sideText !== 'BUY' && sideText !== 'SELL') return binanceError(400, -1117, 'Invalid side.');
    const typeText = query.get('type');
    if (typeText === null) return mandatory('type');
    if (typeText !== 'MARKET' && typeText !== 'LIMIT') return binanceError(400, -1116, 'Invalid orderType.');
    const quantityText = query.get('quantity');
    if (quantityText === null) return mandatory('quantity');
    const quantity = parseAmount8(quantityText);
    if (quantity === undefined) return binanceError(400, -1100, "Illegal characters found in parameter 'quantity'; legal range is '^([0-9]{1,20})(\\.[0-9]{1,20})?$'.");
    const priceText = query.get('price');
    const tifText = query.get('timeInForce');
    let price: bigint | undefined;
    let timeInForce: NewOrder['timeInForce'];
    if (typeText === 'LIMIT') {
      if (tifText === null) return mandatory('timeInForce');
      if (tifText !== 'GTC' && tifText !== 'IOC' && tifText !== 'FOK') return binanceError(400, -1115, 'Invalid timeInForce.');
      timeInForce = tifText;
      if (priceText === null) return mandatory('price');
      price = parseAmount8(priceText);
      if (price === undefined) return binanceError(400, -1100, "Illegal characters found in parameter 'price'; legal range is '^([0-9]{1,20})(\\.[0-9]{1,20})?$'.");
    } else {
      if (priceText !== null) return binanceError(400, -1106, "Parameter 'price' sent when not required.");
      if (tifText !== null) return binanceError(400, -1106, "Parameter 'timeInForce' sent when not required.");
    }
    const clientOrderId = query.get('newClientOrderId') ?? `web_${clock.nowMs().toString(36)}${Math.floor(clock.nowMs() % 997)}`;
    if (!CLIENT_ID.test(clientOrderId)) return binanceError(400, -1100, "Illegal characters found in parameter 'newClientOrderId'; legal range is '^[a-zA-Z0-9-_]{1,36}$'.");
    const respType = query.get('newOrderRespType') ?? 'FULL';
    if (respType !== 'ACK' && respType !== 'RESULT' && respType !== 'FULL') return binanceError(400, -1100, "Illegal characters found in parameter 'newOrderRespType'.");
    const before = orderCounts(account.apiKey, false);
    if (before.tenSeconds >= limits.per10s || before.day >= limits.perDay) {
      const perDay = before.day >= limits.perDay;
      return { ...binanceError(429, -1015, `Too many new orders; current limit is ${perDay ? limits.perDay : limits.per10s} orders per ${perDay ? 'DAY' : '10 SECOND'}.`), headers: { 'Retry-After': String(perDay ? 3_600 : before.retryAfterS) } };
    }
    const counts = orderCounts(account.apiKey, true);
    const countHeaders = { 'X-MBX-ORDER-COUNT-10S': String(counts.tenSeconds), 'X-MBX-ORDER-COUNT-1D': String(counts.day) };
    const unknown = state.unknown.count > 0;
    if (unknown) state.unknown.count--;
    if (unknown && !state.unknown.applied) return { ...binanceError(503, -1007, 'Timeout waiting for response from backend server. Send status unknown; execution status unknown.'), headers: countHeaders };
    const result = desk.place(account.apiKey, { side: sideText, type: typeText, timeInForce, quantity, price, clientOrderId });
    if (!('orderId' in result)) return { ...fromError(result), headers: countHeaders };
    if (unknown) {
      logger.info({ clientOrderId }, 'fault: order executed, answered 503 -1007');
      return { ...binanceError(503, -1007, 'Timeout waiting for response from backend server. Send status unknown; execution status unknown.'), headers: countHeaders };
    }
    const body = orderBody(result, symbol, respType === 'FULL');
    return { status: 200, body: respType === 'ACK' ? { symbol, orderId: result.orderId, orderListId: -1, clientOrderId, transactTime: result.timeMs } : body, headers: countHeaders };
  });

  const findOrder = (account: AccountSpec, query: URLSearchParams): DeskOrder | RouteResponse => {
    const clientId = query.get('origClientOrderId');
    const orderId = query.get('orderId');
    if (clientId === null && orderId === null) return binanceError(400, -1102, "Param 'origClientOrderId' or 'orderId' must be sent, but both were empty/null!");
    const order = clientId !== null ? desk.order(account.apiKey, clientId) : desk.openOrders(account.apiKey).find((open) => String(open.orderId) === orderId);
    return order ?? binanceError(400, -2013, 'Order does not exist.');
  };

  const routes: BinanceRoute[] = [
    { method: 'POST', path: '/api/v3/order', weight: () => 1, handle: place },
    {
      method: 'GET',
      path: '/api/v3/order',
      weight: () => 4,
      handle: signed((account, { query }) => {
        if (query.get('symbol') === null) return mandatory('symbol');
        const order = findOrder(account, query);
        return 'orderId' in order ? { status: 200, body: orderBody(order, symbol, false) } : order;
      }),
    },
    {
      method: 'DELETE',
      path: '/api/v3/order',
      weight: () => 1,
      handle: signed((account, { query }) => {
        if (query.get('symbol') === null) return mandatory('symbol');
        const clientId = query.get('origClientOrderId');
        if (clientId === null) return binanceError(400, -1102, "Param 'origClientOrderId' or 'orderId' must be sent, but both were empty/null!");
        const result = desk.cancel(account.apiKey, clientId);
        return 'orderId' in result ? { status: 200, body: { ...orderBody(result, symbol, false), origClientOrderId: clientId } } : fromError(result);
      }),
    },
    {
      method: 'GET',
      path: '/api/v3/openOrders',
      weight: (query) => (query.get('symbol') === null ? 80 : 6),
      handle: signed((account) => ({ status: 200, body: desk.openOrders(account.apiKey).map((order) => orderBody(order, symbol, false)) })),
    },
    {
      method: 'GET',
      path: '/api/v3/account',
      weight: () => 20,
      handle: signed((account, { query }) => {
        const omitZero = query.get('omitZeroBalances') === 'true';
        const rate = formatUnits8(account.takerCommissionE8);
        const balances = desk.balances(account.apiKey).filter((balance) => !omitZero || balance.free > 0n || balance.locked > 0n);
        return {
          status: 200,
          body: {
            makerCommission: 10,
            takerCommission: 10,
            buyerCommission: 0,
            sellerCommission: 0,
            commissionRates: { maker: rate, taker: rate, buyer: '0.00000000', seller: '0.00000000' },
            canTrade: true,
            canWithdraw: false,
            canDeposit: false,
            brokered: false,
            requireSelfTradePrevention: false,
            preventSor: false,
            updateTime: Math.floor(clock.nowMs()),
            accountType: 'SPOT',
            balances: balances.map((balance) => ({ asset: balance.asset, free: formatUnits8(balance.free), locked: formatUnits8(balance.locked) })),
            permissions: ['SPOT'],
            uid: 1,
          },
        };
      }),
    },
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
