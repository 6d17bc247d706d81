/**
 * The parameters of Binance's trading requests, read the same way whether they came over REST
 * (query string and form body) or the WebSocket API (`params`), and refused with Binance's codes
 * and messages (errors.md): -1102 mandatory parameter missing, -1100 illegal characters, -1106
 * parameter not required, -1111 too much precision, -1115/-1116/-1117 bad enums, -1128 bad
 * combination, and -2010 "… orders are not supported for this symbol." for the order types and
 * features exchangeInfo does not advertise (stop, take-profit, iceberg, trailing, pegged).
 */
import type { NewOrder } from './trading-desk.ts';
import { timeParamMs } from './time-unit.ts';
import { parseAmount8 } from './trading-format.ts';

/** A request's parameters, whatever the transport; an empty value reads as absent. */
export interface RequestParams {
  get(name: string): string | undefined;
}

/** REST: the merged query and body. */
export function restParams(params: URLSearchParams): RequestParams {
  return { get: (name) => params.get(name) || undefined };
}

/** WebSocket API: `params`, numbers and booleans read as the text Binance would parse. */
export function websocketParams(params: Readonly<Record<string, unknown>>): RequestParams {
  return {
    get: (name) => {
      const value = params[name];
      if (typeof value === 'string') return value === '' ? undefined : value;
      if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
      return value === undefined || value === null ? undefined : JSON.stringify(value);
    },
  };
}

/** A refusal: HTTP status, Binance code, message. */
export interface Refusal {
  readonly status: number;
  readonly code: number;
  readonly msg: string;
}

/** A successful answer. */
export interface Served {
  readonly status: 200;
  readonly body: unknown;
}

/** What a request gets, whatever the transport. */
export type Outcome = Served | Refusal;

export const served = (body: unknown): Served => ({ status: 200, body });

export const isRefusal = (value: unknown): value is Refusal => typeof value === 'object' && value !== null && 'code' in value && 'msg' in value;

export const refuse = (code: number, msg: string, status = 400): Refusal => ({ status, code, msg });
export const mandatory = (name: string): Refusal => refuse(-1102, `Mandatory parameter '${name}' was not sent, was empty/null, or malformed.`);
export const notRequired = (name: string): Refusal => refuse(-1106, `Parameter '${name}' sent when not required.`);
export const illegal = (name: string, range: string): Refusal => refuse(-1100, `Illegal characters found in parameter '${name}'; legal range is '${range}'.`);
export const BAD_COMBINATION = refuse(-1128, 'Combination of optional parameters invalid.');

const DECIMAL = /^([0-9]{1,20})(\.[0-9]{1,20})?$/;
const CLIENT_ID = /^[a-zA-Z0-9_-]{1,36}$/;
const LONG = /^[0-9]{1,20}$/;

/** A DECIMAL parameter in 8-decimal units; undefined when absent. */
export function decimalParam(params: RequestParams, name: string): bigint | undefined | Refusal {
  const text = params.get(name);
  if (text === undefined) return undefined;
  if (!DECIMAL.test(text)) return illegal(name, DECIMAL.source);
  // Trailing zeros are not precision: "0.0100000000" is 0.01.
  const value = parseAmount8(text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text);
  return value ?? refuse(-1111, `Parameter '${name}' has too much precision.`);
}

/** A LONG parameter (ids, times); undefined when absent. */
export function longParam(params: RequestParams, name: string): number | undefined | Refusal {
  const text = params.get(name);
  if (text === undefined) return undefined;
  if (!LONG.test(text) || !Number.isSafeInteger(Number(text))) return illegal(name, '^[0-9]{1,20}$');
  return Number(text);
}

/** A `limit` parameter: `fallback` when absent, at most `max`; -1100 for anything but a positive integer. */
export function limitParam(params: RequestParams, fallback: number, max: number): number | Refusal {
  const limit = longParam(params, 'limit');
  if (typeof limit === 'object') return limit;
  if (limit === undefined) return fallback;
  if (limit < 1) return illegal('limit', '^[0-9]{1,20}$');
  return Math.min(limit, max);
}

