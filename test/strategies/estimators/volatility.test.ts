import { describe, expect, it } from 'vitest';
import { createRng } from '../../../src/core/index.ts';
import { VolatilityEstimator } from '../../../strategies/index.ts';

/** A random walk with σ per √s, events at irregular (exponential, mean 200 ms) gaps. */
function simulate(seed: number, sigma: number, durationMs: number, onStep: (timeMs: number, mid: number) => void): void {
  const rng = createRng(seed);
  let timeMs = 0;
  let mid = 2000;
  while (timeMs < durationMs) {
    const stepMs = Math.max(1, Math.round(rng.exponential(1 / 200)));
    timeMs += stepMs;
    mid += sigma * Math.sqrt(stepMs / 1000) * rng.normal();
    onStep(timeMs, mid);
  }
}

describe('VolatilityEstimator', () => {
  it('converges to the σ of a random walk sampled at irregular times', () => {
    for (const seed of [11, 12, 13]) {
      const estimator = new VolatilityEstimator();
      const readings: number[] = [];
      simulate(seed, 0.5, 3_600_000, (timeMs, mid) => {
        estimator.update(timeMs, mid);
        if (timeMs > 600_000) readings.push(estimator.value());
      });
      const mean = readings.reduce((sum, value) => sum + value, 0) / readings.length;
      expect(mean).toBeGreaterThan(0.5 * 0.95);
      expect(mean).toBeLessThan(0.5 * 1.05);
      expect(Math.min(...readings)).toBeGreaterThan(0.5 * 0.8);
      expect(Math.max(...readings)).toBeLessThan(0.5 * 1.2);
    }
  });

  it('scales with the walk: twice the step size, twice σ', () => {
    const one = new VolatilityEstimator();
    const two = new VolatilityEstimator();
    simulate(5, 0.1, 900_000, (timeMs, mid) => one.update(timeMs, mid));
    simulate(5, 0.2, 900_000, (timeMs, mid) => two.update(timeMs, mid));
    expect(two.value() / one.value()).toBeCloseTo(2, 6);
  });

  it('reports 0 until it has enough samples', () => {
    const estimator = new VolatilityEstimator({ minSamples: 5, sampleIntervalMs: 1000 });
    estimator.update(0, 100);
    for (let i = 1; i <= 4; i++) estimator.update(i * 1000, 100 + i);
    expect(estimator.sampleCount()).toBe(4);
    expect(estimator.value()).toBe(0);
    estimator.update(5000, 104);
    expect(estimator.value()).toBeGreaterThan(0);
  });

  it('reports 0 for a mid that never moves, and skips missing or bad mids', () => {
    const estimator = new VolatilityEstimator({ minSamples: 1 });
    for (let i = 0; i < 100; i++) estimator.update(i * 1000, i % 7 === 0 ? undefined : 250);
    estimator.update(200_000, Number.NaN);
    estimator.update(201_000, -1);
    expect(estimator.value()).toBe(0);
    expect(Number.isFinite(estimator.value())).toBe(true);
  });

  it('nets moves inside the sampling interval and weights samples by elapsed time', () => {
    // With a huge half-life a sample's weight is proportional to its Δt, so the estimate is the
    // realised variance per second: Σ(Δmid)² / ΣΔt.
    const estimator = new VolatilityEstimator({ minSamples: 1, sampleIntervalMs: 1000, halfLifeMs: 1e15 });
    estimator.update(0, 100);
    estimator.update(300, 103); // inside the interval: bounces are netted
    estimator.update(600, 99);
    estimator.update(1000, 101); // sample 1: Δmid 1 over 1 s
    estimator.update(5000, 105); // sample 2: Δmid 4 over 4 s
    // (1² + 4²) / (1 + 4) s = 3.4 → σ = √3.4 = 1.843908891
    expect(estimator.sampleCount()).toBe(2);
    expect(estimator.value()).toBeCloseTo(1.843908891, 6);
  });

  it('rejects options that cannot work', () => {
    expect(() => new VolatilityEstimator({ halfLifeMs: 0 })).toThrow(RangeError);
    expect(() => new VolatilityEstimator({ minSamples: 0 })).toThrow(RangeError);
  });
});
