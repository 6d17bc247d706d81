/**
 * Binance's trading payloads, parsed at the boundary into exact integers (8 decimals): an order
 * as `POST/GET/DELETE /api/v3/order` answer it (with the `fills` of a FULL answer), the
 * `executionReport` and `outboundAccountPosition` events of the user data stream
 * (user-data-stream.md), and `GET /api/v3/account`. Anything else throws `BINANCE_MALFORMED`
 * naming the field, so the caller can log and skip it.
 */
import { parseUnits, type HedgeOrderStatus, type Side } from '../../../core/index.ts';
import { BinanceError } from '../errors.ts';
import { BINANCE_DECIMALS } from './rules.ts';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

const STATUSES: readonly HedgeOrderStatus[] = ['NEW', 'PARTIALLY_FILLED', 'FILLED', 'CANCELED', 'PENDING_CANCEL', 'REJECTED', 'EXPIRED', 'EXPIRED_IN_MATCH'];

function malformed(what: string, where: string): BinanceError {
  return new BinanceError('BINANCE_MALFORMED', `${where}: ${what}`);
}

function decimal(body: Json, field: string, where: string): bigint {
  const value = body[field];
  if (typeof value !== 'string') throw malformed(`${field} is not a decimal string`, where);
  try {
    return parseUnits(value, BINANCE_DECIMALS, { rounding: 'down' });
  } catch {
    throw malformed(`${field}=${value} is not a non-negative decimal`, where);
  }
}

function text(body: Json, field: string, where: string): string {
  const value = body[field];
  if (typeof value !== 'string') throw malformed(`${field} is not a string`, where);
  return value;
}

function integer(body: Json, field: string, where: string): number {
  const value = body[field];
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw malformed(`${field} is not an integer`, where);
  return value;
}

function side(value: unknown, where: string): Side {
  if (value === 'BUY') return 'buy';
  if (value === 'SELL') return 'sell';
  throw malformed(`side ${String(value)} is not BUY or SELL`, where);
}

function status(value: unknown, where: string): HedgeOrderStatus {
  if (typeof value === 'string' && (STATUSES as readonly string[]).includes(value)) return value as HedgeOrderStatus;
  throw malformed(`status ${String(value)} is not an order status`, where);
}

/** One trade of one of our orders. */
export interface OrderTrade {
  readonly tradeId: number;
  readonly qtyUnits: bigint;
  readonly priceUnits: bigint;
  readonly quoteUnits: bigint;
  readonly commissionUnits: bigint;
  readonly commissionAsset: string;
}

/** An order as an answer describes it. */
export interface OrderSnapshot {
  readonly symbol: string;
  readonly orderId: number;
  readonly clientOrderId: string;
  readonly side: Side;
  readonly status: HedgeOrderStatus;
  readonly type: string;
  readonly qtyUnits: bigint;
  readonly executedQtyUnits: bigint;
  readonly executedQuoteUnits: bigint;
  readonly timeMs: number;
  /** The `fills` of a FULL placement answer (empty for queries). */
  readonly trades: readonly OrderTrade[];
}

/**
 * An order in a REST or WebSocket API answer (placement, query, cancel).
 * @throws BinanceError `BINANCE_MALFORMED`.
 */
export function parseOrder(body: unknown, where: string): OrderSnapshot {
  if (!isObject(body)) throw malformed('not an object', where);
  const fills = Array.isArray(body['fills']) ? (body['fills'] as unknown[]) : [];
  const trades = fills.map((fill, i): OrderTrade => {
    if (!isObject(fill)) throw malformed(`fills[${i}] is not an object`, where);
    const qtyUnits = decimal(fill, 'qty', where);
    const priceUnits = decimal(fill, 'price', where);
    return {
      tradeId: integer(fill, 'tradeId', where),
      qtyUnits,
      priceUnits,
      quoteUnits: (qtyUnits * priceUnits) / 10n ** BigInt(BINANCE_DECIMALS),
      commissionUnits: decimal(fill, 'commission', where),
      commissionAsset: text(fill, 'commissionAsset', where),
    };
  });
  const timeMs = typeof body['transactTime'] === 'number' ? body['transactTime'] : typeof body['updateTime'] === 'number' ? body['updateTime'] : typeof body['time'] === 'number' ? body['time'] : 0;
  return {
    symbol: text(body, 'symbol', where),
    orderId: integer(body, 'orderId', where),
    clientOrderId: text(body, 'clientOrderId', where),
    side: side(body['side'], where),
    status: status(body['status'], where),
    type: text(body, 'type', where),
    qtyUnits: decimal(body, 'origQty', where),
    executedQtyUnits: decimal(body, 'executedQty', where),
    executedQuoteUnits: decimal(body, 'cummulativeQuoteQty', where),
    timeMs,
    trades,
  };
}

