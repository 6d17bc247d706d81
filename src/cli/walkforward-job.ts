/**
 * One run of a walk-forward, as a worker thread runs it (walkforward-worker.mjs): a training cell
 * or a test row, through the one backtest path (`prepareAccount` / `executeAccount`, as a sweep
 * cell runs). A test row also sends back its bins, which the out-of-sample figures join across
 * test spans.
 */
import { markoutsFromSamples } from '../backtest/fill-markouts.ts';
import type { PairSweepSummary } from '../backtest/sweep.ts';
import { deterministicPart } from '../backtest/summary.ts';
import { testSpanBins, type TestSpanBins } from '../backtest/walkforward/out-of-sample.ts';
import { executeAccount, prepareAccount, type BacktestPlan } from './backtest-plan.ts';
import { UsageError } from './io.ts';

/** A run to make: its plan, whether to send its bins back (test rows), and where it stands in the walk-forward (for its errors). */
export interface WalkforwardJob {
  readonly plan: BacktestPlan;
  readonly withBins: boolean;
  /** `window 1, ladder (ladder.env), training cell LADDER_BID_SPREAD_BPS=2`. */
  readonly where: string;
}

/** What a run sends back: the summary without the wall-clock speed, and the bins when asked. */
export interface WalkforwardRun {
  readonly summary: PairSweepSummary;
  readonly bins?: TestSpanBins;
}

/** Runs one job. @throws UsageError for a plan the backtest refuses (a span without a two-sided book, …), prefixed with where the job stands. */
export async function runWalkforwardJob(job: WalkforwardJob): Promise<WalkforwardRun> {
  let result;
  try {
    result = await executeAccount(prepareAccount({ pairs: [job.plan], initialQuote: undefined }));
  } catch (error) {
    if (error instanceof UsageError) throw new UsageError(`${job.where}: ${error.message}`);
    throw error;
  }
  const summary = deterministicPart(result.summary);
  if (!job.withBins) return { summary };
  const markouts = result.markouts ?? markoutsFromSamples(result.fills, result.samples);
  // The PnL the summary's intervals were drawn on, before it was rounded for print: one span's
  // out-of-sample figures are then exactly its summary's.
  const pnlQuote = result.status.pnl.total + (result.status.hedge?.pnlQuote ?? 0);
  return { summary, bins: testSpanBins({ samples: result.samples, fills: result.fills, markouts, sampleMs: result.sampleMs, startMs: summary.start_ms, pnlQuote }) };
}
