/**
 * The walk-forward driver: for each window, fit the alpha weights on the training span (`--fit`),
 * run every strategy's training grid over it, freeze the cell the objective chooses, then run the
 * frozen settings and their sensitivity rows over the test span; last, join the test spans into
 * the out-of-sample figures. Every run is one backtest plan handed to the job runner (worker
 * threads in the command, as a sweep's cells), so the driver adds no replay loop of its own, and
 * the results keep the plans' order whatever thread finishes first.
 */
import type { BootstrapOptions } from '../backtest/error-bars.ts';
import type { PairSweepSummary } from '../backtest/sweep.ts';
import { outOfSampleFigures, type OutOfSampleFigures, type TestSpanBins } from '../backtest/walkforward/out-of-sample.ts';
import { selectCell } from '../backtest/walkforward/select.ts';
import type { RollingMode, WalkforwardWindow } from '../backtest/walkforward/spans.ts';
import { prepareRun, type BacktestPlan } from './backtest-plan.ts';
import { UsageError } from './io.ts';
import type { WalkforwardJob, WalkforwardRun } from './walkforward-job.ts';
import { fitOverrides, fitWindows, type FitOptions, type SpanFit } from './walkforward-fit.ts';
import { cellText, isOtherStrategysKey, planOfCell, planOverSpan, type SensitivityRow, type WalkforwardStrategy } from './walkforward-plan.ts';
import { signalSettingsOf } from './fit.ts';

/** What a walk-forward runs. */
export interface WalkforwardSetup {
  /** `split`: --train then --test; `rolling` / `expanding`: --windows N. */
  readonly mode: 'split' | RollingMode;
  readonly windows: readonly WalkforwardWindow[];
  readonly strategies: readonly WalkforwardStrategy[];
  /** The stream's recordings (what `--fit` samples). */
  readonly paths: readonly string[];
  readonly objective: string;
  readonly minFills: number;
  readonly rows: readonly SensitivityRow[];
  /** `--fit`: how each training span is fitted; undefined = no fit. */
  readonly fit: FitOptions | undefined;
  /** How the out-of-sample intervals are drawn (the runs' own bootstrap settings). */
  readonly bootstrap: BootstrapOptions;
}

/** Runs jobs and answers each, in the jobs' order (`phase` labels its progress). */
export type JobRunner = (jobs: readonly WalkforwardJob[], phase: 'train' | 'test') => Promise<WalkforwardRun[]>;

/** One test run: the frozen settings (`row` = `frozen`) or a sensitivity row. */
export interface TestRowResult {
  readonly row: string;
  /** The row's own key and value; empty for the frozen settings. */
  readonly params: Readonly<Record<string, string>>;
  readonly summary: PairSweepSummary;
  readonly bins: TestSpanBins;
}

/** One strategy in one window. */
export interface StepResult {
  readonly window: WalkforwardWindow;
  /** Index into the setup's strategies. */
  readonly strategy: number;
  readonly fit: SpanFit | undefined;
  /** The training grid's summaries, grid order. */
  readonly grid: readonly PairSweepSummary[];
  /** The frozen cell (index into the strategy's cells). */
  readonly chosen: number;
  /** False when the grid has one cell: nothing was chosen, it is frozen as it is. */
  readonly isChoice: boolean;
  /** Cells with enough fills and a value of the objective. */
  readonly eligible: number;
  /** The frozen settings' test run first, then the sensitivity rows that apply. */
  readonly tests: readonly TestRowResult[];
}

/** The test spans of one strategy's row joined. */
export interface OutOfSampleRow {
  readonly strategy: number;
  readonly row: string;
  readonly figures: OutOfSampleFigures;
}

/** Everything a walk-forward found. */
export interface WalkforwardResult {
  readonly setup: WalkforwardSetup;
  /** Window-major: every strategy of window 1, then window 2, … */
  readonly steps: readonly StepResult[];
  /** Per strategy, its frozen row then its sensitivity rows, each over every test span. */
  readonly outOfSample: readonly OutOfSampleRow[];
}

/** The row name of the frozen settings. */
export const FROZEN_ROW = 'frozen';

/**
 * Checks a plan before anything runs, as a sweep checks every cell first.
 * @throws UsageError prefixed with where the plan comes from.
 */
function checked(plan: BacktestPlan, where: string): BacktestPlan {
  try {
    prepareRun(plan);
  } catch (error) {
    if (error instanceof UsageError) throw new UsageError(`${where}: ${error.message}`);
    throw error;
  }
  return plan;
}

/**
 * The fits of every strategy and window: one pass over the stream per set of signal settings.
 * @throws UsageError for a span with too few samples.
 */
async function fitAll(setup: WalkforwardSetup): Promise<(SpanFit[] | undefined)[]> {
  const options = setup.fit;
  if (options === undefined) return setup.strategies.map(() => undefined);
  const bySettings = new Map<string, Promise<SpanFit[]>>();
  return Promise.all(
    setup.strategies.map((strategy) => {
      const settings = signalSettingsOf(strategy.env, strategy.plan.overrides);
      const key = JSON.stringify(settings);
      const fits = bySettings.get(key) ?? fitWindows(setup.paths, settings, setup.windows, options);
      bySettings.set(key, fits);
      return fits;
    }),
  );
}

