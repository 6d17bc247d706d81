/**
 * The daemon of one trading account quoting N ≥ 1 pairs (`run`, `paper`; one pair is an account of
 * one): an engine per pair (its own strategy, parameters, inventory, caps and scorecard) and one
 * `Account` they share — the outbound request budget, each pair's budget of the account's funds
 * (a pair alone counts the whole balance), the ledger whose drift check runs on the account
 * (another pair's fill is never drift), the account-wide notional cap and drawdown kill (several
 * pairs). One lock and one journal for the account (a view per pair), one metrics endpoint (every
 * metric labelled by pair, plus `akira_mm_account_*`), `/health` naming each pair's state and the
 * account's, the live dashboard at `/` of that port (`src/ops/dashboard`), and the status line (a
 * row per pair, and the account's row when there are several).
 *
 * Start: every hedger settles, then the engines start the one way (`startEngines`). SIGINT or
 * SIGTERM stop every engine at once (each cancels its pair's orders and waits, at most
 * SHUTDOWN_TIMEOUT_MS, for the venue to confirm) before exiting 0, or EXIT_ORDERS_MAY_REST.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { AggregatorRegistry, Registry } from 'prom-client';
import type { PairConfig } from '../config/index.ts';
import { LiveClock, getChain, getToken, unitsToNumber, withContracts, type Clock, type Logger, type ReferenceFeed, type Strategy, type Venue } from '../core/index.ts';
import {
  Account,
  STARTING_HEALTH,
  accountHealth,
  combineObservers,
  createEngineMetrics,
  startEngines,
  startMetricsServer,
  type AccountVenue,
  type EngineMetrics,
  type EngineObserver,
  type EngineSettings,
  type MarketMaker,
  type MetricsServer,
} from '../engine/index.ts';
import { Dashboard } from '../ops/dashboard/index.ts';
import { Notifier, OpsMonitor, registerAlertMetrics } from '../ops/index.ts';
import { accountLimitsOf, accountPairsOf } from './account-files.ts';
import { buildStrategy } from './pair-config.ts';
import { registerAccountMetrics, registerSettlementMetrics } from './account-metrics.ts';
import { SettlementWatch } from './settlement-watch.ts';
import { openAccountState } from './account-state.ts';
import type { HedgeWiring } from './hedge-wiring.ts';
import { EXIT_ORDERS_MAY_REST, UsageError, type CliIo } from './io.ts';
import { buildInfo, createProcessRegistry, registerDeprecatedProcessMetrics } from './process-metrics.ts';
import { ControlServer } from './ctl-server.ts';
import { DaemonControl } from './daemon-control.ts';
import { controlAuditPath, controlSocketPath, resolveStateDir } from './state-dir.ts';
import { StatusRows, renderStatusRows } from './status-line.ts';

// Where backtests and benches have always found it; it lives beside the pair file's reader.
export { buildStrategy } from './pair-config.ts';

/** One pair of the account: its file, venue, settings, hedger and reference. */
export interface DaemonPair {
  readonly config: PairConfig;
  readonly venue: Venue;
  readonly settings: EngineSettings;
  /** The pair's hedger (HEDGE): started before the engines, stopped after them. */
  readonly hedge?: HedgeWiring;
  /** The pair's reference market (REFERENCE=…); the engine start starts it, the engine stops it. */
  readonly reference?: ReferenceFeed;
  /** Registers the pair's venue metrics (labelled by its pair) beside its engine's. */
  readonly registerMetrics?: (registry: Registry) => void;
  /** Re-reads the pair's file as it was read at start, for `akira-mm ctl reload`; absent when the pair came from no file. */
  readonly reload?: () => PairConfig;
}

/** What a daemon run needs. */
export interface DaemonOptions {
  readonly pairs: readonly DaemonPair[];
  /** The account-wide reads (balances; the account's orders on every pair, to name a foreign trade). */
  readonly accountVenue: AccountVenue;
  readonly logger: Logger;
  readonly io: CliIo;
  /** Bind the metrics server here instead of the env files' METRICS_HOST. */
  readonly metricsHost?: string;
  /** Journal file; default the account's journal in the state directory (`state-dir.ts`). */
  readonly journalPath?: string;
  /** Keep the journal's whole history (`paper --journal FILE`): no compaction. */
  readonly keepJournalHistory?: boolean;
  /** The daemon's clock; default the wall clock (tests: one manual clock for the bot and the venue). */
  readonly clock?: Clock;
  /** State directory (journal, account lock); default `--state-dir`/STATE_DIR/~/.local/state/akira-mm (`resolveStateDir`). */
  readonly stateDir?: string;
  /** Lock the account in the state directory (default true; paper mode's private exchange needs none). */
  readonly lockAccount?: boolean;
  /** Listen for `akira-mm ctl` on the account's control socket in the state directory (default true). */
  readonly control?: boolean;
  /** Show the status on a TTY (default: when stdout is a TTY). */
  readonly showStatus?: boolean;
  /** Resolves when the daemon should stop (default: SIGINT or SIGTERM). */
  readonly stopSignal?: Promise<string>;
  /** An extra observer for each pair, by `BASE/QUOTE` (tests and paper mode count its fills). */
  readonly observerOf?: (pair: string) => EngineObserver;
  /** Registers the account's venue metrics (signing refusals, wire anomalies) once. */
  readonly registerMetrics?: (registry: Registry) => void;
  /** Closes what the pairs share (the account session), after every engine stopped. */
  readonly closeShared?: () => Promise<void>;
  /** What the alerts read of the account's connection to the venue (counters that only grow). */
  readonly venueCounters?: {
    /** Reconnects of the venue's stream so far. */
    readonly reconnects: () => number | undefined;
    /** Requests the venue answered with 429 so far. */
    readonly rateLimited: () => number;
  };
}

