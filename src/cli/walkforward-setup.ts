/**
 * A walk-forward's strategies from the command line: each `--env` with the flags every run shares
 * (as `backtest` reads them) and its own grid, checked as a backtest checks its run (the env file,
 * the market the stream is of), over the stream's recordings.
 */
import { sweepGrid } from '../backtest/sweep.ts';
import { planFromFlags, type BacktestValues, type VenueChoice } from './backtest.ts';
import { prepareRun } from './backtest-plan.ts';
import type { StrategyArgs } from './walkforward-args.ts';
import { strategyAxes, strategyLabels, type WalkforwardStrategy } from './walkforward-plan.ts';

/** Context lines of a backtest that name one run (its files, its strategy, its window): a walk-forward states those itself. */
const RUN_LINES = ['data:', 'strategy:', 'set:', 'window:'];

/**
 * Every strategy, in command-line order.
 * @throws UsageError for a bad flag, env file or sweep key.
 */
export function buildStrategies(values: BacktestValues, groups: readonly StrategyArgs[], options: { readonly paths: readonly string[]; readonly venue: VenueChoice; readonly isFitted: boolean }): WalkforwardStrategy[] {
  const strategies = groups.map((group) => {
    const plan = planFromFlags(values, { data: options.paths, hedge: [], reference: [], env: group.env }, [], options.venue, {});
    const run = prepareRun(plan);
    const axes = strategyAxes(group.sweeps, run.config.strategy, group.env, options.isFitted);
    return { env: group.env, strategy: run.config.strategy, plan, axes, cells: sweepGrid(axes), units: run.units, context: run.context.filter((line) => !RUN_LINES.some((prefix) => line.startsWith(prefix))) };
  });
  const labels = strategyLabels(strategies);
  return strategies.map((strategy, i) => ({ ...strategy, label: labels[i] as string }));
}
