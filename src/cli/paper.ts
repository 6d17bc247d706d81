/**
 * `akira-mm paper` (what `npm start` runs): the embedded exchange in-process with synthetic flow,
 * and the bot quoting ETH/USDC on it with the exchange's development account: no configuration,
 * no money. `--env FILE` paper-trades a pair file instead (its URLs and account are replaced by
 * the embedded exchange's). Ctrl-C cancels every order, waits for the exchange to confirm, and
 * prints how many orders were left open (zero).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse as parseDotenv } from 'dotenv';
import type { PairConfig } from '../config/index.ts';
import { LiveClock, createLogger, createRng, getChain, type Logger } from '../core/index.ts';
import { feltToHex } from '../exchange/wire/fields.ts';
import { startSim, type SimHandle } from '../sim/index.ts';
import { integerFlag, parseFlags, type CommandHelp } from './args.ts';
import { waitForStopSignal, type RunningDaemon } from './daemon.ts';
import { UsageError, type CliIo, type CommandRunner } from './io.ts';
import { startLiveRun } from './live.ts';
import { INSECURE_PERMISSIONS_FLAG } from './file-permissions.ts';
import { loadPairFile, validatePairEnv } from './pair-config.ts';
import { PAPER_HEDGE_STRATEGY, defaultHedgeRecording, startPaperHedge, type PaperHedge } from './paper-hedge.ts';
import { startRecordedReference, type FollowDeps, type RecordedReference } from './flow-follow.ts';
import { FLOW_FLAGS, describeFlow, parseFlowFlags } from './flow-flags.ts';
import { recordingClock } from './recording-clock.ts';

const USAGE =
  'akira-mm paper [--env FILE | --pairs BASE/QUOTE,…] [--port N] [--seed N] [--metrics-port N] [--duration SECONDS] [--journal FILE] [--log-level LEVEL] [--hedge [--hedge-data FILE]…] [--reference [--reference-data FILE]…] [--flow poisson|reference] [--thin-… X]… [--insecure-permissions]';

const HELP: CommandHelp = {
  usage: USAGE,
  summary: 'What `npm start` runs: the embedded exchange in-process with synthetic flow and the bot quoting ETH/USDC on its development account, no configuration and no money. Ctrl-C cancels every order and stops.',
};

const OPTIONS = {
  env: { type: 'string', value: 'FILE', default: 'ETH/USDC ladder, 2 levels of 0.05 at 4 bps', doc: 'paper-trade this pair file instead (its URLs and account are replaced by the embedded exchange\'s)' },
  port: { type: 'string', value: 'N', unit: 'port', default: '0 (any free port)', doc: 'HTTP/WS port of the embedded exchange' },
  seed: { type: 'string', value: 'N', default: 0, doc: 'seed of the synthetic order flow; with a reference flow, also its uninformed takers\' (the backtest\'s --thin-taker-seed N draws the same)' },
  'metrics-port': { type: 'string', value: 'N', unit: 'port', default: '0 (off)', doc: 'serve /metrics, /health and the live dashboard (/) here' },
  duration: { type: 'string', value: 'N', unit: 's', default: 'until Ctrl-C', doc: 'stop after this long' },
  journal: {
    type: 'string',
    value: 'FILE',
    default: 'a temporary file, compacted',
    doc: "keep the session's whole journal here (orders sent, acknowledgements, fills with fees, every record with its time; never compacted): what `akira-mm parity --journal` reads. With --reference or --hedge the session runs on the recording's clock (from its first receive time), so parity can replay the same span",
  },
  'log-level': { type: 'string', value: 'LEVEL', default: 'warn', doc: 'pino level: trace, debug, info, warn, error' },
  ...INSECURE_PERMISSIONS_FLAG,
  hedge: { type: 'boolean', doc: 'cross-venue: a recorded Binance market served on loopback as the hedge venue (the flow follows it), the bot quoting xemm and hedging every fill there (with --env: that file\'s strategy, hedged)' },
  'hedge-data': { type: 'string', multiple: true, value: 'FILE', default: '../shared/data/binance-spot-hftbacktest/ethusdt_2024080{8,9}.gz', doc: 'with --hedge: the recording to serve as the hedge market' },
  reference: {
    type: 'boolean',
    doc: 'price from a deep reference market: a recorded Binance market served on loopback (the flow follows it) and read as REFERENCE, quoting with FAIR_PRICE=reference unless the --env file sets its own FAIR_PRICE (with --hedge: the hedge market is the reference)',
  },
  'reference-data': { type: 'string', multiple: true, value: 'FILE', default: '../shared/data/binance-spot-hftbacktest/ethusdt_2024080{8,9}.gz', doc: 'with --reference: the recording to serve as the reference market' },
  pairs: {
    type: 'string',
    value: 'BASE/QUOTE,…',
    default: 'ETH/USDC alone',
    doc: 'paper-trade several pairs (e.g. ETH/USDC,STRK/USDC) on ONE dev account from one process, as `run --env A --env B` does live: one login, one WebSocket, budgets and the drift check on the account',
  },
  ...FLOW_FLAGS,
} as const;

/** Ladder order size per base token in paper mode: the venue's published minimum market-maker sizes (REFERENCE §5). */
const PAPER_ORDER_SIZES: Readonly<Record<string, string>> = { ETH: '0.05', STRK: '150', USDC: '75', USDT: '75' };

