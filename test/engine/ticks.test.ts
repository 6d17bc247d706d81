import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { unitsToNumber, type Side, type TickerRules } from '../../src/core/index.ts';
import { quotePriceInTicks, quotesToTicks, roundPriceToTick, tickSizeNumber } from '../../src/engine/index.ts';
import { ETH_USDC, eth, usdc } from './fixtures.ts';

/** Rules with a tick of 10^exponent quote tokens (quote with 6 or 18 decimals). */
function rulesWithTick(tickExponent: number, quoteDecimals: 6 | 18): TickerRules {
  return { ...ETH_USDC, quoteDecimals, priceTick: 10n ** BigInt(quoteDecimals + tickExponent) };
}

const bookArb = fc.record({
  tickExponent: fc.integer({ min: -6, max: -1 }),
  quoteDecimals: fc.constantFrom<6 | 18>(6, 18),
  bidTicks: fc.integer({ min: 1, max: 50_000_000 }),
  spreadTicks: fc.integer({ min: 1, max: 40 }),
});

describe('rounding strategy prices to ticks, once', () => {
  it('joins the touch exactly: the best bid (or best ask − 1 tick, computed in floats) lands on its tick, not one behind', () => {
    fc.assert(
      fc.property(bookArb, ({ tickExponent, quoteDecimals, bidTicks, spreadTicks }) => {
        const rules = rulesWithTick(tickExponent, quoteDecimals);
        const tick = tickSizeNumber(rules);
        const bestBid = BigInt(bidTicks) * rules.priceTick;
        const bestAsk = bestBid + BigInt(spreadTicks) * rules.priceTick;
        const touch = { bestBidUnits: bestBid, bestAskUnits: bestAsk };
        const bid = unitsToNumber(bestBid, quoteDecimals);
        const ask = unitsToNumber(bestAsk, quoteDecimals);
        // Join: exactly the best price on each side.
        expect(quotePriceInTicks(bid, 'buy', touch, rules)).toBe(bestBid);
        expect(quotePriceInTicks(ask, 'sell', touch, rules)).toBe(bestAsk);
        // "One tick under the best ask" computed in floats is exactly that tick (or the clamp's).
        expect(quotePriceInTicks(ask - tick, 'buy', touch, rules)).toBe(bestAsk - rules.priceTick);
        // Improve: one tick inside, unless that would cross; then the clamp, one tick off the other side.
        const improvedBid = quotePriceInTicks(bid + tick, 'buy', touch, rules);
        expect(improvedBid).toBe(spreadTicks > 1 ? bestBid + rules.priceTick : bestAsk - rules.priceTick);
        const improvedAsk = quotePriceInTicks(ask - tick, 'sell', touch, rules);
        expect(improvedAsk).toBe(spreadTicks > 1 ? bestAsk - rules.priceTick : bestBid + rules.priceTick);
      }),
      { numRuns: 500 },
    );
  });

  it('never crosses the book, stays on the grid, and rounds passively: a bid never above, an ask never below, what was asked', () => {
    fc.assert(
      fc.property(bookArb, fc.double({ min: -0.05, max: 0.05, noNaN: true }), fc.constantFrom<Side>('buy', 'sell'), ({ tickExponent, quoteDecimals, bidTicks, spreadTicks }, offset, side) => {
        const rules = rulesWithTick(tickExponent, quoteDecimals);
        const bestBid = BigInt(bidTicks) * rules.priceTick;
        const bestAsk = bestBid + BigInt(spreadTicks) * rules.priceTick;
        const touch = { bestBidUnits: bestBid, bestAskUnits: bestAsk };
        const mid = unitsToNumber(bestBid + bestAsk, quoteDecimals) / 2;
        const price = mid * (1 + offset);
        const units = quotePriceInTicks(price, side, touch, rules);
        if (units === undefined) {
          expect(side).toBe('buy');
          expect(bestAsk).toBe(rules.priceTick);
          return;
        }
        expect(units % rules.priceTick).toBe(0n);
        expect(units > 0n).toBe(true);
        if (side === 'buy') {
          expect(units < bestAsk).toBe(true);
          // Snapping may move a price by at most a millionth of a tick towards the grid.
          expect(unitsToNumber(units, quoteDecimals)).toBeLessThanOrEqual(price + tickSizeNumber(rules) * 1e-6 + Number.EPSILON * price);
        } else {
          expect(units > bestBid).toBe(true);
          expect(unitsToNumber(units, quoteDecimals)).toBeGreaterThanOrEqual(price - tickSizeNumber(rules) * 1e-6 - Number.EPSILON * price);
        }
      }),
      { numRuns: 1_000 },
    );
  });

  it('never puts our own bid at or above our own ask', () => {
    fc.assert(
      fc.property(bookArb, fc.double({ min: 0.0001, max: 0.01, noNaN: true }), fc.double({ min: -0.02, max: 0.02, noNaN: true }), ({ tickExponent, quoteDecimals, bidTicks, spreadTicks }, halfSpread, skew) => {
        const rules = rulesWithTick(tickExponent, quoteDecimals);
        const tick = tickSizeNumber(rules);
        const bestBid = BigInt(bidTicks) * rules.priceTick;
        const touch = { bestBidUnits: bestBid, bestAskUnits: bestBid + BigInt(spreadTicks) * rules.priceTick };
        const centre = unitsToNumber(bestBid, quoteDecimals) * (1 + skew);
        const width = Math.max(centre * halfSpread, tick / 2);
        const quotes = quotesToTicks(
          [
            { side: 'buy', price: centre - width, size: 0.1, level: 0 },
            { side: 'sell', price: centre + width, size: 0.1, level: 0 },
          ],
          touch,
          rules,
        );
        const ourBid = quotes.find((q) => q.side === 'buy')?.priceUnits;
        const ourAsk = quotes.find((q) => q.side === 'sell')?.priceUnits;
        if (ourBid !== undefined && ourAsk !== undefined) expect(ourBid < ourAsk).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('rounds sizes down to the lot and drops those under the minimum; keeps the reference', () => {
    const touch = { bestBidUnits: usdc(2000), bestAskUnits: usdc(2000.02) };
    const quotes = quotesToTicks(
      [
        { side: 'buy', price: 1999.5, size: 0.12349, level: 0, reference: 2000.01 },
        { side: 'sell', price: 2001, size: 0.0005, level: 0 },
      ],
      touch,
      ETH_USDC,
    );
    expect(quotes).toEqual([{ side: 'buy', priceUnits: usdc(1999.5), qtyUnits: eth(0.1234), level: 0, reference: 2000.01 }]);
  });

  it('snaps float noise to the grid but keeps real fractions of a tick passive', () => {
    expect(roundPriceToTick(2500.1299999999997, 'buy', ETH_USDC)).toBe(usdc(2500.13));
    expect(roundPriceToTick(2500.1300000000001, 'sell', ETH_USDC)).toBe(usdc(2500.13));
    expect(roundPriceToTick(2500.125, 'buy', ETH_USDC)).toBe(usdc(2500.12));
    expect(roundPriceToTick(2500.125, 'sell', ETH_USDC)).toBe(usdc(2500.13));
    expect(roundPriceToTick(0.001, 'buy', ETH_USDC)).toBeUndefined();
    expect(roundPriceToTick(Number.NaN, 'sell', ETH_USDC)).toBeUndefined();
  });
});
