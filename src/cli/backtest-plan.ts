/**
 * One backtest run of N ≥ 1 pairs on one account, from flags to the options of `runBacktest`.
 * Each pair's market (base, quote, their decimals, tick and lot) comes from its recording,
 * overridable by flags: a recording of any market backtests, and the venue's token table applies
 * only to live and paper runs. Each pair's env file gives its strategy and engine keys. A plan is
 * plain data, so a sweep can hand it to a worker thread.
 */
import { readFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { createHash } from 'node:crypto';
import { parse as parseDotenv } from 'dotenv';
import { ENGINE_KEYS, HEDGE_KEYS, MmError, createRng, getChain, isChainName, parseUnits, settingsOf, unitsToNumber, type TickerRules } from '../core/index.ts';
import type { ExchangeFactory } from '../backtest/venue-exchange.ts';
import { constantLatency } from '../backtest/latency.ts';
import { jitteredLatency } from '../backtest/latency-jitter.ts';
import { parseQueueModel } from '../backtest/queue-model.ts';
import { deterministicAccount } from '../backtest/account-summary.ts';
import { runBacktest, type BacktestOptions, type BacktestResult } from '../backtest/run.ts';
import { deterministicPart, withTakerSeeds } from '../backtest/summary.ts';
import type { SweepSummary } from '../backtest/sweep.ts';
import { BudgetError } from '../engine/index.ts';
import { accountLimitsOf } from './account-files.ts';
import type { SummaryUnits } from '../backtest/summary-rows.ts';
import { DataError, createRecordedEventSource, isoTime, readRecordingHeader, recordingScale, recordingSpan, shareWindow, timeWindow, windowedSource, type RecordingHeader, type TimeWindow } from '../backtest/data/index.ts';
import { buildStrategy } from './daemon.ts';
import { engineSettingsOf } from '../engine/index.ts';
import { minNotionalOf } from '../markets/binance/server/market-routes.ts';
import { UsageError } from './io.ts';
import { validatePairEnv } from './pair-config.ts';
import { secretKeys, type PairConfig } from '../config/index.ts';
import { BACKTEST_DEFAULTS } from './backtest-defaults.ts';
import { describeThinPlan, type VenueKind } from './backtest-thin.ts';
import type { ThinPlan } from './thin-flags.ts';
import { thinExchangeFactory } from '../backtest/thin/index.ts';

export { BACKTEST_DEFAULTS } from './backtest-defaults.ts';

/** Quote currency of a source whose files do not name it (LOBSTER is NASDAQ, in USD). */
const SOURCE_QUOTE: Readonly<Record<string, string>> = { lobster: 'USD' };

/** Everything one run needs, serialisable so a sweep can hand it to a worker thread. */
export interface BacktestPlan {
  readonly data: readonly string[];
  readonly envPath: string;
  /** Env keys replaced after reading the file (--strategy, --set, sweep values). */
  readonly overrides: Readonly<Record<string, string>>;
  /** The market's names and decimals; undefined = the recording's. */
  readonly base: string | undefined;
  readonly quote: string | undefined;
  readonly baseDecimals: number | undefined;
  readonly quoteDecimals: number | undefined;
  readonly tick: string | undefined;
  readonly lot: string | undefined;
  /** `--min-qty`: the venue's smallest order, base tokens; undefined (and plans written before it) = one lot. */
  readonly minQty?: string | undefined;
  readonly queue: string;
  readonly latencyMs: number;
  readonly latencyJitterMs: number;
  readonly feedLatencyMs: number;
  readonly seed: number;
  /** Error bars: block length (ms) and replicates of the bootstrap; undefined (plans written before them) = the defaults. */
  readonly bootstrapBlockMs?: number;
  readonly bootstrapSamples?: number;
  readonly initialBase: string;
  readonly makerPbips: number;
  readonly takerPbips: number;
  readonly gasPriceFri: string;
  readonly strkPrice: string;
  /** Recordings of the hedge market (`--hedge`); empty = not hedged. */
  readonly hedge: readonly string[];
  readonly hedgeLatencyMs: number;
  /** NOTIONAL minimum of the hedge venue (decimal text); undefined = Binance's for its quote. */
  readonly hedgeMinNotional: string | undefined;
  /** Recordings of the reference market (`--reference`, replay format); empty = none. Optional: plans written before it read none. */
  readonly reference?: readonly string[];
  /** From the reference's exchange time to the engine, ms (`--reference-latency-ms`). */
  readonly referenceLatencyMs?: number;
  /** `--venue`: undefined or `replay` quotes on the recorded book; `thin` on a thin venue priced off it (with `thin`). */
  readonly venue?: VenueKind;
  /** The thin venue's taker models (`--thin-…` flags); present with `venue: 'thin'`. */
  readonly thin?: ThinPlan;
  /**
   * `--from-share` / `--to-share`: replay only this share of the recordings' time span (0 ≤ from <
   * to ≤ 1); undefined (plans written before them) = the whole span.
   */
  readonly fromShare?: number;
  readonly toShare?: number;
  /**
   * `--from-time` / `--to-time`: trade only from / up to this exchange time (ms since the epoch),
   * inside the recordings' span; undefined = the span's own start / end. Not with the shares.
   */
  readonly fromMs?: number;
  readonly toMs?: number;
}

/** The market a run trades, as resolved from the recording and the flags. */
export interface Market {
  readonly symbol: string;
  readonly base: string;
  readonly quote: string;
  readonly baseDecimals: number;
  readonly quoteDecimals: number;
  /** Tick and lot as decimal text, and as numbers (quote per tick, base per lot). */
  readonly tick: string;
  readonly lot: string;
  readonly tickValue: number;
  readonly lotValue: number;
}

/**
 * A backtest of N ≥ 1 pairs on one account: each pair's plan (one `--env` and the files given
 * with it), and the account's quote balance at the start.
 */
export interface AccountPlan {
  readonly pairs: readonly BacktestPlan[];
  /** `--initial-quote` (decimal text); undefined = every pair's `--initial-base` valued at its first mid, together. */
  readonly initialQuote: string | undefined;
}

/** Every pair's prepared run, and the options of the one `runBacktest` that replays them together. */
export interface PreparedAccount {
  readonly runs: readonly PreparedRun[];
  readonly options: BacktestOptions;
}

/** A pair's plan checked and built: its options for `runBacktest` and lines describing it. */
export interface PreparedRun {
  readonly options: BacktestOptions;
  readonly context: string[];
  readonly title: string;
  readonly market: Market;
  readonly units: SummaryUnits;
  /** The env file as read (an account backtest reads its budgets and account keys). */
  readonly config: PairConfig;
}

/**
 * The file's keys with the overrides (--set, a sweep's cell) on top. An override of one of a
 * strategy's two size keys replaces the other too (`--set LADDER_ORDER_SIZE=0.1` on a file sized by
 * LADDER_ORDER_NOTIONAL sizes in base tokens), since a file may set only one of them: the shipped
 * files size by notional, and a size in base given on the command line means that size.
 */
export function withOverrides(file: Readonly<Record<string, string>>, overrides: Readonly<Record<string, string>>): Record<string, string> {
  const env: Record<string, string> = { ...file };
  for (const key of Object.keys(overrides)) {
    const other = sizeKeyCounterpart(key);
    if (other !== undefined && overrides[other] === undefined) delete env[other];
  }
  return Object.assign(env, overrides);
}

/** The other key of a size pair: `X_ORDER_SIZE` ↔ `X_ORDER_NOTIONAL`, `X_LEVEL_SIZE_INCREMENT` ↔ `X_LEVEL_NOTIONAL_INCREMENT`. */
function sizeKeyCounterpart(key: string): string | undefined {
  const pairs: readonly (readonly [string, string])[] = [['_ORDER_SIZE', '_ORDER_NOTIONAL'], ['_LEVEL_SIZE_INCREMENT', '_LEVEL_NOTIONAL_INCREMENT']];
  for (const [size, notional] of pairs) {
    if (key.endsWith(size)) return key.slice(0, -size.length) + notional;
    if (key.endsWith(notional)) return key.slice(0, -notional.length) + size;
  }
  return undefined;
}

/**
 * The pair file with the account keys filled in (a backtest never signs or connects) and BASE and
 * QUOTE set to tokens the chain lists: they name the live pair, and a backtest's market comes from
 * the recording instead, so a file for ETH/USDC backtests a BTCUSDT or an AAPL recording.
 */
function readPairEnv(path: string, overrides: Readonly<Record<string, string>>, hedgeHeader: RecordingHeader | undefined, referenceHeader: RecordingHeader | undefined): ReturnType<typeof validatePairEnv> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`--env ${path}: cannot read it (${error instanceof Error ? error.message : String(error)})`);
  }
  const env: Record<string, string> = withOverrides(parseDotenv(text), overrides);
  for (const key of ['TRADING_ACCOUNT']) if ((env[key] ?? '') === '') env[key] = '0x1';
  if (hedgeHeader !== undefined) {
    // The hedge market is the --hedge recording; a backtest signs nothing there either (no credentials are read).
    if ((env['HEDGE'] ?? 'off') === 'off') env['HEDGE'] = hedgeHeader.market ?? `binance:${hedgeHeader.symbol.toUpperCase()}`;
  }
  // The reference market is the --reference recording, whatever the file's REFERENCE_*_URL say (nothing connects).
  if (referenceHeader !== undefined) env['REFERENCE'] = referenceHeader.market ?? `binance:${referenceHeader.symbol.toUpperCase()}`;
  else if (env['FAIR_PRICE'] === 'reference' || env['FAIR_PRICE'] === 'blend') {
    throw new UsageError(`FAIR_PRICE=${env['FAIR_PRICE']} (${path} or --set): give a recording of the reference market with --reference FILE (a backtest reads its reference from a recording), or set FAIR_PRICE=mid`);
  }
  const chain = env['CHAIN'] ?? 'mainnet';
  if (isChainName(chain)) {
    const [first, second] = [...getChain(chain).tokens.keys()];
    if (first !== undefined && second !== undefined) Object.assign(env, { BASE: first, QUOTE: second });
  }
  // A backtest signs nothing: no signer is required and no key, keystore or password file is read.
  return validatePairEnv(env, path, { requireSigner: false, baseDir: dirname(path) });
}

