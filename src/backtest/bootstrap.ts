/**
 * Error bars for a backtest's figures: a seeded circular block bootstrap over time (Politis and
 * Romano 1992, the moving-block bootstrap of Künsch 1989 with blocks that wrap around the run's end).
 * A run is cut into bins of equal duration (the path's sampling period); each figure is a sum of
 * per-bin numbers (total PnL) or a ratio of two sums (PnL per notional, a mean markout: the
 * markouts' sum over the fills' count). A replicate strings together blocks of `binsPerBlock`
 * consecutive bins, each starting at a uniformly drawn bin (a block running past the last bin
 * goes on from the first, so every bin is drawn equally often and the replicates centre on the
 * run's own figure), until it is as long as the run, and recomputes every figure on it; the 95 % interval is the 2.5 % and 97.5 % quantiles of the
 * replicates (the percentile interval). Blocks keep the correlation inside them (a fill's 60 s
 * markout overlaps its neighbours', inventory PnL trends), which resampling single bins would
 * break, making the interval falsely narrow. Pure functions: the same seed gives the same bounds.
 */
import { createRng } from '../core/index.ts';

/** A figure over binned data: Σ numerator, or Σ numerator / Σ denominator when a denominator is given. */
export interface BinnedFigure {
  readonly numerator: ArrayLike<number>;
  readonly denominator?: ArrayLike<number>;
  /** Multiplies the figure (e.g. 10 000 for bps); default 1. */
  readonly scale?: number;
}

/** How replicates are drawn. */
export interface BootstrapSettings {
  /** Bins per block (≥ 1). */
  readonly binsPerBlock: number;
  /** Replicates drawn (≥ 2). */
  readonly replicates: number;
  /** Seed of the draw. */
  readonly seed: number;
  /** Coverage of the interval, in (0, 1); default 0.95. */
  readonly level?: number;
}

/** A two-sided interval `[low, high]`. */
export type Interval = readonly [number, number];

/** Fewest blocks a run must span for an interval: with one block every replicate is the run itself. */
export const MIN_BLOCKS = 2;

/**
 * Share of replicates a ratio may lose to an empty denominator (no fill drawn) before its interval
 * is withheld: beyond it the interval would describe only the luckier draws.
 */
export const MAX_EMPTY_SHARE = 0.05;

/**
 * The interval of each figure, in the figures' order; null for a figure the data cannot bound:
 * fewer than {@link MIN_BLOCKS} blocks of bins, a ratio whose denominator is 0 over the whole run
 * (no fills), or whose replicates came out empty more than {@link MAX_EMPTY_SHARE} of the time.
 * Every figure is computed on the same replicates. The figures' series must have one length.
 * @throws RangeError for series of different lengths or settings out of range.
 */
