/**
 * What `run` and `paper` share: a validated pair file becomes a live venue (REST + WS + signer)
 * and a daemon around the engine. Only the URLs differ: `run` uses the file's, `paper` points
 * them at the embedded exchange it started.
 */
import { randomBytes } from 'node:crypto';
import type { PairConfig, PermissionOptions } from '../config/index.ts';
import { ENGINE_KEYS, LiveClock, createLogger, createRng, getChain, getToken, settingsOf, type Logger } from '../core/index.ts';
import { WIRE_ANOMALY_KINDS, createLiveVenue, type LiveVenue, type LiveVenueConfig, type LiveVenueFactoryDeps } from '../exchange/index.ts';
import { REFUSAL_KINDS, SigningAudit } from '../exchange/signer/index.ts';
import { engineSettingsOf } from '../engine/index.ts';
import { startDaemon, type RunningDaemon } from './daemon.ts';
import { hedgeJournalPath, orderJournalPath } from './state-dir.ts';
import { createHedger } from './hedge-wiring.ts';
import type { CliIo } from './io.ts';
import { openSigner, signingPolicyOf, type OpenedSigner } from './signer-setup.ts';
import { Counter, Gauge, type Registry } from 'prom-client';
import { createReferenceFeed, registerReferenceMetrics } from '../markets/index.ts';

/**
 * Pre-signing effectiveness (a miss means a requote signed in the hot path), and what the venue
 * sent that the client read past (issue 11 item 3), by kind.
 */
function registerVenueMetrics(registry: Registry, venue: LiveVenue): void {
  registerWireAnomalyMetrics(registry, venue);
  registerPresignMetrics(registry, venue);
}

/** What the venue sent that the client read past, by kind (one count per connection: several pairs on one account register it once). */
export function registerWireAnomalyMetrics(registry: Registry, venue: LiveVenue): void {
  const reported = new Map<string, number>();
  new Counter({
    name: 'akira_mm_wire_anomalies_total',
    help: 'Oddities in venue messages read past instead of dropping the message (extra decimals, unknown enum values, unreadable frames …)',
    labelNames: ['kind'],
    registers: [registry],
    collect() {
      for (const kind of WIRE_ANOMALY_KINDS) {
        const count = venue.wireAnomalies().get(kind) ?? 0;
        this.inc({ kind }, count - (reported.get(kind) ?? 0));
        reported.set(kind, count);
      }
    },
  });
}

/** Pre-signing effectiveness of one pair's venue. */
export function registerPresignMetrics(registry: Registry, venue: LiveVenue): void {
  const stats = (): ReturnType<LiveVenue['presignStats']> => venue.presignStats();
  new Gauge({ name: 'akira_mm_presign_hits_total', help: 'Orders sent pre-signed', registers: [registry], collect() { this.set(stats().hits); } });
  new Gauge({ name: 'akira_mm_presign_misses_total', help: 'Orders signed in the hot path (no pre-signed match)', registers: [registry], collect() { this.set(stats().misses); } });
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

export interface LiveRunOptions {
  readonly config: PairConfig;
  readonly io: CliIo;
  readonly logger?: Logger;
  readonly metricsHost?: string;
  readonly journalPath?: string;
  /** State directory (journal, account lock); default as `resolveStateDir`. */
  readonly stateDir?: string;
  /** Lock the account in the state directory (default true). */
  readonly lockAccount?: boolean;
  readonly stopSignal?: Promise<string>;
  readonly showStatus?: boolean;
  /** Signing worker threads (default SIGNING_WORKERS, 0: pre-signing runs on the event loop in idle slices). */
  readonly signingWorkers?: number;
  /** How strictly a keystore's permissions are checked (`--insecure-permissions`). */
  readonly permissions?: PermissionOptions;
  /** The signer, already opened (default: opened from `config.signer`). */
  readonly signer?: OpenedSigner;
}

export interface LiveRun {
  readonly venue: LiveVenue;
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

/** Starts the engine against the venue the config names; resolves once it is quoting. */
export async function startLiveRun(options: LiveRunOptions): Promise<LiveRun> {
  const { config, io } = options;
  const logger = options.logger ?? createLogger({ level: config.logLevel, base: { pair: `${config.base}/${config.quote}` } });
  const clock = new LiveClock();
  // Salts must be unpredictable on a real venue: the live RNG is seeded from the OS, once.
  const rng = createRng(randomBytes(4).readUInt32LE(0));
  const chain = getChain(config.chain);
  if (config.starknetRpcUrl === undefined) {
    logger.warn({ chain: config.chain }, 'STARKNET_RPC_URL is not set: the fee recipient and contract addresses signed into every order are not checked against the chain (`akira-mm preflight` says which are verified)');
  }
  const audit = new SigningAudit(logger);
  const signer = options.signer ?? (await openSigner(config, { io, logger, clock, audit, ...(options.permissions === undefined ? {} : { permissions: options.permissions }) }));
  const venue = createLiveVenue(liveVenueConfig(config, signer, options.signingWorkers ?? config.signingWorkers), { clock, rng, logger, audit, ...remoteSignerDeps(signer) });
  const settings = engineSettingsOf(config.keys, { baseDecimals: getToken(chain, config.base).decimals, quoteDecimals: getToken(chain, config.quote).decimals });
  // REFERENCE=…: the deep market the fair price (FAIR_PRICE=reference|blend) and its pauses read; the engine starts and stops it.
  const reference = createReferenceFeed(config.reference, { clock, rng, logger });
  const hedge = createHedger(config, { clock, rng, logger, journalPath: hedgeJournalPath(orderJournalPath(config, { journalPath: options.journalPath, stateDir: options.stateDir, env: io.env, cwd: io.cwd }), config.base, config.quote) });
  const daemon = await startDaemon({
    config,
    venue,
    settings,
    logger,
    io,
    ...(hedge === undefined ? {} : { hedge }),
    ...(reference === undefined ? {} : { reference }),
    ...(options.metricsHost === undefined ? {} : { metricsHost: options.metricsHost }),
    ...(options.journalPath === undefined ? {} : { journalPath: options.journalPath }),
    ...(options.stateDir === undefined ? {} : { stateDir: options.stateDir }),
    ...(options.lockAccount === undefined ? {} : { lockAccount: options.lockAccount }),
    ...(options.stopSignal === undefined ? {} : { stopSignal: options.stopSignal }),
    ...(options.showStatus === undefined ? {} : { showStatus: options.showStatus }),
    registerMetrics: (registry) => {
      registerVenueMetrics(registry, venue);
      registerSigningMetrics(registry, audit);
      if (reference !== undefined) registerReferenceMetrics(registry, reference, clock);
    },
  });
  return { venue, daemon, logger };
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
