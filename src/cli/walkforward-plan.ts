/**
 * The plans of a walk-forward: one strategy per `--env`, each with its own training grid (the
 * `--sweep` flags given since the previous `--env`), and the backtest plans of every run: each
 * training cell over each training span, the frozen settings and their sensitivity rows (`--also`)
 * over the test span after it. Every run is a plain `BacktestPlan` of the one backtest path, cut
 * to its span by a time window; plans are data, so worker threads can run them.
 */
import { basename } from 'node:path';
import { getStrategyDefinition, STRATEGIES } from '../../strategies/index.ts';
import type { SweepAxis } from '../backtest/sweep.ts';
import type { SummaryUnits } from '../backtest/summary-rows.ts';
import type { TimeWindow } from '../backtest/data/index.ts';
import type { BacktestPlan } from './backtest-plan.ts';
import { parseSweep, planForCell } from './backtest-sweep.ts';
import { UsageError } from './io.ts';

/** The walk-forward's own sweep key: the fitted alpha weights × each value (`--fit`), as the ablation's `@fit=1,2,4`. */
export const FIT_SCALE = 'fit-scale';

/** A strategy of the walk-forward: its plan without a window, and its training grid. */
export interface WalkforwardStrategy {
  readonly env: string;
  /** STRATEGY of the env file (after --strategy / --set). */
  readonly strategy: string;
  /** How tables name it: the strategy, with the env file's name when two envs run the same one. */
  readonly label: string;
  readonly plan: BacktestPlan;
  readonly axes: readonly SweepAxis[];
  /** The grid's cells, first axis slowest (one empty cell without a sweep). */
  readonly cells: readonly Readonly<Record<string, string>>[];
  /** Token names of its market, for the tables. */
  readonly units: SummaryUnits;
  /** What its runs share (market, queue, latency, fees…), as a backtest describes its run. */
  readonly context: readonly string[];
}

/**
 * The grid of one strategy from its `--sweep` texts.
 * @throws UsageError for a key swept twice, STRATEGY (one strategy per --env), a key of another
 *   strategy (the strategy would not read it), or `fit-scale` without `--fit`.
 */
export function strategyAxes(sweeps: readonly string[], strategy: string, env: string, isFitted: boolean): SweepAxis[] {
  const axes = sweeps.map((text) => (text.startsWith(`${FIT_SCALE}=`) ? parseFitScale(text, isFitted) : parseSweep(text)));
  const seen = new Set<string>();
  for (const axis of axes) {
    if (seen.has(axis.key)) throw new UsageError(`--sweep ${axis.key} is given twice for ${env}`);
    seen.add(axis.key);
    checkKeyOfStrategy(axis.key, strategy, env);
  }
  return axes;
}

function parseFitScale(text: string, isFitted: boolean): SweepAxis {
  if (!isFitted) throw new UsageError(`--sweep ${text}: ${FIT_SCALE} scales the weights --fit fits on each training span; add --fit`);
  const values = text.slice(FIT_SCALE.length + 1).split(',').map((value) => value.trim());
  for (const value of values) {
    if (value === '' || !Number.isFinite(Number(value))) throw new UsageError(`--sweep ${text}: ${value === '' ? 'an empty value' : value} is not a number (the fitted weights × it)`);
  }
  if (new Set(values).size !== values.length) throw new UsageError(`--sweep ${text}: a value is listed twice`);
  return { key: FIT_SCALE, values };
}

/** True when `key` is another strategy's key that `strategy` does not read (any other key: false). */
export function isOtherStrategysKey(key: string, strategy: string): boolean {
  const owners = Object.values(STRATEGIES).filter((definition) => definition.keys.some((spec) => spec.key === key));
  return owners.length > 0 && !owners.includes(getStrategyDefinition(strategy) as (typeof owners)[number]);
}

/**
 * An env key another strategy reads and this one does not is refused: swept, it would change
 * nothing and the grid would choose among identical runs.
 * @throws UsageError naming the key, its strategy and the env file's.
 */
export function checkKeyOfStrategy(key: string, strategy: string, env: string): void {
  if (key === 'STRATEGY') throw new UsageError(`--sweep STRATEGY: a walk-forward runs one strategy per --env; give one --env per strategy, each with its own --sweep flags`);
  if (isOtherStrategysKey(key, strategy)) {
    const owners = Object.values(STRATEGIES).filter((definition) => definition.keys.some((spec) => spec.key === key));
    const own = getStrategyDefinition(strategy);
    const keys = own?.keys.map((spec) => spec.key) ?? [];
    throw new UsageError(`--sweep ${key}: a key of ${owners.map((definition) => definition.name).join(', ')}, and ${env} runs STRATEGY=${strategy}, which does not read it (its keys: ${keys.join(', ') || 'none'})`);
  }
}

/** Names of the strategies for tables: the strategy, with the env file when it runs twice. */
export function strategyLabels(strategies: readonly { readonly env: string; readonly strategy: string }[]): string[] {
  return strategies.map(({ env, strategy }) => (strategies.filter((other) => other.strategy === strategy).length > 1 ? `${strategy} (${basename(env)})` : strategy));
}

/** A cell's settings as `KEY=value …` (`as in the env file` for an empty cell). */
export function cellText(cell: Readonly<Record<string, string>> | undefined): string {
  const entries = Object.entries(cell ?? {});
  return entries.length === 0 ? 'as in the env file' : entries.map(([key, value]) => `${key}=${value}`).join(' ');
}

/** A plan cut to a span of the stream: the book before it is built, not traded on. */
export function planOverSpan(plan: BacktestPlan, span: TimeWindow): BacktestPlan {
  return { ...plan, fromMs: span.fromMs, toMs: span.toMs };
}

/**
 * A cell's plan: its `fit-scale` (if any) scales the fitted weights (given as overrides), its
 * other keys apply as a sweep cell's do.
 */
export function planOfCell(plan: BacktestPlan, cell: Readonly<Record<string, string>>, fitted: ((scale: number) => Record<string, string>) | undefined): BacktestPlan {
  const { [FIT_SCALE]: scale, ...rest } = cell;
  const withFit = fitted === undefined ? plan : { ...plan, overrides: { ...plan.overrides, ...fitted(scale === undefined ? 1 : Number(scale)) } };
  return planForCell(withFit, rest);
}

/** A sensitivity row of the test span: one value of one `--also` key. */
export interface SensitivityRow {
  /** `queue=power:2`. */
  readonly label: string;
  readonly cell: Readonly<Record<string, string>>;
}

/** What the test span is also run at by default: the queue models and the latencies issue 30 asks for. */
export const DEFAULT_ALSO = ['queue=risk-averse,power:2,log', 'latency-ms=25,100,250'] as const;

/**
 * The rows of `--also KEY=v1,v2` (each value one row; the keys a sweep takes); `none` = no rows.
 * @throws UsageError for a malformed entry, or `none` beside others.
 */
export function sensitivityRows(texts: readonly string[]): SensitivityRow[] {
  if (texts.includes('none')) {
    if (texts.length > 1) throw new UsageError('--also none runs no sensitivity rows: give it alone');
    return [];
  }
  return texts.flatMap((text) => {
    let axis: SweepAxis;
    try {
      axis = parseSweep(text);
    } catch (error) {
      throw new UsageError(error instanceof UsageError ? error.message.replace(/^--sweep/, '--also') : String(error));
    }
    if (axis.key === 'STRATEGY') throw new UsageError('--also STRATEGY=…: each strategy is its own --env');
    return axis.values.map((value) => ({ label: `${axis.key}=${value}`, cell: { [axis.key]: value } }));
  });
}
