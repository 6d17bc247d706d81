/**
 * The one composition root of `run` and `paper`, for N ≥ 1 pair files of one account (one pair is
 * an account of one): one signer (opened once, under a policy that covers every pair), one
 * account session (one login, one WebSocket connection for every pair's streams and the
 * account's fills), a venue per pair on it, each pair's hedger and reference market, and the
 * daemon around an engine per pair. Only the URLs differ between the two: `run` uses the files',
 * `paper` points them at the embedded exchange it started.
 */
import { randomBytes } from 'node:crypto';
import type { PairConfig, PermissionOptions } from '../config/index.ts';
import { ENGINE_KEYS, LiveClock, createLogger, createRng, getChain, getToken, settingsOf, type Clock, type Logger } from '../core/index.ts';
import { AccountSession, WIRE_ANOMALY_KINDS, type LiveVenue, type LiveVenueConfig, type LiveVenueFactoryDeps } from '../exchange/index.ts';
import { REFUSAL_KINDS, SigningAudit } from '../exchange/signer/index.ts';
import { engineSettingsOf, type EngineObserver } from '../engine/index.ts';
import { checkAccountFiles } from './account-files.ts';
import { startDaemon, type DaemonPair, type RunningDaemon } from './daemon.ts';
import { hedgeJournalPath, orderJournalPath } from './state-dir.ts';
import { createHedger } from './hedge-wiring.ts';
import type { CliIo } from './io.ts';
import { openSigner, signingPolicyOf, type OpenedSigner } from './signer-setup.ts';
import { mergePolicies } from './signer.ts';
import { Counter, Gauge, type Registry } from 'prom-client';
import { registerFollowingCounter } from '../core/prometheus.ts';
import { createReferenceFeed, registerReferenceMetrics } from '../markets/index.ts';

/** What the venue sent that the client read past, by kind (one count per connection: several pairs on one account register it once). */
export function registerWireAnomalyMetrics(registry: Registry, venue: LiveVenue): void {
  registerFollowingCounter({
    name: 'akira_mm_wire_anomalies_total',
    help: 'Oddities in venue messages read past instead of dropping the message (extra decimals, unknown enum values, unreadable frames …)',
    labelNames: ['kind'],
    registry,
    read: () => WIRE_ANOMALY_KINDS.map((kind) => ({ labels: { kind }, value: venue.wireAnomalies().get(kind) ?? 0 })),
  });
}

/**
 * `akira_mm_venue_rate_limited_total`: the venue's 429 answers to the REST client (each waited
 * out as the venue asked, then retried or failed). One count per account session: the venue
 * limits per account, so several pairs on one account register it once.
 */
export function registerRateLimitMetrics(registry: Registry, venue: LiveVenue): void {
  registerFollowingCounter({
    name: 'akira_mm_venue_rate_limited_total',
    help: 'Requests the venue answered with 429 (rate limited); each one was waited out and retried, or failed',
    registry,
    read: () => venue.rateLimited(),
  });
}

/** Pre-signing effectiveness of one pair's venue. */
export function registerPresignMetrics(registry: Registry, venue: LiveVenue): void {
  const stats = (): ReturnType<LiveVenue['presignStats']> => venue.presignStats();
  registerFollowingCounter({ name: 'akira_mm_presign_hits_total', help: 'Orders sent pre-signed', registry, read: () => stats().hits });
  registerFollowingCounter({ name: 'akira_mm_presign_misses_total', help: 'Orders signed in the hot path (no pre-signed match)', registry, read: () => stats().misses });
  new Gauge({ name: 'akira_mm_presign_ready', help: 'Pre-signed orders waiting', registers: [registry], collect() { this.set(stats().size); } });
}

/**
 * `akira_mm_signing_refused_total{kind}`: requests the signing policy refused (in this process,
 * or reported by the remote signer). Every kind starts at 0 so `increase()` alerts see it.
 */
export function registerSigningMetrics(registry: Registry, audit: SigningAudit): void {
  const refused = new Counter({ name: 'akira_mm_signing_refused_total', help: 'Signatures the signing policy refused, by kind (a security event each)', labelNames: ['kind'], registers: [registry] });
  for (const kind of REFUSAL_KINDS) refused.inc({ kind }, audit.counts().get(kind) ?? 0);
  audit.onRefused((kind) => refused.inc({ kind }));
}

