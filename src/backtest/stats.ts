/**
 * Summary statistics of a backtest from its sampled equity and inventory paths: Sharpe ratio,
 * maximum drawdown, inventory dispersion. Pure functions over arrays, so a report and a sweep
 * compute them the same way.
 */
import type { ModelInternals } from '../core/index.ts';

/**
 * Cumulative PnL of a run split by where it came from (the engine's scorecard split), in quote
 * tokens, each a signed contribution: the parts add up to the split's total (fees and gas ≤ 0).
 */
export interface PnlComponents {
  /** Edge of each fill against the fair price (mid) at the fill. */
  readonly spread: number;
  /** The position carried between fills, marked to market. */
  readonly inventory: number;
  /** Trading fees paid, as a negative number. */
  readonly fees: number;
  /** Gas paid, as a negative number. */
  readonly gas: number;
  /** PnL of the hedges on the hedge venue, net of their fees. */
  readonly hedge?: number;
}

/** One point of the sampled paths (taken every `sampleMs` of simulated time). */
export interface PathSample {
  readonly timeMs: number;
  readonly mid: number | undefined;
  /** Our best resting bid and ask at the exchange (undefined when none rests). */
  readonly bid: number | undefined;
  readonly ask: number | undefined;
  /** The market's best bid and ask (the recorded book, without our orders). */
  readonly bestBid?: number | undefined;
  readonly bestAsk?: number | undefined;
  /** Base inventory minus its starting value, in base tokens. */
  readonly inventory: number;
  /** With a hedge venue: `inventory` plus the position the hedges built there (the net across both). */
  readonly netInventory?: number | undefined;
  /** Total PnL in quote tokens. */
  readonly pnl: number;
  /** `pnl` split by component; absent in paths recorded before the split existed. */
  readonly components?: PnlComponents;
  /** With a reference market (`--reference`): its price × (1 + basis) in the venue's units, and the basis, bps. */
  readonly referenceFair?: number | undefined;
  readonly basisBps?: number | undefined;
  /** The strategy's internals at the sample (σ, A, k, the fit's weight, half spread, skew), when it reports them. */
  readonly model?: ModelInternals | undefined;
}

/** Largest fall of PnL from a running peak, in quote tokens (≥ 0). */
export function maxDrawdown(samples: readonly PathSample[]): number {
  let peak = Number.NEGATIVE_INFINITY;
  let worst = 0;
  for (const sample of samples) {
    if (sample.pnl > peak) peak = sample.pnl;
    worst = Math.max(worst, peak - sample.pnl);
  }
  return worst;
}

/** Population standard deviation; 0 for fewer than two values. */
export function standardDeviation(values: readonly number[]): number {
  if (values.length < 2) return 0;
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
  const variance = values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / values.length;
  return Math.sqrt(variance);
}

/** One hour and one day in ms: the horizons a Sharpe ratio is stated for. */
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

/**
 * Sharpe ratio of PnL changes between samples, stated per `horizonMs` (mean / std of the
 * per-sample changes × √(horizon / sample spacing), the usual i.i.d. scaling). 0 when PnL never
 * moved. Never annualised: a ratio scaled from minutes to a year says nothing.
 */
export function sharpeRatio(samples: readonly PathSample[], sampleMs: number, horizonMs: number): number {
  const changes: number[] = [];
  for (let i = 1; i < samples.length; i++) changes.push((samples[i] as PathSample).pnl - (samples[i - 1] as PathSample).pnl);
  const deviation = standardDeviation(changes);
  if (deviation === 0 || changes.length === 0) return 0;
  const mean = changes.reduce((sum, value) => sum + value, 0) / changes.length;
  return (mean / deviation) * Math.sqrt(horizonMs / sampleMs);
}

/** The horizon a run's headline Sharpe is stated for: a day once the run spans 3 days, else an hour. */
export function sharpeHorizon(durationMs: number): 'hour' | 'day' {
  return durationMs >= 3 * DAY_MS ? 'day' : 'hour';
}

/** Largest |inventory| over the path, base tokens. */
export function maxAbsInventory(samples: readonly PathSample[]): number {
  return samples.reduce((worst, sample) => Math.max(worst, Math.abs(sample.inventory)), 0);
}

/** Largest |net inventory| across both venues over the path (the venue's alone without a hedge), base tokens. */
export function maxAbsNetInventory(samples: readonly PathSample[]): number {
  return samples.reduce((worst, sample) => Math.max(worst, Math.abs(sample.netInventory ?? sample.inventory)), 0);
}