/** The pair `npm start` trades when no file is given. */
const DEFAULT_PAPER_ENV: Readonly<Record<string, string>> = {
  BASE: 'ETH',
  QUOTE: 'USDC',
  CHAIN: 'mainnet',
  STRATEGY: 'ladder',
  LADDER_LEVELS: '2',
  LADDER_ORDER_SIZE: '0.05',
  LADDER_BID_SPREAD_BPS: '4',
  LADDER_ASK_SPREAD_BPS: '4',
  LADDER_INVENTORY_SKEW: 'on',
  LOG_LEVEL: 'warn',
};

function stopAfter(seconds: number | undefined): Promise<string> {
  const signal = waitForStopSignal();
  if (seconds === undefined) return signal;
  const clock = new LiveClock();
  return Promise.race([signal, new Promise<string>((done) => clock.setTimeout(() => done('duration'), seconds * 1_000))]);
}

/** What paper mode puts in place of a pair file's venue, account and signer: the embedded exchange's dev account. */
function paperOverrides(sim: SimHandle, metricsPort: number, logLevel: string | undefined): Record<string, string> {
  const account = sim.accounts[0];
  if (account?.privateKey === undefined) throw new UsageError('the embedded exchange has no development account to trade with');
  return {
    EXCHANGE_HTTP_URL: sim.httpUrl,
    EXCHANGE_WS_URL: sim.wsUrl,
    STARKNET_RPC_URL: sim.rpcUrl,
    CHAIN: sim.chain.name,
    TRADING_ACCOUNT: feltToHex(account.address),
    SIGNER_PRIVATE_KEY: feltToHex(account.privateKey),
    // The embedded exchange's dev account replaces whatever signer the file names.
    SIGNER_PRIVATE_KEY_FILE: '',
    SIGNER_KEYSTORE: '',
    SIGNER_KEYSTORE_PASSWORD: '',
    SIGNER_KEYSTORE_PASSWORD_FILE: '',
    SIGNER_REMOTE: '',
    METRICS_PORT: String(metricsPort),
    ...(logLevel === undefined ? {} : { LOG_LEVEL: logLevel }),
  };
}

