/**
 * What `akira-mm walkforward` prints: the spans, each training grid (best first, the top rows),
 * the settings each training span froze, the held-out table (per strategy, the frozen settings and
 * each sensitivity row over the test spans: fills, notional, PnL, PnL per notional and the 1 s /
 * 10 s / 60 s markouts, each with its 95 % interval), and train against test per window. `--json`
 * prints the same as one object on the last line, `--jsonl` one line per run (every training cell
 * included). Only figures of the runs: nothing here depends on the wall clock.
 */
import { formatAmount, formatDuration, formatNumber } from '../backtest/format.ts';
import { withInterval } from '../backtest/summary-rows.ts';
import { RANK_FIGURES, alignColumns, type PairSweepSummary } from '../backtest/sweep.ts';
import type { OutOfSampleFigures } from '../backtest/walkforward/out-of-sample.ts';
import { isHigherBetter, objectiveValue, rankByObjective } from '../backtest/walkforward/select.ts';
import type { WalkforwardReportInput } from '../backtest/report/walkforward-html.ts';
import { describeSpan } from '../backtest/walkforward/spans.ts';
import type { StepResult, WalkforwardResult } from './walkforward-run.ts';
import { FIT_SCALE, cellText, type WalkforwardStrategy } from './walkforward-plan.ts';
import { weightText } from './fit.ts';

/** Training cells printed per grid (the report and --jsonl keep every one). */
export const GRID_ROWS_SHOWN = 10;

/** How the run was set up, for the text and the report. */
export interface WalkforwardDescription {
  readonly title: string;
  readonly context: readonly string[];
}

/** The figures of a held-out row, from a run's summary or from joined test spans. */
type HeldOutFigures = Pick<
  OutOfSampleFigures,
  | 'fills'
  | 'volume_quote'
  | 'pnl_quote'
  | 'pnl_quote_ci95'
  | 'pnl_per_notional_bps'
  | 'pnl_per_notional_bps_ci95'
  | 'markout_1s_bps'
  | 'markout_1s_bps_ci95'
  | 'markout_10s_bps'
  | 'markout_10s_bps_ci95'
  | 'markout_60s_bps'
  | 'markout_60s_bps_ci95'
>;

const bps = (value: number): string => formatNumber(Number(value.toFixed(2)), 2);
const amount = (value: number): string => formatAmount(value, '').trim();

/** The cells of a held-out row: fills, notional, PnL, per notional and the three markouts, each with its interval. */
export function heldOutCells(figures: HeldOutFigures): string[] {
  return [
    formatNumber(figures.fills),
    formatNumber(figures.volume_quote, 2),
    withInterval(figures.pnl_quote, figures.pnl_quote_ci95, amount),
    withInterval(figures.pnl_per_notional_bps, figures.pnl_per_notional_bps_ci95, bps),
    withInterval(figures.markout_1s_bps, figures.markout_1s_bps_ci95, bps),
    withInterval(figures.markout_10s_bps, figures.markout_10s_bps_ci95, bps),
    withInterval(figures.markout_60s_bps, figures.markout_60s_bps_ci95, bps),
  ];
}

/** The held-out table's header, in `quote` tokens. */
export function heldOutHeader(quote: string): string[] {
  return ['fills', `notional ${quote}`, `PnL ${quote} [95 %]`, 'PnL/notional bp [95 %]', 'markout 1 s bp [95 %]', 'markout 10 s bp [95 %]', 'markout 60 s bp [95 %]'];
}

/** The settings a step froze: the cell, and the fitted weights (× the cell's scale) with `--fit`. */
export function frozenText(strategy: WalkforwardStrategy, step: StepResult): string {
  const cell = strategy.cells[step.chosen];
  if (step.fit === undefined) return cellText(cell);
  const scale = Number(cell?.[FIT_SCALE] ?? 1);
  const weights = Object.entries(step.fit.weights).map(([key, weight]) => `${key}=${weightText(weight * scale)}`);
  return `${cellText(cell)}; fitted ${weights.join(' ')}`;
}

function objectiveText(result: WalkforwardResult): string {
  const { objective, minFills } = result.setup;
  return `${objective}, the ${isHigherBetter(objective) ? 'highest' : 'lowest'}, among training cells with ≥ ${minFills} fills; a tie goes to the first cell in grid order; a grid of one cell is frozen as it is`;
}

/** The ranking figure of a training grid's table: the objective, or the figure it bounds. */
function rankFigure(objective: string): string {
  const figure = objective.replace(/_ci95_low$/, '');
  return figure in RANK_FIGURES ? figure : 'pnl_quote';
}

