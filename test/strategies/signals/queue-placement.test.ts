import { describe, expect, it } from 'vitest';
import type { DesiredQuote } from '../../../src/core/index.ts';
import { placeInQueue, type QueuePlacementOptions } from '../../../strategies/index.ts';

/** A deep book 1999.99 / 2000.01 (two ticks of 0.01 apart) and a model quoting 0.34 either side of 2000 (≈ 1.7 bp). */
const touch = { bestBid: 1999.99, bestAsk: 2000.01, tickSize: 0.01 };
const model: DesiredQuote[] = [
  { side: 'buy', price: 1999.66, size: 0.1, level: 0, reference: 2000 },
  { side: 'sell', price: 2000.34, size: 0.1, level: 0, reference: 2000 },
];
const joinAt1bp: QueuePlacementOptions = { thresholdBps: 1, improve: false, costBps: 0 };

function priceOf(quotes: readonly DesiredQuote[], side: 'buy' | 'sell', level = 0): number | undefined {
  return quotes.find((q) => q.side === side && q.level === level)?.price;
}

describe('queue-aware placement against the predicted move', () => {
  it('hands back the very quotes while off (threshold 0) or under the threshold', () => {
    expect(placeInQueue(model, touch, 5, 2001, { ...joinAt1bp, thresholdBps: 0 }).quotes).toBe(model);
    expect(placeInQueue(model, touch, 0.9, 2000.18, joinAt1bp)).toEqual({ quotes: model, joined: 0 });
    expect(placeInQueue(model, touch, -0.9, 1999.82, joinAt1bp).quotes).toBe(model);
  });

  it('moves the bid up to the best bid when a rise is predicted, judged from the price the rise leads to, and leaves the ask behind', () => {
    const { quotes, joined } = placeInQueue(model, touch, 1.5, 2000.3, joinAt1bp);
    expect(joined).toBe(1);
    expect(priceOf(quotes, 'buy')).toBe(1999.99);
    expect(quotes[0]?.reference).toBe(2000.3);
    expect(quotes[1]).toBe(model[1]);
  });

  it('moves the ask down to the best ask when a fall is predicted', () => {
    const { quotes, joined } = placeInQueue(model, touch, -1.5, 1999.7, joinAt1bp);
    expect(joined).toBe(-1);
    expect(priceOf(quotes, 'sell')).toBe(2000.01);
    expect(priceOf(quotes, 'buy')).toBe(1999.66);
  });

  it('improves the touch by a tick when told to and the spread is two ticks or more, and only joins on a one-tick spread', () => {
    expect(priceOf(placeInQueue(model, touch, 1.5, 2000.3, { ...joinAt1bp, improve: true }).quotes, 'buy')).toBeCloseTo(2000, 9);
    const oneTick = { bestBid: 1999.99, bestAsk: 2000, tickSize: 0.01 };
    expect(priceOf(placeInQueue(model, oneTick, 1.5, 2000.3, { ...joinAt1bp, improve: true }).quotes, 'buy')).toBe(1999.99);
  });

  it('never improves to or through our own quote of the other side', () => {
    const tightAsk: DesiredQuote[] = [model[0] as DesiredQuote, { side: 'sell', price: 2000, size: 0.1, level: 0, reference: 2000 }];
    const { quotes } = placeInQueue(tightAsk, touch, 1.5, 2000.3, { ...joinAt1bp, improve: true });
    expect(priceOf(quotes, 'buy')).toBe(1999.99);
  });

  it('joins only as far as the predicted move pays for the cost of a fill', () => {
    // A 1 bp fee: the rise to 2000.3 pays for a bid up to 2000.3 × (1 − 10⁻⁴) = 2000.09997; the touch is below it.
    expect(priceOf(placeInQueue(model, touch, 1.5, 2000.3, { ...joinAt1bp, costBps: 1 }).quotes, 'buy')).toBe(1999.99);
    // A 3 bp fee: only up to 2000.3 × (1 − 3·10⁻⁴) ≈ 1999.70, short of the touch, still above the model's bid.
    const { quotes } = placeInQueue(model, touch, 1.5, 2000.3, { ...joinAt1bp, costBps: 3 });
    expect(priceOf(quotes, 'buy')).toBeCloseTo(2000.3 * (1 - 3e-4), 6);
    // A 5 bp fee: the model's bid already sits where the rise pays: it stays.
    expect(placeInQueue(model, touch, 1.5, 2000.3, { ...joinAt1bp, costBps: 5 })).toEqual({ quotes: model, joined: 0 });
  });

  it('never moves a quote away from the touch, and joins with level 0 alone', () => {
    const inside: DesiredQuote[] = [
      { side: 'buy', price: 2000, size: 0.1, level: 0 },
      { side: 'buy', price: 1999.5, size: 0.1, level: 1 },
      { side: 'sell', price: 2000.5, size: 0.1, level: 0 },
    ];
    const { quotes, joined } = placeInQueue(inside, touch, 2, 2000.4, joinAt1bp);
    expect(joined).toBe(0);
    expect(priceOf(quotes, 'buy')).toBe(2000);
    expect(priceOf(quotes, 'buy', 1)).toBe(1999.5);
  });

  it('steps the side the move goes through one tick behind the touch when it sat at or inside it', () => {
    const atTouch: DesiredQuote[] = [
      { side: 'buy', price: 1999.99, size: 0.1, level: 0 },
      { side: 'sell', price: 2000.01, size: 0.1, level: 0 },
      { side: 'sell', price: 2000, size: 0.1, level: 1 },
    ];
    const { quotes } = placeInQueue(atTouch, touch, 1.5, 2000.3, joinAt1bp);
    expect(priceOf(quotes, 'sell')).toBeCloseTo(2000.02, 9);
    expect(priceOf(quotes, 'sell', 1)).toBeCloseTo(2000.02, 9);
    const falling = placeInQueue(atTouch, touch, -1.5, 1999.7, joinAt1bp).quotes;
    expect(priceOf(falling, 'buy')).toBeCloseTo(1999.98, 9);
  });

  it('leaves the quotes as they are without a touch on the favoured side', () => {
    const noBid = { bestBid: undefined, bestAsk: 2000.01, tickSize: 0.01 };
    expect(placeInQueue(model, noBid, 1.5, 2000.3, joinAt1bp)).toEqual({ quotes: model, joined: 0 });
  });
});
