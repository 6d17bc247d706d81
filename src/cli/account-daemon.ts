/**
 * The daemon of one trading account quoting several pairs (`run --env A --env B`, `paper
 * --pairs`): an engine per pair (its own strategy, parameters, inventory, caps and scorecard) and
 * one `Account` they share — the outbound request budget, each pair's budget of the account's
 * funds, the ledger whose drift check runs on the account (another pair's fill is never drift),
 * the account-wide notional cap and drawdown kill. One lock and one journal for the account
 * (a view per pair), one metrics endpoint (every metric labelled by pair, plus `akira_mm_account_*`
 * totals), `/health` naming each pair's state and the account's, and a status row per pair.
 *
 * Start: every engine connects and settles its leftovers (`prepare`), then the account splits its
 * free balances into budgets, then every engine quotes (`begin`). SIGINT/SIGTERM stop every engine
 * at once (each cancels its pair's orders and waits for the venue's confirmation).
 */
import { AggregatorRegistry, Gauge, Registry } from 'prom-client';
import type { PairConfig } from '../config/index.ts';
import { LiveClock, getChain, getToken, unitsToNumber, type Logger, type Venue } from '../core/index.ts';
import {
  Account,
  MarketMaker,
  combineObservers,
  startMetricsServer,
  type AccountVenue,
  type EngineMetrics,
  type EngineObserver,
  type EngineSettings,
  type Journal,
  type MetricsServer,
} from '../engine/index.ts';
import { accountLimitsOf, accountPairsOf } from './account-files.ts';
import { openAccountState } from './account-state.ts';
import { buildPairEngine } from './pair-engine.ts';
import { buildStrategy, waitForStopSignal, type DaemonOptions } from './daemon.ts';
import type { HedgeWiring } from './hedge-wiring.ts';
import type { ReferenceFeed } from '../core/index.ts';
import { EXIT_ORDERS_MAY_REST, UsageError, type CliIo } from './io.ts';
import { registerProcessMetrics } from './process-metrics.ts';
import { resolveStateDir } from './state-dir.ts';
import { renderStatusRows } from './status-line.ts';

/** One pair of the account: its file, venue, settings and hedger. */
export interface AccountPairRun {
  readonly config: PairConfig;
  readonly venue: Venue;
  readonly settings: EngineSettings;
  readonly hedge?: HedgeWiring;
  /** The pair's reference market (REFERENCE=…); the engine starts and stops it. */
  readonly reference?: ReferenceFeed;
  /** Registers the pair's venue metrics (labelled by its pair) beside its engine's. */
  readonly registerMetrics?: (registry: Registry) => void;
}

/** What an account daemon needs (placement options as the one-pair daemon's). */
export interface AccountDaemonOptions extends Pick<DaemonOptions, 'io' | 'metricsHost' | 'journalPath' | 'stateDir' | 'lockAccount' | 'showStatus' | 'stopSignal'> {
  readonly pairs: readonly AccountPairRun[];
  /** The account-wide reads (balances; the account's orders on every pair, to name a foreign trade). */
  readonly accountVenue: AccountVenue;
  readonly logger: Logger;
  /** An extra observer for each pair (tests and paper mode count its fills). */
  readonly observerOf?: (pair: string) => EngineObserver;
  /** Registers account-level metrics (signing refusals, wire anomalies) once. */
  readonly registerMetrics?: (registry: Registry) => void;
  /** Closes what the pairs share (the account session), after every engine stopped. */
  readonly closeShared?: () => Promise<void>;
}

/** A running account daemon. */
export interface RunningAccountDaemon {
  /** Each pair's engine, by `BASE/QUOTE`. */
  readonly engines: ReadonlyMap<string, MarketMaker>;
  readonly account: Account;
  readonly metrics: MetricsServer | undefined;
  /** Resolves with the exit code once every pair has stopped. */
  readonly done: Promise<number>;
}