/** A time parameter (`startTime`, `endTime`) in ms, sent in ms or µs (time-unit.ts); undefined when absent. */
export function timeParam(params: RequestParams, name: string): number | undefined | Refusal {
  const value = longParam(params, name);
  return typeof value === 'number' ? timeParamMs(value) : value;
}

/** The order types Binance knows but this venue does not serve, with Binance's refusal (errors.md "-2010"). */
const UNSERVED_TYPES: Readonly<Record<string, string>> = {
  STOP_LOSS: 'Stop loss orders are not supported for this symbol.',
  STOP_LOSS_LIMIT: 'Stop loss limit orders are not supported for this symbol.',
  TAKE_PROFIT: 'Take profit orders are not supported for this symbol.',
  TAKE_PROFIT_LIMIT: 'Take profit limit orders are not supported for this symbol.',
};

/** Order features exchangeInfo says are off (`icebergAllowed`, `allowTrailingStop`, `pegInstructionsAllowed`). */
const UNSERVED_FEATURES: readonly (readonly [string, string])[] = [
  ['icebergQty', 'Iceberg orders are not supported for this symbol.'],
  ['trailingDelta', 'Trailing stop orders are not supported for this symbol.'],
  ['pegPriceType', 'Pegged orders are not supported for this symbol.'],
];

/** Self-trade prevention modes exchangeInfo lists for the symbol, the default first. */
export const STP_MODES = ['EXPIRE_MAKER', 'NONE', 'EXPIRE_TAKER', 'EXPIRE_BOTH', 'DECREMENT'] as const;

/** A new order as asked: what the desk places, and the answer's form. */
export interface OrderRequest {
  readonly order: NewOrder;
  readonly respType: 'ACK' | 'RESULT' | 'FULL';
}

/**
 * The parameters of `POST /api/v3/order`, `order.place` and their `test` forms (rest-api.md "New
 * order"): mandatory ones by type, amounts as 8-place decimals, `newClientOrderId` generated
 * when not sent (by `newClientId`).
 */
export function parseOrderRequest(params: RequestParams, newClientId: () => string): OrderRequest | Refusal {
  if (params.get('symbol') === undefined) return mandatory('symbol');
  const side = params.get('side');
  if (side === undefined) return mandatory('side');
  if (side !== 'BUY' && side !== 'SELL') return refuse(-1117, 'Invalid side.');
  const type = params.get('type');
  if (type === undefined) return mandatory('type');
  const unserved = UNSERVED_TYPES[type];
  if (unserved !== undefined) return refuse(-2010, unserved);
  if (type !== 'LIMIT' && type !== 'MARKET' && type !== 'LIMIT_MAKER') return refuse(-1116, 'Invalid orderType.');
  for (const [name, msg] of UNSERVED_FEATURES) if (params.get(name) !== undefined) return refuse(-2010, msg);
  if (params.get('stopPrice') !== undefined) return notRequired('stopPrice');

  const tif = params.get('timeInForce');
  let timeInForce: NewOrder['timeInForce'];
  if (type === 'LIMIT') {
    if (tif === undefined) return mandatory('timeInForce');
    if (tif !== 'GTC' && tif !== 'IOC' && tif !== 'FOK') return refuse(-1115, 'Invalid timeInForce.');
    timeInForce = tif;
  } else if (tif !== undefined) {
    return notRequired('timeInForce');
  }
  const quantity = decimalParam(params, 'quantity');
  if (typeof quantity === 'object') return quantity;
  const quoteQuantity = decimalParam(params, 'quoteOrderQty');
  if (typeof quoteQuantity === 'object') return quoteQuantity;
  if (type === 'MARKET') {
    if (quantity === undefined && quoteQuantity === undefined) return refuse(-1102, "Param 'quantity' or 'quoteOrderQty' must be sent, but both were empty/null!");
    if (quantity !== undefined && quoteQuantity !== undefined) return notRequired('quoteOrderQty');
  } else {
    if (quantity === undefined) return mandatory('quantity');
    if (quoteQuantity !== undefined) return notRequired('quoteOrderQty');
  }
  const price = decimalParam(params, 'price');
  if (typeof price === 'object') return price;
  if (type === 'MARKET' && price !== undefined) return notRequired('price');
  if (type !== 'MARKET' && price === undefined) return mandatory('price');

  const clientOrderId = params.get('newClientOrderId') ?? newClientId();
  if (!CLIENT_ID.test(clientOrderId)) return illegal('newClientOrderId', '^[a-zA-Z0-9-_]{1,36}$');
  const stp = params.get('selfTradePreventionMode') ?? STP_MODES[0];
  if (!(STP_MODES as readonly string[]).includes(stp)) return illegal('selfTradePreventionMode', STP_MODES.join(', '));
  // Rest-api.md: "MARKET and LIMIT order types default to FULL, all other orders default to ACK."
  const respType = params.get('newOrderRespType') ?? (type === 'LIMIT_MAKER' ? 'ACK' : 'FULL');
  if (respType !== 'ACK' && respType !== 'RESULT' && respType !== 'FULL') return illegal('newOrderRespType', 'ACK, RESULT, FULL');
  return { order: { side, type, timeInForce, quantity, quoteQuantity, price, clientOrderId, selfTradePreventionMode: stp }, respType };
}

