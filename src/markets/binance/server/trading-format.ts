/**
 * How the loopback trading venue prints what it does, as Binance does: 8-place decimal text,
 * orders as the placement, query and cancel answers print them (rest-api.md "New order",
 * "Query order", "Cancel order"; FULL placements with their fills), account trades
 * ("Account trade list"), `executionReport` events (user-data-stream.md "Order Update"), and the
 * replayed book's levels in 8-decimal units.
 */
import { parseUnits } from '../../../core/index.ts';
import { BINANCE_DECIMALS } from '../trading/rules.ts';
import type { ScaledLevel } from '../messages.ts';
import { quoteOf, type DeskLevel } from './desk-matching.ts';
import type { DeskOrder, DeskTrade } from './desk-order.ts';

const UNIT = 10n ** BigInt(BINANCE_DECIMALS);

/** Binance's 8-place decimal text. */
export function formatUnits8(value: bigint): string {
  const negative = value < 0n;
  const magnitude = negative ? -value : value;
  const text = `${magnitude / UNIT}.${(magnitude % UNIT).toString().padStart(BINANCE_DECIMALS, '0')}`;
  return negative ? `-${text}` : text;
}

const isWorking = (order: DeskOrder): boolean => order.status === 'NEW' || order.status === 'PARTIALLY_FILLED';

/** One change of an order, as its `executionReport` announces it. */
export interface ExecutionChange {
  readonly execution: 'NEW' | 'TRADE' | 'EXPIRED' | 'CANCELED';
  readonly trade: DeskTrade | undefined;
  readonly nowMs: number;
  readonly executionId: number;
  /** A cancel's own client id: the event's `c`, the canceled order's id going to `C`. */
  readonly cancelClientOrderId: string | undefined;
}

/** An `executionReport` event of `order` after one change (user-data-stream.md "Order Update"). */
export function executionReport(order: DeskOrder, symbol: string, change: ExecutionChange): Record<string, unknown> {
  const text = formatUnits8;
  const { trade, nowMs } = change;
  const canceling = change.cancelClientOrderId !== undefined;
  return {
    e: 'executionReport',
    E: nowMs,
    s: symbol,
    c: canceling ? change.cancelClientOrderId : order.clientOrderId,
    S: order.side,
    o: order.type,
    f: order.timeInForce ?? 'GTC',
    q: text(order.origQty),
    p: text(order.price),
    P: '0.00000000',
    F: '0.00000000',
    g: -1,
    C: canceling ? order.clientOrderId : '',
    x: change.execution,
    X: order.status,
    r: 'NONE',
    i: order.orderId,
    l: text(trade?.qty ?? 0n),
    z: text(order.executedQty),
    L: text(trade?.price ?? 0n),
    n: text(trade?.commission ?? 0n),
    N: trade?.commissionAsset ?? null,
    T: nowMs,
    t: trade?.tradeId ?? -1,
    I: change.executionId,
    w: isWorking(order) && order.type !== 'MARKET' && order.timeInForce !== 'IOC' && order.timeInForce !== 'FOK',
    m: false,
    M: false,
    O: order.timeMs,
    Z: text(order.cumQuote),
    Y: text(trade === undefined ? 0n : quoteOf(trade.qty, trade.price)),
    Q: text(order.quoteOrderQty),
    W: order.timeMs,
    V: order.selfTradePreventionMode,
  };
}

/** The fields every order answer shares, in Binance's order. */
function orderCore(order: DeskOrder, symbol: string): Record<string, unknown> {
  return {
    symbol,
    orderId: order.orderId,
    orderListId: -1,
    clientOrderId: order.clientOrderId,
  };
}

function orderState(order: DeskOrder): Record<string, unknown> {
  return {
    price: formatUnits8(order.price),
    origQty: formatUnits8(order.origQty),
    executedQty: formatUnits8(order.executedQty),
    origQuoteOrderQty: formatUnits8(order.quoteOrderQty),
    cummulativeQuoteQty: formatUnits8(order.cumQuote),
    status: order.status,
    timeInForce: order.timeInForce ?? 'GTC',
    type: order.type,
    side: order.side,
  };
}

/** A placement's answer: ACK, RESULT, or FULL (RESULT with its fills). */
export function placementBody(order: DeskOrder, symbol: string, respType: 'ACK' | 'RESULT' | 'FULL'): Record<string, unknown> {
  const ack = { ...orderCore(order, symbol), transactTime: order.timeMs };
  if (respType === 'ACK') return ack;
  const body: Record<string, unknown> = { ...ack, ...orderState(order), workingTime: order.timeMs, selfTradePreventionMode: order.selfTradePreventionMode };
  if (respType === 'FULL') {
    body['fills'] = order.trades.map((trade) => ({
      price: formatUnits8(trade.price),
      qty: formatUnits8(trade.qty),
      commission: formatUnits8(trade.commission),
      commissionAsset: trade.commissionAsset,
      tradeId: trade.tradeId,
    }));
  }
  return body;
}

/** An order as `GET /api/v3/order`, `openOrders` and `allOrders` print it. */
export function queryBody(order: DeskOrder, symbol: string): Record<string, unknown> {
  return {
    ...orderCore(order, symbol),
    ...orderState(order),
    time: order.timeMs,
    updateTime: order.updateMs,
    isWorking: isWorking(order),
    workingTime: order.timeMs,
    selfTradePreventionMode: order.selfTradePreventionMode,
  };
}

/** A cancel's answer: `clientOrderId` is the cancel's own id, `origClientOrderId` the order's. */
export function cancelBody(order: DeskOrder, symbol: string, cancelClientOrderId: string): Record<string, unknown> {
  return {
    symbol,
    origClientOrderId: order.clientOrderId,
    orderId: order.orderId,
    orderListId: -1,
    clientOrderId: cancelClientOrderId,
    transactTime: order.updateMs,
    ...orderState(order),
    selfTradePreventionMode: order.selfTradePreventionMode,
  };
}

/** One of the account's trades as `GET /api/v3/myTrades` prints it (every desk trade is a taker's). */
export function tradeBody(order: DeskOrder, trade: DeskTrade, symbol: string): Record<string, unknown> {
  return {
    symbol,
    id: trade.tradeId,
    orderId: order.orderId,
    orderListId: -1,
    price: formatUnits8(trade.price),
    qty: formatUnits8(trade.qty),
    quoteQty: formatUnits8(quoteOf(trade.qty, trade.price)),
    commission: formatUnits8(trade.commission),
    commissionAsset: trade.commissionAsset,
    time: trade.timeMs,
    isBuyer: order.side === 'BUY',
    isMaker: false,
    isBestMatch: true,
  };
}

/** 8-decimal units from replayed book integers of `decimals` places. */
export function toDeskLevels(levels: readonly ScaledLevel[] | undefined, priceDecimals: number, qtyDecimals: number): DeskLevel[] | undefined {
  if (levels === undefined) return undefined;
  const priceScale = 10n ** BigInt(BINANCE_DECIMALS - priceDecimals);
  const qtyScale = 10n ** BigInt(BINANCE_DECIMALS - qtyDecimals);
  return levels.map((level) => ({ price: BigInt(level.price) * priceScale, qty: BigInt(level.qty) * qtyScale }));
}

/** Decimal text → 8-decimal units, or undefined when it is not a plain decimal with ≤ 8 places. */
export function parseAmount8(text: string | undefined): bigint | undefined {
  if (text === undefined || !/^\d+(\.\d+)?$/.test(text)) return undefined;
  try {
    return parseUnits(text, BINANCE_DECIMALS);
  } catch {
    return undefined;
  }
}