/** `--pairs ETH/USDC,STRK/USDC`: the default paper pair file for each, on the one dev account. */
function paperPairConfigs(pairs: string, sim: SimHandle, metricsPort: number, logLevel: string | undefined) {
  const names = pairs.split(',').map((pair) => pair.trim()).filter((pair) => pair !== '');
  if (names.length === 0) throw new UsageError('--pairs needs at least one BASE/QUOTE, e.g. --pairs ETH/USDC,STRK/USDC');
  const configs = names.map((name) => {
    const [base, quote, extra] = name.split('/');
    if (base === undefined || quote === undefined || extra !== undefined || base === '' || quote === '') throw new UsageError(`--pairs: "${name}" is not BASE/QUOTE (e.g. ETH/USDC)`);
    const size = PAPER_ORDER_SIZES[base];
    if (size === undefined) throw new UsageError(`--pairs: no paper order size for ${base}; pairs with base ${Object.keys(PAPER_ORDER_SIZES).join(', ')} (or paper-trade a pair file with --env)`);
    return validatePairEnv({ ...DEFAULT_PAPER_ENV, BASE: base, QUOTE: quote, LADDER_ORDER_SIZE: size, ...paperOverrides(sim, metricsPort, logLevel) }, `paper --pairs ${name}`);
  });
  return { names, configs };
}

async function paperConfig(
  envFile: string | undefined,
  sim: SimHandle,
  io: CliIo,
  metricsPort: number,
  logLevel: string | undefined,
  insecurePermissions: boolean | undefined,
  hedgeEnv: Readonly<Record<string, string>> = {},
  referenceEnv: Readonly<Record<string, string>> = {},
) {
  const overrides = { ...paperOverrides(sim, metricsPort, logLevel), ...hedgeEnv, ...referenceEnv };
  // --reference quotes from the reference unless the pair file chose its own fair price.
  if (referenceEnv['REFERENCE'] !== undefined && (envFile === undefined || !fileSetsKey(resolve(io.cwd, envFile), 'FAIR_PRICE'))) overrides['FAIR_PRICE'] = 'reference';
  if (envFile === undefined) return { config: validatePairEnv({ ...DEFAULT_PAPER_ENV, ...(hedgeEnv['HEDGE'] === undefined ? {} : PAPER_HEDGE_STRATEGY), ...overrides }, 'paper defaults') };
  // The file's own key is not used, but a file holding one must still not be open to others.
  // `akira-mm ctl reload` reads it again the same way, the embedded exchange's keys over the file's.
  const load = (): PairConfig => loadPairFile(resolve(io.cwd, envFile), overrides, { insecurePermissions: insecurePermissions === true, warn: (message) => io.stderr.write(`${message}\n`) });
  return { config: load(), reload: load };
}

