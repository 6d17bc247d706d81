/**
 * Queue-aware placement (issue 24, item 3): where a quote sits against the touch follows the
 * predicted move. A model's quote on a deep book rests a fixed distance from the fair price
 * (≈ 1.7 bp on ETHUSDT), behind a queue that fills it mostly when the price is about to move
 * through it. When the signals predict a move of at least the threshold:
 *
 * - the level-0 quote of the side the move favours (the bid on a predicted rise, the ask on a
 *   fall) moves up to the touch: it joins the best price, or improves it by one tick where the
 *   spread is at least two ticks and `improve` is on, but never past the price whose edge against
 *   the predicted price, fair × (1 + predicted / 10⁴), is the cost (maker fee + MIN_EDGE_BPS):
 *   it joins only as far as the prediction pays for. It never moves away from the touch (a quote
 *   the model already put closer stays), and its edge reference becomes the predicted price, so
 *   the pipeline's edge filter judges it by the same price;
 * - every quote of the other side at or inside the touch steps one tick behind it: that side is
 *   the one the move would go through.
 *
 * Prices stay floats here: the pipeline rounds each one to the tick grid once (a touch price
 * handed back as a float snaps onto its tick) and clamps it to the book in integers, so nothing
 * here can cross. Below the threshold, or with it at 0, the quotes are handed back unchanged.
 */
import type { DesiredQuote, Side } from '../../src/core/index.ts';

/** The venue's touch as numbers (quote tokens per base token) and its tick. */
export interface QueueTouch {
  readonly bestBid: number | undefined;
  readonly bestAsk: number | undefined;
  readonly tickSize: number;
}

/** How queue placement reads the prediction. */
export interface QueuePlacementOptions {
  /** The predicted move (bps, either sign) from which a side joins the touch; 0 = off. */
  readonly thresholdBps: number;
  /** Improve the touch by a tick where the spread allows, instead of joining it. */
  readonly improve: boolean;
  /** What a fill costs, bps of its price: the maker fee plus the edge the engine asks for (MIN_EDGE_BPS). */
  readonly costBps: number;
}

/** What placement did, for the status: which side joined (+1 the bid, −1 the ask, 0 none). */
export interface QueuePlacement {
  readonly quotes: DesiredQuote[];
  readonly joined: -1 | 0 | 1;
}

/**
 * The quotes placed against the touch for a predicted move of `predictedBps`, which leads the
 * price to `expected` (the fair price times the part of the move it does not hold yet: where the
 * alpha term already shifted the fair price, that part is not counted twice).
 */
export function placeInQueue(quotes: DesiredQuote[], touch: QueueTouch, predictedBps: number, expected: number, options: QueuePlacementOptions): QueuePlacement {
  if (options.thresholdBps === 0 || !(Math.abs(predictedBps) >= options.thresholdBps) || quotes.length === 0 || !(expected > 0)) return { quotes, joined: 0 };
  const favoured: Side = predictedBps > 0 ? 'buy' : 'sell';
  const joinPrice = joinTarget(favoured, touch, quotes, expected, options);
  let joined = false;
  const placed = quotes.map((quote) => {
    if (quote.side !== favoured) return stepBehind(quote, touch);
    if (joinPrice === undefined || quote.level !== 0) return quote;
    const isCloser = favoured === 'buy' ? joinPrice > quote.price : joinPrice < quote.price;
    if (!isCloser) return quote;
    joined = true;
    return { ...quote, price: joinPrice, reference: expected };
  });
  return { quotes: placed, joined: joined ? (favoured === 'buy' ? 1 : -1) : 0 };
}

/**
 * The price the favoured side's level-0 quote moves to: the touch (or a tick inside it), held
 * short of our own quotes of the other side and of the price the prediction pays for; undefined
 * without a touch on that side.
 */
function joinTarget(side: Side, touch: QueueTouch, quotes: readonly DesiredQuote[], expected: number, options: QueuePlacementOptions): number | undefined {
  const { bestBid, bestAsk, tickSize } = touch;
  const best = side === 'buy' ? bestBid : bestAsk;
  if (best === undefined || !(tickSize > 0)) return undefined;
  // Half a tick of slack: the touch prices are floats of exact ticks.
  const spreadTicks = bestBid === undefined || bestAsk === undefined ? 0 : (bestAsk - bestBid) / tickSize;
  const ownOther = nearestOwn(side === 'buy' ? 'sell' : 'buy', quotes);
  const improved = side === 'buy' ? best + tickSize : best - tickSize;
  const mayImprove = options.improve && spreadTicks >= 2 - 1e-6 && (ownOther === undefined || (side === 'buy' ? improved < ownOther - tickSize / 2 : improved > ownOther + tickSize / 2));
  const target = mayImprove ? improved : best;
  // A hair inside the limit: the pipeline snaps a price within a millionth of a tick onto the grid,
  // which must not carry a quote at the limit past it (its edge a rounding short of the cost).
  const slack = tickSize * 1e-5;
  const limit = side === 'buy' ? expected * (1 - options.costBps / 10_000) - slack : expected * (1 + options.costBps / 10_000) + slack;
  const price = side === 'buy' ? Math.min(target, limit) : Math.max(target, limit);
  // Never at or through our own quote of the other side (the pipeline clamps against the book, not against us).
  if (ownOther !== undefined && (side === 'buy' ? price > ownOther - tickSize / 2 : price < ownOther + tickSize / 2)) return undefined;
  return price > 0 && Number.isFinite(price) ? price : undefined;
}

/** Our most aggressive quote of `side` (highest bid, lowest ask), or undefined. */
function nearestOwn(side: Side, quotes: readonly DesiredQuote[]): number | undefined {
  let nearest: number | undefined;
  for (const quote of quotes) {
    if (quote.side !== side) continue;
    if (nearest === undefined || (side === 'buy' ? quote.price > nearest : quote.price < nearest)) nearest = quote.price;
  }
  return nearest;
}

/** A quote of the side the move goes through, one tick behind the touch when it was at or inside it. */
function stepBehind(quote: DesiredQuote, touch: QueueTouch): DesiredQuote {
  const { tickSize } = touch;
  if (quote.side === 'buy') {
    const best = touch.bestBid;
    if (best === undefined || quote.price < best - tickSize / 2) return quote;
    const price = best - tickSize;
    return price > 0 ? { ...quote, price } : quote;
  }
  const best = touch.bestAsk;
  if (best === undefined || quote.price > best + tickSize / 2) return quote;
  return { ...quote, price: best + tickSize };
}
