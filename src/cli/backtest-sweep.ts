/**
 * `akira-mm backtest … --sweep KEY=v1,v2` and `akira-mm backtest merge FILES…`: the grid of
 * values run on worker threads (every core by default), optionally one shard of it (`--shard K/N`,
 * for a Kubernetes Indexed Job or any other way of spreading work over machines), printed as a
 * ranked table, written as JSON lines (`--jsonl`) and as an HTML report with heatmaps. `merge`
 * joins shards' JSON lines and prints exactly what the unsharded sweep prints. With several pairs
 * on one account each value applies to every pair, and the cells rank by the account's PnL.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { renderSweepReportHtml } from '../backtest/report/sweep-html.ts';
import { SweepMergeError, formatResultLines, mergeSweepResults } from '../backtest/sweep-results.ts';
import { DEFAULT_RANK_BY, SweepJobError, checkRankBy, defaultWorkers, formatSweepTable, runOnWorkers, shardCells, sweepGrid, type Shard, type SweepAxis, type SweepSummary } from '../backtest/sweep.ts';
import { integerFlag, parseFlags, type CommandHelp } from './args.ts';
import { planFingerprint, prepareAccount, type AccountPlan, type BacktestPlan } from './backtest-plan.ts';
import { isThinFlag, THIN_FLAG_NAMES, withThinFlag } from './thin-flags.ts';
import { startProgress } from './progress.ts';
import { UsageError, type CliIo } from './io.ts';

/** The worker entry: registers tsx, then runs `runSweepJob` for each plan it is sent. */
const SWEEP_WORKER = new URL('./backtest-sweep-worker.mjs', import.meta.url);

/** Flags a sweep may vary besides env keys: the fill and cost models. */
const SWEEPABLE_FLAGS = ['queue', 'latency-ms', 'latency-jitter-ms', 'feed-latency-ms', 'seed', 'maker-pbips', 'taker-pbips', 'reference-latency-ms'] as const;
type SweepableFlag = (typeof SWEEPABLE_FLAGS)[number];
const isSweepableFlag = (key: string): key is SweepableFlag => (SWEEPABLE_FLAGS as readonly string[]).includes(key);

/** Parses `KEY=v1,v2,…`: an env key (upper case), one of {@link SWEEPABLE_FLAGS} or a thin-venue flag. */
export function parseSweep(text: string): SweepAxis {
  const match = /^([A-Z][A-Z0-9_]*|[a-z][a-z-]*)=(.+)$/.exec(text);
  if (match === null || (/^[a-z]/.test(match[1] as string) && !isSweepableFlag(match[1] as string) && !isThinFlag(match[1] as string))) {
    throw new UsageError(`--sweep ${text}: expected KEY=v1,v2,… with an env key (e.g. LADDER_BID_SPREAD_BPS=5,10,20) or one of ${[...SWEEPABLE_FLAGS, ...THIN_FLAG_NAMES].join(', ')}`);
  }
  const values = (match[2] as string).split(',').map((value) => value.trim());
  if (values.some((value) => value === '')) throw new UsageError(`--sweep ${text}: empty value in the list`);
  if (new Set(values).size !== values.length) throw new UsageError(`--sweep ${text}: a value is listed twice`);
  return { key: match[1] as string, values };
}

/** Parses `K/N` (1 ≤ K ≤ N). */
export function parseShard(text: string): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(text);
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (match === null || count < 1 || index < 1 || index > count || count > 100_000) {
    throw new UsageError(`--shard ${text}: expected K/N with 1 ≤ K ≤ N (e.g. 2/8 runs the second of eight slices of the grid)`);
  }
  return { index, count };
}

/** The plan of one sweep cell: each value applies to every pair. */
function accountPlanForCell(plan: AccountPlan, cell: Readonly<Record<string, string>>): AccountPlan {
  return { ...plan, pairs: plan.pairs.map((pair) => planForCell(pair, cell)) };
}

/**
 * A pair's plan in one sweep cell: env keys become overrides, flags replace the plan's fields
 * (a walk-forward's cells and sensitivity rows too).
 * @throws UsageError for a value out of range or a thin-venue flag without --venue thin.
 */
