import { describe, expect, it } from 'vitest';
import { createRng } from '../../src/core/index.ts';
import { MIN_BLOCKS, binByTime, blockBootstrap, expandedTail, normalCdf, normalQuantile, quantile, studentQuantile, withheldReason } from '../../src/backtest/bootstrap.ts';

const BINS = 600;
const RUNS = 200;

/** An AR(1) series around `mean`: x[t] − mean = φ (x[t−1] − mean) + ε, started in its stationary law. */
function ar1(seed: number, phi: number, mean: number, bins = BINS): Float64Array {
  const rng = createRng(seed);
  const series = new Float64Array(bins);
  let deviation = rng.normal() / Math.sqrt(1 - phi * phi);
  for (let i = 0; i < bins; i++) {
    series[i] = mean + deviation;
    deviation = phi * deviation + rng.normal();
  }
  return series;
}

/** Share of `RUNS` series whose interval of the mean covers the true mean. */
function coverage(phi: number, bins: number, binsPerBlock: number): number {
  const mean = 0.3;
  const ones = new Float64Array(bins).fill(1);
  let covered = 0;
  for (let run = 0; run < RUNS; run++) {
    const [interval] = blockBootstrap([{ numerator: ar1(10_000 + run, phi, mean, bins), denominator: ones }], { binsPerBlock, replicates: 400, seed: run });
    if (interval !== null && interval !== undefined && interval[0] <= mean && mean <= interval[1]) covered++;
  }
  return covered / RUNS;
}

// A 95 % interval covers in 95 % of runs; over 200 runs the count is binomial with a standard
// deviation of √(0.95 · 0.05 / 200) ≈ 1.5 %, so three of them either side is the tolerance.
const TOLERANCE = 3 * Math.sqrt((0.95 * 0.05) / RUNS);

