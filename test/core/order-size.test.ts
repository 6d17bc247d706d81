import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fitQuantityNumber, numberToUnits, orderSizeAt, type TickerRules } from '../../src/core/index.ts';

/** Lots as venues have them: 1, 2 or 5 × 10^−d. */
const lotArb = fc.record({ mantissa: fc.constantFrom(1, 2, 5), decimals: fc.integer({ min: 0, max: 8 }) });

function rulesOf(lot: { mantissa: number; decimals: number }, minLots: number): { rules: TickerRules; lotSize: number; minSize: number } {
  const baseDecimals = 18;
  const qtyStep = BigInt(lot.mantissa) * 10n ** BigInt(baseDecimals - lot.decimals);
  const lotSize = lot.mantissa / 10 ** lot.decimals;
  const rules: TickerRules = { base: 'B', quote: 'Q', isEcosystemBook: true, priceTick: 1n, qtyStep, minQty: qtyStep * BigInt(minLots), baseDecimals, quoteDecimals: 6 };
  return { rules, lotSize, minSize: Number((lotSize * minLots).toPrecision(15)) };
}

describe('order size from a quote notional', () => {
  it('is the notional over the price rounded down to the lot once, exactly, and never under the minimum', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.01, max: 1e7, noNaN: true }),
        fc.double({ min: 1e-4, max: 1e6, noNaN: true }),
        lotArb,
        fc.integer({ min: 1, max: 50 }),
        (notional, price, lot, minLots) => {
          const { rules, lotSize, minSize } = rulesOf(lot, minLots);
          // Beyond 10^12 lots a double cannot hold the product to the unit (orderSizeAt's domain).
          fc.pre(notional / price / lotSize <= 1e12);
          const sized = orderSizeAt({ baseTokens: 0, notionalQuote: notional }, price, { lotSize, minSize });
          const exact = notional / price;
          if (sized.kind !== 'ok') {
            expect(sized.kind).toBe('below-minimum');
            // Skipped only when the lots it buys are fewer than the minimum (float snap aside).
            expect(Math.floor(exact / lotSize + 1e-9)).toBeLessThan(minLots);
            return;
          }
          // Never more than asked (a float snap of a billionth of a lot aside), less by under a lot.
          expect(sized.size).toBeLessThanOrEqual(exact * (1 + 1e-9));
          expect(exact - sized.size).toBeLessThan(lotSize * (1 + 1e-9));
          expect(sized.size).toBeGreaterThanOrEqual(minSize);
          // An exact multiple of the lot: the engine's own rounding to the lot finds nothing to round.
          const units = numberToUnits(sized.size, rules.baseDecimals, 'down');
          expect(units % rules.qtyStep).toBe(0n);
          const fit = fitQuantityNumber(sized.size, rules);
          expect(fit.kind).toBe('ok');
          expect(fit.qty).toBe(units);
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('keeps the size the same in notional at different prices: 130 USDT is 0.052 ETH at 2,500 and 0.002166 BTC at 60,000', () => {
    expect(orderSizeAt({ baseTokens: 0, notionalQuote: 130 }, 2_500, { lotSize: 0.0001, minSize: 0.0001 })).toEqual({ kind: 'ok', size: 0.052 });
    expect(orderSizeAt({ baseTokens: 0, notionalQuote: 130 }, 60_000, { lotSize: 0.000001, minSize: 0.00001 })).toEqual({ kind: 'ok', size: 0.002166 });
  });

  it('snaps float noise to the lot instead of losing a whole lot (0.3 / 0.1 is 2.9999999999999996 in floats)', () => {
    expect(orderSizeAt({ baseTokens: 0, notionalQuote: 0.3 }, 1, { lotSize: 0.1, minSize: 0.1 })).toEqual({ kind: 'ok', size: 0.3 });
  });

  it('skips a notional that buys less than the venue minimum, rather than quoting more than asked', () => {
    expect(orderSizeAt({ baseTokens: 0, notionalQuote: 5 }, 60_000, { lotSize: 0.00001, minSize: 0.0001 })).toEqual({ kind: 'below-minimum', size: 0 });
    expect(orderSizeAt({ baseTokens: 0, notionalQuote: 5 }, Number.NaN, { lotSize: 0.00001, minSize: 0.0001 })).toEqual({ kind: 'no-price', size: 0 });
  });

  it('passes a base size through untouched: the engine rounds it, as it always did', () => {
    expect(orderSizeAt({ baseTokens: 0.0123456, notionalQuote: 0 }, 2_500, { lotSize: 0.001, minSize: 0.001 })).toEqual({ kind: 'ok', size: 0.0123456 });
  });
});
