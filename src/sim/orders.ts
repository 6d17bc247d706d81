/**
 * An order inside the venue: the signed request plus its live state, and the quantity rules of
 * SC Order.cairo (REFERENCE §5) as pure functions: how much base an order can still trade at a
 * price, and how much it must keep locked.
 */
import { ceilDiv, type MatcherResult, type OrderStatus, type Side } from '../core/index.ts';
import type { OrderRequest } from '../exchange/wire/requests.ts';
import type { Market } from './markets.ts';

/** A venue order and its state. */
export interface SimOrder {
  readonly hash: bigint;
  readonly request: OrderRequest;
  readonly account: bigint;
  readonly market: Market;
  readonly side: Side;
  /** Venue time the order was accepted (ms); priority among equal prices is `sequence`. */
  readonly acceptedAtMs: number;
  readonly sequence: number;
  status: OrderStatus;
  matcherResult: MatcherResult | undefined;
  /** True between a validated cancel and its processing: shown as SCHEDULED_TO_CANCEL. */
  cancelScheduled: boolean;
  filledBase: bigint;
  filledQuote: bigint;
  /** Price it rests at, once it rested. */
  restingPrice: bigint | undefined;
  swaps: number;
  paidFeeAsMaker: bigint;
  paidFeeAsTaker: bigint;
  gasPaid: bigint;
  /** Spend-token amount held for this order (quote for buys, base for sells). */
  lockedSpend: bigint;
  /** Fee-token amount held for this order's taker gas (zero once it rests). */
  lockedGas: bigint;
  updatedAtMs: number;
}

/** The token an order pays with: quote when buying, base when selling. */
export function spendToken(order: SimOrder): string {
  return order.side === 'buy' ? order.market.quote.symbol : order.market.base.symbol;
}

/** The token an order receives. */
export function receiveToken(order: SimOrder): string {
  return order.side === 'buy' ? order.market.base.symbol : order.market.quote.symbol;
}

/** ceil(amount × pbips / 1e6); 0 when pbips is 0 (SPEC §5, SC Fees.cairo). */
export function feeOf(amount: bigint, pbips: number): bigint {
  if (pbips === 0 || amount === 0n) return 0n;
  return ceilDiv(amount * BigInt(pbips), 1_000_000n);
}

/** Quote amount of `qty` base units at `price`, rounded down (what the buyer pays, the seller gets). */
export function quoteOf(price: bigint, qty: bigint, market: Market): bigint {
  return (price * qty) / market.baseScale;
}

/**
 * Base units the order can still trade at `price`: the smaller of what is left of `base_qty` and
 * of `quote_qty` converted at the price (either may be 0 = unset), rounded down to the lot step.
 */
export function availableBase(order: SimOrder, price: bigint): bigint {
  const { baseQty, quoteQty } = order.request;
  let available: bigint | undefined;
  if (baseQty > 0n) available = baseQty - order.filledBase;
  if (quoteQty > 0n && price > 0n) {
    const fromQuote = ((quoteQty - order.filledQuote) * order.market.baseScale) / price;
    available = available === undefined || fromQuote < available ? fromQuote : available;
  }
  if (available === undefined || available <= 0n) return 0n;
  return available - (available % order.market.qtyStep);
}

/** The order's own limit: the price it would pay at worst (buy) or accept at worst (sell). */
export function limitPrice(order: SimOrder): bigint {
  return order.request.price;
}

/** Spend-token amount the order must hold to trade everything left at its limit price. */
export function requiredSpend(order: SimOrder): bigint {
  const { baseQty, quoteQty } = order.request;
  const price = limitPrice(order);
  let spend: bigint;
  if (order.side === 'buy') {
    const candidates: bigint[] = [];
    if (baseQty > 0n) candidates.push(ceilDiv(price * (baseQty - order.filledBase), order.market.baseScale));
    if (quoteQty > 0n) candidates.push(quoteQty - order.filledQuote);
    spend = candidates.reduce((a, b) => (b < a ? b : a), candidates[0] ?? 0n);
  } else {
    const candidates: bigint[] = [];
    if (baseQty > 0n) candidates.push(baseQty - order.filledBase);
    if (quoteQty > 0n && price > 0n) candidates.push(ceilDiv((quoteQty - order.filledQuote) * order.market.baseScale, price));
    spend = candidates.reduce((a, b) => (b < a ? b : a), candidates[0] ?? 0n);
  }
  if (spend < 0n) spend = 0n;
  if (order.request.fee.applyToReceiptAmount) return spend;
  // Fee on the spent side: hold it too, at the larger of the two rates (the role is not known yet).
  const { makerPbips, takerPbips } = order.request.fee.tradeFee;
  return spend + feeOf(spend, Math.max(makerPbips, takerPbips));
}

/** True when the order's price allows trading against a resting order at `price`. */
export function acceptsPrice(order: SimOrder, price: bigint): boolean {
  const limit = limitPrice(order);
  if (order.request.flags.isMarketOrder && limit === 0n) return true;
  return order.side === 'buy' ? price <= limit : price >= limit;
}

/** True when the order would cross a resting order at `price` (post-only check). */
export function crosses(order: SimOrder, price: bigint): boolean {
  return order.side === 'buy' ? price <= limitPrice(order) : price >= limitPrice(order);
}

/** True once created_at + duration_valid has passed (REFERENCE §5: now ≥ created_at + duration). */
export function isExpired(order: SimOrder, nowMs: number): boolean {
  const { createdAt, durationValid } = order.request.constraints;
  return nowMs >= (createdAt + durationValid) * 1000;
}
