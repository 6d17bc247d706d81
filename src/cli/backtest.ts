/**
 * `akira-mm backtest --data FILE… --env FILE …`: the same strategy and engine as live, against a
 * replay venue over recorded books of any market (the market comes from the recording). Several
 * `--env` backtest several pairs on one account (each `--env` takes the `--data`, `--hedge` and
 * `--reference` files given since the previous one); one pair is an account of one. Prints a
 * human summary and, with --json, the summary as one JSON object on the last line (its keys are a
 * contract: one pair's flat, several pairs' `{"account":…,"pairs":…}`); --report writes the HTML
 * report. `--sweep KEY=v1,v2` (repeatable) runs a grid on worker threads (backtest-sweep.ts);
 * `backtest merge` joins a sharded sweep. Everything but the measured speed is a function of
 * data, flags and seed.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { integerFlag, parseFlags, type CommandHelp, type FlagSpecs } from './args.ts';
import { BACKTEST_DEFAULTS } from './backtest-defaults.ts';
import type { AccountPlan, BacktestPlan } from './backtest-plan.ts';
import { THIN_OPTIONS, thinPlanFromFlags, type VenueKind } from './backtest-thin.ts';
import type { ThinPlan } from './thin-flags.ts';
import type { ReferenceRecordings } from './backtest-reference.ts';
import { UnknownNameError, UsageError, type CliIo, type CommandRunner } from './io.ts';
import { startProgress } from './progress.ts';

const USAGE =
  'akira-mm backtest --data FILE… --env FILE [--data FILE… --env FILE]… [--initial-quote X] [--strategy NAME] [--set KEY=VALUE]… [--base B --quote Q] [--tick T --lot L] ' +
  '[--queue risk-averse|power:N|log] [--latency-ms N] … [--hedge FILE [--hedge-latency-ms N]] [--reference FILE… [--reference-latency-ms N]] [--venue replay|thin [--thin-… X]…] [--report out.html] [--json] [--sweep KEY=v1,v2,…]… [--shard K/N] [--jsonl FILE]';

const HELP: CommandHelp = {
  usage: USAGE,
  summary:
    'Replays a recording (`akira-mm data import`) through the same engine and strategy as live, with queue-position and latency models, ' +
    'and prints a summary. The market (base, quote, decimals, tick, lot) comes from the recording; the env file gives the strategy and engine keys.',
  notes: [
    'A thin venue: --venue thin replays the recording as the reference (a deep market, e.g. Binance) and quotes on a simulated thin venue priced off it: ' +
      "uninformed takers thinned from the reference's trades, arbitrageurs who take stale quotes, a background maker (the --thin-… flags; docs/thin-venue.md). " +
      "Fees default to LayerAkira's (maker 200, taker 1000 pbips); the summary adds uninformed_fills, arb_fills, background_maker_fills and pickoff_cost_quote, and its markouts are against the reference mid (markout_against).",
    'Sweeps: --sweep KEY=v1,v2 (repeatable; KEY is an env key or one of queue, latency-ms, latency-jitter-ms, feed-latency-ms, seed, maker-pbips, taker-pbips, reference-latency-ms, or a --thin-… flag with --venue thin) ' +
      'runs the grid on worker threads and prints it best PnL first. --shard K/N runs the K-th of N slices; `akira-mm backtest merge FILES…` joins the --jsonl files of every shard.',
    'Everything in the summary but events_per_sec is a function of the data, the flags and the seed. More: docs/data-format.md.',
    'Several pairs on one account: akira-mm backtest --data A.data [--hedge HA.data] [--reference RA.data] --env A.env --data B.data … --env B.env [--initial-quote X] [--json] [--report out.html]. ' +
      'Each --env takes the --data, --hedge and --reference files given since the previous --env; the recordings replay on one clock, merged in time order, each pair with its own engine, strategy, caps, scorecard, hedge and reference, ' +
      "sharing one account: one set of balances (the pairs must share their quote token), budgets (BUDGET_BASE/BUDGET_QUOTE), the outbound budget, the ledger's drift check and the account limits. " +
      'The other flags apply to every pair; --json prints {"account":{…},"pairs":{"A/Q":{…},…}}. --sweep KEY=… sets KEY in every pair and ranks the cells by the account\'s PnL.',
  ],
};

export const BACKTEST_OPTIONS = {
  data: { type: 'string', multiple: true, value: 'FILE', required: true, doc: 'recordings in the replay format, replayed back to back (also as extra arguments)' },
  env: {
    type: 'string',
    multiple: true,
    value: 'FILE',
    required: true,
    doc: "a pair's env file: strategy, engine and risk keys (its BASE, QUOTE and account are not used). Several pairs on one account: give one --env per pair, each after its files (each --env takes the --data, --hedge and --reference files given since the previous --env)",
  },
  strategy: { type: 'string', value: 'NAME', default: "the env file's STRATEGY", doc: 'ladder, avellaneda-stoikov, glft, xemm or tick-grid' },
  set: { type: 'string', multiple: true, value: 'KEY=VALUE', default: 'none', doc: 'replace one env key, e.g. LADDER_ORDER_SIZE=10' },
  base: { type: 'string', value: 'SYMBOL', default: "the recording's (its symbol when it names none)", doc: 'name of the base token' },
  quote: { type: 'string', value: 'SYMBOL', default: "the recording's", doc: 'name of the quote token' },
  'base-decimals': { type: 'string', value: 'N', unit: 'decimals', default: `the recording's size decimals, at least ${BACKTEST_DEFAULTS.minDecimals}`, doc: 'precision of base amounts' },
  'quote-decimals': { type: 'string', value: 'N', unit: 'decimals', default: `the recording's price decimals, at least ${BACKTEST_DEFAULTS.minDecimals}`, doc: 'precision of quote amounts' },
  tick: { type: 'string', value: 'DECIMAL', unit: 'quote tokens', default: "the recording's inferred tick", doc: 'price step; must divide the recording\'s' },
  lot: { type: 'string', value: 'DECIMAL', unit: 'base tokens', default: "the recording's inferred lot", doc: "size step; must divide the recording's (with --venue thin it may be coarser: the recording is the reference market, read in fractions of the venue's lot)" },
  'min-qty': { type: 'string', value: 'DECIMAL', unit: 'base tokens', default: 'one lot', doc: "the pair's smallest order (a whole number of lots), in the engine's rules as the venue states them; on a thin venue a taker twin below it does not trade, as the venue refuses it" },
  queue: { type: 'string', value: 'MODEL', default: BACKTEST_DEFAULTS.queue, doc: 'queue position: risk-averse (only trades move us up), power:N or log (probabilistic)' },
  'latency-ms': { type: 'string', value: 'N', unit: 'ms', default: BACKTEST_DEFAULTS.latencyMs, doc: 'order entry latency, and the same again for the answer' },
  'latency-jitter-ms': { type: 'string', value: 'N', unit: 'ms', default: BACKTEST_DEFAULTS.latencyJitterMs, doc: 'adds a seeded random whole number of ms in [0, N] to each latency' },
  'feed-latency-ms': { type: 'string', value: 'N', unit: 'ms', default: BACKTEST_DEFAULTS.feedLatencyMs, doc: 'delay from the exchange to the engine for market data' },
  seed: { type: 'string', value: 'N', default: BACKTEST_DEFAULTS.seed, doc: 'RNG seed (latency jitter, and the error bars\' bootstrap)' },
  'bootstrap-block-ms': {
    type: 'string',
    value: 'N',
    unit: 'ms of simulated time',
    default: BACKTEST_DEFAULTS.bootstrapBlockMs,
    doc: 'error bars: block length of the block bootstrap over time that gives the 95 % intervals (rounded to whole 1 s samples; the longest markout horizon by default). docs/strategies.md, "Error bars"',
  },
  'bootstrap-samples': { type: 'string', value: 'N', default: BACKTEST_DEFAULTS.bootstrapSamples, doc: 'error bars: bootstrap replicates drawn (100 to 100000)' },
  'initial-base': { type: 'string', value: 'X', unit: 'base tokens', default: BACKTEST_DEFAULTS.initialBase, doc: 'held at the start; the same value is held in quote' },
  'initial-quote': {
    type: 'string',
    value: 'X',
    unit: 'quote tokens',
    default: "every pair's --initial-base valued at its first mid, together",
    doc: 'several pairs (one --env each): the account\'s quote balance at the start, which the pairs\' budgets split',
  },
  'maker-pbips': { type: 'string', value: 'N', unit: 'pbips (1000 = 10 bps)', default: BACKTEST_DEFAULTS.makerPbips, doc: 'maker fee; negative = a rebate, credited (at least −taker-pbips; write --maker-pbips=-50)' },
  'taker-pbips': { type: 'string', value: 'N', unit: 'pbips (1000 = 10 bps)', default: BACKTEST_DEFAULTS.takerPbips, doc: 'taker fee' },
  'gas-price-fri': { type: 'string', value: 'N', unit: 'fri per gas step', default: BACKTEST_DEFAULTS.gasPriceFri, doc: 'gas price until the recording has its own' },
  'strk-price': { type: 'string', value: 'X', unit: 'quote tokens per STRK', default: BACKTEST_DEFAULTS.strkPrice, doc: 'to charge gas in quote' },
  report: { type: 'string', value: 'FILE', default: 'none', doc: 'write the self-contained HTML report (a sweep: ranked table and heatmaps)' },
  json: { type: 'boolean', doc: 'print the summary as one JSON object on the last line (a sweep: {"sweep":[…]})' },
  sweep: { type: 'string', multiple: true, value: 'KEY=v1,v2,…', default: 'none', doc: 'run the grid of these values on worker threads' },
  'rank-by': {
    type: 'string',
    value: 'KEY',
    default: 'pnl_quote',
    doc: 'sweep: rank the cells by this summary figure, best first (pnl_quote, pnl_per_notional_bps, markout_10s_bps, sharpe, max_drawdown_quote, …), its 95 % interval beside it and whether it overlaps the best cell\'s',
  },
  shard: { type: 'string', value: 'K/N', default: 'the whole grid', doc: 'sweep: run only the K-th of N slices of the grid' },
  jsonl: { type: 'string', value: 'FILE', default: 'none', doc: 'sweep: write one JSON line per cell (params and summary), for scripts and `backtest merge`' },
  workers: { type: 'string', value: 'N', unit: 'threads', default: 'one per core', doc: 'sweep: worker threads' },
  hedge: {
    type: 'string',
    multiple: true,
    value: 'FILE',
    default: 'none (not hedged)',
    doc: "hedge every fill on this recorded deep market (replay format, e.g. data import --format binance), walking its depth; the env file's HEDGE_* keys say how. Needed by STRATEGY=xemm",
  },
  'hedge-latency-ms': { type: 'string', value: 'N', unit: 'ms', default: BACKTEST_DEFAULTS.hedgeLatencyMs, doc: 'order latency to the hedge venue, and the same again for the answer' },
  'hedge-min-notional': { type: 'string', value: 'X', unit: 'hedge quote tokens', default: "Binance's for the symbol's quote (5 for USDT)", doc: 'smallest hedge notional the hedge venue accepts (smaller amounts wait as dust)' },
  reference: {
    type: 'string',
    multiple: true,
    value: 'FILE',
    default: 'none (FAIR_PRICE=mid|microprice only)',
    doc: "read this recorded deep market as REFERENCE beside the venue recording, on the same clock (replay format from record --reference or data import --format binance, or Binance's .gz collector files): FAIR_PRICE=reference|blend, the basis and the reference pauses backtest as live",
  },
  'reference-latency-ms': { type: 'string', value: 'N', unit: 'ms', default: BACKTEST_DEFAULTS.referenceLatencyMs, doc: "from the reference's exchange time to the engine (its own, apart from --feed-latency-ms)" },
  'from-share': {
    type: 'string',
    value: 'X',
    default: 0,
    doc:
      "replay from this share of the recordings' time span on (0 ≤ X < 1): the book before it is built, not traded on. With --to-share, one part of a recording tunes and another tests: --to-share 0.5, then --from-share 0.5, splits it as `akira-mm fit --train-share 0.5` does",
  },
  'to-share': { type: 'string', value: 'Y', default: 1, doc: "replay up to this share of the recordings' time span (--from-share < Y ≤ 1)" },
  'from-time': {
    type: 'string',
    value: 'ISO',
    unit: 'UTC',
    default: "the recordings' first time",
    doc:
      'start trading at this exchange time, ISO 8601 (2024-07-24T16:00:00Z; without a zone it is UTC): the book before it is built from the recording, not traded on. Inside the recordings\' span; not with --from-share/--to-share',
  },
  'to-time': { type: 'string', value: 'ISO', unit: 'UTC', default: "the recordings' last time", doc: 'stop at this exchange time (after --from-time, inside the recordings\' span)' },
  'no-progress': { type: 'boolean', doc: 'no progress bar and ETA on stderr (shown only on a terminal anyway)' },
  venue: {
    type: 'string',
    value: 'replay|thin',
    default: 'replay',
    doc:
      "replay: quote on the recorded book itself; thin: replay the recording as the reference and quote on a simulated thin venue priced off it (docs/thin-venue.md), with LayerAkira's fees unless --maker-pbips/--taker-pbips say otherwise (the taker fee is also the arbitrageurs')",
  },
} as const;

/**
 * Every flag the command parses: {@link BACKTEST_OPTIONS} and the thin venue's, one per parameter
 * of the taker models, declared with them (backtest-thin.ts).
 */
