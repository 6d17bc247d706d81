import { describe, expect, it } from 'vitest';
import { DecayingSum, TradeFlow } from '../../../strategies/index.ts';

describe('a decaying sum', () => {
  it('halves a term every half-life and reads as a rate per second', () => {
    const sum = new DecayingSum(1_000);
    sum.add(0, 8);
    expect(sum.value(2_000)).toBeCloseTo(2, 12);
    expect(sum.ratePerSecond(0)).toBeCloseTo(8 * Math.LN2, 12);
    sum.add(2_000, 1);
    expect(sum.value(3_000)).toBeCloseTo(1.5, 12);
  });

  it('refuses a half-life that is not positive', () => {
    expect(() => new DecayingSum(-1)).toThrow(/halfLifeMs must be a positive number of ms, got -1/);
  });
});

describe('signed trade flow', () => {
  it('reads 0 before any trade and with balanced buying and selling', () => {
    const flow = new TradeFlow(1_000);
    expect(flow.value(0)).toBe(0);
    flow.onTrade(0, 1, 'buy');
    flow.onTrade(0, 1, 'sell');
    expect(flow.value(0)).toBe(0);
  });

  it('reads 10 for one-sided buying just after it (the short rate over the total rate at ten times the half-life)', () => {
    const flow = new TradeFlow(1_000);
    flow.onTrade(0, 2, 'buy');
    expect(flow.value(0)).toBeCloseTo(10, 12);
    const sells = new TradeFlow(1_000);
    sells.onTrade(0, 2, 'sell');
    expect(sells.value(0)).toBeCloseTo(-10, 12);
  });

  it('fades towards 0 in a quiet spell: the flow halves faster than the normalising volume', () => {
    const flow = new TradeFlow(1_000);
    flow.onTrade(0, 2, 'buy');
    // After one half-life: signed rate ×0.5, total rate ×0.5^(1/10).
    expect(flow.value(1_000)).toBeCloseTo((10 * 0.5) / 0.5 ** 0.1, 10);
    expect(Math.abs(flow.value(20_000))).toBeLessThan(0.01);
  });

  it('skips trades of no or non-finite size', () => {
    const flow = new TradeFlow(1_000);
    flow.onTrade(0, 0, 'buy');
    flow.onTrade(0, Number.NaN, 'buy');
    expect(flow.value(0)).toBe(0);
  });
});
