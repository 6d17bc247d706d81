/**
 * `akira-mm backtest --data FILE… --env FILE …`: the pair's env file (validated like `run`), the
 * same strategy and engine, and a replay venue over recorded books. Prints a human summary and,
 * with --json, the summary as one JSON object on the last line (its keys are a contract).
 * `--sweep KEY=v1,v2` (repeatable) runs the grid of env values on worker threads and prints a
 * table, best PnL first. Everything but the measured speed is a function of data, flags and seed.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parse as parseDotenv } from 'dotenv';
import { SingleBar } from 'cli-progress';
import { createRng, getChain, getToken, parseUnits, type TickerRules } from '../core/index.ts';
import { constantLatency } from '../backtest/latency.ts';
import { jitteredLatency } from '../backtest/latency-jitter.ts';
import { parseQueueModel } from '../backtest/queue-model.ts';
import { renderReportHtml } from '../backtest/report-html.ts';
import { runBacktest, type BacktestOptions, type BacktestResult } from '../backtest/run.ts';
import { deterministicPart, formatSummary } from '../backtest/summary.ts';
import { SweepJobError, formatSweepTable, runOnWorkers, sweepGrid, type SweepSummary } from '../backtest/sweep.ts';
import { DataError, createRecordedEventSource, readRecordingHeader, recordingScale, type RecordingHeader } from '../backtest/data/index.ts';
import { parseFlags, integerFlag } from './args.ts';
import { buildStrategy } from './daemon.ts';
import { engineSettingsFromConfig } from './engine-settings.ts';
import { UsageError, type CliIo, type CommandRunner } from './io.ts';
import { validatePairEnv } from './pair-config.ts';

const USAGE =
  'akira-mm backtest --data FILE… --env FILE [--strategy NAME] [--base B --quote Q] [--tick T --lot L] ' +
  '[--queue risk-averse|power:N|log] [--latency-ms N] [--latency-jitter-ms N] [--feed-latency-ms N] [--seed N] ' +
  '[--initial-base X] [--maker-pbips N] [--taker-pbips N] [--gas-price-fri N] [--strk-price X] ' +
  '[--report out.html] [--json] [--sweep KEY=v1,v2,…]…';

/** Every default of the command, in one place (documented in `--help` and docs/data-format.md). */
export const BACKTEST_DEFAULTS = {
  /** Conservative: the queue ahead of us shrinks only by trades (hftbacktest's RiskAdverse). */
  queue: 'risk-averse',
  /** Order entry and response latency each way, ms. */
  latencyMs: 25,
  latencyJitterMs: 0,
  /** Exchange → engine market-data delay, ms. */
  feedLatencyMs: 10,
  seed: 1,
  /** Base tokens held at start; the same value is held in quote. */
  initialBase: '1',
  /** Trade fees in pbips (1000 pbips = 10 bps): set your account's /user/user_info fees. */
  makerPbips: 100,
  takerPbips: 200,
  /** STRK base units per gas step until the recording says otherwise (SPEC §5). */
  gasPriceFri: '50000000000000',
  /** Quote tokens per STRK, to charge gas in quote. */
  strkPrice: '0.15',
} as const;

/** Everything one run needs, serialisable so a sweep can hand it to a worker thread. */
export interface BacktestPlan {
  readonly data: readonly string[];
  readonly envPath: string;
  /** Env keys replaced after reading the file (--base, --quote, --strategy, sweep values). */
  readonly overrides: Readonly<Record<string, string>>;
  readonly tick: string | undefined;
  readonly lot: string | undefined;
  readonly queue: string;
  readonly latencyMs: number;
  readonly latencyJitterMs: number;
  readonly feedLatencyMs: number;
  readonly seed: number;
  readonly initialBase: string;
  readonly makerPbips: number;
  readonly takerPbips: number;
  readonly gasPriceFri: string;
  readonly strkPrice: string;
}

/** A plan checked and built: the options of `runBacktest` and lines describing the run. */
interface PreparedRun {
  readonly options: BacktestOptions;
  readonly context: string[];
  readonly title: string;
}

