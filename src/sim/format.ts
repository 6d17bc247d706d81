/**
 * Venue objects → the JSON the real exchange sends (REFERENCE §1.2, §1.3, §3.3): decimal strings
 * scaled by each token's decimals, raw integers only where the reference says so.
 */
import { formatUnits } from '../core/index.ts';
import { addressToHex } from '../exchange/wire/fields.ts';
import { ORDER_FLAG_KEYS, formatOrderBody } from '../exchange/wire/requests.ts';
import type { ExecutionEvent } from './events.ts';
import { pairLabelOf, type Market } from './markets.ts';
import type { LevelView } from './order-book.ts';
import type { SimOrder } from './orders.ts';

/** `[price, volume, orders]` as the snapshot and `snap` stream carry it. */
export function formatLevel(level: LevelView, market: Market): [string, string, number] {
  return [formatUnits(level.price, market.quote.decimals), formatUnits(level.volume, market.base.decimals), level.count];
}

/** The status shown for an order: SCHEDULED_TO_CANCEL while a validated cancel waits. */
export function shownStatus(order: SimOrder): string {
  if (order.cancelScheduled && (order.status === 'OPEN' || order.status === 'PARTIALLY_FILLED' || order.status === 'ACC')) return 'SCHEDULED_TO_CANCEL';
  return order.status;
}

function formatState(order: SimOrder): Record<string, unknown> {
  const { market } = order;
  return {
    status: shownStatus(order),
    limit_price: order.restingPrice === undefined ? null : formatUnits(order.restingPrice, market.quote.decimals),
    filled_base_amount: formatUnits(order.filledBase, market.base.decimals),
    filled_quote_amount: formatUnits(order.filledQuote, market.quote.decimals),
    cur_number_of_swaps: order.swaps,
    // Raw integers, not decimals (REFERENCE §1.3).
    paid_fee_as_maker: order.paidFeeAsMaker.toString(),
    paid_fee_as_taker: order.paidFeeAsTaker.toString(),
    reimbursement: '0',
    gas_paid: order.gasPaid.toString(),
    failed_base_amount: '0',
    failed_quote_amount: '0',
    failed_offchain: 0,
    failed_onchain: 0,
  };
}

function flagsArray(order: SimOrder): boolean[] {
  return ORDER_FLAG_KEYS.map(([, name]) => order.request.flags[name]);
}

/** Full order object (mode 1, REFERENCE §1.3). */
export function formatOrderFull(order: SimOrder): Record<string, unknown> {
  const body = formatOrderBody(order.request);
  return {
    ...body,
    ticker: { base: order.market.base.symbol, quote: order.market.quote.symbol },
    flags: flagsArray(order),
    hash: addressToHex(order.hash),
    created_at: order.request.constraints.createdAt,
    state: formatState(order),
  };
}

/** Reduced order object (mode 2, REFERENCE §1.3). */
export function formatOrderReduced(order: SimOrder): Record<string, unknown> {
  const { request, market } = order;
  return {
    maker: addressToHex(order.account),
    hash: addressToHex(order.hash),
    state: formatState(order),
    price: formatUnits(request.price, market.quote.decimals),
    ticker: { base: market.base.symbol, quote: market.quote.symbol },
    qty: { base_qty: formatUnits(request.baseQty, market.base.decimals), quote_qty: formatUnits(request.quoteQty, market.quote.decimals) },
    flags: flagsArray(order),
    // A number, as in every swagger example: python_akira reads `STPMode(d['stp'])`, an int enum.
    stp: request.constraints.stp,
    expiration_time: request.constraints.createdAt + request.constraints.durationValid,
    source: request.source,
    created_at: request.constraints.createdAt,
    taker_match_result: order.matcherResult ?? null,
  };
}

/** The `result` of an execution report on the `fills` stream (REFERENCE §3.3). */
export function formatExecutionReport(event: ExecutionEvent): Record<string, unknown> {
  const { order, fill } = event;
  const { market } = order;
  const zeroBase = formatUnits(0n, market.base.decimals);
  return {
    hash: addressToHex(order.hash),
    fill_price: fill === undefined ? formatUnits(order.request.price, market.quote.decimals) : formatUnits(fill.price, market.quote.decimals),
    fill_base_qty: fill === undefined ? zeroBase : formatUnits(fill.base, market.base.decimals),
    fill_quote_qty: fill === undefined ? '0' : formatUnits(fill.quote, market.quote.decimals),
    acc_base_qty: formatUnits(order.filledBase, market.base.decimals),
    acc_quote_qty: formatUnits(order.filledQuote, market.quote.decimals),
    is_sell_side: order.side === 'sell',
    status: shownStatus(order),
    matcher_result: order.matcherResult ?? 'OK',
    source: order.request.source,
    routing: 'NATIVE',
  };
}

/** `{base, quote}` routing object of WS events. */
export function wsPair(market: Market): { base: string; quote: string } {
  return { base: market.base.symbol, quote: market.quote.symbol };
}

/** "ETH-USDC". */
export { pairLabelOf };