function stepUnits(flag: string, text: string, decimals: number, token: string, decimalsFlag: string): bigint {
  let units: bigint;
  try {
    units = parseUnits(text, decimals);
  } catch {
    throw new UsageError(`--${flag}=${text} has more decimals than ${token} has in this backtest (${decimals}); raise --${decimalsFlag}`);
  }
  if (units <= 0n) throw new UsageError(`--${flag}=${text} must be positive`);
  return units;
}

/** `--min-qty` in base units: a whole number of lots, at least one. */
function minQtyUnits(text: string, market: Market): bigint {
  const units = stepUnits('min-qty', text, market.baseDecimals, market.base, 'base-decimals');
  const lot = parseUnits(market.lot, market.baseDecimals);
  if (units % lot !== 0n) throw new UsageError(`--min-qty=${text} is not a whole number of lots (the lot is ${market.lot} ${market.base})`);
  return units;
}

function readHeaders(paths: readonly string[], flag = '--data'): RecordingHeader[] {
  return paths.map((path) => {
    try {
      return readRecordingHeader(path);
    } catch (error) {
      if (error instanceof DataError) throw new UsageError(`${flag} ${error.message}`);
      throw error;
    }
  });
}

/** The market of a run: the flags where given, else what the first recording's header says. */
export function resolveMarket(plan: BacktestPlan, header: RecordingHeader, dataPath: string): Market {
  const base = plan.base ?? header.base ?? header.symbol;
  const quote = plan.quote ?? header.quote ?? SOURCE_QUOTE[header.source] ?? 'QUOTE';
  if (base === quote) throw new UsageError(`--base and --quote are both ${base}: name two different tokens`);
  const baseDecimals = plan.baseDecimals ?? Math.max(header.qtyDecimals, BACKTEST_DEFAULTS.minDecimals);
  const quoteDecimals = plan.quoteDecimals ?? Math.max(header.priceDecimals, BACKTEST_DEFAULTS.minDecimals);
  const tick = plan.tick ?? header.tick;
  const lot = plan.lot ?? header.lot;
  if (tick === '0' || lot === '0') throw new UsageError(`--data ${dataPath}: the recording has no prices to infer the tick and lot from; give --tick and --lot`);
  const tickUnits = stepUnits(plan.tick === undefined ? 'tick (inferred from the recording)' : 'tick', tick, quoteDecimals, quote, 'quote-decimals');
  const lotUnits = stepUnits(plan.lot === undefined ? 'lot (inferred from the recording)' : 'lot', lot, baseDecimals, base, 'base-decimals');
  return {
    symbol: header.symbol,
    base,
    quote,
    baseDecimals,
    quoteDecimals,
    tick,
    lot,
    tickValue: unitsToNumber(tickUnits, quoteDecimals),
    lotValue: unitsToNumber(lotUnits, baseDecimals),
  };
}

