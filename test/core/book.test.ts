import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OrderBook, type Side } from '../../src/core/index.ts';

describe('OrderBook', () => {
  it('keeps absolute sizes per level and reports the best of each side', () => {
    const book = new OrderBook();
    book.setLevel('buy', 100, 5);
    book.setLevel('buy', 101, 2);
    book.setLevel('sell', 103, 7);
    book.setLevel('sell', 102, 1);
    expect(book.top()).toEqual({ bid: { priceTicks: 101, qtyLots: 2 }, ask: { priceTicks: 102, qtyLots: 1 } });
    book.setLevel('buy', 101, 0);
    book.setLevel('sell', 102, 4);
    expect(book.bestBid()).toEqual({ priceTicks: 100, qtyLots: 5 });
    expect(book.bestAsk()).toEqual({ priceTicks: 102, qtyLots: 4 });
    expect(book.levels('sell', -1)).toEqual([
      { priceTicks: 102, qtyLots: 4 },
      { priceTicks: 103, qtyLots: 7 },
    ]);
    expect(book.isCrossed()).toBe(false);
  });

  it('deleting a missing level is a no-op and an empty side has no best', () => {
    const book = new OrderBook();
    book.setLevel('sell', 5, 0);
    expect(book.bestAsk()).toBeUndefined();
    expect(book.depth('sell')).toBe(0);
  });

  it('matches a naive map-based book after any sequence of updates', () => {
    const update = fc.record({ side: fc.constantFrom<Side>('buy', 'sell'), price: fc.integer({ min: 1, max: 60 }), qty: fc.integer({ min: 0, max: 5 }) });
    fc.assert(
      fc.property(fc.array(update, { maxLength: 200 }), fc.integer({ min: -1, max: 10 }), (updates, count) => {
        const book = new OrderBook();
        const naive = { buy: new Map<number, number>(), sell: new Map<number, number>() };
        for (const u of updates) {
          book.setLevel(u.side, u.price, u.qty);
          if (u.qty === 0) naive[u.side].delete(u.price);
          else naive[u.side].set(u.price, u.qty);
        }
        for (const s of ['buy', 'sell'] as const) {
          const sorted = [...naive[s].entries()].sort((a, b) => (s === 'buy' ? b[0] - a[0] : a[0] - b[0]));
          const expected = (count < 0 ? sorted : sorted.slice(0, count)).map(([priceTicks, qtyLots]) => ({ priceTicks, qtyLots }));
          expect(book.levels(s, count)).toEqual(expected);
          expect(book.depth(s)).toBe(naive[s].size);
        }
      }),
    );
  });
});
