/**
 * The daemon around one engine: config → strategy → venue → engine, the metrics server, the
 * crash journal, the live status line on a TTY (pino JSON otherwise), and signals: SIGINT or
 * SIGTERM cancel every order and wait (at most SHUTDOWN_TIMEOUT_MS) for the venue to confirm
 * before exiting 0, or EXIT_ORDERS_MAY_REST naming the orders that may still rest.
 * `run` and `paper` both end here; only the venue they hand in differs.
 */
import type { Registry } from 'prom-client';
import type { PairConfig } from '../config/index.ts';
import { LiveClock, formatConfigIssues, type Logger, type ReferenceFeed, type Strategy, type Venue } from '../core/index.ts';
import {
  MarketMaker,
  startMetricsServer,
  type EngineObserver,
  type EngineSettings,
  type MetricsServer,
} from '../engine/index.ts';
import { getStrategyDefinition } from '../../strategies/index.ts';
import { EXIT_ORDERS_MAY_REST, UsageError, type CliIo } from './io.ts';
import { openAccountState } from './account-state.ts';
import { registerProcessMetrics } from './process-metrics.ts';
import { resolveStateDir } from './state-dir.ts';
import { buildPairEngine } from './pair-engine.ts';
import { renderStatusLine } from './status-line.ts';
import type { HedgeWiring } from './hedge-wiring.ts';

/** Builds the configured strategy, or a usage error listing every bad strategy key. */
export function buildStrategy(config: PairConfig): Strategy {
  const definition = getStrategyDefinition(config.strategy);
  if (definition === undefined) throw new UsageError(`STRATEGY=${config.strategy} is not a known strategy`);
  const params = definition.parseParams(config.raw);
  if (!params.ok) throw new UsageError(`invalid ${config.strategy} settings:\n${formatConfigIssues(params.issues)}`);
  return definition.create(params.params);
}

/** What a daemon run needs. */
export interface DaemonOptions {
  readonly config: PairConfig;
  readonly venue: Venue;
  readonly settings: EngineSettings;
  readonly logger: Logger;
  readonly io: CliIo;
  /** Bind the metrics server here instead of the env file's METRICS_HOST. */
  readonly metricsHost?: string;
  /** Journal file; default the account's journal in the state directory (`state-dir.ts`). */
  readonly journalPath?: string;
  /** State directory (journal, account lock); default `--state-dir`/STATE_DIR/~/.local/state/akira-mm (`resolveStateDir`). */
  readonly stateDir?: string;
  /** Lock the account in the state directory (default true; paper mode's private exchange needs none). */
  readonly lockAccount?: boolean;
  /** Show the one-line status on a TTY (default: when stdout is a TTY). */
  readonly showStatus?: boolean;
  /** Extra observer (paper mode counts fills for its banner). */
  readonly observer?: EngineObserver;
  /** Resolves when the daemon should stop (default: SIGINT or SIGTERM). */
  readonly stopSignal?: Promise<string>;
  /** Registers venue-specific metrics (pre-signing, stream counters) beside the engine's. */
  readonly registerMetrics?: (registry: Registry) => void;
  /** The pair's hedger (HEDGE): started before the engine quotes, stopped after it. */
  readonly hedge?: HedgeWiring;
  /** The pair's reference market (REFERENCE): handed to the engine, which starts and stops it. */
  readonly reference?: ReferenceFeed;
}

/** A running daemon. */
export interface RunningDaemon {
  readonly engine: MarketMaker;
  readonly metrics: MetricsServer | undefined;
  /** Resolves with the exit code once the daemon has stopped. */
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

/** Starts the engine and everything around it. */
export async function startDaemon(options: DaemonOptions): Promise<RunningDaemon> {
  const { config, logger, io } = options;
  const pair = `${config.base}/${config.quote}`;
  const clock = new LiveClock();
  const strategy = buildStrategy(config);
  const account = openAccountState({
    venueUrl: config.exchangeHttpUrl,
    account: config.tradingAccount,
    stateDir: options.stateDir ?? resolveStateDir({ configured: config.stateDir, env: io.env, cwd: io.cwd }),
    journalPath: options.journalPath,
    lock: options.lockAccount !== false,
    schedule: (callback, delayMs) => clock.setTimeout(callback, delayMs),
  });
  logger.info({ journal: account.journal.path, lock: account.lock?.path }, 'crash journal and account lock');
  const journal = account.journal.forPair(pair);
  const { engine, metrics: metricsRegistry } = buildPairEngine({
    config,
    venue: options.venue,
    strategy,
    clock,
    logger,
    settings: options.settings,
    journal,
    ...(options.observer === undefined ? {} : { observer: options.observer }),
    ...(options.hedge === undefined ? {} : { hedge: options.hedge }),
    ...(options.reference === undefined ? {} : { reference: options.reference }),
    ...(options.registerMetrics === undefined ? {} : { registerMetrics: options.registerMetrics }),
  });
  registerProcessMetrics(metricsRegistry.registry);
  const metrics =
    config.metricsPort === 0
      ? undefined
      : await startMetricsServer({ host: options.metricsHost ?? config.metricsHost, port: config.metricsPort, registry: metricsRegistry.registry, status: () => engine.status() });
  if (metrics !== undefined) logger.info({ url: `${metrics.url}/metrics`, health: `${metrics.url}/health` }, 'metrics listening');

  const showStatus = options.showStatus ?? io.stdout.isTTY === true;
  const statusTimer = showStatus ? clock.setInterval(() => io.stdout.write(`\r\x1b[2K${renderStatusLine(engine.status(), pair)}`), 1_000) : undefined;

  // Listen before starting: a SIGTERM while the engine boots (it may already have orders out)
  // must still end in a cancel-all, right after start completes, not in a bare exit.
  const stopSignal = options.stopSignal ?? waitForStopSignal();
  try {
    // The hedger settles what the journal left uncovered before the engine quotes.
    await options.hedge?.hedger.start();
    await engine.start();
  } catch (error) {
    await options.hedge?.hedger.stop();
    journal.close();
    account.release();
    // A listening metrics server would keep the process alive after a failed start.
    await metrics?.stop();
    throw error;
  }
  const done = stopSignal.then(async (signal) => {
    logger.info({ signal }, 'stopping: cancelling every order');
    statusTimer?.cancel();
    if (showStatus) io.stdout.write('\n');
    const stopped = await engine.stop();
    await options.hedge?.hedger.stop();
    account.release();
    await metrics?.stop();
    if (showStatus) io.stdout.write(`${renderStatusLine(engine.status(), pair)}\n`);
    return stopped.confirmed ? 0 : EXIT_ORDERS_MAY_REST;
  });
  return { engine, metrics, done };
}