/** A training grid, best first by the objective: the top rows (the frozen cell marked), the rest in the report and --jsonl. */
function gridSection(result: WalkforwardResult, step: StepResult, quote: string): string {
  const strategy = result.setup.strategies[step.strategy] as WalkforwardStrategy;
  const { objective, minFills } = result.setup;
  const keys = strategy.axes.map((axis) => axis.key);
  const order = rankByObjective(step.grid, objective);
  const note = (i: number): string => (i === step.chosen ? '← frozen' : step.isChoice && (step.grid[i] as PairSweepSummary).fills < minFills ? `< ${minFills} fills` : '');
  const rows = order.slice(0, GRID_ROWS_SHOWN).map((i, rank) => {
    const summary = step.grid[i] as PairSweepSummary;
    const value = objectiveValue(summary, objective);
    return [String(rank + 1), ...keys.map((key) => strategy.cells[i]?.[key] ?? ''), value === null ? '–' : String(Number(value.toPrecision(6))), ...heldOutCells(summary).slice(0, 5), note(i)];
  });
  const header = ['#', ...keys, objective, ...heldOutHeader(quote).slice(0, 5), ''];
  const more = order.length > GRID_ROWS_SHOWN ? [`… ${order.length - GRID_ROWS_SHOWN} more cells (--report, --jsonl)`] : [];
  const heading = `${strategy.label} (${strategy.env}), window ${step.window.index}: ${strategy.cells.length} cell${strategy.cells.length === 1 ? '' : 's'}, ${step.eligible} eligible; frozen: ${frozenText(strategy, step)}`;
  return [heading, ...alignColumns([header, ...rows]).split('\n'), ...more].map((line, k) => (k === 0 ? line : `  ${line}`)).join('\n');
}

/** The held-out table: per strategy, the frozen row and each sensitivity row over the test spans. */
function heldOutRows(result: WalkforwardResult, quote: string): string[][] {
  const rows = result.outOfSample.map((row) => [(result.setup.strategies[row.strategy] as WalkforwardStrategy).label, row.row, ...heldOutCells(row.figures)]);
  return [['strategy', 'row', ...heldOutHeader(quote)], ...rows];
}

/** The settings each training span froze, with the objective's value there. */
function frozenRows(result: WalkforwardResult): string[][] {
  const rows = result.steps.map((step) => {
    const strategy = result.setup.strategies[step.strategy] as WalkforwardStrategy;
    const value = objectiveValue(step.grid[step.chosen] as PairSweepSummary, result.setup.objective);
    const choice = step.isChoice ? `cell ${step.chosen + 1} of ${strategy.cells.length} (${step.eligible} eligible)` : 'one cell: nothing to choose';
    return [String(step.window.index), strategy.label, frozenText(strategy, step), value === null ? '–' : String(Number(value.toPrecision(6))), choice];
  });
  return [['window', 'strategy', 'frozen settings', `${result.setup.objective} (training)`, 'chosen'], ...rows];
}

/** Train against test per window, at the frozen settings. */
function trainTestRows(result: WalkforwardResult, quote: string): string[][] {
  const rows = result.steps.flatMap((step) => {
    const strategy = result.setup.strategies[step.strategy] as WalkforwardStrategy;
    const train = step.grid[step.chosen] as PairSweepSummary;
    const test = step.tests[0]?.summary as PairSweepSummary;
    return [
      [String(step.window.index), strategy.label, 'train', formatDuration(train.duration_s * 1_000), ...heldOutCells(train)],
      [String(step.window.index), strategy.label, 'test', formatDuration(test.duration_s * 1_000), ...heldOutCells(test)],
    ];
  });
  return [['window', 'strategy', 'span', 'length', ...heldOutHeader(quote)], ...rows];
}

/** The title of the held-out table. */
function heldOutTitle(result: WalkforwardResult): string {
  const windows = result.setup.windows;
  const testTotal = windows.reduce((sum, window) => sum + (window.test.toMs - window.test.fromMs), 0);
  return windows.length === 1
    ? `held out: the test span (${formatDuration(testTotal)}) at the settings the training span froze`
    : `out of sample: the ${windows.length} test spans joined (${formatDuration(testTotal)}), each at the settings its own training span froze`;
}

const INTERVAL_NOTE = '95 % intervals [low, high] from a block bootstrap over time (docs/strategies.md, "Error bars")';

/** The lines before the tables: title, context, the spans and the objective. */
function headLines(result: WalkforwardResult, description: WalkforwardDescription): string[] {
  const spans = result.setup.windows.map((window) => `window ${window.index}: train ${describeSpan(window.train)}; test ${describeSpan(window.test)}`);
  return [...description.context, ...spans, `objective: ${objectiveText(result)}`];
}