/** What a live run needs: the pair files (the first one's at the top) and the daemon's placement. */
export interface LiveRunOptions {
  /** The first pair's file (one pair: the pair's). */
  readonly config: PairConfig;
  /** The account's other pairs' files (`run --env A --env B`); they must agree on the account (`checkAccountFiles`). */
  readonly otherConfigs?: readonly PairConfig[];
  /** Where each file came from, the first's first, for messages; default each pair's name. */
  readonly paths?: readonly string[];
  readonly io: CliIo;
  readonly logger?: Logger;
  readonly metricsHost?: string;
  readonly journalPath?: string;
  /** Keep the journal's whole history (`paper --journal FILE`, for `akira-mm parity`). */
  readonly keepJournalHistory?: boolean;
  /** The bot's clock; default the wall clock. Tests of parity run the bot, the embedded exchange and the recorded market on one manual clock. */
  readonly clock?: Clock;
  /** State directory (journal, account lock); default as `resolveStateDir`. */
  readonly stateDir?: string;
  /** Lock the account in the state directory (default true). */
  readonly lockAccount?: boolean;
  readonly stopSignal?: Promise<string>;
  readonly showStatus?: boolean;
  /** Signing worker threads (default the first file's SIGNING_WORKERS; 0: pre-signing runs on the event loop in idle slices). */
  readonly signingWorkers?: number;
  /** How strictly a keystore's permissions are checked (`--insecure-permissions`). */
  readonly permissions?: PermissionOptions;
  /** The signer, already opened (default: opened from the first file's signer keys). */
  readonly signer?: OpenedSigner;
  /** An extra observer for each pair, by `BASE/QUOTE`. */
  readonly observerOf?: (pair: string) => EngineObserver;
  /** Re-reads pair `index`'s file (0: the first) as it was read at start, for `akira-mm ctl reload`; absent: nothing to reload. */
  readonly reloadConfig?: (index: number) => PairConfig;
  /** Listen for `akira-mm ctl` (default true). */
  readonly control?: boolean;
}

/** A running account. */
export interface LiveRun {
  /** The account's connection: one venue per pair. */
  readonly session: AccountSession;
  readonly daemon: RunningDaemon;
  readonly logger: Logger;
}

/** The live venue's settings from a validated pair file (also used by `akira-mm preflight`). */
export function liveVenueConfig(config: PairConfig, signer: OpenedSigner, signingWorkers?: number): LiveVenueConfig {
  return {
    httpUrl: config.exchangeHttpUrl,
    wsUrl: config.exchangeWsUrl,
    chain: config.chain,
    tradingAccount: config.tradingAccount,
    ...(signer.kind === 'key' ? { signerPrivateKey: signer.privateKey } : {}),
    signingPolicy: signingPolicyOf(config),
    base: config.base,
    quote: config.quote,
    ecosystemBook: config.ecosystemBook,
    ...settingsOf(ENGINE_KEYS, 'live-venue', config.keys),
    gasPriceMultiplier: config.gasPriceMultiplier.value,
    withdrawHash: config.withdrawHash,
    contracts: config.contracts,
    fastCancel: config.fastCancel,
    ...(config.starknetRpcUrl === undefined ? {} : { starknetRpcUrl: config.starknetRpcUrl }),
    ...(signingWorkers === undefined ? {} : { signingWorkers }),
  };
}

/**
 * Starts every pair of the account against the venue the files name; resolves once all of them
 * quote.
 * @throws UsageError for files that cannot share one process (`checkAccountFiles`), a signer that
 *   cannot be opened, a strategy's bad keys, an account already served from this state directory.
 */
