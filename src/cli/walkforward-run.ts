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

/**
 * Runs the walk-forward.
 * @throws UsageError for a plan the backtest refuses, or a training span where no cell is eligible.
 */
export async function runWalkforward(setup: WalkforwardSetup, runJobs: JobRunner): Promise<WalkforwardResult> {
  const fits = await fitAll(setup);
  const fitOf = (strategy: number, window: WalkforwardWindow): SpanFit | undefined => fits[strategy]?.[window.index - 1];
  const scaled = (fit: SpanFit | undefined): ((scale: number) => Record<string, string>) | undefined => (fit === undefined ? undefined : (scale) => fitOverrides(fit, scale));

  // Training: every cell of every strategy over every window's training span.
  const pairs = setup.windows.flatMap((window) => setup.strategies.map((strategy, index) => ({ window, strategy, index })));
  const trainJobs = pairs.flatMap(({ window, strategy, index }) =>
    strategy.cells.map((cell): WalkforwardJob => {
      const where = `window ${window.index}, ${strategy.label} (${strategy.env}), training cell ${cellText(cell)}`;
      return { plan: checked(planOfCell(planOverSpan(strategy.plan, window.train), cell, scaled(fitOf(index, window))), where), withBins: false, where };
    }),
  );
  const trainRuns = await runJobs(trainJobs, 'train');

  // Choose and freeze, then the test span at the frozen settings and each sensitivity row.
  let next = 0;
  const chosen = pairs.map(({ window, strategy, index }) => {
    const grid = trainRuns.slice(next, next + strategy.cells.length).map((run) => run.summary);
    next += strategy.cells.length;
    const isChoice = strategy.cells.length > 1;
    const selection = selectCell(grid, setup.objective, isChoice ? setup.minFills : 0);
    if (!selection.ok && isChoice) throw new UsageError(`window ${window.index}, ${strategy.label} (${strategy.env}): ${selection.reason}`);
    const cell = selection.ok ? selection.index : 0;
    const frozen = planOfCell(planOverSpan(strategy.plan, window.test), strategy.cells[cell] as Readonly<Record<string, string>>, scaled(fitOf(index, window)));
    const rows = [{ row: FROZEN_ROW, params: {}, plan: frozen }];
    const where = (row: string): string => `window ${window.index}, ${strategy.label} (${strategy.env}), test span, ${row}`;
    for (const row of setup.rows) {
      if (Object.keys(row.cell).some((key) => isOtherStrategysKey(key, strategy.strategy))) continue;
      const plan = checked(planOfCell(frozen, row.cell, undefined), where(`--also ${row.label}`));
      // A row equal to the frozen settings (the queue model or latency they already run at) would print its run twice.
      if (JSON.stringify(plan) !== JSON.stringify(frozen)) rows.push({ row: row.label, params: row.cell, plan });
    }
    return { window, index, grid, cell, isChoice, eligible: selection.ok ? selection.eligible : 0, rows, where };
  });
  const testJobs = chosen.flatMap((step) => step.rows.map((row): WalkforwardJob => ({ plan: row.plan, withBins: true, where: step.where(row.row) })));
  const testRuns = await runJobs(testJobs, 'test');

  next = 0;
  const steps: StepResult[] = chosen.map((step) => {
    const tests = step.rows.map((row, i): TestRowResult => {
      const run = testRuns[next + i] as WalkforwardRun;
      if (run.bins === undefined) throw new Error('a test run came back without its bins');
      return { row: row.row, params: row.params, summary: run.summary, bins: run.bins };
    });
    next += step.rows.length;
    return { window: step.window, strategy: step.index, fit: fitOf(step.index, step.window), grid: step.grid, chosen: step.cell, isChoice: step.isChoice, eligible: step.eligible, tests };
  });
  return { setup, steps, outOfSample: joinTestSpans(setup, steps) };
}

/** Per strategy and row, the row's test spans over every window (a row missing from a window is left out of that strategy's join). */
function joinTestSpans(setup: WalkforwardSetup, steps: readonly StepResult[]): OutOfSampleRow[] {
  return setup.strategies.flatMap((_, strategy) => {
    const own = steps.filter((step) => step.strategy === strategy);
    const rows = [...new Set(own.flatMap((step) => step.tests.map((test) => test.row)))];
    return rows.flatMap((row) => {
      const parts = own.map((step) => step.tests.find((test) => test.row === row));
      // A sensitivity row equal to a window's frozen settings is that window's frozen run.
      const filled = parts.map((part, i) => part ?? (own[i] as StepResult).tests[0]);
      if (filled.some((part) => part === undefined)) return [];
      return [{ strategy, row, figures: outOfSampleFigures(filled as TestRowResult[], setup.bootstrap) }];
    });
  });
}
