/**
 * What one pair of a backtest leaves for its report and the account's summary, declared below the
 * run that produces it and the account summary that reads it.
 */
import type { EngineStatus } from '../engine/index.ts';
import type { FillMarkouts } from './fill-markouts.ts';
import type { VenueActivity } from './replay-venue.ts';
import type { FillRecord } from './session.ts';
import type { PathSample } from './stats.ts';
import type { BacktestSummary } from './summary.ts';

/** Everything a pair's report needs. */
export interface PairResult {
  readonly summary: BacktestSummary;
  readonly samples: readonly PathSample[];
  readonly fills: readonly FillRecord[];
  readonly status: EngineStatus;
  /** Orders and cancels the replay venue received. */
  readonly activity: VenueActivity;
  /** Path sampling period, ms of simulated time. */
  readonly sampleMs: number;
  /** Every fill's markout on the curve's horizons, as the summary's markout keys count them (absent in results built without the replay). */
  readonly markouts?: FillMarkouts;
}
