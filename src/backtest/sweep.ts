/**
 * Parameter sweeps: the grid of values, a pool of worker threads that runs one job at a time each
 * (`sweep-worker.mjs`), and the result table. Results keep the grid's order whatever thread
 * finishes first, so the printed table depends only on the inputs.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { MmError } from '../core/index.ts';
import type { BacktestSummary } from './summary.ts';

/** One axis of a sweep: a key and the values it takes. */
export interface SweepAxis {
  readonly key: string;
  readonly values: readonly string[];
}

/** The deterministic part of a summary: what a sweep cell returns. */
export type SweepSummary = Omit<BacktestSummary, 'events_per_sec'>;

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

/**
 * Runs each job on a pool of `min(cores, jobs)` worker threads started from `entry`; results keep
 * the jobs' order. `onDone` is called after each job.
 * @throws SweepJobError for the first job that fails.
 */
export async function runOnWorkers<Job>(entry: URL, jobs: readonly Job[], onDone: () => void): Promise<SweepSummary[]> {
  const results: SweepSummary[] = new Array<SweepSummary>(jobs.length);
  const size = Math.max(1, Math.min(availableParallelism(), jobs.length));
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

/**
 * The table, best `pnl_quote` first; ties keep grid order, so the same inputs print the same table.
 * Returns the text and the order (indexes into `cells`).
 */
export function formatSweepTable(keys: readonly string[], cells: readonly Readonly<Record<string, string>>[], summaries: readonly SweepSummary[]): { text: string; order: number[] } {
  const order = summaries.map((summary, i) => ({ pnl: summary.pnl_quote, i })).sort((a, b) => b.pnl - a.pnl || a.i - b.i).map(({ i }) => i);
  const rows = [
    ['#', ...keys, ...SWEEP_COLUMNS],
    ...order.map((i, rank) => [String(rank + 1), ...keys.map((key) => cells[i]?.[key] ?? ''), ...SWEEP_COLUMNS.map((column) => String(summaries[i]?.[column] ?? '–'))]),
  ];
  const widths = (rows[0] ?? []).map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length)));
  return { text: rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ').trimEnd()).join('\n'), order };
}
