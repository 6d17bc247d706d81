/**
 * A walk-forward's out-of-sample figures: its test spans laid end to end, each run at the settings
 * its own training span froze. Totals add up (fills, notional, PnL); PnL per notional and the mean
 * markouts are ratios of sums over every test span's fills, the same definitions as one run's;
 * the 95 % intervals come from the same block bootstrap as a run's (src/backtest/error-bars.ts),
 * drawn over the test spans' bins end to end, so blocks that straddle two spans join what a desk
 * trading the walk-forward would have seen one after the other.
 */
import { blockBootstrap, type Interval } from '../bootstrap.ts';
import { bootstrapSettingsOf, errorBarBins, errorBarFigures, type BootstrapOptions, type ErrorBarBins, type ErrorBarInput } from '../error-bars.ts';
import { MARKOUT_HORIZONS_MS } from '../report/series.ts';

/** The horizons of the out-of-sample markouts, ms: the summary's 1 s, 10 s and 60 s. */
export const OUT_OF_SAMPLE_HORIZONS_MS = MARKOUT_HORIZONS_MS;

/** A test run's bins (of `sampleMs` each) with the markouts of {@link OUT_OF_SAMPLE_HORIZONS_MS} only: what a worker sends back. */
export type TestSpanBins = ErrorBarBins & { readonly sampleMs: number };

/** What one test span adds: its summary's totals and its bins. */
export interface TestSpanPart {
  readonly summary: { readonly fills: number; readonly pnl_quote: number; readonly volume_quote: number; readonly fees_quote: number; readonly duration_s: number };
  readonly bins: TestSpanBins;
}

/** The out-of-sample figures (snake_case: `--json` prints them; the keys are a contract). */
export interface OutOfSampleFigures {
  /** Test spans joined. */
  readonly spans: number;
  readonly duration_s: number;
  readonly fills: number;
  readonly volume_quote: number;
  readonly fees_quote: number;
  readonly pnl_quote: number;
  readonly pnl_quote_ci95: Interval | null;
  readonly pnl_per_notional_bps: number | null;
  readonly pnl_per_notional_bps_ci95: Interval | null;
  readonly markout_1s_bps: number | null;
  readonly markout_1s_bps_ci95: Interval | null;
  readonly markout_10s_bps: number | null;
  readonly markout_10s_bps_ci95: Interval | null;
  readonly markout_60s_bps: number | null;
  readonly markout_60s_bps_ci95: Interval | null;
}

/**
 * A test run's bins, markouts at {@link OUT_OF_SAMPLE_HORIZONS_MS} only (a long span's bins at
 * every horizon of the curve would be megabytes to send from a worker for nothing).
 * @throws RangeError when the run's markouts lack one of those horizons.
 */
export function testSpanBins(input: ErrorBarInput): TestSpanBins {
  const rows = OUT_OF_SAMPLE_HORIZONS_MS.map((horizonMs) => {
    const at = input.markouts.horizonsMs.indexOf(horizonMs);
    if (at < 0) throw new RangeError(`the run's markouts have no ${horizonMs} ms horizon`);
    return input.markouts.bps[at] as readonly (number | null)[];
  });
  return { ...errorBarBins({ ...input, markouts: { horizonsMs: OUT_OF_SAMPLE_HORIZONS_MS, bps: rows } }), sampleMs: input.sampleMs };
}

function concatenate(arrays: readonly ArrayLike<number>[]): Float64Array {
  const joined = new Float64Array(arrays.reduce((sum, array) => sum + array.length, 0));
  let at = 0;
  for (const array of arrays) {
    joined.set(array, at);
    at += array.length;
  }
  return joined;
}

function tidy(value: number): number {
  return Number(value.toPrecision(10));
}

function tidyInterval(interval: Interval | null | undefined): Interval | null {
  return interval === null || interval === undefined ? null : [tidy(interval[0]), tidy(interval[1])];
}

/**
 * The test spans' figures end to end, intervals drawn with `options`.
 * @throws RangeError for no parts, or parts binned at different periods.
 */
export function outOfSampleFigures(parts: readonly TestSpanPart[], options: BootstrapOptions): OutOfSampleFigures {
  const sampleMs = parts[0]?.bins.sampleMs;
  if (sampleMs === undefined) throw new RangeError('out-of-sample figures need at least one test span');
  if (parts.some((part) => part.bins.sampleMs !== sampleMs)) throw new RangeError('the test spans are binned at different periods');
  const bins: ErrorBarBins = {
    pnl: concatenate(parts.map((part) => part.bins.pnl)),
    notional: concatenate(parts.map((part) => part.bins.notional)),
    markouts: OUT_OF_SAMPLE_HORIZONS_MS.map((_, h) => ({
      numerator: concatenate(parts.map((part) => part.bins.markouts[h]?.numerator ?? [])),
      denominator: concatenate(parts.map((part) => part.bins.markouts[h]?.denominator ?? [])),
    })),
    volumeQuote: parts.reduce((sum, part) => sum + part.bins.volumeQuote, 0),
  };
  const [pnlCi = null, perNotionalCi = null, ...markoutCi] = blockBootstrap(errorBarFigures(bins), bootstrapSettingsOf(options, sampleMs));
  const sum = (pick: (part: TestSpanPart) => number): number => parts.reduce((total, part) => total + pick(part), 0);
  const pnl = sum((part) => part.summary.pnl_quote);
  const volume = sum((part) => part.summary.volume_quote);
  const markout = (h: number): number | null => {
    const figure = bins.markouts[h];
    const count = figure?.denominator === undefined ? 0 : Array.from(figure.denominator).reduce((total, n) => total + n, 0);
    return figure === undefined || count === 0 ? null : tidy(Array.from(figure.numerator).reduce((total, n) => total + n, 0) / count);
  };
  return {
    spans: parts.length,
    duration_s: tidy(sum((part) => part.summary.duration_s)),
    fills: sum((part) => part.summary.fills),
    volume_quote: tidy(volume),
    fees_quote: tidy(sum((part) => part.summary.fees_quote)),
    pnl_quote: tidy(pnl),
    pnl_quote_ci95: tidyInterval(pnlCi),
    pnl_per_notional_bps: volume > 0 ? tidy((pnl / volume) * 10_000) : null,
    pnl_per_notional_bps_ci95: tidyInterval(perNotionalCi),
    markout_1s_bps: markout(0),
    markout_1s_bps_ci95: tidyInterval(markoutCi[0]),
    markout_10s_bps: markout(1),
    markout_10s_bps_ci95: tidyInterval(markoutCi[1]),
    markout_60s_bps: markout(2),
    markout_60s_bps_ci95: tidyInterval(markoutCi[2]),
  };
}
