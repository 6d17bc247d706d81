/**
 * What `run --env A --env B` (and `paper --pairs`) wire: several pair files of one account become
 * one signer (opened once, under a policy that covers every pair), one account session (one
 * login, one WebSocket connection for every pair's streams and the account's fills), a venue per
 * pair on it, and the account daemon around an engine per pair.
 */
import { randomBytes } from 'node:crypto';
import type { PairConfig } from '../config/index.ts';
import { LiveClock, createLogger, createRng, getChain, getToken, type Logger } from '../core/index.ts';
import { AccountSession } from '../exchange/index.ts';
import { SigningAudit } from '../exchange/signer/index.ts';
import { startAccountDaemon, type RunningAccountDaemon } from './account-daemon.ts';
import { createReferenceFeed, registerReferenceMetrics } from '../markets/index.ts';
import { createHedger } from './hedge-wiring.ts';
import { engineSettingsOf, type EngineObserver } from '../engine/index.ts';
import { liveVenueConfig, registerPresignMetrics, registerSigningMetrics, registerWireAnomalyMetrics, remoteSignerDeps, type LiveRunOptions } from './live.ts';
import { openSigner } from './signer-setup.ts';
import { mergePolicies } from './signer.ts';
import { hedgeJournalPath, orderJournalPath } from './state-dir.ts';

/** What an account run needs (the daemon's placement options as `run` with one pair takes them). */
export interface AccountRunOptions
  extends Pick<LiveRunOptions, 'io' | 'logger' | 'metricsHost' | 'journalPath' | 'stateDir' | 'lockAccount' | 'stopSignal' | 'showStatus' | 'permissions' | 'signer'> {
  /** The pair files, validated and checked to agree (`checkAccountFiles`). */
  readonly configs: readonly PairConfig[];
  /** Where each came from, for messages. */
  readonly paths: readonly string[];
  /** An extra observer for each pair, by `BASE/QUOTE`. */
  readonly observerOf?: (pair: string) => EngineObserver;
}

/** A running account. */
export interface AccountRun {
  readonly session: AccountSession;
  readonly daemon: RunningAccountDaemon;
  readonly logger: Logger;
}

/** Starts every pair of the account; resolves once all of them quote. */
export async function startAccountRun(options: AccountRunOptions): Promise<AccountRun> {
  const { configs, io } = options;
  const first = configs[0];
  if (first === undefined) throw new Error('an account run needs at least one pair file');
  const logger = options.logger ?? createLogger({ level: first.logLevel, base: { account: first.tradingAccount } });
  const clock = new LiveClock();
  // Salts must be unpredictable on a real venue: the live RNG is seeded from the OS, once.
  const rng = createRng(randomBytes(4).readUInt32LE(0));
  if (first.starknetRpcUrl === undefined) {
    logger.warn({ chain: first.chain }, 'STARKNET_RPC_URL is not set: the fee recipient and contract addresses signed into every order are not checked against the chain (`akira-mm preflight` says which are verified)');
  }
  const audit = new SigningAudit(logger);
  const signer = options.signer ?? (await openSigner(first, { io, logger, clock, audit, ...(options.permissions === undefined ? {} : { permissions: options.permissions }) }));
  // One signer for the account: it signs for every pair of these files and nothing else.
  const policy = mergePolicies(configs, options.paths);
  const session = new AccountSession(
    configs.map((config) => ({ ...liveVenueConfig(config, signer, first.signingWorkers), signingPolicy: policy })),
    { clock, rng, logger, audit, ...remoteSignerDeps(signer) },
  );
  const journalOptions = { journalPath: options.journalPath, stateDir: options.stateDir, env: io.env, cwd: io.cwd };
  const pairs = configs.map((config, index) => {
    const venue = session.venues[index];
    if (venue === undefined) throw new Error(`no venue for ${config.base}/${config.quote}`);
    const chain = getChain(config.chain);
    const hedge = createHedger(config, { clock, rng, logger, journalPath: hedgeJournalPath(orderJournalPath(config, journalOptions), config.base, config.quote) });
    // REFERENCE=…: each pair reads its own reference market, as `run --env` does.
    const reference = createReferenceFeed(config.reference, { clock, rng, logger: logger.child({ pair: `${config.base}/${config.quote}` }) });
    return {
      config,
      venue,
      settings: engineSettingsOf(config.keys, { baseDecimals: getToken(chain, config.base).decimals, quoteDecimals: getToken(chain, config.quote).decimals }),
      ...(hedge === undefined ? {} : { hedge }),
      ...(reference === undefined ? {} : { reference }),
      registerMetrics: (registry: Parameters<typeof registerPresignMetrics>[0]) => {
        registerPresignMetrics(registry, venue);
        if (reference !== undefined) registerReferenceMetrics(registry, reference, clock);
      },
    };
  });
  const firstVenue = session.venues[0] as (typeof session.venues)[number];
  const startedAtMs = clock.nowMs();
  // What the daemon places as given: metrics host, journal, state dir, lock, stop signal, status, observer.
  const { configs: _configs, paths: _paths, logger: _logger, permissions: _permissions, signer: _signer, ...placement } = options;
  try {
    const daemon = await startAccountDaemon({
      ...placement,
      pairs,
      // Orders of earlier runs are not someone else's: only this run's count (to the second, a little before).
      accountVenue: { fetchAccount: () => firstVenue.fetchAccount(), fetchAccountOrders: () => session.fetchAccountOrders(startedAtMs - 1_000) },
      logger,
      closeShared: () => session.stop(),
      registerMetrics: (registry) => {
        registerWireAnomalyMetrics(registry, firstVenue);
        registerSigningMetrics(registry, audit);
      },
    });
    return { session, daemon, logger };
  } catch (error) {
    await session.stop();
    throw error;
  }
}
