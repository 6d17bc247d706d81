/**
 * `akira-mm walkforward --train FILE… --test FILE… --env FILE [--sweep KEY=v1,v2]… [--env FILE …]`
 * (or `--data FILE… --windows N`): the held-out study as one command. Each training span tunes
 * each strategy on its grid (and `--fit` fits the alpha weights), the settings are frozen, and the
 * test span after it runs them once, with sensitivity rows at other fees, queue models and
 * latencies. Prints the training grids, the settings frozen, the held-out table with 95 %
 * intervals and train against test; `--report`, `--json`, `--jsonl` as `backtest`. Every run is a
 * backtest of the one backtest path, cut to its span by a time window (docs/strategies.md,
 * "Walk-forward").
 */
import { writeFileSync } from 'node:fs';
import { integerFlag, parseFlags, type CommandHelp } from './args.ts';
import { BACKTEST_FLAGS } from './backtest.ts';
import { thinPlanFromFlags } from './backtest-thin.ts';
import { BACKTEST_DEFAULTS } from './backtest-defaults.ts';
import { UsageError, type CliIo, type CommandRunner } from './io.ts';
import { startProgress } from './progress.ts';
import { DEFAULT_MIN_FILLS, DEFAULT_OBJECTIVE, checkObjective, objectiveNames } from '../backtest/walkforward/select.ts';
import { recordingArgs, strategyArgs, type RecordingArgs } from './walkforward-args.ts';
import type { WalkforwardJob, WalkforwardRun } from './walkforward-job.ts';
import type { JobRunner } from './walkforward-run.ts';

const USAGE =
  'akira-mm walkforward --train FILE… --test FILE… [--sweep KEY=v1,v2…]… --env FILE [[--sweep …]… --env FILE]… [--objective KEY] [--min-fills N] [--also KEY=v1,v2]… [--fit] [backtest flags…] [--report out.html] [--json] [--jsonl FILE]\n' +
  '       akira-mm walkforward --data FILE… --windows N [--expanding] … (the same flags)';

const HELP: CommandHelp = {
  usage: USAGE,
  summary:
    'Tunes each strategy on a training span (its --sweep grid, and --fit for the alpha weights), freezes the settings its objective chooses, then runs them once on the test span after it: ' +
    'a held-out study of your own recordings in one command. Prints each training grid, the settings frozen, the held-out table (fills, notional, PnL, PnL per notional, 1 s / 10 s / 60 s markouts, each with its 95 % interval) and train against test.',
  notes: [
    'Spans: --train and --test files are one stream in time order (a test file often continues the training files\' book: Binance\'s collector files have one snapshot, at the start). ' +
      'Replay-format recordings are read as given; Binance collector .gz files are imported together on the fly. The spans are time windows over the whole stream, cut where the test files\' first event is: ' +
      'the book before a span is built, not traded on, so the test span starts with the book as it stood. --windows N instead cuts --data into N + 1 equal parts and tests on each of the last N, tuned on the part before it (or, --expanding, on everything before it); the held-out table then joins the N test spans.',
    'Several strategies: one --env per strategy, each with its own grid: each --env takes the --sweep flags given since the previous --env (with one --env every --sweep is its). ' +
      "A sweep key is an env key the strategy reads, a model flag (queue, latency-ms, seed, maker-pbips, …, a --thin-… flag with --venue thin) or fit-scale (the fitted weights × each value, with --fit). Equal notional is the env files' job (*_ORDER_NOTIONAL): every row prints its notional.",
    `Choice: the training cell with the best --objective (default ${DEFAULT_OBJECTIVE}: what a desk keeps, and what backtest --sweep ranks by) among those with ≥ --min-fills fills (default ${DEFAULT_MIN_FILLS}: a cell that barely trades has a PnL near 0 that beats every cell trading at a small loss); a tie goes to the first cell in grid order. A strategy without --sweep is frozen as its env file says.`,
    'Sensitivity rows: the test span again at the frozen settings with one key changed, one row per value of each --also KEY=v1,v2 (default: queue=risk-averse,power:2,log and latency-ms=25,100,250; a row equal to the frozen settings is not repeated; --also none for none). E.g. --maker-pbips 200 --taker-pbips 1000 --also maker-pbips=0 adds a zero maker fee row.',
    'Every other flag is backtest\'s and applies to every run (akira-mm backtest --help). Not here: --hedge and --reference (a walk-forward replays one market). Same data, flags and seed: the same output. More: docs/strategies.md, "Walk-forward".',
  ],
};

