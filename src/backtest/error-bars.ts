/**
 * A run's error bars: 95 % intervals of its total PnL, its PnL per notional traded and its mean
 * markout at each horizon of the curve, from a seeded block bootstrap over time (bootstrap.ts).
 * The run is cut into bins of the path's sampling period; a bin holds the PnL made in it, the
 * notional traded in it, and the markouts (sum and count) of the fills made in it; blocks are
 * `blockMs` long. With no fills the per-notional and markout intervals are null; a run shorter
 * than twenty blocks has none at all, and says why (docs/strategies.md, "Error bars").
 */
import { binByTime, blockBootstrap, blockCount, withheldReason, type BinnedFigure, type BootstrapSettings, type Interval } from './bootstrap.ts';
import { meanPresent, type FillMarkouts } from './fill-markouts.ts';
import type { VenueFill } from './replay-venue.ts';
import type { PathSample } from './stats.ts';

/** How the intervals are drawn (`--bootstrap-block-ms`, `--bootstrap-samples`, `--seed`). */
export interface BootstrapOptions {
  /** Block length, ms of simulated time (rounded to whole sampling periods, at least one). */
  readonly blockMs: number;
  /** Bootstrap replicates. */
  readonly samples: number;
  /** Seed of the draw (the run's `--seed`). */
  readonly seed: number;
}

/**
 * Defaults: 60 s blocks, the longest markout horizon (a fill's 60 s markout overlaps those of
 * the fills within 60 s of it, so shorter blocks would cut correlated fills apart and narrow the
 * interval falsely); 1,000 replicates (the 2.5 % quantile then rests on 25 of them); seed 1, the
 * backtest's default seed.
 */
export const BOOTSTRAP_DEFAULTS: BootstrapOptions = { blockMs: 60_000, samples: 1_000, seed: 1 };

/** What the intervals are computed from. */
export interface ErrorBarInput {
  readonly samples: readonly PathSample[];
  readonly fills: readonly VenueFill[];
  readonly markouts: FillMarkouts;
  readonly sampleMs: number;
  readonly startMs: number;
  /** The run's total PnL (the last sample may fall short of the run's end). */
  readonly pnlQuote: number;
}

/** The run's figures with their intervals (null: not enough data for one). */
export interface ErrorBars {
  /** Whole blocks the run spans: the intervals' sample size. */
  readonly blocks: number;
  /** Why the run gives no interval at all (too few blocks); undefined when it gives them. */
  readonly withheld: string | undefined;
  readonly volumeQuote: number;
  readonly pnlPerNotionalBps: number | null;
  readonly pnlQuoteCi95: Interval | null;
  readonly pnlPerNotionalBpsCi95: Interval | null;
  /** Per horizon of `markouts.horizonsMs`: the mean markout, its interval and the fills it is over. */
  readonly markoutBps: readonly (number | null)[];
  readonly markoutBpsCi95: readonly (Interval | null)[];
  readonly markoutFills: readonly number[];
}

/**
 * A run cut into bins of its path's sampling period: the PnL made and the notional traded in each,
 * and per horizon of the markouts the sum (numerator) and count (denominator) of the markouts of
 * the fills made in each. Bins of runs laid end to end are the bins of their concatenation (a
 * walk-forward's out-of-sample spans).
 */
export interface ErrorBarBins {
  readonly pnl: Float64Array;
  readonly notional: Float64Array;
  readonly markouts: readonly BinnedFigure[];
  /** Notional traded over the run, quote tokens. */
  readonly volumeQuote: number;
}

/** The bins of a run. */
export function errorBarBins(input: ErrorBarInput): ErrorBarBins {
  const { samples, fills, sampleMs, startMs } = input;
  const bins = samples.length;
  const pnl = new Float64Array(bins);
  samples.forEach((sample, i) => {
    pnl[i] = sample.pnl - (i === 0 ? 0 : (samples[i - 1] as PathSample).pnl);
  });
  // What the run made after its last sample counts in the last bin, so the bins add up to the total.
  if (bins > 0) pnl[bins - 1] = (pnl[bins - 1] as number) + input.pnlQuote - (samples[bins - 1] as PathSample).pnl;
  const times = fills.map((fill) => fill.timeMs);
  const notionals = fills.map((fill) => fill.price * fill.size);
  const notional = binByTime(times, notionals, startMs, sampleMs, bins);
  const markouts = input.markouts.bps.map((row): BinnedFigure => {
    const present = row.flatMap((bps, i) => (bps === null ? [] : [i]));
    return {
      numerator: binByTime(present.map((i) => times[i] as number), present.map((i) => row[i] as number), startMs, sampleMs, bins),
      denominator: binByTime(present.map((i) => times[i] as number), present.map(() => 1), startMs, sampleMs, bins),
    };
  });
  return { pnl, notional, markouts, volumeQuote: notionals.reduce((sum, value) => sum + value, 0) };
}

/** The figures the intervals are of, over bins: total PnL, PnL per notional (bps), then each horizon's mean markout. */
export function errorBarFigures(bins: ErrorBarBins): BinnedFigure[] {
  return [{ numerator: bins.pnl }, { numerator: bins.pnl, denominator: bins.notional, scale: 10_000 }, ...bins.markouts];
}

/** How the bootstrap draws for bins of `sampleMs`: blocks of whole bins, at least one. */
export function bootstrapSettingsOf(options: BootstrapOptions, sampleMs: number): BootstrapSettings {
  return { binsPerBlock: Math.max(1, Math.round(options.blockMs / sampleMs)), replicates: options.samples, seed: options.seed };
}

/** The intervals of a run. */
export function errorBars(input: ErrorBarInput, options: BootstrapOptions): ErrorBars {
  const bins = errorBarBins(input);
  const volumeQuote = bins.volumeQuote;
  const settings = bootstrapSettingsOf(options, input.sampleMs);
  const [pnlQuoteCi95 = null, pnlPerNotionalBpsCi95 = null, ...markoutBpsCi95] = blockBootstrap(errorBarFigures(bins), settings);
  const blocks = blockCount(bins.pnl.length, settings.binsPerBlock);
  return {
    blocks,
    withheld: withheldReason(blocks, settings.binsPerBlock * input.sampleMs),
    volumeQuote,
    pnlPerNotionalBps: volumeQuote > 0 ? (input.pnlQuote / volumeQuote) * 10_000 : null,
    pnlQuoteCi95,
    pnlPerNotionalBpsCi95,
    markoutBps: input.markouts.bps.map((row) => meanPresent(row) ?? null),
    markoutBpsCi95,
    markoutFills: input.markouts.bps.map((row) => row.filter((bps) => bps !== null).length),
  };
}