export const BACKTEST_FLAGS = { ...BACKTEST_OPTIONS, ...THIN_OPTIONS };

const DECIMAL = /^\d+(\.\d+)?$/;

function decimalFlag(name: string, value: string): string {
  if (!DECIMAL.test(value) || Number(value) <= 0) throw new UsageError(`--${name}=${value} is not a positive decimal number`);
  return value;
}

function symbolFlag(name: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!/^[A-Za-z0-9._-]{1,32}$/.test(value)) throw new UsageError(`--${name}=${value} is not a token symbol (letters, digits, . _ -)`);
  return value;
}

/** `--set KEY=VALUE` entries as env overrides. */
function parseSets(entries: readonly string[]): Record<string, string> {
  const overrides: Record<string, string> = {};
  for (const entry of entries) {
    const match = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(entry);
    if (match === null) throw new UsageError(`--set ${entry}: expected KEY=VALUE with an env key, e.g. LADDER_ORDER_SIZE=0.1`);
    overrides[match[1] as string] = match[2] as string;
  }
  return overrides;
}

export type BacktestValues = ReturnType<typeof parseFlags<typeof BACKTEST_OPTIONS>>['values'];
type Values = BacktestValues;

/** One pair of the command line: its recordings (venue, hedge market, reference market) and its env file. */
export interface PairArgs {
  readonly data: readonly string[];
  readonly hedge: readonly string[];
  readonly reference: readonly string[];
  readonly env: string;
}