/** Flags of `backtest` that a walk-forward sets itself or does not take. */
const NOT_TAKEN = ['data', 'env', 'sweep', 'shard', 'jsonl', 'rank-by', 'from-share', 'to-share', 'from-time', 'to-time', 'hedge', 'hedge-latency-ms', 'hedge-min-notional', 'reference', 'reference-latency-ms', 'initial-quote', 'report', 'json'] as const;

function withoutFlags<T extends object, K extends string>(flags: T, names: readonly K[]): Omit<T, K> {
  return Object.fromEntries(Object.entries(flags).filter(([name]) => !(names as readonly string[]).includes(name))) as Omit<T, K>;
}

/** The command's flags: its own, then every `backtest` flag it shares. */
export const WALKFORWARD_FLAGS = {
  train: { type: 'string', multiple: true, value: 'FILE', required: 'required unless --windows', doc: 'the recordings the settings are tuned on (replay format, or Binance collector .gz files), in time order' },
  test: { type: 'string', multiple: true, value: 'FILE', required: 'required with --train', doc: 'the recordings that continue them, held out: run once at the frozen settings' },
  data: { type: 'string', multiple: true, value: 'FILE', required: 'required with --windows', doc: 'one long recording (or files continuing one another) to walk forward over in --windows N steps' },
  windows: { type: 'string', value: 'N', default: 'none (--train/--test)', doc: 'cut --data into N + 1 equal parts of time; test on each of the last N, tuned on the part before it' },
  expanding: { type: 'boolean', doc: 'with --windows: tune each test span on everything before it, not on the part just before it' },
  env: { type: 'string', multiple: true, value: 'FILE', required: true, doc: "a pair file: one strategy and its keys (its BASE, QUOTE and account are not used); one --env per strategy" },
  sweep: { type: 'string', multiple: true, value: 'KEY=v1,v2', default: 'none (the env file as it is)', doc: 'the training grid of the --env after it (with one --env: its grid)' },
  objective: { type: 'string', value: 'KEY', default: DEFAULT_OBJECTIVE, doc: `what the training span maximises (${objectiveNames().join(', ')}; KEY_ci95_low is its interval's lower bound; max_drawdown_quote and other costs are minimised)` },
  'min-fills': { type: 'string', value: 'N', default: DEFAULT_MIN_FILLS, doc: 'fewest fills on the training span for a cell to be chosen' },
  also: { type: 'string', multiple: true, value: 'KEY=v1,v2', default: 'queue=risk-averse,power:2,log and latency-ms=25,100,250', doc: 'sensitivity rows: the test span again at the frozen settings with KEY at each value (none: no rows)' },
  fit: { type: 'boolean', doc: "fit the alpha weights (ALPHA_OBI_BPS, ALPHA_OFI_BPS, ALPHA_TRADE_FLOW_BPS) on each training span, as `akira-mm fit`, and freeze them with the settings (the engine clamps them to ALPHA_MAX_BPS)" },
  'fit-horizon': { type: 'string', value: 'DURATION', default: '1s', doc: '--fit: the move predicted (500ms, 1s, 5s)' },
  'fit-sample-ms': { type: 'string', value: 'N', unit: 'ms', default: 100, doc: '--fit: one sample per this much exchange time' },
  'fit-ridge': { type: 'string', value: 'λ', default: 0, doc: '--fit: ridge penalty (0 = least squares)' },
  ...withoutFlags(BACKTEST_FLAGS, NOT_TAKEN),
  report: { type: 'string', value: 'FILE', default: 'none', doc: 'write the HTML report: the tables and every training grid in full' },
  json: { type: 'boolean', doc: 'print the result as one JSON object on the last line ({"walkforward":{…}})' },
  jsonl: { type: 'string', value: 'FILE', default: 'none', doc: 'write one JSON line per run: every training cell and every test row, with its summary' },
} as const;