interface PairEngine {
  readonly name: string;
  readonly run: AccountPairRun;
  readonly engine: MarketMaker;
  readonly metrics: EngineMetrics;
  readonly close: () => void;
}

/** Starts every pair of the account; resolves once all of them quote. */
export async function startAccountDaemon(options: AccountDaemonOptions): Promise<RunningAccountDaemon> {
  const { logger, io } = options;
  const first = options.pairs[0];
  if (first === undefined) throw new UsageError('no pair to run');
  const configs = options.pairs.map((pair) => pair.config);
  const clock = new LiveClock();
  const state = openAccountState({
    venueUrl: first.config.exchangeHttpUrl,
    account: first.config.tradingAccount,
    stateDir: options.stateDir ?? resolveStateDir({ configured: first.config.stateDir, env: io.env, cwd: io.cwd }),
    journalPath: options.journalPath,
    lock: options.lockAccount !== false,
    schedule: (callback, delayMs) => clock.setTimeout(callback, delayMs),
  });
  logger.info({ journal: state.journal.path, lock: state.lock?.path, pairs: configs.map((config) => `${config.base}/${config.quote}`) }, 'one account, several pairs: crash journal and account lock');
  const engines: PairEngine[] = [];
  // Every order of ours that filled, for as long as the process runs (fills are few; an engine's
  // table forgets finished orders after minutes): the account names only the others as foreign.
  const filledByUs = new Set<string>();
  const accountVenue: AccountVenue = {
    fetchAccount: () => options.accountVenue.fetchAccount(),
    ...(options.accountVenue.fetchAccountOrders === undefined
      ? {}
      : { fetchAccountOrders: async () => (await (options.accountVenue.fetchAccountOrders as NonNullable<AccountVenue['fetchAccountOrders']>)()).filter((order) => !filledByUs.has(order.orderId)) }),
  };
  const observerOf = (pair: string): EngineObserver => combineObservers([{ fill: (fill) => void filledByUs.add(fill.orderId) }, ...(options.observerOf === undefined ? [] : [options.observerOf(pair)])]);
  try {
    // The account-wide limits count in the first pair's quote token, from its balance at start.
    const opening = await accountVenue.fetchAccount();
    const limits = accountLimitsOf(configs, opening.balances);
    const account = new Account({
      clock,
      logger: logger.child({ component: 'account' }),
      venue: accountVenue,
      pairs: accountPairsOf(configs),
      outbound: first.settings.outbound,
      maxTotalNotionalUnits: limits.maxTotalNotionalUnits,
      maxDrawdownQuote: limits.maxDrawdownQuote,
      limitsToken: limits.limitsToken,
      limitsTokenDecimals: limits.limitsTokenDecimals,
      driftToleranceUnits: first.settings.driftToleranceUnits,
    });
    logger.info(
      { token: limits.limitsToken, maxTotalNotional: unitsToNumber(limits.maxTotalNotionalUnits, limits.limitsTokenDecimals), maxDrawdown: limits.maxDrawdownQuote },
      'account limits in force (0 = off)',
    );
    for (const run of options.pairs) engines.push(pairEngine(run, account, state.journal.forPair(`${run.config.base}/${run.config.quote}`), clock, logger, observerOf));
    const accountRegistry = accountMetrics(account, engines);
    options.registerMetrics?.(accountRegistry);
    registerProcessMetrics(accountRegistry);
    const metricsPort = first.config.metricsPort;
    const metrics =
      metricsPort === 0
        ? undefined
        : await startMetricsServer({
            host: options.metricsHost ?? first.config.metricsHost,
            port: metricsPort,
            registry: accountRegistry,
            status: () => (engines[0] as PairEngine).engine.status(),
            render: async () => AggregatorRegistry.aggregate(await Promise.all([...engines.map((pair) => pair.metrics.registry), accountRegistry].map((registry) => registry.getMetricsAsJSON()))).metrics(),
            health: () => accountHealth(account, engines),
          });
    if (metrics !== undefined) logger.info({ url: `${metrics.url}/metrics`, health: `${metrics.url}/health` }, 'metrics listening');

    const stopSignal = options.stopSignal ?? waitForStopSignal();
    try {
      for (const pair of engines) await pair.run.hedge?.hedger.start();
      // Every pair settles its leftovers first: the budgets split what is free after that. Each
      // start runs to its end before any failure stops them all (a start still under way would
      // open its stream again behind the stop).
      const prepared = await Promise.allSettled(engines.map((pair) => pair.engine.prepare()));
      const failed = prepared.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
      if (failed !== undefined) throw failed.reason;
      account.allocate((await accountVenue.fetchAccount()).balances);
      for (const pair of engines) pair.engine.begin();
    } catch (error) {
      await Promise.all(engines.map((pair) => pair.engine.stop()));
      await stopShared(engines, options);
      await metrics?.stop();
      throw error;
    }
    const showStatus = options.showStatus ?? io.stdout.isTTY === true;
    const status = showStatus ? new StatusRows(io, () => renderStatusRows(engines.map((pair) => ({ pair: pair.name, status: pair.engine.status() })), account.snapshot())) : undefined;
    const statusTimer = status === undefined ? undefined : clock.setInterval(() => status.draw(), 1_000);
    const done = stopSignal.then(async (signal) => {
      logger.info({ signal, pairs: engines.length }, 'stopping: cancelling every order of every pair');
      statusTimer?.cancel();
      const outcomes = await Promise.all(engines.map((pair) => pair.engine.stop()));
      await stopShared(engines, options);
      await metrics?.stop();
      status?.draw();
      if (status !== undefined) io.stdout.write('\n');
      return outcomes.every((outcome) => outcome.confirmed) ? 0 : EXIT_ORDERS_MAY_REST;
    });
    return { engines: new Map(engines.map((pair) => [pair.name, pair.engine])), account, metrics, done };
  } catch (error) {
    state.release();
    throw error;
  }

  async function stopShared(pairs: readonly PairEngine[], daemon: AccountDaemonOptions): Promise<void> {
    for (const pair of pairs) await pair.run.hedge?.hedger.stop();
    await daemon.closeShared?.();
    for (const pair of pairs) pair.close();
    state.release();
  }
}

