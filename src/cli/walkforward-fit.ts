/**
 * `walkforward --fit`: the alpha weights fitted on each training span, as `akira-mm fit` fits them
 * (the mid's move over the horizon regressed on the signals the engine quotes with), and frozen
 * with the rest of the settings. The stream is sampled once per set of signal settings; a span
 * takes the samples whose horizon ends inside it, so no move of the test span reaches the fit.
 * The R² on the test span is reported, never used.
 */
import type { SignalSettings } from '../core/index.ts';
import { ALPHA_KEY_OF, ALPHA_SIGNALS } from '../../strategies/index.ts';
import { DataError, type TimeWindow } from '../backtest/data/index.ts';
import { rSquared } from '../backtest/fit/least-squares.ts';
import { collectSignalSamples, type SignalSamples } from '../backtest/fit/signal-samples.ts';
import type { WalkforwardWindow } from '../backtest/walkforward/spans.ts';
import { fitAlphaWeights, weightText } from './fit.ts';
import { UsageError } from './io.ts';

/** How the spans are fitted (`--fit-horizon`, `--fit-sample-ms`, `--fit-ridge`: `akira-mm fit`'s defaults). */
export interface FitOptions {
  readonly horizonMs: number;
  readonly sampleMs: number;
  readonly ridge: number;
}

/** One training span's fit. */
export interface SpanFit {
  /** ALPHA_* key → weight, bps per unit of the signal (0 for a signal that did not vary). */
  readonly weights: Readonly<Record<string, number>>;
  readonly r2Train: number;
  /** R² of the frozen weights on the test span's samples (reported, never used to choose). */
  readonly r2Test: number;
  readonly samples: { readonly train: number; readonly test: number };
}

/** Fewest samples a span needs for a fit (`akira-mm fit` asks as many of each part). */
const MIN_SAMPLES = 10;

function inside(samples: SignalSamples, window: TimeWindow, horizonMs: number): number[] {
  const indexes: number[] = [];
  samples.timesMs.forEach((timeMs, i) => {
    if (timeMs >= window.fromMs && timeMs + horizonMs <= window.toMs) indexes.push(i);
  });
  return indexes;
}

/**
 * Each window's fit, from one pass over the stream.
 * @throws UsageError for an unreadable stream or a span with too few samples.
 */
export async function fitWindows(paths: readonly string[], settings: SignalSettings, windows: readonly WalkforwardWindow[], options: FitOptions): Promise<SpanFit[]> {
  let samples: SignalSamples;
  try {
    samples = await collectSignalSamples(paths, settings, { horizonMs: options.horizonMs, sampleMs: options.sampleMs });
  } catch (error) {
    if (error instanceof DataError) throw new UsageError(`--fit: ${error.message}`);
    throw error;
  }
  return windows.map((window) => {
    const train = inside(samples, window.train, options.horizonMs);
    const test = inside(samples, window.test, options.horizonMs);
    if (train.length < MIN_SAMPLES) throw new UsageError(`--fit: window ${window.index}'s training span has ${train.length} samples (at least ${MIN_SAMPLES}): a shorter --fit-sample-ms or --fit-horizon`);
    const rows = (indexes: readonly number[]): number[][] => indexes.map((i) => samples.features[i] as number[]);
    const moves = (indexes: readonly number[]): number[] => indexes.map((i) => samples.movesBps[i] as number);
    const { fit } = fitAlphaWeights(rows(train), moves(train), options.ridge);
    const weights = Object.fromEntries(ALPHA_SIGNALS.map((name, j) => [ALPHA_KEY_OF[name], fit.coefficients[j] as number]));
    return {
      weights,
      r2Train: rSquared(fit, rows(train), moves(train)),
      r2Test: test.length === 0 ? Number.NaN : rSquared(fit, rows(test), moves(test)),
      samples: { train: train.length, test: test.length },
    };
  });
}

/** The fitted weights as env overrides, each × `scale` (a `fit-scale` cell; 1 without), written as `fit --write` writes them. */
export function fitOverrides(fit: SpanFit, scale: number): Record<string, string> {
  return Object.fromEntries(Object.entries(fit.weights).map(([key, weight]) => [key, weightText(weight * scale)]));
}
