import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRng, type Side } from '../../../src/core/index.ts';
import { ArrivalIntensityEstimator } from '../../../strategies/index.ts';

/**
 * Trades whose depth beyond δ bps arrives at rate A·e^(−kδ): a Poisson stream of rate A with
 * exponential(k) depths in bps of the mid, on random sides around a fixed mid, each price rounded
 * away from the mid to `tick` when one is given (a real book's prices sit on its grid).
 */
function feedSynthetic(estimator: ArrivalIntensityEstimator, seed: number, a: number, kPerBps: number, durationMs: number, mid = 2000, tick = 0): number {
  const rng = createRng(seed);
  let timeMs = 0;
  for (;;) {
    timeMs += rng.exponential(a / 1000);
    if (timeMs > durationMs) return durationMs;
    const depth = (mid * rng.exponential(kPerBps)) / 10_000;
    const side: Side = rng.next() < 0.5 ? 'buy' : 'sell';
    const onGrid = tick > 0 ? Math.ceil(depth / tick) * tick : depth;
    estimator.onTrade({ timeMs, price: side === 'buy' ? mid + onGrid : mid - onGrid, aggressor: side }, mid);
  }
}

describe('ArrivalIntensityEstimator', () => {
  it('recovers A and k per bp from trades generated with known A and k', () => {
    const estimator = new ArrivalIntensityEstimator({ bucketWidthBps: 0.05 });
    const endMs = feedSynthetic(estimator, 7, 2, 4, 600_000);
    const fit = estimator.fit(endMs);
    expect(fit?.kPerBps).toBeGreaterThan(4 * 0.85);
    expect(fit?.kPerBps).toBeLessThan(4 * 1.15);
    expect(fit?.a).toBeGreaterThan(2 * 0.85);
    expect(fit?.a).toBeLessThan(2 * 1.15);
  });

  it('is unbiased across seeds', () => {
    const ks: number[] = [];
    const as: number[] = [];
    for (let seed = 1; seed <= 12; seed++) {
      const estimator = new ArrivalIntensityEstimator({ bucketWidthBps: 0.02 });
      const endMs = feedSynthetic(estimator, seed, 3, 10, 600_000);
      const fit = estimator.fit(endMs);
      if (fit !== undefined) [ks[ks.length], as[as.length]] = [fit.kPerBps, fit.a];
    }
    expect(ks).toHaveLength(12);
    const mean = (values: number[]): number => values.reduce((sum, value) => sum + value, 0) / values.length;
    expect(mean(ks)).toBeGreaterThan(10 * 0.95);
    expect(mean(ks)).toBeLessThan(10 * 1.05);
    expect(mean(as)).toBeGreaterThan(3 * 0.95);
    expect(mean(as)).toBeLessThan(3 * 1.05);
  });

  it('gives nothing until it has enough arrivals', () => {
    const estimator = new ArrivalIntensityEstimator({ bucketWidthBps: 0.05, minArrivals: 30, refitIntervalMs: 0 });
    expect(estimator.fit(0)).toBeUndefined();
    feedSynthetic(estimator, 3, 2, 4, 10_000); // ~20 arrivals
    expect(estimator.arrivalCount()).toBeLessThan(30);
    expect(estimator.fit(10_000)).toBeUndefined();
  });

  it('refuses a flat fit (every trade at one depth gives k = 0)', () => {
    const estimator = new ArrivalIntensityEstimator({ bucketWidthBps: 1, refitIntervalMs: 0 });
    for (let i = 0; i < 500; i++) estimator.onTrade({ timeMs: i * 100, price: 100.5, aggressor: 'buy' }, 100);
    expect(estimator.fit(50_000)).toBeUndefined();
  });

  it('counts a sweep at one timestamp once, at its deepest price, and skips trades through a stale mid', () => {
    const estimator = new ArrivalIntensityEstimator({ bucketWidthBps: 1 });
    estimator.onTrade({ timeMs: 5, price: 100.01, aggressor: 'buy' }, 100);
    estimator.onTrade({ timeMs: 5, price: 100.03, aggressor: 'buy' }, 100);
    estimator.onTrade({ timeMs: 5, price: 99.98, aggressor: 'sell' }, 100);
    estimator.onTrade({ timeMs: 6, price: 99.9, aggressor: 'buy' }, 100); // buy below the mid: stale mid
    estimator.onTrade({ timeMs: 7, price: 100.2, aggressor: 'buy' }, undefined);
    expect(estimator.arrivalCount()).toBe(2);
  });

  it('reuses a fit within the refit interval and forgets trades older than the window', () => {
    const estimator = new ArrivalIntensityEstimator({ bucketWidthBps: 0.05, windowMs: 600_000, refitIntervalMs: 5_000 });
    const endMs = feedSynthetic(estimator, 9, 2, 4, 600_000);
    const fit = estimator.fit(endMs);
    expect(fit).toBeDefined();
    expect(estimator.fit(endMs + 4_000)).toBe(fit);
    // Ten minutes later with no trades, the window is empty.
    expect(estimator.fit(endMs + 600_001)).toBeUndefined();
    expect(estimator.arrivalCount()).toBe(0);
  });

  it('measures depth from the mid with the sign of the aggressor, or its absolute value without one', () => {
    // Only unknown-side trades 200 bps deep on both sides: every grid point below 200 bps sees them all.
    const estimator = new ArrivalIntensityEstimator({ bucketWidthBps: 50, minArrivals: 1, minPoints: 2, minPointCount: 1, refitIntervalMs: 0 });
    for (let i = 0; i < 10; i++) {
      estimator.onTrade({ timeMs: 1000 + i, price: 10.2, aggressor: undefined }, 10);
      estimator.onTrade({ timeMs: 2000 + i, price: 9.8, aggressor: undefined }, 10);
    }
    expect(estimator.arrivalCount()).toBe(20);
  });

  it('fits the same whether it refitted all along (expiring as it went) or only once at the end', () => {
    const trade = fc.record({
      gapMs: fc.integer({ min: 0, max: 40_000 }),
      offset: fc.integer({ min: 0, max: 60 }),
      aggressor: fc.constantFrom<Side | undefined>('buy', 'sell', undefined),
    });
    fc.assert(
      fc.property(fc.array(trade, { minLength: 1, maxLength: 400 }), fc.integer({ min: 0, max: 30_000 }), fc.nat(), (trades, lastFitDelayMs, cut) => {
        const options = { bucketWidthBps: 50, windowMs: 120_000, minArrivals: 1, minPointCount: 2, refitIntervalMs: 0 };
        const always = new ArrivalIntensityEstimator(options);
        const once = new ArrivalIntensityEstimator(options);
        let timeMs = 1_000_000;
        const timed = trades.map((t) => {
          timeMs += t.gapMs;
          return { timeMs, price: 100 + (t.aggressor === 'sell' ? -t.offset : t.offset) * 0.25, aggressor: t.aggressor };
        });
        for (const t of timed) {
          always.onTrade(t, 100);
          once.onTrade(t, 100);
          always.fit(t.timeMs);
        }
        expect(always.fit(timeMs + lastFitDelayMs)).toEqual(once.fit(timeMs + lastFitDelayMs));
        // A fit at an earlier time than some trades held leaves those trades out, as if unseen.
        const cutMs = (timed[cut % timed.length] as { timeMs: number }).timeMs;
        const before = new ArrivalIntensityEstimator(options);
        for (const t of timed) if (t.timeMs <= cutMs) before.onTrade(t, 100);
        const early = new ArrivalIntensityEstimator(options);
        for (const t of timed) early.onTrade(t, 100);
        expect(early.fit(cutMs)).toEqual(before.fit(cutMs));
      }),
      { numRuns: 300 },
    );
  });

  it('gives the same k per bp on two instruments whose ticks and prices differ but whose depths in bps are alike', () => {
    // ETH-like (2,500, tick 0.01 = 0.04 bp) and BTC-like (60,000, tick 0.01 = 0.0017 bp): the same
    // trades in bps of the mid, each rounded to its own book's tick. A grid in ticks would see
    // depths 24 times as many ticks deep on BTC and give a k per price unit 24 times as steep.
    const grid = { bucketWidthBps: 0.05 };
    const eth = new ArrivalIntensityEstimator(grid);
    const btc = new ArrivalIntensityEstimator(grid);
    const endMs = feedSynthetic(eth, 11, 3, 1.5, 600_000, 2_500, 0.01);
    feedSynthetic(btc, 11, 3, 1.5, 600_000, 60_000, 0.01);
    const [ethFit, btcFit] = [eth.fit(endMs), btc.fit(endMs)];
    expect(ethFit?.kPerBps).toBeGreaterThan(1.5 * 0.85);
    expect(ethFit?.kPerBps).toBeLessThan(1.5 * 1.15);
    expect((ethFit?.kPerBps ?? 0) / (btcFit?.kPerBps ?? 1)).toBeGreaterThan(0.95);
    expect((ethFit?.kPerBps ?? 0) / (btcFit?.kPerBps ?? 1)).toBeLessThan(1.05);
    expect((ethFit?.a ?? 0) / (btcFit?.a ?? 1)).toBeGreaterThan(0.95);
    expect((ethFit?.a ?? 0) / (btcFit?.a ?? 1)).toBeLessThan(1.05);
  });

  it('rejects options that cannot work', () => {
    expect(() => new ArrivalIntensityEstimator({ bucketWidthBps: 0 })).toThrow(RangeError);
    expect(() => new ArrivalIntensityEstimator({ bucketWidthBps: 0.1, minPoints: 1 })).toThrow(RangeError);
  });
});
