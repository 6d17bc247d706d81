/**
 * Gas-aware quoting. A quote's expected edge, in basis points of its notional, is its distance
 * from its reference price (the strategy's reservation price or ladder centre; the fair price
 * when it names none) minus the maker fee minus the gas its life may cost (a cancel, where
 * cancels pay). Quotes below MIN_EDGE_BPS are not placed, except those that reduce inventory: a
 * skewed quote that sheds position is worth its small edge. A live order is replaced only when
 * the edge gained pays for the gas of replacing it.
 */
import { unitsToNumber, type GasQuote, type GasSteps, type TickerRules } from '../../core/index.ts';
import type { RoundedQuote } from './diff.ts';

/** Fees and gas context for edge computations. */
export interface EdgeContext {
  readonly rules: TickerRules;
  readonly makerFeePbips: number;
  readonly steps: GasSteps;
  readonly gas: GasQuote | undefined;
  /** Extra margin on the conversion rate, against us (fraction). */
  readonly conversionMargin: number;
}

/** Gas cost of `steps` gas steps in quote tokens, or 0 when gas is unknown or free. */
export function gasCostQuote(steps: number, context: EdgeContext): number {
  const gas = context.gas;
  if (steps <= 0 || gas === undefined || gas.quotePerStrk === undefined) return 0;
  const strk = unitsToNumber(gas.gasPriceUnits * BigInt(steps), 18);
  return strk * gas.quotePerStrk * (1 + context.conversionMargin);
}

/**
 * Expected edge of a resting quote in bps of its notional, after fees and gas, measured from
 * `reference` (quote tokens per base token).
 */
export function quoteEdgeBps(quote: RoundedQuote, reference: number, context: EdgeContext): number {
  const price = unitsToNumber(quote.priceUnits, context.rules.quoteDecimals);
  const size = unitsToNumber(quote.qtyUnits, context.rules.baseDecimals);
  if (!(reference > 0) || !(size > 0)) return Number.NEGATIVE_INFINITY;
  const distanceBps = ((quote.side === 'buy' ? reference - price : price - reference) / reference) * 10_000;
  const feeBps = context.makerFeePbips / 100;
  const gasBps = (gasCostQuote(context.steps.cancel, context) / (price * size)) * 10_000;
  return distanceBps - feeBps - gasBps;
}

/** True when a fill of this quote moves the position (base − target, base units) towards zero. */
export function reducesInventory(side: 'buy' | 'sell', positionUnits: bigint): boolean {
  return side === 'buy' ? positionUnits < 0n : positionUnits > 0n;
}

/**
 * Keeps the quotes whose edge from their own reference (or `fair`) is at least `minEdgeBps`, and
 * every quote that reduces inventory whatever its edge. Nothing without a fair price.
 */
export function filterByEdge(
  quotes: readonly RoundedQuote[],
  fair: number | undefined,
  positionUnits: bigint,
  minEdgeBps: number,
  context: EdgeContext,
): RoundedQuote[] {
  if (fair === undefined) return [];
  return quotes.filter((quote) => reducesInventory(quote.side, positionUnits) || quoteEdgeBps(quote, quote.reference ?? fair, context) >= minEdgeBps);
}

/**
 * Whether replacing a live order by a new quote is worth its gas: the edge gained on the new
 * quote's notional must exceed the cost of a cancel plus a placement. With free cancels (the
 * LayerAkira default) replacing is always worth it once the tolerance band says so.
 */
export function isReplacementWorthIt(oldEdgeBps: number, newEdgeBps: number, newNotionalQuote: number, context: EdgeContext): boolean {
  const cost = gasCostQuote(context.steps.cancel, context);
  if (cost === 0) return true;
  const gain = ((newEdgeBps - oldEdgeBps) / 10_000) * newNotionalQuote;
  return gain > cost;
}

/**
 * Drops replacements that do not pay for their gas: a live order the diff would cancel stays
 * when it still has enough edge and the quote that would replace it gains less than the gas of
 * cancelling. Pure; a no-op when cancels are free.
 */
export function keepReplacementsThatPay<Order extends LiveQuoteLike>(
  diff: { readonly keep: Order[]; readonly cancel: Order[]; readonly place: RoundedQuote[] },
  fair: number,
  minEdgeBps: number,
  context: EdgeContext,
): { keep: Order[]; cancel: Order[]; place: RoundedQuote[] } {
  if (gasCostQuote(context.steps.cancel, context) === 0) return diff;
  const keep = [...diff.keep];
  const cancel: Order[] = [];
  const place = [...diff.place];
  for (const order of diff.cancel) {
    const asQuote: RoundedQuote = { side: order.side, priceUnits: order.priceUnits, qtyUnits: order.remainingUnits, level: 0 };
    const oldEdge = quoteEdgeBps(asQuote, fair, context);
    const index = place.findIndex((quote) => quote.side === order.side);
    const replacement = index >= 0 ? place[index] : undefined;
    if (replacement === undefined || oldEdge < minEdgeBps) {
      cancel.push(order);
      continue;
    }
    const notional = unitsToNumber(replacement.priceUnits, context.rules.quoteDecimals) * unitsToNumber(replacement.qtyUnits, context.rules.baseDecimals);
    if (isReplacementWorthIt(oldEdge, quoteEdgeBps(replacement, replacement.reference ?? fair, context), notional, context)) {
      cancel.push(order);
    } else {
      keep.push(order);
      place.splice(index, 1);
    }
  }
  return { keep, cancel, place };
}

/** The fields of a live order the replacement rule reads. */
export interface LiveQuoteLike {
  readonly orderId: string;
  readonly side: 'buy' | 'sell';
  readonly priceUnits: bigint;
  readonly remainingUnits: bigint;
  readonly createdAtMs: number;
}