type Values = ReturnType<typeof parseFlags<typeof WALKFORWARD_FLAGS>>['values'];

function numberFlag(flag: string, text: string | undefined, fallback: number, min: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value < min) throw new UsageError(`--${flag}=${text}: a number ≥ ${min}`);
  return value;
}

/** `--objective`, checked. */
function objectiveFlag(text: string): string {
  try {
    return checkObjective(text);
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

/** Which spans: --train/--test or --data/--windows, checked. */
function spansOf(values: Values, files: RecordingArgs): { readonly kind: 'split'; readonly train: readonly string[]; readonly test: readonly string[] } | { readonly kind: 'rolling' | 'expanding'; readonly data: readonly string[]; readonly count: number } {
  const { train, test, data } = files;
  if (values.windows !== undefined) {
    if (train.length > 0 || test.length > 0) throw new UsageError('--windows walks over --data; --train and --test are the other way to give the spans: use one of them');
    if (data.length === 0) throw new UsageError(`--windows needs --data FILE…\nusage: ${USAGE}`);
    return { kind: values.expanding === true ? 'expanding' : 'rolling', data, count: integerFlag('windows', values.windows, 1, 1, 1_000) };
  }
  if (values.expanding === true) throw new UsageError('--expanding goes with --windows N');
  if (data.length > 0) throw new UsageError('--data goes with --windows N; without it give --train FILE… and --test FILE…');
  if (train.length === 0 || test.length === 0) throw new UsageError(`--train FILE… and --test FILE… are required (or --data FILE… --windows N)\nusage: ${USAGE}`);
  return { kind: 'split', train, test };
}

/** `akira-mm walkforward`. */
export const runWalkforwardCommand: CommandRunner = async (args, io) => {
  const { values } = parseFlags(args, WALKFORWARD_FLAGS, HELP);
  if ((values.env ?? []).length === 0) throw new UsageError(`--env FILE is required\nusage: ${USAGE}`);
  const spans = spansOf(values, recordingArgs(args, WALKFORWARD_FLAGS));
  const objective = objectiveFlag(values.objective ?? DEFAULT_OBJECTIVE);
  const minFills = integerFlag('min-fills', values['min-fills'], DEFAULT_MIN_FILLS, 0, 1_000_000_000);
  const isFitted = values.fit === true;
  for (const flag of ['fit-horizon', 'fit-sample-ms', 'fit-ridge'] as const) {
    if (!isFitted && values[flag] !== undefined) throw new UsageError(`--${flag} goes with --fit`);
  }
  const { venue, thin } = thinPlanFromFlags(values);

  const groups = strategyArgs(args, WALKFORWARD_FLAGS);
  // Loaded only now: `--help` and a usage error cost no engine, strategies or data layer.
  const { sensitivityRows, DEFAULT_ALSO } = await import('./walkforward-plan.ts');
  const rows = sensitivityRows(values.also ?? [...DEFAULT_ALSO]);
  const { parseDuration } = await import('./fit.ts');
  const fit = isFitted
    ? { horizonMs: parseDuration(values['fit-horizon'] ?? '1s', 'fit-horizon'), sampleMs: numberFlag('fit-sample-ms', values['fit-sample-ms'], 100, 0), ridge: numberFlag('fit-ridge', values['fit-ridge'], 0, 0) }
    : undefined;
  const defaultFees = thin === undefined ? BACKTEST_DEFAULTS : (await import('../backtest/thin/index.ts')).LAYERAKIRA_FEES;

  const { splitStream, rollingStream } = await import('./walkforward-stream.ts');
  const warn = (message: string): void => void io.stderr.write(`walkforward: ${message}\n`);
  const stream = spans.kind === 'split' ? await splitStream(spans.train, spans.test, warn) : await rollingStream(spans.data, spans.count, spans.kind, warn);
  try {
    const { buildStrategies } = await import('./walkforward-setup.ts');
    const strategies = buildStrategies(values, groups, { paths: stream.paths, venue: { venue, thin, defaultFees }, isFitted });
    const first = strategies[0];
    if (first === undefined) throw new UsageError('--env FILE is required');
    const setup = {
      mode: stream.mode,
      windows: stream.windows,
      strategies,
      paths: stream.paths,
      objective,
      minFills,
      rows,
      fit,
      bootstrap: { blockMs: first.plan.bootstrapBlockMs ?? BACKTEST_DEFAULTS.bootstrapBlockMs, samples: first.plan.bootstrapSamples ?? BACKTEST_DEFAULTS.bootstrapSamples, seed: first.plan.seed },
    };
    const { runWalkforward } = await import('./walkforward-run.ts');
    const result = await runWalkforward(setup, await jobRunner(io, values));
    const { formatWalkforward, walkforwardJson, walkforwardLines, walkforwardReport } = await import('./walkforward-output.ts');
    const description = {
      title: `akira-mm walkforward: ${strategies.map((strategy) => strategy.label).join(', ')} on ${stream.header.symbol} as ${first.units.base}/${first.units.quote}`,
      context: [...stream.context, ...first.context],
    };
    io.stdout.write(formatWalkforward(result, description));
    if (values.jsonl !== undefined) {
      writeOutput('jsonl', values.jsonl, walkforwardLines(result));
      io.stdout.write(`runs: ${values.jsonl}\n`);
    }
    if (values.report !== undefined) {
      const { renderWalkforwardReportHtml } = await import('../backtest/report/walkforward-html.ts');
      writeOutput('report', values.report, renderWalkforwardReportHtml(walkforwardReport(result, description)));
      io.stdout.write(`report: ${values.report}\n`);
    }
    if (values.json === true) io.stdout.write(`${JSON.stringify(walkforwardJson(result))}\n`);
    return 0;
  } finally {
    stream.dispose();
  }
};

function writeOutput(flag: string, path: string, text: string): void {
  try {
    writeFileSync(path, text);
  } catch (error) {
    throw new UsageError(`--${flag} ${path}: cannot write it (${error instanceof Error ? error.message : String(error)})`);
  }
}

/** The runs on worker threads (`--workers`, one per core by default), each phase with its progress bar on a terminal. */
async function jobRunner(io: CliIo, values: Values): Promise<JobRunner> {
  const { SweepJobError, defaultWorkers, runOnWorkers } = await import('../backtest/sweep.ts');
  const threads = values.workers === undefined ? defaultWorkers() : integerFlag('workers', values.workers, 1, 1, 1024);
  const worker = new URL('./walkforward-worker.mjs', import.meta.url);
  return async (jobs, phase) => {
    const progress = startProgress(io, phase === 'train' ? 'walk-forward: training spans' : 'walk-forward: test spans', 'runs', { enabled: values['no-progress'] !== true, total: jobs.length });
    let done = 0;
    try {
      return await runOnWorkers<WalkforwardJob, WalkforwardRun>(worker, jobs, () => progress?.update(++done, jobs.length), threads);
    } catch (error) {
      if (error instanceof SweepJobError && error.isUsage) throw new UsageError(error.message);
      throw error;
    } finally {
      progress?.stop();
    }
  };
}
