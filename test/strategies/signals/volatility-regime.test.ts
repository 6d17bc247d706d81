import { describe, expect, it } from 'vitest';
import { VolatilityRegime, regimeSizeFactor, regimeWidenFactor, shrinkByRegime, widenByRegime } from '../../../strategies/index.ts';

describe('short and long volatility with a regime ratio', () => {
  it('is the square root of the weighted rate of squared log returns, in bps per √s', () => {
    const vol = new VolatilityRegime(10_000, 300_000);
    vol.onMid(0, 100);
    vol.onMid(0, 100.01); // a 1 bp move (log return ≈ 0.99995 bp)
    const returnBps = 10_000 * Math.log(100.01 / 100);
    const value = vol.value(0);
    expect(value.shortBps).toBeCloseTo(Math.sqrt((returnBps ** 2 * Math.LN2) / 10), 12);
    expect(value.longBps).toBeCloseTo(Math.sqrt((returnBps ** 2 * Math.LN2) / 300), 12);
    expect(value.ratio).toBeCloseTo(Math.sqrt(30), 10);
  });

  it('reads a ratio near 1 from the first minute of a steady stream, not the ratio of the half-lives the sums were still filling to', () => {
    const vol = new VolatilityRegime(10_000, 300_000);
    let mid = 100;
    for (let t = 0; t <= 60_000; t += 100) {
      mid = mid === 100 ? 100.01 : 100;
      vol.onMid(t, mid);
    }
    const value = vol.value(60_000);
    // Ten 1 bp moves a second: σ ≈ √10 bps per √s on either horizon.
    expect(value.shortBps).toBeCloseTo(Math.sqrt(10), 1);
    expect(value.longBps).toBeCloseTo(Math.sqrt(10), 1);
    expect(value.ratio).toBeGreaterThan(0.95);
    expect(value.ratio).toBeLessThan(1.05);
  });

  it('reads a ratio near 1 under a steady stream of equal moves, and above 1 after a burst', () => {
    const vol = new VolatilityRegime(1_000, 30_000);
    let mid = 100;
    for (let t = 0; t <= 300_000; t += 100) {
      mid = mid === 100 ? 100.01 : 100;
      vol.onMid(t, mid);
    }
    expect(vol.value(300_000).ratio).toBeGreaterThan(0.9);
    expect(vol.value(300_000).ratio).toBeLessThan(1.1);
    for (let t = 300_010; t <= 300_500; t += 10) {
      mid = mid === 100 ? 100.05 : 100;
      vol.onMid(t, mid);
    }
    expect(vol.value(300_500).ratio).toBeGreaterThan(3);
  });

  it('reads 0 and a ratio of 1 before any move, and skips an unusable mid without a return across it', () => {
    const vol = new VolatilityRegime(1_000, 30_000);
    expect(vol.value(0)).toEqual({ shortBps: 0, longBps: 0, ratio: 1 });
    vol.onMid(0, 100);
    vol.onMid(1, undefined);
    vol.onMid(2, 200);
    expect(vol.value(2).shortBps).toBe(0);
  });
});

describe('the half-spread widened by the volatility regime', () => {
  const quotes = [
    { side: 'buy' as const, price: 99.9, size: 1, level: 0, reference: 100 },
    { side: 'sell' as const, price: 100.1, size: 1, level: 0 },
  ];

  it('moves each quote away from its centre by widen × (regime − 1) of its distance', () => {
    // Regime 1.5, widen 1: each 10 bp distance grows by half, to 15 bp.
    const widened = widenByRegime(quotes, 100, 1.5, 1, 100);
    expect(widened[0]?.price).toBeCloseTo(99.85, 12);
    expect(widened[1]?.price).toBeCloseTo(100.15, 12);
    expect(widened[0]?.reference).toBe(100);
  });

  it('keeps a skewed model\'s centre: the distance is measured from each quote\'s reference', () => {
    const skewed = [{ side: 'buy' as const, price: 99.8, size: 1, level: 0, reference: 99.9 }];
    expect(widenByRegime(skewed, 100, 2, 1, 100)[0]?.price).toBeCloseTo(99.7, 12);
  });

  it('caps the move at the most bps it is allowed', () => {
    expect(widenByRegime(quotes, 100, 11, 1, 5)[0]?.price).toBeCloseTo(99.85, 12);
  });

  it('hands back the very quotes in a calm market or while off', () => {
    expect(widenByRegime(quotes, 100, 0.8, 1, 10)).toBe(quotes);
    expect(widenByRegime(quotes, 100, 3, 0, 10)).toBe(quotes);
    expect(widenByRegime(quotes, 100, Number.NaN, 1, 10)).toBe(quotes);
    expect(regimeWidenFactor(3, 0.5)).toBe(1);
  });
});

describe('quote sizes cut by the volatility regime', () => {
  const quotes = [
    { side: 'buy' as const, price: 99.9, size: 3, level: 0, reference: 99.95 },
    { side: 'sell' as const, price: 100.1, size: 1.5, level: 0 },
  ];

  it('multiplies every size on both sides by 1 / (1 + k × (regime − 1)) and keeps the prices', () => {
    const shrunk = shrinkByRegime(quotes, 2, 0.5);
    expect(shrunk[0]).toEqual({ side: 'buy', price: 99.9, size: 2, level: 0, reference: 99.95 });
    expect(shrunk[1]).toEqual({ side: 'sell', price: 100.1, size: 1, level: 0 });
    expect(regimeSizeFactor(5, 1)).toBeCloseTo(0.2, 12);
  });

  it('keeps the strategy\'s very quotes at or under a regime of 1, with k 0, or a regime that is not a number', () => {
    expect(shrinkByRegime(quotes, 1, 1)).toBe(quotes);
    expect(shrinkByRegime(quotes, 0.5, 1)).toBe(quotes);
    expect(shrinkByRegime(quotes, 4, 0)).toBe(quotes);
    expect(shrinkByRegime(quotes, Number.NaN, 1)).toBe(quotes);
    expect(regimeSizeFactor(Number.POSITIVE_INFINITY, 1)).toBe(1);
  });
});