export const runPaper: CommandRunner = async (args, io) => {
  const { values, positionals } = parseFlags(args, OPTIONS, HELP);
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"\nusage: ${USAGE}`);
  const port = integerFlag('port', values.port, 0, 0, 65_535);
  const seed = integerFlag('seed', values.seed, 0, 0, 2 ** 31 - 1);
  const metricsPort = integerFlag('metrics-port', values['metrics-port'], 0, 0, 65_535);
  const duration = values.duration === undefined ? undefined : integerFlag('duration', values.duration, 0, 1, 10 * 365 * 86_400);
  if (values['hedge-data'] !== undefined && values.hedge !== true) throw new UsageError('--hedge-data goes with --hedge');
  if (values.pairs !== undefined && (values.env !== undefined || values.hedge === true || values.reference === true)) throw new UsageError('--pairs paper-trades the default pair files: it goes without --env, --hedge and --reference');
  if (values['reference-data'] !== undefined && values.reference !== true) throw new UsageError('--reference-data goes with --reference');
  if (values['reference-data'] !== undefined && values.hedge === true) throw new UsageError('--reference-data: with --hedge the hedge market (--hedge-data) is the reference');
  // With a reference (or hedge) market the ETH books trade with its takers, so a stale quote is picked off; --flow poisson is the old flow.
  const flow = parseFlowFlags(values, values.reference === true || values.hedge === true, '--reference or --hedge');
  // With --hedge a recorded Binance market is the hedge venue, and the flow follows its mid; with
  // --reference alone one is served as the reference market, and the flow follows it the same way.
  // With --journal and a recorded market, everything runs on the recording's clock (from its first
  // receive time on), so `akira-mm parity` can replay the session's span of it.
  const marketFiles = values.hedge === true ? (values['hedge-data'] ?? defaultHedgeRecording()) : values.reference === true ? (values['reference-data'] ?? defaultHedgeRecording('--reference')) : undefined;
  const sessionClock = values.journal !== undefined && marketFiles !== undefined ? await recordingClock(marketFiles.map((file) => resolve(io.cwd, file))) : undefined;
  const marketDeps: FollowDeps = { clock: sessionClock ?? new LiveClock(), rng: createRng(seed + 1), logger: simLogger(values['log-level']), chain: getChain('mainnet'), cwd: io.cwd, ...(sessionClock === undefined ? {} : { depth: true }) };
  const hedge = values.hedge === true ? await startPaperHedge(values['hedge-data'] ?? defaultHedgeRecording(), marketDeps) : undefined;
  const served = values.reference === true && hedge === undefined ? await startRecordedReference(values['reference-data'] ?? defaultHedgeRecording('--reference'), marketDeps) : undefined;
  const reference = values.reference === true ? paperReference(served, hedge) : undefined;
  const follower = hedge?.follower ?? served?.follower;
  // The chain only matters for the token table; a pair file's CHAIN wins over the default.
  const sim = await startSim({ port, seed, chain: 'mainnet', flow: true, logger: simLogger(values['log-level']), ...(sessionClock === undefined ? {} : { clock: sessionClock }), ...(follower === undefined ? {} : { follow: follower, flowModel: flow.model, referenceFlow: { ...flow.options, takerSeed: seed } }) });
  // With --journal on a recorded market the venue's flow starts with the session (as its journal's
  // start record is written), as the backtest's thin venue starts with the span it replays: the
  // takers of both draw for the same reference trades (docs/parity.md).
  const flowWithSession = sessionClock !== undefined && follower !== undefined;
  if (flowWithSession) sim.setFlowRunning(false);
  try {
    const loaded: { readonly names: string[]; readonly configs: PairConfig[]; readonly reload?: (() => PairConfig) | undefined } =
      values.pairs !== undefined
        ? paperPairConfigs(values.pairs, sim, metricsPort, values['log-level'])
        : await paperConfig(values.env, sim, io, metricsPort, values['log-level'], values['insecure-permissions'], hedge?.env, reference).then(({ config, reload }) => ({ names: [`${config.base}/${config.quote}`], configs: [config], reload }));
    const { names, configs } = loaded;
    const [config, ...otherConfigs] = configs;
    if (config === undefined) throw new UsageError('--pairs needs at least one pair');
    if (getChain(config.chain).name !== sim.chain.name) throw new UsageError(`paper mode runs the embedded exchange on mainnet; CHAIN=${config.chain}`);
    io.stderr.write(
      configs.length === 1
        ? `paper trading ${config.base}/${config.quote} (${config.strategy}) on the embedded exchange at ${sim.httpUrl}\n` +
            `account ${config.tradingAccount} · ${describeFlow(flow.model, flow.options)} · Ctrl-C cancels every order and stops\n` +
            (hedge === undefined ? '' : `hedging every fill on ${hedge.env['HEDGE']} served at ${hedge.env['HEDGE_REST_URL']} (the flow follows it)\n`) +
            (reference === undefined ? '' : `reference ${reference['REFERENCE']} served at ${reference['REFERENCE_WS_URL']} (recorded, looping; the flow follows it) · FAIR_PRICE=${config.engine.FAIR_PRICE}\n`)
        : `paper trading ${names.join(', ')} (ladder) on ONE account of the embedded exchange at ${sim.httpUrl}\n` +
            `account ${config.tradingAccount} · one process, one WebSocket, budgets split the free balance · synthetic flow on · Ctrl-C cancels every order and stops\n`,
    );
    const run = await startLiveRun({
      config,
      otherConfigs,
      paths: names,
      io,
      ...(values.journal === undefined
        ? { journalPath: join(mkdtempSync(join(tmpdir(), 'akira-paper-')), 'paper.journal') }
        : { journalPath: resolve(io.cwd, values.journal), keepJournalHistory: true }),
      ...(sessionClock === undefined ? {} : { clock: sessionClock }),
      // The embedded exchange lives and dies with this process: no other process can serve its account.
      lockAccount: false,
      stopSignal: stopAfter(duration),
      ...(loaded.reload === undefined ? {} : { reloadConfig: loaded.reload }),
      ...(flowWithSession ? { observerOf: () => ({ sessionStarted: () => sim.setFlowRunning(true) }) } : {}),
    });
    const code = await run.daemon.done;
    await sim.idle();
    const left = sim.openOrdersOf(BigInt(config.tradingAccount)).length;
    io.stderr.write(stoppedLines(run.daemon, config, left));
    const flowStats = sim.referenceFlowStats();
    // Who traded on the followed books, everyone's quotes together (the background maker's too).
    if (flowStats !== undefined) io.stderr.write(`reference flow: ${flowStats.referenceTrades} reference trades, ${flowStats.uninformedTakers} uninformed twins, ${flowStats.arbitrageOrders} arbitrage orders (one per stale quote they went for)\n`);
    run.logger.flush();
    return left === 0 ? code : 1;
  } finally {
    await sim.stop();
    await hedge?.stop();
    await served?.stop();
  }
};

