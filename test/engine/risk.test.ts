import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { notionalUnits } from '../../src/core/index.ts';
import { clipQuotes, DrawdownGuard, type RiskLimits, type RoundedQuote } from '../../src/engine/index.ts';
import { ETH_USDC, eth, usdc } from './fixtures.ts';

const open: RiskLimits = {
  maxInventoryDeviationUnits: 0n,
  maxOrderNotionalUnits: 0n,
  maxTotalNotionalUnits: 0n,
  maxOpenOrders: 0,
  priceBandFraction: 0,
  maxDrawdownQuote: 0,
};
const q = (side: 'buy' | 'sell', price: number, size: number, level = 0): RoundedQuote => ({ side, priceUnits: usdc(price), qtyUnits: eth(size), level });
const flat = { baseUnits: eth(1), targetUnits: eth(1) };

describe('clipQuotes', () => {
  it('drops quotes outside the price band around the mid', () => {
    const kept = clipQuotes([q('buy', 1890, 0.1), q('buy', 1990, 0.1), q('sell', 2110, 0.1)], { ...open, priceBandFraction: 0.05 }, flat, usdc(2000), ETH_USDC);
    expect(kept.map((k) => k.priceUnits)).toEqual([usdc(1990)]);
  });

  it('stops adding to a long position: bids shrink to the room left, asks stay whole', () => {
    const limits = { ...open, maxInventoryDeviationUnits: eth(0.5) };
    const long = { baseUnits: eth(1.4), targetUnits: eth(1) };
    const kept = clipQuotes([q('buy', 1999, 0.3), q('buy', 1998, 0.3, 1), q('sell', 2001, 0.3)], limits, long, usdc(2000), ETH_USDC);
    expect(kept).toEqual([q('buy', 1999, 0.1), q('sell', 2001, 0.3)]);
  });

  it('caps each order and all orders together by notional, closest levels first', () => {
    const kept = clipQuotes(
      [q('buy', 2000, 1, 0), q('sell', 2000, 1, 0), q('buy', 1999, 1, 1)],
      { ...open, maxOrderNotionalUnits: usdc(1000), maxTotalNotionalUnits: usdc(1500) },
      flat,
      usdc(2000),
      ETH_USDC,
    );
    expect(kept).toEqual([q('buy', 2000, 0.5), q('sell', 2000, 0.25)]);
  });

  it('never lets the quotes exceed any limit, whatever the input', () => {
    const quote = fc.record({
      side: fc.constantFrom<'buy' | 'sell'>('buy', 'sell'),
      price: fc.integer({ min: 1900, max: 2100 }),
      size: fc.integer({ min: 1, max: 50 }),
      level: fc.nat(4),
    });
    fc.assert(
      fc.property(fc.array(quote, { maxLength: 10 }), fc.integer({ min: -20, max: 20 }), (quotes, deviationTenths) => {
        const limits = { ...open, maxInventoryDeviationUnits: eth(2), maxOrderNotionalUnits: usdc(5000), maxTotalNotionalUnits: usdc(20000), maxOpenOrders: 4 };
        const inventory = { baseUnits: eth(5) + eth(deviationTenths / 10), targetUnits: eth(5) };
        const kept = clipQuotes(quotes.map((x) => q(x.side, x.price, x.size / 10, x.level)), limits, inventory, usdc(2000), ETH_USDC);
        expect(kept.length).toBeLessThanOrEqual(4);
        let bids = 0n;
        let asks = 0n;
        let total = 0n;
        for (const k of kept) {
          const notional = notionalUnits(k.priceUnits, k.qtyUnits, ETH_USDC, 'up');
          expect(notional <= usdc(5000)).toBe(true);
          total += notional;
          if (k.side === 'buy') bids += k.qtyUnits;
          else asks += k.qtyUnits;
        }
        expect(total <= usdc(20000)).toBe(true);
        const deviation = inventory.baseUnits - inventory.targetUnits;
        expect(deviation + bids <= eth(2) || bids === 0n).toBe(true);
        expect(asks - deviation <= eth(2) || asks === 0n).toBe(true);
      }),
    );
  });
});

describe('DrawdownGuard', () => {
  it('trips when PnL falls the limit below its peak, not below zero', () => {
    const guard = new DrawdownGuard(50);
    expect(guard.observe(0)).toBeUndefined();
    expect(guard.observe(100)).toBeUndefined();
    expect(guard.observe(60)).toBeUndefined();
    expect(guard.observe(50)).toBe(50);
    expect(new DrawdownGuard(0).observe(-1e9)).toBeUndefined();
  });
});

describe('clipQuotes and funds', () => {
  it('never quotes more than the account holds: asks by base, bids by quote', () => {
    const poor = { baseUnits: eth(0.15), targetUnits: eth(0.15), quoteUnits: usdc(300) };
    const kept = clipQuotes([q('buy', 2000, 0.1), q('buy', 1999, 0.1, 1), q('sell', 2001, 0.1), q('sell', 2002, 0.1, 1)], open, poor, usdc(2000), ETH_USDC);
    expect(kept).toEqual([q('buy', 2000, 0.1), q('sell', 2001, 0.1), q('buy', 1999, 0.05, 1), q('sell', 2002, 0.05, 1)]);
  });
});