describe('the block bootstrap', () => {
  it('covers the true mean of independent draws in about 95 % of runs', () => {
    expect(Math.abs(coverage(0, BINS, 10) - 0.95)).toBeLessThanOrEqual(TOLERANCE);
  });

  it('covers the true mean of an AR(1) series of only 20 blocks in about 95 % of runs, with the small-sample correction (the plain percentile interval: 90 %)', () => {
    expect(Math.abs(coverage(0.5, 1_200, 60) - 0.95)).toBeLessThanOrEqual(TOLERANCE);
  });

  it('widens the percentile interval as a t interval widens for n blocks: Φ(−√(n/(n−1))·t₍ₙ₋₁₎) each side', () => {
    // Student's t at 97.5 %: 2.570582 (5 df), 2.093024 (19 df), 2.009575 (49 df).
    expect(studentQuantile(normalQuantile(0.975), 5)).toBeCloseTo(2.570582, 3);
    expect(studentQuantile(normalQuantile(0.975), 19)).toBeCloseTo(2.093024, 5);
    expect(studentQuantile(normalQuantile(0.975), 49)).toBeCloseTo(2.009575, 5);
    expect(normalCdf(normalQuantile(0.0123))).toBeCloseTo(0.0123, 7);
    expect(expandedTail(0.025, 20)).toBeCloseTo(normalCdf(-Math.sqrt(20 / 19) * 2.093024), 5);
    // More blocks, a correction that fades towards the nominal 2.5 %.
    expect(expandedTail(0.025, 20)).toBeLessThan(expandedTail(0.025, 50));
    expect(expandedTail(0.025, 1_000)).toBeCloseTo(0.025, 3);
  });

  it('withholds every interval from a run of fewer than 20 blocks, and says why', () => {
    expect(MIN_BLOCKS).toBe(20);
    const series = ar1(5, 0, 1, 400);
    expect(blockBootstrap([{ numerator: series.subarray(0, 399) }], { binsPerBlock: 20, replicates: 200, seed: 1 })).toEqual([null]);
    expect(blockBootstrap([{ numerator: series }], { binsPerBlock: 20, replicates: 200, seed: 1 })[0]).not.toBeNull();
    expect(withheldReason(11, 60_000)).toBe('no interval: the run spans 11 blocks of 60 s, fewer than 20 (a longer run, or shorter --bootstrap-block-ms if the markouts allow, gives one)');
    expect(withheldReason(20, 60_000)).toBeUndefined();
  });

  it('covers the true mean of an autocorrelated AR(1) series in about 95 % of runs when blocks outlast the correlation', () => {
    // 40 blocks of 60 bins: with far fewer blocks the interval is known to run narrow (docs/strategies.md).
    expect(Math.abs(coverage(0.5, 2_400, 60) - 0.95)).toBeLessThanOrEqual(TOLERANCE);
  });

  it('bounds a total (a sum over the run) around the total, as wide as n times the mean\'s interval', () => {
    const series = ar1(7, 0, 0.3);
    const ones = new Float64Array(BINS).fill(1);
    const [total, mean] = blockBootstrap([{ numerator: series }, { numerator: series, denominator: ones }], { binsPerBlock: 10, replicates: 500, seed: 3 });
    const sum = series.reduce((a, b) => a + b, 0);
    expect(total?.[0]).toBeLessThan(sum);
    expect(total?.[1]).toBeGreaterThan(sum);
    // Same replicates, the same length: the total's bounds are n × the mean's.
    expect(total?.[0]).toBeCloseTo((mean?.[0] ?? 0) * BINS, 6);
    expect(total?.[1]).toBeCloseTo((mean?.[1] ?? 0) * BINS, 6);
  });

  it('gives the same bounds for the same seed and other bounds for another', () => {
    const figures = [{ numerator: ar1(1, 0.3, 0) }];
    const settings = { binsPerBlock: 20, replicates: 300, seed: 42 };
    expect(blockBootstrap(figures, settings)).toEqual(blockBootstrap(figures, settings));
    expect(blockBootstrap(figures, { ...settings, seed: 43 })).not.toEqual(blockBootstrap(figures, settings));
  });

  it('gives no interval for a ratio with nothing in its denominator (no fills), a run shorter than twenty blocks, or mostly empty replicates', () => {
    const zeros = new Float64Array(BINS);
    expect(blockBootstrap([{ numerator: zeros, denominator: zeros }], { binsPerBlock: 10, replicates: 100, seed: 1 })).toEqual([null]);
    expect(blockBootstrap([{ numerator: ar1(2, 0, 1, 199) }], { binsPerBlock: 10, replicates: 100, seed: 1 })).toEqual([null]);
    // One fill in 600 bins: most replicates draw no fill at all.
    const one = new Float64Array(BINS);
    one[300] = 1;
    expect(blockBootstrap([{ numerator: one, denominator: one }], { binsPerBlock: 10, replicates: 100, seed: 1 })).toEqual([null]);
  });

  it('refuses settings out of range and series of different lengths, naming the setting', () => {
    const figures = [{ numerator: [1, 2, 3, 4] }];
    expect(() => blockBootstrap(figures, { binsPerBlock: 0, replicates: 100, seed: 1 })).toThrow(/binsPerBlock=0/);
    expect(() => blockBootstrap(figures, { binsPerBlock: 1, replicates: 1, seed: 1 })).toThrow(/replicates=1/);
    expect(() => blockBootstrap([{ numerator: [1, 2], denominator: [1] }], { binsPerBlock: 1, replicates: 10, seed: 1 })).toThrow(/one bin per period/);
  });

  it('reads quantiles between order statistics and bins values by their time', () => {
    expect(quantile([0, 10, 20, 30, 40], 0.5)).toBe(20);
    expect(quantile([0, 10], 0.25)).toBe(2.5);
    expect([...binByTime([0, 999, 1_000, 5_000], [1, 2, 3, 4], 0, 1_000, 3)]).toEqual([3, 3, 4]);
  });
});