/**
 * The pairs in command-line order. One `--env`: every file is its pair's, wherever it stands
 * (as a one-pair backtest always took them). Several: each `--env` takes the `--data`, `--hedge`
 * and `--reference` files (and the extra file arguments, which are `--data`) given since the
 * previous `--env`.
 * @throws UsageError when files follow the last of several `--env`, or an `--env` has no `--data`.
 */
export function pairGroups(args: readonly string[], options: FlagSpecs): PairArgs[] {
  // The command's own option table, so a flag's value is never taken for a file.
  const config: Record<string, { type: 'string' | 'boolean'; multiple?: boolean }> = {};
  for (const [name, spec] of Object.entries(options)) config[name] = { type: spec.type, ...(spec.multiple === undefined ? {} : { multiple: spec.multiple }) };
  const { values, positionals, tokens } = parseArgs({ args: [...args], options: config, allowPositionals: true, strict: true, tokens: true });
  const envs = (values['env'] ?? []) as string[];
  const listOf = (name: string): string[] => (values[name] ?? []) as string[];
  if (envs.length === 1) return [{ data: [...listOf('data'), ...positionals], hedge: listOf('hedge'), reference: listOf('reference'), env: envs[0] as string }];
  const groups: PairArgs[] = [];
  let files = { data: [] as string[], hedge: [] as string[], reference: [] as string[] };
  for (const token of tokens) {
    if (token.kind === 'positional') {
      // `--data a b c`: the extra files arrive as positionals.
      files.data.push(token.value);
    } else if (token.kind === 'option' && token.value !== undefined && (token.name === 'data' || token.name === 'hedge' || token.name === 'reference')) {
      files[token.name].push(token.value);
    } else if (token.kind === 'option' && token.name === 'env' && token.value !== undefined) {
      if (files.data.length === 0) throw new UsageError(`--env ${token.value} has no --data before it: each --env takes the --data files given since the previous --env`);
      groups.push({ ...files, env: token.value });
      files = { data: [], hedge: [], reference: [] };
    }
  }
  const left = [...files.data.map((file) => `--data ${file}`), ...files.hedge.map((file) => `--hedge ${file}`), ...files.reference.map((file) => `--reference ${file}`)];
  if (left.length > 0) throw new UsageError(`${left.join(' ')} after the last --env: with several pairs, each --env takes the files given before it`);
  return groups;
}

