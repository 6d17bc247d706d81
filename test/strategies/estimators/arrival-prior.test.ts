import { describe, expect, it } from 'vitest';
import { ArrivalIntensityEstimator, shrinkArrival, type ArrivalPrior } from '../../../strategies/index.ts';

const prior: ArrivalPrior = { a: 1, kPerBps: 0.25, strength: 20, kMinPerBps: 0.1, kMaxPerBps: 10, aMin: 0.05, aMax: 1000 };

describe('shrinkArrival', () => {
  it('weighs the fit n/(n + n₀) against the prior, in log space', () => {
    const shrunk = shrinkArrival({ a: 9, kPerBps: 2.25, evidence: 60 }, prior);
    // w = 60/80 = ¾: A = 1^¼ · 9^¾ = 3^(3/2), k = 0.25^¼ · 2.25^¾ = 0.25 · 9^¾.
    expect(shrunk.fitWeight).toBe(0.75);
    expect(shrunk.a).toBeCloseTo(Math.pow(3, 1.5), 12);
    expect(shrunk.kPerBps).toBeCloseTo(0.25 * Math.pow(9, 0.75), 12);
    expect(shrunk.bounded).toBe(false);
  });

  it('gives the configured values as they are without a usable fit or evidence, even outside the bounds', () => {
    const wide = { ...prior, kPerBps: 0.01 };
    for (const fit of [undefined, { a: 2, kPerBps: Number.NaN, evidence: 10 }, { a: 0, kPerBps: 1, evidence: 10 }, { a: 2, kPerBps: 1, evidence: 0 }]) {
      expect(shrinkArrival(fit, wide)).toEqual({ a: 1, kPerBps: 0.01, fitWeight: 0, bounded: false });
    }
  });

  it('keeps what the fit moves inside the bounds, and says so', () => {
    expect(shrinkArrival({ a: 1e-6, kPerBps: 1e-6 }, prior)).toEqual({ a: 0.05, kPerBps: 0.1, fitWeight: 1, bounded: true });
    expect(shrinkArrival({ a: 1e6, kPerBps: 1e6 }, prior)).toEqual({ a: 1000, kPerBps: 10, fitWeight: 1, bounded: true });
  });

  it('takes the fit alone with a prior worth 0 arrivals', () => {
    expect(shrinkArrival({ a: 3, kPerBps: 0.5, evidence: 0.001 }, { ...prior, strength: 0 })).toMatchObject({ a: 3, kPerBps: 0.5, fitWeight: 1 });
  });

  it('returns to the prior when prints inside the grid stop: the weight follows the evidence, halved each half-life', () => {
    // 40 prints 1–2 bps deep at one per second, then five minutes of prints 10 bps deep only (a
    // thin venue's background ladder once our quotes sit outside it).
    const estimator = new ArrivalIntensityEstimator({ bucketWidthBps: 0.05, maxBuckets: 60, evidenceHalfLifeMs: 60_000, minPointCount: 1, refitIntervalMs: 0 });
    for (let i = 0; i < 40; i++) estimator.onTrade({ timeMs: i * 1000, price: 100 + (i % 2 === 0 ? 0.01 : 0.02), aggressor: 'buy' }, 100);
    const weightAt = (timeMs: number): number => shrinkArrival(estimator.fit(timeMs), prior).fitWeight;
    const early = estimator.evidence(39_000);
    expect(early).toBeGreaterThan(30);
    expect(weightAt(39_000)).toBeCloseTo(early / (early + 20), 12);
    for (let t = 40_000; t <= 339_000; t += 2_000) estimator.onTrade({ timeMs: t, price: 100.1, aggressor: 'buy' }, 100);
    expect(estimator.evidence(339_000)).toBeCloseTo(early / 32, 9);
    expect(weightAt(339_000)).toBeCloseTo(early / 32 / (early / 32 + 20), 9);
    expect(weightAt(339_000)).toBeLessThan(0.06);
  });
});