/** What a stopped paper run says: a pair's fills (and hedges) and PnL, or each pair's and the account's halt; the orders left open. */
function stoppedLines(daemon: RunningDaemon, pair: { readonly base: string; readonly quote: string }, left: number): string {
  if (daemon.engines.size === 1) {
    const status = daemon.engine.status();
    const hedged = status.hedge === undefined ? '' : `, ${status.hedge.hedgesSent} hedges (${status.hedge.uncoveredBase.toFixed(6)} ${pair.base} unhedged, hedges' PnL ${status.hedge.pnlQuote.toFixed(2)})`;
    return `stopped: ${status.pnl.fills} fills${hedged}, PnL ${(status.pnl.total + (status.hedge?.pnlQuote ?? 0)).toFixed(2)} ${pair.quote}, ${left} open orders left on the exchange\n`;
  }
  const pairs = [...daemon.engines].map(([name, engine]) => {
    const status = engine.status();
    return `${name}: ${status.pnl.fills} fills, PnL ${status.pnl.total.toFixed(2)} ${name.split('/')[1] ?? ''}\n`;
  });
  return `${pairs.join('')}stopped: ${left} open orders left on the exchange${daemon.account.haltReason === undefined ? '' : ` (account halted: ${daemon.account.haltReason})`}\n`;
}

/** The REFERENCE_* keys of a paper run: the served recording, or with --hedge the hedge market's own server. */
function paperReference(served: RecordedReference | undefined, hedge: PaperHedge | undefined): Record<string, string> {
  if (served !== undefined) return { ...served.env };
  if (hedge === undefined) throw new Error('paper --reference serves a recording or reads the hedge market');
  return { REFERENCE: hedge.env['HEDGE'] ?? '', REFERENCE_WS_URL: hedge.env['HEDGE_STREAM_URL'] ?? '', REFERENCE_REST_URL: hedge.env['HEDGE_REST_URL'] ?? '' };
}

/** True when the pair file sets `key` itself (to any value). */
function fileSetsKey(path: string, key: string): boolean {
  try {
    return parseDotenv(readFileSync(path, 'utf8'))[key] !== undefined;
  } catch {
    // loadPairFile reports an unreadable file with its own clear error.
    return false;
  }
}

function simLogger(level: string | undefined): Logger {
  return createLogger({ level: level ?? 'warn', base: { component: 'sim' } });
}
