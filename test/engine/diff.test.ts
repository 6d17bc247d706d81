import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diffQuotes, type DiffOptions, type LiveQuote, type RoundedQuote } from '../../src/engine/index.ts';
import { eth, usdc } from './fixtures.ts';

const options: DiffOptions = { toleranceSizeFraction: 0.1, maxOrderAgeMs: 60_000, nowMs: 100_000 };
/** A desired bid whose less aggressive band is 0.05 USDC (5 ticks) and more aggressive band `aggressive` USDC. */
const bid = (price: number, size: number, level = 0, aggressive = 0): RoundedQuote => ({
  side: 'buy',
  priceUnits: usdc(price),
  qtyUnits: eth(size),
  level,
  toleranceUnits: usdc(0.05),
  aggressiveToleranceUnits: usdc(aggressive),
});
const ask = (price: number, size: number): RoundedQuote => ({ side: 'sell', priceUnits: usdc(price), qtyUnits: eth(size), level: 0, toleranceUnits: usdc(0.05) });
const live = (id: string, price: number, size: number, createdAtMs = 90_000, filled = 0, side: 'buy' | 'sell' = 'buy'): LiveQuote => ({
  orderId: id,
  side,
  priceUnits: usdc(price),
  remainingUnits: eth(size),
  filledUnits: eth(filled),
  createdAtMs,
});

describe('diffQuotes', () => {
  it('cancels the unmatched live orders in their given order and leaves the live list as it was', () => {
    const orders = [live('far', 1999.0, 0.1), live('near', 2000.0, 0.1), live('old', 2000.02, 0.1, 10_000), live('odd', 1990.0, 0.3)];
    const before = orders.slice();
    const diff = diffQuotes([bid(2000.05, 0.1)], orders, options);
    expect(diff.keep.map((o) => o.orderId)).toEqual(['near']);
    expect(diff.cancel.map((o) => o.orderId)).toEqual(['far', 'old', 'odd']);
    expect(orders).toEqual(before);
  });

  it('keeps a less aggressive order inside its band, so its queue position survives', () => {
    const diff = diffQuotes([bid(2000.05, 0.1)], [live('a', 2000.0, 0.1)], options);
    expect(diff.keep.map((o) => o.orderId)).toEqual(['a']);
    expect(diff.cancel).toEqual([]);
    expect(diff.place).toEqual([]);
    // The same for an ask above its desired price.
    expect(diffQuotes([ask(2001.0, 0.1)], [live('s', 2001.05, 0.1, 90_000, 0, 'sell')], options).keep).toHaveLength(1);
  });

  it('replaces an order that became more aggressive than its quote at once, by a single tick', () => {
    const bidDiff = diffQuotes([bid(2000.0, 0.1)], [live('a', 2000.01, 0.1)], options);
    expect(bidDiff.cancel.map((o) => o.orderId)).toEqual(['a']);
    expect(bidDiff.place).toHaveLength(1);
    const askDiff = diffQuotes([ask(2001.0, 0.1)], [live('s', 2000.99, 0.1, 90_000, 0, 'sell')], options);
    expect(askDiff.cancel.map((o) => o.orderId)).toEqual(['s']);
  });

  it('lets a more aggressive order stay only within its quote\'s aggressive band', () => {
    expect(diffQuotes([bid(2000.0, 0.1, 0, 0.02)], [live('a', 2000.02, 0.1)], options).keep).toHaveLength(1);
    expect(diffQuotes([bid(2000.0, 0.1, 0, 0.02)], [live('a', 2000.03, 0.1)], options).cancel).toHaveLength(1);
  });

  it('replaces an order that left the band by price, size or age', () => {
    expect(diffQuotes([bid(2000.06, 0.1)], [live('a', 2000.0, 0.1)], options).cancel.map((o) => o.orderId)).toEqual(['a']);
    expect(diffQuotes([bid(2000.0, 0.2)], [live('a', 2000.0, 0.1)], options).place).toHaveLength(1);
    expect(diffQuotes([bid(2000.0, 0.1)], [live('a', 2000.0, 0.2)], options).place).toHaveLength(1);
    const old = diffQuotes([bid(2000.0, 0.1)], [live('a', 2000.0, 0.1, 40_000)], options);
    expect(old.cancel.map((o) => o.orderId)).toEqual(['a']);
    expect(old.place).toHaveLength(1);
  });

  it('keeps a partly filled order in place whatever is left of it, but not one never filled', () => {
    const partial = diffQuotes([bid(2000.0, 0.1)], [live('a', 2000.0, 0.01, 90_000, 0.09)], options);
    expect(partial.keep.map((o) => o.orderId)).toEqual(['a']);
    expect(partial.place).toEqual([]);
    expect(diffQuotes([bid(2000.0, 0.1)], [live('a', 2000.0, 0.01)], options).cancel).toHaveLength(1);
  });

  it('cancels live orders nobody wants any more and places missing levels', () => {
    const diff = diffQuotes([bid(1999.0, 0.1, 0), bid(1998.0, 0.1, 1)], [live('a', 1998.99, 0.1), live('x', 1990, 0.1)], options);
    expect(diff.keep.map((o) => o.orderId)).toEqual(['a']);
    expect(diff.cancel.map((o) => o.orderId)).toEqual(['x']);
    expect(diff.place.map((q) => q.priceUnits)).toEqual([usdc(1998.0)]);
  });

  it('never keeps an order more aggressive than its band, never matches one live order to two quotes, loses nothing', () => {
    const quote = fc.record({ price: fc.integer({ min: 199_900, max: 200_000 }), size: fc.integer({ min: 1, max: 5 }), level: fc.nat(5), aggressive: fc.nat(3) });
    const order = fc.record({ price: fc.integer({ min: 199_900, max: 200_000 }), size: fc.integer({ min: 1, max: 5 }), filled: fc.nat(2) });
    fc.assert(
      fc.property(fc.array(quote, { maxLength: 8 }), fc.array(order, { maxLength: 8 }), (wanted, resting) => {
        const desired = wanted.map((q) => bid(q.price / 100, q.size / 10, q.level, q.aggressive / 100));
        const orders = resting.map((q, i) => live(`o${i}`, q.price / 100, q.size / 10, 90_000, q.filled / 10));
        const diff = diffQuotes(desired, orders, options);
        expect(diff.keep.length + diff.place.length).toBe(desired.length);
        expect(diff.keep.length + diff.cancel.length).toBe(orders.length);
        expect(new Set(diff.keep.map((o) => o.orderId)).size).toBe(diff.keep.length);
        // Every kept order stands in for some desired quote it is not too aggressive for.
        for (const kept of diff.keep) {
          expect(desired.some((q) => kept.priceUnits - q.priceUnits <= (q.aggressiveToleranceUnits ?? 0n) && q.priceUnits - kept.priceUnits <= (q.toleranceUnits ?? 0n))).toBe(true);
        }
      }),
    );
  });
});
