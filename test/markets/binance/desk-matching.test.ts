/**
 * How the Binance double's taker orders walk the book: by quantity within a limit price, and by
 * quote amount (`quoteOrderQty`) in whole lot steps, never spending (or receiving) more than the
 * amount and leaving less than one more step's worth behind.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { quoteOf, takesForQuantity, takesForQuote, wouldCross, type DeskLevel } from '../../../src/markets/binance/server/desk-matching.ts';

const UNIT = 100_000_000n;
const STEP = 10_000n; // 0.0001
const TICK = 1_000_000n; // 0.01

/** A book side, best first (ascending prices, as asks are walked). */
const side = fc
  .array(fc.record({ ticks: fc.bigInt({ min: 1n, max: 1_000n }), qty: fc.bigInt({ min: 1n, max: 5n * UNIT }) }), { minLength: 0, maxLength: 12 })
  .map((levels) => {
    let price = 2_600n * UNIT;
    return levels.map((level): DeskLevel => {
      price += level.ticks * TICK;
      return { price, qty: level.qty };
    });
  });

describe('Binance double: taker orders on the replayed book', () => {
  it('spends at most quoteOrderQty, in whole steps, with less than one more step of it left where liquidity remains', () => {
    fc.assert(
      fc.property(side, fc.bigInt({ min: 0n, max: 50_000n * UNIT }), (levels, quote) => {
        const takes = takesForQuote(levels, quote, STEP);
        const spent = takes.reduce((sum, take) => sum + quoteOf(take.qty, take.price), 0n);
        expect(spent).toBeLessThanOrEqual(quote);
        for (const [i, take] of takes.entries()) {
          expect(take.qty % STEP).toBe(0n);
          expect(take.qty).toBeGreaterThan(0n);
          expect(take.price).toBe(levels.find((level) => level.price === take.price)?.price);
          if (i > 0) expect(take.price).toBeGreaterThan(takes[i - 1]?.price ?? 0n);
        }
        // The first level not taken whole (down to the step) could not afford one more step.
        const remaining = quote - spent;
        const short = levels.find((level) => (takes.find((take) => take.price === level.price)?.qty ?? 0n) < level.qty - (level.qty % STEP));
        if (short !== undefined) expect(remaining * UNIT).toBeLessThan(STEP * short.price + UNIT);
      }),
    );
  });

  it('takes a quantity level by level, never past the limit price nor the quantity', () => {
    fc.assert(
      fc.property(side, fc.bigInt({ min: 1n, max: 20n * UNIT }), fc.option(fc.bigInt({ min: 2_600n * UNIT, max: 3_700n * UNIT })), (levels, quantity, limit) => {
        const takes = takesForQuantity(levels, true, quantity, limit ?? undefined, STEP);
        const taken = takes.reduce((sum, take) => sum + take.qty, 0n);
        expect(taken).toBeLessThanOrEqual(quantity);
        for (const take of takes) if (limit !== null) expect(take.price).toBeLessThanOrEqual(limit);
        const reachable = levels.filter((level) => limit === null || level.price <= limit).reduce((sum, level) => sum + level.qty - (level.qty % STEP), 0n);
        // Short of the quantity only when the reachable book (in whole steps) is.
        if (taken < quantity) expect(taken).toBe(reachable);
      }),
    );
  });

  it('says a LIMIT_MAKER would take when its price reaches the other side', () => {
    const bestAsk = { price: 2_683_81_000_000n, qty: UNIT };
    const bestBid = { price: 2_683_80_000_000n, qty: UNIT };
    expect(wouldCross(true, 2_683_81_000_000n, bestAsk)).toBe(true);
    expect(wouldCross(true, 2_683_80_000_000n, bestAsk)).toBe(false);
    expect(wouldCross(false, 2_683_80_000_000n, bestBid)).toBe(true);
    expect(wouldCross(false, 2_683_81_000_000n, bestBid)).toBe(false);
    expect(wouldCross(true, 1n, undefined)).toBe(false);
  });
});
