/**
 * Desired quotes against live orders: which to keep, cancel and place. An order within the
 * tolerance band of a desired quote (price within N ticks, remaining size within X %) stays,
 * because cancelling it to re-place at nearly the same price throws away its queue position
 * (MM-NOTES §4.5). Pure: no I/O, no clock.
 */
import type { Side } from '../core/index.ts';

/** A quote after rounding to ticks and lots: what would be sent. */
export interface RoundedQuote {
  readonly side: Side;
  readonly priceUnits: bigint;
  readonly qtyUnits: bigint;
  readonly level: number;
}

/** A live order as the diff needs it. */
export interface LiveQuote {
  readonly orderId: string;
  readonly side: Side;
  readonly priceUnits: bigint;
  /** Unfilled size. */
  readonly remainingUnits: bigint;
  readonly createdAtMs: number;
}

/** Tolerance band and order age limit. */
export interface DiffOptions {
  readonly priceTick: bigint;
  /** A live order within this many ticks of the desired price may stay. */
  readonly toleranceTicks: number;
  /** …and within this fraction of the desired size (0.1 = 10 %). */
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
 * Matches each desired quote (closest to the mid first) with the nearest live order of its side
 * inside the band; unmatched live orders are cancelled and unmatched desired quotes placed.
 */
export function diffQuotes(desired: readonly RoundedQuote[], live: readonly LiveQuote[], options: DiffOptions): QuoteDiff {
  const keep: LiveQuote[] = [];
  const place: RoundedQuote[] = [];
  const unmatched = new Set(live);
  const ordered = [...desired].sort((a, b) => a.level - b.level);
  const maxPriceDistance = options.priceTick * BigInt(Math.max(0, Math.floor(options.toleranceTicks)));
  for (const quote of ordered) {
    let best: LiveQuote | undefined;
    let bestDistance = 0n;
    for (const order of unmatched) {
      if (order.side !== quote.side || !isWithinBand(order, quote, maxPriceDistance, options)) continue;
      const distance = absolute(order.priceUnits - quote.priceUnits);
      if (best === undefined || distance < bestDistance) {
        best = order;
        bestDistance = distance;
      }
    }
    if (best === undefined) {
      place.push(quote);
    } else {
      unmatched.delete(best);
      keep.push(best);
    }
  }
  return { keep, cancel: [...unmatched], place };
}

function isWithinBand(order: LiveQuote, quote: RoundedQuote, maxPriceDistance: bigint, options: DiffOptions): boolean {
  if (options.maxOrderAgeMs > 0 && options.nowMs - order.createdAtMs >= options.maxOrderAgeMs) return false;
  if (absolute(order.priceUnits - quote.priceUnits) > maxPriceDistance) return false;
  const sizeGap = Number(absolute(order.remainingUnits - quote.qtyUnits));
  return sizeGap <= options.toleranceSizeFraction * Number(quote.qtyUnits);
}

function absolute(value: bigint): bigint {
  return value < 0n ? -value : value;
}