/** One strategy in one window, before and after its training grid ran. */
interface Pair {
  readonly window: WalkforwardWindow;
  readonly strategy: WalkforwardStrategy;
  readonly index: number;
  /** `--fit`'s weights of this window × a cell's scale, as env overrides; undefined without --fit. */
  readonly fitted: ((scale: number) => Record<string, string>) | undefined;
}

/** A test run to make: the frozen settings or a sensitivity row. */
interface TestRow {
  readonly row: string;
  readonly params: Readonly<Record<string, string>>;
  readonly plan: BacktestPlan;
}

function describePair(pair: Pair): string {
  return `window ${pair.window.index}, ${pair.strategy.label} (${pair.strategy.env})`;
}

/**
 * What a training grid freezes and the test rows it runs: the frozen settings over the test span,
 * then each sensitivity row that applies to the strategy and differs from them.
 * @throws UsageError when no cell of a grid is eligible.
 */
function freeze(setup: WalkforwardSetup, pair: Pair, grid: readonly PairSweepSummary[]): { readonly cell: number; readonly isChoice: boolean; readonly eligible: number; readonly rows: readonly TestRow[] } {
  const { strategy, window } = pair;
  const isChoice = strategy.cells.length > 1;
  const selection = selectCell(grid, setup.objective, isChoice ? setup.minFills : 0);
  if (!selection.ok && isChoice) throw new UsageError(`${describePair(pair)}: ${selection.reason}`);
  const cell = selection.ok ? selection.index : 0;
  const where = (row: string): string => `${describePair(pair)}, test span, ${row}`;
  const frozen = checked(planOfCell(planOverSpan(strategy.plan, window.test), strategy.cells[cell] as Readonly<Record<string, string>>, pair.fitted), where(FROZEN_ROW));
  const rows: TestRow[] = [{ row: FROZEN_ROW, params: {}, plan: frozen }];
  for (const row of setup.rows) {
    if (Object.keys(row.cell).some((key) => isOtherStrategysKey(key, strategy.strategy))) continue;
    const plan = checked(planOfCell(frozen, row.cell, undefined), where(`--also ${row.label}`));
    // A row equal to the frozen settings (the queue model or latency they already run at) would print its run twice.
    if (JSON.stringify(plan) !== JSON.stringify(frozen)) rows.push({ row: row.label, params: row.cell, plan });
  }
  return { cell, isChoice, eligible: selection.ok ? selection.eligible : 0, rows };
}

/**
 * Runs the walk-forward: every training grid (all windows and strategies in one batch of jobs),
 * the choices, then every test row (one batch).
 * @throws UsageError for a plan the backtest refuses, or a training span where no cell is eligible.
 */
export async function runWalkforward(setup: WalkforwardSetup, runJobs: JobRunner): Promise<WalkforwardResult> {
  const fits = await fitAll(setup);
  const pairs: Pair[] = setup.windows.flatMap((window) =>
    setup.strategies.map((strategy, index) => {
      const fit = fits[index]?.[window.index - 1];
      return { window, strategy, index, fitted: fit === undefined ? undefined : (scale: number) => fitOverrides(fit, scale) };
    }),
  );

  const trainJobs = pairs.flatMap((pair) =>
    pair.strategy.cells.map((cell): WalkforwardJob => {
      const where = `${describePair(pair)}, training cell ${cellText(cell)}`;
      return { plan: checked(planOfCell(planOverSpan(pair.strategy.plan, pair.window.train), cell, pair.fitted), where), withBins: false, where };
    }),
  );
  const trainRuns = await runJobs(trainJobs, 'train');
  let next = 0;
  const frozen = pairs.map((pair) => {
    const grid = trainRuns.slice(next, next + pair.strategy.cells.length).map((run) => run.summary);
    next += pair.strategy.cells.length;
    return { pair, grid, ...freeze(setup, pair, grid) };
  });

  const testJobs = frozen.flatMap(({ pair, rows }) => rows.map((row): WalkforwardJob => ({ plan: row.plan, withBins: true, where: `${describePair(pair)}, test span, ${row.row}` })));
  const testRuns = await runJobs(testJobs, 'test');
  next = 0;
  const steps = frozen.map(({ pair, grid, cell, isChoice, eligible, rows }): StepResult => {
    const tests = rows.map((row, i): TestRowResult => {
      const run = testRuns[next + i] as WalkforwardRun;
      if (run.bins === undefined) throw new Error('a test run came back without its bins');
      return { row: row.row, params: row.params, summary: run.summary, bins: run.bins };
    });
    next += rows.length;
    return { window: pair.window, strategy: pair.index, fit: fits[pair.index]?.[pair.window.index - 1], grid, chosen: cell, isChoice, eligible, tests };
  });
  return { setup, steps, outOfSample: joinTestSpans(setup, steps) };
}

/**
 * Per strategy and row, the row's test spans over every window. A window that did not run a row
 * because it equalled its frozen settings contributes its frozen run: that is the row's run there.
 */
function joinTestSpans(setup: WalkforwardSetup, steps: readonly StepResult[]): OutOfSampleRow[] {
  return setup.strategies.flatMap((_, strategy) => {
    const own = steps.filter((step) => step.strategy === strategy);
    const rows = [...new Set(own.flatMap((step) => step.tests.map((test) => test.row)))];
    return rows.map((row) => {
      const parts = own.map((step) => step.tests.find((test) => test.row === row) ?? (step.tests[0] as TestRowResult));
      return { strategy, row, figures: outOfSampleFigures(parts, setup.bootstrap) };
    });
  });
}