const DECIMAL = /^\d+(\.\d+)?$/;

function decimalFlag(name: string, value: string): string {
  if (!DECIMAL.test(value) || Number(value) <= 0) throw new UsageError(`--${name}=${value} is not a positive decimal number`);
  return value;
}

/** The pair file with placeholders for the account keys: a backtest never signs or connects. */
function readPairEnv(path: string, overrides: Readonly<Record<string, string>>): ReturnType<typeof validatePairEnv> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`--env ${path}: cannot read it (${error instanceof Error ? error.message : String(error)})`);
  }
  const env: Record<string, string> = { ...parseDotenv(text) };
  for (const key of ['TRADING_ACCOUNT']) if ((env[key] ?? '') === '') env[key] = '0x1';
  // A backtest signs nothing: no signer is required and no key, keystore or password file is read.
  return validatePairEnv({ ...env, ...overrides }, path, { requireSigner: false });
}

function stepUnits(flag: string, text: string, decimals: number, token: string): bigint {
  let units: bigint;
  try {
    units = parseUnits(text, decimals);
  } catch {
    throw new UsageError(`--${flag}=${text} has more decimals than ${token} (${decimals})`);
  }
  if (units <= 0n) throw new UsageError(`--${flag}=${text} must be positive`);
  return units;
}

function readHeaders(paths: readonly string[]): RecordingHeader[] {
  return paths.map((path) => {
    try {
      return readRecordingHeader(path);
    } catch (error) {
      if (error instanceof DataError) throw new UsageError(`--data ${error.message}`);
      throw error;
    }
  });
}

/**
 * Checks a plan and builds the run.
 * @throws UsageError naming the flag or env key that is wrong.
 */
export function prepareRun(plan: BacktestPlan, onProgress?: (done: number, total: number) => void): PreparedRun {
  const headers = readHeaders(plan.data);
  const first = headers[0] as RecordingHeader;
  const config = readPairEnv(plan.envPath, plan.overrides);
  const chain = getChain(config.chain);
  const base = getToken(chain, config.base);
  const quote = getToken(chain, config.quote);
  const tick = plan.tick ?? first.tick;
  const lot = plan.lot ?? first.lot;
  if (tick === '0' || lot === '0') throw new UsageError(`--data ${plan.data[0]}: the recording has no prices to infer the tick and lot from; give --tick and --lot`);
  const rules: TickerRules = {
    base: config.base,
    quote: config.quote,
    isEcosystemBook: config.ecosystemBook,
    priceTick: stepUnits(plan.tick === undefined ? 'tick (inferred from the recording)' : 'tick', tick, quote.decimals, quote.symbol),
    qtyStep: stepUnits(plan.lot === undefined ? 'lot (inferred from the recording)' : 'lot', lot, base.decimals, base.symbol),
    minQty: 0n,
    baseDecimals: base.decimals,
    quoteDecimals: quote.decimals,
  };
  const fitted = { ...rules, minQty: rules.qtyStep };
  headers.forEach((header, i) => {
    try {
      recordingScale(header, fitted, plan.data[i] as string);
    } catch (error) {
      if (!(error instanceof DataError)) throw error;
      const flag = error.message.includes('tick') ? '--tick' : '--lot';
      throw new UsageError(`${flag}: ${error.message}; use a step that divides the recording's`);
    }
  });
  const queue = parseQueueModel(plan.queue);
  if (queue === undefined) throw new UsageError(`--queue=${plan.queue} is not a queue model (risk-averse, power:N with 0 < N ≤ 10, or log)`);
  const strategy = buildStrategy(config);
  const settings = engineSettingsFromConfig(config.engine, { baseDecimals: base.decimals, quoteDecimals: quote.decimals });
  const rng = createRng(plan.seed);
  const options: BacktestOptions = {
    source: createRecordedEventSource(plan.data, fitted, onProgress === undefined ? {} : { onProgress }),
    strategy,
    settings,
    initialBase: Number(plan.initialBase),
    venue: {
      rules: fitted,
      makerFeePbips: plan.makerPbips,
      takerFeePbips: plan.takerPbips,
      steps: { trade: config.ecosystemBook ? 150 : 250, cancel: 0, nonce: 100, withdraw: 150 },
      gasPriceUnits: BigInt(plan.gasPriceFri),
      quotePerStrk: Number(plan.strkPrice),
      latency: jitteredLatency(constantLatency(plan.latencyMs), plan.latencyJitterMs, rng.fork('latency')),
      feedLatencyMs: plan.feedLatencyMs,
      queue,
    },
  };
  const context = [
    `data: ${plan.data.join(', ')} (${first.symbol}, ${first.source})`,
    `pair: ${config.base}/${config.quote}, tick ${tick}, lot ${lot}`,
    `strategy: ${config.strategy} (${plan.envPath})`,
    `queue: ${queue.name}; latency ${plan.latencyMs} ms each way (+ up to ${plan.latencyJitterMs} ms, seed ${plan.seed}); feed ${plan.feedLatencyMs} ms`,
    `fees: maker ${plan.makerPbips} / taker ${plan.takerPbips} pbips; gas ${plan.gasPriceFri} fri/step at ${plan.strkPrice} ${config.quote}/STRK`,
    ...Object.entries(plan.overrides)
      .filter(([key]) => !['BASE', 'QUOTE', 'STRATEGY'].includes(key))
      .map(([key, value]) => `sweep: ${key}=${value}`),
  ];
  return { options, context, title: `akira-mm backtest: ${config.strategy} on ${first.symbol} as ${config.base}/${config.quote}` };
}

