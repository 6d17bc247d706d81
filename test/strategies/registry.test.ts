import { describe, expect, it } from 'vitest';
import { STRATEGIES, STRATEGY_NAMES, getStrategyDefinition } from '../../strategies/index.ts';
import { makeHedgeView, makeInventory, makeView } from './fixtures.ts';

describe('strategy registry', () => {
  it('lists the five strategies by the name STRATEGY= uses', () => {
    expect(STRATEGY_NAMES).toEqual(['ladder', 'avellaneda-stoikov', 'glft', 'xemm', 'tick-grid']);
    for (const name of STRATEGY_NAMES) expect(getStrategyDefinition(name)?.name).toBe(name);
    expect(Object.keys(STRATEGIES)).toEqual(STRATEGY_NAMES);
  });

  it('knows no other name, including inherited object keys', () => {
    for (const name of ['grid', '', 'toString', '__proto__', 'LADDER']) expect(getStrategyDefinition(name)).toBeUndefined();
  });

  it.each(STRATEGY_NAMES)('%s quotes a reasonable two-sided ETH/USDC market from STRATEGY= alone', (name) => {
    const definition = getStrategyDefinition(name);
    const parsed = definition?.parseParams({ STRATEGY: name });
    expect(parsed?.ok).toBe(true);
    if (definition === undefined || parsed === undefined || !parsed.ok) return;
    const strategy = definition.create(parsed.params);
    expect(strategy.name).toBe(name);
    // ETH at 3000.00/3000.01 with σ = 0.3 USDC/√s (about 1.5% a day) and a 2 bps maker fee,
    // before and after an arrival fit: every quote at least the fee away, none absurdly far. A
    // deep hedge book (xemm prices on it; the others ignore it) sits at the same price.
    for (const arrival of [undefined, { a: 3, kPerBps: 2.4 }]) {
      const view = makeView({ bestBid: 3000, bestAsk: 3000.01, volatility: 0.3, arrival, makerFee: 0.0002, hedge: makeHedgeView(3000.005) });
      const quotes = strategy.quote(view, makeInventory({ base: 1, targetBase: 1 }));
      expect(quotes.map((q) => q.side).sort()).toEqual(['buy', 'sell']);
      for (const quote of quotes) {
        const distanceBps = (Math.abs(quote.price - 3000.005) / 3000.005) * 10_000;
        expect(distanceBps).toBeGreaterThanOrEqual(2);
        expect(distanceBps).toBeLessThanOrEqual(50);
        expect(quote.size).toBe(strategy.orderSize);
      }
    }
  });
});
