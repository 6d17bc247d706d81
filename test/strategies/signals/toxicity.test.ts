import { describe, expect, it } from 'vitest';
import { Toxicity, shrinkToxicSides, toxicSizeFactor, widenToxicSides } from '../../../strategies/index.ts';

describe('toxicity of our own fills', () => {
  it('reads how far the fair price moved against a side after the horizon, in bps, positive when picked off', () => {
    const toxicity = new Toxicity(1_000, 60_000);
    toxicity.onFill('buy', 100, 0);
    toxicity.observe(99.99, 500);
    expect(toxicity.value(500)).toEqual({ buyBps: 0, sellBps: 0 });
    toxicity.observe(99.99, 1_000);
    // Bought at 100, fair 99.99 a second later: −1 bp markout, 1 bp toxic.
    expect(toxicity.value(1_000).buyBps).toBeCloseTo(1, 9);
    expect(toxicity.value(1_000).sellBps).toBe(0);
  });

  it('keeps the sides apart and reads a sell that earned as negative toxicity', () => {
    const toxicity = new Toxicity(1_000, 60_000);
    toxicity.onFill('sell', 100, 0);
    toxicity.onFill('buy', 100, 0);
    toxicity.observe(99.98, 1_000);
    expect(toxicity.value(1_000).sellBps).toBeCloseTo(-2, 9);
    expect(toxicity.value(1_000).buyBps).toBeCloseTo(2, 9);
  });

  it('weighs recent markouts more: an old picked-off fill fades behind a newer good one', () => {
    const toxicity = new Toxicity(1_000, 10_000);
    toxicity.onFill('buy', 100, 0);
    toxicity.observe(99.9, 1_000); // −10 bps
    toxicity.onFill('buy', 100, 30_000);
    toxicity.observe(100, 31_000); // 0 bps, three half-lives later
    // Weights 1/8 and 1: −(−10/8) / (1/8 + 1) = 10/9.
    expect(toxicity.value(31_000).buyBps).toBeCloseTo(10 / 9, 9);
  });

  it('waits for a fair price: markouts due while there is none resolve at the next one', () => {
    const toxicity = new Toxicity(1_000, 60_000);
    toxicity.onFill('buy', 100, 0);
    toxicity.observe(undefined, 2_000);
    expect(toxicity.value(2_000).buyBps).toBe(0);
    toxicity.observe(100.01, 2_100);
    expect(toxicity.value(2_100).buyBps).toBeCloseTo(-1, 6);
  });
});

describe('moving a toxic side away', () => {
  const quotes = [
    { side: 'buy' as const, price: 99.9, size: 1, level: 0 },
    { side: 'buy' as const, price: 99.8, size: 1, level: 1, reference: 100 },
    { side: 'sell' as const, price: 100.1, size: 1, level: 0 },
  ];

  it('moves every quote of a picked-off side t × ratio bps of the fair price further out, and leaves the other side', () => {
    const moved = widenToxicSides(quotes, 100, { buyBps: 2, sellBps: -3 }, 0.5, 5);
    expect(moved[0]?.price).toBeCloseTo(99.89, 12);
    expect(moved[1]).toMatchObject({ price: expect.closeTo(99.79, 12) as number, reference: 100, size: 1, level: 1 });
    expect(moved[2]).toBe(quotes[2]);
  });

  it('moves at most the cap, and returns the same quotes when no side is toxic', () => {
    expect(widenToxicSides(quotes, 100, { buyBps: 0, sellBps: 100 }, 1, 5)[2]?.price).toBeCloseTo(100.15, 12);
    expect(widenToxicSides(quotes, 100, { buyBps: -1, sellBps: 0 }, 1, 5)).toBe(quotes);
  });
});

describe('making a toxic side smaller', () => {
  const quotes = [
    { side: 'buy' as const, price: 99.9, size: 2, level: 0, reference: 99.95 },
    { side: 'buy' as const, price: 99.8, size: 4, level: 1 },
    { side: 'sell' as const, price: 100.1, size: 2, level: 0 },
  ];

  it('multiplies the toxic side\'s sizes by 1 / (1 + ratio × toxicity), leaving its prices, references and the other side alone', () => {
    const shrunk = shrinkToxicSides(quotes, { buyBps: 2, sellBps: -3 }, 0.5);
    expect(shrunk[0]).toEqual({ side: 'buy', price: 99.9, size: 1, level: 0, reference: 99.95 });
    expect(shrunk[1]?.size).toBeCloseTo(2, 12);
    expect(shrunk[2]).toBe(quotes[2]);
    expect(shrinkToxicSides(quotes, { buyBps: 0, sellBps: 3 }, 1)[2]?.size).toBeCloseTo(0.5, 12);
  });

  it('never makes a size larger, whatever the toxicity, and keeps the strategy\'s very quotes while nothing is toxic or the ratio is 0', () => {
    for (const t of [0.01, 1, 50, 1e6]) {
      const factor = toxicSizeFactor(t, 0.3);
      expect(factor).toBeGreaterThan(0);
      expect(factor).toBeLessThan(1);
    }
    expect(toxicSizeFactor(-5, 1)).toBe(1);
    expect(toxicSizeFactor(Number.NaN, 1)).toBe(1);
    expect(shrinkToxicSides(quotes, { buyBps: -1, sellBps: 0 }, 1)).toBe(quotes);
    expect(shrinkToxicSides(quotes, { buyBps: 10, sellBps: 10 }, 0)).toBe(quotes);
  });
});