/** An `executionReport`: the order after one change, and the trade it announces when `x` is TRADE. */
export interface ExecutionReport {
  readonly symbol: string;
  readonly orderId: number;
  readonly clientOrderId: string;
  readonly side: Side;
  readonly status: HedgeOrderStatus;
  readonly qtyUnits: bigint;
  readonly executedQtyUnits: bigint;
  readonly executedQuoteUnits: bigint;
  readonly eventMs: number;
  readonly trade: OrderTrade | undefined;
}

/** A user-data-stream event, as much of it as the hedger uses. */
export type UserEvent =
  | { readonly type: 'execution'; readonly report: ExecutionReport }
  | { readonly type: 'balances'; readonly balances: ReadonlyMap<string, { free: bigint; locked: bigint }> }
  /** The subscription ended (the venue's `eventStreamTerminated`): subscribe again. */
  | { readonly type: 'terminated' }
  | { readonly type: 'other'; readonly name: string };

/**
 * A user data stream event payload (the `event` of a WebSocket API event frame).
 * @throws BinanceError `BINANCE_MALFORMED`.
 */
export function parseUserEvent(event: unknown): UserEvent {
  const where = 'user data event';
  if (!isObject(event)) throw malformed('not an object', where);
  const name = event['e'];
  if (name === 'executionReport') {
    const execution = text(event, 'x', where);
    const tradeId = event['t'];
    const trade: OrderTrade | undefined =
      execution === 'TRADE' && typeof tradeId === 'number'
        ? {
            tradeId,
            qtyUnits: decimal(event, 'l', where),
            priceUnits: decimal(event, 'L', where),
            quoteUnits: decimal(event, 'Y', where),
            commissionUnits: decimal(event, 'n', where),
            commissionAsset: typeof event['N'] === 'string' ? event['N'] : '',
          }
        : undefined;
    return {
      type: 'execution',
      report: {
        symbol: text(event, 's', where),
        orderId: integer(event, 'i', where),
        clientOrderId: text(event, 'c', where),
        side: side(event['S'], where),
        status: status(event['X'], where),
        qtyUnits: decimal(event, 'q', where),
        executedQtyUnits: decimal(event, 'z', where),
        executedQuoteUnits: decimal(event, 'Z', where),
        eventMs: integer(event, 'E', where),
        trade,
      },
    };
  }
  if (name === 'outboundAccountPosition') {
    const list = event['B'];
    if (!Array.isArray(list)) throw malformed('B is not a list', where);
    const balances = new Map<string, { free: bigint; locked: bigint }>();
    for (const item of list) {
      if (!isObject(item)) throw malformed('a balance is not an object', where);
      balances.set(text(item, 'a', where), { free: decimal(item, 'f', where), locked: decimal(item, 'l', where) });
    }
    return { type: 'balances', balances };
  }
  if (name === 'eventStreamTerminated') return { type: 'terminated' };
  return { type: 'other', name: typeof name === 'string' ? name : '?' };
}

/** What `GET /api/v3/account` says. */
export interface AccountInfo {
  readonly balances: ReadonlyMap<string, { free: bigint; locked: bigint }>;
  /** Taker commission as a fraction, when the venue states it. */
  readonly takerCommission: number | undefined;
  readonly canTrade: boolean;
}

/**
 * `GET /api/v3/account`.
 * @throws BinanceError `BINANCE_MALFORMED`.
 */
export function parseAccount(body: unknown): AccountInfo {
  const where = 'GET /api/v3/account';
  if (!isObject(body) || !Array.isArray(body['balances'])) throw malformed('no balances list', where);
  const balances = new Map<string, { free: bigint; locked: bigint }>();
  for (const item of body['balances'] as unknown[]) {
    if (!isObject(item)) throw malformed('a balance is not an object', where);
    balances.set(text(item, 'asset', where), { free: decimal(item, 'free', where), locked: decimal(item, 'locked', where) });
  }
  const rates = body['commissionRates'];
  const taker = isObject(rates) && typeof rates['taker'] === 'string' ? Number(rates['taker']) : undefined;
  return { balances, takerCommission: taker !== undefined && Number.isFinite(taker) ? taker : undefined, canTrade: body['canTrade'] !== false };
}

/** Binance's `{"code","msg"}` error body, when the text is one. */
export function parseErrorBody(text: string): { code: number | undefined; msg: string } {
  try {
    const body: unknown = JSON.parse(text);
    if (isObject(body)) {
      const inner = isObject(body['error']) ? body['error'] : body;
      return { code: typeof inner['code'] === 'number' ? inner['code'] : undefined, msg: typeof inner['msg'] === 'string' ? inner['msg'] : text.slice(0, 200) };
    }
  } catch {
    // not JSON
  }
  return { code: undefined, msg: text.slice(0, 200) };
}