/** The venue of every pair, its thin models, and the fees LayerAkira charges (the thin venue's default fees). */
export interface VenueChoice {
  readonly venue: VenueKind;
  readonly thin: ThinPlan | undefined;
  readonly defaultFees: { readonly makerPbips: number; readonly takerPbips: number };
}

/**
 * One pair's plan from the flags (`walkforward` builds each strategy's from its own flags, which
 * share these, and cuts each run to its span itself: `window` = {}).
 * @throws UsageError naming a flag whose value is wrong.
 */
export function planFromFlags(values: Values, pair: PairArgs, reference: readonly string[], venue: VenueChoice, window: WindowTimes): BacktestPlan {
  const { data, env } = pair;
  const overrides = parseSets(values.set ?? []);
  if (values.strategy !== undefined) overrides['STRATEGY'] = values.strategy;
  const gasPriceFri = values['gas-price-fri'] ?? BACKTEST_DEFAULTS.gasPriceFri;
  if (!/^\d{1,30}$/.test(gasPriceFri)) throw new UsageError(`--gas-price-fri=${gasPriceFri} is not a whole number of fri per gas step`);
  const decimals = (name: 'base-decimals' | 'quote-decimals'): number | undefined => (values[name] === undefined ? undefined : integerFlag(name, values[name], 0, 0, 30));
  return {
    data,
    envPath: env,
    overrides,
    base: symbolFlag('base', values.base),
    quote: symbolFlag('quote', values.quote),
    baseDecimals: decimals('base-decimals'),
    quoteDecimals: decimals('quote-decimals'),
    tick: values.tick === undefined ? undefined : decimalFlag('tick', values.tick),
    lot: values.lot === undefined ? undefined : decimalFlag('lot', values.lot),
    ...(values['min-qty'] === undefined ? {} : { minQty: decimalFlag('min-qty', values['min-qty']) }),
    queue: values.queue ?? BACKTEST_DEFAULTS.queue,
    latencyMs: integerFlag('latency-ms', values['latency-ms'], BACKTEST_DEFAULTS.latencyMs, 0, 60_000),
    latencyJitterMs: integerFlag('latency-jitter-ms', values['latency-jitter-ms'], BACKTEST_DEFAULTS.latencyJitterMs, 0, 60_000),
    feedLatencyMs: integerFlag('feed-latency-ms', values['feed-latency-ms'], BACKTEST_DEFAULTS.feedLatencyMs, 0, 60_000),
    seed: integerFlag('seed', values.seed, BACKTEST_DEFAULTS.seed, 0, 2 ** 31 - 1),
    bootstrapBlockMs: integerFlag('bootstrap-block-ms', values['bootstrap-block-ms'], BACKTEST_DEFAULTS.bootstrapBlockMs, 1_000, 86_400_000),
    bootstrapSamples: integerFlag('bootstrap-samples', values['bootstrap-samples'], BACKTEST_DEFAULTS.bootstrapSamples, 100, 100_000),
    initialBase: decimalFlag('initial-base', values['initial-base'] ?? BACKTEST_DEFAULTS.initialBase),
    ...fees(values, venue.defaultFees),
    gasPriceFri,
    strkPrice: decimalFlag('strk-price', values['strk-price'] ?? BACKTEST_DEFAULTS.strkPrice),
    hedge: pair.hedge,
    hedgeLatencyMs: integerFlag('hedge-latency-ms', values['hedge-latency-ms'], BACKTEST_DEFAULTS.hedgeLatencyMs, 0, 60_000),
    hedgeMinNotional: values['hedge-min-notional'] === undefined ? undefined : /^\d+(\.\d+)?$/.test(values['hedge-min-notional']) ? values['hedge-min-notional'] : usageError(`--hedge-min-notional=${values['hedge-min-notional']} is not a decimal number`),
    reference,
    referenceLatencyMs: integerFlag('reference-latency-ms', values['reference-latency-ms'], BACKTEST_DEFAULTS.referenceLatencyMs, 0, 60_000),
    ...(venue.thin === undefined ? {} : { venue: venue.venue, thin: venue.thin }),
    ...timeShares(values),
    ...window,
  };
}

