/**
 * Summary statistics of a backtest from its sampled equity and inventory paths: Sharpe ratio,
 * maximum drawdown, inventory dispersion. Pure functions over arrays, so a report and a sweep
 * compute them the same way.
 */

/** One point of the sampled paths (taken every `sampleMs` of simulated time). */
export interface PathSample {
  readonly timeMs: number;
  readonly mid: number | undefined;
  readonly bid: number | undefined;
  readonly ask: number | undefined;
  /** Base inventory minus its starting value, in base tokens. */
  readonly inventory: number;
  /** Total PnL in quote tokens. */
  readonly pnl: number;
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

/**
 * Sharpe ratio of PnL changes between samples, annualised from the sample spacing
 * (√(periods per year) × mean / std). 0 when PnL never moved.
 */
export function sharpeRatio(samples: readonly PathSample[], sampleMs: number): number {
  const changes: number[] = [];
  for (let i = 1; i < samples.length; i++) changes.push((samples[i] as PathSample).pnl - (samples[i - 1] as PathSample).pnl);
  const deviation = standardDeviation(changes);
  if (deviation === 0 || changes.length === 0) return 0;
  const mean = changes.reduce((sum, value) => sum + value, 0) / changes.length;
  const periodsPerYear = (365 * 24 * 3600 * 1000) / sampleMs;
  return (mean / deviation) * Math.sqrt(periodsPerYear);
}

/** Largest |inventory| over the path, base tokens. */
export function maxAbsInventory(samples: readonly PathSample[]): number {
  return samples.reduce((worst, sample) => Math.max(worst, Math.abs(sample.inventory)), 0);
}