/** Runs a prepared backtest, turning data errors into usage errors (the input is wrong). */
async function execute(prepared: PreparedRun): Promise<BacktestResult> {
  try {
    return await runBacktest(prepared.options);
  } catch (error) {
    if (error instanceof DataError) throw new UsageError(`--data ${error.message}`);
    throw error;
  }
}

/** One sweep cell, run in a worker thread: the summary without the wall-clock speed. */
export async function runSweepJob(plan: BacktestPlan): Promise<SweepSummary> {
  return deterministicPart((await execute(prepareRun(plan))).summary);
}

/** The worker entry: registers tsx, then runs {@link runSweepJob} for each plan it is sent. */
const SWEEP_WORKER = new URL('../backtest/sweep-worker.mjs', import.meta.url);

/** Flags a sweep may vary besides env keys: the fill and cost models. */
const SWEEPABLE_FLAGS = ['queue', 'latency-ms', 'latency-jitter-ms', 'feed-latency-ms', 'seed', 'maker-pbips', 'taker-pbips'] as const;
type SweepableFlag = (typeof SWEEPABLE_FLAGS)[number];
const isSweepableFlag = (key: string): key is SweepableFlag => (SWEEPABLE_FLAGS as readonly string[]).includes(key);

/** Parses `KEY=v1,v2,…`: an env key (upper case) or one of {@link SWEEPABLE_FLAGS}. */
function parseSweep(text: string): { key: string; values: string[] } {
  const match = /^([A-Z][A-Z0-9_]*|[a-z][a-z-]*)=(.+)$/.exec(text);
  if (match === null || (/^[a-z]/.test(match[1] as string) && !isSweepableFlag(match[1] as string))) {
    throw new UsageError(`--sweep ${text}: expected KEY=v1,v2,… with an env key (e.g. LADDER_BID_SPREAD_BPS=5,10,20) or one of ${SWEEPABLE_FLAGS.join(', ')}`);
  }
  const values = (match[2] as string).split(',').map((value) => value.trim());
  if (values.some((value) => value === '')) throw new UsageError(`--sweep ${text}: empty value in the list`);
  return { key: match[1] as string, values };
}