type WindowTimes = { fromMs?: number; toMs?: number };

/**
 * `--from-time` and `--to-time` as ms, parsed by the data layer's `parseUtcTime` (passed in: it is
 * loaded after the flags); checked against the recordings' span when the plan is prepared.
 */
function windowTimes(values: Values, parseUtcTime: (text: string) => number): WindowTimes {
  const time = (flag: 'from-time' | 'to-time'): number | undefined => {
    const text = values[flag];
    if (text === undefined) return undefined;
    if (values['from-share'] !== undefined || values['to-share'] !== undefined) throw new UsageError(`--${flag} and --from-share/--to-share both cut the recording: give one of them`);
    try {
      return parseUtcTime(text);
    } catch (error) {
      throw new UsageError(`--${flag}=${error instanceof Error ? error.message : String(error)}`);
    }
  };
  const fromMs = time('from-time');
  const toMs = time('to-time');
  if (fromMs !== undefined && toMs !== undefined && fromMs >= toMs) throw new UsageError(`--from-time=${values['from-time']} must be before --to-time=${values['to-time']}`);
  return { ...(fromMs === undefined ? {} : { fromMs }), ...(toMs === undefined ? {} : { toMs }) };
}

/** `--from-share` and `--to-share`, checked; none when both are at their defaults (the whole recording). */
function timeShares(values: Values): { fromShare?: number; toShare?: number } {
  const share = (flag: 'from-share' | 'to-share', fallback: number): number => {
    const text = values[flag];
    if (text === undefined) return fallback;
    const value = Number(text);
    if (text.trim() === '' || !Number.isFinite(value) || value < 0 || value > 1) throw new UsageError(`--${flag}=${text} is not a share of the recording's time span (a number ≥ 0 and ≤ 1)`);
    return value;
  };
  const fromShare = share('from-share', 0);
  const toShare = share('to-share', 1);
  if (fromShare >= toShare) throw new UsageError(`--from-share=${fromShare} must be below --to-share=${toShare} (the window runs from one share of the recording's time span to a later one)`);
  return fromShare === 0 && toShare === 1 ? {} : { fromShare, toShare };
}

