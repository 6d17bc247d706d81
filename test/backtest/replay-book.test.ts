import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OrderBook, type Side } from '../../src/core/index.ts';
import { ReplayBook } from '../../src/backtest/replay-book.ts';

const update = fc.record({
  side: fc.constantFrom<Side>('buy', 'sell'),
  // Mostly near one price, sometimes far away: the arrays grow, and past their limit the book
  // switches to the general one.
  price: fc.oneof(fc.integer({ min: 1_000, max: 1_060 }), fc.integer({ min: 1, max: 5_000_000 })),
  qty: fc.integer({ min: 0, max: 5 }),
  clear: fc.boolean(),
});

describe('ReplayBook', () => {
  it('answers as OrderBook does after any sequence of level updates and clears', () => {
    fc.assert(
      fc.property(fc.array(update, { maxLength: 300 }), (updates) => {
        const expected = new OrderBook();
        const book = new ReplayBook();
        for (const step of updates) {
          if (step.clear && step.qty === 5) {
            expected.clear();
            book.clear();
          }
          const before = expected.sizeAt(step.side, step.price);
          expected.setLevel(step.side, step.price, step.qty);
          expect(book.replaceLevel(step.side, step.price, step.qty)).toBe(before);
          expect(book.bestBidPrice()).toBe(expected.bestBidPrice());
          expect(book.bestAskPrice()).toBe(expected.bestAskPrice());
          expect(book.sizeAt(step.side, step.price)).toBe(expected.sizeAt(step.side, step.price));
        }
        for (const side of ['buy', 'sell'] as const) expect(book.levels(side)).toEqual(expected.levels(side, -1));
      }),
      { numRuns: 500 },
    );
  });

  it('finds the next best level when the best one empties, however far behind it is', () => {
    const book = new ReplayBook();
    book.setLevel('buy', 10_000, 1);
    book.setLevel('buy', 7_000, 2);
    book.setLevel('sell', 10_001, 1);
    book.setLevel('sell', 12_500, 3);
    book.setLevel('buy', 10_000, 0);
    book.setLevel('sell', 10_001, 0);
    expect(book.bestBidPrice()).toBe(7_000);
    expect(book.bestAskPrice()).toBe(12_500);
    book.setLevel('buy', 7_000, 0);
    expect(book.bestBidPrice()).toBeUndefined();
  });
});