/**
 * Checks a plan and builds the run.
 * @throws UsageError naming the flag or env key that is wrong.
 */
export function prepareRun(plan: BacktestPlan, onProgress?: (done: number, total: number) => void): PreparedRun {
  const headers = readHeaders(plan.data);
  const first = headers[0] as RecordingHeader;
  const hedgeHeader = plan.hedge.length === 0 ? undefined : readHeaders(plan.hedge)[0];
  const referencePaths = plan.reference ?? [];
  const referenceHeader = referencePaths.length === 0 ? undefined : readHeaders(referencePaths, '--reference')[0];
  const config = readPairEnv(plan.envPath, plan.overrides, hedgeHeader, referenceHeader);

  if (hedgeHeader === undefined && config.hedge.market !== undefined) {
    throw new UsageError(`HEDGE=${config.hedge.market.venue}:${config.hedge.market.symbol} in ${plan.envPath}: give a recording of that market with --hedge FILE (a backtest hedges on a recording), or set HEDGE=off`);
  }
  const market = resolveMarket(plan, first, plan.data[0] as string);
  const rules: TickerRules = {
    base: market.base,
    quote: market.quote,
    isEcosystemBook: config.ecosystemBook,
    priceTick: parseUnits(market.tick, market.quoteDecimals),
    qtyStep: parseUnits(market.lot, market.baseDecimals),
    minQty: plan.minQty === undefined ? parseUnits(market.lot, market.baseDecimals) : minQtyUnits(plan.minQty, market),
    baseDecimals: market.baseDecimals,
    quoteDecimals: market.quoteDecimals,
  };
  headers.forEach((header, i) => {
    try {
      recordingScale(header, rules, plan.data[i] as string, { fractionalLots: plan.thin !== undefined });
    } catch (error) {
      if (!(error instanceof DataError)) throw error;
      const flag = error.message.includes('tick') ? '--tick' : '--lot';
      throw new UsageError(`${flag}: ${error.message}; use a step that divides the recording's`);
    }
  });
  const queue = parseQueueModel(plan.queue);
  if (queue === undefined) throw new UsageError(`--queue=${plan.queue} is not a queue model (risk-averse, power:N with 0 < N ≤ 10, or log)`);
  const strategy = buildStrategy(config);
  const settings = engineSettingsOf(config.keys, { baseDecimals: market.baseDecimals, quoteDecimals: market.quoteDecimals });
  const referenceLatencyMs = plan.referenceLatencyMs ?? BACKTEST_DEFAULTS.referenceLatencyMs;
  const rng = createRng(plan.seed);
  const hedgeMinNotional = plan.hedgeMinNotional ?? (hedgeHeader === undefined ? '0' : minNotionalOf(hedgeHeader.symbol));
  const source = createRecordedEventSource(plan.data, rules, { fractionalLots: plan.thin !== undefined, ...(onProgress === undefined ? {} : { onProgress }) });
  const window = timeWindowOf(plan);
  const options: BacktestOptions = {
    ...(hedgeHeader === undefined ? {} : { hedge: { paths: plan.hedge, settings: settingsOf(HEDGE_KEYS, 'hedger', config.keys), latencyMs: plan.hedgeLatencyMs, minNotional: hedgeMinNotional } }),
    ...(referenceHeader === undefined ? {} : { reference: { paths: referencePaths, latencyMs: referenceLatencyMs, staleAfterMs: config.reference.staleMs } }),
    source: window === undefined ? source : windowedSource(source, window.window),
    strategy,
    settings,
    initialBase: Number(plan.initialBase),
    bootstrap: { blockMs: plan.bootstrapBlockMs ?? BACKTEST_DEFAULTS.bootstrapBlockMs, samples: plan.bootstrapSamples ?? BACKTEST_DEFAULTS.bootstrapSamples, seed: plan.seed },
    ...budgetsOf(config, market),
    venue: {
      rules,
      makerFeePbips: plan.makerPbips,
      takerFeePbips: plan.takerPbips,
      steps: { trade: config.ecosystemBook ? 150 : 250, cancel: 0, nonce: 100, withdraw: 150 },
      gasPriceUnits: BigInt(plan.gasPriceFri),
      quotePerStrk: Number(plan.strkPrice),
      latency: jitteredLatency(constantLatency(plan.latencyMs), plan.latencyJitterMs, rng.fork('latency')),
      feedLatencyMs: plan.feedLatencyMs,
      queue,
      ...(plan.thin === undefined ? {} : { exchange: thinExchangeOf(plan.thin, rules, plan.takerPbips, plan.thin.takerSeed ?? plan.seed) }),
    },
  };
  const context = [
    `data: ${plan.data.join(', ')} (${first.symbol}, ${first.source})`,
    `market: ${market.base}/${market.quote} from the ${plan.base === undefined && plan.quote === undefined ? 'recording' : 'flags'}; tick ${market.tick} ${market.quote}, lot ${market.lot} ${market.base}; decimals ${market.baseDecimals}/${market.quoteDecimals}`,
    `strategy: ${config.strategy} (${plan.envPath})`,
    `queue: ${queue.name}; latency ${plan.latencyMs} ms each way (+ up to ${plan.latencyJitterMs} ms, seed ${plan.seed}); feed ${plan.feedLatencyMs} ms`,
    `fees: maker ${plan.makerPbips} / taker ${plan.takerPbips} pbips; gas ${plan.gasPriceFri} fri/step at ${plan.strkPrice} ${market.quote}/STRK; start with ${plan.initialBase} ${market.base} and its value in ${market.quote}`,
    ...(hedgeHeader === undefined
      ? []
      : [
          `hedge: ${plan.hedge.join(', ')} (${hedgeHeader.symbol}); ${config.hedge.orderType} orders, latency ${plan.hedgeLatencyMs} ms each way, fee ${config.hedge.feeBps} bps, minimum notional ${hedgeMinNotional}, up to ${config.hedge.maxDelayMs} ms and ${config.hedge.maxRetries} retries`,
        ]),
    ...(referenceHeader === undefined
      ? []
      : [
          `reference: ${referencePaths.join(', ')} (${referenceHeader.symbol}); latency ${referenceLatencyMs} ms; FAIR_PRICE=${config.engine.FAIR_PRICE}, basis ${config.reference.basisBps === 'auto' ? 'estimated online' : `${config.reference.basisBps} bps`}, stale after ${config.reference.staleMs} ms, divergence limit ${config.reference.maxDivergenceBps} bps`,
        ]),
    ...(plan.thin === undefined ? [] : [describeThinPlan(plan.thin, plan.takerPbips)]),
    ...(window === undefined ? [] : [window.line]),
    ...Object.entries(plan.overrides)
      .filter(([key]) => key !== 'STRATEGY')
      .map(([key, value]) => `set: ${key}=${value}`),
  ];
  return {
    options,
    context,
    title: `akira-mm backtest: ${config.strategy} on ${first.symbol} as ${market.base}/${market.quote}`,
    market,
    units: { base: market.base, quote: market.quote },
    config,
  };
}