/** Which order a query or cancel names (at least one of the two). */
export interface OrderTarget {
  readonly orderId: number | undefined;
  readonly clientOrderId: string | undefined;
}

/** `orderId` and/or `origClientOrderId` (rest-api.md "Query order", "Cancel order"). */
export function parseOrderTarget(params: RequestParams): OrderTarget | Refusal {
  const orderId = longParam(params, 'orderId');
  if (typeof orderId === 'object') return orderId;
  const clientOrderId = params.get('origClientOrderId');
  if (orderId === undefined && clientOrderId === undefined) return refuse(-1102, "Param 'origClientOrderId' or 'orderId' must be sent, but both were empty/null!");
  return { orderId, clientOrderId };
}

/** The window of a history request (`allOrders`, `myTrades`). */
export interface HistoryWindow {
  /** Lowest id to return (`orderId` for orders, `fromId` for trades). */
  readonly fromId: number | undefined;
  readonly startTime: number | undefined;
  readonly endTime: number | undefined;
  readonly limit: number;
}

const DAY_MS = 86_400_000;

/**
 * `startTime`, `endTime`, `limit` (default 500, at most 1000) and the lowest id (`idName`) of a
 * history request (`allOrders`, `myTrades`); the time span may not pass 24 hours (-1127).
 */
export function parseHistoryWindow(params: RequestParams, idName: 'orderId' | 'fromId'): HistoryWindow | Refusal {
  const window = parseWindow(params, idName);
  if (isRefusal(window)) return window;
  if (window.startTime !== undefined && window.endTime !== undefined && window.endTime - window.startTime > DAY_MS) return refuse(-1127, 'More than 24 hours between startTime and endTime.');
  return window;
}

/** `startTime`, `endTime`, `limit` (default 500, at most 1000) and the lowest id (`idName`) of a request for items in order. */
export function parseWindow(params: RequestParams, idName: 'orderId' | 'fromId'): HistoryWindow | Refusal {
  const fromId = longParam(params, idName);
  if (typeof fromId === 'object') return fromId;
  const startTime = timeParam(params, 'startTime');
  if (typeof startTime === 'object') return startTime;
  const endTime = timeParam(params, 'endTime');
  if (typeof endTime === 'object') return endTime;
  const limit = limitParam(params, 500, 1_000);
  if (typeof limit !== 'number') return limit;
  return { fromId, startTime, endTime, limit };
}

/**
 * The items of a history window, oldest first (rest-api.md "General API Information": without
 * a start, the most recent up to the limit; with `startTime` or a lowest id, the oldest from it).
 */
export function selectWindow<T>(items: readonly T[], window: HistoryWindow, idOf: (item: T) => number, timeOf: (item: T) => number): T[] {
  const chosen = items.filter(
    (item) =>
      (window.fromId === undefined || idOf(item) >= window.fromId) &&
      (window.startTime === undefined || timeOf(item) >= window.startTime) &&
      (window.endTime === undefined || timeOf(item) <= window.endTime),
  );
  const fromStart = window.fromId !== undefined || window.startTime !== undefined;
  return fromStart ? chosen.slice(0, window.limit) : chosen.slice(-window.limit);
}