function fitLines(result: WalkforwardResult): string[] {
  return result.steps.flatMap((step) => {
    if (step.fit === undefined) return [];
    const label = (result.setup.strategies[step.strategy] as WalkforwardStrategy).label;
    const testR2 = Number.isNaN(step.fit.r2Test) ? 'n/a' : step.fit.r2Test.toFixed(4);
    return [`window ${step.window.index}, ${label}: alpha weights fitted on ${step.fit.samples.train} training samples, R² ${step.fit.r2Train.toFixed(4)}; on the test span's ${step.fit.samples.test} samples ${testR2} (reported, not used)`];
  });
}

/** The whole text output. */
export function formatWalkforward(result: WalkforwardResult, description: WalkforwardDescription): string {
  const quote = result.setup.strategies[0]?.units.quote ?? 'quote';
  return [
    description.title,
    ...headLines(result, description).map((line) => `  ${line}`),
    ...fitLines(result).map((line) => `  ${line}`),
    '',
    'training spans: each grid, best first (the whole grid: --report, --jsonl)',
    ...result.steps.map((step) => gridSection(result, step, quote)),
    '',
    'settings frozen on each training span',
    alignColumns(frozenRows(result)),
    '',
    `${heldOutTitle(result)}; ${INTERVAL_NOTE}`,
    alignColumns(heldOutRows(result, quote)),
    '',
    'train against test at the frozen settings',
    alignColumns(trainTestRows(result, quote)),
    '',
  ].join('\n');
}

/** The HTML report's content: the same tables, and every training grid in full. */
export function walkforwardReport(result: WalkforwardResult, description: WalkforwardDescription): WalkforwardReportInput {
  const quote = result.setup.strategies[0]?.units.quote ?? 'quote';
  return {
    title: description.title,
    context: [...headLines(result, description), ...fitLines(result)],
    tables: [
      { heading: heldOutTitle(result), note: INTERVAL_NOTE, rows: heldOutRows(result, quote) },
      { heading: 'Settings frozen on each training span', rows: frozenRows(result) },
      { heading: 'Train against test at the frozen settings', rows: trainTestRows(result, quote) },
    ],
    grids: result.steps.map((step) => {
      const strategy = result.setup.strategies[step.strategy] as WalkforwardStrategy;
      return {
        heading: `${strategy.label}, window ${step.window.index}: training span ${describeSpan(step.window.train)}; frozen ${frozenText(strategy, step)}`,
        sweep: { title: strategy.label, context: strategy.context, axes: strategy.axes, cells: strategy.cells, summaries: step.grid, rankBy: rankFigure(result.setup.objective) },
      };
    }),
  };
}

/** `--json`'s object (its keys are a contract). */
export function walkforwardJson(result: WalkforwardResult): object {
  const { setup } = result;
  return {
    walkforward: {
      mode: setup.mode,
      objective: setup.objective,
      min_fills: setup.minFills,
      windows: setup.windows.map((window) => ({
        window: window.index,
        train: { from_ms: window.train.fromMs, to_ms: window.train.toMs },
        test: { from_ms: window.test.fromMs, to_ms: window.test.toMs },
        strategies: result.steps
          .filter((step) => step.window.index === window.index)
          .map((step) => {
            const strategy = setup.strategies[step.strategy] as WalkforwardStrategy;
            return {
              env: strategy.env,
              strategy: strategy.strategy,
              label: strategy.label,
              cells: strategy.cells.length,
              eligible_cells: step.eligible,
              chosen: { cell: step.chosen, params: strategy.cells[step.chosen], is_choice: step.isChoice, fit: step.fit === undefined ? null : { weights_bps: step.fit.weights, r2_train: step.fit.r2Train, r2_test: Number.isNaN(step.fit.r2Test) ? null : step.fit.r2Test, samples: step.fit.samples } },
              train: step.grid[step.chosen],
              test: step.tests.map((test) => ({ row: test.row, params: test.params, ...test.summary })),
            };
          }),
      })),
      out_of_sample: result.outOfSample.map((row) => ({ strategy: (setup.strategies[row.strategy] as WalkforwardStrategy).label, row: row.row, ...row.figures })),
    },
  };
}

/** `--jsonl`: one line per run, every training cell and every test row. */
export function walkforwardLines(result: WalkforwardResult): string {
  return result.steps
    .flatMap((step) => {
      const strategy = result.setup.strategies[step.strategy] as WalkforwardStrategy;
      const common = { window: step.window.index, env: strategy.env, strategy: strategy.strategy };
      const train = step.grid.map((summary, cell) => ({ ...common, span: 'train', cell, params: strategy.cells[cell], chosen: cell === step.chosen, ...summary }));
      const test = step.tests.map((test) => ({ ...common, span: 'test', row: test.row, params: test.params, ...test.summary }));
      return [...train, ...test];
    })
    .map((line) => `${JSON.stringify(line)}\n`)
    .join('');
}
