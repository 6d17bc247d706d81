/**
 * Parameter sweeps: the grid of values, a pool of worker threads that runs one job at a time each
 * (the caller names the worker: the CLI's `src/cli/backtest-sweep-worker.mjs` runs its plans),
 * and the result table. Results keep the grid's order whatever thread finishes first, so the
 * printed table depends only on the inputs.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { MmError } from '../core/index.ts';
import type { AccountSummary } from './account-summary.ts';
import type { BacktestSummary } from './summary.ts';

/** One axis of a sweep: a key and the values it takes. */
export interface SweepAxis {
  readonly key: string;
  readonly values: readonly string[];
}

/** The deterministic part of a pair's summary. */
export type PairSweepSummary = Omit<BacktestSummary, 'events_per_sec'>;

/** An account sweep's cell: the account's figures (ranked by its PnL) and each pair's summary in `pairs`. */
export type AccountSweepSummary = Omit<AccountSummary, 'events_per_sec' | 'wall_s' | 'pairs'> & { readonly pairs: Readonly<Record<string, PairSweepSummary>> };

/** What a sweep cell returns: a pair's summary, or with several pairs on one account the account's. */
export type SweepSummary = PairSweepSummary | AccountSweepSummary;

/** A sweep job failed; `isUsage` when the job's input was wrong rather than the code. */
export class SweepJobError extends MmError<'BACKTEST_SWEEP_JOB'> {
  constructor(
    message: string,
    readonly isUsage: boolean,
  ) {
    super('BACKTEST_SWEEP_JOB', message);
    this.name = 'SweepJobError';
  }
}

/** The cartesian product of the axes, first axis slowest. */
export function sweepGrid(axes: readonly SweepAxis[]): Record<string, string>[] {
  let cells: Record<string, string>[] = [{}];
  for (const axis of axes) cells = cells.flatMap((cell) => axis.values.map((value) => ({ ...cell, [axis.key]: value })));
  return cells;
}

/** What a worker answers for one job: its result in `summary` (a sweep cell's summary, or what the worker's job returns). */
interface JobAnswer<Result> {
  readonly id: number;
  readonly ok: boolean;
  readonly summary?: Result;
  readonly error?: string;
  readonly usage?: boolean;
}

/** Worker threads a sweep starts by default: one per core the process may use. */
export function defaultWorkers(): number {
  return availableParallelism();
}

/** A slice of a sweep grid: the `index`-th (1-based) of `count`. */
export interface Shard {
  readonly index: number;
  readonly count: number;
}

/**
 * The grid cells (indexes) of one shard: every `count`-th cell starting at `index − 1`. Dealt
 * round-robin rather than in blocks, so each shard gets cells from every part of the grid and
 * the shards take about as long as each other when one axis drives the run time.
 */
export function shardCells(cells: number, shard: Shard): number[] {
  const indexes: number[] = [];
  for (let i = shard.index - 1; i < cells; i += shard.count) indexes.push(i);
  return indexes;
}

/**
 * Runs each job on a pool of `min(threads, jobs)` worker threads started from `entry`; results
 * keep the jobs' order. `onDone` is called after each job. A sweep's worker answers each job with
 * a cell's summary; another driver's worker (walk-forward) with its own `Result`.
 * @throws SweepJobError for the first job that fails.
 */
