import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diffQuotes, type LiveQuote, type RoundedQuote } from '../../src/engine/index.ts';
import { ETH_USDC, eth, usdc } from './fixtures.ts';

const options = { priceTick: ETH_USDC.priceTick, toleranceTicks: 2, toleranceSizeFraction: 0.1, maxOrderAgeMs: 60_000, nowMs: 100_000 };
const bid = (price: number, size: number, level = 0): RoundedQuote => ({ side: 'buy', priceUnits: usdc(price), qtyUnits: eth(size), level });
const live = (id: string, price: number, size: number, createdAtMs = 90_000): LiveQuote => ({
  orderId: id,
  side: 'buy',
  priceUnits: usdc(price),
  remainingUnits: eth(size),
  createdAtMs,
});

describe('diffQuotes', () => {
  it('keeps an order within the tolerance band, so its queue position survives', () => {
    const diff = diffQuotes([bid(2000.02, 0.1)], [live('a', 2000.0, 0.1)], options);
    expect(diff.keep.map((o) => o.orderId)).toEqual(['a']);
    expect(diff.cancel).toEqual([]);
    expect(diff.place).toEqual([]);
  });

  it('replaces an order that left the band by price, size or age', () => {
    expect(diffQuotes([bid(2000.03, 0.1)], [live('a', 2000.0, 0.1)], options).cancel.map((o) => o.orderId)).toEqual(['a']);
    expect(diffQuotes([bid(2000.0, 0.2)], [live('a', 2000.0, 0.1)], options).place).toHaveLength(1);
    const old = diffQuotes([bid(2000.0, 0.1)], [live('a', 2000.0, 0.1, 40_000)], options);
    expect(old.cancel.map((o) => o.orderId)).toEqual(['a']);
    expect(old.place).toHaveLength(1);
  });

  it('cancels live orders nobody wants any more and places missing levels', () => {
    const diff = diffQuotes([bid(1999.0, 0.1, 0), bid(1998.0, 0.1, 1)], [live('a', 1999.01, 0.1), live('x', 1990, 0.1)], options);
    expect(diff.keep.map((o) => o.orderId)).toEqual(['a']);
    expect(diff.cancel.map((o) => o.orderId)).toEqual(['x']);
    expect(diff.place.map((q) => q.priceUnits)).toEqual([usdc(1998.0)]);
  });

  it('never matches one live order to two quotes and never loses a quote or an order', () => {
    const quote = fc.record({ price: fc.integer({ min: 199_900, max: 200_000 }), size: fc.integer({ min: 1, max: 5 }), level: fc.nat(5) });
    fc.assert(
      fc.property(fc.array(quote, { maxLength: 8 }), fc.array(quote, { maxLength: 8 }), (wanted, resting) => {
        const desired = wanted.map((q) => bid(q.price / 100, q.size / 10, q.level));
        const orders = resting.map((q, i) => live(`o${i}`, q.price / 100, q.size / 10));
        const diff = diffQuotes(desired, orders, options);
        expect(diff.keep.length + diff.place.length).toBe(desired.length);
        expect(diff.keep.length + diff.cancel.length).toBe(orders.length);
        expect(new Set(diff.keep.map((o) => o.orderId)).size).toBe(diff.keep.length);
      }),
    );
  });
});