/** One pair's engine on the shared account, with its metrics (labelled by pair). */
function pairEngine(run: AccountPairRun, account: Account, journal: Journal, clock: LiveClock, logger: Logger, observerOf: ((pair: string) => EngineObserver) | undefined): PairEngine {
  const { config } = run;
  const name = `${config.base}/${config.quote}`;
  const extra = observerOf?.(name);
  const { engine, metrics } = buildPairEngine({
    config,
    venue: run.venue,
    strategy: buildStrategy(config),
    clock,
    logger: logger.child({ pair: name }),
    settings: run.settings,
    journal,
    account: { account, pairName: name },
    ...(extra === undefined ? {} : { observer: extra }),
    ...(run.hedge === undefined ? {} : { hedge: run.hedge }),
    ...(run.reference === undefined ? {} : { reference: run.reference }),
    ...(run.registerMetrics === undefined ? {} : { registerMetrics: run.registerMetrics }),
  });
  return { name, run, engine, metrics, close: () => journal.close() };
}

/** `akira_mm_account_*`: the account's totals beside every pair's own metrics. */
function accountMetrics(account: Account, pairs: readonly PairEngine[]): Registry {
  const registry = new Registry();
  const decimals = (token: string | undefined, pair: PairEngine): number => getToken(getChain(pair.run.config.chain), token ?? pair.run.config.quote).decimals;
  new Gauge({
    name: 'akira_mm_account_pairs',
    help: 'Pairs of this account by engine state (quoting, paused, halted …)',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      this.reset();
      for (const pair of pairs) this.inc({ state: pair.engine.status().state });
    },
  });
  new Gauge({ name: 'akira_mm_account_halted', help: '1 when the account halted every pair (drift, a foreign trade, the account drawdown)', registers: [registry], collect() { this.set(account.haltReason === undefined ? 0 : 1); } });
  new Gauge({
    name: 'akira_mm_account_pnl_quote',
    help: 'PnL of every pair quoted in the account limits token, together (marked at each fair price)',
    labelNames: ['token'],
    registers: [registry],
    collect() {
      const snapshot = account.snapshot();
      this.set({ token: snapshot.limitsToken ?? '' }, snapshot.pnlQuote);
    },
  });
  new Gauge({
    name: 'akira_mm_account_open_notional_quote',
    help: 'Notional of every order of every pair that could still fill, in the account limits token (RISK_MAX_TOTAL_NOTIONAL_ACCOUNT caps it)',
    labelNames: ['token'],
    registers: [registry],
    collect() {
      const snapshot = account.snapshot();
      const first = pairs[0];
      if (first !== undefined && snapshot.limitsToken !== undefined) this.set({ token: snapshot.limitsToken }, unitsToNumber(snapshot.exposedNotionalUnits, decimals(snapshot.limitsToken, first)));
    },
  });
  new Gauge({
    name: 'akira_mm_account_balance',
    help: 'The account ledger: balances at start plus every pair\'s fills, fees and gas, by token, tokens (the drift check holds them to the venue\'s)',
    labelNames: ['token'],
    registers: [registry],
    collect() {
      const first = pairs[0];
      if (first === undefined) return;
      for (const [token, units] of account.expectedBalances()) this.set({ token }, unitsToNumber(units, decimals(token, first)));
    },
  });
  new Gauge({
    name: 'akira_mm_account_budget',
    help: 'What each pair may lock of each token (BUDGET_BASE / BUDGET_QUOTE, or its even share), tokens',
    labelNames: ['pair', 'token'],
    registers: [registry],
    collect() {
      const budgets = account.snapshot().budgets;
      for (const pair of pairs) {
        const funds = budgets.get(pair.name);
        if (funds === undefined) continue;
        const { base, quote } = pair.run.config;
        this.set({ pair: pair.name, token: base }, unitsToNumber(funds.baseUnits, decimals(base, pair)));
        this.set({ pair: pair.name, token: quote }, unitsToNumber(funds.quoteUnits, decimals(quote, pair)));
      }
    },
  });
  return registry;
}