/**
 * The exchange times of `--from-time`/`--to-time` or `--from-share`/`--to-share`, with the line
 * that says which window runs; undefined for the whole recording (no window: the replay as it
 * always was).
 */
function timeWindowOf(plan: BacktestPlan): { window: TimeWindow; line: string } | undefined {
  const fromShare = plan.fromShare ?? 0;
  const toShare = plan.toShare ?? 1;
  const byTime = plan.fromMs !== undefined || plan.toMs !== undefined;
  if (!byTime && fromShare === 0 && toShare === 1) return undefined;
  const flags = byTime ? '--from-time/--to-time' : '--from-share/--to-share';
  try {
    const span = recordingSpan(plan.data);
    const window = byTime ? timeWindow(span, { fromMs: plan.fromMs, toMs: plan.toMs }) : shareWindow(span, fromShare, toShare);
    const what = byTime ? 'times' : `shares ${fromShare} to ${toShare} of the recording's time span,`;
    return { window, line: `window: ${what} ${isoTime(window.fromMs)} → ${isoTime(window.toMs)} (the book before it is built, not traded on)` };
  } catch (error) {
    if (error instanceof DataError) throw new UsageError(`${flags}: ${error.message}`);
    throw error;
  }
}

/**
 * The thin venue's exchange: the recording replays as its reference; the uninformed takers draw
 * from their own seed (`--thin-taker-seed`, default the run's `--seed`; fork `thin`), so a seed
 * and the data fix who comes, apart from the latency jitter's draws.
 * @throws UsageError for a value the models refuse (the flags checked each one already).
 */