/** The fee flags over the venue's defaults: a maker rebate (negative) may not exceed the taker fee. */
function fees(values: Values, defaults: VenueChoice['defaultFees']): { makerPbips: number; takerPbips: number } {
  const takerPbips = integerFlag('taker-pbips', values['taker-pbips'], defaults.takerPbips, 0, 1_000_000);
  return { makerPbips: integerFlag('maker-pbips', values['maker-pbips'], defaults.makerPbips, -takerPbips, 1_000_000), takerPbips };
}

function usageError(message: string): never {
  throw new UsageError(message);
}

/** `akira-mm backtest`. */
export const runBacktestCommand: CommandRunner = async (args, io) => {
  const [first] = args;
  if (first === 'merge') return (await import('./backtest-sweep.ts')).runMerge(args.slice(1), io);
  // A bare word that is no file is a mistyped sub-command (`backtest merg`), not a recording.
  if (first !== undefined && /^[a-z]+$/.test(first) && !existsSync(resolve(io.cwd, first))) {
    throw new UnknownNameError('sub-command', first, ['merge'], 'backtest takes --data FILE… --env FILE, or merge FILES…');
  }
  const { values, positionals } = parseFlags(args, BACKTEST_FLAGS, HELP);
  // `--data a b c`: parseArgs gives the extra files as positionals.
  if ((values.data ?? []).length + positionals.length === 0) throw new UsageError(`--data FILE is required\nusage: ${USAGE}`);
  const envs = values.env ?? [];
  if (envs.length === 0) throw new UsageError(`--env FILE is required\nusage: ${USAGE}`);
  if (envs.length === 1 && values['initial-quote'] !== undefined) {
    throw new UsageError('--initial-quote is the account\'s quote balance of a backtest of several pairs (one --env each); one pair holds --initial-base and its value in quote');
  }
  const groups = pairGroups(args, BACKTEST_FLAGS);
  const { venue, thin } = thinPlanFromFlags(values);
  // Loaded only for a thin run: the thin venue's fees are declared with it.
  const defaultFees = thin === undefined ? BACKTEST_DEFAULTS : (await import('../backtest/thin/index.ts')).LAYERAKIRA_FEES;
  if (values['reference-latency-ms'] !== undefined && groups.every((group) => group.reference.length === 0)) throw new UsageError('--reference-latency-ms goes with --reference FILE');
  // Binance's own .gz files are imported once into a temporary recording that lives as long as the command.
  const { referenceRecordings } = await import('./backtest-reference.ts');
  const references: ReferenceRecordings[] = [];
  try {
    for (const group of groups) references.push(await referenceRecordings(group.reference, (message) => io.stderr.write(`--reference: ${message}\n`)));
    const window = windowTimes(values, (await import('../backtest/data/index.ts')).parseUtcTime);
    const plan: AccountPlan = { pairs: groups.map((group, i) => planFromFlags(values, group, references[i]?.paths ?? [], { venue, thin, defaultFees }, window)), initialQuote: values['initial-quote'] };
    return await runPlan(io, values, plan);
  } finally {
    for (const reference of references) reference.dispose();
  }
};