/** `/health`: 200 while every pair quotes and the account stands; each pair's state and reason. */
function accountHealth(account: Account, pairs: readonly PairEngine[]): { healthy: boolean; body: unknown } {
  const states = pairs.map((pair) => ({ pair: pair.name, status: pair.engine.status() }));
  const halted = account.haltReason;
  const healthy = halted === undefined && states.every(({ status }) => status.state === 'quoting');
  const worst = states.find(({ status }) => status.state === 'halted') ?? states.find(({ status }) => status.state !== 'quoting');
  return {
    healthy,
    body: {
      state: healthy ? 'quoting' : (worst?.status.state ?? 'halted'),
      reason: halted ?? worst?.status.haltReason?.message ?? worst?.status.pauseReason ?? null,
      account: { state: halted === undefined ? 'ok' : 'halted', reason: halted ?? null },
      pairs: Object.fromEntries(
        states.map(({ pair, status }) => [pair, { state: status.state, reason: status.haltReason?.message ?? status.pauseReason ?? null, ...(status.hedge === undefined ? {} : { hedge: { state: status.hedge.state, reason: status.hedge.reason ?? null } }) }]),
      ),
    },
  };
}

/** The status rows on a TTY, redrawn in place. */
class StatusRows {
  #drawn = 0;
  constructor(
    private readonly io: CliIo,
    private readonly rows: () => readonly string[],
  ) {}

  draw(): void {
    const rows = this.rows();
    const up = this.#drawn > 1 ? `\x1b[${this.#drawn - 1}F` : '\r';
    this.io.stdout.write(up + rows.map((row) => `\x1b[2K${row}`).join('\n'));
    this.#drawn = rows.length;
  }
}