function thinExchangeOf(thin: ThinPlan, rules: TickerRules, takerPbips: number, takerSeed: number): ExchangeFactory {
  try {
    return thinExchangeFactory({
      takerSeed,
      rules,
      takerFeePbips: takerPbips,
      uninformed: thin.uninformed,
      background: thin.background,
      ...(thin.competitor === undefined ? {} : { competitor: thin.competitor }),
      arbitrage: thin.arbitrage,
      rng: createRng(takerSeed).fork('thin'),
    });
  } catch (error) {
    if (error instanceof MmError && error.code === 'CORE_INVALID_OPTION') throw new UsageError(error.message);
    throw error;
  }
}

/** BUDGET_BASE / BUDGET_QUOTE in the market's units (a pair alone on its account ignores them), as the keys declare them. */
function budgetsOf(config: PairConfig, market: Market): { budgetBaseUnits?: bigint; budgetQuoteUnits?: bigint } {
  const { budgetBaseUnits, budgetQuoteUnits } = settingsOf(ENGINE_KEYS, 'account-pair', config.keys, { baseDecimals: market.baseDecimals, quoteDecimals: market.quoteDecimals });
  return { ...(budgetBaseUnits === undefined ? {} : { budgetBaseUnits }), ...(budgetQuoteUnits === undefined ? {} : { budgetQuoteUnits }) };
}

