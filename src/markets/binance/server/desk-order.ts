/**
 * An order at the loopback trading desk and its trades: what the desk keeps, and what its answers
 * and user data events (trading-format.ts) print, so it sits below both.
 */

/** One trade of an order. */
export interface DeskTrade {
  readonly tradeId: number;
  readonly price: bigint;
  readonly qty: bigint;
  readonly commission: bigint;
  readonly commissionAsset: string;
  readonly timeMs: number;
}

/** The order types the venue serves (exchangeInfo `orderTypes`). */
export type DeskOrderType = 'MARKET' | 'LIMIT' | 'LIMIT_MAKER';

/** An order at the desk. */
export interface DeskOrder {
  readonly orderId: number;
  readonly clientOrderId: string;
  readonly apiKey: string;
  readonly side: 'BUY' | 'SELL';
  readonly type: DeskOrderType;
  readonly timeInForce: 'GTC' | 'IOC' | 'FOK' | undefined;
  readonly price: bigint;
  /** For a `quoteOrderQty` order: the quantity it came to (what it executed). */
  origQty: bigint;
  /** The `quoteOrderQty` asked for; 0 for an order by quantity. */
  readonly quoteOrderQty: bigint;
  executedQty: bigint;
  cumQuote: bigint;
  status: 'NEW' | 'PARTIALLY_FILLED' | 'FILLED' | 'CANCELED' | 'EXPIRED';
  readonly selfTradePreventionMode: string;
  readonly timeMs: number;
  updateMs: number;
  readonly trades: DeskTrade[];
}