export function planForCell(plan: BacktestPlan, cell: Readonly<Record<string, string>>): BacktestPlan {
  let result: BacktestPlan = { ...plan, overrides: { ...plan.overrides } };
  for (const [key, value] of Object.entries(cell)) {
    if (isThinFlag(key)) {
      if (result.thin === undefined) throw new UsageError(`--${key} applies to --venue thin only`);
      result = { ...result, thin: withThinFlag(result.thin, key, value) };
      continue;
    }
    if (!isSweepableFlag(key)) {
      result = { ...result, overrides: { ...result.overrides, [key]: value } };
      continue;
    }
    const limits = key === 'seed' ? [0, 2 ** 31 - 1] : key === 'maker-pbips' ? [-1_000_000, 1_000_000] : key.endsWith('pbips') ? [0, 1_000_000] : [0, 60_000];
    const number = key === 'queue' ? 0 : integerFlag(key, value, 0, limits[0] as number, limits[1] as number);
    if (key === 'queue') result = { ...result, queue: value };
    else if (key === 'latency-ms') result = { ...result, latencyMs: number };
    else if (key === 'latency-jitter-ms') result = { ...result, latencyJitterMs: number };
    else if (key === 'feed-latency-ms') result = { ...result, feedLatencyMs: number };
    else if (key === 'reference-latency-ms') result = { ...result, referenceLatencyMs: number };
    else if (key === 'seed') result = { ...result, seed: number };
    else if (key === 'maker-pbips') result = { ...result, makerPbips: number };
    else result = { ...result, takerPbips: number };
  }
  // A maker rebate beyond the taker fee is no venue's: checked once both fees of the cell are known.
  if (result.makerPbips < -result.takerPbips) throw new UsageError(`--sweep maker-pbips=${result.makerPbips}: a rebate is at most the taker fee (allowed ≥ −${result.takerPbips})`);
  return result;
}

/** Where a sweep's results go besides the table on stdout. */
export interface SweepOutputs {
  readonly json: boolean;
  /** The figure cells rank by (`--rank-by`); default `pnl_quote`. */
  readonly rankBy?: string | undefined;
  readonly jsonl: string | undefined;
  readonly report: string | undefined;
}

function writeOutput(flag: string, path: string, text: string): void {
  try {
    writeFileSync(path, text);
  } catch (error) {
    throw new UsageError(`--${flag} ${path}: cannot write it (${error instanceof Error ? error.message : String(error)})`);
  }
}

/**
 * Prints a sweep (or the cells of one shard): the ranked table, `--json`'s last line, the JSON
 * lines and the HTML report. A merged sweep goes through here too, so it prints the same bytes.
 */
function emitSweep(
  io: CliIo,
  sweep: { readonly sweepId: string; readonly axes: readonly SweepAxis[]; readonly cells: readonly Readonly<Record<string, string>>[]; readonly total: number; readonly indexes: readonly number[]; readonly summaries: readonly SweepSummary[] },
  outputs: SweepOutputs,
  describe: { readonly title: string; readonly context: readonly string[] },
): void {
  const cells = sweep.indexes.map((i) => sweep.cells[i] as Readonly<Record<string, string>>);
  const keys = sweep.axes.map((axis) => axis.key);
  const rankBy = outputs.rankBy ?? DEFAULT_RANK_BY;
  const table = formatSweepTable(keys, cells, sweep.summaries, rankBy);
  io.stdout.write(`${table.text}\n`);
  if (outputs.jsonl !== undefined) {
    writeOutput('jsonl', outputs.jsonl, formatResultLines(sweep.sweepId, sweep.total, sweep.indexes, sweep.cells, sweep.summaries));
    io.stdout.write(`results: ${outputs.jsonl} (${sweep.indexes.length} of ${sweep.total} cells)\n`);
  }
  if (outputs.report !== undefined) {
    writeOutput('report', outputs.report, renderSweepReportHtml({ title: describe.title, context: describe.context, axes: sweep.axes, cells, summaries: sweep.summaries, rankBy }));
    io.stdout.write(`report: ${outputs.report}\n`);
  }
  if (outputs.json) io.stdout.write(`${JSON.stringify({ sweep: table.order.map((i) => ({ params: cells[i], ...sweep.summaries[i] })), rank_by: rankBy })}\n`);
}