/** The plan of one sweep cell: env keys become overrides, flags replace the plan's fields. */
function planForCell(plan: BacktestPlan, cell: Readonly<Record<string, string>>): BacktestPlan {
  let result: BacktestPlan = { ...plan, overrides: { ...plan.overrides } };
  for (const [key, value] of Object.entries(cell)) {
    if (!isSweepableFlag(key)) {
      result = { ...result, overrides: { ...result.overrides, [key]: value } };
      continue;
    }
    const limits = key === 'seed' ? [0, 2 ** 31 - 1] : key.endsWith('pbips') ? [0, 1_000_000] : [0, 60_000];
    const number = key === 'queue' ? 0 : integerFlag(key, value, 0, limits[0] as number, limits[1] as number);
    if (key === 'queue') result = { ...result, queue: value };
    else if (key === 'latency-ms') result = { ...result, latencyMs: number };
    else if (key === 'latency-jitter-ms') result = { ...result, latencyJitterMs: number };
    else if (key === 'feed-latency-ms') result = { ...result, feedLatencyMs: number };
    else if (key === 'seed') result = { ...result, seed: number };
    else if (key === 'maker-pbips') result = { ...result, makerPbips: number };
    else result = { ...result, takerPbips: number };
  }
  return result;
}

function startProgress(io: CliIo, label: string): { update(done: number, total: number): void; stop(): void } | undefined {
  const stderr = io.stderr as { isTTY?: boolean };
  if (stderr.isTTY !== true) return undefined;
  const bar = new SingleBar({ stream: io.stderr as NodeJS.WritableStream, format: `${label} [{bar}] {percentage}% {value}/{total} {unit}`, hideCursor: true, clearOnComplete: true });
  let started = false;
  return {
    update(done, total) {
      if (!started) {
        bar.start(total, 0, { unit: label === 'sweep' ? 'runs' : 'records' });
        started = true;
      }
      bar.update(done);
    },
    stop() {
      if (started) bar.stop();
    },
  };
}

