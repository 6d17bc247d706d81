import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { notionalUnits } from '../../src/core/index.ts';
import { admissibleQuantity, clipQuotes, DrawdownGuard, orderSizeUnitsOf, resolveRiskLimits, type ExposedOrder, type RiskLimits, type RoundedQuote } from '../../src/engine/index.ts';
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

describe('the placement gate: every order that could still fill counts', () => {
  const limits: RiskLimits = { ...open, maxInventoryDeviationUnits: eth(0.1), maxTotalNotionalUnits: usdc(1000) };
  const rich = { baseUnits: eth(10), targetUnits: eth(10), quoteUnits: usdc(100_000) };
  const exposed = (side: 'buy' | 'sell', price: number, size: number): ExposedOrder => ({ side, priceUnits: usdc(price), remainingUnits: eth(size) });

  it('shrinks a bid so that it and every resting, unacknowledged or cancelling bid, all filled, keep the position inside the cap', () => {
    // Long 0.03 already, 0.05 resting (one of them being cancelled: it may still fill) → 0.02 of room.
    const long = { ...rich, baseUnits: eth(10.03) };
    const qty = admissibleQuantity({ side: 'buy', priceUnits: usdc(2000), qtyUnits: eth(0.05) }, [exposed('buy', 1999, 0.03), exposed('buy', 1998, 0.02), exposed('sell', 2001, 0.05)], long, limits, ETH_USDC);
    expect(qty).toBe(eth(0.02));
    // Asks are not held back by bids: their room is 0.1 + 0.03 − 0.05 resting.
    expect(admissibleQuantity({ side: 'sell', priceUnits: usdc(2001), qtyUnits: eth(0.2) }, [exposed('sell', 2001, 0.05)], long, limits, ETH_USDC)).toBe(eth(0.08));
  });

  it('returns 0 when nothing fits, or what fits is under the minimum size', () => {
    expect(admissibleQuantity({ side: 'buy', priceUnits: usdc(2000), qtyUnits: eth(0.05) }, [exposed('buy', 1999, 0.1)], rich, limits, ETH_USDC)).toBe(0n);
    expect(admissibleQuantity({ side: 'buy', priceUnits: usdc(2000), qtyUnits: eth(0.05) }, [exposed('buy', 1999, 0.0995)], rich, limits, ETH_USDC)).toBe(0n);
  });

  it('keeps the total notional of everything that could fill and the funds inside their limits', () => {
    expect(admissibleQuantity({ side: 'sell', priceUnits: usdc(2000), qtyUnits: eth(0.1) }, [exposed('buy', 2000, 0.45)], rich, { ...open, maxTotalNotionalUnits: usdc(1000) }, ETH_USDC)).toBe(eth(0.05));
    const poor = { baseUnits: eth(0.06), targetUnits: eth(0.06), quoteUnits: usdc(150) };
    expect(admissibleQuantity({ side: 'sell', priceUnits: usdc(2000), qtyUnits: eth(0.05) }, [exposed('sell', 2001, 0.03)], poor, open, ETH_USDC)).toBe(eth(0.03));
    expect(admissibleQuantity({ side: 'buy', priceUnits: usdc(2000), qtyUnits: eth(0.05) }, [exposed('buy', 1000, 0.1)], poor, open, ETH_USDC)).toBe(eth(0.025));
  });

  it('whatever is resting, if every order on a side filled at once the position stays inside the cap', () => {
    const order = fc.record({ side: fc.constantFrom<'buy' | 'sell'>('buy', 'sell'), price: fc.integer({ min: 1900, max: 2100 }), size: fc.integer({ min: 1, max: 80 }) });
    fc.assert(
      fc.property(fc.array(order, { maxLength: 12 }), fc.integer({ min: -10, max: 10 }), (orders, positionHundredths) => {
        const holdings = { ...rich, baseUnits: rich.baseUnits + eth(positionHundredths / 100) };
        const capped = { ...open, maxInventoryDeviationUnits: eth(0.1) };
        // Place the orders one by one through the gate, as the order manager does.
        const resting: ExposedOrder[] = [];
        for (const o of orders) {
          const qty = admissibleQuantity({ side: o.side, priceUnits: usdc(o.price), qtyUnits: eth(o.size / 1000) }, resting, holdings, capped, ETH_USDC);
          if (qty > 0n) resting.push({ side: o.side, priceUnits: usdc(o.price), remainingUnits: qty });
        }
        const position = holdings.baseUnits - holdings.targetUnits;
        const bids = resting.filter((r) => r.side === 'buy').reduce((sum, r) => sum + r.remainingUnits, 0n);
        const asks = resting.filter((r) => r.side === 'sell').reduce((sum, r) => sum + r.remainingUnits, 0n);
        // A position already past the cap admits nothing that adds to it.
        expect(bids === 0n || position + bids <= eth(0.1)).toBe(true);
        expect(asks === 0n || position - asks >= -eth(0.1)).toBe(true);
      }),
    );
  });
});

describe('auto limits', () => {
  it('size the inventory cap from the order size, the notional cap and the drawdown kill from it at the first fair price', () => {
    const limits = resolveRiskLimits(
      { maxInventoryDeviationUnits: 'auto', maxOrderNotionalUnits: 0n, maxTotalNotionalUnits: 'auto', maxOpenOrders: 20, priceBandFraction: 0.05, maxDrawdownQuote: 'auto' },
      { orderSizeUnits: eth(0.05), fairUnits: usdc(2000), rules: ETH_USDC },
    );
    expect(limits.maxInventoryDeviationUnits).toBe(eth(0.5));
    expect(limits.maxTotalNotionalUnits).toBe(usdc(2000));
    expect(limits.maxDrawdownQuote).toBeCloseTo(100, 9);
    // 0 still disables, explicitly.
    const off = resolveRiskLimits({ maxInventoryDeviationUnits: 0n, maxOrderNotionalUnits: 0n, maxTotalNotionalUnits: 0n, maxOpenOrders: 0, priceBandFraction: 0, maxDrawdownQuote: 0 }, { orderSizeUnits: eth(0.05), fairUnits: usdc(2000), rules: ETH_USDC });
    expect([off.maxInventoryDeviationUnits, off.maxTotalNotionalUnits, off.maxDrawdownQuote]).toEqual([0n, 0n, 0]);
  });

  it('take a notional strategy\'s order size at the first fair price, rounded down to the lot', () => {
    // 130 USDC at 2,000 is 0.065 ETH; at 2,600.01 it is 0.04999…, down to 0.0499 on the 0.0001 lot.
    expect(orderSizeUnitsOf({ orderNotional: 130 }, usdc(2000), ETH_USDC)).toBe(eth(0.065));
    expect(orderSizeUnitsOf({ orderNotional: 130 }, usdc(2600.01), ETH_USDC)).toBe(eth(0.0499));
    expect(orderSizeUnitsOf({ orderSize: 0.05 }, usdc(2000), ETH_USDC)).toBe(eth(0.05));
    expect(orderSizeUnitsOf({}, usdc(2000), ETH_USDC)).toBeUndefined();
  });
});