export async function runOnWorkers<Job, Result = SweepSummary>(entry: URL, jobs: readonly Job[], onDone: () => void, threads = defaultWorkers()): Promise<Result[]> {
  const results: Result[] = new Array<Result>(jobs.length);
  const size = Math.max(1, Math.min(threads, jobs.length));
  let next = 0;
  const workers = Array.from({ length: size }, () => new Worker(entry));
  try {
    await Promise.all(
      workers.map(
        (worker) =>
          new Promise<void>((resolve, reject) => {
            const feed = (): void => {
              if (next >= jobs.length) {
                resolve();
                return;
              }
              const id = next++;
              worker.postMessage({ id, plan: jobs[id] });
            };
            worker.on('message', (answer: JobAnswer<Result>) => {
              if (!answer.ok || answer.summary === undefined) {
                reject(new SweepJobError(answer.usage === true ? (answer.error ?? 'sweep run failed') : `sweep run ${answer.id} failed: ${answer.error ?? 'unknown error'}`, answer.usage === true));
                return;
              }
              results[answer.id] = answer.summary;
              onDone();
              feed();
            });
            worker.on('error', reject);
            feed();
          }),
      ),
    );
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
  return results;
}

/** Columns of the sweep table after the swept keys. */
export const SWEEP_COLUMNS = ['pnl_quote', 'fills', 'maker_fills', 'taker_fills', 'volume_base', 'fees_quote', 'gas_quote', 'max_drawdown_quote', 'sharpe', 'quote_uptime', 'markout_10s_bps'] as const;

/** Scorecard columns shown after {@link SWEEP_COLUMNS} when the summaries carry them (issue 9). */
const SCORECARD_COLUMNS = ['orders_per_fill', 'time_at_touch', 'cap_breaches', 'pnl_spread_quote', 'pnl_inventory_quote'] as const;

/** Columns shown last when the summaries carry them (issue 23, error bars). */
const ERROR_BAR_COLUMNS = ['volume_quote', 'pnl_per_notional_bps'] as const;

/** Columns of an account sweep's table (several pairs): the account's figures. */
const ACCOUNT_COLUMNS = ['pnl_quote', 'fills', 'maker_fills', 'taker_fills', 'fees_quote', 'gas_quote', 'max_drawdown_quote', 'max_open_notional_quote', 'halted'] as const;

/** The columns of a sweep's table: the fixed ones, then the scorecard keys the summaries have (an account sweep: the account's). */
export function sweepColumns(summaries: readonly SweepSummary[]): string[] {
  const first = (summaries[0] ?? {}) as Readonly<Record<string, unknown>>;
  if ('budgets' in first) return [...ACCOUNT_COLUMNS];
  return [...SWEEP_COLUMNS, ...SCORECARD_COLUMNS.filter((key) => key in first), ...ERROR_BAR_COLUMNS.filter((key) => key in first)];
}

/**
 * Figures a sweep may rank by (`--rank-by KEY`), each with the direction that is better; those of
 * a pair's summary with error bars have `KEY_ci95` beside them. An account sweep ranks by its own
 * figures ({@link ACCOUNT_RANK_FIGURES}).
 */
export const RANK_FIGURES: Readonly<Record<string, 'higher' | 'lower'>> = {
  pnl_quote: 'higher',
  pnl_per_notional_bps: 'higher',
  markout_1s_bps: 'higher',
  markout_10s_bps: 'higher',
  markout_60s_bps: 'higher',
  sharpe: 'higher',
  sharpe_hourly: 'higher',
  fills: 'higher',
  volume_base: 'higher',
  volume_quote: 'higher',
  time_at_touch: 'higher',
  two_sided_uptime: 'higher',
  max_drawdown_quote: 'lower',
  max_abs_inventory_base: 'lower',
  inventory_std_base: 'lower',
  fees_quote: 'lower',
  orders_per_fill: 'lower',
};

/** Figures an account sweep (several pairs) may rank by. */
export const ACCOUNT_RANK_FIGURES: readonly string[] = ['pnl_quote', 'fills', 'maker_fills', 'taker_fills', 'fees_quote', 'gas_quote', 'max_drawdown_quote', 'max_open_notional_quote'];

/** What a sweep ranks by by default: PnL, as sweeps always ranked (a per-notional figure favours settings that barely trade). */
export const DEFAULT_RANK_BY = 'pnl_quote';

/**
 * Checks a `--rank-by` key for a sweep of one pair or of an account.
 * @throws RangeError naming the key and the keys allowed.
 */
export function checkRankBy(key: string, isAccount: boolean): string {
  const allowed = isAccount ? ACCOUNT_RANK_FIGURES : Object.keys(RANK_FIGURES);
  if (!allowed.includes(key)) throw new RangeError(`--rank-by ${key} is not a figure ${isAccount ? 'an account sweep' : 'a sweep'} ranks by (allowed: ${allowed.join(', ')})`);
  return key;
}

function figureOf(summary: SweepSummary | undefined, key: string): number | null {
  const value = (summary as Readonly<Record<string, unknown>> | undefined)?.[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** A cell's 95 % interval of `key` (`KEY_ci95`), when its summary has one. */
export function intervalOf(summary: SweepSummary | undefined, key: string): readonly [number, number] | null {
  const value = (summary as Readonly<Record<string, unknown>> | undefined)?.[`${key}_ci95`];
  return Array.isArray(value) && value.length === 2 && value.every((bound) => typeof bound === 'number') ? (value as [number, number]) : null;
}

/**
 * Cell indexes best first by `rankBy` (higher or lower as {@link RANK_FIGURES} says; cells without
 * the figure last); ties keep grid order, so the ranking depends only on the inputs.
 */
export function rankCells(summaries: readonly SweepSummary[], rankBy = DEFAULT_RANK_BY): number[] {
  return rankByValue(
    summaries.map((summary) => figureOf(summary, rankBy)),
    RANK_FIGURES[rankBy] !== 'lower',
  );
}

/** Indexes best first by value, higher or lower better (nulls last); ties keep index order. */
export function rankByValue(values: readonly (number | null)[], isHigherBetter: boolean): number[] {
  const sign = isHigherBetter ? 1 : -1;
  return values
    .map((value, i) => ({ value, i }))
    .sort((a, b) => (a.value === null ? (b.value === null ? 0 : 1) : b.value === null ? -1 : sign * (b.value - a.value)) || a.i - b.i)
    .map(({ i }) => i);
}

/**
 * How a cell's figure stands against the best cell's: `overlaps` when their intervals overlap
 * (the run cannot tell the two apart), `apart` when they do not, '' without intervals.
 */
export function againstBest(best: readonly [number, number] | null, interval: readonly [number, number] | null): 'overlaps' | 'apart' | '' {
  if (best === null || interval === null) return '';
  return interval[0] <= best[1] && best[0] <= interval[1] ? 'overlaps' : 'apart';
}

/** The ranking columns: the figure with its interval, and how it stands against the best cell. */
function rankColumns(summaries: readonly SweepSummary[], order: readonly number[], rankBy: string): { header: string[]; cells: (i: number, rank: number) => string[] } {
  const best = intervalOf(summaries[order[0] as number], rankBy);
  const hasIntervals = summaries.some((summary) => intervalOf(summary, rankBy) !== null);
  if (!hasIntervals) return { header: [], cells: () => [] };
  const text = (i: number): string => {
    const value = figureOf(summaries[i], rankBy);
    const interval = intervalOf(summaries[i], rankBy);
    if (value === null) return '–';
    return interval === null ? String(value) : `${value} [${Number(interval[0].toPrecision(4))}, ${Number(interval[1].toPrecision(4))}]`;
  };
  return {
    header: [`${rankBy} [95 % interval]`, 'vs #1'],
    cells: (i, rank) => [text(i), rank === 0 ? '' : againstBest(best, intervalOf(summaries[i], rankBy))],
  };
}

/**
 * The table, best first by `rankBy` (default `pnl_quote`), the figure's 95 % interval beside it
 * when the summaries carry one, and whether each cell's interval overlaps the best cell's; ties
 * keep grid order, so the same inputs print the same table. Returns the text and the order
 * (indexes into `cells`).
 */
export function formatSweepTable(keys: readonly string[], cells: readonly Readonly<Record<string, string>>[], summaries: readonly SweepSummary[], rankBy = DEFAULT_RANK_BY): { text: string; order: number[] } {
  const order = rankCells(summaries, rankBy);
  const columns = sweepColumns(summaries);
  const ranking = rankColumns(summaries, order, rankBy);
  const value = (i: number, column: string): string => String((summaries[i] as Readonly<Record<string, unknown>> | undefined)?.[column] ?? '–');
  const rows = [['#', ...keys, ...ranking.header, ...columns], ...order.map((i, rank) => [String(rank + 1), ...keys.map((key) => cells[i]?.[key] ?? ''), ...ranking.cells(i, rank), ...columns.map((column) => value(i, column))])];
  return { text: alignColumns(rows), order };
}

/** Rows of text cells as a plain-text table: each column as wide as its widest cell, two spaces apart. */
export function alignColumns(rows: readonly (readonly string[])[]): string {
  const widths = (rows[0] ?? []).map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length)));
  return rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ').trimEnd()).join('\n');
}