/**
 * Checks every pair's plan and builds the account's run: the first pair's options at the top,
 * the others beside it, the account limits from the files (none for a pair alone).
 * @throws UsageError naming the flag or env key that is wrong.
 */
export function prepareAccount(plan: AccountPlan, onProgress?: (done: number, total: number) => void): PreparedAccount {
  const progress = plan.pairs.map(() => ({ done: 0, total: 0 }));
  const report = onProgress === undefined ? undefined : (): void => onProgress(progress.reduce((sum, part) => sum + part.done, 0), progress.reduce((sum, part) => sum + part.total, 0));
  const runs = plan.pairs.map((pairPlan, i) =>
    prepareRun(
      pairPlan,
      report === undefined
        ? undefined
        : (done, total) => {
            progress[i] = { done, total };
            report();
          },
    ),
  );
  const [first, ...others] = runs as [PreparedRun, ...PreparedRun[]];
  const initialQuote = plan.initialQuote;
  if (initialQuote !== undefined && !(/^\d+(\.\d+)?$/.test(initialQuote) && Number(initialQuote) > 0)) throw new UsageError(`--initial-quote=${initialQuote} is not a positive decimal number`);
  const configs = runs.map((run) => run.config);
  const quote = { symbol: first.market.quote, decimals: first.market.quoteDecimals };
  return {
    runs,
    options: {
      ...first.options,
      ...(others.length === 0 ? {} : { otherPairs: others.map((run) => run.options) }),
      ...(initialQuote === undefined ? {} : { initialQuote: Number(initialQuote) }),
      limits: (balances) => accountLimitsOf(configs, balances, quote),
    },
  };
}

/**
 * Runs an account's plan and, for a thin venue with `--taker-seeds`, once more per further seed:
 * the first seed's result, each pair's summary with the PnL of every seed and its spread.
 */
