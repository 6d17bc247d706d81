/**
 * Binance's spot trading requests over the desk, independent of the transport: the REST routes
 * (`trading-routes.ts`) and the WebSocket API (`ws-api.ts`) both answer through it, so an order
 * placed one way is found, canceled and listed the other way with the same shapes and errors
 * (web-socket-api.md: the WebSocket API "accepts the same parameters, returns the same status and
 * error codes" as REST). Each request answers `{status: 200, body}` or a {@link Refusal}.
 *
 * Served: new order (and its test form, with `computeCommissionRates`), query order, cancel
 * order, cancel all open orders, open orders, all orders, account trades, account information.
 */
import type { Clock } from '../../../core/index.ts';
import type { AccountSpec } from './accounts.ts';
import {
  BAD_COMBINATION,
  isRefusal,
  longParam,
  mandatory,
  parseHistoryWindow,
  parseOrderRequest,
  parseOrderTarget,
  refuse,
  selectWindow,
  served,
  type OrderRequest,
  type Outcome,
  type Refusal,
  type RequestParams,
} from './order-requests.ts';
import type { OrderCounter, OrderCounts } from './rate-counters.ts';
import type { DeskOrder } from './desk-order.ts';
import type { TradingDesk } from './trading-desk.ts';
import { cancelBody, formatUnits8, placementBody, queryBody, tradeBody } from './trading-format.ts';

/** A refusal for the ORDERS limit, with how long to wait. */
export interface OrderLimitRefusal extends Refusal {
  readonly retryAfterS: number;
}

/** A placement that passed its checks and was counted against the ORDERS limits. */
export interface PreparedOrder {
  readonly request: OrderRequest;
  readonly counts: OrderCounts;
}

const NO_SUCH_ORDER = refuse(-2013, 'Order does not exist.');
const UNKNOWN_ORDER = refuse(-2011, 'Unknown order sent.');

/** The trading requests of one symbol's desk. */
export class TradingService {
  readonly #desk: TradingDesk;
  readonly #clock: Clock;
  readonly orders: OrderCounter;
  #generatedIds = 0;

  constructor(desk: TradingDesk, clock: Clock, orders: OrderCounter) {
    this.#desk = desk;
    this.#clock = clock;
    this.orders = orders;
  }

  get symbol(): string {
    return this.#desk.rules.symbol;
  }

  /** The account of an API key. */
  account(apiKey: string): AccountSpec | undefined {
    return this.#desk.account(apiKey);
  }

  /** -1102 for a missing mandatory `symbol`, -1121 for another symbol than the desk's. */
  checkSymbol(params: RequestParams, required: boolean): Refusal | undefined {
    const symbol = params.get('symbol');
    if (symbol === undefined) return required ? mandatory('symbol') : undefined;
    return symbol === this.symbol ? undefined : refuse(-1121, 'Invalid symbol.');
  }