/** Runs a sweep (or one shard of it) on worker threads and prints it. */
export async function runSweep(
  io: CliIo,
  plan: AccountPlan,
  sweepTexts: readonly string[],
  options: SweepOutputs & { readonly shard: Shard | undefined; readonly workers: number | undefined; /** False: no progress bar (`--no-progress`); default true. */ readonly progress?: boolean },
): Promise<number> {
  const axes = sweepTexts.map(parseSweep);
  if (options.rankBy !== undefined) rankByFlag(options.rankBy, plan.pairs.length > 1);
  const seen = new Set<string>();
  for (const axis of axes) {
    if (seen.has(axis.key)) throw new UsageError(`--sweep ${axis.key} is given twice`);
    seen.add(axis.key);
  }
  const grid = sweepGrid(axes);
  const indexes = options.shard === undefined ? grid.map((_, i) => i) : shardCells(grid.length, options.shard);
  // Every cell of the grid is checked first, so a bad value fails in a second on every shard alike.
  const checked = grid.map((cell) => {
    try {
      const cellPlan = accountPlanForCell(plan, cell);
      return { plan: cellPlan, prepared: prepareAccount(cellPlan) };
    } catch (error) {
      if (error instanceof UsageError) throw new UsageError(`--sweep ${Object.entries(cell).map(([k, v]) => `${k}=${v}`).join(' ')}: ${error.message}`);
      throw error;
    }
  });
  const plans = checked.map((cell) => cell.plan);
  const described = describeAccount((checked[0] as (typeof checked)[number]).prepared.runs);
  const jobs = indexes.map((i) => plans[i] as AccountPlan);
  // Cells done of the cells to run, from the start: the first cells take a whole run each.
  const progress = startProgress(io, 'sweep', 'cells', { enabled: options.progress !== false, total: jobs.length, etaUpdates: Math.max(20, jobs.length) });
  let done = 0;
  let summaries: SweepSummary[];
  try {
    summaries = await runOnWorkers(SWEEP_WORKER, jobs, () => progress?.update(++done, jobs.length), options.workers ?? defaultWorkers());
  } catch (error) {
    if (error instanceof SweepJobError && error.isUsage) throw new UsageError(error.message);
    throw error;
  } finally {
    progress?.stop();
  }
  const shardText = options.shard === undefined ? '' : ` (shard ${options.shard.index}/${options.shard.count}: ${indexes.length} of ${grid.length} cells)`;
  emitSweep(io, { sweepId: planFingerprint(plan, axes), axes, cells: grid, total: grid.length, indexes, summaries }, options, {
    title: `akira-mm backtest sweep${shardText}: ${described.title.replace('akira-mm backtest: ', '')}`,
    // The first cell's context, less the lines of its swept values: the axes say those.
    context: [...described.context.filter((line) => !axes.some((axis) => line.startsWith(`set: ${axis.key}=`))), ...axes.map((axis) => `sweep: ${axis.key} = ${axis.values.join(', ')}`)],
  });
  return 0;
}

/** A sweep's title and context: its pair's, or with several pairs each pair's context lines under its name. */
function describeAccount(runs: readonly { readonly title: string; readonly context: readonly string[]; readonly market: { readonly base: string; readonly quote: string } }[]): { readonly title: string; readonly context: readonly string[] } {
  const [first] = runs;
  if (first === undefined) throw new Error('a sweep needs a pair');
  if (runs.length === 1) return first;
  const names = runs.map((run) => `${run.market.base}/${run.market.quote}`);
  return { title: `akira-mm backtest: ${names.length} pairs on one account (${names.join(', ')})`, context: runs.flatMap((run, i) => run.context.map((line) => `${names[i] ?? ''}: ${line}`)) };
}

/** Checks `--rank-by` as a usage error. */
function rankByFlag(key: string, isAccount: boolean): string {
  try {
    return checkRankBy(key, isAccount);
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

const MERGE_HELP: CommandHelp = {
  usage: 'akira-mm backtest merge FILES… [--json] [--jsonl FILE] [--report out.html]',
  summary:
    "Joins the JSON lines of a sweep's shards (`backtest … --sweep … --shard K/N --jsonl FILE`) into the whole sweep and prints exactly what the sweep run in one go prints: the ranked table, and with --json the same last line. Refuses files of different sweeps, missing cells and cells that disagree.",
};

export const MERGE_OPTIONS = {
  json: { type: 'boolean', doc: 'print {"sweep":[…]} as the last line, best PnL first' },
  'rank-by': { type: 'string', value: 'KEY', default: DEFAULT_RANK_BY, doc: 'rank the cells by this figure (best first), with its 95 % interval beside it' },
  jsonl: { type: 'string', value: 'FILE', doc: 'write the merged JSON lines (one per cell, grid order)' },
  report: { type: 'string', value: 'FILE', doc: 'write the HTML report: ranked table and heatmaps' },
} as const;

/** `akira-mm backtest merge FILES…`. */
export async function runMerge(args: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseFlags(args, MERGE_OPTIONS, MERGE_HELP);
  if (positionals.length === 0) throw new UsageError(`no result FILES given\nusage: ${MERGE_HELP.usage}`);
  const files = positionals.map((name) => {
    try {
      return { name, text: readFileSync(name, 'utf8') };
    } catch (error) {
      throw new UsageError(`${name}: cannot read it (${error instanceof Error ? error.message : String(error)})`);
    }
  });
  let merged: ReturnType<typeof mergeSweepResults>;
  try {
    merged = mergeSweepResults(files);
  } catch (error) {
    if (error instanceof SweepMergeError) throw new UsageError(error.message);
    throw error;
  }
  const indexes = merged.cells.map((_, i) => i);
  const rankBy = values['rank-by'] === undefined ? undefined : rankByFlag(values['rank-by'], merged.summaries.some((summary) => 'budgets' in summary));
  emitSweep(
    io,
    { sweepId: merged.sweepId, axes: merged.axes, cells: merged.cells, total: merged.cells.length, indexes, summaries: merged.summaries },
    { json: values.json === true, jsonl: values.jsonl, report: values.report, rankBy },
    { title: `akira-mm backtest sweep ${merged.sweepId}: ${merged.cells.length} cells merged from ${files.length} files`, context: [...files.map((file) => `results: ${file.name}`), ...merged.axes.map((axis) => `sweep: ${axis.key} = ${axis.values.join(', ')}`)] },
  );
  return 0;
}