export async function startLiveRun(options: LiveRunOptions): Promise<LiveRun> {
  const { io } = options;
  const first = options.config;
  const configs = [first, ...(options.otherConfigs ?? [])];
  const paths = options.paths ?? configs.map((config) => `${config.base}/${config.quote}`);
  checkAccountFiles(configs, paths);
  const logger = options.logger ?? createLogger({ level: first.logLevel, base: { account: first.tradingAccount } });
  const clock = options.clock ?? new LiveClock();
  // Salts must be unpredictable on a real venue: the live RNG is seeded from the OS, once.
  const rng = createRng(randomBytes(4).readUInt32LE(0));
  if (first.starknetRpcUrl === undefined) {
    logger.warn({ chain: first.chain }, 'STARKNET_RPC_URL is not set: the fee recipient and contract addresses signed into every order are not checked against the chain (`akira-mm preflight` says which are verified)');
  }
  const audit = new SigningAudit(logger);
  const signer = options.signer ?? (await openSigner(first, { io, logger, clock, audit, ...(options.permissions === undefined ? {} : { permissions: options.permissions }) }));
  // One signer for the account: it signs for every pair of these files and nothing else.
  const policy = mergePolicies(configs, paths);
  const session = new AccountSession(
    configs.map((config) => ({ ...liveVenueConfig(config, signer, options.signingWorkers ?? first.signingWorkers), signingPolicy: policy })),
    { clock, rng, logger, audit, ...remoteSignerDeps(signer) },
  );
  const journalOptions = { journalPath: options.journalPath, stateDir: options.stateDir, env: io.env, cwd: io.cwd };
  try {
    const pairs = configs.map((config, index): DaemonPair => {
      const venue = session.venues[index] as LiveVenue;
      const chain = getChain(config.chain);
      const pairLogger = logger.child({ pair: `${config.base}/${config.quote}` });
      const hedge = createHedger(config, { clock, rng, logger: pairLogger, journalPath: hedgeJournalPath(orderJournalPath(config, journalOptions), config.base, config.quote) });
      // REFERENCE=…: the deep market the fair price (FAIR_PRICE=reference|blend) and its pauses read; the engine start starts it, the engine stops it.
      const reference = createReferenceFeed(config.reference, { clock, rng, logger: pairLogger });
      const reloadConfig = options.reloadConfig;
      return {
        config,
        venue,
        ...(reloadConfig === undefined ? {} : { reload: () => reloadConfig(index) }),
        settings: engineSettingsOf(config.keys, { baseDecimals: getToken(chain, config.base).decimals, quoteDecimals: getToken(chain, config.quote).decimals }),
        ...(hedge === undefined ? {} : { hedge }),
        ...(reference === undefined ? {} : { reference }),
        registerMetrics: (registry) => {
          registerPresignMetrics(registry, venue);
          if (reference !== undefined) registerReferenceMetrics(registry, reference, clock);
        },
      };
    });
    const firstVenue = session.venues[0] as LiveVenue;
    const startedAtMs = clock.nowMs();
    const daemon = await startDaemon({
      pairs,
      // Orders of earlier runs are not someone else's: only this run's count (to the second, a little before).
      accountVenue: { fetchAccount: () => firstVenue.fetchAccount(), fetchAccountOrders: () => session.fetchAccountOrders(startedAtMs - 1_000) },
      logger,
      io,
      closeShared: () => session.stop(),
      venueCounters: { reconnects: () => session.streamStats.reconnects, rateLimited: () => firstVenue.rateLimited() },
      registerMetrics: (registry) => {
        registerWireAnomalyMetrics(registry, firstVenue);
        registerRateLimitMetrics(registry, firstVenue);
        registerSigningMetrics(registry, audit);
      },
      ...(options.metricsHost === undefined ? {} : { metricsHost: options.metricsHost }),
      ...(options.journalPath === undefined ? {} : { journalPath: options.journalPath }),
      ...(options.keepJournalHistory === true ? { keepJournalHistory: true } : {}),
      ...(options.clock === undefined ? {} : { clock: options.clock }),
      ...(options.stateDir === undefined ? {} : { stateDir: options.stateDir }),
      ...(options.lockAccount === undefined ? {} : { lockAccount: options.lockAccount }),
      ...(options.stopSignal === undefined ? {} : { stopSignal: options.stopSignal }),
      ...(options.showStatus === undefined ? {} : { showStatus: options.showStatus }),
      ...(options.observerOf === undefined ? {} : { observerOf: options.observerOf }),
      ...(options.control === undefined ? {} : { control: options.control }),
    });
    return { session, daemon, logger };
  } catch (error) {
    await session.stop();
    throw error;
  }
}

/**
 * The venue's signer when the key is held by `signer serve`: it signs, pre-signs (batches) and
 * signs fast-sign challenges; the venue closes it on stop. Nothing for a key held here.
 */
export function remoteSignerDeps(signer: OpenedSigner, options: { readonly presign?: boolean } = {}): Pick<LiveVenueFactoryDeps, 'signer'> {
  if (signer.kind !== 'remote') return {};
  const remote = signer.remote;
  return { signer: { signer: remote, fastSignSigner: remote, ...(options.presign === false ? {} : { batchSigner: remote }) } };
}