async function runPlan(io: CliIo, values: Values, plan: AccountPlan): Promise<number> {
  if (values.sweep !== undefined && values.sweep.length > 0) {
    const { parseShard, runSweep } = await import('./backtest-sweep.ts');
    return runSweep(io, plan, values.sweep, {
      json: values.json === true,
      jsonl: values.jsonl,
      report: values.report,
      rankBy: values['rank-by'],
      shard: values.shard === undefined ? undefined : parseShard(values.shard),
      workers: values.workers === undefined ? undefined : integerFlag('workers', values.workers, 1, 1, 1024),
      progress: values['no-progress'] !== true,
    });
  }
  for (const flag of ['shard', 'jsonl', 'workers', 'rank-by'] as const) {
    if (values[flag] !== undefined) throw new UsageError(`--${flag} applies to sweeps only: add --sweep KEY=v1,v2`);
  }

  // Loaded only now: `--help` and a usage error cost no engine, strategies or data layer.
  const { executeWithTakerSeeds, prepareAccount } = await import('./backtest-plan.ts');
  const progress = startProgress(io, 'replay', 'records', { enabled: values['no-progress'] !== true });
  const prepared = prepareAccount(plan, progress === undefined ? undefined : (done, total) => progress.update(done, total));
  let result;
  try {
    result = await executeWithTakerSeeds(plan, prepared);
  } finally {
    progress?.stop();
  }
  const { describeAccountRun } = await import('./backtest-output.ts');
  const output = describeAccountRun(prepared.runs, result);
  io.stdout.write(output.text);
  if (values.report !== undefined) {
    const reports = output.reports(values.report);
    try {
      for (const report of reports.files) writeFileSync(report.path, report.html());
    } catch (error) {
      throw new UsageError(`--report ${values.report}: cannot write it (${error instanceof Error ? error.message : String(error)})`);
    }
    io.stdout.write(`${reports.line}\n`);
  }
  if (values.json === true) io.stdout.write(`${output.json}\n`);
  return 0;
}
