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

/** A run to make: its plan, and whether to send its bins back (test rows). */
export interface WalkforwardJob {
  readonly plan: BacktestPlan;
  readonly withBins: boolean;
}

/** What a run sends back: the summary without the wall-clock speed, and the bins when asked. */
export interface WalkforwardRun {
  readonly summary: PairSweepSummary;
  readonly bins?: TestSpanBins;
}

/** Runs one job. @throws UsageError for a plan the backtest refuses. */
export async function runWalkforwardJob(job: WalkforwardJob): Promise<WalkforwardRun> {
  const result = await executeAccount(prepareAccount({ pairs: [job.plan], initialQuote: undefined }));
  const summary = deterministicPart(result.summary);
  if (!job.withBins) return { summary };
  const markouts = result.markouts ?? markoutsFromSamples(result.fills, result.samples);
  // The PnL the summary's intervals were drawn on, before it was rounded for print: one span's
  // out-of-sample figures are then exactly its summary's.
  const pnlQuote = result.status.pnl.total + (result.status.hedge?.pnlQuote ?? 0);
  return { summary, bins: testSpanBins({ samples: result.samples, fills: result.fills, markouts, sampleMs: result.sampleMs, startMs: summary.start_ms, pnlQuote }) };
}
