/**
 * How the loopback trading venue prints what it does, as Binance does: 8-place decimal text,
 * orders as `/api/v3/order` answers them (FULL: with their fills), `executionReport` events, and
 * the replayed book's levels in 8-decimal units.
 */
import { parseUnits } from '../../../core/index.ts';
import { BINANCE_DECIMALS } from '../trading/rules.ts';
import type { ScaledLevel } from '../messages.ts';
import type { DeskLevel, DeskOrder, DeskTrade } from './trading-desk.ts';

const UNIT = 10n ** BigInt(BINANCE_DECIMALS);

/** An `executionReport` event of `order` after one change (user-data-stream.md "Order Update"). */
export function executionReport(order: DeskOrder, symbol: string, execution: 'NEW' | 'TRADE' | 'EXPIRED' | 'CANCELED', trade: DeskTrade | undefined, nowMs: number, executionId: number): Record<string, unknown> {
  const text = formatUnits8;
  return {
    e: 'executionReport',
    E: nowMs,
    s: symbol,
    c: order.clientOrderId,
    S: order.side,
    o: order.type,
    f: order.timeInForce ?? 'GTC',
    q: text(order.origQty),
    p: text(order.price),
    P: '0.00000000',
    F: '0.00000000',
    g: -1,
    C: '',
    x: execution,
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
    I: executionId,
    w: (order.status === 'NEW' || order.status === 'PARTIALLY_FILLED') && order.type === 'LIMIT' && order.timeInForce === 'GTC',
    m: false,
    M: false,
    O: order.timeMs,
    Z: text(order.cumQuote),
    Y: text(trade === undefined ? 0n : (trade.qty * trade.price) / UNIT),
    Q: '0.00000000',
    W: order.timeMs,
    V: 'EXPIRE_MAKER',
  };
}

/** Binance's 8-place decimal text. */
export function formatUnits8(value: bigint): string {
  const negative = value < 0n;
  const magnitude = negative ? -value : value;
  const text = `${magnitude / UNIT}.${(magnitude % UNIT).toString().padStart(BINANCE_DECIMALS, '0')}`;
  return negative ? `-${text}` : text;
}

/** An order as `POST/GET/DELETE /api/v3/order` answer it (FULL: with its fills). */
export function orderBody(order: DeskOrder, symbol: string, full: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = {
    symbol,
    orderId: order.orderId,
    orderListId: -1,
    clientOrderId: order.clientOrderId,
    transactTime: order.timeMs,
    price: formatUnits8(order.price),
    origQty: formatUnits8(order.origQty),
    executedQty: formatUnits8(order.executedQty),
    origQuoteOrderQty: '0.00000000',
    cummulativeQuoteQty: formatUnits8(order.cumQuote),
    status: order.status,
    timeInForce: order.timeInForce ?? 'GTC',
    type: order.type,
    side: order.side,
    workingTime: order.timeMs,
    selfTradePreventionMode: 'EXPIRE_MAKER',
    time: order.timeMs,
    updateTime: order.updateMs,
    isWorking: order.status === 'NEW' || order.status === 'PARTIALLY_FILLED',
  };
  if (full) {
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

/** 8-decimal units from replayed book integers of `decimals` places. */
export function toDeskLevels(levels: readonly ScaledLevel[] | undefined, priceDecimals: number, qtyDecimals: number): DeskLevel[] | undefined {
  if (levels === undefined) return undefined;
  const priceScale = 10n ** BigInt(BINANCE_DECIMALS - priceDecimals);
  const qtyScale = 10n ** BigInt(BINANCE_DECIMALS - qtyDecimals);
  return levels.map((level) => ({ price: BigInt(level.price) * priceScale, qty: BigInt(level.qty) * qtyScale }));
}

/** Decimal text → 8-decimal units, or undefined when it is not a plain decimal with ≤ 8 places. */
export function parseAmount8(text: string | null): bigint | undefined {
  if (text === null || !/^\d+(\.\d+)?$/.test(text)) return undefined;
  try {
    return parseUnits(text, BINANCE_DECIMALS);
  } catch {
    return undefined;
  }
}