/** A running daemon. */
export interface RunningDaemon {
  /** The first pair's engine (the pair, when there is one). */
  readonly engine: MarketMaker;
  /** Each pair's engine, by `BASE/QUOTE`. */
  readonly engines: ReadonlyMap<string, MarketMaker>;
  readonly account: Account;
  readonly metrics: MetricsServer | undefined;
  /** Resolves with the exit code once every pair has stopped. */
  readonly done: Promise<number>;
}

/** Waits for SIGINT or SIGTERM once. */
export function waitForStopSignal(): Promise<string> {
  return new Promise((resolve) => {
    const onSignal = (signal: string): void => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      resolve(signal);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}

/** A pair as the daemon holds it: its name, strategy, metrics and journal view; its engine once started. */
interface PairSlot {
  readonly name: string;
  readonly run: DaemonPair;
  readonly strategy: Strategy;
  readonly metrics: EngineMetrics;
  engine: MarketMaker | undefined;
}

/** Starts every pair of the account and everything around them; resolves once all of them quote. */
export async function startDaemon(options: DaemonOptions): Promise<RunningDaemon> {
  const { logger, io } = options;
  const first = options.pairs[0];
  if (first === undefined) throw new UsageError('no pair to run');
  const configs = options.pairs.map((pair) => pair.config);
  const clock = options.clock ?? new LiveClock();
  const slots: PairSlot[] = options.pairs.map((run) => {
    const { config } = run;
    const name = `${config.base}/${config.quote}`;
    const chain = getChain(config.chain);
    const metrics = createEngineMetrics({ pair: name, baseDecimals: getToken(chain, config.base).decimals, quoteDecimals: getToken(chain, config.quote).decimals, hasReference: run.reference !== undefined });
    return { name, run, strategy: buildStrategy(config), metrics, engine: undefined };
  });
  const state = openAccountState({
    venueUrl: first.config.exchangeHttpUrl,
    account: first.config.tradingAccount,
    stateDir: options.stateDir ?? resolveStateDir({ configured: first.config.stateDir, env: io.env, cwd: io.cwd }),
    journalPath: options.journalPath,
    ...(options.keepJournalHistory === true ? { keepJournalHistory: true } : {}),
    lock: options.lockAccount !== false,
    schedule: (callback, delayMs) => clock.setTimeout(callback, delayMs),
  });
  logger.info({ journal: state.journal.path, lock: state.lock?.path, pairs: slots.map((slot) => slot.name) }, 'crash journal and account lock');
  const journals = slots.map((slot) => state.journal.forPair(slot.name));
  // Every order of ours that filled, for as long as the process runs (fills are few; an engine's
  // table forgets finished orders after minutes): the account names only the others as foreign.
  const filledByUs = new Set<string>();
  const readOrders = options.accountVenue.fetchAccountOrders;
  const accountVenue: AccountVenue = {
    fetchAccount: () => options.accountVenue.fetchAccount(),
    ...(readOrders === undefined ? {} : { fetchAccountOrders: async () => (await readOrders.call(options.accountVenue)).filter((order) => !filledByUs.has(order.orderId)) }),
  };
  const account = new Account({
    clock,
    logger: logger.child({ component: 'account' }),
    venue: accountVenue,
    pairs: accountPairsOf(configs),
    outbound: first.settings.outbound,
    // The account-wide limits count in the first pair's quote token, from its balance once leftovers settled.
    limits: (balances) => accountLimitsOf(configs, balances),
    driftToleranceUnits: first.settings.driftToleranceUnits,
  });
  // ALERT_*: off (undefined) unless a channel is set. Beside the engines, never inside them: the
  // monitor observes each pair and polls statuses and counters; publishing never blocks or throws.
  const notifier = Notifier.create({ settings: first.config.alerts, clock, logger });
  const chain = getChain(first.config.chain);
  const monitor =
    notifier === undefined
      ? undefined
      : new OpsMonitor({
          sink: notifier,
          clock,
          source: {
            account: first.config.tradingAccount,
            venue: 'layerakira',
            pairs: slots.map((slot) => ({
              pair: slot.name,
              base: slot.run.config.base,
              quote: slot.run.config.quote,
              baseDecimals: getToken(chain, slot.run.config.base).decimals,
              quoteDecimals: getToken(chain, slot.run.config.quote).decimals,
              driftToleranceUnits: slot.run.settings.driftToleranceUnits,
              status: () => slot.engine?.status(),
              ...(slot.run.reference === undefined ? {} : { referenceStatus: () => slot.run.reference?.status() }),
            })),
            ...(options.venueCounters === undefined ? {} : { venueReconnects: options.venueCounters.reconnects, venueRateLimited: options.venueCounters.rateLimited }),
            balances: () => new Map([...account.expectedBalances()].map(([token, units]) => [token, unitsToNumber(units, getToken(chain, token).decimals)])),
          },
        });
  const stopAlerts = async (): Promise<void> => {
    monitor?.stop();
    await notifier?.stop();
  };
  // The settlement check beside the engines, when the pair file names a Starknet node.
  const settlementWatch =
    first.config.starknetRpcUrl === undefined
      ? undefined
      : new SettlementWatch({
          rpcUrl: first.config.starknetRpcUrl,
          chain: withContracts(getChain(first.config.chain), first.config.contracts),
          account: BigInt(first.config.tradingAccount),
          journalPath: state.journal.path,
          clock,
          logger: logger.child({ component: 'settlement' }),
        });
  const stopShared = async (): Promise<void> => {
    settlementWatch?.stop();
    for (const slot of slots) await slot.run.hedge?.hedger.stop();
    await options.closeShared?.();
    for (const journal of journals) journal.close();
    state.release();
  };
  let metrics: MetricsServer | undefined;
  let controlServer: ControlServer | undefined;
  let isStopping = false;
  const control = new DaemonControl({ account, clock, logger: logger.child({ component: 'ctl' }), auditPath: controlAuditPath(state.stateDir, state.key), isStopping: () => isStopping });
  let dashboard: Dashboard | undefined;
  try {
    // An account of one pair labels its account-wide series with its pair, as a one-pair daemon always has.
    const accountRegistry = new Registry();
    const accountLabels = slots.length === 1 ? { pair: first.config.base + '/' + first.config.quote } : {};
    if (slots.length === 1) accountRegistry.setDefaultLabels(accountLabels);
    for (const slot of slots) {
      slot.run.registerMetrics?.(slot.metrics.registry);
      slot.run.hedge?.metrics.register(slot.metrics.registry, () => slot.engine?.status().hedge, () => slot.engine?.status().position);
    }
    registerAccountMetrics(accountRegistry, account, slots);
    registerSettlementMetrics(accountRegistry, () => settlementWatch?.figures());
    settlementWatch?.start();
    options.registerMetrics?.(accountRegistry);
    if (notifier !== undefined) registerAlertMetrics(accountRegistry, notifier);
    registerDeprecatedProcessMetrics(accountRegistry);
    const registries = [...slots.map((slot) => slot.metrics.registry), accountRegistry];
    // The process's own metrics once, with no pair label, whatever the pairs. Appended as text: its
    // names are its own, and aggregating would drop what prom-client marks not to aggregate
    // across cluster workers (process_start_time_seconds).
    const processRegistry = createProcessRegistry(buildInfo(io.env));
    const engines = (): PairSlot[] | undefined => (slots.every((slot) => slot.engine !== undefined) ? slots : undefined);
    const metricsPort = first.config.metricsPort;
    // The dashboard reads the same registries /metrics renders (each pair's carries its pair label).
    dashboard =
      metricsPort === 0
        ? undefined
        : new Dashboard({
            clock,
            pairs: slots.map((slot) => {
              const chain = getChain(slot.run.config.chain);
              const { base, quote } = slot.run.config;
              return {
                name: slot.name,
                base,
                quote,
                baseDecimals: getToken(chain, base).decimals,
                quoteDecimals: getToken(chain, quote).decimals,
                registry: slot.metrics.registry,
                labels: { pair: slot.name },
                status: () => slot.engine?.status(),
              };
            }),
            account: { registry: accountRegistry, labels: accountLabels, haltReason: () => account.haltReason },
          });
    metrics =
      metricsPort === 0 || dashboard === undefined
        ? undefined
        : await startMetricsServer({
            host: options.metricsHost ?? first.config.metricsHost,
            port: metricsPort,
            contentType: accountRegistry.contentType,
            metrics: async () => (await AggregatorRegistry.aggregate(await Promise.all(registries.map((registry) => registry.getMetricsAsJSON()))).metrics()) + (await processRegistry.metrics()),
            health: () => {
              const started = engines();
              return started === undefined ? STARTING_HEALTH : accountHealth(started.map((slot) => ({ name: slot.name, status: (slot.engine as MarketMaker).status() })), account.snapshot());
            },
            routes: dashboard.routes(),
          });
    dashboard?.start();
    if (metrics !== undefined) logger.info({ url: `${metrics.url}/metrics`, health: `${metrics.url}/health`, dashboard: `${metrics.url}/` }, 'metrics listening');

    // Before the engines: a socket that cannot listen starts nothing (an operator finds out now, not when pausing).
    if (options.control !== false) controlServer = await startControlServer(controlSocketPath(state.stateDir, state.key), control, logger);

    // Listen before starting: a SIGTERM while the engines boot (they may already have orders out)
    // must still end in a cancel-all, right after the start completes, not in a bare exit.
    const stopSignal = options.stopSignal ?? waitForStopSignal();
    // The hedgers settle what the journal left uncovered before the engines quote.
    for (const slot of slots) await slot.run.hedge?.hedger.start();
    const started = await startEngines(
      account,
      slots.map((slot, i) => {
        const extra = options.observerOf?.(slot.name);
        const recordFill: EngineObserver = { fill: (fill) => void filledByUs.add(fill.orderId) };
        const watched = dashboard?.observerOf(i);
        return {
          pairName: slot.name,
          venue: slot.run.venue,
          strategy: slot.strategy,
          clock,
          logger: logger.child({ pair: slot.name }),
          settings: slot.run.settings,
          journal: journals[i] as (typeof journals)[number],
          observer: combineObservers([slot.metrics.observer, recordFill, ...(watched === undefined ? [] : [watched]), ...(monitor === undefined ? [] : [monitor.observerFor(slot.name)]), ...(extra === undefined ? [] : [extra])]),
          ...(slot.run.hedge === undefined ? {} : { hedge: slot.run.hedge.hedger }),
          ...(slot.run.reference === undefined ? {} : { reference: slot.run.reference }),
        };
      }),
    );
    started.forEach((engine, i) => {
      const slot = slots[i] as PairSlot;
      slot.engine = engine;
      slot.metrics.bindStatus(() => engine.status());
    });
    control.attach(started.map((engine, i) => {
      const slot = slots[i] as PairSlot;
      return { name: slot.name, engine, config: slot.run.config, ...(slot.run.reload === undefined ? {} : { reload: slot.run.reload }) };
    }));
    monitor?.start();
    const showStatus = options.showStatus ?? io.stdout.isTTY === true;
    const rows = () => renderStatusRows(started.map((engine, i) => ({ pair: (slots[i] as PairSlot).name, status: engine.status() })), account.snapshot());
    const status = showStatus ? new StatusRows(io, rows) : undefined;
    const statusTimer = status === undefined ? undefined : clock.setInterval(() => status.draw(), 1_000);
    const running = metrics;
    const done = stopSignal.then(async (signal) => {
      logger.info({ signal, pairs: started.length }, 'stopping: cancelling every order');
      isStopping = true;
      statusTimer?.cancel();
      const outcomes = await Promise.all(started.map((engine) => engine.stop()));
      await controlServer?.stop();
      await stopShared();
      dashboard?.stop();
      // After the engines: their last halts and pauses are raised, then the queue is flushed (bounded).
      await stopAlerts();
      await running?.stop();
      status?.finish();
      return outcomes.every((outcome) => outcome.confirmed) ? 0 : EXIT_ORDERS_MAY_REST;
    });
    return { engine: started[0] as MarketMaker, engines: new Map(started.map((engine, i) => [(slots[i] as PairSlot).name, engine])), account, metrics, done };
  } catch (error) {
    // A listening metrics server would keep the process alive after a failed start.
    await controlServer?.stop();
    await stopShared();
    dashboard?.stop();
    await stopAlerts();
    await metrics?.stop();
    throw error;
  }
}

/**
 * Listens for `akira-mm ctl` on the account's control socket.
 * @throws UsageError naming the socket when it cannot listen (path too long, another daemon on it).
 */
async function startControlServer(socketPath: string, control: DaemonControl, logger: Logger): Promise<ControlServer> {
  try {
    mkdirSync(dirname(socketPath), { recursive: true, mode: 0o700 });
    const server = await ControlServer.start({ socketPath, control, logger });
    logger.info({ socket: socketPath }, 'ctl listening');
    return server;
  } catch (error) {
    throw new UsageError(`cannot listen for akira-mm ctl on ${socketPath}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
