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

/** What a worker answers for one job. */
interface JobAnswer {
  readonly id: number;
  readonly ok: boolean;
  readonly summary?: SweepSummary;
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
 * keep the jobs' order. `onDone` is called after each job.
 * @throws SweepJobError for the first job that fails.
 */
export async function runOnWorkers<Job>(entry: URL, jobs: readonly Job[], onDone: () => void, threads = defaultWorkers()): Promise<SweepSummary[]> {
  const results: SweepSummary[] = new Array<SweepSummary>(jobs.length);
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
            worker.on('message', (answer: JobAnswer) => {
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

/** Columns of an account sweep's table (several pairs): the account's figures. */
const ACCOUNT_COLUMNS = ['pnl_quote', 'fills', 'maker_fills', 'taker_fills', 'fees_quote', 'gas_quote', 'max_drawdown_quote', 'max_open_notional_quote', 'halted'] as const;

/** The columns of a sweep's table: the fixed ones, then the scorecard keys the summaries have (an account sweep: the account's). */
export function sweepColumns(summaries: readonly SweepSummary[]): string[] {
  const first = (summaries[0] ?? {}) as Readonly<Record<string, unknown>>;
  if ('budgets' in first) return [...ACCOUNT_COLUMNS];
  return [...SWEEP_COLUMNS, ...SCORECARD_COLUMNS.filter((key) => key in first)];
}

/** Cell indexes best `pnl_quote` first; ties keep grid order, so the ranking depends only on the inputs. */
export function rankCells(summaries: readonly SweepSummary[]): number[] {
  return summaries.map((summary, i) => ({ pnl: summary.pnl_quote, i })).sort((a, b) => b.pnl - a.pnl || a.i - b.i).map(({ i }) => i);
}

/**
 * The table, best `pnl_quote` first; ties keep grid order, so the same inputs print the same table.
 * Returns the text and the order (indexes into `cells`).
 */
export function formatSweepTable(keys: readonly string[], cells: readonly Readonly<Record<string, string>>[], summaries: readonly SweepSummary[]): { text: string; order: number[] } {
  const order = rankCells(summaries);
  const columns = sweepColumns(summaries);
  const value = (i: number, column: string): string => String((summaries[i] as Readonly<Record<string, unknown>> | undefined)?.[column] ?? '–');
  const rows = [['#', ...keys, ...columns], ...order.map((i, rank) => [String(rank + 1), ...keys.map((key) => cells[i]?.[key] ?? ''), ...columns.map((column) => value(i, column))])];
  const widths = (rows[0] ?? []).map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length)));
  return { text: rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ').trimEnd()).join('\n'), order };
}
