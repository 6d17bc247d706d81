/**
 * Desired quotes against live orders: which to keep, cancel and place. The band is asymmetric,
 * because the two errors cost differently (MM-NOTES §4.5):
 * - a live order MORE aggressive than the desired quote (a bid above it, an ask below it) risks
 *   being picked off: once it gave up more than a small share of the edge its quote is meant to
 *   earn (`RoundedQuote.aggressiveToleranceUnits`; 0 = any tick) it is replaced at once;
 * - a live order LESS aggressive only loses fill probability, and cancelling it throws away its
 *   queue position: it stays until it is the quote's tolerance away (relative, see
 *   `RoundedQuote.toleranceUnits`) or older than the maximum age;
 * - a partly filled order keeps its place whatever its remaining size; an unfilled one stays
 *   while its size is within the size tolerance.
 * Pure: no I/O, no clock.
 */
import type { Side } from '../../core/index.ts';

/** A quote after rounding to ticks and lots: what would be sent. */
export interface RoundedQuote {
  readonly side: Side;
  readonly priceUnits: bigint;
  readonly qtyUnits: bigint;
  readonly level: number;
  /** The price the quote's edge is measured from (its strategy's reservation price), quote tokens per base. */
  readonly reference?: number;
  /** How far (quote units) a less aggressive live order may sit from this quote and stay; 0 when absent. */
  readonly toleranceUnits?: bigint;
  /** How far (quote units) a MORE aggressive live order may sit from this quote and stay; 0 when absent. */
  readonly aggressiveToleranceUnits?: bigint;
}

/** A live order as the diff needs it. */
export interface LiveQuote {
  readonly orderId: string;
  readonly side: Side;
  readonly priceUnits: bigint;
  /** Unfilled size. */
  readonly remainingUnits: bigint;
  /** Filled so far; a partly filled order keeps its place. */
  readonly filledUnits: bigint;
  readonly createdAtMs: number;
}

/** Size tolerance and order age limit (the price band travels with each quote). */
export interface DiffOptions {
  /** An unfilled live order within this fraction of the desired size may stay (0.1 = 10 %). */
  readonly toleranceSizeFraction: number;
  /** Orders older than this are replaced even when inside the band (0 = never). */
  readonly maxOrderAgeMs: number;
  readonly nowMs: number;
}

/** What to do. */
export interface QuoteDiff {
  readonly keep: LiveQuote[];
  readonly cancel: LiveQuote[];
  readonly place: RoundedQuote[];
}

/**
 * How much more aggressive a live order is than a desired quote, in quote units: positive when
 * the live bid is above (the live ask below) the desired price.
 */
export function aggressionExcess(side: Side, livePriceUnits: bigint, desiredPriceUnits: bigint): bigint {
  return side === 'buy' ? livePriceUnits - desiredPriceUnits : desiredPriceUnits - livePriceUnits;
}

/**
 * Matches each desired quote (closest to the mid first) with the nearest live order of its side
 * that may stand in for it; unmatched live orders are cancelled and unmatched desired quotes placed.
 */
export function diffQuotes(desired: readonly RoundedQuote[], live: readonly LiveQuote[], options: DiffOptions): QuoteDiff {
  const keep: LiveQuote[] = [];
  const place: RoundedQuote[] = [];
  // Live orders not matched yet, in their order (a handful: an array beats a Set here, and what
  // is left is the cancel list as it stands).
  const unmatched = live.slice();
  const ordered = desired.length > 1 ? [...desired].sort((a, b) => a.level - b.level) : desired;
  for (const quote of ordered) {
    let best = -1;
    let bestDistance = 0n;
    for (let i = 0; i < unmatched.length; i++) {
      const order = unmatched[i] as LiveQuote;
      if (order.side !== quote.side || !mayStandIn(order, quote, options)) continue;
      const distance = absolute(order.priceUnits - quote.priceUnits);
      if (best < 0 || distance < bestDistance) {
        best = i;
        bestDistance = distance;
      }
    }
    if (best < 0) {
      place.push(quote);
    } else {
      keep.push(unmatched[best] as LiveQuote);
      unmatched.splice(best, 1);
    }
  }
  return { keep, cancel: unmatched, place };
}

/** Whether a live order may stay in place of a desired quote. */
export function mayStandIn(order: LiveQuote, quote: RoundedQuote, options: DiffOptions): boolean {
  if (options.maxOrderAgeMs > 0 && options.nowMs - order.createdAtMs >= options.maxOrderAgeMs) return false;
  const excess = aggressionExcess(quote.side, order.priceUnits, quote.priceUnits);
  if (excess > (quote.aggressiveToleranceUnits ?? 0n)) return false;
  if (-excess > (quote.toleranceUnits ?? 0n)) return false;
  if (order.remainingUnits > quote.qtyUnits) return Number(order.remainingUnits - quote.qtyUnits) <= options.toleranceSizeFraction * Number(quote.qtyUnits);
  // Smaller than wanted: a partial fill keeps its queue place; an unfilled order must be close in size.
  return order.filledUnits > 0n || Number(quote.qtyUnits - order.remainingUnits) <= options.toleranceSizeFraction * Number(quote.qtyUnits);
}

function absolute(value: bigint): bigint {
  return value < 0n ? -value : value;
}