/** `akira-mm backtest`. */
export const runBacktestCommand: CommandRunner = async (args, io) => {
  const { values, positionals } = parseFlags(
    args,
    {
      data: { type: 'string', multiple: true },
      env: { type: 'string' },
      strategy: { type: 'string' },
      base: { type: 'string' },
      quote: { type: 'string' },
      tick: { type: 'string' },
      lot: { type: 'string' },
      queue: { type: 'string' },
      'latency-ms': { type: 'string' },
      'latency-jitter-ms': { type: 'string' },
      'feed-latency-ms': { type: 'string' },
      seed: { type: 'string' },
      'initial-base': { type: 'string' },
      'maker-pbips': { type: 'string' },
      'taker-pbips': { type: 'string' },
      'gas-price-fri': { type: 'string' },
      'strk-price': { type: 'string' },
      report: { type: 'string' },
      json: { type: 'boolean' },
      sweep: { type: 'string', multiple: true },
    },
    USAGE,
  );
  // `--data a b c`: parseArgs gives the extra files as positionals.
  const data = [...(values.data ?? []), ...positionals];
  if (data.length === 0) throw new UsageError(`--data FILE is required\nusage: ${USAGE}`);
  if (values.env === undefined) throw new UsageError(`--env FILE is required\nusage: ${USAGE}`);
  const overrides: Record<string, string> = {};
  if (values.base !== undefined) overrides['BASE'] = values.base;
  if (values.quote !== undefined) overrides['QUOTE'] = values.quote;
  if (values.strategy !== undefined) overrides['STRATEGY'] = values.strategy;
  const gasPriceFri = values['gas-price-fri'] ?? BACKTEST_DEFAULTS.gasPriceFri;
  if (!/^\d{1,30}$/.test(gasPriceFri)) throw new UsageError(`--gas-price-fri=${gasPriceFri} is not a whole number of fri per gas step`);
  const plan: BacktestPlan = {
    data,
    envPath: values.env,
    overrides,
    tick: values.tick === undefined ? undefined : decimalFlag('tick', values.tick),
    lot: values.lot === undefined ? undefined : decimalFlag('lot', values.lot),
    queue: values.queue ?? BACKTEST_DEFAULTS.queue,
    latencyMs: integerFlag('latency-ms', values['latency-ms'], BACKTEST_DEFAULTS.latencyMs, 0, 60_000),
    latencyJitterMs: integerFlag('latency-jitter-ms', values['latency-jitter-ms'], BACKTEST_DEFAULTS.latencyJitterMs, 0, 60_000),
    feedLatencyMs: integerFlag('feed-latency-ms', values['feed-latency-ms'], BACKTEST_DEFAULTS.feedLatencyMs, 0, 60_000),
    seed: integerFlag('seed', values.seed, BACKTEST_DEFAULTS.seed, 0, 2 ** 31 - 1),
    initialBase: decimalFlag('initial-base', values['initial-base'] ?? BACKTEST_DEFAULTS.initialBase),
    makerPbips: integerFlag('maker-pbips', values['maker-pbips'], BACKTEST_DEFAULTS.makerPbips, 0, 1_000_000),
    takerPbips: integerFlag('taker-pbips', values['taker-pbips'], BACKTEST_DEFAULTS.takerPbips, 0, 1_000_000),
    gasPriceFri,
    strkPrice: decimalFlag('strk-price', values['strk-price'] ?? BACKTEST_DEFAULTS.strkPrice),
  };

  if (values.sweep !== undefined && values.sweep.length > 0) {
    if (values.report !== undefined) throw new UsageError('--report and --sweep do not go together: report the best cell with a plain run');
    const axes = values.sweep.map(parseSweep);
    const seen = new Set<string>();
    for (const axis of axes) {
      if (seen.has(axis.key)) throw new UsageError(`--sweep ${axis.key} is given twice`);
      seen.add(axis.key);
    }
    const cells = sweepGrid(axes);
    // Every cell is checked here first, so a bad value fails in one second, not after a worker ran.
    const plans = cells.map((cell) => {
      try {
        const cellPlan = planForCell(plan, cell);
        prepareRun(cellPlan);
        return cellPlan;
      } catch (error) {
        if (error instanceof UsageError) throw new UsageError(`--sweep ${Object.entries(cell).map(([k, v]) => `${k}=${v}`).join(' ')}: ${error.message}`);
        throw error;
      }
    });
    const progress = startProgress(io, 'sweep');
    let done = 0;
    let summaries: SweepSummary[];
    try {
      summaries = await runOnWorkers(SWEEP_WORKER, plans, () => progress?.update(++done, plans.length));
    } catch (error) {
      if (error instanceof SweepJobError && error.isUsage) throw new UsageError(error.message);
      throw error;
    } finally {
      progress?.stop();
    }
    const table = formatSweepTable(axes.map((axis) => axis.key), cells, summaries);
    io.stdout.write(`${table.text}\n`);
    if (values.json === true) {
      io.stdout.write(`${JSON.stringify({ sweep: table.order.map((i) => ({ params: cells[i], ...summaries[i] })) })}\n`);
    }
    return 0;
  }

  const progress = startProgress(io, 'replay');
  const prepared = prepareRun(plan, progress === undefined ? undefined : (done, total) => progress.update(done, total));
  let result: BacktestResult;
  try {
    result = await execute(prepared);
  } finally {
    progress?.stop();
  }
  io.stdout.write(`${prepared.title}\n${prepared.context.map((line) => `  ${line}`).join('\n')}\n\n${formatSummary(result.summary)}\n`);
  if (values.report !== undefined) {
    const html = renderReportHtml({ title: prepared.title, summary: result.summary, samples: result.samples, fills: result.fills, context: prepared.context });
    try {
      writeFileSync(values.report, html);
    } catch (error) {
      throw new UsageError(`--report ${values.report}: cannot write it (${error instanceof Error ? error.message : String(error)})`);
    }
    io.stdout.write(`report: ${values.report}\n`);
  }
  if (values.json === true) io.stdout.write(`${JSON.stringify(result.summary)}\n`);
  return 0;
};