export function blockBootstrap(figures: readonly BinnedFigure[], settings: BootstrapSettings): (Interval | null)[] {
  const { binsPerBlock, replicates } = settings;
  const level = settings.level ?? 0.95;
  if (!Number.isInteger(binsPerBlock) || binsPerBlock < 1) throw new RangeError(`binsPerBlock=${binsPerBlock}: a whole number ≥ 1 is allowed`);
  if (!Number.isInteger(replicates) || replicates < 2) throw new RangeError(`replicates=${replicates}: a whole number ≥ 2 is allowed`);
  if (!(level > 0 && level < 1)) throw new RangeError(`level=${level}: a share in (0, 1) is allowed`);
  const bins = figures[0]?.numerator.length ?? 0;
  for (const figure of figures) {
    if (figure.numerator.length !== bins || (figure.denominator !== undefined && figure.denominator.length !== bins)) throw new RangeError('every series of a bootstrap has one bin per period of the run');
  }
  if (bins < MIN_BLOCKS * binsPerBlock) return figures.map(() => null);
  const sums = figures.map((figure) => ({ numerator: prefixSums(figure.numerator), denominator: figure.denominator === undefined ? undefined : prefixSums(figure.denominator), scale: figure.scale ?? 1 }));
  const draws = figures.map(() => new Float64Array(replicates));
  const counts = figures.map(() => 0);
  const rng = createRng(settings.seed);
  // Plain loops over arrays: the inner loop runs replicates × blocks × figures times, and a
  // closure per block showed in every backtest's profile.
  const numerators = sums.map((sum) => sum.numerator);
  const denominators = sums.map((sum) => sum.denominator);
  const figureCount = figures.length;
  const numeratorTotals = new Float64Array(figureCount);
  const denominatorTotals = new Float64Array(figureCount);
  for (let replicate = 0; replicate < replicates; replicate++) {
    numeratorTotals.fill(0);
    denominatorTotals.fill(0);
    for (let filled = 0; filled < bins; filled += binsPerBlock) {
      const start = rng.int(bins);
      // The last block is cut so a replicate is as long as the run.
      const length = Math.min(binsPerBlock, bins - filled);
      const end = Math.min(bins, start + length);
      const wrapped = start + length - end;
      for (let i = 0; i < figureCount; i++) {
        numeratorTotals[i] = (numeratorTotals[i] as number) + rangeSum(numerators[i] as Float64Array, start, end, wrapped);
        const denominator = denominators[i];
        if (denominator !== undefined) denominatorTotals[i] = (denominatorTotals[i] as number) + rangeSum(denominator, start, end, wrapped);
      }
    }
    for (let i = 0; i < figureCount; i++) {
      const sum = sums[i] as (typeof sums)[number];
      const numerator = numeratorTotals[i] as number;
      const denominator = denominatorTotals[i] as number;
      if (sum.denominator !== undefined && denominator === 0) continue;
      const value = sum.denominator === undefined ? numerator : numerator / denominator;
      (draws[i] as Float64Array)[counts[i] as number] = value * sum.scale;
      counts[i] = (counts[i] as number) + 1;
    }
  }
  return sums.map((sum, i) => {
    const count = counts[i] as number;
    if (sum.denominator !== undefined && (sum.denominator[bins] === 0 || count < replicates * (1 - MAX_EMPTY_SHARE))) return null;
    const sorted = (draws[i] as Float64Array).subarray(0, count).sort();
    return [quantile(sorted, (1 - level) / 2), quantile(sorted, (1 + level) / 2)] as const;
  });
}

/** The sum of bins [start, end) and, for a block that wrapped, of the first `wrapped` bins. */
function rangeSum(sums: Float64Array, start: number, end: number, wrapped: number): number {
  return (sums[end] as number) - (sums[start] as number) + (sums[wrapped] as number);
}

/** Running sums with a leading 0: the sum of bins [a, b) is `sums[b] − sums[a]`. */
function prefixSums(values: ArrayLike<number>): Float64Array {
  const sums = new Float64Array(values.length + 1);
  for (let i = 0; i < values.length; i++) sums[i + 1] = (sums[i] as number) + (values[i] as number);
  return sums;
}

/** The `share` quantile of sorted values, linear between order statistics (Hyndman–Fan type 7). */
export function quantile(sorted: ArrayLike<number>, share: number): number {
  const position = (sorted.length - 1) * share;
  const below = Math.floor(position);
  const above = Math.min(sorted.length - 1, below + 1);
  const low = sorted[below] as number;
  return low + ((sorted[above] as number) - low) * (position - below);
}

/**
 * Sums `values` into the bins of a run cut every `binMs` from `startMs` (`bins` of them): each
 * value goes to the bin its time falls in; times past the last bin go to the last.
 */
export function binByTime(times: readonly number[], values: readonly number[], startMs: number, binMs: number, bins: number): Float64Array {
  const binned = new Float64Array(bins);
  if (bins === 0) return binned;
  times.forEach((timeMs, i) => {
    const index = Math.min(bins - 1, Math.max(0, Math.floor((timeMs - startMs) / binMs)));
    binned[index] = (binned[index] as number) + (values[i] as number);
  });
  return binned;
}