export async function executeWithTakerSeeds(plan: AccountPlan, prepared: PreparedAccount): Promise<BacktestResult> {
  const result = await executeAccount(prepared);
  const seeds = plan.pairs[0]?.thin?.takerSeeds;
  if (seeds === undefined || seeds.length === 0) return result;
  const seedPlan = (seed: number): AccountPlan => ({ ...plan, pairs: plan.pairs.map((pair) => (pair.thin === undefined ? pair : { ...pair, thin: { ...pair.thin, takerSeed: seed, takerSeeds: [] } })) });
  const firstSeed = seeds[0] as number;
  const others = [] as BacktestResult[];
  for (const seed of seeds.slice(1)) others.push(await executeAccount(prepareAccount(seedPlan(seed))));
  // The first run used the plan's taker seed; the list starts with it when it is a count, else the first run is rerun on the list's first seed.
  const first = (plan.pairs[0]?.thin?.takerSeed ?? plan.pairs[0]?.seed) === firstSeed ? result : await executeAccount(prepareAccount(seedPlan(firstSeed)));
  const all = [first, ...others];
  const pairs = new Map([...first.pairs].map(([name, pair]) => [name, { ...pair, summary: withTakerSeeds(pair.summary, all.map((run, i) => ({ seed: seeds[i] as number, pnlQuote: (run.pairs.get(name) as typeof pair).summary.pnl_quote }))) }]));
  const [firstPair] = [...pairs.values()];
  return { ...first, summary: firstPair?.summary ?? first.summary, pairs };
}

/** Runs a prepared backtest, turning bad input (data, markets that cannot share an account, budgets) into usage errors. */
export async function executeAccount(prepared: PreparedAccount): Promise<BacktestResult> {
  try {
    return await runBacktest(prepared.options);
  } catch (error) {
    if (error instanceof DataError) throw new UsageError(`--data ${error.message}`);
    if (error instanceof MmError && (error.code === 'BACKTEST_ACCOUNT_MISMATCH' || error.code === 'BACKTEST_NO_BOOK')) throw new UsageError(error.message);
    if (error instanceof BudgetError) throw new UsageError(`BUDGET_BASE/BUDGET_QUOTE: ${error.message}`);
    throw error;
  }
}

/**
 * One sweep cell, run in a worker thread, without the wall-clock figures: a pair's summary, or
 * with several pairs the account's figures (ranked by its PnL) with each pair's summary in `pairs`.
 */
export async function runSweepJob(plan: AccountPlan): Promise<SweepSummary> {
  const result = await executeWithTakerSeeds(plan, prepareAccount(plan));
  if (plan.pairs.length === 1) return deterministicPart(result.summary);
  const { pairs: _names, ...account } = deterministicAccount(result.account);
  return { ...account, pairs: Object.fromEntries([...result.pairs].map(([name, pair]) => [name, deterministicPart(pair.summary)])) };
}

/**
 * A fingerprint of everything a sweep's results depend on except the swept values: the
 * recordings (name and record count), the env files' entries and every flag. Shards of one sweep
 * share it wherever they ran, so `backtest merge` refuses results of different sweeps.
 */
export function planFingerprint(plan: AccountPlan, axes: readonly { key: string; values: readonly string[] }[]): string {
  const parts = plan.pairs.map(fingerprintParts);
  const text = JSON.stringify(parts.length === 1 && plan.initialQuote === undefined ? { ...parts[0], axes } : { pairs: parts, initialQuote: plan.initialQuote ?? null, axes });
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/** What one pair's results depend on: its recordings, its env file's entries and its flags. */
function fingerprintParts(plan: BacktestPlan): { data: unknown; env: Record<string, string>; flags: unknown } {
  const data = plan.data.map((path) => ({ name: basename(path), records: readRecordingHeader(path).records }));
  let env: Record<string, string>;
  try {
    env = parseDotenv(readFileSync(plan.envPath, 'utf8'));
  } catch {
    env = {};
  }
  // The account and every secret (key, keystore password) play no part in a backtest, and
  // nothing derived from a secret leaves the process.
  for (const key of secretKeys()) delete env[key];
  delete env['TRADING_ACCOUNT'];
  const { data: _paths, envPath: _envPath, ...flags } = plan;
  return { data, env, flags };
}