  /**
   * Parses a new order and counts it against the account's ORDERS limits (429 -1015 past them,
   * with the seconds to wait); the desk has not seen it yet.
   */
  prepareOrder(account: AccountSpec, params: RequestParams): PreparedOrder | Refusal | OrderLimitRefusal {
    const symbolError = this.checkSymbol(params, true);
    if (symbolError !== undefined) return symbolError;
    const request = parseOrderRequest(params, () => this.#clientId('web'));
    if (isRefusal(request)) return request;
    const before = this.orders.counts(account.apiKey);
    const limits = this.orders.limits;
    if (before.tenSeconds >= limits.per10s || before.day >= limits.perDay) {
      const perDay = before.day >= limits.perDay;
      return { ...refuse(-1015, `Too many new orders; current limit is ${perDay ? limits.perDay : limits.per10s} orders per ${perDay ? 'DAY' : '10 SECOND'}.`, 429), retryAfterS: perDay ? 3_600 : before.retryAfterS };
    }
    return { request, counts: this.orders.counts(account.apiKey, true) };
  }

  /** Sends a prepared order to the desk. */
  executeOrder(account: AccountSpec, prepared: PreparedOrder): Outcome {
    const order = this.#desk.place(account.apiKey, prepared.request.order);
    return 'orderId' in order ? served(placementBody(order, this.symbol, prepared.request.respType)) : order;
  }

  /**
   * `POST /api/v3/order/test`, `order.test`: the same checks as a placement (parameters,
   * filters), nothing sent to the desk; `{}`, or the account's commission rates with
   * `computeCommissionRates=true` (rest-api.md "Test new order").
   */
  testOrder(account: AccountSpec, params: RequestParams): Outcome {
    const symbolError = this.checkSymbol(params, true);
    if (symbolError !== undefined) return symbolError;
    const request = parseOrderRequest(params, () => this.#clientId('test'));
    if (isRefusal(request)) return request;
    const filterError = this.#desk.checkFilters(request.order);
    if (filterError !== undefined) return filterError;
    if (params.get('computeCommissionRates') !== 'true') return served({});
    const rate = formatUnits8(account.takerCommissionE8);
    const zero = formatUnits8(0n);
    return served({
      standardCommissionForOrder: { maker: rate, taker: rate },
      specialCommissionForOrder: { maker: zero, taker: zero },
      taxCommissionForOrder: { maker: zero, taker: zero },
      discount: { enabledForAccount: false, enabledForSymbol: false, discountAsset: 'BNB', discount: zero },
    });
  }

  /** `GET /api/v3/order`, `order.status`: by `orderId` and/or `origClientOrderId`, whatever the order's status. */
  queryOrder(account: AccountSpec, params: RequestParams): Outcome {
    const found = this.#find(account, params, NO_SUCH_ORDER);
    return isRefusal(found) ? found : served(queryBody(found, this.symbol));
  }

  /** `DELETE /api/v3/order`, `order.cancel` (with `cancelRestrictions`). */
  cancelOrder(account: AccountSpec, params: RequestParams): Outcome {
    const found = this.#find(account, params, UNKNOWN_ORDER);
    if (isRefusal(found)) return found;
    const restriction = params.get('cancelRestrictions');
    if (restriction !== undefined && restriction !== 'ONLY_NEW' && restriction !== 'ONLY_PARTIALLY_FILLED') return refuse(-1145, 'Invalid cancelRestrictions');
    if ((restriction === 'ONLY_NEW' && found.status !== 'NEW') || (restriction === 'ONLY_PARTIALLY_FILLED' && found.status !== 'PARTIALLY_FILLED')) {
      return refuse(-2011, 'Order was not canceled due to cancel restrictions.');
    }
    const cancelId = params.get('newClientOrderId') ?? this.#clientId('cancel');
    const canceled = this.#desk.cancel(account.apiKey, found, cancelId);
    return 'orderId' in canceled ? served(cancelBody(canceled, this.symbol, cancelId)) : canceled;
  }

  /** `DELETE /api/v3/openOrders`, `openOrders.cancelAll`: -2011 when nothing is open, as Binance answers. */
  cancelAll(account: AccountSpec, params: RequestParams): Outcome {
    const symbolError = this.checkSymbol(params, true);
    if (symbolError !== undefined) return symbolError;
    const open = this.#desk.openOrders(account.apiKey);
    if (open.length === 0) return UNKNOWN_ORDER;
    // One id for the whole cancel, as Binance's answer shows it on every order.
    const cancelId = this.#clientId('cancel');
    for (const order of open) this.#desk.cancel(account.apiKey, order, cancelId);
    return served(open.map((order) => cancelBody(order, this.symbol, cancelId)));
  }

  /** `GET /api/v3/openOrders`, `openOrders.status` (the symbol is optional: the venue has one). */
  openOrders(account: AccountSpec, params: RequestParams): Outcome {
    const symbolError = this.checkSymbol(params, false);
    if (symbolError !== undefined) return symbolError;
    return served(this.#desk.openOrders(account.apiKey).map((order) => queryBody(order, this.symbol)));
  }

  /** `GET /api/v3/allOrders`, `allOrders`: orders with id ≥ `orderId`, or in a time window. */
  allOrders(account: AccountSpec, params: RequestParams): Outcome {
    const symbolError = this.checkSymbol(params, true);
    if (symbolError !== undefined) return symbolError;
    const window = parseHistoryWindow(params, 'orderId');
    if (isRefusal(window)) return window;
    const chosen = selectWindow(this.#desk.orders(account.apiKey), window, (order) => order.orderId, (order) => order.updateMs);
    return served(chosen.map((order) => queryBody(order, this.symbol)));
  }

  /**
   * `GET /api/v3/myTrades`, `myTrades`: the account's trades, optionally of one order, from a
   * trade id or in a time window (the combinations rest-api.md lists; others answer -1128).
   */
  myTrades(account: AccountSpec, params: RequestParams): Outcome {
    const symbolError = this.checkSymbol(params, true);
    if (symbolError !== undefined) return symbolError;
    const window = parseHistoryWindow(params, 'fromId');
    if (isRefusal(window)) return window;
    const orderId = longParam(params, 'orderId');
    if (isRefusal(orderId)) return orderId;
    const timed = window.startTime !== undefined || window.endTime !== undefined;
    if (timed && (window.fromId !== undefined || orderId !== undefined)) return BAD_COMBINATION;
    const orders = this.#desk.orders(account.apiKey).filter((order) => orderId === undefined || order.orderId === orderId);
    const trades = orders.flatMap((order) => order.trades.map((trade) => ({ order, trade }))).sort((a, b) => a.trade.tradeId - b.trade.tradeId);
    const chosen = selectWindow(trades, window, (item) => item.trade.tradeId, (item) => item.trade.timeMs);
    return served(chosen.map(({ order, trade }) => tradeBody(order, trade, this.symbol)));
  }

  /**
   * `GET /api/v3/account/commission`, `account.commission`: the account's rates on the symbol
   * (rest-api.md "Query Commission Rates"): its taker rate on both sides, no special, tax or BNB
   * discount.
   */
  commission(account: AccountSpec, params: RequestParams): Outcome {
    const symbolError = this.checkSymbol(params, true);
    if (symbolError !== undefined) return symbolError;
    const rate = formatUnits8(account.takerCommissionE8);
    const zero = formatUnits8(0n);
    const none = { maker: zero, taker: zero, buyer: zero, seller: zero };
    return served({
      symbol: this.symbol,
      standardCommission: { maker: rate, taker: rate, buyer: zero, seller: zero },
      specialCommission: none,
      taxCommission: none,
      discount: { enabledForAccount: false, enabledForSymbol: false, discountAsset: 'BNB', discount: zero },
    });
  }

  /**
   * `GET /api/v3/rateLimit/order`, `account.rateLimits.orders`: the account's ORDERS counts per 10 s
   * and per day against their limits (rest-api.md "Query Unfilled Order Count").
   */
  orderCount(account: AccountSpec): Outcome {
    return served(this.orders.status(this.orders.counts(account.apiKey)));
  }

  /** `GET /api/v3/account`, `account.status` (`omitZeroBalances`). */
  accountInfo(account: AccountSpec, params: RequestParams): Outcome {
    const omitZero = params.get('omitZeroBalances') === 'true';
    const rate = formatUnits8(account.takerCommissionE8);
    // Basis points, as the integer fields print them (0.001 = 10).
    const bps = Number(account.takerCommissionE8 / 10_000n);
    const balances = this.#desk.balances(account.apiKey).filter((balance) => !omitZero || balance.free > 0n || balance.locked > 0n);
    return served({
      makerCommission: bps,
      takerCommission: bps,
      buyerCommission: 0,
      sellerCommission: 0,
      commissionRates: { maker: rate, taker: rate, buyer: '0.00000000', seller: '0.00000000' },
      canTrade: true,
      canWithdraw: false,
      canDeposit: false,
      brokered: false,
      requireSelfTradePrevention: false,
      preventSor: false,
      updateTime: Math.floor(this.#clock.nowMs()),
      accountType: 'SPOT',
      balances: balances.map((balance) => ({ asset: balance.asset, free: formatUnits8(balance.free), locked: formatUnits8(balance.locked) })),
      permissions: ['SPOT'],
      uid: 1,
    });
  }

  /**
   * The order a query or cancel names: by `orderId` first, then its client id checked against
   * `origClientOrderId` when both are sent (-2039 for a query, as Binance answers since
   * 2025-04-08; the cancel's own refusal otherwise).
   */
  #find(account: AccountSpec, params: RequestParams, absent: Refusal): DeskOrder | Refusal {
    const symbolError = this.checkSymbol(params, true);
    if (symbolError !== undefined) return symbolError;
    const target = parseOrderTarget(params);
    if (isRefusal(target)) return target;
    if (target.orderId === undefined) return this.#desk.order(account.apiKey, target.clientOrderId ?? '') ?? absent;
    const order = this.#desk.orderById(account.apiKey, target.orderId);
    if (order === undefined) return absent;
    if (target.clientOrderId !== undefined && target.clientOrderId !== order.clientOrderId) {
      return absent === NO_SUCH_ORDER ? refuse(-2039, 'Client order ID is not correct for this order ID.') : absent;
    }
    return order;
  }

  /** A client id the venue makes up (a placement or a cancel sent without one). */
  #clientId(kind: string): string {
    return `${kind}_${Math.floor(this.#clock.nowMs()).toString(36)}_${++this.#generatedIds}`;
  }
}
